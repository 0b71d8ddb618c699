/* bench: the microbenchmark kernels epi-calibrate runs, one file per
 * operation class, listed in one registry (bench.c).
 *
 * A kernel runs ITERS iterations of a loop whose body performs OPS units of
 * its operation (32 instructions, unrolled, in inline assembly on x86-64 so
 * that the compiler can neither remove nor fuse them). The loop is
 *     1: BODY; dec %rcx; jnz 1b
 * and the `iter` kernel is that loop with an empty body, so that a net cost
 * per unit is (time per iteration - time per empty iteration) / OPS. Each
 * kernel documents its instruction sequence in `seq`. On aarch64 the loop
 * is `subs; b.ne` and the sequences are aarch64's; elsewhere the kernels
 * are C with compiler barriers (said in `seq`). */
#ifndef EPI_BENCH_H
#define EPI_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "model/ops.h"

/* Buffer size classes for memory kernels. */
enum epi_level { EPI_LVL_NONE, EPI_LVL_L1, EPI_LVL_L2, EPI_LVL_L3, EPI_LVL_DRAM };

typedef struct epi_bench_ctx {
	size_t bytes;        /* the buffer size, for memory kernels */
	void *buf, *buf2;
	void *aux;           /* kernel-owned (the print kernel's stream) */
	size_t mapped;       /* bytes of buf, and of buf2 when two, that epi_bench_alloc wrote (or the page
			      * kernels mapped): what epi_bench_touch reads */
	int two;
	size_t touch_step;   /* epi_bench_touch reads a byte every touch_step bytes (0: every page) */
	size_t tlb_pages;    /* the pages the second-level TLB maps, measured (epi_tlb_reach); 0: cpuid's */
} epi_bench_ctx;

typedef struct epi_kernel {
	const char *name;    /* the cost-table key: add.i64, add.i64.lat, load.l2, ... */
	const char *what;    /* one line for --help and the table */
	const char *seq;     /* the instruction sequence of one unit */
	enum epi_unit unit;  /* op, or MiB for memcpy and malloc */
	enum epi_level level;
	int latency;         /* 1: a dependent chain; 0: independent streams */
	/* Units per iteration (for MiB kernels: computed from the buffer by setup). */
	double units;
	/* Prepares CTX (buffers of CTX->bytes for memory kernels); 0 or -1 with ERR. */
	int (*setup)(const struct epi_kernel *k, epi_bench_ctx *ctx, char *err);
	void (*run)(epi_bench_ctx *ctx, uint64_t iters);
	void (*teardown)(epi_bench_ctx *ctx);
	/* Units per iteration after setup (memcpy: bytes / MiB). */
	double (*units_of)(const epi_bench_ctx *ctx);
} epi_kernel;

/* The page-walk kernels: load.page.walk's pages, and the TLB's miss curve,
 * load.page.tlbS for a walk over S percent of the pages the second-level
 * TLB maps (X(S) for each S, in order). None at 100%: a walk over exactly
 * the pages the TLB maps sits on the curve's cliff, where what else the
 * TLB holds decides; a curve reads the tables that have it
 * (EPI_TLB_CURVE). 110% is the cliff's far side, which holds steady from
 * one calibration to the next where 90% and 100% do not. */
#define EPI_WALK_PAGES 8192
#define EPI_TLB_SHARES(X) X(50) X(75) X(110) X(125) X(150)
#define EPI_TLB_CURVE(X) X(50) X(75) X(100) X(110) X(125) X(150)
/* load.l2.set's lines, a page apart in one set of L1 */
#define EPI_SET_LINES 128
/* load.frame.col's columns (a multiple of 8: whole lines), and the loads of
 * its iteration at -O0: s, a, k, a[k], b, k, m, j, b[k * m + j], and k three
 * times for k++ and k < rows with rows */
#define EPI_FRAME_COLS 512
#define EPI_FRAME_LOADS 12

/* Every kernel, `iter` first. */
const epi_kernel *const *epi_kernels(int *n);
/* RR-8416's C kernels, in context (bench/paper.c): add, mul, div, cmp,
 * load, store, memcpy, malloc, print. */
const epi_kernel *const *epi_kernels_paper(int *n);
const epi_kernel *epi_kernel_find(const char *name);

/* The buffer size that exercises LEVEL, from the data cache sizes in bytes
 * (0: unknown, then typical sizes are assumed): half of L1, half of L2,
 * half of L3 but no more than the larger of 4 x L2 and 8 MiB, and 4 x L3
 * but at least 64 MiB for DRAM. A multiple of 4 KiB. */
size_t epi_level_bytes(unsigned long long l1, unsigned long long l2, unsigned long long l3, enum epi_level level);

/* How much slower than at the L3 kernels' size a line must come at the
 * largest size for that to be memory's rate, and the largest size. */
#define EPI_L3_MEMORY_STEP 1.5
#define EPI_L3_PROBE_MAX ((size_t)512 << 20)

/* The share of the way from L3's time per line to memory's at which the
 * working set is taken as L3's reach. */
#define EPI_L3_REACH_SHARE 0.25

/* The working set L3 serves, from the time per line T of lines read in
 * address order over buffers of BYTES (N sizes, growing, the first the L3
 * kernels' size, the last memory's): the size at which a line takes
 * EPI_L3_REACH_SHARE of the way from the first size's time to the last's,
 * between the two sizes around it in proportion; 0 when the last is not
 * EPI_L3_MEMORY_STEP times the first (no step to memory seen: the model
 * then takes three quarters of L3, as for a table without the
 * measurement) or nothing was measured. A shared L3 gives up lines to
 * other cores gradually, not at one size: a point on the way to memory's
 * rate, where the curve is steep, moves little with a noisy size. */
unsigned long long epi_l3_serves(const size_t *bytes, const double *t, int n);

/* The second-level TLB's reach: from a load's time T on each of N walks
 * over PAGES pages (growing, one load a page), the pages at which the time
 * leaves the plateau of walks the TLB maps (the least of the first
 * quarter's times) by EPI_TLB_REACH_SHARE of the way up to page walks' (the
 * last time), from where on every walk's time stays above that, between
 * the two walks around it in proportion; 0 when the last time is not
 * EPI_TLB_WALK_STEP times the plateau (no cliff: large pages, or a TLB
 * beyond the walks) or fewer than four were measured. */
#define EPI_TLB_REACH_SHARE 0.1
#define EPI_TLB_WALK_STEP 3.0
unsigned long long epi_tlb_reach(const size_t *pages, const double *t, int n);
/* The walks epi-calibrate measures the reach with: EPI_TLB_PROBE_MIN pages
 * up to EPI_TLB_PROBE_MAX, in steps of the fourth root of 2 */
#define EPI_TLB_PROBE_MIN 256
#define EPI_TLB_PROBE_MAX 16384
const char *epi_level_name(enum epi_level level);

/* Shared helpers for kernels (bench.c). */
int epi_bench_alloc(epi_bench_ctx *ctx, size_t bytes, int two, char *err);
void epi_bench_free(epi_bench_ctx *ctx);
/* A walk over PAGES pages a page apart, a load from each at offsets that
 * keep their lines cached, for K (a page kernel: its run walks it, its
 * teardown unmaps it); epi_bench_walk_len shortens the walk to its first
 * PAGES (a multiple of 32, no more than were set up). */
int epi_bench_walk(const epi_kernel *k, epi_bench_ctx *c, size_t pages, char *err);
void epi_bench_walk_len(epi_bench_ctx *c, size_t pages);
/* Reads a byte of each page of the buffers epi_bench_alloc made (of each
 * page a page kernel walks), so that a run finds them mapped: a host that translates a guest's pages in
 * tables of its own (shadow paging) drops them when the guest unmaps any
 * memory (the malloc kernels, another kernel's teardown), and the next
 * run's every page of a large buffer then stops for the host, a run of a
 * memory kernel measuring that instead of memory. Calibration calls it
 * before each run. */
void epi_bench_touch(const epi_bench_ctx *ctx);
/* The print kernels' stream: /dev/null in CTX->aux (setup), closed (teardown). */
int epi_bench_open_null(const epi_kernel *k, epi_bench_ctx *ctx, char *err);
void epi_bench_close_null(epi_bench_ctx *ctx);

#endif
