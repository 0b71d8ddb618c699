/* die: fatal errors and warnings of every command, with its name: "epi",
 * "epi measure" or "epi-predict" (epi_prog, set by each main). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/epi_cmd.h"
#include "predict/objcode.h"
#include "predict/report.h"

const char *epi_prog = "epi";

/* PREFIX and the message of FMT and AP on stderr as one line: a control
 * character in it (a file name's newline, bytes of damaged input) is
 * printed as '?', a tab as a space. */
static void one_line(const char *prefix, const char *fmt, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	char *msg = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (!msg) {
		fprintf(stderr, "%s%s\n", prefix, fmt);
		return;
	}
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	for (char *c = msg; *c; c++)
		if (*c == '\t')
			*c = ' ';
		else if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	fprintf(stderr, "%s%s\n", prefix, msg);
	free(msg);
}

void epi_die(int code, const char *fmt, ...)
{
	char prefix[128];
	snprintf(prefix, sizeof prefix, "%s: %s: ", epi_prog, code == 2 ? "usage" : "error");
	va_list ap;
	va_start(ap, fmt);
	one_line(prefix, fmt, ap);
	va_end(ap);
	if (code == 2)
		fprintf(stderr, "try '%s --help'\n", epi_prog);
	exit(code);
}

void epi_warn(const char *fmt, ...)
{
	char prefix[128];
	snprintf(prefix, sizeof prefix, "%s: warning: ", epi_prog);
	va_list ap;
	va_start(ap, fmt);
	one_line(prefix, fmt, ap);
	va_end(ap);
}

void epi_analysis_die(epi_analysis *a, int code, const char *err)
{
	/* every loop that could not be counted (--strict), one line each */
	for (int i = 0; i + 1 < a->nerrors; i++)
		fprintf(stderr, "%s: error: %s\n", epi_prog, a->errors[i]);
	char *last = strdup(a->nerrors ? a->errors[a->nerrors - 1] : err);
#ifdef EPI_FREE_AT_EXIT
	/* the sanitized build checks for leaks at exit: the counts made before
	 * the error hold large integers in FLINT's blocks, which only their
	 * owners' encoded references reach, and which it would report lost */
	epi_analysis_free(a);
#endif
	epi_die(code, "%s", last ? last : "out of memory");
}

void epi_analyze_or_die(epi_analysis *a, const char *file, const epi_front_opts *o, const char *const *params,
			int nparams, sym_env *env)
{
	char err[EPI_ERRLEN];
	int code = epi_analyze_bind(a, file, o, params, nparams, env, err);
	if (code)
		epi_analysis_die(a, code, err);
}

/* Whether FLAGS (N) name DIR as a folder to search for headers. */
static int flags_name(const char *const *flags, int n, const char *dir)
{
	static const char *const opt[] = {"-I", "-iquote", "-isystem", "-idirafter"};
	for (int i = 0; i < n; i++)
		for (size_t k = 0; k < sizeof opt / sizeof *opt; k++) {
			size_t len = strlen(opt[k]);
			if (strncmp(flags[i], opt[k], len) != 0)
				continue;
			const char *d = flags[i][len] ? flags[i] + len : i + 1 < n ? flags[i + 1] : NULL;
			char real[PATH_MAX];
			if (d && realpath(d, real) && strcmp(real, dir) == 0)
				return 1;
		}
	return 0;
}

void epi_headers_add(epi_headers *h, epi_front_opts *fo, const char *binary, const char *source)
{
	*h = (epi_headers){0};
	char **dirs;
	int beside = 0;
	int n = binary ? epi_object_include_dirs(binary, source, &dirs, &beside) : 0;
	for (int i = 0; i < n; i++) {
		if (flags_name(fo->clang_args, fo->nclang_args, dirs[i])) {
			free(dirs[i]);
			continue;
		}
		h->nbeside += i >= n - beside;
		dirs[h->ndirs++] = dirs[i];
	}
	if (!h->ndirs) {
		free(n ? dirs : NULL);
		return;
	}
	h->dirs = dirs;
	int na = fo->nclang_args;
	h->args = xmalloc((size_t)(na + 2 * h->ndirs + 1) * sizeof *h->args);
	for (int i = 0; i < na; i++)
		h->args[i] = fo->clang_args[i];
	for (int i = 0; i < h->ndirs; i++) {
		h->args[na++] = "-idirafter";
		h->args[na++] = h->dirs[i];
	}
	h->args[na] = NULL;
	fo->clang_args = h->args;
	fo->nclang_args = na;
}

void epi_headers_note(const epi_headers *h, epi_analysis *a, const char *binary)
{
	if (!h->ndirs)
		return;
	char text[1200];
	int named = h->ndirs - h->nbeside, w;
	if (named)
		w = snprintf(text, sizeof text, "headers also searched for where the debug information of '%s' says "
						"its build found them (after the flags' own; -I chooses): ", binary);
	else
		w = snprintf(text, sizeof text, "headers also searched for beside the other sources of '%s' (after the "
						"flags' own; -I chooses): ", binary);
	for (int i = 0; i < h->ndirs && w > 0 && (size_t)w < sizeof text; i++)
		w += snprintf(text + w, sizeof text - (size_t)w, "%s%s", i == named && named ? "; beside its other sources: "
							       : i ? ", " : "", h->dirs[i]);
	epi_analysis_note(a, text);
}

void epi_headers_free(epi_headers *h)
{
	for (int i = 0; i < h->ndirs; i++)
		free(h->dirs[i]);
	free(h->dirs);
	free(h->args);
	*h = (epi_headers){0};
}

FILE *epi_out_open(epi_out *o, const char *path)
{
	*o = (epi_out){.f = stdout, .path = path};
	if (path && !(o->f = open_memstream(&o->buf, &o->len)))
		epi_die(1, "cannot hold the report for '%s': %s", path, strerror(errno));
	return o->f;
}

void epi_out_close(epi_out *o)
{
	if (!o->path) {
		if (fflush(stdout) != 0 || ferror(stdout))
			epi_die(1, "cannot write the report: %s", strerror(errno));
		return;
	}
	char err[EPI_ERRLEN];
	if (fclose(o->f) != 0)
		epi_die(1, "cannot hold the report for '%s': %s", o->path, strerror(errno));
	if (epi_write_atomic(o->path, o->buf, o->len, err) < 0)
		epi_die(1, "%s", err);
	free(o->buf);
	o->buf = NULL;
}

int epi_parse_model(const char *v)
{
	if (strcmp(v, "source") != 0 && strcmp(v, "compiled") != 0)
		epi_die(2, "--model '%s': expected compiled or source", v);
	return strcmp(v, "source") == 0 ? -1 : 1;
}

void epi_opt_trip(epi_front_opts *fo, const char *spec)
{
	char err[EPI_ERRLEN];
	fo->trips = xrealloc(fo->trips, (size_t)(fo->ntrips + 1) * sizeof *fo->trips);
	if (epi_trip_parse(&fo->trips[fo->ntrips], spec, err) < 0)
		epi_die(2, "%s", err);
	fo->ntrips++;
}

void epi_opt_calls(epi_front_opts *fo, const char *spec)
{
	char err[EPI_ERRLEN];
	fo->calls = xrealloc(fo->calls, (size_t)(fo->ncalls + 1) * sizeof *fo->calls);
	if (epi_calls_parse(&fo->calls[fo->ncalls], spec, err) < 0)
		epi_die(2, "%s", err);
	fo->ncalls++;
}
