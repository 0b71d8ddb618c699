/* frame: unoptimised code's own loop, compiled without optimisation (-O0,
 * set in the Makefile), as a user's -O0 build runs it: a dot product down
 * the columns of a matrix, s += a[k] * b[k * m + j], every variable in a
 * stack slot, the inner loop of a matrix product. A unit is one iteration
 * of the loop along k.
 *
 * load.frame.col walks columns of a matrix whose rows are a page and a
 * line apart, as many rows as half the pages the second-level TLB maps
 * (measured, else cpuid), over EPI_FRAME_COLS columns: each access turns
 * a page that the first-level TLB does not hold and the second does, the
 * column's lines do not stay in L1, and every eighth column's come from
 * beyond L2 (the matrix's lines are far more than L2 holds). load.frame.row
 * runs the same code along a row (m = 1), in L1: its chain through the
 * stack slot s alone. What the column's time adds to the row's, per load
 * of an iteration (EPI_FRAME_LOADS), is what a -O0 chain waits for such
 * a walk per load of its iteration: loads that wait for their addresses
 * behind the chain hold the window while the column's line and page come.
 * The compiled-code model prices -O0 column walks with it.
 *
 * load.frame.elem runs load.frame.row's loop with its sum kept in an array
 * element instead of a stack slot, t[j * m + j] += a[k] * b[k * m + j]
 * (cholesky's A[i][j] -= A[i][k] * A[j][k]): the element's address is
 * computed anew in each iteration from the slots of j, m and t. What it
 * takes beyond load.frame.row is what such a chain waits for that address
 * (on some cores the load of the element that the iteration before stored
 * is issued only once that value is there, its address computed after;
 * others forward it as from a slot). */
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "machine/cpu.h"
#include "model/util.h"

/* a row: a page and a line */
#define ROW_BYTES (4096 + 64)
#define ROW_ELEMS (ROW_BYTES / (int)sizeof(double))

typedef struct frame_walk {
	int rows, m;
	double *a, *t; /* t: load.frame.elem's sums */
} frame_walk;

static double dot_col(const double *a, const double *b, int rows, int cols, int m)
{
	double t = 0;
	int j, k;
	for (j = 0; j < cols; j++) {
		double s = 0;
		for (k = 0; k < rows; k++)
			s += a[k] * b[k * m + j];
		t += s;
	}
	return t;
}

/* the same, each column's sum in t[j * m + j] */
static double dot_elem(const double *a, const double *b, double *t, int rows, int cols, int m)
{
	double u = 0;
	int j, k;
	for (j = 0; j < cols; j++) {
		t[j * m + j] = 0;
		for (k = 0; k < rows; k++)
			t[j * m + j] += a[k] * b[k * m + j];
		u += t[j * m + j];
	}
	return u;
}

static int setup(const epi_kernel *k, epi_bench_ctx *c, int col, char *err)
{
	size_t reach = c->tlb_pages ? c->tlb_pages : epi_tlb_pages(2);
	int rows = (int)(reach / 2);
	if (rows < 256)
		rows = 256;
	size_t bytes = col ? (size_t)rows * ROW_BYTES : ((size_t)rows + EPI_FRAME_COLS) * sizeof(double);
	bytes = (bytes + 4095) / 4096 * 4096;
	if (epi_bench_alloc(c, bytes, 0, err) < 0)
		return -1;
	frame_walk *w = calloc(1, sizeof *w);
	double *a = calloc((size_t)rows, sizeof *a);
	if (!w || !a) {
		free(w);
		free(a);
		epi_bench_free(c);
		return epi_error(err, "cannot allocate the %s kernel's row", k->name);
	}
	w->rows = rows;
	w->m = col ? ROW_ELEMS : 1;
	w->a = a;
	c->aux = w;
	return 0;
}

static int setup_col(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	return setup(k, c, 1, err);
}

static int setup_row(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	return setup(k, c, 0, err);
}

static void teardown(epi_bench_ctx *c)
{
	frame_walk *w = c->aux;
	if (w) {
		free(w->a);
		free(w->t);
	}
	free(w);
	c->aux = NULL;
	epi_bench_free(c);
}

static int setup_elem(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	if (setup(k, c, 0, err) < 0)
		return -1;
	frame_walk *w = c->aux;
	w->t = calloc(2 * EPI_FRAME_COLS, sizeof *w->t);
	if (!w->t) {
		teardown(c);
		return epi_error(err, "cannot allocate the %s kernel's sums", k->name);
	}
	return 0;
}

static void run(epi_bench_ctx *c, uint64_t n)
{
	const frame_walk *w = c->aux;
	volatile double keep = 0;
	for (; n; n--)
		keep = keep + (w->t ? dot_elem(w->a, c->buf, w->t, w->rows, EPI_FRAME_COLS, w->m)
				    : dot_col(w->a, c->buf, w->rows, EPI_FRAME_COLS, w->m));
}

static double units(const epi_bench_ctx *c)
{
	const frame_walk *w = c->aux;
	return (double)w->rows * EPI_FRAME_COLS;
}

#define SEQ "-O0 code: s += a[k] * b[k * m + j]; every variable in a stack slot"

const epi_kernel epi_k_load_frame_col = {
	.name = "load.frame.col",
	.what = "-O0 code's dot product down a matrix's columns, a page per access within the second-level "
		"TLB, lines from beyond L1 (every eighth column's from L3): per iteration",
	.seq = SEQ, .unit = EPI_UNIT_OP, .level = EPI_LVL_L3, .setup = setup_col, .run = run,
	.teardown = teardown, .units_of = units,
};

const epi_kernel epi_k_load_frame_row = {
	.name = "load.frame.row",
	.what = "the same -O0 code along a row, in L1 (load.frame.col's chain alone): per iteration",
	.seq = SEQ, .unit = EPI_UNIT_OP, .level = EPI_LVL_L1, .setup = setup_row, .run = run,
	.teardown = teardown, .units_of = units,
};

const epi_kernel epi_k_load_frame_elem = {
	.name = "load.frame.elem",
	.what = "load.frame.row's loop with its sum in an array element whose address each iteration "
		"computes anew from stack slots: per iteration",
	.seq = "-O0 code: t[j * m + j] += a[k] * b[k * m + j]; every variable in a stack slot", .unit = EPI_UNIT_OP,
	.level = EPI_LVL_L1, .setup = setup_elem, .run = run, .teardown = teardown, .units_of = units,
};
