/* epi validate: epi-predict's predictions of a source against what ran:
 * a trace of epi-profile (per loop nest and for the whole program, with the
 * sampled 95% intervals), or whole-program measurements in a CSV. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/plot.h"
#include "cmd/epi_cmd.h"
#include "model/freq.h"
#include "model/json.h"
#include "model/util.h"
#include "predict/cfront.h"
#include "predict/cmdline.h"
#include "predict/counts.h"
#include "predict/report.h"
#include "predict/trips.h"
#include "predict/mmodel.h"
#include "predict/mprice.h"
#include "validate/compare.h"

static const char usage[] =
	"usage: %s [options] SOURCE.c --against TRACE|MEASURED.csv [-- CLANG-FLAGS...]\n"
	"\n"
	"Predicts SOURCE's time and energy with a cost table (as epi-predict does)\n"
	"and compares them with what ran:\n"
	"  a trace of epi-profile: for each loop nest and for the whole program, the\n"
	"    sampled value with its 95%% interval, the relative error, and whether\n"
	"    the prediction is inside the interval (time only without a meter);\n"
	"  a CSV with columns param,freq_ghz,measured_j: the whole program's\n"
	"    predicted energy against each measured one (param: VALUE of the one\n"
	"    unbound parameter, or NAME=VALUE).\n"
	"Then the mean absolute relative error. CLANG-FLAGS parse SOURCE (-D, -I);\n"
	"the folders of the headers the program's debug information names are\n"
	"searched after them, so the build's -I need not be repeated.\n"
	"\n"
	"  -a, --against FILE      the trace or the CSV\n"
	"  -t, --table FILE        cost table (default: $EPI_TABLE, else this machine's)\n"
	"  -f, --freq F            price at F (default: the trace's pinned frequency, or\n"
	"                          the table's only one); with a CSV, only its rows at F\n"
	"  -P, --param NAME=VALUE  bind a parameter (repeatable), as the program ran;\n"
	"                          against a trace, one that main() sets from the\n"
	"                          run's command line (atoi(argv[1]), ...) is read\n"
	"      --trip [FILE:]LINE=EXPR\n"
	"                          trip count of the loop at LINE (repeatable)\n"
	"      --trips FILE        trip counts measured by `epi trips -o FILE`, for the\n"
	"                          loops the analysis cannot count (repeatable)\n"
	"      --calls FUNCTION=N  the program called FUNCTION N times from other files\n"
	"                          or through pointers (one no code of SOURCE calls);\n"
	"                          '*=N' every such function (repeatable)\n"
	"  -m, --model M           compiled (default against a trace: the machine code of\n"
	"                          the program the trace recorded, built with -g, priced\n"
	"                          with overlap) or source (each source operation priced\n"
	"                          alone, E = sum N_i e_i: the model of RR-8416)\n"
	"      --binary PROG       price PROG's machine code instead of the traced program's\n"
	"  -F, --format table|csv|json\n"
	"  -o, --output FILE       write the report to FILE (atomically)\n"
	"      --plot FILE.svg     predicted against measured, with error bars (gnuplot)\n"
	"  -h, --help\n"
	"\n"
	"Exit status: 0 compared, 1 error, 2 usage error. See epi-validate(1).\n";

static const char *q_name[EPI_NQ] = {"time", "energy"};

static void fmt_ghz(char *b, size_t n, long khz)
{
	char g[32];
	epi_freq_fmt(g, sizeof g, khz);
	snprintf(b, n, "%s", g);
}

/* Bound parameters as "n = 100000, m = 3", or "" */
static void params_text(char *b, size_t n, const epi_analysis *a, const sym_env *env)
{
	size_t k = 0;
	b[0] = 0;
	for (int i = -1; (i = sym_next_param(&a->sym, i)) >= 0 && k + 40 < n;)
		if (env->bound[i]) {
			char *v = fmpq_get_str(NULL, 10, &env->val[i]);
			k += (size_t)snprintf(b + k, n - k, "%s%s = %s", k ? ", " : "", sym_name(&a->sym, i), v);
			flint_free(v);
		}
}

static const char *kind_of(const epi_cmp *c)
{
	static const char *names[] = {"loop", "function", "program", "measurement"};
	return names[c->kind];
}

static void write_csv(FILE *out, const epi_validation *v, int trace)
{
	fputs("block,kind,function,line,freq_ghz,samples", out);
	for (int q = 0; q < EPI_NQ; q++) {
		const char *u = q == EPI_Q_TIME ? "s" : "j";
		fprintf(out, ",pred_%s_%s,pred_%s_sd,%s_%s,%s_lo,%s_hi,%s_error,%s_inside", q_name[q], u, q_name[q], q_name[q],
			u, q_name[q], q_name[q], q_name[q], q_name[q]);
	}
	fputc('\n', out);
	for (int i = 0; i < v->n; i++) {
		const epi_cmp *c = &v->rows[i];
		char g[32], b[40];
		fmt_ghz(g, sizeof g, c->khz);
		fprintf(out, "\"%s\",%s,%s,", c->label, kind_of(c), c->function ? c->function : "");
		if (c->line)
			fprintf(out, "%d", c->line);
		fprintf(out, ",%s,", g);
		if (trace)
			fprintf(out, "%" PRIu64, c->samples);
		for (int q = 0; q < EPI_NQ; q++) {
			double x[] = {c->pred[q], c->pred_sd[q], c->meas[q].v, c->meas[q].lo, c->meas[q].hi, c->err[q]};
			for (int k = 0; k < 6; k++) {
				epi_fmt_num(b, sizeof b, x[k], "%.6g");
				fprintf(out, ",%s", b);
			}
			fprintf(out, ",%s", c->inside[q] < 0 ? "" : c->inside[q] ? "yes" : "no");
		}
		fputc('\n', out);
	}
}

static json_t *json_q(const epi_cmp *c, int q)
{
	json_t *o = json_object();
	json_object_set_new(o, "predicted", epi_json_num(c->pred[q]));
	json_object_set_new(o, "predicted_sd", epi_json_num(c->pred_sd[q]));
	json_object_set_new(o, "measured", epi_json_num(c->meas[q].v));
	json_object_set_new(o, "lo", epi_json_num(c->meas[q].lo));
	json_object_set_new(o, "hi", epi_json_num(c->meas[q].hi));
	json_object_set_new(o, "error", epi_json_num(c->err[q]));
	json_object_set_new(o, "inside", c->inside[q] < 0 ? json_null() : json_boolean(c->inside[q]));
	return o;
}

/* CLOCK: the table's and the trace's effective clocks (GHz) and the ratio
 * that scaled the core's times, then the table's and the trace's load.dram
 * (seconds) and the factor that scaled memory's times, for a trace; NULL
 * otherwise. */
static void write_json(FILE *out, const epi_validation *v, int trace, const char *source, const char *against,
		       const char *table, const double *clock, const epi_analysis *a)
{
	json_t *root = json_object();
	json_object_set_new(root, "source", json_string(source));
	json_object_set_new(root, "against", json_string(against));
	json_object_set_new(root, "table", json_string(table));
	if (clock) {
		json_t *c = json_object();
		json_object_set_new(c, "table_ghz", epi_json_num(clock[0]));
		json_object_set_new(c, "trace_ghz", epi_json_num(clock[1]));
		json_object_set_new(c, "scale", epi_json_num(clock[2]));
		json_object_set_new(root, "clock", c);
		json_t *m = json_object();
		json_object_set_new(m, "table_load_s", epi_json_num(clock[3]));
		json_object_set_new(m, "trace_load_s", epi_json_num(clock[4]));
		json_object_set_new(m, "scale", epi_json_num(clock[5]));
		json_object_set_new(root, "memory", m);
	}
	json_t *rows = json_array();
	for (int i = 0; i < v->n; i++) {
		const epi_cmp *c = &v->rows[i];
		json_t *o = json_object();
		json_object_set_new(o, "block", json_string(c->label));
		json_object_set_new(o, "kind", json_string(kind_of(c)));
		json_object_set_new(o, "function", c->function ? json_string(c->function) : json_null());
		json_object_set_new(o, "line", c->line ? json_integer(c->line) : json_null());
		json_object_set_new(o, "freq_ghz", json_real((double)c->khz / 1e6));
		if (trace)
			json_object_set_new(o, "samples", json_integer((json_int_t)c->samples));
		json_object_set_new(o, "time_s", json_q(c, EPI_Q_TIME));
		json_object_set_new(o, "energy_j", json_q(c, EPI_Q_ENERGY));
		if (v->compiled) { /* what bounds it and what it runs, null where not priced */
			json_object_set_new(o, "bound", c->bound < 0 ? json_null() : json_string(epi_bound_name(c->bound)));
			json_object_set_new(o, "bounds_s", c->bound < 0 ? json_null() : epi_bounds_json(c->alone_t));
			json_object_set_new(o, "machine", c->machine ? epi_mix_json(&c->mix) : json_null());
		}
		json_array_append_new(rows, o);
	}
	json_object_set_new(root, "rows", rows);
	json_t *s = json_object();
	for (int q = 0; q < EPI_NQ; q++) {
		json_t *x = json_object();
		json_object_set_new(x, "mean_abs_error", epi_json_num(v->mare[q]));
		json_object_set_new(x, "rows", json_integer(v->nerr[q]));
		json_object_set_new(x, "with_interval", json_integer(v->nci[q]));
		json_object_set_new(x, "inside", json_integer(v->nin[q]));
		json_object_set_new(s, q_name[q], x);
	}
	json_object_set_new(root, "summary", s);
	json_t *notes = json_array();
	for (int i = 0; i < a->nnotes; i++)
		json_array_append_new(notes, json_string(a->notes[i]));
	json_object_set_new(root, "notes", notes);
	json_dumpf(root, out, JSON_INDENT(2));
	fputc('\n', out);
	json_decref(root);
}

static void pct(char *b, size_t n, double x)
{
	if (isnan(x))
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%+.1f%%", 100 * x);
}

/* The table's last lines: each shown quantity's mean absolute error. */
static void write_summary(FILE *out, const epi_validation *v, int trace, const int *show)
{
	for (int q = 0; q < EPI_NQ; q++) {
		if (!show[q])
			continue;
		char e[32];
		pct(e, sizeof e, v->mare[q]);
		fprintf(out, "%s: mean absolute error %s over %d %s", q_name[q], isnan(v->mare[q]) ? "-" : e + 1, v->nerr[q],
			trace ? (v->nerr[q] == 1 ? "loop nest" : "loop nests") : (v->nerr[q] == 1 ? "measurement" : "measurements"));
		if (v->nci[q])
			fprintf(out, "; %d of %d predictions inside the 95%% interval", v->nin[q], v->nci[q]);
		fputc('\n', out);
	}
}

static void write_table(FILE *out, const epi_validation *v, int trace, const char *head, const epi_analysis *a)
{
	fprintf(out, "%s\n", head);
	int wn = 5;
	for (int i = 0; i < v->n; i++)
		wn = (int)strlen(v->rows[i].label) > wn ? (int)strlen(v->rows[i].label) : wn;
	/* a quantity is shown when some row has both sides; its interval and
	 * "in" columns when some row has an interval */
	int show[EPI_NQ], wm[EPI_NQ];
	for (int q = 0; q < EPI_NQ; q++) {
		show[q] = 0;
		wm[q] = 10;
		for (int i = 0; i < v->n; i++) {
			show[q] |= !isnan(v->rows[i].meas[q].v) && !isnan(v->rows[i].pred[q]);
			if (!isnan(v->rows[i].meas[q].lo))
				wm[q] = 30;
		}
	}
	fprintf(out, "%-*s", wn, "block");
	if (trace)
		fprintf(out, " %8s", "samples");
	else
		fprintf(out, " %6s", "GHz");
	for (int q = 0; q < EPI_NQ; q++)
		if (show[q]) {
			const char *u = q == EPI_Q_TIME ? "s" : "J";
			char h[64];
			snprintf(h, sizeof h, "measured %s%s", u, wm[q] > 10 ? " [95% CI]" : "");
			fprintf(out, "  pred. %-4s %-*s %7s", u, wm[q], h, "error");
			if (wm[q] > 10)
				fprintf(out, " in");
		}
	fputc('\n', out);
	for (int i = 0; i < v->n; i++) {
		const epi_cmp *c = &v->rows[i];
		fprintf(out, "%-*s", wn, c->label);
		if (trace) {
			fprintf(out, " %8" PRIu64, c->samples);
		} else {
			char g[32];
			fmt_ghz(g, sizeof g, c->khz);
			fprintf(out, " %6s", g);
		}
		for (int q = 0; q < EPI_NQ; q++) {
			if (!show[q])
				continue;
			char p[32], m[96], e[32];
			epi_fmt_num(p, sizeof p, c->pred[q], "%.4g");
			if (isnan(c->meas[q].v))
				snprintf(m, sizeof m, "-");
			else if (isnan(c->meas[q].lo))
				snprintf(m, sizeof m, "%.4g", c->meas[q].v);
			else
				snprintf(m, sizeof m, "%.4g [%.4g, %.4g]", c->meas[q].v, c->meas[q].lo, c->meas[q].hi);
			pct(e, sizeof e, c->err[q]);
			fprintf(out, "  %-10s %-*s %7s", p[0] ? p : "-", wm[q], m, e);
			if (wm[q] > 10)
				fprintf(out, " %s", c->inside[q] < 0 ? "-" : c->inside[q] ? "yes" : "no");
		}
		fputc('\n', out);
	}
	write_summary(out, v, trace, show);
	for (int i = 0; i < a->nnotes; i++)
		fprintf(out, "%snote: %s\n", i ? "" : "\n", a->notes[i]);
}

/* The axes' range of quantity Q from LO to HI, error bars included; returns
 * whether they are logarithmic. */
static int plot_range(const epi_validation *v, int q, double *lo_out, double *hi_out)
{
	/* log axes when the positive values span more than 100x; rows measured
	 * or predicted at 0 are then left out */
	double lo = INFINITY, hi = 0;
	for (int i = 0; i < v->n; i++) {
		const epi_cmp *c = &v->rows[i];
		if (c->meas[q].v > 0 && c->pred[q] > 0) {
			lo = fmin(lo, fmin(c->meas[q].v, c->pred[q]));
			hi = fmax(hi, fmax(c->meas[q].v, c->pred[q]));
		}
	}
	if (!(hi > 0))
		epi_die(1, "--plot: no row has both a prediction and a measurement of %s", q_name[q]);
	int logxy = hi / lo > 100;
	for (int i = 0; i < v->n; i++) { /* the bars too */
		const epi_cmp *c = &v->rows[i];
		if (isnan(c->pred[q]) || isnan(c->meas[q].v) || (logxy && !(c->meas[q].v > 0 && c->pred[q] > 0)))
			continue;
		double sd = isnan(c->pred_sd[q]) ? 0 : c->pred_sd[q];
		double xs[] = {c->meas[q].lo, c->meas[q].hi, c->pred[q] - sd, c->pred[q] + sd};
		for (int k = 0; k < 4; k++)
			if (xs[k] > 0) {
				lo = fmin(lo, xs[k]);
				hi = fmax(hi, xs[k]);
			}
	}
	*lo_out = lo;
	*hi_out = hi;
	return logxy;
}

/* Predicted against measured, the quantity Q: a point per row with its
 * error bars (one data set each, named in the key), and the line where
 * they are equal. */
static void plot(const epi_validation *v, int q, const char *svg, const char *title)
{
	double lo, hi;
	int logxy = plot_range(v, q, &lo, &hi);
	char *script = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&script, &len);
	fprintf(f, "$d << EOD\n");
	int drawn = 0, left = 0;
	for (int i = 0; i < v->n; i++) {
		const epi_cmp *c = &v->rows[i];
		if (isnan(c->pred[q]) || isnan(c->meas[q].v))
			continue;
		if (logxy && !(c->meas[q].v > 0 && c->pred[q] > 0)) {
			left++; /* nothing to place on a log axis */
			continue;
		}
		double sd = isnan(c->pred_sd[q]) ? 0 : c->pred_sd[q];
		double ml = isnan(c->meas[q].lo) ? c->meas[q].v : c->meas[q].lo;
		double mh = isnan(c->meas[q].hi) ? c->meas[q].v : c->meas[q].hi;
		double pl = c->pred[q] - sd;
		if (logxy) {
			ml = ml > 0 ? ml : c->meas[q].v;
			pl = pl > 0 ? pl : c->pred[q];
		}
		fprintf(f, "%s%.9g %.9g %.9g %.9g %.9g %.9g\n", drawn ? "\n\n" : "", c->meas[q].v, c->pred[q], ml, mh, pl,
			c->pred[q] + sd);
		drawn++;
	}
	fprintf(f, "EOD\n");
	if (logxy)
		fprintf(f, "set logscale xy\n");
	const char *u = q == EPI_Q_TIME ? "s" : "J";
	fprintf(f,
		"set title \"%s: predicted against measured %s%s\"\n"
		"set xlabel 'measured %s (%s), 95%% interval'\n"
		"set ylabel 'predicted %s (%s), +/- 1 sd'\n"
		"set xrange [%g:%g]\nset yrange [%g:%g]\n"
		"set grid\nset key outside bottom center vertical maxrows 8\n"
		"plot x title 'predicted = measured' lc rgb '#888888'",
		title, q_name[q], left ? "\\n(rows at 0 are not drawn on log axes)" : "", q_name[q], u, q_name[q], u,
		logxy ? lo / 1.5 : 0, hi * 1.15, logxy ? lo / 1.5 : 0, hi * 1.15);
	int k = 0;
	for (int i = 0; i < v->n; i++) {
		const epi_cmp *c = &v->rows[i];
		if (isnan(c->pred[q]) || isnan(c->meas[q].v) || (logxy && !(c->meas[q].v > 0 && c->pred[q] > 0)))
			continue;
		int pt = 5 + 2 * (k % 4);
		fprintf(f, ", $d index %d using 1:2:3:4:5:6 with xyerrorbars pt %d ps 1.3 title '", k++, pt);
		for (const char *x = c->label; *x; x++)
			fputc(*x == '\'' ? '"' : *x, f);
		fputc('\'', f);
	}
	fputc('\n', f);
	fclose(f);
	char err[EPI_ERRLEN];
	if (epi_gnuplot(script, 960, 760, svg, err) < 0)
		epi_die(1, "%s", err);
	free(script);
}

/* Whether PATH starts as a trace does (else it is taken for a CSV of
 * measurements); dies on what is neither: empty, a trace cut short, or
 * not text. */
static int is_trace(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		epi_die(1, "cannot read '%s': %s", path, strerror(errno));
	unsigned char m[8] = {0};
	size_t n = fread(m, 1, sizeof m, f);
	fclose(f);
	if (n == 8 && memcmp(m, "EPITRACE", 8) == 0)
		return 1;
	const char *what = "an epi trace (epi-profile -o) or a CSV of measurements (param,freq_ghz,measured_j)";
	if (n == 0)
		epi_die(1, "'%s' is empty: --against takes %s", path, what);
	if (memcmp(m, "EPITRACE", n) == 0)
		epi_die(1, "'%s' is an epi trace cut short (%zu bytes)", path, n);
	for (size_t i = 0; i < n; i++)
		if (m[i] < 0x20 && m[i] != '\t' && m[i] != '\n' && m[i] != '\r')
			epi_die(1, "'%s' is not text nor an epi trace: --against takes %s", path, what);
	return 0;
}

typedef struct validate_opts {
	const char *source, *against, *freq, *output, *svg;
	char *table_path; /* malloc'd: as given, or the default table's */
	const char **params;
	int nparams;
	enum epi_format fmt;
	epi_front_opts fo;
	int model;          /* --model: -1 source, 1 compiled, 0 not given */
	const char *binary; /* --binary */
} validate_opts;

/* What the comparison read and made, for the report and to free. */
typedef struct validate_run {
	int trace; /* against a trace, else measurements */
	epi_table table;
	long khz;
	epi_fcol col;         /* the table at khz (trace), at the trace's clock */
	double table_ghz;     /* the clock the table's column was measured at (NAN: unknown) */
	double clock;         /* the ratio its times were scaled by to the trace's clock: 1 none */
	double table_dram;    /* the table's load.dram at khz (seconds; NAN: none) */
	double memory;        /* the factor its memory times were scaled by to the trace's memory: 1 none */
	epi_profile_sum prof; /* trace */
	epi_measured *meas;
	int nmeas;
	epi_analysis a;
	sym_env env;
	epi_validation v;
	int compiled;      /* priced with the compiled-code model */
	epi_mmodel mm;
	char missing[200]; /* kernels the table lacks for it */
	char why_source[300]; /* why a trace is priced by the source model, "" */
	epi_headers headers;  /* the folders of the program's headers added to the flags */
	char program[4096];   /* the program whose debug information gave them */
	/* the parameters: --param's, then NAME=VALUE of those main() sets from
	 * the run's command line (the last NCMD, malloc'd) */
	const char **params;
	int nparams, ncmd;
	char cmd_note[600];   /* what the command line gave, "" nothing */
} validate_run;

static void parse_args(int argc, char **argv, validate_opts *o)
{
	static const struct option opts[] = {
		{"against", required_argument, 0, 'a'}, {"table", required_argument, 0, 't'},
		{"freq", required_argument, 0, 'f'},    {"param", required_argument, 0, 'P'},
		{"trip", required_argument, 0, 'T'},    {"format", required_argument, 0, 'F'},
		{"output", required_argument, 0, 'o'},  {"plot", required_argument, 0, 'p'},
		{"trips", required_argument, 0, 'R'},   {"help", no_argument, 0, 'h'},
		{"model", required_argument, 0, 'm'},   {"binary", required_argument, 0, 'B'},
		{"calls", required_argument, 0, 'C'},
		{0, 0, 0, 0},
	};
	char err[EPI_ERRLEN];
	*o = (validate_opts){.fmt = EPI_FMT_TABLE};
	epi_front_opts_init(&o->fo);
	int dashdash = epi_dashdash(argc, argv);
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(dashdash, argv, ":a:t:f:P:F:o:m:h", opts, NULL)) != -1) {
		switch (c) {
		case 'a': o->against = optarg; break;
		case 't': free(o->table_path); o->table_path = xstrdup(optarg); break;
		case 'f': o->freq = optarg; break;
		case 'P':
			if (epi_bind_param(NULL, NULL, optarg, err) < 0)
				epi_die(2, "%s", err);
			o->params = xrealloc(o->params, (size_t)(o->nparams + 1) * sizeof *o->params);
			o->params[o->nparams++] = optarg;
			break;
		case 'T': epi_opt_trip(&o->fo, optarg); break;
		case 'R':
			if (epi_trips_load(optarg, &o->fo.trips, &o->fo.ntrips, err) < 0)
				epi_die(1, "%s", err);
			break;
		case 'C': epi_opt_calls(&o->fo, optarg); break;
		case 'F': o->fmt = epi_parse_format(optarg); break;
		case 'o': o->output = optarg; break;
		case 'p': o->svg = optarg; break;
		case 'm': o->model = epi_parse_model(optarg); break;
		case 'B': o->binary = optarg; break;
		case 'h': printf(usage, epi_prog); exit(0);
		default: epi_opt_error(err, c, optopt, argv, optind); epi_die(2, "%s", err);
		}
	}
	o->source = epi_one_source(argv, dashdash, &optind, err);
	if (!o->source)
		epi_die(2, "%s", err);
	if (!o->against)
		epi_die(2, "nothing to compare with: give --against TRACE or --against MEASURED.csv");
	o->fo.clang_args = (const char *const *)argv + (dashdash < argc ? dashdash + 1 : argc);
	o->fo.nclang_args = dashdash < argc ? argc - dashdash - 1 : 0;
}

/* The trace, and the frequency to price at: --freq's, else the trace's
 * pinned one, else the table's only one. */
static void load_trace(const validate_opts *o, validate_run *r)
{
	char err[EPI_ERRLEN], warn[EPI_ERRLEN];
	if (epi_profile_load(&r->prof, o->against, EPI_BY_LOOP, o->fo.clang_args, o->fo.nclang_args, warn, err) < 0)
		epi_die(1, "%s", err);
	if (warn[0])
		epi_warn("%s", warn);
	char g[32];
	if (!o->freq && r->prof.info.freq_khz > 0) {
		r->khz = (long)r->prof.info.freq_khz;
	} else if (o->freq && r->prof.info.freq_khz > 0 && r->prof.info.freq_khz != r->khz) {
		fmt_ghz(g, sizeof g, (long)r->prof.info.freq_khz);
		epi_warn("the trace ran at %s GHz; pricing at %s as --freq asks", g, o->freq);
	} else if (!o->freq) {
		if (r->table.nf != 1)
			epi_die(1, "the trace records no pinned frequency and '%s' has %d: give --freq", o->table_path,
				r->table.nf);
		r->khz = r->table.f[0].khz;
	}
	if (epi_table_at(&r->table, r->khz, &r->col, err) < 0)
		epi_die(1, "%s", err);
	/* the model's cycles at the clock the runs had: a clock that moves
	 * (turbo, a busy host) moves every core-bound time with it */
	r->table_ghz = r->col.effective_ghz;
	r->clock = epi_fcol_at_clock(&r->col, r->prof.info.effective_ghz);
	/* and memory's times at the rate memory had: a host whose memory is
	 * busier or quieter than when the table was taken moves them */
	const epi_cost *d = epi_fcol_find(&r->col, "load.dram");
	r->table_dram = d ? d->t : NAN;
	r->memory = epi_fcol_at_memory(&r->col, r->prof.info.dram_load_s);
}

/* The measurements, only those at --freq when it is given. */
static void load_measured(const validate_opts *o, validate_run *r)
{
	char err[EPI_ERRLEN];
	r->nmeas = epi_measured_load(o->against, &r->meas, err);
	if (r->nmeas < 0)
		epi_die(1, "%s", err);
	if (!o->freq)
		return;
	int k = 0;
	for (int i = 0; i < r->nmeas; i++) {
		if (r->meas[i].khz == r->khz)
			r->meas[k++] = r->meas[i];
		else
			free(r->meas[i].param);
	}
	if (k == 0)
		epi_die(1, "'%s' has no measurement at %s", o->against, o->freq);
	r->nmeas = k;
}

/* The table, then what ran: a bad one fails before the parse. */
static void load_inputs(validate_opts *o, validate_run *r)
{
	char err[EPI_ERRLEN];
	r->trace = is_trace(o->against);
	o->fo.tag_blocks = r->trace; /* each block's own work, for the profile's blocks */
	if (o->model < 0 && o->binary)
		epi_die(2, "--binary prices machine code: it goes with --model compiled");
	if (!o->table_path)
		o->table_path = epi_table_find_default();
	if (!o->table_path)
		epi_die(1, "no cost table: give --table FILE, set EPI_TABLE, or run epi-calibrate");
	if (epi_table_load(&r->table, o->table_path, err) < 0)
		epi_die(1, "%s", err);
	r->khz = 0;
	if (o->freq && epi_freq_parse(o->freq, &r->khz, err) < 0)
		epi_die(1, "%s", err);
	memset(&r->prof, 0, sizeof r->prof);
	r->meas = NULL;
	r->nmeas = 0;
	r->col = (epi_fcol){0};
	/* the program priced: its headers found where its build found them */
	r->program[0] = 0;
	epi_trace_reader tr;
	if (o->binary)
		snprintf(r->program, sizeof r->program, "%s", o->binary);
	else if (r->trace && epi_trace_open(&tr, o->against, err) == 0) {
		snprintf(r->program, sizeof r->program, "%s", tr.info.exe);
		epi_trace_close(&tr);
	}
	epi_headers_add(&r->headers, &o->fo, r->program[0] ? r->program : NULL, o->source);
	if (r->trace)
		load_trace(o, r);
	else
		load_measured(o, r);
	/* the compiled-code model against a trace, when the table can price it */
	r->compiled = r->trace && o->model >= 0;
	r->why_source[0] = 0;
	if (r->compiled && !epi_mcosts_usable(&r->col, r->missing, sizeof r->missing)) {
		if (o->model > 0 || o->binary)
			epi_warn("'%s' lacks the kernels %s: the compiled-code model prices them from others "
				 "(epi-calibrate measures them)", o->table_path, r->missing);
		else {
			r->compiled = 0;
			snprintf(r->why_source, sizeof r->why_source, "; '%s' lacks the kernels of the compiled-code model",
				 o->table_path);
		}
	}
	o->fo.tag_loops = r->compiled; /* each loop's own work, for its machine code */
}

/* Dies saying which parameters the program's prediction needs that are
 * unbound (those its total's counts name, not every function's), and
 * what the trip-count ones (T<line>) stand for. */
static _Noreturn void die_unbound(validate_run *r, const char *source)
{
	const epi_region *total = &r->a.regions[r->a.nregions - 1];
	int used[SYM_MAXVARS] = {0};
	counts_params(&r->a.sym, &total->counts, used);
	char names[512];
	int nu = epi_param_names(&r->a, &r->env, used, names, sizeof names, NULL);
	int trips = 0;
	for (int k = 0; k < r->a.sym.nvars && !trips; k++)
		trips = used[k] && !r->env.bound[k] && sym_is_trip(&r->a.sym, k);
	/* the names that are variables the functions set (the analysis's
	 * notes say which), not parameters the program is given */
	char vars[300] = "";
	size_t len = 0;
	for (int k = 0; k < r->a.sym.nvars; k++) {
		if (!used[k] || r->env.bound[k] || !r->a.sym.name[k])
			continue;
		char key[160];
		snprintf(key, sizeof key, "'%s', a variable of ", r->a.sym.name[k]);
		int var = 0;
		for (int i = 0; i < r->a.nnotes && !var; i++)
			var = strstr(r->a.notes[i], key) != NULL;
		if (var && len < sizeof vars)
			len += (size_t)snprintf(vars + len, sizeof vars - len, "%s%s", len ? ", " : "", r->a.sym.name[k]);
	}
	/* how to measure the trip counts: the run's command line again, under
	 * a build with coverage */
	char how[1200] = "";
	char **argv = NULL;
	int argc = trips && r->trace ? epi_cmdline_split(r->prof.info.command, &argv) : 0;
	if (argc > 0) {
		const char *base = strrchr(source, '/');
		base = base ? base + 1 : source;
		int stem = (int)(strlen(base) > 2 && !strcmp(base + strlen(base) - 2, ".c") ? strlen(base) - 2 : strlen(base));
		size_t hl = (size_t)snprintf(how, sizeof how, ": gcc --coverage -g -O0 -o %.*s-cov %s && epi trips -o %.*s.trips -- ./%.*s-cov",
					     stem, base, source, stem, base, stem, base);
		for (int i = 1; i < argc && hl < sizeof how; i++) {
			/* a word the shell would split or expand, quoted */
			int plain = argv[i][0] != 0;
			for (const char *c = argv[i]; *c && plain; c++)
				plain = isalnum((unsigned char)*c) || strchr("_./=:,+-@%", *c);
			hl += (size_t)snprintf(how + hl, sizeof how - hl, plain ? " %s" : " '%s'", argv[i]);
		}
		if (hl < sizeof how)
			snprintf(how + hl, sizeof how - hl, ", then --trips %.*s.trips", stem, base);
	}
	epi_strv_free(argv, argc);
	epi_die(1, "the prediction of '%s' needs its parameters as the program ran: give --param for %s%s%s%s%s%s%s", source,
		nu ? names : "each",
		trips ? " (T<line>: the trip count of the loop on that line, which the analysis cannot count: "
			"--param, --trip FILE:LINE=EXPR, or --trips from epi trips"
		      : "",
		how, trips ? ")" : "",
		len ? " (" : "", vars,
		len ? ": variables its functions set, each taken as one value: their means over the run (whole "
		      "numbers), or the trip counts of the loops they bound with --trip)"
		    : "");
}

/* A note when much of the program's time is outside the source's code
 * (its start-up and the C library in a short run, other files): the
 * program row's measured side includes it, the rows do not. */
static void note_outside(validate_run *r)
{
	uint64_t in = 0, all = r->prof.n;
	for (int i = 0; i < r->v.n; i++)
		if (r->v.rows[i].kind == EPI_CMP_LOOP || r->v.rows[i].kind == EPI_CMP_FUNCTION)
			in += r->v.rows[i].samples;
	if (all < 20 || in >= 0.9 * (double)all)
		return;
	/* where they are: the blocks of other files and objects with the most */
	int nb = 0, top[3] = {-1, -1, -1};
	const epi_block *b = r->prof.attrib ? epi_attrib_blocks(r->prof.attrib, &nb) : NULL;
	for (int i = 0; i < nb; i++) {
		if (b[i].file && epi_same_source(b[i].file, NULL, r->a.file))
			continue;
		for (int k = 0; k < 3; k++)
			if (top[k] < 0 || b[i].n > b[top[k]].n) {
				for (int j = 2; j > k; j--)
					top[j] = top[j - 1];
				top[k] = i;
				break;
			}
	}
	char most[300] = "";
	size_t len = 0;
	for (int k = 0; k < 3 && top[k] >= 0 && len < sizeof most; k++) {
		const epi_block *x = &b[top[k]];
		/* a function of the program is named with its file */
		const char *f = x->kind == EPI_BLOCK_FUNCTION && x->in_program && x->file ? strrchr(x->file, '/') : NULL;
		if (100.0 * (double)x->n / (double)all >= 1)
			len += (size_t)snprintf(most + len, sizeof most - len, "%s%s%s%s%s %.0f%%",
						len ? ", " : "; the most in ", x->name, f ? " (" : "", f ? f + 1 : "",
						f ? ")" : "", 100.0 * (double)x->n / (double)all);
	}
	char line[800];
	snprintf(line, sizeof line,
		 "%.0f%% of the program's %" PRIu64 " samples are outside the code of '%s' (its start-up, "
		 "libraries, other files%s): the program row's measured time includes them, its prediction does not",
		 100.0 * (double)(all - in) / (double)all, all, r->a.file, most);
	epi_analysis_note(&r->a, line);
}

/* A note when the trace's runs took times further apart than a quiet
 * machine gives (a standard deviation of 5% of their mean or more): the
 * intervals carry that spread, and the errors within it say little. */
static void note_spread(validate_run *r)
{
	const epi_profile_sum *p = &r->prof;
	double sd = epi_profile_time_sd(p), T = p->t_mean;
	if (!(T > 0) || !(sd >= EPI_RUNS_APART * T))
		return;
	epi_est t, e;
	epi_profile_total(p, &t, &e);
	char line[400];
	snprintf(line, sizeof line,
		 "the trace's %d runs took %.4g s +- %.0f%% of %s time (their standard deviation; a quiet machine "
		 "gives a few %%): the measured intervals carry it (the program's +- %.0f%%); more runs "
		 "(epi-profile -n) or a quieter machine narrow them",
		 p->nruns, T, 100 * sd / T, p->time_is_cpu ? "CPU" : "wall", 100 * (t.hi - T) / T);
	epi_analysis_note(&r->a, line);
}

/* A note when the source has no main(): the program calls its functions
 * from other files, as often as the source cannot tell, and those without
 * --calls are predicted for one call. */
static void note_calls(const validate_opts *o, validate_run *r)
{
	const epi_analysis *a = &r->a;
	char names[300] = "";
	size_t len = 0;
	int n = 0;
	for (int i = 0; i < a->nroots; i++) {
		if (!strcmp(a->roots[i], "main"))
			return;
		int given = 0;
		for (int k = 0; k < o->fo.ncalls && !given; k++)
			given = !strcmp(o->fo.calls[k].function, a->roots[i]) || !strcmp(o->fo.calls[k].function, "*");
		if (given)
			continue;
		if (n++ < 4 && len < sizeof names)
			len += (size_t)snprintf(names + len, sizeof names - len, "%s%s()", len ? ", " : "", a->roots[i]);
	}
	if (n == 0)
		return;
	char line[600];
	snprintf(line, sizeof line,
		 "'%s' defines no main(): the program calls its functions from other files, and %s%s %s predicted "
		 "for one call; give how often the run called %s with --calls FUNCTION=N",
		 a->file, names, n > 4 ? " and more" : "", n > 1 ? "are" : "is", n > 1 ? "each" : "it");
	epi_analysis_note(&r->a, line);
}

/* The parameters that the counts need and --param did not give, whose
 * values main() sets from the run's command line (the trace's): bound in
 * R's environment and added to R's parameters. */
static void cmdline_params(const validate_opts *o, validate_run *r)
{
	r->params = xmalloc(((size_t)o->nparams + SYM_MAXVARS + 1) * sizeof *r->params);
	for (int i = 0; i < o->nparams; i++)
		r->params[i] = o->params[i];
	r->nparams = o->nparams;
	r->cmd_note[0] = 0;
	if (!r->trace || !r->prof.info.command[0] || r->a.nregions == 0)
		return;
	const epi_region *total = &r->a.regions[r->a.nregions - 1];
	int used[SYM_MAXVARS] = {0};
	counts_params(&r->a.sym, &total->counts, used);
	const char *names[SYM_MAXVARS];
	int lines[SYM_MAXVARS];
	int n = 0;
	for (int k = 0; k < r->a.sym.nvars && k < SYM_MAXVARS; k++)
		if (used[k] && !r->env.bound[k] && r->a.sym.name[k]) {
			/* a trip count's loop, the first of its line */
			lines[n] = r->a.sym.trip_nth[k] == 1 ? r->a.sym.trip_line[k] : sym_is_trip(&r->a.sym, k) ? -1 : 0;
			names[n++] = r->a.sym.name[k];
		}
	if (n == 0)
		return;
	char **argv;
	int argc = epi_cmdline_split(r->prof.info.command, &argv);
	/* a command line as long as the trace keeps may end cut short: its
	 * last word is not taken */
	if (argc > 1 && strlen(r->prof.info.command) + 8 >= sizeof r->prof.info.command) {
		free(argv[--argc]);
		argv[argc] = NULL;
	}
	long long vals[SYM_MAXVARS];
	int got[SYM_MAXVARS];
	/* the source as the program was built: with the -D read back */
	epi_front_opts fo = o->fo;
	int ndefs = r->compiled ? r->mm.ndefs : 0;
	const char **args = epi_strv_join(fo.clang_args, fo.nclang_args, r->mm.defs, ndefs);
	fo.clang_args = args;
	fo.nclang_args += ndefs;
	if (argc > 0 && epi_cmdline_values(o->source, &fo, argc, argv, names, lines, n, vals, got) > 0) {
		size_t len = 0;
		for (int i = 0; i < n; i++) {
			if (!got[i])
				continue;
			char spec[300], err[EPI_ERRLEN];
			snprintf(spec, sizeof spec, "%s=%lld", names[i], vals[i]);
			if (epi_bind_param(&r->a, &r->env, spec, err) < 0)
				continue;
			r->params[r->nparams++] = xstrdup(spec);
			r->ncmd++;
			if (len < sizeof r->cmd_note)
				len += (size_t)snprintf(r->cmd_note + len, sizeof r->cmd_note - len, "%s%s = %lld",
							len ? ", " : "", names[i], vals[i]);
		}
	}
	free(args);
	epi_strv_free(argv, argc);
}

/* The note of the parameters the command line gave. */
static void note_cmdline(validate_run *r)
{
	if (!r->cmd_note[0])
		return;
	char line[1400];
	snprintf(line, sizeof line, "%s: as main() ran with the run's command line (%s); --param chooses", r->cmd_note,
		 r->prof.info.command);
	epi_analysis_note(&r->a, line);
}

/* The prediction, compared row by row. */
static void run(const validate_opts *o, validate_run *r)
{
	char err[EPI_ERRLEN];
	/* the program the trace recorded read beside the analysis */
	/* the program as the runs mapped it: the command's name may be relative
	 * to where it was profiled, or found through PATH */
	const char *prog = r->trace ? epi_attrib_program(r->prof.attrib) : NULL;
	epi_mmodel_job job = {.m = &r->mm, .binary = o->binary ? o->binary : prog ? prog : r->prof.info.exe, .source = o->source,
			      .fo = &o->fo};
	int model = r->trace && r->compiled;
	if (model)
		epi_mmodel_start(&job);
	int code = epi_analyze_bind(&r->a, o->source, &o->fo, o->params, o->nparams, &r->env, err);
	int ret = model ? epi_mmodel_finish(&job, &r->a) : 0;
	if (code)
		epi_analysis_die(&r->a, code, err);
	cmdline_params(o, r);
	if (!r->trace) {
		epi_headers_note(&r->headers, &r->a, r->program);
		if (epi_validate_measured(&r->a, &r->table, &r->env, r->meas, r->nmeas, o->against, &r->v, err) < 0)
			epi_die(1, "%s", err);
		return;
	}
	if (r->compiled && epi_validate_check_source(&r->a, &r->prof, err) < 0)
		epi_die(1, "%s", err);
	if (r->compiled) {
		if (ret < 0)
			epi_die(1, "%s (--model source prices the source alone)", job.err);
		/* calls the compiler removed, or moved out of loops: the source
	 * counted as the code makes them */
		int redone;
		code = epi_mmodel_reanalyze(&r->mm, &r->a, o->source, &o->fo, r->params, r->nparams, &r->env, &redone,
					    err);
		if (code)
			epi_analysis_die(&r->a, code, err);
		epi_mmodel_count(&r->mm, &r->a, &r->env, NULL);
		epi_mmodel_machine(&r->mm, &r->table);
	}
	if (epi_validate_trace(&r->a, &r->col, &r->env, &r->prof, r->compiled ? &r->mm : NULL, &r->v, err) < 0)
		epi_die(1, "%s", err);
	note_outside(r);
	note_spread(r);
	note_calls(o, r);
	note_cmdline(r);
	epi_headers_note(&r->headers, &r->a, r->program);
	for (int i = 0; i < r->v.n; i++)
		if (r->v.rows[i].kind == EPI_CMP_PROGRAM && isnan(r->v.rows[i].pred[EPI_Q_TIME]))
			die_unbound(r, o->source);
}

/* The table's first line: what was compared with what. */
static void head_text(char *head, size_t n, const validate_opts *o, const validate_run *r)
{
	char pt[256], g[32];
	const epi_profile_sum *p = &r->prof;
	params_text(pt, sizeof pt, &r->a, &r->env);
	if (r->trace) {
		fmt_ghz(g, sizeof g, r->khz);
		char model[600];
		snprintf(model, sizeof model, "model: source (each operation priced alone%s)", r->why_source);
		if (r->compiled) {
			char d[560];
			epi_mmodel_describe(&r->mm, d, sizeof d);
			snprintf(model, sizeof model, "model: %s", d);
		}
		char clk[160] = "";
		if (r->clock != 1)
			snprintf(clk, sizeof clk, " (core times at the trace's %.3f GHz effective clock, measured at %.3f)",
				 r->prof.info.effective_ghz, r->table_ghz);
		char mem[160] = "";
		if (r->memory != 1)
			snprintf(mem, sizeof mem,
				 " (memory times x%.2f: load.dram %.3g ns a load before the runs, %.3g ns in the table)",
				 r->memory, p->info.dram_load_s * 1e9, r->table_dram * 1e9);
		snprintf(head, n, "%s against %s (%d run%s of %s, %s time%s), table %s at %s GHz%s%s%s%s\n%s", o->source,
			 o->against, p->nruns, p->nruns == 1 ? "" : "s", p->info.command, p->time_is_cpu ? "cpu" : "wall",
			 isnan(p->j_mean) ? ", no energy" : "", o->table_path, g, clk, mem, pt[0] ? ", " : "", pt, model);
	} else {
		snprintf(head, n, "%s against %s (%d measurement%s), table %s%s%s", o->source, o->against, r->v.n,
			 r->v.n == 1 ? "" : "s", o->table_path, pt[0] ? ", " : "", pt);
	}
}

static void report(const validate_opts *o, const validate_run *r)
{
	char head[1024];
	head_text(head, sizeof head, o, r);
	epi_out eo;
	FILE *out = epi_out_open(&eo, o->output);
	if (o->fmt == EPI_FMT_CSV) {
		write_csv(out, &r->v, r->trace);
		for (int i = 0; i < r->a.nnotes; i++) /* the columns stay the rows' */
			fprintf(stderr, "%s: note: %s\n", epi_prog, r->a.notes[i]);
	} else if (o->fmt == EPI_FMT_JSON) {
		write_json(out, &r->v, r->trace, o->source, o->against, o->table_path,
			   r->trace ? (const double[]){r->table_ghz, r->prof.info.effective_ghz, r->clock, r->table_dram,
					       r->prof.info.dram_load_s, r->memory}
			   : NULL, &r->a);
	} else {
		write_table(out, &r->v, r->trace, head, &r->a);
	}
	epi_out_close(&eo);
}

/* --plot: energy when measured, else time. */
static void draw(const validate_opts *o, const validate_run *r)
{
	const epi_validation *v = &r->v;
	int q = v->nerr[EPI_Q_ENERGY] || (!r->trace && v->n) ? EPI_Q_ENERGY : EPI_Q_TIME;
	for (int i = 0; i < v->n && q == EPI_Q_ENERGY && r->trace; i++)
		if (v->rows[i].kind == EPI_CMP_PROGRAM && isnan(v->rows[i].meas[EPI_Q_ENERGY].v))
			q = EPI_Q_TIME;
	const char *b = strrchr(o->source, '/');
	plot(v, q, o->svg, b ? b + 1 : o->source);
	if (o->fmt == EPI_FMT_TABLE && o->output)
		fprintf(stderr, "%s: drew '%s'\n", epi_prog, o->svg);
}

static void free_run(validate_opts *o, validate_run *r)
{
	epi_validation_free(&r->v);
	sym_env_clear(&r->env);
	epi_analysis_free(&r->a);
	if (r->trace) {
		epi_fcol_free(&r->col);
		epi_profile_sum_free(&r->prof);
	}
	if (r->compiled)
		epi_mmodel_free(&r->mm);
	epi_measured_free(r->meas, r->nmeas);
	epi_table_free(&r->table);
	free(o->table_path);
	free(o->params);
	for (int i = r->nparams - r->ncmd; i < r->nparams; i++)
		free((char *)r->params[i]);
	free(r->params);
	o->fo.clang_args = NULL;
	o->fo.nclang_args = 0;
	epi_front_opts_clear(&o->fo);
	epi_headers_free(&r->headers);
}

int epi_validate_main(int argc, char **argv)
{
	validate_opts o;
	validate_run r = {0};
	parse_args(argc, argv, &o);
	load_inputs(&o, &r);
	run(&o, &r);
	report(&o, &r);
	if (o.svg)
		draw(&o, &r);
	free_run(&o, &r);
	return 0;
}
