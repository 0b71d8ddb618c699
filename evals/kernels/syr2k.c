/* syr2k: the symmetric rank-2k update C = alpha * A * B^T + alpha * B * A^T
 * + beta * C on the lower triangle of C (n x n), A and B n x n.
 * Usage: ./syr2k [n]; the accuracy benchmark binds n. */
#include <stdio.h>
#include <stdlib.h>

static void syr2k(int n, double alpha, double beta, double *C, const double *A, const double *B)
{
	int i, j, k;
	for (i = 0; i < n; i++)
		for (j = 0; j <= i; j++) {
			double s = 0.0;
			for (k = 0; k < n; k++)
				s += A[i * n + k] * B[j * n + k] + B[i * n + k] * A[j * n + k];
			C[i * n + j] = alpha * s + beta * C[i * n + j];
		}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 850;
	if (n <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n), *B = malloc(sizeof *B * n * n), *C = malloc(sizeof *C * n * n);
	if (!A || !B || !C)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			A[i * n + j] = (double)((i * j + 2) % 50) / 50.0;
			B[i * n + j] = (double)((i + 2 * j + 1) % 50) / 50.0;
			C[i * n + j] = (double)((i * j + 5) % 50) / 50.0;
		}
	syr2k(n, 1.5, 1.2, C, A, B);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		for (j = 0; j <= i; j++)
			sum += C[i * n + j];
	printf("%.6f\n", sum);
	free(A);
	free(B);
	free(C);
	return 0;
}
