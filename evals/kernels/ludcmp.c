/* ludcmp: LU decomposition of a diagonally dominant n x n matrix, then
 * forward and back substitution (PolyBench's ludcmp). Usage: ./ludcmp
 * [n]; the accuracy benchmark binds n. */
#include <stdio.h>
#include <stdlib.h>

static void ludcmp(int n, double *A, const double *b, double *x, double *y)
{
	int i, j, k;
	double w;
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++) {
			w = A[i * n + j];
			for (k = 0; k < j; k++)
				w -= A[i * n + k] * A[k * n + j];
			A[i * n + j] = w / A[j * n + j];
		}
		for (j = i; j < n; j++) {
			w = A[i * n + j];
			for (k = 0; k < i; k++)
				w -= A[i * n + k] * A[k * n + j];
			A[i * n + j] = w;
		}
	}
	for (i = 0; i < n; i++) {
		w = b[i];
		for (j = 0; j < i; j++)
			w -= A[i * n + j] * y[j];
		y[i] = w;
	}
	for (i = n - 1; i >= 0; i--) {
		w = y[i];
		for (j = i + 1; j < n; j++)
			w -= A[i * n + j] * x[j];
		x[i] = w / A[i * n + i];
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 850;
	if (n <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n), *b = malloc(sizeof *b * n), *x = malloc(sizeof *x * n),
	       *y = malloc(sizeof *y * n);
	if (!A || !b || !x || !y)
		return 1;
	int i, j;
	for (i = 0; i < n; i++) {
		b[i] = (i + 1) / (double)n / 2.0 + 4;
		for (j = 0; j < n; j++)
			A[i * n + j] = i == j ? (double)n : 1.0 / (i + j + 1);
	}
	ludcmp(n, A, b, x, y);
	printf("%.6f\n", x[n / 2]);
	free(A);
	free(b);
	free(x);
	free(y);
	return 0;
}
