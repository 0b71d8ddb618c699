/* cfront: the libclang front end of epi-predict.
 *
 * Parses one C file, and for each function defined in it counts the basic
 * operations (model/ops.h) exactly, as piecewise polynomials in the
 * parameters: loop nests are summed symbolically, branches give minimum,
 * maximum and expected counts, calls to functions of the same file are
 * counted through with their arguments substituted. */
#ifndef EPI_CFRONT_H
#define EPI_CFRONT_H

#include "predict/counts.h"

/* The stack of the threads that parse and walk a file: libclang's own for
 * the threads it parses on (a command that sets LIBCLANG_NOTHREADS, so
 * that libclang parses on the calling thread, should check that its main
 * thread has as much). */
#define EPI_FRONT_STACK (8u << 20)
/* The stack of the threads that walk a file: the walk recurses into
 * expressions as deep as their operators chain (a bound or statement of
 * tens of thousands of terms, as code generators write them), and
 * libclang's visits of their cursors with it. Only what a walk touches
 * is ever committed. */
#define EPI_WALK_STACK (256u << 20)

typedef struct epi_trip {
	char *file; /* basename or path as given; NULL matches any file */
	int line;
	int nth;      /* the nth loop expanded on LINE (LINE_2: 2); 0 or 1: the first */
	char *expr;   /* the trip count per entry of the loop, in parameters */
	/* measured from a run (epi trips): binds only a loop the analysis
	 * cannot count, and ORIGIN (malloc'd, may be NULL) says where the
	 * figure comes from in the report's note */
	int measured;
	char *origin;
} epi_trip;

/* A call of a function of the file, by the line of the file it is made on. */
typedef struct epi_call_site {
	int line;
	char *callee;
	int inlined; /* in compiled code: the callee's code inlined there, not called */
	int at;      /* in compiled code: the call's instruction, -1 none */
	int out_of;  /* moved out of loops by the compiler: the line of the outermost loop it left */
} epi_call_site;

/* --calls FUNCTION=N: how many times the program calls FUNCTION, a
 * function of the file that none of the file's code calls (the
 * program's main() is in another file); the total counts its work N
 * times rather than once. */
typedef struct epi_calls {
	char *function;
	long long n;
} epi_calls;

typedef struct epi_front_opts {
	const char *const *clang_args; /* compiler flags */
	int nclang_args;
	fmpq_t branch_prob;            /* probability of a then-branch */
	epi_trip *trips;               /* --trip FILE:LINE=EXPR */
	int ntrips;
	epi_calls *calls;              /* --calls FUNCTION=N */
	int ncalls;
	/* Calls that the compiled code does not make (the compiler removed
	 * them: a result never used, a value known at compile time): counted
	 * as absent, each noted. With tag_loops, every other call of a
	 * function of the file made on a line of the file is counted as
	 * "%call:LINE:CALLEE/site", so that its caller can find them. */
	const epi_call_site *dead_calls;
	int ndead_calls;
	/* Calls that the compiled code makes outside the loops around them
	 * (a pure function's, its arguments the same at every iteration):
	 * counted once per entry of the outermost loop they left (out_of). */
	const epi_call_site *hoisted_calls;
	int nhoisted_calls;
	/* Also count every op under the block its code lies in: "@LINE/KEY" in
	 * the top-level loop nest whose keyword is on LINE, "@FUNCTION()/KEY"
	 * in FUNCTION outside its nests. Through calls these add up where the
	 * code runs, so the total's tagged counts are each block's own work in
	 * the whole program: what a sampling profile measures per block. */
	int tag_blocks;
	/* Also count every op under the innermost loop it lies in, "%LINE/KEY"
	 * (LINE: the loop's keyword), with "%LINE/entry" the times the loop
	 * statement runs and "%FUNCTION()/entry" the times a function is
	 * called: each loop's own work per iteration, for pricing the machine
	 * code compiled from it. */
	int tag_loops;
	/* Every loop must be counted: one that cannot is an error (all of them
	 * are listed in one run) instead of a trip-count parameter T<line>. */
	int strict;
	int jobs; /* threads analysing a long file's functions; 0: one per online CPU */
	/* Format the counts of regions already done while other threads are
	 * still counting (epi_region's formula and cond), for a report that
	 * prints formulas. */
	int preformat;
} epi_front_opts;

enum epi_scope { EPI_SCOPE_LOOP, EPI_SCOPE_FUNCTION, EPI_SCOPE_TOTAL };

typedef struct epi_region {
	enum epi_scope scope;
	char *file;
	int line;
	char *function;
	epi_counts counts;
	/* sym_pw_format() of each count's expectation when done while counting
	 * (epi_front_opts' preformat), else NULL; an entry may be NULL too */
	char **formula, **cond;
} epi_region;

/* A loop's tag in the counts the compiled-code model reads (%TAG/iter,
 * %TAG/entry, ...): its line, plus EPI_TAG_NEST for each loop of its
 * function that starts before it on that line (for (r ...) for (i ...)
 * on one line, loops side by side there), or one more than the loop
 * around it when that starts on the line too (a macro's loops, at one
 * place). Loops side by side at one place (one macro's) share one. */
#define EPI_TAG_NEST (1 << 22)

/* The tag of a loop on LINE with BEFORE loops before it there, in the loop
 * tagged OUTER (0: none); from the 500th on one line they share one. */
static inline int epi_loop_tag(int line, int before, int outer)
{
	int k = before;
	if (outer > 0 && outer % EPI_TAG_NEST == line && outer / EPI_TAG_NEST + 1 > k)
		k = outer / EPI_TAG_NEST + 1;
	return line + (k < 500 ? k : 500) * EPI_TAG_NEST;
}

/* A loop: its function, the line of its keyword (as in epi_region) and the
 * last line it spans; the loop it is in (an index, -1 for a top-level nest)
 * and how deep (0 for a top-level nest). */
typedef struct epi_nest {
	char *file;
	char *function;
	int line, end_line;
	int col, end_col; /* the columns its text starts and ends at on those lines (0: not known) */
	int tag;          /* its counts' tag (EPI_TAG_NEST) */
	int parent, depth;
	/* with every loop listed, of its own body (not the loops inside):
	 * the distinct subscripts and dereferences that move from one
	 * iteration to the next (their indices name a variable the loop
	 * assigns; the same text once: A[i][j] read and written is one), and
	 * the arrays they name; 0 and 0 when one names none that the source
	 * tells, or the body passes memory to a call */
	int refs, arrays;
} epi_nest;

/* An array's constant sizes as a declaration of the source gives them,
 * through pointers (a parameter double A[M][N] is double (*A)[N]: [N]; a
 * local double (*A)[M][N]: [M][N]), to compare with those the program was
 * built with: a build given -D values the parse was not has other sizes.
 * FUNCTION "" at file scope. */
#define EPI_SIZED_DIMS 4
typedef struct epi_sized {
	char *function;
	char *name;
	int line;
	int ndims;
	unsigned long long dims[EPI_SIZED_DIMS];
} epi_sized;

typedef struct epi_analysis {
	sym_ctx sym;
	char *file;
	int nregions;
	epi_region *regions; /* loop nests and functions in source order, then the total */
	int nnotes;
	char **notes;        /* approximations and assumptions worth telling */
	int nerrors;
	char **errors;       /* with opts.strict, every loop that could not be counted, file:line first */
	epi_nest *loops;     /* with opts.tag_loops: every loop of the file's functions, each after the loop
				it is in, in source order (as epi_find_loops lists them) */
	int nloops;
	/* with opts.tag_loops: the loops of the functions that the program's
	 * headers define (their lines the header's), and the line from which
	 * the counts tag a header's loop by the call that runs it: loop K
	 * (of those of its function, in that order) of the function called on
	 * line C of the file is tagged as the loop on line
	 * syn_base + C * EPI_SYN_LOOPS + K, for K < EPI_SYN_LOOPS */
	epi_nest *hloops;
	int nhloops;
	int syn_base;
	/* the functions the total counts: main(), else those no code of the
	 * file calls, each as often as --calls says (once by default) */
	char **roots;
	long long *root_calls;
	int nroots;
	/* with opts.tag_loops: the arrays of constant size that the file's
	 * functions and its file scope declare, in source order */
	epi_sized *sized;
	int nsized;
} epi_analysis;

#define EPI_SYN_LOOPS 8

void epi_front_opts_init(epi_front_opts *o);
void epi_front_opts_clear(epi_front_opts *o);
/* Whether a trip of FILE (as given or stored) applies to the source
 * SOURCE: the same path, or SOURCE's base name. */
int epi_trip_file_matches(const char *file, const char *source);
/* Parses "FILE:LINE=EXPR" into a trip; returns 0 or -1 with ERR. */
int epi_trip_parse(epi_trip *t, const char *spec, char *err);
/* Parses "FUNCTION=N" (N a whole number, 0 or more) into C; returns 0 or
 * -1 with ERR naming SPEC. */
int epi_calls_parse(epi_calls *c, const char *spec, char *err);

/* Analyzes FILE; returns 0, or -1 with ERR naming file:line (exit status 1).
 * When loops could not be counted, A->errors lists them all (one line each)
 * and A must still be freed. */
int epi_analyze(epi_analysis *a, const char *file, const epi_front_opts *o, char *err);

/* Formats, on JOBS threads (0: one per online CPU), the formulas of A's
 * regions that the analysis left to the report (epi_region's formula):
 * for a caller with time to spare before the report, such as while the
 * compiled-code model's object is built. */
void epi_analysis_format(epi_analysis *a, int jobs);
void epi_analysis_free(epi_analysis *a);
/* Adds TEXT (copied) to A's notes, unless a note says it already. */
void epi_analysis_note(epi_analysis *a, const char *text);
/* Removes R's counts whose key starts with PREFIX, and their formulas. */
void epi_region_drop(sym_ctx *s, epi_region *r, const char *prefix);


/* Lists FILE's top-level loop nests (O may be NULL) without counting them,
 * for attributing samples to nests; returns 0, or -1 with ERR. */
int epi_find_nests(const char *file, const epi_front_opts *o, epi_nest **out, int *n, char *err);
/* The same for every loop, each after the loop it is in (source order). */
int epi_find_loops(const char *file, const epi_front_opts *o, epi_nest **out, int *n, char *err);
/* (Both list the loops of a file with errors, a missing header say, as far
 * as they parse, and then leave clang's first error in ERR; else ERR is
 * empty.) */
void epi_nests_free(epi_nest *v, int n);
void epi_sized_free(epi_sized *v, int n);
/* The innermost of the N loops V (as epi_find_loops lists them) whose
 * lines hold LINE, -1 none. */
int epi_nest_around(const epi_nest *v, int n, int line);
/* Whether loop A of V is loop B or inside it. */
int epi_nest_within(const epi_nest *v, int a, int b);

/* Reads the compiler flags for FILE from DIR/compile_commands.json; returns a
 * malloc'd argv (and *argc) without the compiler, the file and -o/-c, or NULL with ERR. */
char **epi_compdb_args(const char *dir, const char *file, int *argc, char *err);

#endif
