/* trmm: B = alpha * A^T * B with A unit lower triangular (n x n), B n x n.
 * Usage: ./trmm [n]; the accuracy benchmark binds n. */
#include <stdio.h>
#include <stdlib.h>

static void trmm(int n, double alpha, const double *A, double *B)
{
	int i, j, k;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			for (k = i + 1; k < n; k++)
				B[i * n + j] += A[k * n + i] * B[k * n + j];
			B[i * n + j] = alpha * B[i * n + j];
		}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 800;
	if (n <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n), *B = malloc(sizeof *B * n * n);
	if (!A || !B)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			A[i * n + j] = (double)((i + j) % n) / n;
			B[i * n + j] = (double)((n + i - j) % n) / n;
		}
	trmm(n, 1.5, A, B);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			sum += B[i * n + j];
	printf("%.6f\n", sum);
	free(A);
	free(B);
	return 0;
}
