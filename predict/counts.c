/* counts: maps from op key to (min, max, expected) piecewise counts. */
#include "predict/counts.h"

#include <stdlib.h>
#include <string.h>

void counts_init(epi_counts *c) { memset(c, 0, sizeof *c); }

const sym_pw *tri_min(const epi_tri *t) { return t->same ? &t->exp : &t->min; }
const sym_pw *tri_max(const epi_tri *t) { return t->same ? &t->exp : &t->max; }

/* Whether KEY's count is a loop's own (counts.h): its expected count alone. */
static int exp_only(const char *key)
{
	return key[0] == '%';
}

/* Stores min and max separately, before they start to differ from exp. */
static void unshare(sym_ctx *s, epi_tri *t)
{
	if (!t->same)
		return;
	sym_pw_set(s, &t->min, &t->exp);
	sym_pw_set(s, &t->max, &t->exp);
	t->same = 0;
}

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
	free(c->hash);
	counts_init(c);
}

static unsigned key_hash(const char *k)
{
	unsigned h = 2166136261u;
	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 16777619u;
	return h;
}

static void hash_put(epi_counts *c, int i)
{
	unsigned m = (unsigned)c->hcap - 1, h = key_hash(c->key[i]) & m;
	while (c->hash[h])
		h = (h + 1) & m;
	c->hash[h] = i + 1;
}

/* Indexes every key (again) in a table at most half full. */
static void hash_build(epi_counts *c)
{
	int cap = 64;
	while (cap < 2 * c->n + 2)
		cap *= 2;
	free(c->hash);
	c->hash = xcalloc((size_t)cap, sizeof *c->hash);
	c->hcap = cap;
	for (int i = 0; i < c->n; i++)
		hash_put(c, i);
}

/* Keys looked up by the index past this many (the writers keep it, so that
 * threads reading one count at once never write). */
#define HASH_FROM 32

int counts_find(const epi_counts *c, const char *key)
{
	if (!c->hash) {
		for (int i = 0; i < c->n; i++)
			if (strcmp(c->key[i], key) == 0)
				return i;
		return -1;
	}
	unsigned m = (unsigned)c->hcap - 1;
	for (unsigned h = key_hash(key) & m; c->hash[h]; h = (h + 1) & m)
		if (strcmp(c->key[c->hash[h] - 1], key) == 0)
			return c->hash[h] - 1;
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
		c->key = xrealloc(c->key, c->cap * sizeof *c->key);
		c->v = xrealloc(c->v, c->cap * sizeof *c->v);
	}
	c->key[c->n] = xstrdup(key);
	epi_tri *t = &c->v[c->n++];
	if (c->n >= HASH_FROM && (!c->hash || 2 * c->n + 2 > c->hcap))
		hash_build(c);
	else if (c->hash)
		hash_put(c, c->n - 1);
	sym_pw_init(&t->min);
	sym_pw_init(&t->max);
	sym_pw_init(&t->exp);
	t->same = 1;
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

void counts_add_poly(sym_ctx *s, epi_counts *c, const char *key, const poly_t amount)
{
	sym_pw w;
	sym_pw_init(&w);
	sym_pw_set_poly(s, &w, amount);
	epi_tri *t = slot(c, key);
	if (!t->same) {
		sym_pw_add(s, &t->min, &w);
		sym_pw_add(s, &t->max, &w);
	}
	sym_pw_add(s, &t->exp, &w);
	sym_pw_clear(s, &w);
}

void counts_add_si(sym_ctx *s, epi_counts *c, const char *key, long amount)
{
	poly_t p;
	poly_init(p, s->ctx);
	poly_set_si(p, amount, s->ctx);
	counts_add_poly(s, c, key, p);
	poly_clear(p, s->ctx);
}

/* t += k x */
static void add_tri_k(sym_ctx *s, epi_tri *t, const epi_tri *x, long k)
{
	if (!x->same)
		unshare(s, t);
	if (k == 1) {
		if (!t->same) {
			sym_pw_add(s, &t->min, tri_min(x));
			sym_pw_add(s, &t->max, tri_max(x));
		}
		sym_pw_add(s, &t->exp, &x->exp);
		return;
	}
	fmpq_t q;
	fmpq_init(q);
	fmpq_set_si(q, k, 1);
	if (!t->same) {
		sym_pw_addmul_fmpq(s, &t->min, tri_min(x), q);
		sym_pw_addmul_fmpq(s, &t->max, tri_max(x), q);
	}
	sym_pw_addmul_fmpq(s, &t->exp, &x->exp, q);
	fmpq_clear(q);
}

/* t += x */
static void add_tri(sym_ctx *s, epi_tri *t, const epi_tri *x)
{
	add_tri_k(s, t, x, 1);
}

void counts_add(sym_ctx *s, epi_counts *dst, const epi_counts *a)
{
	for (int i = 0; i < a->n; i++)
		add_tri(s, slot(dst, a->key[i]), &a->v[i]);
	dst->approx |= a->approx;
}

void counts_add_scaled(sym_ctx *s, epi_counts *dst, const char *key, const epi_counts *a, int i, long k)
{
	add_tri_k(s, slot(dst, key), &a->v[i], k);
	dst->approx |= a->approx;
}

void counts_add_if(sym_ctx *s, epi_counts *dst, const epi_counts *a, int (*keep)(const char *key))
{
	for (int i = 0; i < a->n; i++)
		if (keep(a->key[i]))
			add_tri(s, slot(dst, a->key[i]), &a->v[i]);
	dst->approx |= a->approx;
}

void counts_add_all_keys(sym_ctx *s, epi_counts *dst, const epi_counts *const *a, int n, counts_where *w)
{
	int *dk = NULL; /* the piece's keys' places in DST, piece after piece */
	size_t nk = 0;
	for (int i = 0; i < n; i++)
		nk += (size_t)a[i]->n;
	dk = xmalloc((nk + 1) * sizeof *dk);
	nk = 0;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < a[i]->n; j++) {
			epi_tri *t = slot(dst, a[i]->key[j]); /* keys in the order counts_add() gives */
			if (!a[i]->v[j].same)
				unshare(s, t);
			dk[nk++] = (int)(t - dst->v);
		}
		dst->approx |= a[i]->approx;
	}
	w->from = xcalloc((size_t)dst->n + 2, sizeof *w->from);
	w->at = xmalloc((nk + 1) * sizeof *w->at);
	for (size_t k = 0; k < nk; k++)
		w->from[dk[k] + 2]++;
	for (int d = 0; d < dst->n; d++)
		w->from[d + 2] += w->from[d + 1];
	nk = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < a[i]->n; j++)
			w->at[w->from[dk[nk++] + 1]++] = &a[i]->v[j];
	free(dk);
}

void counts_add_all_key(sym_ctx *s, epi_counts *dst, int d, const counts_where *w)
{
	int m = w->from[d + 1] - w->from[d];
	const epi_tri *const *at = w->at + w->from[d];
	const sym_pw **exp = xmalloc(((size_t)m + 1) * sizeof *exp);
	const sym_pw **min = xmalloc(((size_t)m + 1) * sizeof *min);
	const sym_pw **max = xmalloc(((size_t)m + 1) * sizeof *max);
	epi_tri *t = &dst->v[d];
	for (int i = 0; i < m; i++) {
		exp[i] = &at[i]->exp;
		min[i] = tri_min(at[i]);
		max[i] = tri_max(at[i]);
	}
	if (!t->same) {
		sym_pw_add_all(s, &t->min, min, m);
		sym_pw_add_all(s, &t->max, max, m);
	}
	sym_pw_add_all(s, &t->exp, exp, m);
	free(exp);
	free(min);
	free(max);
}

void counts_where_free(counts_where *w)
{
	free(w->at);
	free(w->from);
	w->at = NULL;
	w->from = NULL;
}

void counts_adopt(sym_ctx *s, epi_counts *dst, epi_counts *a, const int *map, sym_moved *m)
{
	counts_clear(s, dst);
	*dst = *a;
	counts_init(a);
	for (int i = 0; i < dst->n; i++) {
		sym_pw_adopt(s, &dst->v[i].exp, map, m);
		sym_pw_adopt(s, &dst->v[i].min, map, m); /* empty while the same */
		sym_pw_adopt(s, &dst->v[i].max, map, m);
	}
}

int counts_map(sym_ctx *s, const sym_ctx *src, const epi_counts *a, int *map)
{
	int ret = 0;
	for (int i = 0; i < a->n && ret == 0; i++) {
		const epi_tri *x = &a->v[i];
		ret = sym_pw_map(s, src, &x->exp, map);
		if (ret == 0 && !x->same)
			ret = sym_pw_map(s, src, &x->min, map);
		if (ret == 0 && !x->same)
			ret = sym_pw_map(s, src, &x->max, map);
	}
	return ret;
}

void counts_select(sym_ctx *s, epi_counts *dst, const epi_counts *src, const char *prefix)
{
	size_t n = strlen(prefix);
	for (int i = 0; i < src->n; i++)
		if (strncmp(src->key[i], prefix, n) == 0)
			add_tri(s, slot(dst, src->key[i] + n), &src->v[i]);
	dst->approx |= src->approx;
}

void counts_drop(sym_ctx *s, epi_counts *c, const char *prefix)
{
	size_t n = strlen(prefix);
	int k = 0;
	for (int i = 0; i < c->n; i++) {
		if (strncmp(c->key[i], prefix, n) != 0) {
			c->key[k] = c->key[i];
			c->v[k++] = c->v[i];
			continue;
		}
		free(c->key[i]);
		sym_pw_clear(s, &c->v[i].min);
		sym_pw_clear(s, &c->v[i].max);
		sym_pw_clear(s, &c->v[i].exp);
	}
	c->n = k;
	free(c->hash);
	c->hash = NULL;
	c->hcap = 0;
	if (c->n >= HASH_FROM)
		hash_build(c);
}

/* DST's T (of a key in one branch or both: TA's, TB's, either NULL when
 * not in that branch) takes the lesser of the branches' minimums and the
 * greater of their maximums; LO and HI are scratch. */
static void branch_minmax(sym_ctx *s, epi_counts *dst, epi_tri *t, const epi_tri *ta, const epi_tri *tb, sym_pw *lo,
			  sym_pw *hi)
{
	sym_pw zero;
	sym_pw_init(&zero);
	unshare(s, t);
	if (!sym_pw_minmax(s, lo, hi, ta ? tri_min(ta) : &zero, tb ? tri_min(tb) : &zero))
		dst->approx = 1;
	sym_pw_add(s, &t->min, lo);
	if (!sym_pw_minmax(s, lo, hi, ta ? tri_max(ta) : &zero, tb ? tri_max(tb) : &zero))
		dst->approx = 1;
	sym_pw_add(s, &t->max, hi);
}

void counts_branch(sym_ctx *s, epi_counts *dst, const epi_counts *a, const epi_counts *b, const fmpq_t p)
{
	fmpq_t q;
	fmpq_init(q);
	fmpq_one(q);
	fmpq_sub(q, q, p);
	sym_pw lo, hi;
	sym_pw_init(&lo);
	sym_pw_init(&hi);
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
			if (!exp_only(x->key[i]))
				branch_minmax(s, dst, t, ta, tb, &lo, &hi);
			if (ta)
				sym_pw_addmul_fmpq(s, &t->exp, &ta->exp, p);
			if (tb)
				sym_pw_addmul_fmpq(s, &t->exp, &tb->exp, q);
		}
	}
	dst->approx |= a->approx | b->approx;
	sym_pw_clear(s, &lo);
	sym_pw_clear(s, &hi);
	fmpq_clear(q);
}

void counts_cut(sym_ctx *s, epi_counts *dst, const epi_counts *a, const epi_counts *b)
{
	for (int i = 0; i < a->n; i++) {
		const epi_tri *ta = &a->v[i];
		int j = counts_find(b, a->key[i]);
		epi_tri *t = slot(dst, a->key[i]);
		if (!exp_only(a->key[i])) {
			unshare(s, t);
			if (j >= 0)
				sym_pw_add(s, &t->min, tri_min(&b->v[j]));
			sym_pw_add(s, &t->max, tri_max(ta));
		}
		sym_pw_add(s, &t->exp, &ta->exp);
	}
	dst->approx = 1;
}

void counts_restrict(sym_ctx *s, epi_counts *c, const poly_t cond)
{
	for (int i = 0; i < c->n; i++) {
		epi_tri *t = &c->v[i];
		sym_pw_restrict(s, &t->exp, cond);
		if (!t->same) {
			sym_pw_restrict(s, &t->min, cond);
			sym_pw_restrict(s, &t->max, cond);
		}
	}
}

/* A per-call memo of transformed counts: loop bodies count most operations
 * the same number of times up to a constant factor (one load, two adds, one
 * iteration), so each distinct shape is summed or substituted once and the
 * others scaled.  Shapes are compared after dividing by the first
 * coefficient. */
typedef struct memo {
	int n, cap;
	sym_pw *in, *out;
	unsigned long *h; /* sym_pw_hash of in[i] */
} memo;

/* The first coefficient of W (W != 0), by which W is normalised. */
static void lead(sym_ctx *s, const sym_pw *w, fmpq_t c)
{
	poly_get_term_coeff_fmpq(c, w->p[0].v, 0, s->ctx);
}

enum xform { SUM, COMPOSE };

typedef struct xf {
	enum xform kind;
	int var;
	const poly_struct *lo, *hi;
	poly_struct *const *sub;
} xf;

static int apply(sym_ctx *s, sym_pw *w, const xf *x)
{
	if (x->kind == SUM)
		return sym_pw_sum(s, w, w, x->var, x->lo, x->hi);
	return sym_pw_compose(s, w, x->sub);
}

/* W = x(W), through the memo M. */
static int memo_apply(sym_ctx *s, memo *m, sym_pw *w, const xf *x)
{
	if (sym_pw_is_zero(w))
		return 0;
	fmpq_t c, ic;
	fmpq_init(c);
	fmpq_init(ic);
	lead(s, w, c);
	fmpq_inv(ic, c);
	sym_pw norm;
	sym_pw_init(&norm);
	int unit = fmpq_is_one(c);
	if (unit)
		norm = *w; /* borrowed, not copied */
	else
		sym_pw_addmul_fmpq(s, &norm, w, ic);
	int ret = 0, hit = -1;
	unsigned long h = sym_pw_hash(s, &norm);
	for (int i = 0; i < m->n && hit < 0; i++)
		if (m->h[i] == h && sym_pw_equal(s, &m->in[i], &norm))
			hit = i;
	if (hit < 0) {
		if (m->n == m->cap) {
			m->cap = m->cap ? 2 * m->cap : 8;
			m->in = xrealloc(m->in, m->cap * sizeof *m->in);
			m->out = xrealloc(m->out, m->cap * sizeof *m->out);
			m->h = xrealloc(m->h, m->cap * sizeof *m->h);
		}
		m->h[m->n] = h;
		sym_pw_init(&m->in[m->n]);
		sym_pw_init(&m->out[m->n]);
		sym_pw_set(s, &m->in[m->n], &norm);
		sym_pw_set(s, &m->out[m->n], &norm);
		ret = apply(s, &m->out[m->n], x);
		hit = m->n++;
	}
	if (unit)
		sym_pw_init(&norm); /* give back the borrowed pieces */
	if (ret == 0) {
		sym_pw_clear(s, w);
		sym_pw_addmul_fmpq(s, w, &m->out[hit], c);
	}
	sym_pw_clear(s, &norm);
	fmpq_clear(c);
	fmpq_clear(ic);
	return ret;
}

static void memo_clear(sym_ctx *s, memo *m)
{
	for (int i = 0; i < m->n; i++) {
		sym_pw_clear(s, &m->in[i]);
		sym_pw_clear(s, &m->out[i]);
	}
	free(m->in);
	free(m->out);
	free(m->h);
}

static int transform(sym_ctx *s, epi_counts *c, const xf *x)
{
	/* the counts in turn; one whose shape (up to a factor) no other has is
	 * transformed in place, the others through the memo */
	sym_pw **w = xmalloc((3 * (size_t)c->n + 1) * sizeof *w);
	int n = 0;
	for (int i = 0; i < c->n; i++) {
		epi_tri *t = &c->v[i];
		w[n++] = &t->exp;
		if (!t->same) {
			w[n++] = &t->min;
			w[n++] = &t->max;
		}
	}
	unsigned long *h = xmalloc(((size_t)n + 1) * sizeof *h);
	for (int j = 0; j < n; j++)
		h[j] = sym_pw_shape_hash(s, w[j]);
	memo m = {0};
	int ret = 0;
	for (int j = 0; j < n && ret == 0; j++) {
		int alone = 1;
		for (int k = 0; k < n && alone; k++)
			alone = k == j || h[k] != h[j];
		if (!alone)
			ret = memo_apply(s, &m, w[j], x);
		else if (!sym_pw_is_zero(w[j]))
			ret = apply(s, w[j], x);
	}
	memo_clear(s, &m);
	free(w);
	free(h);
	return ret;
}

int counts_sum(sym_ctx *s, epi_counts *c, int var, const poly_t lo, const poly_t hi)
{
	xf x = {.kind = SUM, .var = var, .lo = lo, .hi = hi};
	return transform(s, c, &x);
}

int counts_compose(sym_ctx *s, epi_counts *c, poly_struct *const *sub)
{
	xf x = {.kind = COMPOSE, .sub = sub};
	return transform(s, c, &x);
}

void counts_mul_poly(sym_ctx *s, epi_counts *c, const poly_t p)
{
	for (int i = 0; i < c->n; i++) {
		sym_pw_mul_poly(s, &c->v[i].min, p);
		sym_pw_mul_poly(s, &c->v[i].max, p);
		sym_pw_mul_poly(s, &c->v[i].exp, p);
	}
}

void counts_symbols(sym_ctx *s, const epi_counts *c, int *used)
{
	for (int i = 0; i < c->n; i++) {
		sym_pw_symbols(s, tri_min(&c->v[i]), used);
		sym_pw_symbols(s, tri_max(&c->v[i]), used);
		sym_pw_symbols(s, &c->v[i].exp, used);
	}
}

void counts_params(sym_ctx *s, const epi_counts *c, int *used)
{
	for (int i = 0; i < c->n; i++) {
		sym_pw_params(s, tri_min(&c->v[i]), used);
		sym_pw_params(s, tri_max(&c->v[i]), used);
		sym_pw_params(s, &c->v[i].exp, used);
	}
}
