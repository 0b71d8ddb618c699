/* transpose: B = A^T for n x n doubles, reps times.
 * Usage: ./transpose [n [reps]]. */
#include <stdio.h>
#include <stdlib.h>

void transpose(int n, const double *a, double *b)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			b[j * n + i] = a[i * n + j];
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000, reps = argc > 2 ? atoi(argv[2]) : 10;
	double *a = malloc(sizeof(double) * n * n), *b = malloc(sizeof(double) * n * n);
	for (int i = 0; i < n * n; i++)
		a[i] = i;
	for (int r = 0; r < reps; r++)
		transpose(n, a, b);
	printf("%f\n", b[n + 1]);
	return 0;
}
