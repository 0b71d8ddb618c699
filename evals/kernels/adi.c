/* adi: alternating direction implicit solver of a 2-D heat equation on
 * an n x n grid, tsteps steps, a column sweep then a row sweep each
 * (PolyBench's adi). Usage: ./adi [n [tsteps]]; the accuracy benchmark
 * binds n and tsteps. */
#include <stdio.h>
#include <stdlib.h>

static void adi(int n, int tsteps, double *u, double *v, double *p, double *q)
{
	int t, i, j;
	double DX = 1.0 / n, DY = 1.0 / n, DT = 1.0 / tsteps;
	double B1 = 2.0, B2 = 1.0;
	double mul1 = B1 * DT / (DX * DX), mul2 = B2 * DT / (DY * DY);
	double a = -mul1 / 2.0, b = 1.0 + mul1, c = a;
	double d = -mul2 / 2.0, e = 1.0 + mul2, f = d;
	for (t = 1; t <= tsteps; t++) {
		for (i = 1; i < n - 1; i++) {
			v[i] = 1.0;
			p[i * n] = 0.0;
			q[i * n] = v[i];
			for (j = 1; j < n - 1; j++) {
				p[i * n + j] = -c / (a * p[i * n + j - 1] + b);
				q[i * n + j] = (-d * u[j * n + i - 1] + (1.0 + 2.0 * d) * u[j * n + i] -
						f * u[j * n + i + 1] - a * q[i * n + j - 1]) /
					       (a * p[i * n + j - 1] + b);
			}
			v[(n - 1) * n + i] = 1.0;
			for (j = n - 2; j >= 1; j--)
				v[j * n + i] = p[i * n + j] * v[(j + 1) * n + i] + q[i * n + j];
		}
		for (i = 1; i < n - 1; i++) {
			u[i * n] = 1.0;
			p[i * n] = 0.0;
			q[i * n] = u[i * n];
			for (j = 1; j < n - 1; j++) {
				p[i * n + j] = -f / (d * p[i * n + j - 1] + e);
				q[i * n + j] = (-a * v[(i - 1) * n + j] + (1.0 + 2.0 * a) * v[i * n + j] -
						c * v[(i + 1) * n + j] - d * q[i * n + j - 1]) /
					       (d * p[i * n + j - 1] + e);
			}
			u[i * n + n - 1] = 1.0;
			for (j = n - 2; j >= 1; j--)
				u[i * n + j] = p[i * n + j] * u[i * n + j + 1] + q[i * n + j];
		}
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 600;
	int tsteps = argc > 2 ? atoi(argv[2]) : 60;
	if (n <= 2 || tsteps <= 0)
		return 1;
	double *u = malloc(sizeof *u * n * n), *v = calloc(n * n, sizeof *v), *p = calloc(n * n, sizeof *p),
	       *q = calloc(n * n, sizeof *q);
	if (!u || !v || !p || !q)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			u[i * n + j] = (double)(i + n - j) / n;
	adi(n, tsteps, u, v, p, q);
	printf("%.6f\n", u[n / 2 * n + n / 3]);
	free(u);
	free(v);
	free(p);
	free(q);
	return 0;
}
