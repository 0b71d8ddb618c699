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
	if (p->np > 1 && p->npticks) {
		/* y_j = P_j / k_j [j in b] over every sample with power, k_j the
		 * samples of j's tick: E_b = T x sum(y) / ticks */
		double n = (double)p->np, m = b->e1 / n, f = n / (double)p->npticks;
		double var = (b->e2 - b->e1 * b->e1 / n) / (n - 1);
		double h = tq(p->np) * sqrt(var > 0 ? var / n : 0);
		out->energy = (epi_est){T * f * m, T * f * fmax(0, m - h), T * f * (m + h)}; /* never below 0 */
	}
	if (b->np > 0) {
		/* the interior samples' power, when there are some */
		int in = b->ni >= 2;
		uint64_t k = in ? b->ni : b->np;
		double n = (double)k, s1 = in ? b->i1 : b->s1, s2 = in ? b->i2 : b->s2, m = s1 / n;
		double var = k > 1 ? (s2 - s1 * s1 / n) / (n - 1) : NAN;
		double h = tq(k) * sqrt(var > 0 ? var / n : 0);
		out->power = (epi_est){m, fmax(0, m - h), m + h};
	}
}

static epi_est t_interval(double mean, double sd, int n)
{
	if (isnan(mean))
		return (epi_est){NAN, NAN, NAN};
	double h = n > 1 ? tq((uint64_t)n) * sd / sqrt(n) : NAN;
	return (epi_est){mean, mean - h, mean + h};
}

void epi_profile_total(const epi_profile_sum *p, epi_est *time, epi_est *energy)
{
	*time = t_interval(p->t_mean, p->time_is_cpu ? p->cpu_sd : p->wall_sd, p->nruns);
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

static int by_thread_time(const void *x, const void *y)
{
	const epi_sample *a = &sort_base[*(const size_t *)x], *b = &sort_base[*(const size_t *)y];
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->t_ns < b->t_ns ? -1 : a->t_ns > b->t_ns;
}

/* Marks in INTERIOR the samples whose thread was in their block from at
 * least MARGIN before their sensing interval began; BLOCK holds each
 * sample's block. */
static void mark_interior(const epi_sample *s, size_t ns, const int *block, const epi_reading *r, size_t nr,
			  uint64_t sampling_ns, char *interior)
{
	memset(interior, 0, ns);
	if (nr < 2 || ns == 0)
		return;
	size_t *ix = malloc(ns * sizeof *ix);
	for (size_t i = 0; i < ns; i++)
		ix[i] = i;
	sort_base = s; /* one caller at a time: the profile is built in one thread */
	qsort(ix, ns, sizeof *ix, by_thread_time);
	uint64_t streak = 0;
	for (size_t k = 0; k < ns; k++) {
		const epi_sample *x = &s[ix[k]];
		if (k == 0 || s[ix[k - 1]].tid != x->tid || block[ix[k - 1]] != block[ix[k]])
			streak = x->t_ns;
		/* the sensing interval [r[e-1], r[e]] epi_assign_power used */
		size_t lo = 1, hi = nr - 1;
		while (lo < hi) { /* the last e with r[e].t <= t, at least 1 */
			size_t mid = (lo + hi + 1) / 2;
			if (r[mid].t_ns <= x->t_ns)
				lo = mid;
			else
				hi = mid - 1;
		}
		uint64_t begin = r[lo - 1].t_ns, len = r[lo].t_ns - begin;
		interior[ix[k]] = begin >= len + sampling_ns && streak <= begin - len - sampling_ns;
	}
	free(ix);
}

int epi_profile_add_run(epi_profile_sum *p, const epi_map *maps, int nmaps, const epi_sample *s, size_t ns,
			const epi_reading *r, size_t nr, const epi_run_end *end, char *err)
{
	if (epi_attrib_run(p->attrib, maps, nmaps, err) < 0)
		return -1;
	int *block = malloc((ns ? ns : 1) * sizeof *block);
	char *interior = malloc(ns ? ns : 1);
	for (size_t i = 0; i < ns; i++)
		block[i] = epi_attrib_ip(p->attrib, s[i].ip);
	mark_interior(s, ns, block, r, nr, p->info.interval_ns, interior);
	/* ticks: runs of samples taken at the same instant (one per thread) */
	for (size_t i = 0, j; i < ns; i = j) {
		for (j = i + 1; j < ns && s[j].t_ns == s[i].t_ns; j++)
			;
		double k = (double)(j - i);
		int powered = 0;
		for (size_t x = i; x < j; x++) {
			int nb;
			epi_block *b = &epi_attrib_blocks(p->attrib, &nb)[block[x]];
			b->n++;
			if (!isnan(s[x].watts)) {
				double y = s[x].watts / k;
				b->np++;
				b->s1 += s[x].watts;
				b->s2 += s[x].watts * s[x].watts;
				b->e1 += y;
				b->e2 += y * y;
				if (interior[x]) {
					b->ni++;
					b->i1 += s[x].watts;
					b->i2 += s[x].watts * s[x].watts;
				}
				p->np++;
				powered = 1;
			}
		}
		p->nticks++;
		p->npticks += (uint64_t)powered;
	}
	free(block);
	free(interior);
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
		v = realloc(v, *cap * size);
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
				q.maps = realloc(q.maps, (size_t)q.capmaps * sizeof *q.maps);
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
			snprintf(warn, EPI_ERRLEN, "%s; the %d complete run%s before it %s used", err, p->nruns,
				 p->nruns == 1 ? "" : "s", p->nruns == 1 ? "is" : "are");
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
