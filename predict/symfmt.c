/* symfmt: counts as text: polynomials, the formula that holds for large
 * parameters with its condition, and the cache of formats.  See sym.h and
 * sym-internal.h. */
#include "predict/sym-internal.h"

#include <flint/fmpz_poly_factor.h>
#include <stdlib.h>
#include <string.h>

/* ---- polynomials as text ---------------------------------------------- */

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
		b->s = xrealloc(b->s, b->cap);
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

/* The most constraints a formula's condition is written with (beyond the
 * looser of parallel ones). */
#define FMT_MAXCONS 32

/* The polynomial of W for large parameters (into SUM) and its condition. */
static char *format_uncached(sym_ctx *s, const sym_pw *w, poly_t sum);
static char *format_at(sym_ctx *s, const sym_pw *w, const sym_env *env, poly_t sum);

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
	sym_pw_symbols(s, w, used);
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
			sym_poly_eval(s, y, sum, ptr);
			if (!fmpq_equal(x, y))
				break;
			fmpq_sub_si(k, k, 1);
			changed = 1;
		}
		if (changed) {
			sym_guard_own(s, g);
			poly_sub_fmpq(&g->c[0], &s->gen[p], k, CTX);
		}
		sym_env_clear(&e);
	}
	poly_clear(t, CTX);
	fmpq_clear(k); fmpq_clear(a); fmpq_clear(x); fmpq_clear(y);
	return changed;
}

/* Forgets the cached formats (their polynomials die with a context). */
void sym_fmt_reset(sym_ctx *s)
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
		s->fmtidx = xcalloc(size, sizeof *s->fmtidx);
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
		*formula = xstrdup("0");
		*cond = xstrdup("");
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
		ALLOC_GROW_FROM(s->fmt, s->nfmt + 1, s->capfmt, 64);
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
		*formula = xstrdup(hit->formula);
	} else {
		poly_t sum;
		poly_init(sum, CTX);
		poly_scalar_mul_fmpq(sum, hit->sum, c, CTX);
		*formula = poly_factored(s, sum);
		poly_clear(sum, CTX);
	}
	*cond = xstrdup(hit->cond);
	if (!unit)
		sym_pw_clear(s, &norm);
	fmpq_clear(c);
	fmpq_clear(ic);
}

static char *format_uncached(sym_ctx *s, const sym_pw *w, poly_t sum)
{
	return format_at(s, w, NULL, sum);
}

/* The polynomial of W at ENV's point (NULL: for large parameters) into
 * SUM, and its condition. */
static char *format_at(sym_ctx *s, const sym_pw *w, const sym_env *env, poly_t sum)
{
	fmpq vals[SYM_MAXVARS];
	fmpq *ptr[SYM_MAXVARS];
	for (int k = 0; k < s->nvars; k++) {
		fmpq_init(&vals[k]);
		ptr[k] = &vals[k];
	}
	int missing;
	char *active = xcalloc(w->n + 1, 1);
	int nactive = 0;
	/* large parameters in increasing order of their symbols, or where
	 * no piece holds there, in decreasing order (fir(n, taps): taps > n
	 * first, where its loop runs no iteration, then n > taps) */
	for (int order = 1; order <= (env ? 1 : 2) && nactive == 0; order++) {
		sym_env_fill(s, w, env, env ? 0 : order, vals, &missing, NULL);
		for (int i = 0; i < w->n; i++)
			nactive += active[i] = (char)sym_guard_holds(s, &w->p[i].g, ptr);
	}
	poly_zero(sum, CTX);
	sym_guard all;
	guard_init(&all);
	/* zero for large parameters (bounds that shrink as they grow): show
	 * the first piece and where it holds instead */
	int none = nactive == 0 && w->n > 0;
	if (none)
		active[0] = 1;
	int ncons = 0;
	for (int i = 0; i < w->n; i++)
		if (active[i])
			ncons += w->p[i].g.n;
	const poly_struct **cons = xmalloc((ncons + 1) * sizeof *cons);
	ncons = 0;
	for (int i = 0; i < w->n; i++) {
		if (!active[i])
			continue;
		poly_add(sum, sum, w->p[i].v, CTX);
		for (int j = 0; j < w->p[i].g.n; j++)
			cons[ncons++] = &w->p[i].g.c[j];
	}
	sym_guard_from(s, &all, cons, ncons);
	free(cons);
	/* a condition of more than FMT_MAXCONS constraints that no two of
	 * them bound alike is no reading for a user, and taking those implied
	 * by the others out, or testing the other pieces against it, would
	 * take minutes: the formula is said to hold where it is computed */
	int overlap = sym_guard_reduce_upto(s, &all, FMT_MAXCONS) < 0;
	/* each inactive piece's constraints after the condition's: shallow
	 * copies, read only, in one array for the feasibility test */
	poly_struct *sys = xmalloc((all.n + 1) * sizeof *sys);
	if (all.n)
		memcpy(sys, all.c, all.n * sizeof *sys);
	int cap = all.n + 1;
	for (int i = 0; i < w->n && !overlap; i++) {
		if (active[i])
			continue;
		const sym_guard *g = &w->p[i].g;
		if (all.n + g->n > cap) {
			cap = all.n + g->n;
			sys = xrealloc(sys, cap * sizeof *sys);
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
	else if (none) /* no piece here, and none that can be told: 0 */
		poly_zero(sum, CTX);
	sbuf c = {0};
	sb_putn(&c, "", 0);
	if (overlap) {
		sb_puts(&c, env ? "the values given" : "large parameters");
	} else {
		for (int j = 0; j < all.n; j++) {
			if (j)
				sb_puts(&c, " and ");
			cons_put(&c, s, &all.c[j]);
		}
	}
	free(active);
	sym_guard_clear(s, &all);
	for (int k = 0; k < s->nvars; k++)
		fmpq_clear(&vals[k]);
	return c.s;
}

int sym_pw_format_at(sym_ctx *s, const sym_pw *w, const sym_env *env, char **formula, char **cond)
{
	int used[SYM_MAXVARS];
	memset(used, 0, sizeof *used * (size_t)s->cap);
	sym_pw_params(s, w, used);
	for (int k = 0; k < s->nvars; k++)
		if (used[k] && !(env && env->bound[k]))
			return -1;
	poly_t sum;
	poly_init(sum, CTX);
	*cond = format_at(s, w, env, sum);
	*formula = poly_factored(s, sum);
	poly_clear(sum, CTX);
	return 0;
}
