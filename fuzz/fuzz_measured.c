/* epi-validate's measurements CSV (validate/compare.c): rows, or one line
 * of error naming the file and line. */
#include "fuzz/fuzz.h"
#include "model/util.h"
#include "validate/compare.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[EPI_ERRLEN];
	epi_measured *rows = NULL;
	int n = epi_measured_load(fuzz_file("m.csv", data, size), &rows, err);
	if (n < 0) {
		if (!strstr(err, "m.csv"))
			abort(); /* the error names the file */
		return 0;
	}
	for (int i = 0; i < n; i++)
		if (rows[i].lineno < 1)
			abort();
	epi_measured_free(rows, n);
	return 0;
}
