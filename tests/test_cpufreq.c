/* Frequency control against fake cpufreq trees: acpi-cpufreq with the
 * userspace governor, and intel_pstate in active mode (min = max). Every
 * change must be saved before it is made and undone by the restore. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void pol(int id, const char *file, const char *v)
{
	char rel[256], val[256];
	snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpufreq/policy%d/%s", id, file);
	snprintf(val, sizeof val, "%s\n", v);
	fake_put(rel, val);
}

static void get(int id, const char *file, char *out)
{
	char path[EPI_PATHLEN], err[EPI_ERRLEN];
	epi_syspath(path, "/sys/devices/system/cpu/cpufreq/policy%d/%s", id, file);
	if (epi_read_line(path, out, 256, err) < 0)
		fail_msg("%s", err);
}

static void acpi_tree(void)
{
	for (int i = 0; i < 2; i++) {
		char c[8];
		snprintf(c, sizeof c, "%d", i);
		pol(i, "affected_cpus", c);
		pol(i, "scaling_driver", "acpi-cpufreq");
		pol(i, "scaling_governor", "schedutil");
		pol(i, "scaling_available_governors", "conservative ondemand userspace powersave performance schedutil");
		pol(i, "scaling_available_frequencies", "2400000 2133000 1800000 1600000");
		pol(i, "cpuinfo_min_freq", "1600000");
		pol(i, "cpuinfo_max_freq", "2400000");
		pol(i, "scaling_min_freq", "1600000");
		pol(i, "scaling_max_freq", "2400000");
		pol(i, "scaling_cur_freq", "2400000");
		pol(i, "scaling_setspeed", "<unsupported>");
	}
	fake_put("/sys/devices/system/cpu/cpufreq/boost", "1\n");
}

static void pstate_tree(void)
{
	pol(0, "affected_cpus", "0");
	pol(0, "scaling_driver", "intel_pstate");
	pol(0, "scaling_governor", "powersave");
	pol(0, "scaling_available_governors", "performance powersave");
	pol(0, "cpuinfo_min_freq", "800000");
	pol(0, "cpuinfo_max_freq", "3900000");
	pol(0, "scaling_min_freq", "800000");
	pol(0, "scaling_max_freq", "3900000");
	pol(0, "scaling_cur_freq", "1200000");
	fake_put("/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
}

static void test_scan(void **st)
{
	acpi_tree();
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
	acpi_tree();
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

static void test_not_offered(void **st)
{
	acpi_tree();
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
		cmocka_unit_test_setup_teardown(test_not_offered, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_cpufreq, setup, teardown),
		cmocka_unit_test(test_cpulist),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
