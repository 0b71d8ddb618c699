/* stencil_flat: a 5-point Jacobi stencil over an n x n grid in flat
 * arrays with restrict, steps times. Usage: ./stencil_flat [n [steps]]. */
#include <stdio.h>
#include <stdlib.h>
#define IDX(i, j) ((i) * (n) + (j))

void jacobi(int n, int steps, double *restrict u, double *restrict v)
{
	for (int t = 0; t < steps; t++) {
		for (int i = 1; i < n - 1; i++)
			for (int j = 1; j < n - 1; j++)
				v[IDX(i, j)] = 0.25 * (u[IDX(i - 1, j)] + u[IDX(i + 1, j)] + u[IDX(i, j - 1)] + u[IDX(i, j + 1)]);
		for (int i = 1; i < n - 1; i++)
			for (int j = 1; j < n - 1; j++)
				u[IDX(i, j)] = v[IDX(i, j)];
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	int steps = argc > 2 ? atoi(argv[2]) : 100;
	double *u = calloc((size_t)n * n, sizeof *u), *v = calloc((size_t)n * n, sizeof *v);
	for (int i = 0; i < n; i++)
		u[IDX(i, 0)] = 1.0;
	jacobi(n, steps, u, v);
	printf("%f\n", u[IDX(n / 2, n / 2)]);
	return 0;
}
