/* durbin: Levinson-Durbin recursion, the Yule-Walker equations of order n
 * (a Toeplitz system), reps times (PolyBench's durbin). Usage: ./durbin
 * [n [reps]]; the accuracy benchmark binds n and reps. */
#include <stdio.h>
#include <stdlib.h>

static void durbin(int n, int reps, const double *r, double *y, double *z)
{
	int t, i, k;
	for (t = 0; t < reps; t++) {
		double alpha = -r[0], beta = 1.0, sum;
		y[0] = -r[0];
		for (k = 1; k < n; k++) {
			beta = (1 - alpha * alpha) * beta;
			sum = 0.0;
			for (i = 0; i < k; i++)
				sum += r[k - i - 1] * y[i];
			alpha = -(r[k] + sum) / beta;
			for (i = 0; i < k; i++)
				z[i] = y[i] + alpha * y[k - i - 1];
			for (i = 0; i < k; i++)
				y[i] = z[i];
			y[k] = alpha;
		}
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	int reps = argc > 2 ? atoi(argv[2]) : 60;
	if (n <= 0 || reps <= 0)
		return 1;
	double *r = malloc(sizeof *r * n), *y = malloc(sizeof *y * n), *z = malloc(sizeof *z * n);
	if (!r || !y || !z)
		return 1;
	int i;
	for (i = 0; i < n; i++)
		r[i] = (double)(n + 1 - i) / (n * 200.0);
	durbin(n, reps, r, y, z);
	printf("%.6f\n", y[n - 1]);
	free(r);
	free(y);
	free(z);
	return 0;
}
