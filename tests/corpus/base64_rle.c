/* Models a telemetry encoder: base64 encode/decode and run-length compression of sensor frames, with WCET bounds. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stddef.h>
#include <stdint.h>

#define FRAME 48
#define MAX_RUN 127

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int b64_value(char c)
{
	int i;

	for (i = 0; i < 64; i++)
		if (b64[i] == c)
			return i;
	return -1;
}

size_t base64_encode(const uint8_t *in, size_t n, char *out)
{
	size_t i, o = 0;

	for (i = 0; i + 3 <= n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];

		out[o++] = b64[(v >> 18) & 63];
		out[o++] = b64[(v >> 12) & 63];
		out[o++] = b64[(v >> 6) & 63];
		out[o++] = b64[v & 63];
	}
	if (n - i == 1) {
		out[o++] = b64[in[i] >> 2];
		out[o++] = b64[(in[i] & 3) << 4];
		out[o++] = '=';
		out[o++] = '=';
	} else if (n - i == 2) {
		out[o++] = b64[in[i] >> 2];
		out[o++] = b64[((in[i] & 3) << 4) | (in[i + 1] >> 4)];
		out[o++] = b64[(in[i + 1] & 15) << 2];
		out[o++] = '=';
	}
	out[o] = '\0';
	return o;
}

/* Decodes groups of four characters; stops at '=' or a bad character. */
int base64_decode(const char *in, size_t n, uint8_t *out)
{
	size_t i;
	int o = 0, k;

	for (i = 0; i + 4 <= n; i += 4) {
		uint32_t v = 0;
		int pad = 0;

		for (k = 0; k < 4; k++) {
			int d = in[i + k] == '=' ? 0 : b64_value(in[i + k]);

			if (d < 0)
				return -1;
			if (in[i + k] == '=')
				pad++;
			v = v << 6 | (uint32_t)d;
		}
		out[o++] = (uint8_t)(v >> 16);
		if (pad < 2)
			out[o++] = (uint8_t)(v >> 8);
		if (pad < 1)
			out[o++] = (uint8_t)v;
		if (pad)
			break;
	}
	return o;
}

/* PackBits-style RLE: (count, byte) for runs, (-count, bytes...) for literals. */
int rle_encode(const uint8_t *in, int n, int8_t *out)
{
	int i = 0, o = 0;

	_Pragma("loopbound min 0 max 48")
	while (i < n) {
		int run = 1;

		_Pragma("loopbound min 0 max 47")
		while (i + run < n && in[i + run] == in[i] && run < MAX_RUN)
			run++;
		if (run >= 3) {
			out[o++] = (int8_t)run;
			out[o++] = (int8_t)in[i];
			i += run;
		} else {
			int lit = 0, start = o++;

			_Pragma("loopbound min 1 max 48")
			while (i < n && lit < MAX_RUN &&
			       !(i + 2 < n && in[i] == in[i + 1] && in[i] == in[i + 2])) {
				out[o++] = (int8_t)in[i++];
				lit++;
			}
			out[start] = (int8_t)-lit;
		}
	}
	return o;
}

int rle_decode(const int8_t *in, int n, uint8_t *out, int cap)
{
	int i = 0, o = 0, k;

	_Pragma("loopbound min 0 max 48")
	while (i < n) {
		int c = in[i++];

		if (c > 0) {
			for (k = 0; k < c && o < cap; k++)
				out[o++] = (uint8_t)in[i];
			i++;
		} else {
			for (k = 0; k < -c && o < cap; k++)
				out[o++] = (uint8_t)in[i++];
		}
	}
	return o;
}

/* Delta-encodes a frame in place, last sample first. */
void delta_encode(int16_t frame[FRAME])
{
	int i;

	for (i = FRAME - 1; i > 0; i--)
		frame[i] = (int16_t)(frame[i] - frame[i - 1]);
}

void delta_decode(int16_t frame[FRAME])
{
	int i;

	for (i = 1; i < FRAME; i++)
		frame[i] = (int16_t)(frame[i] + frame[i - 1]);
}
