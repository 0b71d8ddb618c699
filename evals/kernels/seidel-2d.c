/* seidel-2d: tsteps in-place Gauss-Seidel sweeps of the nine-point stencil
 * over an n x n grid of doubles. Usage: ./seidel-2d [n [tsteps]]; the
 * accuracy benchmark binds n and tsteps. */
#include <stdio.h>
#include <stdlib.h>

static void seidel_2d(int n, int tsteps, double *A)
{
	int t, i, j;
	for (t = 0; t < tsteps; t++)
		for (i = 1; i < n - 1; i++)
			for (j = 1; j < n - 1; j++)
				A[i * n + j] = (A[(i - 1) * n + j - 1] + A[(i - 1) * n + j] + A[(i - 1) * n + j + 1] +
						A[i * n + j - 1] + A[i * n + j] + A[i * n + j + 1] +
						A[(i + 1) * n + j - 1] + A[(i + 1) * n + j] + A[(i + 1) * n + j + 1]) /
					       9.0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 500;
	int tsteps = argc > 2 ? atoi(argv[2]) : 160;
	if (n <= 2 || tsteps <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n);
	if (!A)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			A[i * n + j] = ((double)i * (j + 2) + 2) / n;
	seidel_2d(n, tsteps, A);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			sum += A[i * n + j];
	printf("%.6f\n", sum);
	free(A);
	return 0;
}
