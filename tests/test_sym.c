/* Unit tests for the symbolic engine: every summation rule is checked
 * against brute-force enumeration of the same iteration space. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "predict/counts.h"
#include "predict/sym.h"
#include "predict/sym-internal.h"

static sym_ctx S;
static int vn, vm, vi, vj, vk;

static int setup(void **st)
{
	sym_init(&S);
	vn = sym_var(&S, "n", SYM_PARAM);
	vm = sym_var(&S, "m", SYM_PARAM);
	vi = sym_var(&S, "i", SYM_LOOP);
	vj = sym_var(&S, "j", SYM_LOOP);
	vk = sym_var(&S, "k", SYM_LOOP);
	return 0;
}

static int teardown(void **st)
{
	sym_free(&S);
	return 0;
}

/* A polynomial parsed from text in the variables' names. */
static poly_struct *P(const char *text)
{
	static poly_struct pool[64];
	static int next, inited;
	if (!inited) {
		for (int i = 0; i < 64; i++)
			poly_init(&pool[i], S.ctx);
		inited = 1;
	}
	poly_struct *p = &pool[next++ % 64];
	const char *names[SYM_MAXVARS];
	for (int k = 0; k < SYM_MAXVARS; k++)
		names[k] = k < S.nvars ? S.name[k] : "zz";
	assert_int_equal(poly_set_str_pretty(p, text, names, S.ctx), 0);
	return p;
}

static long eval2(const sym_pw *w, long n, long m)
{
	sym_env e;
	sym_env_init(&e);
	fmpq_set_si(&e.val[vn], n, 1);
	fmpq_set_si(&e.val[vm], m, 1);
	e.bound[vn] = e.bound[vm] = 1;
	fmpq_t q;
	fmpq_init(q);
	int missing = -1;
	assert_int_equal(sym_pw_eval(&S, w, &e, q, &missing), 0);
	assert_true(fmpz_is_one(fmpq_denref(q)));
	long r = fmpz_get_si(fmpq_numref(q));
	fmpq_clear(q);
	sym_env_clear(&e);
	return r;
}

/* sum_{v=lo}^{hi} body */
static void sum(sym_pw *out, const sym_pw *body, int v, const char *lo, const char *hi)
{
	sym_pw r;
	sym_pw_init(&r);
	assert_int_equal(sym_pw_sum(&S, &r, body, v, P(lo), P(hi)), 0);
	sym_pw_clear(&S, out);
	*out = r;
}

static void test_faulhaber(void **st)
{
	for (int k = 0; k <= 6; k++) {
		char buf[32];
		snprintf(buf, sizeof buf, "i^%d", k);
		sym_pw w, r;
		sym_pw_init(&w);
		sym_pw_init(&r);
		sym_pw_set_poly(&S, &w, P(buf));
		sum(&r, &w, vi, "0", "n - 1");
		for (long n = -3; n <= 15; n++) {
			long ref = 0, p;
			for (long i = 0; i < n; i++) {
				p = 1;
				for (int e = 0; e < k; e++)
					p *= i;
				ref += p;
			}
			assert_int_equal(eval2(&r, n, 0), ref);
		}
		sym_pw_clear(&S, &w);
		sym_pw_clear(&S, &r);
	}
}

static void test_triangular(void **st)
{
	/* for i in [0, n) for j in [i+1, n): 1 */
	sym_pw w;
	sym_pw_init(&w);
	sym_pw_set_si(&S, &w, 1);
	sum(&w, &w, vj, "i + 1", "n - 1");
	sum(&w, &w, vi, "0", "n - 1");
	for (long n = -4; n <= 20; n++) {
		long ref = 0;
		for (long i = 0; i < n; i++)
			for (long j = i + 1; j < n; j++)
				ref++;
		assert_int_equal(eval2(&w, n, 0), ref);
	}
	char *f, *c;
	sym_pw_format(&S, &w, &f, &c);
	assert_string_equal(f, "n*(n - 1)/2");
	assert_string_equal(c, "n >= 0");
	free(f);
	free(c);
	sym_pw_clear(&S, &w);
}

static void test_negative_inner(void **st)
{
	/* for i in [0, n) for j in [0, i - 5): j runs 0 times for i <= 5 */
	sym_pw w;
	sym_pw_init(&w);
	sym_pw_set_poly(&S, &w, P("j + 1"));
	sum(&w, &w, vj, "0", "i - 6");
	sum(&w, &w, vi, "0", "n - 1");
	for (long n = -2; n <= 25; n++) {
		long ref = 0;
		for (long i = 0; i < n; i++)
			for (long j = 0; j < i - 5; j++)
				ref += j + 1;
		assert_int_equal(eval2(&w, n, 0), ref);
	}
	char *f, *c;
	sym_pw_format(&S, &w, &f, &c);
	assert_string_equal(c, "n >= 4");
	free(f);
	free(c);
	sym_pw_clear(&S, &w);
}

static void test_three_deep_two_params(void **st)
{
	/* for i < n, for j <= i, for k in [j, m) */
	sym_pw w;
	sym_pw_init(&w);
	sym_pw_set_si(&S, &w, 1);
	sum(&w, &w, vk, "j", "m - 1");
	sum(&w, &w, vj, "0", "i");
	sum(&w, &w, vi, "0", "n - 1");
	for (long n = -2; n <= 9; n++)
		for (long m = -2; m <= 9; m++) {
			long ref = 0;
			for (long i = 0; i < n; i++)
				for (long j = 0; j <= i; j++)
					for (long k = j; k < m; k++)
						ref++;
			assert_int_equal(eval2(&w, n, m), ref);
		}
	sym_pw_clear(&S, &w);
}

static void test_strides(void **st)
{
	/* for (i = 0; i < n; i += 3) for (j = i; j < n; j += 2): i + j
	 * as i = 3t, j = i + 2u */
	int vt = sym_var(&S, "t", SYM_LOOP), vu = sym_var(&S, "u", SYM_LOOP);
	(void)vt;
	sym_pw w;
	sym_pw_init(&w);
	sym_pw_set_poly(&S, &w, P("i + i + 2*u"));
	fmpz_t two, three;
	fmpz_init_set_ui(two, 2);
	fmpz_init_set_ui(three, 3);
	poly_t hi;
	poly_init(hi, S.ctx);
	assert_int_equal(sym_floor(&S, hi, P("n - i - 1"), two), 0);
	sym_pw r;
	sym_pw_init(&r);
	assert_int_equal(sym_pw_sum(&S, &r, &w, vu, P("0"), hi), 0);
	poly_struct *sub[SYM_MAXVARS] = {0};
	sub[vi] = P("3*t");
	assert_int_equal(sym_pw_compose(&S, &r, sub), 0);
	assert_int_equal(sym_floor(&S, hi, P("n - 1"), three), 0);
	assert_int_equal(sym_pw_sum(&S, &w, &r, vt, P("0"), hi), 0);
	for (long n = -3; n <= 30; n++) {
		long ref = 0;
		for (long i = 0; i < n; i += 3)
			for (long j = i; j < n; j += 2)
				ref += i + j;
		assert_int_equal(eval2(&w, n, 0), ref);
	}
	poly_clear(hi, S.ctx);
	fmpz_clear(two);
	fmpz_clear(three);
	sym_pw_clear(&S, &w);
	sym_pw_clear(&S, &r);
}

static void test_compose_params(void **st)
{
	/* count n*m, then (n, m) := (m, 2n + 1) simultaneously */
	sym_pw w;
	sym_pw_init(&w);
	sym_pw_set_si(&S, &w, 1);
	sum(&w, &w, vi, "0", "n - 1");
	sum(&w, &w, vj, "1", "m");
	poly_struct *sub[SYM_MAXVARS] = {0};
	sub[vn] = P("m");
	sub[vm] = P("2*n + 1");
	assert_int_equal(sym_pw_compose(&S, &w, sub), 0);
	for (long n = -2; n <= 6; n++)
		for (long m = -2; m <= 6; m++) {
			long a = m > 0 ? m : 0, b = 2 * n + 1 > 0 ? 2 * n + 1 : 0;
			assert_int_equal(eval2(&w, n, m), a * b);
		}
	sym_pw_clear(&S, &w);
}

/* A sum or a substitution past the table's term budget is refused with
 * the reason, leaving the count as it was; within it the same operations
 * give the exact counts. */
static long pw_terms(const sym_pw *w)
{
	long t = 0;
	for (int i = 0; i < w->n; i++)
		t += poly_length(w->p[i].v, S.ctx);
	return t;
}

static void test_term_budget(void **st)
{
	/* sum over i in [0, n) of (i + m)^5, a polynomial of degree 6 in n, m:
	 * exact within the budget, refused within one term less */
	sym_pw w, r;
	sym_pw_init(&w);
	sym_pw_init(&r);
	sym_pw_set_poly(&S, &w, P("(i + m)^5"));
	assert_int_equal(sym_pw_sum(&S, &r, &w, vi, P("0"), P("n - 1")), 0);
	for (long n = -1; n <= 6; n++)
		for (long m = -3; m <= 3; m++) {
			long ref = 0;
			for (long i = 0; i < n; i++)
				ref += (i + m) * (i + m) * (i + m) * (i + m) * (i + m);
			assert_int_equal(eval2(&r, n, m), ref);
		}
	long terms = pw_terms(&r);
	assert_true(terms > 10);
	S.maxterms = terms;
	sym_pw_clear(&S, &r);
	assert_int_equal(sym_pw_sum(&S, &r, &w, vi, P("0"), P("n - 1")), 0);
	assert_int_equal(pw_terms(&r), terms);
	sym_pw_clear(&S, &r);
	S.maxterms = terms - 1;
	char want[64];
	snprintf(want, sizeof want, "a count of more than %ld terms", terms - 1);
	assert_int_equal(sym_pw_sum(&S, &r, &w, vi, P("0"), P("n - 1")), -1);
	assert_non_null(strstr(S.err, want));
	assert_int_equal(r.n, 0);
	/* n := n + m + 1 in n*m: n*m + m^2 + m, three terms */
	sym_pw_set_poly(&S, &w, P("n*m"));
	poly_struct *sub[SYM_MAXVARS] = {0};
	sub[vn] = P("n + m + 1");
	S.maxterms = 2;
	assert_int_equal(sym_pw_compose(&S, &w, sub), -1);
	assert_non_null(strstr(S.err, "a count of more than 2 terms"));
	assert_int_equal(eval2(&w, 3, 4), 12); /* unchanged */
	S.maxterms = 3;
	assert_int_equal(sym_pw_compose(&S, &w, sub), 0);
	assert_int_equal(eval2(&w, 3, 4), 32);
	S.maxterms = SYM_MAXTERMS;
	sym_pw_clear(&S, &w);
	sym_pw_clear(&S, &r);
}

/* A count moved to another symbol table (as a chunk's counts are merged
 * into the analysis's) keeps its value, with the parameters matched by name
 * and the floor atoms by definition, whatever the symbols' order there. */
/* A table for imports: another parameter q and m (returned, Q's index in
 * *Q), and an atom of its own, A = floor(q/2). */
static int other_table(sym_ctx *D, poly_t a, const fmpz_t two, int *q)
{
	sym_init(D);
	*q = sym_var(D, "q", SYM_PARAM);
	int m = sym_var(D, "m", SYM_PARAM);
	poly_init(a, D->ctx);
	poly_gen(a, *q, D->ctx);
	assert_int_equal(sym_floor(D, a, a, two), 0);
	return m;
}

static void test_import(void **st)
{
	/* for (i = 0; i < n; i += 3) for (j = 0; j < m - i; j += 2): 1 */
	int vt = sym_var(&S, "t", SYM_LOOP);
	sym_pw w, r;
	sym_pw_init(&w);
	sym_pw_init(&r);
	sym_pw_set_si(&S, &w, 1);
	fmpz_t two, three;
	fmpz_init_set_ui(two, 2);
	fmpz_init_set_ui(three, 3);
	poly_t hi;
	poly_init(hi, S.ctx);
	assert_int_equal(sym_floor(&S, hi, P("m - i - 1"), two), 0);
	assert_int_equal(sym_pw_sum(&S, &r, &w, vj, P("0"), hi), 0);
	poly_struct *sub[SYM_MAXVARS] = {0};
	sub[vi] = P("3*t");
	assert_int_equal(sym_pw_compose(&S, &r, sub), 0);
	assert_int_equal(sym_floor(&S, hi, P("n - 1"), three), 0);
	assert_int_equal(sym_pw_sum(&S, &w, &r, vt, P("0"), hi), 0);

	sym_ctx D;
	poly_t a;
	int dq, dm = other_table(&D, a, two, &dq);
	int map[SYM_MAXVARS];
	for (int k = 0; k < SYM_MAXVARS; k++)
		map[k] = -1;
	sym_pw x, y;
	sym_pw_init(&x);
	sym_pw_init(&y);
	assert_int_equal(sym_pw_import(&D, &x, &S, &w, map), 0);
	assert_int_equal(map[vm], dm);
	int dn = map[vn];
	assert_true(dn > dm && D.kind[dn] == SYM_PARAM && strcmp(D.name[dn], "n") == 0);
	int natoms = 0;
	for (int k = 0; k < D.nvars; k++)
		natoms += D.kind[k] == SYM_ATOM;
	/* a second import through the same map makes no symbol, and the
	 * value is the same function of n and m as in S */
	int nvars = D.nvars;
	assert_int_equal(sym_pw_import(&D, &y, &S, &w, map), 0);
	assert_int_equal(D.nvars, nvars);
	assert_true(sym_pw_equal(&D, &x, &y));
	assert_true(natoms >= 2); /* floor(q/2) and the import's own */
	sym_env e;
	sym_env_init(&e);
	e.bound[dn] = e.bound[dm] = e.bound[dq] = 1;
	fmpq_t q;
	fmpq_init(q);
	for (long n = -2; n <= 14; n++)
		for (long m = -2; m <= 14; m++) {
			long ref = 0;
			for (long i = 0; i < n; i += 3)
				for (long j = 0; j < m - i; j += 2)
					ref++;
			assert_int_equal(eval2(&w, n, m), ref);
			fmpq_set_si(&e.val[dn], n, 1);
			fmpq_set_si(&e.val[dm], m, 1);
			int missing = -1;
			assert_int_equal(sym_pw_eval(&D, &x, &e, q, &missing), 0);
			assert_int_equal(fmpz_get_si(fmpq_numref(q)), ref);
		}
	fmpq_clear(q);
	sym_env_clear(&e);

	/* as a merge does it: the symbols mapped first, into a table like D,
	 * which gets the same symbols in the same order; then the import
	 * through a copy of that table, while the table itself goes on taking
	 * symbols: the same function as the direct import */
	sym_ctx E;
	poly_t b;
	int eq;
	assert_int_equal(other_table(&E, b, two, &eq), dm);
	int map2[SYM_MAXVARS];
	for (int k = 0; k < SYM_MAXVARS; k++)
		map2[k] = -1;
	assert_int_equal(sym_pw_map(&E, &S, &w, map2), 0);
	assert_int_equal(E.nvars, D.nvars);
	for (int k = 0; k < D.nvars; k++) {
		assert_int_equal(E.kind[k], D.kind[k]);
		if (D.name[k])
			assert_string_equal(E.name[k], D.name[k]);
	}
	assert_memory_equal(map2, map, sizeof map);
	sym_ctx *copy = malloc(sizeof *copy);
	*copy = E;
	assert_true(sym_var(&E, "later", SYM_PARAM) >= 0);
	sym_pw z;
	sym_pw_init(&z);
	assert_int_equal(sym_pw_import(copy, &z, &S, &w, map2), 0);
	assert_true(sym_pw_equal(&D, &x, &z));
	sym_pw_clear(copy, &z);
	free(copy);
	poly_clear(b, E.ctx);
	sym_free(&E);

	sym_pw_clear(&D, &x);
	sym_pw_clear(&D, &y);
	poly_clear(a, D.ctx);
	sym_free(&D);
	poly_clear(hi, S.ctx);
	fmpz_clear(two);
	fmpz_clear(three);
	sym_pw_clear(&S, &w);
	sym_pw_clear(&S, &r);
}

static void test_minmax(void **st)
{
	sym_pw a, b, lo, hi;
	sym_pw_init(&a); sym_pw_init(&b); sym_pw_init(&lo); sym_pw_init(&hi);
	sym_pw_set_poly(&S, &a, P("n + 3"));
	sym_pw_set_poly(&S, &b, P("n + 1"));
	assert_int_equal(sym_pw_minmax(&S, &lo, &hi, &a, &b), 1);
	assert_int_equal(eval2(&lo, 10, 0), 11);
	assert_int_equal(eval2(&hi, 10, 0), 13);
	/* affine difference: min(n, 7) */
	sym_pw_set_poly(&S, &a, P("n"));
	sym_pw_set_si(&S, &b, 7);
	assert_int_equal(sym_pw_minmax(&S, &lo, &hi, &a, &b), 1);
	for (long n = 0; n < 15; n++) {
		assert_int_equal(eval2(&lo, n, 0), n < 7 ? n : 7);
		assert_int_equal(eval2(&hi, n, 0), n > 7 ? n : 7);
	}
	/* nonlinear difference: only bounds */
	sym_pw_set_poly(&S, &a, P("n^2"));
	sym_pw_set_poly(&S, &b, P("3*n"));
	assert_int_equal(sym_pw_minmax(&S, &lo, &hi, &a, &b), 0);
	assert_int_equal(eval2(&lo, 5, 0), 0);
	assert_int_equal(eval2(&hi, 5, 0), 40);
	sym_pw_clear(&S, &a); sym_pw_clear(&S, &b);
	sym_pw_clear(&S, &lo); sym_pw_clear(&S, &hi);
}

/* Two branches merged (an if taken with probability 1/4): an operation's
 * count gets the branches' minimum and maximum, a loop's own count
 * ("%LINE/...", read as expected only) its expected count alone. */
static void test_branch_loop_counts(void **st)
{
	epi_counts a, b, m;
	counts_init(&a);
	counts_init(&b);
	counts_init(&m);
	counts_add_poly(&S, &a, "add.f64", P("n"));
	counts_add_poly(&S, &a, "%7/iter", P("n"));
	counts_add_poly(&S, &b, "add.f64", P("3*n"));
	counts_add_poly(&S, &b, "%7/flops", P("2*n"));
	fmpq_t p;
	fmpq_init(p);
	fmpq_set_si(p, 1, 4);
	counts_branch(&S, &m, &a, &b, p);
	int add = counts_find(&m, "add.f64"), iter = counts_find(&m, "%7/iter"), flops = counts_find(&m, "%7/flops");
	assert_true(add >= 0 && iter >= 0 && flops >= 0);
	assert_int_equal(m.v[add].same, 0);
	assert_int_equal(eval2(tri_min(&m.v[add]), 8, 0), 8);
	assert_int_equal(eval2(tri_max(&m.v[add]), 8, 0), 24);
	assert_int_equal(eval2(&m.v[add].exp, 8, 0), 20); /* 8/4 + 24*3/4 */
	assert_int_equal(m.v[iter].same, 1);
	assert_int_equal(eval2(&m.v[iter].exp, 8, 0), 2);
	assert_int_equal(m.v[flops].same, 1);
	assert_int_equal(eval2(&m.v[flops].exp, 8, 0), 12);
	/* cut short (a break: B's counts up to its earliest end): the same */
	epi_counts c;
	counts_init(&c);
	counts_cut(&S, &c, &b, &a);
	flops = counts_find(&c, "%7/flops");
	add = counts_find(&c, "add.f64");
	assert_int_equal(c.v[flops].same, 1);
	assert_int_equal(eval2(&c.v[flops].exp, 8, 0), 16);
	assert_int_equal(c.v[add].same, 0);
	assert_int_equal(eval2(tri_min(&c.v[add]), 8, 0), 8);
	assert_int_equal(eval2(tri_max(&c.v[add]), 8, 0), 24);
	fmpq_clear(p);
	counts_clear(&S, &a);
	counts_clear(&S, &b);
	counts_clear(&S, &m);
	counts_clear(&S, &c);
}

static void test_missing_param(void **st)
{
	sym_pw w;
	sym_pw_init(&w);
	sym_pw_set_poly(&S, &w, P("n*m"));
	sym_env e;
	sym_env_init(&e);
	fmpq_set_si(&e.val[vn], 4, 1);
	e.bound[vn] = 1;
	fmpq_t q;
	fmpq_init(q);
	int missing = -1;
	assert_int_equal(sym_pw_eval(&S, &w, &e, q, &missing), -1);
	assert_int_equal(missing, vm);
	fmpq_clear(q);
	sym_env_clear(&e);
	sym_pw_clear(&S, &w);
}

static void test_feasible(void **st)
{
	/* n - 2 >= 0 and 1 - n >= 0 is empty; 2n - 1 >= 0 and -2n >= 0 has no integer point */
	poly_struct c[2];
	poly_init(&c[0], S.ctx);
	poly_init(&c[1], S.ctx);
	poly_set(&c[0], P("n - 2"), S.ctx);
	poly_set(&c[1], P("1 - n"), S.ctx);
	assert_int_equal(sym_feasible(&S, c, 2), 0);
	poly_set(&c[1], P("5 - n"), S.ctx);
	assert_int_equal(sym_feasible(&S, c, 2), 1);
	poly_set(&c[0], P("2*n + 2*m - 1"), S.ctx);
	poly_set(&c[1], P("-2*n - 2*m"), S.ctx);
	assert_int_equal(sym_feasible(&S, c, 2), 0);
	poly_clear(&c[0], S.ctx);
	poly_clear(&c[1], S.ctx);
}

/* Evaluation is exact on either side of what machine integers hold:
 * n^3/6 - m*n/2 + 7/3 against the same computed in FLINT rationals, at
 * values whose terms fit in 64 bits, in 128 bits only, and in neither. */
static void test_eval_exact(void **st)
{
	sym_pw w;
	sym_pw_init(&w);
	sym_pw_set_poly(&S, &w, P("1/6*n^3 - 1/2*m*n + 7/3"));
	const char *ns[] = {"5", "-1048577", "1099511627776", "-3000000000000", "12157665459056928801", "0"};
	const char *ms[] = {"3", "1048575", "-7", "4611686018427387903", "-2", "-9223372036854775808"};
	for (int i = 0; i < 6; i++) {
		sym_env e;
		sym_env_init(&e);
		fmpq_set_str(&e.val[vn], ns[i], 10);
		fmpq_set_str(&e.val[vm], ms[i], 10);
		e.bound[vn] = e.bound[vm] = 1;
		fmpq_t got, want, t;
		fmpq_init(got);
		fmpq_init(want);
		fmpq_init(t);
		int missing = -1;
		assert_int_equal(sym_pw_eval(&S, &w, &e, got, &missing), 0);
		fmpq_pow_si(want, &e.val[vn], 3); /* n^3/6 */
		fmpq_set_si(t, 1, 6);
		fmpq_mul(want, want, t);
		fmpq_mul(t, &e.val[vm], &e.val[vn]); /* - m*n/2 */
		fmpq_div_2exp(t, t, 1);
		fmpq_sub(want, want, t);
		fmpq_set_si(t, 7, 3); /* + 7/3 */
		fmpq_add(want, want, t);
		assert_true(fmpq_equal(got, want));
		fmpq_clear(got);
		fmpq_clear(want);
		fmpq_clear(t);
		sym_env_clear(&e);
	}
	sym_pw_clear(&S, &w);
}

/* sym_feasible() eliminates in machine integers where a system fits:
 * on random systems (floor atoms among the variables, rational
 * coefficients, and coefficients so large that the elimination outgrows
 * machine integers midway) it answers as the FLINT elimination does. */
static void test_feasible_small(void **st)
{
	poly_t a;
	fmpz_t four;
	poly_init(a, S.ctx);
	fmpz_init_set_ui(four, 4);
	assert_int_equal(sym_floor(&S, a, P("n + 3"), four), 0); /* floor((n + 3)/4): an atom */
	int va = S.nvars - 1;
	assert_int_equal(S.kind[va], SYM_ATOM);
	const int var[] = {vn, vm, vi, vj, va};
	unsigned long x = 12345;
	int answers[2] = {0, 0};
	poly_struct c[6];
	for (int i = 0; i < 6; i++)
		poly_init(&c[i], S.ctx);
	poly_t t;
	poly_init(t, S.ctx);
	for (int round = 0; round < 4000; round++) {
		int nc = 1 + (int)(round % 6), nv = 1 + (int)(round / 6 % 5);
		for (int i = 0; i < nc; i++) {
			x = x * 6364136223846793005UL + 1442695040888963407UL;
			poly_set_si(&c[i], (long)(x >> 40) % 61 - 30, S.ctx);
			for (int k = 0; k < nv; k++) {
				x = x * 6364136223846793005UL + 1442695040888963407UL;
				long coef = (long)(x >> 40) % 13 - 6;
				if (round % 7 == 3)
					coef *= 1L << 40; /* products beyond 2^62 after one step */
				poly_gen(t, var[k], S.ctx);
				poly_scalar_mul_si(t, t, coef, S.ctx);
				poly_add(&c[i], &c[i], t, S.ctx);
			}
			if (round % 5 == 2) /* rational coefficients */
				poly_scalar_div_fmpz(&c[i], &c[i], four, S.ctx);
		}
		int r = sym_feasible(&S, c, nc);
		assert_int_equal(r, sym_feasible_flint(&S, c, nc));
		answers[r]++;
	}
	/* both answers came, often */
	assert_true(answers[0] > 400 && answers[1] > 400);
	for (int i = 0; i < 6; i++)
		poly_clear(&c[i], S.ctx);
	poly_clear(t, S.ctx);
	poly_clear(a, S.ctx);
	fmpz_clear(four);
}

/* A trip-count parameter is never the program's variable of its name,
 * in its table and in one its counts are imported into. */
static void test_trip_var(void **st)
{
	sym_ctx S, D;
	sym_init(&S);
	sym_init(&D);
	int p = sym_var(&S, "T3", SYM_PARAM), t = sym_trip_var(&S, "T3_trip", 3, 1);
	assert_true(p >= 0 && t >= 0 && p != t);
	assert_false(sym_is_trip(&S, p));
	assert_true(sym_is_trip(&S, t));
	assert_int_equal(sym_trip_var(&S, "T3_trip", 3, 1), t);
	assert_int_equal(sym_var(&S, "T3", SYM_PARAM), p);
	int t2 = sym_trip_var(&S, "T3_2", 3, 2); /* the second loop of the line */
	assert_true(t2 >= 0 && t2 != t && t2 != p);
	/* a table with a trip count named as S's program variable, met first */
	int dt = sym_trip_var(&D, "T3", 3, 1);
	sym_pw w, x;
	sym_pw_init(&w);
	sym_pw_init(&x);
	sym_pw_set_si(&S, &w, 1);
	poly_t pt;
	poly_init(pt, S.ctx);
	poly_mul(pt, &S.gen[p], &S.gen[t], S.ctx);
	sym_pw_mul_poly(&S, &w, pt);
	int map[SYM_MAXVARS];
	for (int k = 0; k < SYM_MAXVARS; k++)
		map[k] = -1;
	assert_int_equal(sym_pw_import(&D, &x, &S, &w, map), 0);
	assert_int_equal(map[t], dt); /* the same loop's trip count */
	assert_true(map[p] >= 0 && map[p] != dt && !sym_is_trip(&D, map[p]));
	/* T3 = 5 the program's, the trip count 7: 35 */
	sym_env e;
	sym_env_init(&e);
	fmpq_set_si(&e.val[map[p]], 5, 1);
	fmpq_set_si(&e.val[dt], 7, 1);
	e.bound[map[p]] = e.bound[dt] = 1;
	fmpq_t q;
	fmpq_init(q);
	int missing = -1;
	assert_int_equal(sym_pw_eval(&D, &x, &e, q, &missing), 0);
	assert_true(fmpq_equal_si(q, 35));
	(void)st;
	fmpq_clear(q);
	sym_env_clear(&e);
	poly_clear(pt, S.ctx);
	sym_pw_clear(&S, &w);
	sym_pw_clear(&D, &x);
	sym_free(&S);
	sym_free(&D);
}

/* OUT = floor(x_V / 2), the floor term made in T. */
static void floor_half(sym_ctx *T, poly_t out, int v)
{
	fmpz_t two;
	fmpz_init_set_ui(two, 2);
	poly_t num;
	poly_init(num, T->ctx);
	poly_gen(num, v, T->ctx);
	assert_int_equal(sym_floor(T, out, num, two), 0);
	poly_clear(num, T->ctx);
	fmpz_clear(two);
}

/* A floor term made after a collection freed a slot below its variable's
 * (a loop variable gone, the parameter kept) still follows that variable:
 * evaluated after it, and rewritten when a call replaces it. */
static void test_atom_after_freed_slot(void **st)
{
	sym_ctx T;
	sym_init(&T);
	int i = sym_var(&T, "i", SYM_LOOP), p = sym_var(&T, "p", SYM_PARAM);
	assert_true(i < p);
	int used[SYM_MAXVARS] = {0};
	used[p] = 1;
	sym_collect(&T, used); /* frees i's slot */
	poly_t hi;
	poly_init(hi, T.ctx);
	floor_half(&T, hi, p);
	/* sum_{j=1}^{floor(p/2)} 1 */
	int j = sym_var(&T, "j", SYM_LOOP);
	sym_pw w;
	sym_pw_init(&w);
	sym_pw_set_si(&T, &w, 1);
	poly_t one;
	poly_init(one, T.ctx);
	poly_set_si(one, 1, T.ctx);
	assert_int_equal(sym_pw_sum(&T, &w, &w, j, one, hi), 0);
	sym_env e;
	sym_env_init(&e);
	fmpq_t q;
	fmpq_init(q);
	int missing = -1;
	for (long v = 0; v <= 9; v++) {
		fmpq_set_si(&e.val[p], v, 1);
		e.bound[p] = 1;
		assert_int_equal(sym_pw_eval(&T, &w, &e, q, &missing), 0);
		assert_true(fmpq_equal_si(q, v / 2));
	}
	/* a call passes p = 2q + 1: floor(p/2) is q */
	int vq = sym_var(&T, "q", SYM_PARAM);
	poly_struct *sub[SYM_MAXVARS] = {0};
	poly_t arg;
	poly_init(arg, T.ctx);
	poly_gen(arg, vq, T.ctx);
	poly_scalar_mul_si(arg, arg, 2, T.ctx);
	poly_add_si(arg, arg, 1, T.ctx);
	sub[p] = arg;
	assert_int_equal(sym_pw_compose(&T, &w, sub), 0);
	for (long v = 0; v <= 9; v++) {
		sym_env_clear(&e);
		sym_env_init(&e);
		fmpq_set_si(&e.val[vq], v, 1);
		e.bound[vq] = 1;
		assert_int_equal(sym_pw_eval(&T, &w, &e, q, &missing), 0);
		assert_true(fmpq_equal_si(q, v));
	}
	sym_env_clear(&e);
	fmpq_clear(q);
	sym_pw_clear(&T, &w);
	poly_clear(arg, T.ctx);
	poly_clear(one, T.ctx);
	poly_clear(hi, T.ctx);
	sym_free(&T);
}

/* A guard of more constraints than a condition is written with, none
 * parallel to another: sym_guard_reduce_upto keeps them all (no
 * elimination, which over floor terms took minutes) and says so, and a
 * count on it is said to hold for large parameters; under the limit, it
 * drops those the others imply. */
static void test_guard_reduce_upto(void **st)
{
	const char *names[5] = {"n", "m", "i", "j", "k"};
	poly_struct c[40];
	const poly_struct *cp[40];
	int nc = 0;
	char text[128];
	/* 40 directions a*n + b*m + c*i + d*j + e*k, no two parallel */
	for (int code = 1; code < 243 && nc < 40; code++) {
		int a[5], x = code, nz = 0;
		for (int v = 0; v < 5; v++, x /= 3)
			nz += (a[v] = x % 3) != 0;
		if (nz < 2)
			continue;
		size_t l = 0;
		for (int v = 0; v < 5; v++)
			if (a[v])
				l += (size_t)snprintf(text + l, sizeof text - l, "%s%d*%s", l ? " + " : "", a[v], names[v]);
		snprintf(text + l, sizeof text - l, " - %d", nc);
		poly_init(&c[nc], S.ctx);
		poly_set(&c[nc], P(text), S.ctx);
		cp[nc] = &c[nc];
		nc++;
	}
	assert_int_equal(nc, 40);
	sym_guard g = {0};
	sym_guard_from(&S, &g, cp, nc);
	assert_int_equal(g.n, 40);
	assert_int_equal(sym_guard_reduce_upto(&S, &g, 32), -1);
	assert_int_equal(g.n, 40);
	/* a count n*m on that guard: said to hold for large parameters */
	sym_pw w;
	sym_pw_init(&w);
	w.p = calloc(1, sizeof *w.p);
	w.n = w.cap = 1;
	w.p[0].g = g;
	poly_init(w.p[0].v, S.ctx);
	poly_set(w.p[0].v, P("n*m"), S.ctx);
	char *formula, *cond;
	sym_pw_format(&S, &w, &formula, &cond);
	assert_string_equal(formula, "n*m");
	assert_string_equal(cond, "large parameters");
	free(formula);
	free(cond);
	sym_pw_clear(&S, &w); /* and G with it */
	/* n >= 3, n >= 1 (implied), m >= 1 */
	const poly_struct *few[3] = {P("n - 3"), P("n - 1"), P("m - 1")};
	sym_guard_from(&S, &g, few, 3);
	assert_int_equal(sym_guard_reduce_upto(&S, &g, 32), 0);
	assert_int_equal(g.n, 2);
	sym_guard_clear(&S, &g);
	for (int i = 0; i < nc; i++)
		poly_clear(&c[i], S.ctx);
}

/* What a dropped computation made is freed: the loop variables and atoms
 * made after the mark, not the parameters (names the report may list),
 * nor what was in use before it. */
static void test_release(void **st)
{
	sym_ctx T;
	sym_init(&T);
	int n = sym_var(&T, "n", SYM_PARAM), i = sym_var(&T, "i", SYM_LOOP);
	poly_t a;
	poly_init(a, T.ctx);
	floor_half(&T, a, n); /* before */
	sym_mark m;
	sym_mark_take(&T, &m);
	int j = sym_var(&T, "j", SYM_LOOP), t = sym_var(&T, "T9", SYM_PARAM);
	floor_half(&T, a, j); /* after */
	int nv = T.nvars;
	sym_release(&T, &m);
	assert_int_equal(T.kind[n], SYM_PARAM);
	assert_int_equal(T.kind[i], SYM_LOOP);
	assert_int_equal(T.kind[t], SYM_PARAM);
	assert_int_equal(T.kind[j], SYM_FREE);
	int atoms = 0;
	for (int k = 0; k < nv; k++)
		atoms += T.kind[k] == SYM_ATOM;
	assert_int_equal(atoms, 1); /* floor(n/2) only */
	assert_int_equal(sym_var(&T, "k", SYM_LOOP), j); /* its index free again */
	poly_clear(a, T.ctx);
	sym_free(&T);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_faulhaber),
		cmocka_unit_test(test_feasible_small),
		cmocka_unit_test(test_eval_exact),
		cmocka_unit_test(test_triangular),
		cmocka_unit_test(test_negative_inner),
		cmocka_unit_test(test_three_deep_two_params),
		cmocka_unit_test(test_strides),
		cmocka_unit_test(test_compose_params),
		cmocka_unit_test(test_term_budget),
		cmocka_unit_test(test_import),
		cmocka_unit_test(test_minmax),
		cmocka_unit_test(test_branch_loop_counts),
		cmocka_unit_test(test_missing_param),
		cmocka_unit_test(test_feasible),
		cmocka_unit_test(test_atom_after_freed_slot),
		cmocka_unit_test(test_trip_var),
		cmocka_unit_test(test_guard_reduce_upto),
		cmocka_unit_test(test_release),
	};
	return cmocka_run_group_tests_name("sym", tests, setup, teardown);
}
