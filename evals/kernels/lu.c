/* lu: in-place LU decomposition without pivoting of a diagonally dominant
 * n x n matrix. Usage: ./lu [n]; the accuracy benchmark binds n. */
#include <stdio.h>
#include <stdlib.h>

static void lu(int n, double *A)
{
	int i, j, k;
	for (k = 0; k < n; k++) {
		for (i = k + 1; i < n; i++)
			A[i * n + k] /= A[k * n + k];
		for (i = k + 1; i < n; i++)
			for (j = k + 1; j < n; j++)
				A[i * n + j] -= A[i * n + k] * A[k * n + j];
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 900;
	if (n <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n);
	if (!A)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			A[i * n + j] = (i == j) ? n + 1.0 : (double)((i + 2 * j) % 10) / 10.0;
	lu(n, A);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			sum += A[i * n + j];
	printf("%.6f\n", sum);
	free(A);
	return 0;
}
