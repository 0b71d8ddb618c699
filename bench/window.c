/* window: short dependent chains that start afresh, one after the other, so
 * that the core's window of instructions in flight overlaps them: how much
 * sooner the chains of a short inner loop end than their latency says.
 * Each iteration zeroes a register (an idiom that waits for nothing) and
 * runs a chain of 64 dependent double adds on it, each add followed by
 * three integer instructions that depend on nothing before them (as a
 * loop's index and address arithmetic); a unit is one add and its three.
 * The compiled-code model reads from it, beside add.f64.lat, how many
 * instructions the window holds; from load.fwdfp.window, the same chains
 * through a stack slot, how many it holds over such chains, which can be
 * far fewer. */
#include "bench/asm.h"
#include "bench/bench.h"

#if defined(__x86_64__)
#define OTHERS "lea 1(%[k]), %[i0]\n\tlea 2(%[k]), %[i1]\n\tlea 3(%[k]), %[i2]\n\t"
#define LINK "addsd %[b], %[a]\n\t" OTHERS
#define SLOT_LINK "movsd %[a], 8(%[p])\n\tmovsd 8(%[p]), %[a]\n\taddsd %[b], %[a]\n\t" OTHERS
#define FRESH "xorpd %[a], %[a]\n\t"
#elif defined(__aarch64__)
#define OTHERS "add %x[i0], %x[k], #1\n\tadd %x[i1], %x[k], #2\n\tadd %x[i2], %x[k], #3\n\t"
#define LINK "fadd %d[a], %d[a], %d[b]\n\t" OTHERS
#define SLOT_LINK                                                                                 \
	"str %d[a], [%x[p], #8]\n\tldr %d[a], [%x[p], #8]\n\tfadd %d[a], %d[a], %d[b]\n\t" OTHERS
#define FRESH "movi %d[a], #0\n\t"
#endif

/* The chains, of LINK or (THROUGH_SLOT) of SLOT_LINK: a register's sum,
 * or the same through a stack slot, as -O0 code keeps a sum (each add's
 * result stored and loaded back before the next: load.fwdfp.lat and
 * add.f64.lat a link without the fresh starts). */
#define CHAINS(TEXT)                                                                                  \
	__asm__ volatile("1:\n\t" FRESH R32(TEXT) R32(TEXT) EPI_LOOP                                  \
			 : [a] "+&" EPI_FPCON(a), [i0] "=&r"(i0), [i1] "=&r"(i1), [i2] "=&r"(i2),         \
			   [n] EPI_NCON(n)                                                            \
			 : [b] EPI_FPCON(b), [k] "r"(k), [p] "r"(p)                                   \
			 : "cc", "memory")

static void chains(uint64_t n, int through_slot)
{
	double a = 0, b = 1.0, slot[2] = {0};
	double *p = slot;
	uint64_t k = 5, i0 = 0, i1 = 0, i2 = 0;
	if (!n)
		return;
#if defined(EPI_ASM)
	if (through_slot)
		CHAINS(SLOT_LINK);
	else
		CHAINS(LINK);
#else
	for (; n; n--) {
		a = 0;
		for (int i = 0; i < 2 * EPI_UNROLL; i++) {
			if (through_slot) {
				*(volatile double *)&p[1] = a;
				a = *(volatile double *)&p[1];
			}
			a = a + b;
			EPI_KEEPX(a);
			i0 = k + 1;
			i1 = k + 2;
			i2 = k + 3;
			EPI_KEEP(i0);
			EPI_KEEP(i1);
			EPI_KEEP(i2);
		}
	}
#endif
	EPI_KEEPX(a);
}

static void run(epi_bench_ctx *c, uint64_t n)
{
	(void)c;
	chains(n, 0);
}

static void run_slot(epi_bench_ctx *c, uint64_t n)
{
	(void)c;
	chains(n, 1);
}

const epi_kernel epi_k_load_fwdfp_window = {
	.name = "load.fwdfp.window",
	.what = "chains of 64 double adds through a stack slot, each started afresh: how far the core overlaps them",
	.seq = EPI_ISA("xorpd %xmm0, %xmm0; 64 x (movsd %xmm0, 8(%rsi); movsd 8(%rsi), %xmm0; addsd %xmm1, %xmm0; "
		       "lea 1..3(%rbx), %r8..%r10)",
		       "movi d0, #0; 64 x (str d0, [x1, #8]; ldr d0, [x1, #8]; fadd d0, d0, d1; add x8..x10, x11, #1..3)"),
	.unit = EPI_UNIT_OP, .latency = 1, .units = 2 * EPI_UNROLL, .run = run_slot,
};

const epi_kernel epi_k_add_f64_window = {
	.name = "add.f64.window",
	.what = "chains of 64 dependent double adds, each started afresh: how far the core overlaps them",
	.seq = EPI_ISA("xorpd %xmm0, %xmm0; 64 x (addsd %xmm1, %xmm0; lea 1..3(%rbx), %r8..%r10)",
		       "movi d0, #0; 64 x (fadd d0, d0, d1; add x8..x10, x11, #1..3)"),
	.unit = EPI_UNIT_OP, .latency = 1, .units = 2 * EPI_UNROLL, .run = run,
};
