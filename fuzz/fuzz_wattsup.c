/* The WattsUp? Pro's records (machine/meter_wattsup.c), cut into reads
 * of the sizes the first bytes say: the buffer never overflows, a power is
 * one a record can hold, the energy stays finite. */
#include "fuzz/fuzz.h"
#include "machine/meter.h"

#include <math.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	size_t cut = (size_t)data[0] + 1;
	data++, size--;
	epi_wattsup s = {0};
	double now = 0;
	for (size_t at = 0; at < size; at += cut, now += 0.5) {
		size_t k = size - at < cut ? size - at : cut;
		epi_wattsup_feed(&s, (const char *)data + at, k, now);
		if (s.len >= sizeof s.buf || s.bad_run < 0)
			abort();
		if (s.have && (!(s.w >= 0 && s.w <= 20000) || !isfinite(s.acc)))
			abort();
	}
	return 0;
}
