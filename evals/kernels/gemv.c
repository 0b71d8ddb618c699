/* gemv: y = A * x, an n x n matrix of doubles, reps times (y feeds x back).
 * Usage: ./gemv [n [reps]]; the accuracy benchmark binds n and reps. */
#include <stdio.h>
#include <stdlib.h>

static void gemv(int n, int reps, const double *A, double *x, double *y)
{
	int r, i, j;
	for (r = 0; r < reps; r++) {
		for (i = 0; i < n; i++) {
			double s = 0.0;
			for (j = 0; j < n; j++)
				s += A[i * n + j] * x[j];
			y[i] = s;
		}
		for (i = 0; i < n; i++)
			x[i] = 0.5 * x[i] + 0.5 * y[i];
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	int reps = argc > 2 ? atoi(argv[2]) : 100;
	if (n <= 0 || reps <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n), *x = malloc(sizeof *x * n), *y = malloc(sizeof *y * n);
	if (!A || !x || !y)
		return 1;
	int i, j;
	for (i = 0; i < n; i++) {
		x[i] = (double)(i % 7) / 7.0;
		for (j = 0; j < n; j++)
			A[i * n + j] = (double)((i + j) % 11) / (5.0 * n);
	}
	gemv(n, reps, A, x, y);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		sum += y[i];
	printf("%.6f\n", sum);
	free(A);
	free(x);
	free(y);
	return 0;
}
