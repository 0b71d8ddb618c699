/* epi trips' library: rationals from doubles, the polynomial fit of trip
 * counts over runs, their text, and the trips file written and read back. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/util.h"
#include "predict/trips.h"

static char err[EPI_ERRLEN];

static void assert_q(const fmpq_t q, long num, unsigned long den)
{
	fmpq_t w;
	fmpq_init(w);
	fmpq_set_si(w, num, den);
	assert_true(fmpq_equal(q, w));
	fmpq_clear(w);
}

static void test_rationalize(void **st)
{
	(void)st;
	fmpq_t q;
	fmpq_init(q);
	assert_int_equal(epi_rationalize(0.5, 1e-12, 1000, q), 0);
	assert_q(q, 1, 2);
	assert_int_equal(epi_rationalize(1.0 / 3, 1e-12, 1000, q), 0);
	assert_q(q, 1, 3);
	assert_int_equal(epi_rationalize(0.1 + 0.2, 1e-12, 1000, q), 0); /* 0.30000000000000004 */
	assert_q(q, 3, 10);
	assert_int_equal(epi_rationalize(-2.75, 1e-12, 1000, q), 0);
	assert_q(q, -11, 4);
	assert_int_equal(epi_rationalize(4950.0000000001, 1e-6, 1000, q), 0);
	assert_q(q, 4950, 1);
	/* the simplest within the tolerance: pi's convergents 3, 22/7, 333/106 */
	assert_int_equal(epi_rationalize(M_PI, 2e-3, 1000, q), 0);
	assert_q(q, 22, 7);
	assert_int_equal(epi_rationalize(M_PI, 1e-4, 1000, q), 0);
	assert_q(q, 333, 106);
	/* none with a small denominator */
	assert_int_equal(epi_rationalize(M_PI, 1e-12, 1000, q), -1);
	assert_int_equal(epi_rationalize(NAN, 1, 10, q), -1);
	fmpq_clear(q);
}

/* Fits Y(x) = NUM(x) / DEN at the points X; returns the degree, the text in n. */
static int fit(const long *x, int m, long (*num)(long), unsigned long den, int maxdeg, int *exact, double *res,
	       char **text)
{
	fmpq *y = _fmpq_vec_init(m);
	for (int i = 0; i < m; i++)
		fmpq_set_si(&y[i], num(x[i]), den);
	fmpq_poly_t p;
	fmpq_poly_init(p);
	int d = epi_fit_poly(x, y, m, maxdeg, p, exact, res);
	*text = epi_poly_text(p, "n");
	fmpq_poly_clear(p);
	_fmpq_vec_clear(y, m);
	return d;
}

static long triangle(long n) { return n * (n - 1); }      /* / 2 */
static long half_less(long n) { return n - 1; }           /* / 2 */
static long eleven(long n) { (void)n; return 11; }        /* / 2 */
static long cubic(long n) { return 2 * n * n * n - 5 * n + 7; }
static long linear(long n) { return 3 * n + 1; }
static long log2_of(long n) { long k = 0; while (n > 1) { n /= 2; k++; } return k; }

static void test_fit(void **st)
{
	(void)st;
	int exact;
	double res;
	char *text;
	/* a triangular loop's trip: n(n-1)/2, exactly, from three runs */
	long x3[] = {100, 200, 400};
	assert_int_equal(fit(x3, 3, triangle, 2, 3, &exact, &res, &text), 2);
	assert_true(exact);
	assert_true(res == 0);
	assert_string_equal(text, "n*(n - 1)/2");
	free(text);
	/* an inner triangular loop's average trip (n-1)/2 */
	long x4[] = {10, 20, 40, 80};
	assert_int_equal(fit(x4, 4, half_less, 2, 3, &exact, &res, &text), 1);
	assert_true(exact);
	assert_string_equal(text, "1/2*n - 1/2");
	free(text);
	/* a constant: degree 0, whatever the runs */
	assert_int_equal(fit(x4, 4, eleven, 2, 3, &exact, &res, &text), 0);
	assert_true(exact);
	assert_string_equal(text, "11/2");
	free(text);
	/* the lowest degree that reproduces the runs, not the highest allowed */
	assert_int_equal(fit(x4, 4, linear, 1, 3, &exact, &res, &text), 1);
	assert_string_equal(text, "3*n + 1");
	free(text);
	/* a cubic with large values: the fit is scaled, the coefficients exact */
	long x5[] = {10, 30, 70, 200, 500};
	assert_int_equal(fit(x5, 5, cubic, 1, 3, &exact, &res, &text), 3);
	assert_true(exact);
	assert_string_equal(text, "2*n^3 - 5*n + 7");
	free(text);
	/* a single run: its value */
	assert_int_equal(fit(x3, 1, triangle, 2, 3, &exact, &res, &text), 0);
	assert_true(exact);
	assert_string_equal(text, "4950");
	free(text);
	/* not a polynomial: the best cubic, its residual said */
	long x6[] = {16, 32, 64, 128, 256, 512};
	assert_int_equal(fit(x6, 6, log2_of, 1, 3, &exact, &res, &text), 3);
	assert_false(exact);
	assert_true(res > 0.01 && res < 1);
	free(text);
	/* with fewer runs than the degree needs, the degree is capped */
	assert_int_equal(fit(x6, 2, log2_of, 1, 3, &exact, &res, &text), 1);
	assert_true(exact);
	assert_string_equal(text, "1/16*n + 3");
	free(text);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_load(void **st)
{
	(void)st;
	char path[] = "/tmp/epi-trips-test-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	write_text(path, "{\"version\": 1, \"tool\": \"epi trips\", \"runs\": [{}, {}, {}],\n"
			 " \"loops\": [{\"file\": \"a.c\", \"line\": 12, \"nth\": 2, \"trip\": \"n*(n - 1)/2\", \"residual\": 0},\n"
			 "  {\"file\": \"a.c\", \"line\": 20, \"trip\": null, \"note\": \"never entered\"},\n"
			 "  {\"file\": \"b.c\", \"line\": 7, \"trip\": \"11/2\", \"residual\": 0.25}]}\n");
	epi_trip *t = NULL;
	int n = 0;
	assert_int_equal(epi_trips_load(path, &t, &n, err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(t[0].file, "a.c");
	assert_int_equal(t[0].line, 12);
	assert_int_equal(t[0].nth, 2);
	assert_string_equal(t[0].expr, "n*(n - 1)/2");
	assert_int_equal(t[0].measured, 1);
	assert_string_equal(t[0].origin, "measured by epi trips over 3 runs, residual 0");
	assert_int_equal(t[1].nth, 1);
	assert_string_equal(t[1].origin, "measured by epi trips over 3 runs, residual 0.25");
	/* appended to what is there */
	assert_int_equal(epi_trips_load(path, &t, &n, err), 0);
	assert_int_equal(n, 4);
	for (int i = 0; i < n; i++) {
		free(t[i].file);
		free(t[i].expr);
		free(t[i].origin);
	}
	free(t);

	/* malformed: one line naming the file and what is wrong, nothing added */
	static const struct {
		const char *text, *want;
	} bad[] = {
		{"{\"version\": 1, \"loops\": [\n", "line 2"},
		{"[1, 2]", "not a trips file"},
		{"{\"version\": 2, \"loops\": []}", "version 1"},
		{"{\"version\": 1}", "no \"loops\" list"},
		{"{\"version\": 1, \"loops\": [3]}", "loops[0] is not an object"},
		{"{\"version\": 1, \"loops\": [{\"line\": 3, \"trip\": \"1\"}]}", "loops[0] has no \"file\""},
		{"{\"version\": 1, \"loops\": [{\"file\": \"a.c\", \"line\": 0, \"trip\": \"1\"}]}", "loops[0] has no \"line\""},
		{"{\"version\": 1, \"loops\": [{\"file\": \"a.c\", \"line\": \"3\", \"trip\": \"1\"}]}", "no \"line\""},
		{"{\"version\": 1, \"loops\": [{\"file\": \"a.c\", \"line\": 3, \"nth\": 0, \"trip\": \"1\"}]}", "\"nth\""},
		{"{\"version\": 1, \"loops\": [{\"file\": \"a.c\", \"line\": 3}, {\"file\": \"a.c\", \"line\": 4, \"trip\": \"n; rm\"}]}",
		 "loops[1] has a \"trip\" that is not an expression"},
		{"{\"version\": 1, \"loops\": [{\"file\": \"a.c\", \"line\": 3, \"trip\": 5}]}", "\"trip\""},
		{"{\"version\": 1, \"loops\": [{\"file\": \"a.c\", \"line\": 3, \"trip\": \"5\", \"residual\": \"0\"}]}",
		 "\"residual\""},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		write_text(path, bad[i].text);
		t = NULL;
		n = 0;
		err[0] = 0;
		assert_int_equal(epi_trips_load(path, &t, &n, err), -1);
		if (!strstr(err, bad[i].want) || !strstr(err, path) || strchr(err, '\n'))
			fail_msg("case %zu: '%s'", i, err);
		for (int k = 0; k < n; k++) {
			free(t[k].file);
			free(t[k].expr);
			free(t[k].origin);
		}
		free(t);
	}
	unlink(path);
	assert_int_equal(epi_trips_load(path, &t, &n, err), -1);
	assert_non_null(strstr(err, "cannot read trips file"));
}

/* A trips file written from runs' counts reads back as their trips. */
static void test_round_trip(void **st)
{
	(void)st;
	epi_trips t;
	epi_trips_init(&t, EPI_COV_CLANG, "./prog");
	t.nsources = 1;
	t.sources = calloc(1, sizeof *t.sources);
	t.shown = calloc(1, sizeof *t.shown);
	t.sources[0] = strdup("/src/prog.c");
	t.shown[0] = strdup("prog.c");
	t.nruns = 3;
	t.runs = calloc(3, sizeof *t.runs);
	long x[] = {10, 20, 40};
	for (int r = 0; r < 3; r++) {
		t.runs[r].argv = calloc(3, sizeof(char *));
		t.runs[r].argv[0] = strdup("./prog");
		char v[16];
		snprintf(v, sizeof v, "%ld", x[r]);
		t.runs[r].argv[1] = strdup(v);
		t.runs[r].pname = strdup("n");
		t.runs[r].pvalue = strdup(v);
	}
	t.nloops = 3;
	t.loops = calloc(3, sizeof *t.loops);
	for (int i = 0; i < 3; i++) {
		epi_tloop *L = &t.loops[i];
		L->file = strdup("/src/prog.c");
		L->function = strdup("f");
		L->line = 5 + i;
		L->nth = 1;
		L->kind = "fwd"[i];
		L->entries = calloc(3, sizeof *L->entries);
		L->iters = calloc(3, sizeof *L->iters);
		for (int r = 0; r < 3; r++) {
			L->entries[r] = i == 2 ? 0 : 2 * x[r];                  /* loop 2: never entered */
			L->iters[r] = i == 0 ? x[r] * x[r] * (x[r] - 1) : 14 * x[r]; /* n(n-1)/2, then 7 */
		}
	}
	t.loops[1].why = strdup("not read"); /* and a loop whose counts could not be read */
	for (int r = 0; r < 3; r++)
		t.loops[1].entries[r] = t.loops[1].iters[r] = -1;
	epi_trips_fit(&t, "n", x);
	assert_string_equal(t.loops[0].trip, "n*(n - 1)/2");
	assert_string_equal(t.loops[0].param, "n");
	assert_null(t.loops[1].trip);
	assert_null(t.loops[2].trip);
	json_t *doc = epi_trips_json(&t);
	char path[] = "/tmp/epi-trips-rt-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(json_dumpfd(doc, fd, JSON_INDENT(2)), 0);
	close(fd);
	json_t *l0 = json_array_get(json_object_get(doc, "loops"), 0);
	assert_string_equal(json_string_value(json_object_get(l0, "entries")), "140");
	assert_string_equal(json_string_value(json_object_get(l0, "iterations")), "70900");
	assert_string_equal(json_string_value(json_object_get(l0, "file")), "prog.c");
	assert_string_equal(json_string_value(json_array_get(json_object_get(l0, "params"), 0)), "n");
	json_t *l2 = json_array_get(json_object_get(doc, "loops"), 2);
	assert_string_equal(json_string_value(json_object_get(l2, "note")), "never entered");
	json_decref(doc);
	epi_trip *tr = NULL;
	int n = 0;
	assert_int_equal(epi_trips_load(path, &tr, &n, err), 0);
	unlink(path);
	/* the loop measured, and the one never entered (no iteration in the
	 * runs: a trip count of 0 there); not the one not read */
	assert_int_equal(n, 2);
	assert_string_equal(tr[0].file, "prog.c");
	assert_int_equal(tr[0].line, 5);
	assert_string_equal(tr[0].expr, "n*(n - 1)/2");
	assert_string_equal(tr[0].origin, "measured by epi trips over 3 runs, residual 0");
	assert_true(epi_trip_file_matches(tr[0].file, "/elsewhere/prog.c"));
	assert_true(epi_trip_file_matches(tr[0].file, "prog.c"));
	assert_false(epi_trip_file_matches(tr[0].file, "prog2.c"));
	assert_string_equal(tr[1].expr, "0");
	assert_string_equal(tr[1].origin, "never entered in the 3 runs epi trips measured");
	for (int i = 0; i < n; i++) {
		free(tr[i].file);
		free(tr[i].expr);
		free(tr[i].origin);
	}
	free(tr);
	epi_trips_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rationalize),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
