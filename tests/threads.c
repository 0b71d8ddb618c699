/* threads: the program tests/profile.sh profiles with several threads: two
 * workers in one loop nest (the second with half the work) while main
 * waits. usage: threads N */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct job {
	long n;
	double sum;
} job;

static void *work(void *arg)
{
	job *j = arg;
	double s = 0;
	for (long i = 0; i < j->n; i++)
		s += (double)i * 0.5;
	j->sum = s;
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
	return 0;
}
