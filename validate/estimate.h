/* estimate: a trace read back into blocks, and ALEA's estimators with 95%
 * intervals (GSL quantiles):
 *   time    t_b = p_b x T, p_b = n_b / n with a Wilson interval (a Wald
 *           interval goes negative for rare blocks);
 *   energy  E_b = T x mean(y), y_j = P_j / k_j x [sample j in b], k_j the
 *           threads sharing sample j's power, t interval;
 *   power   P_b = sum(dE) / sum(dt) over the block's streaks (a thread's
 *           consecutive samples in it), dE and dt between the first and last
 *           readings surely inside the streak, so that the readings between
 *           cancel; a t interval over the streaks, widened by the end
 *           readings' timing (half their read's span, and the meter's update
 *           lag); the mean of the samples' powers for a block without such a
 *           streak (blocks shorter than two sensing intervals).
 * T is the mean run time: CPU time for the perf sampler (cpu-clock samples a
 * thread only while it runs), wall time for ptrace. Figures are per run.
 * Where the runs' times differ, T's own t interval over them widens the
 * time and energy intervals (relative half-widths added in quadrature);
 * with one run, the sampling's alone.
 *
 * Threads (ALEA section 3.4): the ptrace sampler samples every thread at each
 * tick, so a tick is a vector of blocks. A block's time is then thread time,
 * share x T x (samples / ticks), and each sample carries its tick's power
 * divided among the tick's threads, so that the blocks' energies add up to the
 * measured energy. perf's samples are each their own tick (their clocks run
 * per thread): there a sample's power is divided among the threads with a
 * sample within one sampling interval of it. */
#ifndef EPI_ESTIMATE_H
#define EPI_ESTIMATE_H

#include "validate/attrib.h"
#include "validate/trace.h"

typedef struct epi_est {
	double v, lo, hi; /* NAN when not measured */
} epi_est;

typedef struct epi_block_est {
	epi_est share, time, energy, power;
} epi_block_est;

typedef struct epi_profile_sum {
	epi_trace_info info;
	int nruns;            /* complete runs read */
	int nfailed;          /* of which the program exited non-zero or was killed */
	int time_is_cpu;      /* T is CPU time (perf) rather than wall time */
	double t_mean;        /* T */
	double wall_mean, wall_sd, cpu_mean, cpu_sd;
	double j_mean, j_sd;  /* measured energy per run; NAN without a meter */
	double prof_cpu_mean; /* the profiler's own CPU time per run */
	uint64_t n, np;       /* samples, and samples with power */
	uint64_t nticks, npticks; /* sampling instants, and those with power */
	uint64_t lost;
	epi_attrib *attrib;   /* the blocks */
	int last_status;      /* the wait status of the last run */
	double sw, sw2, sc, sc2, sj, sj2, sp; /* sums over runs, for the means */
	int nj;               /* runs with energy */
} epi_profile_sum;

/* Reads the trace PATH into P, attributing samples at granularity BY.
 * Returns 0; or -1 with ERR when nothing usable was read. A trace damaged
 * after complete runs returns 0 with those runs and the damage in WARN
 * (EPI_ERRLEN bytes, "" when none). */
int epi_profile_load(epi_profile_sum *p, const char *path, enum epi_by by, const char *const *clang_args,
		     int nclang_args, char *warn, char *err);
void epi_profile_sum_free(epi_profile_sum *p);

/* Adds a run's samples to P's blocks (P->attrib must exist), with the
 * meter readings R (NR of them) their powers came from. */
int epi_profile_add_run(epi_profile_sum *p, const epi_map *maps, int nmaps, const epi_sample *s, size_t ns,
			const epi_reading *r, size_t nr, const epi_run_end *end, char *err);

void epi_block_estimate(const epi_profile_sum *p, const epi_block *b, epi_block_est *out);

/* The whole program per run: T and the measured energy, each with a t
 * interval over the runs (NAN bounds with one run; energy NAN without a meter). */
void epi_profile_total(const epi_profile_sum *p, epi_est *time, epi_est *energy);

/* The standard deviation of the runs' times, T's basis (CPU or wall); NAN
 * with one run. */
double epi_profile_time_sd(const epi_profile_sum *p);

/* Runs whose times' standard deviation is this share of their mean or more
 * are further apart than a quiet machine's: the reports say so. */
#define EPI_RUNS_APART 0.05

/* The Wilson score interval of K successes in N at 95%. */
void epi_wilson(uint64_t k, uint64_t n, double *lo, double *hi);

/* Whether the blocks with at least 5% of the samples all have a 95% interval
 * on their share within REL (0.05) of it. */
int epi_profile_converged(const epi_profile_sum *p, double rel);

#endif
