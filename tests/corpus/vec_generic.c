/* Models a header-only generic vector library (stb/klib style): names made by token pasting, FOREACH and do-while(0) macros. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define VEC(f) vec_int_##f
#define FOREACH(i, n) for ((i) = 0; (i) < (n); (i)++)
#define FOREACH_REV(i, n) for ((i) = (n) - 1; (i) >= 0; (i)--)
#define SWAP(T, a, b) do { T swap_tmp_ = (a); (a) = (b); (b) = swap_tmp_; } while (0)
#define CHECK(cond, ret) do { if (!(cond)) return (ret); } while (0)
#define VEC_MIN_CAP 8

typedef struct {
	int *data;
	int len;
	int cap;
} vec_int;

int VEC(init)(vec_int *v, int cap)
{
	if (cap < VEC_MIN_CAP)
		cap = VEC_MIN_CAP;
	v->data = malloc((size_t)cap * sizeof *v->data);
	CHECK(v->data != NULL, -1);
	v->len = 0;
	v->cap = cap;
	return 0;
}

void VEC(free)(vec_int *v)
{
	free(v->data);
	v->data = NULL;
	v->len = v->cap = 0;
}

int VEC(reserve)(vec_int *v, int want)
{
	int ncap = v->cap;
	int *nd;

	while (ncap < want)
		ncap *= 2;
	if (ncap == v->cap)
		return 0;
	nd = realloc(v->data, (size_t)ncap * sizeof *nd);
	CHECK(nd != NULL, -1);
	v->data = nd;
	v->cap = ncap;
	return 0;
}

int VEC(push)(vec_int *v, int x)
{
	CHECK(VEC(reserve)(v, v->len + 1) == 0, -1);
	v->data[v->len++] = x;
	return 0;
}

int VEC(pop)(vec_int *v, int *out)
{
	CHECK(v->len > 0, -1);
	*out = v->data[--v->len];
	return 0;
}

long VEC(sum)(const vec_int *v)
{
	long s = 0;
	int i;

	FOREACH(i, v->len)
		s += v->data[i];
	return s;
}

int VEC(max)(const vec_int *v)
{
	int i, m = v->data[0];

	FOREACH(i, v->len)
		if (v->data[i] > m)
			m = v->data[i];
	return m;
}

int VEC(find)(const vec_int *v, int x)
{
	int i;

	FOREACH(i, v->len) {
		if (v->data[i] == x)
			return i;
	}
	return -1;
}

void VEC(reverse)(vec_int *v)
{
	int i, j;

	for (i = 0, j = v->len - 1; i < j; i++, j--)
		SWAP(int, v->data[i], v->data[j]);
}

int VEC(insert)(vec_int *v, int at, int x)
{
	int i;

	CHECK(at >= 0 && at <= v->len, -1);
	CHECK(VEC(reserve)(v, v->len + 1) == 0, -1);
	for (i = v->len; i > at; i--)
		v->data[i] = v->data[i - 1];
	v->data[at] = x;
	v->len++;
	return 0;
}

int VEC(remove)(vec_int *v, int at)
{
	int i;

	CHECK(at >= 0 && at < v->len, -1);
	for (i = at; i < v->len - 1; i++)
		v->data[i] = v->data[i + 1];
	v->len--;
	return 0;
}

void VEC(scale)(vec_int *v, int k)
{
	int i;

	FOREACH_REV(i, v->len)
		v->data[i] *= k;
}

int VEC(equal)(const vec_int *a, const vec_int *b)
{
	int i;

	CHECK(a->len == b->len, 0);
	FOREACH(i, a->len)
		CHECK(a->data[i] == b->data[i], 0);
	return 1;
}

void VEC(copy)(vec_int *dst, const vec_int *src)
{
	if (VEC(reserve)(dst, src->len) == 0) {
		memcpy(dst->data, src->data, (size_t)src->len * sizeof *src->data);
		dst->len = src->len;
	}
}

void VEC(sort)(vec_int *v)
{
	int i, j;

	FOREACH(i, v->len)
		for (j = i + 1; j < v->len; j++)
			if (v->data[j] < v->data[i])
				SWAP(int, v->data[i], v->data[j]);
}

long VEC(dot)(const vec_int *a, const vec_int *b)
{
	long s = 0;
	int i, n = a->len < b->len ? a->len : b->len;

	FOREACH(i, n)
		s += (long)a->data[i] * b->data[i];
	return s;
}
