/* Models a fixed-point signal-processing kernel set (radix-2 FFT, CORDIC, Newton square root) with WCET loop bounds. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdint.h>

#define N 64
#define LOG2N 6
#define CORDIC_ITERS 16
#define Q 14

typedef struct {
	int32_t re, im;
} cplx;

static const int32_t cordic_atan[CORDIC_ITERS] = {
	12867, 7596, 4013, 2037, 1022, 511, 256, 128,
	64, 32, 16, 8, 4, 2, 1, 0,
};

static unsigned bit_reverse(unsigned x, int bits)
{
	unsigned r = 0;
	int b;

	for (b = 0; b < bits; b++) {
		r = (r << 1) | (x & 1u);
		x >>= 1;
	}
	return r;
}

void fft_permute(cplx *x)
{
	unsigned i, j;
	cplx t;

	for (i = 0; i < N; i++) {
		j = bit_reverse(i, LOG2N);
		if (j > i) {
			t = x[i];
			x[i] = x[j];
			x[j] = t;
		}
	}
}

/* In-place radix-2 decimation-in-time butterflies; tw holds N/2 twiddles in Q14. */
void fft_butterflies(cplx *x, const cplx *tw)
{
	int half, start, k, step;

	for (half = 1; half < N; half <<= 1) {
		step = N / (2 * half);
		for (start = 0; start < N; start += 2 * half) {
			for (k = 0; k < half; k++) {
				cplx w = tw[k * step];
				cplx *a = &x[start + k], *b = &x[start + k + half];
				int32_t tr = (b->re * w.re - b->im * w.im) >> Q;
				int32_t ti = (b->re * w.im + b->im * w.re) >> Q;

				b->re = a->re - tr;
				b->im = a->im - ti;
				a->re += tr;
				a->im += ti;
			}
		}
	}
}

/* Rotates (x, y) by angle z (Q14 radians); returns cos in *c and sin in *s. */
void cordic_rotate(int32_t z, int32_t *c, int32_t *s)
{
	int32_t x = 9949, y = 0, t;
	int i;

	for (i = 0; i < CORDIC_ITERS; i++) {
		if (z >= 0) {
			t = x - (y >> i);
			y = y + (x >> i);
			z -= cordic_atan[i];
		} else {
			t = x + (y >> i);
			y = y - (x >> i);
			z += cordic_atan[i];
		}
		x = t;
	}
	*c = x;
	*s = y;
}

/* Newton's method square root of a Q14 value. */
int32_t sqrt_q14(int32_t v)
{
	int32_t x = v > (1 << Q) ? v : 1 << Q, prev;

	if (v <= 0)
		return 0;
	_Pragma("loopbound min 1 max 12")
	do {
		prev = x;
		x = (x + (int32_t)(((int64_t)v << Q) / x)) / 2;
	} while (x != prev && x + 1 != prev);
	return x;
}

/* Magnitude spectrum, with the largest bin. */
int magnitudes(const cplx *x, int32_t *mag)
{
	int i, best = 0;

	for (i = 0; i < N / 2; i++) {
		int64_t p = (int64_t)x[i].re * x[i].re + (int64_t)x[i].im * x[i].im;

		mag[i] = sqrt_q14((int32_t)(p >> Q));
		if (mag[i] > mag[best])
			best = i;
	}
	return best;
}

/* Scales a block down until no sample exceeds the headroom. */
int block_normalize(int32_t *v, int n, int32_t limit)
{
	int shift = 0, i;
	int32_t peak = 0;

	for (i = 0; i < n; i++)
		if ((v[i] < 0 ? -v[i] : v[i]) > peak)
			peak = v[i] < 0 ? -v[i] : v[i];
	_Pragma("loopbound min 0 max 31")
	while (peak > limit) {
		peak >>= 1;
		shift++;
	}
	for (i = 0; i < n; i++)
		v[i] >>= shift;
	return shift;
}
