/* mmodel: the compiled-code model. A program built with -g is read
 * (objcode), its machine loops matched to the source's loops and counted
 * from the source analysis's exact per-loop counts (mcount), and priced
 * per iteration with overlap (mprice). The source-level linear model
 * (report.h) stays for sources without a binary. */
#ifndef EPI_MMODEL_H
#define EPI_MMODEL_H

#include "predict/mcount.h"
#include "predict/mprice.h"
#include "predict/report.h"

#include <pthread.h>

/* A machine loop or function (AT) and its runs (N; NAN unknown). */
typedef struct epi_mrun {
	int at;
	double n;
} epi_mrun;

/* What one run of a region of the source runs of the machine code (a
 * function's region: one call, callees included; a nest's: one run of it,
 * with what it calls): its machine loops' iterations, its functions'
 * calls (their code in no loop), and the nests' first writes of fresh
 * memory, in bytes. */
typedef struct epi_mruns {
	epi_mrun *loop, *fn, *touch;
	int nloop, nfn, ntouch;
	epi_mrun straight; /* a nest's: its code in no machine loop (.at: the source
			      loop, -1 none) and its entries */
	int unpriced; /* a loop in it that the run's counts could not price */
	int inlined;  /* a function's region whose function has no code of its own: 1 inlined
			 into its callers, 2 none at all (its body removed) */
} epi_mruns;

/* A machine loop of a source nest, in the index by nest. */
typedef struct epi_mnest_loop {
	int line, loop;
} epi_mnest_loop;

/* A function's code in no machine loop on the lines of a top-level nest
 * of another function (inlined into it): run once per call of FN. */
typedef struct epi_mxstraight {
	int line, fn, nest; /* the nest's line, the function, the nest (in the model's loops) */
	epi_mix mix;
} epi_mxstraight;

typedef struct epi_mmodel {
	epi_object obj;
	epi_nest *loops;  /* every loop of the source, then (epi_mmodel_count) the loops of
			     the header's functions its calls inlined, one per call */
	int nloops;
	int nfile;        /* the source's own loops: the first NFILE of LOOPS */
	int nmatched;     /* machine loops matched to a source loop */
	int *nest_line;   /* per machine loop: the line of the source nest it is in, 0 none */
	epi_mnest_loop *by_nest; /* the machine loops of nests, by line */
	int nby_nest;
	int *nest_at;     /* per line of the source up to nest_maxl: the top-level loop
			     spanning it (in LOOPS), -1 */
	int nest_maxl;
	/* the machine loops with instructions on the lines of another
	 * top-level nest than their own (a callee's loop inlined and unrolled
	 * into them, nests the compiler fused), by that nest's line, as a
	 * profile samples them: each pair once */
	epi_mnest_loop *cross;
	int ncross;
	int *insn_cross; /* per instruction of such a loop: that nest (index into LOOPS), -1 */
	epi_mcount cnt;   /* after epi_mmodel_count */
	epi_mnest_loop *touch_by; /* after it: the source nests (.loop: in LOOPS) that
				     touch fresh memory, by line */
	int ntouch_by;
	int *straight_fn;  /* after it, per top-level source loop: the function whose
			      code on its lines is in no machine loop, -1 none */
	epi_mix *straight_mix; /* that code's instructions */
	double *nest_entries; /* per top-level source loop: its entries over the run (NAN unknown) */
	epi_mnest_loop *straight_by; /* the top-level source loops with such code, by line */
	int nstraight_by;
	int *insn_nest;    /* per instruction in no machine loop: the top-level source loop on
			      whose lines it is (in that loop's function, or inlined in
			      another); -1 none */
	epi_mxstraight *xstraight; /* after it: code of nests inlined into other functions, in no
				      machine loop, by the nest's line */
	int nxstraight;
	const epi_region *regions; /* after it: the analysis's regions (nests and
				      functions) that RUNS describe, one each */
	epi_mruns *runs;
	int nruns;
	unsigned long long cache[3]; /* the machine's L1d, L2, L3 bytes (the cost table's); 0: typical */
	unsigned long long l3_serves; /* the working set its L3 serves (the cost table's); 0: unknown */
	unsigned long long tlb_pages; /* the pages its second-level TLB maps (the cost table's); 0: unknown */
	/* -D flags under which the source declares its arrays with the sizes
	 * the program has (epi_sizes_infer, when the program was given, not
	 * built here, with other sizes than the parse's): the analysis of
	 * epi_mmodel_reanalyze parses with them after the user's */
	char **defs;
	int ndefs;
	/* the notes epi_mmodel_finish gave the analysis, given again to the
	 * one epi_mmodel_reanalyze makes afresh */
	char **notes;
	int nnotes;
} epi_mmodel;

/* Builds SOURCE into an object file with debug information: the project's
 * clang (EPI_CLANG, or $EPI_CC) -g -c with the N flags FLAGS, into a new
 * temporary file whose path goes to OUT (N bytes; the caller removes it).
 * Returns 0, or -1 with ERR holding the compiler's first error line. */
int epi_build_object(const char *source, const char *const *flags, int nflags, char *out, size_t n, char *err);

/* Reads BINARY's code compiled from SOURCE and matches its loops to the
 * source's (parsed with FO's flags). Returns 0, or -1 with ERR. */
int epi_mmodel_open(epi_mmodel *m, const char *binary, const char *source, const epi_front_opts *fo, char *err);
/* epi_mmodel_open in two steps: the reading (0, or -1 with ERR: no such
 * program, no debug information, another machine's code), then the
 * matching to the source's LOOPS (N of them, epi_find_loops's or the
 * analysis's; M takes them). */
int epi_mmodel_read(epi_mmodel *m, const char *binary, const char *source, const epi_front_opts *fo, char *err);
void epi_mmodel_link(epi_mmodel *m, epi_nest *loops, int nloops);
void epi_mmodel_free(epi_mmodel *m);

/* epi_mmodel_read on a thread of its own, while the caller analyses the
 * source (epi_mmodel_finish then matches): SOURCE built first
 * (epi_build_object with FO's flags, into BUILT, removed once read) when
 * BINARY is NULL. */
typedef struct epi_mmodel_job {
	epi_mmodel *m;
	const char *binary, *source;
	const epi_front_opts *fo;
	char built[64]; /* the object built, "" none (removed by then) */
	int ret;
	char err[EPI_ERRLEN];
	pthread_t th;
	int threaded;
} epi_mmodel_job;

/* Starts J (its thread, or the work itself when no thread can start). */
void epi_mmodel_start(epi_mmodel_job *j);
/* Waits for J and matches the machine loops to the source's: those of
 * analysis A (analysed with tag_loops; A gives them up), else of a parse
 * of the source (A NULL). Returns 0, or -1 with J->err. */
int epi_mmodel_finish(epi_mmodel_job *j, epi_analysis *a);

/* When M's code does not make some of the calls of the source that A
 * (analysed with tag_loops and FO) counts, or makes some outside the
 * loops around them, or M has -D flags for the program's array sizes
 * (defs), analyses SOURCE again with those calls counted as absent, or
 * once per entry of the outermost loop they left, and with those flags
 * (epi_analyze_bind with PARAMS into A and ENV; A's loops, which M has
 * already, freed); *REDONE says whether it did. Returns epi_analyze_bind's
 * code: 0 when done or not needed. */
int epi_mmodel_reanalyze(const epi_mmodel *m, epi_analysis *a, const char *source, const epi_front_opts *fo,
			 const char *const *params, int nparams, sym_env *env, int *redone, char *err);

/* Counts the machine loops' runs from A (analysed with tag_loops) and ENV,
 * over the run and in one run of each nest and function (VALS:
 * epi_mcount_all_values(A, ENV) when evaluated already, else NULL); then
 * removes A's per-loop counts, which no report shows. */
void epi_mmodel_count(epi_mmodel *m, epi_analysis *a, const sym_env *env, double *const *vals);

/* M's machine as table T measured it: its caches, the working set its L3
 * serves, the pages its second-level TLB maps. */
void epi_mmodel_machine(epi_mmodel *m, const epi_table *t);

/* What a region of the program costs under the model, summed over the run. */
typedef struct epi_mcost {
	epi_price p;
	epi_mix mix;          /* the instructions executed */
	double bound_t[EPI_BOUND_N]; /* seconds spent in iterations under each bound */
	double alone_t[EPI_BOUND_N]; /* seconds its iterations would take under each bound alone */
	int nloops;           /* machine loops in it */
	int inlined;          /* a function with no code of its own: 1 inlined into every caller,
				 2 none at all (epi_mruns') */
} epi_mcost;

/* Every machine loop and function priced per iteration at the cost-table
 * column COL (after epi_mmodel_count): what the sums below add up, once
 * per column. */
typedef struct epi_mprices epi_mprices;
epi_mprices *epi_mmodel_prices(const epi_mmodel *m, const epi_fcol *col);
void epi_mprices_free(epi_mprices *p);

/* One run of region R of the analysis counted (a nest: one run of it, a
 * function: one call, callees included), at P's column; R's runs in the
 * whole program for the total. */
void epi_mmodel_region(const epi_mmodel *m, const epi_mprices *p, const epi_region *r, epi_mcost *out);
/* The top-level loop nest whose keyword is on LINE over the run, what a
 * profile samples on its lines: its machine loops and its code in no
 * machine loop, at P's column. */
void epi_mmodel_nest(const epi_mmodel *m, const epi_mprices *p, int line, epi_mcost *out);
/* FUNCTION's instructions outside its machine loops and off its nests'
 * lines, over its calls in the run. */
void epi_mmodel_function(const epi_mmodel *m, const epi_mprices *p, const char *function, epi_mcost *out);
/* FUNCTION's own instructions over the run (its code, and its machine
 * loops', not its callees': what a profiler's self cost counts); NAN when
 * how often some runs needs an unbound parameter. */
double epi_mmodel_self_instructions(const epi_mmodel *m, const char *function);
/* The whole program's code compiled from the source. */
void epi_mmodel_total(const epi_mmodel *m, const epi_mprices *p, epi_mcost *out);

/* "compiled code of PROG (x86-64, N machine loops, M matched to the
 * source)", for a report's header. */
void epi_mmodel_describe(const epi_mmodel *m, char *out, size_t n);

/* DST += SRC. */
void epi_mcost_add(epi_mcost *dst, const epi_mcost *src);
/* The bound under which the most time is spent. */
enum epi_bound epi_mcost_bound(const epi_mcost *c);

#endif
