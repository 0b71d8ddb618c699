/* branch: a conditional branch on random data, taken half the time, so that
 * the predictor is wrong about half the time: the cost of a branch the data
 * decides. Each unit tests one byte of a buffer of random bits (sized for
 * L2, larger than any predictor can learn: one outcome per byte read, 32 per
 * iteration at offsets 0, 8, ..., 248, then the pointer advances 256 bytes
 * and wraps) and skips an add when the bit is clear. The compiled-code
 * model prices a mispredicted branch with it. */
#include <gsl/gsl_rng.h>

#include "bench/asm.h"
#include "bench/bench.h"
#include "model/util.h"

#if defined(__x86_64__)
#define BR(k) "testb $1, " #k "(%[p])\n\tjz 2f\n\tadd $1, %[t]\n2:\n\t"
#elif defined(__aarch64__)
#define BR(k) "ldrb w9, [%x[p], #" #k "]\n\ttbz w9, #0, 2f\n\tadd %x[t], %x[t], #1\n2:\n\t"
#endif

static int setup(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	(void)k;
	if (epi_bench_alloc(c, c->bytes, 0, err) < 0)
		return -1;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!r) {
		epi_bench_free(c);
		return epi_error(err, "cannot allocate a random number generator for the branch kernel");
	}
	gsl_rng_set(r, 12345);
	unsigned char *b = c->buf;
	for (size_t i = 0; i < c->bytes; i++)
		b[i] = (unsigned char)gsl_rng_uniform_int(r, 2);
	gsl_rng_free(r);
	return 0;
}

static void run(epi_bench_ctx *c, uint64_t n)
{
	char *p = c->buf, *start = c->buf, *end = (char *)c->buf + c->bytes;
	uint64_t t = 0;
	if (!n)
		return;
#if defined(EPI_ASM)
	__asm__ volatile("1:\n\t" EPI_OFFS32(BR) EPI_WRAP256 EPI_LOOP
			 : [p] "+&r"(p), [t] "+&r"(t), [n] EPI_NCON(n)
			 : [start] "r"(start), [end] "r"(end)
			 : "cc", "memory"
#if defined(__aarch64__)
			   , "x9"
#endif
	);
#else
	for (; n; n--) {
		for (int i = 0; i < EPI_UNROLL; i++)
			if (((volatile unsigned char *)p)[i * 8] & 1)
				t++;
		p += 256;
		if (p >= end)
			p = start;
	}
#endif
	EPI_KEEP(t);
}

const epi_kernel epi_k_branch_miss = {
	.name = "cmp.branch.miss", .what = "a branch on random bits, taken half the time (mispredicted about half)",
	.seq = EPI_ISA("testb $1, 8k(%rsi); jz 2f; add $1, %rax; 2:", "ldrb w9, [x1, #8k]; tbz w9, #0, 2f; add x0, x0, #1; 2:"),
	.unit = EPI_UNIT_OP, .level = EPI_LVL_L3, .units = EPI_UNROLL, .setup = setup, .run = run,
	.teardown = epi_bench_free,
};
