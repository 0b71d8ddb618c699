/* sysroot: every /sys, /dev and /proc path epi touches goes through one root,
 * $EPI_SYSROOT (default "/"), so that tests can build a fake machine in a
 * temporary folder and drive the real code paths. Also the small file
 * helpers the hardware backends share, whose errors say what to do. */
#ifndef EPI_SYSROOT_H
#define EPI_SYSROOT_H

#include <stddef.h>
#include <stdint.h>

#define EPI_PATHLEN 512

/* The root ($EPI_SYSROOT without trailing slash; "" for "/"). */
const char *epi_sysroot(void);

/* OUT = root + ABS (ABS starts with '/'). Returns OUT. */
char *epi_syspath(char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reads the first line of PATH (a full path) without its newline.
 * Returns 0, or -1 with ERR naming the file, the reason and, for
 * permissions, the way to grant them. */
int epi_read_line(const char *path, char *buf, size_t n, char *err);
int epi_read_u64(const char *path, uint64_t *v, char *err);
int epi_read_i64(const char *path, long long *v, char *err);

/* Writes TEXT to PATH, a sysfs attribute or a fake tree's plain file
 * (truncated first, which sysfs ignores): 0 or -errno. The one writer of
 * every value epi sets, async-signal-safe (open, write, close), so that
 * the restore on a signal writes as every other path does. */
int epi_write_value(const char *path, const char *text);
/* epi_write_value, -1 with ERR naming the value, the file, the reason
 * and, for permissions, the way to grant them. */
int epi_write_line(const char *path, const char *text, char *err);

/* Whether PATH exists. */
int epi_exists(const char *path);

/* The sentence that tells how to get access to PATH after EACCES/EPERM. */
const char *epi_perm_hint(const char *path);

/* Parses a CPU list ("0-3,8,10-11") into CPUS (up to MAX); returns the count or -1. */
int epi_parse_cpulist(const char *s, int *cpus, int max);

/* Monotonic seconds. */
double epi_now(void);
/* The same clock in nanoseconds (the clock of perf samples with use_clockid). */
uint64_t epi_now_ns(void);

#endif
