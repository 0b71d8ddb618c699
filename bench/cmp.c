/* cmp: comparisons (< <= > >= == !=) whose result is a value: a compare
 * and a setcc into the compared register's low byte (aarch64: cmp and cset
 * into the compared register), so that a chain of them waits for each
 * result; 8 such chains for throughput. For double: ucomisd and seta
 * (fcmp and cset) into 4 general registers, 4 streams. (A chain through
 * floating-point registers would time conversions, not the compare.) */
#include "bench/arith.h"

#if defined(EPI_ASM)
/* CS(r): compare r with b, its result into r; CF(x, r): compare the
 * double x with b, its result into r. */
#if defined(__x86_64__)
#define CS(r) "cmp %[b], %[" r "]\n\tsetl %b[" r "]\n\t"
#define CF(x, r) "ucomisd %[b], %[" x "]\n\tseta %b[" r "]\n\t"
#else
#define CS(r) "cmp %x[" r "], %x[b]\n\tcset %x[" r "], lt\n\t"
#define CF(x, r) "fcmp %d[" x "], %d[b]\n\tcset %x[" r "], gt\n\t"
#endif
#define Q EPI_BYTECON

static void i64_lat(epi_bench_ctx *c, uint64_t n)
{
	(void)c;
	uint64_t a = 0, b = 1;
	if (!n)
		return;
	__asm__ volatile("1:\n\t" R32(CS("a")) EPI_LOOP : [a] "+&" Q(a), [n] EPI_NCON(n) : [b] "r"(b) : "cc");
}

static void i64_thr(epi_bench_ctx *c, uint64_t n)
{
	(void)c;
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0, b = 1;
	if (!n)
		return;
	__asm__ volatile("1:\n\t" R4(CS("a0") CS("a1") CS("a2") CS("a3") CS("a4") CS("a5") CS("a6") CS("a7")) EPI_LOOP
			 : [a0] "+" Q(a0), [a1] "+" Q(a1), [a2] "+" Q(a2), [a3] "+" Q(a3), [a4] "+" Q(a4),
			   [a5] "+" Q(a5), [a6] "+" Q(a6), [a7] "+" Q(a7), [n] EPI_NCON(n)
			 : [b] "r"(b)
			 : "cc");
}

static void f64_thr(epi_bench_ctx *c, uint64_t n)
{
	(void)c;
	double x0 = 1, x1 = 2, x2 = 3, x3 = 4, b = 2.5;
	uint64_t r0 = 0, r1 = 0, r2 = 0, r3 = 0;
	if (!n)
		return;
	__asm__ volatile("1:\n\t" R8(CF("x0", "r0") CF("x1", "r1") CF("x2", "r2") CF("x3", "r3")) EPI_LOOP
			 : [r0] "+" Q(r0), [r1] "+" Q(r1), [r2] "+" Q(r2), [r3] "+" Q(r3), [n] EPI_NCON(n)
			 : [b] EPI_FPCON(b), [x0] EPI_FPCON(x0), [x1] EPI_FPCON(x1), [x2] EPI_FPCON(x2),
			   [x3] EPI_FPCON(x3)
			 : "cc");
}
#else
EPI_C_CHAIN(i64_lat, uint64_t, <, 0, 1, EPI_KEEP)
EPI_C_STREAMS(i64_thr, uint64_t, <, 0, 1, EPI_KEEP)
EPI_C_STREAMS(f64_thr, double, <, 1.0, 2.5, EPI_KEEPX)
#endif

EPI_ARITH(epi_k_cmp_i64_lat, "cmp.i64.lat", "int64 compare to a value, dependent chain",
	  EPI_ISA("cmp %rbx, %rax; setl %al", "cmp x0, x1; cset x0, lt"), 1, i64_lat);
EPI_ARITH(epi_k_cmp_i64, "cmp.i64", "int64 compare to a value, 8 independent streams",
	  EPI_ISA("cmp %rbx, %r8; setl %r8b (x8 registers)", "cmp x0, x8; cset x0, lt (x8 registers)"), 0, i64_thr);
EPI_ARITH(epi_k_cmp_f64, "cmp.f64", "double compare to a value, 4 independent streams",
	  EPI_ISA("ucomisd %xmm4, %xmm0; seta %al (x4 registers)", "fcmp d0, d4; cset x0, gt (x4 registers)"), 0, f64_thr);

/* The larger of two doubles (maxsd, fmax), a dependent chain: a running
 * maximum's (m = v > m ? v : m, which compilers make a max). Some cores
 * take it on their adders, others elsewhere: maxsd has an addsd's latency
 * on some, twice it on others. (The C version keeps the larger with a
 * conditional.) */
EPI_XMM_CHAIN(f64_max_lat, EPI_ISA("maxsd", "fmax"), > b ? a :, double, 1.0, 2.0)
EPI_ARITH(epi_k_max_f64_lat, "cmp.fmax.lat", "double maximum, dependent chain",
	  EPI_ISA("maxsd %xmm1, %xmm0", "fmax d0, d0, d1"), 1, f64_max_lat);
