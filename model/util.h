/* util: error buffers and atomic file writes shared by every layer. */
#ifndef EPI_UTIL_H
#define EPI_UTIL_H

#include <stddef.h>

#define EPI_ERRLEN 512

/* The output formats of every command: a human table, CSV, JSON. */
enum epi_format { EPI_FMT_TABLE, EPI_FMT_CSV, EPI_FMT_JSON };

/* Formats a message into ERR (EPI_ERRLEN bytes) and returns -1, so that
 * library code can say `return epi_error(err, "...")`. */
int epi_error(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Writes LEN bytes to PATH atomically: a temporary file in the same folder,
 * fsync, then rename over PATH.  Returns 0, or -1 with ERR set. */
int epi_write_atomic(const char *path, const void *data, size_t len, char *err);

/* Creates the folder DIR and its parents (mkdir -p); 0, or -1 with ERR. */
int epi_mkdirs(const char *dir, char *err);

/* Reads a whole file into a malloc'd, NUL-terminated buffer; NULL with ERR set. */
char *epi_read_file(const char *path, size_t *len, char *err);

/* Reads V, a whole decimal number from LO to HI, into *OUT: 0, or -1 when V
 * is empty, has anything after the digits or lies outside the range. */
int epi_parse_long(const char *v, long lo, long hi, long *out);

/* Threads for JOBS (a --jobs value): JOBS itself, or with 0 one per online CPU. */
int epi_threads(int jobs);

/* Shortest "%g" text that reads back as the same double. */
void epi_fmt_double(char *buf, size_t n, double v);

/* Command lines of the form [options] FILE.c [-- COMPILER-FLAGS]:
 * the index of "--" in ARGV, or ARGC when there is none (getopt then reads
 * ARGV up to it). */
int epi_dashdash(int argc, char **argv);
/* After getopt over ARGV up to END (epi_dashdash): the one C file at
 * ARGV[*OPTIND], advanced past; or NULL with ERR (a usage error). */
const char *epi_one_source(char **argv, int end, int *optind, char *err);
/* The message of getopt's return C (':' or '?') for option OPTOPT at
 * ARGV[OPTIND - 1], into ERR. */
void epi_opt_error(char *err, int c, int optopt, char **argv, int optind);

#endif
