#!/bin/sh
# gen-nests.sh N: prints a C file with N loop nests of varied shapes
# (rectangular, triangular, three-deep, strided, with branches and calls)
# whose bounds all differ (offsets grow with the nest number), ten nests per
# function.
n=${1:-2000}
awk -v N="$n" 'BEGIN {
	print "#include <string.h>"
	print "static double helper(const double *x, int m) {"
	print "\tdouble s = 0;"
	print "\tfor (int k = 0; k < m; k++)"
	print "\t\ts += x[k] * x[k];"
	print "\treturn s;"
	print "}"
	for (i = 0; i < N; i++) {
		if (i % 10 == 0) {
			if (i) print "}"
			printf "void kernel%d(double *a, double *b, double *c, int n, int m) {\n", i / 10
		}
		s = i % 6
		o = int(i / 6)         # every nest has bounds of its own
		if (s == 0) {
			printf "\tfor (int i = %d; i < n; i++)\n\t\tfor (int j = 0; j < m - %d; j++)\n\t\t\ta[i * m + j] = b[i] * c[j] + %d.0;\n", o, o, i
		} else if (s == 1) {
			printf "\tfor (int i = 0; i < n - %d; i++)\n\t\tfor (int j = i + %d; j < n; j++)\n\t\t\tif (a[j] < a[i]) { double t = a[i]; a[i] = a[j]; a[j] = t; }\n", o, o + 1
		} else if (s == 2) {
			printf "\tfor (int i = 0; i < n; i++)\n\t\tfor (int j = 0; j <= i + %d; j++)\n\t\t\tfor (int k = j; k < m; k++)\n\t\t\t\tc[k] += a[i] * b[j] / %d.0;\n", o, i + 1
		} else if (s == 3) {
			printf "\tfor (int i = %d; i < n; i += 4)\n\t\tfor (int j = i; j < n; j += 2)\n\t\t\tb[j] = a[i] - b[j];\n", o
		} else if (s == 4) {
			printf "\tfor (int i = n - %d; i >= 0; i--)\n\t\tc[i] = helper(a, i) + (a[i] > 0 ? a[i] : -a[i]);\n", o + 1
		} else {
			printf "\tfor (int i = 0; i < n; i++)\n\t\tfor (int j = 0; j < i - %d; j++)\n\t\t\tmemcpy(a + j, b + j, %d * sizeof(double));\n", o, 8
		}
	}
	print "}"
}'
