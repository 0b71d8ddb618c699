/* jacobi-1d: tsteps sweeps of the three-point Jacobi stencil over two
 * arrays of n doubles. Usage: ./jacobi-1d [n [tsteps]]; the accuracy
 * benchmark binds n and tsteps. */
#include <stdio.h>
#include <stdlib.h>

static void jacobi_1d(int n, int tsteps, double *A, double *B)
{
	int t, i;
	for (t = 0; t < tsteps; t++) {
		for (i = 1; i < n - 1; i++)
			B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
		for (i = 1; i < n - 1; i++)
			A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100000;
	int tsteps = argc > 2 ? atoi(argv[2]) : 1000;
	if (n <= 2 || tsteps <= 0)
		return 1;
	double *A = malloc(sizeof *A * n), *B = malloc(sizeof *B * n);
	if (!A || !B)
		return 1;
	int i;
	for (i = 0; i < n; i++) {
		A[i] = (double)(i + 2) / n;
		B[i] = (double)(i + 3) / n;
	}
	jacobi_1d(n, tsteps, A, B);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		sum += A[i];
	printf("%.6f\n", sum);
	free(A);
	free(B);
	return 0;
}
