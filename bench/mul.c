/* mul: integer and floating-point multiplication, dependent chain and
 * independent streams; the factor is 1 so that values stay put. */
#include "bench/arith.h"

EPI_GPR_CHAIN(i64_lat, EPI_ISA("imul", "mul"), *, 3, 1)
EPI_GPR_STREAMS(i64_thr, EPI_ISA("imul", "mul"), *, 3, 1)
EPI_XMM_CHAIN(f64_lat, EPI_ISA("mulsd", "fmul"), *, double, 1.5, 1.0)
EPI_XMM_STREAMS(f64_thr, EPI_ISA("mulsd", "fmul"), *, double, 1.5, 1.0)

EPI_ARITH(epi_k_mul_i64_lat, "mul.i64.lat", "int64 multiply, dependent chain",
	  EPI_ISA("imul %rbx, %rax", "mul x0, x0, x1"), 1, i64_lat);
EPI_ARITH(epi_k_mul_i64, "mul.i64", "int64 multiply, 8 independent streams",
	  EPI_ISA("imul %rbx, %r8..%r15", "mul x0..x7, x0..x7, x8"), 0, i64_thr);
EPI_ARITH(epi_k_mul_f64_lat, "mul.f64.lat", "double multiply, dependent chain",
	  EPI_ISA("mulsd %xmm1, %xmm0", "fmul d0, d0, d1"), 1, f64_lat);
EPI_ARITH(epi_k_mul_f64, "mul.f64", "double multiply, 8 independent streams",
	  EPI_ISA("mulsd %xmm8, %xmm0..%xmm7", "fmul d0..d7, d0..d7, d8"), 0, f64_thr);
