/* mcount: how often each machine loop of a program runs, from the exact
 * per-loop counts of the source analysis (epi_front_opts' tag_loops): a
 * source loop's iterations divided among the machine loops compiled from
 * it, each covering k source iterations per machine iteration (vector
 * width x unroll), remainder loops taking what is left per entry. */
#ifndef EPI_MCOUNT_H
#define EPI_MCOUNT_H

#include "predict/objcode.h"
#include "predict/sym.h"

enum epi_mrole {
	EPI_MR_NONE,      /* matched to no source loop, or one that never runs */
	EPI_MR_MAIN,      /* the loop doing the source loop's iterations, k at a time */
	EPI_MR_REMAINDER, /* what the main loop leaves per entry, fewer at a time */
	EPI_MR_VERSION,   /* another version of the main loop (taken when run-time checks fail): assumed not run */
};

typedef struct epi_mloop_count {
	double k;          /* source iterations per machine iteration */
	double outer;      /* of K, what its machine parent covers: that many of the source parent's
			      iterations an entry (a vectorised outer loop's), else 1 */
	double iters;      /* machine iterations over the run; NAN when parameters are unbound */
	double trip;       /* machine iterations per entry of the source loop (NAN: unknown) */
	double spread;     /* the source loop's trip count per entry: its standard deviation over
			      its mean (0: the same at every entry, or unknown) */
	enum epi_mrole role;
	int main;          /* the main machine loop of its copy of the source loop (with a role) */
	double part;       /* the share of its source loop's entries that reach its copy: a copy
			      in the function's own code runs for the function's calls not
			      inlined, the copies inlined into other functions for the rest,
			      alike; 1 (one copy runs all) when the calls cannot be told apart */
} epi_mloop_count;

typedef struct epi_mcount {
	epi_mloop_count *l; /* per machine loop of the object */
	double *calls;      /* per function of the object: calls over the run (NAN: unknown) */
	double *share;      /* per function of the object: the share of its calls made as calls,
			       which run its own code (NAN: not known, taken as all) */
	double *touch;      /* per source loop (top-level ones): bytes of freshly allocated memory its
			       stores write first, over the run */
	double *touch_call; /* of the same, those its calls of memset or memcpy write (a loop the
			       compiler made a call): the callee's, which a profile samples there */
	int nunmatched;     /* machine loops matched to no source loop */
} epi_mcount;

/* Whether KEY is a call site's count, "%call:LINE:CALLEE/site" (the
 * analysis's with tag_loops): its line, and its callee (LEN bytes at
 * NAME, not terminated). */
int epi_call_site_key(const char *key, int *line, const char **name, size_t *len);

/* The counts of each of A's regions (analysed with tag_loops) that the
 * machine counts read, evaluated in ENV, by region (the total last) and by
 * their index in it (NAN for the others, and where a parameter is
 * unbound): of the total, its loops' entries, iterations and work sums and
 * the bytes allocated (what epi_mcount_run reads); of a nest or a
 * function, its loops' and functions' entries and its loops' iterations.
 * They need no object: a caller can evaluate them while the object is
 * built or read. Freed by epi_mcount_values_free(V, A->nregions). */
double **epi_mcount_all_values(epi_analysis *a, const sym_env *env);
void epi_mcount_values_free(double **v, int n);

/* Counts the runs of O's machine loops (matched to LOOPS) from A's total
 * counts (analysed with tag_loops), their values (epi_mcount_all_values's
 * for the total) in VALS; a loop the total does not run, from one call of
 * its function, evaluated in ENV. */
void epi_mcount_run(epi_mcount *m, const epi_object *o, const epi_nest *loops, int nloops, epi_analysis *a,
		    const double *vals, const sym_env *env);
/* The machine iterations of machine loop L (its role counted in M) when
 * its source loop runs ITERS iterations over ENTRIES entries: the main
 * loop's share k at a time, the remainder's what is left per entry. */
double epi_mcount_iters(const epi_mcount *m, int l, double iters, double entries);
/* The weights of O's blocks that go with the runs of a loop inside theirs
 * (epi_object.gate: the checks and set-up before a vectorised loop, its
 * remainder test after it): that loop's entries over the iterations of
 * the loop around, from M's counts, where both loops are counted, else
 * the branch probability; with M NULL, the branch probability for all of
 * them (as read). The loops' own mixes follow. */
void epi_mcount_gates(const epi_mcount *m, epi_object *o);
void epi_mcount_free(epi_mcount *m);

#endif
