/* heat-3d: tsteps sweeps of the seven-point heat equation stencil over two
 * n x n x n grids of doubles. Usage: ./heat-3d [n [tsteps]]; the accuracy
 * benchmark binds n and tsteps. */
#include <stdio.h>
#include <stdlib.h>

#define AT(X, i, j, k) X[((i) * n + (j)) * n + (k)]

/* one sweep from A into B */
static void sweep(int n, const double *A, double *B)
{
	int i, j, k;
	for (i = 1; i < n - 1; i++)
		for (j = 1; j < n - 1; j++)
			for (k = 1; k < n - 1; k++)
				AT(B, i, j, k) = 0.125 * (AT(A, i + 1, j, k) - 2.0 * AT(A, i, j, k) + AT(A, i - 1, j, k)) +
						 0.125 * (AT(A, i, j + 1, k) - 2.0 * AT(A, i, j, k) + AT(A, i, j - 1, k)) +
						 0.125 * (AT(A, i, j, k + 1) - 2.0 * AT(A, i, j, k) + AT(A, i, j, k - 1)) +
						 AT(A, i, j, k);
}

static void heat_3d(int n, int tsteps, double *A, double *B)
{
	int t;
	for (t = 0; t < tsteps; t++) {
		sweep(n, A, B);
		sweep(n, B, A);
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 80;
	int tsteps = argc > 2 ? atoi(argv[2]) : 50;
	if (n <= 2 || tsteps <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n * n), *B = malloc(sizeof *B * n * n * n);
	if (!A || !B)
		return 1;
	int i, j, k;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			for (k = 0; k < n; k++)
				AT(A, i, j, k) = AT(B, i, j, k) = (double)(i + j + (n - k)) * 10 / n;
	heat_3d(n, tsteps, A, B);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			for (k = 0; k < n; k++)
				sum += AT(A, i, j, k);
	printf("%.6f\n", sum);
	free(A);
	free(B);
	return 0;
}
