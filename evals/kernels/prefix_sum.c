/* prefix_sum: inclusive prefix sums of an array of n ints (modulo 2^32),
 * reps times, each pass over the previous one's result.
 * Usage: ./prefix_sum [n [reps]]; the accuracy benchmark binds n and reps. */
#include <stdio.h>
#include <stdlib.h>

static void prefix_sum(int n, int reps, unsigned *x, unsigned *y)
{
	int r, i;
	for (r = 0; r < reps; r++) {
		unsigned s = 0;
		for (i = 0; i < n; i++) {
			s += x[i];
			y[i] = s;
		}
		for (i = 0; i < n; i++)
			x[i] = y[i] ^ (unsigned)r;
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000000;
	int reps = argc > 2 ? atoi(argv[2]) : 200;
	if (n <= 0 || reps <= 0)
		return 1;
	unsigned *x = malloc(sizeof *x * n), *y = malloc(sizeof *y * n);
	if (!x || !y)
		return 1;
	int i;
	for (i = 0; i < n; i++)
		x[i] = (unsigned)(i % 1000);
	prefix_sum(n, reps, x, y);
	unsigned sum = 0;
	for (i = 0; i < n; i++)
		sum = sum * 31 + x[i];
	printf("%u\n", sum);
	free(x);
	free(y);
	return 0;
}
