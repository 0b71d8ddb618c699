/* stats: the summary of a calibration entry's runs (GSL): outliers by
 * median and MAD, mean, standard deviation, 95% confidence half-width
 * (Student's t), and a drift test (a linear trend over the runs). */
#ifndef EPI_STATS_H
#define EPI_STATS_H

typedef struct epi_summary {
	int n_all;       /* runs */
	int n;           /* runs kept */
	int outliers;    /* runs left out: |x - median| > 3.5 x MAD (scaled to sigma) */
	double mean, sd, ci; /* of the kept runs; ci: 95% half-width (NAN below 2 runs) */
	int drift;       /* a significant trend that moves the value by more than PRECISION over the runs */
} epi_summary;

/* Summarises X[0..N) in run order. PRECISION is relative (0.01 = 1%). */
void epi_summarise(const double *x, int n, double precision, epi_summary *s);

/* Clears KEEP[i] for the runs whose X[i] is an outlier (|x - median| >
 * 3.5 x MAD scaled to sigma): call it for each quantity of a run (time,
 * energy), so that a run is left out of all of them or of none. */
void epi_mark_outliers(const double *x, int n, unsigned char *keep);
/* Summarises the runs X[i] with KEEP[i] set. */
void epi_summarise_kept(const double *x, const unsigned char *keep, int n, double precision, epi_summary *s);

/* A net cost's summary (a kernel's runs less the empty loop's): as
 * epi_summarise_kept, but a mean below 0 is 0. A kernel no slower than the
 * empty loop within the noise of the two costs nothing beyond it (a
 * table's costs are not negative); its spread is kept, and says how
 * little that is. */
void epi_summarise_net(const double *x, const unsigned char *keep, int n, double precision, epi_summary *s);

/* Whether S is precise enough: at least 3 runs and ci <= PRECISION x |mean|. */
int epi_summary_converged(const epi_summary *s, double precision);

#endif
