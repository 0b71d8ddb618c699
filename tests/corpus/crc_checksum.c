/* Models a firmware integrity module: CRC-16/CCITT, CRC-32 (bitwise and table), Adler-32 and Fletcher-16 over buffers. */
#include <stdint.h>
#include <stddef.h>

#define N 64
#define CRC32_POLY 0xEDB88320u
#define ADLER_MOD 65521u

static uint32_t crc32_table[256];

uint16_t crc16_ccitt(const uint8_t *buf, size_t len)
{
	uint16_t crc = 0xFFFF;
	int b;

	while (len--) {
		crc ^= (uint16_t)(*buf++ << 8);
		for (b = 0; b < 8; b++)
			crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
	}
	return crc;
}

uint32_t crc32_bitwise(const uint8_t *buf, size_t len)
{
	uint32_t crc = 0xFFFFFFFFu;
	size_t i;
	int b;

	for (i = 0; i < len; i++) {
		crc ^= buf[i];
		for (b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (CRC32_POLY & (0u - (crc & 1u)));
	}
	return ~crc;
}

void crc32_init_table(void)
{
	uint32_t i, c;
	int k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = (c & 1u) ? CRC32_POLY ^ (c >> 1) : c >> 1;
		crc32_table[i] = c;
	}
}

uint32_t crc32_table_update(uint32_t crc, const uint8_t *buf, size_t len)
{
	crc = ~crc;
	while (len--)
		crc = crc32_table[(crc ^ *buf++) & 0xFFu] ^ (crc >> 8);
	return ~crc;
}

uint32_t adler32(const uint8_t *buf, size_t len)
{
	uint32_t a = 1, b = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		a = (a + buf[i]) % ADLER_MOD;
		b = (b + a) % ADLER_MOD;
	}
	return (b << 16) | a;
}

uint16_t fletcher16(const uint8_t *data, int count)
{
	uint16_t s1 = 0, s2 = 0;
	int i;

	for (i = 0; i < count; ++i) {
		s1 = (uint16_t)((s1 + data[i]) % 255);
		s2 = (uint16_t)((s2 + s1) % 255);
	}
	return (uint16_t)((s2 << 8) | s1);
}

/* Sum of all power-of-two strides of a block, as a cheap self-test. */
uint32_t stride_sum(const uint8_t blk[N])
{
	uint32_t s = 0;
	int k;

	for (k = 1; k < N; k <<= 1)
		s += blk[k];
	return s;
}

/* XOR-folds a buffer of N words; the caller guarantees n > 0. */
uint32_t xor_fold(const uint32_t *w, unsigned n)
{
	uint32_t x = 0;

	do {
		x ^= *w++;
	} while (--n);
	return x;
}

/* 8-bit two's-complement checksum of an Intel HEX record. */
uint8_t ihex_checksum(const uint8_t *rec, unsigned n)
{
	uint8_t sum = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		sum = (uint8_t)(sum + rec[i]);
	return (uint8_t)(0x100 - sum);
}

/* Verifies a block against its trailing CRC-32, word by word. */
int verify_image(const uint8_t *img, size_t len)
{
	uint32_t want = 0, got;
	int i;

	if (len < 4)
		return 0;
	for (i = 3; i >= 0; i--)
		want = (want << 8) | img[len - 4 + (size_t)i];
	got = crc32_table_update(0, img, len - 4);
	return got == want;
}
