/* covariance: the n x n covariance matrix of n variables observed n times
 * (column means, centring, then the symmetric product).
 * Usage: ./covariance [n]; the accuracy benchmark binds n. */
#include <stdio.h>
#include <stdlib.h>

static void covariance(int n, double *data, double *mean, double *cov)
{
	int i, j, k;
	for (j = 0; j < n; j++) {
		mean[j] = 0.0;
		for (i = 0; i < n; i++)
			mean[j] += data[i * n + j];
		mean[j] /= n;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			data[i * n + j] -= mean[j];
	for (i = 0; i < n; i++)
		for (j = i; j < n; j++) {
			double s = 0.0;
			for (k = 0; k < n; k++)
				s += data[k * n + i] * data[k * n + j];
			cov[i * n + j] = cov[j * n + i] = s / (n - 1.0);
		}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 700;
	if (n <= 1)
		return 1;
	double *data = malloc(sizeof *data * n * n), *mean = malloc(sizeof *mean * n),
	       *cov = malloc(sizeof *cov * n * n);
	if (!data || !mean || !cov)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			data[i * n + j] = (double)((i * j) % n) / n;
	covariance(n, data, mean, cov);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			sum += cov[i * n + j];
	printf("%.6f\n", sum);
	free(data);
	free(mean);
	free(cov);
	return 0;
}
