/* epi-predict: counts the basic operations of a C file's loop nests exactly
 * and prices them with a cost table, E(f) = sum_i N_i e_i(f). */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>

#ifdef EPI_MIMALLOC
#include <mimalloc.h>
#endif

#include "cmd/epi_cmd.h"
#include "fleet/fleet.h"
#include "machine/cpu.h"
#include "model/freq.h"
#include "model/table.h"
#include "model/util.h"
#include "predict/cfront.h"
#include "predict/mmodel.h"
#include "predict/mprice.h"
#include "predict/report.h"
#include "predict/trips.h"

#ifdef EPI_MIMALLOC
/* The analysis fills some 100 MiB with small objects, and a 4 KiB page
 * fault each costs more than the allocation: mimalloc is asked for memory
 * in 2 MiB pages where the system gives them (transparent huge pages in
 * "madvise" mode), committed when reserved rather than on first use, for
 * every thread's first segment too.  This runs from .preinit_array, before
 * the shared libraries' constructors (libclang's allocate), so that it
 * holds for mimalloc's first segment; what the environment says wins. */
static void alloc_options(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	int large = 1, delay = 1;
	for (char **e = envp; e && *e; e++) {
		large &= strncmp(*e, "MIMALLOC_LARGE_OS_PAGES=", 24) != 0;
		delay &= strncmp(*e, "MIMALLOC_EAGER_COMMIT_DELAY=", 28) != 0;
	}
	if (large)
		mi_option_enable(mi_option_large_os_pages);
	if (delay)
		mi_option_set(mi_option_eager_commit_delay, 0);
}
__attribute__((section(".preinit_array"), used)) static void (*const alloc_options_at_start)(int, char **,
											      char **) = alloc_options;
#endif

static const char usage[] =
	"usage: epi-predict [options] FILE.c [-- COMPILER-FLAGS...]\n"
	"\n"
	"Counts the basic operations (add, mul, div, cmp, load, store, memcpy, malloc,\n"
	"print, iter, ...) of each loop nest and function of FILE.c exactly, as formulas\n"
	"of the loop bounds, and prices them with a cost table.\n"
	"\n"
	"  -t, --table FILE        cost table (default: $EPI_TABLE, else this machine's\n"
	"                          calibrated table, else counts only); a folder of\n"
	"                          node tables (epi fleet): this host's, else the\n"
	"                          median node's of this CPU model, said so\n"
	"      --node HOST         with a folder of tables: HOST's table\n"
	"  -f, --freq F|all        frequency to price at (2.4GHz, 2400MHz, 2400000kHz),\n"
	"                          or all calibrated ones (default: all)\n"
	"  -P, --param NAME=VALUE  bind a parameter (repeatable), e.g. --param n=100000\n"
	"  -b, --branch-prob P     probability that an if's then-branch runs (default 0.5)\n"
	"      --trip [FILE:]LINE=EXPR\n"
	"                          trip count of the loop at LINE (LINE_2: the second\n"
	"                          loop on LINE) (repeatable)\n"
	"      --trips FILE        trip counts measured by `epi trips -o FILE`, for the\n"
	"                          loops the analysis cannot count (repeatable)\n"
	"      --calls FUNCTION=N  the program calls FUNCTION N times from other files\n"
	"                          or through pointers (one no code of FILE.c calls):\n"
	"                          the total counts it N times; '*=N' every such\n"
	"                          function (repeatable)\n"
	"      --strict            a loop that cannot be counted is an error, instead\n"
	"                          of a trip-count parameter T<LINE> to bind\n"
	"  -p DIR                  read compiler flags from DIR/compile_commands.json\n"
	"  -m, --model M           source: each operation priced alone, E = sum N_i e_i\n"
	"                          (the default without a program); compiled: the\n"
	"                          machine code compiled from FILE.c, priced with overlap\n"
	"                          (the default with --binary or an -O flag after --)\n"
	"      --binary PROG       the program (or object) built from FILE.c with -g to\n"
	"                          price; without it, the compiled model builds FILE.c\n"
	"                          with clang and the flags after --\n"
	"  -F, --format table|csv|json\n"
	"                          output format (default table)\n"
	"  -o, --output FILE       write the report to FILE (atomically)\n"
	"  -j, --jobs N            threads that analyse the file, read the program and\n"
	"                          format the report (default: one per online CPU, one\n"
	"                          per 500 loops of the file at most for the analysis);\n"
	"                          the output is the same for any N\n"
	"  -h, --help              this help\n"
	"      --version           version\n"
	"\n"
	"Exit status: 0 success, 1 error, 2 usage error. See epi-predict(1).\n";

typedef struct predict_opts {
	const char *file;
	char *table_path; /* malloc'd: as given, or the default table's */
	const char *node; /* --node: which table of a folder */
	const char *freq, *trips_file, *compdb, *output;
	enum epi_format format;
	const char **params;
	int nparams, jobs;
	int dashdash; /* where the compiler flags' "--" is, or argc */
	epi_front_opts fo;
	int model;          /* -1 source, 1 compiled, 0 as the other options imply */
	const char *binary; /* --binary */
} predict_opts;

/* What the run made, for the report and to free. */
typedef struct predict_run {
	char **dbargs; /* compile_commands.json's flags */
	int ndb;
	const char **flags;
	epi_table table;
	int have_table;
	char table_why[512]; /* the node of a folder of tables, and why it; "" otherwise */
	long *khz;
	int nkhz;
	epi_analysis a;
	sym_env env;
	int compiled;        /* priced by the compiled-code model */
	epi_mmodel mm;
	epi_headers headers; /* the folders of --binary's headers added to the flags */
} predict_run;

static void parse_branch_prob(epi_front_opts *fo, const char *v)
{
	char *end;
	double p = strtod(v, &end);
	if (*end || !(p >= 0 && p <= 1))
		epi_die(2, "invalid --branch-prob '%s': expected a probability from 0 to 1", v);
	fmpq_set_si(fo->branch_prob, (slong)llround(p * 1e9), 1000000000UL);
}

static int parse_jobs(const char *v)
{
	long j;
	if (epi_parse_long(v, 1, 1024, &j) < 0)
		epi_die(2, "invalid --jobs '%s': expected a number of threads from 1 to 1024", v);
	return (int)j;
}

/* epi_parse_format() is in cmd/epi.c, which epi-predict does not link; the
 * message is epi-predict's own. */
static enum epi_format parse_format(const char *v)
{
	if (!strcmp(v, "table")) return EPI_FMT_TABLE;
	if (!strcmp(v, "csv")) return EPI_FMT_CSV;
	if (!strcmp(v, "json")) return EPI_FMT_JSON;
	epi_die(2, "invalid --format '%s': expected table, csv or json", v);
}

/* Measured trips bind quietly, so say when none can. */
static void warn_foreign_trips(const predict_opts *o)
{
	int measured = 0, match = 0;
	const char *other = NULL;
	for (int i = 0; i < o->fo.ntrips; i++)
		if (o->fo.trips[i].measured) {
			measured++;
			match += epi_trip_file_matches(o->fo.trips[i].file, o->file);
			other = o->fo.trips[i].file;
		}
	if (measured && !match)
		epi_warn("the trips files have no loop of '%s' (only of '%s', ...)", o->file, other);
}

static void parse_args(int argc, char **argv, predict_opts *o)
{
	static const struct option opts[] = {
		{"table", required_argument, 0, 't'},
		{"node", required_argument, 0, 'N'},
		{"freq", required_argument, 0, 'f'},
		{"param", required_argument, 0, 'P'},
		{"branch-prob", required_argument, 0, 'b'},
		{"trip", required_argument, 0, 'T'},
		{"trips", required_argument, 0, 'R'},
		{"strict", no_argument, 0, 'S'},
		{"calls", required_argument, 0, 'C'},
		{"format", required_argument, 0, 'F'},
		{"output", required_argument, 0, 'o'},
		{"jobs", required_argument, 0, 'j'},
		{"help", no_argument, 0, 'h'},
		{"version", no_argument, 0, 'V'},
		{"model", required_argument, 0, 'm'},
		{"binary", required_argument, 0, 'B'},
		{0, 0, 0, 0},
	};
	char err[EPI_ERRLEN];
	*o = (predict_opts){.format = EPI_FMT_TABLE};
	epi_front_opts_init(&o->fo);
	/* compiler flags follow "--"; options and the file may come in any order before it */
	o->dashdash = epi_dashdash(argc, argv);
	int c;
	opterr = 0;
	while ((c = getopt_long(o->dashdash, argv, ":t:f:P:b:p:F:o:j:m:h", opts, NULL)) != -1) {
		switch (c) {
		case 't': o->table_path = xstrdup(optarg); break;
		case 'N': o->node = optarg; break;
		case 'f': o->freq = optarg; break;
		case 'P':
			o->params = xrealloc(o->params, (o->nparams + 1) * sizeof *o->params);
			o->params[o->nparams++] = optarg;
			if (epi_bind_param(NULL, NULL, optarg, err) < 0)
				epi_die(2, "%s", err);
			break;
		case 'b': parse_branch_prob(&o->fo, optarg); break;
		case 'T': epi_opt_trip(&o->fo, optarg); break;
		case 'S': o->fo.strict = 1; break;
		case 'C': epi_opt_calls(&o->fo, optarg); break;
		case 'R':
			if (epi_trips_load(optarg, &o->fo.trips, &o->fo.ntrips, err) < 0)
				epi_die(1, "%s", err);
			o->trips_file = optarg;
			break;
		case 'p': o->compdb = optarg; break;
		case 'F': o->format = parse_format(optarg); break;
		case 'o': o->output = optarg; break;
		case 'j': o->jobs = parse_jobs(optarg); break;
		case 'm': o->model = epi_parse_model(optarg); break;
		case 'B': o->binary = optarg; break;
		case 'h': fputs(usage, stdout); exit(0);
		case 'V': puts("epi-predict " EPI_VERSION); exit(0);
		default: epi_opt_error(err, c, optopt, argv, optind); epi_die(2, "%s", err);
		}
	}
	o->file = epi_one_source(argv, o->dashdash, &optind, err);
	if (!o->file)
		epi_die(2, "%s", err);
	if (o->trips_file)
		warn_foreign_trips(o);
	if (o->model < 0 && o->binary)
		epi_die(2, "--binary prices machine code: it goes with --model compiled");
}

/* The compiler flags: compile_commands.json's, then those after "--". */
static void clang_flags(int argc, char **argv, predict_opts *o, predict_run *r)
{
	char err[EPI_ERRLEN];
	int first = o->dashdash < argc ? o->dashdash + 1 : argc;
	r->dbargs = NULL;
	r->ndb = 0;
	if (o->compdb) {
		r->dbargs = epi_compdb_args(o->compdb, o->file, &r->ndb, err);
		if (!r->dbargs)
			epi_die(1, "%s", err);
	}
	int nflags = r->ndb + (argc - first);
	r->flags = xcalloc(nflags + 1, sizeof *r->flags);
	for (int i = 0; i < r->ndb; i++)
		r->flags[i] = r->dbargs[i];
	for (int i = first; i < argc; i++)
		r->flags[r->ndb + i - first] = argv[i];
	o->fo.clang_args = r->flags;
	o->fo.nclang_args = nflags;
	o->fo.jobs = o->jobs;
	epi_threads_default(o->jobs); /* the object's reading and pricing too */
	o->fo.preformat = 1; /* every format prints the formulas */
	/* the compiled-code model: asked for, or implied by a program or an
	 * optimisation level to build at */
	int opt_level = 0;
	for (int i = first; i < argc; i++)
		opt_level |= strncmp(argv[i], "-O", 2) == 0;
	r->compiled = o->model > 0 || (o->model == 0 && (o->binary || opt_level));
	o->fo.tag_loops = r->compiled;
}

/* --table TABLEDIR: the node's table (--node, else this host's, else the
 * median node's of this CPU model) in place of the folder. */
static void pick_node(predict_opts *o, predict_run *r)
{
	char err[EPI_ERRLEN], host[256] = "";
	epi_fleet f;
	if (epi_fleet_load(&f, o->table_path, err) < 0)
		epi_die(1, "%s", err);
	for (int i = 0; i < f.nwarn; i++)
		epi_warn("%s", f.warn[i]);
	if (gethostname(host, sizeof host - 1) == 0)
		host[strcspn(host, ".")] = 0;
	epi_cpuinfo ci;
	const char *model = epi_cpu_info(&ci, err) == 0 && ci.name[0] ? ci.name : NULL;
	int i = epi_fleet_pick(&f, o->node, host[0] ? host : NULL, model, r->table_why, sizeof r->table_why, err);
	if (i < 0)
		epi_die(1, "'%s': %s", o->table_path, err);
	free(o->table_path);
	o->table_path = xstrdup(f.node[i].path);
	epi_fleet_free(&f);
}

/* The table and the frequencies to price at, before the parse: a bad one
 * fails first. */
static void load_table(predict_opts *o, predict_run *r)
{
	char err[EPI_ERRLEN];
	r->have_table = 0;
	r->khz = NULL;
	r->nkhz = 0;
	if (!o->table_path)
		o->table_path = epi_table_find_default();
	struct stat st;
	if (o->table_path && stat(o->table_path, &st) == 0 && S_ISDIR(st.st_mode))
		pick_node(o, r);
	else if (o->node)
		epi_die(2, "--node '%s' needs --table TABLEDIR, a folder of node tables", o->node);
	if (o->table_path) {
		if (epi_table_load(&r->table, o->table_path, err) < 0)
			epi_die(1, "%s", err);
		r->have_table = 1;
	} else if (o->freq) {
		epi_die(1, "--freq '%s' needs a cost table: give --table FILE or set EPI_TABLE", o->freq);
	}
	if (!r->have_table)
		return;
	if (!o->freq || !strcmp(o->freq, "all")) {
		r->nkhz = r->table.nf;
		r->khz = xmalloc(r->nkhz * sizeof *r->khz);
		for (int i = 0; i < r->nkhz; i++)
			r->khz[i] = r->table.f[i].khz;
	} else {
		r->khz = xmalloc(sizeof *r->khz);
		if (epi_freq_parse(o->freq, &r->khz[0], err) < 0)
			epi_die(1, "%s", err);
		r->nkhz = 1;
		epi_fcol col;
		if (epi_table_at(&r->table, r->khz[0], &col, err) < 0)
			epi_die(1, "%s", err);
		epi_fcol_free(&col);
	}
}

static void analyze(const predict_opts *o, predict_run *r)
{
	/* libclang parses each file on a thread of its own (EPI_FRONT_STACK of
	 * stack), unless told not to: the analysis's threads have as much, and
	 * the main thread too when its limit allows, so the parse runs on them,
	 * without a thread each, and the memory of its tree, once freed, is the
	 * counts' to reuse (docs/speed.md has the figures) */
	struct rlimit stack;
	if (getrlimit(RLIMIT_STACK, &stack) == 0 &&
	    (stack.rlim_cur == RLIM_INFINITY || stack.rlim_cur >= EPI_FRONT_STACK))
		setenv("LIBCLANG_NOTHREADS", "1", 0);
	/* the object built and read beside the analysis */
	epi_mmodel_job job = {.m = &r->mm, .binary = o->binary, .source = o->file, .fo = &o->fo};
	if (r->compiled)
		epi_mmodel_start(&job);
	char err[EPI_ERRLEN];
	int code = epi_analyze_bind(&r->a, o->file, &o->fo, o->params, o->nparams, &r->env, err);
	/* what the report would format, and the counts that the machine
	 * loops' runs are made of, made while the object is built or read */
	double **vals = NULL;
	if (r->compiled && !code) {
		epi_analysis_format(&r->a, o->jobs);
		vals = epi_mcount_all_values(&r->a, &r->env);
	}
	/* before any exit: the built object removed */
	int ret = r->compiled ? epi_mmodel_finish(&job, &r->a) : 0;
	if (code)
		epi_analysis_die(&r->a, code, err);
	if (!r->compiled)
		return;
	if (ret < 0)
		epi_die(1, "%s (--model source prices the source alone)", job.err);
	/* calls the compiler removed, or moved out of loops: the source
	 * counted as the code makes them */
	int redone;
	code = epi_mmodel_reanalyze(&r->mm, &r->a, o->file, &o->fo, o->params, o->nparams, &r->env, &redone, err);
	if (code)
		epi_analysis_die(&r->a, code, err);
	if (redone) {
		epi_mcount_values_free(vals, r->a.nregions);
		epi_analysis_format(&r->a, o->jobs);
		vals = epi_mcount_all_values(&r->a, &r->env);
	}
	if (job.built[0]) { /* the report names the build, not a removed file */
		const char *cc = getenv("EPI_CC");
		char what[600];
		int n = snprintf(what, sizeof what, "%s built by %s -g -c", o->file, cc && *cc ? cc : "clang");
		for (int i = 0; i < o->fo.nclang_args && n < (int)sizeof what - 2; i++)
			n += snprintf(what + n, sizeof what - (size_t)n, " %s", o->fo.clang_args[i]);
		free(r->mm.obj.path);
		r->mm.obj.path = xstrdup(what);
	}
	epi_mmodel_count(&r->mm, &r->a, &r->env, vals);
	epi_mcount_values_free(vals, r->a.nregions);
	epi_headers_note(&r->headers, &r->a, o->binary);
	if (r->have_table)
		epi_mmodel_machine(&r->mm, &r->table);
	for (int i = 0; r->have_table && i < r->nkhz; i++) {
		epi_fcol col;
		char missing[200];
		if (epi_table_at(&r->table, r->khz[i], &col, err) < 0)
			continue;
		int usable = epi_mcosts_usable(&col, missing, sizeof missing);
		epi_fcol_free(&col);
		if (!usable) {
			epi_warn("'%s' lacks the kernels %s: the compiled-code model prices them from others "
				 "(epi-calibrate measures them)", o->table_path, missing);
			break;
		}
	}
}

static void report(const predict_opts *o, predict_run *r)
{
	char err[EPI_ERRLEN];
	epi_report_opts ro = {.table = r->have_table ? &r->table : NULL, .table_why = r->table_why[0] ? r->table_why : NULL, .khz = r->khz, .nkhz = r->nkhz,
				.env = &r->env, .format = o->format, .jobs = o->jobs,
				.mm = r->compiled ? &r->mm : NULL};
	epi_out eo;
	if (epi_report(epi_out_open(&eo, o->output), &r->a, &ro, err) < 0)
		epi_die(1, "%s", err);
	epi_out_close(&eo);
	if (o->format == EPI_FMT_CSV) /* the columns stay the rows' */
		for (int i = 0; i < r->a.nnotes; i++)
			fprintf(stderr, "%s: note: %s\n", epi_prog, r->a.notes[i]);
}

static void free_run(predict_opts *o, predict_run *r)
{
	if (r->compiled)
		epi_mmodel_free(&r->mm);
	sym_env_clear(&r->env);
	epi_analysis_free(&r->a);
	if (r->have_table)
		epi_table_free(&r->table);
	free(r->khz);
	free(o->params);
	for (int i = 0; i < r->ndb; i++)
		free(r->dbargs[i]);
	free(r->dbargs);
	free(r->flags);
	free(o->table_path);
	epi_front_opts_clear(&o->fo);
	epi_headers_free(&r->headers);
}

int main(int argc, char **argv)
{
	epi_prog = "epi-predict";
	predict_opts o;
	predict_run r = {0};
	parse_args(argc, argv, &o);
	clang_flags(argc, argv, &o, &r);
	/* --binary's headers found where its build found them */
	epi_headers_add(&r.headers, &o.fo, o.binary, o.file);
	load_table(&o, &r);
	analyze(&o, &r);
	report(&o, &r);
#ifndef EPI_FREE_AT_EXIT
	/* The process ends here: handing the analysis back to malloc piece by
	 * piece would cost a tenth of the run on large files (clang skips its
	 * teardown the same way, -disable-free). The sanitized build used by
	 * the tests does clean up, which keeps its leak check meaningful. */
	return 0;
#endif
	free_run(&o, &r);
	return 0;
}
