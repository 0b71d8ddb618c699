/* Models a bare-metal control task: ADC polling, median filtering, PID, button debouncing, with WCET annotations. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdint.h>

#define ADC_READY 0x80u
#define MEDIAN_N 9
#define NBUTTONS 4
#define DEBOUNCE_TICKS 5
#define SAMPLES 8

static volatile uint8_t adc_status;
static volatile uint16_t adc_data;

enum btn_state { B_UP, B_FALLING, B_DOWN, B_RISING };

struct button {
	enum btn_state st;
	uint8_t ticks;
	uint8_t presses;
};

struct pid {
	int32_t kp, ki, kd;
	int32_t integ, prev_err;
	int32_t out_min, out_max;
};

static void delay_cycles(uint32_t n)
{
	do {
		__asm__ volatile("" ::: "memory");
	} while (--n);
}

uint16_t adc_read_blocking(void)
{
	_Pragma("loopbound min 1 max 50")
	while (!(adc_status & ADC_READY))
		delay_cycles(10);
	adc_status = 0;
	return adc_data;
}

uint16_t median9(uint16_t *v)
{
	int i, j;
	uint16_t key;

	for (i = 1; i < MEDIAN_N; i++) {
		key = v[i];
		j = i - 1;
		_Pragma("loopbound min 0 max 8")
		while (j >= 0 && v[j] > key) {
			v[j + 1] = v[j];
			j--;
		}
		v[j + 1] = key;
	}
	return v[MEDIAN_N / 2];
}

uint16_t sample_filtered(void)
{
	uint16_t buf[MEDIAN_N];
	int i;

	for (i = 0; i < MEDIAN_N; i++)
		buf[i] = adc_read_blocking();
	return median9(buf);
}

int32_t pid_step(struct pid *c, int32_t setpoint, int32_t measured)
{
	int32_t err = setpoint - measured, out;

	c->integ += err;
	if (c->integ > 10000)
		c->integ = 10000;
	else if (c->integ < -10000)
		c->integ = -10000;
	out = (c->kp * err + c->ki * c->integ + c->kd * (err - c->prev_err)) >> 8;
	c->prev_err = err;
	if (out > c->out_max)
		out = c->out_max;
	if (out < c->out_min)
		out = c->out_min;
	return out;
}

/* One debounce tick per button; PINS has bit b set while button b is pressed. */
void buttons_tick(struct button *b, uint8_t pins)
{
	int i;

	for (i = 0; i < NBUTTONS; i++) {
		int pressed = (pins >> i) & 1;

		switch (b[i].st) {
		case B_UP:
			if (pressed) {
				b[i].st = B_FALLING;
				b[i].ticks = 0;
			}
			break;
		case B_FALLING:
			if (!pressed)
				b[i].st = B_UP;
			else if (++b[i].ticks >= DEBOUNCE_TICKS) {
				b[i].st = B_DOWN;
				b[i].presses++;
			}
			break;
		case B_DOWN:
			if (!pressed) {
				b[i].st = B_RISING;
				b[i].ticks = 0;
			}
			break;
		case B_RISING:
			if (pressed)
				b[i].st = B_DOWN;
			else if (++b[i].ticks >= DEBOUNCE_TICKS)
				b[i].st = B_UP;
			break;
		}
	}
}

/* The control task: SAMPLES filtered readings averaged, then one PID step. */
int32_t control_task(struct pid *c, int32_t setpoint)
{
	int32_t acc = 0;
	int s;

	for (s = 0; s < SAMPLES; s++)
		acc += sample_filtered();
	return pid_step(c, setpoint, acc / SAMPLES);
}

/* Waits for a settled reading: two consecutive samples within TOL. */
int wait_settled(int tol)
{
	int prev = adc_read_blocking(), cur, tries = 0;

	_Pragma("loopbound min 1 max 20")
	for (;;) {
		cur = adc_read_blocking();
		tries++;
		if ((cur > prev ? cur - prev : prev - cur) <= tol || tries == 20)
			break;
		prev = cur;
	}
	return tries;
}
