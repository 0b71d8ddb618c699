/* gramschmidt: QR factorisation A = Q * R of an n x n matrix of doubles by
 * modified Gram-Schmidt: column k of A is normalised into column k of Q,
 * then its component is taken out of every later column of A.
 * Usage: ./gramschmidt [n]; the accuracy benchmark binds n. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void gramschmidt(int n, double *A, double *Q, double *R)
{
	int i, j, k;
	for (k = 0; k < n; k++) {
		double nrm = 0.0;
		for (i = 0; i < n; i++)
			nrm += A[i * n + k] * A[i * n + k];
		R[k * n + k] = sqrt(nrm);
		for (i = 0; i < n; i++)
			Q[i * n + k] = A[i * n + k] / R[k * n + k];
		for (j = k + 1; j < n; j++) {
			double s = 0.0;
			for (i = 0; i < n; i++)
				s += Q[i * n + k] * A[i * n + j];
			R[k * n + j] = s;
			for (i = 0; i < n; i++)
				A[i * n + j] -= Q[i * n + k] * s;
		}
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 650;
	if (n <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n), *Q = malloc(sizeof *Q * n * n), *R = malloc(sizeof *R * n * n);
	if (!A || !Q || !R)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			A[i * n + j] = (i == j) ? n + 1.0 : (double)((i * j + 1) % 10) / 10.0;
			Q[i * n + j] = R[i * n + j] = 0.0;
		}
	gramschmidt(n, A, Q, R);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			sum += R[i * n + j] + Q[i * n + j];
	printf("%.6f\n", sum);
	free(A);
	free(Q);
	free(R);
	return 0;
}
