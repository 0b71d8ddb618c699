/* arith: the shapes of the arithmetic kernels (add, mul, div, cmp, bit).
 *
 * CHAIN(name, insn, cop, ...): 32 x `insn %[b], %[a]` on one register: each unit
 * waits for the one before (latency). STREAMS(name, insn): the same
 * instruction on 8 independent registers, 4 times (throughput). Integer
 * kernels use 64-bit general registers, floating-point ones xmm (x86-64)
 * or d/s (aarch64) registers; INSN is EPI_ISA(x86-64, aarch64);
 * B is chosen by the kernel so that values neither grow nor vanish. COP is
 * the C operator of the portable fallback (other than x86-64). */
#ifndef EPI_BENCH_ARITH_H
#define EPI_BENCH_ARITH_H

#include "bench/asm.h"
#include "bench/bench.h"

#if defined(EPI_ASM)
/* One unit on register R: `insn %[b], %[R]` (x86-64), `insn R, R, b`
 * (aarch64, M naming the register width). */
#if defined(__x86_64__)
#define EPI_OP(insn, M, r) insn " %[b], %[" r "]\n\t"
#else
#define EPI_OP(insn, M, r) insn " %" M "[" r "], %" M "[" r "], %" M "[b]\n\t"
#endif
/* T: the operand type; C: its register constraint; M: its modifier. */
#define EPI_ASM_CHAIN(fn, insn, T, C, M, A0, B0)                                                  \
	static void fn(epi_bench_ctx *c, uint64_t n)                                              \
	{                                                                                         \
		(void)c;                                                                          \
		T a = (A0), b = (B0);                                                             \
		if (!n)                                                                           \
			return;                                                                   \
		__asm__ volatile("1:\n\t" R32(EPI_OP(insn, M, "a")) EPI_LOOP                       \
				 : [a] "+&" C(a), [n] EPI_NCON(n) : [b] C(b) : "cc");             \
	}
#define EPI_ASM_STREAMS(fn, insn, T, C, M, A0, B0)                                                \
	static void fn(epi_bench_ctx *c, uint64_t n)                                              \
	{                                                                                         \
		(void)c;                                                                          \
		T a0 = (A0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;       \
		T b = (B0);                                                                       \
		if (!n)                                                                           \
			return;                                                                   \
		__asm__ volatile("1:\n\t" R4(EPI_OP(insn, M, "a0") EPI_OP(insn, M, "a1")           \
					     EPI_OP(insn, M, "a2") EPI_OP(insn, M, "a3")           \
					     EPI_OP(insn, M, "a4") EPI_OP(insn, M, "a5")           \
					     EPI_OP(insn, M, "a6") EPI_OP(insn, M, "a7"))          \
					 EPI_LOOP                                                 \
				 : [a0] "+&" C(a0), [a1] "+&" C(a1), [a2] "+&" C(a2), [a3] "+&" C(a3), \
				   [a4] "+&" C(a4), [a5] "+&" C(a5), [a6] "+&" C(a6), [a7] "+&" C(a7), \
				   [n] EPI_NCON(n)                                                \
				 : [b] C(b)                                                       \
				 : "cc");                                                         \
	}
#define EPI_GPR_CHAIN(fn, insn, cop, A0, B0) EPI_ASM_CHAIN(fn, insn, uint64_t, "r", EPI_M64, A0, B0)
#define EPI_GPR_STREAMS(fn, insn, cop, A0, B0) EPI_ASM_STREAMS(fn, insn, uint64_t, "r", EPI_M64, A0, B0)
#define EPI_XMM_CHAIN(fn, insn, cop, T, A0, B0) EPI_ASM_CHAIN(fn, insn, T, EPI_FPCON, EPI_MF64, A0, B0)
#define EPI_XMM_STREAMS(fn, insn, cop, T, A0, B0) EPI_ASM_STREAMS(fn, insn, T, EPI_FPCON, EPI_MF64, A0, B0)
#define EPI_XMM32_CHAIN(fn, insn, cop, T, A0, B0) EPI_ASM_CHAIN(fn, insn, T, EPI_FPCON, EPI_MF32, A0, B0)
#define EPI_XMM32_STREAMS(fn, insn, cop, T, A0, B0) EPI_ASM_STREAMS(fn, insn, T, EPI_FPCON, EPI_MF32, A0, B0)
#else
/* C with barriers: the compiler keeps every operation, but may schedule
 * the loop differently from the assembly sequences. */
#define EPI_C_CHAIN(fn, T, OP, A0, B0, KEEP)                                                      \
	static void fn(epi_bench_ctx *c, uint64_t n)                                              \
	{                                                                                         \
		(void)c;                                                                          \
		T a = (A0), b = (B0);                                                             \
		KEEP(b);                                                                          \
		for (; n; n--) {                                                                  \
			R32(a = a OP b; KEEP(a);)                                                 \
		}                                                                                 \
	}
#define EPI_C_STREAMS(fn, T, OP, A0, B0, KEEP)                                                    \
	static void fn(epi_bench_ctx *c, uint64_t n)                                              \
	{                                                                                         \
		(void)c;                                                                          \
		T a0 = (A0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;       \
		T b = (B0);                                                                       \
		KEEP(b);                                                                          \
		for (; n; n--) {                                                                  \
			R4(a0 = a0 OP b; a1 = a1 OP b; a2 = a2 OP b; a3 = a3 OP b; a4 = a4 OP b;  \
			   a5 = a5 OP b; a6 = a6 OP b; a7 = a7 OP b; KEEP(a0); KEEP(a1); KEEP(a2); \
			   KEEP(a3); KEEP(a4); KEEP(a5); KEEP(a6); KEEP(a7);)                     \
		}                                                                                 \
	}
#define EPI_GPR_CHAIN(fn, insn, cop, A0, B0) EPI_C_CHAIN(fn, uint64_t, cop, A0, B0, EPI_KEEP)
#define EPI_GPR_STREAMS(fn, insn, cop, A0, B0) EPI_C_STREAMS(fn, uint64_t, cop, A0, B0, EPI_KEEP)
#define EPI_XMM_CHAIN(fn, insn, cop, T, A0, B0) EPI_C_CHAIN(fn, T, cop, A0, B0, EPI_KEEPX)
#define EPI_XMM_STREAMS(fn, insn, cop, T, A0, B0) EPI_C_STREAMS(fn, T, cop, A0, B0, EPI_KEEPX)
#define EPI_XMM32_CHAIN EPI_XMM_CHAIN
#define EPI_XMM32_STREAMS EPI_XMM_STREAMS
#endif

/* A kernel entry: NAME, WHAT, SEQ, latency flag, run function. */
#define EPI_ARITH(var, nm, wh, sq, lat, fn)                                                       \
	const epi_kernel var = {.name = nm, .what = wh, .seq = sq, .unit = EPI_UNIT_OP,           \
				.latency = lat, .units = EPI_UNROLL, .run = fn}

#endif
