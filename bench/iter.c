/* iter: the empty loop, one iteration of `dec %rcx; jnz 1b` (aarch64:
 * `subs; b.ne`): a C loop's increment, compare and branch. Every other
 * kernel's net cost per unit subtracts this loop's time per iteration. */
#include "bench/asm.h"
#include "bench/bench.h"

static void run(epi_bench_ctx *c, uint64_t n)
{
	(void)c;
	if (!n)
		return;
#if defined(EPI_ASM)
	__asm__ volatile("1:\n\t" EPI_LOOP : [n] EPI_NCON(n) : : "cc");
#else
	for (; n; n--)
		EPI_KEEP(n);
#endif
}

const epi_kernel epi_k_iter = {
	.name = "iter", .what = "one loop iteration's control (the empty loop)",
	.seq = EPI_ISA("dec %rcx; jnz 1b", "subs x0, x0, #1; b.ne 1b"), .unit = EPI_UNIT_OP, .units = 1, .run = run,
};
