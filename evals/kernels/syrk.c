/* syrk: C = alpha * A * A^T + beta * C on the lower triangle of C (n x n),
 * A n x n. Usage: ./syrk [n]; the accuracy benchmark binds n. */
#include <stdio.h>
#include <stdlib.h>

static void syrk(int n, double alpha, double beta, double *C, const double *A)
{
	int i, j, k;
	for (i = 0; i < n; i++)
		for (j = 0; j <= i; j++) {
			double s = 0.0;
			for (k = 0; k < n; k++)
				s += A[i * n + k] * A[j * n + k];
			C[i * n + j] = alpha * s + beta * C[i * n + j];
		}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 700;
	if (n <= 0)
		return 1;
	double *A = malloc(sizeof *A * n * n), *C = malloc(sizeof *C * n * n);
	if (!A || !C)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			A[i * n + j] = (double)((i * j + 1) % n) / n;
			C[i * n + j] = (double)((i * j + 2) % n) / n;
		}
	syrk(n, 1.5, 1.2, C, A);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		for (j = 0; j <= i; j++)
			sum += C[i * n + j];
	printf("%.6f\n", sum);
	free(A);
	free(C);
	return 0;
}
