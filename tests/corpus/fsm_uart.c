/* Models an embedded UART frame receiver: a byte-driven state machine with a CRC-8 check, WCET-annotated. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdint.h>
#include <stddef.h>

#define SOF 0x7E
#define ESC 0x7D
#define MAX_PAYLOAD 32
#define CRC8_POLY 0x07

enum rx_state { RX_IDLE, RX_LEN, RX_DATA, RX_ESC, RX_CRC, RX_DONE, RX_ERROR };

struct rx_ctx {
	enum rx_state state;
	uint8_t len;
	uint8_t pos;
	uint8_t crc;
	uint8_t payload[MAX_PAYLOAD];
	unsigned frames;
	unsigned errors;
};

static uint8_t crc8_update(uint8_t crc, uint8_t byte)
{
	int b;

	crc ^= byte;
	for (b = 0; b < 8; b++) {
		if (crc & 0x80)
			crc = (uint8_t)((crc << 1) ^ CRC8_POLY);
		else
			crc = (uint8_t)(crc << 1);
	}
	return crc;
}

void rx_reset(struct rx_ctx *rx)
{
	int i;

	rx->state = RX_IDLE;
	rx->len = rx->pos = rx->crc = 0;
	for (i = 0; i < MAX_PAYLOAD; i++)
		rx->payload[i] = 0;
}

static void rx_store(struct rx_ctx *rx, uint8_t c)
{
	rx->payload[rx->pos++] = c;
	rx->crc = crc8_update(rx->crc, c);
	if (rx->pos == rx->len)
		rx->state = RX_CRC;
}

/* Feeds LEN received bytes; returns the number of complete frames. */
int rx_feed(struct rx_ctx *rx, const uint8_t *buf, size_t len)
{
	size_t i = 0;
	int done = 0;

	_Pragma("loopbound min 0 max 64")
	while (i < len) {
		uint8_t c = buf[i++];

		switch (rx->state) {
		case RX_IDLE:
			if (c == SOF)
				rx->state = RX_LEN;
			break;
		case RX_LEN:
			if (c == 0 || c > MAX_PAYLOAD) {
				rx->state = RX_ERROR;
				break;
			}
			rx->len = c;
			rx->pos = 0;
			rx->crc = crc8_update(0, c);
			rx->state = RX_DATA;
			break;
		case RX_DATA:
			if (c == ESC)
				rx->state = RX_ESC;
			else if (c == SOF)
				rx->state = RX_ERROR;
			else
				rx_store(rx, c);
			break;
		case RX_ESC:
			rx->state = RX_DATA;
			rx_store(rx, (uint8_t)(c ^ 0x20));
			break;
		case RX_CRC:
			if (c == rx->crc) {
				rx->frames++;
				done++;
				rx->state = RX_DONE;
			} else {
				rx->state = RX_ERROR;
			}
			break;
		case RX_DONE:
			rx->state = c == SOF ? RX_LEN : RX_IDLE;
			break;
		case RX_ERROR:
		default:
			rx->errors++;
			rx->state = c == SOF ? RX_LEN : RX_IDLE;
			break;
		}
	}
	return done;
}

/* Builds a frame for PAYLOAD into OUT (at most 2*n + 4 bytes). */
size_t tx_frame(uint8_t *out, const uint8_t *payload, uint8_t n)
{
	size_t o = 0;
	uint8_t crc, i;

	out[o++] = SOF;
	out[o++] = n;
	crc = crc8_update(0, n);
	for (i = 0; i < n; i++) {
		uint8_t c = payload[i];

		crc = crc8_update(crc, c);
		if (c == SOF || c == ESC) {
			out[o++] = ESC;
			out[o++] = (uint8_t)(c ^ 0x20);
		} else {
			out[o++] = c;
		}
	}
	out[o++] = crc;
	return o;
}

/* Counts the SOF bytes of a capture, skipping escaped ones. */
unsigned count_sof(const uint8_t *buf, unsigned n)
{
	unsigned i, k = 0;

	for (i = 0; i < n; i++) {
		if (buf[i] == ESC) {
			i++;
			continue;
		}
		if (buf[i] == SOF)
			k++;
	}
	return k;
}

/* Waits for the line to go idle: polls a status byte the ISR updates. */
int wait_idle(volatile const uint8_t *status, int budget)
{
	int spins = 0;

	_Pragma("loopbound min 1 max 100")
	do {
		spins++;
		if (spins > budget)
			return -1;
	} while (*status & 0x01);
	return spins;
}
