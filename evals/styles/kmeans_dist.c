/* kmeans_dist: k-means' assignment, each of np points of d float
 * dimensions to the nearest of nc centres. Usage: ./kmeans_dist [np [nc [d]]]. */
#include <stdio.h>
#include <stdlib.h>

/* nearest center of each point, squared distance over d dimensions */
void assign(int np, int nc, int d, const float *pts, const float *ctr, int *label)
{
	for (int p = 0; p < np; p++) {
		float best = 1e30f;
		int bi = 0;
		for (int c = 0; c < nc; c++) {
			float s = 0;
			for (int k = 0; k < d; k++) {
				float diff = pts[p * d + k] - ctr[c * d + k];
				s += diff * diff;
			}
			if (s < best) {
				best = s;
				bi = c;
			}
		}
		label[p] = bi;
	}
}

int main(int argc, char **argv)
{
	int np = argc > 1 ? atoi(argv[1]) : 100000;
	int nc = argc > 2 ? atoi(argv[2]) : 32;
	int d = argc > 3 ? atoi(argv[3]) : 16;
	float *pts = malloc(sizeof(float) * np * d), *ctr = malloc(sizeof(float) * nc * d);
	int *label = malloc(sizeof(int) * np);
	srand(1);
	for (int i = 0; i < np * d; i++)
		pts[i] = rand() / (float)RAND_MAX;
	for (int i = 0; i < nc * d; i++)
		ctr[i] = rand() / (float)RAND_MAX;
	assign(np, nc, d, pts, ctr, label);
	long s = 0;
	for (int i = 0; i < np; i++)
		s += label[i];
	printf("%ld\n", s);
	return 0;
}
