/* epi calibrate: measures what each basic operation costs on this machine,
 * at every CPU frequency it offers, and writes the cost table that
 * epi-predict prices with. The plan is in calibrate/calibrate.c; this file
 * parses options, shows progress and prints the summary. */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "calibrate/calibrate.h"
#include "calibrate/plot.h"
#include "cmd/epi_cmd.h"
#include "machine/meter.h"
#include "model/freq.h"
#include "model/json.h"
#include "model/util.h"

static const char usage[] =
	"usage: %s [options]\n"
	"\n"
	"Runs a microbenchmark per basic operation at each CPU frequency and writes\n"
	"this machine's cost table: energy, time and cycles per operation, with their\n"
	"spread, which epi-predict then uses.\n"
	"\n"
	"      --freqs all|current|LIST  frequencies (default all; LIST: 1.6GHz,2.4GHz);\n"
	"                       without frequency control: the current one, said so\n"
	"      --ops LIST       operations or classes (default all): add,load.l2,...\n"
	"      --list           list the operations and their instruction sequences\n"
	"      --style net|paper  net (default): asm kernels minus the empty loop; paper:\n"
	"                       RR-8416's C kernels at -O0, loop included, as its tables\n"
	"  -m, --meter M        auto (default), powercap, msr, perf, hwmon,\n"
	"                       wattsup:DEVICE, const:WATTS or none (time only)\n"
	"  -d, --domain D       the meter domain to price with (default: the machine's total)\n"
	"      --cpu N          run the kernels on CPU N (default: the last this process may use)\n"
	"      --precision P    95%% half-width wanted, relative (default 0.01, or 1%%)\n"
	"      --max-runs N     runs per operation and frequency at most (default 30)\n"
	"      --max-time T     seconds of runs per operation and frequency at most (default 10)\n"
	"      --run-time T     seconds per run (default 100 x the meter's update interval,\n"
	"                       at least 0.02)\n"
	"      --idle-time T    seconds of idle power per frequency (default 1)\n"
	"  -o, --output FILE    the table (default: $EPI_DATA_DIR/costtable.xml, else\n"
	"                       ~/.local/share/epi/costtable.xml, where epi-predict finds it)\n"
	"      --resume         continue an interrupted calibration of FILE\n"
	"      --plot SVG       draw the table (--output, or this machine's) as bars of\n"
	"                       energy per operation grouped by frequency (gnuplot); no calibration\n"
	"  -F, --format table|csv|json   the summary on stdout\n"
	"  -q, --quiet          no progress\n"
	"  -h, --help\n"
	"\n"
	"The table is written atomically after every finished operation; CPU\n"
	"frequencies are restored at the end, on SIGINT, SIGTERM and SIGHUP (after\n"
	"SIGKILL: epi freq --restore). See epi-calibrate(1).\n";

typedef struct prog {
	int tty, quiet, width;
	const char *prog;
} prog;

static void fmt_dur(char *b, size_t n, double s)
{
	if (s < 60)
		snprintf(b, n, "%.0fs", s);
	else if (s < 3600)
		snprintf(b, n, "%dm%02ds", (int)s / 60, (int)s % 60);
	else
		snprintf(b, n, "%dh%02dm", (int)s / 3600, ((int)s % 3600) / 60);
}

/* A bar with ETA on a terminal; a plain line per finished entry otherwise. */
static void show(void *arg, const epi_calib_progress *p)
{
	prog *pr = arg;
	if (pr->quiet)
		return;
	if (!pr->tty) {
		if (p->line)
			fprintf(stderr, "%s: [%d/%d] %s\n", pr->prog, p->done, p->total, p->line);
		return;
	}
	if (p->line)
		fprintf(stderr, "\r\033[K%s\n", p->line);
	char g[32], eta[32] = "?";
	epi_freq_ghz(g, sizeof g, p->khz);
	if (p->done > 0 && p->total > 0)
		fmt_dur(eta, sizeof eta, p->elapsed * (p->total - p->done) / p->done);
	int w = 30, fill = p->total ? w * p->done / p->total : w;
	char bar[64];
	for (int i = 0; i < w; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[w] = 0;
	fprintf(stderr, "\r\033[K[%s] %d/%d  %s %s  %s left", bar, p->done, p->total, g, p->op ? p->op : "", eta);
	fflush(stderr);
}

static void list_kernels(const char *style)
{
	int n;
	const epi_kernel *const *k = strcmp(style, "paper") == 0 ? epi_kernels_paper(&n) : epi_kernels(&n);
	printf("%-17s %-5s %-4s %s\n", "operation", "unit", "", "what (instruction sequence of one unit)");
	for (int i = 0; i < n; i++)
		printf("%-17s %-5s %-4s %s (%s)\n", k[i]->name, epi_unit_name(k[i]->unit), k[i]->latency ? "lat" : "",
		       k[i]->what, k[i]->seq);
}
static void report_csv(const epi_table *t, FILE *o)
{
	fprintf(o, "freq_ghz,effective_ghz,idle_w,op,unit,time_s,time_ci_s,cycles,energy_j,energy_ci_j,"
		   "energy_dyn_j,runs,outliers,drift,kernel\n");
	for (int i = 0; i < t->nf; i++)
		for (int j = 0; j < t->f[i].n; j++) {
			const epi_fcol *f = &t->f[i];
			const epi_cost *e = &f->op[j];
			char eg[32], iw[32], ts[32], tc[32], cy[32], ej[32], ec[32], ed[32];
			epi_fmt_num(eg, sizeof eg, f->effective_ghz, "%.4f");
			epi_fmt_num(iw, sizeof iw, f->idle_w, "%.6g");
			epi_fmt_num(ts, sizeof ts, e->t, "%.6g");
			epi_fmt_num(tc, sizeof tc, e->t_ci, "%.3g");
			epi_fmt_num(cy, sizeof cy, e->cycles, "%.4g");
			epi_fmt_num(ej, sizeof ej, e->e, "%.6g");
			epi_fmt_num(ec, sizeof ec, e->e_ci, "%.3g");
			epi_fmt_num(ed, sizeof ed, e->e_dyn, "%.6g");
			fprintf(o, "%.6g,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%ld,%ld,%d,%s\n", f->khz / 1e6, eg, iw, e->key,
				epi_unit_name(e->unit), ts, tc, cy, ej, ec, ed, e->runs, e->outliers < 0 ? 0 : e->outliers,
				e->drift, e->kernel ? e->kernel : "");
		}
}

static json_t *json_cost(const epi_cost *e)
{
	json_t *x = json_object();
	json_object_set_new(x, "op", json_string(e->key));
	json_object_set_new(x, "unit", json_string(epi_unit_name(e->unit)));
	json_object_set_new(x, "time_s", epi_json_num(e->t));
	json_object_set_new(x, "time_ci_s", epi_json_num(e->t_ci));
	json_object_set_new(x, "cycles", epi_json_num(e->cycles));
	json_object_set_new(x, "energy_j", epi_json_num(e->e));
	json_object_set_new(x, "energy_ci_j", epi_json_num(e->e_ci));
	json_object_set_new(x, "energy_dyn_j", epi_json_num(e->e_dyn));
	json_object_set_new(x, "runs", json_integer(e->runs));
	json_object_set_new(x, "outliers", json_integer(e->outliers < 0 ? 0 : e->outliers));
	json_object_set_new(x, "drift", json_boolean(e->drift));
	if (e->kernel)
		json_object_set_new(x, "kernel", json_string(e->kernel));
	return x;
}

static void report_json(const epi_table *t, FILE *o)
{
	json_t *root = json_object();
	json_object_set_new(root, "table", json_string(t->path ? t->path : ""));
	json_object_set_new(root, "cpu", json_string(t->cpu ? t->cpu : ""));
	json_object_set_new(root, "meter", json_string(t->meter ? t->meter : ""));
	json_object_set_new(root, "domain", json_string(t->domain ? t->domain : ""));
	/* what the model sizes working sets and page walks against: 0 unknown, null */
	json_t *caches = json_object();
	static const char *const level[3] = {"l1_bytes", "l2_bytes", "l3_bytes"};
	for (int i = 0; i < 3; i++)
		json_object_set_new(caches, level[i], t->cache[i] ? json_integer((json_int_t)t->cache[i]) : json_null());
	json_object_set_new(caches, "l3_serves_bytes", t->l3_serves ? json_integer((json_int_t)t->l3_serves) : json_null());
	json_object_set_new(caches, "tlb_pages", t->tlb_pages ? json_integer((json_int_t)t->tlb_pages) : json_null());
	json_object_set_new(root, "caches", caches);
	json_t *fs = json_array();
	for (int i = 0; i < t->nf; i++) {
		const epi_fcol *f = &t->f[i];
		json_t *jf = json_object();
		json_object_set_new(jf, "ghz", json_real(f->khz / 1e6));
		json_object_set_new(jf, "effective_ghz", epi_json_num(f->effective_ghz));
		json_object_set_new(jf, "pinned", json_boolean(f->pinned));
		json_object_set_new(jf, "idle_w", epi_json_num(f->idle_w));
		json_t *ops = json_array();
		for (int j = 0; j < f->n; j++)
			json_array_append_new(ops, json_cost(&f->op[j]));
		json_object_set_new(jf, "ops", ops);
		json_array_append_new(fs, jf);
	}
	json_object_set_new(root, "frequencies", fs);
	json_dumpf(root, o, JSON_INDENT(2) | JSON_REAL_PRECISION(8));
	fputc('\n', o);
	json_decref(root);
}

static void table_cost(const epi_cost *e, FILE *o)
{
	char en[32] = "-", ec[16] = "-", ed[32] = "-", cy[32] = "-";
	if (!isnan(e->e)) {
		snprintf(en, sizeof en, "%.4g", e->e * 1e9);
		snprintf(ec, sizeof ec, "%.2f", 100 * e->e_ci / fabs(e->e));
	}
	if (!isnan(e->e_dyn))
		snprintf(ed, sizeof ed, "%.4g", e->e_dyn * 1e9);
	if (!isnan(e->cycles))
		snprintf(cy, sizeof cy, "%.4g", e->cycles);
	fprintf(o, "  %-17s %-4s %12.4g %7.2f %10s %12s %7s %12s %5ld%s%s\n", e->key, epi_unit_name(e->unit), e->t * 1e9,
		e->t != 0 ? 100 * e->t_ci / fabs(e->t) : 0.0, cy, en, ec, ed, e->runs,
		e->outliers > 0 ? "  outliers left out" : "", e->drift ? "  DRIFT" : "");
}

static void report_table(const epi_table *t, FILE *o)
{
	fprintf(o, "cost table %s\ncpu: %s; meter: %s (%s)\n", t->path ? t->path : "", t->cpu ? t->cpu : "?",
		t->meter ? t->meter : "?", t->domain ? t->domain : "?");
	fprintf(o, "caches:");
	for (int i = 0; i < 3; i++) {
		if (t->cache[i])
			fprintf(o, " L%d %llu KiB%s", i + 1, t->cache[i] >> 10, i < 2 ? "," : "");
		else
			fprintf(o, " L%d not known%s", i + 1, i < 2 ? "," : "");
	}
	if (t->l3_serves)
		fprintf(o, " (serves %llu KiB)", t->l3_serves >> 10);
	if (t->tlb_pages)
		fprintf(o, "; the second-level TLB maps %llu pages", t->tlb_pages);
	fputc('\n', o);
	for (int i = 0; i < t->nf; i++) {
		const epi_fcol *f = &t->f[i];
		char g[32];
		epi_freq_ghz(g, sizeof g, f->khz);
		fprintf(o, "\n%s%s, effective %.3f GHz", g, f->pinned ? "" : " (not pinned)", f->effective_ghz);
		if (!isnan(f->idle_w))
			fprintf(o, ", idle %.3f W", f->idle_w);
		fprintf(o, "\n  %-17s %-4s %12s %7s %10s %12s %7s %12s %5s\n", "op", "unit", "time ns", "+-%", "cycles",
			"energy nJ", "+-%", "dynamic nJ", "runs");
		for (int j = 0; j < f->n; j++)
			if (!f->op[j].kernel) /* a class entry repeats its kernel */
				table_cost(&f->op[j], o);
	}
}

static double parse_pos(const char *opt, const char *v, int percent_ok)
{
	char *end;
	double d = strtod(v, &end);
	if (percent_ok && *end == '%' && end[1] == 0)
		d /= 100, end++;
	if (*end || !(d > 0) || isinf(d))
		epi_die(2, "%s '%s' is not a positive number", opt, v);
	return d;
}

/* The last CPU this process may run on. */
static int default_cpu(void)
{
	cpu_set_t s;
	if (sched_getaffinity(0, sizeof s, &s) < 0)
		return 0;
	for (int i = CPU_SETSIZE - 1; i >= 0; i--)
		if (CPU_ISSET(i, &s))
			return i;
	return 0;
}

typedef struct calibrate_opts {
	epi_calib c; /* the calibration's options; epi_calibrate() adds how it went */
	const char *meter_spec, *plot;
	int list;
	enum epi_format format;
	prog pr;
	char def[4096];     /* the table's default path, without --output */
	char cmdline[2048]; /* the command line, recorded in the table */
} calibrate_opts;

typedef struct calibrate_result {
	epi_meter m;
	epi_table t;
	int r; /* epi_calibrate()'s: 0 complete, 1 stopped by a signal */
} calibrate_result;

/* The command line as epi-calibrate's, for the table and --resume. */
static void command_line(char *b, size_t n, int argc, char **argv)
{
	snprintf(b, n, "epi-calibrate");
	for (int i = 1; i < argc; i++) {
		size_t l = strlen(b);
		snprintf(b + l, n - l, " %s", argv[i]);
	}
}

static void parse_args(int argc, char **argv, calibrate_opts *o)
{
	enum { O_FREQS = 256, O_OPS, O_LIST, O_STYLE, O_CPU, O_PREC, O_MAXRUNS, O_MAXTIME, O_RUNTIME, O_IDLE, O_RESUME,
	       O_PLOT };
	static const struct option opts[] = {
		{"freqs", required_argument, 0, O_FREQS},     {"ops", required_argument, 0, O_OPS},
		{"list", no_argument, 0, O_LIST},             {"style", required_argument, 0, O_STYLE},
		{"meter", required_argument, 0, 'm'},         {"domain", required_argument, 0, 'd'},
		{"cpu", required_argument, 0, O_CPU},         {"precision", required_argument, 0, O_PREC},
		{"max-runs", required_argument, 0, O_MAXRUNS}, {"max-time", required_argument, 0, O_MAXTIME},
		{"run-time", required_argument, 0, O_RUNTIME}, {"idle-time", required_argument, 0, O_IDLE},
		{"output", required_argument, 0, 'o'},        {"resume", no_argument, 0, O_RESUME},
		{"format", required_argument, 0, 'F'},        {"quiet", no_argument, 0, 'q'},
		{"plot", required_argument, 0, O_PLOT},
		{"help", no_argument, 0, 'h'},                {0, 0, 0, 0},
	};
	*o = (calibrate_opts){.meter_spec = "auto", .format = EPI_FMT_TABLE, .pr = {.tty = isatty(2), .prog = epi_prog}};
	epi_calib *c = &o->c;
	epi_calib_defaults(c);
	c->cpu = default_cpu();
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "m:d:o:F:qh", opts, NULL)) != -1) {
		switch (ch) {
		case O_FREQS: c->freqs = optarg; break;
		case O_OPS: c->ops = optarg; break;
		case O_LIST: o->list = 1; break;
		case O_STYLE:
			if (strcmp(optarg, "net") != 0 && strcmp(optarg, "paper") != 0)
				epi_die(2, "invalid --style '%s' (net or paper)", optarg);
			c->style = optarg;
			break;
		case 'm': o->meter_spec = optarg; break;
		case 'd': c->domain = optarg; break;
		case O_CPU: {
			long v;
			if (epi_parse_long(optarg, 0, CPU_SETSIZE - 1, &v) < 0)
				epi_die(2, "--cpu '%s' is not a CPU number", optarg);
			c->cpu = (int)v;
			break;
		}
		case O_PREC: c->precision = parse_pos("--precision", optarg, 1); break;
		case O_MAXRUNS: c->max_runs = epi_parse_count("--max-runs", optarg, 2, 100000); break;
		case O_MAXTIME: c->max_time = parse_pos("--max-time", optarg, 0); break;
		case O_RUNTIME: c->run_s = parse_pos("--run-time", optarg, 0); break;
		case O_IDLE: c->idle_s = parse_pos("--idle-time", optarg, 0); break;
		case 'o': c->output = optarg; break;
		case O_RESUME: c->resume = 1; break;
		case O_PLOT: o->plot = optarg; break;
		case 'F': o->format = epi_parse_format(optarg); break;
		case 'q': o->pr.quiet = 1; break;
		case 'h': printf(usage, epi_prog); exit(0);
		default: epi_die(2, "unknown option");
		}
	}
	if (optind < argc)
		epi_die(2, "unexpected argument '%s'", argv[optind]);
	command_line(o->cmdline, sizeof o->cmdline, argc, argv);
	c->command = o->cmdline;
}

/* Without --output, the table goes where epi-predict finds it. */
static void default_output(calibrate_opts *o)
{
	if (o->c.output)
		return;
	if (epi_table_default_path(o->def, sizeof o->def) < 0)
		epi_die(1, "no place for the table: set HOME, XDG_DATA_HOME or EPI_DATA_DIR, or give --output");
	o->c.output = o->def;
}

/* --plot: draws the table; no calibration. */
static int draw(const calibrate_opts *o)
{
	char err[EPI_ERRLEN];
	epi_table t;
	if (epi_table_load(&t, o->c.output, err) < 0)
		epi_die(1, "%s", err);
	int r = epi_table_plot(&t, o->plot, err);
	epi_table_free(&t);
	if (r < 0)
		epi_die(1, "%s", err);
	if (!o->pr.quiet)
		fprintf(stderr, "%s: drew '%s' into '%s'\n", epi_prog, o->c.output, o->plot);
	return 0;
}

/* The folder the table goes in, made when missing. */
static void make_folder(const char *output)
{
	char err[EPI_ERRLEN], folder[4096];
	snprintf(folder, sizeof folder, "%s", output);
	char *slash = strrchr(folder, '/');
	if (slash && slash != folder) {
		*slash = 0;
		if (epi_mkdirs(folder, err) < 0)
			epi_die(1, "%s", err);
	}
}

static void open_meter(epi_meter *m, const char *spec, const char *domain)
{
	char why[EPI_WHYLEN], err[EPI_ERRLEN];
	if (epi_meter_open(m, spec, why, err) < 0)
		epi_die(1, "%s", err);
	if (!domain)
		return;
	int found = 0;
	for (int i = 0; i < m->ndom; i++)
		found |= strcmp(m->dom[i].name, domain) == 0;
	if (!found)
		epi_die(1, "meter %s has no domain '%s'", m->ops->name, domain);
}

/* Calibrates into RES; dies on an error, saying what the table kept. */
static void run(calibrate_opts *o, calibrate_result *res)
{
	epi_calib *c = &o->c;
	char err[EPI_ERRLEN];
	make_folder(c->output);
	open_meter(&res->m, o->meter_spec, c->domain);
	c->meter = &res->m;
	c->catch_signals = 1;
	c->progress = show;
	c->progress_arg = &o->pr;
	res->r = epi_calibrate(c, &res->t, err);
	if (o->pr.tty && !o->pr.quiet)
		fputs("\r\033[K", stderr); /* the bar goes before anything is said */
	for (int i = 0; i < c->ncannot; i++)
		epi_warn("%s", c->cannot[i]);
	epi_meter_close(&res->m);
	if (res->r < 0) {
		int kept = c->done + c->skipped;
		if (kept > 0)
			epi_die(1, "%s; '%s' keeps %d finished entr%s: continue with --resume", err, c->output, kept,
				kept == 1 ? "y" : "ies");
		epi_die(1, "%s", err);
	}
}

/* A signal stopped the calibration: how to go on; the exit status. */
static int interrupted(const calibrate_opts *o, calibrate_result *res)
{
	const epi_calib *c = &o->c;
	fprintf(stderr, "%s: interrupted by signal %d: '%s' keeps %d of %d entries; continue with: %s --resume\n",
		epi_prog, c->stopped_by, c->output, c->done + c->skipped, c->total + c->skipped, o->cmdline);
	epi_table_free(&res->t);
	return 128 + c->stopped_by;
}

/* The summary of the table on stdout. */
static void report(const calibrate_opts *o, calibrate_result *res)
{
	epi_table *t = &res->t;
	free(t->path);
	t->path = xstrdup(o->c.output);
	if (o->format == EPI_FMT_CSV)
		report_csv(t, stdout);
	else if (o->format == EPI_FMT_JSON)
		report_json(t, stdout);
	else
		report_table(t, stdout);
	if (o->c.skipped)
		epi_warn("%d entries were already in '%s' and were kept (--resume)", o->c.skipped, o->c.output);
	epi_table_free(t);
}

int epi_calibrate_main(int argc, char **argv)
{
	calibrate_opts o;
	parse_args(argc, argv, &o);
	if (o.list) {
		list_kernels(o.c.style);
		return 0;
	}
	default_output(&o);
	if (o.plot)
		return draw(&o);
	calibrate_result res;
	run(&o, &res);
	if (res.r == 1)
		return interrupted(&o, &res);
	report(&o, &res);
	return 0;
}
