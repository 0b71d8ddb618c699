/* sym: piecewise polynomial counts, summation over affine ranges, and the
 * Fourier-Motzkin feasibility test that prunes impossible pieces.  See sym.h. */
#define _GNU_SOURCE /* qsort_r */
#include "predict/sym.h"

#include <flint/arith.h>
#include <flint/fmpz_poly_factor.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CTX (s->ctx)

static void seterr(sym_ctx *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof s->err, fmt, ap);
	va_end(ap);
}

/* Forgets the cached formats (their polynomials die with a context). */
static void fmt_reset(sym_ctx *s)
{
	for (int i = 0; i < s->nfmt; i++) {
		sym_pw_clear(s, &s->fmt[i].w);
		poly_clear(s->fmt[i].sum, CTX);
		free(s->fmt[i].cond);
		free(s->fmt[i].formula);
	}
	s->nfmt = 0;
	if (s->fmtidx)
		memset(s->fmtidx, 0, (s->fmtmask + 1) * sizeof *s->fmtidx);
}

int sym_init(sym_ctx *s)
{
	memset(s, 0, sizeof *s);
	s->cap = SYM_INITVARS;
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
	fmt_reset(s);
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
	fmt_reset(v);
	free(v->fmt);
	free(v->fmtidx);
}

static void used_closure(sym_ctx *s, const poly_t p, int *used);
static void pw_used(sym_ctx *s, const sym_pw *w, int *used);

/* A free symbol slot (a reclaimed one first); -1 with s->err when full. */
static int new_slot(sym_ctx *s)
{
	for (int k = 0; k < s->nvars; k++)
		if (s->kind[k] == SYM_FREE)
			return k;
	if (s->nvars == s->cap) {
		seterr(s, "more than %d symbols in use at once: parameters, loop variables and "
			  "floor terms of strided bounds", s->cap);
		s->full = 1;
		return -1;
	}
	return s->nvars++;
}

int sym_var(sym_ctx *s, const char *name, enum sym_kind kind)
{
	for (int k = 0; k < s->nvars; k++)
		if (s->kind[k] != SYM_ATOM && s->kind[k] != SYM_FREE && strcmp(s->name[k], name) == 0) {
			if (kind == SYM_PARAM)
				s->kind[k] = SYM_PARAM;
			return k;
		}
	int k = new_slot(s);
	if (k < 0)
		return -1;
	s->name[k] = strdup(name);
	s->kind[k] = kind;
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

void sym_collect(sym_ctx *s, const int *used_in)
{
	int used[SYM_MAXVARS];
	memcpy(used, used_in, sizeof used);
	for (int k = s->nvars - 1; k >= 0; k--)
		if (used[k] && s->kind[k] == SYM_ATOM)
			used_closure(s, &s->atom_num[k], used);
	fmt_reset(s);
	for (int k = 0; k < s->nvars; k++) {
		if (used[k] || s->kind[k] == SYM_PARAM || s->kind[k] == SYM_FREE)
			continue;
		free(s->name[k]);
		s->name[k] = NULL;
		poly_zero(&s->atom_num[k], CTX);
		s->kind[k] = SYM_FREE;
	}
}

/* The variables of term T of P with nonzero exponents, in increasing order,
 * into VAR and EXP; returns how many. */
static int term_exps(const sym_ctx *s, const poly_t p, slong t, int *var, ulong *exp)
{
	(void)s;
	const poly_mono *m = &p->m[t];
	for (int j = 0; j < m->n; j++) {
		var[j] = m->v[j];
		exp[j] = m->e[j];
	}
	return m->n;
}

/* Marks in USED the variables that P mentions (without clearing the rest). */
static void poly_vars(const sym_ctx *s, const poly_t p, int *used)
{
	int var[SYM_MAXVARS];
	ulong exp[SYM_MAXVARS];
	for (slong i = 0; i < poly_length(p, CTX); i++) {
		int n = term_exps(s, p, i, var, exp);
		for (int j = 0; j < n; j++)
			used[var[j]] = 1;
	}
}

/* Which terms terms_str() writes. */
enum terms {
	TERMS_ALL,
	TERMS_POS,      /* those with a variable and a positive coefficient */
	TERMS_REST_NEG, /* the others, negated */
	TERMS_VARS_NEG, /* those with a variable, negated */
	TERMS_CONST     /* the constant term */
};

/* A growing string, NUL-terminated: formulas are built without printf. */
typedef struct sbuf {
	char *s;
	size_t len, cap;
} sbuf;

static void sb_putn(sbuf *b, const char *t, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = 2 * (b->len + n + 1) + 32;
		b->s = realloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, t, n);
	b->len += n;
	b->s[b->len] = 0;
}

static void sb_puts(sbuf *b, const char *t) { sb_putn(b, t, strlen(t)); }

static void sb_putu(sbuf *b, ulong v)
{
	char t[24];
	int i = (int)sizeof t;
	do
		t[--i] = (char)('0' + v % 10);
	while (v /= 10);
	sb_putn(b, t + i, sizeof t - (size_t)i);
}

/* |Z| in decimal. */
static void sb_put_fmpz_abs(sbuf *b, const fmpz_t z)
{
	if (!COEFF_IS_MPZ(*z)) {
		slong v = *z;
		sb_putu(b, v < 0 ? -(ulong)v : (ulong)v);
		return;
	}
	char *t = fmpz_get_str(NULL, 10, z);
	sb_puts(b, t[0] == '-' ? t + 1 : t);
	flint_free(t);
}

/* |Q| as "p" or "p/q". */
static void sb_put_fmpq_abs(sbuf *b, const fmpq_t q)
{
	sb_put_fmpz_abs(b, fmpq_numref(q));
	if (!fmpz_is_one(fmpq_denref(q))) {
		sb_putn(b, "/", 1);
		sb_put_fmpz_abs(b, fmpq_denref(q));
	}
}

/* Appends some of P's terms as text, in P's order ("0" when none). */
static void terms_put(sbuf *b, sym_ctx *s, const poly_t p, enum terms which)
{
	int out = 0;
	for (slong i = 0; i < p->n; i++) {
		const fmpq *c = &p->c[i];
		const poly_mono *m = &p->m[i];
		int nv = m->n, sgn = fmpq_sgn(c);
		int pos = nv > 0 && sgn > 0;
		if ((which == TERMS_POS && !pos) || (which == TERMS_REST_NEG && pos) ||
		    (which == TERMS_VARS_NEG && nv == 0) || (which == TERMS_CONST && nv > 0))
			continue;
		if (which == TERMS_REST_NEG || which == TERMS_VARS_NEG)
			sgn = -sgn;
		if (out++ == 0) {
			if (sgn < 0)
				sb_putn(b, "-", 1);
		} else {
			sb_puts(b, sgn < 0 ? " - " : " + ");
		}
		int first = 1;
		if (nv == 0 || !(fmpz_is_pm1(fmpq_numref(c)) && fmpz_is_one(fmpq_denref(c)))) {
			sb_put_fmpq_abs(b, c);
			first = 0;
		}
		for (int j = 0; j < nv; j++) {
			int k = m->v[j];
			if (!first)
				sb_putn(b, "*", 1);
			sb_puts(b, k < s->nvars ? s->name[k] : "?");
			if (m->e[j] > 1) {
				sb_putn(b, "^", 1);
				sb_putu(b, m->e[j]);
			}
			first = 0;
		}
	}
	if (out == 0)
		sb_putn(b, "0", 1);
}

/* Some of P's terms as text (malloc'd). */
static char *terms_str(sym_ctx *s, const poly_t p, enum terms which)
{
	sbuf b = {0};
	terms_put(&b, s, p, which);
	return b.s;
}

char *sym_poly_str(sym_ctx *s, const poly_t p) { return terms_str(s, p, TERMS_ALL); }

/* The constant term of P: its last term in the monomial order, if that
 * has no variable. */
static void const_term(sym_ctx *s, fmpq_t c, const poly_t p)
{
	(void)s;
	if (p->n && p->m[p->n - 1].n == 0)
		fmpq_set(c, &p->c[p->n - 1]);
	else
		fmpq_zero(c);
}

/* The atom floor(num/den) (num normalised as sym_floor leaves it), found or
 * made; -1 when the table is full. */
static int atom_of(sym_ctx *s, const poly_t num, const fmpz_t den)
{
	for (int k = 0; k < s->nvars; k++)
		if (s->kind[k] == SYM_ATOM && fmpz_equal(&s->atom_den[k], den) && poly_equal(&s->atom_num[k], num, CTX))
			return k;
	int k = new_slot(s);
	if (k < 0)
		return -1;
	char *ns = sym_poly_str(s, num);
	char *ds = fmpz_get_str(NULL, 10, den);
	size_t len = strlen(ns) + strlen(ds) + 16;
	s->name[k] = malloc(len);
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

static void guard_init(sym_guard *g) { memset(g, 0, sizeof *g); }

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

static void guard_clear(sym_ctx *s, sym_guard *g)
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
static void guard_own(sym_ctx *s, sym_guard *g)
{
	if (!g->rc)
		return;
	if (atomic_load_explicit(g->rc, memory_order_acquire) == 1) {
		free(g->rc); /* the last sharer: no other can copy it now */
		g->rc = NULL;
		return;
	}
	poly_struct *c = malloc((g->n ? g->n : 1) * sizeof *c);
	for (int i = 0; i < g->n; i++) {
		poly_init(&c[i], CTX);
		poly_set(&c[i], &g->c[i], CTX);
	}
	sym_guard shared = *g;
	guard_clear(s, &shared); /* frees them if the others let go meanwhile */
	g->c = c;
	g->cap = g->n ? g->n : 1;
	g->rc = NULL;
}

/* Inserts the normalized, non-constant constraint C (taking ownership). */
static void guard_insert(sym_ctx *s, sym_guard *g, poly_t c)
{
	guard_own(s, g);
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
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 4;
		g->c = realloc(g->c, g->cap * sizeof *g->c);
	}
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
static void guard_from(sym_ctx *s, sym_guard *g, const poly_struct **c, int n)
{
	g->c = malloc((n + 1) * sizeof *g->c);
	g->cap = n + 1;
	for (int i = 0; i < n; i++) {
		poly_init(&g->c[i], CTX);
		poly_set(&g->c[i], c[i], CTX);
	}
	g->n = n;
	guard_seal(s, g);
}

/* Makes DST a copy of SRC that shares its constraints until either changes
 * them (guard_own). SRC is const to its users: only its share count moves. */
static void guard_copy(sym_ctx *s, sym_guard *dst, const sym_guard *src)
{
	guard_init(dst);
	if (src->n == 0)
		return;
	sym_guard *from = (sym_guard *)src;
	if (!from->rc) { /* C is SRC's own, and so in no other thread's hands */
		from->rc = malloc(sizeof *from->rc);
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

/* ---- Fourier-Motzkin -------------------------------------------------- */

#define FM_MAXROWS 400

typedef struct fm_sys {
	int nv;        /* columns 0..nv-1 variables, nv = constant */
	int n, cap;
	fmpz **row;
} fm_sys;

static void fm_push(fm_sys *m, fmpz *r)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 16;
		m->row = realloc(m->row, m->cap * sizeof *m->row);
	}
	m->row[m->n++] = r;
}

/* Marks in USED the variables of P's terms up to its first nonlinear one:
 * those whose columns fm_add_poly() fills. */
static void fm_mark(sym_ctx *s, const poly_t p, int *used)
{
	int var[SYM_MAXVARS];
	ulong e[SYM_MAXVARS];
	for (slong i = 0; i < poly_length(p, CTX); i++) {
		int nv = term_exps(s, p, i, var, e), deg = 0;
		for (int j = 0; j < nv; j++) {
			used[var[j]] = 1;
			deg += (int)e[j];
		}
		if (deg > 1)
			return;
	}
}

/* Adds the affine constraint P >= 0 as a row, variable k in column COL[k]
 * (every variable of P has one); nonlinear ones are skipped (treating them
 * as true keeps the test sound). */
static void fm_add_poly(sym_ctx *s, fm_sys *m, const poly_t p, const int *col)
{
	fmpz *r = _fmpz_vec_init(m->nv + 1);
	fmpz_t d;
	fmpz_init(d);
	poly_get_denominator(d, p, CTX);
	fmpq_t c;
	fmpq_init(c);
	int var[SYM_MAXVARS];
	ulong e[SYM_MAXVARS];
	int linear = 1;
	for (slong i = 0; i < poly_length(p, CTX) && linear; i++) {
		int nv = term_exps(s, p, i, var, e);
		int at = m->nv, deg = 0;
		for (int j = 0; j < nv; j++) {
			at = col[var[j]];
			deg += (int)e[j];
		}
		if (deg > 1) {
			linear = 0;
			break;
		}
		poly_get_term_coeff_fmpq(c, p, i, CTX);
		/* the coefficient times the common denominator, an integer */
		fmpz_divexact(fmpq_denref(c), d, fmpq_denref(c));
		fmpz_mul(&r[at], fmpq_numref(c), fmpq_denref(c));
	}
	if (linear)
		fm_push(m, r);
	else
		_fmpz_vec_clear(r, m->nv + 1);
	fmpq_clear(c);
	fmpz_clear(d);
}

/* Divides the variable part by its gcd, flooring the constant. */
static void fm_tighten(fmpz *r, int nv)
{
	fmpz_t g;
	fmpz_init(g);
	_fmpz_vec_content(g, r, nv);
	if (!fmpz_is_zero(g) && !fmpz_is_one(g)) {
		for (int v = 0; v < nv; v++)
			fmpz_divexact(&r[v], &r[v], g);
		fmpz_fdiv_q(&r[nv], &r[nv], g);
	}
	fmpz_clear(g);
}

/* Drops the columns no row uses: the system holds a column for every symbol
 * of the table, while a condition names two or three. */
static void fm_compress(fm_sys *m)
{
	int nv = m->nv, keep = 0;
	int *col = malloc((nv + 1) * sizeof *col);
	for (int v = 0; v < nv; v++) {
		int any = 0;
		for (int i = 0; i < m->n && !any; i++)
			any = !fmpz_is_zero(&m->row[i][v]);
		col[v] = any ? keep++ : -1;
	}
	if (keep < nv) {
		for (int i = 0; i < m->n; i++) {
			fmpz *r = _fmpz_vec_init(keep + 1);
			for (int v = 0; v < nv; v++)
				if (col[v] >= 0)
					fmpz_swap(&r[col[v]], &m->row[i][v]);
			fmpz_swap(&r[keep], &m->row[i][nv]);
			_fmpz_vec_clear(m->row[i], nv + 1);
			m->row[i] = r;
		}
		m->nv = keep;
	}
	free(col);
}

/* The column to eliminate: the one of the fewest new rows among those some
 * row uses (POS, NEG: how many rows have it positive, negative), or -1. */
static int fm_pick(const long *pos, const long *neg, int nv)
{
	int best = -1;
	long bestcost = 0;
	for (int v = 0; v < nv; v++) {
		if (pos[v] + neg[v] == 0)
			continue;
		long cost = pos[v] * neg[v] - pos[v] - neg[v];
		if (best < 0 || cost < bestcost) {
			best = v;
			bestcost = cost;
		}
	}
	return best;
}

static int fm_solve(fm_sys *m)
{
	fm_compress(m);
	int nv = m->nv;
	for (;;) {
		/* drop constant rows; a negative one proves infeasibility */
		int w = 0;
		for (int i = 0; i < m->n; i++) {
			if (_fmpz_vec_is_zero(m->row[i], nv)) {
				int neg = fmpz_sgn(&m->row[i][nv]) < 0;
				_fmpz_vec_clear(m->row[i], nv + 1);
				if (neg) {
					for (int j = i + 1; j < m->n; j++)
						m->row[w++] = m->row[j];
					m->n = w;
					return 0;
				}
				continue;
			}
			m->row[w++] = m->row[i];
		}
		m->n = w;
		long pos[SYM_MAXVARS] = {0}, neg[SYM_MAXVARS] = {0};
		for (int v = 0; v < nv; v++)
			for (int i = 0; i < m->n; i++) {
				int sg = fmpz_sgn(&m->row[i][v]);
				pos[v] += sg > 0;
				neg[v] += sg < 0;
			}
		int v = fm_pick(pos, neg, nv);
		if (v < 0)
			return 1;
		fm_sys nm = {.nv = nv};
		for (int i = 0; i < m->n; i++) {
			if (fmpz_is_zero(&m->row[i][v])) {
				fmpz *r = _fmpz_vec_init(nv + 1);
				_fmpz_vec_set(r, m->row[i], nv + 1);
				fm_push(&nm, r);
			}
		}
		fmpz_t a, b;
		fmpz_init(a); fmpz_init(b);
		for (int i = 0; i < m->n && nm.n <= FM_MAXROWS; i++) {
			if (fmpz_sgn(&m->row[i][v]) <= 0)
				continue;
			for (int j = 0; j < m->n; j++) {
				if (fmpz_sgn(&m->row[j][v]) >= 0)
					continue;
				fmpz *r = _fmpz_vec_init(nv + 1);
				fmpz_neg(a, &m->row[j][v]);
				fmpz_set(b, &m->row[i][v]);
				_fmpz_vec_scalar_mul_fmpz(r, m->row[i], nv + 1, a);
				_fmpz_vec_scalar_addmul_fmpz(r, m->row[j], nv + 1, b);
				fm_tighten(r, nv);
				fm_push(&nm, r);
			}
		}
		fmpz_clear(a); fmpz_clear(b);
		for (int i = 0; i < m->n; i++)
			_fmpz_vec_clear(m->row[i], nv + 1);
		free(m->row);
		*m = nm;
		if (m->n > FM_MAXROWS)
			return 1; /* too large to decide: assume feasible */
	}
}

/* Marks the variables P uses, and those the atoms among them use. */
static void used_closure(sym_ctx *s, const poly_t p, int *used)
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
				used_closure(s, &s->atom_num[k], used);
		}
	}
}

/* Sets *DEN to the least common denominator of P's coefficients, when
 * they are small and it is (at most COEFF_MAX); else returns -1. */
static int small_den(const poly_t p, long *den)
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

/* The same elimination in machine integers, for the small systems of
 * almost every test: at most FMS_ROWS rows of FMS_COLS - 1 variables and
 * coefficients that stay below 2^62.  Each step is the one fm_solve()
 * takes (the same column, rows in the same order, the same tightening), so
 * the answer is the same; where a system outgrows it the caller falls back
 * to fm_solve(). */
#define FMS_ROWS 48
#define FMS_COLS 13
#define FMS_MAX ((long)1 << 62)
/* below fm_solve()'s cut-off, so that it never applies here */
_Static_assert(FMS_ROWS <= FM_MAXROWS, "FMS_ROWS within FM_MAXROWS");

typedef struct fms {
	int n, nv;
	long r[FMS_ROWS][FMS_COLS];
} fms;

/* Adds the affine P >= 0 as fm_add_poly() does; -1 when it does not fit. */
static int fms_add(sym_ctx *s, fms *m, const poly_t p, const int *col)
{
	for (slong i = 0; i < p->n; i++) {
		int deg = 0;
		for (int j = 0; j < p->m[i].n; j++)
			deg += p->m[i].e[j];
		if (deg > 1)
			return 0; /* nonlinear: skipped, as fm_add_poly() does */
	}
	long den;
	if (small_den(p, &den) < 0 || m->n == FMS_ROWS)
		return -1;
	long *r = m->r[m->n];
	memset(r, 0, sizeof m->r[0]);
	for (slong i = 0; i < p->n; i++) {
		const fmpq *q = &p->c[i];
		int at = p->m[i].n ? col[p->m[i].v[0]] : m->nv;
		if (__builtin_mul_overflow(*fmpq_numref(q), den / *fmpq_denref(q), &r[at]) || r[at] >= FMS_MAX ||
		    r[at] <= -FMS_MAX)
			return -1;
	}
	m->n++;
	return 0;
}

/* fm_solve() on M[0] (M[1] its scratch): 1 feasible, 0 not, -1 when it
 * outgrows FMS_ROWS. */
static int fms_solve(fms m2[2])
{
	fms *m = &m2[0], *nm = &m2[1];
	int nv = m->nv;
	for (;;) {
		int w = 0;
		for (int i = 0; i < m->n; i++) {
			int zero = 1;
			for (int v = 0; v < nv && zero; v++)
				zero = m->r[i][v] == 0;
			if (zero) {
				if (m->r[i][nv] < 0)
					return 0;
				continue;
			}
			if (w != i)
				memcpy(m->r[w], m->r[i], sizeof m->r[0]);
			w++;
		}
		m->n = w;
		long pos[FMS_COLS] = {0}, neg[FMS_COLS] = {0};
		for (int v = 0; v < nv; v++)
			for (int i = 0; i < m->n; i++) {
				pos[v] += m->r[i][v] > 0;
				neg[v] += m->r[i][v] < 0;
			}
		int v = fm_pick(pos, neg, nv);
		if (v < 0)
			return 1;
		nm->n = 0;
		nm->nv = nv;
		for (int i = 0; i < m->n; i++)
			if (m->r[i][v] == 0) {
				memcpy(nm->r[nm->n], m->r[i], sizeof m->r[0]);
				nm->n++;
			}
		for (int i = 0; i < m->n; i++) {
			if (m->r[i][v] <= 0)
				continue;
			for (int j = 0; j < m->n; j++) {
				if (m->r[j][v] >= 0)
					continue;
				if (nm->n == FMS_ROWS)
					return -1;
				long *r = nm->r[nm->n++], a = -m->r[j][v], b = m->r[i][v];
				for (int k = 0; k <= nv; k++) {
					__int128 x = (__int128)m->r[i][k] * a + (__int128)m->r[j][k] * b;
					if (x >= FMS_MAX || x <= -FMS_MAX)
						return -1;
					r[k] = (long)x;
				}
				long g = 0; /* fm_tighten() */
				for (int k = 0; k < nv; k++)
					g = (long)n_gcd((ulong)g, (ulong)labs(r[k]));
				if (g > 1) {
					for (int k = 0; k < nv; k++)
						r[k] /= g;
					long q = r[nv] / g;
					if (r[nv] % g != 0 && r[nv] < 0)
						q--;
					r[nv] = q;
				}
			}
		}
		fms *t = m;
		m = nm;
		nm = t;
	}
}

/* sym_feasible(), in machine integers where the system fits when SMALL */
static int feasible(sym_ctx *s, const poly_struct *c, int n, int small)
{
	/* one non-constant linear constraint without floor terms always has
	 * integer solutions (guards never hold constant ones) */
	if (n == 0)
		return 1;
	if (n == 1 && poly_total_degree_si(&c[0], CTX) == 1) {
		int u[SYM_MAXVARS], atoms = 0;
		memset(u, 0, sizeof *u * (size_t)s->cap);
		poly_vars(s, &c[0], u);
		for (int k = 0; k < s->nvars; k++)
			atoms |= u[k] && s->kind[k] == SYM_ATOM;
		if (!atoms)
			return 1;
	}
	int used[SYM_MAXVARS], col[SYM_MAXVARS];
	memset(used, 0, sizeof *used * (size_t)s->cap);
	for (int i = 0; i < n; i++)
		fm_mark(s, &c[i], used);
	/* atoms inside the atoms used */
	for (int k = s->nvars - 1; k >= 0; k--)
		if (used[k] && s->kind[k] == SYM_ATOM)
			used_closure(s, &s->atom_num[k], used);
	/* a column for each symbol used, not for each of the table */
	int nv = 0, natoms = 0;
	for (int k = 0; k < s->nvars; k++) {
		col[k] = used[k] ? nv++ : -1;
		natoms += used[k] && s->kind[k] == SYM_ATOM;
	}
	/* an atom q = floor(num/den) satisfies num - den*q >= 0 and den*q - num + den - 1 >= 0 */
	poly_struct *at = malloc((2 * natoms + 1) * sizeof *at);
	natoms = 0;
	for (int k = 0; k < s->nvars; k++) {
		if (!used[k] || s->kind[k] != SYM_ATOM)
			continue;
		poly_struct *t = &at[natoms];
		poly_init(t, CTX);
		poly_scalar_mul_fmpz(t, &s->gen[k], &s->atom_den[k], CTX);
		poly_sub(t, &s->atom_num[k], t, CTX);
		poly_init(t + 1, CTX);
		poly_neg(t + 1, t, CTX);
		poly_add_fmpz(t + 1, t + 1, &s->atom_den[k], CTX);
		poly_sub_ui(t + 1, t + 1, 1, CTX);
		natoms += 2;
	}
	int r = -1;
	if (small && nv < FMS_COLS) {
		fms sm[2];
		sm[0].n = 0;
		sm[0].nv = nv;
		int fit = 0;
		for (int i = 0; i < n && fit == 0; i++)
			fit = fms_add(s, &sm[0], &c[i], col);
		for (int i = 0; i < natoms && fit == 0; i++)
			fit = fms_add(s, &sm[0], &at[i], col);
		if (fit == 0)
			r = fms_solve(sm);
	}
	if (r < 0) {
		fm_sys m = {.nv = nv};
		for (int i = 0; i < n; i++)
			fm_add_poly(s, &m, &c[i], col);
		for (int i = 0; i < natoms; i++)
			fm_add_poly(s, &m, &at[i], col);
		r = fm_solve(&m);
		for (int i = 0; i < m.n; i++)
			_fmpz_vec_clear(m.row[i], m.nv + 1);
		free(m.row);
	}
	for (int i = 0; i < natoms; i++)
		poly_clear(&at[i], CTX);
	free(at);
	return r;
}

int sym_feasible(sym_ctx *s, const poly_struct *c, int n) { return feasible(s, c, n, 1); }

int sym_feasible_flint(sym_ctx *s, const poly_struct *c, int n) { return feasible(s, c, n, 0); }

static void guard_drop(sym_ctx *s, sym_guard *g, int i)
{
	guard_own(s, g);
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
	guard_own(s, g);
	if (g->n < 2)
		return;
	int n = g->n;
	linpart *lp = malloc(n * sizeof *lp);
	poly_struct *lins = malloc(n * sizeof *lins);
	fmpq *k = malloc(n * sizeof *k);
	char *drop = calloc(n, 1);
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
static void guard_reduce(sym_ctx *s, sym_guard *g)
{
	guard_own(s, g);
	/* cheap first: of two parallel constraints the looser is implied */
	drop_parallel(s, g);
	if (g->n <= 1)
		return;
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
}

/* ---- piecewise -------------------------------------------------------- */

void sym_pw_init(sym_pw *w) { memset(w, 0, sizeof *w); }

void sym_pw_clear(sym_ctx *s, sym_pw *w)
{
	for (int i = 0; i < w->n; i++) {
		guard_clear(s, &w->p[i].g);
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
	x->slot = calloc(size, sizeof *x->slot);
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
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 4;
		w->p = realloc(w->p, w->cap * sizeof *w->p);
	}
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
				guard_clear(s, &w->p[i].g);
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
		out->p = malloc(in->n * sizeof *out->p);
	out->cap = in->n;
	for (int i = 0; i < in->n && ret == 0; i++) {
		const sym_guard *g = &in->p[i].g;
		sym_piece *p = &out->p[out->n++];
		guard_init(&p->g);
		poly_init(p->v, CTX);
		p->g.c = malloc((g->n + 1) * sizeof *p->g.c);
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
		m->key = calloc(size, sizeof *m->key);
		m->h = malloc(size * sizeof *m->h);
		m->len = malloc(size * sizeof *m->len);
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
			guard_clear(s, &w->p[i].g);
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
			guard_reduce(s, &g);
			pw_push(s, &out, &g, w->p[i].v);
		}
		guard_clear(s, &g);
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
		s->faul = realloc(s->faul, (j + 1) * sizeof *s->faul);
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
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 4;
		b->b = realloc(b->b, b->cap * sizeof *b->b);
	}
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
				guard_reduce(s, &g);
				faul_sum(s, b, pc->v, var, &L.b[i], &U.b[j]);
				pw_push(s, out, &g, b);
			}
			guard_clear(s, &g);
		}
	}
out:
	bound_clear(s, &L);
	bound_clear(s, &U);
	guard_clear(s, &rest);
	poly_clear(c, CTX); poly_clear(a, CTX);
	poly_clear(e, CTX); poly_clear(b, CTX);
	fmpq_clear(av);
	fmpz_clear(az);
	return ret;
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
		}
		sym_pw_clear(s, &ar);
		sym_pw_clear(s, &part);
		poly_clear(x, CTX); poly_clear(tlo, CTX);
		poly_clear(thi, CTX); poly_clear(num, CTX);
		fmpz_clear(P);
	} else {
		for (int i = 0; i < a->n && ret == 0; i++)
			ret = sum_piece(s, &res, &a->p[i], var, lo, hi);
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
 * term by term. */
static void compose(sym_ctx *s, poly_struct *out, const poly_struct *in,
		    poly_struct *const *vec, const char *changed)
{
	poly_t acc, mono, pw;
	poly_init(acc, CTX);
	poly_init(mono, CTX);
	poly_init(pw, CTX);
	fmpq_t c;
	fmpq_init(c);
	ulong e[SYM_MAXVARS];
	for (slong i = 0; i < poly_length(in, CTX); i++) {
		poly_get_term_coeff_fmpq(c, in, i, CTX);
		poly_get_term_exp_ui(e, in, i, CTX);
		ulong keep[SYM_MAXVARS];
		for (int k = 0; k < s->cap; k++)
			keep[k] = changed[k] ? 0 : e[k];
		poly_zero(mono, CTX);
		poly_push_term_fmpq_ui(mono, c, keep, CTX);
		for (int k = 0; k < s->cap; k++) {
			if (!changed[k] || !e[k])
				continue;
			poly_pow_ui(pw, vec[k], e[k], CTX);
			poly_mul(mono, mono, pw, CTX);
		}
		poly_add(acc, acc, mono, CTX);
	}
	poly_swap(out, acc, CTX);
	fmpq_clear(c);
	poly_clear(acc, CTX);
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
			guard_clear(s, &g);
		}
		poly_clear(v, CTX);
		poly_clear(c, CTX);
		sym_pw_clear(s, w);
		*w = out;
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

/* poly_eval() in 128-bit integers, over the common denominator of P's
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
static void poly_eval(sym_ctx *s, fmpq_t out, const poly_t p, fmpq *const *vals)
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
		used_closure(s, w->p[i].v, used);
		for (int j = 0; j < w->p[i].g.n; j++)
			used_closure(s, &w->p[i].g.c[j], used);
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
static int env_fill(sym_ctx *s, const sym_pw *w, const sym_env *e, int generic, fmpq *vals, int *missing,
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
			poly_eval(s, q, &s->atom_num[k], ptr);
			fmpz_mul(fmpq_denref(q), fmpq_denref(q), &s->atom_den[k]);
			fmpz_fdiv_q(fmpq_numref(&vals[k]), fmpq_numref(q), fmpq_denref(q));
			fmpz_one(fmpq_denref(&vals[k]));
			fmpq_clear(q);
		} else if (generic) {
			fmpq_set_si(&vals[k], (1L << 30) + ((long)k << 20), 1);
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

static int guard_holds(sym_ctx *s, const sym_guard *g, fmpq *const *ptr)
{
	fmpq_t q;
	fmpq_init(q);
	int ok = 1;
	for (int j = 0; j < g->n && ok; j++) {
		poly_eval(s, q, &g->c[j], ptr);
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
	int ret = env_fill(s, w, e, 0, vals, missing, unbound);
	fmpq_zero(out);
	if (ret == 0) {
		fmpq_t q;
		fmpq_init(q);
		for (int i = 0; i < w->n; i++) {
			if (!guard_holds(s, &w->p[i].g, ptr))
				continue;
			poly_eval(s, q, w->p[i].v, ptr);
			fmpq_add(out, out, q);
		}
		fmpq_clear(q);
	}
	for (int k = 0; k < s->nvars; k++)
		fmpq_clear(&vals[k]);
	return ret;
}

/* ---- formatting ------------------------------------------------------- */

static slong nterms(const fmpz_poly_t p)
{
	slong n = 0;
	for (slong i = 0; i < fmpz_poly_length(p); i++)
		n += !fmpz_is_zero(fmpz_poly_get_coeff_ptr(p, i));
	return n;
}

/* "n*(n - 1)/2" style: P factored over the integers when it is a polynomial
 * in one variable (fast univariate factoring), else P expanded. */
static char *poly_factored(sym_ctx *s, const poly_t p)
{
	int used[SYM_MAXVARS], nused = 0, var = -1;
	poly_used_vars(used, p, CTX);
	for (int k = 0; k < s->cap; k++)
		if (used[k]) {
			nused++;
			var = k;
		}
	if (nused != 1 || poly_degree_si(p, var, CTX) < 2)
		return sym_poly_str(s, p);
	fmpq_poly_t up;
	fmpz_poly_t z;
	fmpz_poly_factor_t fac;
	fmpq_poly_init(up);
	fmpz_poly_init(z);
	fmpz_poly_factor_init(fac);
	poly_get_fmpq_poly(up, p, var, CTX);
	fmpq_poly_get_numerator(z, up);
	fmpz_poly_factor(fac, z);
	int nfactors = 0;
	for (slong i = 0; i < fac->num; i++)
		nfactors += (int)fac->exp[i];
	sbuf b = {0};
	if (nfactors <= 1) {
		terms_put(&b, s, p, TERMS_ALL);
	} else {
		fmpq_t c;
		fmpq_init(c);
		fmpq_set_fmpz_frac(c, &fac->c, fmpq_poly_denref(up));
		sb_putn(&b, "", 0);
		if (fmpq_sgn(c) < 0)
			sb_putn(&b, "-", 1);
		int first = 1;
		if (!fmpz_is_pm1(fmpq_numref(c))) {
			sb_put_fmpz_abs(&b, fmpq_numref(c));
			first = 0;
		}
		poly_t f;
		poly_init(f, CTX);
		fmpq_poly_t fq;
		fmpq_poly_init(fq);
		/* monomials first: n*(n - 1), not (n - 1)*n */
		slong order[64];
		slong nf = fac->num < 64 ? fac->num : 64;
		for (slong i = 0; i < nf; i++)
			order[i] = i;
		for (slong i = 1; i < nf; i++)
			for (slong j = i; j > 0 && nterms(&fac->p[order[j]]) < nterms(&fac->p[order[j - 1]]); j--) {
				slong t = order[j];
				order[j] = order[j - 1];
				order[j - 1] = t;
			}
		for (slong oi = 0; oi < nf; oi++) {
			slong i = order[oi];
			fmpq_poly_set_fmpz_poly(fq, &fac->p[i]);
			poly_set_fmpq_poly(f, fq, var, CTX);
			int paren = poly_length(f, CTX) > 1;
			if (!first)
				sb_putn(&b, "*", 1);
			if (paren)
				sb_putn(&b, "(", 1);
			terms_put(&b, s, f, TERMS_ALL);
			if (paren)
				sb_putn(&b, ")", 1);
			if (fac->exp[i] > 1) {
				sb_putn(&b, "^", 1);
				sb_putu(&b, (ulong)fac->exp[i]);
			}
			first = 0;
		}
		if (!fmpz_is_one(fmpq_denref(c))) {
			sb_putn(&b, "/", 1);
			sb_put_fmpz_abs(&b, fmpq_denref(c));
		}
		fmpq_poly_clear(fq);
		poly_clear(f, CTX);
		fmpq_clear(c);
	}
	fmpz_poly_factor_clear(fac);
	fmpz_poly_clear(z);
	fmpq_poly_clear(up);
	return b.s;
}

/* "n >= 2" for the constraint n - 2 >= 0, "n >= m" for n - m >= 0:
 * positive terms on the left, the rest on the right. */
static void cons_put(sbuf *b, sym_ctx *s, const poly_t c)
{
	int haspos = 0;
	for (slong i = 0; i < c->n && !haspos; i++)
		haspos = c->m[i].n > 0 && fmpq_sgn(&c->c[i]) > 0;
	if (!haspos) { /* -n + 5 >= 0 reads n <= 5 */
		terms_put(b, s, c, TERMS_VARS_NEG);
		sb_puts(b, " <= ");
		terms_put(b, s, c, TERMS_CONST);
	} else {
		terms_put(b, s, c, TERMS_POS);
		sb_puts(b, " >= ");
		terms_put(b, s, c, TERMS_REST_NEG);
	}
}

/* The polynomial of W for large parameters (into SUM) and its condition. */
static char *format_uncached(sym_ctx *s, const sym_pw *w, poly_t sum);

/* Whether c >= 0 and d >= 0 exclude each other because c + d is a negative
 * constant (n - 335 >= 0 against -n + 333 >= 0): how most pieces of a sum
 * miss the condition of another, told without an elimination. */
static int opposed(sym_ctx *s, const poly_struct *c, const poly_struct *d)
{
	return c->n > 0 && d->n > 0 && poly_sum_negative_const(c, d);
}

/* Where the condition is one threshold p >= k on the only parameter, lowers k
 * (not below 0) while the formula still gives the exact count there:
 * n*(n - 1)/2 holds for n >= 0, not only where the inner loop runs.
 * Returns whether it lowered k. */
static int relax_threshold(sym_ctx *s, const sym_pw *w, const poly_t sum, sym_guard *g)
{
	if (g->n != 1)
		return 0;
	int used[SYM_MAXVARS], u2[SYM_MAXVARS], p = -1, np = 0;
	memset(used, 0, sizeof *used * (size_t)s->cap);
	pw_used(s, w, used);
	poly_used_vars(u2, sum, CTX);
	for (int k = 0; k < s->nvars; k++) {
		if (s->kind[k] == SYM_ATOM && (used[k] || u2[k]))
			return 0;
		if (used[k] || u2[k]) {
			p = k;
			np++;
		}
	}
	if (np != 1 || poly_length(&g->c[0], CTX) > 2 || poly_degree_si(&g->c[0], p, CTX) != 1)
		return 0;
	fmpq_t k, a, x, y;
	fmpq_init(k); fmpq_init(a); fmpq_init(x); fmpq_init(y);
	slong vars[1] = {p};
	ulong one[1] = {1};
	poly_t t;
	poly_init(t, CTX);
	poly_get_coeff_vars_ui(t, &g->c[0], vars, one, 1, CTX);
	poly_get_fmpq(a, t, CTX);
	const_term(s, k, &g->c[0]);
	int changed = 0;
	if (fmpq_is_one(a)) {
		fmpq_neg(k, k); /* the condition is p >= k */
		sym_env e;
		sym_env_init(&e);
		e.bound[p] = 1;
		fmpq *ptr[SYM_MAXVARS];
		for (int i = 0; i < s->cap; i++)
			ptr[i] = &e.val[i];
		int steps = 0, missing;
		while (fmpq_sgn(k) > 0 && steps++ < 64) {
			fmpq_sub_si(&e.val[p], k, 1);
			if (sym_pw_eval(s, w, &e, x, &missing) != 0)
				break;
			poly_eval(s, y, sum, ptr);
			if (!fmpq_equal(x, y))
				break;
			fmpq_sub_si(k, k, 1);
			changed = 1;
		}
		if (changed) {
			guard_own(s, g);
			poly_sub_fmpq(&g->c[0], &s->gen[p], k, CTX);
		}
		sym_env_clear(&e);
	}
	poly_clear(t, CTX);
	fmpq_clear(k); fmpq_clear(a); fmpq_clear(x); fmpq_clear(y);
	return changed;
}

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

static unsigned fmt_slot(unsigned long h, unsigned mask)
{
	return (unsigned)(h * 0x9E3779B97F4A7C15UL >> 32) & mask;
}

/* Indexes the newest format, doubling the index when half full. */
static void fmt_index(sym_ctx *s)
{
	if (2u * (unsigned)s->nfmt > s->fmtmask) {
		unsigned size = s->fmtmask ? 2 * (s->fmtmask + 1) : 256;
		free(s->fmtidx);
		s->fmtidx = calloc(size, sizeof *s->fmtidx);
		s->fmtmask = size - 1;
		for (int i = 0; i < s->nfmt - 1; i++) {
			unsigned k = fmt_slot(s->fmt[i].hash, s->fmtmask);
			while (s->fmtidx[k])
				k = (k + 1) & s->fmtmask;
			s->fmtidx[k] = i + 1;
		}
	}
	unsigned k = fmt_slot(s->fmt[s->nfmt - 1].hash, s->fmtmask);
	while (s->fmtidx[k])
		k = (k + 1) & s->fmtmask;
	s->fmtidx[k] = s->nfmt;
}

static sym_fmt *fmt_find(sym_ctx *s, unsigned long h, const sym_pw *w)
{
	if (!s->fmtidx)
		return NULL;
	for (unsigned k = fmt_slot(h, s->fmtmask); s->fmtidx[k]; k = (k + 1) & s->fmtmask) {
		sym_fmt *f = &s->fmt[s->fmtidx[k] - 1];
		if (f->hash == h && sym_pw_equal(s, &f->w, w))
			return f;
	}
	return NULL;
}

void sym_pw_format(sym_ctx *s, const sym_pw *w, char **formula, char **cond)
{
	if (w->n == 0) {
		*formula = strdup("0");
		*cond = strdup("");
		return;
	}
	/* formats are cached by shape: W = c * (a cached shape) */
	fmpq_t c, ic;
	fmpq_init(c);
	fmpq_init(ic);
	poly_get_term_coeff_fmpq(c, w->p[0].v, 0, CTX);
	fmpq_inv(ic, c);
	/* W itself when it is normalised already (borrowed, not copied) */
	int unit = fmpq_is_one(c);
	sym_pw norm;
	sym_pw_init(&norm);
	if (unit)
		norm = *w;
	else
		sym_pw_addmul_fmpq(s, &norm, w, ic);
	unsigned long h = sym_pw_hash(s, &norm);
	sym_fmt *hit = fmt_find(s, h, &norm);
	if (!hit) {
		if (s->nfmt == s->capfmt) {
			s->capfmt = s->capfmt ? 2 * s->capfmt : 64;
			s->fmt = realloc(s->fmt, s->capfmt * sizeof *s->fmt);
		}
		hit = &s->fmt[s->nfmt++];
		hit->hash = h;
		sym_pw_init(&hit->w);
		if (unit)
			sym_pw_set(s, &hit->w, &norm);
		else
			hit->w = norm; /* moved */
		sym_pw_init(&norm);
		poly_init(hit->sum, CTX);
		hit->cond = format_uncached(s, &hit->w, hit->sum);
		hit->formula = NULL;
		fmt_index(s);
	}
	if (unit) { /* the shape itself: its text once */
		if (!hit->formula)
			hit->formula = poly_factored(s, hit->sum);
		*formula = strdup(hit->formula);
	} else {
		poly_t sum;
		poly_init(sum, CTX);
		poly_scalar_mul_fmpq(sum, hit->sum, c, CTX);
		*formula = poly_factored(s, sum);
		poly_clear(sum, CTX);
	}
	*cond = strdup(hit->cond);
	if (!unit)
		sym_pw_clear(s, &norm);
	fmpq_clear(c);
	fmpq_clear(ic);
}

static char *format_uncached(sym_ctx *s, const sym_pw *w, poly_t sum)
{
	fmpq vals[SYM_MAXVARS];
	fmpq *ptr[SYM_MAXVARS];
	for (int k = 0; k < s->nvars; k++) {
		fmpq_init(&vals[k]);
		ptr[k] = &vals[k];
	}
	int missing;
	env_fill(s, w, NULL, 1, vals, &missing, NULL);
	poly_zero(sum, CTX);
	sym_guard all;
	guard_init(&all);
	char *active = calloc(w->n + 1, 1);
	int nactive = 0;
	for (int i = 0; i < w->n; i++)
		nactive += active[i] = (char)guard_holds(s, &w->p[i].g, ptr);
	/* zero for large parameters (bounds that shrink as they grow): show
	 * the first piece and where it holds instead */
	if (nactive == 0 && w->n > 0)
		active[0] = 1;
	int ncons = 0;
	for (int i = 0; i < w->n; i++)
		if (active[i])
			ncons += w->p[i].g.n;
	const poly_struct **cons = malloc((ncons + 1) * sizeof *cons);
	ncons = 0;
	for (int i = 0; i < w->n; i++) {
		if (!active[i])
			continue;
		poly_add(sum, sum, w->p[i].v, CTX);
		for (int j = 0; j < w->p[i].g.n; j++)
			cons[ncons++] = &w->p[i].g.c[j];
	}
	guard_from(s, &all, cons, ncons);
	free(cons);
	guard_reduce(s, &all);
	int overlap = 0;
	/* each inactive piece's constraints after the condition's: shallow
	 * copies, read only, in one array for the feasibility test */
	poly_struct *sys = malloc((all.n + 1) * sizeof *sys);
	if (all.n)
		memcpy(sys, all.c, all.n * sizeof *sys);
	int cap = all.n + 1;
	for (int i = 0; i < w->n && !overlap; i++) {
		if (active[i])
			continue;
		const sym_guard *g = &w->p[i].g;
		if (all.n + g->n > cap) {
			cap = all.n + g->n;
			sys = realloc(sys, cap * sizeof *sys);
		}
		int n = all.n, apart = 0;
		for (int j = 0; j < g->n && !apart; j++) {
			int dup = 0; /* a constraint the condition has already */
			for (int t = 0; t < all.n && !dup && !apart; t++) {
				dup = poly_equal(&all.c[t], &g->c[j], CTX);
				apart = opposed(s, &all.c[t], &g->c[j]);
			}
			if (!dup)
				sys[n++] = g->c[j];
		}
		overlap = !apart && sym_feasible(s, sys, n);
	}
	free(sys);
	if (!overlap)
		relax_threshold(s, w, sum, &all);
	sbuf c = {0};
	sb_putn(&c, "", 0);
	if (overlap) {
		sb_puts(&c, "large parameters");
	} else {
		for (int j = 0; j < all.n; j++) {
			if (j)
				sb_puts(&c, " and ");
			cons_put(&c, s, &all.c[j]);
		}
	}
	free(active);
	guard_clear(s, &all);
	for (int k = 0; k < s->nvars; k++)
		fmpq_clear(&vals[k]);
	return c.s;
}
