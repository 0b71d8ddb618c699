/* phases: the program test_profile profiles. Nest A then nest B (twice as
 * long), each announcing its power to the shared page (tests/phases.h) and
 * adding its measured CPU and wall time. usage: phases PAGE-FILE SCALE */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "tests/phases.h"

static phase_page *pg;

static double clk(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void set_power(double w)
{
	double now = clk(CLOCK_MONOTONIC);
	__atomic_add_fetch(&pg->seq, 1, __ATOMIC_SEQ_CST);
	pg->base_j += pg->watts * (now - pg->t_switch);
	pg->t_switch = now;
	pg->watts = w;
	__atomic_add_fetch(&pg->seq, 1, __ATOMIC_SEQ_CST);
}

static double a[4096];

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	int fd = open(argv[1], O_RDWR);
	if (fd < 0)
		return 2;
	pg = mmap(NULL, sizeof *pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED)
		return 2;
	long n = atol(argv[2]);
	double s = 0, c0, w0;

	set_power(PHASE_A_W);
	c0 = clk(CLOCK_THREAD_CPUTIME_ID);
	w0 = clk(CLOCK_MONOTONIC);
	pg->line[0] = __LINE__ + 1;
	for (long r = 0; r < n; r++)
		for (int i = 0; i < 4096; i++)
			a[i] = a[i] * 0.5 + (double)r;
	pg->cpu[0] += clk(CLOCK_THREAD_CPUTIME_ID) - c0;
	pg->wall[0] += clk(CLOCK_MONOTONIC) - w0;

	set_power(PHASE_B_W);
	c0 = clk(CLOCK_THREAD_CPUTIME_ID);
	w0 = clk(CLOCK_MONOTONIC);
	pg->line[1] = __LINE__ + 1;
	for (long r = 0; r < 2 * n; r++)
		for (int i = 0; i < 4096; i++)
			a[i] = a[i] * 0.5 + (double)r;
	pg->cpu[1] += clk(CLOCK_THREAD_CPUTIME_ID) - c0;
	pg->wall[1] += clk(CLOCK_MONOTONIC) - w0;

	set_power(PHASE_IDLE_W);
	for (int i = 0; i < 4096; i++)
		s += a[i];
	pg->runs++;
	printf("%g\n", s);
	return 0;
}
