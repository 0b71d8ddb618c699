/* poly: small sparse multivariate polynomials over the rationals.
 *
 * The counts of loop nests are short polynomials (a handful of terms) in a
 * few of many symbols.  A general library packs every term's exponents over
 * all the symbols of its context and keeps a rational content times a
 * primitive integer polynomial, which costs a gcd and a re-normalisation on
 * every sum; here a term is a rational coefficient (FLINT's fmpq, exact and
 * inline while small) and a monomial that lists only its own variables.
 *
 * Terms are kept in lexicographic order, variable 0 most significant,
 * greatest first: the order of FLINT's ORD_LEX, so the text of a formula
 * does not depend on the representation.  The functions mirror the
 * fmpq_mpoly ones they replace (same arguments, same results), with a
 * context that only knows its number of variables. */
#ifndef EPI_POLY_H
#define EPI_POLY_H

#include <stdint.h>

#include <flint/fmpq.h>
#include <flint/fmpq_poly.h>
#include <flint/fmpz.h>

/* Distinct variables in one monomial; more (or an exponent beyond 16 bits)
 * leaves the term cut short and is reported by poly_take_overflow(). */
#define POLY_MONO_MAX 12

/* Whether an operation on this thread met a term beyond what a monomial
 * holds since the last call (the results since are not to be trusted);
 * clears the mark. */
int poly_take_overflow(void);

typedef struct poly_mono {
	uint16_t n;                 /* variables with a nonzero exponent */
	uint16_t v[POLY_MONO_MAX];  /* increasing */
	uint16_t e[POLY_MONO_MAX];  /* their exponents, >= 1 */
} poly_mono;

typedef struct poly_struct {
	fmpq *c;
	poly_mono *m;
	int n, cap;
} poly_struct;
typedef poly_struct poly_t[1];

typedef struct poly_ctx_struct {
	int nvars;
} poly_ctx_struct;
typedef poly_ctx_struct poly_ctx_t[1];

void poly_ctx_init(poly_ctx_t ctx, int nvars);
void poly_ctx_clear(poly_ctx_t ctx);

void poly_init(poly_t p, const poly_ctx_t ctx);
void poly_clear(poly_t p, const poly_ctx_t ctx);
void poly_swap(poly_t a, poly_t b, const poly_ctx_t ctx);
void poly_set(poly_t a, const poly_t b, const poly_ctx_t ctx);
void poly_zero(poly_t a, const poly_ctx_t ctx);
void poly_gen(poly_t a, long var, const poly_ctx_t ctx);
void poly_set_si(poly_t a, long c, const poly_ctx_t ctx);
void poly_set_fmpq(poly_t a, const fmpq_t c, const poly_ctx_t ctx);

static inline long poly_length(const poly_t a, const poly_ctx_t ctx) { (void)ctx; return a->n; }
static inline int poly_is_zero(const poly_t a, const poly_ctx_t ctx) { (void)ctx; return a->n == 0; }
/* Whether A is a constant (zero included). */
static inline int poly_is_fmpq(const poly_t a, const poly_ctx_t ctx)
{
	(void)ctx;
	return a->n == 0 || (a->n == 1 && a->m[0].n == 0);
}
int poly_is_one(const poly_t a, const poly_ctx_t ctx);
/* The constant A (A must be one). */
void poly_get_fmpq(fmpq_t c, const poly_t a, const poly_ctx_t ctx);
int poly_equal(const poly_t a, const poly_t b, const poly_ctx_t ctx);
/* Whether A + B is a negative constant. */
int poly_sum_negative_const(const poly_t a, const poly_t b);
/* A total order: by length, then the monomials in turn, then the content
 * (denominator, then numerator) and the primitive coefficients, as FLINT's
 * fmpq_mpoly_cmp orders them. */
int poly_cmp(const poly_t a, const poly_t b, const poly_ctx_t ctx);

void poly_add(poly_t a, const poly_t b, const poly_t c, const poly_ctx_t ctx);
void poly_sub(poly_t a, const poly_t b, const poly_t c, const poly_ctx_t ctx);
void poly_neg(poly_t a, const poly_t b, const poly_ctx_t ctx);
void poly_mul(poly_t a, const poly_t b, const poly_t c, const poly_ctx_t ctx);
void poly_pow_ui(poly_t a, const poly_t b, unsigned long k, const poly_ctx_t ctx);

void poly_add_fmpq(poly_t a, const poly_t b, const fmpq_t c, const poly_ctx_t ctx);
void poly_sub_fmpq(poly_t a, const poly_t b, const fmpq_t c, const poly_ctx_t ctx);
void poly_add_fmpz(poly_t a, const poly_t b, const fmpz_t c, const poly_ctx_t ctx);
void poly_add_si(poly_t a, const poly_t b, long c, const poly_ctx_t ctx);
void poly_sub_si(poly_t a, const poly_t b, long c, const poly_ctx_t ctx);
void poly_add_ui(poly_t a, const poly_t b, unsigned long c, const poly_ctx_t ctx);
void poly_sub_ui(poly_t a, const poly_t b, unsigned long c, const poly_ctx_t ctx);

void poly_scalar_mul_fmpq(poly_t a, const poly_t b, const fmpq_t c, const poly_ctx_t ctx);
void poly_scalar_mul_fmpz(poly_t a, const poly_t b, const fmpz_t c, const poly_ctx_t ctx);
void poly_scalar_mul_si(poly_t a, const poly_t b, long c, const poly_ctx_t ctx);
void poly_scalar_mul_ui(poly_t a, const poly_t b, unsigned long c, const poly_ctx_t ctx);
void poly_scalar_div_fmpz(poly_t a, const poly_t b, const fmpz_t c, const poly_ctx_t ctx);

/* Term I's coefficient; its exponents as one entry per variable of the context. */
void poly_get_term_coeff_fmpq(fmpq_t c, const poly_t a, long i, const poly_ctx_t ctx);
void poly_get_term_exp_ui(unsigned long *exp, const poly_t a, long i, const poly_ctx_t ctx);
/* Appends a term (exponents one per variable); poly_reduce() then sorts and combines. */
void poly_push_term_fmpq_ui(poly_t a, const fmpq_t c, const unsigned long *exp, const poly_ctx_t ctx);
void poly_reduce(poly_t a, const poly_ctx_t ctx);
/* A = the single term C * M (C nonzero). */
void poly_set_term(poly_t a, const fmpq_t c, const poly_mono *m, const poly_ctx_t ctx);
/* A = B with variable k renamed MAP[k] (one-to-one on B's variables). */
void poly_rename(poly_t a, const poly_t b, const int *map, const poly_ctx_t ctx);

/* Degree in VAR (-1 for zero); total degree (-1 for zero). */
long poly_degree_si(const poly_t a, long var, const poly_ctx_t ctx);
long poly_total_degree_si(const poly_t a, const poly_ctx_t ctx);
/* USED[k] (k < nvars) = whether variable k appears in A. */
void poly_used_vars(int *used, const poly_t a, const poly_ctx_t ctx);
/* The least positive integer D with D*A integral. */
void poly_get_denominator(fmpz_t d, const poly_t a, const poly_ctx_t ctx);
/* C = the coefficient of prod vars[i]^exps[i] in A, as a polynomial in the
 * other variables. */
void poly_get_coeff_vars_ui(poly_t c, const poly_t a, const long *vars, const unsigned long *exps,
			    long n, const poly_ctx_t ctx);
/* A as a univariate polynomial in VAR; returns 0 when it has other variables. */
int poly_get_fmpq_poly(fmpq_poly_t out, const poly_t a, long var, const poly_ctx_t ctx);
void poly_set_fmpq_poly(poly_t a, const fmpq_poly_t f, long var, const poly_ctx_t ctx);
/* Parses STR in the variables NAMES (nvars of them); returns 0, or -1. */
int poly_set_str_pretty(poly_t a, const char *str, const char **names, const poly_ctx_t ctx);

#endif
