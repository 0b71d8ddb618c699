/* iter: the empty loop, one iteration of `dec %rcx; jnz 1b` (aarch64:
 * `subs; b.ne`): a C loop's increment, compare and branch. Every other
 * kernel's net cost per unit subtracts this loop's time per iteration.
 * Its two instructions start a 64-byte line of code, so that the front end
 * fetches them at once.
 *
 * iter.split: the same loop across two 64-byte lines of code. A core whose
 * front end delivers decoded instructions from one such line a cycle (AMD's
 * op cache, Intel's since Ice Lake) takes a turn more for each line a
 * loop's body enters: a short loop that happens to straddle a line runs
 * slower than one that does not. Its net cost is what a line entered
 * adds to an iteration. */
#include "bench/asm.h"
#include "bench/bench.h"

static void run(epi_bench_ctx *c, uint64_t n)
{
	(void)c;
	if (!n)
		return;
#if defined(EPI_ASM)
	__asm__ volatile(".p2align 6\n1:\n\t" EPI_LOOP : [n] EPI_NCON(n) : : "cc");
#else
	for (; n; n--)
		EPI_KEEP(n);
#endif
}

/* the padding before the loop that puts its last instruction in the next
 * line: x86-64's dec %rcx takes 3 bytes, aarch64's subs 4 */
#if defined(__x86_64__)
#define ACROSS "jmp 2f\n\t.p2align 6\n\t.fill 61, 1, 0x90\n2:\n"
#elif defined(__aarch64__)
#define ACROSS "b 2f\n\t.p2align 6\n\t.rept 15\n\tnop\n\t.endr\n2:\n"
#endif

static void run_split(epi_bench_ctx *c, uint64_t n)
{
	(void)c;
	if (!n)
		return;
#if defined(EPI_ASM)
	__asm__ volatile(ACROSS "1:\n\t" EPI_LOOP : [n] EPI_NCON(n) : : "cc");
#else
	for (; n; n--)
		EPI_KEEP(n);
#endif
}

const epi_kernel epi_k_iter = {
	.name = "iter", .what = "one loop iteration's control (the empty loop)",
	.seq = EPI_ISA("dec %rcx; jnz 1b", "subs x0, x0, #1; b.ne 1b"), .unit = EPI_UNIT_OP, .units = 1, .run = run,
};

const epi_kernel epi_k_iter_split = {
	.name = "iter.split", .what = "the empty loop across two 64-byte lines of code (net: a line entered)",
	.seq = EPI_ISA("dec %rcx; jnz 1b across a 64-byte line", "subs x0, x0, #1; b.ne 1b across a 64-byte line"),
	.unit = EPI_UNIT_OP, .units = 1, .run = run_split,
};
