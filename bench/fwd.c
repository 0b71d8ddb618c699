/* fwd: a value stored to memory and loaded back at once, in a dependent
 * chain: what unoptimised (-O0) code pays for every variable, which lives
 * in a stack slot between statements. An integer register's value and a
 * double's (SSE or NEON register) take different paths on some cores
 * (memory renaming of integer stack slots), hence one kernel each. A load
 * that overlaps a store only in part cannot take its value from the store
 * and waits for the store to reach the cache: `load.fwdfail.lat`, a 4-byte
 * store under an 8-byte load (what code that swaps neighbours with one
 * wide load and store pays). The compiled-code model prices the chains
 * through stack slots and array elements with them. */
#include "bench/asm.h"
#include "bench/bench.h"

#if defined(__x86_64__)
#define RT_I(k) "mov %[t], 8(%[p])\n\tmov 8(%[p]), %[t]\n\t"
#define RT_F(k) "movsd %[x], 8(%[p])\n\tmovsd 8(%[p]), %[x]\n\t"
#define RT_P(k) "mov %k[t], 12(%[p])\n\tmov 8(%[p]), %[t]\n\t"
#define RT_O(k) "mov %[t], 8(%[p])\n\tadd 8(%[p]), %[t]\n\t"
#elif defined(__aarch64__)
#define RT_I(k) "str %x[t], [%x[p], #8]\n\tldr %x[t], [%x[p], #8]\n\t"
#define RT_F(k) "str %d[x], [%x[p], #8]\n\tldr %d[x], [%x[p], #8]\n\t"
#define RT_P(k) "str %w[t], [%x[p], #12]\n\tldr %x[t], [%x[p], #8]\n\t"
#define RT_O(k) "str %x[t], [%x[p], #8]\n\tldr x9, [%x[p], #8]\n\tadd %x[t], %x[t], x9\n\t"
#endif

/* An integer's round trip, the store (C fallback: STORE of t to p) and
 * the load in RT. */
#if defined(EPI_ASM)
#define INT_TRIP(name, RT, STORE)                                                                       \
	static void name(epi_bench_ctx *c, uint64_t n)                                                  \
	{                                                                                               \
		uint64_t slot[4] = {0}, t = 1;                                                          \
		uint64_t *p = slot;                                                                     \
		(void)c;                                                                                \
		if (n)                                                                                  \
			__asm__ volatile("1:\n\t" EPI_OFFS32(RT) EPI_LOOP : [t] "+&r"(t), [n] EPI_NCON(n) \
					 : [p] "r"(p) : "cc", "memory");                                        \
		EPI_KEEP(t);                                                                            \
	}
#else
#define INT_TRIP(name, RT, STORE)                                                                       \
	static void name(epi_bench_ctx *c, uint64_t n)                                                  \
	{                                                                                               \
		uint64_t slot[4] = {0}, t = 1;                                                          \
		uint64_t *p = slot;                                                                     \
		(void)c;                                                                                \
		for (; n; n--)                                                                          \
			for (int i = 0; i < EPI_UNROLL; i++) {                                          \
				STORE;                                                                  \
				t = *(volatile uint64_t *)&p[1];                                        \
			}                                                                               \
		EPI_KEEP(t);                                                                            \
	}
#endif

INT_TRIP(run_i, RT_I, *(volatile uint64_t *)&p[1] = t)
INT_TRIP(run_p, RT_P, *(volatile uint32_t *)((char *)p + 12) = (uint32_t)t)
INT_TRIP(run_o, RT_O, *(volatile uint64_t *)&p[1] = t; t += 0)

static void run_f(epi_bench_ctx *c, uint64_t n)
{
	double slot[4] = {0}, x = 1;
	double *p = slot;
	(void)c;
	if (!n)
		return;
#if defined(EPI_ASM)
	__asm__ volatile("1:\n\t" EPI_OFFS32(RT_F) EPI_LOOP : [x] "+&" EPI_FPCON(x), [n] EPI_NCON(n) : [p] "r"(p)
			 : "cc", "memory");
#else
	for (; n; n--)
		for (int i = 0; i < EPI_UNROLL; i++) {
			*(volatile double *)&p[1] = x;
			x = *(volatile double *)&p[1];
		}
#endif
	EPI_KEEPX(x);
}

const epi_kernel epi_k_fwd_i64_lat = {
	.name = "load.fwd.lat", .what = "int64 stored and loaded back, dependent chain",
	.seq = EPI_ISA("mov %rax, 8(%rsi); mov 8(%rsi), %rax", "str x0, [x1, #8]; ldr x0, [x1, #8]"),
	.unit = EPI_UNIT_OP, .latency = 1, .units = EPI_UNROLL, .run = run_i,
};

const epi_kernel epi_k_fwd_f64_lat = {
	.name = "load.fwdfp.lat", .what = "double stored and loaded back, dependent chain",
	.seq = EPI_ISA("movsd %xmm0, 8(%rsi); movsd 8(%rsi), %xmm0", "str d0, [x1, #8]; ldr d0, [x1, #8]"),
	.unit = EPI_UNIT_OP, .latency = 1, .units = EPI_UNROLL, .run = run_f,
};

const epi_kernel epi_k_fwd_fail_lat = {
	.name = "load.fwdfail.lat", .what = "4-byte store, 8-byte load over it, dependent chain (no forwarding)",
	.seq = EPI_ISA("mov %eax, 12(%rsi); mov 8(%rsi), %rax", "str w0, [x1, #12]; ldr x0, [x1, #8]"),
	.unit = EPI_UNIT_OP, .latency = 1, .units = EPI_UNROLL, .run = run_p,
};

const epi_kernel epi_k_fwd_op_lat = {
	.name = "load.fwdop.lat", .what = "int64 stored and added back from memory, dependent chain",
	.seq = EPI_ISA("mov %rax, 8(%rsi); add 8(%rsi), %rax", "str x0, [x1, #8]; ldr x9, [x1, #8]; add x0, x0, x9"),
	.unit = EPI_UNIT_OP, .latency = 1, .units = EPI_UNROLL, .run = run_o,
};

/* A statement of unoptimised code: every variable in a stack slot, as -O0
 * keeps them (volatile locals here, so that every read and write of them
 * is a load or a store whatever the compiler), y[i] = y[i] + a * x[i];
 * i = i + 1 over two arrays in L1. Per memory access, of which the C
 * statement has exactly FRAME_ACCESSES: eight loads of slots (i four
 * times, y twice, x, a), the store of i, two element loads and an
 * element's store. Slots loaded just after they were stored and stores
 * to two lines in turn make these accesses retire slower than
 * independent ones (load.mix.l1); the compiled-code model prices stack
 * slots' accesses with it. */
#define FRAME_ACCESSES 12
#define FRAME_ELEMS 512

static int setup_frame(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	(void)k;
	return epi_bench_alloc(c, 2 * FRAME_ELEMS * sizeof(double), 0, err);
}

static void run_frame(epi_bench_ctx *c, uint64_t n)
{
	volatile long i = 0;
	double *volatile x = c->buf, *volatile y = (double *)c->buf + FRAME_ELEMS;
	volatile double a = 1;
	for (; n; n--) {
		R32(y[i & (FRAME_ELEMS - 1)] = y[i & (FRAME_ELEMS - 1)] + a * x[i & (FRAME_ELEMS - 1)]; i = i + 1;)
	}
}

const epi_kernel epi_k_load_mix_frame = {
	.name = "load.mix.frame",
	.what = "a statement of -O0 code, every variable in a stack slot (y[i] = y[i] + a * x[i]; i = i + 1): "
		"per memory access",
	.seq = "y[i] = y[i] + a * x[i]; i = i + 1; i, x, y, a volatile locals: 8 slot loads, a slot store, "
	       "2 element loads, an element store",
	.unit = EPI_UNIT_OP, .level = EPI_LVL_L1, .units = EPI_UNROLL * FRAME_ACCESSES, .setup = setup_frame,
	.run = run_frame, .teardown = epi_bench_free,
};
