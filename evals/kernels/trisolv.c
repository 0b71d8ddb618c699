/* trisolv: forward substitution L * x = b with L lower triangular (n x n),
 * reps times over a fresh right-hand side.
 * Usage: ./trisolv [n [reps]]; the accuracy benchmark binds n and reps. */
#include <stdio.h>
#include <stdlib.h>

static void trisolv(int n, int reps, const double *L, const double *b, double *x)
{
	int r, i, j;
	for (r = 0; r < reps; r++)
		for (i = 0; i < n; i++) {
			double s = b[i] + r;
			for (j = 0; j < i; j++)
				s -= L[i * n + j] * x[j];
			x[i] = s / L[i * n + i];
		}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	int reps = argc > 2 ? atoi(argv[2]) : 100;
	if (n <= 0 || reps <= 0)
		return 1;
	double *L = malloc(sizeof *L * n * n), *b = malloc(sizeof *b * n), *x = malloc(sizeof *x * n);
	if (!L || !b || !x)
		return 1;
	int i, j;
	for (i = 0; i < n; i++) {
		b[i] = (double)(i % 13);
		for (j = 0; j < n; j++)
			L[i * n + j] = (i == j) ? 2.0 * n : (double)((i + j) % 7) / 7.0;
	}
	trisolv(n, reps, L, b, x);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		sum += x[i];
	printf("%.6f\n", sum);
	free(L);
	free(b);
	free(x);
	return 0;
}
