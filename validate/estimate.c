/* estimate: traces into blocks, and the estimators (see estimate.h). */
#include "validate/estimate.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "model/util.h"

void epi_wilson(uint64_t k, uint64_t n, double *lo, double *hi)
{
	if (n == 0) {
		*lo = 0;
		*hi = 1;
		return;
	}
	double z = gsl_cdf_ugaussian_Pinv(0.975), nn = (double)n, p = (double)k / nn;
	double d = 1 + z * z / nn;
	double c = (p + z * z / (2 * nn)) / d;
	double h = z * sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / d;
	*lo = k == 0 || c - h < 0 ? 0 : c - h; /* exact at the ends, not rounded */
	*hi = k == n || c + h > 1 ? 1 : c + h;
}

static double tq(uint64_t n)
{
	return n > 1 ? gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) : NAN;
}

/* E, an estimate of the form x T, widened by T's relative half-width R:
 * the two half-widths added in quadrature (never below 0). */
static void times_t(epi_est *e, double r)
{
	if (!(r > 0) || !isfinite(r) || !isfinite(e->v))
		return;
	double v = e->v, h = v * r;
	e->lo = fmax(0, v - hypot(v - e->lo, h));
	e->hi = v + hypot(e->hi - v, h);
}

void epi_block_estimate(const epi_profile_sum *p, const epi_block *b, epi_block_est *out)
{
	double T = p->t_mean;
	/* thread time: T times the samples per tick (1 with one thread) */
	double Tt = p->nticks ? T * (double)p->n / (double)p->nticks : T;
	double lo, hi, share = p->n ? (double)b->n / (double)p->n : NAN;
	epi_wilson(b->n, p->n, &lo, &hi);
	out->share = (epi_est){share, lo, hi};
	out->time = (epi_est){share * Tt, lo * Tt, hi * Tt};
	out->energy = out->power = (epi_est){NAN, NAN, NAN};
	/* T is the runs' mean: where they differ (a machine shared with other
	 * work), its own interval widens the block's beside the sampling's */
	epi_est tt;
	epi_profile_total(p, &tt, &(epi_est){0});
	double r = T > 0 && isfinite(tt.hi) ? (tt.hi - T) / T : NAN;
	times_t(&out->time, r);
	if (p->np > 1 && p->npticks) {
		/* y_j = P_j / k_j [j in b] over every sample with power, k_j the
		 * samples of j's tick: E_b = T x sum(y) / ticks */
		double n = (double)p->np, m = b->e1 / n, f = n / (double)p->npticks;
		double var = (b->e2 - b->e1 * b->e1 / n) / (n - 1);
		double h = tq(p->np) * sqrt(var > 0 ? var / n : 0);
		out->energy = (epi_est){T * f * m, T * f * fmax(0, m - h), T * f * (m + h)}; /* never below 0 */
		times_t(&out->energy, r);
	}
	if (b->np == 0)
		return;
	/* the samples' spread: the statistical half-width without streaks to go by */
	double n = (double)b->np, m = b->s1 / n;
	double var = b->np > 1 ? (b->s2 - b->s1 * b->s1 / n) / (n - 1) : NAN;
	double h = b->np > 1 ? tq(b->np) * sqrt(var > 0 ? var / n : 0) : NAN;
	if (b->nk == 0) { /* no streak long enough: the samples' own powers (no interval from one) */
		out->power = (epi_est){m, isnan(h) ? NAN : fmax(0, m - h), m + h};
		return;
	}
	/* the streaks' ratio of energy to time, its t interval over the streaks,
	 * widened by the readings' timing (at most su in sx) */
	double R = b->sy / b->sx;
	if (b->nk > 1) {
		double k = (double)b->nk, xbar = b->sx / k;
		double d2 = (b->syy - 2 * R * b->sxy + R * R * b->sxx) / (k - 1);
		h = tq(b->nk) * sqrt(d2 > 0 ? d2 / k : 0) / xbar;
	}
	double plo = b->sy / (b->sx + b->su), phi = b->sy / (b->sx - b->su);
	out->power = (epi_est){R, fmax(0, plo - h), phi + h};
}

/* A t interval over N runs of a time or an energy: never below 0. */
static epi_est t_interval(double mean, double sd, int n)
{
	if (isnan(mean))
		return (epi_est){NAN, NAN, NAN};
	double h = n > 1 ? tq((uint64_t)n) * sd / sqrt(n) : NAN;
	return (epi_est){mean, isnan(h) ? NAN : fmax(0, mean - h), mean + h};
}

double epi_profile_time_sd(const epi_profile_sum *p)
{
	return p->nruns > 1 ? (p->time_is_cpu ? p->cpu_sd : p->wall_sd) : NAN;
}

void epi_profile_total(const epi_profile_sum *p, epi_est *time, epi_est *energy)
{
	*time = t_interval(p->t_mean, epi_profile_time_sd(p), p->nruns);
	*energy = t_interval(p->j_mean, p->j_sd, p->nj);
}

int epi_profile_converged(const epi_profile_sum *p, double rel)
{
	int nb;
	const epi_block *b = epi_attrib_blocks(p->attrib, &nb);
	if (p->n == 0)
		return 0;
	for (int i = 0; i < nb; i++) {
		double share = (double)b[i].n / (double)p->n, lo, hi;
		if (share < 0.05)
			continue;
		epi_wilson(b[i].n, p->n, &lo, &hi);
		if ((hi - lo) / 2 > rel * share)
			return 0;
	}
	return 1;
}

static const epi_sample *sort_base;

static int by_time(const void *x, const void *y)
{
	const epi_sample *a = &sort_base[*(const size_t *)x], *b = &sort_base[*(const size_t *)y];
	return a->t_ns < b->t_ns ? -1 : a->t_ns > b->t_ns;
}

static int by_thread_time(const void *x, const void *y)
{
	const epi_sample *a = &sort_base[*(const size_t *)x], *b = &sort_base[*(const size_t *)y];
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return by_time(x, y);
}

/* The indices of S's NS samples in the order of CMP (malloc'd). */
static size_t *sorted_index(const epi_sample *s, size_t ns, int (*cmp)(const void *, const void *))
{
	size_t *ix = xmalloc((ns ? ns : 1) * sizeof *ix);
	for (size_t i = 0; i < ns; i++)
		ix[i] = i;
	sort_base = s; /* one caller at a time: the profile is built in one thread */
	qsort(ix, ns, sizeof *ix, cmp);
	return ix;
}

/* The block's streaks: each thread's runs of consecutive samples in one
 * block, during which (sampling assumes) the thread stayed there. Over a
 * streak from sample time ta to tz, the meter's energy between the first
 * reading a and the last reading z that surely lie inside [ta, tz] is the
 * block's, and the ratio of sums of these energies and durations is its
 * power: the readings between a and z cancel, so only the timing of a and z
 * is uncertain, each by half its read's span (the moment read lies within
 * it) and by the meter's update lag (the count it returns was last updated
 * up to LAG before). Adds each streak's sums to its block. */
static void add_streaks(epi_profile_sum *p, const epi_sample *s, size_t ns, const int *block,
			const epi_reading *r, size_t nr)
{
	if (nr < 2 || ns == 0)
		return;
	double lag = isnan(p->info.meter_update_s) ? p->info.meter_interval_s : p->info.meter_update_s;
	uint64_t lag_ns = isnan(lag) || lag < 0 ? 0 : (uint64_t)(lag * 1e9);
	size_t *ix = sorted_index(s, ns, by_thread_time);
	int nb;
	epi_block *blocks = epi_attrib_blocks(p->attrib, &nb);
	for (size_t k = 0, j; k < ns; k = j) {
		const epi_sample *x = &s[ix[k]];
		for (j = k + 1; j < ns && s[ix[j]].tid == x->tid && block[ix[j]] == block[ix[k]]; j++)
			;
		uint64_t ta = x->t_ns, tz = s[ix[j - 1]].t_ns;
		/* a: the first reading whose moment is surely after ta */
		size_t lo = 0, hi = nr;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (r[mid].t_ns < ta + lag_ns + r[mid].span_ns / 2)
				lo = mid + 1;
			else
				hi = mid;
		}
		size_t a = lo, z = a;
		while (z + 1 < nr && r[z + 1].t_ns + r[z + 1].span_ns / 2 <= tz)
			z++;
		if (a >= nr || z <= a)
			continue;
		double dx = (double)(r[z].t_ns - r[a].t_ns) * 1e-9, dy = r[z].joules - r[a].joules;
		double du = ((double)r[a].span_ns / 2 + (double)r[z].span_ns / 2 + (double)lag_ns) * 1e-9;
		if (dx <= 2 * du)
			continue; /* too short to tell the block's power from the readings' timing */
		epi_block *bk = &blocks[block[ix[k]]];
		bk->sx += dx;
		bk->sy += dy;
		bk->sxx += dx * dx;
		bk->syy += dy * dy;
		bk->sxy += dx * dy;
		bk->su += du;
		bk->nk++;
	}
	free(ix);
}

/* K[i]: the threads with a sample within WINDOW ns of sample i (itself
 * included), the threads running beside it. */
static void concurrent_threads(const epi_sample *s, size_t ns, uint64_t window, uint32_t *k)
{
	size_t *ix = sorted_index(s, ns, by_time);
	/* the samples of each thread in the window [a, b) */
	struct tcount { uint32_t tid, n; } *in = NULL;
	size_t nin = 0, capin = 0, a = 0, b = 0;
	for (size_t i = 0; i < ns; i++) {
		uint64_t t = s[ix[i]].t_ns;
		for (; b < ns && s[ix[b]].t_ns <= t + window; b++) {
			size_t u = 0;
			while (u < nin && in[u].tid != s[ix[b]].tid)
				u++;
			if (u == nin) {
				if (nin == capin) {
					capin = capin ? 2 * capin : 8;
					in = xrealloc(in, capin * sizeof *in);
				}
				in[nin++] = (struct tcount){s[ix[b]].tid, 0};
			}
			in[u].n++;
		}
		for (; s[ix[a]].t_ns + window < t; a++) {
			size_t u = 0;
			while (in[u].tid != s[ix[a]].tid)
				u++;
			if (--in[u].n == 0)
				in[u] = in[--nin];
		}
		k[ix[i]] = (uint32_t)nin;
	}
	free(in);
	free(ix);
}

int epi_profile_add_run(epi_profile_sum *p, const epi_map *maps, int nmaps, const epi_sample *s, size_t ns,
			const epi_reading *r, size_t nr, const epi_run_end *end, char *err)
{
	if (epi_attrib_run(p->attrib, maps, nmaps, err) < 0)
		return -1;
	int *block = xmalloc((ns ? ns : 1) * sizeof *block);
	for (size_t i = 0; i < ns; i++)
		block[i] = epi_attrib_ip(p->attrib, s[i].ip);
	add_streaks(p, s, ns, block, r, nr);
	/* the threads sharing each sample's power: ptrace samples every thread
	 * at each tick (same instant); perf's clocks run per thread, so there
	 * they are the threads with a sample within one interval of it */
	int nb;
	epi_block *blocks = epi_attrib_blocks(p->attrib, &nb); /* all made: every sample has its block */
	uint32_t *share = p->time_is_cpu ? xmalloc((ns ? ns : 1) * sizeof *share) : NULL;
	if (share)
		concurrent_threads(s, ns, p->info.interval_ns, share);
	for (size_t i = 0, j; i < ns; i = j) {
		for (j = i + 1; j < ns && s[j].t_ns == s[i].t_ns; j++)
			;
		int powered = 0;
		for (size_t x = i; x < j; x++) {
			epi_block *b = &blocks[block[x]];
			b->n++;
			if (!isnan(s[x].watts)) {
				double y = s[x].watts / (share ? share[x] : (double)(j - i));
				b->np++;
				b->s1 += s[x].watts;
				b->s2 += s[x].watts * s[x].watts;
				b->e1 += y;
				b->e2 += y * y;
				p->np++;
				powered = 1;
			}
		}
		p->nticks++;
		p->npticks += (uint64_t)powered;
	}
	free(share);
	free(block);
	p->n += ns;
	p->nruns++;
	if (!WIFEXITED(end->status) || WEXITSTATUS(end->status) != 0)
		p->nfailed++;
	p->last_status = end->status;
	p->lost += end->lost;
	p->sw += end->wall_s;
	p->sw2 += end->wall_s * end->wall_s;
	p->sc += end->cpu_s;
	p->sc2 += end->cpu_s * end->cpu_s;
	p->sp += end->prof_cpu_s;
	if (!isnan(end->joules)) {
		p->nj++;
		p->sj += end->joules;
		p->sj2 += end->joules * end->joules;
	}
	double k = p->nruns;
	p->wall_mean = p->sw / k;
	p->wall_sd = p->nruns > 1 ? sqrt(fmax(0, (p->sw2 - p->sw * p->sw / k) / (k - 1))) : NAN;
	p->cpu_mean = p->sc / k;
	p->cpu_sd = p->nruns > 1 ? sqrt(fmax(0, (p->sc2 - p->sc * p->sc / k) / (k - 1))) : NAN;
	p->prof_cpu_mean = p->sp / k;
	p->j_mean = p->nj ? p->sj / p->nj : NAN;
	p->j_sd = p->nj > 1 ? sqrt(fmax(0, (p->sj2 - p->sj * p->sj / p->nj) / (p->nj - 1))) : NAN;
	p->t_mean = p->time_is_cpu ? p->cpu_mean : p->wall_mean;
	return 0;
}

void epi_profile_sum_free(epi_profile_sum *p)
{
	epi_attrib_free(p->attrib);
	memset(p, 0, sizeof *p);
}

typedef struct pending {
	epi_map *maps;
	int nmaps, capmaps;
	epi_sample *s;
	size_t ns, caps;
	epi_reading *r;
	size_t nr, capr;
} pending;

/* V (N items of SIZE, CAP allocated) with the K items at X appended. */
static void *append(void *v, size_t *n, size_t *cap, const void *x, size_t k, size_t size)
{
	if (*n + k > *cap) {
		*cap = 2 * (*n + k);
		v = xrealloc(v, *cap * size);
	}
	memcpy((char *)v + *n * size, x, k * size);
	*n += k;
	return v;
}

int epi_profile_load(epi_profile_sum *p, const char *path, enum epi_by by, const char *const *clang_args,
		     int nclang_args, char *warn, char *err)
{
	memset(p, 0, sizeof *p);
	warn[0] = 0;
	epi_trace_reader r;
	if (epi_trace_open(&r, path, err) < 0)
		return -1;
	if (r.unchecked)
		snprintf(warn, EPI_ERRLEN, "trace '%s' is of format version %u, whose header has no checksum: its "
			 "settings (method, meter, clock) are taken unchecked", path, (unsigned)r.version);
	p->info = r.info;
	p->time_is_cpu = strcmp(r.info.method, "perf") == 0;
	p->attrib = epi_attrib_new(by, clang_args, nclang_args);
	pending q = {0};
	epi_trace_item it;
	int k, ret = 0;
	while ((k = epi_trace_next(&r, &it, err)) > 0) {
		if (it.type == EPI_REC_RUN) {
			q.nmaps = 0;
			q.ns = 0;
			q.nr = 0;
		} else if (it.type == EPI_REC_MAP) {
			if (q.nmaps == q.capmaps) {
				q.capmaps = q.capmaps ? 2 * q.capmaps : 16;
				q.maps = xrealloc(q.maps, (size_t)q.capmaps * sizeof *q.maps);
			}
			q.maps[q.nmaps++] = it.u.map;
		} else if (it.type == EPI_REC_SAMPLES) {
			q.s = append(q.s, &q.ns, &q.caps, it.u.samples.v, it.u.samples.n, sizeof *q.s);
		} else if (it.type == EPI_REC_METER) {
			q.r = append(q.r, &q.nr, &q.capr, it.u.readings.v, it.u.readings.n, sizeof *q.r);
		} else if (it.type == EPI_REC_END) {
			if (epi_profile_add_run(p, q.maps, q.nmaps, q.s, q.ns, q.r, q.nr, &it.u.end, err) < 0) {
				ret = -1;
				break;
			}
		}
	}
	if (k < 0 && ret == 0) {
		if (p->nruns == 0) {
			ret = -1;
		} else {
			size_t n = strlen(warn);
			snprintf(warn + n, EPI_ERRLEN - n, "%s%s; the %d complete run%s before it %s used", n ? "; " : "",
				 err, p->nruns, p->nruns == 1 ? "" : "s", p->nruns == 1 ? "is" : "are");
		}
	}
	if (ret == 0 && p->nruns == 0)
		ret = epi_error(err, "trace '%s' holds no complete run", path);
	free(q.maps);
	free(q.s);
	free(q.r);
	epi_trace_close(&r);
	if (ret < 0)
		epi_profile_sum_free(p);
	return ret;
}
