/* fm: the Fourier-Motzkin feasibility test that prunes impossible pieces,
 * in FLINT integers and, for the small systems of almost every test, in
 * machine integers.  See sym.h and sym-internal.h. */
#include "predict/sym-internal.h"

#include <stdlib.h>
#include <string.h>

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

#define FM_MAXROWS 400

typedef struct fm_sys {
	int nv;        /* columns 0..nv-1 variables, nv = constant */
	int n, cap;
	fmpz **row;
} fm_sys;

static void fm_push(fm_sys *m, fmpz *r)
{
	ALLOC_GROW_FROM(m->row, m->n + 1, m->cap, 16);
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
	int *col = xmalloc((nv + 1) * sizeof *col);
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
			sym_used_closure(s, &s->atom_num[k], used);
	/* a column for each symbol used, not for each of the table */
	int nv = 0, natoms = 0;
	for (int k = 0; k < s->nvars; k++) {
		col[k] = used[k] ? nv++ : -1;
		natoms += used[k] && s->kind[k] == SYM_ATOM;
	}
	/* an atom q = floor(num/den) satisfies num - den*q >= 0 and den*q - num + den - 1 >= 0 */
	poly_struct *at = xmalloc((2 * natoms + 1) * sizeof *at);
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
