/* 3mm: G = (A * B) * (C * D), a chain of three n x n matrix products.
 * Usage: ./3mm [n]; the accuracy benchmark binds n. */
#include <stdio.h>
#include <stdlib.h>

/* Z = X * Y */
static void mm(int n, double *Z, const double *X, const double *Y)
{
	int i, j, k;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			double s = 0.0;
			for (k = 0; k < n; k++)
				s += X[i * n + k] * Y[k * n + j];
			Z[i * n + j] = s;
		}
}

static void mm3(int n, double *E, double *F, double *G, const double *A, const double *B, const double *C,
		const double *D)
{
	mm(n, E, A, B);
	mm(n, F, C, D);
	mm(n, G, E, F);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 400;
	if (n <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n), *B = malloc(sizeof *B * n * n), *C = malloc(sizeof *C * n * n);
	double *D = malloc(sizeof *D * n * n), *E = malloc(sizeof *E * n * n), *F = malloc(sizeof *F * n * n);
	double *G = malloc(sizeof *G * n * n);
	if (!A || !B || !C || !D || !E || !F || !G)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			A[i * n + j] = (double)((i * j + 1) % n) / (5.0 * n);
			B[i * n + j] = (double)((i * (j + 1) + 2) % n) / (5.0 * n);
			C[i * n + j] = (double)(i * (j + 3) % n) / (5.0 * n);
			D[i * n + j] = (double)((i * (j + 2) + 2) % n) / (5.0 * n);
		}
	mm3(n, E, F, G, A, B, C, D);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			sum += G[i * n + j];
	printf("%.6f\n", sum);
	free(A);
	free(B);
	free(C);
	free(D);
	free(E);
	free(F);
	free(G);
	return 0;
}
