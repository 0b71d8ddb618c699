/* pragmas: the trip counts the user gives, --trip [FILE:]LINE=EXPR and
 * the pragmas of the file: `#pragma epi trip(EXPR)`, and the WCET
 * annotations `#pragma loopbound min N max M` and
 * `_Pragma("loopbound min N max M")`. */
#include "predict/cfront-internal.h"
#include "model/util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int epi_trip_file_matches(const char *file, const char *source)
{
	const char *b = strrchr(source, '/');
	return strcmp(file, source) == 0 || strcmp(file, b ? b + 1 : source) == 0;
}

int epi_calls_parse(epi_calls *c, const char *spec, char *err)
{
	memset(c, 0, sizeof *c);
	const char *eq = strchr(spec, '=');
	int named = eq && eq > spec && (isalpha((unsigned char)spec[0]) || spec[0] == '_');
	for (const char *p = spec; named && p < eq; p++)
		named = isalnum((unsigned char)*p) || *p == '_';
	named |= eq == spec + 1 && spec[0] == '*'; /* every function the file's code does not call */
	char *end = NULL;
	errno = 0;
	long long n = named && isdigit((unsigned char)eq[1]) ? strtoll(eq + 1, &end, 10) : -1;
	if (!named || n < 0 || errno || *end)
		return epi_error(err, "invalid --calls '%s': expected FUNCTION=N, N the times the program calls "
				 "FUNCTION (a whole number)", spec);
	c->function = xstrndup(spec, (size_t)(eq - spec));
	c->n = n;
	return 0;
}

int epi_trip_parse(epi_trip *t, const char *spec, char *err)
{
	memset(t, 0, sizeof *t);
	const char *eq = strchr(spec, '=');
	if (!eq || eq[1] == 0)
		return epi_error(err, "invalid --trip '%s': expected FILE:LINE=EXPR or LINE=EXPR", spec);
	const char *colon = NULL;
	for (const char *p = spec; p < eq; p++)
		if (*p == ':')
			colon = p;
	const char *ls = colon ? colon + 1 : spec;
	char *end;
	long line = strtol(ls, &end, 10), nth = 1;
	if (*end == '_' && isdigit((unsigned char)end[1]))
		nth = strtol(end + 1, &end, 10);
	if (end != eq || line <= 0 || line > INT_MAX || nth < 1 || nth > INT_MAX)
		return epi_error(err, "invalid --trip '%s': expected FILE:LINE=EXPR or LINE=EXPR (LINE_2 for the second loop "
				 "on LINE)", spec);
	t->line = (int)line;
	t->nth = (int)nth;
	if (colon)
		t->file = xstrndup(spec, (size_t)(colon - spec));
	t->expr = xstrdup(eq + 1);
	return 0;
}

/* Reads "min N max M" at P (after "loopbound"); returns 0 or -1. */
static int loopbound_args(const char *p, long *min, long *max)
{
	char *end;
	while (isspace((unsigned char)*p))
		p++;
	if (strncmp(p, "min", 3) != 0)
		return -1;
	*min = strtol(p + 3, &end, 10);
	if (end == p + 3)
		return -1;
	p = end;
	while (isspace((unsigned char)*p))
		p++;
	if (strncmp(p, "max", 3) != 0)
		return -1;
	*max = strtol(p + 3, &end, 10);
	if (end == p + 3 || *min < 0 || *max < *min)
		return -1;
	for (p = end; *p; p++)
		if (!isspace((unsigned char)*p) && *p != '"' && *p != ')')
			return -1;
	return 0;
}

/* Adds a pragma found on line AT to W (its loop's line set later). */
static pragma *add_pragma(W *w, int at)
{
	w->pragmas = xrealloc(w->pragmas, (w->npragmas + 1) * sizeof *w->pragmas);
	pragma *p = &w->pragmas[w->npragmas++];
	memset(p, 0, sizeof *p);
	p->at = at;
	p->line = -1;
	return p;
}

/* Adds the loopbound pragma TEXT on LINE, whose arguments start at ARGS;
 * returns 0, or -1 with ERR when they are not "min N max M". */
static int add_loopbound(W *w, const char *args, int line, const char *text, char *err)
{
	long mn, mx;
	if (loopbound_args(args, &mn, &mx) < 0)
		return epi_error(err, "%s:%d: malformed pragma '%s': expected 'loopbound min N max M' with 0 <= N <= M",
				 w->filename, line, text);
	pragma *pr = add_pragma(w, line);
	pr->min = mn;
	pr->max = mx;
	return 0;
}

/* Finds the loop pragmas of TEXT: `#pragma epi trip(EXPR)`, and the WCET
 * annotations `#pragma loopbound min N max M` and `_Pragma("loopbound min N
 * max M")`; each applies to the loop on the next line that is neither
 * blank, a comment nor another pragma (or on its own line, when code
 * follows a _Pragma there). Notes the first OpenMP directive's line in
 * w->omp_line. Returns 0, or -1 with ERR naming a malformed one. */
int cf_scan_pragmas(W *w, const char *text, char *err)
{
	int line = 1, pending = 0;
	for (const char *p = text; *p; line++) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char buf[512];
		snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), p);
		p = nl ? nl + 1 : p + n;
		char *h = buf;
		while (isspace((unsigned char)*h))
			h++;
		if (!*h || !strncmp(h, "//", 2) || (!strncmp(h, "/*", 2) && strstr(h, "*/") && !strstr(h, "*/")[2]))
			continue;
		int is_pragma = 0;
		if (*h == '#') {
			char *q = h + 1;
			while (isspace((unsigned char)*q))
				q++;
			if (!strncmp(q, "pragma", 6) && isspace((unsigned char)q[6])) {
				is_pragma = 1;
				q += 6;
				while (isspace((unsigned char)*q))
					q++;
				if (!strncmp(q, "epi", 3) && (isspace((unsigned char)q[3]) || !q[3])) {
					q += 3;
					while (isspace((unsigned char)*q))
						q++;
					char *open = strchr(q, '('), *close = strrchr(q, ')');
					char *after = close ? close + 1 : NULL;
					while (after && isspace((unsigned char)*after))
						after++;
					int bad = strncmp(q, "trip", 4) != 0 || !open || !close || close < open || (after && *after) ||
						  open[1 + strspn(open + 1, " \t")] == ')';
					for (char *c = q + 4; !bad && c < open; c++)
						bad = !isspace((unsigned char)*c);
					if (bad)
						return epi_error(err, "%s:%d: malformed pragma '%s': expected '#pragma epi trip(EXPR)'",
								 w->filename, line, h);
					add_pragma(w, line)->expr = xstrndup(open + 1, (size_t)(close - open - 1));
					pending = 1;
				} else if (!strncmp(q, "loopbound", 9)) {
					if (add_loopbound(w, q + 9, line, h, err) < 0)
						return -1;
					pending = 1;
				} else if (!strncmp(q, "omp", 3) && (isspace((unsigned char)q[3]) || !q[3]) && !w->omp_line) {
					w->omp_line = line;
				}
			}
		} else if (!strncmp(h, "_Pragma", 7)) {
			is_pragma = 1;
			char *q = h + 7;
			while (isspace((unsigned char)*q) || *q == '(')
				q++;
			char *close = strchr(q + (*q == '"'), '"');
			char *after = close ? strchr(close, ')') : NULL;
			if (*q == '"' && close) {
				char inner[512];
				snprintf(inner, sizeof inner, "%.*s", (int)(close - q - 1), q + 1);
				char *r = inner;
				while (isspace((unsigned char)*r))
					r++;
				if (!strncmp(r, "loopbound", 9)) {
					if (add_loopbound(w, r + 9, line, h, err) < 0)
						return -1;
					pending = 1;
				}
			}
			/* code after the _Pragma on its line: the loop is there */
			if (after) {
				after++;
				while (isspace((unsigned char)*after))
					after++;
				is_pragma = !*after;
			}
		}
		if (is_pragma || !pending)
			continue;
		for (int i = 0; i < w->npragmas; i++)
			if (w->pragmas[i].line < 0)
				w->pragmas[i].line = line;
		pending = 0;
	}
	return 0;
}
