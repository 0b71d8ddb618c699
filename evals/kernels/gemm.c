/* gemm: C = alpha * A * B + beta * C, square n x n matrices of doubles.
 * Usage: ./gemm [n]; the accuracy benchmark (evals/accuracy.sh) binds n. */
#include <stdio.h>
#include <stdlib.h>

static void gemm(int n, double alpha, double beta, double *C, const double *A, const double *B)
{
	int i, j, k;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			double s = 0.0;
			for (k = 0; k < n; k++)
				s += A[i * n + k] * B[k * n + j];
			C[i * n + j] = alpha * s + beta * C[i * n + j];
		}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 600;
	if (n <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n), *B = malloc(sizeof *B * n * n), *C = malloc(sizeof *C * n * n);
	if (!A || !B || !C)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			A[i * n + j] = (double)((i * j + 1) % n) / n;
			B[i * n + j] = (double)((i + 2 * j) % n) / n;
			C[i * n + j] = (double)((i * j + 3) % n) / n;
		}
	gemm(n, 1.5, 1.2, C, A, B);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			sum += C[i * n + j];
	printf("%.6f\n", sum);
	free(A);
	free(B);
	free(C);
	return 0;
}
