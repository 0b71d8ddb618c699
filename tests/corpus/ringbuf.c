/* Models a lock-free single-producer ring buffer and message mailbox as found in MCU driver layers. */
#include <stdint.h>
#include <string.h>

#define RB_SIZE 16
#define RB_MASK (RB_SIZE - 1)
#define RB_NEXT(i) (((i) + 1) & RB_MASK)
#define RB_EMPTY(rb) ((rb)->head == (rb)->tail)
#define RB_FULL(rb) (RB_NEXT((rb)->head) == (rb)->tail)
#define RB_FOR(i, rb) for ((i) = (rb)->tail; (i) != (rb)->head; (i) = RB_NEXT(i))
#define ASSERT_OR(cond, what) do { if (!(cond)) { rb_fault(what); return -1; } } while (0)

struct ringbuf {
	volatile unsigned head;
	volatile unsigned tail;
	uint8_t buf[RB_SIZE];
	unsigned drops;
};

static unsigned fault_count;
static const char *last_fault;

static void rb_fault(const char *what)
{
	fault_count++;
	last_fault = what;
}

void rb_init(struct ringbuf *rb)
{
	unsigned i;

	rb->head = rb->tail = 0;
	rb->drops = 0;
	i = 0;
	for (; i < 16; i++)
		rb->buf[i] = 0;
}

int rb_put(struct ringbuf *rb, uint8_t c)
{
	if (RB_FULL(rb)) {
		rb->drops++;
		return -1;
	}
	rb->buf[rb->head] = c;
	rb->head = RB_NEXT(rb->head);
	return 0;
}

int rb_get(struct ringbuf *rb, uint8_t *c)
{
	ASSERT_OR(c != NULL, "rb_get: null");
	if (RB_EMPTY(rb))
		return -1;
	*c = rb->buf[rb->tail];
	rb->tail = RB_NEXT(rb->tail);
	return 0;
}

/* Number of bytes waiting, by walking the buffer. */
unsigned rb_count(const struct ringbuf *rb)
{
	unsigned i, n = 0;

	RB_FOR(i, rb)
		n++;
	return n;
}

/* Copies up to MAX bytes out; returns how many. */
int rb_read(struct ringbuf *rb, uint8_t *dst, int max)
{
	int n = 0;

	ASSERT_OR(dst != NULL, "rb_read: null");
	while (n < max && !RB_EMPTY(rb)) {
		dst[n++] = rb->buf[rb->tail];
		rb->tail = RB_NEXT(rb->tail);
	}
	return n;
}

int rb_write(struct ringbuf *rb, const uint8_t *src, int len)
{
	int i;

	ASSERT_OR(src != NULL, "rb_write: null");
	for (i = 0; i < len; i++)
		if (rb_put(rb, src[i]) < 0)
			return i;
	return len;
}

/* Discards everything up to and including the next newline. */
void rb_skip_line(struct ringbuf *rb)
{
	while (!RB_EMPTY(rb)) {
		uint8_t c = rb->buf[rb->tail];

		rb->tail = RB_NEXT(rb->tail);
		if (c == '\n')
			break;
	}
}

/* Mailbox: fixed slots of fixed-size messages. */
#define SLOTS 8
#define MSG_LEN 12

struct mailbox {
	char msg[SLOTS][MSG_LEN];
	uint8_t used[SLOTS];
};

int mb_post(struct mailbox *mb, const char *text)
{
	int s, k;

	for (s = 0; s < SLOTS; s++)
		if (!mb->used[s])
			break;
	if (s == SLOTS)
		return -1;
	for (k = 0; k < MSG_LEN - 1 && text[k]; k++)
		mb->msg[s][k] = text[k];
	mb->msg[s][k] = '\0';
	mb->used[s] = 1;
	return s;
}

void mb_clear(struct mailbox *mb)
{
	memset(mb->msg, 0, sizeof mb->msg);
	memset(mb->used, 0, sizeof mb->used);
}

int mb_pending(const struct mailbox *mb)
{
	int s, n = 0;

	for (s = SLOTS - 1; s >= 0; s--)
		n += mb->used[s];
	return n;
}

unsigned rb_faults(void)
{
	return last_fault ? fault_count : 0;
}
