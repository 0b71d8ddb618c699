/* collatz: the Collatz map applied a fixed 300 times to each of 1..n
 * (a loop with a constant bound and a data-dependent branch), summing the
 * values reached. Usage: ./collatz [n]; the accuracy benchmark binds n. */
#include <stdio.h>
#include <stdlib.h>

static unsigned long collatz(int n)
{
	int i, s;
	unsigned long total = 0;
	for (i = 1; i <= n; i++) {
		unsigned long x = (unsigned long)i;
		for (s = 0; s < 300; s++)
			if (x & 1)
				x = 3 * x + 1;
			else
				x = x / 2;
		total += x;
	}
	return total;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1200000;
	if (n <= 0)
		return 1;
	printf("%lu\n", collatz(n));
	return 0;
}
