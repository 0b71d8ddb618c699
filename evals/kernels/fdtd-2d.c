/* fdtd-2d: tsteps steps of the two-dimensional finite-difference time-domain
 * method on n x n grids of doubles: the electric fields ex and ey from the
 * curl of the magnetic field hz (with a source along the first row of ey),
 * then hz from theirs. Usage: ./fdtd-2d [n [tsteps]]; the accuracy
 * benchmark binds n and tsteps. */
#include <stdio.h>
#include <stdlib.h>

static void fdtd_2d(int n, int tsteps, double *ex, double *ey, double *hz)
{
	int t, i, j;
	for (t = 0; t < tsteps; t++) {
		for (j = 0; j < n; j++)
			ey[j] = (double)t;
		for (i = 1; i < n; i++)
			for (j = 0; j < n; j++)
				ey[i * n + j] -= 0.5 * (hz[i * n + j] - hz[(i - 1) * n + j]);
		for (i = 0; i < n; i++)
			for (j = 1; j < n; j++)
				ex[i * n + j] -= 0.5 * (hz[i * n + j] - hz[i * n + j - 1]);
		for (i = 0; i < n - 1; i++)
			for (j = 0; j < n - 1; j++)
				hz[i * n + j] -= 0.7 * (ex[i * n + j + 1] - ex[i * n + j] + ey[(i + 1) * n + j] - ey[i * n + j]);
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	int tsteps = argc > 2 ? atoi(argv[2]) : 90;
	if (n <= 1 || tsteps <= 0)
		return 1;
	double *ex = malloc(sizeof *ex * n * n), *ey = malloc(sizeof *ey * n * n), *hz = malloc(sizeof *hz * n * n);
	if (!ex || !ey || !hz)
		return 1;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			ex[i * n + j] = (double)((i * (j + 1)) % 10) / 10.0;
			ey[i * n + j] = (double)((i * (j + 2)) % 10) / 10.0;
			hz[i * n + j] = (double)((i * (j + 3)) % 10) / 10.0;
		}
	fdtd_2d(n, tsteps, ex, ey, hz);
	double sum = 0.0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			sum += ex[i * n + j] + ey[i * n + j] + hz[i * n + j];
	printf("%.6f\n", sum);
	free(ex);
	free(ey);
	free(hz);
	return 0;
}
