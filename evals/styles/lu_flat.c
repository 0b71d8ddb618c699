/* lu_flat: an in-place LU factorisation without pivoting of an n x n
 * matrix in one flat array. Usage: ./lu_flat [n]. */
#include <stdio.h>
#include <stdlib.h>

void lu(int n, double *a)
{
	for (int k = 0; k < n; k++) {
		for (int i = k + 1; i < n; i++)
			a[i * n + k] /= a[k * n + k];
		for (int i = k + 1; i < n; i++)
			for (int j = k + 1; j < n; j++)
				a[i * n + j] -= a[i * n + k] * a[k * n + j];
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 800;
	double *a = malloc(sizeof(double) * n * n);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			a[i * n + j] = i == j ? n : 1.0 / (1 + i + j);
	lu(n, a);
	printf("%f\n", a[n * n - 1]);
	return 0;
}
