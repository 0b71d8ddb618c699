/* fir: a FIR filter of taps coefficients over n doubles, reps times.
 * Usage: ./fir [n [taps [reps]]]; evals/styles.sh binds them. */
#include <stdio.h>
#include <stdlib.h>

void fir(int n, int taps, const double *x, const double *h, double *y)
{
	for (int i = 0; i < n - taps; i++) {
		double acc = 0.0;
		for (int t = 0; t < taps; t++)
			acc += h[t] * x[i + t];
		y[i] = acc;
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000000, taps = argc > 2 ? atoi(argv[2]) : 24;
	int reps = argc > 3 ? atoi(argv[3]) : 20;
	double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n), *h = malloc(sizeof(double) * taps);
	for (int i = 0; i < n; i++)
		x[i] = (i % 17) * 0.5;
	for (int t = 0; t < taps; t++)
		h[t] = 1.0 / (t + 1);
	for (int r = 0; r < reps; r++)
		fir(n, taps, x, h, y);
	printf("%f\n", y[n / 2]);
	return 0;
}
