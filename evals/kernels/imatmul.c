/* imatmul: C = A * B over n x n matrices of ints (products summed modulo
 * 2^32). Usage: ./imatmul [n]; the accuracy benchmark binds n. */
#include <stdio.h>
#include <stdlib.h>

static void imatmul(int n, unsigned *C, const unsigned *A, const unsigned *B)
{
	int i, j, k;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			unsigned s = 0;
			for (k = 0; k < n; k++)
				s += A[i * n + k] * B[k * n + j];
			C[i * n + j] = s;
		}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 600;
	if (n <= 0)
		return 1;
	unsigned *A = malloc(sizeof *A * n * n), *B = malloc(sizeof *B * n * n), *C = malloc(sizeof *C * n * n);
	if (!A || !B || !C)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			A[i * n + j] = (unsigned)(i * 7 + j * 3) % 101;
			B[i * n + j] = (unsigned)(i * 5 + j * 11) % 103;
		}
	imatmul(n, C, A, B);
	unsigned sum = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			sum = sum * 31 + C[i * n + j];
	printf("%u\n", sum);
	free(A);
	free(B);
	free(C);
	return 0;
}
