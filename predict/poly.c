/* poly: small sparse multivariate polynomials over the rationals. */
#define _GNU_SOURCE /* qsort_r */
#include "predict/poly.h"
#include "model/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <flint/fmpq_mpoly.h>

/* A monomial with more distinct variables than fit (a count of a loop nest
 * more than POLY_MONO_MAX deep, each level bounded by its own parameter),
 * or an exponent beyond 16 bits: the operation goes on with the monomial
 * cut short, and poly_take_overflow() tells the caller, on this thread. */
static _Thread_local int overflowed;

static void too_many_vars(void)
{
	overflowed = 1;
}

int poly_take_overflow(void)
{
	int r = overflowed;
	overflowed = 0;
	return r;
}

void poly_ctx_init(poly_ctx_t ctx, int nvars) { ctx->nvars = nvars; }
void poly_ctx_clear(poly_ctx_t ctx) { (void)ctx; }

void poly_init(poly_t p, const poly_ctx_t ctx)
{
	(void)ctx;
	memset(p, 0, sizeof *p);
}

void poly_clear(poly_t p, const poly_ctx_t ctx)
{
	(void)ctx;
	for (int i = 0; i < p->cap; i++)
		fmpq_clear(&p->c[i]);
	free(p->c); /* the monomials too */
	memset(p, 0, sizeof *p);
}

/* Room for N terms (coefficients initialised up to the capacity), the
 * coefficients and the monomials in one block. */
static void fit(poly_struct *p, int n)
{
	if (n <= p->cap)
		return;
	int cap = p->cap ? 2 * p->cap : n;
	if (cap < n)
		cap = n;
	fmpq *c = xmalloc(cap * (sizeof *p->c + sizeof *p->m));
	poly_mono *m = (poly_mono *)(c + cap);
	if (p->cap) {
		memcpy(c, p->c, p->cap * sizeof *c);
		memcpy(m, p->m, p->n * sizeof *m);
	}
	for (int i = p->cap; i < cap; i++)
		fmpq_init(&c[i]);
	free(p->c);
	p->c = c;
	p->m = m;
	p->cap = cap;
}

void poly_swap(poly_t a, poly_t b, const poly_ctx_t ctx)
{
	(void)ctx;
	poly_struct t = *a;
	*a = *b;
	*b = t;
}

static inline void mono_copy(poly_mono *d, const poly_mono *s) { *d = *s; }

/* fmpq_set without a call while both are small (the usual case). */
static inline void qset(fmpq *d, const fmpq *s)
{
	if (!COEFF_IS_MPZ(*fmpq_numref(d)) && !COEFF_IS_MPZ(*fmpq_denref(d)) &&
	    !COEFF_IS_MPZ(*fmpq_numref(s)) && !COEFF_IS_MPZ(*fmpq_denref(s)))
		*d = *s;
	else
		fmpq_set(d, s);
}

/* fmpq arithmetic without a call while the operands are small integers,
 * as most coefficients of counts are (the result is still exact: a sum or
 * product too large for a small fmpz goes through fmpz_set_si or FLINT). */
static inline int small_int(const fmpq *q)
{
	return !COEFF_IS_MPZ(*fmpq_numref(q)) && *fmpq_denref(q) == 1;
}

static inline void qaddsub(fmpq *d, const fmpq *a, const fmpq *b, int sign)
{
	if (small_int(a) && small_int(b) && !COEFF_IS_MPZ(*fmpq_denref(d))) {
		/* |a|, |b| <= COEFF_MAX < 2^62: the sum fits a slong */
		fmpz_set_si(fmpq_numref(d), sign > 0 ? *fmpq_numref(a) + *fmpq_numref(b)
						     : *fmpq_numref(a) - *fmpq_numref(b));
		*fmpq_denref(d) = 1;
	} else if (sign > 0) {
		fmpq_add(d, a, b);
	} else {
		fmpq_sub(d, a, b);
	}
}

static inline void qmul(fmpq *d, const fmpq *a, const fmpq *b)
{
	slong x = *fmpq_numref(a), y = *fmpq_numref(b), r;
	if (small_int(a) && small_int(b) && !COEFF_IS_MPZ(*fmpq_denref(d)) && !__builtin_mul_overflow(x, y, &r)) {
		fmpz_set_si(fmpq_numref(d), r);
		*fmpq_denref(d) = 1;
	} else {
		fmpq_mul(d, a, b);
	}
}

static int mono_equal(const poly_mono *a, const poly_mono *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (a->v[i] != b->v[i] || a->e[i] != b->e[i])
			return 0;
	return 1;
}

/* Whether A + B is a negative constant: their terms with variables cancel
 * pairwise (the same monomials, in the same order, opposite coefficients)
 * and their constant terms (last, where there is one) add up below zero. */
int poly_sum_negative_const(const poly_t a, const poly_t b)
{
	int ka = a->n > 0 && a->m[a->n - 1].n == 0, kb = b->n > 0 && b->m[b->n - 1].n == 0;
	if (a->n - ka != b->n - kb)
		return 0;
	for (int i = 0; i < a->n - ka; i++)
		if (!mono_equal(&a->m[i], &b->m[i]) || !fmpz_equal(fmpq_denref(&a->c[i]), fmpq_denref(&b->c[i])) ||
		    fmpz_cmpabs(fmpq_numref(&a->c[i]), fmpq_numref(&b->c[i])) != 0 ||
		    fmpz_sgn(fmpq_numref(&a->c[i])) != -fmpz_sgn(fmpq_numref(&b->c[i])))
			return 0;
	if (!ka || !kb)
		return ka ? fmpq_sgn(&a->c[a->n - 1]) < 0 : kb && fmpq_sgn(&b->c[b->n - 1]) < 0;
	fmpq_t t;
	fmpq_init(t);
	fmpq_add(t, &a->c[a->n - 1], &b->c[b->n - 1]);
	int r = fmpq_sgn(t) < 0;
	fmpq_clear(t);
	return r;
}

/* Lexicographic, variable 0 most significant: > 0 when A comes first. */
static int mono_cmp(const poly_mono *a, const poly_mono *b)
{
	int k = a->n < b->n ? a->n : b->n;
	for (int i = 0; i < k; i++) {
		if (a->v[i] != b->v[i])
			return a->v[i] < b->v[i] ? 1 : -1;
		if (a->e[i] != b->e[i])
			return a->e[i] > b->e[i] ? 1 : -1;
	}
	return (a->n > b->n) - (a->n < b->n);
}

static void mono_mul(poly_mono *d, const poly_mono *a, const poly_mono *b)
{
	int i = 0, j = 0, n = 0;
	while (i < a->n || j < b->n) {
		if (n == POLY_MONO_MAX) {
			too_many_vars();
			break;
		}
		unsigned long e;
		if (j == b->n || (i < a->n && a->v[i] < b->v[j])) {
			d->v[n] = a->v[i];
			e = a->e[i++];
		} else if (i == a->n || b->v[j] < a->v[i]) {
			d->v[n] = b->v[j];
			e = b->e[j++];
		} else {
			d->v[n] = a->v[i];
			e = (unsigned long)a->e[i++] + b->e[j++];
		}
		if (e > UINT16_MAX) {
			too_many_vars();
			e = UINT16_MAX;
		}
		d->e[n++] = (uint16_t)e;
	}
	d->n = (uint16_t)n;
}

void poly_set(poly_t a, const poly_t b, const poly_ctx_t ctx)
{
	(void)ctx;
	if (a == b)
		return;
	fit(a, b->n);
	for (int i = 0; i < b->n; i++) {
		qset(&a->c[i], &b->c[i]);
		mono_copy(&a->m[i], &b->m[i]);
	}
	a->n = b->n;
}

void poly_zero(poly_t a, const poly_ctx_t ctx)
{
	(void)ctx;
	a->n = 0;
}

void poly_gen(poly_t a, long var, const poly_ctx_t ctx)
{
	(void)ctx;
	fit(a, 1);
	fmpq_one(&a->c[0]);
	a->m[0].n = 1;
	a->m[0].v[0] = (uint16_t)var;
	a->m[0].e[0] = 1;
	a->n = 1;
}

void poly_set_fmpq(poly_t a, const fmpq_t c, const poly_ctx_t ctx)
{
	(void)ctx;
	a->n = 0;
	if (fmpq_is_zero(c))
		return;
	fit(a, 1);
	fmpq_set(&a->c[0], c);
	a->m[0].n = 0;
	a->n = 1;
}

void poly_set_si(poly_t a, long c, const poly_ctx_t ctx)
{
	(void)ctx;
	a->n = 0;
	if (c == 0)
		return;
	fit(a, 1);
	fmpq_set_si(&a->c[0], c, 1);
	a->m[0].n = 0;
	a->n = 1;
}

int poly_is_one(const poly_t a, const poly_ctx_t ctx)
{
	(void)ctx;
	return a->n == 1 && a->m[0].n == 0 && fmpq_is_one(&a->c[0]);
}

void poly_get_fmpq(fmpq_t c, const poly_t a, const poly_ctx_t ctx)
{
	(void)ctx;
	if (a->n == 0)
		fmpq_zero(c);
	else
		fmpq_set(c, &a->c[0]);
}

int poly_equal(const poly_t a, const poly_t b, const poly_ctx_t ctx)
{
	(void)ctx;
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (!mono_equal(&a->m[i], &b->m[i]) || !fmpq_equal(&a->c[i], &b->c[i]))
			return 0;
	return 1;
}

/* A's content: the sign of its first coefficient times the gcd of the
 * numerators over the lcm of the denominators (0 for zero). */
static void content(fmpq_t k, const poly_t a)
{
	fmpz_zero(fmpq_numref(k));
	fmpz_one(fmpq_denref(k));
	for (int i = 0; i < a->n; i++) {
		fmpz_gcd(fmpq_numref(k), fmpq_numref(k), fmpq_numref(&a->c[i]));
		fmpz_lcm(fmpq_denref(k), fmpq_denref(k), fmpq_denref(&a->c[i]));
	}
	if (a->n && fmpq_sgn(&a->c[0]) < 0)
		fmpz_neg(fmpq_numref(k), fmpq_numref(k));
}

/* The sign of A's first coefficient when A's content is that sign alone
 * (integer coefficients, one of them a unit), else 0: the usual case of
 * normalised constraints, told without a gcd. */
static int unit_content(const poly_t a)
{
	int unit = 0;
	for (int i = 0; i < a->n; i++) {
		if (!fmpz_is_one(fmpq_denref(&a->c[i])))
			return 0;
		unit |= fmpz_is_pm1(fmpq_numref(&a->c[i]));
	}
	return unit ? fmpq_sgn(&a->c[0]) : 0;
}

int poly_cmp(const poly_t a, const poly_t b, const poly_ctx_t ctx)
{
	(void)ctx;
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (int i = 0; i < a->n; i++) {
		int c = mono_cmp(&a->m[i], &b->m[i]);
		if (c)
			return c;
	}
	if (a->n == 0)
		return 0;
	int c, ua = unit_content(a), ub = unit_content(b);
	if (ua && ub) {
		if (ua != ub)
			return ua < ub ? -1 : 1;
		for (int i = 0; i < a->n; i++) {
			c = fmpz_cmp(fmpq_numref(&a->c[i]), fmpq_numref(&b->c[i]));
			if (c)
				return (c < 0) == (ua > 0) ? -1 : 1;
		}
		return 0;
	}
	fmpq_t ka, kb, x, y;
	fmpq_init(ka); fmpq_init(kb); fmpq_init(x); fmpq_init(y);
	content(ka, a);
	content(kb, b);
	c = fmpz_cmp(fmpq_denref(ka), fmpq_denref(kb));
	if (!c)
		c = fmpz_cmp(fmpq_numref(ka), fmpq_numref(kb));
	for (int i = 0; i < a->n && !c; i++) {
		fmpq_div(x, &a->c[i], ka);
		fmpq_div(y, &b->c[i], kb);
		c = fmpz_cmp(fmpq_numref(x), fmpq_numref(y));
	}
	fmpq_clear(ka); fmpq_clear(kb); fmpq_clear(x); fmpq_clear(y);
	return c < 0 ? -1 : c > 0;
}

/* D = B + sign * C, both sorted; D is not C.  D may be B, the common way
 * sums grow: then B's terms first move up by C's length, and the merge
 * from the front never writes over a term of B still to be read. */
static void merge(poly_struct *d, const poly_struct *b, const poly_struct *c, int sign)
{
	int nb = b->n, k = 0;
	fit(d, nb + c->n);
	if (d == b) {
		k = c->n;
		for (int i = nb - 1; i >= 0; i--) {
			fmpq_swap(&d->c[i + k], &d->c[i]);
			mono_copy(&d->m[i + k], &d->m[i]);
		}
	}
	/* B's term i is at index i + k of SRC */
	const poly_struct *src = d == b ? d : b;
	int i = 0, j = 0, n = 0;
	while (i < nb || j < c->n) {
		int cmp = i == nb ? -1 : j == c->n ? 1 : mono_cmp(&src->m[i + k], &c->m[j]);
		if (cmp > 0) {
			if (d != b)
				qset(&d->c[n], &b->c[i]);
			else if (n != i + k)
				fmpq_swap(&d->c[n], &d->c[i + k]);
			mono_copy(&d->m[n++], &src->m[i + k]);
			i++;
		} else if (cmp < 0) {
			if (sign > 0)
				qset(&d->c[n], &c->c[j]);
			else
				fmpq_neg(&d->c[n], &c->c[j]);
			mono_copy(&d->m[n++], &c->m[j++]);
		} else {
			qaddsub(&d->c[n], &src->c[i + k], &c->c[j], sign);
			if (!fmpq_is_zero(&d->c[n])) {
				mono_copy(&d->m[n], &src->m[i + k]);
				n++;
			}
			i++;
			j++;
		}
	}
	d->n = n;
}

static void add_sub(poly_t a, const poly_t b, const poly_t c, int sign)
{
	if (c->n == 0) {
		poly_set(a, b, NULL);
		return;
	}
	if (a != c) {
		merge(a, b, c, sign);
		return;
	}
	poly_t t;
	poly_init(t, NULL);
	merge(t, b, c, sign);
	poly_swap(a, t, NULL);
	poly_clear(t, NULL);
}

void poly_add(poly_t a, const poly_t b, const poly_t c, const poly_ctx_t ctx)
{
	(void)ctx;
	add_sub(a, b, c, 1);
}

void poly_sub(poly_t a, const poly_t b, const poly_t c, const poly_ctx_t ctx)
{
	(void)ctx;
	add_sub(a, b, c, -1);
}

void poly_neg(poly_t a, const poly_t b, const poly_ctx_t ctx)
{
	poly_set(a, b, ctx);
	for (int i = 0; i < a->n; i++)
		fmpq_neg(&a->c[i], &a->c[i]);
}

static int by_mono_desc(const void *x, const void *y, void *base)
{
	const poly_struct *a = base;
	int i = *(const int *)x, j = *(const int *)y;
	int c = mono_cmp(&a->m[i], &a->m[j]);
	return c ? -c : i - j;
}

/* Sorts A's terms, combines equal monomials and drops zero coefficients. */
static void normalise(poly_struct *a)
{
	int sorted = 1;
	for (int i = 1; i < a->n && sorted; i++)
		sorted = mono_cmp(&a->m[i - 1], &a->m[i]) > 0;
	if (!sorted && a->n <= 16) {
		/* the few terms of a count: in place, keeping equal ones in order */
		for (int i = 1; i < a->n; i++)
			for (int k = i; k > 0 && mono_cmp(&a->m[k - 1], &a->m[k]) < 0; k--) {
				poly_mono m = a->m[k];
				a->m[k] = a->m[k - 1];
				a->m[k - 1] = m;
				fmpq_swap(&a->c[k], &a->c[k - 1]);
			}
	} else if (!sorted) {
		int *idx = xmalloc(a->n * sizeof *idx);
		for (int i = 0; i < a->n; i++)
			idx[i] = i;
		qsort_r(idx, a->n, sizeof *idx, by_mono_desc, a);
		poly_struct t = {0};
		fit(&t, a->n);
		for (int i = 0; i < a->n; i++) {
			fmpq_swap(&t.c[i], &a->c[idx[i]]);
			mono_copy(&t.m[i], &a->m[idx[i]]);
		}
		t.n = a->n;
		free(idx);
		poly_swap(a, &t, NULL);
		poly_clear(&t, NULL);
	}
	int n = 0;
	for (int i = 0; i < a->n; i++) {
		if (n && mono_equal(&a->m[n - 1], &a->m[i])) {
			qaddsub(&a->c[n - 1], &a->c[n - 1], &a->c[i], 1);
			continue;
		}
		if (n && fmpq_is_zero(&a->c[n - 1]))
			n--;
		if (n != i) {
			fmpq_swap(&a->c[n], &a->c[i]);
			mono_copy(&a->m[n], &a->m[i]);
		}
		n++;
	}
	if (n && fmpq_is_zero(&a->c[n - 1]))
		n--;
	a->n = n;
}

void poly_reduce(poly_t a, const poly_ctx_t ctx)
{
	(void)ctx;
	normalise(a);
}

void poly_rename(poly_t a, const poly_t b, const int *map, const poly_ctx_t ctx)
{
	(void)ctx;
	if (a != b)
		poly_set(a, b, NULL);
	for (int i = 0; i < a->n; i++) {
		poly_mono *m = &a->m[i];
		for (int j = 0; j < m->n; j++)
			m->v[j] = (uint16_t)map[m->v[j]];
		for (int j = 1; j < m->n; j++) /* a few variables: insertion sort */
			for (int k = j; k > 0 && m->v[k - 1] > m->v[k]; k--) {
				uint16_t v = m->v[k], e = m->e[k];
				m->v[k] = m->v[k - 1];
				m->e[k] = m->e[k - 1];
				m->v[k - 1] = v;
				m->e[k - 1] = e;
			}
	}
	normalise(a); /* renamed monomials stay distinct: only their order changes */
}

void poly_mul(poly_t a, const poly_t b, const poly_t c, const poly_ctx_t ctx)
{
	(void)ctx;
	if (b->n == 0 || c->n == 0) {
		a->n = 0;
		return;
	}
	poly_t t;
	poly_init(t, NULL);
	fit(t, b->n * c->n);
	int n = 0;
	for (int i = 0; i < b->n; i++)
		for (int j = 0; j < c->n; j++) {
			qmul(&t->c[n], &b->c[i], &c->c[j]);
			mono_mul(&t->m[n++], &b->m[i], &c->m[j]);
		}
	t->n = n;
	/* one factor a single term: the order is kept and no two products meet */
	if (b->n > 1 && c->n > 1)
		normalise(t);
	poly_swap(a, t, NULL);
	poly_clear(t, NULL);
}

void poly_pow_ui(poly_t a, const poly_t b, unsigned long k, const poly_ctx_t ctx)
{
	poly_t r;
	poly_init(r, ctx);
	poly_set_si(r, 1, ctx);
	for (unsigned long i = 0; i < k; i++)
		poly_mul(r, r, b, ctx);
	poly_swap(a, r, ctx);
	poly_clear(r, ctx);
}

void poly_add_fmpq(poly_t a, const poly_t b, const fmpq_t c, const poly_ctx_t ctx)
{
	poly_set(a, b, ctx);
	if (fmpq_is_zero(c))
		return;
	if (a->n && a->m[a->n - 1].n == 0) { /* the constant term is the last */
		fmpq_add(&a->c[a->n - 1], &a->c[a->n - 1], c);
		if (fmpq_is_zero(&a->c[a->n - 1]))
			a->n--;
		return;
	}
	fit(a, a->n + 1);
	fmpq_set(&a->c[a->n], c);
	a->m[a->n++].n = 0;
}

/* The variants with another kind of constant: through the rational T,
 * which they clear. */
static void add_q(poly_t a, const poly_t b, fmpq_t t)
{
	poly_add_fmpq(a, b, t, NULL);
	fmpq_clear(t);
}

static void mul_q(poly_t a, const poly_t b, fmpq_t t)
{
	poly_scalar_mul_fmpq(a, b, t, NULL);
	fmpq_clear(t);
}

void poly_sub_fmpq(poly_t a, const poly_t b, const fmpq_t c, const poly_ctx_t ctx)
{
	(void)ctx;
	fmpq_t t;
	fmpq_init(t);
	fmpq_neg(t, c);
	add_q(a, b, t);
}

void poly_add_fmpz(poly_t a, const poly_t b, const fmpz_t c, const poly_ctx_t ctx)
{
	(void)ctx;
	fmpq_t t;
	fmpq_init(t);
	fmpz_set(fmpq_numref(t), c);
	add_q(a, b, t);
}

void poly_add_si(poly_t a, const poly_t b, long c, const poly_ctx_t ctx)
{
	(void)ctx;
	fmpq_t t;
	fmpq_init(t);
	fmpq_set_si(t, c, 1);
	add_q(a, b, t);
}

void poly_sub_si(poly_t a, const poly_t b, long c, const poly_ctx_t ctx)
{
	(void)ctx;
	fmpq_t t;
	fmpq_init(t);
	fmpq_set_si(t, c, 1);
	fmpq_neg(t, t);
	add_q(a, b, t);
}

void poly_add_ui(poly_t a, const poly_t b, unsigned long c, const poly_ctx_t ctx)
{
	(void)ctx;
	fmpq_t t;
	fmpq_init(t);
	fmpz_set_ui(fmpq_numref(t), c);
	add_q(a, b, t);
}

void poly_sub_ui(poly_t a, const poly_t b, unsigned long c, const poly_ctx_t ctx)
{
	(void)ctx;
	fmpq_t t;
	fmpq_init(t);
	fmpz_set_ui(fmpq_numref(t), c);
	fmpq_neg(t, t);
	add_q(a, b, t);
}

void poly_scalar_mul_fmpq(poly_t a, const poly_t b, const fmpq_t c, const poly_ctx_t ctx)
{
	if (fmpq_is_zero(c)) {
		a->n = 0;
		return;
	}
	poly_set(a, b, ctx);
	for (int i = 0; i < a->n; i++)
		qmul(&a->c[i], &a->c[i], c);
}

void poly_scalar_mul_fmpz(poly_t a, const poly_t b, const fmpz_t c, const poly_ctx_t ctx)
{
	(void)ctx;
	fmpq_t t;
	fmpq_init(t);
	fmpz_set(fmpq_numref(t), c);
	mul_q(a, b, t);
}

void poly_scalar_mul_si(poly_t a, const poly_t b, long c, const poly_ctx_t ctx)
{
	(void)ctx;
	fmpq_t t;
	fmpq_init(t);
	fmpq_set_si(t, c, 1);
	mul_q(a, b, t);
}

void poly_scalar_mul_ui(poly_t a, const poly_t b, unsigned long c, const poly_ctx_t ctx)
{
	(void)ctx;
	fmpq_t t;
	fmpq_init(t);
	fmpz_set_ui(fmpq_numref(t), c);
	mul_q(a, b, t);
}

void poly_scalar_div_fmpz(poly_t a, const poly_t b, const fmpz_t c, const poly_ctx_t ctx)
{
	(void)ctx;
	fmpq_t t;
	fmpq_init(t);
	fmpq_one(t);
	fmpq_div_fmpz(t, t, c);
	mul_q(a, b, t);
}

void poly_get_term_coeff_fmpq(fmpq_t c, const poly_t a, long i, const poly_ctx_t ctx)
{
	(void)ctx;
	fmpq_set(c, &a->c[i]);
}

void poly_get_term_exp_ui(unsigned long *exp, const poly_t a, long i, const poly_ctx_t ctx)
{
	memset(exp, 0, ctx->nvars * sizeof *exp);
	const poly_mono *m = &a->m[i];
	for (int j = 0; j < m->n; j++)
		exp[m->v[j]] = m->e[j];
}

void poly_push_term_fmpq_ui(poly_t a, const fmpq_t c, const unsigned long *exp, const poly_ctx_t ctx)
{
	fit(a, a->n + 1);
	poly_mono *m = &a->m[a->n];
	m->n = 0;
	for (int k = 0; k < ctx->nvars; k++) {
		if (!exp[k])
			continue;
		if (m->n == POLY_MONO_MAX || exp[k] > UINT16_MAX) {
			too_many_vars();
			break;
		}
		m->v[m->n] = (uint16_t)k;
		m->e[m->n++] = (uint16_t)exp[k];
	}
	fmpq_set(&a->c[a->n++], c);
}

void poly_set_term(poly_t a, const fmpq_t c, const poly_mono *m, const poly_ctx_t ctx)
{
	(void)ctx;
	fit(a, 1);
	a->m[0] = *m;
	fmpq_set(&a->c[0], c);
	a->n = 1;
}

long poly_degree_si(const poly_t a, long var, const poly_ctx_t ctx)
{
	(void)ctx;
	if (a->n == 0)
		return -1;
	long d = 0;
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < a->m[i].n; j++)
			if (a->m[i].v[j] == var && a->m[i].e[j] > d)
				d = a->m[i].e[j];
	return d;
}

long poly_total_degree_si(const poly_t a, const poly_ctx_t ctx)
{
	(void)ctx;
	long d = a->n ? 0 : -1;
	for (int i = 0; i < a->n; i++) {
		long t = 0;
		for (int j = 0; j < a->m[i].n; j++)
			t += a->m[i].e[j];
		if (t > d)
			d = t;
	}
	return d;
}

void poly_used_vars(int *used, const poly_t a, const poly_ctx_t ctx)
{
	memset(used, 0, ctx->nvars * sizeof *used);
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < a->m[i].n; j++)
			used[a->m[i].v[j]] = 1;
}

void poly_get_denominator(fmpz_t d, const poly_t a, const poly_ctx_t ctx)
{
	(void)ctx;
	fmpz_one(d);
	for (int i = 0; i < a->n; i++)
		if (!fmpz_is_one(fmpq_denref(&a->c[i])))
			fmpz_lcm(d, d, fmpq_denref(&a->c[i]));
}

void poly_get_coeff_vars_ui(poly_t c, const poly_t a, const long *vars, const unsigned long *exps,
			    long n, const poly_ctx_t ctx)
{
	poly_t t;
	poly_init(t, ctx);
	for (int i = 0; i < a->n; i++) {
		const poly_mono *m = &a->m[i];
		int ok = 1;
		for (long k = 0; k < n && ok; k++) {
			unsigned long e = 0;
			for (int j = 0; j < m->n; j++)
				if (m->v[j] == vars[k])
					e = m->e[j];
			ok = e == exps[k];
		}
		if (!ok)
			continue;
		/* the others keep their order: the removed exponents are equal */
		fit(t, t->n + 1);
		poly_mono *d = &t->m[t->n];
		d->n = 0;
		for (int j = 0; j < m->n; j++) {
			int drop = 0;
			for (long k = 0; k < n && !drop; k++)
				drop = m->v[j] == vars[k];
			if (!drop) {
				d->v[d->n] = m->v[j];
				d->e[d->n++] = m->e[j];
			}
		}
		fmpq_set(&t->c[t->n++], &a->c[i]);
	}
	poly_swap(c, t, ctx);
	poly_clear(t, ctx);
}

int poly_get_fmpq_poly(fmpq_poly_t out, const poly_t a, long var, const poly_ctx_t ctx)
{
	(void)ctx;
	fmpq_poly_zero(out);
	for (int i = 0; i < a->n; i++) {
		const poly_mono *m = &a->m[i];
		if (m->n > 1 || (m->n == 1 && m->v[0] != var))
			return 0;
	}
	for (int i = 0; i < a->n; i++)
		fmpq_poly_set_coeff_fmpq(out, a->m[i].n ? a->m[i].e[0] : 0, &a->c[i]);
	return 1;
}

void poly_set_fmpq_poly(poly_t a, const fmpq_poly_t f, long var, const poly_ctx_t ctx)
{
	(void)ctx;
	a->n = 0;
	fmpq_t c;
	fmpq_init(c);
	for (long d = fmpq_poly_degree(f); d >= 0; d--) {
		fmpq_poly_get_coeff_fmpq(c, f, d);
		if (fmpq_is_zero(c))
			continue;
		fit(a, a->n + 1);
		fmpq_set(&a->c[a->n], c);
		poly_mono *m = &a->m[a->n++];
		m->n = d > 0;
		m->v[0] = (uint16_t)var;
		m->e[0] = (uint16_t)d;
	}
	fmpq_clear(c);
}

int poly_set_str_pretty(poly_t a, const char *str, const char **names, const poly_ctx_t ctx)
{
	fmpq_mpoly_ctx_t fc;
	fmpq_mpoly_ctx_init(fc, ctx->nvars, ORD_LEX);
	fmpq_mpoly_t p;
	fmpq_mpoly_init(p, fc);
	int r = fmpq_mpoly_set_str_pretty(p, str, names, fc);
	if (r == 0) {
		unsigned long *e = xmalloc(ctx->nvars * sizeof *e);
		fmpq_t c;
		fmpq_init(c);
		a->n = 0;
		for (slong i = 0; i < fmpq_mpoly_length(p, fc); i++) {
			fmpq_mpoly_get_term_coeff_fmpq(c, p, i, fc);
			fmpq_mpoly_get_term_exp_ui(e, p, i, fc);
			poly_push_term_fmpq_ui(a, c, e, ctx);
		}
		normalise(a);
		fmpq_clear(c);
		free(e);
	}
	fmpq_mpoly_clear(p, fc);
	fmpq_mpoly_ctx_clear(fc);
	return r ? -1 : 0;
}
