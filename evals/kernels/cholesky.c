/* cholesky: in-place Cholesky factorisation A = L * L^T of a symmetric
 * positive definite n x n matrix (lower triangle).
 * Usage: ./cholesky [n]; the accuracy benchmark binds n. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void cholesky(int n, double *A)
{
	int i, j, k;
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++) {
			for (k = 0; k < j; k++)
				A[i * n + j] -= A[i * n + k] * A[j * n + k];
			A[i * n + j] /= A[j * n + j];
		}
		for (k = 0; k < i; k++)
			A[i * n + i] -= A[i * n + k] * A[i * n + k];
		A[i * n + i] = sqrt(A[i * n + i]);
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1200;
	if (n <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n);
	if (!A)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			A[i * n + j] = (i == j) ? n + 1.0 : (double)((i + j) % 10) / (10.0 * n);
	cholesky(n, A);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		for (j = 0; j <= i; j++)
			sum += A[i * n + j];
	printf("%.6f\n", sum);
	free(A);
	return 0;
}
