/* threads: the program tests/profile.sh profiles with several threads: two
 * workers in one loop nest (the second with half the work) while main
 * waits. usage: threads N
 * With THREADS_DELAY=FILE in the environment it appends to FILE the seconds
 * its threads waited, runnable, for a CPU (run_delay of each thread's
 * /proc/thread-self/schedstat, summed; 0 where the kernel keeps none): the
 * wall time a loaded machine took from it, which no CPU-time sample covers. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct job {
	long n;
	double sum;
	double delay;
} job;

static double run_delay(void)
{
	unsigned long long run = 0, wait = 0;
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu %llu", &run, &wait) != 2)
		wait = 0;
	fclose(f);
	return wait / 1e9;
}

static void *work(void *arg)
{
	job *j = arg;
	double s = 0;
	for (long i = 0; i < j->n; i++)
		s += (double)i * 0.5;
	j->sum = s;
	j->delay = run_delay();
	return NULL;
}

int main(int argc, char **argv)
{
	job j[2];
	j[0].n = argc > 1 ? atol(argv[1]) : 100000000;
	j[1].n = j[0].n / 2;
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, work, &j[i]) != 0)
			return 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%g\n", j[0].sum + j[1].sum);
	const char *path = getenv("THREADS_DELAY");
	FILE *f = path ? fopen(path, "a") : NULL;
	if (f) {
		fprintf(f, "%.6f\n", run_delay() + j[0].delay + j[1].delay);
		fclose(f);
	}
	return 0;
}
