/* selection_sort: sorts n pseudo-random ints by selection.
 * Usage: ./selection_sort [n]; the accuracy benchmark binds n. */
#include <stdio.h>
#include <stdlib.h>

static void selection_sort(int n, int *v)
{
	int i, j;
	for (i = 0; i < n; i++) {
		int m = i;
		for (j = i + 1; j < n; j++)
			if (v[j] < v[m])
				m = j;
		int x = v[i];
		v[i] = v[m];
		v[m] = x;
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 40000;
	if (n <= 0)
		return 1;
	int *v = malloc(sizeof *v * n);
	if (!v)
		return 1;
	unsigned s = 1;
	int i;
	for (i = 0; i < n; i++) {
		s = s * 1103515245u + 12345u;
		v[i] = (int)(s >> 1);
	}
	selection_sort(n, v);
	unsigned long sum = 0;
	for (i = 0; i < n; i++)
		sum = sum * 31 + (unsigned)v[i];
	printf("%d %d %lu\n", v[0], v[n - 1], sum);
	free(v);
	return 0;
}
