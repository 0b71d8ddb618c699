/* asm: repetition macros and the loop shape shared by the kernels.
 *
 * Every x86-64 kernel is
 *     1: BODY (32 units); dec %rcx; jnz 1b
 * with the counter in %rcx ("+c"); every aarch64 kernel
 *     1: BODY (32 units); subs xN, xN, #1; b.ne 1b
 * R4/R8/R32 repeat an instruction text. */
#ifndef EPI_BENCH_ASM_H
#define EPI_BENCH_ASM_H

#define R2(x) x x
#define R4(x) R2(x) R2(x)
#define R8(x) R4(x) R4(x)
#define R16(x) R8(x) R8(x)
#define R32(x) R16(x) R16(x)

#define EPI_UNROLL 32

/* The text for this architecture: the x86-64 one, the aarch64 one, or
 * (elsewhere) a note that the kernel is C. EPI_PORTABLE builds the C
 * kernels of other architectures here too (a test compiles them). */
#if defined(__x86_64__) && !defined(EPI_PORTABLE)
#define EPI_ISA(x86, a64) x86
#elif defined(__aarch64__) && !defined(EPI_PORTABLE)
#define EPI_ISA(x86, a64) a64
#else
#define EPI_ISA(x86, a64) "C with compiler barriers (no assembly kernel for this architecture)"
#endif

/* The pieces of the assembly kernels, per architecture (EPI_ASM when there
 * is one): the loop's end on the counter %[n] and its constraint; the
 * constraint of a register whose low byte is written (setcc); general and
 * floating-point register constraints and the operand modifiers that name
 * 64-bit, 32-bit, double and float registers; the pointer %[p] advanced
 * by 256 bytes and wrapped from %[end] to %[start]. */
#if defined(__x86_64__) && !defined(EPI_PORTABLE)
#define EPI_ASM 1
#define EPI_LOOP "dec %[n]\n\tjnz 1b"
#define EPI_NCON "+c"
#define EPI_BYTECON "q"
#define EPI_FPCON "x"
#define EPI_M64 ""
#define EPI_M32 "k"
#define EPI_MF64 ""
#define EPI_MF32 ""
#define EPI_WRAP256 "add $256, %[p]\n\tcmp %[end], %[p]\n\tcmovae %[start], %[p]\n\t"
#elif defined(__aarch64__) && !defined(EPI_PORTABLE)
#define EPI_ASM 1
#define EPI_LOOP "subs %x[n], %x[n], #1\n\tb.ne 1b"
#define EPI_NCON "+r"
#define EPI_BYTECON "r"
#define EPI_FPCON "w"
#define EPI_M64 "x"
#define EPI_M32 "w"
#define EPI_MF64 "d"
#define EPI_MF32 "s"
#define EPI_WRAP256 "add %x[p], %x[p], #256\n\tcmp %x[p], %x[end]\n\tcsel %x[p], %x[start], %x[p], hs\n\t"
#endif

/* 32 memory instructions at offsets 0, 8, ..., 248 from %[p]: F(offset). */
#define EPI_OFFS32(F) F(0) F(8) F(16) F(24) F(32) F(40) F(48) F(56) F(64) F(72) F(80) F(88) F(96) F(104) F(112) \
	F(120) F(128) F(136) F(144) F(152) F(160) F(168) F(176) F(184) F(192) F(200) F(208) F(216) F(224) F(232) \
	F(240) F(248)

/* Keeps V alive and opaque to the optimiser (for C kernels). */
#define EPI_KEEP(v) __asm__ volatile("" : "+r"(v))
#if defined(__x86_64__) && !defined(EPI_PORTABLE)
#define EPI_KEEPX(v) __asm__ volatile("" : "+x"(v))
#elif defined(__aarch64__) && !defined(EPI_PORTABLE)
#define EPI_KEEPX(v) __asm__ volatile("" : "+w"(v))
#else
#define EPI_KEEPX(v) __asm__ volatile("" : "+m"(v))
#endif
#define EPI_CLOBBER() __asm__ volatile("" ::: "memory")

#endif
