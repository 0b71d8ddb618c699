/* gemver: the rank-2 update A += u1 * v1^T + u2 * v2^T of an n x n matrix
 * of doubles, then x += beta * A^T * y + z and w += alpha * A * x, reps
 * times. Usage: ./gemver [n [reps]]; the accuracy benchmark binds n and
 * reps. */
#include <stdio.h>
#include <stdlib.h>

static void gemver(int n, int reps, double alpha, double beta, double *A, const double *u1, const double *v1,
		   const double *u2, const double *v2, const double *y, const double *z, double *x, double *w)
{
	int r, i, j;
	for (r = 0; r < reps; r++) {
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				A[i * n + j] += u1[i] * v1[j] + u2[i] * v2[j];
		for (i = 0; i < n; i++) {
			double s = 0.0;
			for (j = 0; j < n; j++)
				s += A[j * n + i] * y[j];
			x[i] += beta * s;
		}
		for (i = 0; i < n; i++)
			x[i] += z[i];
		for (i = 0; i < n; i++) {
			double s = 0.0;
			for (j = 0; j < n; j++)
				s += A[i * n + j] * x[j];
			w[i] += alpha * s;
		}
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	int reps = argc > 2 ? atoi(argv[2]) : 20;
	if (n <= 0 || reps <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n), *vec = malloc(sizeof *vec * 8 * n);
	if (!A || !vec)
		return 1;
	double *u1 = vec, *v1 = vec + n, *u2 = vec + 2 * n, *v2 = vec + 3 * n, *y = vec + 4 * n, *z = vec + 5 * n,
	       *x = vec + 6 * n, *w = vec + 7 * n;
	int i, j;
	for (i = 0; i < n; i++) {
		u1[i] = (double)(i % 5) / 5.0;
		v1[i] = (double)(i % 7) / (7.0 * n);
		u2[i] = (double)(i % 3) / 3.0;
		v2[i] = (double)(i % 11) / (11.0 * n);
		y[i] = (double)(i % 13) / (13.0 * n);
		z[i] = (double)(i % 17) / 17.0;
		x[i] = 0.0;
		w[i] = 0.0;
		for (j = 0; j < n; j++)
			A[i * n + j] = (double)((i * j) % 19) / 19.0;
	}
	gemver(n, reps, 1.5, 1.2, A, u1, v1, u2, v2, y, z, x, w);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		sum += w[i];
	printf("%.6f\n", sum);
	free(A);
	free(vec);
	return 0;
}
