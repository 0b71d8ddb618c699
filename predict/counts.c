/* counts: maps from op key to (min, max, expected) piecewise counts. */
#include "predict/counts.h"

#include <stdlib.h>
#include <string.h>

void counts_init(epi_counts *c) { memset(c, 0, sizeof *c); }

void counts_clear(sym_ctx *s, epi_counts *c)
{
	for (int i = 0; i < c->n; i++) {
		free(c->key[i]);
		sym_pw_clear(s, &c->v[i].min);
		sym_pw_clear(s, &c->v[i].max);
		sym_pw_clear(s, &c->v[i].exp);
	}
	free(c->key);
	free(c->v);
	counts_init(c);
}

int counts_find(const epi_counts *c, const char *key)
{
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->key[i], key) == 0)
			return i;
	return -1;
}

/* The slot for KEY, created empty if missing. */
static epi_tri *slot(epi_counts *c, const char *key)
{
	int i = counts_find(c, key);
	if (i >= 0)
		return &c->v[i];
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 8;
		c->key = realloc(c->key, c->cap * sizeof *c->key);
		c->v = realloc(c->v, c->cap * sizeof *c->v);
	}
	c->key[c->n] = strdup(key);
	epi_tri *t = &c->v[c->n++];
	sym_pw_init(&t->min);
	sym_pw_init(&t->max);
	sym_pw_init(&t->exp);
	return t;
}

void counts_set(sym_ctx *s, epi_counts *dst, const epi_counts *src)
{
	if (dst == src)
		return;
	counts_clear(s, dst);
	counts_add(s, dst, src);
	dst->approx = src->approx;
}

void counts_add_poly(sym_ctx *s, epi_counts *c, const char *key, const fmpq_mpoly_t amount)
{
	sym_pw w;
	sym_pw_init(&w);
	sym_pw_set_poly(s, &w, amount);
	epi_tri *t = slot(c, key);
	sym_pw_add(s, &t->min, &w);
	sym_pw_add(s, &t->max, &w);
	sym_pw_add(s, &t->exp, &w);
	sym_pw_clear(s, &w);
}

void counts_add_si(sym_ctx *s, epi_counts *c, const char *key, long amount)
{
	fmpq_mpoly_t p;
	fmpq_mpoly_init(p, s->ctx);
	fmpq_mpoly_set_si(p, amount, s->ctx);
	counts_add_poly(s, c, key, p);
	fmpq_mpoly_clear(p, s->ctx);
}

void counts_add(sym_ctx *s, epi_counts *dst, const epi_counts *a)
{
	for (int i = 0; i < a->n; i++) {
		epi_tri *t = slot(dst, a->key[i]);
		sym_pw_add(s, &t->min, &a->v[i].min);
		sym_pw_add(s, &t->max, &a->v[i].max);
		sym_pw_add(s, &t->exp, &a->v[i].exp);
	}
	dst->approx |= a->approx;
}

void counts_branch(sym_ctx *s, epi_counts *dst, const epi_counts *a, const epi_counts *b, const fmpq_t p)
{
	fmpq_t q;
	fmpq_init(q);
	fmpq_one(q);
	fmpq_sub(q, q, p);
	sym_pw zero, lo, hi;
	sym_pw_init(&zero); sym_pw_init(&lo); sym_pw_init(&hi);
	for (int pass = 0; pass < 2; pass++) {
		const epi_counts *x = pass ? b : a, *y = pass ? a : b;
		for (int i = 0; i < x->n; i++) {
			int j = counts_find(y, x->key[i]);
			if (pass == 1 && j >= 0)
				continue; /* done in the first pass */
			const epi_tri *tx = &x->v[i];
			const epi_tri *ty = j >= 0 ? &y->v[j] : NULL;
			const epi_tri *ta = pass ? ty : tx, *tb = pass ? tx : ty;
			epi_tri *t = slot(dst, x->key[i]);
			if (!sym_pw_minmax(s, &lo, &hi, ta ? &ta->min : &zero, tb ? &tb->min : &zero))
				dst->approx = 1;
			sym_pw_add(s, &t->min, &lo);
			if (!sym_pw_minmax(s, &lo, &hi, ta ? &ta->max : &zero, tb ? &tb->max : &zero))
				dst->approx = 1;
			sym_pw_add(s, &t->max, &hi);
			if (ta)
				sym_pw_addmul_fmpq(s, &t->exp, &ta->exp, p);
			if (tb)
				sym_pw_addmul_fmpq(s, &t->exp, &tb->exp, q);
		}
	}
	dst->approx |= a->approx | b->approx;
	sym_pw_clear(s, &zero); sym_pw_clear(s, &lo); sym_pw_clear(s, &hi);
	fmpq_clear(q);
}

int counts_sum(sym_ctx *s, epi_counts *c, int var, const fmpq_mpoly_t lo, const fmpq_mpoly_t hi)
{
	for (int i = 0; i < c->n; i++) {
		if (sym_pw_sum(s, &c->v[i].min, &c->v[i].min, var, lo, hi) < 0 ||
		    sym_pw_sum(s, &c->v[i].max, &c->v[i].max, var, lo, hi) < 0 ||
		    sym_pw_sum(s, &c->v[i].exp, &c->v[i].exp, var, lo, hi) < 0)
			return -1;
	}
	return 0;
}

int counts_compose(sym_ctx *s, epi_counts *c, fmpq_mpoly_struct *const *sub)
{
	for (int i = 0; i < c->n; i++)
		if (sym_pw_compose(s, &c->v[i].min, sub) < 0 || sym_pw_compose(s, &c->v[i].max, sub) < 0 ||
		    sym_pw_compose(s, &c->v[i].exp, sub) < 0)
			return -1;
	return 0;
}

void counts_mul_poly(sym_ctx *s, epi_counts *c, const fmpq_mpoly_t p)
{
	for (int i = 0; i < c->n; i++) {
		sym_pw_mul_poly(s, &c->v[i].min, p);
		sym_pw_mul_poly(s, &c->v[i].max, p);
		sym_pw_mul_poly(s, &c->v[i].exp, p);
	}
}

void counts_params(sym_ctx *s, const epi_counts *c, int *used)
{
	for (int i = 0; i < c->n; i++) {
		sym_pw_params(s, &c->v[i].min, used);
		sym_pw_params(s, &c->v[i].max, used);
		sym_pw_params(s, &c->v[i].exp, used);
	}
}
