/* Pricing with E(f) = sum N_i e_i(f) and the CSV and JSON reports. */
#include <jansson.h>
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
#include "predict/report.h"

static char err[EPI_ERRLEN];
static epi_analysis A;
static epi_table T;
static sym_env E;

static const char src[] = "double dot(const double *u, const double *v, int n) {\n"
			  "  double s = 0;\n"
			  "  for (int i = 0; i < n; i++)\n"
			  "    s = s + u[i] * v[i];\n"
			  "  return s;\n"
			  "}\n";

static int setup(void **st)
{
	char path[64] = "/tmp/epi-report-XXXXXX.c";
	int fd = mkstemps(path, 2);
	if (fd < 0 || write(fd, src, strlen(src)) != (ssize_t)strlen(src))
		return -1;
	close(fd);
	epi_front_opts o;
	epi_front_opts_init(&o);
	int r = epi_analyze(&A, path, &o, err);
	epi_front_opts_clear(&o);
	unlink(path);
	const char *top = getenv("EPI_TOP");
	char tp[512];
	snprintf(tp, sizeof tp, "%s/data/rr8416-q6600.xml", top ? top : ".");
	if (r || epi_table_load(&T, tp, err))
		return -1;
	sym_env_init(&E);
	for (int k = 0; k < A.sym.nvars; k++)
		if (A.sym.kind[k] == SYM_PARAM && !strcmp(A.sym.name[k], "n")) {
			fmpq_set_si(&E.val[k], 1000000, 1);
			E.bound[k] = 1;
		}
	return 0;
}

static int teardown(void **st)
{
	sym_env_clear(&E);
	epi_analysis_free(&A);
	epi_table_free(&T);
	return 0;
}

static const epi_region *loop_region(void)
{
	for (int i = 0; i < A.nregions; i++)
		if (A.regions[i].scope == EPI_SCOPE_LOOP)
			return &A.regions[i];
	return NULL;
}

static void test_price(void **st)
{
	epi_fcol c;
	assert_int_equal(epi_table_at(&T, 1600000, &c, err), 0);
	epi_price p;
	epi_price_region(&A.sym, loop_region(), &c, &E, &p);
	/* RR-8416 equation (6): n (e_a + e_m + 2 e_l), n = 10^6 at 1.6 GHz */
	double expect = 1e6 * (274e-9 + 334e-9 + 2 * 191e-9);
	assert_true(fabs(p.e - expect) < 1e-9 * expect);
	double sd = 1e6 * sqrt(0.50e-9 * 0.50e-9 + 0.64e-9 * 0.64e-9 + 4 * 0.42e-9 * 0.42e-9);
	assert_true(fabs(p.e_sd - sd) < 1e-9 * sd);
	double t = 1e6 * (28.23e-10 + 34.54e-10 + 2 * 19.88e-10);
	assert_true(fabs(p.t - t) < 1e-9 * t);
	assert_int_equal(p.nunpriced, 1); /* iter */
	epi_fcol_free(&c);
}

static char *report(enum epi_format f, long *khz, int nkhz, const sym_env *env)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	epi_report_opts o = {.table = &T, .khz = khz, .nkhz = nkhz, .env = env, .format = f};
	assert_int_equal(epi_report(out, &A, &o, err), 0);
	fclose(out);
	return buf;
}

static void test_csv(void **st)
{
	long khz[] = {1600000, 2400000};
	char *csv = report(EPI_FMT_CSV, khz, 2, &E);
	char *save, *line = strtok_r(csv, "\n", &save);
	assert_string_equal(line, "file,line,function,scope,op,count,count_min,count_max,formula,energy_j,time_s,freq_ghz");
	int rows = 0, found = 0;
	while ((line = strtok_r(NULL, "\n", &save))) {
		int fields = 1, q = 0;
		for (char *c = line; *c; c++) {
			if (*c == '"')
				q = !q;
			else if (*c == ',' && !q)
				fields++;
		}
		assert_int_equal(fields, 12);
		rows++;
		if (strstr(line, ",loop,all,,,,,0.755,") && strstr(line, ",2.4"))
			found = 1; /* 10^6 x (209 + 254 + 2 x 146) nJ */
		if (strstr(line, ",loop,load.f64,")) {
			assert_non_null(strstr(line, ",2000000,2000000,2000000,2*n for n >= 0,"));
		}
	}
	assert_true(found);
	/* 3 regions x 2 frequencies x (4 ops + all) */
	assert_int_equal(rows, 3 * 2 * 5);
	free(csv);
}

static void test_json(void **st)
{
	long khz[] = {2400000};
	char *js = report(EPI_FMT_JSON, khz, 1, &E);
	json_error_t je;
	json_t *root = json_loads(js, 0, &je);
	assert_non_null(root);
	json_t *regions = json_object_get(root, "regions");
	assert_int_equal(json_array_size(regions), 3);
	json_t *r0 = json_array_get(regions, 0);
	assert_string_equal(json_string_value(json_object_get(r0, "function")), "dot");
	json_t *all = json_array_get(json_object_get(r0, "all"), 0);
	double e = json_real_value(json_object_get(all, "energy_j"));
	assert_true(fabs(e - 1e6 * (209e-9 + 254e-9 + 2 * 146e-9)) < 1e-9);
	json_t *ops = json_object_get(r0, "ops");
	json_t *op0 = json_array_get(ops, 0);
	assert_string_equal(json_string_value(json_object_get(op0, "op")), "add.f64");
	assert_string_equal(json_string_value(json_object_get(op0, "count_exact")), "1000000");
	json_decref(root);
	free(js);
}

static void test_unbound(void **st)
{
	sym_env none;
	sym_env_init(&none);
	long khz[] = {2400000};
	char *txt = report(EPI_FMT_TABLE, khz, 1, &none);
	assert_non_null(strstr(txt, "unbound parameters: n; give their values with --param NAME=VALUE"));
	assert_non_null(strstr(txt, "n for n >= 0"));
	free(txt);
	sym_env_clear(&none);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_price),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_unbound),
	};
	return cmocka_run_group_tests_name("report", tests, setup, teardown);
}
