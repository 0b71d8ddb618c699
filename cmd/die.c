/* die: fatal errors and warnings of every command, with its name: "epi",
 * "epi measure" or "epi-predict" (epi_prog, set by each main). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/epi_cmd.h"
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

void epi_analysis_die(const epi_analysis *a, int code, const char *err)
{
	/* every loop that could not be counted (--strict), one line each */
	for (int i = 0; i + 1 < a->nerrors; i++)
		fprintf(stderr, "%s: error: %s\n", epi_prog, a->errors[i]);
	epi_die(code, "%s", a->nerrors ? a->errors[a->nerrors - 1] : err);
}

void epi_analyze_or_die(epi_analysis *a, const char *file, const epi_front_opts *o, const char *const *params,
			int nparams, sym_env *env)
{
	char err[EPI_ERRLEN];
	int code = epi_analyze_bind(a, file, o, params, nparams, env, err);
	if (code)
		epi_analysis_die(a, code, err);
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
