/* report: prices counted operations with a cost table, E(f) = sum_i N_i e_i(f)
 * (and likewise time), and prints the result as a human table, CSV or JSON. */
#ifndef EPI_REPORT_H
#define EPI_REPORT_H

#include <stdio.h>

#include "model/table.h"
#include "model/util.h"
#include "predict/cfront.h"

typedef struct epi_report_opts {
	const epi_table *table; /* NULL: counts only */
	const char *table_why;  /* which node's table of a folder, and why; NULL for a table given alone */
	long *khz;              /* frequencies to price */
	int nkhz;
	const sym_env *env;     /* bound parameters */
	enum epi_format format;
	int jobs;               /* threads formatting the regions; 0: one per online CPU */
	/* The compiled-code model (mmodel.h) pricing the regions, or NULL for
	 * the source-level model; with it, ops keep their counts and have no
	 * price of their own. */
	const struct epi_mmodel *mm;
} epi_report_opts;

/* One priced quantity: the sum over ops of N_i x cost_i, and its standard
 * deviation sqrt(sum (N_i sd_i)^2) (per-op errors taken as independent). */
typedef struct epi_price {
	double e, e_sd, t, t_sd;
	double e_idle;        /* idle power x t where the table has idle power, else NAN */
	int nunpriced;        /* ops with a count but no table entry */
	int interpolated;
} epi_price;

/* Prices REGION's expected counts at column C; counts that need unbound
 * parameters make the price NAN. */
void epi_price_region(sym_ctx *s, const epi_region *r, const epi_fcol *c, const sym_env *env, epi_price *out);

/* The instructions of MIX, in all and per class, and their memory
 * accesses, as JSON (the reports' "machine"). */
struct epi_mix;
struct json_t;
struct json_t *epi_mix_json(const struct epi_mix *mix);
/* ALONE (EPI_BOUND_N seconds: what iterations would take under each bound
 * alone, epi_mcost.alone_t) as a JSON object of the bounds that take any
 * time, by name. */
struct json_t *epi_bounds_json(const double *alone);
/* What bounds MC's time (an enum epi_bound), or -1 when nothing was priced
 * (how often it runs needs unbound parameters, or it has no code); its
 * bounds' sum into *TOTAL when not NULL. */
struct epi_mcost;
int epi_mcost_priced_bound(const struct epi_mcost *mc, double *total);

/* epi_bind_param's return for a malformed spec: a usage error. */
#define EPI_BIND_USAGE (-2)

/* Binds SPEC, "NAME=VALUE" (an integer, 1e6 allowed), in ENV for analysis A.
 * Returns 0; EPI_BIND_USAGE with ERR when SPEC is malformed; -1 with
 * ERR when NAME is not one of A's parameters (the message lists them).
 * With A NULL, only checks SPEC (ENV untouched). */
int epi_bind_param(const epi_analysis *a, sym_env *env, const char *spec, char *err);

/* Analyses FILE (epi_analyze) and binds the N specs PARAMS ("NAME=VALUE")
 * in ENV (initialised here; cleared by the caller, also on failure).
 * Returns 0, or the exit status a command gives it with ERR set: 1 (the
 * file cannot be analysed, A->errors listing every loop that cannot be
 * counted under --strict; or a parameter the file does not have), 2 (a
 * malformed spec).  A must be freed, also on failure. */
int epi_analyze_bind(epi_analysis *a, const char *file, const epi_front_opts *o, const char *const *params,
		     int nparams, sym_env *env, char *err);

/* A's parameters as "n, m" into OUT (N bytes; "" when none), only those
 * ENV leaves unbound when ENV is not NULL, and those ONLY marks when ONLY
 * (by symbol) is not NULL. Returns how many; *LAST (may be NULL) is the
 * index of the last one listed. */
int epi_param_names(const epi_analysis *a, const sym_env *env, const int *only, char *out, size_t n, int *last);

/* Writes the report; returns 0, or -1 with ERR set. */
int epi_report(FILE *out, epi_analysis *a, const epi_report_opts *o, char *err);

/* The column order of --format csv. */
extern const char epi_csv_header[];
/* S (NULL: empty) as a CSV field: quoted when it holds a comma, a quote or a newline. */
void epi_csv_field(FILE *f, const char *s);

#endif
