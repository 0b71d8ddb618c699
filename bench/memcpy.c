/* memcpy: libc's memcpy of half a buffer into its other half, the buffer
 * sized for one cache level; the cost is per MiB copied. */
#include <string.h>

#include "bench/asm.h"
#include "bench/bench.h"

static int setup(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	(void)k;
	if (epi_bench_alloc(c, c->bytes, 0, err) < 0)
		return -1;
	memset(c->buf, 1, c->bytes);
	return 0;
}

static void run(epi_bench_ctx *c, uint64_t n)
{
	size_t half = c->bytes / 2;
	char *src = c->buf, *dst = src + half;
	for (; n; n--) {
		memcpy(dst, src, half);
		EPI_CLOBBER();
	}
}

static double units(const epi_bench_ctx *c)
{
	return (double)(c->bytes / 2) / (1 << 20);
}

#define MEMCPY_K(var, nm, lvl, wh)                                                                   \
	const epi_kernel var = {.name = nm, .what = "memcpy, " wh, .seq = "memcpy(dst, src, size / 2)", \
				.unit = EPI_UNIT_MIB, .level = lvl, .setup = setup, .run = run,       \
				.teardown = epi_bench_free, .units_of = units}

MEMCPY_K(epi_k_memcpy_l1, "memcpy.l1", EPI_LVL_L1, "buffer in L1");
MEMCPY_K(epi_k_memcpy_l2, "memcpy.l2", EPI_LVL_L2, "buffer in L2");
MEMCPY_K(epi_k_memcpy_l3, "memcpy.l3", EPI_LVL_L3, "buffer in L3");
MEMCPY_K(epi_k_memcpy_dram, "memcpy.dram", EPI_LVL_DRAM, "buffer in DRAM");
