/* The cost table loader (model/table.c: libxml2, the schema, then every
 * value's checks): any bytes give a table whose columns all read, or one
 * line of error. */
#include "fuzz/fuzz.h"
#include "model/table.h"
#include "model/util.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[EPI_ERRLEN];
	epi_table t;
	if (epi_table_load(&t, fuzz_file("table.xml", data, size), err) < 0) {
		if (!err[0])
			abort(); /* an error says what */
		return 0;
	}
	for (int i = 0; i < t.nf; i++) {
		epi_fcol c;
		if (epi_table_at(&t, t.f[i].khz, &c, err) == 0)
			epi_fcol_free(&c);
	}
	epi_table_free(&t);
	return 0;
}
