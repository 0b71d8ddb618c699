#!/bin/sh
# gen-chain.sh N: prints a C file of N functions, each a loop and a call
# of the next (declared first, defined after its caller), and main
# calling the first: a file of N calls, whose analysis should grow with
# N, not with its square.
n=${1:-2000}
awk -v N="$n" 'BEGIN {
	for (i = 0; i < N; i++)
		printf "static void f%d(int n, double *a);\n", i
	for (i = 0; i < N; i++) {
		printf "static void f%d(int n, double *a) { for (int i = 0; i < n; i++) a[i] *= 2.0;", i
		if (i + 1 < N)
			printf " f%d(n, a);", i + 1
		print " }"
	}
	print "int main(void) { double a[10] = {0}; f0(10, a); return (int)a[0]; }"
}'
