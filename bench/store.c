/* store: element writes to a buffer sized for one cache level: 32
 * independent 8-byte stores in address order per iteration, then the
 * pointer advances 256 bytes and wraps at the end of the buffer. */
#include "bench/asm.h"
#include "bench/bench.h"

static int setup(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	(void)k;
	return epi_bench_alloc(c, c->bytes, 0, err);
}

static void run(epi_bench_ctx *c, uint64_t n)
{
	char *p = c->buf, *start = c->buf, *end = (char *)c->buf + c->bytes;
	if (!n)
		return;
#if defined(__x86_64__)
	uint64_t v = 0x5eed;
	__asm__ volatile("1:\n\t"
			 "mov %[v], 0(%[p])\n\tmov %[v], 8(%[p])\n\tmov %[v], 16(%[p])\n\tmov %[v], 24(%[p])\n\t"
			 "mov %[v], 32(%[p])\n\tmov %[v], 40(%[p])\n\tmov %[v], 48(%[p])\n\tmov %[v], 56(%[p])\n\t"
			 "mov %[v], 64(%[p])\n\tmov %[v], 72(%[p])\n\tmov %[v], 80(%[p])\n\tmov %[v], 88(%[p])\n\t"
			 "mov %[v], 96(%[p])\n\tmov %[v], 104(%[p])\n\tmov %[v], 112(%[p])\n\tmov %[v], 120(%[p])\n\t"
			 "mov %[v], 128(%[p])\n\tmov %[v], 136(%[p])\n\tmov %[v], 144(%[p])\n\tmov %[v], 152(%[p])\n\t"
			 "mov %[v], 160(%[p])\n\tmov %[v], 168(%[p])\n\tmov %[v], 176(%[p])\n\tmov %[v], 184(%[p])\n\t"
			 "mov %[v], 192(%[p])\n\tmov %[v], 200(%[p])\n\tmov %[v], 208(%[p])\n\tmov %[v], 216(%[p])\n\t"
			 "mov %[v], 224(%[p])\n\tmov %[v], 232(%[p])\n\tmov %[v], 240(%[p])\n\tmov %[v], 248(%[p])\n\t"
			 "add $256, %[p]\n\tcmp %[end], %[p]\n\tcmovae %[start], %[p]\n\t"
			 "dec %[n]\n\tjnz 1b"
			 : [p] "+&r"(p), [n] "+c"(n)
			 : [v] "r"(v), [start] "r"(start), [end] "r"(end)
			 : "cc", "memory");
#else
	for (; n; n--) {
		volatile uint64_t *q = (volatile uint64_t *)p;
		for (int i = 0; i < EPI_UNROLL; i++)
			q[i] = 0x5eed;
		p += 256;
		if (p >= end)
			p = start;
	}
#endif
}

#define STORE_K(var, nm, lvl, wh)                                                                      \
	const epi_kernel var = {.name = nm, .what = "8-byte store in address order, " wh,               \
				.seq = "mov %rax, 8k(%rsi)", .unit = EPI_UNIT_OP, .level = lvl,         \
				.units = EPI_UNROLL, .setup = setup, .run = run, .teardown = epi_bench_free}

STORE_K(epi_k_store_l1, "store.l1", EPI_LVL_L1, "buffer in L1");
STORE_K(epi_k_store_l2, "store.l2", EPI_LVL_L2, "buffer in L2");
STORE_K(epi_k_store_l3, "store.l3", EPI_LVL_L3, "buffer in L3");
STORE_K(epi_k_store_dram, "store.dram", EPI_LVL_DRAM, "buffer in DRAM");
