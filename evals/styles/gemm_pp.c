/* gemm_pp: C += alpha A B over n x n matrices kept as arrays of row
 * pointers, in i-k-j order. Usage: ./gemm_pp [n]. */
#include <stdio.h>
#include <stdlib.h>

static double **matrix(int n, int m)
{
	double **a = malloc(n * sizeof *a);
	for (int i = 0; i < n; i++)
		a[i] = malloc(m * sizeof **a);
	return a;
}

void gemm(int n, double alpha, double **A, double **B, double **C)
{
	for (int i = 0; i < n; i++)
		for (int k = 0; k < n; k++) {
			double t = alpha * A[i][k];
			for (int j = 0; j < n; j++)
				C[i][j] += t * B[k][j];
		}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 600;
	double **A = matrix(n, n), **B = matrix(n, n), **C = matrix(n, n);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			A[i][j] = (i + j) % 7 / 7.0;
			B[i][j] = (i * j) % 5 / 5.0;
			C[i][j] = 0;
		}
	gemm(n, 1.5, A, B, C);
	printf("%f\n", C[n / 2][n / 3]);
	return 0;
}
