/* The meters against fake machines: a powercap tree whose counters wrap
 * several times per run, an amd_energy hwmon tree, RAPL MSRs served by a
 * FUSE file as the kernel's msr device serves them, and a pseudo-terminal
 * that speaks the WattsUp? Pro protocol. Each must measure the known
 * power within 1%. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
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

#include "machine/meter.h"
#include "machine/sysroot.h"
#include "model/util.h"
#include "tests/fakehw.h"

static int teardown(void **st)
{
	fake_root_free();
	return 0;
}

static void poll_or_fail(void *m)
{
	char err[EPI_ERRLEN];
	if (epi_meter_poll(m, err) < 0)
		fail_msg("poll: %s", err);
}

/* Polls M at its safe period for SECONDS; returns the window length. With
 * FP (counters in files), each reading follows a fresh write, and the
 * window is measured on the fake's own clock: the moments the first and
 * last values read belong to. */
static double measure(epi_meter *m, fake_power *fp, double seconds)
{
	epi_meter_reset(m);
	double end = epi_now() + seconds, period = epi_meter_period(m), t0 = 0, t1 = 0;
	if (period > 0.05)
		period = 0.05;
	for (int last = 0; !last;) {
		last = epi_now() >= end;
		if (fp)
			t1 = fake_power_read(fp, poll_or_fail, m);
		else
			poll_or_fail(m);
		if (t0 == 0)
			t0 = t1;
		if (!last)
			usleep((useconds_t)(period * 1e6));
	}
	return fp ? t1 - t0 : m->t_last - m->t_first;
}

static epi_domain *dom(epi_meter *m, const char *name)
{
	for (int i = 0; i < m->ndom; i++)
		if (strcmp(m->dom[i].name, name) == 0)
			return &m->dom[i];
	fail_msg("no domain '%s'", name);
	return NULL;
}

static void assert_watts(epi_domain *d, double window, double want)
{
	double w = d->total / window;
	if (fabs(w - want) > 0.01 * want)
		fail_msg("%s: %.4f W measured, %.4f W true (%.2f%% off)", d->name, w, want, 100 * (w - want) / want);
}

/* ---- powercap ---------------------------------------------------------- */

static void test_powercap_wraps(void **st)
{
	fake_root();
	fake_cpu("GenuineIntel", 6, 0x55);
	fake_power fp = {0};
	/* package wraps every 0.4 s at 40 W; psys every 0.5 s */
	fake_zone(&fp, "intel-rapl:0", "package-0", 40, 16000000, 80);
	fake_zone(&fp, "intel-rapl:0:0", "core", 25, 16000000, 80);
	fake_zone(&fp, "intel-rapl:0:1", "dram", 5, 4000000, 20);
	fake_zone(&fp, "intel-rapl:1", "psys", 60, 30000000, 120);
	/* the same package through MMIO: must not be counted again */
	fake_zone(&fp, "intel-rapl-mmio:0", "package-0", 40, 16000000, 80);
	fake_power_start(&fp);
	epi_meter m;
	char err[EPI_ERRLEN], why[EPI_WHYLEN];
	if (epi_meter_open(&m, "auto", why, err) < 0)
		fail_msg("auto: %s", err);
	assert_string_equal(m.ops->name, "powercap");
	assert_non_null(strstr(why, "powercap: chosen"));
	assert_int_equal(m.ndom, 4);
	/* fastest wrap: dram, 4 J at 20 W stated: poll every 0.1 s at most */
	assert_true(epi_meter_period(&m) <= 0.1 + 1e-6);
	double win = measure(&m, &fp, 1.2);
	fake_power_stop(&fp);
	assert_watts(dom(&m, "package-0"), win, 40);
	assert_watts(dom(&m, "package-0/core"), win, 25);
	assert_watts(dom(&m, "package-0/dram"), win, 5);
	assert_watts(dom(&m, "psys"), win, 60);
	assert_true(dom(&m, "package-0")->in_total);
	assert_true(dom(&m, "package-0/dram")->in_total);
	assert_false(dom(&m, "psys")->in_total);
	assert_false(dom(&m, "package-0/core")->in_total);
	epi_meter_close(&m);
}

static void test_powercap_missing(void **st)
{
	fake_root();
	fake_cpu("GenuineIntel", 6, 0x55);
	epi_meter m;
	char err[EPI_ERRLEN], why[EPI_WHYLEN];
	assert_int_equal(epi_meter_open(&m, "powercap", NULL, err), -1);
	assert_non_null(strstr(err, "does not exist"));
	/* auto falls back to time only and says why for every meter */
	assert_int_equal(epi_meter_open(&m, "auto", why, err), 0);
	assert_string_equal(m.ops->name, "none");
	assert_non_null(strstr(why, "powercap: no RAPL"));
	assert_non_null(strstr(why, "msr: "));
	assert_non_null(strstr(why, "perf: no perf `power` PMU"));
	assert_non_null(strstr(why, "none: chosen"));
	epi_meter_close(&m);
	assert_int_equal(epi_meter_open(&m, "bogus", NULL, err), -1);
	assert_non_null(strstr(err, "unknown meter 'bogus'"));
	assert_int_equal(epi_meter_open(&m, "const:abc", NULL, err), -1);
	assert_non_null(strstr(err, "not a power in watts"));
}

static void test_const(void **st)
{
	epi_meter m;
	char err[EPI_ERRLEN];
	assert_int_equal(epi_meter_open(&m, "const:65", NULL, err), 0);
	double win = measure(&m, NULL, 0.3);
	assert_true(m.dom[0].estimated);
	assert_watts(&m.dom[0], win, 65);
	epi_meter_close(&m);
}

/* ---- hwmon amd_energy -------------------------------------------------- */

static void test_hwmon_amd_energy(void **st)
{
	fake_root();
	fake_cpu("AuthenticAMD", 25, 1);
	fake_put("/sys/class/hwmon/hwmon3/name", "amd_energy\n");
	fake_put("/sys/class/hwmon/hwmon3/energy1_label", "Ecore000\n");
	fake_put("/sys/class/hwmon/hwmon3/energy2_label", "Ecore001\n");
	fake_put("/sys/class/hwmon/hwmon3/energy3_label", "Esocket0\n");
	fake_put("/sys/class/hwmon/hwmon1/name", "k10temp\n");
	fake_power fp = {.n = 3};
	const double w[] = {7, 9, 85};
	for (int i = 0; i < 3; i++) {
		snprintf(fp.c[i].rel, sizeof fp.c[i].rel, "/sys/class/hwmon/hwmon3/energy%d_input", i + 1);
		fp.c[i].watts = w[i];
		fp.c[i].scale = 1e6;
		fp.c[i].start = 123456789;
	}
	fake_power_start(&fp);
	epi_meter m;
	char err[EPI_ERRLEN];
	if (epi_meter_open(&m, "hwmon", NULL, err) < 0)
		fail_msg("hwmon: %s", err);
	double win = measure(&m, &fp, 0.8);
	fake_power_stop(&fp);
	assert_watts(dom(&m, "socket-0"), win, 85);
	assert_watts(dom(&m, "cores"), win, 16);
	assert_false(dom(&m, "cores")->in_total);
	epi_meter_close(&m);
}

/* ---- hwmon ACPI power_meter -------------------------------------------- */

static void poll_timed(epi_meter *m, double *t)
{
	double a = epi_now();
	poll_or_fail(m);
	*t = (a + epi_now()) / 2;
}

static void test_hwmon_power_meter(void **st)
{
	fake_root();
	fake_cpu("GenuineIntel", 6, 0x55);
	fake_put("/sys/class/hwmon/hwmon0/name", "power_meter\n");
	fake_put("/sys/class/hwmon/hwmon0/power1_average", "182500000\n");
	fake_put("/sys/class/hwmon/hwmon0/power1_average_interval", "250\n");
	epi_meter m;
	char err[EPI_ERRLEN];
	if (epi_meter_open(&m, "hwmon", NULL, err) < 0)
		fail_msg("hwmon: %s", err);
	epi_domain *d = dom(&m, "system");
	assert_true(d->in_total);
	assert_true(fabs(d->interval_s - 0.25) < 1e-9);
	/* 182.5 W, then the mean over the next interval reads 95 W: each
	 * reading prices the time since the previous one */
	double t0, t1, t2;
	epi_meter_reset(&m);
	poll_timed(&m, &t0);
	usleep(200000);
	poll_timed(&m, &t1);
	fake_put("/sys/class/hwmon/hwmon0/power1_average", "95000000\n");
	usleep(300000);
	poll_timed(&m, &t2);
	double want = 182.5 * (t1 - t0) + 95 * (t2 - t1);
	if (fabs(d->total - want) > 0.01 * want)
		fail_msg("power_meter: %.4f J measured, %.4f J true", d->total, want);
	epi_meter_close(&m);
}

/* ---- msr through FUSE -------------------------------------------------- */

static struct {
	int amd;
	double t0;
	int reads;
} msr_dev;

static int msr_value(off_t reg, uint64_t *v)
{
	double t = epi_now() - msr_dev.t0;
	/* counters start 0.3 s before their 32-bit wrap */
	double unit;
	double watts;
	if (!msr_dev.amd) {
		switch (reg) {
		case 0x606: *v = 0xA0E03; return 0; /* energy unit 2^-14 J */
		case 0x611: watts = 40; unit = 1.0 / 16384; break;
		case 0x639: watts = 25; unit = 1.0 / 16384; break;
		case 0x619: watts = 6; unit = 1.0 / 65536; break; /* server DRAM unit */
		case 0x64D: watts = 70; unit = 1.0 / 16384; break;
		default: return -EIO;
		}
	} else {
		switch (reg) {
		case 0xC0010299: *v = 0xA1003; return 0; /* 2^-16 J */
		case 0xC001029A: watts = 8; unit = 1.0 / 65536; break;
		case 0xC001029B: watts = 55; unit = 1.0 / 65536; break;
		default: return -EIO;
		}
	}
	uint64_t start = 4294967296ULL - (uint64_t)(0.3 * watts / unit);
	*v = (start + (uint64_t)(watts * t / unit)) & 0xffffffffULL;
	*v |= 0x1234ULL << 32; /* high bits the counter must ignore */
	return 0;
}

static int m_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	memset(st, 0, sizeof *st);
	if (strcmp(path, "/") == 0) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path, "/msr") == 0) {
		st->st_mode = S_IFREG | 0600;
		st->st_nlink = 1;
		st->st_size = 1LL << 40;
		return 0;
	}
	return -ENOENT;
}

static int m_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, "/msr") != 0)
		return -ENOENT;
	fi->direct_io = 1; /* every pread reaches us with its own offset */
	return 0;
}

static int m_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	if (size != 8)
		return -EINVAL;
	uint64_t v;
	int r = msr_value(off, &v);
	if (r < 0)
		return r;
	memcpy(buf, &v, 8);
	msr_dev.reads++;
	return 8;
}

static const struct fuse_operations msr_ops = {.getattr = m_getattr, .open = m_open, .read = m_read};

static void run_msr(int amd)
{
	fake_root();
	if (amd)
		fake_cpu("AuthenticAMD", 25, 1);
	else
		fake_cpu("GenuineIntel", 6, 0x55); /* Skylake-SP: DRAM in 2^-16 J */
	fake_put("/sys/devices/system/cpu/cpu1/topology/physical_package_id", "0\n");
	msr_dev.amd = amd;
	msr_dev.t0 = epi_now();
	msr_dev.reads = 0;
	fake_fuse d;
	if (fake_fuse_mount(&d, "/dev/cpu/0", &msr_ops) < 0) {
		fake_root_free();
		printf("# FUSE cannot mount here (needs /dev/fuse and CAP_SYS_ADMIN): msr test skipped\n");
		skip();
	}
	epi_meter m;
	char err[EPI_ERRLEN];
	int r = epi_meter_open(&m, "msr", NULL, err);
	if (r < 0) {
		fake_fuse_unmount(&d);
		fail_msg("msr: %s", err);
	}
	double win = measure(&m, NULL, 0.8); /* crosses every counter's wrap at 0.3 s */
	if (amd) {
		assert_int_equal(m.ndom, 2);
		assert_watts(dom(&m, "package-0"), win, 55);
		assert_watts(dom(&m, "package-0/core"), win, 8);
		assert_string_equal(dom(&m, "package-0/core")->scope, "one core");
	} else {
		assert_int_equal(m.ndom, 4); /* no PP1 (0x641): EIO, skipped */
		assert_watts(dom(&m, "package-0"), win, 40);
		assert_watts(dom(&m, "package-0/core"), win, 25);
		assert_watts(dom(&m, "package-0/dram"), win, 6);
		assert_watts(dom(&m, "package-0/psys"), win, 70);
	}
	assert_true(msr_dev.reads > 10);
	epi_meter_close(&m);
	fake_fuse_unmount(&d);
}

static void test_msr_intel(void **st) { run_msr(0); }
static void test_msr_amd(void **st) { run_msr(1); }

static void test_msr_unsupported(void **st)
{
	fake_root();
	fake_cpu("CentaurHauls", 6, 15);
	epi_meter m;
	char err[EPI_ERRLEN];
	assert_int_equal(epi_meter_open(&m, "msr", NULL, err), -1);
	assert_non_null(strstr(err, "unsupported CPU"));
}

/* ---- WattsUp? Pro on a pseudo-terminal --------------------------------- */

typedef struct wu_emu {
	int master;
	int mode;          /* 0 good, 1 silent (not a WattsUp), 2 bad records first, 3 unplug */
	double watts;
	volatile int stop;
	int log_cmds;      /* #L commands seen */
	pthread_t th;
	char slave[128];
} wu_emu;

static void wu_write(wu_emu *e, const char *s)
{
	ssize_t w = write(e->master, s, strlen(s));
	(void)w;
}

static void *wu_thread(void *arg)
{
	wu_emu *e = arg;
	char in[512];
	size_t len = 0;
	int logging = 0, sent = 0;
	double next = 0, t_log = 0;
	while (!e->stop) {
		struct pollfd pf = {.fd = e->master, .events = POLLIN};
		if (poll(&pf, 1, 10) > 0 && (pf.revents & POLLIN)) {
			ssize_t r = read(e->master, in + len, sizeof in - 1 - len);
			if (r > 0) {
				len += (size_t)r;
				in[len] = 0;
				char *semi;
				while ((semi = strchr(in, ';'))) {
					*semi = 0;
					char *cmd = strchr(in, '#');
					if (cmd && strcmp(cmd, "#V,R,0") == 0 && e->mode != 1)
						wu_write(e, "#v,-,6,Pro,1.0,115200,0;\r\n");
					if (cmd && strncmp(cmd, "#L,W,3,E,", 9) == 0) {
						e->log_cmds++;
						logging = 1;
						t_log = epi_now();
						next = t_log + 0.05;
					}
					len -= (size_t)(semi + 1 - in);
					memmove(in, semi + 1, len + 1);
				}
			}
		}
		if (!logging || epi_now() < next)
			continue;
		next += 0.1;
		if (e->mode == 3 && epi_now() - t_log > 0.5) {
			close(e->master); /* unplugged */
			e->master = -1;
			return NULL;
		}
		if (e->mode == 2 && e->log_cmds == 1) {
			wu_write(e, "#d,-,18,12x4,1200,1028;\r\n"); /* bad until logging restarts */
			continue;
		}
		char rec[128];
		snprintf(rec, sizeof rec, "#d,-,18,%ld,2301,5362,0,0,0,0,0,0,0,0,0,0,0,0,0,0;\r\n", lround(e->watts * 10));
		if (sent % 3 == 1) {
			/* split across two reads */
			size_t half = strlen(rec) / 2;
			ssize_t w = write(e->master, rec, half);
			(void)w;
			usleep(3000);
			wu_write(e, rec + half);
		} else if (sent % 4 == 2) {
			wu_write(e, "\r\nnoise!!");
			wu_write(e, rec);
		} else {
			wu_write(e, rec);
		}
		sent++;
	}
	return NULL;
}

static void wu_start(wu_emu *e, int mode, double watts)
{
	memset(e, 0, sizeof *e);
	e->mode = mode;
	e->watts = watts;
	e->master = posix_openpt(O_RDWR | O_NOCTTY);
	assert_true(e->master >= 0);
	assert_int_equal(grantpt(e->master), 0);
	assert_int_equal(unlockpt(e->master), 0);
	snprintf(e->slave, sizeof e->slave, "%s", ptsname(e->master));
	pthread_create(&e->th, NULL, wu_thread, e);
}

static void wu_stop(wu_emu *e)
{
	e->stop = 1;
	pthread_join(e->th, NULL);
	if (e->master >= 0)
		close(e->master);
}

/* Starts an emulator in MODE at WATTS and opens the meter on it. */
static void wu_open(wu_emu *e, int mode, double watts, epi_meter *m)
{
	wu_start(e, mode, watts);
	char err[EPI_ERRLEN], spec[160];
	snprintf(spec, sizeof spec, "wattsup:%s", e->slave);
	if (epi_meter_open(m, spec, NULL, err) < 0) {
		wu_stop(e);
		fail_msg("wattsup: %s", err);
	}
}

static void test_wattsup(void **st)
{
	wu_emu e;
	epi_meter m;
	wu_open(&e, 0, 123.4, &m);
	double win = measure(&m, NULL, 1.0);
	assert_watts(dom(&m, "wall"), win, 123.4);
	epi_meter_close(&m);
	wu_stop(&e);
	assert_int_equal(e.log_cmds, 1);
}

static void test_wattsup_restarts_logging(void **st)
{
	wu_emu e;
	epi_meter m;
	wu_open(&e, 2, 61.5, &m);
	double win = measure(&m, NULL, 0.6);
	assert_watts(dom(&m, "wall"), win, 61.5);
	epi_meter_close(&m);
	wu_stop(&e);
	assert_true(e.log_cmds >= 2);
}

static void test_wattsup_not_a_meter(void **st)
{
	wu_emu e;
	wu_start(&e, 1, 0);
	setenv("EPI_WATTSUP_TIMEOUT", "0.5", 1);
	epi_meter m;
	char err[EPI_ERRLEN], spec[160];
	snprintf(spec, sizeof spec, "wattsup:%s", e.slave);
	assert_int_equal(epi_meter_open(&m, spec, NULL, err), -1);
	unsetenv("EPI_WATTSUP_TIMEOUT");
	wu_stop(&e);
	assert_non_null(strstr(err, "is not a WattsUp? Pro: no reply to #V,R,0;"));
	assert_int_equal(epi_meter_open(&m, "wattsup:/dev/null", NULL, err), -1);
	assert_non_null(strstr(err, "not a serial device"));
}

static void test_wattsup_unplugged(void **st)
{
	wu_emu e;
	epi_meter m;
	char err[EPI_ERRLEN];
	wu_open(&e, 3, 80, &m);
	int failed = 0;
	for (int i = 0; i < 100 && !failed; i++) {
		failed = epi_meter_poll(&m, err) < 0;
		usleep(20000);
	}
	assert_true(failed);
	assert_non_null(strstr(err, "stopped answering"));
	epi_meter_close(&m);
	wu_stop(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_powercap_wraps, teardown),
		cmocka_unit_test_teardown(test_powercap_missing, teardown),
		cmocka_unit_test(test_const),
		cmocka_unit_test_teardown(test_hwmon_amd_energy, teardown),
		cmocka_unit_test_teardown(test_hwmon_power_meter, teardown),
		cmocka_unit_test_teardown(test_msr_intel, teardown),
		cmocka_unit_test_teardown(test_msr_amd, teardown),
		cmocka_unit_test_teardown(test_msr_unsupported, teardown),
		cmocka_unit_test(test_wattsup),
		cmocka_unit_test(test_wattsup_restarts_logging),
		cmocka_unit_test(test_wattsup_not_a_meter),
		cmocka_unit_test(test_wattsup_unplugged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
