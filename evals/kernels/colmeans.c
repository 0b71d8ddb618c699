/* colmeans: the mean of each column of an n x m matrix of doubles (a
 * statistics package's first pass over a data set, as covariance's),
 * reps times over a shifted matrix. With m = 1,024 the rows are 8 KiB
 * apart, so a column's lines fall in few cache sets.
 * Usage: ./colmeans [n [m [reps]]]; the accuracy benchmark binds them. */
#include <stdio.h>
#include <stdlib.h>

static void colmeans(int n, int m, int reps, const double *data, double *mean)
{
	int r, i, j;
	for (r = 0; r < reps; r++)
		for (j = 0; j < m; j++) {
			double s = r;
			for (i = 0; i < n; i++)
				s += data[i * m + j];
			mean[j] = s / n;
		}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	int m = argc > 2 ? atoi(argv[2]) : 1024;
	int reps = argc > 3 ? atoi(argv[3]) : 100;
	if (n <= 0 || m <= 0 || reps <= 0)
		return 1;
	double *data = malloc(sizeof *data * n * m), *mean = malloc(sizeof *mean * m);
	if (!data || !mean)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < m; j++)
			data[i * m + j] = (double)((i + 3 * j) % 17) / 17.0;
	colmeans(n, m, reps, data, mean);
	double sum = 0.0;
	for (j = 0; j < m; j++)
		sum += mean[j];
	printf("%.6f\n", sum);
	free(data);
	free(mean);
	return 0;
}
