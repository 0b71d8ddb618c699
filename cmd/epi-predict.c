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

#ifdef EPI_MIMALLOC
#include <mimalloc.h>
#endif

#include "cmd/epi_cmd.h"
#include "model/freq.h"
#include "model/table.h"
#include "model/util.h"
#include "predict/cfront.h"
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
	"                          calibrated table, else counts only)\n"
	"  -f, --freq F|all        frequency to price at (2.4GHz, 2400MHz, 2400000kHz),\n"
	"                          or all calibrated ones (default: all)\n"
	"  -P, --param NAME=VALUE  bind a parameter (repeatable), e.g. --param n=100000\n"
	"  -b, --branch-prob P     probability that an if's then-branch runs (default 0.5)\n"
	"      --trip [FILE:]LINE=EXPR\n"
	"                          trip count of the loop at LINE (LINE_2: the second\n"
	"                          loop on LINE) (repeatable)\n"
	"      --trips FILE        trip counts measured by `epi trips -o FILE`, for the\n"
	"                          loops the analysis cannot count (repeatable)\n"
	"      --strict            a loop that cannot be counted is an error, instead\n"
	"                          of a trip-count parameter T<LINE> to bind\n"
	"  -p DIR                  read compiler flags from DIR/compile_commands.json\n"
	"  -F, --format table|csv|json\n"
	"                          output format (default table)\n"
	"  -o, --output FILE       write the report to FILE (atomically)\n"
	"  -j, --jobs N            threads that analyse the file and format the report\n"
	"                          (default: one per online CPU); the output is the\n"
	"                          same for any N\n"
	"  -h, --help              this help\n"
	"      --version           version\n"
	"\n"
	"Exit status: 0 success, 1 error, 2 usage error. See epi-predict(1).\n";

int main(int argc, char **argv)
{
	epi_prog = "epi-predict";
	static const struct option opts[] = {
		{"table", required_argument, 0, 't'},
		{"freq", required_argument, 0, 'f'},
		{"param", required_argument, 0, 'P'},
		{"branch-prob", required_argument, 0, 'b'},
		{"trip", required_argument, 0, 'T'},
		{"trips", required_argument, 0, 'R'},
		{"strict", no_argument, 0, 'S'},
		{"format", required_argument, 0, 'F'},
		{"output", required_argument, 0, 'o'},
		{"jobs", required_argument, 0, 'j'},
		{"help", no_argument, 0, 'h'},
		{"version", no_argument, 0, 'V'},
		{0, 0, 0, 0},
	};
	char err[EPI_ERRLEN];
	char *table_path = NULL, *compdb = NULL, *output = NULL;
	const char *freq = NULL, *trips_file = NULL;
	enum epi_format format = EPI_FMT_TABLE;
	const char **params = NULL;
	int nparams = 0, jobs = 0;
	epi_front_opts fo;
	epi_front_opts_init(&fo);
	/* compiler flags follow "--"; options and the file may come in any order before it */
	int dashdash = epi_dashdash(argc, argv);
	int c;
	opterr = 0;
	while ((c = getopt_long(dashdash, argv, ":t:f:P:b:p:F:o:j:h", opts, NULL)) != -1) {
		switch (c) {
		case 't': table_path = xstrdup(optarg); break;
		case 'f': freq = optarg; break;
		case 'P':
			params = xrealloc(params, (nparams + 1) * sizeof *params);
			params[nparams++] = optarg;
			if (epi_bind_param(NULL, NULL, optarg, err) < 0)
				epi_die(2, "%s", err);
			break;
		case 'b': {
			char *end;
			double p = strtod(optarg, &end);
			if (*end || !(p >= 0 && p <= 1))
				epi_die(2, "invalid --branch-prob '%s': expected a probability from 0 to 1", optarg);
			fmpq_set_si(fo.branch_prob, (slong)llround(p * 1e9), 1000000000UL);
			break;
		}
		case 'T':
			fo.trips = xrealloc(fo.trips, (fo.ntrips + 1) * sizeof *fo.trips);
			if (epi_trip_parse(&fo.trips[fo.ntrips], optarg, err) < 0)
				epi_die(2, "%s", err);
			fo.ntrips++;
			break;
		case 'S': fo.strict = 1; break;
		case 'R':
			if (epi_trips_load(optarg, &fo.trips, &fo.ntrips, err) < 0)
				epi_die(1, "%s", err);
			trips_file = optarg;
			break;
		case 'p': compdb = optarg; break;
		case 'F':
			if (!strcmp(optarg, "table")) format = EPI_FMT_TABLE;
			else if (!strcmp(optarg, "csv")) format = EPI_FMT_CSV;
			else if (!strcmp(optarg, "json")) format = EPI_FMT_JSON;
			else epi_die(2, "invalid --format '%s': expected table, csv or json", optarg);
			break;
		case 'o': output = optarg; break;
		case 'j': {
			long j;
			if (epi_parse_long(optarg, 1, 1024, &j) < 0)
				epi_die(2, "invalid --jobs '%s': expected a number of threads from 1 to 1024", optarg);
			jobs = (int)j;
			break;
		}
		case 'h': fputs(usage, stdout); return 0;
		case 'V': puts("epi-predict " EPI_VERSION); return 0;
		default: epi_opt_error(err, c, optopt, argv, optind); epi_die(2, "%s", err);
		}
	}
	const char *file = epi_one_source(argv, dashdash, &optind, err);
	if (!file)
		epi_die(2, "%s", err);
	if (trips_file) {
		/* measured trips bind quietly, so say when none can */
		int measured = 0, match = 0;
		const char *other = NULL;
		for (int i = 0; i < fo.ntrips; i++)
			if (fo.trips[i].measured) {
				measured++;
				match += epi_trip_file_matches(fo.trips[i].file, file);
				other = fo.trips[i].file;
			}
		if (measured && !match)
			epi_warn("the trips files have no loop of '%s' (only of '%s', ...)",
				file, other);
	}
	optind = dashdash < argc ? dashdash + 1 : argc;
	char **dbargs = NULL;
	int ndb = 0;
	if (compdb) {
		dbargs = epi_compdb_args(compdb, file, &ndb, err);
		if (!dbargs)
			epi_die(1, "%s", err);
	}
	int nflags = ndb + (argc - optind);
	const char **flags = xcalloc(nflags + 1, sizeof *flags);
	for (int i = 0; i < ndb; i++)
		flags[i] = dbargs[i];
	for (int i = optind; i < argc; i++)
		flags[ndb + i - optind] = argv[i];
	fo.clang_args = flags;
	fo.nclang_args = nflags;
	fo.jobs = jobs;
	fo.preformat = 1; /* every format prints the formulas */

	/* the table and frequencies first: a bad one fails before the parse */
	epi_table table;
	int have_table = 0;
	if (!table_path)
		table_path = epi_table_find_default();
	if (table_path) {
		if (epi_table_load(&table, table_path, err) < 0)
			epi_die(1, "%s", err);
		have_table = 1;
	} else if (freq) {
		epi_die(1, "--freq '%s' needs a cost table: give --table FILE or set EPI_TABLE", freq);
	}
	long *khz = NULL;
	int nkhz = 0;
	if (have_table) {
		if (!freq || !strcmp(freq, "all")) {
			nkhz = table.nf;
			khz = xmalloc(nkhz * sizeof *khz);
			for (int i = 0; i < nkhz; i++)
				khz[i] = table.f[i].khz;
		} else {
			khz = xmalloc(sizeof *khz);
			if (epi_freq_parse(freq, &khz[0], err) < 0)
				epi_die(1, "%s", err);
			nkhz = 1;
			epi_fcol col;
			if (epi_table_at(&table, khz[0], &col, err) < 0)
				epi_die(1, "%s", err);
			epi_fcol_free(&col);
		}
	}

	/* libclang parses each file on a thread of its own (EPI_FRONT_STACK of
	 * stack), unless told not to: the analysis's threads have as much, and
	 * the main thread too when its limit allows, so the parse runs on them,
	 * without a thread each, and the memory of its tree, once freed, is the
	 * counts' to reuse (18 MiB less resident, 2-3% faster on 2,000 nests) */
	struct rlimit stack;
	if (getrlimit(RLIMIT_STACK, &stack) == 0 &&
	    (stack.rlim_cur == RLIM_INFINITY || stack.rlim_cur >= EPI_FRONT_STACK))
		setenv("LIBCLANG_NOTHREADS", "1", 0);
	epi_analysis a;
	sym_env env;
	epi_analyze_or_die(&a, file, &fo, params, nparams, &env);
	epi_report_opts ro = {.table = have_table ? &table : NULL, .khz = khz, .nkhz = nkhz, .env = &env, .format = format,
				.jobs = jobs};
	epi_out eo;
	if (epi_report(epi_out_open(&eo, output), &a, &ro, err) < 0)
		epi_die(1, "%s", err);
	epi_out_close(&eo);
#ifndef EPI_FREE_AT_EXIT
	/* The process ends here: handing the analysis back to malloc piece by
	 * piece would cost a tenth of the run on large files (clang skips its
	 * teardown the same way, -disable-free). The sanitized build used by
	 * the tests does clean up, which keeps its leak check meaningful. */
	return 0;
#endif
	sym_env_clear(&env);
	epi_analysis_free(&a);
	if (have_table)
		epi_table_free(&table);
	free(khz);
	free(params);
	for (int i = 0; i < ndb; i++)
		free(dbargs[i]);
	free(dbargs);
	free(flags);
	free(table_path);
	epi_front_opts_clear(&fo);
	return 0;
}
