/* epi-profile's layers: the trace format (round trip, truncation and
 * corruption with byte offsets, complete runs kept), power per sample, the
 * Wilson interval, build-id checks, and a real profile of tests/phases.c (two
 * loop nests) through the perf sampler and a FUSE powercap zone whose power
 * follows the program's phase: 30 W in nest A, 90 W in nest B. Per nest, time,
 * power and energy must fall within 5% of what really ran, and the truth
 * within their 95% intervals. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "machine/meter.h"
#include "machine/sysroot.h"
#include "model/util.h"
#include "tests/fakehw.h"
#include "tests/phases.h"
#include "validate/compare.h"
#include "validate/estimate.h"
#include "validate/profile.h"
#include "validate/trace.h"

static char dir[256];

static int setup(void **st)
{
	snprintf(dir, sizeof dir, "/tmp/epi-test-profile.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	return 0;
}

static int teardown(void **st)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* ---- the trace format ---- */

/* The program test_profile profiles (built with line information). */
static void phases_path(char *out, size_t n)
{
	snprintf(out, n, "%s/build/tests/phases", getenv("EPI_TOP") ? getenv("EPI_TOP") : ".");
}

static epi_sample sample(uint64_t t, uint64_t ip, double w)
{
	return (epi_sample){.t_ns = t, .ip = ip, .tid = 7, .cpu = 1, .watts = w};
}

/* Writes NRUNS runs of 10000 samples each (more than one SAMPLES record). */
/* CPU seconds of each run that write_trace writes (1.25 each when NULL) */
static const double *run_cpu;

static void write_trace(const char *path, int nruns)
{
	char err[EPI_ERRLEN];
	epi_trace_writer w;
	epi_trace_info info = {.method = "perf", .meter = "powercap", .domain = "total", .interval_ns = 1000000,
			       .meter_interval_s = 0.002, .meter_update_s = 0.001, .effective_ghz = 3.25};
	snprintf(info.command, sizeof info.command, "prog 'a b'");
	snprintf(info.exe, sizeof info.exe, "/bin/true");
	assert_int_equal(epi_trace_create(&w, path, &info, err), 0);
	static epi_sample s[10000];
	for (int r = 0; r < nruns; r++) {
		epi_run_begin b = {.index = (uint32_t)r, .pid = 100 + (uint32_t)r, .start_ns = 5, .offset_ns = 123};
		assert_int_equal(epi_trace_run(&w, &b, err), 0);
		epi_map m = {.pid = b.pid, .start = 0x1000, .len = 0x2000, .pgoff = 0};
		phases_path(m.path, sizeof m.path);
		m.buildid_len = epi_read_buildid(m.path, m.buildid);
		assert_int_equal(epi_trace_map(&w, &m, err), 0);
		epi_reading rd[2] = {{1, 0.5, 100}, {2, 1.5, 200}};
		assert_int_equal(epi_trace_readings(&w, rd, 2, err), 0);
		for (int i = 0; i < 10000; i++)
			s[i] = sample((uint64_t)i, 0x1000 + (uint64_t)(i % 64), i % 2 ? 30.0 : NAN);
		assert_int_equal(epi_trace_samples(&w, s, 10000, err), 0);
		epi_run_end e = {.status = 0, .wall_s = 1.5, .cpu_s = run_cpu ? run_cpu[r] : 1.25, .joules = 40,
				 .nsamples = 10000, .prof_cpu_s = 0.01};
		assert_int_equal(epi_trace_end(&w, &e, err), 0);
	}
	/* a run begun but not ended is not written */
	epi_run_begin b = {.index = 99};
	assert_int_equal(epi_trace_run(&w, &b, err), 0);
	assert_int_equal(epi_trace_samples(&w, s, 5, err), 0);
	assert_int_equal(epi_trace_commit(&w, err), 0);
}

/* Reads PATH; returns the complete runs, with the error (if any) in ERR. */
static int read_runs(const char *path, uint64_t *nsamples, char *err)
{
	epi_trace_reader r;
	err[0] = 0;
	if (epi_trace_open(&r, path, err) < 0)
		return -1;
	assert_string_equal(r.info.command, "prog 'a b'");
	assert_int_equal(r.info.interval_ns, 1000000);
	assert_true(r.info.meter_interval_s == 0.002 && r.info.meter_update_s == 0.001);
	assert_true(r.info.effective_ghz == 3.25);
	epi_trace_item it;
	int k, runs = 0;
	uint64_t n = 0, pending = 0;
	while ((k = epi_trace_next(&r, &it, err)) > 0) {
		if (it.type == EPI_REC_RUN)
			pending = 0;
		if (it.type == EPI_REC_MAP) {
			char want[300];
			unsigned char id[EPI_BUILDID_MAX];
			phases_path(want, sizeof want);
			assert_string_equal(it.u.map.path, want);
			assert_int_equal(it.u.map.buildid_len, epi_read_buildid(want, id));
			assert_memory_equal(it.u.map.buildid, id, sizeof id);
		}
		if (it.type == EPI_REC_SAMPLES) {
			for (uint32_t i = 0; i < it.u.samples.n; i++) {
				const epi_sample *s = &it.u.samples.v[i];
				uint64_t j = pending + i;
				assert_int_equal(s->t_ns, j);
				assert_int_equal(s->ip, 0x1000 + j % 64);
				assert_true(j % 2 ? s->watts == 30.0 : isnan(s->watts));
			}
			pending += it.u.samples.n;
		}
		if (it.type == EPI_REC_METER) {
			assert_int_equal(it.u.readings.n, 2);
			assert_int_equal(it.u.readings.v[1].t_ns, 2);
			assert_true(it.u.readings.v[1].joules == 1.5);
			assert_int_equal(it.u.readings.v[1].span_ns, 200);
		}
		if (it.type == EPI_REC_END) {
			assert_true(it.u.end.wall_s == 1.5 && it.u.end.joules == 40);
			n += pending;
			runs++;
		}
	}
	epi_trace_close(&r);
	*nsamples = n;
	return k < 0 ? -runs - 1 : runs;
}

static long file_size(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

/* The maps of a run in the order the program made them, its own first,
 * whatever order the sampler read them in (a perf ring per CPU, one after
 * the other): equal times keep their order */
static void test_maps_in_order(void **st)
{
	(void)st;
	static const char *const path[] = {"/lib/libc.so.6", "/bin/prog", "/lib/ld.so", "/lib/libm.so.6", "/lib/libx.so"};
	const uint64_t t[] = {30, 10, 20, 30, 25};
	static const int want[] = {1, 2, 4, 0, 3};
	epi_run_data run = {0};
	for (int i = 0; i < 5; i++) {
		epi_map m = {.pid = 7, .start = 4096 * (uint64_t)(i + 1)};
		snprintf(m.path, sizeof m.path, "%s", path[i]);
		epi_run_add_map(&run, &m);
	}
	epi_run_maps_in_order(&run, t);
	assert_int_equal(run.nmaps, 5);
	for (int i = 0; i < 5; i++) {
		assert_string_equal(run.maps[i].path, path[want[i]]);
		assert_true(run.maps[i].start == 4096 * (uint64_t)(want[i] + 1));
	}
	epi_run_data_free(&run);
}

static void test_trace_round_trip(void **st)
{
	char path[300], err[EPI_ERRLEN];
	uint64_t n;
	snprintf(path, sizeof path, "%s/t.trace", dir);
	write_trace(path, 3);
	assert_int_equal(read_runs(path, &n, err), 3);
	assert_int_equal(n, 30000);
	assert_string_equal(err, "");
	/* no temporary file is left beside it */
	char cmd[400];
	snprintf(cmd, sizeof cmd, "test $(ls '%s' | wc -l) -eq 1", dir);
	assert_int_equal(system(cmd), 0);
}

/* The clock and memory's rate in a trace's header: read back as written,
 * and a value no clock can be (infinite, zero, a million GHz) or no load
 * can take read as not measured */
static void test_trace_clock(void **st)
{
	(void)st;
	const double in[] = {3.25, INFINITY, 0, 1e6}, out[] = {3.25, NAN, NAN, NAN};
	/* and memory's rate: a load's seconds, none where no load can take them */
	const double din[] = {2.0625e-10, NAN, 0, 1}, dout[] = {2.0625e-10, NAN, NAN, NAN};
	for (int k = 0; k < 4; k++) {
		char path[300], err[EPI_ERRLEN];
		snprintf(path, sizeof path, "%s/c%d.trace", dir, k);
		epi_trace_writer w;
		epi_trace_info info = {.method = "perf", .meter = "none", .interval_ns = 1000000, .effective_ghz = in[k],
				       .dram_load_s = din[k]};
		assert_int_equal(epi_trace_create(&w, path, &info, err), 0);
		assert_int_equal(epi_trace_commit(&w, err), 0);
		epi_trace_reader r;
		assert_int_equal(epi_trace_open(&r, path, err), 0);
		if (isnan(out[k]))
			assert_true(isnan(r.info.effective_ghz));
		else
			assert_true(r.info.effective_ghz == out[k]);
		if (isnan(dout[k]))
			assert_true(isnan(r.info.dram_load_s));
		else
			assert_true(r.info.dram_load_s == dout[k]);
		epi_trace_close(&r);
	}
}

/* A version 1 trace (epi before read spans: 16-byte readings, no
 * meter_update_s) of two runs of a shell loop with a const:50 meter. */
static void test_trace_v1(void **st)
{
	char path[300], warn[EPI_ERRLEN], err[EPI_ERRLEN];
	snprintf(path, sizeof path, "%s/tests/data/v1.trace", getenv("EPI_TOP") ? getenv("EPI_TOP") : ".");
	epi_trace_reader r;
	assert_int_equal(epi_trace_open(&r, path, err), 0);
	assert_int_equal(r.version, 1);
	assert_true(isnan(r.info.meter_update_s));
	epi_trace_item it;
	int k, readings = 0;
	while ((k = epi_trace_next(&r, &it, err)) > 0)
		if (it.type == EPI_REC_METER)
			for (uint32_t i = 0; i < it.u.readings.n; i++, readings++) {
				assert_int_equal(it.u.readings.v[i].span_ns, 0);
				assert_true(i == 0 || it.u.readings.v[i].t_ns > it.u.readings.v[i - 1].t_ns);
			}
	assert_int_equal(k, 0);
	assert_true(readings >= 4);
	epi_trace_close(&r);
	epi_profile_sum p;
	assert_int_equal(epi_profile_load(&p, path, EPI_BY_FUNCTION, NULL, 0, warn, err), 0);
	assert_non_null(strstr(warn, "format version 1, whose header has no checksum"));
	assert_int_equal(p.nruns, 2);
	assert_int_equal(p.n, 131);
	/* const:50 for 0.0667 s per run */
	assert_true(fabs(p.j_mean - 3.335) < 0.01);
	int nb;
	epi_block *b = epi_attrib_blocks(p.attrib, &nb);
	for (int i = 0; i < nb; i++) {
		epi_block_est e;
		epi_block_estimate(&p, &b[i], &e);
		if (b[i].np > 1) /* the samples' own powers: these runs are too short for streaks */
			assert_true(fabs(e.power.v - 50) < 0.01 && b[i].nk == 0);
	}
	epi_profile_sum_free(&p);
}

/* A block's time is its share of the runs' mean time T: runs of the same
 * length give the share's (Wilson) interval times T; runs that differ
 * widen it by T's own t interval over them, the two relative half-widths
 * added in quadrature, as they widen the energy's. */
static void test_runs_spread(void **st)
{
	(void)st;
	char path[300], err[EPI_ERRLEN], warn[EPI_ERRLEN];
	snprintf(path, sizeof path, "%s/spread.trace", dir);
	epi_block_est even[64], spread[64];
	int nb[2];
	for (int k = 0; k < 2; k++) {
		static const double cpu[3] = {1.0, 1.25, 1.5};
		run_cpu = k ? cpu : NULL;
		write_trace(path, 3);
		run_cpu = NULL;
		epi_profile_sum p;
		assert_int_equal(epi_profile_load(&p, path, EPI_BY_FUNCTION, NULL, 0, warn, err), 0);
		assert_true(p.nruns == 3 && fabs(p.t_mean - 1.25) < 1e-12);
		epi_block *b = epi_attrib_blocks(p.attrib, &nb[k]);
		assert_true(nb[k] >= 1 && nb[k] <= 64);
		for (int i = 0; i < nb[k]; i++) {
			epi_block_estimate(&p, &b[i], k ? &spread[i] : &even[i]);
			if (k == 0) {
				double lo, hi;
				epi_wilson(b[i].n, p.n, &lo, &hi);
				assert_true(fabs(even[i].time.lo - lo * 1.25) < 1e-12 &&
					    fabs(even[i].time.hi - hi * 1.25) < 1e-12);
			}
		}
		epi_profile_sum_free(&p);
	}
	assert_int_equal(nb[0], nb[1]);
	/* T = 1.25 s, its standard deviation over the runs 0.25 s */
	double r = gsl_cdf_tdist_Pinv(0.975, 2) * 0.25 / sqrt(3) / 1.25;
	int wider = 0;
	for (int i = 0; i < nb[0]; i++) {
		const epi_est *e = &even[i].time, *s = &spread[i].time;
		assert_true(fabs(s->v - e->v) < 1e-12);
		assert_true(fabs(s->hi - (e->v + hypot(e->hi - e->v, e->v * r))) < 1e-12);
		assert_true(fabs(s->lo - fmax(0, e->v - hypot(e->v - e->lo, e->v * r))) < 1e-12);
		wider += e->v > 0 && s->hi > e->hi && s->lo < e->lo;
		if (!isnan(even[i].energy.v)) {
			const epi_est *ee = &even[i].energy, *se = &spread[i].energy;
			assert_true(fabs(se->hi - (ee->v + hypot(ee->hi - ee->v, ee->v * r))) < 1e-9);
		}
	}
	assert_true(wider >= 1);
	/* runs of 0.25, 1.25 and 2.25 s: the mean's t interval reaches below
	 * 0, and a time stops there */
	static const double far[3] = {0.25, 1.25, 2.25};
	run_cpu = far;
	write_trace(path, 3);
	run_cpu = NULL;
	epi_profile_sum p;
	assert_int_equal(epi_profile_load(&p, path, EPI_BY_FUNCTION, NULL, 0, warn, err), 0);
	epi_est t, e;
	epi_profile_total(&p, &t, &e);
	double h = gsl_cdf_tdist_Pinv(0.975, 2) * 1.0 / sqrt(3);
	assert_true(fabs(t.v - 1.25) < 1e-12 && t.lo == 0 && fabs(t.hi - (1.25 + h)) < 1e-12);
	epi_profile_sum_free(&p);
}

static void test_trace_truncated(void **st)
{
	char path[300], err[EPI_ERRLEN];
	uint64_t n;
	snprintf(path, sizeof path, "%s/t.trace", dir);
	write_trace(path, 3);
	long size = file_size(path);
	/* cut inside the third run: two complete runs remain, the error names the offset */
	assert_int_equal(truncate(path, size - 1000), 0);
	assert_int_equal(read_runs(path, &n, err), -3);
	assert_int_equal(n, 20000);
	assert_non_null(strstr(err, "truncated"));
	assert_non_null(strstr(err, "at byte "));
	/* epi_profile_load keeps the complete runs and warns */
	epi_profile_sum p;
	char warn[EPI_ERRLEN];
	assert_int_equal(epi_profile_load(&p, path, EPI_BY_FUNCTION, NULL, 0, warn, err), 0);
	assert_int_equal(p.nruns, 2);
	assert_int_equal(p.n, 20000);
	assert_int_equal(p.np, 10000);
	assert_non_null(strstr(warn, "the 2 complete runs before it are used"));
	epi_profile_sum_free(&p);
	/* cut inside the first run: nothing usable */
	assert_int_equal(truncate(path, 200), 0);
	assert_int_equal(epi_profile_load(&p, path, EPI_BY_FUNCTION, NULL, 0, warn, err), -1);
	assert_non_null(strstr(err, "at byte "));
}

static void test_trace_corrupt(void **st)
{
	char path[300], err[EPI_ERRLEN];
	uint64_t n;
	snprintf(path, sizeof path, "%s/t.trace", dir);
	write_trace(path, 3);
	long size = file_size(path);
	/* flip one byte of a sample's power in the last run: its checksum fails */
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	fseek(f, size - 2000, SEEK_SET);
	int c = fgetc(f);
	fseek(f, size - 2000, SEEK_SET);
	fputc(c ^ 0x40, f);
	fclose(f);
	assert_int_equal(read_runs(path, &n, err), -3);
	assert_int_equal(n, 20000);
	assert_non_null(strstr(err, "checksum mismatch"));
	char want[64];
	snprintf(want, sizeof want, "at byte %ld", size - 60 - 8); /* the END record of run 3 */
	assert_non_null(strstr(err, want));
	/* a setting of the header changed (method=perf to method=wall): its
	 * checksum fails, before any run is read */
	write_trace(path, 1);
	size_t tlen;
	char *text = epi_read_file(path, &tlen, err);
	assert_non_null(text);
	char *m = memmem(text, tlen, "method=perf", 11);
	assert_non_null(m);
	memcpy(m, "method=wall", 11);
	f = fopen(path, "wb");
	fwrite(text, 1, tlen, f);
	fclose(f);
	free(text);
	epi_trace_reader tr;
	assert_int_equal(epi_trace_open(&tr, path, err), -1);
	assert_non_null(strstr(err, "header checksum mismatch (corrupt) at byte 16"));
	/* not a trace at all, and a trace of a future version */
	f = fopen(path, "wb");
	fputs("hello, world\n", f);
	fclose(f);
	assert_int_equal(read_runs(path, &n, err), -1);
	assert_non_null(strstr(err, "is not an epi trace"));
	f = fopen(path, "wb");
	fwrite("EPITRACE\x09\0\0\0\0\0\0\0", 1, 16, f);
	fclose(f);
	assert_int_equal(read_runs(path, &n, err), -1);
	assert_non_null(strstr(err, "format version 9"));
}

/* ---- power per sample, intervals ---- */

static void test_assign_power(void **st)
{
	/* 10 W for 1 s, then 50 W for 1 s, readings every 0.5 s */
	epi_reading r[5] = {{0, 0, 0}, {500000000, 5, 0}, {1000000000, 10, 0}, {1500000000, 35, 0}, {2000000000, 60, 0}};
	epi_sample s[6] = {sample(100, 0, 0), sample(600000000, 0, 0), sample(1200000000, 0, 0),
			   sample(1600000000, 0, 0), sample(2500000000u, 0, 0), sample(700000000, 0, 0)};
	epi_assign_power(s, 6, r, 5);
	assert_true(fabs(s[0].watts - 10) < 1e-9); /* before the first interval ends: the first interval */
	assert_true(fabs(s[1].watts - 10) < 1e-9); /* the interval [0, 0.5] ends before it */
	assert_true(fabs(s[2].watts - 10) < 1e-9); /* [0.5, 1.0]: the power before the step */
	assert_true(fabs(s[3].watts - 50) < 1e-9);
	assert_true(fabs(s[4].watts - 50) < 1e-9);
	assert_true(fabs(s[5].watts - 10) < 1e-9); /* out of time order (another CPU) */
	epi_assign_power(s, 6, r, 1);
	assert_true(isnan(s[0].watts));
}

static void test_wilson(void **st)
{
	double lo, hi;
	/* values from the closed form, z = 1.959964 */
	epi_wilson(5, 10, &lo, &hi);
	assert_true(fabs(lo - 0.2365931) < 1e-6 && fabs(hi - 0.7634069) < 1e-6);
	epi_wilson(0, 10, &lo, &hi);
	assert_true(fabs(lo) < 1e-12 && fabs(hi - 0.2775328) < 1e-6);
	epi_wilson(10, 10, &lo, &hi);
	assert_true(fabs(lo - 0.7224672) < 1e-6 && fabs(hi - 1) < 1e-12);
}

/* ---- build-ids ---- */

static void test_buildid_mismatch(void **st)
{
	char err[EPI_ERRLEN];
	epi_map m = {.start = 0x1000, .len = 0x1000};
	phases_path(m.path, sizeof m.path);
	m.buildid_len = epi_read_buildid(m.path, m.buildid);
	assert_int_equal(m.buildid_len, 20);
	epi_attrib *a = epi_attrib_new(EPI_BY_FUNCTION, NULL, 0);
	assert_int_equal(epi_attrib_run(a, &m, 1, err), 0);
	m.buildid[0] ^= 1;
	assert_int_equal(epi_attrib_run(a, &m, 1, err), -1);
	assert_non_null(strstr(err, "another build of"));
	epi_attrib_free(a);
}

/* ---- a real profile against a meter that follows the program ---- */

static phase_page *page;

static double phase_energy(double now)
{
	for (;;) {
		uint64_t s0 = __atomic_load_n(&page->seq, __ATOMIC_SEQ_CST);
		double j = page->base_j + page->watts * (now - page->t_switch);
		if (!(s0 & 1) && __atomic_load_n(&page->seq, __ATOMIC_SEQ_CST) == s0)
			return j;
	}
}

/* E within 5% of the truth, which lies in [LO, HI] (one value when equal),
 * or, when INTERVAL, farther where its 95% interval (at most 25% of E
 * either way) says it may be: a run slowed by other work on the machine
 * samples unevenly; and (when INTERVAL) E's 95% interval meets [LO, HI]. */
static void within(const char *what, epi_est e, double a, double b, int interval)
{
	double lo = fmin(a, b), hi = fmax(a, b);
	double near = e.v < lo ? lo : e.v > hi ? hi : e.v;
	printf("# %-14s %10.5g  [%10.5g, %10.5g]  truth %10.5g", what, e.v, e.lo, e.hi, lo);
	if (hi > lo)
		printf(" to %.5g", hi);
	printf("  (%+.2f%%)\n", 100 * (e.v - near) / near);
	double slack = interval ? fmax(e.v - e.lo, e.hi - e.v) : 0;
	assert_true(fabs(e.v - near) <= 0.05 * near || (slack <= 0.25 * e.v && fabs(e.v - near) <= slack));
	if (interval)
		assert_true(e.lo <= hi && lo <= e.hi);
}

/* epi validate's comparison of tests/phases.c with the profile SUM: each
 * nest's row holds its block's estimate, the program's the runs' totals, and
 * a prediction priced as epi-predict prices it. */
static void check_validation(epi_profile_sum *sum, const int lines[2])
{
	char src[300], inc[310], tp[300], err[EPI_ERRLEN];
	const char *top = getenv("EPI_TOP") ? getenv("EPI_TOP") : ".";
	snprintf(src, sizeof src, "%s/tests/phases.c", top);
	snprintf(inc, sizeof inc, "-I%s", top);
	snprintf(tp, sizeof tp, "%s/data/rr8416-q6600.xml", top);
	const char *args[] = {inc};
	epi_front_opts fo;
	epi_front_opts_init(&fo);
	fo.clang_args = args;
	fo.nclang_args = 1;
	fo.tag_blocks = 1;
	epi_analysis a;
	assert_int_equal(epi_analyze(&a, src, &fo, err), 0);
	epi_front_opts_clear(&fo);
	epi_table t;
	assert_int_equal(epi_table_load(&t, tp, err), 0);
	epi_fcol col;
	assert_int_equal(epi_table_at(&t, 2400000, &col, err), 0);
	sym_env env;
	sym_env_init(&env);
	assert_int_equal(epi_bind_param(&a, &env, "n=120000", err), 0);
	epi_validation v;
	if (epi_validate_trace(&a, &col, &env, sum, NULL, &v, err) < 0)
		fail_msg("%s", err);
	int nb, seen = 0;
	epi_block *b = epi_attrib_blocks(sum->attrib, &nb);
	for (int i = 0; i < v.n; i++) {
		const epi_cmp *c = &v.rows[i];
		if (c->kind == EPI_CMP_PROGRAM) {
			assert_int_equal(i, v.n - 1);
			assert_true(c->samples == sum->n);
			assert_true(c->meas[EPI_Q_TIME].v == sum->t_mean);
			assert_true(c->meas[EPI_Q_ENERGY].v == sum->j_mean);
			assert_true(c->meas[EPI_Q_TIME].lo < sum->t_mean && c->meas[EPI_Q_TIME].hi > sum->t_mean);
			continue;
		}
		for (int k = 0; k < 2; k++)
			if (c->line == lines[k]) {
				seen++;
				const epi_block *x = NULL;
				for (int j = 0; j < nb; j++)
					if (b[j].kind == EPI_BLOCK_LOOP && b[j].line == lines[k])
						x = &b[j];
				assert_non_null(x);
				epi_block_est e;
				epi_block_estimate(sum, x, &e);
				assert_true(c->samples == x->n);
				assert_true(c->meas[EPI_Q_TIME].v == e.time.v && c->meas[EPI_Q_TIME].lo == e.time.lo);
				assert_true(c->meas[EPI_Q_ENERGY].v == e.energy.v && c->meas[EPI_Q_ENERGY].hi == e.energy.hi);
				assert_true(c->pred[EPI_Q_TIME] > 0 && !isnan(c->err[EPI_Q_TIME]));
			}
	}
	assert_int_equal(seen, 2);
	/* nest B runs twice A's iterations: twice its predicted time */
	double pa = NAN, pb = NAN;
	for (int i = 0; i < v.n; i++) {
		if (v.rows[i].line == lines[0])
			pa = v.rows[i].pred[EPI_Q_TIME];
		if (v.rows[i].line == lines[1])
			pb = v.rows[i].pred[EPI_Q_TIME];
	}
	assert_true(fabs(pb / pa - 2) < 1e-3);
	epi_validation_free(&v);
	sym_env_clear(&env);
	epi_fcol_free(&col);
	epi_table_free(&t);
	epi_analysis_free(&a);
}

/* The phase profile through sampler OPS; WALL: its times are wall-clock
 * (ptrace) rather than CPU time (perf). */
static void profile_phases(const epi_sampler_ops *ops, int wall)
{
	fake_root();
	fake_fuse zone;
	if (fake_fuse_zone(&zone, "intel-rapl:0", "package-0", 0, 1u << 30) < 0) {
		fake_root_free();
		printf("# FUSE cannot mount here: skipped\n");
		skip();
	}
	char pagef[300], prog[300], err[EPI_ERRLEN], scale[] = "120000";
	snprintf(pagef, sizeof pagef, "%s/page", dir);
	phases_path(prog, sizeof prog);
	int fd = open(pagef, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0 && ftruncate(fd, 4096) == 0);
	page = mmap(NULL, sizeof *page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	page->watts = PHASE_IDLE_W;
	page->t_switch = epi_now();
	fake_zone_energy = phase_energy;

	epi_meter m;
	assert_int_equal(epi_meter_open(&m, "powercap", NULL, err), 0);
	char *argv[] = {prog, pagef, scale, NULL};
	/* ptrace: time only. Its ticks read the meter themselves (ALEA's loop),
	 * and this fake meter is a FUSE daemon thread whose reads take 0.2-2 ms
	 * on these 2 CPUs next to the program and the tracer (a real powercap
	 * read is a kernel MSR read): ticks would be missed by the hundred. Its
	 * energy is tested end to end with a constant meter (tests/profile.sh). */
	epi_profile_opts o = {.argv = argv, .interval_ns = 1000000, .meter = wall ? NULL : &m, .seed = 7};
	epi_profile_sum sum = {.time_is_cpu = !wall};
	sum.info.meter_update_s = wall ? NAN : epi_meter_lag(&m);
	sum.info.interval_ns = o.interval_ns;
	sum.attrib = epi_attrib_new(EPI_BY_LOOP, NULL, 0);
	/* three runs: at most one sample per run straddles the switch into B */
	for (uint32_t r = 0; r < 3; r++) {
		epi_run_data run;
		if (epi_profile_run(ops, &o, r, &run, err) < 0)
			fail_msg("%s", err);
		assert_int_equal(run.end.status, 0);
		assert_true(run.ns > 100);
		assert_true(wall || run.nr > 10);
		assert_true(wall || !isnan(run.end.joules));
		assert_int_equal(epi_profile_add_run(&sum, run.maps, run.nmaps, run.s, run.ns, run.r, run.nr, &run.end, err), 0);
		epi_run_data_free(&run);
	}
	fake_zone_energy = NULL;
	fake_fuse_unmount(&zone);
	fake_root_free();
	assert_int_equal(page->runs, 3);

	int nb;
	epi_block *b = epi_attrib_blocks(sum.attrib, &nb);
	const double watts[2] = {PHASE_A_W, PHASE_B_W};
	for (int k = 0; k < 2; k++) {
		const epi_block *x = NULL;
		for (int i = 0; i < nb; i++)
			if (b[i].kind == EPI_BLOCK_LOOP && b[i].line == page->line[k])
				x = &b[i];
		if (!x)
			fail_msg("no block for the nest at phases.c:%d (%s)", page->line[k], epi_attrib_notes(sum.attrib));
		assert_string_equal(x->function, "main");
		epi_block_est e;
		epi_block_estimate(&sum, x, &e);
		double t = (wall ? page->wall[k] : page->cpu[k]) / 3;
		printf("# nest %c (phases.c:%d), %llu samples\n", 'A' + k, x->line, (unsigned long long)x->n);
		within("time s", e.time, t, t, 1);
		if (wall)
			continue;
		/* the meter charges the nest's wall time, the samples count its CPU
		 * time: the same on an idle machine, but where the nest waited for
		 * a CPU the energy of its streaks lies between the two */
		within("energy J", e.energy, watts[k] * t, watts[k] * page->wall[k] / 3, 1);
		/* power over the nest's streaks, its interval widened by the
		 * readings' timing (this FUSE meter's reads take 0.05-4 ms) */
		within("power W", e.power, watts[k], watts[k], 1);
	}
	if (wall)
		goto done;
	/* the whole run's measured energy is what the page says was spent, nearly all in the nests */
	double nests_j = (PHASE_A_W * page->wall[0] + PHASE_B_W * page->wall[1]) / 3;
	printf("# measured %.4g J per run, the nests %.4g J\n", sum.j_mean, nests_j);
	assert_true(sum.j_mean >= nests_j * 0.99 && sum.j_mean <= nests_j * 1.10);
	check_validation(&sum, page->line);
done:
	epi_profile_sum_free(&sum);
	epi_meter_close(&m);
	munmap(page, sizeof *page);
}

static void test_profile_phases(void **st) { profile_phases(&epi_sampler_perf, 0); }

/* ALEA's own sampler: every thread interrupted at each tick, wall-clock time */
static void test_profile_phases_ptrace(void **st) { profile_phases(&epi_sampler_ptrace, 1); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_maps_in_order),
		cmocka_unit_test_setup_teardown(test_trace_round_trip, setup, teardown),
		cmocka_unit_test(test_trace_v1),
		cmocka_unit_test_setup_teardown(test_trace_clock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_runs_spread, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trace_truncated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trace_corrupt, setup, teardown),
		cmocka_unit_test(test_assign_power),
		cmocka_unit_test(test_wilson),
		cmocka_unit_test(test_buildid_mismatch),
		cmocka_unit_test_setup_teardown(test_profile_phases, setup, teardown),
		cmocka_unit_test_setup_teardown(test_profile_phases_ptrace, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
