/* The trace reader (validate/trace.c): any bytes open with a header and
 * give records up to a clean end or an error naming a byte offset. */
#include "fuzz/fuzz.h"
#include "model/util.h"
#include "validate/trace.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[EPI_ERRLEN];
	epi_trace_reader r;
	if (epi_trace_open(&r, fuzz_file("t.trace", data, size), err) < 0)
		return 0;
	epi_trace_item it;
	int k;
	uint64_t last = 0;
	while ((k = epi_trace_next(&r, &it, err)) > 0) {
		if (it.offset < last || it.offset >= size)
			abort(); /* records move forward within the file */
		last = it.offset;
		if (it.type == EPI_REC_MAP && strlen(it.u.map.path) >= sizeof it.u.map.path)
			abort();
	}
	if (k < 0 && !strstr(err, "at byte "))
		abort();
	epi_trace_close(&r);
	return 0;
}
