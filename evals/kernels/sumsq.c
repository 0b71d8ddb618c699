/* sumsq: the sum of squares of an array of n doubles, reps times.
 * Usage: ./sumsq [n [reps]]; the accuracy benchmark binds n and reps. */
#include <stdio.h>
#include <stdlib.h>

static double sumsq(int n, int reps, const double *x)
{
	int r, i;
	double total = 0.0;
	for (r = 0; r < reps; r++) {
		double s = 0.0;
		for (i = 0; i < n; i++)
			s += x[i] * x[i];
		total += s / (r + 1);
	}
	return total;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100000;
	int reps = argc > 2 ? atoi(argv[2]) : 3000;
	if (n <= 0 || reps <= 0)
		return 1;
	double *x = malloc(sizeof *x * n);
	if (!x)
		return 1;
	int i;
	for (i = 0; i < n; i++)
		x[i] = (double)(i % 29) / 29.0;
	printf("%.6f\n", sumsq(n, reps, x));
	free(x);
	return 0;
}
