/* bit: bitwise operations (& | ^ << >> ~), measured as exclusive or:
 * dependent chain and independent streams. */
#include "bench/arith.h"

EPI_GPR_CHAIN(i64_lat, EPI_ISA("xor", "eor"), ^, 5, 3)
EPI_GPR_STREAMS(i64_thr, EPI_ISA("xor", "eor"), ^, 5, 3)

EPI_ARITH(epi_k_bit_i64_lat, "bit.i64.lat", "int64 xor, dependent chain", EPI_ISA("xor %rbx, %rax", "eor x0, x0, x1"),
	  1, i64_lat);
EPI_ARITH(epi_k_bit_i64, "bit.i64", "int64 xor, 8 independent streams",
	  EPI_ISA("xor %rbx, %r8..%r15", "eor x0..x7, x0..x7, x8"), 0, i64_thr);
