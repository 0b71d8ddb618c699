/* calibrate: the measurement plan (see calibrate.h). */
#define _GNU_SOURCE /* sched_setaffinity */
#include "calibrate/calibrate.h"
#include "bench/bench.h"
#include "calibrate/measure.h"
#include "calibrate/stats.h"
#include "machine/cpu.h"
#include "machine/cpufreq.h"
#include "machine/sysroot.h"
#include "model/freq.h"
#include "model/util.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>

void epi_calib_defaults(epi_calib *c)
{
	memset(c, 0, sizeof *c);
	c->freqs = "all";
	c->style = "net";
	c->precision = 0.01;
	c->max_runs = 30;
	c->max_time = 10;
	c->idle_s = 1;
	c->settle_s = 0.2;
}

/* The class entry each kernel stands for (add from add.i64), or NULL. */
static const char *class_of(const char *kernel)
{
	static const char *map[][2] = {{"add.i64", "add"},   {"mul.i64", "mul"},     {"div.i64", "div"},
				       {"cmp.i64", "cmp"},   {"bit.i64", "bit"},     {"load.l1", "load"},
				       {"store.l1", "store"}, {"memcpy.dram", "memcpy"}};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (strcmp(map[i][0], kernel) == 0)
			return map[i][1];
	return NULL;
}

/* ---- choosing kernels and frequencies ------------------------------------ */

static int is_net(const epi_calib *c)
{
	return strcmp(c->style, "paper") != 0;
}

static int select_kernels(const epi_calib *c, const epi_kernel **sel, int *nsel, char *err)
{
	int n;
	const char *ops = c->ops;
	const epi_kernel *const *all = is_net(c) ? epi_kernels(&n) : epi_kernels_paper(&n);
	int want[128] = {0};
	want[0] = is_net(c); /* iter: the baseline of every net cost */
	if (!ops) {
		for (int i = 0; i < n; i++)
			want[i] = 1;
	} else {
		char *dup = xstrdup(ops), *save = NULL;
		for (char *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			int found = 0;
			size_t l = strlen(tok);
			for (int i = 0; i < n; i++)
				if (strcmp(all[i]->name, tok) == 0 ||
				    (strncmp(all[i]->name, tok, l) == 0 && all[i]->name[l] == '.'))
					want[i] = found = 1;
			if (!found) {
				char list[2048] = "";
				for (int i = 0; i < n; i++) {
					size_t k = strlen(list);
					snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "", all[i]->name);
				}
				epi_error(err, "unknown operation '%s' (operations: %s)", tok, list);
				free(dup);
				return -1;
			}
		}
		free(dup);
	}
	*nsel = 0;
	for (int i = 0; i < n; i++)
		if (want[i])
			sel[(*nsel)++] = all[i];
	return 0;
}

static const epi_policy *policy_of(const epi_cpufreq *cf, int cpu)
{
	for (int i = 0; i < cf->npol; i++)
		for (int j = 0; j < cf->pol[i].ncpus; j++)
			if (cf->pol[i].cpus[j] == cpu)
				return &cf->pol[i];
	return NULL;
}

/* Fills KHZ with the frequencies to calibrate; 0 of them means "the
 * current one, unpinned". */
static int select_freqs(epi_calib *c, epi_cpufreq *cf, long *khz, int *nf, char *err)
{
	*nf = 0;
	char ferr[EPI_ERRLEN];
	int have = epi_cpufreq_scan(cf, c->freq_step_khz, ferr) == 0;
	const epi_policy *p = have ? policy_of(cf, c->cpu) : NULL;
	if (have && !p) {
		have = 0;
		snprintf(ferr, sizeof ferr, "CPU %d belongs to no cpufreq policy", c->cpu);
	}
	if (strcmp(c->freqs, "current") == 0)
		return 0;
	if (strcmp(c->freqs, "all") == 0) {
		if (!have) {
			snprintf(c->cannot[c->ncannot++], sizeof c->cannot[0],
				 "cannot set CPU frequencies (%s): calibrating at the current frequency only", ferr);
			return 0;
		}
		for (int i = 0; i < p->nfreq && *nf < EPI_MAXFREQ; i++)
			khz[(*nf)++] = (long)p->freq[i];
		return 0;
	}
	char *dup = xstrdup(c->freqs), *save = NULL;
	for (char *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		long k;
		if (epi_freq_parse(tok, &k, err) < 0) {
			free(dup);
			return -1;
		}
		if (!have) {
			epi_error(err, "cannot calibrate at %s: %s (use --freqs current)", tok, ferr);
			free(dup);
			return -1;
		}
		if (epi_freq_offered(p, k, err) < 0) {
			free(dup);
			return -1;
		}
		khz[(*nf)++] = k;
	}
	free(dup);
	return 0;
}

/* ---- the table ----------------------------------------------------------- */

static void fill_identity(epi_calib *c, epi_table *t)
{
	char err[EPI_ERRLEN];
	epi_cpuinfo ci;
	if (epi_cpu_info(&ci, err) == 0) {
		t->cpu = xstrdup(ci.name[0] ? ci.name : "unknown");
		if (ci.microcode[0])
			t->microcode = xstrdup(ci.microcode);
	} else {
		t->cpu = xstrdup("unknown");
	}
	struct utsname u;
	if (uname(&u) == 0) {
		t->host = xstrdup(u.nodename);
		char k[400];
		snprintf(k, sizeof k, "%s %s %s", u.sysname, u.release, u.machine);
		t->kernel = xstrdup(k);
	}
	char path[EPI_PATHLEN], line[256];
	FILE *mi = fopen(epi_syspath(path, "/proc/meminfo"), "r");
	while (mi && fgets(line, sizeof line, mi)) {
		unsigned long long kb;
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
			char m[64];
			snprintf(m, sizeof m, "%.1f GiB", kb / 1048576.0);
			t->memory = xstrdup(m);
			break;
		}
	}
	if (mi)
		fclose(mi);
	epi_caches cs;
	epi_caches_read(c->cpu, &cs);
	t->cache[0] = cs.l1, t->cache[1] = cs.l2, t->cache[2] = cs.l3;
	t->meter = xstrdup(c->meter->ops->name);
	t->domain = xstrdup(c->meter->time_only ? "none" : c->domain ? c->domain : "total");
	double iv = 0;
	int est = 0;
	for (int i = 0; i < c->meter->ndom; i++) {
		if (c->meter->dom[i].interval_s > iv)
			iv = c->meter->dom[i].interval_s;
		est |= c->meter->dom[i].estimated;
	}
	t->meter_interval_s = c->meter->time_only ? NAN : iv;
	t->estimated = est;
	char when[64];
	time_t now = time(NULL);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	t->created = xstrdup(when);
	if (c->command)
		t->command = xstrdup(c->command);
	t->style = xstrdup(c->style);
	t->calib_cpu = c->cpu;
	t->precision = c->precision;
}

/* Opens the output: a cost table to resume, or a fresh one. Anything there
 * that is not a cost table is refused, never overwritten. */
static int open_table(epi_calib *c, epi_table *t, char *err)
{
	struct stat st;
	if (stat(c->output, &st) == 0) {
		char lerr[EPI_ERRLEN];
		epi_table old;
		if (epi_table_load(&old, c->output, lerr) < 0)
			return epi_error(err, "'%s' exists and is not a cost table (%s): not overwritten", c->output, lerr);
		if (c->resume) {
			epi_table fresh;
			epi_table_init(&fresh);
			fill_identity(c, &fresh);
			int same = old.cpu && strcmp(old.cpu, fresh.cpu) == 0 && old.meter &&
				   strcmp(old.meter, fresh.meter) == 0 && old.domain && strcmp(old.domain, fresh.domain) == 0 &&
				   old.style && strcmp(old.style, fresh.style) == 0;
			if (!same) {
				epi_error(err, "cannot resume '%s': it was calibrated on '%s' with meter %s (%s), style %s; this is '%s' with %s (%s), style %s",
					  c->output, old.cpu ? old.cpu : "?", old.meter ? old.meter : "?", old.domain ? old.domain : "?",
					  old.style ? old.style : "?", fresh.cpu, fresh.meter, fresh.domain, fresh.style);
				epi_table_free(&fresh);
				epi_table_free(&old);
				return -1;
			}
			epi_table_free(&fresh);
			*t = old;
			return 0;
		}
		epi_table_free(&old);
	}
	epi_table_init(t);
	fill_identity(c, t);
	return 0;
}

static epi_fcol *column(epi_table *t, long khz, int pinned)
{
	for (int i = 0; i < t->nf; i++)
		if (t->f[i].khz == khz || (!pinned && !t->f[i].pinned))
			return &t->f[i];
	int at = 0;
	while (at < t->nf && t->f[at].khz < khz)
		at++;
	t->f = xrealloc(t->f, (t->nf + 1) * sizeof *t->f);
	memmove(&t->f[at + 1], &t->f[at], (t->nf - at) * sizeof *t->f);
	t->nf++;
	epi_fcol *f = &t->f[at];
	memset(f, 0, sizeof *f);
	f->khz = khz;
	f->pinned = pinned;
	f->effective_ghz = f->idle_w = f->idle_w_sd = NAN;
	return f;
}

static epi_cost *put_entry(epi_fcol *f, const char *key)
{
	epi_cost *e = epi_fcol_find(f, key);
	if (e) {
		free(e->kernel);
		free(e->key);
	} else {
		f->op = xrealloc(f->op, (f->n + 1) * sizeof *f->op);
		e = &f->op[f->n++];
	}
	epi_cost_init(e);
	e->key = xstrdup(key);
	return e;
}

/* ---- one frequency --------------------------------------------------------- */

static volatile sig_atomic_t stop_sig; /* the signal that asked to stop */

typedef struct work {
	const epi_kernel *k;
	epi_bench_ctx ctx;
	int ready;             /* set up and sized */
	uint64_t iters;
	double per_it;         /* seconds per iteration, from the sizing run */
	double units;          /* per iteration */
	int n, cap;
	double *t, *e;         /* per iteration, gross, in run order */
	double spent;          /* seconds of runs */
	int finished;
} work;

static void work_free(work *w)
{
	if (w->ready && w->k->teardown)
		w->k->teardown(&w->ctx);
	free(w->t);
	free(w->e);
	memset(w, 0, sizeof *w);
}

static void progress(epi_calib *c, epi_calib_progress *p, const char *op, const char *line, double t0)
{
	if (!c->progress)
		return;
	p->done = c->done;
	p->total = c->total;
	p->op = op;
	p->line = line;
	p->elapsed = epi_now() - t0;
	c->progress(c->progress_arg, p);
}

/* Table order: kernels as the registry lists them, then class entries. */
typedef struct registry {
	const epi_kernel *const *k;
	int n;
} registry;

static int registry_rank(const registry *r, const char *key, const char *kernel)
{
	for (int i = 0; i < r->n; i++)
		if (strcmp(r->k[i]->name, key) == 0)
			return i;
	return r->n + (kernel ? registry_rank(r, kernel, NULL) : r->n);
}

static int by_registry(const void *a, const void *b, void *reg)
{
	const epi_cost *x = a, *y = b;
	int i = registry_rank(reg, x->key, x->kernel), j = registry_rank(reg, y->key, y->kernel);
	return (i > j) - (i < j);
}

/* The empty loop per iteration, subtracted from every net cost: time and
 * energy with their half-widths (all 0 for the empty loop itself). */
typedef struct baseline {
	double t, t_ci, e, e_ci;
} baseline;

/* Summarises W into its table entry, net of the baseline B. */
static void finish(epi_calib *c, epi_fcol *f, work *w, const baseline *b, char *line, size_t ln)
{
	int is_iter = !is_net(c) || strcmp(w->k->name, "iter") == 0; /* nothing to subtract */
	double *net = xmalloc(w->n * sizeof *net), *nete = xmalloc(w->n * sizeof *nete);
	unsigned char *keep = xmalloc(w->n);
	int metered = !isnan(w->e[0]);
	epi_cost *e = put_entry(f, w->k->name);
	e->unit = w->k->unit;
	snprintf(e->style, sizeof e->style, "%s", c->style);
	epi_summary st, se;
	/* a run is one observation: left out of time and energy alike */
	memset(keep, 1, w->n);
	for (int i = 0; i < w->n; i++) {
		net[i] = (w->t[i] - (is_iter ? 0 : b->t)) / w->units;
		nete[i] = (w->e[i] - (is_iter ? 0 : b->e)) / w->units;
	}
	epi_mark_outliers(net, w->n, keep);
	if (metered)
		epi_mark_outliers(nete, w->n, keep);
	epi_summarise_net(net, keep, w->n, c->precision, &st);
	e->t = st.mean;
	e->t_sd = st.sd;
	e->t_ci = is_iter ? st.ci : hypot(st.ci, b->t_ci / w->units);
	e->runs = st.n;
	e->outliers = st.outliers;
	e->drift = st.drift;
	if (metered) {
		epi_summarise_net(nete, keep, w->n, c->precision, &se);
		e->e = se.mean;
		e->e_sd = se.sd;
		e->e_ci = is_iter ? se.ci : hypot(se.ci, b->e_ci / w->units);
		e->drift |= se.drift;
		if (!isnan(f->idle_w))
			e->e_dyn = e->e - f->idle_w * e->t;
	}
	if (!isnan(f->effective_ghz)) {
		e->cycles = e->t * f->effective_ghz * 1e9;
		e->cycles_sd = isnan(e->t_sd) ? NAN : e->t_sd * f->effective_ghz * 1e9;
	}
	const char *cls = is_net(c) ? class_of(w->k->name) : NULL;
	if (cls) {
		epi_cost copy = *e;
		epi_cost *a = put_entry(f, cls);
		e = epi_fcol_find(f, w->k->name); /* put_entry may have moved it */
		char *key = a->key;
		*a = copy;
		a->key = key;
		a->kernel = xstrdup(w->k->name);
	}
	char g[32];
	epi_freq_ghz(g, sizeof g, f->khz);
	const char *u = w->k->unit == EPI_UNIT_MIB ? "MiB" : "op";
	int n = snprintf(line, ln, "%s %-14s %.4g ns/%s +- %.2g%%", g, w->k->name, e->t * 1e9, u,
			 e->t != 0 ? 100 * e->t_ci / fabs(e->t) : 0.0);
	if (!isnan(e->cycles) && n < (int)ln)
		n += snprintf(line + n, ln - n, ", %.3g cycles", e->cycles);
	if (!isnan(e->e) && n < (int)ln)
		n += snprintf(line + n, ln - n, ", %.4g nJ/%s +- %.2g%%", e->e * 1e9, u,
			      e->e != 0 ? 100 * e->e_ci / fabs(e->e) : 0.0);
	if (n < (int)ln)
		snprintf(line + n, ln - n, " (%ld runs%s%s)", e->runs, e->outliers ? ", outliers left out" : "",
			 e->drift ? ", DRIFT" : "");
	free(net);
	free(nete);
	free(keep);
	w->finished = 1;
	registry reg;
	reg.k = is_net(c) ? epi_kernels(&reg.n) : epi_kernels_paper(&reg.n);
	qsort_r(f->op, f->n, sizeof *f->op, by_registry, &reg);
}

static int run_once(epi_calib *c, work *w, char *err)
{
	if (!w->ready) {
		if (w->k->setup && w->k->setup(w->k, &w->ctx, err) < 0)
			return -1;
		w->ready = 1;
		w->units = w->k->units_of ? w->k->units_of(&w->ctx) : w->k->units;
		w->iters = epi_iters_for(w->k, &w->ctx, c->run_s, &w->per_it);
	}
	epi_run r;
	epi_bench_touch(&w->ctx);
	if (epi_run_kernel(w->k, &w->ctx, w->iters, w->n ? w->t[w->n - 1] : w->per_it, c->meter, c->domain, &r,
			   err) < 0)
		return -1;
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->t = xrealloc(w->t, w->cap * sizeof *w->t);
		w->e = xrealloc(w->e, w->cap * sizeof *w->e);
	}
	w->t[w->n] = r.secs / (double)r.iters;
	w->e[w->n] = r.joules / (double)r.iters;
	w->n++;
	w->spent += r.secs;
	return 0;
}

static int converged(const epi_calib *c, const work *w)
{
	if (w->n >= c->max_runs || (w->spent >= c->max_time && w->n >= 2))
		return 1;
	unsigned char *keep = xmalloc(w->n);
	memset(keep, 1, w->n);
	int metered = !isnan(w->e[0]);
	epi_mark_outliers(w->t, w->n, keep);
	if (metered)
		epi_mark_outliers(w->e, w->n, keep);
	epi_summary s;
	epi_summarise_kept(w->t, keep, w->n, c->precision, &s);
	int ok = epi_summary_converged(&s, c->precision);
	if (ok && metered) {
		epi_summarise_kept(w->e, keep, w->n, c->precision, &s);
		ok = epi_summary_converged(&s, c->precision);
	}
	free(keep);
	return ok;
}

static const char *where(epi_fcol *f, const char *op)
{
	static char b[96];
	char g[32];
	epi_freq_ghz(g, sizeof g, f->khz);
	snprintf(b, sizeof b, "%s, %s", g, op);
	return b;
}

/* Saves T after every finished entry, the cycles of F's entries brought to
 * its effective frequency as now measured. */
/* Writes T without the frequencies that have no operation yet (a
 * calibration stopped as one began); nothing when no frequency has one. */
static int write_table(const epi_calib *c, const epi_table *t, char *err)
{
	epi_table v = *t;
	v.f = xmalloc((size_t)(t->nf ? t->nf : 1) * sizeof *v.f);
	v.nf = 0;
	for (int i = 0; i < t->nf; i++)
		if (t->f[i].n > 0)
			v.f[v.nf++] = t->f[i];
	int r = v.nf ? epi_table_save(&v, c->output, err) : 0;
	free(v.f);
	return r;
}

static int save(epi_calib *c, epi_table *t, epi_fcol *f, char *err)
{
	for (int i = 0; f && !isnan(f->effective_ghz) && i < f->n; i++) {
		epi_cost *e = &f->op[i];
		e->cycles = isnan(e->t) ? NAN : e->t * f->effective_ghz * 1e9;
		e->cycles_sd = isnan(e->t_sd) ? NAN : e->t_sd * f->effective_ghz * 1e9;
	}
	return write_table(c, t, err);
}

/* Runs X once; when it has converged, its entry goes into F and T is
 * saved. 0 to go on, 1 when a signal asked to stop, -1 with ERR. */
static int step(epi_calib *c, epi_table *t, epi_fcol *f, work *x, const baseline *b, epi_calib_progress *p,
		double t0, char *err)
{
	char line[256], merr[EPI_ERRLEN];
	const char *name = x->k->name;
	if (run_once(c, x, merr) < 0)
		return epi_error(err, "%s: %s", where(f, name), merr);
	progress(c, p, name, NULL, t0);
	if (stop_sig)
		return 1;
	if (!converged(c, x))
		return 0;
	finish(c, f, x, b, line, sizeof line);
	c->done++;
	if (save(c, t, f, err) < 0)
		return -1;
	progress(c, p, NULL, line, t0);
	work_free(x);
	x->finished = 1;
	return 0;
}

/* The effective frequency, measured again and again while a frequency is
 * calibrated (a host, a turbo or heat can move it): F's value is the median
 * of the measurements so far. */
typedef struct ghz_track {
	int n;
	double v[1024];
} ghz_track;

static void track_ghz(const epi_calib *c, epi_fcol *f, ghz_track *g)
{
	if (g->n == (int)(sizeof g->v / sizeof *g->v))
		return;
	g->v[g->n++] = epi_effective_ghz(c->cpu);
	double s[1024];
	memcpy(s, g->v, g->n * sizeof *s);
	gsl_sort(s, 1, g->n);
	f->effective_ghz = gsl_stats_median_from_sorted_data(s, 1, g->n);
}

int epi_tlb_missed(const epi_fcol *f, const char *where, char *out, size_t n)
{
#define TLB_SHARE(share) share,
	static const int share[] = {EPI_TLB_SHARES(TLB_SHARE)};
#undef TLB_SHARE
	const epi_cost *first = NULL;
	int at = 0;
	for (size_t i = 0; i < sizeof share / sizeof *share; i++) {
		char key[32];
		snprintf(key, sizeof key, "load.page.tlb%d", share[i]);
		const epi_cost *e = epi_fcol_find(f, key);
		if (!e || !(e->t > 0))
			continue;
		if (!first) {
			first = e, at = share[i];
			continue;
		}
		if (share[i] < 100 && e->t > 2 * first->t) {
			snprintf(out, n,
				 "%s: the TLB missed below its reach, %s %.3g ns against %s %.3g ns (%d%% and %d%% of "
				 "the pages it maps): another hardware thread may share this core's TLB (a VM's "
				 "neighbour); walks near the reach are priced from it, so calibrate on a quiet machine",
				 where, e->key, e->t * 1e9, first->key, first->t * 1e9, share[i], at);
			return 1;
		}
	}
	return 0;
}

/* Whether KEY is a point of the TLB curve (load.page.tlbS). */
static int tlb_point(const char *key)
{
	return strncmp(key, "load.page.tlb", 13) == 0;
}

/* Whether a column of T has a point of the TLB curve. */
static int curve_walked(const epi_table *t)
{
	for (int i = 0; i < t->nf; i++)
		for (int j = 0; j < t->f[i].n; j++)
			if (tlb_point(t->f[i].op[j].key))
				return 1;
	return 0;
}

/* Calibrates the kernels SEL not yet in F. Returns 0, 1 (stopped) or -1. */
static int one_frequency(epi_calib *c, epi_table *t, epi_fcol *f, const epi_kernel **sel, int nsel,
			 gsl_rng *rng, epi_calib_progress *p, double t0, char *err)
{
	char merr[EPI_ERRLEN];
	int ret = 0;
	work *w = xcalloc(nsel, sizeof *w);
	ghz_track *gt = xcalloc(1, sizeof *gt);
	int *order = xmalloc(nsel * sizeof *order), npend = 0;
	epi_caches cs = {t->cache[0], t->cache[1], t->cache[2]};
	for (int i = 0; i < nsel; i++) {
		w[i].k = sel[i];
		w[i].ctx.bytes = epi_level_bytes(cs.l1, cs.l2, cs.l3, sel[i]->level);
		w[i].ctx.tlb_pages = (size_t)t->tlb_pages;
		if (epi_fcol_find(f, sel[i]->name))
			w[i].finished = 1;
	}
	/* idle power, once per frequency */
	if (!c->meter->time_only && isnan(f->idle_w)) {
		double wv[3];
		for (int i = 0; i < 3; i++)
			if (epi_measure_idle(c->meter, c->domain, c->idle_s / 3, &wv[i], merr) < 0) {
				ret = epi_error(err, "the meter failed measuring idle power at %s: %s", where(f, "idle"), merr);
				goto out;
			}
		epi_summary s;
		epi_summarise(wv, 3, c->precision, &s);
		f->idle_w = s.mean;
		f->idle_w_sd = s.sd;
		if (f->idle_w == 0 && c->ncannot < 4)
			snprintf(c->cannot[c->ncannot++], sizeof c->cannot[0],
				 "the meter's counter did not advance at idle (%s): its energies are not trustworthy",
				 where(f, "idle"));
	}
	/* runs long enough for 100 steps of the meter's resolution at idle power */
	if (c->run_base > 0 && f->idle_w > 0) {
		double res = 0;
		for (int i = 0; i < c->meter->ndom; i++)
			if (c->meter->dom[i].resolution_j > res)
				res = c->meter->dom[i].resolution_j;
		c->run_s = fmax(c->run_base, 100 * res / f->idle_w);
	}
	/* the baseline first: the empty loop */
	baseline none = {0, 0, 0, 0}, base = none;
	track_ghz(c, f, gt);
	int first = is_net(c); /* the kernels of the rounds: all but iter in net style */
	while (first && !w[0].finished) {
		if ((ret = step(c, t, f, &w[0], &none, p, t0, err)) != 0)
			goto out;
		if (w[0].n && w[0].n % 5 == 0) /* every fifth run, while it runs */
			track_ghz(c, f, gt);
	}
	const epi_cost *it = first ? epi_fcol_find(f, "iter") : NULL;
	if (it) {
		base.t = it->t, base.t_ci = isnan(it->t_ci) ? 0 : it->t_ci;
		base.e = isnan(it->e) ? 0 : it->e, base.e_ci = isnan(it->e_ci) ? 0 : it->e_ci;
	}
	/* rounds: every unfinished kernel once, in a new order each round */
	for (;;) {
		npend = 0;
		for (int i = first; i < nsel; i++)
			if (!w[i].finished)
				order[npend++] = i;
		if (!npend)
			break;
		gsl_ran_shuffle(rng, order, npend, sizeof *order);
		track_ghz(c, f, gt);
		for (int j = 0; j < npend; j++)
			if ((ret = step(c, t, f, &w[order[j]], &base, p, t0, err)) != 0)
				goto out;
	}
out:
	free(gt);
	for (int i = 0; i < nsel; i++)
		work_free(&w[i]);
	free(w);
	free(order);
	return ret;
}

/* ---- the whole plan ------------------------------------------------------------ */

static const int stop_sigs[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction prev_sa[3]; /* the machine layer's: restore, then die */

static void on_stop(int sig)
{
	if (stop_sig) { /* a second one: the previous handler, which restores and dies */
		for (int i = 0; i < 3; i++)
			if (stop_sigs[i] == sig)
				sigaction(sig, &prev_sa[i], NULL);
		raise(sig);
		return;
	}
	stop_sig = sig;
}

/* Installed after every pin, which installs the machine layer's own. */
static void catch_signals(epi_calib *c)
{
	if (!c->catch_signals)
		return;
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++) {
		sigaction(stop_sigs[i], &sa, &old);
		if (old.sa_handler != on_stop)
			prev_sa[i] = old;
	}
}

int epi_calibrate(epi_calib *c, epi_table *t, char *err)
{
	const epi_kernel *sel[128];
	int nsel;
	long khz[EPI_MAXFREQ];
	int nf;
	stop_sig = 0;
	if (c->precision <= 0 || c->precision >= 1)
		return epi_error(err, "precision %g is not between 0 and 1 (0.01 is 1%%)", c->precision);
	if (strcmp(c->style, "net") != 0 && strcmp(c->style, "paper") != 0)
		return epi_error(err, "unknown style '%s' (styles: net, paper)", c->style);
	if (select_kernels(c, sel, &nsel, err) < 0)
		return -1;
	epi_cpufreq *cf = xcalloc(1, sizeof *cf);
	if (select_freqs(c, cf, khz, &nf, err) < 0) {
		free(cf);
		return -1;
	}
	if (c->run_s <= 0) {
		double iv = 0;
		for (int i = 0; i < c->meter->ndom; i++)
			if (c->meter->dom[i].interval_s > iv)
				iv = c->meter->dom[i].interval_s;
		c->run_s = 100 * iv > 0.02 ? 100 * iv : 0.02;
		c->run_base = c->run_s;
	} else {
		c->run_base = 0; /* given: kept */
	}
	if (c->meter->time_only)
		snprintf(c->cannot[c->ncannot++], sizeof c->cannot[0],
			 "no energy meter (meter %s): calibrating time and cycles only", c->meter->ops->name);
	cpu_set_t one, old;
	CPU_ZERO(&one);
	CPU_SET(c->cpu, &one);
	sched_getaffinity(0, sizeof old, &old);
	if (c->cpu < 0 || c->cpu >= CPU_SETSIZE || sched_setaffinity(0, sizeof one, &one) < 0) {
		free(cf);
		return epi_error(err, "cannot run on CPU %d: not an online CPU this process may use", c->cpu);
	}
	if (open_table(c, t, err) < 0) {
		sched_setaffinity(0, sizeof old, &old);
		free(cf);
		return -1;
	}
	/* the working set L3 serves, once, with the line kernels (the model
	 * prices what is larger at memory's rate) */
	for (int i = 0; i < nsel && !t->l3_serves; i++)
		if (strcmp(sel[i]->name, "load.l3.line") == 0) {
			char merr[EPI_ERRLEN];
			if (epi_measure_l3_serves(t->cache[0], t->cache[1], t->cache[2], &t->l3_serves, merr) < 0 &&
			    c->ncannot < 4)
				snprintf(c->cannot[c->ncannot++], sizeof c->cannot[0], "L3's reach not measured: %s", merr);
			break;
		}
	/* the second-level TLB's reach, once, with the TLB curve's kernels,
	 * which walk shares of it; not for a table whose curve was walked
	 * without it (a calibration of an earlier version resumed: its
	 * points are shares of cpuid's count) */
	int reach = !t->tlb_pages && !curve_walked(t);
	for (int i = 0; i < nsel && reach; i++)
		if (tlb_point(sel[i]->name)) {
			char merr[EPI_ERRLEN];
			if (epi_measure_tlb_reach(&t->tlb_pages, merr) < 0 && c->ncannot < 4)
				snprintf(c->cannot[c->ncannot++], sizeof c->cannot[0], "the TLB's reach not measured: %s",
					 merr);
			break;
		}
	int nrun = nf ? nf : 1, ret = 0;
	/* what is left to do */
	c->total = c->skipped = c->done = 0;
	for (int fi = 0; fi < nrun; fi++) {
		const epi_fcol *f = NULL;
		for (int i = 0; i < t->nf; i++)
			if (nf ? t->f[i].khz == khz[fi] : !t->f[i].pinned)
				f = &t->f[i];
		for (int i = 0; i < nsel; i++) {
			int have = f && epi_fcol_find(f, sel[i]->name);
			c->skipped += have;
			c->total += !have;
		}
	}
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, (unsigned long)time(NULL));
	double t0 = epi_now();
	epi_calib_progress p = {.nf = nrun};
	for (int fi = 0; fi < nrun && ret == 0; fi++) {
		char perr[EPI_ERRLEN];
		if (nf && epi_freq_pin(cf, &c->cpu, 1, khz[fi], 1, perr) < 0) {
			ret = epi_error(err, "%s", perr);
			break;
		}
		catch_signals(c);
		if (stop_sig) {
			ret = 1;
			break;
		}
		if (nf && c->settle_s > 0) {
			struct timespec ts = {(time_t)c->settle_s, (long)((c->settle_s - (time_t)c->settle_s) * 1e9)};
			nanosleep(&ts, NULL);
		}
		double eff = epi_effective_ghz(c->cpu);
		long k = nf ? khz[fi] : (long)(eff * 1e3 + 0.5) * 1000;
		epi_fcol *f = column(t, k, nf > 0);
		f->effective_ghz = eff;
		p.fi = fi;
		p.khz = f->khz;
		ret = one_frequency(c, t, f, sel, nsel, rng, &p, t0, err);
		if (!nf && !isnan(f->effective_ghz)) /* unpinned: named after what it ran at */
			f->khz = (long)(f->effective_ghz * 1e3 + 0.5) * 1000;
		char g[32];
		epi_freq_ghz(g, sizeof g, f->khz);
		if (ret == 0 && c->ncannot < 4 && epi_tlb_missed(f, g, c->cannot[c->ncannot], sizeof c->cannot[0]))
			c->ncannot++;
		if (ret >= 0 && save(c, t, f, err) < 0)
			ret = -1;
	}
	gsl_rng_free(rng);
	if (ret >= 0 && write_table(c, t, err) < 0)
		ret = -1;
	char rerr[EPI_ERRLEN];
	if (nf && epi_freq_restore(rerr) < 0 && ret >= 0)
		ret = epi_error(err, "cannot restore the CPU frequencies: %s", rerr);
	sched_setaffinity(0, sizeof old, &old);
	free(cf);
	c->stopped_by = stop_sig;
	if (c->catch_signals) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
	}
	return ret;
}
