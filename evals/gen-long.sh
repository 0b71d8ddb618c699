#!/bin/sh
# gen-long.sh N: prints a C file with one function of N blocks, each a
# local set from a parameter, a guard on the parameter and a loop bounded
# by the local: one function of 4N lines, whose analysis should grow
# with N, not with its square.
n=${1:-800}
awk -v N="$n" 'BEGIN {
	print "void longfn(int n, double *a, const double *b) {"
	for (i = 0; i < N; i++) {
		printf "\tint m%d = n - %d;\n", i, i % 7
		printf "\tif (n > %d) a[%d] = 0;\n", i % 5, i
		printf "\tfor (int i = 0; i < m%d; i++)\n\t\ta[i] += b[i] * %d.0;\n", i, i
	}
	print "}"
}'
