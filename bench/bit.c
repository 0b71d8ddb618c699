/* bit: bitwise operations (& | ^ << >> ~), measured as xor: dependent
 * chain and independent streams. */
#include "bench/arith.h"

EPI_GPR_CHAIN(i64_lat, "xor", ^, 5, 3)
EPI_GPR_STREAMS(i64_thr, "xor", ^, 5, 3)

EPI_ARITH(epi_k_bit_i64_lat, "bit.i64.lat", "int64 xor, dependent chain", "xor %rbx, %rax", 1, i64_lat);
EPI_ARITH(epi_k_bit_i64, "bit.i64", "int64 xor, 8 independent streams", "xor %rbx, %r8..%r15", 0, i64_thr);
