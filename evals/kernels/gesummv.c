/* gesummv: y = alpha * A * x + beta * B * x for n x n matrices A and B of
 * doubles, both products in one sweep over the rows, reps times.
 * Usage: ./gesummv [n [reps]]; the accuracy benchmark binds n and reps. */
#include <stdio.h>
#include <stdlib.h>

static void gesummv(int n, int reps, double alpha, double beta, const double *A, const double *B, const double *x,
		    double *y)
{
	int r, i, j;
	for (r = 0; r < reps; r++)
		for (i = 0; i < n; i++) {
			double a = 0.0, b = 0.0;
			for (j = 0; j < n; j++) {
				a += A[i * n + j] * x[j];
				b += B[i * n + j] * x[j];
			}
			y[i] = alpha * a + beta * b;
		}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	int reps = argc > 2 ? atoi(argv[2]) : 75;
	if (n <= 0 || reps <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n), *B = malloc(sizeof *B * n * n), *x = malloc(sizeof *x * n),
	       *y = malloc(sizeof *y * n);
	if (!A || !B || !x || !y)
		return 1;
	int i, j;
	for (i = 0; i < n; i++) {
		x[i] = (double)(i % 10) / 10.0;
		for (j = 0; j < n; j++) {
			A[i * n + j] = (double)((i * j + 1) % 29) / 29.0;
			B[i * n + j] = (double)((i + j + 2) % 31) / 31.0;
		}
	}
	gesummv(n, reps, 1.5, 1.2, A, B, x, y);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		sum += y[i];
	printf("%.6f\n", sum);
	free(A);
	free(B);
	free(x);
	free(y);
	return 0;
}
