/* jacobi-2d: tsteps sweeps of the five-point Jacobi stencil over two
 * n x n grids of doubles. Usage: ./jacobi-2d [n [tsteps]]; the accuracy
 * benchmark binds n and tsteps. */
#include <stdio.h>
#include <stdlib.h>

static void jacobi_2d(int n, int tsteps, double *A, double *B)
{
	int t, i, j;
	for (t = 0; t < tsteps; t++) {
		for (i = 1; i < n - 1; i++)
			for (j = 1; j < n - 1; j++)
				B[i * n + j] = 0.2 * (A[i * n + j] + A[i * n + j - 1] + A[i * n + j + 1] +
						      A[(i + 1) * n + j] + A[(i - 1) * n + j]);
		for (i = 1; i < n - 1; i++)
			for (j = 1; j < n - 1; j++)
				A[i * n + j] = 0.2 * (B[i * n + j] + B[i * n + j - 1] + B[i * n + j + 1] +
						      B[(i + 1) * n + j] + B[(i - 1) * n + j]);
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 500;
	int tsteps = argc > 2 ? atoi(argv[2]) : 250;
	if (n <= 2 || tsteps <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n), *B = malloc(sizeof *B * n * n);
	if (!A || !B)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			A[i * n + j] = ((double)i * (j + 2) + 2) / n;
			B[i * n + j] = ((double)i * (j + 3) + 3) / n;
		}
	jacobi_2d(n, tsteps, A, B);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			sum += A[i * n + j];
	printf("%.6f\n", sum);
	free(A);
	free(B);
	return 0;
}
