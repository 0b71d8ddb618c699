/* iter: the empty loop, one iteration of `dec %rcx; jnz 1b` (a C loop's
 * increment, compare and branch, fused). Every other kernel's net cost per
 * unit subtracts this loop's time per iteration. */
#include "bench/asm.h"
#include "bench/bench.h"

static void run(epi_bench_ctx *c, uint64_t n)
{
	(void)c;
	if (!n)
		return;
#if defined(__x86_64__)
	__asm__ volatile("1:\n\tdec %0\n\tjnz 1b" : "+c"(n) : : "cc");
#else
	for (; n; n--)
		EPI_KEEP(n);
#endif
}

const epi_kernel epi_k_iter = {
	.name = "iter", .what = "one loop iteration's control (the empty loop)",
	.seq = "dec %rcx; jnz 1b", .unit = EPI_UNIT_OP, .units = 1, .run = run,
};
