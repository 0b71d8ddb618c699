/* syrk-col: C = alpha * A * A^T + beta * C on the lower triangle of C
 * (n x n), A n x m, with PolyBench 4.2.1's order of the loops (i, k, j):
 * the innermost loop walks A[j][k] down a column, a row of A apart, and
 * C[i][j] along a row. Usage: ./syrk-col [n [m]]; the accuracy benchmark
 * binds n and m. */
#include <stdio.h>
#include <stdlib.h>

static void syrk_col(int n, int m, double alpha, double beta, double *C, const double *A)
{
	int i, j, k;
	for (i = 0; i < n; i++) {
		for (j = 0; j <= i; j++)
			C[i * n + j] *= beta;
		for (k = 0; k < m; k++)
			for (j = 0; j <= i; j++)
				C[i * n + j] += alpha * A[i * m + k] * A[j * m + k];
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 800;
	int m = argc > 2 ? atoi(argv[2]) : 700;
	if (n <= 0 || m <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * m), *C = malloc(sizeof *C * n * n);
	if (!A || !C)
		return 1;
	int i, j;
	for (i = 0; i < n; i++) {
		for (j = 0; j < m; j++)
			A[i * m + j] = (double)((i * j + 1) % n) / n;
		for (j = 0; j < n; j++)
			C[i * n + j] = (double)((i * j + 2) % m) / m;
	}
	syrk_col(n, m, 1.5, 1.2, C, A);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		for (j = 0; j <= i; j++)
			sum += C[i * n + j];
	printf("%.6f\n", sum);
	free(A);
	free(C);
	return 0;
}
