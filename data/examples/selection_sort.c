/* RR-8416 Algorithm 2: selection sort, as written in the paper.
 * Build: cc -O0 selection_sort.c -o selection_sort; run: ./selection_sort N
 * Predict: epi-predict selection_sort.c --param n=100000 */
#include <stdio.h>
#include <stdlib.h>

/* Sorts v by the keys in u (here the same array), swapping in place. */
static void selection_sort(int *u, int *v, int n)
{
	int i, j, i_min, x;
	for (i = 0; i < n; i++) {
		i_min = i;
		for (j = i + 1; j < n; j++)
			if (u[j] < u[i_min])
				i_min = j;
		x = v[i];
		v[i] = v[i_min];
		v[i_min] = x;
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100000;
	if (n <= 0)
		return 1;
	int *v = malloc(n * sizeof *v);
	if (!v)
		return 1;
	srand(1);
	for (int k = 0; k < n; k++)
		v[k] = rand();
	selection_sort(v, v, n);
	printf("%d %d\n", v[0], v[n - 1]);
	free(v);
	return 0;
}
