/* trsv_pp: forward substitution with a lower triangular matrix kept as
 * rows of growing length, reps times. Usage: ./trsv_pp [n [reps]]. */
#include <stdio.h>
#include <stdlib.h>

/* forward substitution L x = b, L lower triangular, rows as pointers */
void trsv(int n, double **L, const double *b, double *x)
{
	for (int i = 0; i < n; i++) {
		double s = b[i];
		for (int j = 0; j < i; j++)
			s -= L[i][j] * x[j];
		x[i] = s / L[i][i];
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4000;
	int reps = argc > 2 ? atoi(argv[2]) : 20;
	double **L = malloc(n * sizeof *L);
	double *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x);
	for (int i = 0; i < n; i++) {
		L[i] = malloc((i + 1) * sizeof **L);
		for (int j = 0; j <= i; j++)
			L[i][j] = i == j ? 2.0 : 1.0 / (n + i + j);
		b[i] = 1.0;
	}
	for (int r = 0; r < reps; r++)
		trsv(n, L, b, x);
	printf("%f\n", x[n - 1]);
	return 0;
}
