/* Frequency parsing and printing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/freq.h"
#include "model/util.h"

static long parse(const char *s)
{
	char err[EPI_ERRLEN];
	long k = -1;
	if (epi_freq_parse(s, &k, err) != 0)
		fail_msg("'%s' did not parse: %s", s, err);
	return k;
}

static void test_forms(void **st)
{
	assert_int_equal(parse("2.4GHz"), 2400000);
	assert_int_equal(parse("2.4 GHz"), 2400000);
	assert_int_equal(parse("2400MHz"), 2400000);
	assert_int_equal(parse("2400000kHz"), 2400000);
	assert_int_equal(parse("2.13ghz"), 2130000);
	assert_int_equal(parse(" 1600 mhz"), 1600000);
	assert_int_equal(parse("800MHz"), 800000);
}

static void test_errors(void **st)
{
	char err[EPI_ERRLEN];
	long k;
	assert_int_equal(epi_freq_parse("2.4", &k, err), -1);
	assert_non_null(strstr(err, "'2.4'"));
	assert_non_null(strstr(err, "missing unit"));
	assert_int_equal(epi_freq_parse("2.4Ghertz", &k, err), -1);
	assert_non_null(strstr(err, "unknown unit 'Ghertz'"));
	assert_int_equal(epi_freq_parse("fast", &k, err), -1);
	assert_non_null(strstr(err, "'fast'"));
	assert_int_equal(epi_freq_parse("0GHz", &k, err), -1);
	assert_int_equal(epi_freq_parse("", &k, err), -1);
}

static void test_format(void **st)
{
	char b[32];
	epi_freq_fmt(b, sizeof b, 2400000);
	assert_string_equal(b, "2.4");
	epi_freq_fmt(b, sizeof b, 2130000);
	assert_string_equal(b, "2.13");
	epi_freq_fmt(b, sizeof b, 3000000);
	assert_string_equal(b, "3");
	epi_freq_fmt(b, sizeof b, 1);
	assert_string_equal(b, "0.000001");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_format),
	};
	return cmocka_run_group_tests_name("freq", tests, NULL, NULL);
}
