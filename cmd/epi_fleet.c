/* epi fleet: a cluster's cost tables, one per node in a folder.
 * `calibrate` submits one Slurm job array, a task per node on an exclusive
 * allocation running epi-calibrate, and follows it; `status` reports on it
 * later; `report` compares the nodes of each CPU model: per operation and
 * frequency the mean, the spread (coefficient of variation, range) and the
 * nodes beyond 3.5 scaled MADs of the median, as a table, CSV or JSON, and
 * a figure. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "calibrate/plot.h"
#include "cmd/epi_cmd.h"
#include "fleet/fleet.h"
#include "model/freq.h"
#include "model/json.h"
#include "model/util.h"
#include "predict/report.h"

static const char usage[] =
	"usage: %s calibrate -d TABLEDIR [--partition P] [--nodes LIST] [--per-model] [--time LIMIT]\n"
	"                         [--resume] [--no-wait] [--format F] [CALIBRATE OPTIONS] [-- ...]\n"
	"       %s status -d TABLEDIR [--format table|csv|json]\n"
	"       %s report -d TABLEDIR [--format table|csv|json] [-o FILE] [--plot FILE.svg]\n"
	"\n"
	"calibrate: one Slurm job array (sbatch), a task per node of the partition (or\n"
	"of --nodes), each on an exclusive allocation running epi-calibrate with its\n"
	"options (--freqs, --ops, -m, ...; or any after --) and writing\n"
	"TABLEDIR/NODE.xml; follows the tasks (queued,\n"
	"running, done, failed) and says why each failed; --resume resubmits only the\n"
	"nodes that failed; --per-model identifies the nodes first (epi probe, one\n"
	"array) and calibrates one node per CPU model and microcode; --no-wait prints\n"
	"the job id and returns.\n"
	"status: the tasks of the last job, now.\n"
	"report: the tables compared across the nodes of each CPU model: per operation\n"
	"and frequency, the mean time and energy, their spread across the nodes\n"
	"(coefficient of variation, range) and the outlier nodes (beyond 3.5 scaled\n"
	"MADs of the median); --plot draws energy (else time) per operation per node.\n"
	"See epi-fleet(1).\n";

typedef struct fleet_opts {
	const char *sub, *dir, *output, *plot;
	const char *partition, *nodes, *time_limit;
	int resume, nowait, per_model;
	enum epi_format format;
	char **calib; /* epi-calibrate's options, among fleet's or after -- */
	int ncalib;
} fleet_opts;

/* Whether ARG is an option of epi-calibrate's that fleet calibrate passes
 * on (1: with a value, 0: without), or not one (-1). Fleet's own -d,
 * --format and --resume stay fleet's; -o and --plot are refused later. */
static int calibrate_option(const char *arg)
{
	static const struct {
		const char *name;
		int value;
	} pass[] = {{"--freqs", 1},     {"--ops", 1},       {"--style", 1},     {"-m", 1},
		    {"--meter", 1},     {"--domain", 1},    {"--cpu", 1},       {"--precision", 1},
		    {"--max-runs", 1},  {"--max-time", 1},  {"--run-time", 1},  {"--idle-time", 1},
		    {"-q", 0},          {"--quiet", 0},     {"-o", 1},          {"--output", 1},
		    {"--plot", 1}};
	for (size_t i = 0; i < sizeof pass / sizeof *pass; i++) {
		size_t l = strlen(pass[i].name);
		if (!strncmp(arg, pass[i].name, l) && (arg[l] == 0 || (arg[l] == '=' && l > 2)))
			return pass[i].value;
	}
	return -1;
}

static void parse_args(int argc, char **argv, fleet_opts *o)
{
	static const struct option opts[] = {
		{"dir", required_argument, 0, 'd'},       {"format", required_argument, 0, 'F'},
		{"output", required_argument, 0, 'o'},    {"plot", required_argument, 0, 'P'},
		{"partition", required_argument, 0, 'p'}, {"nodes", required_argument, 0, 'w'},
		{"time", required_argument, 0, 't'},      {"resume", no_argument, 0, 'R'},
		{"no-wait", no_argument, 0, 'W'},         {"per-model", no_argument, 0, 'M'},
		{"help", no_argument, 0, 'h'},
		{0, 0, 0, 0},
	};
	*o = (fleet_opts){.format = EPI_FMT_TABLE};
	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
			printf(usage, epi_prog, epi_prog, epi_prog);
			exit(0);
		}
		epi_die(2, "which fleet command? calibrate, status or report");
	}
	o->sub = argv[1];
	if (strcmp(o->sub, "report") && strcmp(o->sub, "calibrate") && strcmp(o->sub, "status"))
		epi_die(2, "unknown fleet command '%s' (calibrate, status, report)", o->sub);
	int end = epi_dashdash(argc, argv);
	/* epi-calibrate's own options may come among fleet's (--ops add.i64)
	 * or after --: they go to every node's calibration */
	static char **own, **calib;
	own = xcalloc((size_t)argc + 1, sizeof *own);
	calib = xcalloc((size_t)argc + 1, sizeof *calib);
	int nown = 0;
	for (int i = 0; i < 2; i++)
		own[nown++] = argv[i];
	for (int i = 2; i < end; i++) {
		int takes = calibrate_option(argv[i]);
		if (takes < 0 || strcmp(o->sub, "calibrate")) {
			own[nown++] = argv[i];
			continue;
		}
		calib[o->ncalib++] = argv[i];
		if (takes && !strchr(argv[i], '=') && i + 1 < end)
			calib[o->ncalib++] = argv[++i];
	}
	for (int i = end + 1; i < argc; i++)
		calib[o->ncalib++] = argv[i];
	o->calib = calib;
	int c;
	optind = 2;
	opterr = 0;
	end = nown;
	argv = own;
	while ((c = getopt_long(end, argv, "d:F:o:p:w:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': o->dir = optarg; break;
		case 'F': o->format = epi_parse_format(optarg); break;
		case 'o': o->output = optarg; break;
		case 'P': o->plot = optarg; break;
		case 'p': o->partition = optarg; break;
		case 'w': o->nodes = optarg; break;
		case 't': o->time_limit = optarg; break;
		case 'R': o->resume = 1; break;
		case 'W': o->nowait = 1; break;
		case 'M': o->per_model = 1; break;
		case 'h': printf(usage, epi_prog, epi_prog, epi_prog); exit(0);
		default: epi_die(2, "unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	if (optind < end)
		epi_die(2, "unexpected argument '%s'", argv[optind]);
	if (!o->dir)
		epi_die(2, "no table folder: -d TABLEDIR");
	int calibrating = !strcmp(o->sub, "calibrate");
	if (!calibrating && (o->partition || o->nodes || o->time_limit || o->resume || o->nowait || o->per_model || o->ncalib))
		epi_die(2, "--partition, --nodes, --time, --per-model, --resume, --no-wait and calibrate options are for "
			   "fleet calibrate");
	if (o->resume && o->per_model)
		epi_die(2, "--resume resubmits the last job's nodes as they were chosen: no --per-model with it");
	if (strcmp(o->sub, "report") && (o->plot || o->output))
		epi_die(2, "--plot and -o are for fleet report");
	if (o->resume && (o->nodes || o->partition))
		epi_die(2, "--resume resubmits the last job's missing nodes: no --nodes or --partition with it");
	for (int i = 0; i < o->ncalib; i++)
		if (!strcmp(o->calib[i], "-o") || !strncmp(o->calib[i], "--output", 8) || !strcmp(o->calib[i], "--plot"))
			epi_die(2, "'%s' is fleet calibrate's to set: each node writes TABLEDIR/NODE.xml", o->calib[i]);
}

/* ---- calibrate and status ------------------------------------------------ */

static void tasks_out(const fleet_opts *o, const epi_fleet_job *j, const epi_fleet_task *t)
{
	int count[4] = {0};
	for (int i = 0; i < j->n; i++)
		count[t[i].state]++;
	if (o->format == EPI_FMT_CSV) {
		printf("node,state,detail\n");
		for (int i = 0; i < j->n; i++) {
			epi_csv_field(stdout, t[i].node);
			printf(",%s,", epi_task_state_name[t[i].state]);
			epi_csv_field(stdout, t[i].detail);
			putchar('\n');
		}
		return;
	}
	if (o->format == EPI_FMT_JSON) {
		json_t *doc = json_object(), *tasks = json_array(), *counts = json_object();
		json_object_set_new(doc, "job", json_integer(j->job));
		json_object_set_new(doc, "dir", json_string(j->dir));
		for (int i = 0; i < j->n; i++) {
			json_t *x = json_object();
			json_object_set_new(x, "node", json_string(t[i].node));
			json_object_set_new(x, "state", json_string(epi_task_state_name[t[i].state]));
			json_object_set_new(x, "detail", json_string(t[i].detail));
			json_array_append_new(tasks, x);
		}
		for (int s = 0; s < 4; s++)
			json_object_set_new(counts, epi_task_state_name[s], json_integer(count[s]));
		json_object_set_new(doc, "tasks", tasks);
		json_object_set_new(doc, "counts", counts);
		json_dumpf(doc, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(doc);
		return;
	}
	printf("fleet job %ld, tables in %s: %d done, %d failed, %d running, %d queued\n", j->job, j->dir,
	       count[EPI_TASK_DONE], count[EPI_TASK_FAILED], count[EPI_TASK_RUNNING], count[EPI_TASK_QUEUED]);
	for (int i = 0; i < j->n; i++)
		printf("  %-20s %-8s %s\n", t[i].node, epi_task_state_name[t[i].state], t[i].detail);
}

/* Polls J until no task is queued or running, a progress line on a
 * terminal. */
static void follow(const epi_fleet_job *j, epi_fleet_task *t)
{
	const char *p = getenv("EPI_FLEET_POLL");
	double every = p && atof(p) > 0 ? atof(p) : 2;
	int tty = isatty(2), shown = 0;
	char err[EPI_ERRLEN];
	for (;;) {
		if (epi_fleet_poll(j, t, err) < 0)
			epi_die(1, "%s (the job goes on: epi fleet status -d %s)", err, j->dir);
		int count[4] = {0};
		for (int i = 0; i < j->n; i++)
			count[t[i].state]++;
		if (tty) {
			fprintf(stderr, "\rfleet job %ld: %d queued, %d running, %d done, %d failed ", j->job,
				count[EPI_TASK_QUEUED], count[EPI_TASK_RUNNING], count[EPI_TASK_DONE], count[EPI_TASK_FAILED]);
			shown = 1;
		}
		if (count[EPI_TASK_QUEUED] + count[EPI_TASK_RUNNING] == 0)
			break;
		struct timespec ts = {(time_t)every, (long)((every - floor(every)) * 1e9)};
		nanosleep(&ts, NULL);
	}
	if (shown)
		fputc('\n', stderr);
}

/* The nodes of DIR's last job without a table; dies when that job still
 * has tasks queued or running. */
static int missing_nodes(const char *dir, char ***nodes)
{
	char err[EPI_ERRLEN];
	epi_fleet_job old;
	if (epi_fleet_job_load(&old, EPI_FLEET_CALIBRATE, dir, err) < 0)
		epi_die(1, "--resume: %s", err);
	epi_fleet_task *t = xcalloc((size_t)old.n, sizeof *t);
	if (epi_fleet_poll(&old, t, err) < 0)
		epi_die(1, "%s", err);
	int n = 0, busy = 0;
	for (int i = 0; i < old.n; i++)
		busy += t[i].state == EPI_TASK_QUEUED || t[i].state == EPI_TASK_RUNNING;
	if (busy) {
		char e2[EPI_ERRLEN];
		snprintf(e2, sizeof e2, "job %ld still has %d task%s queued or running: wait for it (epi fleet status -d %s) or "
			 "scancel %ld", old.job, busy, busy == 1 ? "" : "s", dir, old.job);
		free(t);
		epi_fleet_job_free(&old);
		epi_die(1, "%s", e2);
	}
	*nodes = xcalloc((size_t)old.n + 1, sizeof **nodes);
	for (int i = 0; i < old.n; i++)
		if (t[i].state == EPI_TASK_FAILED)
			(*nodes)[n++] = xstrdup(old.node[i]);
	free(t);
	epi_fleet_job_free(&old);
	return n;
}

/* --per-model: every node of NODES (N) identified by one array of epi
 * probe, then one node per CPU model and microcode kept in *NODES; the
 * count kept. */
static int per_model(const fleet_opts *o, const char *epi, char ***nodes, int n)
{
	char err[EPI_ERRLEN], **chosen, *why, *left;
	epi_fleet_job j;
	if (epi_fleet_submit(&j, EPI_FLEET_IDENTIFY, o->dir, epi, *nodes, n, o->partition, o->time_limit, NULL, 0, err) <
	    0)
		epi_die(1, "%s", err);
	fprintf(stderr, "%s: identifying %d node%s (job %ld) to calibrate one per CPU model and microcode\n", epi_prog, n,
		n == 1 ? "" : "s", j.job);
	epi_fleet_task *t = xcalloc((size_t)j.n, sizeof *t);
	follow(&j, t);
	free(t);
	epi_fleet_job_free(&j);
	int k = epi_fleet_per_model(o->dir, *nodes, n, &chosen, &why, &left);
	if (*left)
		epi_warn("nodes left out, not identified (their jobs' errors are in %s/.fleet): %s", o->dir, left);
	for (char *line = why, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		fprintf(stderr, "%s: per model: %.*s\n", epi_prog, (int)(nl - line), line);
	}
	free(why);
	free(left);
	for (int i = 0; i < n; i++)
		free((*nodes)[i]);
	free(*nodes);
	*nodes = chosen;
	if (k == 0)
		epi_die(1, "no node could be identified: nothing to calibrate");
	return k;
}

static int calibrate(const fleet_opts *o)
{
	char err[EPI_ERRLEN], **nodes = NULL, *skipped = NULL;
	if (epi_mkdirs(o->dir, err) < 0)
		epi_die(1, "%s", err);
	int n;
	if (o->resume) {
		n = missing_nodes(o->dir, &nodes);
		if (n == 0) {
			fprintf(stderr, "%s: every node of the last job has its table in %s: nothing to resubmit\n", epi_prog,
				o->dir);
			free(nodes);
			return 0;
		}
	} else {
		n = epi_slurm_nodes(o->partition, o->nodes, &nodes, &skipped, err);
		if (n < 0)
			epi_die(1, "%s", err);
		if (skipped && *skipped)
			epi_warn("nodes left out, not up: %s", skipped);
	}
	free(skipped);
	char epi[PATH_MAX];
	ssize_t l = readlink("/proc/self/exe", epi, sizeof epi - 1);
	if (l <= 0)
		epi_die(1, "cannot find this program's path: %s", strerror(errno));
	epi[l] = 0;
	if (o->per_model)
		n = per_model(o, epi, &nodes, n);
	/* a resubmitted node goes on from what its table holds (epi-calibrate
	 * --resume: a fresh table where there is none) */
	char **calib = xcalloc((size_t)o->ncalib + 2, sizeof *calib);
	int ncalib = 0, has_resume = 0;
	for (int i = 0; i < o->ncalib; i++) {
		calib[ncalib++] = o->calib[i];
		has_resume |= !strcmp(o->calib[i], "--resume");
	}
	if (o->resume && !has_resume)
		calib[ncalib++] = "--resume";
	epi_fleet_job j;
	if (epi_fleet_submit(&j, EPI_FLEET_CALIBRATE, o->dir, epi, nodes, n, o->partition, o->time_limit, calib, ncalib,
			     err) < 0)
		epi_die(1, "%s", err);
	free(calib);
	for (int i = 0; i < n; i++)
		free(nodes[i]);
	free(nodes);
	fprintf(stderr, "%s: submitted job %ld: %d task%s, one per node, tables in %s\n", epi_prog, j.job, j.n,
		j.n == 1 ? "" : "s", j.dir);
	if (o->nowait) {
		printf("%ld\n", j.job);
		epi_fleet_job_free(&j);
		return 0;
	}
	epi_fleet_task *t = xcalloc((size_t)j.n, sizeof *t);
	follow(&j, t);
	tasks_out(o, &j, t);
	int failed = 0;
	for (int i = 0; i < j.n; i++)
		failed += t[i].state == EPI_TASK_FAILED;
	if (failed) {
		fflush(stdout);
		epi_warn("%d of %d node%s failed: `epi fleet calibrate --resume -d %s` resubmits them", failed, j.n,
			 j.n == 1 ? "" : "s", o->dir);
	}
	free(t);
	epi_fleet_job_free(&j);
	return failed ? 1 : 0;
}

static int status(const fleet_opts *o)
{
	char err[EPI_ERRLEN];
	epi_fleet_job j;
	if (epi_fleet_job_load(&j, EPI_FLEET_CALIBRATE, o->dir, err) < 0)
		epi_die(1, "%s", err);
	epi_fleet_task *t = xcalloc((size_t)j.n, sizeof *t);
	if (epi_fleet_poll(&j, t, err) < 0)
		epi_die(1, "%s", err);
	tasks_out(o, &j, t);
	free(t);
	epi_fleet_job_free(&j);
	return 0;
}

/* ---- report ---------------------------------------------------------------- */

static const char *const quantity[] = {"time", "energy"};
static const char *const unit[] = {"s", "J"};

/* "n2:+31.2%;n5:-40%": each outlier and how far from the median. */
static void outliers(const epi_fleet *f, const epi_fleet_row *r, char *out, size_t n)
{
	size_t len = 0;
	out[0] = 0;
	for (int i = 0; i < r->nout && len < n; i++) {
		int j = r->out[i];
		double dev = r->median != 0 ? 100 * (r->v[j] / r->median - 1) : NAN;
		len += (size_t)snprintf(out + len, n - len, "%s%s:%+.1f%%", i ? ";" : "", f->node[r->nodes[j]].name, dev);
	}
}

static void report_table(FILE *out, const epi_fleet *f, const epi_fleet_row *rows, int nr, const char *dir)
{
	fprintf(out, "fleet: %d node table%s in %s\n", f->n, f->n == 1 ? "" : "s", dir);
	const char *model = NULL;
	char g[32], line[4096];
	for (int i = 0; i < nr; i++) {
		const epi_fleet_row *r = &rows[i];
		if (!model || strcmp(model, r->model) != 0) {
			model = r->model;
			int n = epi_fleet_model_nodes(f, model);
			fprintf(out, "\nmodel %s: %d node%s\n", model, n, n == 1 ? "" : "s");
			fprintf(out, "%-9s %-18s %-7s %5s %12s %7s %7s  %s\n", "freq", "op", "", "nodes", "mean", "cv", "range",
				"outliers (from the median)");
		}
		if (r->khz)
			epi_freq_ghz(g, sizeof g, r->khz);
		else
			snprintf(g, sizeof g, "current");
		outliers(f, r, line, sizeof line);
		char cv[16], range[16];
		epi_fmt_num(cv, sizeof cv, 100 * r->cv, "%.1f%%");
		epi_fmt_num(range, sizeof range, r->mean != 0 ? 100 * (r->max - r->min) / r->mean : NAN, "%.1f%%");
		fprintf(out, "%-9s %-18s %-7s %5d %10.4g %s %7s %7s  %s\n", g, r->op, quantity[r->quantity], r->n, r->mean,
			unit[r->quantity], cv, range, line);
	}
}

static void report_csv(FILE *out, const epi_fleet *f, const epi_fleet_row *rows, int nr)
{
	fprintf(out, "model,freq_ghz,op,quantity,nodes,mean,sd,cv,min,max,median,mad,outliers\n");
	char line[4096], cv[32];
	for (int i = 0; i < nr; i++) {
		const epi_fleet_row *r = &rows[i];
		outliers(f, r, line, sizeof line);
		epi_fmt_num(cv, sizeof cv, r->cv, "%.6g");
		epi_csv_field(out, r->model);
		if (r->khz)
			fprintf(out, ",%.6g,", r->khz / 1e6);
		else
			fputs(",,", out);
		epi_csv_field(out, r->op);
		fprintf(out, ",%s,%d,%.6g,%.6g,%s,%.6g,%.6g,%.6g,%.6g,", quantity[r->quantity], r->n, r->mean, r->sd, cv,
			r->min, r->max, r->median, r->mad);
		epi_csv_field(out, line);
		fputc('\n', out);
	}
}

static void report_json(FILE *out, const epi_fleet *f, const epi_fleet_row *rows, int nr, const char *dir)
{
	json_t *doc = json_object(), *nodes = json_array(), *jr = json_array();
	json_object_set_new(doc, "dir", json_string(dir));
	for (int i = 0; i < f->n; i++) {
		const epi_table *t = &f->node[i].t;
		json_t *n = json_object();
		json_object_set_new(n, "node", json_string(f->node[i].name));
		json_object_set_new(n, "cpu", t->cpu ? json_string(t->cpu) : json_null());
		json_object_set_new(n, "microcode", t->microcode ? json_string(t->microcode) : json_null());
		json_object_set_new(n, "host", t->host ? json_string(t->host) : json_null());
		json_object_set_new(n, "path", json_string(f->node[i].path));
		json_array_append_new(nodes, n);
	}
	for (int i = 0; i < nr; i++) {
		const epi_fleet_row *r = &rows[i];
		json_t *o = json_object(), *ol = json_array(), *vals = json_object();
		json_object_set_new(o, "model", json_string(r->model));
		json_object_set_new(o, "freq_ghz", r->khz ? json_real(r->khz / 1e6) : json_null());
		json_object_set_new(o, "op", json_string(r->op));
		json_object_set_new(o, "quantity", json_string(quantity[r->quantity]));
		json_object_set_new(o, "nodes", json_integer(r->n));
		json_object_set_new(o, "mean", epi_json_num(r->mean));
		json_object_set_new(o, "sd", epi_json_num(r->sd));
		json_object_set_new(o, "cv", epi_json_num(r->cv));
		json_object_set_new(o, "min", epi_json_num(r->min));
		json_object_set_new(o, "max", epi_json_num(r->max));
		json_object_set_new(o, "median", epi_json_num(r->median));
		json_object_set_new(o, "mad", epi_json_num(r->mad));
		for (int j = 0; j < r->n; j++)
			json_object_set_new(vals, f->node[r->nodes[j]].name, epi_json_num(r->v[j]));
		json_object_set_new(o, "values", vals);
		for (int j = 0; j < r->nout; j++) {
			int k = r->out[j];
			json_t *x = json_object();
			json_object_set_new(x, "node", json_string(f->node[r->nodes[k]].name));
			json_object_set_new(x, "value", epi_json_num(r->v[k]));
			json_object_set_new(x, "deviation", epi_json_num(r->median != 0 ? r->v[k] / r->median - 1 : NAN));
			json_array_append_new(ol, x);
		}
		json_object_set_new(o, "outliers", ol);
		json_array_append_new(jr, o);
	}
	json_object_set_new(doc, "nodes", nodes);
	json_object_set_new(doc, "rows", jr);
	json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', out);
	json_decref(doc);
}

/* Energy per operation per node (time when no node has energies), at each
 * model's lowest frequency: clustered bars, one per node, log scale. */
static void plot(const epi_fleet *f, const epi_fleet_row *rows, int nr, const char *svg)
{
	int q = 0;
	for (int i = 0; i < nr && !q; i++)
		q = rows[i].quantity == 1;
	size_t cap = 1 << 16, len = 0;
	char *s = xmalloc(cap);
	len += (size_t)snprintf(s + len, cap - len, "$d << EOD\nop");
	for (int i = 0; i < f->n; i++)
		len += (size_t)snprintf(s + len, cap - len, " \"%s\"", f->node[i].name);
	len += (size_t)snprintf(s + len, cap - len, "\n");
	long khz = -1;
	const char *model = NULL;
	int nops = 0;
	for (int i = 0; i < nr; i++) {
		const epi_fleet_row *r = &rows[i];
		if (r->quantity != q)
			continue;
		if (!model) {
			model = r->model;
			khz = r->khz;
		}
		if (strcmp(model, r->model) != 0 || r->khz != khz)
			continue;
		if (len + 64 * (size_t)(f->n + 2) > cap)
			s = xrealloc(s, cap *= 2);
		len += (size_t)snprintf(s + len, cap - len, "\"%s\"", r->op);
		for (int k = 0; k < f->n; k++) {
			double v = NAN;
			for (int j = 0; j < r->n; j++)
				if (r->nodes[j] == k)
					v = r->v[j];
			len += (size_t)(isfinite(v) ? snprintf(s + len, cap - len, " %.6g", v)
						    : snprintf(s + len, cap - len, " NaN"));
		}
		len += (size_t)snprintf(s + len, cap - len, "\n");
		nops++;
	}
	char g[32] = "the current clock";
	if (khz > 0)
		epi_freq_ghz(g, sizeof g, khz);
	if (len + 1024 > cap)
		s = xrealloc(s, cap += 1024);
	snprintf(s + len, cap - len,
		 "EOD\nset title \"%s at %s: %s per operation per node\"\nset style data histograms\n"
		 "set style histogram clustered gap 1\nset style fill solid 0.8 border -1\nset logscale y\n"
		 "set ylabel \"%s per unit (%s)\"\nset xtics rotate by -45\nset key outside right\nset grid ytics\n"
		 "plot for [i=2:%d] $d using i:xtic(1) title columnhead\n",
		 model ? model : "", g, quantity[q], quantity[q], unit[q], f->n + 1);
	char err[EPI_ERRLEN];
	int w = 200 + 18 * nops * (f->n > 1 ? f->n : 1);
	int r = epi_gnuplot(s, w < 900 ? 900 : w > 8000 ? 8000 : w, 600, svg, err);
	free(s);
	if (r < 0)
		epi_die(1, "%s", err);
}

int epi_fleet_main(int argc, char **argv)
{
	fleet_opts o;
	parse_args(argc, argv, &o);
	if (!strcmp(o.sub, "calibrate"))
		return calibrate(&o);
	if (!strcmp(o.sub, "status"))
		return status(&o);
	char err[EPI_ERRLEN];
	epi_fleet f;
	if (epi_fleet_load(&f, o.dir, err) < 0)
		epi_die(1, "%s", err);
	for (int i = 0; i < f.nwarn; i++)
		epi_warn("%s", f.warn[i]);
	epi_fleet_row *rows;
	int nr = epi_fleet_rows(&f, &rows);
	epi_out eo;
	FILE *out = epi_out_open(&eo, o.output);
	if (o.format == EPI_FMT_CSV)
		report_csv(out, &f, rows, nr);
	else if (o.format == EPI_FMT_JSON)
		report_json(out, &f, rows, nr, o.dir);
	else
		report_table(out, &f, rows, nr, o.dir);
	epi_out_close(&eo);
	if (o.plot)
		plot(&f, rows, nr, o.plot);
	epi_fleet_rows_free(rows, nr);
	epi_fleet_free(&f);
	return 0;
}
