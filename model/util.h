/* util: error buffers and atomic file writes shared by every layer. */
#ifndef EPI_UTIL_H
#define EPI_UTIL_H

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define EPI_ERRLEN 1024

/* The output formats of every command: a human table, CSV, JSON. */
enum epi_format { EPI_FMT_TABLE, EPI_FMT_CSV, EPI_FMT_JSON };

/* Memory that fails cleanly: out of memory, one line on stderr and exit
 * status 1 (in the manner of git's xmalloc), so that no caller carries on
 * with NULL.  A size of 0 may give NULL. */
void epi_out_of_memory(size_t n) __attribute__((noreturn, cold));

static inline void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (__builtin_expect(!p && n, 0))
		epi_out_of_memory(n);
	return p;
}

static inline void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	if (__builtin_expect(!p && n && size, 0))
		epi_out_of_memory(n * size);
	return p;
}

static inline void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);
	if (__builtin_expect(!q && n, 0))
		epi_out_of_memory(n);
	return q;
}

static inline char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (__builtin_expect(!d, 0))
		epi_out_of_memory(strlen(s) + 1);
	return d;
}

static inline char *xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);
	if (__builtin_expect(!d, 0))
		epi_out_of_memory(n + 1);
	return d;
}

/* Makes room for at least N elements in the array P of capacity CAP
 * (elements), doubling it from FIRST (ALLOC_GROW: from 8), in the manner of
 * git's ALLOC_GROW. */
#define ALLOC_GROW_FROM(p, n, cap, first)                                            \
	do {                                                                         \
		if ((size_t)(n) > (size_t)(cap)) {                                   \
			size_t alloc_grow_c_ = (size_t)(cap) ? 2 * (size_t)(cap) : (first); \
			while (alloc_grow_c_ < (size_t)(n))                          \
				alloc_grow_c_ *= 2;                                  \
			(p) = xrealloc((p), alloc_grow_c_ * sizeof *(p));            \
			(cap) = alloc_grow_c_;                                       \
		}                                                                    \
	} while (0)
#define ALLOC_GROW(p, n, cap) ALLOC_GROW_FROM(p, n, cap, 8)

/* Frees the N strings of V, then V. */
static inline void epi_strv_free(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* A new array of A's NA strings, then B's NB, then NULL (the strings
 * borrowed: the caller frees the array alone). */
static inline const char **epi_strv_join(const char *const *a, int na, char *const *b, int nb)
{
	const char **v = xmalloc(((size_t)na + (size_t)nb + 1) * sizeof *v);
	for (int i = 0; i < na; i++)
		v[i] = a[i];
	for (int i = 0; i < nb; i++)
		v[na + i] = b[i];
	v[na + nb] = NULL;
	return v;
}

/* Formats a message into ERR (EPI_ERRLEN bytes) and returns -1, so that
 * library code can say `return epi_error(err, "...")`. */
int epi_error(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Writes LEN bytes to PATH atomically: a temporary file in the same folder,
 * fsync, then rename over PATH.  Returns 0, or -1 with ERR set. */
int epi_write_atomic(const char *path, const void *data, size_t len, char *err);
/* The same with the file's permissions MODE (epi_write_atomic: 0644). */
int epi_write_atomic_mode(const char *path, const void *data, size_t len, unsigned mode, char *err);

/* Creates the folder DIR and its parents (mkdir -p); 0, or -1 with ERR. */
int epi_mkdirs(const char *dir, char *err);

/* Reads a whole file into a malloc'd, NUL-terminated buffer; NULL with ERR set. */
char *epi_read_file(const char *path, size_t *len, char *err);

/* Reads V, a whole decimal number from LO to HI, into *OUT: 0, or -1 when V
 * is empty, has anything after the digits or lies outside the range. */
int epi_parse_long(const char *v, long lo, long hi, long *out);

/* Threads for JOBS (a --jobs value): JOBS itself, or with 0 the process's
 * default: what epi_threads_default set, else one per online CPU. */
int epi_threads(int jobs);
/* Sets the process's default number of threads (a command's --jobs; 0:
 * one per online CPU), which the work not told otherwise takes. */
void epi_threads_default(int jobs);

/* Starts up to NT (at most 8) threads running RUN(ARG) into TH: how many
 * started (the work is shared among those that did). */
int epi_start_threads(pthread_t th[8], int nt, void *(*run)(void *), void *arg);

/* FN(LO, HI, CTX) over the items [0, N) in blocks of BLOCK, taken by a
 * thread per core besides this one when there are more than a few blocks,
 * this one taking blocks too; returns when all are done. FN runs on any
 * of the threads, several at once on blocks of their own. */
void epi_in_blocks(int n, int block, void (*fn)(int lo, int hi, void *ctx), void *ctx);

/* Shortest "%g" text that reads back as the same double. */
void epi_fmt_double(char *buf, size_t n, double v);

/* A pair of ints, ordered by A, then by B (qsort with epi_ipair_cmp):
 * items keyed by a value and kept in their order among equals. */
typedef struct epi_ipair {
	int a, b;
} epi_ipair;
int epi_ipair_cmp(const void *x, const void *y);

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
