/* mvt: x1 += A * y1 and x2 += A^T * y2 for an n x n matrix A of doubles,
 * reps times: the first walks A by rows, the second by columns.
 * Usage: ./mvt [n [reps]]; the accuracy benchmark binds n and reps. */
#include <stdio.h>
#include <stdlib.h>

static void mvt(int n, int reps, const double *A, const double *y1, const double *y2, double *x1, double *x2)
{
	int r, i, j;
	for (r = 0; r < reps; r++) {
		for (i = 0; i < n; i++) {
			double s = x1[i];
			for (j = 0; j < n; j++)
				s += A[i * n + j] * y1[j];
			x1[i] = s;
		}
		for (i = 0; i < n; i++) {
			double s = x2[i];
			for (j = 0; j < n; j++)
				s += A[j * n + i] * y2[j];
			x2[i] = s;
		}
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	int reps = argc > 2 ? atoi(argv[2]) : 28;
	if (n <= 0 || reps <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n), *y1 = malloc(sizeof *y1 * n), *y2 = malloc(sizeof *y2 * n),
	       *x1 = malloc(sizeof *x1 * n), *x2 = malloc(sizeof *x2 * n);
	if (!A || !y1 || !y2 || !x1 || !x2)
		return 1;
	int i, j;
	for (i = 0; i < n; i++) {
		y1[i] = (double)(i % 9) / 9.0;
		y2[i] = (double)(i % 5) / 5.0;
		x1[i] = (double)(i % 3);
		x2[i] = (double)(i % 4);
		for (j = 0; j < n; j++)
			A[i * n + j] = (double)((i * j + 1) % 23) / (23.0 * n);
	}
	mvt(n, reps, A, y1, y2, x1, x2);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		sum += x1[i] + x2[i];
	printf("%.6f\n", sum);
	free(A);
	free(y1);
	free(y2);
	free(x1);
	free(x2);
	return 0;
}
