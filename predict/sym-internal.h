/* sym-internal: what the files of the symbolic engine share: sym.c the
 * piecewise counts, their summation and evaluation, fm.c the
 * Fourier-Motzkin feasibility test, symfmt.c counts as text and the cache
 * of formats.  Internal to predict/sym*.c and predict/fm.c, in the way of
 * git's refs/refs-internal.h; everyone else uses predict/sym.h. */
#ifndef EPI_SYM_INTERNAL_H
#define EPI_SYM_INTERNAL_H

#include <string.h>

#include "predict/sym.h"

#define CTX (s->ctx)

/* Small helpers, static inline as they were static in sym.c. */

/* The variables of term T of P with nonzero exponents, in increasing order,
 * into VAR and EXP; returns how many. */
static inline int term_exps(const sym_ctx *s, const poly_t p, slong t, int *var, ulong *exp)
{
	(void)s;
	const poly_mono *m = &p->m[t];
	for (int j = 0; j < m->n; j++) {
		var[j] = m->v[j];
		exp[j] = m->e[j];
	}
	return m->n;
}

/* The constant term of P: its last term in the monomial order, if that
 * has no variable. */
static inline void const_term(sym_ctx *s, fmpq_t c, const poly_t p)
{
	(void)s;
	if (p->n && p->m[p->n - 1].n == 0)
		fmpq_set(c, &p->c[p->n - 1]);
	else
		fmpq_zero(c);
}

static inline void guard_init(sym_guard *g) { memset(g, 0, sizeof *g); }

/* Sets *DEN to the least common denominator of P's coefficients, when
 * they are small and it is (at most COEFF_MAX); else returns -1. */
static inline int small_den(const poly_t p, long *den)
{
	*den = 1;
	for (slong i = 0; i < p->n; i++) {
		const fmpq *c = &p->c[i];
		if (COEFF_IS_MPZ(*fmpq_numref(c)) || COEFF_IS_MPZ(*fmpq_denref(c)))
			return -1;
		long d = *fmpq_denref(c);
		if (d == 1 || *den % d == 0)
			continue;
		long g = (long)n_gcd((ulong)*den, (ulong)d);
		if (__builtin_mul_overflow(*den / g, d, den) || *den > COEFF_MAX)
			return -1;
	}
	return 0;
}

/* sym.c */

/* Marks the variables P uses, and those the atoms among them use. */
void sym_used_closure(sym_ctx *s, const poly_t p, int *used);
/* The values of W's symbols into VALS (initialised up to s->nvars):
 * parameters from E, or when GENERIC a generic point (every parameter
 * large, and distinct: increasing with the symbol's index, or decreasing
 * when GENERIC is 2), atoms computed from them.  Returns 0, or -1 with
 * *MISSING a parameter E does not bind (marked in UNBOUND when not NULL). */
int sym_env_fill(sym_ctx *s, const sym_pw *w, const sym_env *e, int generic, fmpq *vals, int *missing,
		 int *unbound);
/* OUT = P at the point VALS, term by term. */
void sym_poly_eval(sym_ctx *s, fmpq_t out, const poly_t p, fmpq *const *vals);
/* Whether every constraint of G holds at the point PTR. */
int sym_guard_holds(sym_ctx *s, const sym_guard *g, fmpq *const *ptr);
/* Sets G (empty) to the union of the N normalized constraints C. */
void sym_guard_from(sym_ctx *s, sym_guard *g, const poly_struct **c, int n);
/* Drops the constraints of G implied by the others. */
void sym_guard_reduce(sym_ctx *s, sym_guard *g);
/* The same where G keeps at most MAX constraints once the looser of
 * parallel ones are dropped: returns 0, or -1 with only those dropped
 * (each test eliminates all of G's symbols: beyond a few dozen
 * constraints over floor terms, minutes). */
int sym_guard_reduce_upto(sym_ctx *s, sym_guard *g, int max);
/* Gives G constraints of its own before it changes them (copy on write). */
void sym_guard_own(sym_ctx *s, sym_guard *g);
/* Frees G's constraints (or lets go of its share of them); G is left empty. */
void sym_guard_clear(sym_ctx *s, sym_guard *g);

/* symfmt.c */

/* Forgets the cached formats (their polynomials die with a context). */
void sym_fmt_reset(sym_ctx *s);

#endif
