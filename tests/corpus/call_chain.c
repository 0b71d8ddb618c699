/* Models a deeply layered driver stack: a chain of 40 small functions, each calling the next, a few with loops. */
#include <stdint.h>

#define LAYERS 40
#define BURST 4

static uint32_t trace_buf[LAYERS];

static uint32_t layer39(uint32_t x)
{
	trace_buf[39] = x;
	return x ^ 0x5Au;
}

static uint32_t layer38(uint32_t x) { return (x & 1u) ? layer39(x >> 1) : layer39(x); }
static uint32_t layer37(uint32_t x) { return layer38(x * 3u) + 1u; }
static uint32_t layer36(uint32_t x)
{
	int k;

	for (k = 0; k < 3; k++)
		x = (x << 1) | (x >> 31);
	return layer37(x);
}

static uint32_t layer35(uint32_t x) { return (x & 1u) ? layer36(x >> 1) : layer36(x); }
static uint32_t layer34(uint32_t x) { return layer35(x * 3u) + 1u; }
static uint32_t layer33(uint32_t x) { return layer34(x + 33u); }
static uint32_t layer32(uint32_t x)
{
	uint32_t s = 0;
	int k;

	trace_buf[32] = x;
	for (k = 0; k < BURST; k++)
		s += layer33(x + (uint32_t)k);
	return s;
}

static uint32_t layer31(uint32_t x) { return layer32(x * 3u) + 1u; }
static uint32_t layer30(uint32_t x) { return layer31(x + 30u); }
static uint32_t layer29(uint32_t x) { return (x & 1u) ? layer30(x >> 1) : layer30(x); }
static uint32_t layer28(uint32_t x)
{
	int k;

	for (k = 0; k < 3; k++)
		x = (x << 1) | (x >> 31);
	return layer29(x);
}

static uint32_t layer27(uint32_t x) { return layer28(x + 27u); }
static uint32_t layer26(uint32_t x) { return (x & 1u) ? layer27(x >> 1) : layer27(x); }
static uint32_t layer25(uint32_t x) { return layer26(x * 3u) + 1u; }
static uint32_t layer24(uint32_t x)
{
	uint32_t s = 0;
	int k;

	trace_buf[24] = x;
	for (k = 0; k < BURST; k++)
		s += layer25(x + (uint32_t)k);
	return s;
}

static uint32_t layer23(uint32_t x) { return (x & 1u) ? layer24(x >> 1) : layer24(x); }
static uint32_t layer22(uint32_t x) { return layer23(x * 3u) + 1u; }
static uint32_t layer21(uint32_t x) { return layer22(x + 21u); }
static uint32_t layer20(uint32_t x)
{
	int k;

	for (k = 0; k < 3; k++)
		x = (x << 1) | (x >> 31);
	return layer21(x);
}

static uint32_t layer19(uint32_t x) { return layer20(x * 3u) + 1u; }
static uint32_t layer18(uint32_t x) { return layer19(x + 18u); }
static uint32_t layer17(uint32_t x) { return (x & 1u) ? layer18(x >> 1) : layer18(x); }
static uint32_t layer16(uint32_t x)
{
	uint32_t s = 0;
	int k;

	trace_buf[16] = x;
	for (k = 0; k < BURST; k++)
		s += layer17(x + (uint32_t)k);
	return s;
}

static uint32_t layer15(uint32_t x) { return layer16(x + 15u); }
static uint32_t layer14(uint32_t x) { return (x & 1u) ? layer15(x >> 1) : layer15(x); }
static uint32_t layer13(uint32_t x) { return layer14(x * 3u) + 1u; }
static uint32_t layer12(uint32_t x)
{
	int k;

	for (k = 0; k < 3; k++)
		x = (x << 1) | (x >> 31);
	return layer13(x);
}

static uint32_t layer11(uint32_t x) { return (x & 1u) ? layer12(x >> 1) : layer12(x); }
static uint32_t layer10(uint32_t x) { return layer11(x * 3u) + 1u; }
static uint32_t layer9(uint32_t x) { return layer10(x + 9u); }
static uint32_t layer8(uint32_t x)
{
	uint32_t s = 0;
	int k;

	trace_buf[8] = x;
	for (k = 0; k < BURST; k++)
		s += layer9(x + (uint32_t)k);
	return s;
}

static uint32_t layer7(uint32_t x) { return layer8(x * 3u) + 1u; }
static uint32_t layer6(uint32_t x) { return layer7(x + 6u); }
static uint32_t layer5(uint32_t x) { return (x & 1u) ? layer6(x >> 1) : layer6(x); }
static uint32_t layer4(uint32_t x)
{
	int k;

	for (k = 0; k < 3; k++)
		x = (x << 1) | (x >> 31);
	return layer5(x);
}

static uint32_t layer3(uint32_t x) { return layer4(x + 3u); }
static uint32_t layer2(uint32_t x) { return (x & 1u) ? layer3(x >> 1) : layer3(x); }
static uint32_t layer1(uint32_t x) { return layer2(x * 3u) + 1u; }
uint32_t layer0(uint32_t x)
{
	uint32_t s = 0;
	int k;

	trace_buf[0] = x;
	for (k = 0; k < BURST; k++)
		s += layer1(x + (uint32_t)k);
	return s;
}


uint32_t stack_trace_sum(void)
{
	uint32_t s = 0;
	int i;

	for (i = 0; i < LAYERS; i++)
		s += trace_buf[i];
	return s;
}
