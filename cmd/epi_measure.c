/* epi measure: runs a command (execvp, no shell) N times and reports, per
 * run and per meter domain, seconds, joules and mean watts, then a summary
 * with the spread over runs. The meter is polled often enough that no
 * counter wrap is missed; the wait for the command wakes the moment it
 * ends (SIGCHLD through sigtimedwait), so the time is the command's. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/epi_cmd.h"
#include "machine/cpufreq.h"
#include "machine/meter.h"
#include "model/freq.h"
#include "model/util.h"
#include "model/json.h"

static const char usage[] =
	"usage: %s [options] -- COMMAND [ARGS...]\n"
	"\n"
	"Runs COMMAND (no shell) and reports its time, energy and mean power per\n"
	"meter domain, per run and summarised over runs.\n"
	"\n"
	"  -m, --meter M        auto (default), powercap, msr, perf, hwmon,\n"
	"                       wattsup:DEVICE, const:WATTS or none (time only)\n"
	"  -d, --domain D       only these domains (comma-separated, e.g. package-0,dram)\n"
	"  -r, --repeat N       runs (default 1)\n"
	"  -f, --freq F         pin the CPUs to F during the runs (2.4GHz, 2400MHz),\n"
	"                       restored afterwards\n"
	"      --cpus LIST      CPUs to pin with --freq (default all), e.g. 0-3\n"
	"      --no-boost       turn boost/turbo off during the runs (restored after)\n"
	"  -F, --format table|csv|json\n"
	"  -o, --output FILE    write the report to FILE (atomically)\n"
	"  -h, --help\n"
	"\n"
	"CSV columns: run,meter,domain,seconds,joules,watts,estimated. Joules and watts\n"
	"are empty, never zero, when nothing measured them. The exit status is the\n"
	"command's (128+N when killed by signal N); 1 for a meter error. See epi-measure(1).\n";

typedef struct run_row {
	int run, dom;        /* dom -1: time only; -2: the total of in_total domains */
	double s, j;         /* j NAN: not measured */
	double win;          /* the meter's window, for watts (s when none) */
	int partial, stalled;
} run_row;

typedef struct rows {
	int n, cap;
	run_row *r;
} rows;

static void push(rows *rs, run_row r)
{
	ALLOC_GROW_FROM(rs->r, rs->n + 1, rs->cap, 16);
	rs->r[rs->n++] = r;
}

static int want(const char *list, const char *name)
{
	if (!list)
		return 1;
	size_t n = strlen(name);
	for (const char *s = list; *s;) {
		const char *c = strchr(s, ',');
		size_t l = c ? (size_t)(c - s) : strlen(s);
		if (l == n && strncmp(s, name, n) == 0)
			return 1;
		s += l + (c ? 1 : 0);
	}
	return 0;
}

/* Runs ARGV once; returns its wait status, or -1 if it could not start.
 * Polls M meanwhile; a meter error sets MERR (the run goes on, partial). */
static int run_once(char **argv, epi_meter *m, double *secs, char *merr, int *merr_set)
{
	sigset_t chld, old;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	char err[EPI_ERRLEN];
	epi_meter_reset(m);
	if (epi_meter_poll(m, err) < 0) {
		snprintf(merr, EPI_ERRLEN, "%s", err);
		*merr_set = 1;
	}
	fflush(NULL);
	double t0 = epi_now();
	pid_t pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		epi_die(1, "cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: error: cannot run '%s': %s\n", epi_prog, argv[0], strerror(errno));
		_exit(127);
	}
	double period = epi_meter_period(m);
	int status = 0;
	for (;;) {
		struct timespec ts = {.tv_sec = (time_t)period, .tv_nsec = (long)((period - (double)(time_t)period) * 1e9)};
		sigtimedwait(&chld, NULL, &ts); /* the command ended, or time to poll */
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			epi_die(1, "cannot wait for '%s': %s", argv[0], strerror(errno));
		if (!*merr_set && epi_meter_poll(m, err) < 0) {
			snprintf(merr, EPI_ERRLEN, "%s", err);
			*merr_set = 1;
		}
	}
	*secs = epi_now() - t0;
	if (!*merr_set && epi_meter_poll(m, err) < 0) {
		snprintf(merr, EPI_ERRLEN, "%s", err);
		*merr_set = 1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return status;
}

static const char *dom_name(const epi_meter *m, int d)
{
	return d == -1 ? "time" : d == -2 ? "total" : m->dom[d].name;
}

static int dom_estimated(const epi_meter *m, int d)
{
	if (d >= 0)
		return m->dom[d].estimated;
	for (int i = 0; i < m->ndom; i++)
		if (m->dom[i].in_total && m->dom[i].estimated)
			return 1;
	return 0;
}

typedef struct summary {
	int dom, n;
	double s_mean, s_sd, j_mean, j_sd, j_min, j_max, w_mean, w_sd;
} summary;

static void summarise(const rows *rs, int dom, summary *out)
{
	double *s = xmalloc((rs->n + 1) * sizeof *s), *j = xmalloc((rs->n + 1) * sizeof *j), *w = xmalloc((rs->n + 1) * sizeof *w);
	int n = 0, nj = 0;
	for (int i = 0; i < rs->n; i++) {
		if (rs->r[i].dom != dom || rs->r[i].partial)
			continue;
		s[n++] = rs->r[i].s;
		if (!isnan(rs->r[i].j)) {
			j[nj] = rs->r[i].j;
			w[nj++] = rs->r[i].j / rs->r[i].win;
		}
	}
	memset(out, 0, sizeof *out);
	out->dom = dom;
	out->n = n;
	out->s_mean = n ? gsl_stats_mean(s, 1, n) : NAN;
	out->s_sd = n > 1 ? gsl_stats_sd(s, 1, n) : NAN;
	out->j_mean = nj ? gsl_stats_mean(j, 1, nj) : NAN;
	out->j_sd = nj > 1 ? gsl_stats_sd(j, 1, nj) : NAN;
	out->j_min = nj ? gsl_stats_min(j, 1, nj) : NAN;
	out->j_max = nj ? gsl_stats_max(j, 1, nj) : NAN;
	out->w_mean = nj ? gsl_stats_mean(w, 1, nj) : NAN;
	out->w_sd = nj > 1 ? gsl_stats_sd(w, 1, nj) : NAN;
	free(s);
	free(j);
	free(w);
}

typedef struct measure_opts {
	const char *meter_spec, *domains, *freq, *cpulist, *output;
	int repeat, noboost;
	enum epi_format format;
	char **cmd;
} measure_opts;

/* What the runs left: the meter, the rows, how the command and the meter
 * fared, and for --freq what was asked, obtained and measured. */
typedef struct measure_result {
	epi_meter m;
	rows rs;
	int last_bad, meter_failed;
	epi_cpufreq *cf;
	long khz;
	long long obtained;
	double eff;
} measure_result;

static void parse_args(int argc, char **argv, measure_opts *o)
{
	static const struct option opts[] = {
		{"meter", required_argument, 0, 'm'}, {"domain", required_argument, 0, 'd'},
		{"repeat", required_argument, 0, 'r'}, {"freq", required_argument, 0, 'f'},
		{"cpus", required_argument, 0, 'c'},   {"no-boost", no_argument, 0, 'B'},
		{"format", required_argument, 0, 'F'}, {"output", required_argument, 0, 'o'},
		{"help", no_argument, 0, 'h'},         {0, 0, 0, 0},
	};
	*o = (measure_opts){.meter_spec = "auto", .repeat = 1, .format = EPI_FMT_TABLE};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+m:d:r:f:F:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'm': o->meter_spec = optarg; break;
		case 'd': o->domains = optarg; break;
		case 'r': o->repeat = epi_parse_count("--repeat", optarg, 1, 100000); break;
		case 'f': o->freq = optarg; break;
		case 'c': o->cpulist = optarg; break;
		case 'B': o->noboost = 1; break;
		case 'F': o->format = epi_parse_format(optarg); break;
		case 'o': o->output = optarg; break;
		case 'h': printf(usage, epi_prog); exit(0);
		default: epi_die(2, "unknown option");
		}
	}
	if (optind >= argc)
		epi_die(2, "no command to measure: %s [options] -- COMMAND [ARGS...]", epi_prog);
	o->cmd = argv + optind;
}

/* Every domain in DOMAINS must exist. */
static void check_domains(const epi_meter *m, const char *domains)
{
	char *dup = xstrdup(domains);
	for (char *t = strtok(dup, ","); t; t = strtok(NULL, ",")) {
		int found = strcmp(t, "total") == 0;
		for (int i = 0; i < m->ndom; i++)
			found |= strcmp(m->dom[i].name, t) == 0;
		if (!found) {
			char list[1024] = "";
			for (int i = 0; i < m->ndom; i++) {
				size_t n = strlen(list);
				snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", m->dom[i].name);
			}
			epi_die(1, "meter %s has no domain '%s' (it has: %s)", m->ops->name, t, *list ? list : "none");
		}
	}
	free(dup);
}

/* Pins the CPUs to --freq until the command's runs are over. */
static void pin_freq(const measure_opts *o, measure_result *res)
{
	char err[EPI_ERRLEN];
	if (epi_freq_parse(o->freq, &res->khz, err) < 0)
		epi_die(1, "%s", err);
	res->cf = xcalloc(1, sizeof *res->cf);
	if (epi_cpufreq_scan(res->cf, 0, err) < 0)
		epi_die(1, "cannot pin the frequency to %s: %s", o->freq, err);
	int cpus[EPI_MAXCPU], ncpus = 0;
	if (o->cpulist && (ncpus = epi_parse_cpulist(o->cpulist, cpus, EPI_MAXCPU)) <= 0)
		epi_die(2, "--cpus '%s' is not a CPU list (e.g. 0-3,8)", o->cpulist);
	if (epi_freq_pin(res->cf, cpus, ncpus, res->khz, o->noboost, err) < 0)
		epi_die(1, "%s", err);
	int cpu0 = ncpus ? cpus[0] : res->cf->pol[0].cpus[0];
	res->obtained = epi_freq_obtained(res->cf, cpu0);
	res->eff = epi_effective_ghz(cpu0);
}

/* Warns when run R of CMD failed; the last failure is the exit status. */
static void check_status(int r, char **cmd, int st, int *last_bad)
{
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
	if (!code)
		return;
	*last_bad = code;
	if (WIFSIGNALED(st))
		epi_warn("run %d: '%s' was killed by signal %d", r, cmd[0], WTERMSIG(st));
	else if (code != 127) /* the child said why it could not run */
		epi_warn("run %d: '%s' exited with status %d", r, cmd[0], code);
}

/* The meter failed in run R of REPEAT: the runs after it are not made. */
static void meter_error(int r, int repeat, const char *merr)
{
	char rest[64] = "";
	if (r + 1 == repeat)
		snprintf(rest, sizeof rest, "; run %d not made", repeat);
	else if (r < repeat)
		snprintf(rest, sizeof rest, "; runs %d-%d not made", r + 1, repeat);
	fprintf(stderr, "%s: error: run %d: %s; the run is reported as partial%s\n", epi_prog, r, merr, rest);
}

/* The rows of run R: time only, or each domain asked for and their total. */
static void record_run(measure_result *res, const char *domains, int r, double secs, int partial)
{
	epi_meter *m = &res->m;
	if (m->time_only) {
		push(&res->rs, (run_row){.run = r, .dom = -1, .s = secs, .j = NAN, .partial = partial});
		return;
	}
	double win = m->t_last > m->t_first ? m->t_last - m->t_first : secs;
	int ntot = 0;
	for (int d = 0; d < m->ndom; d++) {
		epi_domain *dm = &m->dom[d];
		/* a counter that never moved over many of its update intervals */
		int stalled = dm->interval_s > 0 && secs > 10 * dm->interval_s && dm->total == 0;
		if (stalled)
			epi_warn("run %d: the %s counter did not advance in %.3f s: its reading is not trustworthy",
				 r, dm->name, secs);
		ntot += dm->in_total;
		if (want(domains, dm->name))
			push(&res->rs, (run_row){.run = r, .dom = d, .s = secs, .j = dm->total, .win = win,
						 .partial = partial, .stalled = stalled});
	}
	if (ntot > 1 && want(domains, "total"))
		push(&res->rs, (run_row){.run = r, .dom = -2, .s = secs, .j = epi_meter_joules(m, NULL), .win = win,
					 .partial = partial});
}

/* Opens the meter, pins the frequency, then runs the command until
 * --repeat runs are made or the meter fails. */
static void run(const measure_opts *o, measure_result *res)
{
	*res = (measure_result){.eff = NAN};
	epi_open_meter(&res->m, o->meter_spec, "measuring");
	if (o->domains)
		check_domains(&res->m, o->domains);
	if (o->freq)
		pin_freq(o, res);
	char merr[EPI_ERRLEN] = "";
	for (int r = 1; r <= o->repeat && !res->meter_failed; r++) {
		double secs = 0;
		int merr_set = 0;
		int st = run_once(o->cmd, &res->m, &secs, merr, &merr_set);
		check_status(r, o->cmd, st, &res->last_bad);
		if (merr_set) {
			res->meter_failed = 1;
			meter_error(r, o->repeat, merr);
		}
		record_run(res, o->domains, r, secs, merr_set);
	}
}

/* Mean watts of a row, NAN when nothing measured its joules. */
static double row_watts(const run_row *x)
{
	return isnan(x->j) ? NAN : x->j / x->win;
}

/* The domains of the rows in the order they first appear; their number. */
static int row_domains(const rows *rs, int *doms)
{
	int ndoms = 0;
	for (int i = 0; i < rs->n; i++) {
		int seen = 0;
		for (int k = 0; k < ndoms; k++)
			seen |= doms[k] == rs->r[i].dom;
		if (!seen)
			doms[ndoms++] = rs->r[i].dom;
	}
	return ndoms;
}

static void report_csv(FILE *out, const measure_result *res)
{
	fprintf(out, "run,meter,domain,seconds,joules,watts,estimated\n");
	for (int i = 0; i < res->rs.n; i++) {
		const run_row *x = &res->rs.r[i];
		char j[32], w[32];
		epi_fmt_num(j, sizeof j, x->j, "%.6f");
		epi_fmt_num(w, sizeof w, row_watts(x), "%.4f");
		fprintf(out, "%d,%s,%s,%.6f,%s,%s,%d\n", x->run, res->m.ops->name, dom_name(&res->m, x->dom), x->s, j, w,
			dom_estimated(&res->m, x->dom));
	}
}

static json_t *json_runs(const measure_result *res)
{
	json_t *jr = json_array();
	for (int i = 0; i < res->rs.n; i++) {
		const run_row *x = &res->rs.r[i];
		json_t *o = json_object();
		json_object_set_new(o, "run", json_integer(x->run));
		json_object_set_new(o, "domain", json_string(dom_name(&res->m, x->dom)));
		json_object_set_new(o, "seconds", json_real(x->s));
		json_object_set_new(o, "joules", epi_json_num(x->j));
		json_object_set_new(o, "watts", epi_json_num(row_watts(x)));
		json_object_set_new(o, "metered_seconds", epi_json_num(isnan(x->j) ? NAN : x->win));
		json_object_set_new(o, "estimated", json_boolean(dom_estimated(&res->m, x->dom)));
		json_object_set_new(o, "partial", json_boolean(x->partial));
		json_object_set_new(o, "stalled", json_boolean(x->stalled));
		json_array_append_new(jr, o);
	}
	return jr;
}

static json_t *json_summary(const measure_result *res)
{
	int doms[EPI_MAXDOM + 2], ndoms = row_domains(&res->rs, doms);
	json_t *js = json_array();
	for (int k = 0; k < ndoms; k++) {
		summary sm;
		summarise(&res->rs, doms[k], &sm);
		json_t *o = json_object();
		json_object_set_new(o, "domain", json_string(dom_name(&res->m, doms[k])));
		json_object_set_new(o, "runs", json_integer(sm.n));
		json_object_set_new(o, "seconds_mean", epi_json_num(sm.s_mean));
		json_object_set_new(o, "seconds_sd", epi_json_num(sm.s_sd));
		json_object_set_new(o, "joules_mean", epi_json_num(sm.j_mean));
		json_object_set_new(o, "joules_sd", epi_json_num(sm.j_sd));
		json_object_set_new(o, "joules_min", epi_json_num(sm.j_min));
		json_object_set_new(o, "joules_max", epi_json_num(sm.j_max));
		json_object_set_new(o, "watts_mean", epi_json_num(sm.w_mean));
		json_object_set_new(o, "watts_sd", epi_json_num(sm.w_sd));
		json_array_append_new(js, o);
	}
	return js;
}

static void report_json(FILE *out, const measure_opts *o, const measure_result *res)
{
	json_t *root = json_object();
	json_object_set_new(root, "meter", json_string(res->m.ops->name));
	json_object_set_new(root, "meter_description", json_string(res->m.desc));
	json_t *jc = json_array();
	for (char **a = o->cmd; *a; a++)
		json_array_append_new(jc, json_string(*a));
	json_object_set_new(root, "command", jc);
	if (o->freq) {
		json_t *jf = json_object();
		json_object_set_new(jf, "requested_ghz", json_real(res->khz / 1e6));
		json_object_set_new(jf, "obtained_ghz", res->obtained > 0 ? json_real(res->obtained / 1e6) : json_null());
		json_object_set_new(jf, "effective_ghz", epi_json_num(res->eff));
		json_object_set_new(root, "frequency", jf);
	}
	json_object_set_new(root, "runs", json_runs(res));
	json_object_set_new(root, "summary", json_summary(res));
	json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', out);
	json_decref(root);
}

static void table_summary(FILE *out, const measure_result *res)
{
	int doms[EPI_MAXDOM + 2], ndoms = row_domains(&res->rs, doms);
	fprintf(out, "\nsummary over complete runs (mean +- sd, [min, max] joules):\n");
	for (int k = 0; k < ndoms; k++) {
		const char *name = dom_name(&res->m, doms[k]);
		summary sm;
		summarise(&res->rs, doms[k], &sm);
		if (sm.n == 0) {
			fprintf(out, "  %-22s no complete run\n", name);
			continue;
		}
		fprintf(out, "  %-22s %d runs  %.6f +- %.6f s", name, sm.n, sm.s_mean, sm.s_sd);
		if (!isnan(sm.j_mean))
			fprintf(out, "  %.4f +- %.4f J [%.4f, %.4f]  %.3f +- %.3f W", sm.j_mean, sm.j_sd, sm.j_min, sm.j_max,
				sm.w_mean, sm.w_sd);
		fputc('\n', out);
	}
}

static void report_table(FILE *out, const measure_opts *o, const measure_result *res)
{
	const epi_meter *m = &res->m;
	fprintf(out, "meter: %s\n", m->desc);
	if (o->freq) {
		char fbuf[32], obuf[32] = "";
		epi_freq_ghz(fbuf, sizeof fbuf, res->khz);
		if (res->obtained > 0)
			epi_freq_ghz(obuf, sizeof obuf, res->obtained);
		fprintf(out, "frequency: %s requested, %s obtained, %.3f GHz effective (dependent adds)\n", fbuf,
			*obuf ? obuf : "unknown", res->eff);
	}
	fprintf(out, "\n  %-4s %-22s %12s %14s %12s\n", "run", "domain", "seconds", "joules", "watts");
	for (int i = 0; i < res->rs.n; i++) {
		const run_row *x = &res->rs.r[i];
		char j[32], w[32], part[64] = "";
		epi_fmt_num(j, sizeof j, x->j, "%.4f");
		epi_fmt_num(w, sizeof w, row_watts(x), "%.3f");
		if (x->partial)
			snprintf(part, sizeof part, "  (partial: metered %.3f s)", isnan(x->j) ? 0 : x->win);
		fprintf(out, "  %-4d %-22s %12.6f %14s %12s%s%s%s\n", x->run, dom_name(m, x->dom), x->s, *j ? j : "-",
			*w ? w : "-", dom_estimated(m, x->dom) ? "  (estimated)" : "", part,
			x->stalled ? "  (counter stalled)" : "");
	}
	if (o->repeat > 1)
		table_summary(out, res);
	if (m->time_only)
		fprintf(out, "\nno energy measured: the meter is 'none' (time only)\n");
}

/* The report goes out only once every run is over. */
static void report(const measure_opts *o, const measure_result *res)
{
	epi_out eo;
	FILE *out = epi_out_open(&eo, o->output);
	if (o->format == EPI_FMT_CSV)
		report_csv(out, res);
	else if (o->format == EPI_FMT_JSON)
		report_json(out, o, res);
	else
		report_table(out, o, res);
	epi_out_close(&eo);
}

/* Closes the meter and restores the frequencies; the exit status. */
static int finish(measure_result *res)
{
	free(res->rs.r);
	epi_meter_close(&res->m);
	if (res->cf) {
		char err[EPI_ERRLEN];
		if (epi_freq_restore(err) < 0)
			epi_die(1, "cannot restore the CPU frequencies: %s", err);
		free(res->cf);
	}
	return res->meter_failed ? 1 : res->last_bad;
}

int epi_measure_main(int argc, char **argv)
{
	measure_opts o;
	measure_result res;
	parse_args(argc, argv, &o);
	run(&o, &res);
	report(&o, &res);
	return finish(&res);
}
