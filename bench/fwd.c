/* fwd: a value stored to memory and loaded back at once, in a dependent
 * chain: what unoptimised (-O0) code pays for every variable, which lives
 * in a stack slot between statements. An integer register's value and a
 * double's (SSE or NEON register) take different paths on some cores
 * (memory renaming of integer stack slots), hence one kernel each. The
 * compiled-code model prices the chains through stack slots with them. */
#include "bench/asm.h"
#include "bench/bench.h"

#if defined(__x86_64__)
#define RT_I(k) "mov %[t], 8(%[p])\n\tmov 8(%[p]), %[t]\n\t"
#define RT_F(k) "movsd %[x], 8(%[p])\n\tmovsd 8(%[p]), %[x]\n\t"
#elif defined(__aarch64__)
#define RT_I(k) "str %x[t], [%x[p], #8]\n\tldr %x[t], [%x[p], #8]\n\t"
#define RT_F(k) "str %d[x], [%x[p], #8]\n\tldr %d[x], [%x[p], #8]\n\t"
#endif

static void run_i(epi_bench_ctx *c, uint64_t n)
{
	uint64_t slot[4] = {0}, t = 1;
	uint64_t *p = slot;
	(void)c;
	if (!n)
		return;
#if defined(EPI_ASM)
	__asm__ volatile("1:\n\t" EPI_OFFS32(RT_I) EPI_LOOP : [t] "+&r"(t), [n] EPI_NCON(n) : [p] "r"(p) : "cc", "memory");
#else
	for (; n; n--)
		for (int i = 0; i < EPI_UNROLL; i++) {
			*(volatile uint64_t *)&p[1] = t;
			t = *(volatile uint64_t *)&p[1];
		}
#endif
	EPI_KEEP(t);
}

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
