/* stats: summaries of runs with GSL (see stats.h). */
#include "calibrate/stats.h"
#include "model/util.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OUTLIER_K 3.5

void epi_mark_outliers(const double *x, int n, unsigned char *keep)
{
	if (n < 3)
		return;
	double *sorted = xmalloc(n * sizeof *sorted), *work = xmalloc(n * sizeof *work);
	memcpy(sorted, x, n * sizeof *x);
	gsl_sort(sorted, 1, n);
	double med = gsl_stats_median_from_sorted_data(sorted, 1, n);
	double mad = gsl_stats_mad(x, 1, n, work); /* 1.4826 x MAD */
	for (int i = 0; i < n; i++)
		if (mad > 0 && fabs(x[i] - med) > OUTLIER_K * mad)
			keep[i] = 0;
	free(sorted);
	free(work);
}

void epi_summarise_kept(const double *x, const unsigned char *keep, int n, double precision, epi_summary *s)
{
	memset(s, 0, sizeof *s);
	s->n_all = n;
	s->mean = s->sd = s->ci = NAN;
	double *kept = xmalloc((n + 1) * sizeof *kept), *idx = xmalloc((n + 1) * sizeof *idx);
	int k = 0;
	for (int i = 0; i < n; i++)
		if (keep[i]) {
			idx[k] = i;
			kept[k++] = x[i];
		}
	s->n = k;
	s->outliers = n - k;
	if (k > 0)
		s->mean = gsl_stats_mean(kept, 1, k);
	if (k >= 2) {
		s->sd = gsl_stats_sd_m(kept, 1, k, s->mean);
		s->ci = gsl_cdf_tdist_Pinv(0.975, k - 1) * s->sd / sqrt(k);
	}
	if (k >= 5) {
		double c0, c1, cov00, cov01, cov11, sumsq;
		gsl_fit_linear(idx, 1, kept, 1, k, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
		double span = fabs(c1) * (idx[k - 1] - idx[0]);
		s->drift = fabs(c1) > 2 * sqrt(cov11) && span > precision * fabs(s->mean);
	}
	free(kept);
	free(idx);
}

void epi_summarise_net(const double *x, const unsigned char *keep, int n, double precision, epi_summary *s)
{
	epi_summarise_kept(x, keep, n, precision, s);
	if (s->mean < 0)
		s->mean = 0;
}

void epi_summarise(const double *x, int n, double precision, epi_summary *s)
{
	unsigned char *keep = xmalloc(n + 1);
	memset(keep, 1, n + 1);
	epi_mark_outliers(x, n, keep);
	epi_summarise_kept(x, keep, n, precision, s);
	free(keep);
}

int epi_summary_converged(const epi_summary *s, double precision)
{
	return s->n >= 3 && !isnan(s->ci) && s->ci <= precision * fabs(s->mean);
}
