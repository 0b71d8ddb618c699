/* Models the corner cases a loop-bound analysis must survive: moving bounds, goto loops, float counters, recursion, function pointers. */
#include <stddef.h>

/* The bound shrinks inside the loop (compaction of a work list). */
int compact(int *a, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (a[i] < 0) {
			a[i] = a[n - 1];
			n--;
			i--;
		}
	}
	return n;
}

/* The bound grows inside the loop (worklist that enqueues children). */
int bfs_count(const int *child, int *queue, int root, int cap)
{
	int head = 0, tail = 0;

	queue[tail++] = root;
	while (head < tail) {
		int v = queue[head++];

		if (child[v] >= 0 && tail < cap)
			queue[tail++] = child[v];
	}
	return tail;
}

/* A hand-written loop with goto, as produced by code generators. */
int goto_sum(const int *a, int n)
{
	int i = 0, s = 0;

top:
	if (i >= n)
		goto out;
	s += a[i];
	i++;
	goto top;
out:
	return s;
}

/* A float loop variable: ten-ish iterations, depending on rounding. */
float float_ramp(float *out)
{
	float acc = 0.0f;
	int k = 0;

	for (float x = 0; x < 1.0f; x += 0.1f) {
		out[k++] = x;
		acc += x * x;
	}
	return acc;
}

double integrate(double (*f)(double), double a, double b, int steps)
{
	double h = (b - a) / steps, s = 0.5 * (f(a) + f(b));
	int i;

	for (i = 1; i < steps; i++)
		s += f(a + i * h);
	return s * h;
}

static double square(double x) { return x * x; }
static double cube(double x) { return x * x * x; }

typedef int (*op_fn)(int, int);
static int op_add(int a, int b) { return a + b; }
static int op_sub(int a, int b) { return a - b; }
static int op_mul(int a, int b) { return a * b; }
static const op_fn ops[3] = { op_add, op_sub, op_mul };

/* Applies the operator table to a stream of (op, value) pairs. */
int run_ops(const unsigned char *code, const int *vals, int n)
{
	int i, acc = 0;

	for (i = 0; i < n; i++)
		acc = ops[code[i] % 3](acc, vals[i]);
	return acc;
}

double integrate_both(int steps)
{
	return integrate(square, 0.0, 1.0, steps) + integrate(cube, 0.0, 1.0, steps);
}

/* Recursion: factorial, Fibonacci and a recursive array sum. */
unsigned long fact(unsigned n)
{
	return n <= 1 ? 1 : n * fact(n - 1);
}

unsigned fib(unsigned n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

long rsum(const int *a, int n)
{
	if (n == 0)
		return 0;
	return a[n - 1] + rsum(a, n - 1);
}

/* Collatz steps: no closed-form trip count at all. */
int collatz(unsigned long x)
{
	int steps = 0;

	while (x != 1) {
		x = (x & 1) ? 3 * x + 1 : x / 2;
		steps++;
	}
	return steps;
}

/* Nested loop whose inner bound is modified by the inner body. */
int shrink_inner(int *a, int n)
{
	int i, j, m, total = 0;

	for (i = 0; i < n; i++) {
		m = a[i];
		for (j = 0; j < m; j++) {
			if (a[j] == 0)
				m = j;
			total++;
		}
	}
	return total;
}

/* An infinite server loop left by return only. */
int poll_until(volatile int *flag, int limit)
{
	int spins = 0;

	for (;;) {
		if (*flag || spins == limit)
			return spins;
		spins++;
	}
}
