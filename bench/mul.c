/* mul: integer and floating-point multiplication, dependent chain and
 * independent streams; the factor is 1 so that values stay put. */
#include "bench/arith.h"

EPI_GPR_CHAIN(i64_lat, "imul", *, 3, 1)
EPI_GPR_STREAMS(i64_thr, "imul", *, 3, 1)
EPI_XMM_CHAIN(f64_lat, "mulsd", *, double, 1.5, 1.0)
EPI_XMM_STREAMS(f64_thr, "mulsd", *, double, 1.5, 1.0)

EPI_ARITH(epi_k_mul_i64_lat, "mul.i64.lat", "int64 multiply, dependent chain", "imul %rbx, %rax", 1, i64_lat);
EPI_ARITH(epi_k_mul_i64, "mul.i64", "int64 multiply, 8 independent streams", "imul %rbx, %r8..%r15", 0, i64_thr);
EPI_ARITH(epi_k_mul_f64_lat, "mul.f64.lat", "double multiply, dependent chain", "mulsd %xmm1, %xmm0", 1, f64_lat);
EPI_ARITH(epi_k_mul_f64, "mul.f64", "double multiply, 8 independent streams", "mulsd %xmm8, %xmm0..%xmm7", 0, f64_thr);
