/* conv2d: a 3x3 float convolution of an h x w image, reps times.
 * Usage: ./conv2d [h [w [reps]]]; evals/styles.sh binds h, w and reps. */
#include <stdio.h>
#include <stdlib.h>

#define K 3
void conv(int h, int w, const float *in, const float *ker, float *out)
{
	for (int y = 0; y < h - K + 1; y++)
		for (int x = 0; x < w - K + 1; x++) {
			float s = 0;
			for (int ky = 0; ky < K; ky++)
				for (int kx = 0; kx < K; kx++)
					s += in[(y + ky) * w + x + kx] * ker[ky * K + kx];
			out[y * w + x] = s;
		}
}

int main(int argc, char **argv)
{
	int h = argc > 1 ? atoi(argv[1]) : 2000, w = argc > 2 ? atoi(argv[2]) : 2000;
	int reps = argc > 3 ? atoi(argv[3]) : 10;
	float *in = malloc(sizeof(float) * h * w), *out = calloc((size_t)h * w, sizeof(float));
	float ker[K * K];
	for (int i = 0; i < h * w; i++)
		in[i] = (i % 13) * 0.1f;
	for (int i = 0; i < K * K; i++)
		ker[i] = 1.0f / (i + 1);
	for (int r = 0; r < reps; r++)
		conv(h, w, in, ker, out);
	printf("%f\n", out[w + 1]);
	return 0;
}
