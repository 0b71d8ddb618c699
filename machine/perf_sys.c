/* perf_sys: perf_event_open(2) and counter reads (see perf_sys.h). */
#include "machine/perf_sys.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

int epi_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

int epi_sys_perf_read(int fd, uint64_t *count)
{
	ssize_t r = read(fd, count, sizeof *count);
	if (r == (ssize_t)sizeof *count)
		return 0;
	if (r >= 0)
		errno = EIO;
	return -1;
}
