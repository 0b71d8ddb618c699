/* nbody: the forces between n bodies (a square root and a division a
 * pair). Usage: ./nbody [n]. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void forces(int n, const double *px, const double *py, const double *pz, double *fx, double *fy, double *fz)
{
	for (int i = 0; i < n; i++) {
		double ax = 0, ay = 0, az = 0;
		for (int j = 0; j < n; j++) {
			double dx = px[j] - px[i], dy = py[j] - py[i], dz = pz[j] - pz[i];
			double r2 = dx * dx + dy * dy + dz * dz + 1e-9;
			double inv = 1.0 / (r2 * sqrt(r2));
			ax += dx * inv;
			ay += dy * inv;
			az += dz * inv;
		}
		fx[i] = ax;
		fy[i] = ay;
		fz[i] = az;
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4000;
	double *p = malloc(sizeof(double) * 6 * n);
	for (int i = 0; i < 3 * n; i++)
		p[i] = (i * 7919 % 1000) / 1000.0;
	forces(n, p, p + n, p + 2 * n, p + 3 * n, p + 4 * n, p + 5 * n);
	printf("%f\n", p[3 * n + 1]);
	return 0;
}
