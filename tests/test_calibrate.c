/* epi-calibrate's plan against fake machines: a powercap tree at a known
 * constant power and an acpi-cpufreq tree with four frequencies. The table
 * must hold four frequencies whose energies equal power x time, leave the
 * cpufreq tree as it was, survive an interruption and resume without
 * rerunning finished entries, keep what finished when the meter fails,
 * and refuse to overwrite a file that is not a cost table. The summary
 * statistics are checked against values computed by hand. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "calibrate/calibrate.h"
#include "calibrate/stats.h"
#include "machine/cpufreq.h"
#include "machine/meter.h"
#include "machine/sysroot.h"
#include "model/util.h"
#include "tests/fakehw.h"

#define WATTS 47.5

/* ---- statistics ------------------------------------------------------- */

static void test_summary(void **st)
{
	const double x[] = {1, 2, 3, 4, 5};
	epi_summary s;
	epi_summarise(x, 5, 0.01, &s);
	assert_int_equal(s.n, 5);
	assert_true(fabs(s.mean - 3) < 1e-12);
	assert_true(fabs(s.sd - sqrt(2.5)) < 1e-12);
	/* Student's t, 4 degrees of freedom, 97.5%: 2.776445 */
	assert_true(fabs(s.ci - 2.776445 * sqrt(2.5) / sqrt(5)) < 1e-5);
	/* one wild run among steady ones is left out */
	const double y[] = {1.00, 1.01, 0.99, 1.00, 1.02, 0.98, 5.0};
	epi_summarise(y, 7, 0.01, &s);
	assert_int_equal(s.outliers, 1);
	assert_int_equal(s.n, 6);
	assert_true(fabs(s.mean - 1.0) < 1e-12);
	assert_false(s.drift);
	/* a steady climb of 20% over the runs is drift; noise without a trend is not */
	double z[12], w[12];
	for (int i = 0; i < 12; i++) {
		z[i] = 1 + 0.02 * i + (i % 2 ? 0.003 : -0.003);
		w[i] = 1 + (i % 3 - 1) * 0.004;
	}
	epi_summarise(z, 12, 0.01, &s);
	assert_true(s.drift);
	epi_summarise(w, 12, 0.01, &s);
	assert_false(s.drift);
	assert_true(epi_summary_converged(&s, 0.01));
	epi_summarise(w, 2, 0.01, &s); /* two runs are never enough */
	assert_false(epi_summary_converged(&s, 0.01));
	/* a net cost whose runs straddle 0 (a kernel no slower than the empty
	 * loop): none, its spread kept; one above 0 as it is */
	const double v[] = {-2e-12, 1e-12, -3e-12, -1e-12, 0.5e-12};
	unsigned char keep[5] = {1, 1, 1, 1, 1};
	epi_summary k;
	epi_summarise_kept(v, keep, 5, 0.01, &k);
	epi_summarise_net(v, keep, 5, 0.01, &s);
	assert_true(k.mean < 0 && s.mean == 0);
	assert_true(s.sd == k.sd && s.ci == k.ci && s.n == 5);
	epi_summarise_kept(x, keep, 5, 0.01, &k);
	epi_summarise_net(x, keep, 5, 0.01, &s);
	assert_true(s.mean == k.mean && s.mean == 3);
}

/* ---- against a fake machine: a FUSE powercap zone, exact when read -------- */

static fake_fuse zone;
static char out[512];

static int setup(void **st)
{
	fake_root();
	fake_cpu("GenuineIntel", 6, 0x55);
	fake_acpi_tree();
	char sd[300];
	snprintf(sd, sizeof sd, "%s/state", epi_sysroot());
	setenv("EPI_STATE_DIR", sd, 1);
	snprintf(out, sizeof out, "%s/table.xml", epi_sysroot());
	if (fake_fuse_zone(&zone, "intel-rapl:0", "package-0", WATTS, 20000000) < 0) {
		printf("# FUSE cannot mount here (needs /dev/fuse and CAP_SYS_ADMIN): calibration test skipped\n");
		fake_root_free();
		skip();
	}
	return 0;
}

static int teardown(void **st)
{
	fake_fuse_unmount(&zone);
	unsetenv("EPI_STATE_DIR");
	fake_root_free();
	return 0;
}

static void options(epi_calib *c, epi_meter *m, const char *ops)
{
	char err[EPI_ERRLEN];
	if (epi_meter_open(m, "powercap", NULL, err) < 0)
		fail_msg("%s", err);
	epi_calib_defaults(c);
	c->ops = ops;
	c->cpu = 1;
	c->precision = 0.05;
	c->max_runs = 6;
	c->idle_s = 0.3;
	c->settle_s = 0;
	c->output = out;
	c->meter = m;
}

static void policy1(const char *file, char *v)
{
	char path[EPI_PATHLEN], err[EPI_ERRLEN];
	epi_syspath(path, "/sys/devices/system/cpu/cpufreq/policy1/%s", file);
	if (epi_read_line(path, v, 64, err) < 0)
		fail_msg("%s", err);
}

static void assert_restored(void)
{
	char v[64];
	policy1("scaling_governor", v);
	assert_string_equal(v, "schedutil");
	char path[EPI_PATHLEN], err[EPI_ERRLEN];
	epi_read_line(epi_syspath(path, "/sys/devices/system/cpu/cpufreq/boost"), v, 16, err);
	assert_string_equal(v, "1");
	char state[EPI_PATHLEN];
	assert_int_equal(epi_freq_state_peek(state, sizeof state), 0);
}

/* the TLB's curve missing below its reach is said, with its points; a
 * curve that turns past the reach, or one without the points, is not */
static void test_tlb_missed(void **st)
{
	(void)st;
	epi_cost op[] = {{.key = "load.page.tlb50", .t = 0.8e-9},
			 {.key = "load.page.tlb75", .t = 2.5e-9},
			 {.key = "load.page.tlb110", .t = 3.1e-9}};
	epi_fcol f = {.khz = 3000000, .n = 3, .op = op};
	char out[320] = "";
	assert_int_equal(epi_tlb_missed(&f, "3 GHz", out, sizeof out), 1);
	assert_non_null(strstr(out, "3 GHz: the TLB missed below its reach, load.page.tlb75 2.5 ns against "
				    "load.page.tlb50 0.8 ns (75% and 50%"));
	op[1].t = 0.9e-9; /* the curve of a quiet core: its cliff past the reach */
	assert_int_equal(epi_tlb_missed(&f, "3 GHz", out, sizeof out), 0);
	f.n = 1; /* a table without the curve */
	assert_int_equal(epi_tlb_missed(&f, "3 GHz", out, sizeof out), 0);
}

static void test_four_frequencies(void **st)
{
	epi_calib c;
	epi_meter m;
	options(&c, &m, "add.i64.lat,mul.i64.lat");
	epi_table t;
	char err[EPI_ERRLEN];
	if (epi_calibrate(&c, &t, err) != 0)
		fail_msg("%s", err);
	epi_meter_close(&m);
	assert_restored();
	assert_int_equal(c.ncannot, 0);
	epi_table u;
	if (epi_table_load(&u, out, err) < 0)
		fail_msg("%s", err);
	assert_int_equal(u.nf, 4);
	const long want[] = {1600000, 1800000, 2133000, 2400000};
	for (int i = 0; i < 4; i++) {
		epi_fcol *f = &u.f[i];
		assert_int_equal(f->khz, want[i]);
		assert_true(f->pinned);
		assert_true(f->effective_ghz > 0);
		/* idle comes from 0.1 s windows whose ends the fake meter and
		 * the calibration time apart by a few milliseconds when the
		 * machine is busy: 5% */
		if (fabs(f->idle_w - WATTS) > 0.05 * WATTS)
			fail_msg("idle %.3f W, true %.3f W", f->idle_w, WATTS);
		const char *ops[] = {"iter", "add.i64.lat", "mul.i64.lat"};
		for (int k = 0; k < 3; k++) {
			const epi_cost *e = epi_fcol_lookup(f, ops[k]);
			assert_non_null(e);
			assert_string_equal(e->key, ops[k]);
			/* constant power: every energy is power x time */
			if (fabs(e->e - WATTS * e->t) > 0.02 * WATTS * e->t)
				fail_msg("%s at %ld kHz: %.4g J, power x time %.4g J", ops[k], f->khz, e->e, WATTS * e->t);
			assert_true(fabs(e->e_dyn) < 0.05 * e->e); /* nothing above idle */
			assert_true(e->runs >= 3 && e->runs <= 6);
			assert_true(fabs(e->cycles - e->t * f->effective_ghz * 1e9) < 1e-6 * e->cycles);
			assert_true(e->e_ci > 0 && e->t_ci > 0);
			assert_string_equal(e->style, "net");
		}
	}
	assert_string_equal(u.meter, "powercap");
	assert_string_equal(u.domain, "total");
	assert_non_null(u.created);
	assert_int_equal(u.calib_cpu, 1);
	epi_table_free(&t);
	epi_table_free(&u);
}

/* ---- interruption and resume ------------------------------------------------ */

typedef struct counter {
	int stop_after;        /* raise SIGINT once this many entries are finished */
	int runs[64];          /* runs per kernel, by name below */
	const char *names[64];
	int n;
	int unplug_after;      /* the counter fails once this many are finished */
	long khz;              /* runs are counted at this frequency */
	int stop_at_start;     /* raise SIGINT during the first run of all */
} counter;

static void count(void *arg, const epi_calib_progress *p)
{
	counter *k = arg;
	if (p->op && p->khz == k->khz) {
		int i = 0;
		while (i < k->n && strcmp(k->names[i], p->op) != 0)
			i++;
		if (i == k->n)
			k->names[k->n++] = p->op;
		k->runs[i]++;
	}
	if (p->line && k->stop_after && p->done == k->stop_after)
		raise(SIGINT);
	if (k->stop_at_start && p->op && p->done == 0) {
		k->stop_at_start = 0;
		raise(SIGINT);
	}
	if (p->line && k->unplug_after && p->done == k->unplug_after)
		fake_zone_gone = 1;
}

/* Stopped before any operation is finished (a job cancelled as it
 * starts): nothing worth a table, so none written, and no error from a
 * frequency with no operation in it. */
static void test_interrupt_at_start(void **st)
{
	epi_calib c;
	epi_meter m;
	options(&c, &m, "add.i64.lat");
	c.freqs = "1.6GHz";
	c.catch_signals = 1;
	counter k = {.stop_at_start = 1};
	c.progress = count;
	c.progress_arg = &k;
	epi_table t;
	char err[EPI_ERRLEN] = "";
	unlink(out);
	assert_int_equal(epi_calibrate(&c, &t, err), 1);
	assert_string_equal(err, "");
	assert_int_equal(c.stopped_by, SIGINT);
	epi_meter_close(&m);
	epi_table_free(&t);
	assert_restored();
	assert_int_equal(access(out, F_OK), -1);
}

static void test_interrupt_and_resume(void **st)
{
	epi_calib c;
	epi_meter m;
	const char *ops = "add.i64.lat,mul.i64.lat,bit.i64.lat";
	options(&c, &m, ops);
	c.freqs = "1.6GHz,2.4GHz";
	c.catch_signals = 1;
	counter k1 = {.stop_after = 3, .khz = 1600000};
	c.progress = count;
	c.progress_arg = &k1;
	epi_table t;
	char err[EPI_ERRLEN];
	assert_int_equal(epi_calibrate(&c, &t, err), 1);
	assert_int_equal(c.stopped_by, SIGINT);
	epi_meter_close(&m);
	epi_table_free(&t);
	assert_restored();
	epi_table part;
	if (epi_table_load(&part, out, err) < 0)
		fail_msg("%s", err);
	int finished = 0;
	for (int i = 0; i < part.nf; i++)
		finished += part.f[i].n;
	assert_int_equal(finished, 3); /* iter and two kernels at 1.6 GHz */
	/* resume: only what is missing runs */
	options(&c, &m, ops);
	c.freqs = "1.6GHz,2.4GHz";
	c.resume = 1;
	counter k2 = {.khz = 1600000};
	c.progress = count;
	c.progress_arg = &k2;
	if (epi_calibrate(&c, &t, err) != 0)
		fail_msg("%s", err);
	epi_meter_close(&m);
	assert_int_equal(c.skipped, 3);
	assert_int_equal(c.done, 5);
	assert_restored();
	epi_table u;
	if (epi_table_load(&u, out, err) < 0)
		fail_msg("%s", err);
	assert_int_equal(u.nf, 2);
	assert_int_equal(u.f[0].n, 4);
	assert_int_equal(u.f[1].n, 4);
	/* the entries finished before the interruption were kept as they were */
	const epi_fcol *f0 = &part.f[0];
	for (int i = 0; i < f0->n; i++) {
		const epi_cost *a = &f0->op[i], *b = epi_fcol_lookup(&u.f[0], a->key);
		assert_non_null(b);
		assert_true(a->t == b->t && a->e == b->e && a->runs == b->runs);
	}
	/* and were not run again: at 1.6 GHz only the kernel left over ran */
	assert_int_equal(k2.n, 1);
	assert_null(epi_fcol_lookup(f0, k2.names[0])); /* not one of the finished */
	assert_true(k2.runs[0] >= 3);
	epi_table_free(&t);
	epi_table_free(&u);
	epi_table_free(&part);
}

static void test_meter_fails(void **st)
{
	epi_calib c;
	epi_meter m;
	options(&c, &m, "add.i64.lat,mul.i64.lat");
	c.freqs = "2.4GHz";
	counter k = {.unplug_after = 2};
	c.progress = count;
	c.progress_arg = &k;
	epi_table t;
	char err[EPI_ERRLEN];
	assert_int_equal(epi_calibrate(&c, &t, err), -1);
	epi_meter_close(&m);
	if (!strstr(err, "2.4 GHz"))
		fail_msg("%s", err);
	assert_non_null(strstr(err, "energy_uj"));
	assert_non_null(strstr(err, "Input/output error"));
	assert_int_equal(c.done, 2);
	assert_restored();
	epi_table u;
	if (epi_table_load(&u, out, err) < 0)
		fail_msg("%s", err);
	assert_int_equal(u.f[0].n, 2);
	epi_table_free(&u);
	epi_table_free(&t);
}

static void test_bad_input(void **st)
{
	epi_calib c;
	epi_meter m;
	epi_table t;
	char err[EPI_ERRLEN];
	options(&c, &m, "add.i64,fma");
	assert_int_equal(epi_calibrate(&c, &t, err), -1);
	assert_non_null(strstr(err, "unknown operation 'fma' (operations: iter, add.i64"));
	c.ops = "add.i64";
	c.freqs = "2GHz";
	assert_int_equal(epi_calibrate(&c, &t, err), -1);
	assert_non_null(strstr(err, "CPU 1 (policy1, acpi-cpufreq) does not offer 2 GHz; it offers: 1.6 GHz, 1.8 GHz, 2.133 GHz, 2.4 GHz"));
	/* a file that is not a cost table is refused and left alone */
	fake_put("/table.xml", "precious\n");
	c.freqs = "2.4GHz";
	assert_int_equal(epi_calibrate(&c, &t, err), -1);
	assert_non_null(strstr(err, "exists and is not a cost table"));
	assert_non_null(strstr(err, "not overwritten"));
	char v[64];
	assert_int_equal(epi_read_line(out, v, sizeof v, err), 0);
	assert_string_equal(v, "precious");
	epi_meter_close(&m);
	assert_restored();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_tlb_missed),
		cmocka_unit_test_setup_teardown(test_four_frequencies, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interrupt_at_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interrupt_and_resume, setup, teardown),
		cmocka_unit_test_setup_teardown(test_meter_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
	};
	return cmocka_run_group_tests_name("calibrate", tests, NULL, NULL);
}
