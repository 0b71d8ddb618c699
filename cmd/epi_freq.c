/* epi freq: show the CPU frequency policies, pin CPUs to a frequency
 * (--set, kept until --restore), and restore what epi changed (--restore,
 * also after a run was killed with SIGKILL). */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/epi_cmd.h"
#include "machine/cpufreq.h"
#include "model/freq.h"
#include "model/util.h"

static const char usage[] =
	"usage: %s [--format table|csv|json] [--freq-step F]\n"
	"       %s --set F [--cpus LIST] [--no-boost]\n"
	"       %s --restore\n"
	"\n"
	"Without options, lists the frequency policies: CPUs, driver, governor, limits\n"
	"and the frequencies offered (a range driver's in --freq-step steps, default\n"
	"100MHz). --set pins the CPUs (default all) to F: userspace governor where\n"
	"there is one, else min = max; every value it changes is saved first, and\n"
	"--restore writes them back. Reports the frequency obtained and the effective\n"
	"one measured with dependent adds. See epi-freq(1).\n";
typedef struct freq_opts {
	const char *set, *cpulist;
	int noboost, restore;
	long step; /* --freq-step in kHz; 0: the scan's default */
	enum epi_format format;
} freq_opts;

static void parse_args(int argc, char **argv, freq_opts *o)
{
	static const struct option opts[] = {
		{"set", required_argument, 0, 's'},  {"cpus", required_argument, 0, 'c'},
		{"no-boost", no_argument, 0, 'B'},   {"restore", no_argument, 0, 'R'},
		{"format", required_argument, 0, 'F'}, {"freq-step", required_argument, 0, 'S'},
		{"help", no_argument, 0, 'h'},       {0, 0, 0, 0},
	};
	*o = (freq_opts){.format = EPI_FMT_TABLE};
	char err[EPI_ERRLEN];
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "s:c:F:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': o->set = optarg; break;
		case 'c': o->cpulist = optarg; break;
		case 'B': o->noboost = 1; break;
		case 'R': o->restore = 1; break;
		case 'F': o->format = epi_parse_format(optarg); break;
		case 'S':
			if (epi_freq_parse(optarg, &o->step, err) < 0)
				epi_die(2, "--freq-step: %s", err);
			break;
		case 'h': printf(usage, epi_prog, epi_prog, epi_prog); exit(0);
		default: epi_die(2, "unknown option");
		}
	}
	if (optind < argc)
		epi_die(2, "unexpected argument '%s'", argv[optind]);
	if (o->restore && o->set)
		epi_die(2, "--set and --restore exclude each other");
}

/* --restore: writes back what a --set or a killed run saved. */
static void restore(void)
{
	char err[EPI_ERRLEN];
	int r = epi_freq_restore(err);
	if (r < 0)
		epi_die(1, "%s", err);
	char state[EPI_PATHLEN];
	epi_freq_state_peek(state, sizeof state);
	printf(r ? "restored the CPU frequency settings saved in %s\n" : "nothing to restore (no %s)\n", state);
}

/* --set: pins the CPUs and keeps them pinned after exit, until --restore. */
static void pin(const freq_opts *o, const epi_cpufreq *cf)
{
	char err[EPI_ERRLEN];
	long khz;
	if (epi_freq_parse(o->set, &khz, err) < 0)
		epi_die(1, "%s", err);
	int cpus[EPI_MAXCPU], ncpus = 0;
	if (o->cpulist && (ncpus = epi_parse_cpulist(o->cpulist, cpus, EPI_MAXCPU)) <= 0)
		epi_die(2, "--cpus '%s' is not a CPU list (e.g. 0-3,8)", o->cpulist);
	if (epi_freq_pin(cf, cpus, ncpus, khz, o->noboost, err) < 0)
		epi_die(1, "%s", err);
	epi_freq_keep();
	int cpu0 = ncpus ? cpus[0] : cf->pol[0].cpus[0];
	long long got = epi_freq_obtained(cf, cpu0);
	char a[32], b[32] = "unknown", state[EPI_PATHLEN];
	epi_freq_ghz(a, sizeof a, khz);
	if (got > 0)
		epi_freq_ghz(b, sizeof b, got);
	epi_freq_state_path(state, sizeof state, err);
	printf("pinned CPUs %s to %s: obtained %s, effective %.3f GHz (dependent adds on CPU %d)\n",
	       o->cpulist ? o->cpulist : "all", a, b, epi_effective_ghz(cpu0), cpu0);
	printf("saved the previous settings in %s; undo with `epi freq --restore`\n", state);
}

static json_t *json_policy(const epi_policy *p)
{
	json_t *o = json_object(), *cp = json_array(), *fr = json_array();
	json_object_set_new(o, "policy", json_integer(p->id));
	for (int k = 0; k < p->ncpus; k++)
		json_array_append_new(cp, json_integer(p->cpus[k]));
	json_object_set_new(o, "cpus", cp);
	json_object_set_new(o, "driver", json_string(p->driver));
	json_object_set_new(o, "governor", json_string(p->governor));
	json_object_set_new(o, "min_ghz", json_real(p->min / 1e6));
	json_object_set_new(o, "max_ghz", json_real(p->max / 1e6));
	json_object_set_new(o, "cur_ghz", p->cur > 0 ? json_real(p->cur / 1e6) : json_null());
	for (int k = 0; k < p->nfreq; k++)
		json_array_append_new(fr, json_real(p->freq[k] / 1e6));
	json_object_set_new(o, "frequencies_ghz", fr);
	json_object_set_new(o, "userspace", json_boolean(p->userspace));
	return o;
}

static void report_json(const epi_cpufreq *cf)
{
	json_t *arr = json_array();
	for (int i = 0; i < cf->npol; i++)
		json_array_append_new(arr, json_policy(&cf->pol[i]));
	json_t *root = json_object();
	json_object_set_new(root, "policies", arr);
	json_object_set_new(root, "boost", cf->boost_path[0] ? json_boolean(cf->boost_on) : json_null());
	json_dumpf(root, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	putchar('\n');
	json_decref(root);
}

static void report_csv(const epi_cpufreq *cf)
{
	printf("policy,cpus,driver,governor,min_ghz,max_ghz,cur_ghz,freq_ghz\n");
	for (int i = 0; i < cf->npol; i++) {
		const epi_policy *p = &cf->pol[i];
		for (int k = 0; k < p->nfreq; k++)
			printf("%d,%d-%d,%s,%s,%.6g,%.6g,%.6g,%.6g\n", p->id, p->cpus[0], p->cpus[p->ncpus - 1], p->driver,
			       p->governor, p->min / 1e6, p->max / 1e6, p->cur / 1e6, p->freq[k] / 1e6);
	}
}

static void report_table(const epi_cpufreq *cf)
{
	printf("  %-8s %-8s %-14s %-12s %10s %10s %10s  frequencies\n", "policy", "cpus", "driver", "governor", "min",
	       "max", "cur");
	for (int i = 0; i < cf->npol; i++) {
		const epi_policy *p = &cf->pol[i];
		char mn[32], mx[32], cu[32] = "-", cpus[32];
		epi_freq_ghz(mn, sizeof mn, p->min);
		epi_freq_ghz(mx, sizeof mx, p->max);
		if (p->cur > 0)
			epi_freq_ghz(cu, sizeof cu, p->cur);
		snprintf(cpus, sizeof cpus, "%d-%d", p->cpus[0], p->cpus[p->ncpus - 1]);
		printf("  %-8d %-8s %-14s %-12s %10s %10s %10s  ", p->id, cpus, p->driver, p->governor, mn, mx, cu);
		for (int k = 0; k < p->nfreq; k++) {
			char f[32];
			epi_freq_ghz(f, sizeof f, p->freq[k]);
			printf("%s%s", k ? " " : "", f);
		}
		putchar('\n');
	}
	if (cf->boost_path[0])
		printf("  boost: %s (%s)\n", cf->boost_on ? "on" : "off", cf->boost_path);
}

/* The CPU frequency policies, or dies saying why there are none. */
static epi_cpufreq *scan(long step)
{
	char err[EPI_ERRLEN];
	epi_cpufreq *cf = xcalloc(1, sizeof *cf);
	if (epi_cpufreq_scan(cf, step, err) < 0)
		epi_die(1, "%s", err);
	return cf;
}

static void report(const freq_opts *o, const epi_cpufreq *cf)
{
	if (o->format == EPI_FMT_JSON)
		report_json(cf);
	else if (o->format == EPI_FMT_CSV)
		report_csv(cf);
	else
		report_table(cf);
}

int epi_freq_main(int argc, char **argv)
{
	freq_opts o;
	parse_args(argc, argv, &o);
	if (o.restore) {
		restore();
		return 0;
	}
	epi_cpufreq *cf = scan(o.step);
	if (o.set)
		pin(&o, cf);
	else
		report(&o, cf);
	free(cf);
	return 0;
}
