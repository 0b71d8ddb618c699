/* Unit tests for the polynomial type: every operation on random
 * polynomials, checked against FLINT's fmpq_mpoly in lexicographic order
 * (the same terms, in the same order, and the same comparisons). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <flint/fmpq_mpoly.h>

#include "predict/poly.h"

#define NV 7
#define ROUNDS 400

static poly_ctx_t C;
static fmpq_mpoly_ctx_t F;
static unsigned long seed = 12345;

static unsigned rnd(unsigned n)
{
	seed = seed * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)(seed >> 33) % n;
}

/* A random polynomial of up to 6 terms in up to 3 of the NV variables, with
 * small rational coefficients, pushed in random order, into both types. */
static void random_pair(poly_t p, fmpq_mpoly_t f)
{
	int nt = (int)rnd(7);
	unsigned long e[NV];
	fmpq_t c;
	fmpq_init(c);
	poly_zero(p, C);
	fmpq_mpoly_zero(f, F);
	for (int t = 0; t < nt; t++) {
		memset(e, 0, sizeof e);
		for (int k = (int)rnd(4); k > 0; k--)
			e[rnd(NV)] = 1 + rnd(3);
		fmpq_set_si(c, (long)rnd(11) - 5, 1 + rnd(3));
		poly_push_term_fmpq_ui(p, c, e, C);
		fmpq_mpoly_push_term_fmpq_ui(f, c, e, F);
	}
	poly_reduce(p, C);
	fmpq_mpoly_sort_terms(f, F);
	fmpq_mpoly_combine_like_terms(f, F);
	fmpq_clear(c);
}

/* Whether P has F's terms in F's order. */
static int same(const poly_t p, const fmpq_mpoly_t f)
{
	if (poly_length(p, C) != fmpq_mpoly_length(f, F))
		return 0;
	unsigned long ep[NV], ef[NV];
	fmpq_t a, b;
	fmpq_init(a);
	fmpq_init(b);
	int ok = 1;
	for (long i = 0; i < poly_length(p, C) && ok; i++) {
		poly_get_term_exp_ui(ep, p, i, C);
		fmpq_mpoly_get_term_exp_ui(ef, f, i, F);
		poly_get_term_coeff_fmpq(a, p, i, C);
		fmpq_mpoly_get_term_coeff_fmpq(b, f, i, F);
		ok = memcmp(ep, ef, sizeof ep) == 0 && fmpq_equal(a, b);
	}
	fmpq_clear(a);
	fmpq_clear(b);
	return ok;
}

static int sign(int x) { return (x > 0) - (x < 0); }

static void test_against_flint(void **st)
{
	(void)st;
	poly_t a, b, r;
	fmpq_mpoly_t fa, fb, fr;
	poly_init(a, C); poly_init(b, C); poly_init(r, C);
	fmpq_mpoly_init(fa, F); fmpq_mpoly_init(fb, F); fmpq_mpoly_init(fr, F);
	fmpq_t q;
	fmpz_t z, zf;
	fmpq_init(q);
	fmpz_init(z);
	fmpz_init(zf);
	for (int round = 0; round < ROUNDS; round++) {
		random_pair(a, fa);
		random_pair(b, fb);
		assert_true(same(a, fa));
		poly_add(r, a, b, C);
		fmpq_mpoly_add(fr, fa, fb, F);
		assert_true(same(r, fr));
		poly_sub(r, a, b, C);
		fmpq_mpoly_sub(fr, fa, fb, F);
		assert_true(same(r, fr));
		poly_sub(r, a, a, C); /* aliased, and cancelling */
		assert_true(poly_is_zero(r, C));
		poly_set(r, a, C); /* in place, as sums grow */
		poly_add(r, r, b, C);
		fmpq_mpoly_add(fr, fa, fb, F);
		assert_true(same(r, fr));
		poly_sub(r, r, b, C);
		poly_sub(r, r, b, C);
		fmpq_mpoly_sub(fr, fa, fb, F);
		assert_true(same(r, fr));
		poly_sub(r, r, r, C);
		assert_true(poly_is_zero(r, C));
		/* variables renamed by a permutation: the same terms, reordered */
		int map[NV];
		for (int k = 0; k < NV; k++)
			map[k] = k;
		for (int k = NV - 1; k > 0; k--) {
			int j = (int)rnd((unsigned)k + 1), t = map[k];
			map[k] = map[j];
			map[j] = t;
		}
		poly_rename(r, a, map, C); /* variable k of A is map[k] of R */
		fmpq_mpoly_t gens[NV];
		fmpq_mpoly_struct *gp[NV];
		for (int k = 0; k < NV; k++) {
			fmpq_mpoly_init(gens[k], F);
			fmpq_mpoly_gen(gens[k], map[k], F);
			gp[k] = gens[k];
		}
		assert_int_equal(fmpq_mpoly_compose_fmpq_mpoly(fr, fa, gp, F, F), 1);
		assert_true(same(r, fr));
		for (int k = 0; k < NV; k++)
			fmpq_mpoly_clear(gens[k], F);
		poly_mul(r, a, b, C);
		fmpq_mpoly_mul(fr, fa, fb, F);
		assert_true(same(r, fr));
		poly_set(r, a, C);
		poly_mul(r, r, r, C); /* aliased */
		fmpq_mpoly_mul(fr, fa, fa, F);
		assert_true(same(r, fr));
		poly_pow_ui(r, b, 3, C);
		fmpq_mpoly_pow_ui(fr, fb, 3, F);
		assert_true(same(r, fr));
		fmpq_set_si(q, (long)rnd(7) - 3, 1 + rnd(4));
		poly_add_fmpq(r, a, q, C);
		fmpq_mpoly_add_fmpq(fr, fa, q, F);
		assert_true(same(r, fr));
		poly_scalar_mul_fmpq(r, a, q, C);
		fmpq_mpoly_scalar_mul_fmpq(fr, fa, q, F);
		assert_true(same(r, fr));
		poly_sub_ui(r, a, 2, C);
		fmpq_mpoly_sub_ui(fr, fa, 2, F);
		assert_true(same(r, fr));
		/* the order of polynomials, as sorted guards depend on it */
		assert_int_equal(sign(poly_cmp(a, b, C)), sign(fmpq_mpoly_cmp(fa, fb, F)));
		poly_scalar_mul_si(r, a, -2, C);
		fmpq_mpoly_scalar_mul_si(fr, fa, -2, F);
		assert_int_equal(sign(poly_cmp(a, r, C)), sign(fmpq_mpoly_cmp(fa, fr, F)));
		assert_int_equal(poly_equal(a, b, C), fmpq_mpoly_equal(fa, fb, F));
		long v = (long)rnd(NV);
		assert_int_equal(poly_degree_si(a, v, C), fmpq_mpoly_degree_si(fa, v, F));
		assert_int_equal(poly_total_degree_si(a, C), fmpq_mpoly_total_degree_si(fa, F));
		poly_get_denominator(z, a, C);
		fmpq_mpoly_get_denominator(zf, fa, F);
		assert_true(fmpz_equal(z, zf));
		unsigned long e1 = rnd(3);
		poly_get_coeff_vars_ui(r, a, &v, &e1, 1, C);
		fmpq_mpoly_get_coeff_vars_ui(fr, fa, (slong *)&v, &e1, 1, F);
		assert_true(same(r, fr));
		int used[NV], fused[NV];
		poly_used_vars(used, a, C);
		fmpq_mpoly_used_vars(fused, fa, F);
		for (int k = 0; k < NV; k++)
			assert_int_equal(!!used[k], !!fused[k]);
	}
	fmpq_clear(q);
	fmpz_clear(z);
	fmpz_clear(zf);
	poly_clear(a, C); poly_clear(b, C); poly_clear(r, C);
	fmpq_mpoly_clear(fa, F); fmpq_mpoly_clear(fb, F); fmpq_mpoly_clear(fr, F);
}

/* Coefficients at the edge of FLINT's small integers: sums and products
 * that no longer fit one word come out exact. */
static void test_large_coefficients(void **st)
{
	(void)st;
	poly_t a, b, r;
	fmpq_mpoly_t fa, fb, fr;
	poly_init(a, C); poly_init(b, C); poly_init(r, C);
	fmpq_mpoly_init(fa, F); fmpq_mpoly_init(fb, F); fmpq_mpoly_init(fr, F);
	const long big[] = {(1L << 61) + 12345, -(1L << 61) - 3, (1L << 40) + 7, -(1L << 31) - 1, 3};
	unsigned long e[NV] = {0};
	fmpq_t c;
	fmpq_init(c);
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 5; j++) {
			poly_zero(a, C); fmpq_mpoly_zero(fa, F);
			poly_zero(b, C); fmpq_mpoly_zero(fb, F);
			e[0] = 1;
			fmpq_set_si(c, big[i], 1);
			poly_push_term_fmpq_ui(a, c, e, C);
			fmpq_mpoly_push_term_fmpq_ui(fa, c, e, F);
			fmpq_set_si(c, big[j], 1);
			poly_push_term_fmpq_ui(b, c, e, C);
			fmpq_mpoly_push_term_fmpq_ui(fb, c, e, F);
			poly_set(r, a, C);
			poly_add(r, r, b, C);
			fmpq_mpoly_add(fr, fa, fb, F);
			assert_true(same(r, fr));
			poly_sub(r, a, b, C);
			fmpq_mpoly_sub(fr, fa, fb, F);
			assert_true(same(r, fr));
			poly_mul(r, a, b, C);
			fmpq_mpoly_mul(fr, fa, fb, F);
			assert_true(same(r, fr));
			poly_scalar_mul_fmpq(r, a, c, C);
			fmpq_mpoly_scalar_mul_fmpq(fr, fa, c, F);
			assert_true(same(r, fr));
			poly_mul(r, r, r, C); /* beyond a word: FLINT's own */
			fmpq_mpoly_mul(fr, fr, fr, F);
			assert_true(same(r, fr));
		}
	fmpq_clear(c);
	poly_clear(a, C); poly_clear(b, C); poly_clear(r, C);
	fmpq_mpoly_clear(fa, F); fmpq_mpoly_clear(fb, F); fmpq_mpoly_clear(fr, F);
}

/* poly_sum_negative_const against the sum FLINT computes: random pairs
 * (mostly not), and pairs B = -A + k (a negative constant for k < 0, not
 * for k >= 0), with B's terms sometimes scaled so that they do not cancel. */
static void test_sum_negative_const(void **st)
{
	(void)st;
	poly_t a, b;
	fmpq_mpoly_t fa, fb, fs;
	poly_init(a, C); poly_init(b, C);
	fmpq_mpoly_init(fa, F); fmpq_mpoly_init(fb, F); fmpq_mpoly_init(fs, F);
	fmpq_t c, q;
	fmpq_init(c);
	fmpq_init(q);
	int yes = 0;
	for (int r = 0; r < 4 * ROUNDS; r++) {
		random_pair(a, fa);
		if (r % 2) {
			random_pair(b, fb);
		} else {
			fmpq_set_si(c, (long)rnd(9) - 5, 1 + rnd(2));
			poly_neg(b, a, C);
			poly_add_fmpq(b, b, c, C);
			fmpq_mpoly_neg(fb, fa, F);
			fmpq_mpoly_add_fmpq(fb, fb, c, F);
			if (r % 8 == 0) { /* no longer opposite */
				fmpq_set_si(q, 2, 1);
				poly_scalar_mul_fmpq(b, b, q, C);
				fmpq_mpoly_scalar_mul_fmpq(fb, fb, q, F);
			}
		}
		fmpq_mpoly_add(fs, fa, fb, F);
		int want = fmpq_mpoly_length(fs, F) == 1 && fmpq_mpoly_is_fmpq(fs, F);
		if (want) {
			fmpq_mpoly_get_fmpq(q, fs, F);
			want = fmpq_sgn(q) < 0;
		}
		assert_int_equal(poly_sum_negative_const(a, b), want);
		assert_int_equal(poly_sum_negative_const(b, a), want);
		yes += want;
	}
	assert_true(yes > ROUNDS / 4); /* the true case was met often */
	fmpq_clear(c);
	fmpq_clear(q);
	poly_clear(a, C); poly_clear(b, C);
	fmpq_mpoly_clear(fa, F); fmpq_mpoly_clear(fb, F); fmpq_mpoly_clear(fs, F);
}

static void test_univariate_and_text(void **st)
{
	(void)st;
	const char *names[NV] = {"n", "m", "i", "j", "k", "a", "b"};
	poly_t p, r;
	poly_init(p, C);
	poly_init(r, C);
	assert_int_equal(poly_set_str_pretty(p, "n^3/6 - n/6 + 2", names, C), 0);
	assert_int_equal(poly_set_str_pretty(r, "n +* 2", names, C), -1);
	fmpq_poly_t u;
	fmpq_poly_init(u);
	assert_int_equal(poly_get_fmpq_poly(u, p, 0, C), 1);
	assert_int_equal(fmpq_poly_degree(u), 3);
	poly_set_fmpq_poly(r, u, 0, C);
	assert_true(poly_equal(r, p, C));
	assert_int_equal(poly_set_str_pretty(r, "n*m + 1", names, C), 0);
	assert_int_equal(poly_get_fmpq_poly(u, r, 0, C), 0); /* m too */
	fmpq_poly_clear(u);
	poly_clear(p, C);
	poly_clear(r, C);
}

static void test_overflow_reported(void **st)
{
	(void)st;
	/* a product of 14 distinct variables: more than a monomial holds */
	poly_ctx_t big;
	poly_ctx_init(big, 14);
	poly_t a, b, p;
	poly_init(a, big);
	poly_init(b, big);
	poly_init(p, big);
	unsigned long ea[14] = {0}, eb[14] = {0};
	for (int k = 0; k < 7; k++)
		ea[k] = eb[k + 7] = 1;
	fmpq_t one;
	fmpq_init(one);
	fmpq_one(one);
	poly_push_term_fmpq_ui(a, one, ea, big);
	poly_push_term_fmpq_ui(b, one, eb, big);
	assert_false(poly_take_overflow());
	poly_mul(p, a, a, big); /* 7 variables: fits */
	assert_false(poly_take_overflow());
	poly_mul(p, a, b, big); /* 14 */
	assert_true(poly_take_overflow());
	assert_false(poly_take_overflow()); /* taken: cleared */
	fmpq_clear(one);
	poly_clear(a, big);
	poly_clear(b, big);
	poly_clear(p, big);
	poly_ctx_clear(big);
}

int main(void)
{
	poly_ctx_init(C, NV);
	fmpq_mpoly_ctx_init(F, NV, ORD_LEX);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_against_flint),
		cmocka_unit_test(test_large_coefficients),
		cmocka_unit_test(test_univariate_and_text),
		cmocka_unit_test(test_sum_negative_const),
		cmocka_unit_test(test_overflow_reported),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);
	fmpq_mpoly_ctx_clear(F);
	poly_ctx_clear(C);
	return r;
}
