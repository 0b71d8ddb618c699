/* epi profile: runs a program under the ALEA-style sampler and writes a
 * trace (validate/profile.h, validate/trace.h); `--report TRACE` reads one
 * back and prints time, energy and power per block with 95% intervals. */
#define _GNU_SOURCE /* sched_getcpu */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "calibrate/measure.h"
#include "cmd/epi_cmd.h"
#include "machine/cpufreq.h"
#include "model/freq.h"
#include "model/util.h"
#include "validate/estimate.h"
#include "validate/profile.h"

static const char usage[] =
	"usage: %s [options] -o TRACE -- COMMAND [ARGS...]\n"
	"       %s --report TRACE [--by loop|function|line] [--format table|csv|json]\n"
	"\n"
	"Runs COMMAND (no shell) several times, sampling the instruction pointer of\n"
	"its threads at a fixed interval from a random first offset, with the power\n"
	"of the meter's last sensing interval, and writes the samples to TRACE.\n"
	"Then prints time, energy and power per loop nest with 95%% intervals.\n"
	"\n"
	"  -o, --output TRACE   the trace to write (atomically)\n"
	"  -n, --runs N         runs (default: until the blocks with 5%% or more of\n"
	"                       the samples have their share within 5%%, 3 to --max-runs)\n"
	"      --max-runs N     at most N runs (default 30)\n"
	"  -i, --interval T     sampling interval: 1ms (default), 500us, 0.01s\n"
	"      --method M       perf (default: cpu-clock samples, per CPU, CPU time)\n"
	"                       or ptrace (ALEA's: every thread interrupted at each\n"
	"                       tick, wall-clock time; no perf_event_open needed)\n"
	"  -m, --meter M        auto (default), powercap, msr, perf, hwmon,\n"
	"                       wattsup:DEVICE, const:WATTS or none (time only)\n"
	"  -d, --domain D       the meter domain to attribute (default: the total)\n"
	"  -f, --freq F         pin the CPUs to F during the runs, restored afterwards\n"
	"      --seed N         seed of the random first offsets (default: the clock)\n"
	"      --no-memory-probe\n"
	"                       do not measure memory's rate before the runs (a\n"
	"                       fraction of a second; epi-validate then prices\n"
	"                       memory as the cost table measured it)\n"
	"  -r, --report TRACE   read TRACE and print its report (no run)\n"
	"  -b, --by B           loop (default), function or line\n"
	"  -F, --format table|csv|json\n"
	"  -q, --quiet          no progress\n"
	"  -h, --help\n"
	"\n"
	"Clang flags for parsing the program's sources (to find its loop nests) may\n"
	"follow the report's options after `--` with --report. See epi-profile(1).\n";

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig) { stop_sig = sig; }

/* "1ms", "500us", "0.01s", "20000ns" in nanoseconds; dies otherwise. */
static uint64_t parse_interval(const char *v)
{
	char *end;
	errno = 0;
	double x = strtod(v, &end);
	double mul = strcmp(end, "ns") == 0 ? 1 : strcmp(end, "us") == 0 ? 1e3 : strcmp(end, "ms") == 0 ? 1e6
		: strcmp(end, "s") == 0 ? 1e9 : 0;
	if (end == v || errno || mul == 0 || !(x > 0) || x * mul > 60e9)
		epi_die(2, "--interval '%s' is not a time with a unit (500us, 1ms, 0.01s)", v);
	return (uint64_t)llround(x * mul);
}

static void fmt_time(char *b, size_t n, uint64_t ns)
{
	if (ns % 1000000 == 0)
		snprintf(b, n, "%" PRIu64 "ms", ns / 1000000);
	else if (ns % 1000 == 0)
		snprintf(b, n, "%" PRIu64 "us", ns / 1000);
	else
		snprintf(b, n, "%" PRIu64 "ns", ns);
}

static const char *kind_name(enum epi_block_kind k)
{
	return k == EPI_BLOCK_LOOP ? "loop" : k == EPI_BLOCK_FUNCTION ? "function" : k == EPI_BLOCK_LINE ? "line" : "object";
}

static int by_samples(const void *x, const void *y)
{
	const epi_block *a = *(epi_block *const *)x, *b = *(epi_block *const *)y;
	return a->n < b->n ? 1 : a->n > b->n ? -1 : strcmp(a->name, b->name);
}

static void ci(char *b, size_t n, epi_est e, const char *f)
{
	if (isnan(e.v)) {
		snprintf(b, n, "-");
		return;
	}
	char v[32], lo[32], hi[32];
	snprintf(v, sizeof v, f, e.v);
	snprintf(lo, sizeof lo, f, e.lo);
	snprintf(hi, sizeof hi, f, e.hi);
	snprintf(b, n, "%s [%s, %s]", v, lo, hi);
}

/* [v, lo, hi] of E, null where there is none. */
static json_t *json_est(const epi_est *e)
{
	json_t *x = json_array();
	json_array_append_new(x, isnan(e->v) ? json_null() : json_real(e->v));
	json_array_append_new(x, isnan(e->lo) ? json_null() : json_real(e->lo));
	json_array_append_new(x, isnan(e->hi) ? json_null() : json_real(e->hi));
	return x;
}

static json_t *json_block(const epi_profile_sum *p, const epi_block *b)
{
	epi_block_est e;
	epi_block_estimate(p, b, &e);
	json_t *o = json_object();
	json_object_set_new(o, "block", json_string(b->name));
	json_object_set_new(o, "kind", json_string(kind_name(b->kind)));
	json_object_set_new(o, "file", b->file ? json_string(b->file) : json_null());
	json_object_set_new(o, "line", b->line ? json_integer(b->line) : json_null());
	json_object_set_new(o, "function", b->function ? json_string(b->function) : json_null());
	json_object_set_new(o, "object", b->object ? json_string(b->object) : json_null());
	json_object_set_new(o, "samples", json_integer((json_int_t)b->n));
	const char *nm[] = {"share", "time_s", "energy_j", "power_w"};
	epi_est *es[] = {&e.share, &e.time, &e.energy, &e.power};
	for (int k = 0; k < 4; k++)
		json_object_set_new(o, nm[k], json_est(es[k]));
	return o;
}

static void report_json(FILE *out, const epi_profile_sum *p, epi_block **v, int nb, const char *trace)
{
	json_t *root = json_object();
	json_object_set_new(root, "trace", json_string(trace));
	json_object_set_new(root, "command", json_string(p->info.command));
	json_object_set_new(root, "method", json_string(p->info.method));
	json_object_set_new(root, "meter", json_string(p->info.meter));
	json_object_set_new(root, "domain", json_string(p->info.domain));
	json_object_set_new(root, "interval_s", json_real((double)p->info.interval_ns * 1e-9));
	json_object_set_new(root, "runs", json_integer(p->nruns));
	json_object_set_new(root, "samples", json_integer((json_int_t)p->n));
	json_object_set_new(root, "lost", json_integer((json_int_t)p->lost));
	json_object_set_new(root, "time_basis", json_string(p->time_is_cpu ? "cpu" : "wall"));
	json_object_set_new(root, "effective_ghz", isnan(p->info.effective_ghz) ? json_null() : json_real(p->info.effective_ghz));
	json_object_set_new(root, "dram_load_s", isnan(p->info.dram_load_s) ? json_null() : json_real(p->info.dram_load_s));
	json_object_set_new(root, "time_s", json_real(p->t_mean));
	double sd = epi_profile_time_sd(p);
	json_object_set_new(root, "time_sd_s", isnan(sd) ? json_null() : json_real(sd));
	json_object_set_new(root, "wall_s", json_real(p->wall_mean));
	json_object_set_new(root, "cpu_s", json_real(p->cpu_mean));
	json_object_set_new(root, "energy_j", isnan(p->j_mean) ? json_null() : json_real(p->j_mean));
	json_t *arr = json_array();
	for (int i = 0; i < nb; i++)
		json_array_append_new(arr, json_block(p, v[i]));
	json_object_set_new(root, "blocks", arr);
	json_dumpf(root, out, JSON_INDENT(2));
	fputc('\n', out);
	json_decref(root);
}

static void report_csv(FILE *out, const epi_profile_sum *p, epi_block **v, int nb)
{
	fputs("block,kind,file,line,function,object,samples,share,share_lo,share_hi,time_s,time_lo,time_hi,"
	      "energy_j,energy_lo,energy_hi,power_w,power_lo,power_hi\n", out);
	for (int i = 0; i < nb; i++) {
		epi_block_est e;
		epi_block_estimate(p, v[i], &e);
		fprintf(out, "\"%s\",%s,%s,", v[i]->name, kind_name(v[i]->kind), v[i]->file ? v[i]->file : "");
		if (v[i]->line)
			fprintf(out, "%d", v[i]->line);
		fprintf(out, ",%s,%s,%" PRIu64, v[i]->function ? v[i]->function : "", v[i]->object ? v[i]->object : "", v[i]->n);
		epi_est *es[] = {&e.share, &e.time, &e.energy, &e.power};
		for (int k = 0; k < 4; k++)
			for (int j = 0; j < 3; j++) {
				char b[40];
				epi_fmt_num(b, sizeof b, j == 0 ? es[k]->v : j == 1 ? es[k]->lo : es[k]->hi, "%.6g");
				fprintf(out, ",%s", b);
			}
		fputc('\n', out);
	}
}

static void report_table(FILE *out, const epi_profile_sum *p, epi_block **v, int nb)
{
	const char *basis = p->time_is_cpu ? "cpu" : "wall";
	char iv[32];
	fmt_time(iv, sizeof iv, p->info.interval_ns);
	fprintf(out, "%s: %d run%s, %" PRIu64 " samples every %s (%s), %s time %.4g s per run",
		p->info.command, p->nruns, p->nruns == 1 ? "" : "s", p->n, iv, p->info.method, basis, p->t_mean);
	/* runs further apart than a quiet machine's: the intervals carry it */
	double sd = epi_profile_time_sd(p);
	if (sd >= EPI_RUNS_APART * p->t_mean)
		fprintf(out, " (runs +- %.0f%%)", 100 * sd / p->t_mean);
	if (!isnan(p->j_mean))
		fprintf(out, ", %.4g J measured (%s)", p->j_mean, p->info.domain);
	else
		fprintf(out, ", no energy (meter: %s)", p->info.meter);
	if (!isnan(p->info.effective_ghz))
		fprintf(out, ", clock %.3f GHz effective", p->info.effective_ghz);
	if (!isnan(p->info.dram_load_s))
		fprintf(out, ", memory %.3g ns a load (load.dram)", p->info.dram_load_s * 1e9);
	fputc('\n', out);
	int wn = 5;
	for (int i = 0; i < nb; i++)
		wn = (int)strlen(v[i]->name) > wn ? (int)strlen(v[i]->name) : wn;
	fprintf(out, "%-*s %8s  %-32s %-32s %s\n", wn, "block", "samples", "time s [95% CI]", "energy J [95% CI]",
		"power W [95% CI]");
	for (int i = 0; i < nb; i++) {
		epi_block_est e;
		epi_block_estimate(p, v[i], &e);
		char t[64], en[64], pw[64];
		ci(t, sizeof t, e.time, "%.4g");
		ci(en, sizeof en, e.energy, "%.4g");
		ci(pw, sizeof pw, e.power, "%.4g");
		fprintf(out, "%-*s %8" PRIu64 "  %-32s %-32s %s\n", wn, v[i]->name, v[i]->n, t, en, pw);
	}
	if (p->lost)
		fprintf(out, "(%" PRIu64 " sample%s lost: %s)\n", p->lost, p->lost == 1 ? "" : "s",
			p->time_is_cpu ? "the kernel's ring buffers were full" : "ticks missed while sampling fell behind, each given the blocks of the tick after it");
}

/* The blocks, most samples first, in FMT. */
static void report(FILE *out, const epi_profile_sum *p, enum epi_format fmt, const char *trace)
{
	int nb;
	epi_block *blocks = epi_attrib_blocks(p->attrib, &nb);
	epi_block **v = xmalloc((size_t)(nb ? nb : 1) * sizeof *v);
	for (int i = 0; i < nb; i++)
		v[i] = &blocks[i];
	qsort(v, (size_t)nb, sizeof *v, by_samples);
	if (fmt == EPI_FMT_JSON)
		report_json(out, p, v, nb, trace);
	else if (fmt == EPI_FMT_CSV)
		report_csv(out, p, v, nb);
	else
		report_table(out, p, v, nb);
	free(v);
}

/* The command line as one shell-quoted string. */
static void quote_cmd(char *out, size_t n, char *const *argv)
{
	size_t k = 0;
	out[0] = 0;
	for (int i = 0; argv[i] && k + 4 < n; i++) {
		int plain = argv[i][0] != 0 && strspn(argv[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@") == strlen(argv[i]);
		k += (size_t)snprintf(out + k, n - k, "%s%s%s%s", i ? " " : "", plain ? "" : "'", argv[i], plain ? "" : "'");
	}
}

/* The notes about sources that could not be used, then the report. */
static void show(epi_profile_sum *p, enum epi_format fmt, const char *trace)
{
	const char *notes = epi_attrib_notes(p->attrib);
	if (*notes)
		fprintf(stderr, "%s", notes);
	report(stdout, p, fmt, trace);
}

static int do_report(const char *trace, enum epi_by by, enum epi_format fmt, char **clang, int nclang)
{
	char err[EPI_ERRLEN], warn[EPI_ERRLEN];
	epi_profile_sum p;
	if (epi_profile_load(&p, trace, by, (const char *const *)clang, nclang, warn, err) < 0)
		epi_die(1, "%s", err);
	if (warn[0])
		epi_warn("%s", warn);
	show(&p, fmt, trace);
	epi_profile_sum_free(&p);
	return 0;
}

typedef struct profile_opts {
	const char *output, *method, *meter_spec, *domain, *freq, *rep;
	int runs, max_runs, quiet, seeded, no_memory;
	uint64_t interval, seed;
	enum epi_by by;
	enum epi_format fmt;
	char **args; /* the command to profile, or --report's clang flags */
	int nargs;
	const epi_sampler_ops *ops;
} profile_opts;

/* What the runs made: the trace being written and its blocks. */
typedef struct profile_run {
	epi_meter m;
	epi_profile_opts po;
	epi_trace_writer w;
	epi_profile_sum sum;
	int failed;  /* a run of the command failed or exited non-zero */
	int status0; /* the first run's exit status */
} profile_run;

static void parse_args(int argc, char **argv, profile_opts *o)
{
	static const struct option opts[] = {
		{"output", required_argument, 0, 'o'}, {"runs", required_argument, 0, 'n'},
		{"max-runs", required_argument, 0, 'M'}, {"interval", required_argument, 0, 'i'},
		{"method", required_argument, 0, 'T'}, {"meter", required_argument, 0, 'm'},
		{"domain", required_argument, 0, 'd'}, {"freq", required_argument, 0, 'f'},
		{"seed", required_argument, 0, 'S'},   {"report", required_argument, 0, 'r'},
		{"by", required_argument, 0, 'b'},     {"format", required_argument, 0, 'F'},
		{"quiet", no_argument, 0, 'q'},        {"help", no_argument, 0, 'h'},
		{"no-memory-probe", no_argument, 0, 'P'},
		{0, 0, 0, 0},
	};
	*o = (profile_opts){.method = "perf", .meter_spec = "auto", .max_runs = 30, .interval = 1000000,
			    .by = EPI_BY_LOOP, .fmt = EPI_FMT_TABLE};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:n:i:m:d:f:r:b:F:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': o->output = optarg; break;
		case 'n': o->runs = epi_parse_count("--runs", optarg, 1, 100000); break;
		case 'M': o->max_runs = epi_parse_count("--max-runs", optarg, 1, 100000); break;
		case 'i': o->interval = parse_interval(optarg); break;
		case 'T': o->method = optarg; break;
		case 'm': o->meter_spec = optarg; break;
		case 'd': o->domain = optarg; break;
		case 'f': o->freq = optarg; break;
		case 'S': o->seed = (uint64_t)epi_parse_count("--seed", optarg, 0, 2147483647); o->seeded = 1; break;
		case 'r': o->rep = optarg; break;
		case 'b':
			if (strcmp(optarg, "loop") == 0) o->by = EPI_BY_LOOP;
			else if (strcmp(optarg, "function") == 0) o->by = EPI_BY_FUNCTION;
			else if (strcmp(optarg, "line") == 0) o->by = EPI_BY_LINE;
			else epi_die(2, "--by '%s': give loop, function or line", optarg);
			break;
		case 'F': o->fmt = epi_parse_format(optarg); break;
		case 'q': o->quiet = 1; break;
		case 'P': o->no_memory = 1; break;
		case 'h': printf(usage, epi_prog, epi_prog); exit(0);
		default: epi_die(2, "unknown option");
		}
	}
	o->args = argv + optind;
	o->nargs = argc - optind;
	if (o->rep)
		return;
	if (optind >= argc)
		epi_die(2, "no command to profile: %s [options] -o TRACE -- COMMAND [ARGS...]", epi_prog);
	if (!o->output)
		epi_die(2, "no trace file: give -o TRACE");
	o->ops = epi_sampler_find(o->method);
	if (!o->ops)
		epi_die(2, "--method '%s' is not a sampler here (perf or ptrace)", o->method);
}

/* The meter, and the domain it attributes (NULL: the total). */
static void open_meter(profile_opts *o, epi_meter *m)
{
	epi_open_meter(m, o->meter_spec, "profiling");
	if (o->domain && !m->time_only && strcmp(o->domain, "total") != 0) {
		int found = 0;
		for (int i = 0; i < m->ndom; i++)
			found |= strcmp(m->dom[i].name, o->domain) == 0;
		if (!found)
			epi_die(1, "meter %s has no domain '%s'", m->ops->name, o->domain);
	}
	if (o->domain && strcmp(o->domain, "total") == 0)
		o->domain = NULL;
}

/* Pins the CPUs to --freq (restored at exit); returns it in kHz, or 0. */
static long pin_freq(const profile_opts *o)
{
	char err[EPI_ERRLEN];
	long khz = 0;
	if (!o->freq)
		return 0;
	if (epi_freq_parse(o->freq, &khz, err) < 0)
		epi_die(1, "%s", err);
	epi_cpufreq *cf = xcalloc(1, sizeof *cf);
	if (epi_cpufreq_scan(cf, 0, err) < 0)
		epi_die(1, "cannot pin the frequency to %s: %s", o->freq, err);
	if (epi_freq_pin(cf, NULL, 0, khz, 0, err) < 0)
		epi_die(1, "%s", err);
	return khz;
}

/* The trace's header written, the sampler's options and the blocks ready. */
static void start_trace(profile_opts *o, profile_run *r, long khz)
{
	char err[EPI_ERRLEN];
	char **cmd = o->args;
	epi_meter *m = &r->m;
	if (!o->seeded) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		o->seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)getpid();
	}
	epi_trace_info info = {0};
	snprintf(info.method, sizeof info.method, "%s", o->ops->name);
	snprintf(info.meter, sizeof info.meter, "%s", m->time_only ? "none" : m->desc);
	snprintf(info.domain, sizeof info.domain, "%s", o->domain ? o->domain : m->time_only ? "" : "total");
	info.interval_ns = o->interval;
	info.freq_khz = khz;
	/* the clock the runs will have, as calibration measures it: what the
	 * model's cycles are priced at when it differs from the table's */
	int cpu = sched_getcpu();
	info.effective_ghz = epi_effective_ghz(cpu >= 0 ? cpu : 0);
	/* and memory's rate, as calibration measures it: what the model's
	 * memory-bound times are priced at when it differs from the table's */
	info.dram_load_s = NAN;
	if (!o->no_memory) {
		if (isatty(2) && !o->quiet)
			fprintf(stderr, "%s: measuring memory's rate before the runs\n", epi_prog);
		if (epi_measure_memory(cpu >= 0 ? cpu : 0, EPI_MEMORY_RUN_S, &info.dram_load_s, err) < 0)
			epi_warn("memory's rate not measured (%s): epi-validate prices memory as the table measured it",
				 err);
	}
	quote_cmd(info.command, sizeof info.command, cmd);
	r->po = (epi_profile_opts){.argv = cmd, .interval_ns = o->interval, .meter = m->time_only ? NULL : m,
				   .domain = o->domain, .seed = o->seed};
	info.meter_interval_s = m->time_only ? NAN : epi_meter_step(m);
	info.meter_update_s = m->time_only ? NAN : epi_meter_lag(m);
	snprintf(info.exe, sizeof info.exe, "%s", cmd[0]);
	if (epi_trace_create(&r->w, o->output, &info, err) < 0)
		epi_die(1, "%s", err);
	r->sum = (epi_profile_sum){0};
	r->sum.info = info;
	r->sum.time_is_cpu = strcmp(o->ops->name, "perf") == 0;
	r->sum.attrib = epi_attrib_new(EPI_BY_LOOP, NULL, 0);
	r->failed = 0;
	r->status0 = 0;
}

/* Runs the command until --runs, convergence, a failed run or a signal,
 * each run into the trace and the blocks. */
static void run_all(const profile_opts *o, profile_run *r)
{
	char err[EPI_ERRLEN];
	char **cmd = o->args;
	int tty = isatty(2) && !o->quiet, target = o->runs ? o->runs : o->max_runs;
	for (int i = 0; i < target && !stop_sig; i++) {
		epi_run_data run;
		if (epi_profile_run(o->ops, &r->po, (uint32_t)i, &run, err) < 0) {
			epi_run_data_free(&run);
			if (r->w.nruns > 0 && epi_trace_commit(&r->w, err) == 0)
				epi_die(1, "run %d: %s (the %u finished run%s are in '%s')", i + 1, err, r->w.nruns,
					r->w.nruns == 1 ? "" : "s", o->output);
			epi_trace_abort(&r->w);
			epi_die(1, "%s", err);
		}
		if (run.end.flags & EPI_RUN_METER_FAILED)
			epi_warn("run %d: the meter failed: %s (this run has no energy)", i + 1, err);
		if (epi_trace_put_run(&r->w, &run, err) < 0 ||
		    epi_profile_add_run(&r->sum, run.maps, run.nmaps, run.s, run.ns, run.r, run.nr, &run.end, err) < 0) {
			epi_trace_abort(&r->w);
			epi_die(1, "%s", err);
		}
		/* a crash, or an exit status other than the first run's, stops the
		 * runs; a program that exits non-zero by design (the same status
		 * every run) is run as often as asked, said once */
		int st = run.end.status, stop = 0;
		if (WIFSIGNALED(st) || !WIFEXITED(st)) {
			stop = r->failed = 1;
			epi_warn("run %d: '%s' was killed by signal %d (%s); runs stop here", i + 1, cmd[0],
				 WIFSIGNALED(st) ? WTERMSIG(st) : 0, WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "?");
		} else if (i == 0 && WEXITSTATUS(st) != 0) {
			r->failed = 1;
			r->status0 = WEXITSTATUS(st);
			epi_warn("run 1: '%s' exited with status %d; the runs go on while it exits so", cmd[0],
				 WEXITSTATUS(st));
		} else if (WEXITSTATUS(st) != r->status0) {
			stop = r->failed = 1;
			epi_warn("run %d: '%s' exited with status %d, run 1 with %d; runs stop here", i + 1, cmd[0],
				 WEXITSTATUS(st), r->status0);
		}
		if (run.kernel_excluded && i == 0)
			epi_warn("perf_event_paranoid allows user-space samples only: time in system calls is not sampled");
		if (tty)
			fprintf(stderr, "\r%s: run %d: %.3f s, %zu samples, profiler %.2f%% cpu   ", epi_prog, i + 1,
				run.end.wall_s, run.ns, 100 * run.end.prof_cpu_s / (run.end.wall_s > 0 ? run.end.wall_s : 1));
		epi_run_data_free(&run);
		if (stop)
			break;
		if (!o->runs && i + 1 >= 3 && epi_profile_converged(&r->sum, 0.05))
			break;
	}
	if (tty)
		fputc('\n', stderr);
}

/* The trace committed with the runs that finished. */
static void finish_trace(const profile_opts *o, profile_run *r)
{
	char err[EPI_ERRLEN];
	if (r->w.nruns == 0) {
		epi_trace_abort(&r->w);
		epi_die(1, "no run finished: nothing written");
	}
	if (epi_trace_commit(&r->w, err) < 0)
		epi_die(1, "%s", err);
	if (stop_sig)
		epi_warn("stopped by signal %d after %u run%s: they are in '%s'", (int)stop_sig, r->w.nruns,
			 r->w.nruns == 1 ? "" : "s", o->output);
}

/* The profiler's own share, and the interval that keeps it under 1%. */
static void note_overhead(const profile_opts *o, const epi_profile_sum *sum)
{
	double share = sum->wall_mean > 0 ? sum->prof_cpu_mean / sum->wall_mean : 0;
	char iv[32], sug[32];
	fmt_time(iv, sizeof iv, o->interval);
	if (share > 0) {
		uint64_t s1 = (uint64_t)((double)o->interval * share / 0.01);
		s1 = s1 < 10000 ? 10000 : (s1 + 500) / 1000 * 1000;
		fmt_time(sug, sizeof sug, s1);
		if (!o->quiet)
			fprintf(stderr, "%s: profiler overhead %.2f%% of the run (its own CPU time at %s); "
				"%s keeps it near 1%%\n", epi_prog, 100 * share, iv, sug);
	}
}

int epi_profile_main(int argc, char **argv)
{
	profile_opts o;
	profile_run r;
	parse_args(argc, argv, &o);
	if (o.rep)
		return do_report(o.rep, o.by, o.fmt, o.args, o.nargs);
	open_meter(&o, &r.m);
	long khz = pin_freq(&o);
	/* after pinning: a signal ends the runs, keeps the trace, and the
	 * frequencies are restored at exit */
	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);
	signal(SIGHUP, on_stop);
	start_trace(&o, &r, khz);
	run_all(&o, &r);
	finish_trace(&o, &r);
	note_overhead(&o, &r.sum);
	show(&r.sum, o.fmt, o.output); /* what was just written, from the same blocks */
	epi_profile_sum_free(&r.sum);
	epi_meter_close(&r.m);
	if (stop_sig)
		return 128 + (int)stop_sig;
	return r.failed ? 1 : 0;
}
