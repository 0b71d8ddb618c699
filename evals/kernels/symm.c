/* symm: C = alpha * A * B + beta * C for n x n matrices of doubles, A
 * symmetric and only its lower triangle stored: row i of A * B takes
 * A[i][k] for k <= i and A[k][i] above the diagonal. Usage: ./symm [n]; the
 * accuracy benchmark binds n. */
#include <stdio.h>
#include <stdlib.h>

static void symm(int n, double alpha, double beta, double *C, const double *A, const double *B)
{
	int i, j, k;
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++)
			C[i * n + j] *= beta;
		for (k = 0; k <= i; k++) {
			double a = alpha * A[i * n + k];
			for (j = 0; j < n; j++)
				C[i * n + j] += a * B[k * n + j];
		}
		for (k = i + 1; k < n; k++) {
			double a = alpha * A[k * n + i];
			for (j = 0; j < n; j++)
				C[i * n + j] += a * B[k * n + j];
		}
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 720;
	if (n <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n), *B = malloc(sizeof *B * n * n), *C = malloc(sizeof *C * n * n);
	if (!A || !B || !C)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			A[i * n + j] = (double)((i + j) % 100) / 100.0;
			B[i * n + j] = (double)((3 * i + j) % 100) / 100.0;
			C[i * n + j] = (double)((i * j + 1) % 100) / 100.0;
		}
	symm(n, 1.5, 1.2, C, A, B);
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
