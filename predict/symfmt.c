/* symfmt: counts as text: polynomials, the formula that holds for large
 * parameters with its condition, and the cache of formats.  See sym.h and
 * sym-internal.h. */
#include "predict/sym-internal.h"

#include <flint/fmpq_mat.h>
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
/* The coefficient of VAR (to the first power, alone) in C, a rational
 * where C is affine, into A. */
static void linear_coeff(sym_ctx *s, fmpq_t a, const poly_t c, int var)
{
	slong vars[1] = {var};
	ulong one[1] = {1};
	poly_t t;
	poly_init(t, CTX);
	poly_get_coeff_vars_ui(t, c, vars, one, 1, CTX);
	poly_get_fmpq(a, t, CTX);
	poly_clear(t, CTX);
}

/* The one variable P uses, or -1 when it uses none or several. */
static int only_var(sym_ctx *s, const poly_t p)
{
	int u[SYM_MAXVARS], v = -1, n = 0;
	poly_used_vars(u, p, CTX);
	for (int k = 0; k < s->nvars; k++)
		if (u[k]) {
			v = k;
			n++;
		}
	return n == 1 ? v : -1;
}

/* Where C is alpha*floor((a*p + b)/d) + beta (a > 0, p a parameter), the
 * bound on p that C >= 0 is into K, *P set to p and *UPPER to whether it
 * is p <= K rather than p >= K; returns 1, or 0 for any other C. */
static int floor_bound(sym_ctx *s, const poly_t c, int *P, fmpz_t K, int *upper)
{
	int A = only_var(s, c);
	if (A < 0 || s->kind[A] != SYM_ATOM || poly_degree_si(c, A, CTX) != 1 || fmpz_sgn(&s->atom_den[A]) <= 0)
		return 0;
	int p = only_var(s, &s->atom_num[A]);
	if (p < 0 || s->kind[p] != SYM_PARAM)
		return 0;
	fmpq_poly_t f;
	fmpq_poly_init(f);
	int ok = poly_get_fmpq_poly(f, &s->atom_num[A], p, CTX) && fmpq_poly_degree(f) == 1 &&
		 fmpz_is_one(fmpq_poly_denref(f));
	fmpz_t a, b, k0;
	fmpq_t al, be;
	fmpz_init(a); fmpz_init(b); fmpz_init(k0);
	fmpq_init(al); fmpq_init(be);
	if (ok) {
		fmpq_poly_get_coeff_fmpz(a, f, 1);
		fmpq_poly_get_coeff_fmpz(b, f, 0);
		ok = fmpz_sgn(a) > 0;
	}
	if (ok) {
		linear_coeff(s, al, c, A);
		const_term(s, be, c);
		fmpq_div(be, be, al);
		fmpq_neg(be, be); /* floor(...) >= be (alpha > 0) or <= be */
		*upper = fmpq_sgn(al) < 0;
		const fmpz *d = &s->atom_den[A];
		if (!*upper) { /* (a*p + b)/d >= k0 = ceil(be): p >= ceil((k0*d - b)/a) */
			fmpz_cdiv_q(k0, fmpq_numref(be), fmpq_denref(be));
			fmpz_mul(k0, k0, d);
			fmpz_sub(k0, k0, b);
			fmpz_cdiv_q(K, k0, a);
		} else { /* (a*p + b)/d < k0 + 1, k0 = floor(be): p <= floor(((k0 + 1)*d - 1 - b)/a) */
			fmpz_fdiv_q(k0, fmpq_numref(be), fmpq_denref(be));
			fmpz_add_ui(k0, k0, 1);
			fmpz_mul(k0, k0, d);
			fmpz_sub_ui(k0, k0, 1);
			fmpz_sub(k0, k0, b);
			fmpz_fdiv_q(K, k0, a);
		}
		*P = p;
	}
	fmpz_clear(a); fmpz_clear(b); fmpz_clear(k0);
	fmpq_clear(al); fmpq_clear(be);
	fmpq_poly_clear(f);
	return ok;
}

static void cons_put(sbuf *b, sym_ctx *s, const poly_t c)
{
	int p, upper;
	fmpz_t K;
	fmpz_init(K);
	if (floor_bound(s, c, &p, K, &upper)) { /* floor((n + 3)/4) >= 1 reads n >= 1 */
		sb_puts(b, s->name[p]);
		sb_puts(b, upper ? " <= " : " >= ");
		if (fmpz_sgn(K) < 0)
			sb_puts(b, "-");
		sb_put_fmpz_abs(b, K);
		fmpz_clear(K);
		return;
	}
	fmpz_clear(K);
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
static int format_guard(sym_ctx *s, const sym_pw *w, const sym_env *env, poly_t sum, sym_guard *all);
static char *guard_text(sym_ctx *s, const sym_guard *all, int overlap, const sym_env *env);

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
	linear_coeff(s, a, &g->c[0], p);
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

/* The most classes of the parameters modulo their floor terms'
 * denominators that format_classes() formats a count in. */
#define FMT_MAXCLASSES 256

/* A count's floor terms, each floor((a*p + b)/d) of one parameter p. */
typedef struct floors {
	int n;
	int atom[SYM_MAXVARS], par[SYM_MAXVARS];
	fmpz a[SYM_MAXVARS], b[SYM_MAXVARS];
	long mod[SYM_MAXVARS]; /* per parameter: the lcm of its terms' d, 0 when none */
	long classes;          /* the product of the mods */
	int nparams;           /* the parameters with terms */
} floors;

/* Lists W's floor terms into F; returns 0, or -1 when W has none, or a term
 * of another form, or more than FMT_MAXCLASSES classes (F then cleared). */
static int floors_of(sym_ctx *s, const sym_pw *w, floors *F)
{
	int used[SYM_MAXVARS];
	memset(used, 0, sizeof *used * (size_t)s->cap);
	sym_pw_symbols(s, w, used);
	memset(F->mod, 0, sizeof F->mod);
	F->n = 0;
	F->classes = 1;
	F->nparams = 0;
	fmpq_poly_t f;
	fmpq_poly_init(f);
	int ok = 1;
	for (int k = 0; k < s->nvars && ok; k++) {
		if (!used[k] || s->kind[k] != SYM_ATOM)
			continue;
		int p = only_var(s, &s->atom_num[k]);
		ok = p >= 0 && s->kind[p] == SYM_PARAM && fmpz_sgn(&s->atom_den[k]) > 0 &&
		     fmpz_cmp_si(&s->atom_den[k], FMT_MAXCLASSES) <= 0 &&
		     poly_get_fmpq_poly(f, &s->atom_num[k], p, CTX) && fmpq_poly_degree(f) == 1 &&
		     fmpz_is_one(fmpq_poly_denref(f));
		if (!ok)
			break;
		long d = fmpz_get_si(&s->atom_den[k]), m = F->mod[p] ? F->mod[p] : 1;
		F->nparams += F->mod[p] == 0;
		F->mod[p] = m / (long)n_gcd((ulong)m, (ulong)d) * d;
		ok = F->mod[p] <= FMT_MAXCLASSES;
		int i = F->n++;
		F->atom[i] = k;
		F->par[i] = p;
		fmpz_init(&F->a[i]);
		fmpz_init(&F->b[i]);
		fmpq_poly_get_coeff_fmpz(&F->a[i], f, 1);
		fmpq_poly_get_coeff_fmpz(&F->b[i], f, 0);
	}
	fmpq_poly_clear(f);
	for (int p = 0; p < s->nvars && ok; p++)
		if (F->mod[p]) {
			F->classes *= F->mod[p];
			ok = F->classes <= FMT_MAXCLASSES;
		}
	if (ok && F->n > 0)
		return 0;
	for (int i = 0; i < F->n; i++) {
		fmpz_clear(&F->a[i]);
		fmpz_clear(&F->b[i]);
	}
	return -1;
}

static void floors_clear(floors *F)
{
	for (int i = 0; i < F->n; i++) {
		fmpz_clear(&F->a[i]);
		fmpz_clear(&F->b[i]);
	}
}

/* (a*r + b) mod d of term I at residue R of its parameter. */
static void floor_rem(sym_ctx *s, const floors *F, int i, long r, fmpz_t out)
{
	fmpz_mul_si(out, &F->a[i], r);
	fmpz_add(out, out, &F->b[i]);
	fmpz_fdiv_r(out, out, &s->atom_den[F->atom[i]]);
}

/* OUT = term I where its parameter is R modulo its mod, an affine
 * polynomial: floor((a*p + b)/d) = (a*p + b - ((a*r + b) mod d))/d. */
static void floor_affine(sym_ctx *s, const floors *F, int i, long r, poly_t out)
{
	fmpz_t t;
	fmpq_t q;
	fmpz_init(t);
	fmpq_init(q);
	const fmpz *d = &s->atom_den[F->atom[i]];
	fmpq_set_fmpz_frac(q, &F->a[i], d);
	poly_scalar_mul_fmpq(out, &s->gen[F->par[i]], q, CTX);
	floor_rem(s, F, i, r, t);
	fmpz_sub(t, &F->b[i], t);
	fmpq_set_fmpz_frac(q, t, d);
	poly_add_fmpq(out, out, q, CTX);
	fmpz_clear(t);
	fmpq_clear(q);
}

/* Where ALL's constraints on parameter P are none (1) or one threshold
 * p >= K (0, *K set), the others (on other parameters alone) written into
 * REST; -1 otherwise. */
static int guard_threshold(sym_ctx *s, const sym_guard *all, int p, long *K, sbuf *rest)
{
	int ret = 1, u[SYM_MAXVARS];
	fmpq_t a, b;
	fmpq_init(a);
	fmpq_init(b);
	for (int j = 0; j < all->n && ret >= 0; j++) {
		const poly_struct *c = &all->c[j];
		poly_used_vars(u, c, CTX);
		if (!u[p]) {
			if (rest->len)
				sb_puts(rest, " and ");
			cons_put(rest, s, c);
			continue;
		}
		if (ret == 0 || only_var(s, c) != p || poly_total_degree_si(c, CTX) != 1) {
			ret = -1;
			break;
		}
		linear_coeff(s, a, c, p);
		const_term(s, b, c);
		ret = -1;
		if (fmpq_sgn(a) > 0) { /* a*p + b >= 0: p >= ceil(-b/a) */
			fmpq_div(b, b, a);
			fmpq_neg(b, b);
			fmpz_t k;
			fmpz_init(k);
			fmpz_cdiv_q(k, fmpq_numref(b), fmpq_denref(b));
			if (fmpz_fits_si(k)) {
				*K = fmpz_get_si(k);
				ret = 0;
			}
			fmpz_clear(k);
		}
	}
	fmpq_clear(a);
	fmpq_clear(b);
	return ret;
}

/* The least K >= 0, not above K0, with W = SUM at every value of P from K
 * to K0 (W's only parameter); SUM may have floor terms. */
static long lower_threshold(sym_ctx *s, const sym_pw *w, const poly_t sum, int p, long k0)
{
	sym_pw ws;
	sym_pw_init(&ws);
	sym_pw_set_poly(s, &ws, sum);
	sym_env e;
	sym_env_init(&e);
	e.bound[p] = 1;
	fmpq_t x, y;
	fmpq_init(x);
	fmpq_init(y);
	long k = k0;
	int missing;
	while (k > 0 && k0 - k < 4 * FMT_MAXCLASSES) {
		fmpq_set_si(&e.val[p], k - 1, 1);
		if (sym_pw_eval(s, w, &e, x, &missing) != 0 || sym_pw_eval(s, &ws, &e, y, &missing) != 0 ||
		    !fmpq_equal(x, y))
			break;
		k--;
	}
	fmpq_clear(x);
	fmpq_clear(y);
	sym_env_clear(&e);
	sym_pw_clear(s, &ws);
	return k;
}

static int mono_eq(const poly_mono *a, const poly_mono *b)
{
	return a->n == b->n && memcmp(a->v, b->v, a->n * sizeof *a->v) == 0 &&
	       memcmp(a->e, b->e, a->n * sizeof *a->e) == 0;
}

/* The coefficient of monomial M in P into C. */
static void coeff_of(fmpq_t c, const poly_t p, const poly_mono *m)
{
	fmpq_zero(c);
	for (int i = 0; i < p->n; i++)
		if (mono_eq(&p->m[i], m))
			fmpq_set(c, &p->c[i]);
}

/* Where the classes' polynomials SUMS (one per class of F's one parameter)
 * are SUMS[0] plus polynomials c_k times the change of F's terms from class
 * to class, SUMS[0] + sum_k c_k*(term_k - its class-0 affine form) into
 * OUT, which is then each class's polynomial in its class; returns 0, or -1
 * when no such c_k exist. The c_k come from the reduced row echelon form
 * of the system, a column per term and per monomial of SUMS. */
static int fit_floors(sym_ctx *s, const floors *F, poly_struct *sums, poly_t out)
{
	poly_mono *mono = NULL;
	int nm = 0, capm = 0, na = F->n;
	for (long r = 0; r < F->classes; r++)
		for (int i = 0; i < sums[r].n; i++) {
			int j = 0;
			while (j < nm && !mono_eq(&mono[j], &sums[r].m[i]))
				j++;
			if (j == nm) {
				ALLOC_GROW_FROM(mono, nm + 1, capm, 8);
				mono[nm++] = sums[r].m[i];
			}
		}
	/* row r: sum_k -(rem_k(r) - rem_k(0))/d_k * c_k = sums[r] - sums[0] */
	fmpq_mat_t A, R;
	fmpq_mat_init(A, F->classes - 1, na + nm);
	fmpq_mat_init(R, F->classes - 1, na + nm);
	fmpz_t r0, rr;
	fmpq_t q, q0;
	fmpz_init(r0); fmpz_init(rr);
	fmpq_init(q); fmpq_init(q0);
	for (long r = 1; r < F->classes; r++) {
		for (int k = 0; k < na; k++) {
			floor_rem(s, F, k, 0, r0);
			floor_rem(s, F, k, r, rr);
			fmpz_sub(rr, r0, rr);
			fmpq_set_fmpz_frac(fmpq_mat_entry(A, r - 1, k), rr, &s->atom_den[F->atom[k]]);
		}
		for (int j = 0; j < nm; j++) {
			coeff_of(q, &sums[r], &mono[j]);
			coeff_of(q0, &sums[0], &mono[j]);
			fmpq_sub(fmpq_mat_entry(A, r - 1, na + j), q, q0);
		}
	}
	fmpq_mat_rref(R, A);
	int ok = 1;
	poly_t c, t, a0;
	poly_init(c, CTX);
	poly_init(t, CTX);
	poly_init(a0, CTX);
	poly_set(out, &sums[0], CTX);
	for (long i = 0; i < F->classes - 1 && ok; i++) {
		int k = 0;
		while (k < na + nm && fmpq_is_zero(fmpq_mat_entry(R, i, k)))
			k++;
		if (k == na + nm)
			break; /* the rows left are zero */
		ok = k < na; /* a row 0 = nonzero: no solution */
		if (!ok)
			break;
		/* c_k from its pivot row, the terms not pivots taken as 0 */
		poly_zero(c, CTX);
		for (int j = 0; j < nm; j++)
			if (!fmpq_is_zero(fmpq_mat_entry(R, i, na + j))) {
				poly_set_term(t, fmpq_mat_entry(R, i, na + j), &mono[j], CTX);
				poly_add(c, c, t, CTX);
			}
		floor_affine(s, F, k, 0, a0);
		poly_sub(a0, &s->gen[F->atom[k]], a0, CTX);
		poly_mul(t, c, a0, CTX);
		poly_add(out, out, t, CTX);
	}
	poly_clear(c, CTX);
	poly_clear(t, CTX);
	poly_clear(a0, CTX);
	fmpz_clear(r0); fmpz_clear(rr);
	fmpq_clear(q); fmpq_clear(q0);
	fmpq_mat_clear(A);
	fmpq_mat_clear(R);
	free(mono);
	return ok ? 0 : -1;
}

/* The condition under which PLAIN, W's polynomial at a point of large
 * parameters, holds where the classes of F's one parameter P have the
 * polynomials SUMS that no formula joins: large parameters in the classes
 * (at most 4 named) where it is the class's; NULL when it is none's. */
static char *plain_classes(sym_ctx *s, const floors *F, const poly_struct *sums, const poly_t plain, int p)
{
	long match[4];
	int nmatch = 0;
	poly_struct subs[SYM_MAXVARS], *sub[SYM_MAXVARS];
	for (int k = 0; k < s->nvars; k++)
		sub[k] = NULL;
	for (int i = 0; i < F->n; i++) {
		poly_init(&subs[i], CTX);
		sub[F->atom[i]] = &subs[i];
	}
	sym_pw pr;
	sym_pw_init(&pr);
	for (long r = 0; r < F->classes && nmatch < 4; r++) {
		for (int i = 0; i < F->n; i++)
			floor_affine(s, F, i, r, &subs[i]);
		sym_pw_set_poly(s, &pr, plain);
		if (sym_pw_compose(s, &pr, sub) < 0)
			break;
		if (pr.n == 1 && pr.p[0].g.n == 0 ? poly_equal(pr.p[0].v, &sums[r], CTX) : poly_is_zero(&sums[r], CTX) && pr.n == 0)
			match[nmatch++] = r;
	}
	sym_pw_clear(s, &pr);
	for (int i = 0; i < F->n; i++)
		poly_clear(&subs[i], CTX);
	if (nmatch == 0)
		return NULL;
	sbuf b = {0};
	sb_puts(&b, "large parameters and ");
	sb_puts(&b, s->name[p]);
	sb_puts(&b, " mod ");
	sb_putu(&b, (ulong)F->classes);
	sb_puts(&b, " = ");
	for (int i = 0; i < nmatch; i++) {
		if (i)
			sb_puts(&b, i == nmatch - 1 ? " or " : ", ");
		sb_putu(&b, (ulong)match[i]);
	}
	return b.s;
}

/* W's formula, where its floor terms are floor((a*p + b)/d) of one
 * parameter p each, from W in each class of the parameters modulo the
 * least common multiple of their terms' denominators, where each term is
 * affine: when every class gives the same polynomial (a tiled loop's
 * 32*floor(n/32) in one class of n and a sum of floor terms that is n in
 * the others), that polynomial; when the classes of the terms' one
 * parameter differ by polynomials times the terms' changes (n +
 * ceil(n/32)), the polynomial with those terms (fit_floors); otherwise
 * PLAIN, W's polynomial at a point of large parameters, with the classes
 * where it holds (plain_classes). Its condition: the threshold on that
 * parameter beyond all the classes' (lowered while W still equals the
 * formula where it is W's only parameter) beside the same constraints on
 * the others, else the classes' own when they agree, else "large
 * parameters". Into SUM; returns the condition, or NULL (SUM undefined)
 * when there is no such formula. */
static char *format_classes(sym_ctx *s, const sym_pw *w, const poly_t plain, poly_t sum)
{
	floors F;
	if (floors_of(s, w, &F) < 0)
		return NULL;
	int used[SYM_MAXVARS], nused = 0;
	memset(used, 0, sizeof *used * (size_t)s->cap);
	sym_pw_params(s, w, used);
	for (int k = 0; k < s->nvars; k++)
		nused += used[k] != 0;
	poly_struct *sums = xmalloc(F.classes * sizeof *sums);
	poly_struct subs[SYM_MAXVARS], *sub[SYM_MAXVARS];
	for (int k = 0; k < s->nvars; k++)
		sub[k] = NULL;
	for (int i = 0; i < F.n; i++) {
		poly_init(&subs[i], CTX);
		sub[F.atom[i]] = &subs[i];
	}
	char *cond0 = NULL, *rest0 = NULL;
	int ok = 1, same = 1, same_cond = 1, thresholds = F.nparams == 1;
	int p = F.par[0]; /* with one parameter of floor terms, its thresholds */
	long K = 0;
	long c = 0;
	for (; c < F.classes && ok; c++) {
		long res[SYM_MAXVARS], rest = c; /* each parameter's residue, in mixed radix */
		for (int q = 0; q < s->nvars; q++)
			if (F.mod[q]) {
				res[q] = rest % F.mod[q];
				rest /= F.mod[q];
			}
		for (int i = 0; i < F.n; i++)
			floor_affine(s, &F, i, res[F.par[i]], &subs[i]);
		sym_pw wr;
		sym_pw_init(&wr);
		sym_pw_set(s, &wr, w);
		poly_init(&sums[c], CTX);
		ok = sym_pw_compose(s, &wr, sub) == 0;
		if (ok) {
			sym_guard all;
			guard_init(&all);
			int overlap = format_guard(s, &wr, NULL, &sums[c], &all);
			long k = 0;
			sbuf rest = {0};
			sb_putn(&rest, "", 0);
			int th = overlap ? -1 : guard_threshold(s, &all, p, &k, &rest);
			/* the constraints on the other parameters, the same in every class */
			if (c == 0)
				rest0 = rest.s;
			thresholds &= th >= 0 && (c == 0 || strcmp(rest.s, rest0) == 0);
			if (c)
				free(rest.s);
			if (th == 0 && k > K)
				K = k;
			char *cr = guard_text(s, &all, overlap, NULL);
			if (c == 0) {
				cond0 = cr;
			} else {
				same &= poly_equal(&sums[c], &sums[0], CTX);
				same_cond &= strcmp(cr, cond0) == 0;
				free(cr);
			}
			sym_guard_clear(s, &all);
			/* classes that differ can only be fitted with one parameter */
			ok = same || F.nparams == 1;
		}
		sym_pw_clear(s, &wr);
	}
	char *cond = NULL;
	if (ok && !same && fit_floors(s, &F, sums, sum) < 0) {
		cond = plain_classes(s, &F, sums, plain, F.par[0]);
		poly_set(sum, plain, CTX);
		ok = 0;
	} else if (ok && same) {
		poly_set(sum, &sums[0], CTX);
	}
	if (ok && thresholds) {
		/* the threshold lowered where P is W's one parameter */
		sbuf b = {0};
		sb_puts(&b, rest0);
		if (K > 0 || !same_cond || cond0[0]) {
			if (b.len)
				sb_puts(&b, " and ");
			sb_puts(&b, s->name[p]);
			sb_puts(&b, " >= ");
			sb_putu(&b, (ulong)(nused == 1 ? lower_threshold(s, w, sum, p, K > 0 ? K : 0) : K > 0 ? K : 0));
		}
		cond = b.s;
	} else if (ok) {
		cond = xstrdup(same_cond ? cond0 : "large parameters");
	}
	free(cond0);
	free(rest0);
	for (long k = 0; k < c; k++)
		poly_clear(&sums[k], CTX);
	free(sums);
	for (int i = 0; i < F.n; i++)
		poly_clear(&subs[i], CTX);
	floors_clear(&F);
	return cond;
}

/* The formula of W for large parameters into SUM, and its condition: W's
 * polynomial at a point of large parameters, or where no condition of the
 * parameters alone tells where that holds (its pieces are those of one
 * class of a floor term's parameter), format_classes()'s when it finds
 * one. */
static char *format_uncached(sym_ctx *s, const sym_pw *w, poly_t sum)
{
	char *cond = format_at(s, w, NULL, sum);
	if (strcmp(cond, "large parameters") != 0 && !strstr(cond, "floor("))
		return cond;
	poly_t cs;
	poly_init(cs, CTX);
	char *cc = format_classes(s, w, sum, cs);
	/* a condition told, with floor terms, against none or the same
	 * polynomial: the plain condition, which tells more */
	if (cc && strcmp(cond, "large parameters") != 0 &&
	    (poly_equal(cs, sum, CTX) || strncmp(cc, "large parameters", 16) == 0)) {
		free(cc);
		cc = NULL;
	}
	if (cc) {
		free(cond);
		cond = cc;
		poly_swap(sum, cs, CTX);
	}
	poly_clear(cs, CTX);
	return cond;
}

/* The polynomial of W at ENV's point (NULL: for large parameters) into
 * SUM, and into ALL (initialised, the caller's to clear) the condition
 * under which it holds; returns whether no condition could be told (other
 * pieces overlap it, or it takes too many constraints). */
static int format_guard(sym_ctx *s, const sym_pw *w, const sym_env *env, poly_t sum, sym_guard *all)
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
	sym_guard_from(s, all, cons, ncons);
	free(cons);
	/* a condition of more than FMT_MAXCONS constraints that no two of
	 * them bound alike is no reading for a user, and taking those implied
	 * by the others out, or testing the other pieces against it, would
	 * take minutes: the formula is said to hold where it is computed */
	int overlap = sym_guard_reduce_upto(s, all, FMT_MAXCONS) < 0;
	/* each inactive piece's constraints after the condition's: shallow
	 * copies, read only, in one array for the feasibility test */
	poly_struct *sys = xmalloc((all->n + 1) * sizeof *sys);
	if (all->n)
		memcpy(sys, all->c, all->n * sizeof *sys);
	int cap = all->n + 1;
	for (int i = 0; i < w->n && !overlap; i++) {
		if (active[i])
			continue;
		const sym_guard *g = &w->p[i].g;
		if (all->n + g->n > cap) {
			cap = all->n + g->n;
			sys = xrealloc(sys, cap * sizeof *sys);
		}
		int n = all->n, apart = 0;
		for (int j = 0; j < g->n && !apart; j++) {
			int dup = 0; /* a constraint the condition has already */
			for (int t = 0; t < all->n && !dup && !apart; t++) {
				dup = poly_equal(&all->c[t], &g->c[j], CTX);
				apart = opposed(s, &all->c[t], &g->c[j]);
			}
			if (!dup)
				sys[n++] = g->c[j];
		}
		overlap = !apart && sym_feasible(s, sys, n);
	}
	free(sys);
	if (!overlap)
		relax_threshold(s, w, sum, all);
	else if (none) /* no piece here, and none that can be told: 0 */
		poly_zero(sum, CTX);
	free(active);
	for (int k = 0; k < s->nvars; k++)
		fmpq_clear(&vals[k]);
	return overlap;
}

/* The text of a condition from format_guard(). */
static char *guard_text(sym_ctx *s, const sym_guard *all, int overlap, const sym_env *env)
{
	sbuf c = {0};
	sb_putn(&c, "", 0);
	if (overlap) {
		sb_puts(&c, env ? "the values given" : "large parameters");
	} else {
		for (int j = 0; j < all->n; j++) {
			if (j)
				sb_puts(&c, " and ");
			cons_put(&c, s, &all->c[j]);
		}
	}
	return c.s;
}

/* format_guard()'s polynomial into SUM and its condition as text. */
static char *format_at(sym_ctx *s, const sym_pw *w, const sym_env *env, poly_t sum)
{
	sym_guard all;
	guard_init(&all);
	int overlap = format_guard(s, w, env, sum, &all);
	char *c = guard_text(s, &all, overlap, env);
	sym_guard_clear(s, &all);
	return c;
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
