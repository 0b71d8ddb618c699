/* Loops whose trip counts are known, for epi trips' end-to-end test
 * (tests/trips.sh): ./trips_loops N [STATUS] runs them with n = N and exits
 * with STATUS.  The line numbers are the test's: append, do not insert. */
#include <stdio.h>
#include <stdlib.h>

struct node {
	struct node *next;
	int v;
};

static int list_len(const struct node *p)
{
	int k = 0;
	while (p) {
		k++;
		p = p->next;
	}
	return k;
}

static int search(const int *a, int n, int x)
{
	int i;
	for (i = 0; i < n; i++) {
		if (a[i] == x)
			break;
	}
	return i;
}

static long nested(int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			s += j;
	return s;
}

static int walk(int len)
{
	int s = 0;
	for (int i = 0; i < len; i++) {
		s += i;
	}
	return s;
}

static int digits(unsigned v)
{
	int d = 0;
	do {
		d++;
		v /= 10;
	} while (v);
	return d;
}

static int skip_odd(int n)
{
	int s = 0, i = 0;
	while (i < n) {
		i++;
		if (i & 1)
			continue;
		s += i;
	}
	return s;
}

static int first_neg(const int *a, int n)
{
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < 3; j++) {
			if (a[i] + j < 0)
				return i;
		}
	}
	return -1;
}

static int forever(int n)
{
	int k = 0;
	for (;;) {
		k++;
		if (k >= n)
			break;
	}
	return k;
}

static int find_inline(const int *a, int n, int x)
{
	int i;
	for (i = 0; i < n; i++)
		if (a[i] == x) break;
	return i;
}

static int gotos(int n)
{
	int i = 0;
	while (1) {
		int x = i * 2;
		if (x > n)
			goto out;
		i++;
	}
out:
	return i;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	struct node *head = NULL;
	for (int i = 0; i < 7; i++) {
		struct node *q = malloc(sizeof *q);
		q->next = head;
		q->v = i;
		head = q;
	}
	int a[20];
	for (int i = 0; i < 20; i++)
		a[i] = i;
	a[15] = -5;
	long t = list_len(head) + search(a, 20, 12) + nested(n);
	t += walk(3) + walk(5) + walk(10);
	t += digits(12345) + skip_odd(10) + first_neg(a, 20) + forever(6) + gotos(9);
	t += find_inline(a, 20, 4);
	long tri = 0;
	int k = 0;
	while (k < n * (n - 1) / 2) {
		k++;
		tri++;
	}
	for (int i = 0; i < 3; i++) tri++;
	if (argc > 100) {
		while (n > 0) {
			n--;
		}
	}
	printf("%ld %ld\n", t, tri);
	while (head) {
		struct node *nx = head->next;
		free(head);
		head = nx;
	}
	/* empty bodies: no line of their own to count */
	int e;
	for (e = 0; e < n + 2; e++)
		;
	for (int r = 0; r < 3; r++)
		for (e = 0; e < n; e++) {
		}
	return argc > 2 ? atoi(argv[2]) : 0;
}
