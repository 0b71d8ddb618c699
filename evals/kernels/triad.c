/* triad: the STREAM triad a = b + s * c over arrays of n doubles, far
 * larger than the caches, reps times. Memory-bound.
 * Usage: ./triad [n [reps]]; the accuracy benchmark binds n and reps. */
#include <stdio.h>
#include <stdlib.h>

static void triad(int n, int reps, double *a, const double *b, const double *c)
{
	int r, i;
	for (r = 0; r < reps; r++)
		for (i = 0; i < n; i++)
			a[i] = b[i] + (r + 1.5) * c[i];
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 16000000;
	int reps = argc > 2 ? atoi(argv[2]) : 10;
	if (n <= 0 || reps <= 0)
		return 1;
	double *a = malloc(sizeof *a * n), *b = malloc(sizeof *b * n), *c = malloc(sizeof *c * n);
	if (!a || !b || !c)
		return 1;
	int i;
	for (i = 0; i < n; i++) {
		a[i] = 0.0;
		b[i] = (double)(i % 5);
		c[i] = (double)(i % 3);
	}
	triad(n, reps, a, b, c);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		sum += a[i];
	printf("%.6f\n", sum);
	free(a);
	free(b);
	free(c);
	return 0;
}
