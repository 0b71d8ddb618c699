/* asm: repetition macros and the loop shape shared by the kernels.
 *
 * Every x86-64 kernel is
 *     1: BODY (32 units); dec %rcx; jnz 1b
 * with the counter in %rcx ("+c"). R4/R8/R32 repeat an instruction text. */
#ifndef EPI_BENCH_ASM_H
#define EPI_BENCH_ASM_H

#define R2(x) x x
#define R4(x) R2(x) R2(x)
#define R8(x) R4(x) R4(x)
#define R16(x) R8(x) R8(x)
#define R32(x) R16(x) R16(x)

#define EPI_UNROLL 32

/* Keeps V alive and opaque to the optimiser (for C kernels). */
#define EPI_KEEP(v) __asm__ volatile("" : "+r"(v))
#define EPI_KEEPX(v) __asm__ volatile("" : "+x"(v))
#define EPI_CLOBBER() __asm__ volatile("" ::: "memory")

#endif
