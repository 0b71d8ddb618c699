/* util: error buffers and atomic file writes shared by every layer. */
#ifndef EPI_UTIL_H
#define EPI_UTIL_H

#include <stddef.h>

#define EPI_ERRLEN 512

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

/* Shortest "%g" text that reads back as the same double. */
void epi_fmt_double(char *buf, size_t n, double v);

#endif
