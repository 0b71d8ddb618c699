/* RR-8416 Algorithm 4: scalar product.  As for the weighted means, the
 * paper's Table VIII predictions are its equation (6) for 10^4 passes.
 * Build: cc -O0 scalar_product.c -o scalar_product; run: ./scalar_product N
 * Predict: epi-predict scalar_product.c --param n=100000 */
#include <stdio.h>
#include <stdlib.h>

#define REPEAT 10000

static double scalar_product(const double *u, const double *v, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s = s + u[i] * v[i];
	return s;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100000;
	if (n <= 0)
		return 1;
	double *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v);
	if (!u || !v)
		return 1;
	for (int k = 0; k < n; k++) {
		u[k] = k;
		v[k] = 1.0 / (k + 1);
	}
	double s = 0;
	for (int r = 0; r < REPEAT; r++)
		s += scalar_product(u, v, n);
	printf("%g\n", s);
	free(u);
	free(v);
	return 0;
}
