/* Models a bit-manipulation utility file (population count, bit reversal, parity, Gray code, bitmap allocator). */
#include <stdint.h>

#define N 64
#define WORDS 8

int popcount_loop(uint32_t x)
{
	int c = 0;

	while (x) {
		x &= x - 1;
		c++;
	}
	return c;
}

int popcount_naive(uint32_t x)
{
	int b, c = 0;

	for (b = 0; b < 32; b++)
		c += (x >> b) & 1u;
	return c;
}

uint8_t reverse_byte(uint8_t v)
{
	uint8_t r = 0;
	int b;

	for (b = 0; b < 8; b++) {
		r = (uint8_t)((r << 1) | (v & 1u));
		v >>= 1;
	}
	return r;
}

int parity64(uint64_t x)
{
	int k;

	for (k = 1; k < N; k <<= 1)
		x ^= x >> k;
	return (int)(x & 1u);
}

int log2_floor(uint32_t x)
{
	int r = -1;

	while (x) {
		x >>= 1;
		r++;
	}
	return r;
}

int clz32(uint32_t x)
{
	int n = 0;
	uint32_t mask = 0x80000000u;

	if (x == 0)
		return 32;
	while (!(x & mask)) {
		n++;
		mask >>= 1;
	}
	return n;
}

uint32_t gray_decode(uint32_t g)
{
	uint32_t mask;

	for (mask = g >> 1; mask != 0; mask >>= 1)
		g ^= mask;
	return g;
}

/* Bitmap allocator over WORDS 32-bit words. */
static uint32_t bitmap[WORDS];

int bm_alloc(void)
{
	int w, b;

	for (w = 0; w < WORDS; w++) {
		if (bitmap[w] == 0xFFFFFFFFu)
			continue;
		for (b = 0; b < 32; b++) {
			if (!(bitmap[w] & (1u << b))) {
				bitmap[w] |= 1u << b;
				return w * 32 + b;
			}
		}
	}
	return -1;
}

void bm_free(int slot)
{
	bitmap[slot / 32] &= ~(1u << (slot % 32));
}

int bm_used(void)
{
	int w, b, n = 0;

	for (w = 0; w < WORDS; w++)
		for (b = 0; b < 32; b++)
			n += (bitmap[w] >> b) & 1u;
	return n;
}

/* Interleaves the low 16 bits of x and y (Morton code). */
uint32_t morton2(uint16_t x, uint16_t y)
{
	uint32_t z = 0;
	int i;

	for (i = 0; i < 16; i++)
		z |= ((uint32_t)((x >> i) & 1u) << (2 * i)) | ((uint32_t)((y >> i) & 1u) << (2 * i + 1));
	return z;
}

/* Integer square root by bit-by-bit method. */
uint32_t isqrt(uint32_t n)
{
	uint32_t res = 0, bit = 1u << 30;

	while (bit > n)
		bit >>= 2;
	while (bit != 0) {
		if (n >= res + bit) {
			n -= res + bit;
			res = (res >> 1) + bit;
		} else {
			res >>= 1;
		}
		bit >>= 2;
	}
	return res;
}
