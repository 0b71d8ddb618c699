/* malloc: per call, malloc(64) and free; per MiB, malloc(4 MiB), a first
 * write to each of its 4 KiB pages, and free: what fresh memory costs a
 * program, page faults included, whatever the allocator does (glibc moves
 * its mmap threshold up after the first free, as it does in programs). */
#include <stdlib.h>

#include "bench/asm.h"
#include "bench/bench.h"

#define BIG (4u << 20)

static void call(epi_bench_ctx *c, uint64_t n)
{
	(void)c;
	for (; n; n--) {
		void *p = malloc(64);
		EPI_KEEP(p);
		free(p);
	}
}

static void mib(epi_bench_ctx *c, uint64_t n)
{
	(void)c;
	for (; n; n--) {
		char *p = malloc(BIG);
		if (!p)
			abort();
		for (size_t i = 0; i < BIG; i += 4096)
			p[i] = 1;
		EPI_KEEP(p);
		free(p);
	}
}

const epi_kernel epi_k_malloc_call = {.name = "malloc.call", .what = "malloc(64) and free, per call",
				      .seq = "malloc(64); free", .unit = EPI_UNIT_OP, .units = 1, .run = call};
const epi_kernel epi_k_malloc = {.name = "malloc", .what = "malloc(4 MiB), first write per page, free; per MiB",
				 .seq = "malloc(4 MiB); p[4096k] = 1; free", .unit = EPI_UNIT_MIB,
				 .units = (double)BIG / (1 << 20), .run = mib};
