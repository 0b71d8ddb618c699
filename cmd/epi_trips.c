/* epi trips: runs a program built with coverage and reports, for each loop
 * of its C sources, its entries, iterations and trip count per entry, over
 * runs that sweep a parameter: the figures epi-predict --trips binds to the
 * loops it cannot count (predict/trips.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/epi_cmd.h"
#include "model/util.h"
#include "predict/report.h"
#include "predict/trips.h"

static const char usage[] =
	"usage: %s [options] [--] PROGRAM [ARGS...]\n"
	"\n"
	"Runs PROGRAM, built with coverage (gcc --coverage -g at -O0, or clang\n"
	"-fprofile-instr-generate -fcoverage-mapping -g), and reports for each loop of\n"
	"its C sources the times it was entered, the iterations it ran and its trip\n"
	"count per entry, which epi-predict --trips FILE binds to the loops its\n"
	"analysis cannot count.\n"
	"\n"
	"  -o, --output FILE       write the trips file (JSON) to FILE, atomically\n"
	"  -P, --param NAME=V1,V2,...\n"
	"                          run once per value, with {NAME} in ARGS replaced by\n"
	"                          it, and fit each trip count as a polynomial in NAME\n"
	"  -F, --format table|csv|json\n"
	"                          what stdout shows (default table)\n"
	"  -p DIR                  compiler flags for parsing the sources, from\n"
	"                          DIR/compile_commands.json\n"
	"  -D NAME[=VALUE], -I DIR\n"
	"                          a macro or an include folder for parsing the sources,\n"
	"                          as the program was built (repeatable; after -p's)\n"
	"  -q, --quiet             no progress on a terminal\n"
	"  -h, --help              this help\n"
	"\n"
	"The coverage goes to a temporary folder, removed afterwards: nothing is left\n"
	"beside the program or its objects. A run's non-zero exit status is a warning.\n"
	"Exit status: 0 success, 1 error, 2 usage error. See epi-trips(1).\n";

/* ARGV with every {NAME} replaced by VALUE (malloc'd, NULL-terminated). */
static char **substitute(char **argv, const char *name, const char *value)
{
	int n = 0;
	while (argv[n])
		n++;
	char **out = xcalloc((size_t)n + 1, sizeof *out);
	char key[80];
	snprintf(key, sizeof key, "{%s}", name ? name : "");
	size_t kl = strlen(key);
	for (int i = 0; i < n; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		for (const char *p = argv[i]; *p;) {
			if (name && strncmp(p, key, kl) == 0) {
				fputs(value, f);
				p += kl;
			} else {
				fputc(*p++, f);
			}
		}
		fclose(f);
		out[i] = buf;
	}
	return out;
}

static void free_values(char **values, int n, long *x, char *pname)
{
	for (int i = 0; i < n; i++)
		free(values[i]);
	free(values);
	free(x);
	free(pname);
}

static void free_argv(char **v)
{
	for (char **a = v; *a; a++)
		free(*a);
	free(v);
}

/* The loop's columns: entries, iterations (totals over the runs), trip,
 * residual, note; "-" where there is none. */
static void cells(const epi_trips *t, const epi_tloop *L, char *e, char *it, char *res, size_t n)
{
	long long E, I;
	int unread = epi_tloop_totals(t, L, &E, &I) < 0;
	snprintf(e, n, unread ? "-" : "%lld", E);
	snprintf(it, n, unread ? "-" : "%lld", I);
	if (!L->trip)
		snprintf(res, n, "-");
	else if (L->exact)
		snprintf(res, n, "0");
	else
		snprintf(res, n, "%.3g", L->residual);
}

static const char *note(const epi_tloop *L) { return L->why ? L->why : L->trip ? "" : "never entered"; }

static void print_table(FILE *out, const epi_trips *t, const char *pname, char **values, int nvalues)
{
	fprintf(out, "%s: %s (%s coverage), %d run%s", epi_prog, t->exe, t->cov == EPI_COV_GCC ? "gcc" : "clang", t->nruns,
		t->nruns == 1 ? "" : "s");
	if (pname) {
		fprintf(out, " with %s = ", pname);
		for (int i = 0; i < nvalues; i++)
			fprintf(out, "%s%s", i ? ", " : "", values[i]);
	}
	fputs("\n\n", out);
	/* column widths */
	const char *head[] = {"file", "line", "nth", "function", "entries", "iterations", "trip", "residual", "note"};
	int w[9];
	for (int c = 0; c < 9; c++)
		w[c] = (int)strlen(head[c]);
	char e[32], it[32], res[32], ln[16], nth[16];
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			fprintf(out, "%-*s  %*s  %*s  %-*s  %*s  %*s  %-*s  %*s  %s\n", w[0], head[0], w[1], head[1], w[2], head[2],
				w[3], head[3], w[4], head[4], w[5], head[5], w[6], head[6], w[7], head[7], head[8]);
		for (int li = 0; li < t->nloops; li++) {
			const epi_tloop *L = &t->loops[li];
			cells(t, L, e, it, res, sizeof e);
			snprintf(ln, sizeof ln, "%d", L->line);
			snprintf(nth, sizeof nth, "%d", L->nth);
			const char *v[9] = {t->shown[L->src], ln, nth, L->function, e, it, L->trip ? L->trip : "-", res, note(L)};
			if (!pass) {
				for (int c = 0; c < 8; c++)
					if ((int)strlen(v[c]) > w[c])
						w[c] = (int)strlen(v[c]);
				continue;
			}
			fprintf(out, "%-*s  %*s  %*s  %-*s  %*s  %*s  %-*s  %*s  %s\n", w[0], v[0], w[1], v[1], w[2], v[2], w[3],
				v[3], w[4], v[4], w[5], v[5], w[6], v[6], w[7], v[7], v[8]);
		}
	}
	if (t->nloops == 0)
		fprintf(out, "(no loop in the sources)\n");
	for (int i = 0; i < t->nnotes; i++)
		fprintf(out, "note: %s\n", t->notes[i]);
}

static void print_csv(FILE *out, const epi_trips *t)
{
	fputs("file,line,nth,function,kind,entries,iterations,trip,params,residual,note\n", out);
	char e[32], it[32], res[32], ln[16], nth[16];
	for (int li = 0; li < t->nloops; li++) {
		const epi_tloop *L = &t->loops[li];
		cells(t, L, e, it, res, sizeof e);
		snprintf(ln, sizeof ln, "%d", L->line);
		snprintf(nth, sizeof nth, "%d", L->nth);
		const char *kind = L->kind == 'f' ? "for" : L->kind == 'w' ? "while" : "do";
		const char *v[] = {t->shown[L->src], ln, nth, L->function, kind, *e == '-' ? "" : e, *it == '-' ? "" : it,
				   L->trip ? L->trip : "", L->param ? L->param : "", *res == '-' ? "" : res, note(L)};
		for (int c = 0; c < 11; c++) {
			epi_csv_field(out, v[c]);
			fputc(c == 10 ? '\n' : ',', out);
		}
	}
}

typedef struct trips_opts {
	const char *output, *param, *compdb;
	char **cflags; /* -D and -I, as flags */
	int ncflags;
	enum epi_format format;
	int quiet;
	char **prog; /* the program and its arguments */
	/* --param NAME=V1,V2,...: NAME, and each value as given and as a number */
	char *pname, **values;
	long *x;
	int nvalues;
} trips_opts;

/* --param NAME=V1,V2,...: whole numbers, and {NAME} among the arguments */
static void parse_param(trips_opts *o)
{
	const char *param = o->param;
	const char *eq = strchr(param, '=');
	int ident = eq && eq > param && (isalpha((unsigned char)param[0]) || param[0] == '_');
	for (const char *p = param; ident && p < eq; p++)
		ident = isalnum((unsigned char)*p) || *p == '_';
	if (!ident || !eq[1] || eq - param > 64)
		epi_die(2, "invalid --param '%s': expected NAME=V1,V2,... (whole numbers)", param);
	for (const char *v = eq + 1;; v += strcspn(v, ",") + 1) {
		char tok[32];
		size_t len = strcspn(v, ",");
		snprintf(tok, sizeof tok, "%.*s", (int)(len < sizeof tok ? len : sizeof tok - 1), v);
		long val;
		if (len == 0 || len >= sizeof tok || epi_parse_long(tok, -(1L << 52), 1L << 52, &val) < 0) {
			free_values(o->values, o->nvalues, o->x, NULL);
			epi_die(2, "invalid --param '%s': '%.*s' is not a whole number", param, (int)len, v);
		}
		o->values = xrealloc(o->values, (size_t)(o->nvalues + 1) * sizeof *o->values);
		o->x = xrealloc(o->x, (size_t)(o->nvalues + 1) * sizeof *o->x);
		o->x[o->nvalues] = val;
		o->values[o->nvalues++] = xstrdup(tok);
		if (!v[len])
			break;
	}
	o->pname = xstrndup(param, (size_t)(eq - param));
	char key[80];
	snprintf(key, sizeof key, "{%s}", o->pname);
	int used = 0;
	for (char **a = o->prog; *a; a++)
		used |= strstr(*a, key) != NULL;
	if (!used) {
		free_values(o->values, o->nvalues, o->x, o->pname);
		epi_die(2, "--param '%s': the program's arguments have no %s to put its values in", param, key);
	}
}

static void parse_args(int argc, char **argv, trips_opts *o)
{
	static const struct option opts[] = {
		{"output", required_argument, 0, 'o'}, {"param", required_argument, 0, 'P'},
		{"format", required_argument, 0, 'F'}, {"quiet", no_argument, 0, 'q'},
		{"help", no_argument, 0, 'h'},         {0, 0, 0, 0},
	};
	*o = (trips_opts){.format = EPI_FMT_TABLE};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:P:F:p:D:I:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'D':
		case 'I': {
			size_t n = strlen(optarg) + 3;
			char *f = xmalloc(n);
			snprintf(f, n, "-%c%s", c, optarg);
			o->cflags = xrealloc(o->cflags, (size_t)(o->ncflags + 1) * sizeof *o->cflags);
			o->cflags[o->ncflags++] = f;
			break;
		}
		case 'o': o->output = optarg; break;
		case 'P':
			if (o->param)
				epi_die(2, "one --param only: the trip counts are fitted in one parameter");
			o->param = optarg;
			break;
		case 'F': o->format = epi_parse_format(optarg); break;
		case 'p': o->compdb = optarg; break;
		case 'q': o->quiet = 1; break;
		case 'h': printf(usage, epi_prog); exit(0);
		default: epi_die(2, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		epi_die(2, "no program to run: %s [options] -- PROGRAM [ARGS...]", epi_prog);
	o->prog = argv + optind;
	if (o->param)
		parse_param(o);
}

/* The program's path and the coverage it was built with; a gcc build must
 * be at -O0 for gcov's counts to be right. */
static char *find_exe(const char *argv0, enum epi_cov *cov)
{
	char err[EPI_ERRLEN];
	char *exe = epi_trips_which(argv0, err);
	if (!exe)
		epi_die(1, "%s", err);
	if (epi_cov_detect(exe, cov, err) < 0)
		epi_die(1, "%s", err);
	if (*cov == EPI_COV_GCC) {
		int r = epi_cov_check_O0(exe, err);
		if (r < 0)
			epi_die(1, "%s", err);
		if (r > 0)
			epi_warn("'%s' has no DWARF to tell its optimisation level: gcov's counts are read right only at -O0 "
				 "(build with --coverage -g -O0)", exe);
	}
	return exe;
}

/* Runs the program once per --param value (once without), then fits the
 * trip counts. */
static void run_all(const trips_opts *o, epi_trips *t)
{
	char err[EPI_ERRLEN];
	int nruns = o->param ? o->nvalues : 1, tty = isatty(2) && !o->quiet && nruns > 1;
	for (int r = 0; r < nruns; r++) {
		char **av = substitute(o->prog, o->pname, o->param ? o->values[r] : "");
		if (tty)
			fprintf(stderr, "%s: run %d of %d: %s = %s\n", epi_prog, r + 1, nruns, o->pname, o->values[r]);
		if (epi_trips_run(t, av, o->pname, o->param ? o->values[r] : NULL, err) < 0)
			epi_die(1, "%s", err);
		int st = t->runs[t->nruns - 1].status;
		if (WIFSIGNALED(st))
			epi_warn("run %d: '%s' was killed by signal %d", r + 1, av[0], WTERMSIG(st));
		else if (WEXITSTATUS(st))
			epi_warn("run %d: '%s' exited with status %d", r + 1, av[0], WEXITSTATUS(st));
		free_argv(av);
	}
	epi_trips_fit(t, o->pname, o->x);
}

/* The trips file (--output), then stdout's report in --format. */
static void report(const trips_opts *o, const epi_trips *t)
{
	char err[EPI_ERRLEN];
	json_t *doc = epi_trips_json(t);
	if (o->output) {
		char *text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		size_t len = strlen(text);
		text = xrealloc(text, len + 2);
		text[len++] = '\n';
		if (epi_write_atomic(o->output, text, len, err) < 0)
			epi_die(1, "%s", err);
		free(text);
	}
	if (o->format == EPI_FMT_JSON) {
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', stdout);
	} else if (o->format == EPI_FMT_CSV) {
		print_csv(stdout, t);
	} else {
		print_table(stdout, t, o->pname, o->values, o->nvalues);
	}
	json_decref(doc);
	if (fflush(stdout) != 0 || ferror(stdout))
		epi_die(1, "cannot write the report");
}

int epi_trips_main(int argc, char **argv)
{
	trips_opts o;
	parse_args(argc, argv, &o);
	enum epi_cov cov;
	char *exe = find_exe(o.prog[0], &cov);
	epi_trips t;
	epi_trips_init(&t, cov, exe);
	t.compdb = o.compdb;
	t.clang_args = (const char *const *)o.cflags;
	t.nclang_args = o.ncflags;
	run_all(&o, &t);
	report(&o, &t);
	epi_trips_free(&t);
	free(exe);
	free_values(o.values, o.nvalues, o.x, o.pname);
	for (int i = 0; i < o.ncflags; i++)
		free(o.cflags[i]);
	free(o.cflags);
	return 0;
}
