/* epi_cmd: what the `epi` subcommands share: the command table, fatal
 * errors with the command's name, and output formats. */
#ifndef EPI_CMD_H
#define EPI_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "model/util.h"
#include "predict/cfront.h"

typedef struct epi_subcmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} epi_subcmd;

extern const char *epi_prog; /* "epi measure" or "epi-measure", for messages */

/* Prints "PROG: error: ..." (or "usage: ..." for CODE 2) and exits with CODE. */
void epi_die(int code, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
void epi_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* epi_analyze_bind() or die: every loop that cannot be counted (under
 * --strict) on a line of its own, then the error (epi_analysis_die, for
 * CODE and ERR that epi_analyze_bind returned). */
void epi_analysis_die(epi_analysis *a, int code, const char *err) __attribute__((noreturn));
void epi_analyze_or_die(epi_analysis *a, const char *file, const epi_front_opts *o, const char *const *params,
			int nparams, sym_env *env);

/* The folders of a program's headers that its debug information names
 * (epi_object_include_dirs) and the compiler flags do not (-I, -iquote,
 * -isystem, -idirafter), given to the parse after the flags as
 * -idirafter: searched after everything else, they find what the flags
 * leave out and override nothing. ARGS is the flags' new array. */
typedef struct epi_headers {
	const char **args;
	char **dirs;
	int ndirs;
	int nbeside; /* the last of DIRS: the folders of the program's other sources */
} epi_headers;

/* Adds to FO's flags the folders of BINARY (may be NULL: none) for the
 * parse of SOURCE; H keeps what FO then points to. */
void epi_headers_add(epi_headers *h, epi_front_opts *fo, const char *binary, const char *source);
/* A note for A saying where the folders came from, when any was added. */
void epi_headers_note(const epi_headers *h, epi_analysis *a, const char *binary);
void epi_headers_free(epi_headers *h);

/* Parses --format's value; dies with a usage error otherwise. */
enum epi_format epi_parse_format(const char *s);
/* The whole number V of option OPT, from LO to HI; dies with a usage error otherwise. */
int epi_parse_count(const char *opt, const char *v, long lo, long hi);
/* --trip SPEC and --calls SPEC into FO; a malformed one ends the command
 * (exit status 2). */
void epi_opt_trip(epi_front_opts *fo, const char *spec);
void epi_opt_calls(epi_front_opts *fo, const char *spec);
/* V formatted with FMT (one double), or "" when V is NAN: a value nothing
 * measured is an empty field, never 0. */
void epi_fmt_num(char *b, size_t n, double v, const char *fmt) __attribute__((format(printf, 4, 0)));

/* Where a report goes: stdout, or the file PATH written atomically when
 * the report is complete (a reader never sees half a report). */
typedef struct epi_out {
	FILE *f;
	const char *path; /* NULL: stdout */
	char *buf;
	size_t len;
} epi_out;
/* Opens the report's stream: PATH or, when PATH is NULL, stdout. */
FILE *epi_out_open(epi_out *o, const char *path);
/* Writes the report out (PATH atomically) or dies saying why. */
void epi_out_close(epi_out *o);

/* --model's value: -1 for source, 1 for compiled; dies with a usage error otherwise. */
int epi_parse_model(const char *v);

struct epi_meter;
/* Opens the meter SPEC or dies saying why (for auto: every backend tried);
 * warns when auto finds no meter, that the command is DOING time only. */
void epi_open_meter(struct epi_meter *m, const char *spec, const char *doing);

int epi_probe_main(int argc, char **argv);
int epi_fleet_main(int argc, char **argv);
int epi_measure_main(int argc, char **argv);
int epi_freq_main(int argc, char **argv);
int epi_calibrate_main(int argc, char **argv);
int epi_profile_main(int argc, char **argv);
int epi_validate_main(int argc, char **argv);
int epi_trips_main(int argc, char **argv);

#endif
