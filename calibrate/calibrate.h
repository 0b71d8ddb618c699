/* calibrate: the measurement plan of epi-calibrate.
 *
 * RR-8416's Algorithm 1 (per frequency: set it, run every benchmark,
 * settle between frequencies) with: the kernels pinned to one CPU whose
 * frequency the machine layer sets (boost off, everything restored);
 * runs sized to at least 100 x the meter's update interval; rounds that
 * run every unfinished kernel once in a new random order, until each
 * kernel's 95% confidence half-width is within the precision (or its run
 * or time limit); idle power per frequency; outliers and drift flagged.
 * Net costs subtract the empty loop (`iter`, measured first at each
 * frequency). The table is saved atomically after every finished
 * (frequency, operation), so that a resumed calibration redoes nothing. */
#ifndef EPI_CALIBRATE_H
#define EPI_CALIBRATE_H

#include <signal.h>

#include "machine/meter.h"
#include "model/table.h"

typedef struct epi_calib_progress {
	int done, total;     /* entries finished, entries to do (this run) */
	int fi, nf;          /* the frequency being calibrated */
	long khz;
	const char *op;      /* the kernel last run */
	double elapsed;      /* seconds since the start */
	const char *line;    /* one line on a finished entry, else NULL */
} epi_calib_progress;

typedef struct epi_calib {
	const char *freqs;       /* "all", "current", or a list: 1.6GHz,2.4GHz */
	const char *ops;         /* NULL: every kernel; else kernel or class names, comma-separated */
	const char *style;       /* "net": asm kernels minus the empty loop; "paper": RR-8416's C kernels in context */
	int cpu;                 /* the CPU the kernels run on */
	double precision;        /* relative 95% half-width (0.01) */
	int max_runs;            /* per entry */
	double max_time;         /* seconds of runs per entry */
	double run_s;            /* seconds per run; 0: 100 x the meter's update interval and
				    100 x its resolution at idle power, at least 20 ms */
	double idle_s;           /* idle power measured this long per frequency */
	double settle_s;         /* pause after a frequency change */
	long long freq_step_khz; /* for range drivers (intel_pstate): 0 = 100 MHz */
	const char *output;
	int resume;
	const char *command;     /* the command line, recorded in the table */
	epi_meter *meter;        /* open; `none` for time only */
	const char *domain;      /* NULL: the machine's total */
	int catch_signals;       /* SIGINT, SIGTERM, SIGHUP stop after the current run (a second one kills) */
	void (*progress)(void *arg, const epi_calib_progress *p);
	void *progress_arg;
	/* out */
	char cannot[4][320];     /* what this machine could not do, said plainly */
	int ncannot;
	int done, total, skipped; /* entries finished now, to do, found finished (--resume) */
	int stopped_by;          /* the signal that stopped it, or 0 */
	double run_base;         /* (internal) run_s from the update interval, when chosen here */
} epi_calib;

/* Defaults for every option. */
void epi_calib_defaults(epi_calib *c);

/* Whether F's TLB curve missed below the second-level TLB's reach: a
 * load.page.tlbS point under 100% of it more than twice the curve's first
 * (on a VM, another guest's thread sharing the core's TLB; or a TLB
 * smaller than cpuid says). Then a line saying so, naming the points and
 * F's frequency WHERE, into OUT. */
int epi_tlb_missed(const epi_fcol *f, const char *where, char *out, size_t n);

/* Calibrates into T (saved to c->output after every entry). Returns 0 when
 * complete, 1 when stopped by a signal (the table keeps what finished), -1
 * with ERR (bad option, meter failure: the table keeps what finished). */
int epi_calibrate(epi_calib *c, epi_table *t, char *err);

#endif
