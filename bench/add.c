/* add: integer and floating-point addition (binary + and -), as a
 * dependent chain (latency) and as 8 independent streams (throughput). */
#include "bench/arith.h"

EPI_GPR_CHAIN(i64_lat, EPI_ISA("add", "add"), +, 0, 1)
EPI_GPR_STREAMS(i64_thr, EPI_ISA("add", "add"), +, 0, 1)
EPI_XMM_CHAIN(f64_lat, EPI_ISA("addsd", "fadd"), +, double, 1.0, 1.0)
EPI_XMM_STREAMS(f64_thr, EPI_ISA("addsd", "fadd"), +, double, 1.0, 1.0)

EPI_ARITH(epi_k_add_i64_lat, "add.i64.lat", "int64 add, dependent chain", EPI_ISA("add %rbx, %rax", "add x0, x0, x1"),
	  1, i64_lat);
EPI_ARITH(epi_k_add_i64, "add.i64", "int64 add, 8 independent streams",
	  EPI_ISA("add %rbx, %r8..%r15", "add x0..x7, x0..x7, x8"), 0, i64_thr);
EPI_ARITH(epi_k_add_f64_lat, "add.f64.lat", "double add, dependent chain",
	  EPI_ISA("addsd %xmm1, %xmm0", "fadd d0, d0, d1"), 1, f64_lat);
EPI_ARITH(epi_k_add_f64, "add.f64", "double add, 8 independent streams",
	  EPI_ISA("addsd %xmm8, %xmm0..%xmm7", "fadd d0..d7, d0..d7, d8"), 0, f64_thr);

/* Adds and multiplies of doubles in turn, on 14 registers (enough to fill
 * four units at a latency of three cycles): whether the core adds and
 * multiplies in units of their own (as fast per instruction as twice
 * add.f64's rate) or in the same ones (as add.f64). */
#define MIX14(A, M)                                                                                        \
	A("a0") M("a1") A("a2") M("a3") A("a4") M("a5") A("a6") M("a7") A("a8") M("a9") A("a10") M("a11") \
		A("a12") M("a13")
#if defined(EPI_ASM)
#define MIX_ADD(r) EPI_OP(EPI_ISA("addsd", "fadd"), EPI_MF64, r)
#define MIX_MUL(r) EPI_OP(EPI_ISA("mulsd", "fmul"), EPI_MF64, r)
#if defined(__x86_64__)
#define MIX_SET(r) "movapd %[b], %[" r "]\n\t"
#else
#define MIX_SET(r) "fmov %d[" r "], %d[b]\n\t"
#endif
#endif
static void f64_mix(epi_bench_ctx *c, uint64_t n)
{
	(void)c;
	double a0 = 1, a1 = 1, a2 = 1, a3 = 1, a4 = 1, a5 = 1, a6 = 1, a7 = 1, a8 = 1, a9 = 1, a10 = 1, a11 = 1,
	       a12 = 1, a13 = 1, b = 1;
	if (!n)
		return;
#if defined(EPI_ASM)
	/* the registers set in the asm: as outputs only, 14 of them and the
	 * counter stay within an asm's 30 operands */
	__asm__ volatile(MIX14(MIX_SET, MIX_SET) "1:\n\t" R2(MIX14(MIX_ADD, MIX_MUL)) EPI_LOOP
			 : [a0] "=&" EPI_FPCON(a0), [a1] "=&" EPI_FPCON(a1), [a2] "=&" EPI_FPCON(a2),
			   [a3] "=&" EPI_FPCON(a3), [a4] "=&" EPI_FPCON(a4), [a5] "=&" EPI_FPCON(a5),
			   [a6] "=&" EPI_FPCON(a6), [a7] "=&" EPI_FPCON(a7), [a8] "=&" EPI_FPCON(a8),
			   [a9] "=&" EPI_FPCON(a9), [a10] "=&" EPI_FPCON(a10), [a11] "=&" EPI_FPCON(a11),
			   [a12] "=&" EPI_FPCON(a12), [a13] "=&" EPI_FPCON(a13), [n] EPI_NCON(n)
			 : [b] EPI_FPCON(b)
			 : "cc");
#else
	EPI_KEEPX(b);
	for (; n; n--) {
		R2(a0 += b; a1 *= b; a2 += b; a3 *= b; a4 += b; a5 *= b; a6 += b; a7 *= b; a8 += b; a9 *= b;
		   a10 += b; a11 *= b; a12 += b; a13 *= b; EPI_KEEPX(a0); EPI_KEEPX(a1); EPI_KEEPX(a2);
		   EPI_KEEPX(a3); EPI_KEEPX(a4); EPI_KEEPX(a5); EPI_KEEPX(a6); EPI_KEEPX(a7); EPI_KEEPX(a8);
		   EPI_KEEPX(a9); EPI_KEEPX(a10); EPI_KEEPX(a11); EPI_KEEPX(a12); EPI_KEEPX(a13);)
	}
#endif
}

const epi_kernel epi_k_add_f64_mix = {
	.name = "add.f64.mix",
	.what = "double adds and multiplies in turn, 14 independent streams: whether they share units",
	.seq = EPI_ISA("addsd %xmm14, %xmm0; mulsd %xmm14, %xmm1; ... %xmm13", "fadd d0, d0, d14; fmul d1, d1, d14; ... d13"),
	.unit = EPI_UNIT_OP,
	.units = 28,
	.run = f64_mix,
};
