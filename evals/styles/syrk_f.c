/* syrk_f: a float symmetric rank-k update, the lower triangle of C.
 * Usage: ./syrk_f [n [m]]. */
#include <stdio.h>
#include <stdlib.h>

/* C = alpha A A^T + beta C, lower triangle, float */
void syrk(int n, int m, float alpha, float beta, float *C, const float *A)
{
	for (int i = 0; i < n; i++) {
		for (int j = 0; j <= i; j++)
			C[i * n + j] *= beta;
		for (int k = 0; k < m; k++)
			for (int j = 0; j <= i; j++)
				C[i * n + j] += alpha * A[i * m + k] * A[j * m + k];
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 800, m = argc > 2 ? atoi(argv[2]) : 600;
	float *A = malloc(sizeof(float) * n * m), *C = malloc(sizeof(float) * n * n);
	for (int i = 0; i < n * m; i++)
		A[i] = (i % 11) / 11.0f;
	for (int i = 0; i < n * n; i++)
		C[i] = 1.0f;
	syrk(n, m, 1.5f, 1.2f, C, A);
	printf("%f\n", C[n * n - 1]);
	return 0;
}
