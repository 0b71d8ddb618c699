/* measure: one timed, metered run of a benchmark kernel, and idle power.
 *
 * A run executes the kernel in chunks short enough that the meter is
 * polled within its safe period (no counter wrap is missed); the time and
 * the energy are those of the meter's window, first poll to last, so
 * that both cover the same interval. Without a meter the time is the
 * run's own (CLOCK_MONOTONIC). */
#ifndef EPI_MEASURE_H
#define EPI_MEASURE_H

#include <stdint.h>

#include "bench/bench.h"
#include "machine/meter.h"

typedef struct epi_run {
	uint64_t iters;
	double secs;
	double joules;   /* NAN without energy */
} epi_run;

/* Iterations of K (set up in CTX) that take at least MIN_S seconds;
 * *PER_IT (may be NULL) receives the seconds one iteration took. */
uint64_t epi_iters_for(const epi_kernel *k, epi_bench_ctx *ctx, double min_s, double *per_it);

/* Runs ITERS iterations of K metered by M (may be NULL), in chunks of half
 * the meter's safe poll period, sized from PER_IT seconds per iteration
 * (0: from a short probe run). 0, or -1 with ERR (a meter that fails). */
int epi_run_kernel(const epi_kernel *k, epi_bench_ctx *ctx, uint64_t iters, double per_it, epi_meter *m,
		   const char *domain, epi_run *out, char *err);

/* The working set L3 serves (epi_l3_serves), from lines read in address
 * order (the load.l3.line kernel) over buffers from the L3 kernels' size
 * up to the memory kernels' (cache sizes L1, L2, L3 in bytes; at most
 * EPI_L3_PROBE_MAX), in steps of the square root of 2. *SERVES is 0 when
 * nothing needs measuring (L3 unknown, or no larger than twice the
 * kernels' buffer). 0, or -1 with ERR (no memory for the buffer). */
int epi_measure_l3_serves(unsigned long long l1, unsigned long long l2, unsigned long long l3,
			  unsigned long long *serves, char *err);

/* The pages the second-level TLB maps (epi_tlb_reach), from walks of a
 * load a page (the page kernels') over EPI_TLB_PROBE_MIN to
 * EPI_TLB_PROBE_MAX pages. *PAGES is 0 when no cliff shows. 0, or -1 with
 * ERR (no memory for the walk). */
int epi_measure_tlb_reach(unsigned long long *pages, char *err);

/* Memory's rate now, as epi-calibrate's load.dram kernel measures it: its
 * net seconds per 8-byte load (the empty loop's share taken off, as the
 * table's net costs have it) into *SECS, the median of EPI_MEMORY_RUNS runs
 * of RUN_S seconds or more on CPU (-1: where this runs), on a buffer sized
 * as calibration sizes it from this machine's caches, after passes that
 * bring it in (a page's first touch, and on some hosts its first pass,
 * costs more than the passes after). For epi-profile, before the runs: a
 * host whose memory is slower or faster than when the table was taken
 * (other guests' traffic, pages the host has yet to settle) moves
 * memory-bound times with it. 0, or -1 with ERR (no memory for the
 * buffer). */
#define EPI_MEMORY_RUNS 5
#define EPI_MEMORY_RUN_S 0.02
int epi_measure_memory(int cpu, double run_s, double *secs, char *err);

/* Sleeps SECS while metering; *WATTS is the mean power (NAN without energy). */
int epi_measure_idle(epi_meter *m, const char *domain, double secs, double *watts, char *err);

#endif
