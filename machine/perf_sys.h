/* perf_sys: the two system calls the perf meter makes, in their own file so
 * that unit tests can replace them (-Wl,--wrap) and drive the backend. */
#ifndef EPI_PERF_SYS_H
#define EPI_PERF_SYS_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <sys/types.h>

int epi_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group, unsigned long flags);
/* Reads the 64-bit count of FD; 0 or -1 with errno. */
int epi_sys_perf_read(int fd, uint64_t *count);

#endif
