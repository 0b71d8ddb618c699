/* RR-8416 Algorithm 3: running weighted means.  The paper's Table VII
 * predictions equal its equation (5) for 10^4 passes over n elements, the
 * repetition its 1 Hz wall meter needs; REPEAT reproduces that.
 * Build: cc -O0 weighted_means.c -o weighted_means; run: ./weighted_means N
 * Predict: epi-predict weighted_means.c --param n=100000 */
#include <stdio.h>
#include <stdlib.h>

#define REPEAT 10000

static void weighted_means(const double *w, const double *v, double *u, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++) {
		s = s + w[i] * v[i];
		u[i] = s / (i + 1);
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100000;
	if (n <= 0)
		return 1;
	double *w = malloc(n * sizeof *w), *v = malloc(n * sizeof *v), *u = malloc(n * sizeof *u);
	if (!w || !v || !u)
		return 1;
	for (int k = 0; k < n; k++) {
		w[k] = 1.0 / (k + 1);
		v[k] = k;
	}
	for (int r = 0; r < REPEAT; r++)
		weighted_means(w, v, u, n);
	printf("%g\n", u[n - 1]);
	free(w);
	free(v);
	free(u);
	return 0;
}
