/* histogram: counts n pseudo-random bytes into 256 bins, reps times.
 * Usage: ./histogram [n [reps]]; the accuracy benchmark binds n and reps. */
#include <stdio.h>
#include <stdlib.h>

static void histogram(int n, int reps, const unsigned char *x, long *bins)
{
	int r, i;
	for (r = 0; r < reps; r++)
		for (i = 0; i < n; i++)
			bins[x[i]]++;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000000;
	int reps = argc > 2 ? atoi(argv[2]) : 300;
	if (n <= 0 || reps <= 0)
		return 1;
	unsigned char *x = malloc(n);
	long *bins = calloc(256, sizeof *bins);
	if (!x || !bins)
		return 1;
	unsigned s = 12345;
	int i;
	for (i = 0; i < n; i++) {
		s = s * 1103515245u + 12345u;
		x[i] = (unsigned char)(s >> 16);
	}
	histogram(n, reps, x, bins);
	unsigned long sum = 0;
	for (i = 0; i < 256; i++)
		sum = sum * 31 + (unsigned long)bins[i];
	printf("%lu\n", sum);
	free(x);
	free(bins);
	return 0;
}
