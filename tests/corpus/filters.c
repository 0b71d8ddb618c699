/* Models an audio/sensor DSP library: FIR and biquad IIR filters, moving average, decimation and a delay line. */
#include <stdint.h>

#define TAPS 32
#define BLOCK 64
#define STAGES 4
#define DECIM 4

typedef struct {
	float coef[TAPS];
	float hist[TAPS];
} fir_t;

typedef struct {
	float b0, b1, b2, a1, a2;
	float z1, z2;
} biquad_t;

void fir_init(fir_t *f, const float *coef)
{
	int i;

	for (i = 0; i < TAPS; i++) {
		f->coef[i] = coef[i];
		f->hist[i] = 0.0f;
	}
}

/* Direct-form FIR, history shifted per sample (the classic WCET version). */
void fir_block(fir_t *f, const float *in, float *out, int n)
{
	int s, k;

	for (s = 0; s < n; s++) {
		float acc = 0.0f;

		for (k = TAPS - 1; k > 0; k--)
			f->hist[k] = f->hist[k - 1];
		f->hist[0] = in[s];
		for (k = 0; k < TAPS; k++)
			acc += f->coef[k] * f->hist[k];
		out[s] = acc;
	}
}

/* Fixed-point FIR over a circular buffer. */
int32_t fir_q15(const int16_t *coef, const int16_t *ring, int head)
{
	int32_t acc = 0;
	int k, idx = head;

	for (k = 0; k < TAPS; k++) {
		acc += (int32_t)coef[k] * ring[idx];
		idx = idx == 0 ? TAPS - 1 : idx - 1;
	}
	return acc >> 15;
}

/* Cascade of STAGES biquads (direct form II transposed). */
void iir_cascade(biquad_t st[STAGES], const float *in, float *out)
{
	int n, s;

	for (n = 0; n < BLOCK; n++) {
		float x = in[n];

		for (s = 0; s < STAGES; s++) {
			biquad_t *q = &st[s];
			float y = q->b0 * x + q->z1;

			q->z1 = q->b1 * x - q->a1 * y + q->z2;
			q->z2 = q->b2 * x - q->a2 * y;
			x = y;
		}
		out[n] = x;
	}
}

/* Running mean over a window of W samples; W <= n. */
void moving_average(const float *in, float *out, int n, int w)
{
	float sum = 0.0f;
	int i;

	for (i = 0; i < w; i++)
		sum += in[i];
	out[0] = sum / (float)w;
	for (i = w; i < n; i++) {
		sum += in[i] - in[i - w];
		out[i - w + 1] = sum / (float)w;
	}
}

/* Keeps every DECIM-th sample after a boxcar of DECIM. */
int decimate(const float *in, float *out, int n)
{
	int i, j, o = 0;

	for (i = 0; i + DECIM <= n; i += DECIM) {
		float acc = 0.0f;

		for (j = 0; j < DECIM; j++)
			acc += in[i + j];
		out[o++] = acc / DECIM;
	}
	return o;
}

/* Energy of a block, two samples per iteration. */
float block_energy(const float *x)
{
	float e0 = 0.0f, e1 = 0.0f;
	int i;

	for (i = 0; i < BLOCK; i += 2) {
		e0 += x[i] * x[i];
		e1 += x[i + 1] * x[i + 1];
	}
	return e0 + e1;
}

/* Autocorrelation for lags 0..maxlag. */
void autocorr(const float *x, int n, float *r, int maxlag)
{
	int lag, i;

	for (lag = 0; lag <= maxlag; lag++) {
		float s = 0.0f;

		for (i = lag; i < n; i++)
			s += x[i] * x[i - lag];
		r[lag] = s;
	}
}

/* Clamps to the int16 range and counts the clipped samples. */
int saturate_q15(const int32_t *in, int16_t *out, int n)
{
	int i, clipped = 0;

	for (i = 0; i < n; i++) {
		int32_t v = in[i];

		if (v > 32767) {
			v = 32767;
			clipped++;
		} else if (v < -32768) {
			v = -32768;
			clipped++;
		}
		out[i] = (int16_t)v;
	}
	return clipped;
}
