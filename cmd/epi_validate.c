/* epi validate: epi-predict's predictions of a source against what ran:
 * a trace of epi-profile (per loop nest and for the whole program, with the
 * sampled 95% intervals), or whole-program measurements in a CSV. */
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
#include "predict/report.h"
#include "predict/trips.h"
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
	"Then the mean absolute relative error.\n"
	"\n"
	"  -a, --against FILE      the trace or the CSV\n"
	"  -t, --table FILE        cost table (default: $EPI_TABLE, else this machine's)\n"
	"  -f, --freq F            price at F (default: the trace's pinned frequency, or\n"
	"                          the table's only one); with a CSV, only its rows at F\n"
	"  -P, --param NAME=VALUE  bind a parameter (repeatable), as the program ran\n"
	"      --trip [FILE:]LINE=EXPR\n"
	"                          trip count of the loop at LINE (repeatable)\n"
	"      --trips FILE        trip counts measured by `epi trips -o FILE`, for the\n"
	"                          loops the analysis cannot count (repeatable)\n"
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

static void write_json(FILE *out, const epi_validation *v, int trace, const char *source, const char *against,
		       const char *table)
{
	json_t *root = json_object();
	json_object_set_new(root, "source", json_string(source));
	json_object_set_new(root, "against", json_string(against));
	json_object_set_new(root, "table", json_string(table));
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

static void write_table(FILE *out, const epi_validation *v, int trace, const char *head)
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

/* Predicted against measured, the quantity Q: a point per row with its
 * error bars (one data set each, named in the key), and the line where
 * they are equal. */
static void plot(const epi_validation *v, int q, const char *svg, const char *title)
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

/* Whether PATH starts as a trace does. */
static int is_trace(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		epi_die(1, "cannot read '%s': %s", path, strerror(errno));
	char m[8] = {0};
	size_t n = fread(m, 1, sizeof m, f);
	fclose(f);
	return n == 8 && memcmp(m, "EPITRACE", 8) == 0;
}

int epi_validate_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"against", required_argument, 0, 'a'}, {"table", required_argument, 0, 't'},
		{"freq", required_argument, 0, 'f'},    {"param", required_argument, 0, 'P'},
		{"trip", required_argument, 0, 'T'},    {"format", required_argument, 0, 'F'},
		{"output", required_argument, 0, 'o'},  {"plot", required_argument, 0, 'p'},
		{"trips", required_argument, 0, 'R'},   {"help", no_argument, 0, 'h'},
		{0, 0, 0, 0},
	};
	char err[EPI_ERRLEN];
	const char *against = NULL, *freq = NULL, *output = NULL, *svg = NULL;
	char *table_path = NULL;
	const char **params = NULL;
	int nparams = 0;
	enum epi_format fmt = EPI_FMT_TABLE;
	epi_front_opts fo;
	epi_front_opts_init(&fo);
	int dashdash = epi_dashdash(argc, argv);
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(dashdash, argv, ":a:t:f:P:F:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'a': against = optarg; break;
		case 't': free(table_path); table_path = xstrdup(optarg); break;
		case 'f': freq = optarg; break;
		case 'P':
			if (epi_bind_param(NULL, NULL, optarg, err) < 0)
				epi_die(2, "%s", err);
			params = xrealloc(params, (size_t)(nparams + 1) * sizeof *params);
			params[nparams++] = optarg;
			break;
		case 'T':
			fo.trips = xrealloc(fo.trips, (size_t)(fo.ntrips + 1) * sizeof *fo.trips);
			if (epi_trip_parse(&fo.trips[fo.ntrips], optarg, err) < 0)
				epi_die(2, "%s", err);
			fo.ntrips++;
			break;
		case 'R':
			if (epi_trips_load(optarg, &fo.trips, &fo.ntrips, err) < 0)
				epi_die(1, "%s", err);
			break;
		case 'F': fmt = epi_parse_format(optarg); break;
		case 'o': output = optarg; break;
		case 'p': svg = optarg; break;
		case 'h': printf(usage, epi_prog); return 0;
		default: epi_opt_error(err, c, optopt, argv, optind); epi_die(2, "%s", err);
		}
	}
	const char *source = epi_one_source(argv, dashdash, &optind, err);
	if (!source)
		epi_die(2, "%s", err);
	if (!against)
		epi_die(2, "nothing to compare with: give --against TRACE or --against MEASURED.csv");
	fo.clang_args = (const char *const *)argv + (dashdash < argc ? dashdash + 1 : argc);
	fo.nclang_args = dashdash < argc ? argc - dashdash - 1 : 0;
	int trace = is_trace(against);
	fo.tag_blocks = trace; /* each block's own work, for the profile's blocks */

	if (!table_path)
		table_path = epi_table_find_default();
	if (!table_path)
		epi_die(1, "no cost table: give --table FILE, set EPI_TABLE, or run epi-calibrate");
	epi_table table;
	if (epi_table_load(&table, table_path, err) < 0)
		epi_die(1, "%s", err);
	long khz = 0;
	if (freq && epi_freq_parse(freq, &khz, err) < 0)
		epi_die(1, "%s", err);

	/* the trace first: a bad one fails before the parse */
	epi_profile_sum prof;
	memset(&prof, 0, sizeof prof);
	epi_measured *meas = NULL;
	int nmeas = 0;
	if (trace) {
		char warn[EPI_ERRLEN];
		if (epi_profile_load(&prof, against, EPI_BY_LOOP, fo.clang_args, fo.nclang_args, warn, err) < 0)
			epi_die(1, "%s", err);
		if (warn[0])
			epi_warn("%s", warn);
		char g[32];
		if (!freq && prof.info.freq_khz > 0) {
			khz = (long)prof.info.freq_khz;
		} else if (freq && prof.info.freq_khz > 0 && prof.info.freq_khz != khz) {
			fmt_ghz(g, sizeof g, (long)prof.info.freq_khz);
			epi_warn("the trace ran at %s GHz; pricing at %s as --freq asks", g, freq);
		} else if (!freq) {
			if (table.nf != 1)
				epi_die(1, "the trace records no pinned frequency and '%s' has %d: give --freq", table_path,
					table.nf);
			khz = table.f[0].khz;
		}
	} else {
		nmeas = epi_measured_load(against, &meas, err);
		if (nmeas < 0)
			epi_die(1, "%s", err);
		if (freq) {
			int k = 0;
			for (int i = 0; i < nmeas; i++) {
				if (meas[i].khz == khz)
					meas[k++] = meas[i];
				else
					free(meas[i].param);
			}
			if (k == 0)
				epi_die(1, "'%s' has no measurement at %s", against, freq);
			nmeas = k;
		}
	}
	epi_fcol col = {0};
	if (trace && epi_table_at(&table, khz, &col, err) < 0)
		epi_die(1, "%s", err);

	epi_analysis a;
	sym_env env;
	epi_analyze_or_die(&a, source, &fo, params, nparams, &env);
	epi_validation v;
	if (trace) {
		if (epi_validate_trace(&a, &col, &env, &prof, &v, err) < 0)
			epi_die(1, "%s", err);
		for (int i = 0; i < v.n; i++)
			if (v.rows[i].kind == EPI_CMP_PROGRAM && isnan(v.rows[i].pred[EPI_Q_TIME])) {
				char names[256];
				int nu = epi_param_names(&a, &env, names, sizeof names, NULL);
				epi_die(1, "the prediction of '%s' needs its parameters as the program ran: give --param for %s",
					source, nu ? names : "each");
			}
	} else if (epi_validate_measured(&a, &table, &env, meas, nmeas, against, &v, err) < 0) {
		epi_die(1, "%s", err);
	}

	char head[1024], pt[256], g[32];
	params_text(pt, sizeof pt, &a, &env);
	if (trace) {
		fmt_ghz(g, sizeof g, khz);
		snprintf(head, sizeof head, "%s against %s (%d run%s of %s, %s time%s), table %s at %s GHz%s%s", source,
			 against, prof.nruns, prof.nruns == 1 ? "" : "s", prof.info.command, prof.time_is_cpu ? "cpu" : "wall",
			 isnan(prof.j_mean) ? ", no energy" : "", table_path, g, pt[0] ? ", " : "", pt);
	} else {
		snprintf(head, sizeof head, "%s against %s (%d measurement%s), table %s%s%s", source, against, v.n,
			 v.n == 1 ? "" : "s", table_path, pt[0] ? ", " : "", pt);
	}
	epi_out eo;
	FILE *out = epi_out_open(&eo, output);
	if (fmt == EPI_FMT_CSV)
		write_csv(out, &v, trace);
	else if (fmt == EPI_FMT_JSON)
		write_json(out, &v, trace, source, against, table_path);
	else
		write_table(out, &v, trace, head);
	epi_out_close(&eo);
	if (svg) {
		int q = v.nerr[EPI_Q_ENERGY] || (!trace && v.n) ? EPI_Q_ENERGY : EPI_Q_TIME;
		for (int i = 0; i < v.n && q == EPI_Q_ENERGY && trace; i++)
			if (v.rows[i].kind == EPI_CMP_PROGRAM && isnan(v.rows[i].meas[EPI_Q_ENERGY].v))
				q = EPI_Q_TIME;
		const char *b = strrchr(source, '/');
		plot(&v, q, svg, b ? b + 1 : source);
		if (fmt == EPI_FMT_TABLE && output)
			fprintf(stderr, "%s: drew '%s'\n", epi_prog, svg);
	}
	epi_validation_free(&v);
	sym_env_clear(&env);
	epi_analysis_free(&a);
	if (trace) {
		epi_fcol_free(&col);
		epi_profile_sum_free(&prof);
	}
	epi_measured_free(meas, nmeas);
	epi_table_free(&table);
	free(table_path);
	free(params);
	fo.clang_args = NULL;
	fo.nclang_args = 0;
	epi_front_opts_clear(&fo);
	return 0;
}
