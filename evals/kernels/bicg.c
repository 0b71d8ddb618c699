/* bicg: the two matrix-vector products of a BiCG step, s = A^T * v and
 * q = A * p for an n x n matrix A of doubles, in one sweep over the rows of
 * A, reps times. Usage: ./bicg [n [reps]]; the accuracy benchmark binds n
 * and reps. */
#include <stdio.h>
#include <stdlib.h>

static void bicg(int n, int reps, const double *A, const double *v, const double *p, double *s, double *q)
{
	int r, i, j;
	for (r = 0; r < reps; r++) {
		for (j = 0; j < n; j++)
			s[j] = 0.0;
		for (i = 0; i < n; i++) {
			double t = 0.0;
			for (j = 0; j < n; j++) {
				s[j] += v[i] * A[i * n + j];
				t += A[i * n + j] * p[j];
			}
			q[i] = t;
		}
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	int reps = argc > 2 ? atoi(argv[2]) : 65;
	if (n <= 0 || reps <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n), *v = malloc(sizeof *v * n), *p = malloc(sizeof *p * n),
	       *s = malloc(sizeof *s * n), *q = malloc(sizeof *q * n);
	if (!A || !v || !p || !s || !q)
		return 1;
	int i, j;
	for (i = 0; i < n; i++) {
		v[i] = (double)(i % 13) / 13.0;
		p[i] = (double)(i % 7) / 7.0;
		for (j = 0; j < n; j++)
			A[i * n + j] = (double)((2 * i + j) % 19) / 19.0;
	}
	bicg(n, reps, A, v, p, s, q);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		sum += s[i] + q[i];
	printf("%.6f\n", sum);
	free(A);
	free(v);
	free(p);
	free(s);
	free(q);
	return 0;
}
