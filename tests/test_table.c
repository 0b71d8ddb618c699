/* Cost tables: the reference table, the XML round trip, atomic writes,
 * validation failures with file and line, lookup and interpolation. */
#include <dirent.h>
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

#include "model/freq.h"
#include "model/table.h"
#include "model/util.h"

static char dir[64];
static char err[EPI_ERRLEN];

static int setup(void **st)
{
	snprintf(dir, sizeof dir, "/tmp/epi-table-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[512];
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
			unlink(p);
		}
	if (d)
		closedir(d);
	rmdir(dir);
	return 0;
}

static const char *ref_path(void)
{
	const char *top = getenv("EPI_TOP");
	static char p[512];
	snprintf(p, sizeof p, "%s/data/rr8416-q6600.xml", top ? top : ".");
	return p;
}

static char *write_tmp(const char *name, const char *text)
{
	static char p[512];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	assert_int_equal(epi_write_atomic(p, text, strlen(text), err), 0);
	return p;
}

static void test_reference(void **st)
{
	epi_table t;
	if (epi_table_load(&t, ref_path(), err) != 0)
		fail_msg("%s", err);
	assert_int_equal(t.nf, 4);
	assert_int_equal(t.f[0].khz, 1600000);
	assert_int_equal(t.f[2].khz, 2130000);
	assert_string_equal(t.meter, "wattsup");
	const epi_cost *c = epi_fcol_lookup(&t.f[3], "cmp");
	assert_non_null(c);
	assert_true(fabs(c->e - 171e-9) < 1e-15);
	assert_int_equal(c->runs, 10);
	assert_true(isnan(c->t_sd));
	/* typed keys fall back to their class */
	assert_ptr_equal(epi_fcol_lookup(&t.f[3], "cmp.i32"), c);
	assert_null(epi_fcol_lookup(&t.f[3], "iter"));
	c = epi_fcol_lookup(&t.f[0], "memcpy");
	assert_int_equal(c->unit, EPI_UNIT_MIB);
	epi_table_free(&t);
}

static void test_round_trip(void **st)
{
	epi_table t, u;
	assert_int_equal(epi_table_load(&t, ref_path(), err), 0);
	char p[512];
	snprintf(p, sizeof p, "%s/copy.xml", dir);
	assert_int_equal(epi_table_save(&t, p, err), 0);
	assert_int_equal(epi_table_load(&u, p, err), 0);
	assert_int_equal(u.nf, t.nf);
	assert_string_equal(u.cpu, t.cpu);
	assert_int_equal(u.nnotes, t.nnotes);
	for (int i = 0; i < t.nf; i++) {
		assert_int_equal(u.f[i].khz, t.f[i].khz);
		assert_int_equal(u.f[i].n, t.f[i].n);
		for (int j = 0; j < t.f[i].n; j++) {
			assert_string_equal(u.f[i].op[j].key, t.f[i].op[j].key);
			assert_true(u.f[i].op[j].e == t.f[i].op[j].e);
			assert_true(u.f[i].op[j].t == t.f[i].op[j].t);
			assert_true(u.f[i].op[j].e_sd == t.f[i].op[j].e_sd);
		}
	}
	/* no temporary file is left beside it */
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	assert_int_equal(n, 1);
	epi_table_free(&t);
	epi_table_free(&u);
}

/* Every field epi-calibrate writes survives a save and a load, and the
 * optional ones stay absent where they were absent. */
static void test_calibration_fields(void **st)
{
	epi_table t;
	epi_table_init(&t);
	t.cpu = strdup("Fake CPU");
	t.microcode = strdup("0xa0011d1");
	t.cache[0] = 32768;
	t.cache[2] = 33554432;
	t.l3_serves = 16777216;
	t.tlb_pages = 4288;
	t.meter = strdup("powercap");
	t.domain = strdup("package-0");
	t.created = strdup("2026-11-22T12:00:00Z");
	t.command = strdup("epi-calibrate --freqs all");
	t.style = strdup("net");
	t.calib_cpu = 1;
	t.precision = 0.01;
	t.nf = 1;
	t.f = calloc(1, sizeof *t.f);
	t.f[0].khz = 2400000;
	t.f[0].effective_ghz = 2.398;
	t.f[0].idle_w = 12.5;
	t.f[0].idle_w_sd = 0.25;
	t.f[0].pinned = 1;
	t.f[0].n = 2;
	t.f[0].op = calloc(2, sizeof *t.f[0].op);
	epi_cost *a = &t.f[0].op[0], *b = &t.f[0].op[1];
	epi_cost_init(a);
	epi_cost_init(b);
	a->key = strdup("add.i64.lat");
	a->e = 1.5e-9, a->e_sd = 1e-11, a->e_ci = 2e-11, a->e_dyn = 1.1e-9;
	a->t = 4.2e-10, a->t_sd = 1e-12, a->t_ci = 3e-12, a->cycles = 1.007, a->cycles_sd = 0.002;
	a->runs = 12, a->outliers = 1, a->drift = 1;
	snprintf(a->style, sizeof a->style, "net");
	b->key = strdup("add");
	b->kernel = strdup("add.i64");
	b->t = 1e-10;
	b->runs = 3;
	char p[512];
	snprintf(p, sizeof p, "%s/calib.xml", dir);
	if (epi_table_save(&t, p, err) < 0)
		fail_msg("%s", err);
	epi_table u;
	if (epi_table_load(&u, p, err) < 0)
		fail_msg("%s", err);
	assert_string_equal(u.microcode, "0xa0011d1");
	assert_true(u.cache[0] == 32768 && u.cache[1] == 0 && u.cache[2] == 33554432 && u.l3_serves == 16777216);
	assert_int_equal(u.tlb_pages, 4288);
	assert_string_equal(u.created, t.created);
	assert_string_equal(u.command, t.command);
	assert_string_equal(u.style, "net");
	assert_int_equal(u.calib_cpu, 1);
	assert_true(u.precision == 0.01);
	assert_true(u.f[0].effective_ghz == 2.398 && u.f[0].idle_w == 12.5 && u.f[0].idle_w_sd == 0.25);
	assert_true(u.f[0].pinned);
	const epi_cost *x = epi_fcol_lookup(&u.f[0], "add.i64.lat");
	assert_non_null(x);
	assert_true(x->e == a->e && x->e_sd == a->e_sd && x->e_ci == a->e_ci && x->e_dyn == a->e_dyn);
	assert_true(x->t == a->t && x->t_sd == a->t_sd && x->t_ci == a->t_ci);
	assert_true(x->cycles == a->cycles && x->cycles_sd == a->cycles_sd);
	assert_int_equal(x->runs, 12);
	assert_int_equal(x->outliers, 1);
	assert_true(x->drift);
	assert_string_equal(x->style, "net");
	const epi_cost *y = epi_fcol_lookup(&u.f[0], "add.f32"); /* falls back to the class */
	assert_non_null(y);
	assert_string_equal(y->key, "add");
	assert_string_equal(y->kernel, "add.i64");
	assert_true(isnan(y->e) && isnan(y->cycles));
	assert_int_equal(y->outliers, -1);
	assert_false(y->drift);
	assert_string_equal(y->style, "");
	epi_table_free(&t);
	epi_table_free(&u);
}

static const char head[] = "<?xml version=\"1.0\"?>\n<costtable version=\"1\">\n"
			   "<machine><cpu>x</cpu></machine>\n<meter name=\"none\" domain=\"none\"/>\n";

static void expect_error(const char *body, const char *needle)
{
	char text[2048];
	snprintf(text, sizeof text, "%s%s", head, body);
	char *p = write_tmp("bad.xml", text);
	epi_table t;
	assert_int_equal(epi_table_load(&t, p, err), -1);
	if (!strstr(err, needle) || !strstr(err, "bad.xml"))
		fail_msg("error '%s' lacks '%s'", err, needle);
}

static void test_invalid(void **st)
{
	/* not XML: file and line */
	expect_error("<frequency ghz=\"2\"><op name=\"add\"\n</costtable>\n", "line 6");
	/* schema: negative energy, on its line */
	expect_error("<frequency ghz=\"2\">\n<op name=\"add\" unit=\"op\" energy_j=\"-1\" runs=\"3\"/>\n</frequency>\n</costtable>\n",
		     "line 6");
	/* an infinite cost, and one no measurement gives */
	expect_error("<frequency ghz=\"2\">\n<op name=\"add\" unit=\"op\" time_s=\"INF\" runs=\"3\"/>\n</frequency>\n</costtable>\n",
		     "line 6");
	expect_error("<frequency ghz=\"2\">\n<op name=\"add\" unit=\"op\" time_s=\"1e308\" runs=\"3\"/>\n</frequency>\n</costtable>\n",
		     "line 6");
	/* unknown unit */
	expect_error("<frequency ghz=\"2\">\n<op name=\"add\" unit=\"kg\" energy_j=\"1\" runs=\"3\"/>\n</frequency>\n</costtable>\n",
		     "unit");
	/* unit that does not fit the operation */
	expect_error("<frequency ghz=\"2\">\n<op name=\"memcpy\" unit=\"op\" energy_j=\"1\" runs=\"3\"/>\n</frequency>\n</costtable>\n",
		     "line 6: unit 'op' does not fit operation 'memcpy'");
	/* unknown operation */
	expect_error("<frequency ghz=\"2\">\n<op name=\"fly\" unit=\"op\" energy_j=\"1\" runs=\"3\"/>\n</frequency>\n</costtable>\n",
		     "unknown operation 'fly'");
	/* neither energy nor time */
	expect_error("<frequency ghz=\"2\">\n<op name=\"add\" unit=\"op\" runs=\"3\"/>\n</frequency>\n</costtable>\n",
		     "neither energy_j nor time_s");
	/* the same frequency twice */
	expect_error("<frequency ghz=\"2\"><op name=\"add\" unit=\"op\" energy_j=\"1\" runs=\"3\"/></frequency>\n"
		     "<frequency ghz=\"2.0\"><op name=\"add\" unit=\"op\" energy_j=\"1\" runs=\"3\"/></frequency>\n</costtable>\n",
		     "line 6: Element 'frequency': Duplicate key-sequence");
	/* a file that is no cost table */
	char *p = write_tmp("other.xml", "<?xml version=\"1.0\"?><html/>\n");
	epi_table t;
	assert_int_equal(epi_table_load(&t, p, err), -1);
	assert_non_null(strstr(err, "other.xml"));
	assert_int_equal(epi_table_load(&t, "/nonexistent/t.xml", err), -1);
	assert_non_null(strstr(err, "cannot open cost table '/nonexistent/t.xml'"));
}

static void test_interpolation(void **st)
{
	epi_table t;
	assert_int_equal(epi_table_load(&t, ref_path(), err), 0);
	epi_fcol c;
	long khz;
	assert_int_equal(epi_freq_parse("1.7GHz", &khz, err), 0);
	assert_int_equal(epi_table_at(&t, khz, &c, err), 0);
	assert_true(c.interpolated);
	const epi_cost *a = epi_fcol_lookup(&c, "add");
	assert_true(fabs(a->e - (274e-9 + 247e-9) / 2) < 1e-15);
	epi_fcol_free(&c);
	assert_int_equal(epi_table_at(&t, 2400000, &c, err), 0);
	assert_false(c.interpolated);
	epi_fcol_free(&c);
	assert_int_equal(epi_table_at(&t, 3000000, &c, err), -1);
	assert_non_null(strstr(err, "3 GHz is outside"));
	assert_non_null(strstr(err, "1.6, 1.8, 2.13, 2.4"));
	epi_table_free(&t);
}

/* A column priced at another clock than the one it was measured at: the
 * core's times scaled by the clocks' ratio, memory's and energies kept;
 * nothing done when either clock is unknown */
static void test_clock(void **st)
{
	(void)st;
	epi_cost op[3] = {
		{.key = "add.f64.lat", .t = 1e-9, .t_sd = 1e-11, .t_ci = 2e-11, .e = 5e-9, .cycles = 3},
		{.key = "load.dram.line", .t = 2e-8, .t_sd = 1e-10, .t_ci = 2e-10, .e = 1e-7, .cycles = 60},
		{.key = "load", .kernel = "load.dram", .t = 3e-9, .t_sd = 0, .t_ci = 0, .e = 1e-8, .cycles = 9},
	};
	epi_fcol c = {.khz = 3000000, .n = 3, .op = op, .effective_ghz = 3.0};
	assert_true(epi_fcol_at_clock(&c, NAN) == 1);
	assert_true(op[0].t == 1e-9);
	assert_true(fabs(epi_fcol_at_clock(&c, 2.0) - 1.5) < 1e-12);
	assert_true(fabs(op[0].t - 1.5e-9) < 1e-21 && fabs(op[0].t_sd - 1.5e-11) < 1e-21 &&
		    fabs(op[0].t_ci - 3e-11) < 1e-21);
	assert_true(op[0].cycles == 3 && op[0].e == 5e-9);
	assert_true(op[1].t == 2e-8 && op[2].t == 3e-9);
	assert_true(c.effective_ghz == 2.0);
	c.effective_ghz = NAN;
	assert_true(epi_fcol_at_clock(&c, 3.0) == 1);
	c.effective_ghz = 1e-300; /* no clock: nothing scaled */
	assert_true(epi_fcol_at_clock(&c, 3.0) == 1);
	assert_true(fabs(op[0].t - 1.5e-9) < 1e-21);
}

/* A column priced at the rate memory had when a trace was taken: memory's
 * times (.dram kernels, a class measured by one) scaled by the probe's
 * ratio to the table's load.dram less the band, the core's and energies
 * kept; nothing done inside the band, without a probe or without
 * load.dram */
static void test_memory(void **st)
{
	(void)st;
	epi_cost op[5] = {
		{.key = "load.dram", .t = 1e-9, .t_sd = 1e-11, .t_ci = 2e-11, .e = 5e-9, .cycles = 3, .cycles_sd = 0.03},
		{.key = "load.dram.line", .t = 4e-9, .t_sd = 0, .t_ci = 0, .e = 1e-8, .cycles = 12},
		{.key = "memcpy", .kernel = "memcpy.dram", .unit = EPI_UNIT_MIB, .t = 1e-4, .e = 1e-3, .cycles = 3e5},
		{.key = "load.l3", .t = 1e-10, .e = 1e-9, .cycles = 0.3},
		{.key = "load", .kernel = "load.l1", .t = 5e-11, .e = 1e-10, .cycles = 0.15},
	};
	epi_fcol c = {.khz = 3000000, .n = 5, .op = op, .effective_ghz = 3.0};
	/* unchanged: no probe, and probes within 15% either way */
	const double inside[] = {NAN, 0, 1e-9, 1.1e-9, 1.149e-9, 0.87e-9};
	for (int i = 0; i < 6; i++)
		assert_true(epi_fcol_at_memory(&c, inside[i]) == 1);
	assert_true(op[0].t == 1e-9 && op[1].t == 4e-9 && op[2].t == 1e-4);
	/* memory three times slower: 3 / 1.15 */
	double f = 3 / EPI_MEMORY_BAND;
	assert_true(fabs(epi_fcol_at_memory(&c, 3e-9) - f) < 1e-12);
	assert_true(fabs(op[0].t - f * 1e-9) < 1e-21 && fabs(op[0].t_sd - f * 1e-11) < 1e-23 &&
		    fabs(op[0].t_ci - f * 2e-11) < 1e-23 && fabs(op[0].cycles - 3 * f) < 1e-12 &&
		    fabs(op[0].cycles_sd - 0.03 * f) < 1e-14);
	assert_true(fabs(op[1].t - f * 4e-9) < 1e-21 && fabs(op[2].t - f * 1e-4) < 1e-16);
	assert_true(op[0].e == 5e-9 && op[2].e == 1e-3);
	assert_true(op[3].t == 1e-10 && op[4].t == 5e-11 && op[3].cycles == 0.3);
	/* and back, four times faster than it now is: / 4 x 1.15 */
	double t0 = op[0].t, g = 0.25 * EPI_MEMORY_BAND;
	assert_true(fabs(epi_fcol_at_memory(&c, t0 / 4) - g) < 1e-12);
	assert_true(fabs(op[0].t - g * t0) < 1e-21 && op[3].t == 1e-10);
	/* a table without load.dram (RR-8416's): nothing to compare with */
	epi_fcol p = {.khz = 3000000, .n = 2, .op = op + 3, .effective_ghz = 3.0};
	assert_true(epi_fcol_at_memory(&p, 3e-9) == 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_calibration_fields, setup, teardown),
		cmocka_unit_test(test_reference),
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_invalid, setup, teardown),
		cmocka_unit_test(test_interpolation),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_memory),
	};
	return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}
