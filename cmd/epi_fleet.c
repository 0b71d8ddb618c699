/* epi fleet: a cluster's cost tables, one per node in a folder. `report`
 * compares the nodes of each CPU model: per operation and frequency the
 * mean, the spread (coefficient of variation, range) and the nodes beyond
 * 3.5 scaled MADs of the median, as a table, CSV or JSON, and a figure. */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/plot.h"
#include "cmd/epi_cmd.h"
#include "fleet/fleet.h"
#include "model/freq.h"
#include "model/json.h"
#include "model/util.h"
#include "predict/report.h"

static const char usage[] =
	"usage: %s report -d TABLEDIR [--format table|csv|json] [-o FILE] [--plot FILE.svg]\n"
	"\n"
	"report: the cost tables of TABLEDIR (one NODE.xml per node, as epi-calibrate\n"
	"writes them) compared across the nodes of each CPU model: per operation and\n"
	"frequency, the mean time and energy, their spread across the nodes\n"
	"(coefficient of variation, range) and the outlier nodes (beyond 3.5 scaled\n"
	"MADs of the median); --plot draws energy (else time) per operation per node.\n"
	"See epi-fleet(1).\n";

typedef struct fleet_opts {
	const char *sub, *dir, *output, *plot;
	enum epi_format format;
} fleet_opts;

static void parse_args(int argc, char **argv, fleet_opts *o)
{
	static const struct option opts[] = {
		{"dir", required_argument, 0, 'd'},    {"format", required_argument, 0, 'F'},
		{"output", required_argument, 0, 'o'}, {"plot", required_argument, 0, 'P'},
		{"help", no_argument, 0, 'h'},         {0, 0, 0, 0},
	};
	*o = (fleet_opts){.format = EPI_FMT_TABLE};
	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
			printf(usage, epi_prog);
			exit(0);
		}
		epi_die(2, "which fleet command? report");
	}
	o->sub = argv[1];
	if (strcmp(o->sub, "report") != 0)
		epi_die(2, "unknown fleet command '%s' (report)", o->sub);
	int c;
	optind = 2;
	while ((c = getopt_long(argc, argv, "d:F:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': o->dir = optarg; break;
		case 'F': o->format = epi_parse_format(optarg); break;
		case 'o': o->output = optarg; break;
		case 'P': o->plot = optarg; break;
		case 'h': printf(usage, epi_prog); exit(0);
		default: epi_die(2, "unknown option");
		}
	}
	if (optind < argc)
		epi_die(2, "unexpected argument '%s'", argv[optind]);
	if (!o->dir)
		epi_die(2, "no table folder: -d TABLEDIR");
}

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
			int n = 0;
			for (int k = 0; k < f->n; k++)
				n += f->node[k].t.cpu ? strcmp(f->node[k].t.cpu, model) == 0 : strcmp("unknown", model) == 0;
			fprintf(out, "\nmodel %s: %d node%s\n", model, n, n == 1 ? "" : "s");
			fprintf(out, "%-9s %-18s %-7s %5s %12s %7s %7s  %s\n", "freq", "op", "", "nodes", "mean", "cv", "range",
				"outliers (from the median)");
		}
		epi_freq_ghz(g, sizeof g, r->khz);
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
		fprintf(out, ",%.6g,", r->khz / 1e6);
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
		json_object_set_new(o, "freq_ghz", json_real(r->khz / 1e6));
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
	char g[32];
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
