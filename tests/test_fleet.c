/* A cluster's tables compared (fleet/report.c): five nodes of one model
 * made from RR-8416's table with known differences, one of them planted
 * as an outlier, and a node of another model. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fleet/fleet.h"
#include "model/util.h"

static char dir[256];

static const char *ref(void)
{
	static char p[512];
	snprintf(p, sizeof p, "%s/data/rr8416-q6600.xml", getenv("EPI_TOP") ? getenv("EPI_TOP") : ".");
	return p;
}

/* DIR/NAME.xml: RR-8416's table with every energy and time times SCALE,
 * add's energy times ADD too, its CPU named CPU. */
static void node(const char *name, double scale, double add, const char *cpu)
{
	epi_table t;
	char err[EPI_ERRLEN], path[512];
	assert_int_equal(epi_table_load(&t, ref(), err), 0);
	for (int i = 0; i < t.nf; i++)
		for (int j = 0; j < t.f[i].n; j++) {
			epi_cost *e = &t.f[i].op[j];
			e->t *= scale;
			e->e *= scale * (strcmp(e->key, "add") == 0 ? add : 1);
		}
	free(t.cpu);
	t.cpu = xstrdup(cpu);
	snprintf(path, sizeof path, "%s/%s.xml", dir, name);
	if (epi_table_save(&t, path, err) < 0)
		fail_msg("%s", err);
	epi_table_free(&t);
}

static int setup(void **st)
{
	snprintf(dir, sizeof dir, "/tmp/epi-fleet-XXXXXX");
	assert_non_null(mkdtemp(dir));
	static const double scale[] = {1.00, 1.02, 0.98, 1.01, 0.99};
	for (int i = 0; i < 5; i++) {
		char name[16];
		snprintf(name, sizeof name, "n%d", i + 1);
		node(name, scale[i], i == 2 ? 1.5 : 1, "Intel Core 2 Quad Q6600");
	}
	node("x1", 3, 1, "Another CPU");
	char p[512];
	snprintf(p, sizeof p, "%s/notes.xml", dir);
	FILE *f = fopen(p, "w");
	fputs("<notes/>\n", f);
	fclose(f);
	return 0;
}

static int teardown(void **st)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd);
}

static const epi_fleet_row *find(const epi_fleet_row *r, int n, const char *model, const char *op, int q, long khz)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(r[i].model, model) && !strcmp(r[i].op, op) && r[i].quantity == q && r[i].khz == khz)
			return &r[i];
	return NULL;
}

static void test_rows(void **st)
{
	epi_fleet f;
	char err[EPI_ERRLEN];
	assert_int_equal(epi_fleet_load(&f, dir, err), 0);
	assert_int_equal(f.n, 6);
	assert_int_equal(f.nwarn, 1); /* notes.xml is no table: left out, said so */
	assert_non_null(strstr(f.warn[0], "notes.xml"));
	assert_non_null(strstr(f.warn[0], "left out"));
	assert_int_equal(epi_fleet_find(&f, "n3"), 2);
	epi_fleet_row *rows;
	int nr = epi_fleet_rows(&f, &rows);
	const char *q6600 = "Intel Core 2 Quad Q6600";
	/* mul's time: the five scales, no outlier */
	const epi_fleet_row *r = find(rows, nr, q6600, "mul", 0, 1600000);
	assert_non_null(r);
	assert_int_equal(r->n, 5);
	double base = 34.54e-10, mean = base * (1.00 + 1.02 + 0.98 + 1.01 + 0.99) / 5;
	assert_true(fabs(r->mean - mean) < 1e-9 * mean);
	double ss = 0;
	for (int i = 0; i < 5; i++)
		ss += (r->v[i] - mean) * (r->v[i] - mean);
	assert_true(fabs(r->cv - sqrt(ss / 4) / mean) < 1e-9);
	assert_true(fabs(r->min - 0.98 * base) < 1e-20 && fabs(r->max - 1.02 * base) < 1e-20);
	assert_int_equal(r->nout, 0);
	/* add's energy at every frequency: n3 planted at +50% */
	int seen = 0;
	for (int i = 0; i < nr; i++) {
		if (strcmp(rows[i].model, q6600) || strcmp(rows[i].op, "add"))
			continue;
		seen++;
		if (rows[i].quantity == 1) {
			assert_int_equal(rows[i].nout, 1);
			assert_string_equal(f.node[rows[i].nodes[rows[i].out[0]]].name, "n3");
		} else {
			assert_int_equal(rows[i].nout, 0); /* its time is as the others' */
		}
	}
	assert_int_equal(seen, 2 * 4); /* time and energy at four frequencies */
	/* the other model alone: no spread, no outlier */
	r = find(rows, nr, "Another CPU", "add", 1, 1600000);
	assert_non_null(r);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->nout, 0);
	assert_true(r->sd == 0);
	/* the model's median node: the one at scale 1.00 */
	assert_string_equal(f.node[epi_fleet_median_node(&f, q6600)].name, "n1");
	assert_string_equal(f.node[epi_fleet_median_node(&f, "Another CPU")].name, "x1");
	assert_int_equal(epi_fleet_median_node(&f, "no such CPU"), -1);
	epi_fleet_rows_free(rows, nr);
	epi_fleet_free(&f);
}

static void test_empty(void **st)
{
	epi_fleet f;
	char err[EPI_ERRLEN], empty[300];
	snprintf(empty, sizeof empty, "%s/empty", dir);
	mkdir(empty, 0755);
	assert_int_equal(epi_fleet_load(&f, empty, err), -1);
	assert_non_null(strstr(err, "holds no cost table"));
	assert_int_equal(epi_fleet_load(&f, "/nonexistent/dir", err), -1);
	assert_non_null(strstr(err, "cannot read the table folder '/nonexistent/dir'"));
}

/* A job file: read back; one damaged is refused with its line. */
static void test_job_file(void **st)
{
	char path[512], err[EPI_ERRLEN];
	snprintf(path, sizeof path, "%s/.fleet", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/.fleet/job", dir);
	FILE *f = fopen(path, "w");
	fputs("# epi fleet job\njob 42\nsubmitted 1700000000\ntask 0 n1\ntask 1 n2\n", f);
	fclose(f);
	epi_fleet_job j;
	assert_int_equal(epi_fleet_job_load(&j, EPI_FLEET_CALIBRATE, dir, err), 0);
	assert_int_equal(j.job, 42);
	assert_int_equal(j.n, 2);
	assert_string_equal(j.node[1], "n2");
	epi_fleet_job_free(&j);
	f = fopen(path, "w");
	fputs("job 42\ntask 0 n1\ntask 5 n9\n", f); /* a task out of order */
	fclose(f);
	assert_int_equal(epi_fleet_job_load(&j, EPI_FLEET_CALIBRATE, dir, err), -1);
	assert_non_null(strstr(err, "job' line 3: not a fleet job line"));
	unlink(path);
	assert_int_equal(epi_fleet_job_load(&j, EPI_FLEET_CALIBRATE, dir, err), -1);
	assert_non_null(strstr(err, "no fleet job in"));
}

/* --per-model: one node per CPU model and microcode, by what each node's
 * identification says; a node without one is left out, named. */
static void test_per_model(void **st)
{
	char path[512];
	snprintf(path, sizeof path, "%s/.fleet", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/.fleet/identify", dir);
	mkdir(path, 0755);
	static const char *const id[][3] = {{"a", "X", "0x1"}, {"b", "X", "0x1"}, {"c", "Y", "0x1"}, {"e", "X", "0x2"}};
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof path, "%s/.fleet/identify/%s.json", dir, id[i][0]);
		FILE *f = fopen(path, "w");
		fprintf(f, "{\"cpu\": {\"model_name\": \"%s\", \"microcode\": \"%s\"}, \"meters\": []}\n", id[i][1],
			id[i][2]);
		fclose(f);
	}
	char *nodes[] = {"a", "b", "c", "d", "e"}, **chosen, *why, *left;
	int k = epi_fleet_per_model(dir, nodes, 5, &chosen, &why, &left);
	assert_int_equal(k, 3);
	assert_string_equal(chosen[0], "a");
	assert_string_equal(chosen[1], "c");
	assert_string_equal(chosen[2], "e");
	assert_string_equal(why, "X, microcode 0x1: a for a, b\nY, microcode 0x1: c for c\nX, microcode 0x2: e for e\n");
	assert_string_equal(left, "d");
	for (int i = 0; i < k; i++)
		free(chosen[i]);
	free(chosen);
	free(why);
	free(left);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_job_file),
		cmocka_unit_test(test_per_model),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
