/* Models macro-instantiated "template" containers (one macro defines a whole typed stack API), as in klib or the BSD queue/tree headers. */
#include <stddef.h>
#include <stdlib.h>

#define STACK_CAP 32

#define DEFINE_STACK(T, NAME)                                                   \
	typedef struct {                                                        \
		T items[STACK_CAP];                                             \
		int top;                                                        \
	} NAME##_stack;                                                         \
                                                                                \
	static inline void NAME##_clear(NAME##_stack *s)                        \
	{                                                                       \
		int i;                                                          \
		for (i = 0; i < STACK_CAP; i++)                                 \
			s->items[i] = (T)0;                                     \
		s->top = 0;                                                     \
	}                                                                       \
                                                                                \
	static inline int NAME##_push(NAME##_stack *s, T x)                     \
	{                                                                       \
		if (s->top == STACK_CAP)                                        \
			return -1;                                              \
		s->items[s->top++] = x;                                         \
		return 0;                                                       \
	}                                                                       \
                                                                                \
	static inline T NAME##_sum(const NAME##_stack *s)                       \
	{                                                                       \
		T acc = (T)0;                                                   \
		int i;                                                          \
		for (i = 0; i < s->top; i++)                                    \
			acc += s->items[i];                                     \
		return acc;                                                     \
	}                                                                       \
                                                                                \
	static inline int NAME##_drain(NAME##_stack *s)                         \
	{                                                                       \
		int n = 0;                                                      \
		while (s->top > 0) {                                            \
			s->top--;                                               \
			n++;                                                    \
		}                                                               \
		return n;                                                       \
	}

DEFINE_STACK(int, ints)
DEFINE_STACK(double, reals)

#define LIST_FOREACH(var, head) for ((var) = (head); (var) != NULL; (var) = (var)->next)
#define LIST_PUSH(head, node) do { (node)->next = (head); (head) = (node); } while (0)
#define REPEAT(n) for (int rep_ = 0; rep_ < (n); rep_++)

struct item {
	struct item *next;
	int weight;
};

struct bag {
	struct item *first;
	int n;
	int cap;
};

int bag_weight(const struct bag *b)
{
	const struct item *it;
	int w = 0;

	LIST_FOREACH(it, b->first)
		w += it->weight;
	return w;
}

void bag_add(struct bag *b, struct item *it)
{
	LIST_PUSH(b->first, it);
	b->n++;
}

/* Fills an int stack from a bag, then sums it. */
int bag_to_stack(const struct bag *b, ints_stack *s)
{
	const struct item *it;

	ints_clear(s);
	LIST_FOREACH(it, b->first)
		if (ints_push(s, it->weight) < 0)
			break;
	return ints_sum(s);
}

double average_of(const double *v, int n)
{
	reals_stack s;
	double avg;
	int i;

	reals_clear(&s);
	for (i = 0; i < n && i < STACK_CAP; i++)
		reals_push(&s, v[i]);
	if (n <= 0)
		return 0.0;
	avg = reals_sum(&s) / (n < STACK_CAP ? n : STACK_CAP);
	reals_drain(&s);
	return avg;
}

/* Pushes and drains b->cap times, as a stress pattern. */
int churn(struct bag *b, ints_stack *s)
{
	int total = 0;

	REPEAT(b->cap) {
		int k;

		for (k = 0; k < 4; k++)
			ints_push(s, k);
		total += ints_drain(s);
	}
	return total;
}
