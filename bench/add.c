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
