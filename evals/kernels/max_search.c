/* max_search: the largest element of an array of n pseudo-random doubles
 * and its index (a branch taken less and less often), reps times over a
 * shifted array. Usage: ./max_search [n [reps]]; the accuracy benchmark
 * binds n and reps. */
#include <stdio.h>
#include <stdlib.h>

static double max_search(int n, int reps, const double *v)
{
	int r, i;
	double total = 0.0;
	for (r = 0; r < reps; r++) {
		double m = v[0] - r;
		int at = 0;
		for (i = 0; i < n; i++)
			if (v[i] - r > m) {
				m = v[i] - r;
				at = i;
			}
		total += m + at;
	}
	return total;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000000;
	int reps = argc > 2 ? atoi(argv[2]) : 400;
	if (n <= 0 || reps <= 0)
		return 1;
	double *v = malloc(sizeof *v * n);
	if (!v)
		return 1;
	unsigned s = 5;
	int i;
	for (i = 0; i < n; i++) {
		s = s * 1103515245u + 12345u;
		v[i] = (double)(s >> 4) / 268435456.0;
	}
	printf("%.6f\n", max_search(n, reps, v));
	free(v);
	return 0;
}
