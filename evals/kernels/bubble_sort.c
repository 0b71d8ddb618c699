/* bubble_sort: sorts n pseudo-random ints by bubble sort (no early exit).
 * Usage: ./bubble_sort [n]; the accuracy benchmark binds n. */
#include <stdio.h>
#include <stdlib.h>

static void bubble_sort(int n, int *v)
{
	int i, j;
	for (i = 0; i < n - 1; i++)
		for (j = 0; j < n - 1 - i; j++)
			if (v[j] > v[j + 1]) {
				int x = v[j];
				v[j] = v[j + 1];
				v[j + 1] = x;
			}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 25000;
	if (n <= 0)
		return 1;
	int *v = malloc(sizeof *v * n);
	if (!v)
		return 1;
	unsigned s = 3;
	int i;
	for (i = 0; i < n; i++) {
		s = s * 1103515245u + 12345u;
		v[i] = (int)(s >> 1);
	}
	bubble_sort(n, v);
	unsigned long sum = 0;
	for (i = 0; i < n; i++)
		sum = sum * 31 + (unsigned)v[i];
	printf("%d %d %lu\n", v[0], v[n - 1], sum);
	free(v);
	return 0;
}
