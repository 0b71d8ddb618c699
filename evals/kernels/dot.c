/* dot: the dot product of two arrays of n doubles, reps times.
 * Usage: ./dot [n [reps]]; the accuracy benchmark binds n and reps. */
#include <stdio.h>
#include <stdlib.h>

static double dot(int n, int reps, const double *x, const double *y)
{
	int r, i;
	double total = 0.0;
	for (r = 0; r < reps; r++) {
		double s = 0.0;
		for (i = 0; i < n; i++)
			s += x[i] * y[i];
		total += s / (r + 1);
	}
	return total;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100000;
	int reps = argc > 2 ? atoi(argv[2]) : 2000;
	if (n <= 0 || reps <= 0)
		return 1;
	double *x = malloc(sizeof *x * n), *y = malloc(sizeof *y * n);
	if (!x || !y)
		return 1;
	int i;
	for (i = 0; i < n; i++) {
		x[i] = (double)(i % 17) / 17.0;
		y[i] = (double)(i % 23) / 23.0;
	}
	printf("%.6f\n", dot(n, reps, x, y));
	free(x);
	free(y);
	return 0;
}
