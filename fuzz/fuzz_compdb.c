/* compile_commands.json (predict/compdb.c, through libclang's reader):
 * flags for the file, or one line saying why not. */
#include "fuzz/fuzz.h"
#include "model/util.h"
#include "predict/cfront.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[128], err[EPI_ERRLEN];
	const char *path = fuzz_file("compile_commands.json", data, size);
	snprintf(dir, sizeof dir, "%s", path);
	*strrchr(dir, '/') = 0;
	int argc = 0;
	char **argv = epi_compdb_args(dir, "x.c", &argc, err);
	if (!argv)
		return 0;
	for (int i = 0; i < argc; i++) {
		if (!argv[i])
			abort();
		free(argv[i]);
	}
	free(argv);
	return 0;
}
