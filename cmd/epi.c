/* epi: one program for the machine-layer commands, git style: `epi CMD`,
 * or `epi-CMD` through a link named so. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/epi_cmd.h"
#include "machine/meter.h"
#include "model/util.h"

static const epi_subcmd cmds[] = {
	{"probe", epi_probe_main, "what this machine can measure and control, and why not"},
	{"measure", epi_measure_main, "run a command and report its time and energy"},
	{"freq", epi_freq_main, "show, pin and restore CPU frequencies"},
	{"calibrate", epi_calibrate_main, "measure what each operation costs here: the cost table"},
	{"profile", epi_profile_main, "sample a program's instruction pointer and power: time and energy per loop nest"},
	{"validate", epi_validate_main, "compare epi-predict's predictions with a profile or with measurements"},
	{"fleet", epi_fleet_main, "a cluster's cost tables, one per node: compare the nodes of each CPU model"},
	{"trips", epi_trips_main, "run a program built with coverage: its loops' trip counts, for epi-predict --trips"},
	{NULL, NULL, NULL},
};

static char prog_buf[64];

enum epi_format epi_parse_format(const char *s)
{
	if (strcmp(s, "table") == 0)
		return EPI_FMT_TABLE;
	if (strcmp(s, "csv") == 0)
		return EPI_FMT_CSV;
	if (strcmp(s, "json") == 0)
		return EPI_FMT_JSON;
	epi_die(2, "unknown format '%s' (table, csv or json)", s);
}

int epi_parse_count(const char *opt, const char *v, long lo, long hi)
{
	long n;
	if (epi_parse_long(v, lo, hi, &n) < 0)
		epi_die(2, "%s '%s' is not a count from %ld to %ld", opt, v, lo, hi);
	return (int)n;
}

void epi_fmt_num(char *b, size_t n, double v, const char *fmt)
{
	if (isnan(v))
		b[0] = 0;
	else
		snprintf(b, n, fmt, v);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: epi COMMAND [options]   (or epi-COMMAND)\n\ncommands:\n");
	for (int i = 0; cmds[i].name; i++)
		fprintf(f, "  %-9s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f, "\n`epi COMMAND --help` for each; see epi(1). Also: epi-predict.\n");
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	if (strncmp(base, "epi-", 4) == 0) {
		for (int i = 0; cmds[i].name; i++)
			if (strcmp(base + 4, cmds[i].name) == 0) {
				snprintf(prog_buf, sizeof prog_buf, "epi-%s", cmds[i].name);
				epi_prog = prog_buf;
				return cmds[i].run(argc, argv);
			}
	}
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("epi %s\n", EPI_VERSION);
		return 0;
	}
	for (int i = 0; cmds[i].name; i++)
		if (strcmp(argv[1], cmds[i].name) == 0) {
			snprintf(prog_buf, sizeof prog_buf, "epi %s", cmds[i].name);
			epi_prog = prog_buf;
			return cmds[i].run(argc - 1, argv + 1);
		}
	fprintf(stderr, "epi: usage: unknown command '%s' (", argv[1]);
	for (int i = 0; cmds[i].name; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", cmds[i].name);
	fprintf(stderr, "; see epi --help)\n");
	return 2;
}

void epi_open_meter(epi_meter *m, const char *spec, const char *doing)
{
	char err[EPI_ERRLEN], why[EPI_WHYLEN];
	if (epi_meter_open(m, spec, why, err) < 0) {
		if (strcmp(spec, "auto") == 0)
			fputs(why, stderr);
		epi_die(1, "%s", err);
	}
	if (m->time_only && strcmp(spec, "auto") == 0)
		epi_warn("no energy meter is usable here: %s time only (`epi probe` says why)", doing);
}
