/* Tests of the counting rules of epi-predict's front end: each C snippet is
 * analysed with libclang, and its formulas evaluated at small sizes are
 * compared with a brute-force enumeration of the same loops. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/util.h"
#include "predict/cfront.h"

static char path[64];
static char err[EPI_ERRLEN];
static epi_analysis A;
static int have;

/* Analyses SRC (written to a temporary .c file); returns epi_analyze's result. */
static int analyze_opts(const char *src, epi_front_opts *o)
{
	if (have)
		epi_analysis_free(&A);
	have = 0;
	snprintf(path, sizeof path, "/tmp/epi-test-XXXXXX.c");
	int fd = mkstemps(path, 2);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, src, strlen(src)), (ssize_t)strlen(src));
	close(fd);
	err[0] = 0;
	int r = epi_analyze(&A, path, o, err);
	unlink(path);
	have = r == 0;
	if (r != 0)
		epi_analysis_free(&A);
	return r;
}

static int analyze(const char *src)
{
	epi_front_opts o;
	epi_front_opts_init(&o);
	int r = analyze_opts(src, &o);
	epi_front_opts_clear(&o);
	return r;
}

/* Analyses SRC with --strict: a loop that cannot be counted is an error. */
static int analyze_strict(const char *src)
{
	epi_front_opts o;
	epi_front_opts_init(&o);
	o.strict = 1;
	int r = analyze_opts(src, &o);
	epi_front_opts_clear(&o);
	return r;
}

static void must_analyze(const char *src)
{
	int r = analyze(src);
	if (r != 0)
		fail_msg("analysis failed: %s", err);
}

static const epi_region *region(enum epi_scope sc, const char *func, int nth)
{
	for (int i = 0; i < A.nregions; i++)
		if (A.regions[i].scope == sc && (!func || strcmp(A.regions[i].function, func) == 0) && nth-- == 0)
			return &A.regions[i];
	fail_msg("no region %d for %s", sc, func ? func : "");
	return NULL;
}

enum which { EXP, MIN, MAX };

/* The parameter count_str() binds to its M: "m", or a trip-count parameter. */
static const char *second = "m";

/* The count of KEY in R at n, m (as exact text). */
static char *count_str(const epi_region *r, const char *key, enum which w, long n, long m)
{
	int i = counts_find(&r->counts, key);
	if (i < 0)
		return strdup("0");
	sym_env e;
	sym_env_init(&e);
	for (int k = 0; k < A.sym.nvars; k++) {
		if (A.sym.kind[k] == SYM_PARAM && !strcmp(A.sym.name[k], "n")) { fmpq_set_si(&e.val[k], n, 1); e.bound[k] = 1; }
		if (A.sym.kind[k] == SYM_PARAM && !strcmp(A.sym.name[k], second)) { fmpq_set_si(&e.val[k], m, 1); e.bound[k] = 1; }
	}
	const sym_pw *pw = w == EXP ? &r->counts.v[i].exp : w == MIN ? tri_min(&r->counts.v[i]) : tri_max(&r->counts.v[i]);
	fmpq_t q;
	fmpq_init(q);
	int missing = -1;
	assert_int_equal(sym_pw_eval(&A.sym, pw, &e, q, &missing), 0);
	char *s = fmpq_get_str(NULL, 10, q);
	char *r2 = strdup(s);
	flint_free(s);
	fmpq_clear(q);
	sym_env_clear(&e);
	return r2;
}

static long count(const epi_region *r, const char *key, enum which w, long n, long m)
{
	char *s = count_str(r, key, w, n, m);
	char *end;
	long v = strtol(s, &end, 10);
	if (*end)
		fail_msg("count of %s is not an integer: %s", key, s);
	free(s);
	return v;
}

#define FN(name) region(EPI_SCOPE_FUNCTION, name, 0)

static void test_arith_and_subscripts(void **st)
{
	must_analyze("void f(double *a, int n) {\n"
		     "  for (int i = 1; i < n; i++)\n"
		     "    a[i + 1] = a[i] * 2.0 + a[i - 1] / 3.0 - 1.0;\n"
		     "}\n");
	const epi_region *r = FN("f");
	for (long n = 0; n < 8; n++) {
		long it = n > 1 ? n - 1 : 0;
		assert_int_equal(count(r, "mul.f64", EXP, n, 0), it);
		assert_int_equal(count(r, "div.f64", EXP, n, 0), it);
		assert_int_equal(count(r, "add.f64", EXP, n, 0), 2 * it);
		assert_int_equal(count(r, "load.f64", EXP, n, 0), 2 * it);
		assert_int_equal(count(r, "store.f64", EXP, n, 0), it);
		assert_int_equal(count(r, "iter", EXP, n, 0), it);
		assert_int_equal(count(r, "add.i32", EXP, n, 0), 0); /* subscripts are addresses */
	}
	/* the loop nest is a region of its own, at the line of its keyword */
	const epi_region *l = region(EPI_SCOPE_LOOP, "f", 0);
	assert_int_equal(l->line, 2);
}

static void test_access_rules(void **st)
{
	must_analyze("struct p { double x; struct p *next; };\n"
		     "double g(double A[4][4], double **B, struct p *q, double *s, int n) {\n"
		     "  double t = 0, *u;\n"
		     "  for (int i = 0; i < n; i++) {\n"
		     "    t = t + A[i][i];\n"       /* one load: A[i] is a row */
		     "    t = t + B[i][i];\n"       /* two loads: B[i] is a pointer */
		     "    u = &s[i];\n"             /* no access */
		     "    s[0] += q->x;\n"          /* load s[0], load q->x, add, store */
		     "    *u = t;\n"                /* store */
		     "  }\n"
		     "  return t;\n"
		     "}\n");
	const epi_region *r = FN("g");
	assert_int_equal(count(r, "load.f64", EXP, 5, 0), 5 * 4);
	assert_int_equal(count(r, "load.ptr", EXP, 5, 0), 5);
	assert_int_equal(count(r, "store.f64", EXP, 5, 0), 5 * 2);
	assert_int_equal(count(r, "add.f64", EXP, 5, 0), 5 * 3);
}

static void test_selection_sort(void **st)
{
	must_analyze("void sort(int *u, int *v, int n) {\n"
		     "  int i, j, i_min, x;\n"
		     "  for (i = 0; i < n; i++) {\n"
		     "    i_min = i;\n"
		     "    for (j = i + 1; j < n; j++)\n"
		     "      if (u[j] < u[i_min]) i_min = j;\n"
		     "    x = v[i]; v[i] = v[i_min]; v[i_min] = x;\n"
		     "  }\n"
		     "}\n");
	const epi_region *r = FN("sort");
	for (long n = 0; n < 15; n++) {
		long cmp = 0;
		for (long i = 0; i < n; i++)
			for (long j = i + 1; j < n; j++)
				cmp++;
		assert_int_equal(count(r, "cmp.i32", EXP, n, 0), cmp);
		assert_int_equal(count(r, "load.i32", EXP, n, 0), 2 * cmp + 2 * n);
		assert_int_equal(count(r, "store.i32", EXP, n, 0), 2 * n);
		assert_int_equal(count(r, "iter", EXP, n, 0), cmp + n);
	}
	/* exact far beyond 64 bits, as fast as small n */
	char *s = count_str(r, "cmp.i32", EXP, 1000000, 0);
	assert_string_equal(s, "499999500000");
	free(s);
}

static void test_negative_inner_trip(void **st)
{
	must_analyze("void f(double *a, int n) {\n"
		     "  for (int i = 0; i < n; i++)\n"
		     "    for (int j = 0; j < i - 5; j++)\n"
		     "      a[j] = a[j] + 1.0;\n"
		     "}\n");
	const epi_region *r = FN("f");
	for (long n = -3; n < 20; n++) {
		long c = 0;
		for (long i = 0; i < n; i++)
			for (long j = 0; j < i - 5; j++)
				c++;
		assert_int_equal(count(r, "add.f64", EXP, n, 0), c);
	}
}

static void test_three_deep_two_params(void **st)
{
	must_analyze("void f(double *a, int n, int m) {\n"
		     "  for (int i = 0; i < n; i++)\n"
		     "    for (int j = 0; j <= i; j++)\n"
		     "      for (int k = j; k < m; k++)\n"
		     "        a[k] = a[k] * a[j];\n"
		     "}\n");
	const epi_region *r = FN("f");
	for (long n = -1; n < 8; n++)
		for (long m = -1; m < 8; m++) {
			long c = 0;
			for (long i = 0; i < n; i++)
				for (long j = 0; j <= i; j++)
					for (long k = j; k < m; k++)
						c++;
			assert_int_equal(count(r, "mul.f64", EXP, n, m), c);
			assert_int_equal(count(r, "load.f64", EXP, n, m), 2 * c);
		}
	/* n^3 at n = 10^7 does not fit 64 bits: exact anyway */
	char *s = count_str(r, "mul.f64", EXP, 10000000, 10000000);
	assert_string_equal(s, "333333383333335000000");
	free(s);
}

static void test_strides_and_directions(void **st)
{
	must_analyze("void f(int *a, int n) {\n"
		     "  for (int i = 0; i < n; i += 3)\n"
		     "    for (int j = i; j < n; j += 2)\n"
		     "      a[j] = 1;\n"
		     "}\n"
		     "void g(int *a, int n) {\n"
		     "  for (int i = n - 1; i >= 0; i--)\n"
		     "    for (int j = n; j > i; j -= 2)\n"
		     "      a[j] = 2;\n"
		     "}\n"
		     "void h(int *a, int n) {\n"
		     "  for (int i = 2; i <= n; i = i + 4) a[i] = 3;\n"
		     "  for (int i = 0; i != n; ++i) a[i] = 4;\n"
		     "}\n");
	for (long n = 0; n < 25; n++) {
		long c = 0;
		for (long i = 0; i < n; i += 3)
			for (long j = i; j < n; j += 2)
				c++;
		assert_int_equal(count(FN("f"), "store.i32", EXP, n, 0), c);
		c = 0;
		for (long i = n - 1; i >= 0; i--)
			for (long j = n; j > i; j -= 2)
				c++;
		assert_int_equal(count(FN("g"), "store.i32", EXP, n, 0), c);
		c = 0;
		for (long i = 2; i <= n; i += 4)
			c++;
		assert_int_equal(count(FN("h"), "store.i32", EXP, n, 0), c + n);
	}
}

static void test_while_and_do(void **st)
{
	must_analyze("void f(int *a, int n) {\n"
		     "  int i = 0;\n"
		     "  while (i < n) {\n"
		     "    a[i] = 0;\n"
		     "    i++;\n"
		     "    a[i] = 1;\n"       /* sees i + 1 */
		     "  }\n"
		     "}\n"
		     "void g(int *a, int n) {\n"
		     "  int k;\n"
		     "  k = 1;\n"
		     "  do {\n"
		     "    a[k] = 1;\n"
		     "    k += 2;\n"
		     "  } while (k < n);\n"
		     "}\n"
		     "void h(int *a, int n) {\n"
		     "  while (n > 0) { a[n] = 2; n--; }\n"
		     "}\n");
	for (long n = -2; n < 20; n++) {
		long c = 0;
		for (long i = 0; i < n; i++)
			c++;
		assert_int_equal(count(FN("f"), "store.i32", EXP, n, 0), 2 * c);
		assert_int_equal(count(FN("f"), "iter", EXP, n, 0), c);
		long k = 1;
		c = 0;
		do {
			c++;
			k += 2;
		} while (k < n);
		assert_int_equal(count(FN("g"), "store.i32", EXP, n, 0), c);
		assert_int_equal(count(FN("g"), "iter", EXP, n, 0), c);
		assert_int_equal(count(FN("g"), "iter", EXP, n, 0), c);
		c = n > 0 ? n : 0;
		assert_int_equal(count(FN("h"), "store.i32", EXP, n, 0), c);
	}
}

static void test_branches(void **st)
{
	must_analyze("void f(int *a, int *b, int *c, int n) {\n"
		     "  for (int i = 0; i < n; i++) {\n"
		     "    if (a[i] > 0)\n"
		     "      b[i] = 1;\n"
		     "    else {\n"
		     "      b[i] = 2;\n"
		     "      c[i] = 3;\n"
		     "    }\n"
		     "    c[i] = a[i] < 5 ? a[i] : 0;\n"
		     "    if (i > 2 && a[i] == 1) c[0] = 1;\n"
		     "  }\n"
		     "}\n");
	const epi_region *r = FN("f");
	long n = 10;
	/* conditions always count; the right operand of && where its left,
	 * a test of the iteration, holds (i > 2: n - 3 times) */
	assert_int_equal(count(r, "cmp.i32", MIN, n, 0), 3 * n + n - 3);
	assert_int_equal(count(r, "cmp.i32", MAX, n, 0), 3 * n + n - 3);
	assert_int_equal(count(r, "store.i32", MIN, n, 0), 2 * n);
	assert_int_equal(count(r, "store.i32", MAX, n, 0), 4 * n);
	/* expected with p = 1/2: 1.5n + n + 0.5n */
	char *s = count_str(r, "store.i32", EXP, n, 0);
	assert_string_equal(s, "30");
	free(s);
	/* loads: a[i] in the if, a[i] twice or once in ?:, a[i] after && where i > 2 */
	assert_int_equal(count(r, "load.i32", MIN, n, 0), 2 * n + n - 3);
	assert_int_equal(count(r, "load.i32", MAX, n, 0), 3 * n + n - 3);
}

static void test_affine_ifs(void **st)
{
	(void)st;
	/* an if on integers whose sides are affine in the parameters (a
	 * guard) and the variables of the loops being counted, joined by &&,
	 * || and !: each way counted where it is taken, exactly; one on a
	 * quotient of a loop variable keeps the branch probability */
	must_analyze("double a[1000], b[1000];\n"
		     "void f(int n) { if (n > 3) { for (int i = 0; i < n; i++) a[i] = 1; } else b[0] = 2; }\n"
		     "void g(int n) { for (int i = 0; i < n; i++) if (i < 5) a[i] = 1; }\n"
		     "void e(int n, int m) { int i, j; for (i = 0; i < n; i++) for (j = 0; j < m; j++)\n"
		     "  if (i == j) a[0] = 1; else if (j > i) b[0] = 2; }\n"
		     "void q(int n) { for (int i = 0; i < n; i++) if (i % 4 == 0) a[i] = 1; }\n"
		     "void p(int n, int m) { for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) if (j != i) a[j] = 1; }\n"
		     "void o(int n, int m) { for (int i = 0; i < n; i++) for (int j = 0; j < m; j++)\n"
		     "  if (i == 0 || i == n - 1 || j == 0 || j == m - 1) a[0] = 1; else { b[0] = 1; b[1] = 2; } }\n"
		     "void u(int n) { for (int i = 0; i < n; i++) if (!(i < 3 || i > 5) && i != 4) a[i] = 1; }\n"
		     "void r(int n, int m) { for (int i = 0; i < n; i++) if (i < m && a[i] > 0) b[i] = 1;\n"
		     "  for (int i = 0; i < n; i++) if (i < m || a[i] > 0) b[i] = 2; }\n"
		     "void h(int n, int m) { if (n > 0 && m > 0) for (int i = 0; i < n; i++) a[i] = 0; }\n"
		     "void k(int n) { int nm1 = n - 1; if (nm1 >= 0) for (int i = 0; i < nm1; i++) a[i] = 0; }\n"
		     "void t(int n) { int t = 0; for (int i = 0; i < n; i++) { if (t > 3) a[i] = 1; t++; } }\n"
		     "void d(int n, const int *in) { for (int i = 0; i < n; i++) { int c = in[i]; if (c > 0) a[i] = 1; } }\n"
		     "void v(int n, const int *arg) { int k = *arg; if (k > 0) a[0] = 1; }\n");
	for (long n = 0; n < 9; n++) {
		assert_int_equal(count(FN("f"), "store.f64", EXP, n, 0), n > 3 ? n : 1);
		assert_int_equal(count(FN("f"), "store.f64", MIN, n, 0), n > 3 ? n : 1);
		assert_int_equal(count(FN("g"), "store.f64", EXP, n, 0), n < 5 ? n : 5);
		assert_int_equal(count(FN("g"), "store.f64", MIN, n, 0), n < 5 ? n : 5);
		for (long m = 0; m < 7; m++) {
			long diag = n < m ? n : m, above = 0;
			for (long i = 0; i < n; i++)
				above += m > i + 1 ? m - i - 1 : 0;
			assert_int_equal(count(FN("e"), "store.f64", EXP, n, m), diag + above);
			assert_int_equal(count(FN("e"), "store.f64", MAX, n, m), diag + above);
			assert_int_equal(count(FN("p"), "store.f64", EXP, n, m), n * m - diag);
			long edge = 0, inner = 0;
			for (long i = 0; i < n; i++)
				for (long j = 0; j < m; j++) {
					int e = i == 0 || i == n - 1 || j == 0 || j == m - 1;
					edge += e;
					inner += !e;
				}
			assert_int_equal(count(FN("o"), "store.f64", EXP, n, m), edge + 2 * inner);
			assert_int_equal(count(FN("o"), "store.f64", MIN, n, m), edge + 2 * inner);
			/* the right operand of && where the left holds, of || where
			 * it fails: a[i] read min(n, m) + (n - min(n, m)) times */
			assert_int_equal(count(FN("r"), "load.f64", EXP, n, m), n);
			assert_int_equal(count(FN("r"), "load.f64", MIN, n, m), n);
			assert_int_equal(count(FN("r"), "cmp.f64", MAX, n, m), n);
		}
		char want[16];
		snprintf(want, sizeof want, n % 2 ? "%ld/2" : "%ld", n % 2 ? n : n / 2);
		long mid = 0;
		for (long i = 0; i < n; i++)
			mid += !(i < 3 || i > 5) && i != 4;
		assert_int_equal(count(FN("u"), "store.f64", EXP, n, 0), mid);
		char *cq = count_str(FN("q"), "store.f64", EXP, n, 0);
		assert_string_equal(cq, want);
		free(cq);
		assert_int_equal(count(FN("h"), "store.f64", EXP, n, 3), n);
		assert_int_equal(count(FN("h"), "store.f64", EXP, n, 0), 0);
		assert_int_equal(count(FN("k"), "store.f64", EXP, n, 0), n ? n - 1 : 0);
		/* set in a loop, or declared in one: the branch probability */
		char half[16];
		snprintf(half, sizeof half, n % 2 ? "%ld/2" : "%ld", n % 2 ? n : n / 2);
		char *ct = count_str(FN("t"), "store.f64", EXP, n, 0), *cd = count_str(FN("d"), "store.f64", EXP, n, 0);
		assert_string_equal(ct, half);
		assert_string_equal(cd, half);
		free(ct);
		free(cd);
	}
	/* a local read from memory is data, no size: the branch probability */
	char *cv = count_str(FN("v"), "store.f64", EXP, 0, 0);
	assert_string_equal(cv, "1/2");
	free(cv);
}

/* `if (test) continue;` in a for loop, the test affine in the loops'
 * variables and the parameters: what follows counted where it fails;
 * on memory, a way out (the expected count runs every iteration whole) */
static void test_guarded_continue(void **st)
{
	(void)st;
	must_analyze("double a[1000];\n"
		     "void d(int n) { for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) { if (i == j) continue; a[j] = 1; } }\n"
		     "void b(int n, int m) { for (int i = 0; i < n; i++) { if (i < m) { continue; } a[i] = 1; a[0] = 2; } }\n"
		     "void c(int n) { for (int i = 0; i < n; i++) { if (i != 2) continue; a[i] = 1; if (i >= 1 && i <= 4) continue; a[0] = 3; } }\n"
		     "void x(int n, const int *v) { for (int i = 0; i < n; i++) { if (v[i] > 0) continue; a[i] = 1; } }\n");
	for (long n = 0; n < 8; n++) {
		assert_int_equal(count(FN("d"), "store.f64", EXP, n, 0), n * (n - 1));
		assert_int_equal(count(FN("d"), "store.f64", MIN, n, 0), n * (n - 1));
		for (long m = -1; m < 6; m++) {
			long run = 0;
			for (long i = 0; i < n; i++)
				run += i >= m;
			assert_int_equal(count(FN("b"), "store.f64", EXP, n, m), 2 * run);
			assert_int_equal(count(FN("b"), "store.f64", MAX, n, m), 2 * run);
		}
		assert_int_equal(count(FN("c"), "store.f64", EXP, n, 0), n > 2);
		assert_int_equal(count(FN("x"), "store.f64", EXP, n, 0), n);
		assert_int_equal(count(FN("x"), "store.f64", MIN, n, 0), 0);
	}
}

/* a guard in a function of many loops is counted as in a short one (the
 * function's loops are listed once, all of them) */
static void test_guard_among_many_loops(void **st)
{
	(void)st;
	char src[8192];
	size_t len = (size_t)snprintf(src, sizeof src, "double a[100], b[1];\nvoid f(int n) {\n");
	for (int k = 0; k < 70; k++)
		len += (size_t)snprintf(src + len, sizeof src - len, "  for (int i = 0; i < n; i++) a[i] = %d;\n", k);
	snprintf(src + len, sizeof src - len, "  if (n > 3) b[0] = 2;\n}\n");
	must_analyze(src);
	for (long n = 0; n < 9; n++)
		assert_int_equal(count(FN("f"), "store.f64", EXP, n, 0), 70 * n + (n > 3));
}

static void test_return_guards(void **st)
{
	(void)st;
	/* a guard that returns (no else, its branch always returning): what
	 * follows it runs where its condition does not hold, exactly; one on
	 * memory, or whose branch may not return, leaves it counted in full */
	must_analyze("#include <stdlib.h>\ndouble a[1000], s;\n"
		     "void f(int n) { if (n <= 0) return; s = s * 2; for (int i = 0; i < n; i++) a[i] = 1; }\n"
		     "int g(int n, int m) { if (n < 1 || m < 1) { s = 0; return -1; } s = s * 2; return 0; }\n"
		     "void h(int n) { if (n <= 0) return; if (n > 5) return; s = s * 2; }\n"
		     "void d(int n) { if (a[0] > 0) return; s = s * 2; }\n"
		     "void k(int n) { if (n <= 0) { if (a[1] > 0) return; } s = s * 2; }\n"
		     "void e(int n) { if (n == 0) return; s = s * 2; }\n"
		     "void p(int n, const double *x) { if (!x || n <= 0) return; s = s * 2; }\n"
		     "void r(int n, const double *x) { if (x[0] > 0 || n > 3) return; s = s * 2; }\n"
		     "int q(const char *path) { int fd = atoi(path); if (fd < 0) return 1; s = s * 2; return 0; }\n"
		     "void y(const char *arg) { int n = atoi(arg); if (n <= 0) return; s = s * 2;\n"
		     "  for (int i = 0; i < n; i++) a[i] = 1; }\n"
		     "void z(const char *arg) { int n = atoi(arg); if (n > 5) s = s * 2;\n"
		     "  for (int i = 0; i < n; i++) a[i] = 1; }\n"
		     "int main(int argc, char **argv) { if (argc < 2) return 1; s = s * 2; return 0; }\n");
	for (long n = -2; n < 9; n++) {
		assert_int_equal(count(FN("f"), "mul.f64", EXP, n, 0), n >= 1);
		assert_int_equal(count(FN("f"), "store.f64", EXP, n, 0), n >= 1 ? n : 0);
		assert_int_equal(count(FN("g"), "mul.f64", EXP, n, 3), n >= 1);
		assert_int_equal(count(FN("g"), "mul.f64", EXP, n, 0), 0);
		assert_int_equal(count(FN("h"), "mul.f64", EXP, n, 0), n >= 1 && n <= 5);
		/* of || with what no guard is, the guards' part */
		assert_int_equal(count(FN("p"), "mul.f64", EXP, n, 0), n >= 1);
		assert_int_equal(count(FN("r"), "mul.f64", EXP, n, 0), n <= 3);
		assert_int_equal(count(FN("d"), "mul.f64", EXP, n, 0), 1);
		assert_int_equal(count(FN("k"), "mul.f64", EXP, n, 0), 1);
		/* n != 0 is no conjunction: counted in full */
		assert_int_equal(count(FN("e"), "mul.f64", EXP, n, 0), 1);
	}
	/* main()'s parameters are how the program is run, which the run
	 * predicted passes: no guard, no parameter of the counts */
	char *m = count_str(FN("main"), "mul.f64", EXP, 0, 0);
	assert_string_equal(m, "1");
	free(m);
	/* nor a local set by a call (a handle, no size), unless a loop's
	 * header reads it (a size, which the counts name anyway) */
	m = count_str(FN("q"), "mul.f64", EXP, 0, 0);
	assert_string_equal(m, "1");
	free(m);
	for (long n = -2; n < 9; n++) {
		assert_int_equal(count(FN("y"), "mul.f64", EXP, n, 0), n >= 1);
		assert_int_equal(count(FN("z"), "mul.f64", EXP, n, 0), n > 5);
	}
}

static void test_branch_probability(void **st)
{
	epi_front_opts o;
	epi_front_opts_init(&o);
	fmpq_set_si(o.branch_prob, 1, 4);
	assert_int_equal(analyze_opts("void f(int *b, int n) {\n"
				      "  for (int i = 0; i < n; i++) if (b[i] < 3) b[i] = 1; else { b[i] = 2; b[0] = 0; }\n"
				      "}\n", &o), 0);
	char *s = count_str(FN("f"), "store.i32", EXP, 8, 0);
	assert_string_equal(s, "14"); /* 8 x (1/4 x 1 + 3/4 x 2) */
	free(s);
	epi_front_opts_clear(&o);
}

static void test_calls(void **st)
{
	must_analyze("#include <string.h>\n#include <stdlib.h>\n#include <stdio.h>\n#include <math.h>\n"
		     "static void g(double *a, int m) {\n"
		     "  for (int j = 0; j < m; j++) a[j] = a[j] + 1.0;\n"
		     "}\n"
		     "static void h(double *a, int p, int q) {\n"
		     "  for (int j = 0; j < p; j++) a[j] = q;\n"
		     "}\n"
		     "void f(double *a, double *b, int n, int m) {\n"
		     "  for (int i = 0; i < n; i++) g(a, i);\n"
		     "  h(a, m, n);\n"
		     "  memcpy(a, b, n * sizeof(double));\n"
		     "  double *c = calloc(m, sizeof *c);\n"
		     "  printf(\"%g\\n\", sqrt(a[0]));\n"
		     "  free(c);\n"
		     "}\n");
	const epi_region *r = FN("f");
	for (long n = 0; n < 10; n++) {
		long tri = n * (n - 1) / 2, m = 7;
		assert_int_equal(count(r, "add.f64", EXP, n, m), tri);
		assert_int_equal(count(r, "store.f64", EXP, n, m), tri + m);
		assert_int_equal(count(r, "memcpy", EXP, n, m), 8 * n);
		assert_int_equal(count(r, "malloc", EXP, n, m), 8 * m);
		assert_int_equal(count(r, "print", EXP, n, m), 1);
		assert_int_equal(count(r, "call:sqrt", EXP, n, m), 1);
		assert_int_equal(count(r, "call:free", EXP, n, m), 1);
	}
}

/* the bytes of every allocator of the C library, and of PolyBench's
 * harness, which allocates its arrays in a file of its own */
static void test_allocators(void **st)
{
	must_analyze("#define _GNU_SOURCE\n#include <stdlib.h>\n#include <malloc.h>\n"
		     "void *polybench_alloc_data(unsigned long long n, int elt_size);\n"
		     "void f(int n, int m) {\n"
		     "  void *p;\n"
		     "  if (posix_memalign(&p, 64, n * sizeof(double))) return;\n"
		     "  double *a = aligned_alloc(64, m * 8);\n"
		     "  double *b = memalign(64, 16 * n);\n"
		     "  double *c = valloc(m);\n"
		     "  c = reallocarray(c, n, m);\n"
		     "  double *d = polybench_alloc_data(n * m, sizeof(double));\n"
		     "  free(p); free(a); free(b); free(c); free(d);\n"
		     "}\n");
	const epi_region *r = FN("f");
	for (long n = 0; n < 6; n++)
		for (long m = 0; m < 6; m++)
			assert_int_equal(count(r, "malloc", EXP, n, m), 8 * n + 8 * m + 16 * n + m + n * m + 8 * n * m);
}

static void test_unsupported_loop(void **st)
{
	const char *src = "struct node { struct node *next; int v; };\n"
			  "int len(struct node *p) {\n"
			  "  int k = 0;\n"
			  "  while (p) { k += p->v; p = p->next; }\n"
			  "  return k;\n"
			  "}\n";
	assert_int_equal(analyze_strict(src), -1);
	assert_non_null(strstr(err, ":4: cannot count this loop"));
	assert_non_null(strstr(err, "--trip"));
	assert_non_null(strstr(err, "#pragma epi trip"));
	/* without --strict: counted with the trip-count parameter T4, said in a note */
	must_analyze(src);
	second = "T4";
	assert_int_equal(count(FN("len"), "load.i32", EXP, 0, 6), 6);
	assert_int_equal(count(FN("len"), "add.i32", EXP, 0, 6), 6);
	assert_int_equal(count(FN("len"), "iter", EXP, 0, 6), 6);
	second = "m";
	assert_int_equal(A.nerrors, 0);
	assert_int_equal(A.nnotes, 1);
	assert_non_null(strstr(A.notes[0], ":4: cannot count this loop: the condition is not"));
	assert_non_null(strstr(A.notes[0], "the parameter T4 (bind it with --param T4=N or --trip "));
	/* with the trip count given on the command line */
	epi_front_opts o;
	epi_front_opts_init(&o);
	o.trips = calloc(1, sizeof *o.trips);
	assert_int_equal(epi_trip_parse(&o.trips[0], "4=n", err), 0);
	o.ntrips = 1;
	assert_int_equal(analyze_opts(src, &o), 0);
	assert_int_equal(count(FN("len"), "load.i32", EXP, 6, 0), 6);
	assert_int_equal(count(FN("len"), "iter", EXP, 6, 0), 6);
	epi_front_opts_clear(&o);
	/* or in the source */
	must_analyze("struct node { struct node *next; };\n"
		     "int len(struct node *p) {\n"
		     "  int k = 0;\n"
		     "#pragma epi trip(2*n + 1)\n"
		     "  while (p) { k++; p = p->next; }\n"
		     "  return k;\n"
		     "}\n");
	assert_int_equal(count(FN("len"), "load.ptr", EXP, 3, 0), 7);
	/* a trip count may name member accesses and several parameters */
	must_analyze("struct list { struct list *next; int len; };\n"
		     "int walk(struct list *l, int n) {\n"
		     "  int k = 0;\n"
		     "#pragma epi trip(l->len * n - 1)\n"
		     "  for (struct list *p = l; p; p = p->next) k++;\n"
		     "  return k;\n"
		     "}\n");
	const epi_region *r = FN("walk");
	int i = counts_find(&r->counts, "iter");
	assert_true(i >= 0);
	sym_env e;
	sym_env_init(&e);
	for (int k = 0; k < A.sym.nvars; k++) {
		if (A.sym.kind[k] == SYM_PARAM && !strcmp(A.sym.name[k], "l->len")) { fmpq_set_si(&e.val[k], 4, 1); e.bound[k] = 1; }
		if (A.sym.kind[k] == SYM_PARAM && !strcmp(A.sym.name[k], "n")) { fmpq_set_si(&e.val[k], 5, 1); e.bound[k] = 1; }
	}
	fmpq_t q;
	fmpq_init(q);
	int missing = -1;
	assert_int_equal(sym_pw_eval(&A.sym, &r->counts.v[i].exp, &e, q, &missing), 0);
	assert_true(fmpq_equal_si(q, 19));
	fmpq_clear(q);
	sym_env_clear(&e);
}

static void test_loop_errors(void **st)
{
	assert_int_equal(analyze_strict("void f(int *a, int n) {\n"
				 "  for (int i = 0; i < n; i++) {\n"
				 "    if (a[i]) break;\n"
				 "  }\n"
				 "  int i = 0;\n"
				 "  while (i < n) { if (a[i]) goto out; i++; }\n"
				 "out:;\n"
				 "}\n"), -1);
	assert_non_null(strstr(err, ":6: cannot count this loop: 'goto' at line 6")); /* the break is bounded */
	assert_int_equal(analyze_strict("void f(int *a, int n) {\n"
				 "  for (int i = 0; i < n; i++) n = n - 1;\n"
				 "}\n"), -1);
	assert_non_null(strstr(err, "'n' changes inside it"));
	/* one statement changes several of the bound's variables: the first
	 * of the bound is named, wherever in the statement it changes */
	assert_int_equal(analyze_strict("void f(int *a, int n, int m) {\n"
				 "  for (int i = 0; i < n + m; i++) {\n"
				 "    a[i] = 0;\n"
				 "    m = 2,\n"
				 "      n--;\n"
				 "  }\n"
				 "}\n"), -1);
	assert_non_null(strstr(err, "'n' changes inside it (line 5)"));
	assert_int_equal(analyze_strict("void f(int *a, int n, int m) {\n"
				 "  for (int i = 0; i < n + m; i++) {\n"
				 "    m = 2;\n"
				 "    a[i] = 0;\n"
				 "  }\n"
				 "}\n"), -1);
	assert_non_null(strstr(err, "'m' changes inside it (line 3)"));
	/* one statement both leaves early and changes the bound: the change is
	 * named, though the way out comes first in the walk; a way out inside
	 * a nested loop is that loop's own */
	assert_int_equal(analyze_strict("void f(int *a, int n) {\n"
				 "  for (int i = 0; i < n; i++) {\n"
				 "    if (a[i]) { break; }\n"
				 "    else { for (int j = 0; j < 2; j++) if (a[j]) break; n--; }\n"
				 "  }\n"
				 "}\n"), -1);
	assert_non_null(strstr(err, "'n' changes inside it (line 4)"));
	/* a continue before a while loop's update skips the update */
	assert_int_equal(analyze_strict("void f(int *a, int n) {\n"
				 "  int i = 0;\n"
				 "  while (i < n) {\n"
				 "    for (int j = 0; j < 2; j++) if (a[j]) break;\n"
				 "    if (a[i]) continue;\n"
				 "    i++;\n"
				 "  }\n"
				 "}\n"), -1);
	assert_non_null(strstr(err, ":3: cannot count this loop: 'continue' at line 5"));
	assert_int_equal(analyze_strict("void f(int *a, int n) {\n"
				 "  for (int i = 0; i < n; i--) a[i] = 0;\n"
				 "}\n"), -1);
	assert_non_null(strstr(err, "moves away from the bound"));
	/* every loop that cannot be counted is reported in one run */
	epi_front_opts o;
	epi_front_opts_init(&o);
	if (have)
		epi_analysis_free(&A);
	have = 0;
	snprintf(path, sizeof path, "/tmp/epi-test-XXXXXX.c");
	int fd = mkstemps(path, 2);
	/* nested ones too, with --strict as without */
	const char *src = "void f(int *a, int n) {\n"
			  "  while (*a) {\n"
			  "    while (a[1]) a++;\n"
			  "    a++;\n"
			  "  }\n"
			  "  for (int i = 0; i < n; i++) a[i] = 1;\n"
			  "  for (int i = 0; i < n; i--) a[i] = 0;\n"
			  "}\n";
	assert_int_equal(write(fd, src, strlen(src)), (ssize_t)strlen(src));
	close(fd);
	o.strict = 1;
	assert_int_equal(epi_analyze(&A, path, &o, err), -1);
	unlink(path);
	assert_int_equal(A.nerrors, 3);
	assert_non_null(strstr(A.errors[0], ":2: cannot count"));
	assert_non_null(strstr(A.errors[1], ":3: cannot count"));
	assert_non_null(strstr(A.errors[2], ":7: cannot count"));
	assert_non_null(strstr(err, "(and 2 more loops)"));
	epi_analysis_free(&A);
	epi_front_opts_clear(&o);
	/* break in an inner switch or loop is fine */
	must_analyze("void f(int *a, int n) {\n"
		     "  for (int i = 0; i < n; i++)\n"
		     "    for (int j = 0; j < 3; j++) { a[j] = 1; }\n"
		     "}\n");
	assert_int_equal(count(FN("f"), "store.i32", EXP, 4, 0), 12);
}

static void test_switch(void **st)
{
	must_analyze("void f(int *a, int n) {\n"
		     "  for (int i = 0; i < n; i++) {\n"
		     "    switch (a[i]) {\n"
		     "    case 0:\n"
		     "    case 1: a[0] = 1;\n"       /* falls through into case 2 */
		     "    case 2: a[1] = 2; a[2] = 3; break;\n"
		     "    case 3: break;\n"
		     "    }\n"                       /* no default: a path that runs nothing */
		     "  }\n"
		     "}\n");
	const epi_region *r = FN("f");
	/* entries: case 0 and case 1 run 3 stores, case 2 two, case 3 none, no match none */
	assert_int_equal(count(r, "store.i32", MIN, 4, 0), 0);
	assert_int_equal(count(r, "store.i32", MAX, 4, 0), 12);
	char *e = count_str(r, "store.i32", EXP, 5, 0);
	assert_string_equal(e, "8"); /* 5 x (3 + 3 + 2 + 0 + 0) / 5 */
	free(e);
	assert_int_equal(count(r, "load.i32", EXP, 4, 0), 4); /* the condition, always */
}

static void test_many_strided_functions(void **st)
{
	/* more floor terms than the symbol table first holds: it grows */
	char *src = malloc(64 * 1024);
	size_t len = 0;
	int spec[60][3];
	for (int f = 0; f < 60; f++) {
		spec[f][0] = f % 7;             /* offset */
		spec[f][1] = 2 + f % 4;         /* outer stride */
		spec[f][2] = 2 + (f / 4) % 4;   /* inner stride */
		len += (size_t)snprintf(src + len, 64 * 1024 - len,
					"void f%d(double *a, int n) { for (int i = %d; i < n; i += %d) "
					"for (int j = i; j < n + %d; j += %d) a[j] = a[i]; }\n",
					f, spec[f][0], spec[f][1], spec[f][0], spec[f][2]);
	}
	must_analyze(src);
	free(src);
	for (int f = 0; f < 60; f++) {
		char name[16];
		snprintf(name, sizeof name, "f%d", f);
		for (long n = 20; n <= 23; n++) {
			long c = 0;
			for (long i = spec[f][0]; i < n; i += spec[f][1])
				for (long j = i; j < n + spec[f][0]; j += spec[f][2])
					c++;
			assert_int_equal(count(FN(name), "store.f64", EXP, n, 0), c);
		}
	}
	assert_true(A.sym.cap > SYM_INITVARS);
}

static void test_member_bounds(void **st)
{
	must_analyze("struct vec { int n; double *x; };\n"
		     "double sum(struct vec *v) {\n"
		     "  double s = 0;\n"
		     "  for (int i = 0; i < v->n; i++) s += v->x[i];\n"
		     "  return s;\n"
		     "}\n");
	const epi_region *r = FN("sum");
	int i = counts_find(&r->counts, "add.f64");
	assert_true(i >= 0);
	int used[SYM_MAXVARS] = {0}, found = 0;
	sym_pw_params(&A.sym, &r->counts.v[i].exp, used);
	for (int k = 0; k < A.sym.nvars; k++)
		found |= used[k] && A.sym.kind[k] == SYM_PARAM && strcmp(A.sym.name[k], "v->n") == 0;
	assert_true(found);
	assert_int_equal(analyze_strict("struct vec { int n; };\n"
				 "void shrink(struct vec *v) {\n"
				 "  for (int i = 0; i < v->n; i++) v->n--;\n"
				 "}\n"), -1);
	assert_non_null(strstr(err, "'v->n' changes inside it"));
}

/* Whether some note of the analysis contains TEXT. */
static int noted(const char *text)
{
	for (int i = 0; i < A.nnotes; i++)
		if (strstr(A.notes[i], text))
			return 1;
	return 0;
}

/* Whether A has the parameter NAME. */
static int has_param(const char *name)
{
	for (int k = 0; k < A.sym.nvars; k++)
		if (A.sym.kind[k] == SYM_PARAM && !strcmp(A.sym.name[k], name))
			return 1;
	return 0;
}

static void test_early_exit(void **st)
{
	(void)st;
	/* a search: at most n iterations, at least the first's test */
	must_analyze("int find(int *a, int n, int key) {\n"
		     "  for (int i = 0; i < n; i++)\n"
		     "    if (a[i] == key)\n"
		     "      return i;\n"
		     "  return -1;\n"
		     "}\n");
	const epi_region *r = FN("find");
	for (long n = 0; n < 6; n++) {
		assert_int_equal(count(r, "cmp.i32", MAX, n, 0), n);
		assert_int_equal(count(r, "cmp.i32", EXP, n, 0), n);
		assert_int_equal(count(r, "cmp.i32", MIN, n, 0), n > 0);
		assert_int_equal(count(r, "iter", MIN, n, 0), n > 0);
		assert_int_equal(count(r, "load.i32", MIN, n, 0), n > 0);
	}
	assert_true(r->counts.approx);
	assert_true(noted(":2: 'return' at line 4 can end this loop early"));
	/* the statements before the way out count in the minimum, those after it do not */
	must_analyze("void f(int *a, int n) {\n"
		     "  int i = 0;\n"
		     "  while (i < n) {\n"
		     "    a[i] = 1;\n"
		     "    if (a[i + 1]) break;\n"
		     "    a[i + 2] = 2;\n"
		     "    i++;\n"
		     "  }\n"
		     "}\n");
	r = FN("f");
	for (long n = 0; n < 6; n++) {
		assert_int_equal(count(r, "store.i32", MAX, n, 0), 2 * n);
		assert_int_equal(count(r, "store.i32", MIN, n, 0), n > 0);
	}
	/* continue in a for loop: the iterations are exact */
	must_analyze("void f(int *a, int n) {\n"
		     "  for (int i = 0; i < n; i++) {\n"
		     "    a[i] = 1;\n"
		     "    if (a[i + 1]) continue;\n"
		     "    a[i + 2] = 2;\n"
		     "  }\n"
		     "}\n");
	r = FN("f");
	for (long n = 0; n < 6; n++) {
		assert_int_equal(count(r, "iter", MIN, n, 0), n);
		assert_int_equal(count(r, "iter", MAX, n, 0), n);
		assert_int_equal(count(r, "store.i32", MIN, n, 0), n);
		assert_int_equal(count(r, "store.i32", MAX, n, 0), 2 * n);
	}
	assert_true(noted(":2: 'continue' at line 4 can skip the rest of an iteration"));
}

static void test_idioms(void **st)
{
	(void)st;
	/* do-while(0) macros run once and are no loop nest; comma increments;
	 * a for whose first value is assigned before it */
	must_analyze("#define SWAP(a, b) do { int t_ = (a); (a) = (b); (b) = t_; } while (0)\n"
		     "void f(int *a, int *b, int n) {\n"
		     "  int i, j;\n"
		     "  for (i = 0, j = 0; i < n; i++, j += 2)\n"
		     "    SWAP(a[i], b[j]);\n"
		     "  i = 3;\n"
		     "  for (; i < n; i++)\n"
		     "    a[i] = 0;\n"
		     "  for (int k = 0, m2 = n; k < n; k++) a[k] = m2;\n"
		     "}\n");
	const epi_region *r = FN("f");
	for (long n = 0; n < 7; n++) {
		long rest = n > 3 ? n - 3 : 0;
		assert_int_equal(count(r, "store.i32", EXP, n, 0), 2 * n + rest + n);
		assert_int_equal(count(r, "iter", EXP, n, 0), n + rest + n);
		assert_int_equal(count(r, "add.i32", EXP, n, 0), n); /* j += 2 */
	}
	int loops = 0;
	for (int i = 0; i < A.nregions; i++)
		loops += A.regions[i].scope == EPI_SCOPE_LOOP;
	assert_int_equal(loops, 3);
	assert_int_equal(A.nnotes, 0);
	/* functions and loops written by macros, member accesses in macro arguments */
	must_analyze("#define NAME(f) vec_##f\n"
		     "#define FOREACH(v, k) for (int k = 0; k < (v)->len; k++)\n"
		     "struct vec { int len; int *d; };\n"
		     "int NAME(sum)(struct vec *v) {\n"
		     "  int s = 0;\n"
		     "  FOREACH(v, i) s += v->d[i];\n"
		     "  return s;\n"
		     "}\n"
		     "int twice(struct vec *v) { return NAME(sum)(v) + NAME(sum)(v); }\n");
	r = FN("vec_sum");
	assert_int_equal(r->line, 4);
	assert_true(has_param("v->len"));
	const epi_region *lr = region(EPI_SCOPE_LOOP, "vec_sum", 0);
	assert_int_equal(lr->line, 6);
	int i = counts_find(&FN("twice")->counts, "add.i32");
	assert_true(i >= 0);
	int used[SYM_MAXVARS] = {0};
	sym_pw_params(&A.sym, &FN("twice")->counts.v[i].exp, used);
	for (int k = 0; k < A.sym.nvars; k++)
		if (used[k])
			assert_string_equal(A.sym.name[k], "v->len");
	assert_int_equal(counts_find(&FN("twice")->counts, "call:vec_sum"), -1);
}

static void test_trip_params(void **st)
{
	(void)st;
	/* a list walk around a counted loop: exact in T5 and n */
	must_analyze("struct node { struct node *next; int v; };\n"
		     "int walk(struct node *p, int n) {\n"
		     "  int s = 0;\n"
		     "  p = p->next;\n"
		     "  while (p) {\n"
		     "    for (int i = 0; i < n; i++) s += p->v;\n"
		     "    p = p->next;\n"
		     "  }\n"
		     "  return s;\n"
		     "}\n");
	second = "T5";
	for (long n = 0; n < 5; n++)
		for (long t = 0; t < 4; t++) {
			assert_int_equal(count(FN("walk"), "add.i32", EXP, n, t), n * t);
			assert_int_equal(count(FN("walk"), "iter", EXP, n, t), n * t + t);
			assert_int_equal(count(FN("walk"), "load.ptr", EXP, n, t), t + 1);
		}
	/* two loops a macro writes on one line: T4 and T4_2; a variable the
	 * body changes bounds no loop as a parameter */
	must_analyze("#define SKIP(p) while (*p == ' ') p++; while (*p == '\\t') p++\n"
		     "int f(char *p, int *a) {\n"
		     "  int m = 0;\n"
		     "  SKIP(p);\n"
		     "  while (*p) { m = *p++; for (int i = 0; i < m; i++) a[i] = 0; }\n"
		     "  return m;\n"
		     "}\n");
	assert_true(has_param("T4"));
	assert_true(has_param("T4_2"));
	assert_true(has_param("T5"));
	assert_true(has_param("T5_2"));
	assert_false(has_param("m"));
	assert_true(noted(":5: cannot count this loop: its condition reads memory ('*p')"));
	/* --trip LINE_2 binds the second */
	epi_front_opts o;
	epi_front_opts_init(&o);
	o.trips = calloc(2, sizeof *o.trips);
	assert_int_equal(epi_trip_parse(&o.trips[0], "4_2=7", err), 0);
	assert_int_equal(o.trips[0].nth, 2);
	o.ntrips = 1;
	assert_int_equal(analyze_opts("#define SKIP(p) while (*p == ' ') p++; while (*p == '\\t') p++\n"
				      "int f(char *p) {\n"
				      "  int m = 0;\n"
				      "  SKIP(p);\n"
				      "  return m;\n"
				      "}\n",
				      &o),
			 0);
	assert_true(has_param("T4"));
	assert_false(has_param("T4_2"));
	second = "T4";
	assert_int_equal(count(FN("f"), "iter", EXP, 0, 5), 5 + 7);
	second = "m";
	/* a measured trip count binds only a loop that cannot be counted */
	epi_front_opts_clear(&o);
	epi_front_opts_init(&o);
	o.trips = calloc(2, sizeof *o.trips);
	o.trips[0] = (epi_trip){.line = 3, .expr = strdup("5/2"), .measured = 1, .origin = strdup("from a test")};
	o.trips[1] = (epi_trip){.line = 4, .expr = strdup("100"), .measured = 1};
	o.ntrips = 2;
	assert_int_equal(analyze_opts("int f(char *p, int n) {\n"
				      "  int k = 0;\n"
				      "  while (*p) p++;\n"
				      "  for (int i = 0; i < n; i++) k++;\n"
				      "  return k;\n"
				      "}\n",
				      &o),
			 0);
	char *e = count_str(FN("f"), "iter", EXP, 4, 0);
	assert_string_equal(e, "13/2");
	free(e);
	assert_true(noted(":3: this loop cannot be counted"));
	assert_true(noted("measured trip count 5/2, from a test"));
	epi_front_opts_clear(&o);
	/* and a search, whose bounds say less than how early it ended in a run */
	epi_front_opts_init(&o);
	o.trips = calloc(1, sizeof *o.trips);
	o.trips[0] = (epi_trip){.line = 2, .expr = strdup("n/4"), .measured = 1};
	o.ntrips = 1;
	assert_int_equal(analyze_opts("int find(int *a, int n, int k) {\n"
				      "  for (int i = 0; i < n; i++) if (a[i] == k) return i;\n"
				      "  return -1;\n"
				      "}\n",
				      &o),
			 0);
	assert_int_equal(count(FN("find"), "cmp.i32", EXP, 8, 0), 2);
	assert_true(noted(":2: this loop cannot be counted ('return' at line 2 can end it early)"));
	epi_front_opts_clear(&o);
	/* loopbound annotations give the minimum and maximum */
	must_analyze("int f(char *p) {\n"
		     "  int k = 0;\n"
		     "  _Pragma(\"loopbound min 2 max 8\")\n"
		     "  while (*p) { k++; p++; }\n"
		     "  return k;\n"
		     "}\n");
	assert_int_equal(count(FN("f"), "iter", MIN, 0, 0), 2);
	assert_int_equal(count(FN("f"), "iter", MAX, 0, 0), 8);
	assert_int_equal(count(FN("f"), "iter", EXP, 0, 0), 8);
	assert_false(has_param("T4"));
	/* --strict: every loop that cannot be counted is an error */
	assert_int_equal(analyze_strict("int f(char *p) {\n  while (*p) p++;\n  return 0;\n}\n"), -1);
	assert_non_null(strstr(err, ":2: cannot count this loop"));
}

static void test_update_in_condition(void **st)
{
	(void)st;
	/* the condition updates its variable: each checked against the loop run */
	must_analyze("void a1(int *a, int n) { while (n--) a[n] = 0; }\n"
		     "void a2(int *a, int n) { while (--n) a[n] = 0; }\n"
		     "void a3(int *a, int n) { do { a[n] = 0; } while (--n); }\n"
		     "void a4(int *a, int n) { do { a[n] = 0; } while (n--); }\n"
		     "void a5(int *a, int n) { int i; for (i = n; i--; ) a[i] = 1; }\n"
		     "void a6(int *a, int n) { while (n-- > 0) a[n] = 0; }\n"
		     "void a7(int *a, int n) { int i = 0; while (i++ < n) a[i] = 0; }\n"
		     "void a8(int *a, int n) { while (n--) for (int j = 0; j < n; j++) a[j] = 0; }\n");
	for (long n = 1; n < 7; n++) {
		long c, k;
		c = 0, k = n; while (k--) c++;
		assert_int_equal(count(FN("a1"), "store.i32", EXP, n, 0), c);
		c = 0, k = n; while (--k) c++;
		assert_int_equal(count(FN("a2"), "store.i32", EXP, n, 0), c);
		c = 0, k = n; do c++; while (--k);
		assert_int_equal(count(FN("a3"), "store.i32", EXP, n, 0), c);
		c = 0, k = n; do c++; while (k--);
		assert_int_equal(count(FN("a4"), "store.i32", EXP, n, 0), c);
		assert_int_equal(count(FN("a5"), "store.i32", EXP, n, 0), n);
		assert_int_equal(count(FN("a6"), "store.i32", EXP, n, 0), n);
		c = 0, k = 0; while (k++ < n) c++;
		assert_int_equal(count(FN("a7"), "store.i32", EXP, n, 0), c);
		c = 0, k = n; while (k--) for (long j = 0; j < k; j++) c++; /* the body sees n - 1 */
		assert_int_equal(count(FN("a8"), "store.i32", EXP, n, 0), c);
	}
	/* multiplied, divided and shifted variables with constant ends: their values */
	must_analyze("void g1(int *a) { for (int k = 1; k < 1024; k <<= 1) a[k] = 0; }\n"
		     "void g2(int *a) { for (int k = 1; k < 64; k *= 2) for (int j = 0; j < k; j++) a[j] = 0; }\n"
		     "void g3(int *a) { int x = 1000; while (x > 0) { a[x % 7] = 0; x /= 3; } }\n"
		     "void g4(int *a, int n) { for (int k = 1; k < n; k <<= 1) a[k] = 0; }\n");
	long c = 0;
	for (long k = 1; k < 1024; k <<= 1)
		c++;
	assert_int_equal(count(FN("g1"), "store.i32", EXP, 0, 0), c);
	c = 0;
	for (long k = 1; k < 64; k *= 2)
		for (long j = 0; j < k; j++)
			c++;
	assert_int_equal(count(FN("g2"), "store.i32", EXP, 0, 0), c);
	c = 0;
	for (long x = 1000; x > 0; x /= 3)
		c++;
	assert_int_equal(count(FN("g3"), "store.i32", EXP, 0, 0), c);
	assert_true(has_param("T4")); /* a logarithm of n: a trip-count parameter */
}

static void test_and_and_pointers(void **st)
{
	(void)st;
	/* var REL bound && other tests: bounded like an early exit */
	must_analyze("int find(int *a, int n, int key) { int i; for (i = 0; i < n && a[i] != key; i++) ; return i; }\n"
		     "void ins(int *a, int n) {\n"
		     "  for (int i = 1; i < n; i++) {\n"
		     "    int key = a[i], j = i - 1;\n"
		     "    while (j >= 0 && a[j] > key) { a[j + 1] = a[j]; j--; }\n"
		     "    a[j + 1] = key;\n"
		     "  }\n"
		     "}\n");
	for (long n = 0; n < 7; n++) {
		assert_int_equal(count(FN("find"), "cmp.i32", MAX, n, 0), n);
		assert_int_equal(count(FN("find"), "cmp.i32", MIN, n, 0), n > 0);
		assert_int_equal(count(FN("find"), "iter", MIN, n, 0), 0); /* the first test may fail */
		long c = 0;
		for (long i = 1; i < n; i++)
			for (long j = i - 1; j >= 0; j--)
				c++;
		assert_int_equal(count(FN("ins"), "cmp.i32", MAX, n, 0), c);
		assert_int_equal(count(FN("ins"), "store.i32", MAX, n, 0), c + (n > 1 ? n - 1 : 0));
		assert_int_equal(count(FN("ins"), "store.i32", MIN, n, 0), n > 1 ? n - 1 : 0);
	}
	assert_true(noted(":5: '&&' at line 5 can end this loop early"));
	/* a pointer as the induction variable: counted in elements */
	must_analyze("void z(int *a, int n) { for (int *p = a; p < a + n; p++) *p = 0; }\n"
		     "void z2(double *a, int n) { double *p = a + n; while (p > a) { p -= 2; *p = 1; } }\n");
	for (long n = 0; n < 7; n++) {
		assert_int_equal(count(FN("z"), "store.i32", EXP, n, 0), n);
		long c = 0;
		for (long p = n; p > 0; p -= 2)
			c++;
		assert_int_equal(count(FN("z2"), "store.f64", EXP, n, 0), c);
	}
	assert_true(noted(":1: the pointer 'p' is counted in elements"));
}

static void test_switch_leaving_early(void **st)
{
	(void)st;
	/* a break inside an if leaves a case early: every case still counts */
	must_analyze("void f(int *a, int n) {\n"
		     "  for (int i = 0; i < n; i++) {\n"
		     "    switch (a[i]) {\n"
		     "    case 0: a[0] = 1; if (a[1]) break; a[2] = 2; break;\n"
		     "    default: a[3] = 3; break;\n"
		     "    }\n"
		     "  }\n"
		     "}\n");
	const epi_region *r = FN("f");
	for (long n = 0; n < 5; n++) {
		assert_int_equal(count(r, "store.i32", MAX, n, 0), 2 * n);
		assert_int_equal(count(r, "store.i32", MIN, n, 0), n);
	}
	assert_true(noted("'break' can leave a case of the switch at line 3 early"));
}

static void test_values_pinned(void **st)
{
	(void)st;
	/* a loop over the values of a shifted variable, whose value steps and
	 * bounds the loops inside: counted value by value */
	must_analyze("#define N 64\n"
		     "void fft(int *x) {\n"
		     "  int half, start, k;\n"
		     "  for (half = 1; half < N; half <<= 1)\n"
		     "    for (start = 0; start < N; start += 2 * half)\n"
		     "      for (k = 0; k < half; k++)\n"
		     "        x[start + k] += x[start + k + half];\n"
		     "}\n"
		     "void g(int *a) { int x = 1000; do { a[x % 7] = 0; x /= 3; } while (x > 5000); }\n");
	long c = 0, it = 0;
	for (long half = 1; half < 64; half <<= 1, it++)
		for (long start = 0; start < 64; start += 2 * half, it++)
			for (long k = 0; k < half; k++, it++)
				c++;
	assert_int_equal(count(FN("fft"), "store.i32", EXP, 0, 0), c);
	assert_int_equal(count(FN("fft"), "iter", EXP, 0, 0), it);
	assert_int_equal(count(FN("g"), "store.i32", EXP, 0, 0), 1); /* a do loop runs once */
	/* var + c REL bound */
	must_analyze("void a(int *d, int n) { int i; for (i = 0; i + 4 <= n; i += 4) d[i] = 0; }\n"
		     "void b(int *d, int n) { int i = 0; while (i + 4 <= n) { d[i] = 1; i += 4; } }\n"
		     "void c(int *d, int n) { for (int i = 0; 3 + i < n; i++) d[i] = 0; }\n");
	for (long n = 0; n < 12; n++) {
		long ca = 0, cc = 0;
		for (long i = 0; i + 4 <= n; i += 4)
			ca++;
		for (long i = 0; 3 + i < n; i++)
			cc++;
		assert_int_equal(count(FN("a"), "store.i32", EXP, n, 0), ca);
		assert_int_equal(count(FN("b"), "store.i32", EXP, n, 0), ca);
		assert_int_equal(count(FN("c"), "store.i32", EXP, n, 0), cc);
	}
}

static void test_fixed_locals(void **st)
{
	(void)st;
	/* a local set once, where it is declared, to a value that stays: the
	 * value, not a parameter of its name; one that changes, or whose
	 * initializer reads what changes, stays a parameter */
	must_analyze("double a[1000];\n"
		     "int G;\n"
		     "void con(void) { int m = 100; for (int i = 0; i < m; i++) a[i] += 1; }\n"
		     "void twice(int n) { int m = 2 * n + 1; for (int i = 0; i < m; i++) a[i] += 1; }\n"
		     "void tri(int n) { for (int i = 0; i < n; i++) { int lim = i + 1;\n"
		     "  for (int j = 0; j < lim; j++) a[j] += 1; } }\n"
		     "void before(int n) { int i = 0; int m = i + 5; for (i = 0; i < n; i++) for (int j = 0; j < m; j++) a[j] += 1; }\n"
		     "void written(int n) { int m = n; n = 5; for (int i = 0; i < m; i++) a[i] += 1; }\n"
		     "void glob(void) { int m = G; for (int i = 0; i < m; i++) a[i] += 1; }\n"
		     "void addr(void) { int m = 10; int *p = &m; *p = 3; for (int i = 0; i < m; i++) a[i] += 1; }\n"
		     "void inc(void) { int m = 10; m++; for (int i = 0; i < m; i++) a[i] += 1; }\n");
	for (long n = 0; n < 6; n++) {
		assert_int_equal(count(FN("con"), "add.f64", EXP, n, 7), 100);
		assert_int_equal(count(FN("twice"), "add.f64", EXP, n, 7), 2 * n + 1);
		assert_int_equal(count(FN("tri"), "add.f64", EXP, n, 7), n * (n + 1) / 2);
		/* i at m's declaration is not the loop's i */
		assert_int_equal(count(FN("before"), "add.f64", EXP, n, 7), n ? 7 * n : 0);
		assert_int_equal(count(FN("written"), "add.f64", EXP, n, 7), 7);
		assert_int_equal(count(FN("glob"), "add.f64", EXP, n, 7), 7);
		assert_int_equal(count(FN("addr"), "add.f64", EXP, n, 7), 7);
		assert_int_equal(count(FN("inc"), "add.f64", EXP, n, 7), 7);
	}
	/* set by an assignment before the use, in a block that holds it, and
	 * not again in that block: the assignment's value (twice: the last);
	 * set under a condition, or after the use: a parameter */
	must_analyze("double a[1000];\n"
		     "void tri(int n) { int k, j, nm1, kp1; nm1 = n - 1;\n"
		     "  for (k = 0; k < nm1; k++) { kp1 = k + 1; for (j = kp1; j < n; j++) a[j] += 1; } }\n"
		     "static void sc(int m) { for (int i = 0; i < m; i++) a[i] += 1; }\n"
		     "void arg(int n) { int k; for (int kb = 0; kb < n; kb++) { k = n - (kb + 1); sc(k); } }\n"
		     "void twice(int n) { int m; m = n; m = 5; for (int i = 0; i < m; i++) a[i] += 1; }\n"
		     "void cond(int n) { int m; if (n > 3) { m = n; } for (int i = 0; i < m; i++) a[i] += 1; }\n"
		     "void after(int n) { int m; for (int i = 0; i < m; i++) a[i] += 1; m = n; }\n"
		     "void reused(int n) { int k; for (k = 0; k < n; k++) a[k] = 0;\n"
		     "  for (int kb = 0; kb < n; kb++) { k = n - (kb + 1); sc(k); } }\n"
		     "void again(int n) { int m; for (int r = 0; r < 3; r++) { m = n; for (int i = 0; i < m; i++) a[i] += 1; m = m + 1; } }\n");
	for (long n = 0; n < 6; n++) {
		assert_int_equal(count(FN("tri"), "add.f64", EXP, n, 7), n ? n * (n - 1) / 2 : 0);
		assert_int_equal(count(FN("arg"), "add.f64", EXP, n, 7), n ? n * (n - 1) / 2 : 0);
		assert_int_equal(count(FN("twice"), "add.f64", EXP, n, 7), 5);
		assert_int_equal(count(FN("cond"), "add.f64", EXP, n, 7), 7);
		assert_int_equal(count(FN("after"), "add.f64", EXP, n, 7), 7);
		/* a loop's variable, set again in another loop before a call */
		assert_int_equal(count(FN("reused"), "add.f64", EXP, n, 7), n ? n * (n - 1) / 2 : 0);
		/* written again after the use in the same block: a parameter */
		assert_int_equal(count(FN("again"), "add.f64", EXP, n, 7), 21);
	}
}

static void test_for_with_body_update(void **st)
{
	(void)st;
	/* a for whose update is in its body; conditions that never or always hold */
	must_analyze("void f(int *a, int n) {\n"
		     "  int i = 0;\n"
		     "  for (; i < n;) { a[i] = 0; i++; }\n"
		     "  for (int k = 1; k < n;) { a[k] = 1; k += 2; }\n"
		     "  while (0) { a[0] = 5; }\n"
		     "  for (;;) { if (a[0]) break; a[1] = 3; }\n"
		     "}\n");
	second = "T6";
	for (long n = 0; n < 9; n++) {
		long c = 0;
		for (long k = 1; k < n; k += 2)
			c++;
		assert_int_equal(count(FN("f"), "store.i32", EXP, n, 2), n + c + 2);
	}
	second = "m";
	assert_true(noted(":6: cannot count this loop: its condition always holds"));
}

static void test_remainder_loops(void **st)
{
	(void)st;
	/* a loop that goes on where the one before it left its variable */
	must_analyze("void cp(char *d, const char *s, int n) {\n"
		     "  int i;\n"
		     "  for (i = 0; i + 4 <= n; i += 4) { d[i] = s[i]; d[i + 1] = s[i + 1]; d[i + 2] = s[i + 2]; d[i + 3] = s[i + 3]; }\n"
		     "  for (; i < n; i++) d[i] = s[i];\n"
		     "}\n"
		     "void two(int *a, int n) {\n"
		     "  int i = 0;\n"
		     "  while (i < n / 2) { a[i] = 0; i++; }\n"
		     "  a[0] = 2;\n"
		     "  while (i < n) { a[i] = 1; i++; }\n"
		     "}\n");
	for (long n = 0; n < 14; n++) {
		long c = 0, t = 0, i;
		for (i = 0; i + 4 <= n; i += 4)
			c += 4, t++;
		for (; i < n; i++)
			c++, t++;
		assert_int_equal(count(FN("cp"), "store.i8", EXP, n, 0), c);
		assert_int_equal(count(FN("cp"), "iter", EXP, n, 0), t);
		assert_int_equal(count(FN("two"), "store.i32", EXP, n, 0), n + 1);
	}
	assert_true(noted(":4: 'i' starts where the loop at line 3 left it"));
}

/* With tag_loops, each loop's own work over the run, for the compiled-code
 * model: its iterations, the bytes it loads and stores (by element type)
 * and its floating-point operations, not those of the loops inside it. */
/* The total of SRC analysed with tag_loops (the loops' own sums). */
static const epi_region *loop_sums_of(const char *src)
{
	epi_front_opts o;
	epi_front_opts_init(&o);
	o.tag_loops = 1;
	int r = analyze_opts(src, &o);
	epi_front_opts_clear(&o);
	if (r != 0)
		fail_msg("analysis failed: %s", err);
	return region(EPI_SCOPE_TOTAL, NULL, 0);
}

static void test_loop_sums(void **st)
{
	(void)st;
	const epi_region *t = loop_sums_of("void k(float *a, const double *b, short *c, int n) {\n"
					   "  for (int i = 0; i < n; i++) {\n"
					   "    a[i] = a[i] * 2.0f + 1.0f;\n"
					   "    for (int j = 0; j < i; j++)\n"
					   "      c[j] = c[j] + 1;\n"
					   "  }\n"
					   "  for (int i = 0; i < n; i++) a[i] = (float)b[i];\n"
					   "}\n");
	for (long n = 0; n < 6; n++) {
		assert_int_equal(count(t, "%2/iter", EXP, n, 0), n);
		assert_int_equal(count(t, "%2/load_bytes", EXP, n, 0), 4 * n);
		assert_int_equal(count(t, "%2/store_bytes", EXP, n, 0), 4 * n);
		assert_int_equal(count(t, "%2/flops", EXP, n, 0), 2 * n);
		assert_int_equal(count(t, "%4/iter", EXP, n, 0), n * (n - 1) / 2);
		assert_int_equal(count(t, "%4/load_bytes", EXP, n, 0), n * (n - 1));
		assert_int_equal(count(t, "%4/store_bytes", EXP, n, 0), n * (n - 1));
		assert_int_equal(count(t, "%4/flops", EXP, n, 0), 0);
		assert_int_equal(count(t, "%7/load_bytes", EXP, n, 0), 8 * n);
		assert_int_equal(count(t, "%7/store_bytes", EXP, n, 0), 4 * n);
	}
}

/* Loops side by side on one line have counts of their own: the second's
 * tag is the line plus EPI_TAG_NEST, as a loop's inside another there */
static void test_loop_sums_beside(void **st)
{
	(void)st;
	const epi_region *t =
		loop_sums_of("void k(float *a, int n) {\n"
			     "  for (int i = 0; i < n; i++) a[i] = 0; for (int j = 0; j < 2 * n; j++) a[j] += 1;\n"
			     "  for (int i = 0; i < n; i++) for (int j = 0; j < 3; j++) a[j] = 1; while (n-- > 0) a[n] = 2;\n"
			     "}\n");
	char k2[32], k3[32], k3b[32];
	snprintf(k2, sizeof k2, "%%%d/iter", 2 + EPI_TAG_NEST);
	snprintf(k3, sizeof k3, "%%%d/iter", 3 + EPI_TAG_NEST);
	snprintf(k3b, sizeof k3b, "%%%d/iter", 3 + 2 * EPI_TAG_NEST);
	for (long n = 0; n < 6; n++) {
		assert_int_equal(count(t, "%2/iter", EXP, n, 0), n);
		assert_int_equal(count(t, k2, EXP, n, 0), 2 * n);
		assert_int_equal(count(t, "%3/iter", EXP, n, 0), n);
		assert_int_equal(count(t, k3, EXP, n, 0), 3 * n);
		assert_int_equal(count(t, k3b, EXP, n, 0), n);
	}
}

/* likely() and unlikely(): __builtin_expect is a hint, its first
 * argument's value; a loop whose condition it wraps is counted. */
static void test_expect_hints(void **st)
{
	(void)st;
	must_analyze("#define likely(x) __builtin_expect(!!(x), 1)\n"
		     "#define unlikely(x) __builtin_expect((x), 0)\n"
		     "int f(int n, int *a) {\n"
		     "  int s = 0;\n"
		     "  for (int i = 0; likely(i < n); i++)\n"
		     "    if (unlikely(a[i] < 0)) s++;\n"
		     "  return s;\n"
		     "}\n");
	const epi_region *r = FN("f");
	for (long n = 0; n < 6; n += 2) {
		assert_int_equal(count(r, "iter", EXP, n, 0), n);
		assert_int_equal(count(r, "cmp.i32", EXP, n, 0), n);
		assert_int_equal(count(r, "load.i32", EXP, n, 0), n);
		assert_int_equal(count(r, "add.i32", EXP, n, 0), n / 2);
	}
	assert_int_equal(counts_find(&r->counts, "call:__builtin_expect"), -1);
	assert_int_equal(A.nnotes, 0);
}

/* GNU's statement expressions count their statements; atomic builtins
 * (C11's <stdatomic.h> macros, GCC's __atomic_*) are listed as calls
 * under the name written, not left out. */
static void test_stmt_expr_atomics(void **st)
{
	(void)st;
	must_analyze("#include <stdatomic.h>\n"
		     "static _Atomic long hits;\n"
		     "void f(int n, int *a) {\n"
		     "  for (int i = 0; i < n; i++) {\n"
		     "    a[i] = ({ int t = a[i] * 3; t + 1; });\n"
		     "    atomic_fetch_add(&hits, 1);\n"
		     "    __atomic_fetch_add(&a[0], 1, __ATOMIC_RELAXED);\n"
		     "  }\n"
		     "}\n");
	const epi_region *r = FN("f");
	for (long n = 0; n < 6; n++) {
		assert_int_equal(count(r, "mul.i32", EXP, n, 0), n);
		assert_int_equal(count(r, "add.i32", EXP, n, 0), n);
		assert_int_equal(count(r, "load.i32", EXP, n, 0), n);
		assert_int_equal(count(r, "store.i32", EXP, n, 0), n);
		assert_int_equal(count(r, "call:atomic_fetch_add", EXP, n, 0), n);
		assert_int_equal(count(r, "call:__atomic_fetch_add", EXP, n, 0), n);
	}
}

/* Complex numbers by their parts: a product four products and two sums,
 * a quotient Smith's three quotients, three products and three sums, a
 * sum or an access one per part; with a real operand, a sum one sum, a
 * product or a quotient by it one per part. */
static void test_complex(void **st)
{
	(void)st;
	must_analyze("#include <complex.h>\n"
		     "void f(int n, double complex *z, float complex *w, double x) {\n"
		     "  for (int i = 0; i < n; i++) {\n"
		     "    z[i] = z[i] * z[0] + x;\n"
		     "    z[i] /= x;\n"
		     "    w[i] /= w[0];\n"
		     "  }\n"
		     "}\n");
	const epi_region *r = FN("f");
	for (long n = 0; n < 6; n++) {
		assert_int_equal(count(r, "mul.f64", EXP, n, 0), 4 * n);
		assert_int_equal(count(r, "add.f64", EXP, n, 0), 3 * n);
		assert_int_equal(count(r, "div.f64", EXP, n, 0), 2 * n);
		assert_int_equal(count(r, "load.f64", EXP, n, 0), 6 * n);
		assert_int_equal(count(r, "store.f64", EXP, n, 0), 4 * n);
		assert_int_equal(count(r, "div.f32", EXP, n, 0), 3 * n);
		assert_int_equal(count(r, "mul.f32", EXP, n, 0), 3 * n);
		assert_int_equal(count(r, "add.f32", EXP, n, 0), 3 * n);
		assert_int_equal(count(r, "load.f32", EXP, n, 0), 4 * n);
		assert_int_equal(count(r, "store.f32", EXP, n, 0), 2 * n);
	}
	assert_int_equal(counts_find(&r->counts, "mul"), -1);
}

/* What is not evaluated is not counted: _Generic's controlling
 * expression and the associations it does not choose; an expression in
 * a typeof() that a cast names (<tgmath.h> writes its promotions so). */
static void test_unevaluated(void **st)
{
	(void)st;
	must_analyze("#define ABS(x) _Generic((x), int: abs_i(x), double: abs_d(x))\n"
		     "#define PROMOTE(x) ((__typeof__(promote(x)))(x))\n"
		     "int abs_i(int);\n"
		     "double abs_d(double);\n"
		     "double promote(double);\n"
		     "double f(int n, double *a) {\n"
		     "  double s = 0;\n"
		     "  for (int i = 0; i < n; i++)\n"
		     "    s += ABS(a[i]) + PROMOTE(a[i] * 2);\n"
		     "  return s;\n"
		     "}\n");
	const epi_region *r = FN("f");
	for (long n = 0; n < 6; n++) {
		assert_int_equal(count(r, "load.f64", EXP, n, 0), 2 * n);
		assert_int_equal(count(r, "mul.f64", EXP, n, 0), n);
		assert_int_equal(count(r, "call:abs_d", EXP, n, 0), n);
	}
	assert_int_equal(counts_find(&r->counts, "call:abs_i"), -1);
	assert_int_equal(counts_find(&r->counts, "call:promote"), -1);
}

/* A way that ends the program (exit, abort, a failed assertion, a
 * function declared noreturn by the GNU attribute or by _Noreturn) is not
 * taken in the expected count: a run that completes never takes it; the
 * maximum keeps its work. */
static void test_noreturn_paths(void **st)
{
	(void)st;
	must_analyze("#include <stdlib.h>\n"
		     "#include <stdio.h>\n"
		     "#include <assert.h>\n"
		     "_Noreturn void die(const char *m);\n"
		     "__attribute__((noreturn)) void die2(int code);\n"
		     "void warn(const char *m);\n"
		     "double f(int n, double *a) {\n"
		     "  double s = 0;\n"
		     "  for (int i = 0; i < n; i++) {\n"
		     "    assert(a[i] >= 0);\n"
		     "    if (a[i] > 1e9) { fprintf(stderr, \"big\\n\"); exit(1); }\n"
		     "    if (a[i] < -1) die(\"neg\"); else s += 1;\n"
		     "    if (a[i] == 3) warn(\"three\");\n"
		     "    a[i] > 7 || (die2(2), 0);\n"
		     "  }\n"
		     "  return s;\n"
		     "}\n");
	const epi_region *r = FN("f");
	for (long n = 0; n < 6; n++) {
		assert_int_equal(count(r, "call:exit", EXP, n, 0), 0);
		assert_int_equal(count(r, "call:exit", MAX, n, 0), n);
		assert_int_equal(count(r, "print", EXP, n, 0), 0);
		assert_int_equal(count(r, "call:die", EXP, n, 0), 0);
		assert_int_equal(count(r, "call:die2", EXP, n, 0), 0);
		assert_int_equal(count(r, "call:die2", MAX, n, 0), n);
		assert_int_equal(count(r, "call:__assert_fail", EXP, n, 0), 0);
		assert_int_equal(count(r, "add.f64", EXP, n, 0), n); /* the else of die() always */
		if (n % 2 == 0) /* a call that returns keeps the branch probability */
			assert_int_equal(count(r, "call:warn", EXP, n, 0), n / 2);
	}
}

/* A walk to an end pointer the function sets once where it declares it
 * (double *e = a + n) counts in elements: n, not e - a; one it sets
 * again stays a parameter. */
static void test_end_pointer(void **st)
{
	(void)st;
	must_analyze("void f(int n, double *a) {\n"
		     "  double *e = a + n;\n"
		     "  for (double *p = a; p != e; ++p) *p = 0;\n"
		     "}\n"
		     "void g(int n, double *a) {\n"
		     "  double *e = a + n;\n"
		     "  if (n > 4) e = a + 4;\n"
		     "  for (double *p = a; p < e; p++) *p = 0;\n"
		     "}\n");
	for (long n = 0; n < 6; n++)
		assert_int_equal(count(FN("f"), "store.f64", EXP, n, 0), n);
	assert_true(has_param("e"));
	int i = counts_find(&FN("f")->counts, "store.f64");
	int used[SYM_MAXVARS] = {0};
	sym_pw_params(&A.sym, &FN("f")->counts.v[i].exp, used);
	for (int k = 0; k < A.sym.nvars; k++)
		if (used[k])
			assert_string_equal(A.sym.name[k], "n");
}

/* Shifts by constants in bounds: << a product, >> a floor quotient, by a
 * power of 2 (n >> 1 is n / 2 rounded down), against brute force. */
static void test_shift_bounds(void **st)
{
	(void)st;
	must_analyze("void f(int n, double *c) {\n"
		     "  for (int i = 0; i < n >> 1; i++) c[0] += 1;\n"
		     "  for (int i = 0; i < (n << 2) - 3; i++) c[0] += 1;\n"
		     "  for (int i = 0; i < n; i++)\n"
		     "    for (int j = 0; j < i >> 2; j++) c[0] += 1;\n"
		     "}\n");
	for (long n = 0; n < 21; n++) {
		long k = 0;
		for (long i = 0; i < n >> 1; i++)
			k++;
		for (long i = 0; i < (n << 2) - 3; i++)
			k++;
		for (long i = 0; i < n; i++)
			for (long j = 0; j < i >> 2; j++)
				k++;
		assert_int_equal(count(FN("f"), "store.f64", EXP, n, 0), k);
	}
}

/* Bounds and first values that are the lesser or the greater of two
 * (MIN() and MAX() macros, `j < i && j < m`): counted exactly on each
 * side of where the two cross, as a brute-force run of the loops says. */
#define TMIN(a, b) ((a) < (b) ? (a) : (b))
#define TMAX(a, b) ((a) > (b) ? (a) : (b))
static void test_minmax_bounds(void **st)
{
	(void)st;
	must_analyze("#define MIN(a, b) ((a) < (b) ? (a) : (b))\n"
		     "#define MAX(a, b) ((a) > (b) ? (a) : (b))\n"
		     "void tiled(int n, double *c) {\n"
		     "  for (int ii = 0; ii < n; ii += 7)\n"
		     "    for (int jj = 0; jj < n; jj += 7)\n"
		     "      for (int i = ii; i < MIN(ii + 7, n); i++)\n"
		     "        for (int j = jj; j < MIN(n, jj + 7); j++)\n"
		     "          c[0] += 1.0;\n"
		     "}\n"
		     "void band(int n, double *c) {\n"
		     "  for (int i = 0; i < n; i++)\n"
		     "    for (int j = MAX(0, i - 3); j <= MIN(n - 1, i + 3); j++)\n"
		     "      c[0] += 1.0;\n"
		     "}\n"
		     "void both(int n, int m, double *c) {\n"
		     "  for (int i = 0; i < n; i++)\n"
		     "    for (int j = 0; j < i && j <= m; j++)\n"
		     "      c[0] += 1.0;\n"
		     "}\n"
		     "void down(int n, int m, double *c) {\n"
		     "  for (int i = n - 1; i >= MAX(0, n - m); i--)\n"
		     "    c[0] += 1.0;\n"
		     "}\n"
		     "void from(int n, int m, double *c) {\n"
		     "  for (int i = 0; i < n; i++)\n"
		     "    for (int j = i > m ? i : m; j < n; j++)\n"
		     "      c[0] += 1.0;\n"
		     "}\n");
	for (long n = 0; n < 23; n++)
		for (long m = 0; m < 7; m++) {
			long t = 0, b = 0, h = 0, d = 0, f = 0;
			for (long ii = 0; ii < n; ii += 7)
				for (long jj = 0; jj < n; jj += 7)
					for (long i = ii; i < TMIN(ii + 7, n); i++)
						for (long j = jj; j < TMIN(n, jj + 7); j++)
							t++;
			for (long i = 0; i < n; i++)
				for (long j = TMAX(0, i - 3); j <= TMIN(n - 1, i + 3); j++)
					b++;
			for (long i = 0; i < n; i++)
				for (long j = 0; j < i && j <= m; j++)
					h++;
			for (long i = n - 1; i >= TMAX(0, n - m); i--)
				d++;
			for (long i = 0; i < n; i++)
				for (long j = i > m ? i : m; j < n; j++)
					f++;
			assert_int_equal(count(FN("tiled"), "store.f64", EXP, n, m), t);
			assert_int_equal(count(FN("band"), "store.f64", EXP, n, m), b);
			assert_int_equal(count(FN("both"), "store.f64", EXP, n, m), h);
			assert_int_equal(count(FN("both"), "store.f64", MIN, n, m), h);
			assert_int_equal(count(FN("down"), "store.f64", EXP, n, m), d);
			assert_int_equal(count(FN("from"), "store.f64", EXP, n, m), f);
		}
	assert_int_equal(A.nnotes, 0);
}

/* Functions that a header of the program defines (not a system header):
 * counted where the file calls them, with their parameters bound to the
 * arguments; no region or loop tag of their own (their lines are the
 * header's, which the file's loops' lines must not meet); one whose loop
 * cannot be counted is listed as a call, and said so. */
static void test_header_functions(void **st)
{
	(void)st;
	char hdr[64] = "/tmp/epi-test-XXXXXX.h";
	int fd = mkstemps(hdr, 2);
	assert_true(fd >= 0);
	const char *h = "static inline double dot(const double *a, const double *b, int n)\n"
			"{\n"
			"\tdouble s = 0;\n"
			"\tfor (int i = 0; i < n; i++)\n"
			"\t\ts += a[i] * b[i];\n"
			"\treturn s;\n"
			"}\n"
			"static inline int last(const int *next, int i)\n"
			"{\n"
			"\twhile (next[i] >= 0)\n"
			"\t\ti = next[i];\n"
			"\treturn i;\n"
			"}\n";
	assert_int_equal(write(fd, h, strlen(h)), (ssize_t)strlen(h));
	close(fd);
	char src[1024];
	/* the file's loop in gemv is on line 4, as the header's in dot */
	snprintf(src, sizeof src,
		 "#include \"%s\"\n"
		 "void gemv(int n, int m, const double *A, const double *x, double *y)\n"
		 "{\n"
		 "\tfor (int i = 0; i < m; i++)\n"
		 "\t\ty[i] = dot(&A[i * n], x, n);\n"
		 "}\n"
		 "int roots(int n, const int *next)\n"
		 "{\n"
		 "\tint c = 0;\n"
		 "\tfor (int i = 0; i < n; i++)\n"
		 "\t\tc += last(next, i);\n"
		 "\treturn c;\n"
		 "}\n",
		 hdr);
	epi_front_opts o;
	epi_front_opts_init(&o);
	o.tag_loops = 1;
	o.tag_blocks = 1;
	int r = analyze_opts(src, &o);
	epi_front_opts_clear(&o);
	unlink(hdr);
	if (r != 0)
		fail_msg("analysis failed: %s", err);
	for (int i = 0; i < A.nregions; i++)
		assert_true(strcmp(A.regions[i].function ? A.regions[i].function : "", "dot") != 0);
	const epi_region *g = FN("gemv"), *t = region(EPI_SCOPE_TOTAL, NULL, 0);
	for (long n = 0; n < 5; n++)
		for (long m = 0; m < 4; m++) {
			assert_int_equal(count(g, "mul.f64", EXP, n, m), n * m);
			assert_int_equal(count(g, "load.f64", EXP, n, m), 2 * n * m);
			assert_int_equal(count(g, "iter", EXP, n, m), m + n * m);
			assert_int_equal(count(g, "call:dot", EXP, n, m), 0);
			/* the profile finds its code on the header's lines: its
			 * own block, under its name, not the nest on line 4 */
			assert_int_equal(count(g, "@dot()/mul.f64", EXP, n, m), n * m);
			assert_int_equal(count(g, "@4/mul.f64", EXP, n, m), 0);
			assert_int_equal(count(g, "@4/store.f64", EXP, n, m), m);
			/* the loop on line 4 is gemv's: its iterations alone */
			assert_int_equal(count(t, "%4/iter", EXP, n, m), m);
			assert_int_equal(count(t, "%4/entry", EXP, n, m), 1);
		}
	assert_int_equal(count(FN("roots"), "call:last", EXP, 3, 0), 3);
	int said = 0;
	for (int i = 0; i < A.nnotes; i++)
		said |= strstr(A.notes[i], "last() is defined in") && strstr(A.notes[i], ":10: cannot count this loop");
	if (!said)
		fail_msg("no note says why last() is not counted");
}

static void test_two_ends(void **st)
{
	(void)st;
	/* two variables moving toward each other: counted until they meet */
	must_analyze("void rev(char *s, int n) { int i, j; for (i = 0, j = n - 1; i < j; i++, j--) s[i] = s[j]; }\n"
		     "void rev2(int *s, int n) { for (int i = n - 1, j = 0; i > j; i -= 2, j++) s[i] = s[j]; }\n"
		     "void nest(int *s, int n) { int i, j; for (i = 0, j = n; i < j; i++, j--) for (int k = i; k < j; k++) s[k] = 0; }\n");
	for (long n = 0; n < 12; n++) {
		long c1 = 0, c2 = 0;
		for (long i = 0, j = n - 1; i < j; i++, j--)
			c1++;
		for (long i = n - 1, j = 0; i > j; i -= 2, j++)
			c2++;
		assert_int_equal(count(FN("rev"), "store.i8", EXP, n, 0), c1);
		assert_int_equal(count(FN("rev2"), "store.i32", EXP, n, 0), c2);
	}
	/* j moves with the loop: no inner bound takes it as a parameter */
	const epi_region *r = FN("nest");
	for (int i = 0; i < r->counts.n; i++) {
		int used[SYM_MAXVARS] = {0};
		sym_pw_params(&A.sym, &r->counts.v[i].exp, used);
		for (int k = 0; k < A.sym.nvars; k++)
			assert_false(used[k] && !strcmp(A.sym.name[k], "j"));
	}
	assert_true(has_param("T3_2"));
}

static void test_callee_members(void **st)
{
	(void)st;
	/* a callee's bound p->n is the caller's q->n, x.n for &x, q->sub->n */
	must_analyze("struct s { int n; struct s *sub; };\n"
		     "static int f(struct s *p) { int t = 0; for (int i = 0; i < p->n; i++) t++; return t; }\n"
		     "int g(struct s *q, struct s *r) { return f(q) + f(r); }\n"
		     "int h(void) { struct s x; x.n = 3; return f(&x); }\n"
		     "int k(struct s *q) { return f(q->sub); }\n"
		     "int back(int *a, int n) {\n"
		     "  int i = 0, s = 0;\n"
		     "again:\n"
		     "  if (i < n) { s += a[i]; i++; goto again; }\n"
		     "  return s;\n"
		     "}\n");
	const char *want[][2] = {{"g", "q->n"}, {"g", "r->n"}, {"h", "x.n"}, {"k", "q->sub->n"}};
	for (int t = 0; t < 4; t++) {
		const epi_region *r = FN(want[t][0]);
		int i = counts_find(&r->counts, "iter");
		assert_true(i >= 0);
		int used[SYM_MAXVARS] = {0}, found = 0;
		sym_pw_params(&A.sym, &r->counts.v[i].exp, used);
		for (int k = 0; k < A.sym.nvars; k++) {
			found |= used[k] && !strcmp(A.sym.name[k], want[t][1]);
			assert_false(used[k] && !strcmp(A.sym.name[k], "p->n"));
		}
		assert_true(found);
	}
	/* a goto back is a loop no statement shows: said, not silent */
	assert_true(noted(":9: this goto jumps back to line 8"));
}

static void test_computed_goto(void **st)
{
	(void)st;
	/* goto *p, an interpreter's dispatch: its target's reads are counted
	 * (in the branch that jumps, half the time), and the loop its jumps
	 * back make is said, not silent */
	must_analyze("int disp(const int *code, int n) {\n"
		     "  static void *t[] = {&&op0, &&op1};\n"
		     "  int pc = 0, acc = 0;\n"
		     "op0:\n"
		     "  acc += code[pc];\n"
		     "op1:\n"
		     "  if (++pc < n) goto *t[code[pc] & 1];\n"
		     "  return acc;\n"
		     "}\n");
	assert_true(noted(":7: this goto jumps to a computed label"));
	assert_int_equal(count(FN("disp"), "load.ptr", MAX, 0, 0), 1);
	assert_int_equal(count(FN("disp"), "load.i32", MAX, 0, 0), 2);
}

static void test_deep_calls(void **st)
{
	(void)st;
	/* a chain of calls deeper than the thread's stack would hold by recursion */
	enum { N = 1500 };
	size_t cap = (size_t)N * 160 + 256, len = 0;
	char *src = malloc(cap);
	for (int i = N - 1; i >= 0; i--)
		len += (size_t)snprintf(src + len, cap - len,
					"int f%d(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; "
					"return s + %s%d%s; }\n",
					i, i < N - 1 ? "f" : "", i < N - 1 ? i + 1 : 0, i < N - 1 ? "(a, n)" : "");
	must_analyze(src);
	free(src);
	assert_int_equal(count(FN("f0"), "load.i32", EXP, 3, 0), 3 * N);
	assert_int_equal(count(FN("f0"), "add.i32", EXP, 3, 0), 4 * N); /* s += a[i], and s + the call */
}

static void test_parse_errors(void **st)
{
	assert_int_equal(analyze("int f(int n) {\n  return n +;\n}\n"), -1);
	assert_non_null(strstr(err, "cannot parse"));
	assert_non_null(strstr(err, ":2:"));
	epi_front_opts o;
	epi_front_opts_init(&o);
	assert_int_equal(epi_analyze(&A, "/nonexistent/x.c", &o, err), -1);
	assert_non_null(strstr(err, "cannot open '/nonexistent/x.c'"));
	epi_analysis_free(&A);
	epi_front_opts_clear(&o);
	epi_trip tr;
	assert_int_equal(epi_trip_parse(&tr, "x.c:abc=3", err), -1);
	assert_non_null(strstr(err, "x.c:abc=3"));
}

static void test_formula_text(void **st)
{
	must_analyze("void f(int *u, int n) {\n"
		     "  for (int i = 0; i < n; i++)\n"
		     "    for (int j = i + 1; j < n; j++)\n"
		     "      if (u[j] < u[i]) u[i] = u[j];\n"
		     "}\n");
	const epi_region *r = FN("f");
	int i = counts_find(&r->counts, "cmp.i32");
	assert_true(i >= 0);
	char *f, *c;
	sym_pw_format(&A.sym, &r->counts.v[i].exp, &f, &c);
	assert_string_equal(f, "n*(n - 1)/2");
	assert_string_equal(c, "n >= 0"); /* holds below where the inner loop runs */
	free(f);
	free(c);
}

static int teardown(void **st)
{
	if (have)
		epi_analysis_free(&A);
	have = 0;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arith_and_subscripts),
		cmocka_unit_test(test_access_rules),
		cmocka_unit_test(test_selection_sort),
		cmocka_unit_test(test_negative_inner_trip),
		cmocka_unit_test(test_three_deep_two_params),
		cmocka_unit_test(test_strides_and_directions),
		cmocka_unit_test(test_while_and_do),
		cmocka_unit_test(test_branches),
		cmocka_unit_test(test_affine_ifs),
		cmocka_unit_test(test_guarded_continue),
		cmocka_unit_test(test_return_guards),
		cmocka_unit_test(test_guard_among_many_loops),
		cmocka_unit_test(test_branch_probability),
		cmocka_unit_test(test_calls),
		cmocka_unit_test(test_allocators),
		cmocka_unit_test(test_unsupported_loop),
		cmocka_unit_test(test_loop_errors),
		cmocka_unit_test(test_switch),
		cmocka_unit_test(test_many_strided_functions),
		cmocka_unit_test(test_member_bounds),
		cmocka_unit_test(test_early_exit),
		cmocka_unit_test(test_idioms),
		cmocka_unit_test(test_trip_params),
		cmocka_unit_test(test_update_in_condition),
		cmocka_unit_test(test_and_and_pointers),
		cmocka_unit_test(test_switch_leaving_early),
		cmocka_unit_test(test_values_pinned),
		cmocka_unit_test(test_fixed_locals),
		cmocka_unit_test(test_for_with_body_update),
		cmocka_unit_test(test_remainder_loops),
		cmocka_unit_test(test_loop_sums),
		cmocka_unit_test(test_loop_sums_beside),
		cmocka_unit_test(test_expect_hints),
		cmocka_unit_test(test_stmt_expr_atomics),
		cmocka_unit_test(test_complex),
		cmocka_unit_test(test_unevaluated),
		cmocka_unit_test(test_noreturn_paths),
		cmocka_unit_test(test_end_pointer),
		cmocka_unit_test(test_shift_bounds),
		cmocka_unit_test(test_minmax_bounds),
		cmocka_unit_test(test_header_functions),
		cmocka_unit_test(test_two_ends),
		cmocka_unit_test(test_callee_members),
		cmocka_unit_test(test_computed_goto),
		cmocka_unit_test(test_deep_calls),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_formula_text),
	};
	return cmocka_run_group_tests_name("count", tests, NULL, teardown);
}
