/* ops: names, classes and units of the counted operations. */
#include "model/ops.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[EPI_OP_COUNT] = {
	"add", "mul", "div", "cmp", "bit", "load", "store", "memcpy", "malloc", "print", "iter",
};

const char *epi_op_name(enum epi_op op)
{
	return (unsigned)op < EPI_OP_COUNT ? names[op] : "?";
}

int epi_op_class(const char *key)
{
	size_t n = strcspn(key, ".");
	for (int i = 0; i < EPI_OP_COUNT; i++)
		if (strlen(names[i]) == n && strncmp(names[i], key, n) == 0)
			return i;
	return -1;
}

int epi_op_elem_bytes(const char *key)
{
	const char *t = strrchr(key, '.');
	if (!t || strcmp(t, ".ptr") == 0)
		return 8;
	while (*t && !isdigit((unsigned char)*t))
		t++;
	int bits = atoi(t);
	return bits >= 8 && bits <= 1024 ? bits / 8 : 8;
}

const char *epi_op_loop_sum(const char *key, int *weight)
{
	int c = epi_op_class(key);
	*weight = 1;
	if (c == EPI_OP_ITER)
		return "iter";
	if (c == EPI_OP_LOAD || c == EPI_OP_STORE) {
		*weight = epi_op_elem_bytes(key);
		return c == EPI_OP_LOAD ? "load_bytes" : "store_bytes";
	}
	const char *dot = strchr(key, '.');
	if (dot && dot[1] == 'f' && (c == EPI_OP_ADD || c == EPI_OP_MUL || c == EPI_OP_DIV || c == EPI_OP_CMP))
		return "flops";
	return NULL;
}

int epi_op_counts_bytes(enum epi_op op)
{
	return op == EPI_OP_MEMCPY || op == EPI_OP_MALLOC;
}

static const char *const units[] = {"op", "B", "MiB"};

const char *epi_unit_name(enum epi_unit u) { return units[u]; }

int epi_unit_parse(const char *s)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(s, units[i]) == 0)
			return i;
	return -1;
}

double epi_unit_factor(enum epi_op op, enum epi_unit u)
{
	if (epi_op_counts_bytes(op))
		return u == EPI_UNIT_BYTE ? 1.0 : u == EPI_UNIT_MIB ? 1.0 / 1048576.0 : -1;
	return u == EPI_UNIT_OP ? 1.0 : -1;
}
