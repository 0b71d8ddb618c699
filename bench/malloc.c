/* malloc: per call, malloc(64) and free; per MiB, malloc(4 MiB), a first
 * write to each of its 4 KiB pages, and free: what fresh memory costs a
 * program, page faults included, whatever the allocator does (glibc moves
 * its mmap threshold up after the first free, as it does in programs). */
#include <stdlib.h>
#include <sys/mman.h>

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

/* Fresh pages, as a program's first pass over a large array it has just
 * allocated gets them (glibc maps such arrays anew): a first write to each
 * 4 KiB page of a new mapping, the page faults and the zeroing the kernel
 * does for them. The mapping is the DRAM kernels' size (4 x L3, at least
 * 64 MiB), larger than the caches as such an array is: the zeroing goes to
 * memory, as it does there (a 4 MiB mapping, cached, cost a quarter less
 * a page here). */
static void touch(epi_bench_ctx *c, uint64_t n)
{
	for (; n; n--) {
		char *p = mmap(NULL, c->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			abort();
		for (size_t i = 0; i < c->bytes; i += 4096)
			p[i] = 1;
		EPI_KEEP(p);
		munmap(p, c->bytes);
	}
}

static double touch_mib(const epi_bench_ctx *c)
{
	return (double)c->bytes / (1 << 20);
}

const epi_kernel epi_k_malloc_touch = {.name = "malloc.touch",
				       .what = "fresh pages, first write to each, in a mapping larger than the caches; per MiB",
				       .seq = "mmap(4 x L3); p[4096k] = 1; munmap", .unit = EPI_UNIT_MIB,
				       .level = EPI_LVL_DRAM, .units = 64, .run = touch, /* each run maps its own */
				       .units_of = touch_mib};
const epi_kernel epi_k_malloc_call = {.name = "malloc.call", .what = "malloc(64) and free, per call",
				      .seq = "malloc(64); free", .unit = EPI_UNIT_OP, .units = 1, .run = call};
const epi_kernel epi_k_malloc = {.name = "malloc", .what = "malloc(4 MiB), first write per page, free; per MiB",
				 .seq = "malloc(4 MiB); p[4096k] = 1; free", .unit = EPI_UNIT_MIB,
				 .units = (double)BIG / (1 << 20), .run = mib};
