/* load: element reads from a buffer sized for one cache level (L1, L2, L3,
 * DRAM). Throughput: 32 independent 8-byte loads in address order per
 * iteration, then the pointer advances 256 bytes and wraps at the end of
 * the buffer (add, cmp, cmovae or csel: part of each iteration's cost). Latency:
 * pointer chasing, `mov (%rax), %rax`, through the buffer's cache lines in
 * a random cyclic order (GSL's shuffle), so that neither the prefetcher
 * nor overlap hides the load-to-use time. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

#include "bench/asm.h"
#include "bench/bench.h"

/* One load of 8 bytes at offset K from %[p]; one step of the chase. */
#if defined(__x86_64__)
#define LD(k) "mov " #k "(%[p]), %[t]\n\t"
#define CHASE "mov (%[p]), %[p]\n\t"
#elif defined(__aarch64__)
#define LD(k) "ldr %x[t], [%x[p], #" #k "]\n\t"
#define CHASE "ldr %x[p], [%x[p]]\n\t"
#endif

static int setup_seq(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	(void)k;
	return epi_bench_alloc(c, c->bytes, 0, err);
}

static void thr(epi_bench_ctx *c, uint64_t n)
{
	char *p = c->buf, *start = c->buf, *end = (char *)c->buf + c->bytes;
	if (!n)
		return;
#if defined(EPI_ASM)
	uint64_t t;
	__asm__ volatile("1:\n\t" EPI_OFFS32(LD) EPI_WRAP256 EPI_LOOP
			 : [p] "+&r"(p), [t] "=&r"(t), [n] EPI_NCON(n)
			 : [start] "r"(start), [end] "r"(end)
			 : "cc", "memory");
#else
	for (; n; n--) {
		volatile uint64_t *q = (volatile uint64_t *)p;
		uint64_t t;
		for (int i = 0; i < EPI_UNROLL; i++)
			t = q[i];
		(void)t;
		p += 256;
		if (p >= end)
			p = start;
	}
#endif
}

/* A random cyclic order of the buffer's 64-byte lines: each line holds
 * the address of the next. */
static int setup_chase(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	(void)k;
	if (epi_bench_alloc(c, c->bytes, 0, err) < 0)
		return -1;
	size_t lines = c->bytes / 64;
	size_t *order = malloc(lines * sizeof *order);
	for (size_t i = 0; i < lines; i++)
		order[i] = i;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 8416);
	gsl_ran_shuffle(r, order, lines, sizeof *order);
	gsl_rng_free(r);
	char *b = c->buf;
	for (size_t i = 0; i < lines; i++)
		*(void **)(b + order[i] * 64) = b + order[(i + 1) % lines] * 64;
	c->aux = b + order[0] * 64;
	free(order);
	return 0;
}

static void lat(epi_bench_ctx *c, uint64_t n)
{
	void *p = c->aux;
	if (!n)
		return;
#if defined(EPI_ASM)
	__asm__ volatile("1:\n\t" R32(CHASE) EPI_LOOP : [p] "+r"(p), [n] EPI_NCON(n) : : "cc", "memory");
#else
	for (; n; n--) {
		R32(p = *(void *volatile *)p;)
	}
#endif
	c->aux = p;
}

#define LOAD_K(var, nm, lvl, wh)                                                                        \
	const epi_kernel var = {.name = nm, .what = "8-byte load in address order, " wh,                 \
				.seq = EPI_ISA("mov 8k(%rsi), %rax", "ldr x0, [x1, #8k]"), .unit = EPI_UNIT_OP, .level = lvl,          \
				.units = EPI_UNROLL, .setup = setup_seq, .run = thr, .teardown = epi_bench_free}
#define CHASE_K(var, nm, lvl, wh)                                                                       \
	const epi_kernel var = {.name = nm, .what = "load-to-use, pointer chasing, " wh,                 \
				.seq = EPI_ISA("mov (%rax), %rax", "ldr x0, [x0]"), .unit = EPI_UNIT_OP, .level = lvl, .latency = 1, \
				.units = EPI_UNROLL, .setup = setup_chase, .run = lat, .teardown = epi_bench_free}

LOAD_K(epi_k_load_l1, "load.l1", EPI_LVL_L1, "buffer in L1");
LOAD_K(epi_k_load_l2, "load.l2", EPI_LVL_L2, "buffer in L2");
LOAD_K(epi_k_load_l3, "load.l3", EPI_LVL_L3, "buffer in L3");
LOAD_K(epi_k_load_dram, "load.dram", EPI_LVL_DRAM, "buffer in DRAM");
CHASE_K(epi_k_load_l1_lat, "load.l1.lat", EPI_LVL_L1, "buffer in L1");
CHASE_K(epi_k_load_l2_lat, "load.l2.lat", EPI_LVL_L2, "buffer in L2");
CHASE_K(epi_k_load_l3_lat, "load.l3.lat", EPI_LVL_L3, "buffer in L3");
CHASE_K(epi_k_load_dram_lat, "load.dram.lat", EPI_LVL_DRAM, "buffer in DRAM");
