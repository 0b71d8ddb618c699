/* floyd-warshall: all-pairs shortest paths over a dense graph of n nodes
 * with int weights. Usage: ./floyd-warshall [n]; the accuracy benchmark
 * binds n. */
#include <stdio.h>
#include <stdlib.h>

static void floyd_warshall(int n, int *d)
{
	int i, j, k;
	for (k = 0; k < n; k++)
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				if (d[i * n + k] + d[k * n + j] < d[i * n + j])
					d[i * n + j] = d[i * n + k] + d[k * n + j];
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 700;
	if (n <= 0)
		return 1;
	int *d = malloc(sizeof *d * n * n);
	if (!d)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			d[i * n + j] = i == j ? 0 : 1 + (i * 13 + j * 7) % 97;
	floyd_warshall(n, d);
	unsigned long sum = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			sum += (unsigned long)d[i * n + j];
	printf("%lu\n", sum);
	free(d);
	return 0;
}
