/* freq: parsing and printing of frequencies, kept in integer kHz so that
 * calibrated frequencies compare exactly. */
#include "model/freq.h"
#include "model/util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int epi_freq_parse(const char *s, long *khz, char *err)
{
	const char *p = s;
	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p) && *p != '.')
		return epi_error(err, "invalid frequency '%s': expected a number and a unit, e.g. 2.4GHz", s);
	char *end;
	double v = strtod(p, &end);
	while (isspace((unsigned char)*end))
		end++;
	double scale;
	if (strcasecmp(end, "ghz") == 0)
		scale = 1e6;
	else if (strcasecmp(end, "mhz") == 0)
		scale = 1e3;
	else if (strcasecmp(end, "khz") == 0)
		scale = 1;
	else if (*end == 0)
		return epi_error(err, "invalid frequency '%s': missing unit (GHz, MHz or kHz)", s);
	else
		return epi_error(err, "invalid frequency '%s': unknown unit '%s' (GHz, MHz or kHz)", s, end);
	double k = v * scale;
	if (!(k >= 1) || k > 1e9)
		return epi_error(err, "invalid frequency '%s': out of range", s);
	*khz = lround(k);
	return 0;
}

void epi_freq_fmt(char *buf, unsigned long n, long khz)
{
	snprintf(buf, n, "%.6f", khz / 1e6);
	char *dot = strchr(buf, '.');
	if (dot) {
		char *e = buf + strlen(buf) - 1;
		while (e > dot && *e == '0')
			*e-- = 0;
		if (e == dot)
			*e = 0;
	}
}

void epi_freq_ghz(char *buf, unsigned long n, long khz)
{
	epi_freq_fmt(buf, n > 4 ? n - 4 : n, khz);
	size_t l = strlen(buf);
	snprintf(buf + l, n - l, " GHz");
}
