/* paper: RR-8416's own C kernels (section III), compiled without
 * optimisation (-O0, set in the Makefile) as the paper did, for
 * `epi-calibrate --style paper`. Each measures an operation in context:
 * the loop around it is part of its cost, and nothing is subtracted. One
 * iteration is the paper's inner loop of LENGTH operations, restarted from
 * the same value each time (its NB_REPEAT outer loop); memory reads and
 * writes use inline assembly, as the paper's did, so that they happen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "model/util.h"

#define LENGTH 1000
#define MIB (1 << 20)

static void p_add(epi_bench_ctx *c, uint64_t n)
{
	register float s;
	int i;
	for (; n; n--) {
		s = 0.25;
		for (i = 0; i < LENGTH; i++)
			s += 0.3141516;
	}
	(void)s;
}

static void p_mul(epi_bench_ctx *c, uint64_t n)
{
	register float s;
	int i;
	for (; n; n--) {
		s = 0.25;
		for (i = 0; i < LENGTH; i++)
			s *= 1.0000001;
	}
	(void)s;
}

static void p_div(epi_bench_ctx *c, uint64_t n)
{
	register float s;
	int i;
	for (; n; n--) {
		s = 0.25;
		for (i = 0; i < LENGTH; i++)
			s /= 1.0000001;
	}
	(void)s;
}

static void p_cmp(epi_bench_ctx *c, uint64_t n)
{
	register float s = 0.25;
	register int r = 0;
	int i;
	for (; n; n--)
		for (i = 0; i < LENGTH; i++)
			r = s < 0.3141516;
	(void)r;
}

static int p_setup_buf(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	return epi_bench_alloc(c, k->unit == EPI_UNIT_MIB ? 2 * MIB : LENGTH * sizeof(int), 0, err);
}

static void p_load(epi_bench_ctx *c, uint64_t n)
{
	int *a = c->buf;
	int i;
	for (; n; n--)
		for (i = 0; i < LENGTH; i++) {
#if defined(__x86_64__)
			__asm__ volatile("movl (%0), %%eax" : : "r"(a + i) : "eax");
#else
			(void)*(volatile int *)(a + i);
#endif
		}
}

static void p_store(epi_bench_ctx *c, uint64_t n)
{
	int *a = c->buf;
	int i;
	for (; n; n--)
		for (i = 0; i < LENGTH; i++) {
#if defined(__x86_64__)
			__asm__ volatile("movl %1, (%0)" : : "r"(a + i), "r"(i) : "memory");
#else
			*(volatile int *)(a + i) = i;
#endif
		}
}

static void p_memcpy(epi_bench_ctx *c, uint64_t n)
{
	char *a = c->buf;
	for (; n; n--) {
		memcpy(a + MIB, a, MIB);
		__asm__ volatile("" : : : "memory");
	}
}

static void p_malloc(epi_bench_ctx *c, uint64_t n)
{
	for (; n; n--) {
		char *p = malloc(MIB);
		__asm__ volatile("" : : "r"(p) : "memory");
		free(p);
	}
}

static void p_print(epi_bench_ctx *c, uint64_t n)
{
	int i;
	for (; n; n--)
		for (i = 0; i < LENGTH; i++)
			fprintf(c->aux, "%d\n", i);
}

#define P(nm, wh, sq, fn) {.name = nm, .what = wh, .seq = sq, .unit = EPI_UNIT_OP, .units = LENGTH, .run = fn}

static const epi_kernel paper[] = {
	P("add", "float addition in a loop at -O0", "s += 0.3141516 (register float)", p_add),
	P("mul", "float multiplication in a loop at -O0", "s *= 1.0000001 (register float)", p_mul),
	P("div", "float division in a loop at -O0", "s /= 1.0000001 (register float)", p_div),
	P("cmp", "float comparison in a loop at -O0", "r = s < 0.3141516", p_cmp),
	{.name = "load", .what = "int read in a loop at -O0 (inline asm)", .seq = "movl (a + i), %eax",
	 .unit = EPI_UNIT_OP, .units = LENGTH, .setup = p_setup_buf, .run = p_load, .teardown = epi_bench_free},
	{.name = "store", .what = "int write in a loop at -O0 (inline asm)", .seq = "movl i, (a + i)",
	 .unit = EPI_UNIT_OP, .units = LENGTH, .setup = p_setup_buf, .run = p_store, .teardown = epi_bench_free},
	{.name = "memcpy", .what = "memcpy of 1 MiB, per MiB", .seq = "memcpy(dst, src, 1 MiB)", .unit = EPI_UNIT_MIB,
	 .units = 1, .setup = p_setup_buf, .run = p_memcpy, .teardown = epi_bench_free},
	{.name = "malloc", .what = "malloc of 1 MiB and free, per MiB", .seq = "malloc(1 MiB); free",
	 .unit = EPI_UNIT_MIB, .units = 1, .run = p_malloc},
	{.name = "print", .what = "fprintf(\"%d\\n\") to /dev/null in a loop at -O0", .seq = "fprintf(f, \"%d\\n\", i)",
	 .unit = EPI_UNIT_OP, .units = LENGTH, .setup = epi_bench_open_null, .run = p_print, .teardown = epi_bench_close_null},
};

const epi_kernel *const *epi_kernels_paper(int *n)
{
	static const epi_kernel *list[sizeof paper / sizeof *paper];
	for (size_t i = 0; i < sizeof paper / sizeof *paper; i++)
		list[i] = &paper[i];
	*n = (int)(sizeof paper / sizeof *paper);
	return list;
}
