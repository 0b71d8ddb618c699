/* cfront-internal: the walker's state and what the files of the front end
 * share: cfront.c the walker, pragmas.c the trip counts given (--trip and
 * pragmas), chunks.c the file in chunks on every core.  Internal to
 * predict/, in the way of git's refs/refs-internal.h. */
#ifndef EPI_CFRONT_INTERNAL_H
#define EPI_CFRONT_INTERNAL_H

#include <stddef.h>

#include "predict/cfront.h"
#include "predict/cursor.h"

#define MAXDEPTH 64

/* A function counted for one call's constant arguments (specialize_call):
 * the parameters pinned (their indices and values), and whether its counts
 * needed fewer trip-count parameters than the function's own (then kept). */
typedef struct fn_spec {
	int npin;
	int idx[MAXDEPTH];
	long val[MAXDEPTH];
	int better;
	epi_counts counts;
} fn_spec;

typedef struct fn {
	char *name;
	CXCursor cur;
	int line, end_line;
	int state;        /* 0 not yet, 1 in progress, 2 done */
	int queued;       /* on analyze_deep's stack */
	int called;
	int blank;        /* its body was blanked in this translation unit */
	char *header;     /* the program's header that defines it (NULL: the main
			   * file): counted at its calls, with no region or tag */
	char *uncounted;  /* a header's function: why its work cannot be counted */
	int nparams;
	char **params;
	epi_counts counts;
	/* a header's function, for the compiled-code model (cf_header_loops):
	 * its own loops (the first NOWN), then those of the headers' functions
	 * it calls, a block for each call (HCALL: the call's line, column and
	 * block's first index) */
	epi_nest *hl;
	int nhl, nown, hdone, hbusy;
	int (*hcall)[3];
	int nhcall;
	struct fn_index *index; /* its writes and loops (cfront.c), found on first use */
	fn_spec *specs;   /* counted for calls' constant arguments, in this walk */
	int nspecs, capspecs;
} fn;

/* A pragma of the file about the loop on LINE: `#pragma epi trip(EXPR)`,
 * or a WCET annotation `#pragma loopbound min N max M` (also written
 * `_Pragma("loopbound min N max M")`). */
typedef struct pragma {
	int line;     /* the loop's line: the next line that is not blank */
	int at;       /* the pragma's own line */
	char *expr;   /* epi trip: the trip count; NULL for a loopbound */
	long min, max;
	unsigned char hit; /* a loop on LINE took it (set by any thread) */
} pragma;

/* The value of the variable DECL after the loop LOOP: V's count "v". */
struct final {
	CXCursor loop, decl;
	epi_counts v;
};

typedef struct W {
	epi_analysis *a;
	const epi_front_opts *o;
	sym_ctx *s;
	CXTranslationUnit tu;
	char *filename;
	const char *text; /* the file's text, LEN bytes (trip_name), or NULL */
	size_t len;
	fn *fns;
	int nfns;
	fn **byname;        /* fns by name (find_fn's, made at its first call), or NULL */
	int own_lo, own_hi; /* the functions whose regions this walk records: fns[own_lo, own_hi) */
	int syn_base;       /* epi_analysis' syn_base */
	int recursive;      /* a recursive call was cut (where depends on the order of the walk) */
	int missing;        /* the walk reached a function whose body was blanked */
	fn *cur;
	int foreign;      /* cur is a header's function: no loop or block tags */
	int inits;        /* variables read through their initializers (expr_poly) */
	int fndepth;      /* functions being analysed, callers included */
	int analyzed;     /* functions whose analysis has started */
	int loopdepth;
	CXCursor loopstmt[MAXDEPTH]; /* the loops around the code being counted, outermost first */
	int in_bound;     /* converting a loop's bound or first value */
	int tag_line;     /* with o->tag_blocks: the line of the top-level loop being counted, else 0 */
	int loop_line;    /* with o->tag_loops: the line of the innermost loop being counted, else 0 */
	int subscript;
	int nlv;
	CXCursor lvdecl[MAXDEPTH];
	CXCursor lvstmt[MAXDEPTH]; /* each loop variable's loop statement */
	int lvvar[MAXDEPTH];
	pragma *pragmas;
	int npragmas;
	int omp_line;     /* the first line with an OpenMP directive (cf_scan_pragmas), 0 none */
	unsigned char *trip_hit; /* per --trip: a loop matched it (set by any thread) */
	int nfallback;    /* loops counted with a trip-count parameter or a given bound */
	/* a callee counted again for one call's constant arguments
	 * (specialize_call): its regions are not recorded; the parameters
	 * the next cf_analyze_fn() pins to the arguments' values */
	int spec;
	int nspec_pin;
	CXCursor spec_decl[MAXDEPTH];
	long spec_val[MAXDEPTH];
	char why[300];    /* why the loop being counted could not be, for its fallback */
	/* bodies of enclosing loops counted without an induction variable: a
	 * variable written in one is no parameter there, for it varies */
	int nvary;
	CXCursor vary[MAXDEPTH];
	/* tile loops being counted by their trip counts (a step that is no
	 * constant) whose point loops, for (i = ii; i < MIN(ii + b, n); i++),
	 * cover their range: each one's variable, step, bound and first value,
	 * and whether its point loops run over the whole range (1) or not at
	 * all (0) as it is being counted; tc: the last loop found to step by
	 * no constant, a candidate */
	int ntile;
	struct tile {
		CXCursor at, decl, step, bound, lo;
		int full;
	} tile[MAXDEPTH], tc;
	/* variables of enclosing loops counted value by value, and their values now */
	int npin;
	CXCursor pin_decl[MAXDEPTH];
	long pin_val[MAXDEPTH];
	/* the values loop variables have after their loops, for a loop after
	 * one that goes on from there: for (; i < n; i++) */
	struct final *fin;
	int nfin;
	/* the statements around the one being counted, for while loops */
	CXCursor *sib;
	int nsib, isib;
	/* the loops being counted that the compiled code moved calls out of
	 * (epi_front_opts' hoisted_calls): their lines, and those calls'
	 * counts, added once per entry of the loop */
	int nhoist;
	int hoist_line[MAXDEPTH];
	epi_counts *hoist[MAXDEPTH];
	char *err;
} W;

/* Lists the loops of F, a header's function, for the compiled-code model
 * (fn's hl), those of the headers' functions it calls among FNS (N) too. */
void cf_header_loops(fn *fns, int n, fn *f);
/* Counts F (and, first, the functions it calls) into f->counts and records
 * its regions; returns 0, or -1 with w->err. */
int cf_analyze_fn(W *w, fn *f);
/* Frees F's index of writes and loops. */
void cf_fn_index_free(fn *f);
/* Frees F's counts for calls' constant arguments (fn_spec). */
void cf_fn_specs_free(sym_ctx *s, fn *f);
/* Frees the symbols no kept count uses, widening the table when few are
 * left; CURRENT is the count being built (or NULL). */
void cf_collect_symbols(W *w, epi_counts *current);
/* Appends S (taking it) to the N strings V, unless one equals it. */
void cf_add_unique(char ***v, int *n, char *s);
void cf_region_free(sym_ctx *s, epi_region *r);
/* "94", or "94_2" for the second loop on line 94. */
void cf_loop_label(char *buf, size_t n, int line, int nth);
/* Finds the loop pragmas of TEXT into w->pragmas; returns 0, or -1 with
 * ERR naming a malformed one (pragmas.c). */
int cf_scan_pragmas(W *w, const char *text, char *err);

/* Appends to *V (*N loops, room for *CAP) every loop of function FN
 * (named FUNCTION, in FILE), each after the loop it is in, and to *SZ
 * (*NSZ, room for *CAPSZ) the arrays of constant size it declares
 * (nests.c). */
void cf_list_loops(CXCursor fn, const char *file, const char *function, epi_nest **v, int *n, int *cap,
		   epi_sized **sz, int *nsz, int *capsz);
/* Appends to *V (*N of them, room for *CAP) declaration C as an epi_sized
 * of FUNCTION ("" at file scope), when it declares an array of constant
 * size (through pointers); else leaves V as it is (nests.c). */
void cf_sized_add(CXCursor c, const char *function, epi_sized **v, int *n, int *cap);
/* The constant sizes declaration C gives an array (through pointers) into
 * X's dims and ndims; returns ndims, 0 when C declares none. */
int cf_sized_of(CXCursor c, epi_sized *x);

#endif
