/* epi validate's library: relative errors and interval checks, their means,
 * the measurements CSV, and whole-program predictions against it. */
#include <math.h>
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
#include "validate/compare.h"

static char err[EPI_ERRLEN];

static const char src[] = "double dot(const double *u, const double *v, int n) {\n"
			  "  double s = 0;\n"
			  "  for (int i = 0; i < n; i++)\n"
			  "    s = s + u[i] * v[i];\n"
			  "  return s;\n"
			  "}\n";

/* Writes TEXT to a new temporary file with SUFFIX; its path in PATH (64 bytes). */
static void temp_file(char *path, const char *suffix, const char *text)
{
	snprintf(path, 64, "/tmp/epi-validate-XXXXXX%s", suffix);
	int fd = mkstemps(path, (int)strlen(suffix));
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static epi_cmp row(double pred, double m, double lo, double hi, int total)
{
	epi_cmp c;
	memset(&c, 0, sizeof c);
	c.kind = total ? EPI_CMP_PROGRAM : EPI_CMP_LOOP;
	c.pred[EPI_Q_TIME] = pred;
	c.meas[EPI_Q_TIME] = (epi_est){m, lo, hi};
	c.pred[EPI_Q_ENERGY] = NAN;
	c.meas[EPI_Q_ENERGY] = (epi_est){NAN, NAN, NAN};
	epi_cmp_finish(&c);
	return c;
}

static void test_finish(void **st)
{
	epi_cmp c = row(1.1, 1.0, 0.9, 1.2, 0);
	assert_true(fabs(c.err[EPI_Q_TIME] - 0.1) < 1e-12);
	assert_int_equal(c.inside[EPI_Q_TIME], 1);
	c = row(1.3, 1.0, 0.9, 1.2, 0);
	assert_true(fabs(c.err[EPI_Q_TIME] - 0.3) < 1e-12);
	assert_int_equal(c.inside[EPI_Q_TIME], 0);
	c = row(0.8, 1.0, 0.9, 1.2, 0); /* below the interval */
	assert_int_equal(c.inside[EPI_Q_TIME], 0);
	c = row(0.5, 0.0, 0.0, 0.7, 0); /* nothing sampled: no relative error, but an interval */
	assert_true(isnan(c.err[EPI_Q_TIME]));
	assert_int_equal(c.inside[EPI_Q_TIME], 1);
	c = row(0.5, 0.4, NAN, NAN, 0); /* a measurement without an interval */
	assert_true(fabs(c.err[EPI_Q_TIME] - 0.25) < 1e-12);
	assert_int_equal(c.inside[EPI_Q_TIME], -1);
	assert_true(isnan(c.err[EPI_Q_ENERGY]));
	assert_int_equal(c.inside[EPI_Q_ENERGY], -1);
}

static void test_sum(void **st)
{
	epi_cmp rows[4] = {row(1.1, 1.0, 0.9, 1.2, 0), row(0.7, 1.0, 0.9, 1.1, 0), row(0.1, 0.0, 0.0, 0.2, 0),
			   row(3.0, 2.0, 1.9, 2.1, 1)};
	epi_validation v = {.n = 4, .rows = rows};
	epi_validation_sum(&v);
	/* the nests only: |0.1| and |-0.3|; the program's +50% is not among them */
	assert_int_equal(v.nerr[EPI_Q_TIME], 2);
	assert_true(fabs(v.mare[EPI_Q_TIME] - 0.2) < 1e-12);
	assert_int_equal(v.nci[EPI_Q_TIME], 3);
	assert_int_equal(v.nin[EPI_Q_TIME], 2);
	assert_int_equal(v.nerr[EPI_Q_ENERGY], 0);
	assert_true(isnan(v.mare[EPI_Q_ENERGY]));
}

static void test_measured_load(void **st)
{
	char path[64];
	temp_file(path, ".csv",
		  "# from a wall meter\r\n"
		  "\r\n"
		  "run, measured_j ,freq_ghz,param\r\n"
		  "1,2600,1.6,n=100000\r\n"
		  "# a comment between rows\n"
		  "2, 1.5e3 ,2.4,\"200000\"\n");
	epi_measured *m;
	int n = epi_measured_load(path, &m, err);
	assert_int_equal(n, 2);
	assert_string_equal(m[0].param, "n=100000");
	assert_int_equal(m[0].khz, 1600000);
	assert_true(m[0].joules == 2600);
	assert_int_equal(m[0].lineno, 4);
	assert_string_equal(m[1].param, "200000");
	assert_int_equal(m[1].khz, 2400000);
	assert_true(m[1].joules == 1500);
	assert_int_equal(m[1].lineno, 6);
	epi_measured_free(m, n);
	unlink(path);
}

static void load_fails(const char *text, const char *want)
{
	char path[64], msg[EPI_ERRLEN + 64];
	temp_file(path, ".csv", text);
	epi_measured *m = (epi_measured *)1;
	assert_int_equal(epi_measured_load(path, &m, err), -1);
	assert_null(m);
	snprintf(msg, sizeof msg, "%s%s", path, want);
	if (!strstr(err, msg))
		fail_msg("'%s' does not say '%s'", err, msg);
	unlink(path);
}

static void test_measured_errors(void **st)
{
	load_fails("# header next\nparam,freq_ghz,joules\n1,1.6,3\n", ":2: the header has no column 'measured_j'");
	load_fails("param,freq_ghz,measured_j\n1,1.6,3\n2,fast,3\n", ":3: freq_ghz 'fast' is not a frequency in GHz");
	load_fails("param,freq_ghz,measured_j\n1,1.6,-3\n", ":2: measured_j '-3' is not an energy in joules");
	load_fails("param,freq_ghz,measured_j\n1,1.6\n", ":2: no value in column 'measured_j'");
	load_fails("param,freq_ghz,measured_j\n", ": no measurement after the header");
	load_fails("", ": no header");
	epi_measured *m;
	assert_int_equal(epi_measured_load("/nonexistent/m.csv", &m, err), -1);
	assert_non_null(strstr(err, "cannot read '/nonexistent/m.csv'"));
}

static void test_validate_measured(void **st)
{
	char cpath[64], tp[512];
	temp_file(cpath, ".c", src);
	epi_front_opts o;
	epi_front_opts_init(&o);
	epi_analysis a;
	assert_int_equal(epi_analyze(&a, cpath, &o, err), 0);
	epi_front_opts_clear(&o);
	const char *top = getenv("EPI_TOP");
	snprintf(tp, sizeof tp, "%s/data/rr8416-q6600.xml", top ? top : ".");
	epi_table t;
	assert_int_equal(epi_table_load(&t, tp, err), 0);

	/* the program's energy at n = 10^6, priced directly */
	sym_env env;
	sym_env_init(&env);
	assert_int_equal(epi_bind_param(&a, &env, "n=1000000", err), 0);
	const epi_region *total = NULL;
	for (int i = 0; i < a.nregions; i++)
		if (a.regions[i].scope == EPI_SCOPE_TOTAL)
			total = &a.regions[i];
	epi_fcol c16, c24;
	assert_int_equal(epi_table_at(&t, 1600000, &c16, err), 0);
	assert_int_equal(epi_table_at(&t, 2400000, &c24, err), 0);
	epi_price p16, p24;
	epi_price_region(&a.sym, total, &c16, &env, &p16);
	epi_price_region(&a.sym, total, &c24, &env, &p24);
	/* RR-8416 equation (6) at 1.6 GHz: n (e_add + e_mul + 2 e_load) */
	assert_true(fabs(p16.e - 1e6 * (274e-9 + 334e-9 + 2 * 191e-9)) < 0.01 * p16.e);
	sym_env_clear(&env);

	/* a bare value binds n, the only parameter; measured 25% above the prediction */
	epi_measured m[2] = {{3, "1000000", 1600000, 1.25 * p16.e}, {4, "n=1000000", 2400000, p24.e / 0.8}};
	sym_env none;
	sym_env_init(&none);
	epi_validation v;
	assert_int_equal(epi_validate_measured(&a, &t, &none, m, 2, "m.csv", &v, err), 0);
	assert_int_equal(v.n, 2);
	assert_string_equal(v.rows[0].label, "n=1000000");
	assert_true(fabs(v.rows[0].pred[EPI_Q_ENERGY] - p16.e) < 1e-12 * p16.e);
	assert_true(fabs(v.rows[0].err[EPI_Q_ENERGY] + 0.2) < 1e-9);
	assert_true(fabs(v.rows[1].pred[EPI_Q_ENERGY] - p24.e) < 1e-12 * p24.e);
	assert_true(fabs(v.rows[1].err[EPI_Q_ENERGY] + 0.2) < 1e-9);
	assert_int_equal(v.rows[1].khz, 2400000);
	assert_true(fabs(v.mare[EPI_Q_ENERGY] - 0.2) < 1e-9);
	assert_int_equal(v.nci[EPI_Q_ENERGY], 0);
	epi_validation_free(&v);

	/* a parameter the source does not have, and a frequency the table cannot price */
	epi_measured bad[2] = {{7, "m=5", 1600000, 1}, {9, "5", 9000000, 1}};
	assert_int_equal(epi_validate_measured(&a, &t, &none, bad, 1, "m.csv", &v, err), -1);
	assert_non_null(strstr(err, "m.csv:7: --param 'm=5': 'm' is not a parameter"));
	assert_int_equal(epi_validate_measured(&a, &t, &none, bad + 1, 1, "m.csv", &v, err), -1);
	assert_non_null(strstr(err, "m.csv:9: "));
	sym_env_clear(&none);

	epi_fcol_free(&c16);
	epi_fcol_free(&c24);
	epi_table_free(&t);
	epi_analysis_free(&a);
	unlink(cpath);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finish),
		cmocka_unit_test(test_sum),
		cmocka_unit_test(test_measured_load),
		cmocka_unit_test(test_measured_errors),
		cmocka_unit_test(test_validate_measured),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
