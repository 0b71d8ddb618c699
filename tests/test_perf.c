/* The perf meter against a fake power PMU in sysfs, with perf_event_open
 * and the counter reads replaced by cmocka mocks (-Wl,--wrap). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "machine/meter.h"
#include "machine/perf_sys.h"
#include "model/util.h"
#include "tests/fakehw.h"

int __wrap_epi_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group, unsigned long flags)
{
	check_expected(attr->type);
	check_expected(attr->config);
	check_expected(pid);
	check_expected(cpu);
	int fd = mock_type(int);
	if (fd < 0)
		errno = mock_type(int);
	return fd;
}

int __wrap_epi_sys_perf_read(int fd, uint64_t *count)
{
	check_expected(fd);
	*count = mock_type(uint64_t);
	return 0;
}

static void pmu(void)
{
	fake_root();
	fake_cpu("GenuineIntel", 6, 0x55);
	fake_put("/sys/bus/event_source/devices/power/type", "23\n");
	fake_put("/sys/bus/event_source/devices/power/events/energy-pkg", "event=0x02\n");
	fake_put("/sys/bus/event_source/devices/power/events/energy-pkg.scale", "2.3283064365386962890625e-10\n");
	fake_put("/sys/bus/event_source/devices/power/events/energy-pkg.unit", "Joules\n");
	fake_put("/sys/bus/event_source/devices/power/events/energy-ram", "event=0x03\n");
	fake_put("/sys/bus/event_source/devices/power/events/energy-ram.scale", "6.103515625e-05\n");
	fake_put("/proc/sys/kernel/perf_event_paranoid", "2\n");
}

static void expect_open(uint64_t config, int fd)
{
	expect_value(__wrap_epi_sys_perf_event_open, attr->type, 23);
	expect_value(__wrap_epi_sys_perf_event_open, attr->config, config);
	expect_value(__wrap_epi_sys_perf_event_open, pid, -1); /* system-wide */
	expect_value(__wrap_epi_sys_perf_event_open, cpu, 0);   /* one CPU of the package */
	will_return(__wrap_epi_sys_perf_event_open, fd);
}

static void test_perf_counts(void **st)
{
	pmu();
	expect_open(0x02, 101);
	expect_open(0x03, 102);
	epi_meter m;
	char err[EPI_ERRLEN];
	if (epi_meter_open(&m, "perf", NULL, err) < 0)
		fail_msg("%s", err);
	assert_int_equal(m.ndom, 2);
	assert_string_equal(m.dom[0].name, "package-0");
	assert_string_equal(m.dom[1].name, "package-0/dram");
	/* 2^32 counts of 2^-32 J = 1 J; 16384 counts of 2^-14 J = 1 J */
	expect_value(__wrap_epi_sys_perf_read, fd, 101);
	will_return(__wrap_epi_sys_perf_read, (uint64_t)1 << 32);
	expect_value(__wrap_epi_sys_perf_read, fd, 102);
	will_return(__wrap_epi_sys_perf_read, (uint64_t)1000);
	assert_int_equal(epi_meter_poll(&m, err), 0);
	expect_value(__wrap_epi_sys_perf_read, fd, 101);
	will_return(__wrap_epi_sys_perf_read, (uint64_t)13 << 32);
	expect_value(__wrap_epi_sys_perf_read, fd, 102);
	will_return(__wrap_epi_sys_perf_read, (uint64_t)1000 + 3 * 16384);
	assert_int_equal(epi_meter_poll(&m, err), 0);
	assert_true(m.dom[0].total > 12 - 1e-9 && m.dom[0].total < 12 + 1e-9);
	assert_true(m.dom[1].total > 3 - 1e-9 && m.dom[1].total < 3 + 1e-9);
	epi_meter_close(&m);
	fake_root_free();
}

static void test_perf_denied(void **st)
{
	pmu();
	expect_open(0x02, -1);
	will_return(__wrap_epi_sys_perf_event_open, EACCES);
	epi_meter m;
	char err[EPI_ERRLEN];
	assert_int_equal(epi_meter_open(&m, "perf", NULL, err), -1);
	assert_non_null(strstr(err, "perf_event_paranoid is 2"));
	assert_non_null(strstr(err, "CAP_PERFMON"));
	fake_root_free();
}

static void test_perf_missing(void **st)
{
	fake_root();
	fake_cpu("GenuineIntel", 6, 0x55);
	epi_meter m;
	char err[EPI_ERRLEN];
	assert_int_equal(epi_meter_open(&m, "perf", NULL, err), -1);
	assert_non_null(strstr(err, "no perf `power` PMU"));
	fake_root_free();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_counts),
		cmocka_unit_test(test_perf_denied),
		cmocka_unit_test(test_perf_missing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
