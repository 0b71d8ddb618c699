/* measure: metered kernel runs and idle power (see measure.h). */
#define _GNU_SOURCE /* sched_getcpu */
#include "calibrate/measure.h"
#include "machine/cpu.h"
#include "machine/sysroot.h"
#include "model/util.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <sched.h>
#include <time.h>

uint64_t epi_iters_for(const epi_kernel *k, epi_bench_ctx *ctx, double min_s, double *per_it)
{
	uint64_t it = 1;
	for (;;) {
		double t0 = epi_now();
		k->run(ctx, it);
		double t = epi_now() - t0;
		if (t >= min_s) {
			if (per_it)
				*per_it = t / (double)it;
			return it;
		}
		/* aim past MIN_S from what this run took, growing at most 64-fold */
		double f = t > 0 ? 1.2 * min_s / t : 64;
		if (f > 64)
			f = 64;
		if (f < 2 && t < min_s)
			f = 2;
		it = (uint64_t)ceil((double)it * f);
	}
}

int epi_run_kernel(const epi_kernel *k, epi_bench_ctx *ctx, uint64_t iters, double per_it, epi_meter *m,
		   const char *domain, epi_run *out, char *err)
{
	out->iters = iters;
	out->joules = NAN;
	int metered = m && !m->time_only;
	if (!metered) {
		double t0 = epi_now();
		k->run(ctx, iters);
		out->secs = epi_now() - t0;
		return 0;
	}
	/* chunks of at most half the safe poll period */
	double period = epi_meter_period(m);
	if (per_it <= 0) {
		uint64_t probe = iters < 64 ? iters : 64;
		double t0 = epi_now();
		k->run(ctx, probe);
		per_it = (epi_now() - t0) / (double)probe;
	}
	uint64_t chunk = per_it > 0 ? (uint64_t)(0.5 * period / per_it) : iters;
	if (chunk < 1)
		chunk = 1;
	epi_meter_reset(m);
	if (epi_meter_poll(m, err) < 0)
		return -1;
	for (uint64_t done = 0; done < iters;) {
		uint64_t n = iters - done < chunk ? iters - done : chunk;
		k->run(ctx, n);
		done += n;
		if (epi_meter_poll(m, err) < 0)
			return -1;
	}
	out->secs = m->t_last - m->t_first;
	out->joules = epi_meter_joules(m, domain);
	return 0;
}

int epi_measure_idle(epi_meter *m, const char *domain, double secs, double *watts, char *err)
{
	*watts = NAN;
	if (!m || m->time_only)
		return 0;
	double period = epi_meter_period(m), step = period > 0 && period < 0.1 ? period / 2 : 0.05;
	epi_meter_reset(m);
	if (epi_meter_poll(m, err) < 0)
		return -1;
	double end = epi_now() + secs;
	while (epi_now() < end) {
		struct timespec ts = {0, (long)(step * 1e9)};
		nanosleep(&ts, NULL);
		if (epi_meter_poll(m, err) < 0)
			return -1;
	}
	double w = m->t_last - m->t_first;
	*watts = w > 0 ? epi_meter_joules(m, domain) / w : NAN;
	return 0;
}

/* Seconds per unit of K set up in CTX: the fastest of three runs of
 * MIN_S seconds or more. */
static double fastest_run(const epi_kernel *k, epi_bench_ctx *ctx, double min_s)
{
	double per = 0, best = INFINITY;
	uint64_t it = epi_iters_for(k, ctx, min_s, &per);
	for (int r = 0; r < 3; r++) {
		double t0 = epi_now();
		k->run(ctx, it);
		double s = (epi_now() - t0) / ((double)it * k->units);
		if (s < best)
			best = s;
	}
	return best;
}

int epi_measure_l3_serves(unsigned long long l1, unsigned long long l2, unsigned long long l3,
			  unsigned long long *serves, char *err)
{
	*serves = 0;
	const epi_kernel *k = epi_kernel_find("load.l3.line");
	size_t s0 = epi_level_bytes(l1, l2, l3, EPI_LVL_L3), top = epi_level_bytes(l1, l2, l3, EPI_LVL_DRAM);
	if (top > EPI_L3_PROBE_MAX)
		top = EPI_L3_PROBE_MAX;
	if (!k || !l3 || s0 >= (size_t)(l3 / 2) || s0 >= top)
		return 0; /* the kernels' buffer is half of L3 already */
	enum { MAXN = 64 };
	size_t bytes[MAXN];
	double t[MAXN];
	int n = 0;
	for (double s = (double)s0; n < MAXN; s *= 1.4142135623730951) {
		bytes[n++] = s < (double)top ? (size_t)s & ~(size_t)4095 : top;
		if (bytes[n - 1] == top)
			break;
	}
	epi_bench_ctx ctx = {0};
	if (epi_bench_alloc(&ctx, top, 0, err) < 0)
		return -1;
	/* each size: a pass to bring it in, then the fastest of three runs of
	 * 10 ms or more; every size, the last at memory's rate */
	for (int m = 0; m < n; m++) {
		ctx.bytes = bytes[m];
		k->run(&ctx, bytes[m] / 2048 + 1);
		t[m] = fastest_run(k, &ctx, 0.01);
	}
	epi_bench_free(&ctx);
	*serves = epi_l3_serves(bytes, t, n);
	return 0;
}

int epi_measure_tlb_reach(unsigned long long *pages, char *err)
{
	*pages = 0;
	const epi_kernel *k = epi_kernel_find("load.page.tlb50");
	if (!k)
		return 0;
	enum { MAXN = 40 };
	size_t n_at[MAXN];
	double t[MAXN];
	int n = 0;
	for (double p = EPI_TLB_PROBE_MIN; n < MAXN && p < EPI_TLB_PROBE_MAX * 1.001; p *= 1.189207115002721)
		n_at[n++] = ((size_t)p + 31) / 32 * 32;
	epi_bench_ctx ctx = {0};
	if (epi_bench_walk(k, &ctx, n_at[n - 1], err) < 0)
		return -1;
	/* each walk: a pass to load its lines and pages, then the fastest
	 * of three runs of 5 ms or more */
	for (int m = 0; m < n; m++) {
		epi_bench_walk_len(&ctx, n_at[m]);
		k->run(&ctx, n_at[m] / 32);
		t[m] = fastest_run(k, &ctx, 0.005);
	}
	k->teardown(&ctx);
	*pages = epi_tlb_reach(n_at, t, n);
	return 0;
}

/* The median of EPI_MEMORY_RUNS runs of ITERS iterations of K: seconds per
 * iteration. */
static double median_run(const epi_kernel *k, epi_bench_ctx *ctx, uint64_t iters)
{
	double t[EPI_MEMORY_RUNS];
	for (int r = 0; r < EPI_MEMORY_RUNS; r++) {
		epi_bench_touch(ctx); /* as calibration runs it */
		double t0 = epi_now();
		k->run(ctx, iters);
		t[r] = (epi_now() - t0) / (double)iters;
	}
	gsl_sort(t, 1, EPI_MEMORY_RUNS);
	return gsl_stats_median_from_sorted_data(t, 1, EPI_MEMORY_RUNS);
}

typedef struct memory_probe {
	double run_s, secs;
	int ret;
	char *err;
} memory_probe;

static void probe_memory(void *arg)
{
	memory_probe *p = arg;
	const epi_kernel *k = epi_kernel_find("load.dram"), *it = epi_kernel_find("iter");
	if (!k || !it) {
		p->ret = epi_error(p->err, "no load.dram kernel to measure memory with");
		return;
	}
	int cpu = sched_getcpu();
	epi_caches cs;
	epi_caches_read(cpu >= 0 ? cpu : 0, &cs);
	epi_bench_ctx ctx = {.bytes = epi_level_bytes(cs.l1, cs.l2, cs.l3, EPI_LVL_DRAM)};
	if (k->setup(k, &ctx, p->err) < 0) {
		p->ret = -1;
		return;
	}
	/* two passes over the buffer (256 bytes an iteration), then runs as
	 * calibration sizes them */
	k->run(&ctx, 2 * (ctx.bytes / 256) + 1);
	uint64_t n = epi_iters_for(k, &ctx, p->run_s, NULL);
	double t = median_run(k, &ctx, n);
	k->teardown(&ctx);
	epi_bench_ctx none = {0};
	uint64_t ne = epi_iters_for(it, &none, p->run_s, NULL);
	double empty = median_run(it, &none, ne);
	p->secs = (t - empty) / k->units;
	p->ret = 0;
}

int epi_measure_memory(int cpu, double run_s, double *secs, char *err)
{
	memory_probe p = {.run_s = run_s, .secs = NAN, .err = err};
	epi_on_cpu(cpu, probe_memory, &p); /* -1: unpinned */
	*secs = p.secs;
	return p.ret;
}
