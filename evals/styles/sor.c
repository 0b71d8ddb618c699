/* sor: successive over-relaxation sweeps in place over an n x n grid.
 * Usage: ./sor [n [iters]]. */
#include <stdio.h>
#include <stdlib.h>

/* red-black-free successive over-relaxation, in place */
void sor(int n, int iters, double omega, double *g)
{
	for (int it = 0; it < iters; it++)
		for (int i = 1; i < n - 1; i++)
			for (int j = 1; j < n - 1; j++)
				g[i * n + j] = (1 - omega) * g[i * n + j] +
					       omega * 0.25 * (g[(i - 1) * n + j] + g[(i + 1) * n + j] + g[i * n + j - 1] + g[i * n + j + 1]);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, iters = argc > 2 ? atoi(argv[2]) : 50;
	double *g = calloc((size_t)n * n, sizeof(double));
	for (int i = 0; i < n; i++)
		g[i] = 1.0;
	sor(n, iters, 1.5, g);
	printf("%f\n", g[(n / 2) * n + n / 2]);
	return 0;
}
