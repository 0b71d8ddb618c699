/* die: fatal errors and warnings of every command, with its name: "epi",
 * "epi measure" or "epi-predict" (epi_prog, set by each main). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/epi_cmd.h"

const char *epi_prog = "epi";

void epi_die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: %s: ", epi_prog, code == 2 ? "usage" : "error");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	if (code == 2)
		fprintf(stderr, "try '%s --help'\n", epi_prog);
	exit(code);
}

void epi_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: warning: ", epi_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}
