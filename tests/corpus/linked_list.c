/* Models an intrusive singly linked list module from an RTOS timer queue, with WCET loop bounds. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stddef.h>

#define MAX_TIMERS 16

struct timer {
	struct timer *next;
	unsigned expires;
	int id;
	void (*fire)(int id);
};

struct timer_queue {
	struct timer *head;
	int count;
};

static struct timer pool[MAX_TIMERS];

void tq_init(struct timer_queue *q)
{
	int i;

	q->head = NULL;
	q->count = 0;
	for (i = 0; i < MAX_TIMERS; i++) {
		pool[i].next = NULL;
		pool[i].id = -1;
	}
}

int tq_length(const struct timer_queue *q)
{
	const struct timer *p;
	int n = 0;

	_Pragma("loopbound min 0 max 16")
	for (p = q->head; p; p = p->next)
		n++;
	return n;
}

/* Inserts T keeping the queue sorted by expiry time. */
void tq_insert(struct timer_queue *q, struct timer *t)
{
	struct timer **pp = &q->head;

	_Pragma("loopbound min 0 max 16")
	while (*pp && (*pp)->expires <= t->expires)
		pp = &(*pp)->next;
	t->next = *pp;
	*pp = t;
	q->count++;
}

struct timer *tq_find(struct timer_queue *q, int id)
{
	struct timer *p;

	_Pragma("loopbound min 0 max 16")
	for (p = q->head; p != NULL; p = p->next) {
		if (p->id == id)
			break;
	}
	return p;
}

int tq_remove(struct timer_queue *q, int id)
{
	struct timer *prev = NULL, *cur = q->head;

	while (cur != NULL) {
		if (cur->id == id) {
			if (prev)
				prev->next = cur->next;
			else
				q->head = cur->next;
			q->count--;
			return 1;
		}
		prev = cur;
		cur = cur->next;
	}
	return 0;
}

/* Fires every timer that expired at NOW; returns how many fired. */
int tq_expire(struct timer_queue *q, unsigned now)
{
	int fired = 0;

	_Pragma("loopbound min 0 max 16")
	while (q->head && q->head->expires <= now) {
		struct timer *t = q->head;

		q->head = t->next;
		q->count--;
		if (t->fire)
			t->fire(t->id);
		fired++;
	}
	return fired;
}

void tq_reverse(struct timer_queue *q)
{
	struct timer *prev = NULL, *cur = q->head, *next;

	while (cur) {
		next = cur->next;
		cur->next = prev;
		prev = cur;
		cur = next;
	}
	q->head = prev;
}

unsigned tq_checksum(const struct timer_queue *q)
{
	unsigned sum = 0;
	const struct timer *p = q->head;

	if (!p)
		return 0;
	do {
		sum = sum * 31u + p->expires;
		p = p->next;
	} while (p);
	return sum;
}

/* Moves every node of SRC to the tail of DST. */
void tq_splice(struct timer_queue *dst, struct timer_queue *src)
{
	struct timer **tail = &dst->head;

	while (*tail)
		tail = &(*tail)->next;
	*tail = src->head;
	dst->count += src->count;
	src->head = NULL;
	src->count = 0;
}
