/* grow: a run that does more work each time it runs (1, 3, 5, ... times
 * argv[1] iterations), counting its runs in the file argv[2]: a trace whose
 * runs differ in length. */
#include <stdio.h>
#include <stdlib.h>

static double work(long n)
{
	double s = 0;
	for (long i = 0; i < n; i++)
		s += (double)i * 0.5;
	return s;
}

int main(int argc, char **argv)
{
	int k = 0;
	FILE *f = argc > 2 ? fopen(argv[2], "r+") : NULL;
	if (f) {
		if (fscanf(f, "%d", &k) != 1)
			k = 0;
		rewind(f);
		fprintf(f, "%d\n", k + 1);
		fclose(f);
	}
	printf("%g\n", work(atol(argv[1]) * (1 + 2 * k)));
	return 0;
}
