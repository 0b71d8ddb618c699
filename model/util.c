/* util: error buffers, atomic writes, whole-file reads, round-trip doubles,
 * work in blocks on every core. */
#include "model/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int epi_error(char *err, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, EPI_ERRLEN, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int epi_write_atomic(const char *path, const void *data, size_t len, char *err)
{
	return epi_write_atomic_mode(path, data, len, 0644, err);
}

int epi_write_atomic_mode(const char *path, const void *data, size_t len, unsigned mode, char *err)
{
	size_t plen = strlen(path);
	char *tmp = malloc(plen + 16);
	if (!tmp)
		return epi_error(err, "out of memory");
	snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		return epi_error(err, "cannot write '%s': %s", path, strerror(e));
	}
	const char *p = data;
	size_t left = len;
	while (left > 0) {
		ssize_t w = write(fd, p, left);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		p += w;
		left -= (size_t)w;
	}
	if (fsync(fd) < 0 || fchmod(fd, (mode_t)mode) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) < 0)
		goto fail;
	free(tmp);
	return 0;
fail:;
	int e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return epi_error(err, "cannot write '%s': %s", path, strerror(e));
}

char *epi_read_file(const char *path, size_t *len, char *err)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		epi_error(err, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (n + 1 >= cap)
			buf = realloc(buf, cap *= 2);
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	int bad = ferror(f) ? errno : 0;
	fclose(f);
	if (bad) {
		free(buf);
		epi_error(err, "cannot read '%s': %s", path, strerror(bad));
		return NULL;
	}
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

int epi_parse_long(const char *v, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (end == v || *end || errno == ERANGE || n < lo || n > hi)
		return -1;
	*out = n;
	return 0;
}

void epi_fmt_double(char *buf, size_t n, double v)
{
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

int epi_ipair_cmp(const void *x, const void *y)
{
	const epi_ipair *p = x, *q = y;
	return p->a != q->a ? (p->a > q->a) - (p->a < q->a) : (p->b > q->b) - (p->b < q->b);
}

int epi_mkdirs(const char *dir, char *err)
{
	char d[4096];
	snprintf(d, sizeof d, "%s", dir);
	for (char *s = d + 1;; s++)
		if (*s == '/' || *s == 0) {
			char c = *s;
			*s = 0;
			if (mkdir(d, 0755) < 0 && errno != EEXIST)
				return epi_error(err, "cannot create '%s': %s", d, strerror(errno));
			if (!c)
				return 0;
			*s = c;
		}
}

int epi_dashdash(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			return i;
	return argc;
}

const char *epi_one_source(char **argv, int end, int *optind, char *err)
{
	if (*optind >= end) {
		epi_error(err, "no C file given");
		return NULL;
	}
	const char *file = argv[(*optind)++];
	if (*optind < end) {
		epi_error(err, "unexpected argument '%s' (one C file; compiler flags go after '--')", argv[*optind]);
		return NULL;
	}
	return file;
}

void epi_opt_error(char *err, int c, int optopt, char **argv, int optind)
{
	if (c == ':')
		epi_error(err, "option '%s' needs a value", argv[optind - 1]);
	else if (optopt)
		epi_error(err, "unknown option '-%c'", optopt);
	else
		epi_error(err, "unknown option '%s'", argv[optind - 1]);
}

static atomic_int default_jobs;

void epi_threads_default(int jobs)
{
	atomic_store(&default_jobs, jobs > 0 ? jobs : 0);
}

int epi_threads(int jobs)
{
	if (jobs > 0)
		return jobs;
	if (atomic_load(&default_jobs) > 0)
		return atomic_load(&default_jobs);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

int epi_start_threads(pthread_t th[8], int nt, void *(*run)(void *), void *arg)
{
	int started = 0;
	while (started < nt && started < 8 && pthread_create(&th[started], NULL, run, arg) == 0)
		started++;
	return started;
}

typedef struct blocks {
	int n, block;
	void (*fn)(int lo, int hi, void *ctx);
	void *ctx;
	atomic_int next;
} blocks;

static void *blocks_run(void *arg)
{
	blocks *B = arg;
	for (int lo; (lo = atomic_fetch_add(&B->next, B->block)) < B->n;)
		B->fn(lo, lo + B->block < B->n ? lo + B->block : B->n, B->ctx);
	return NULL;
}

void epi_in_blocks(int n, int block, void (*fn)(int lo, int hi, void *ctx), void *ctx)
{
	blocks B = {.n = n, .block = block, .fn = fn, .ctx = ctx};
	atomic_init(&B.next, 0);
	pthread_t th[8];
	int started = epi_start_threads(th, n > 4 * block ? epi_threads(0) - 1 : 0, blocks_run, &B);
	blocks_run(&B);
	for (int t = 0; t < started; t++)
		pthread_join(th[t], NULL);
}

void epi_out_of_memory(size_t n)
{
	fprintf(stderr, "epi: error: out of memory (%zu bytes)\n", n);
	exit(1);
}
