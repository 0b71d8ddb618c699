/* store: element writes to a buffer sized for one cache level: 32
 * independent 8-byte stores in address order per iteration, then the
 * pointer advances 256 bytes and wraps at the end of the buffer. */
#include "bench/asm.h"
#include "bench/bench.h"

/* One store of 8 bytes at offset K from %[p]. */
#if defined(__x86_64__)
#define ST(k) "mov %[v], " #k "(%[p])\n\t"
#elif defined(__aarch64__)
#define ST(k) "str %x[v], [%x[p], #" #k "]\n\t"
#endif

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
	uint64_t v = 0x5eed;
#if defined(EPI_ASM)
	__asm__ volatile("1:\n\t" EPI_OFFS32(ST) EPI_WRAP256 EPI_LOOP
			 : [p] "+&r"(p), [n] EPI_NCON(n)
			 : [v] "r"(v), [start] "r"(start), [end] "r"(end)
			 : "cc", "memory");
#else
	for (; n; n--) {
		volatile uint64_t *q = (volatile uint64_t *)p;
		for (int i = 0; i < EPI_UNROLL; i++)
			q[i] = v;
		p += 256;
		if (p >= end)
			p = start;
	}
#endif
}

#define STORE_K(var, nm, lvl, wh)                                                                      \
	const epi_kernel var = {.name = nm, .what = "8-byte store in address order, " wh,               \
				.seq = EPI_ISA("mov %rax, 8k(%rsi)", "str x0, [x1, #8k]"), .unit = EPI_UNIT_OP, .level = lvl,         \
				.units = EPI_UNROLL, .setup = setup, .run = run, .teardown = epi_bench_free}

STORE_K(epi_k_store_l1, "store.l1", EPI_LVL_L1, "buffer in L1");
STORE_K(epi_k_store_l2, "store.l2", EPI_LVL_L2, "buffer in L2");
STORE_K(epi_k_store_l3, "store.l3", EPI_LVL_L3, "buffer in L3");
STORE_K(epi_k_store_dram, "store.dram", EPI_LVL_DRAM, "buffer in DRAM");
