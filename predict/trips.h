/* trips: trip counts of a program's loops measured from its runs (`epi
 * trips`), and the trips file that `epi-predict --trips` reads.
 *
 * The program is built with the compiler's coverage instrumentation (gcc
 * --coverage, read through gcov; or clang -fprofile-instr-generate
 * -fcoverage-mapping, read through llvm-profdata and llvm-cov) and run with
 * its coverage written into a temporary folder.  Every loop of its C
 * sources (found with libclang) gets its entries E (times control reached
 * the loop statement) and iterations I (body executions) from the counts;
 * the trip count per entry is I/E, and over runs with a parameter swept, a
 * polynomial in it fitted by least squares (GSL), its coefficients rounded
 * to rationals when the rounded polynomial reproduces every run exactly.
 *
 * clang's region counts give E and I directly.  gcov gives counts per line,
 * from which they follow (at -O0) when the loop's header and body lie on
 * lines of their own: for `for` and `while`, the header line's count is the
 * entries plus the iterations that came back to it, so E = H - I + X where
 * I is the body's first line and X the executions of the statements that
 * leave the loop (break, return, goto); for `do`, E = I - T where T is the
 * times the condition (on a line of its own, one branch) went back.  A loop
 * whose lines do not allow that is reported as unreadable, with why. */
#ifndef EPI_TRIPS_H
#define EPI_TRIPS_H

#include <jansson.h>
#include <flint/fmpq.h>
#include <flint/fmpq_poly.h>

#include "predict/cfront.h"

enum epi_cov { EPI_COV_NONE, EPI_COV_GCC, EPI_COV_CLANG };

/* A source position: line and column (1-based) in FILE (a realpath). */
typedef struct epi_tpos {
	const char *file;
	int line, col;
} epi_tpos;

/* Where a loop's parts are, for reading its counts (filled by the loop
 * finder; of no use to callers). */
typedef struct epi_tshape {
	epi_tpos kw, body, cond;        /* spelling positions (cond.line 0: unknown) */
	int site_line, site_col;        /* the macro use that expands to the keyword, 0 if none */
	int body_site_line, body_site_col, cond_site_line, cond_site_col;
	int cond_const;                 /* 0: a real condition; 1: none or always true; -1: always false */
	/* gcov: expansion lines; first[]: the body's first statements with
	 * code (its first, and declarations' followers), -1 lines when unusable */
	int header_ok;                  /* the header alone on its line(s), the body after it */
	int first_line, first_loop;     /* the body's first statement's line (-line: a declaration),
	                                 * or the loop it is (index) */
	int empty;                      /* for, while: the body has no statement (;, {}): its
	                                 * iterations are its condition's true edge */
	int cond_line;                  /* do: the condition's line, alone */
	int nexits, *exit_line;         /* statements that leave the loop, each alone on its line
	                                 * (-line: the then-branch of the `if` alone there) */
	const char *why;                /* static: why gcov's lines cannot give this loop's counts */
} epi_tshape;

typedef struct epi_tloop {
	char *file;       /* the source (realpath) */
	int src;          /* its index in epi_trips' sources */
	char *function;
	int line, nth;    /* the keyword's (expansion) line; the nth loop on it in its function */
	char kind;        /* 'f' for, 'w' while, 'd' do */
	epi_tshape at;
	/* per run: entries and iterations, -1 when not read */
	long long *entries, *iters;
	char *why;        /* why the counts could not be read (malloc'd), or NULL */
	/* the trip count per entry, fitted over the runs that entered the loop */
	char *trip;       /* NULL: never entered, or not read */
	const char *param;/* the parameter it is a polynomial in, or NULL for a constant */
	int points;       /* runs it was fitted over */
	int exact;        /* reproduces every run exactly */
	double residual;  /* root mean square of the fit's errors (0 when exact) */
} epi_tloop;

typedef struct epi_trun {
	char **argv;      /* NULL-terminated */
	int status;       /* wait status */
	char *pname;      /* the swept parameter and its value, or NULL */
	char *pvalue;
} epi_trun;

typedef struct epi_trips {
	enum epi_cov cov;
	char *exe;
	int nruns;
	epi_trun *runs;
	int nsources;
	char **sources;   /* realpaths */
	char **shown;     /* as written in the output: the base name unless two share it */
	int nloops;
	epi_tloop *loops;
	int nnotes;
	char **notes;
	const char *const *clang_args; /* flags for parsing the sources (the caller's) */
	int nclang_args;
	const char *compdb;            /* or a folder with compile_commands.json */
	int npaths;                    /* file names seen, and their realpaths */
	char **path_names, **path_reals;
} epi_trips;

/* The path of the program ARGV0 runs (searched in PATH without a slash),
 * malloc'd, or NULL with ERR. */
char *epi_trips_which(const char *argv0, char *err);
/* Which coverage EXE was built with: 0 with *COV set, or -1 with ERR (also
 * for none: naming the flags to rebuild with). */
int epi_cov_detect(const char *exe, enum epi_cov *cov, char *err);
/* With gcc coverage: -1 with ERR when the sources were compiled with
 * optimisation (their DWARF producer says -O1 and up), which merges blocks
 * across lines; 1 when it cannot tell (no DWARF); 0 when all are at -O0. */
int epi_cov_check_O0(const char *exe, char *err);

void epi_trips_init(epi_trips *t, enum epi_cov cov, const char *exe);
void epi_trips_free(epi_trips *t);

/* Runs ARGV once (its output passes through) with its coverage written in a
 * temporary folder, removed afterwards, and adds the run: its status, and
 * each loop's counts (the first run finds the sources and their loops).
 * PNAME=PVALUE is recorded with it (may be NULL).  Returns 0; or -1 with
 * ERR when nothing could be read (no coverage written, a tool failed). */
int epi_trips_run(epi_trips *t, char *const *argv, const char *pname, const char *pvalue, char *err);

/* Adds a run from coverage already read: for gcc, an array of gcov's JSON
 * documents; for clang, llvm-cov export's document.  (epi_trips_run's
 * second half; the unit tests feed it.) */
int epi_trips_add_cov(epi_trips *t, json_t *cov, char *err);

/* Fits every loop's trip count per entry over the runs, in the parameter
 * NAME whose value in run r is X[r] (NAME NULL: no parameter, one run). */
void epi_trips_fit(epi_trips *t, const char *name, const long *x);

/* L's entries and iterations summed over T's runs: 0, or -1 when a run's
 * could not be read. */
int epi_tloop_totals(const epi_trips *t, const epi_tloop *L, long long *E, long long *I);

/* The trips file (version 1) of T, see README. */
json_t *epi_trips_json(const epi_trips *t);

/* Least squares fit (GSL) of Y (exact, M points at X) by polynomials of
 * degree 0 to MAXDEG: the lowest degree whose coefficients, rounded to
 * rationals, reproduce every point exactly (*EXACT = 1, *RESIDUAL = 0);
 * else the lowest whose fit is exact to rounding in floating point, else
 * MAXDEG, with the root mean square of its errors (*EXACT = 0).  P gets
 * the polynomial; returns its degree. */
int epi_fit_poly(const long *x, const fmpq *y, int m, int maxdeg, fmpq_poly_t p, int *exact, double *residual);
/* The simplest rational within TOL of V (continued fractions, denominators
 * up to MAXDEN): 0, or -1 when none is. */
int epi_rationalize(double v, double tol, long maxden, fmpq_t out);
/* P as an expression in VAR ("n*(n - 1)/2"), malloc'd. */
char *epi_poly_text(const fmpq_poly_t p, const char *var);

/* Reads the trips file PATH into *TRIPS (appended, *N updated): each loop
 * with a trip becomes a measured epi_trip whose origin tells where it was
 * measured.  Returns 0, or -1 with ERR naming PATH and what is wrong. */
int epi_trips_load(const char *path, epi_trip **trips, int *n, char *err);

#endif
