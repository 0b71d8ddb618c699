/* The command lines' value parsers: frequencies (--freq 2.4GHz), loop
 * parameters (--param n=1e6) and trip counts (--trip file.c:12=n/2). */
#include "fuzz/fuzz.h"
#include "model/freq.h"
#include "model/util.h"
#include "predict/cfront.h"
#include "predict/report.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = fuzz_string(data, size);
	char err[EPI_ERRLEN];
	long khz;
	if (epi_freq_parse(s, &khz, err) == 0 && khz <= 0)
		abort(); /* a frequency is positive */
	int r = epi_bind_param(NULL, NULL, s, err);
	if (r != 0 && r != EPI_BIND_USAGE && r != -1)
		abort();
	epi_trip t = {0};
	if (epi_trip_parse(&t, s, err) == 0) {
		if (t.line < 1 || !t.expr)
			abort();
		free(t.file);
		free(t.expr);
		free(t.origin);
	}
	return 0;
}
