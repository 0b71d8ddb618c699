/* Frequency control against fake cpufreq trees: acpi-cpufreq with the
 * userspace governor, and intel_pstate in active mode (min = max). Every
 * change must be saved before it is made and undone by the restore. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "machine/cpufreq.h"
#include "machine/sysroot.h"
#include "model/util.h"
#include "tests/fakehw.h"

static char statedir[256];

static int setup(void **st)
{
	fake_root();
	fake_cpu("GenuineIntel", 6, 0x55);
	snprintf(statedir, sizeof statedir, "%s/state", epi_sysroot());
	setenv("EPI_STATE_DIR", statedir, 1);
	return 0;
}

static int teardown(void **st)
{
	unsetenv("EPI_STATE_DIR");
	fake_root_free();
	return 0;
}

static void get(int id, const char *file, char *out)
{
	char path[EPI_PATHLEN], err[EPI_ERRLEN];
	epi_syspath(path, "/sys/devices/system/cpu/cpufreq/policy%d/%s", id, file);
	if (epi_read_line(path, out, 256, err) < 0)
		fail_msg("%s", err);
}

static void pstate_tree(void)
{
	fake_policy(0, "affected_cpus", "0");
	fake_policy(0, "scaling_driver", "intel_pstate");
	fake_policy(0, "scaling_governor", "powersave");
	fake_policy(0, "scaling_available_governors", "performance powersave");
	fake_policy(0, "cpuinfo_min_freq", "800000");
	fake_policy(0, "cpuinfo_max_freq", "3900000");
	fake_policy(0, "scaling_min_freq", "800000");
	fake_policy(0, "scaling_max_freq", "3900000");
	fake_policy(0, "scaling_cur_freq", "1200000");
	fake_put("/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
}

static void test_scan(void **st)
{
	fake_acpi_tree();
	epi_cpufreq c;
	char err[EPI_ERRLEN];
	assert_int_equal(epi_cpufreq_scan(&c, 0, err), 0);
	assert_int_equal(c.npol, 2);
	assert_true(c.pol[0].table && c.pol[0].userspace);
	assert_int_equal(c.pol[0].nfreq, 4);
	assert_int_equal(c.pol[0].freq[0], 1600000);
	assert_int_equal(c.pol[0].freq[3], 2400000);
	assert_true(c.boost_on);
}

static void test_userspace_pin_restore(void **st)
{
	fake_acpi_tree();
	epi_cpufreq c;
	char err[EPI_ERRLEN], v[256], state[EPI_PATHLEN];
	assert_int_equal(epi_cpufreq_scan(&c, 0, err), 0);
	int cpus[] = {1};
	if (epi_freq_pin(&c, cpus, 1, 1800000, 1, err) < 0)
		fail_msg("%s", err);
	get(1, "scaling_governor", v);
	assert_string_equal(v, "userspace");
	get(1, "scaling_setspeed", v);
	assert_string_equal(v, "1800000");
	get(0, "scaling_governor", v); /* not asked for: untouched */
	assert_string_equal(v, "schedutil");
	char path[EPI_PATHLEN];
	epi_read_line(epi_syspath(path, "/sys/devices/system/cpu/cpufreq/boost"), v, 16, err);
	assert_string_equal(v, "0");
	/* the state file holds the old values before anything else happens */
	assert_int_equal(epi_freq_state_path(state, sizeof state, err), 0);
	assert_true(epi_exists(state));
	assert_int_equal(epi_freq_restore(err), 1);
	get(1, "scaling_governor", v);
	assert_string_equal(v, "schedutil");
	epi_read_line(path, v, 16, err);
	assert_string_equal(v, "1");
	assert_false(epi_exists(state));
}

static void test_minmax_pin_restore(void **st)
{
	pstate_tree();
	epi_cpufreq c;
	char err[EPI_ERRLEN], v[256];
	assert_int_equal(epi_cpufreq_scan(&c, 100000, err), 0);
	assert_false(c.pol[0].table || c.pol[0].userspace);
	assert_int_equal(c.pol[0].freq[0], 800000);
	assert_int_equal(c.pol[0].freq[1], 900000);
	assert_int_equal(c.pol[0].freq[c.pol[0].nfreq - 1], 3900000);
	if (epi_freq_pin(&c, NULL, 0, 2400000, 1, err) < 0)
		fail_msg("%s", err);
	get(0, "scaling_min_freq", v);
	assert_string_equal(v, "2400000");
	get(0, "scaling_max_freq", v);
	assert_string_equal(v, "2400000");
	get(0, "scaling_governor", v);
	assert_string_equal(v, "powersave");
	char path[EPI_PATHLEN];
	epi_read_line(epi_syspath(path, "/sys/devices/system/cpu/intel_pstate/no_turbo"), v, 16, err);
	assert_string_equal(v, "1");
	/* a crash: the plan in memory is lost, the state file is not */
	epi_freq_keep();
	assert_int_equal(epi_freq_restore(err), 1);
	get(0, "scaling_min_freq", v);
	assert_string_equal(v, "800000");
	get(0, "scaling_max_freq", v);
	assert_string_equal(v, "3900000");
	epi_read_line(path, v, 16, err);
	assert_string_equal(v, "0");
	assert_int_equal(epi_freq_restore(err), 0); /* nothing left */
}

/* ---- every restore writes whole values ---------------------------------- */

enum restore_way { IN_PROCESS, AT_EXIT, ON_SIGNAL, FROM_STATE };

/* Pins CPU 0 to KHZ and gives it back the WAY asked: in this process, or
 * in a child that exits or dies of SIGTERM while pinned, or from the
 * state file a killed run left. */
static void pin_and_restore(long long khz, enum restore_way way)
{
	epi_cpufreq c;
	char err[EPI_ERRLEN];
	assert_int_equal(epi_cpufreq_scan(&c, 100000, err), 0);
	int cpus[] = {0};
	if (way == AT_EXIT || way == ON_SIGNAL) {
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			if (epi_freq_pin(&c, cpus, 1, khz, 1, err) < 0)
				_exit(3);
			if (way == ON_SIGNAL)
				raise(SIGTERM);
			exit(0);
		}
		int status;
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(way == AT_EXIT ? WIFEXITED(status) && WEXITSTATUS(status) != 3
					   : WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
		return;
	}
	if (epi_freq_pin(&c, cpus, 1, khz, 1, err) < 0)
		fail_msg("%s", err);
	if (way == FROM_STATE)
		epi_freq_keep();
	assert_int_equal(epi_freq_restore(err), 1);
}

/* A saved value shorter than the pinned one (800000 under 2400000, a
 * governor's name under "userspace") must read back whole, whichever way
 * it is restored: a fake tree's files are plain files, which keep what a
 * write does not cover. For acpi-cpufreq (the userspace governor),
 * intel_pstate and amd-pstate (min = max). */
static void test_restore_shorter_values(void **st)
{
	static const char *const drivers[] = {"acpi-cpufreq", "intel_pstate", "amd-pstate-epp"};
	for (int d = 0; d < 3; d++)
		for (enum restore_way way = IN_PROCESS; way <= FROM_STATE; way++) {
			char v[256];
			if (d == 0) {
				fake_acpi_tree();
				fake_policy(0, "scaling_governor", "ondemand");
			} else {
				pstate_tree();
				fake_policy(0, "scaling_driver", drivers[d]);
			}
			pin_and_restore(2400000, way);
			if (d == 0) {
				get(0, "scaling_governor", v);
				assert_string_equal(v, "ondemand");
			} else {
				get(0, "scaling_min_freq", v);
				assert_string_equal(v, "800000");
				get(0, "scaling_max_freq", v);
				assert_string_equal(v, "3900000");
			}
			char state[EPI_PATHLEN];
			assert_false(epi_freq_state_peek(state, sizeof state));
		}
}

/* ---- the state file: private, locked, replayed only for what epi saves --- */

static void put_state(const char *text)
{
	char path[EPI_PATHLEN], err[EPI_ERRLEN];
	assert_int_equal(epi_freq_state_path(path, sizeof path, err), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(path, 0600);
}

/* The state file is its owner's alone (0600); a state file naming a path
 * or a value epi never saves is refused whole, with its line, and kept. */
static void test_state_file_checked(void **st)
{
	pstate_tree();
	epi_cpufreq c;
	char err[EPI_ERRLEN], v[256], state[EPI_PATHLEN], path[EPI_PATHLEN];
	assert_int_equal(epi_cpufreq_scan(&c, 100000, err), 0);
	if (epi_freq_pin(&c, NULL, 0, 2400000, 0, err) < 0)
		fail_msg("%s", err);
	assert_int_equal(epi_freq_state_path(state, sizeof state, err), 0);
	struct stat sb;
	assert_int_equal(stat(state, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	assert_int_equal(epi_freq_restore(err), 1);

	/* a planted line: another file, however the path is spelled */
	fake_put("/etc/motd", "hello\n");
	const char *planted[] = {"%s/etc/motd\tx\n", "%s/sys/devices/system/cpu/../../../etc/motd\tx\n",
				 "%s/sys/devices/system/cpu/cpufreq/policy0/../../../../../etc/motd\tx\n",
				 "%s/sys/devices/system/cpu/cpufreq/policy0/energy_performance_preference\tx\n"};
	for (size_t i = 0; i < sizeof planted / sizeof *planted; i++) {
		char text[2 * EPI_PATHLEN];
		snprintf(text, sizeof text, "# epi cpufreq state 1\n%s/sys/devices/system/cpu/cpufreq/policy0/"
			 "scaling_min_freq\t900000\n", epi_sysroot());
		size_t l = strlen(text);
		snprintf(text + l, sizeof text - l, planted[i], epi_sysroot());
		put_state(text);
		assert_int_equal(epi_freq_restore(err), -1);
		assert_non_null(strstr(err, "line 3"));
		assert_non_null(strstr(err, "nothing restored"));
		assert_null(strchr(err, '\n'));
		epi_read_line(epi_syspath(path, "/etc/motd"), v, sizeof v, err);
		assert_string_equal(v, "hello");
		get(0, "scaling_min_freq", v);
		assert_string_equal(v, "800000"); /* the good line before it not written either */
		assert_true(epi_exists(state));
	}
	/* a value no policy has */
	char text[2 * EPI_PATHLEN];
	snprintf(text, sizeof text, "%s/sys/devices/system/cpu/cpufreq/policy0/scaling_min_freq\t9000000 2\n",
		 epi_sysroot());
	put_state(text);
	assert_int_equal(epi_freq_restore(err), -1);
	assert_non_null(strstr(err, "line 1: the value of"));
	/* what epi saves goes back */
	snprintf(text, sizeof text, "%s/sys/devices/system/cpu/cpufreq/policy0/scaling_min_freq\t900000\n"
		 "%s/sys/devices/system/cpu/intel_pstate/no_turbo\t1\n", epi_sysroot(), epi_sysroot());
	put_state(text);
	assert_int_equal(epi_freq_restore(err), 1);
	get(0, "scaling_min_freq", v);
	assert_string_equal(v, "900000");
	assert_false(epi_exists(state));
}

/* Where the state is kept: a folder others may write, or someone else's,
 * is refused before anything changes; so is a state file others may
 * write. */
static void test_state_folder_owned(void **st)
{
	pstate_tree();
	epi_cpufreq c;
	char err[EPI_ERRLEN], v[256];
	assert_int_equal(epi_cpufreq_scan(&c, 100000, err), 0);
	mkdir(statedir, 0755);
	chmod(statedir, 0777);
	assert_int_equal(epi_freq_pin(&c, NULL, 0, 2400000, 0, err), -1);
	assert_non_null(strstr(err, "may be written by others"));
	get(0, "scaling_min_freq", v);
	assert_string_equal(v, "800000");
	chmod(statedir, 0755);
	if (geteuid() == 0) {
		assert_int_equal(chown(statedir, 65534, 65534), 0);
		assert_int_equal(epi_freq_pin(&c, NULL, 0, 2400000, 0, err), -1);
		assert_non_null(strstr(err, "belongs to uid 65534"));
		assert_int_equal(chown(statedir, 0, 0), 0);
	}
	char text[EPI_PATHLEN + 64], state[EPI_PATHLEN];
	snprintf(text, sizeof text, "%s/sys/devices/system/cpu/cpufreq/policy0/scaling_min_freq\t900000\n",
		 epi_sysroot());
	put_state(text);
	assert_int_equal(epi_freq_state_path(state, sizeof state, err), 0);
	chmod(state, 0666);
	assert_int_equal(epi_freq_restore(err), -1);
	assert_non_null(strstr(err, "may be written by others"));
	get(0, "scaling_min_freq", v);
	assert_string_equal(v, "800000");
}

/* Two processes pinning at once: the second is refused with the first's
 * pid, and so is a restore meanwhile; once the first is done, the second
 * pins. */
static void test_state_locked(void **st)
{
	pstate_tree();
	epi_cpufreq c;
	char err[EPI_ERRLEN];
	assert_int_equal(epi_cpufreq_scan(&c, 100000, err), 0);
	int ready[2], go[2];
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char b = epi_freq_pin(&c, NULL, 0, 2400000, 0, err) == 0 ? 'y' : 'n';
		if (write(ready[1], &b, 1) != 1 || read(go[0], &b, 1) != 1)
			_exit(2);
		exit(0); /* the restore at exit */
	}
	char b = 0;
	assert_int_equal(read(ready[0], &b, 1), 1);
	assert_int_equal(b, 'y');
	char want[64];
	snprintf(want, sizeof want, "another epi (pid %ld)", (long)pid);
	assert_int_equal(epi_freq_pin(&c, NULL, 0, 1200000, 0, err), -1);
	assert_non_null(strstr(err, want));
	assert_int_equal(epi_freq_restore(err), -1);
	assert_non_null(strstr(err, want));
	char v[256];
	get(0, "scaling_min_freq", v);
	assert_string_equal(v, "2400000");
	assert_int_equal(write(go[1], "g", 1), 1);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	get(0, "scaling_min_freq", v);
	assert_string_equal(v, "800000");
	if (epi_freq_pin(&c, NULL, 0, 1200000, 0, err) < 0)
		fail_msg("%s", err);
	assert_int_equal(epi_freq_restore(err), 1);
	for (int i = 0; i < 2; i++) {
		close(ready[i]);
		close(go[i]);
	}
}

/* ---- a policy that refuses min > max, as the kernel's cpufreq does -------- */

static struct {
	long min, max;
	int refused;
	char log[256]; /* the writes, in order: "max=2400000 min=2400000 " */
} strict;

static int strict_text(const char *name, char *out, size_t n)
{
	static const char *fixed[][2] = {{"affected_cpus", "0"},
					 {"scaling_driver", "intel_pstate"},
					 {"scaling_governor", "powersave"},
					 {"scaling_available_governors", "performance powersave"},
					 {"cpuinfo_min_freq", "800000"},
					 {"cpuinfo_max_freq", "3900000"}};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		if (strcmp(name, fixed[i][0]) == 0)
			return snprintf(out, n, "%s\n", fixed[i][1]);
	if (strcmp(name, "scaling_min_freq") == 0)
		return snprintf(out, n, "%ld\n", strict.min);
	if (strcmp(name, "scaling_max_freq") == 0 || strcmp(name, "scaling_cur_freq") == 0)
		return snprintf(out, n, "%ld\n", strict.max);
	return -ENOENT;
}

static int strict_write(const char *path, const char *v)
{
	long khz = strtol(v, NULL, 10);
	int is_min = strcmp(path, "/scaling_min_freq") == 0, is_max = strcmp(path, "/scaling_max_freq") == 0;
	if (!is_min && !is_max)
		return -EACCES;
	if ((is_min && khz > strict.max) || (is_max && khz < strict.min)) {
		strict.refused++;
		return -EINVAL;
	}
	*(is_min ? &strict.min : &strict.max) = khz;
	size_t l = strlen(strict.log);
	snprintf(strict.log + l, sizeof strict.log - l, "%s=%ld ", is_min ? "min" : "max", khz);
	return 0;
}

static int strict_read(const char *path, char *out, size_t n)
{
	return strict_text(path + 1, out, n);
}

static const fake_textfs strict_fs = {.text = strict_read, .write = strict_write};

/* An administrator pinned 1.2 GHz (min = max). Pinning 2.4 GHz must raise
 * max before min; the restore must lower min before max; pinning 1 GHz
 * must lower min first. A write in the wrong order is refused with EINVAL,
 * as the kernel refuses it, and the test sees it. */
static void test_minmax_order(void **st)
{
	fake_fuse d;
	if (fake_textfs_mount(&d, "/sys/devices/system/cpu/cpufreq/policy0", &strict_fs) < 0) {
		printf("# FUSE cannot mount here (needs /dev/fuse and CAP_SYS_ADMIN): min/max order test skipped\n");
		skip();
	}
	strict.min = strict.max = 1200000;
	strict.refused = 0;
	strict.log[0] = 0;
	epi_cpufreq c;
	char err[EPI_ERRLEN];
	int ok = epi_cpufreq_scan(&c, 100000, err) == 0 && epi_freq_pin(&c, NULL, 0, 2400000, 0, err) == 0;
	char up[256];
	snprintf(up, sizeof up, "%s", strict.log);
	long pmin = strict.min, pmax = strict.max;
	strict.log[0] = 0;
	int restored = ok ? epi_freq_restore(err) : -1;
	char down[256];
	snprintf(down, sizeof down, "%s", strict.log);
	long rmin = strict.min, rmax = strict.max;
	strict.log[0] = 0;
	int ok2 = epi_cpufreq_scan(&c, 100000, err) == 0 && epi_freq_pin(&c, NULL, 0, 1000000, 0, err) == 0;
	char low[256];
	snprintf(low, sizeof low, "%s", strict.log);
	epi_freq_restore(err);
	fake_fuse_unmount(&d);
	if (!ok || !ok2)
		fail_msg("pin: %s", err);
	assert_int_equal(strict.refused, 0);
	assert_string_equal(up, "max=2400000 min=2400000 ");
	assert_true(pmin == 2400000 && pmax == 2400000);
	assert_int_equal(restored, 1);
	assert_string_equal(down, "min=1200000 max=1200000 ");
	assert_true(rmin == 1200000 && rmax == 1200000);
	assert_string_equal(low, "min=1000000 max=1000000 ");
}

static void test_not_offered(void **st)
{
	fake_acpi_tree();
	epi_cpufreq c;
	char err[EPI_ERRLEN], v[256];
	assert_int_equal(epi_cpufreq_scan(&c, 0, err), 0);
	assert_int_equal(epi_freq_pin(&c, NULL, 0, 2000000, 0, err), -1);
	assert_non_null(strstr(err, "does not offer 2 GHz"));
	assert_non_null(strstr(err, "1.6 GHz, 1.8 GHz, 2.133 GHz, 2.4 GHz"));
	get(0, "scaling_governor", v);
	assert_string_equal(v, "schedutil");
	teardown(NULL);
	setup(NULL);
	pstate_tree();
	assert_int_equal(epi_cpufreq_scan(&c, 0, err), 0);
	assert_int_equal(epi_freq_pin(&c, NULL, 0, 5000000, 0, err), -1);
	assert_non_null(strstr(err, "any from 0.8 GHz to 3.9 GHz"));
}

static void test_no_cpufreq(void **st)
{
	epi_cpufreq c;
	char err[EPI_ERRLEN];
	assert_int_equal(epi_cpufreq_scan(&c, 0, err), -1);
	assert_non_null(strstr(err, "no CPU frequency control"));
}

static void test_cpulist(void **st)
{
	int c[16];
	assert_int_equal(epi_parse_cpulist("0-3,8,10-11", c, 16), 7);
	assert_int_equal(c[4], 8);
	assert_int_equal(c[6], 11);
	assert_int_equal(epi_parse_cpulist("3-1", c, 16), -1);
	assert_int_equal(epi_parse_cpulist("x", c, 16), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_scan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_userspace_pin_restore, setup, teardown),
		cmocka_unit_test_setup_teardown(test_minmax_pin_restore, setup, teardown),
		cmocka_unit_test_setup_teardown(test_restore_shorter_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_state_file_checked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_state_folder_owned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_state_locked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_minmax_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_offered, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_cpufreq, setup, teardown),
		cmocka_unit_test(test_cpulist),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
