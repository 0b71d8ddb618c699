/* div: division (/ and %). Integer: `cqo; idiv` (what a C compiler emits
 * for a signed 64-bit division; the remainder comes with it) and the
 * 32-bit form `cltd; idivl` (aarch64: sdiv on x and w registers), of a
 * quotient of ten bits, as a loop's index arithmetic divides (i % n, i / n
 * with n in the thousands): the chains divide 1009 by 1, so that the
 * chain's value stays put; the independent ones 1,000,003 by 1,009. Some
 * dividers take longer the more bits the quotient has (AMD's to Zen 2:
 * Zen 1's idivl takes 17.7 cycles for a quotient of ten bits, 27.6 for
 * one of thirty), and the table prices the common case. Floating point:
 * divsd and divss (fdiv) by 1. Throughput kernels reload the dividend
 * each time, so that divisions do not wait for one another (the divider
 * itself may). */
#include "bench/arith.h"

#define CHAINED 1009   /* divided by 1 */
#define DIVIDEND 1000003 /* divided by DIVISOR */
#define DIVISOR 1009

#if defined(__x86_64__)
static void i64_lat(epi_bench_ctx *c, uint64_t n)
{
	(void)c;
	int64_t a = CHAINED, b = 1, d;
	if (!n)
		return;
	__asm__ volatile("1:\n\t" R32("cqo\n\tidiv %[b]\n\t") "dec %[n]\n\tjnz 1b"
			 : "+a"(a), "=&d"(d), [n] "+c"(n) : [b] "r"(b) : "cc");
}

static void i64_thr(epi_bench_ctx *c, uint64_t n)
{
	(void)c;
	int64_t a, b = DIVISOR, d, s = DIVIDEND;
	if (!n)
		return;
	__asm__ volatile("1:\n\t" R32("mov %[s], %%rax\n\tcqo\n\tidiv %[b]\n\t") "dec %[n]\n\tjnz 1b"
			 : "=&a"(a), "=&d"(d), [n] "+c"(n) : [b] "r"(b), [s] "r"(s) : "cc");
}

static void i32_lat(epi_bench_ctx *c, uint64_t n)
{
	(void)c;
	int32_t a = CHAINED, b = 1, d;
	if (!n)
		return;
	__asm__ volatile("1:\n\t" R32("cltd\n\tidivl %[b]\n\t") "dec %[n]\n\tjnz 1b"
			 : "+a"(a), "=&d"(d), [n] "+c"(n) : [b] "r"(b) : "cc");
}

static void i32_thr(epi_bench_ctx *c, uint64_t n)
{
	(void)c;
	int32_t a, b = DIVISOR, d, s = DIVIDEND;
	if (!n)
		return;
	__asm__ volatile("1:\n\t" R32("mov %[s], %%eax\n\tcltd\n\tidivl %[b]\n\t") "dec %[n]\n\tjnz 1b"
			 : "=&a"(a), "=&d"(d), [n] "+c"(n) : [b] "r"(b), [s] "r"(s) : "cc");
}
#elif defined(__aarch64__)
/* sdiv leaves no remainder: the dividend stays put with a divisor of 1 */
EPI_ASM_CHAIN(i64_lat, "sdiv", int64_t, "r", EPI_M64, CHAINED, 1)
EPI_ASM_STREAMS(i64_thr, "sdiv", int64_t, "r", EPI_M64, CHAINED, 1)
EPI_ASM_CHAIN(i32_lat, "sdiv", int32_t, "r", EPI_M32, CHAINED, 1)
EPI_ASM_STREAMS(i32_thr, "sdiv", int32_t, "r", EPI_M32, CHAINED, 1)
#else
EPI_C_CHAIN(i64_lat, int64_t, /, CHAINED, 1, EPI_KEEP)
EPI_C_STREAMS(i64_thr, int64_t, /, CHAINED, 1, EPI_KEEP)
EPI_C_CHAIN(i32_lat, int32_t, /, CHAINED, 1, EPI_KEEP)
EPI_C_STREAMS(i32_thr, int32_t, /, CHAINED, 1, EPI_KEEP)
#endif

EPI_XMM_CHAIN(f64_lat, EPI_ISA("divsd", "fdiv"), /, double, 3.0, 1.0)
EPI_XMM_STREAMS(f64_thr, EPI_ISA("divsd", "fdiv"), /, double, 3.0, 1.0)
EPI_XMM32_CHAIN(f32_lat, EPI_ISA("divss", "fdiv"), /, float, 3.0f, 1.0f)
EPI_XMM32_STREAMS(f32_thr, EPI_ISA("divss", "fdiv"), /, float, 3.0f, 1.0f)

EPI_ARITH(epi_k_div_i64_lat, "div.i64.lat", "int64 divide, dependent chain (a 10-bit quotient)",
	  EPI_ISA("cqo; idiv %rbx", "sdiv x0, x0, x1"), 1, i64_lat);
EPI_ARITH(epi_k_div_i64, "div.i64", "int64 divide, independent (a 10-bit quotient)",
	  EPI_ISA("mov %rsi, %rax; cqo; idiv %rbx", "sdiv x0..x7, x0..x7, x8"), 0, i64_thr);
EPI_ARITH(epi_k_div_i32, "div.i32", "int32 divide, independent (a 10-bit quotient)",
	  EPI_ISA("mov %esi, %eax; cltd; idivl %ebx", "sdiv w0..w7, w0..w7, w8"), 0, i32_thr);
EPI_ARITH(epi_k_div_i32_lat, "div.i32.lat", "int32 divide, dependent chain (a 10-bit quotient)",
	  EPI_ISA("cltd; idivl %ebx", "sdiv w0, w0, w1"), 1, i32_lat);
EPI_ARITH(epi_k_div_f64_lat, "div.f64.lat", "double divide, dependent chain",
	  EPI_ISA("divsd %xmm1, %xmm0", "fdiv d0, d0, d1"), 1, f64_lat);
EPI_ARITH(epi_k_div_f64, "div.f64", "double divide, 8 independent streams",
	  EPI_ISA("divsd %xmm8, %xmm0..%xmm7", "fdiv d0..d7, d0..d7, d8"), 0, f64_thr);
EPI_ARITH(epi_k_div_f32, "div.f32", "float divide, 8 independent streams",
	  EPI_ISA("divss %xmm8, %xmm0..%xmm7", "fdiv s0..s7, s0..s7, s8"), 0, f32_thr);
EPI_ARITH(epi_k_div_f32_lat, "div.f32.lat", "float divide, dependent chain",
	  EPI_ISA("divss %xmm1, %xmm0", "fdiv s0, s0, s1"), 1, f32_lat);
