/* compare: epi-predict's predictions against what really ran.
 *
 * Against a trace (epi-profile): for each loop nest of the source and for
 * the whole program, the predicted time and energy, E(f) = sum_i N_i e_i(f),
 * against the sampled estimate with its 95% interval; the relative error
 * (predicted - measured) / measured, and whether the prediction falls inside
 * the interval. Against whole-program measurements (a CSV of
 * param,freq_ghz,measured_j, as RR-8416's Tables VI-VIII): the predicted
 * energy of each row against the measured one. */
#ifndef EPI_COMPARE_H
#define EPI_COMPARE_H

#include "predict/mmodel.h"
#include "predict/report.h"
#include "validate/estimate.h"

enum { EPI_Q_TIME, EPI_Q_ENERGY, EPI_NQ };

enum epi_cmp_kind {
	EPI_CMP_LOOP,         /* a loop nest: its own work, over the whole run */
	EPI_CMP_FUNCTION,     /* a function's code outside its loop nests, likewise */
	EPI_CMP_PROGRAM,      /* the whole program */
	EPI_CMP_MEASUREMENT,  /* a row of a measurements CSV */
};

typedef struct epi_cmp {
	char *label;          /* "sort.c:11 loop in sort", "main()", "program", "n=100000" */
	enum epi_cmp_kind kind;
	char *function;       /* loop nests: the function, and the keyword's line */
	int line;
	long khz;             /* the frequency priced at */
	uint64_t samples;     /* against a trace: the nest's samples */
	double pred[EPI_NQ], pred_sd[EPI_NQ]; /* NAN: not priced */
	epi_est meas[EPI_NQ]; /* NAN: not measured; bounds NAN: no interval */
	double err[EPI_NQ];   /* (pred - meas) / meas; NAN when either is missing or meas is 0 */
	int inside[EPI_NQ];   /* 1: pred within [lo, hi]; 0: outside; -1: no interval */
	/* with the compiled-code model: what bounds its time (an enum
	 * epi_bound, -1 when not priced), and the instructions run (MACHINE:
	 * priced) */
	int bound, machine;
	epi_mix mix;
	double alone_t[EPI_BOUND_N]; /* seconds under each bound alone (epi_mcost's) */
} epi_cmp;

typedef struct epi_validation {
	int n;
	epi_cmp *rows;        /* against a trace: nests and functions in source order, then the program */
	/* over the loop nests of a trace, or every row of a CSV: the mean of
	 * |err|, how many had one, how many had an interval and how many of
	 * those held the prediction */
	double mare[EPI_NQ];
	int nerr[EPI_NQ], nci[EPI_NQ], nin[EPI_NQ];
	int compiled;         /* the rows priced by the compiled-code model (their bound and mix) */
} epi_validation;

/* Compares analysis A (made with tag_blocks), priced with column COL and
 * parameters ENV, with the profile P (loaded at EPI_BY_LOOP). A block's
 * prediction is its own work over the whole run, the total's tagged counts:
 * a nest in a function called 10^4 times is predicted for the 10^4 calls,
 * and a nest that calls a function does not include the callee's work, as
 * the profile charges that to the callee. Checks first that A's source is
 * the one the profiled binary was built from (its functions declared on the
 * same lines). With MM (not NULL), the predictions are the compiled-code
 * model's (mmodel.h). Returns 0, or -1 with ERR. */
struct epi_mmodel;
/* Whether A's source is the one P's program was built from (its functions
 * declared on the same lines); 0, or -1 with ERR naming both. */
int epi_validate_check_source(epi_analysis *a, epi_profile_sum *p, char *err);
int epi_validate_trace(epi_analysis *a, const epi_fcol *col, const sym_env *env, epi_profile_sum *p,
		       const struct epi_mmodel *mm, epi_validation *v, char *err);

/* One row of a measurements CSV. */
typedef struct epi_measured {
	int lineno;           /* in the file, for messages */
	char *param;          /* as written: "100000" or "n=100000" */
	long khz;
	double joules;
} epi_measured;

/* Reads PATH: a header naming the columns param, freq_ghz and measured_j
 * (in any order; others ignored), then a row per measurement; lines that
 * start with '#' and blank lines are skipped. Returns the row count, or -1
 * with ERR naming the file and line. */
int epi_measured_load(const char *path, epi_measured **rows, char *err);
void epi_measured_free(epi_measured *rows, int n);

/* Compares the whole-program energy of A, priced with table T at each
 * row's frequency and with ENV plus the row's parameter, with the rows M
 * (N of them, read from PATH). A bare param value binds the one parameter
 * ENV leaves unbound. Returns 0, or -1 with ERR naming PATH and the line. */
int epi_validate_measured(epi_analysis *a, const epi_table *t, const sym_env *env, const epi_measured *m, int n,
			  const char *path, epi_validation *v, char *err);

/* Sets the row's err and inside from its pred and meas. */
void epi_cmp_finish(epi_cmp *c);
/* Computes V's means and counts from its rows. */
void epi_validation_sum(epi_validation *v);
void epi_validation_free(epi_validation *v);

#endif
