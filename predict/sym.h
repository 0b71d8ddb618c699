/* sym: exact symbolic counts as piecewise polynomials over the rationals.
 *
 * A count is a sum of pieces [guard] * value, where the value is a polynomial
 * with rational coefficients (predict/poly.h) in the parameters, and the
 * guard a conjunction of affine constraints c >= 0 with integer coefficients.
 * Variables are parameters, loop variables (summed away), or floor atoms
 * floor(num/den) that stand for the integer quotients non-unit strides and
 * bounds bring.  sym_pw_sum() sums a piecewise count over an integer
 * variable between affine bounds, splitting where the number of iterations
 * would go negative (the max(0, .) of trip counts), so counts stay exact for
 * triangular nests and for bounds such as j < i - 5.
 */
#ifndef EPI_SYM_H
#define EPI_SYM_H

#include "model/util.h"
#include "predict/poly.h"
#include <flint/fmpq_poly.h>
#include <stdatomic.h>
#include <string.h>

/* The symbol table holds `cap` symbols, SYM_INITVARS at first; sym_grow()
 * widens it, up to SYM_MAXVARS, between functions. */
#define SYM_INITVARS 48
#define SYM_MAXVARS 384
/* A sum or a substitution whose count grows past `maxterms` terms in all
 * its pieces (SYM_MAXTERMS unless changed) is refused, s->err saying so:
 * counts that large come from calls composed inside loops many levels
 * deep, and would take gigabytes before they were done. */
#define SYM_MAXTERMS 1000000

enum sym_kind { SYM_PARAM, SYM_LOOP, SYM_ATOM, SYM_FREE };

struct sym_fmt;

typedef struct sym_ctx {
	poly_ctx_t ctx;
	int cap;                                 /* variables of ctx */
	int nvars;
	char *name[SYM_MAXVARS];
	enum sym_kind kind[SYM_MAXVARS];
	poly_struct atom_num[SYM_MAXVARS]; /* atoms: floor(num / den) */
	fmpz atom_den[SYM_MAXVARS];
	/* a trip-count parameter's loop (sym_trip_var): its line, 0 for
	 * every other symbol, and which loop of the line it is, from 1 */
	int trip_line[SYM_MAXVARS];
	int trip_nth[SYM_MAXVARS];
	poly_struct gen[SYM_MAXVARS];     /* x_k itself, for substitutions */
	fmpq_poly_struct *faul;                  /* faul[k](x) = sum_{t=0}^{x-1} t^k */
	int nfaul;
	char err[EPI_ERRLEN];                    /* last error, for the caller */
	int full;                                /* a symbol was refused for want of room */
	long maxterms;                           /* the most terms a count may hold */
	struct sym_fmt *fmt;                     /* formats computed so far */
	int nfmt, capfmt;
	int *fmtidx;                             /* open addressing by hash: index + 1 */
	unsigned fmtmask;
} sym_ctx;

typedef struct sym_guard {
	int n, cap;
	poly_struct *c; /* each c[i] >= 0 */
	unsigned long h;      /* order-free hash of the constraints, to compare guards fast */
	atomic_int *rc;       /* copies sharing C (copy on write), or NULL when C is this guard's own;
	                       * atomic, as threads formatting different counts share constraints */
} sym_guard;

typedef struct sym_piece {
	sym_guard g;
	poly_t v;
} sym_piece;

typedef struct sym_pw {
	int n, cap;
	sym_piece *p;
} sym_pw;

int sym_init(sym_ctx *s);
void sym_free(sym_ctx *s);
/* Makes V a view of S for another thread: the same symbols, read-only for
 * as long as V lives, with a format cache of its own, so that threads can
 * format and evaluate S's counts at once.  Free with sym_view_free(). */
void sym_view(sym_ctx *v, const sym_ctx *s);
/* Makes view V show S's symbols as they are now (S having only gained
 * symbols since the view was made), its format cache kept. */
void sym_view_update(sym_ctx *v, const sym_ctx *s);
void sym_view_free(sym_ctx *v);
/* Returns the index of the variable NAME of KIND, creating it; -1 when full.
 * A trip-count parameter is never the variable of its name. */
int sym_var(sym_ctx *s, const char *name, enum sym_kind kind);
/* Returns the index of the trip-count parameter of the NTH loop (from 1)
 * on LINE, named NAME when it is made; -1 when full. */
int sym_trip_var(sym_ctx *s, const char *name, int line, int nth);
/* Whether symbol K is a trip-count parameter (sym_trip_var). */
static inline int sym_is_trip(const sym_ctx *s, int k) { return s->trip_line[k] > 0; }
/* Sets P to floor(num / den) (den != 0), as a polynomial plus at most one atom;
 * returns 0, or -1 when the symbol table is full. */
int sym_floor(sym_ctx *s, poly_t p, const poly_t num, const fmpz_t den);

void sym_pw_init(sym_pw *w);
void sym_pw_clear(sym_ctx *s, sym_pw *w);
void sym_pw_set(sym_ctx *s, sym_pw *dst, const sym_pw *src);
void sym_pw_set_poly(sym_ctx *s, sym_pw *w, const poly_t v);
void sym_pw_set_si(sym_ctx *s, sym_pw *w, long v);
int sym_pw_is_zero(const sym_pw *w);
/* Whether A and B have the same pieces (a structural test: equal counts
 * written differently compare unequal). */
/* A hash that equal piecewise functions share, whatever their piece order. */
unsigned long sym_pw_hash(sym_ctx *s, const sym_pw *w);
int sym_pw_equal(sym_ctx *s, const sym_pw *a, const sym_pw *b);
/* A hash of W's guards and monomials, not of its coefficients: the same
 * for W and k*W, whatever the piece order. */
unsigned long sym_pw_shape_hash(sym_ctx *s, const sym_pw *w);
/* dst += a */
void sym_pw_add(sym_ctx *s, sym_pw *dst, const sym_pw *a);
/* dst += a[0] + ... + a[n-1] (none of them dst), indexing dst's guards once:
 * linear in the pieces, where n sym_pw_add()s re-index the growing sum. */
void sym_pw_add_all(sym_ctx *s, sym_pw *dst, const sym_pw *const *a, int n);
/* dst += k * a (k rational) */
void sym_pw_addmul_fmpq(sym_ctx *s, sym_pw *dst, const sym_pw *a, const fmpq_t k);
/* w *= p */
void sym_pw_mul_poly(sym_ctx *s, sym_pw *w, const poly_t p);
/* Restricts every piece to c >= 0 (c affine). */
void sym_pw_restrict(sym_ctx *s, sym_pw *w, const poly_t c);
/* dst = sum over integer var from lo to hi (inclusive) of a; returns 0 or -1
 * with s->err set (a bound or guard not affine in var). */
int sym_pw_sum(sym_ctx *s, sym_pw *dst, const sym_pw *a, int var,
	       const poly_t lo, const poly_t hi);
/* Substitutes simultaneously: variable k becomes sub[k] where sub[k] != NULL. */
int sym_pw_compose(sym_ctx *s, sym_pw *w, poly_struct *const *sub);
/* OUT (in S's table) = IN (in SRC's), its symbols mapped by name
 * (parameters) and by definition (floor atoms) through MAP, SYM_MAXVARS
 * ints set to -1 before the first import from SRC and kept between them.
 * Returns 0, or -1 when S's table is full (s->err). */
int sym_pw_import(sym_ctx *s, sym_pw *out, const sym_ctx *src, const sym_pw *in, int *map);
/* Constraint arrays that sym_pw_adopt() has renamed, by address. */
typedef struct sym_moved {
	const void **key;
	unsigned long *h; /* the guard's hash after renaming */
	int *len;         /* and its number of constraints */
	unsigned mask;
	int n;
} sym_moved;
void sym_moved_free(sym_moved *m);
/* Makes W, counts of another table whose symbols sym_pw_map() has mapped
 * into S's through MAP, counts of S, in place: sym_pw_import() without a
 * copy, for counts whose table is being let go.  Pieces share constraint
 * arrays (copy on write); each is renamed once, M remembering which (one M,
 * zeroed first, for every count of the other table adopted, and no count
 * left there may share an array with them). */
void sym_pw_adopt(sym_ctx *s, sym_pw *w, const int *map, sym_moved *m);
/* Maps IN's symbols into S's table as sym_pw_import() would, in the same
 * order, without importing IN: after it, sym_pw_import(IN) reads nothing of
 * S that changes (it can run on a copy of S while S takes more symbols).
 * Returns 0, or -1 when S's table is full (s->err). */
int sym_pw_map(sym_ctx *s, const sym_ctx *src, const sym_pw *in, int *map);
/* Sets *lo and *hi to the pointwise min and max of a and b; returns 1 when
 * exact, 0 when only bounds could be given (lo = 0, hi = a + b). */
int sym_pw_minmax(sym_ctx *s, sym_pw *lo, sym_pw *hi, const sym_pw *a, const sym_pw *b);

/* A cached format: W (normalised), its polynomial for large parameters and
 * the condition under which that holds. */
typedef struct sym_fmt {
	unsigned long hash;
	sym_pw w;
	poly_t sum;
	char *cond;
	char *formula;       /* SUM as text, once asked for (NULL before) */
} sym_fmt;

/* Bindings of parameters to exact values, for evaluation. */
typedef struct sym_env {
	fmpq val[SYM_MAXVARS];
	char bound[SYM_MAXVARS];
} sym_env;
void sym_env_init(sym_env *e);
void sym_env_clear(sym_env *e);
/* The parameters of S in index order: the first after K (-1 for the first),
 * or -1 when there is none; for (int k = -1; (k = sym_next_param(s, k)) >= 0;) */
static inline int sym_next_param(const sym_ctx *s, int k)
{
	while (++k < s->nvars)
		if (s->kind[k] == SYM_PARAM)
			return k;
	return -1;
}

/* The name of symbol K (a parameter's is its C text: n, v->len, T94). */
static inline const char *sym_name(const sym_ctx *s, int k) { return s->name[k]; }

/* The index of the parameter NAME, or -1. */
static inline int sym_param_index(const sym_ctx *s, const char *name)
{
	for (int k = -1; (k = sym_next_param(s, k)) >= 0;)
		if (strcmp(s->name[k], name) == 0)
			return k;
	return -1;
}

/* Evaluates W exactly; returns 0, or -1 with *missing set to the index of a
 * parameter that is needed but unbound. */
int sym_pw_eval(sym_ctx *s, const sym_pw *w, const sym_env *e, fmpq_t out, int *missing);
/* The same, marking in UNBOUND (SYM_MAXVARS ints, when not NULL) every
 * parameter W needs that E leaves unbound. */
int sym_pw_eval_unbound(sym_ctx *s, const sym_pw *w, const sym_env *e, fmpq_t out, int *missing, int *unbound);
/* Marks in USED (SYM_MAXVARS ints) the parameters W depends on, through atoms too. */
void sym_pw_params(sym_ctx *s, const sym_pw *w, int *used);
/* Marks in USED every symbol W uses, atoms and what they use included. */
void sym_pw_symbols(sym_ctx *s, const sym_pw *w, int *used);
/* Frees the loop variables and atoms not marked in USED (with what the
 * marked atoms use), for reuse; parameters stay.  Every polynomial still in
 * use must be among those marked.  Clears the format cache. */
void sym_collect(sym_ctx *s, const int *used);
/* The symbols in use at one point of a computation whose results may be
 * dropped (sym_mark_take); sym_release then frees the loop variables and
 * atoms made since (parameters stay), and frees M: no polynomial kept may
 * use them.  Clears the format cache. */
typedef struct sym_mark {
	int nvars, full;
	unsigned char *taken; /* per symbol below NVARS: in use at the mark */
} sym_mark;
void sym_mark_take(const sym_ctx *s, sym_mark *m);
void sym_release(sym_ctx *s, sym_mark *m);
/* Widens the table to CAP symbols (at most SYM_MAXVARS); returns 0, or -1
 * when it cannot grow. */
int sym_grow(sym_ctx *s, int cap);

/* A human formula for W: the polynomial that holds for large parameters,
 * factored, with the condition under which it holds ("n >= 2").  Returns
 * malloc'd strings; *cond is "" when the formula holds everywhere. */
void sym_pw_format(sym_ctx *s, const sym_pw *w, char **formula, char **cond);
/* The same at ENV's values rather than for large parameters: the pieces
 * of W that hold there, and where they hold (or "the values given").
 * Returns 0, or -1 (nothing made) when ENV does not bind every
 * parameter W depends on. */
int sym_pw_format_at(sym_ctx *s, const sym_pw *w, const sym_env *env, char **formula, char **cond);
/* A polynomial as text in the variables' names (malloc'd). */
char *sym_poly_str(sym_ctx *s, const poly_t p);

/* Feasibility over the rationals (Fourier-Motzkin with integer tightening)
 * of the constraints c[i] >= 0; returns 0 only when surely infeasible. */
int sym_feasible(sym_ctx *s, const poly_struct *c, int n);
/* The same test in FLINT integers throughout; sym_feasible() works in
 * machine integers where a system fits, and must answer as this does. */
int sym_feasible_flint(sym_ctx *s, const poly_struct *c, int n);

#endif
