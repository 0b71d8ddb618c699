/* nussinov: RNA folding by dynamic programming over a sequence of n
 * bases, the table filled from the last row up (PolyBench's nussinov).
 * Usage: ./nussinov [n]; the accuracy benchmark binds n. */
#include <stdio.h>
#include <stdlib.h>

#define MAX(a, b) ((a) >= (b) ? (a) : (b))
#define MATCH(b1, b2) (((b1) + (b2)) == 3 ? 1 : 0)

static void nussinov(int n, const char *seq, int *table)
{
	int i, j, k;
	for (i = n - 1; i >= 0; i--)
		for (j = i + 1; j < n; j++) {
			if (j - 1 >= 0)
				table[i * n + j] = MAX(table[i * n + j], table[i * n + j - 1]);
			if (i + 1 < n)
				table[i * n + j] = MAX(table[i * n + j], table[(i + 1) * n + j]);
			if (j - 1 >= 0 && i + 1 < n) {
				if (i < j - 1)
					table[i * n + j] = MAX(table[i * n + j],
							       table[(i + 1) * n + j - 1] + MATCH(seq[i], seq[j]));
				else
					table[i * n + j] = MAX(table[i * n + j], table[(i + 1) * n + j - 1]);
			}
			for (k = i + 1; k < j; k++)
				table[i * n + j] = MAX(table[i * n + j], table[i * n + k] + table[(k + 1) * n + j]);
		}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	if (n <= 0)
		return 1;
	char *seq = malloc(n);
	int *table = calloc((size_t)n * n, sizeof *table);
	if (!seq || !table)
		return 1;
	int i;
	for (i = 0; i < n; i++)
		seq[i] = (char)((i + 1) % 4);
	nussinov(n, seq, table);
	printf("%d\n", table[n - 1]);
	free(seq);
	free(table);
	return 0;
}
