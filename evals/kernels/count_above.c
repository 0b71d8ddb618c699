/* count_above: counts the elements of an array of n pseudo-random ints
 * above a threshold (a branch taken half the time, unpredictably), reps
 * times. Usage: ./count_above [n [reps]]; the accuracy benchmark binds n
 * and reps. */
#include <stdio.h>
#include <stdlib.h>

static long count_above(int n, int reps, const int *v, int threshold)
{
	int r, i;
	long count = 0;
	for (r = 0; r < reps; r++)
		for (i = 0; i < n; i++)
			if (v[i] > threshold)
				count++;
	return count;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000000;
	int reps = argc > 2 ? atoi(argv[2]) : 200;
	if (n <= 0 || reps <= 0)
		return 1;
	int *v = malloc(sizeof *v * n);
	if (!v)
		return 1;
	unsigned s = 11;
	int i;
	for (i = 0; i < n; i++) {
		s = s * 1103515245u + 12345u;
		v[i] = (int)((s >> 8) & 0xffff);
	}
	printf("%ld\n", count_above(n, reps, v, 0x8000));
	free(v);
	return 0;
}
