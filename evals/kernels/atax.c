/* atax: y = A^T * (A * x) for an n x n matrix A of doubles, reps times:
 * each pass takes t = A * x one row at a time and adds t[i] times row i of
 * A into y. Usage: ./atax [n [reps]]; the accuracy benchmark binds n and
 * reps. */
#include <stdio.h>
#include <stdlib.h>

static void atax(int n, int reps, const double *A, const double *x, double *y)
{
	int r, i, j;
	for (r = 0; r < reps; r++) {
		for (j = 0; j < n; j++)
			y[j] = 0.0;
		for (i = 0; i < n; i++) {
			double t = 0.0;
			for (j = 0; j < n; j++)
				t += A[i * n + j] * x[j];
			for (j = 0; j < n; j++)
				y[j] += A[i * n + j] * t;
		}
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	int reps = argc > 2 ? atoi(argv[2]) : 45;
	if (n <= 0 || reps <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n), *x = malloc(sizeof *x * n), *y = malloc(sizeof *y * n);
	if (!A || !x || !y)
		return 1;
	int i, j;
	for (i = 0; i < n; i++) {
		x[i] = 1.0 + (double)(i % 11) / 11.0;
		for (j = 0; j < n; j++)
			A[i * n + j] = (double)((i + 3 * j) % 17) / (17.0 * n);
	}
	atax(n, reps, A, x, y);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		sum += y[i];
	printf("%.6f\n", sum);
	free(A);
	free(x);
	free(y);
	return 0;
}
