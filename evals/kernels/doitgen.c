/* doitgen: multiresolution kernel: each row A[r][q][:] of an n x n x n
 * array of doubles is replaced by its product with an n x n matrix W,
 * through a row buffer. Usage: ./doitgen [n]; the accuracy benchmark binds
 * n. */
#include <stdio.h>
#include <stdlib.h>

#define AT(X, i, j, k) X[((i) * n + (j)) * n + (k)]

static void doitgen(int n, double *A, const double *W, double *row)
{
	int r, q, p, s;
	for (r = 0; r < n; r++)
		for (q = 0; q < n; q++) {
			for (p = 0; p < n; p++) {
				double t = 0.0;
				for (s = 0; s < n; s++)
					t += AT(A, r, q, s) * W[s * n + p];
				row[p] = t;
			}
			for (p = 0; p < n; p++)
				AT(A, r, q, p) = row[p];
		}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 130;
	if (n <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n * n), *W = malloc(sizeof *W * n * n), *row = malloc(sizeof *row * n);
	if (!A || !W || !row)
		return 1;
	int i, j, k;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			W[i * n + j] = (double)((i * j) % 7) / (7.0 * n);
			for (k = 0; k < n; k++)
				AT(A, i, j, k) = (double)((i * j + k) % 10) / 10.0;
		}
	doitgen(n, A, W, row);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			for (k = 0; k < n; k++)
				sum += AT(A, i, j, k);
	printf("%.6f\n", sum);
	free(A);
	free(W);
	free(row);
	return 0;
}
