/* add: integer and floating-point addition (binary + and -), as a
 * dependent chain (latency) and as 8 independent streams (throughput). */
#include "bench/arith.h"

EPI_GPR_CHAIN(i64_lat, "add", +, 0, 1)
EPI_GPR_STREAMS(i64_thr, "add", +, 0, 1)
EPI_XMM_CHAIN(f64_lat, "addsd", +, double, 1.0, 1.0)
EPI_XMM_STREAMS(f64_thr, "addsd", +, double, 1.0, 1.0)

EPI_ARITH(epi_k_add_i64_lat, "add.i64.lat", "int64 add, dependent chain", "add %rbx, %rax", 1, i64_lat);
EPI_ARITH(epi_k_add_i64, "add.i64", "int64 add, 8 independent streams", "add %rbx, %r8..%r15", 0, i64_thr);
EPI_ARITH(epi_k_add_f64_lat, "add.f64.lat", "double add, dependent chain", "addsd %xmm1, %xmm0", 1, f64_lat);
EPI_ARITH(epi_k_add_f64, "add.f64", "double add, 8 independent streams", "addsd %xmm8, %xmm0..%xmm7", 0, f64_thr);
