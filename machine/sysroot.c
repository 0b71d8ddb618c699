/* sysroot: path prefixing and sysfs file helpers (see sysroot.h). */
#include "machine/sysroot.h"
#include "model/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *epi_sysroot(void)
{
	static char root[EPI_PATHLEN];
	const char *r = getenv("EPI_SYSROOT");
	if (!r || !*r || strcmp(r, "/") == 0)
		return "";
	snprintf(root, sizeof root, "%s", r);
	size_t n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		root[--n] = 0;
	return root;
}

char *epi_syspath(char *out, const char *fmt, ...)
{
	char rel[EPI_PATHLEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rel, sizeof rel, fmt, ap);
	va_end(ap);
	snprintf(out, EPI_PATHLEN, "%s%s", epi_sysroot(), rel);
	return out;
}

const char *epi_perm_hint(const char *path)
{
	if (strstr(path, "/powercap/"))
		return "energy_uj is readable by root only (since Linux 5.10): run as root; or grant read access "
		       "until reboot, `sudo chmod o+r /sys/class/powercap/*/energy_uj`, or for good with the udev "
		       "rule `SUBSYSTEM==\"powercap\", ACTION==\"add\", RUN+=\"/bin/chmod o+r /sys%p/energy_uj\"` "
		       "in /etc/udev/rules.d/60-powercap.rules; or use `--meter perf` (the same counters through the "
		       "power PMU), which needs `sudo sysctl kernel.perf_event_paranoid=0` or CAP_PERFMON";
	if (strstr(path, "/msr"))
		return "the msr device needs root or CAP_SYS_RAWIO: run as root, or `sudo modprobe msr` "
		       "and `sudo setcap cap_sys_rawio=ep` on the binary";
	if (strstr(path, "/cpufreq/") || strstr(path, "intel_pstate"))
		return "changing CPU frequencies needs root: run as root (epi restores every value it changes)";
	if (strstr(path, "/tty") || strstr(path, "/dev/"))
		return "the serial device needs read-write access: add yourself to its group "
		       "(usually `dialout`: `sudo usermod -aG dialout $USER`, then log in again)";
	return "run as root or grant read access to it";
}

static int file_error(const char *path, const char *what, char *err)
{
	int e = errno;
	if (e == EACCES || e == EPERM)
		return epi_error(err, "cannot %s '%s': permission denied; %s", what, path, epi_perm_hint(path));
	return epi_error(err, "cannot %s '%s': %s", what, path, strerror(e));
}

int epi_read_line(const char *path, char *buf, size_t n, char *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return file_error(path, "read", err);
	ssize_t r = read(fd, buf, n - 1);
	if (r < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return file_error(path, "read", err);
	}
	close(fd);
	buf[r] = 0;
	char *nl = strchr(buf, '\n');
	if (nl)
		*nl = 0;
	return 0;
}

int epi_read_u64(const char *path, uint64_t *v, char *err)
{
	char buf[64];
	if (epi_read_line(path, buf, sizeof buf, err) < 0)
		return -1;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(buf, &end, 10);
	if (end == buf || errno || (*end && *end != ' ') || buf[0] == '-')
		return epi_error(err, "'%s' does not hold a number: '%s'", path, buf);
	*v = x;
	return 0;
}

int epi_read_i64(const char *path, long long *v, char *err)
{
	char buf[64];
	if (epi_read_line(path, buf, sizeof buf, err) < 0)
		return -1;
	char *end;
	errno = 0;
	long long x = strtoll(buf, &end, 10);
	if (end == buf || errno || (*end && *end != ' '))
		return epi_error(err, "'%s' does not hold a number: '%s'", path, buf);
	*v = x;
	return 0;
}

int epi_write_value(const char *path, const char *text)
{
	/* O_TRUNC: sysfs ignores it, and a plain file (a fake tree) needs it */
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t n = 0;
	while (text[n])
		n++;
	ssize_t w = write(fd, text, n);
	int e = w < 0 ? errno : (size_t)w != n ? EIO : 0;
	if (close(fd) < 0 && !e)
		e = errno;
	return -e;
}

int epi_write_line(const char *path, const char *text, char *err)
{
	int r = epi_write_value(path, text);
	if (r == 0)
		return 0;
	int e = -r;
	errno = e;
	/* what opening refuses names the file; what the attribute refuses,
	 * the value too */
	if (e == ENOENT || e == ENOTDIR || e == EACCES || e == EPERM)
		return file_error(path, "write", err);
	return epi_error(err, "cannot write '%s' to '%s': %s", text, path, strerror(e));
}

int epi_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

int epi_parse_cpulist(const char *s, int *cpus, int max)
{
	int n = 0;
	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10);
		if (end == s || a < 0)
			return -1;
		long b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				return -1;
			s = end;
		}
		for (long c = a; c <= b; c++) {
			if (n == max)
				return -1;
			cpus[n++] = (int)c;
		}
		if (*s == ',')
			s++;
		else if (*s && *s != '\n' && *s != ' ')
			return -1;
		while (*s == ' ')
			s++;
	}
	return n;
}

double epi_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

uint64_t epi_now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
