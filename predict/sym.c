/* sym: piecewise polynomial counts, summation over affine ranges and their
 * evaluation.  The Fourier-Motzkin feasibility test that prunes impossible
 * pieces is in fm.c, counts as text in symfmt.c, what they share in
 * sym-internal.h.  See sym.h. */
#define _GNU_SOURCE /* qsort_r */
#include "predict/sym-internal.h"

#include <flint/arith.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void seterr(sym_ctx *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof s->err, fmt, ap);
	va_end(ap);
}

int sym_init(sym_ctx *s)
{
	memset(s, 0, sizeof *s);
	s->cap = SYM_INITVARS;
	s->maxterms = SYM_MAXTERMS;
	poly_ctx_init(s->ctx, s->cap);
	for (int k = 0; k < s->cap; k++) {
		poly_init(&s->gen[k], CTX);
		poly_gen(&s->gen[k], k, CTX);
		poly_init(&s->atom_num[k], CTX);
		fmpz_init(&s->atom_den[k]);
	}
	return 0;
}

void sym_free(sym_ctx *s)
{
	for (int k = 0; k < s->cap; k++) {
		poly_clear(&s->gen[k], CTX);
		poly_clear(&s->atom_num[k], CTX);
		fmpz_clear(&s->atom_den[k]);
		free(s->name[k]);
	}
	for (int k = 0; k < s->nfaul; k++)
		fmpq_poly_clear(&s->faul[k]);
	free(s->faul);
	sym_fmt_reset(s);
	free(s->fmt);
	free(s->fmtidx);
	poly_ctx_clear(s->ctx);
}

void sym_view(sym_ctx *v, const sym_ctx *s)
{
	*v = *s;
	v->fmt = NULL;
	v->nfmt = v->capfmt = 0;
	v->fmtidx = NULL;
	v->fmtmask = 0;
}

void sym_view_update(sym_ctx *v, const sym_ctx *s)
{
	sym_ctx own = *v;
	*v = *s;
	v->fmt = own.fmt;
	v->nfmt = own.nfmt;
	v->capfmt = own.capfmt;
	v->fmtidx = own.fmtidx;
	v->fmtmask = own.fmtmask;
}

void sym_view_free(sym_ctx *v)
{
	sym_fmt_reset(v);
	free(v->fmt);
	free(v->fmtidx);
}

static void pw_used(sym_ctx *s, const sym_pw *w, int *used);

/* Free indices that only parameters may take: a loop too complex to count
 * in a full table is counted with a trip-count parameter (T<line>). */
#define SYM_RESERVE 8

/* A free index for a new symbol, a reclaimed one first, above ABOVE (-1:
 * any), leaving RESERVE free; -1 with s->err when there is none.  An
 * atom's is above those of the symbols its floor reads, as evaluation and
 * substitution take the symbols in order. */
static int new_slot(sym_ctx *s, int above, int reserve)
{
	int nfree = s->cap - s->nvars, k = -1;
	for (int j = 0; j < s->nvars; j++)
		if (s->kind[j] == SYM_FREE) {
			nfree++;
			if (k < 0 && j > above)
				k = j;
		}
	if (nfree <= reserve || (k < 0 && s->nvars == s->cap)) {
		seterr(s, "more than %d symbols in use at once: parameters, loop variables and "
			  "floor terms of strided bounds", s->cap - reserve);
		s->full = 1;
		return -1;
	}
	return k >= 0 ? k : s->nvars++;
}

int sym_var(sym_ctx *s, const char *name, enum sym_kind kind)
{
	for (int k = 0; k < s->nvars; k++)
		if (s->kind[k] != SYM_ATOM && s->kind[k] != SYM_FREE && !s->trip_line[k] && strcmp(s->name[k], name) == 0) {
			if (kind == SYM_PARAM)
				s->kind[k] = SYM_PARAM;
			return k;
		}
	int k = new_slot(s, -1, kind == SYM_PARAM ? 0 : SYM_RESERVE);
	if (k < 0)
		return -1;
	s->name[k] = xstrdup(name);
	s->kind[k] = kind;
	return k;
}

int sym_trip_var(sym_ctx *s, const char *name, int line, int nth)
{
	for (int k = 0; k < s->nvars; k++)
		if (s->kind[k] == SYM_PARAM && s->trip_line[k] == line && s->trip_nth[k] == nth)
			return k;
	int k = new_slot(s, -1, 0);
	if (k < 0)
		return -1;
	s->name[k] = xstrdup(name);
	s->kind[k] = SYM_PARAM;
	s->trip_line[k] = line;
	s->trip_nth[k] = nth;
	return k;
}

/* Polynomials name variables by index only: widening the table leaves them
 * as they are. */
int sym_grow(sym_ctx *s, int cap)
{
	if (cap > SYM_MAXVARS)
		cap = SYM_MAXVARS;
	if (cap <= s->cap)
		return -1;
	for (int k = s->cap; k < cap; k++) {
		poly_init(&s->gen[k], CTX);
		poly_gen(&s->gen[k], k, CTX);
		poly_init(&s->atom_num[k], CTX);
		fmpz_init(&s->atom_den[k]);
	}
	s->ctx->nvars = cap;
	s->cap = cap;
	return 0;
}

/* Frees symbol K (a loop variable or an atom) for reuse. */
static void slot_free(sym_ctx *s, int k)
{
	free(s->name[k]);
	s->name[k] = NULL;
	poly_zero(&s->atom_num[k], CTX);
	s->kind[k] = SYM_FREE;
	s->trip_line[k] = s->trip_nth[k] = 0;
}

void sym_collect(sym_ctx *s, const int *used_in)
{
	int used[SYM_MAXVARS];
	memcpy(used, used_in, sizeof used);
	for (int k = s->nvars - 1; k >= 0; k--)
		if (used[k] && s->kind[k] == SYM_ATOM)
			sym_used_closure(s, &s->atom_num[k], used);
	sym_fmt_reset(s);
	for (int k = 0; k < s->nvars; k++)
		if (!used[k] && s->kind[k] != SYM_PARAM && s->kind[k] != SYM_FREE)
			slot_free(s, k);
}

void sym_mark_take(const sym_ctx *s, sym_mark *m)
{
	m->nvars = s->nvars;
	m->full = s->full;
	m->taken = xmalloc((size_t)s->nvars + 1);
	for (int k = 0; k < s->nvars; k++)
		m->taken[k] = s->kind[k] != SYM_FREE;
}

void sym_release(sym_ctx *s, sym_mark *m)
{
	for (int k = 0; k < s->nvars; k++)
		if (!(k < m->nvars && m->taken[k]) && s->kind[k] != SYM_PARAM && s->kind[k] != SYM_FREE)
			slot_free(s, k);
	s->full = m->full;
	sym_fmt_reset(s);
	free(m->taken);
	m->taken = NULL;
}

/* Marks the variables P uses, and those the atoms among them use. */
void sym_used_closure(sym_ctx *s, const poly_t p, int *used)
{
	int var[SYM_MAXVARS];
	ulong exp[SYM_MAXVARS];
	for (slong i = 0; i < poly_length(p, CTX); i++) {
		int n = term_exps(s, p, i, var, exp);
		for (int j = 0; j < n; j++) {
			int k = var[j];
			if (used[k])
				continue;
			used[k] = 1;
			if (k < s->nvars && s->kind[k] == SYM_ATOM)
				sym_used_closure(s, &s->atom_num[k], used);
		}
	}
}

/* The atom floor(num/den) (num normalised as sym_floor leaves it), found or
 * made; -1 when the table is full. */
static int atom_of(sym_ctx *s, const poly_t num, const fmpz_t den)
{
	for (int k = 0; k < s->nvars; k++)
		if (s->kind[k] == SYM_ATOM && fmpz_equal(&s->atom_den[k], den) && poly_equal(&s->atom_num[k], num, CTX))
			return k;
	int above = -1; /* the last symbol NUM reads (a monomial's are in order) */
	for (slong i = 0; i < num->n; i++)
		if (num->m[i].n && num->m[i].v[num->m[i].n - 1] > above)
			above = num->m[i].v[num->m[i].n - 1];
	int k = new_slot(s, above, SYM_RESERVE);
	if (k < 0)
		return -1;
	char *ns = sym_poly_str(s, num);
	char *ds = fmpz_get_str(NULL, 10, den);
	size_t len = strlen(ns) + strlen(ds) + 16;
	s->name[k] = xmalloc(len);
	snprintf(s->name[k], len, "floor((%s)/%s)", ns, ds);
	free(ns);
	flint_free(ds);
	s->kind[k] = SYM_ATOM;
	poly_set(&s->atom_num[k], num, CTX);
	fmpz_set(&s->atom_den[k], den);
	return k;
}

int sym_floor(sym_ctx *s, poly_t p, const poly_t num, const fmpz_t den_in)
{
	if (fmpz_is_one(den_in)) {
		/* floor(num) = num for integer coefficients, the common case */
		fmpz_t d;
		fmpz_init(d);
		poly_get_denominator(d, num, CTX);
		int integral = fmpz_is_one(d);
		fmpz_clear(d);
		if (integral) {
			poly_set(p, num, CTX);
			return 0;
		}
	}
	fmpz_t den, q, r, g;
	fmpq_t c;
	poly_t Q, R;
	ulong e[SYM_MAXVARS];
	int ret = 0;
	fmpz_init_set(den, den_in);
	fmpz_init(q); fmpz_init(r); fmpz_init(g);
	fmpq_init(c);
	poly_init(Q, CTX); poly_init(R, CTX);
	poly_set(R, num, CTX);
	if (fmpz_sgn(den) < 0) {
		fmpz_neg(den, den);
		poly_neg(R, R, CTX);
	}
	/* Rational coefficients: floor(R/den) = floor(R*m / (den*m)). */
	poly_get_denominator(g, R, CTX);
	if (!fmpz_is_one(g)) {
		poly_scalar_mul_fmpz(R, R, g, CTX);
		fmpz_mul(den, den, g);
	}
	/* Split each integer coefficient into den*q + r with 0 <= r < den. */
	poly_t Rr;
	poly_init(Rr, CTX);
	fmpz_zero(g);
	for (slong i = 0; i < poly_length(R, CTX); i++) {
		poly_get_term_coeff_fmpq(c, R, i, CTX);
		poly_get_term_exp_ui(e, R, i, CTX);
		fmpz_fdiv_qr(q, r, fmpq_numref(c), den);
		/* terms come in order, so pushing keeps both sorted */
		if (!fmpz_is_zero(q)) {
			fmpz_set(fmpq_numref(c), q);
			poly_push_term_fmpq_ui(Q, c, e, CTX);
		}
		if (!fmpz_is_zero(r)) {
			fmpz_set(fmpq_numref(c), r);
			poly_push_term_fmpq_ui(Rr, c, e, CTX);
		}
		fmpz_gcd(g, g, r);
	}
	poly_reduce(Q, CTX);
	poly_reduce(Rr, CTX);
	if (!poly_is_zero(Rr, CTX)) {
		/* divide by the common factor of the remainder and den */
		fmpz_gcd(g, g, den);
		if (!fmpz_is_one(g)) {
			poly_scalar_div_fmpz(Rr, Rr, g, CTX);
			fmpz_divexact(den, den, g);
		}
		int flat = -1; /* an atom that appears in Rr alone with coefficient 1 */
		for (int k = 0; k < s->nvars && flat < 0 && !fmpz_is_one(den); k++) {
			if (s->kind[k] != SYM_ATOM || poly_degree_si(Rr, k, CTX) != 1)
				continue;
			poly_t co;
			poly_init(co, CTX);
			slong vars[1] = {k};
			ulong one[1] = {1};
			poly_get_coeff_vars_ui(co, Rr, vars, one, 1, CTX);
			if (poly_is_one(co, CTX))
				flat = k;
			poly_clear(co, CTX);
		}
		if (flat >= 0) {
			/* nested floors flatten: floor((x + floor(y/c))/d) = floor((c*x + y)/(c*d))
			 * for integer x, which keeps atoms few and often simpler */
			poly_sub(Rr, Rr, &s->gen[flat], CTX);
			poly_scalar_mul_fmpz(Rr, Rr, &s->atom_den[flat], CTX);
			poly_add(Rr, Rr, &s->atom_num[flat], CTX);
			fmpz_mul(den, den, &s->atom_den[flat]);
			poly_t inner;
			poly_init(inner, CTX);
			ret = sym_floor(s, inner, Rr, den);
			poly_add(Q, Q, inner, CTX);
			poly_clear(inner, CTX);
			if (ret < 0)
				goto out;
		} else if (fmpz_is_one(den)) {
			poly_add(Q, Q, Rr, CTX);
		} else if (poly_is_fmpq(Rr, CTX)) {
			/* 0 <= constant < den: floor is 0 */
		} else {
			int k = atom_of(s, Rr, den);
			if (k < 0) {
				ret = -1;
				goto out;
			}
			poly_add(Q, Q, &s->gen[k], CTX);
		}
	}
	poly_swap(p, Q, CTX);
out:
	poly_clear(Rr, CTX);
	poly_clear(Q, CTX); poly_clear(R, CTX);
	fmpq_clear(c);
	fmpz_clear(den); fmpz_clear(q); fmpz_clear(r); fmpz_clear(g);
	return ret;
}

/* ---- constraints and guards ------------------------------------------ */

/* Normalizes c >= 0 to integer coefficients with the variable part primitive,
 * tightening the constant (valid since all variables are integers).
 * Returns 1 if always true, -1 if never, 0 otherwise. */
static int cons_norm(sym_ctx *s, poly_t c)
{
	if (poly_is_fmpq(c, CTX)) {
		fmpq_t k;
		fmpq_init(k);
		poly_get_fmpq(k, c, CTX);
		int r = fmpq_sgn(k) >= 0 ? 1 : -1;
		fmpq_clear(k);
		return r;
	}
	fmpz_t d, g;
	fmpq_t k;
	fmpz_init(d); fmpz_init(g);
	fmpq_init(k);
	poly_get_denominator(d, c, CTX);
	poly_scalar_mul_fmpz(c, c, d, CTX);
	const_term(s, k, c);
	for (int i = 0; i < c->n; i++)
		if (c->m[i].n) /* the variable part: terms with a variable */
			fmpz_gcd(g, g, fmpq_numref(&c->c[i]));
	if (!fmpz_is_one(g)) {
		poly_sub_fmpq(c, c, k, CTX);
		poly_scalar_div_fmpz(c, c, g, CTX);
		fmpz_fdiv_q(fmpq_numref(k), fmpq_numref(k), g);
		poly_add_fmpq(c, c, k, CTX);
	}
	fmpz_clear(d); fmpz_clear(g);
	fmpq_clear(k);
	return 0;
}

/* A hash of the exponents of P's term T, by variable. */
static unsigned long term_exp_hash(const sym_ctx *s, const poly_t p, slong t)
{
	(void)s;
	const poly_mono *m = &p->m[t];
	unsigned long h = 0;
	for (int j = 0; j < m->n; j++)
		h += ((unsigned long)m->e[j] + 1) * (0x9E3779B97F4A7C15UL * (unsigned long)(m->v[j] + 1) | 1);
	return h;
}

/* X mod P, as fmpz_fdiv_ui() gives it, without a call while X is small. */
static inline unsigned long mod_ui(const fmpz *x, unsigned long p)
{
	if (COEFF_IS_MPZ(*x))
		return fmpz_fdiv_ui(x, p);
	long r = *x % (long)p;
	return (unsigned long)(r < 0 ? r + (long)p : r);
}

/* A hash of the constraint C from its coefficients (equal constraints hash
 * equal; a few unequal ones collide, and are then compared in full).  The
 * result is mixed (the SplitMix64 finaliser): a guard's hash is the sum of
 * its constraints' hashes, and unmixed, that sum is linear in the constant
 * terms, so that {n >= 3, m >= 5} and {n >= 4, m >= 4} would collide, and
 * with them most guards of a long program's total. */
static unsigned long cons_hash(sym_ctx *s, const poly_struct *c)
{
	const unsigned long p = 1000000007UL;
	unsigned long h = (unsigned long)c->n * 2654435761UL;
	for (slong i = 0; i < c->n; i++) {
		h = h * 31 + mod_ui(fmpq_numref(&c->c[i]), p);
		h = h * 31 + mod_ui(fmpq_denref(&c->c[i]), p);
		h = h * 31 + term_exp_hash(s, c, i);
	}
	h ^= h >> 30;
	h *= 0xBF58476D1CE4E5B9UL;
	h ^= h >> 27;
	h *= 0x94D049BB133111EBUL;
	return h ^ (h >> 31);
}

void sym_guard_clear(sym_ctx *s, sym_guard *g)
{
	if (g->rc && atomic_fetch_sub_explicit(g->rc, 1, memory_order_acq_rel) > 1) {
		guard_init(g); /* others still share the constraints */
		return;
	}
	for (int i = 0; i < g->n; i++)
		poly_clear(&g->c[i], CTX);
	free(g->c);
	free(g->rc);
	guard_init(g);
}

/* Gives G constraints of its own before it changes them (copy on write). */
void sym_guard_own(sym_ctx *s, sym_guard *g)
{
	if (!g->rc)
		return;
	if (atomic_load_explicit(g->rc, memory_order_acquire) == 1) {
		free(g->rc); /* the last sharer: no other can copy it now */
		g->rc = NULL;
		return;
	}
	poly_struct *c = xmalloc((g->n ? g->n : 1) * sizeof *c);
	for (int i = 0; i < g->n; i++) {
		poly_init(&c[i], CTX);
		poly_set(&c[i], &g->c[i], CTX);
	}
	sym_guard shared = *g;
	sym_guard_clear(s, &shared); /* frees them if the others let go meanwhile */
	g->c = c;
	g->cap = g->n ? g->n : 1;
	g->rc = NULL;
}

/* Inserts the normalized, non-constant constraint C (taking ownership). */
static void guard_insert(sym_ctx *s, sym_guard *g, poly_t c)
{
	sym_guard_own(s, g);
	unsigned long h = cons_hash(s, c);
	int pos = 0;
	while (pos < g->n) {
		int cmp = poly_cmp(&g->c[pos], c, CTX);
		if (cmp == 0) {
			poly_clear(c, CTX);
			return;
		}
		if (cmp > 0)
			break;
		pos++;
	}
	ALLOC_GROW_FROM(g->c, g->n + 1, g->cap, 4);
	memmove(&g->c[pos + 1], &g->c[pos], (g->n - pos) * sizeof *g->c);
	g->c[pos] = *c;
	g->n++;
	g->h += h;
}

/* Adds c >= 0 to G, kept sorted and without duplicates.
 * Returns -1 when the constraint can never hold. */
static int guard_add(sym_ctx *s, sym_guard *g, const poly_t c_in)
{
	poly_t c;
	poly_init(c, CTX);
	poly_set(c, c_in, CTX);
	int r = cons_norm(s, c);
	if (r != 0) {
		poly_clear(c, CTX);
		return r > 0 ? 0 : -1;
	}
	guard_insert(s, g, c);
	return 0;
}

static int cmp_cons(const void *a, const void *b, void *ctx)
{
	return poly_cmp(a, b, ctx);
}

/* Puts G's constraints (its own, normalized) in order without duplicates,
 * and sets its hash: O(n log n) for the long unions of totals. */
static void guard_seal(sym_ctx *s, sym_guard *g)
{
	if (g->n > 16) {
		qsort_r(g->c, g->n, sizeof *g->c, cmp_cons, (void *)s->ctx);
	} else { /* a few: in place */
		for (int j = 1; j < g->n; j++)
			for (int k = j; k > 0 && poly_cmp(&g->c[k - 1], &g->c[k], CTX) > 0; k--) {
				poly_struct t = g->c[k];
				g->c[k] = g->c[k - 1];
				g->c[k - 1] = t;
			}
	}
	int n = 0;
	g->h = 0;
	for (int i = 0; i < g->n; i++) {
		if (n && poly_equal(&g->c[n - 1], &g->c[i], CTX)) {
			poly_clear(&g->c[i], CTX);
			continue;
		}
		g->c[n] = g->c[i];
		g->h += cons_hash(s, &g->c[n]);
		n++;
	}
	g->n = n;
}

/* Sets G (empty) to the union of the N normalized constraints C. */
void sym_guard_from(sym_ctx *s, sym_guard *g, const poly_struct **c, int n)
{
	g->c = xmalloc((n + 1) * sizeof *g->c);
	g->cap = n + 1;
	for (int i = 0; i < n; i++) {
		poly_init(&g->c[i], CTX);
		poly_set(&g->c[i], c[i], CTX);
	}
	g->n = n;
	guard_seal(s, g);
}

/* Makes DST a copy of SRC that shares its constraints until either changes
 * them (sym_guard_own). SRC is const to its users: only its share count moves. */
static void guard_copy(sym_ctx *s, sym_guard *dst, const sym_guard *src)
{
	guard_init(dst);
	if (src->n == 0)
		return;
	sym_guard *from = (sym_guard *)src;
	if (!from->rc) { /* C is SRC's own, and so in no other thread's hands */
		from->rc = xmalloc(sizeof *from->rc);
		atomic_init(from->rc, 1);
	}
	atomic_fetch_add_explicit(from->rc, 1, memory_order_relaxed);
	*dst = *from;
}

static int guard_equal(sym_ctx *s, const sym_guard *a, const sym_guard *b)
{
	if (a->n != b->n || a->h != b->h)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (!poly_equal(&a->c[i], &b->c[i], CTX))
			return 0;
	return 1;
}

static void guard_drop(sym_ctx *s, sym_guard *g, int i)
{
	sym_guard_own(s, g);
	g->h -= cons_hash(s, &g->c[i]);
	poly_clear(&g->c[i], CTX);
	memmove(&g->c[i], &g->c[i + 1], (g->n - i - 1) * sizeof *g->c);
	g->n--;
}

/* For sorting constraints by their variable part. */
typedef struct linpart {
	poly_struct *lin; /* constraint minus its constant */
	int i;
	const poly_ctx_struct *ctx;
} linpart;

static int cmp_lin(const void *a, const void *b)
{
	const linpart *x = a, *y = b;
	int c = poly_cmp(x->lin, y->lin, x->ctx);
	return c ? c : x->i - y->i;
}

/* Drops every constraint that has a parallel twin at least as tight: of
 * lin + a >= 0 and lin + b >= 0 with a >= b, the first is implied.
 * Sorting by variable part keeps this O(n log n) on long guards. */
static void drop_parallel(sym_ctx *s, sym_guard *g)
{
	sym_guard_own(s, g);
	if (g->n < 2)
		return;
	int n = g->n;
	linpart *lp = xmalloc(n * sizeof *lp);
	poly_struct *lins = xmalloc(n * sizeof *lins);
	fmpq *k = xmalloc(n * sizeof *k);
	char *drop = xcalloc(n, 1);
	for (int i = 0; i < n; i++) {
		fmpq_init(&k[i]);
		const_term(s, &k[i], &g->c[i]);
		poly_init(&lins[i], CTX);
		poly_sub_fmpq(&lins[i], &g->c[i], &k[i], CTX);
		lp[i] = (linpart){&lins[i], i, CTX};
	}
	qsort(lp, n, sizeof *lp, cmp_lin);
	for (int a = 0; a < n;) {
		int b = a + 1, best = lp[a].i;
		while (b < n && poly_equal(lp[b].lin, lp[a].lin, CTX)) {
			if (fmpq_cmp(&k[lp[b].i], &k[best]) < 0)
				best = lp[b].i;
			b++;
		}
		for (int t = a; t < b; t++)
			drop[lp[t].i] = lp[t].i != best;
		a = b;
	}
	for (int i = n - 1; i >= 0; i--)
		if (drop[i])
			guard_drop(s, g, i);
	for (int i = 0; i < n; i++) {
		fmpq_clear(&k[i]);
		poly_clear(&lins[i], CTX);
	}
	free(lp);
	free(lins);
	free(k);
	free(drop);
}

/* Drops the constraints of G implied by the others. */
void sym_guard_reduce(sym_ctx *s, sym_guard *g)
{
	sym_guard_reduce_upto(s, g, INT_MAX);
}

int sym_guard_reduce_upto(sym_ctx *s, sym_guard *g, int max)
{
	sym_guard_own(s, g);
	/* cheap first: of two parallel constraints the looser is implied */
	drop_parallel(s, g);
	if (g->n > max)
		return -1;
	if (g->n <= 1)
		return 0;
	for (int i = 0; i < g->n;) {
		/* test: others and c <= -1 */
		poly_neg(&g->c[i], &g->c[i], CTX);
		poly_sub_ui(&g->c[i], &g->c[i], 1, CTX);
		int redundant = !sym_feasible(s, g->c, g->n);
		poly_add_ui(&g->c[i], &g->c[i], 1, CTX);
		poly_neg(&g->c[i], &g->c[i], CTX);
		if (redundant) {
			guard_drop(s, g, i);
		} else {
			i++;
		}
	}
	return 0;
}

/* ---- piecewise -------------------------------------------------------- */

void sym_pw_init(sym_pw *w) { memset(w, 0, sizeof *w); }

void sym_pw_clear(sym_ctx *s, sym_pw *w)
{
	for (int i = 0; i < w->n; i++) {
		sym_guard_clear(s, &w->p[i].g);
		poly_clear(w->p[i].v, CTX);
	}
	free(w->p);
	sym_pw_init(w);
}

int sym_pw_is_zero(const sym_pw *w) { return w->n == 0; }

/* An open-addressing index of a piecewise function's guards by their hash,
 * so that long sums (the totals of whole programs) merge and compare in
 * linear time instead of scanning every piece for every piece. */
typedef struct pw_index {
	int *slot; /* piece index + 1, 0 = empty */
	unsigned mask;
} pw_index;

static void pw_index_put(pw_index *x, const sym_pw *w, int i)
{
	unsigned k = (unsigned)(w->p[i].g.h * 0x9E3779B97F4A7C15UL >> 32) & x->mask;
	while (x->slot[k])
		k = (k + 1) & x->mask;
	x->slot[k] = i + 1;
}

/* Indexes W's pieces, with room for EXTRA more. */
static void pw_index_build(pw_index *x, const sym_pw *w, int extra)
{
	unsigned size = 16;
	while (size < 2u * (unsigned)(w->n + extra))
		size *= 2;
	x->slot = xcalloc(size, sizeof *x->slot);
	x->mask = size - 1;
	for (int i = 0; i < w->n; i++)
		pw_index_put(x, w, i);
}

static int pw_index_find(sym_ctx *s, const pw_index *x, const sym_pw *w, const sym_guard *g)
{
	unsigned k = (unsigned)(g->h * 0x9E3779B97F4A7C15UL >> 32) & x->mask;
	for (; x->slot[k]; k = (k + 1) & x->mask)
		if (guard_equal(s, &w->p[x->slot[k] - 1].g, g))
			return x->slot[k] - 1;
	return -1;
}

int sym_pw_equal(sym_ctx *s, const sym_pw *a, const sym_pw *b)
{
	if (a->n != b->n)
		return 0;
	/* pieces built the same way come in the same order: try that first */
	int i = 0;
	while (i < a->n && guard_equal(s, &a->p[i].g, &b->p[i].g) && poly_equal(a->p[i].v, b->p[i].v, CTX))
		i++;
	if (i == a->n)
		return 1;
	pw_index x;
	pw_index_build(&x, b, 0);
	int eq = 1;
	for (; i < a->n && eq; i++) {
		int j = pw_index_find(s, &x, b, &a->p[i].g);
		eq = j >= 0 && poly_equal(a->p[i].v, b->p[j].v, CTX);
	}
	free(x.slot);
	return eq;
}

/* A new last piece of W with a copy of guard G and a zero value. */
static sym_piece *pw_new(sym_ctx *s, sym_pw *w, const sym_guard *g)
{
	ALLOC_GROW_FROM(w->p, w->n + 1, w->cap, 4);
	sym_piece *p = &w->p[w->n++];
	guard_copy(s, &p->g, g);
	poly_init(p->v, CTX);
	return p;
}

/* Appends the piece [g] * v (copies both) without looking for an equal
 * guard: for callers that know there is none. */
static void pw_append(sym_ctx *s, sym_pw *w, const sym_guard *g, const poly_t v)
{
	poly_set(pw_new(s, w, g)->v, v, CTX);
}

/* pw_append() of a scratch V, which the piece takes (V is left zero). */
static void pw_append_take(sym_ctx *s, sym_pw *w, const sym_guard *g, poly_t v)
{
	poly_swap(pw_new(s, w, g)->v, v, CTX);
}

/* Adds the piece [g] * v (copies both) to W, merging equal guards. */
static void pw_push(sym_ctx *s, sym_pw *w, const sym_guard *g, const poly_t v)
{
	if (poly_is_zero(v, CTX))
		return;
	for (int i = 0; i < w->n; i++) {
		if (guard_equal(s, &w->p[i].g, g)) {
			poly_add(w->p[i].v, w->p[i].v, v, CTX);
			if (poly_is_zero(w->p[i].v, CTX)) {
				sym_guard_clear(s, &w->p[i].g);
				poly_clear(w->p[i].v, CTX);
				w->p[i] = w->p[--w->n];
			}
			return;
		}
	}
	pw_append(s, w, g, v);
}

void sym_pw_set(sym_ctx *s, sym_pw *dst, const sym_pw *src)
{
	if (dst == src)
		return;
	sym_pw_clear(s, dst);
	for (int i = 0; i < src->n; i++)
		pw_append(s, dst, &src->p[i].g, src->p[i].v);
}

/* ---- counts moved between symbol tables ------------------------------- */

/* DST's symbol for SRC's symbol K, through MAP (-1: not yet): the parameter
 * or loop variable of the same name, or the atom of the same definition,
 * made when missing.  -1 when DST is full and cannot grow. */
static int import_var(sym_ctx *dst, const sym_ctx *src, int k, int *map);

static int map_poly(sym_ctx *dst, const sym_ctx *src, const poly_t in, int *map);

static int import_poly(sym_ctx *dst, poly_t out, const sym_ctx *src, const poly_t in, int *map)
{
	if (map_poly(dst, src, in, map) < 0)
		return -1;
	poly_rename(out, in, map, dst->ctx);
	return 0;
}

static int import_var(sym_ctx *dst, const sym_ctx *src, int k, int *map)
{
	if (map[k] >= 0)
		return map[k];
	int d;
	if (src->kind[k] == SYM_ATOM) {
		poly_t num;
		poly_init(num, dst->ctx);
		d = import_poly(dst, num, src, &src->atom_num[k], map);
		if (d == 0)
			d = atom_of(dst, num, &src->atom_den[k]);
		poly_clear(num, dst->ctx);
	} else if (src->trip_line[k]) {
		d = sym_trip_var(dst, src->name[k], src->trip_line[k], src->trip_nth[k]);
	} else {
		d = sym_var(dst, src->name[k], src->kind[k]);
	}
	if (d < 0 && sym_grow(dst, 2 * dst->cap) == 0)
		return import_var(dst, src, k, map);
	return map[k] = d;
}

int sym_pw_import(sym_ctx *s, sym_pw *out, const sym_ctx *src, const sym_pw *in, int *map)
{
	sym_pw_clear(s, out);
	int ret = 0;
	if (in->n)
		out->p = xmalloc(in->n * sizeof *out->p);
	out->cap = in->n;
	for (int i = 0; i < in->n && ret == 0; i++) {
		const sym_guard *g = &in->p[i].g;
		sym_piece *p = &out->p[out->n++];
		guard_init(&p->g);
		poly_init(p->v, CTX);
		p->g.c = xmalloc((g->n + 1) * sizeof *p->g.c);
		p->g.cap = g->n + 1;
		for (int j = 0; j < g->n && ret == 0; j++) {
			poly_init(&p->g.c[j], CTX);
			p->g.n++;
			ret = import_poly(s, &p->g.c[j], src, &g->c[j], map);
		}
		if (ret == 0)
			ret = import_poly(s, p->v, src, in->p[i].v, map);
		guard_seal(s, &p->g); /* the constraints in the order of S's symbols */
	}
	return ret;
}

static int map_poly(sym_ctx *dst, const sym_ctx *src, const poly_t in, int *map)
{
	for (int t = 0; t < in->n; t++)
		for (int j = 0; j < in->m[t].n; j++)
			if (import_var(dst, src, in->m[t].v[j], map) < 0)
				return -1;
	return 0;
}

/* The slot of constraint array C in M: where it is, or the empty one where
 * it goes. */
static unsigned moved_slot(const sym_moved *m, const void *c)
{
	uintptr_t x = (uintptr_t)c;
	unsigned i = (unsigned)((x >> 4) * 2654435761UL) & m->mask;
	while (m->key[i] && m->key[i] != c)
		i = (i + 1) & m->mask;
	return i;
}

static void moved_put(sym_moved *m, const sym_guard *g)
{
	if (2 * (m->n + 1) > (int)m->mask + 1 || !m->key) {
		sym_moved old = *m;
		unsigned size = m->key ? 2 * (m->mask + 1) : 64;
		m->key = xcalloc(size, sizeof *m->key);
		m->h = xmalloc(size * sizeof *m->h);
		m->len = xmalloc(size * sizeof *m->len);
		m->mask = size - 1;
		for (unsigned i = 0; old.key && i <= old.mask; i++)
			if (old.key[i]) {
				unsigned j = moved_slot(m, old.key[i]);
				m->key[j] = old.key[i];
				m->h[j] = old.h[i];
				m->len[j] = old.len[i];
			}
		free(old.key);
		free(old.h);
		free(old.len);
	}
	unsigned i = moved_slot(m, g->c);
	m->key[i] = g->c;
	m->h[i] = g->h;
	m->len[i] = g->n;
	m->n++;
}

void sym_moved_free(sym_moved *m)
{
	free(m->key);
	free(m->h);
	free(m->len);
	memset(m, 0, sizeof *m);
}

void sym_pw_adopt(sym_ctx *s, sym_pw *w, const int *map, sym_moved *m)
{
	for (int i = 0; i < w->n; i++) {
		sym_piece *p = &w->p[i];
		poly_rename(p->v, p->v, map, CTX);
		sym_guard *g = &p->g;
		if (g->n == 0)
			continue;
		if (g->rc && m->key) {
			unsigned k = moved_slot(m, g->c);
			if (m->key[k]) { /* renamed already, through another piece */
				g->h = m->h[k];
				g->n = m->len[k];
				continue;
			}
		}
		for (int j = 0; j < g->n; j++)
			poly_rename(&g->c[j], &g->c[j], map, CTX);
		guard_seal(s, g); /* the constraints in the order of S's symbols */
		if (g->rc)
			moved_put(m, g);
	}
}

int sym_pw_map(sym_ctx *s, const sym_ctx *src, const sym_pw *in, int *map)
{
	for (int i = 0; i < in->n; i++) {
		const sym_guard *g = &in->p[i].g;
		for (int j = 0; j < g->n; j++)
			if (map_poly(s, src, &g->c[j], map) < 0)
				return -1;
		if (map_poly(s, src, in->p[i].v, map) < 0)
			return -1;
	}
	return 0;
}

void sym_pw_set_poly(sym_ctx *s, sym_pw *w, const poly_t v)
{
	sym_guard g;
	guard_init(&g);
	sym_pw_clear(s, w);
	pw_push(s, w, &g, v);
}

void sym_pw_set_si(sym_ctx *s, sym_pw *w, long v)
{
	poly_t p;
	poly_init(p, CTX);
	poly_set_si(p, v, CTX);
	sym_pw_set_poly(s, w, p);
	poly_clear(p, CTX);
}

/* DST += K * A (K = NULL: 1) through X, the index of DST's guards, which
 * it keeps up to date; V is scratch.  Returns whether a piece of DST
 * cancelled (left zero, for pw_drop_zero). */
static int pw_merge(sym_ctx *s, sym_pw *dst, pw_index *x, const sym_pw *a, const fmpq_t k, poly_t v)
{
	int cancelled = 0;
	for (int i = 0; i < a->n; i++) {
		if (k)
			poly_scalar_mul_fmpq(v, a->p[i].v, k, CTX);
		const poly_struct *t = k ? v : a->p[i].v;
		if (poly_is_zero(t, CTX))
			continue;
		int j = pw_index_find(s, x, dst, &a->p[i].g);
		if (j >= 0) {
			poly_add(dst->p[j].v, dst->p[j].v, t, CTX);
			cancelled |= poly_is_zero(dst->p[j].v, CTX);
		} else {
			if (k)
				pw_append_take(s, dst, &a->p[i].g, v);
			else
				pw_append(s, dst, &a->p[i].g, t);
			pw_index_put(x, dst, dst->n - 1);
		}
	}
	return cancelled;
}

/* Removes W's zero pieces, keeping the others in order. */
static void pw_drop_zero(sym_ctx *s, sym_pw *w)
{
	int n = 0;
	for (int i = 0; i < w->n; i++) {
		if (poly_is_zero(w->p[i].v, CTX)) {
			sym_guard_clear(s, &w->p[i].g);
			poly_clear(w->p[i].v, CTX);
		} else {
			w->p[n++] = w->p[i];
		}
	}
	w->n = n;
}

/* DST += K * A (K = NULL: 1), merging equal guards. Short sums scan; long
 * ones go through an index, with pieces that cancel removed at the end. */
static void pw_addmul(sym_ctx *s, sym_pw *dst, const sym_pw *a, const fmpq_t k)
{
	poly_t v;
	poly_init(v, CTX);
	if ((long)dst->n * a->n <= 64) {
		/* into an empty DST nothing merges: A's guards are distinct already */
		int empty = dst->n == 0;
		for (int i = 0; i < a->n; i++) {
			if (k)
				poly_scalar_mul_fmpq(v, a->p[i].v, k, CTX);
			if (empty && k)
				pw_append_take(s, dst, &a->p[i].g, v);
			else if (empty)
				pw_append(s, dst, &a->p[i].g, a->p[i].v);
			else
				pw_push(s, dst, &a->p[i].g, k ? v : a->p[i].v);
		}
		poly_clear(v, CTX);
		return;
	}
	pw_index x;
	pw_index_build(&x, dst, a->n);
	int cancelled = pw_merge(s, dst, &x, a, k, v);
	free(x.slot);
	poly_clear(v, CTX);
	if (cancelled)
		pw_drop_zero(s, dst);
}

void sym_pw_add_all(sym_ctx *s, sym_pw *dst, const sym_pw *const *a, int n)
{
	int extra = 0;
	for (int i = 0; i < n; i++)
		extra += a[i]->n;
	pw_index x;
	pw_index_build(&x, dst, extra);
	poly_t v;
	poly_init(v, CTX);
	int cancelled = 0;
	for (int i = 0; i < n; i++)
		cancelled |= pw_merge(s, dst, &x, a[i], NULL, v);
	free(x.slot);
	poly_clear(v, CTX);
	if (cancelled)
		pw_drop_zero(s, dst);
}

void sym_pw_add(sym_ctx *s, sym_pw *dst, const sym_pw *a)
{
	if (dst == a) {
		for (int i = 0; i < dst->n; i++)
			poly_scalar_mul_ui(dst->p[i].v, dst->p[i].v, 2, CTX);
		return;
	}
	pw_addmul(s, dst, a, NULL);
}

void sym_pw_addmul_fmpq(sym_ctx *s, sym_pw *dst, const sym_pw *a, const fmpq_t k)
{
	if (fmpq_is_zero(k))
		return;
	if (fmpq_is_one(k))
		sym_pw_add(s, dst, a);
	else
		pw_addmul(s, dst, a, k);
}

void sym_pw_mul_poly(sym_ctx *s, sym_pw *w, const poly_t p)
{
	for (int i = 0; i < w->n; i++)
		poly_mul(w->p[i].v, w->p[i].v, p, CTX);
	if (poly_is_zero(p, CTX))
		sym_pw_clear(s, w);
}

void sym_pw_restrict(sym_ctx *s, sym_pw *w, const poly_t c)
{
	sym_pw out;
	sym_pw_init(&out);
	for (int i = 0; i < w->n; i++) {
		sym_guard g;
		guard_copy(s, &g, &w->p[i].g);
		if (guard_add(s, &g, c) == 0 && sym_feasible(s, g.c, g.n)) {
			sym_guard_reduce(s, &g);
			pw_push(s, &out, &g, w->p[i].v);
		}
		sym_guard_clear(s, &g);
	}
	sym_pw_clear(s, w);
	*w = out;
}

/* ---- summation -------------------------------------------------------- */

/* faul[k](x) = sum_{t=0}^{x-1} t^k = (B_{k+1}(x) - B_{k+1}(0)) / (k+1) */
static const fmpq_poly_struct *faulhaber(sym_ctx *s, int k)
{
	while (s->nfaul <= k) {
		int j = s->nfaul;
		s->faul = xrealloc(s->faul, (j + 1) * sizeof *s->faul);
		fmpq_poly_struct *f = &s->faul[j];
		fmpq_poly_init(f);
		arith_bernoulli_polynomial(f, j + 1);
		fmpq_poly_set_coeff_si(f, 0, 0);
		fmpq_poly_scalar_div_si(f, f, j + 1);
		s->nfaul++;
	}
	return &s->faul[k];
}

/* out = f(x) for a univariate f and a multivariate x (Horner). */
static void horner(sym_ctx *s, poly_t out, const fmpq_poly_struct *f, const poly_t x)
{
	fmpq_t c;
	fmpq_init(c);
	poly_zero(out, CTX);
	for (slong i = fmpq_poly_degree(f); i >= 0; i--) {
		poly_mul(out, out, x, CTX);
		fmpq_poly_get_coeff_fmpq(c, f, i);
		poly_add_fmpq(out, out, c, CTX);
	}
	fmpq_clear(c);
}

/* out = sum_{var=lo}^{hi} v, as a polynomial identity valid for hi >= lo - 1. */
static void faul_sum(sym_ctx *s, poly_t out, const poly_t v, int var,
		     const poly_t lo, const poly_t hi)
{
	poly_t ck, a, b, hi1;
	poly_init(ck, CTX); poly_init(a, CTX);
	poly_init(b, CTX); poly_init(hi1, CTX);
	poly_add_ui(hi1, hi, 1, CTX);
	poly_zero(out, CTX);
	slong deg = poly_degree_si(v, var, CTX);
	for (slong k = 0; k <= deg; k++) {
		slong vars[1] = {var};
		ulong exps[1] = {(ulong)k};
		poly_get_coeff_vars_ui(ck, v, vars, exps, 1, CTX);
		if (poly_is_zero(ck, CTX))
			continue;
		const fmpq_poly_struct *f = faulhaber(s, (int)k);
		horner(s, a, f, hi1);
		horner(s, b, f, lo);
		poly_sub(a, a, b, CTX);
		poly_mul(a, a, ck, CTX);
		poly_add(out, out, a, CTX);
	}
	poly_clear(ck, CTX); poly_clear(a, CTX);
	poly_clear(b, CTX); poly_clear(hi1, CTX);
}

/* The least common multiple of the denominators of atoms in W (or in LO, HI)
 * whose numerator depends on VAR; -1 if one depends on it non-linearly. */
static long atom_period(sym_ctx *s, const sym_pw *w, int var)
{
	/* most sums meet no atom over var at all */
	int any = 0;
	for (int k = 0; k < s->nvars && !any; k++)
		any = s->kind[k] == SYM_ATOM && poly_degree_si(&s->atom_num[k], var, CTX) > 0;
	if (!any)
		return 1;
	int used[SYM_MAXVARS];
	memset(used, 0, sizeof *used * (size_t)s->cap);
	pw_used(s, w, used);
	fmpz_t l;
	fmpz_init_set_ui(l, 1);
	long r = 1;
	for (int k = 0; k < s->nvars; k++) {
		if (!used[k] || s->kind[k] != SYM_ATOM)
			continue;
		slong d = poly_degree_si(&s->atom_num[k], var, CTX);
		if (d <= 0)
			continue;
		if (d > 1) {
			r = -1;
			break;
		}
		fmpz_lcm(l, l, &s->atom_den[k]);
	}
	if (r > 0)
		r = fmpz_fits_si(l) ? fmpz_get_si(l) : -1;
	fmpz_clear(l);
	return r;
}

typedef struct bound {
	int n, cap;
	poly_struct *b;
} bound;

static void bound_add(sym_ctx *s, bound *b, const poly_t p)
{
	for (int i = 0; i < b->n; i++)
		if (poly_equal(&b->b[i], p, CTX))
			return;
	ALLOC_GROW_FROM(b->b, b->n + 1, b->cap, 4);
	poly_init(&b->b[b->n], CTX);
	poly_set(&b->b[b->n], p, CTX);
	b->n++;
}

static void bound_clear(sym_ctx *s, bound *b)
{
	for (int i = 0; i < b->n; i++)
		poly_clear(&b->b[i], CTX);
	free(b->b);
	memset(b, 0, sizeof *b);
}

/* Sums one piece: [guard and lo <= var <= hi] * v over var into OUT. */
static int sum_piece(sym_ctx *s, sym_pw *out, const sym_piece *pc, int var,
		     const poly_t lo, const poly_t hi)
{
	int ret = 0;
	bound L = {0}, U = {0};
	sym_guard rest;
	guard_init(&rest);
	poly_t c, a, e, b;
	fmpq_t av;
	fmpz_t az;
	poly_init(c, CTX); poly_init(a, CTX);
	poly_init(e, CTX); poly_init(b, CTX);
	fmpq_init(av);
	fmpz_init(az);
	int ncons = pc->g.n + 2;
	for (int i = 0; i < ncons; i++) {
		if (i < pc->g.n) {
			poly_set(c, &pc->g.c[i], CTX);
		} else if (i == pc->g.n) {
			poly_sub(c, &s->gen[var], lo, CTX);
		} else {
			poly_sub(c, hi, &s->gen[var], CTX);
		}
		slong d = poly_degree_si(c, var, CTX);
		if (d <= 0) {
			if (guard_add(s, &rest, c) < 0)
				goto out; /* empty */
			continue;
		}
		slong vars[1] = {var};
		ulong one[1] = {1};
		poly_get_coeff_vars_ui(a, c, vars, one, 1, CTX);
		if (d > 1 || !poly_is_fmpq(a, CTX)) {
			seterr(s, "a bound on '%s' is not affine in it", s->name[var]);
			ret = -1;
			goto out;
		}
		poly_get_fmpq(av, a, CTX);
		/* c = a*var + e >= 0 */
		poly_scalar_mul_fmpq(a, &s->gen[var], av, CTX);
		poly_sub(e, c, a, CTX);
		/* make a an integer: scale e and a by a's denominator */
		poly_scalar_mul_fmpz(e, e, fmpq_denref(av), CTX);
		fmpz_set(az, fmpq_numref(av));
		if (fmpz_sgn(az) > 0) {
			/* var >= -e/a = -floor(e/a) */
			if (sym_floor(s, b, e, az) < 0) { ret = -1; goto out; }
			poly_neg(b, b, CTX);
			bound_add(s, &L, b);
		} else {
			fmpz_neg(az, az);
			if (sym_floor(s, b, e, az) < 0) { ret = -1; goto out; }
			bound_add(s, &U, b);
		}
	}
	for (int i = 0; i < L.n; i++) {
		for (int j = 0; j < U.n; j++) {
			sym_guard g;
			guard_copy(s, &g, &rest);
			int dead = 0;
			for (int k = 0; k < L.n && !dead; k++) {
				if (k == i)
					continue;
				poly_sub(c, &L.b[i], &L.b[k], CTX);
				if (k < i)
					poly_sub_ui(c, c, 1, CTX);
				dead = guard_add(s, &g, c) < 0;
			}
			for (int k = 0; k < U.n && !dead; k++) {
				if (k == j)
					continue;
				poly_sub(c, &U.b[k], &U.b[j], CTX);
				if (k < j)
					poly_sub_ui(c, c, 1, CTX);
				dead = guard_add(s, &g, c) < 0;
			}
			if (!dead) {
				poly_sub(c, &U.b[j], &L.b[i], CTX);
				dead = guard_add(s, &g, c) < 0;
			}
			if (!dead && sym_feasible(s, g.c, g.n)) {
				sym_guard_reduce(s, &g);
				faul_sum(s, b, pc->v, var, &L.b[i], &U.b[j]);
				pw_push(s, out, &g, b);
			}
			sym_guard_clear(s, &g);
		}
	}
out:
	bound_clear(s, &L);
	bound_clear(s, &U);
	sym_guard_clear(s, &rest);
	poly_clear(c, CTX); poly_clear(a, CTX);
	poly_clear(e, CTX); poly_clear(b, CTX);
	fmpq_clear(av);
	fmpz_clear(az);
	return ret;
}

/* Whether W has grown past s->maxterms terms (then s->err says so). */
static int too_many_terms(sym_ctx *s, const sym_pw *w)
{
	long terms = 0;
	for (int i = 0; i < w->n; i++)
		terms += poly_length(w->p[i].v, CTX);
	if (terms <= s->maxterms)
		return 0;
	seterr(s, "a count of more than %ld terms", s->maxterms);
	return 1;
}

int sym_pw_sum(sym_ctx *s, sym_pw *dst, const sym_pw *a, int var,
	       const poly_t lo, const poly_t hi)
{
	sym_pw res;
	sym_pw_init(&res);
	int ret = 0;
	long period = atom_period(s, a, var);
	if (period < 0) {
		seterr(s, "a floor term depends non-linearly on '%s'", s->name[var]);
		return -1;
	}
	if (period > 1) {
		/* var = period*t + r: every floor term becomes affine in t plus a
		 * floor of the other variables alone */
		char tname[128];
		snprintf(tname, sizeof tname, "%s'", s->name[var]);
		int t = sym_var(s, tname, SYM_LOOP);
		if (t < 0)
			return -1;
		poly_struct *sub[SYM_MAXVARS] = {0};
		poly_t x, tlo, thi, num;
		fmpz_t P;
		poly_init(x, CTX); poly_init(tlo, CTX);
		poly_init(thi, CTX); poly_init(num, CTX);
		fmpz_init_set_si(P, period);
		sym_pw ar, part;
		sym_pw_init(&ar);
		sym_pw_init(&part);
		for (long r = 0; r < period && ret == 0; r++) {
			poly_scalar_mul_si(x, &s->gen[t], period, CTX);
			poly_add_si(x, x, r, CTX);
			sub[var] = x;
			sym_pw_set(s, &ar, a);
			if (sym_pw_compose(s, &ar, sub) < 0) { ret = -1; break; }
			/* lo <= P t + r <= hi: t >= ceil((lo - r)/P) = -floor((r - lo)/P) */
			poly_neg(num, lo, CTX);
			poly_add_si(num, num, r, CTX);
			if (sym_floor(s, tlo, num, P) < 0) { ret = -1; break; }
			poly_neg(tlo, tlo, CTX);
			poly_sub_si(num, hi, r, CTX);
			if (sym_floor(s, thi, num, P) < 0) { ret = -1; break; }
			sym_pw_clear(s, &part);
			if (sym_pw_sum(s, &part, &ar, t, tlo, thi) < 0) { ret = -1; break; }
			sym_pw_add(s, &res, &part);
			if (too_many_terms(s, &res)) { ret = -1; break; }
		}
		sym_pw_clear(s, &ar);
		sym_pw_clear(s, &part);
		poly_clear(x, CTX); poly_clear(tlo, CTX);
		poly_clear(thi, CTX); poly_clear(num, CTX);
		fmpz_clear(P);
	} else {
		for (int i = 0; i < a->n && ret == 0; i++)
			if ((ret = sum_piece(s, &res, &a->p[i], var, lo, hi)) == 0 && too_many_terms(s, &res))
				ret = -1;
	}
	if (ret == 0) {
		sym_pw_clear(s, dst);
		*dst = res;
	} else {
		sym_pw_clear(s, &res);
	}
	return ret;
}

/* ---- substitution ----------------------------------------------------- */

static void pw_used(sym_ctx *s, const sym_pw *w, int *used);

/* OUT = IN with every variable k marked in CHANGED replaced by VEC[k],
 * term by term.  The terms' images are summed as a binary counter sums
 * (part[l] holds the sum of 2^l of them, or nothing), so that each term
 * is merged O(log n) times rather than into an ever longer sum. */
static void compose(sym_ctx *s, poly_struct *out, const poly_struct *in,
		    poly_struct *const *vec, const char *changed)
{
	enum { LEVELS = 64 };
	poly_struct part[LEVELS];
	int npart = 0; /* levels initialised */
	unsigned long full = 0; /* the levels holding a sum */
	poly_t mono, pw;
	poly_init(mono, CTX);
	poly_init(pw, CTX);
	for (slong i = 0; i < poly_length(in, CTX); i++) {
		const poly_mono *m = &in->m[i];
		poly_mono keep = {0};
		for (int j = 0; j < m->n; j++)
			if (!changed[m->v[j]]) {
				keep.v[keep.n] = m->v[j];
				keep.e[keep.n++] = m->e[j];
			}
		poly_set_term(mono, &in->c[i], &keep, CTX);
		for (int j = 0; j < m->n; j++) {
			if (!changed[m->v[j]])
				continue;
			poly_pow_ui(pw, vec[m->v[j]], m->e[j], CTX);
			poly_mul(mono, mono, pw, CTX);
		}
		int l = 0;
		for (; full >> l & 1; l++) {
			poly_add(mono, mono, &part[l], CTX);
			full &= ~(1UL << l);
		}
		if (l == npart)
			poly_init(&part[npart++], CTX);
		poly_swap(&part[l], mono, CTX);
		full |= 1UL << l;
	}
	poly_zero(mono, CTX);
	for (int l = 0; l < npart; l++) {
		if (full >> l & 1)
			poly_add(mono, mono, &part[l], CTX);
		poly_clear(&part[l], CTX);
	}
	poly_swap(out, mono, CTX);
	poly_clear(mono, CTX);
	poly_clear(pw, CTX);
}

/* Whether P uses a variable marked in CHANGED. */
static int uses_any(sym_ctx *s, const poly_t p, const char *changed)
{
	int u[SYM_MAXVARS];
	poly_used_vars(u, p, CTX);
	for (int k = 0; k < s->cap; k++)
		if (u[k] && changed[k])
			return 1;
	return 0;
}

int sym_pw_compose(sym_ctx *s, sym_pw *w, poly_struct *const *sub_in)
{
	poly_struct *vec[SYM_MAXVARS];
	poly_struct own[SYM_MAXVARS];
	char changed[SYM_MAXVARS] = {0}, owned[SYM_MAXVARS] = {0};
	int nv0 = s->nvars, ret = 0;
	for (int k = 0; k < s->cap; k++) {
		vec[k] = (k < nv0 && sub_in[k]) ? sub_in[k] : &s->gen[k];
		changed[k] = k < nv0 && sub_in[k] != NULL;
	}
	/* atoms over substituted variables become new floors (only those W uses) */
	int used[SYM_MAXVARS];
	memset(used, 0, sizeof *used * (size_t)s->cap);
	pw_used(s, w, used);
	for (int k = 0; k < nv0; k++) {
		if (s->kind[k] != SYM_ATOM || changed[k] || !used[k])
			continue;
		int u[SYM_MAXVARS];
		poly_used_vars(u, &s->atom_num[k], CTX);
		int dep = 0;
		for (int j = 0; j < k; j++)
			dep |= u[j] && changed[j];
		if (!dep)
			continue;
		poly_t num;
		poly_init(num, CTX);
		compose(s, num, &s->atom_num[k], vec, changed);
		poly_init(&own[k], CTX);
		owned[k] = 1;
		if (sym_floor(s, &own[k], num, &s->atom_den[k]) < 0)
			ret = -1;
		poly_clear(num, CTX);
		vec[k] = &own[k];
		changed[k] = 1;
	}
	if (ret == 0) {
		sym_pw out;
		sym_pw_init(&out);
		poly_t v, c;
		poly_init(v, CTX);
		poly_init(c, CTX);
		for (int i = 0; i < w->n; i++) {
			sym_guard g;
			guard_init(&g);
			int dead = 0;
			for (int j = 0; j < w->p[i].g.n && !dead; j++) {
				if (uses_any(s, &w->p[i].g.c[j], changed))
					compose(s, c, &w->p[i].g.c[j], vec, changed);
				else
					poly_set(c, &w->p[i].g.c[j], CTX);
				dead = guard_add(s, &g, c) < 0;
			}
			if (!dead) {
				if (uses_any(s, w->p[i].v, changed))
					compose(s, v, &w->p[i].v[0], vec, changed);
				else
					poly_set(v, w->p[i].v, CTX);
				pw_push(s, &out, &g, v);
			}
			sym_guard_clear(s, &g);
			if (too_many_terms(s, &out)) {
				ret = -1;
				break;
			}
		}
		poly_clear(v, CTX);
		poly_clear(c, CTX);
		if (ret == 0) {
			sym_pw_clear(s, w);
			*w = out;
		} else {
			sym_pw_clear(s, &out);
		}
	}
	for (int k = 0; k < nv0; k++)
		if (owned[k])
			poly_clear(&own[k], CTX);
	return ret;
}

/* ---- min and max ------------------------------------------------------ */

int sym_pw_minmax(sym_ctx *s, sym_pw *lo, sym_pw *hi, const sym_pw *a, const sym_pw *b)
{
	sym_pw d, la, lb;
	sym_pw_init(&d); sym_pw_init(&la); sym_pw_init(&lb);
	fmpq_t m1;
	fmpq_init(m1);
	fmpq_set_si(m1, -1, 1);
	sym_pw_set(s, &d, a);
	sym_pw_addmul_fmpq(s, &d, b, m1);
	int exact = 1;
	const sym_pw *small = NULL, *large = NULL;
	if (d.n == 0 || sym_pw_is_zero(b)) {
		small = b; large = a; /* counts are never negative */
	} else if (sym_pw_is_zero(a)) {
		small = a; large = b;
	} else if (d.n == 1 && d.p[0].g.n == 0 && poly_is_fmpq(d.p[0].v, CTX)) {
		fmpq_t k;
		fmpq_init(k);
		poly_get_fmpq(k, d.p[0].v, CTX);
		if (fmpq_sgn(k) <= 0) { small = a; large = b; }
		else { small = b; large = a; }
		fmpq_clear(k);
	}
	if (small) {
		sym_pw_set(s, &la, small);
		sym_pw_set(s, &lb, large);
	} else if (d.n == 1 && d.p[0].g.n == 0 && poly_total_degree_si(d.p[0].v, CTX) <= 1) {
		/* a - b affine: split on its sign */
		poly_t c;
		poly_init(c, CTX);
		sym_pw t;
		sym_pw_init(&t);
		poly_neg(c, d.p[0].v, CTX); /* a <= b */
		sym_pw_set(s, &t, a); sym_pw_restrict(s, &t, c); sym_pw_add(s, &la, &t);
		sym_pw_set(s, &t, b); sym_pw_restrict(s, &t, c); sym_pw_add(s, &lb, &t);
		poly_neg(c, c, CTX);
		poly_sub_ui(c, c, 1, CTX); /* a > b */
		sym_pw_set(s, &t, b); sym_pw_restrict(s, &t, c); sym_pw_add(s, &la, &t);
		sym_pw_set(s, &t, a); sym_pw_restrict(s, &t, c); sym_pw_add(s, &lb, &t);
		sym_pw_clear(s, &t);
		poly_clear(c, CTX);
	} else {
		exact = 0;
		sym_pw_set(s, &lb, a);
		sym_pw_add(s, &lb, b);
	}
	sym_pw_clear(s, lo);
	sym_pw_clear(s, hi);
	*lo = la;
	*hi = lb;
	sym_pw_clear(s, &d);
	fmpq_clear(m1);
	return exact;
}

/* ---- evaluation ------------------------------------------------------- */

/* sym_poly_eval() in 128-bit integers, over the common denominator of P's
 * coefficients, while they, the values and every partial result fit (the
 * usual case: counts have small coefficients, and are evaluated at
 * integers).  Returns 0 when it did, -1 (OUT unchanged) when it cannot. */
static int poly_eval_small(fmpq_t out, const poly_t p, fmpq *const *vals)
{
	long den;
	if (small_den(p, &den) < 0)
		return -1;
	__int128 sum = 0;
	for (slong i = 0; i < p->n; i++) {
		const fmpq *c = &p->c[i];
		__int128 t = (__int128)*fmpq_numref(c) * (den / *fmpq_denref(c));
		const poly_mono *m = &p->m[i];
		for (int j = 0; j < m->n; j++) {
			const fmpq *v = vals[m->v[j]];
			if (COEFF_IS_MPZ(*fmpq_numref(v)) || *fmpq_denref(v) != 1)
				return -1;
			for (unsigned e = 0; e < m->e[j]; e++)
				if (__builtin_mul_overflow(t, (__int128)*fmpq_numref(v), &t))
					return -1;
		}
		if (__builtin_add_overflow(sum, t, &sum))
			return -1;
	}
	if (sum > COEFF_MAX || sum < -COEFF_MAX)
		return -1;
	if (den == 1) {
		fmpz_set_si(fmpq_numref(out), (slong)sum);
		fmpz_one(fmpq_denref(out));
	} else {
		fmpq_set_si(out, (slong)sum, (ulong)den);
	}
	return 0;
}

/* OUT = P at the point VALS, term by term. */
void sym_poly_eval(sym_ctx *s, fmpq_t out, const poly_t p, fmpq *const *vals)
{
	if (poly_eval_small(out, p, vals) == 0)
		return;
	fmpq_t t, x;
	fmpq_init(t);
	fmpq_init(x);
	int var[SYM_MAXVARS];
	ulong e[SYM_MAXVARS];
	fmpq_zero(out);
	for (slong i = 0; i < poly_length(p, CTX); i++) {
		poly_get_term_coeff_fmpq(t, p, i, CTX);
		int n = term_exps(s, p, i, var, e);
		for (int j = 0; j < n; j++) {
			if (e[j] == 1) {
				fmpq_mul(t, t, vals[var[j]]);
			} else {
				fmpq_pow_si(x, vals[var[j]], (slong)e[j]);
				fmpq_mul(t, t, x);
			}
		}
		fmpq_add(out, out, t);
	}
	fmpq_clear(t);
	fmpq_clear(x);
}

void sym_env_init(sym_env *e)
{
	for (int k = 0; k < SYM_MAXVARS; k++)
		fmpq_init(&e->val[k]);
	memset(e->bound, 0, sizeof e->bound);
}

void sym_env_clear(sym_env *e)
{
	for (int k = 0; k < SYM_MAXVARS; k++)
		fmpq_clear(&e->val[k]);
}

static void pw_used(sym_ctx *s, const sym_pw *w, int *used)
{
	for (int i = 0; i < w->n; i++) {
		sym_used_closure(s, w->p[i].v, used);
		for (int j = 0; j < w->p[i].g.n; j++)
			sym_used_closure(s, &w->p[i].g.c[j], used);
	}
}

void sym_pw_symbols(sym_ctx *s, const sym_pw *w, int *used)
{
	pw_used(s, w, used);
}

void sym_pw_params(sym_ctx *s, const sym_pw *w, int *used)
{
	int u[SYM_MAXVARS];
	memset(u, 0, sizeof *u * (size_t)s->cap);
	pw_used(s, w, u);
	for (int k = 0; k < s->nvars; k++)
		if (u[k] && s->kind[k] != SYM_ATOM)
			used[k] = 1;
}

/* The values of W's symbols into VALS (initialised up to s->nvars):
 * parameters from E, or when GENERIC a generic point (every parameter
 * large, and distinct), atoms computed from them.  Returns 0, or -1 with
 * *MISSING a parameter E does not bind. */
int sym_env_fill(sym_ctx *s, const sym_pw *w, const sym_env *e, int generic, fmpq *vals, int *missing,
		 int *unbound)
{
	int ret = 0;
	int used[SYM_MAXVARS];
	memset(used, 0, sizeof *used * (size_t)s->cap);
	pw_used(s, w, used);
	fmpq *ptr[SYM_MAXVARS];
	for (int k = 0; k < s->cap; k++)
		ptr[k] = &vals[k];
	for (int k = 0; k < s->nvars; k++) {
		if (!used[k])
			continue;
		if (s->kind[k] == SYM_ATOM) {
			fmpq_t q;
			fmpq_init(q);
			sym_poly_eval(s, q, &s->atom_num[k], ptr);
			fmpz_mul(fmpq_denref(q), fmpq_denref(q), &s->atom_den[k]);
			fmpz_fdiv_q(fmpq_numref(&vals[k]), fmpq_numref(q), fmpq_denref(q));
			fmpz_one(fmpq_denref(&vals[k]));
			fmpq_clear(q);
		} else if (generic) {
			fmpq_set_si(&vals[k], (1L << 30) + (generic == 2 ? -1 : 1) * ((long)k << 20), 1);
		} else if (e && e->bound[k]) {
			fmpq_set(&vals[k], &e->val[k]);
		} else {
			if (ret == 0)
				*missing = k;
			ret = -1;
			if (!unbound)
				return -1;
			unbound[k] = 1;
		}
	}
	return ret;
}

int sym_guard_holds(sym_ctx *s, const sym_guard *g, fmpq *const *ptr)
{
	fmpq_t q;
	fmpq_init(q);
	int ok = 1;
	for (int j = 0; j < g->n && ok; j++) {
		sym_poly_eval(s, q, &g->c[j], ptr);
		ok = fmpq_sgn(q) >= 0;
	}
	fmpq_clear(q);
	return ok;
}

int sym_pw_eval(sym_ctx *s, const sym_pw *w, const sym_env *e, fmpq_t out, int *missing)
{
	return sym_pw_eval_unbound(s, w, e, out, missing, NULL);
}

int sym_pw_eval_unbound(sym_ctx *s, const sym_pw *w, const sym_env *e, fmpq_t out, int *missing, int *unbound)
{
	fmpq vals[SYM_MAXVARS];
	fmpq *ptr[SYM_MAXVARS];
	for (int k = 0; k < s->nvars; k++) {
		fmpq_init(&vals[k]);
		ptr[k] = &vals[k];
	}
	int ret = sym_env_fill(s, w, e, 0, vals, missing, unbound);
	fmpq_zero(out);
	if (ret == 0) {
		fmpq_t q;
		fmpq_init(q);
		for (int i = 0; i < w->n; i++) {
			if (!sym_guard_holds(s, &w->p[i].g, ptr))
				continue;
			sym_poly_eval(s, q, w->p[i].v, ptr);
			fmpq_add(out, out, q);
		}
		fmpq_clear(q);
	}
	for (int k = 0; k < s->nvars; k++)
		fmpq_clear(&vals[k]);
	return ret;
}

/* ---- hashes ----------------------------------------------------------- */

/* A cheap fingerprint of W's shape, to find it among cached formats. */
unsigned long sym_pw_hash(sym_ctx *s, const sym_pw *w)
{
	unsigned long h = (unsigned long)w->n;
	for (int i = 0; i < w->n; i++)
		h += (w->p[i].g.h * 0x9E3779B97F4A7C15UL) ^ cons_hash(s, w->p[i].v);
	return h;
}

unsigned long sym_pw_shape_hash(sym_ctx *s, const sym_pw *w)
{
	unsigned long h = (unsigned long)w->n;
	for (int i = 0; i < w->n; i++) {
		const poly_struct *v = w->p[i].v;
		unsigned long t = (unsigned long)v->n;
		for (slong j = 0; j < v->n; j++)
			t = t * 31 + term_exp_hash(s, v, j);
		h += (w->p[i].g.h * 0x9E3779B97F4A7C15UL) ^ (t * 0xBF58476D1CE4E5B9UL);
	}
	return h;
}
