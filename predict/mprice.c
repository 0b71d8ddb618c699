/* mprice: the time and energy of machine code (see mprice.h). */
#include "predict/mprice.h"

#include "bench/bench.h"
#include "machine/cpu.h"
#include "predict/mflow.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *epi_bound_name(enum epi_bound b)
{
	static const char *const n[EPI_BOUND_N] = {"issue", "int", "fp",  "load", "store", "div",
						   "latency", "tlb", "l2", "l3",  "dram",  "pages", "branch"};
	return b < EPI_BOUND_N ? n[b] : "?";
}

/* KEY's seconds (or dynamic joules, DYN) per unit at COL, else those of
 * FALLBACK, else 0 (epi_mcosts_usable says which kernels a table lacks). */
static double cost(const epi_fcol *col, const char *key, const char *fallback, int dyn)
{
	const epi_cost *e = epi_fcol_find(col, key);
	if (!e && fallback) {
		e = epi_fcol_find(col, fallback);
		if (!e)
			e = epi_fcol_lookup(col, fallback);
	}
	if (!e)
		return 0;
	double v = dyn ? (isnan(e->e_dyn) ? e->e : e->e_dyn) : e->t;
	return isnan(v) || v < 0 ? 0 : v;
}

/* C's TLB curve with the point (X, T), in order of X (room for it left). */
static void curve_point(epi_mcosts *c, double x, double t)
{
	int j = c->ntlb++;
	for (; j > 0 && c->tlb_x[j - 1] > x; j--) {
		c->tlb_x[j] = c->tlb_x[j - 1];
		c->tlb_t[j] = c->tlb_t[j - 1];
	}
	c->tlb_x[j] = x;
	c->tlb_t[j] = t;
}

/* T[0..N-1] made non-decreasing, as close to it as can be (least
 * squares): each run of points that falls, and the points before it that
 * it falls below, replaced by their mean (pooled adjacent violators). A
 * walk over more pages costs no less an access than one over fewer; a
 * kernel measured below one over fewer pages met a quieter moment of the
 * host. */
#define CURVE_POINTS (sizeof((epi_mcosts *)0)->tlb_t / sizeof(double))
static void monotone(double *t, int n)
{
	double mean[CURVE_POINTS];
	int len[CURVE_POINTS], k = 0;
	for (int i = 0; i < n && i < (int)CURVE_POINTS; i++) {
		mean[k] = t[i];
		len[k++] = 1;
		while (k > 1 && mean[k - 2] > mean[k - 1]) {
			mean[k - 2] = (mean[k - 2] * len[k - 2] + mean[k - 1] * len[k - 1]) / (len[k - 2] + len[k - 1]);
			len[k - 2] += len[k - 1];
			k--;
		}
	}
	for (int b = 0, i = 0; b < k; b++)
		for (int j = 0; j < len[b]; j++)
			t[i++] = mean[b];
}

/* The TLB's miss curve from COL: each load.page.tlbS at S percent of the
 * second-level TLB's pages, load.page.walk at its own pages, by pages.
 * Where the TLB's reach was measured (MEASURED), which is where walks
 * start to miss, and no kernel walked 100% of it, the curve holds the
 * last point's time below the reach up to it. */
static void tlb_curve(epi_mcosts *c, const epi_fcol *col, int measured)
{
#define TLB_POINT(share) {"load.page.tlb" #share, share / 100.0},
	static const struct {
		const char *key;
		double x;
	} curve[] = {EPI_TLB_CURVE(TLB_POINT)};
#undef TLB_POINT
	c->ntlb = 0;
	for (size_t i = 0; i <= sizeof curve / sizeof *curve; i++) {
		int walk = i == sizeof curve / sizeof *curve;
		double t = walk ? c->walk : cost(col, curve[i].key, NULL, 0);
		double x = walk ? EPI_WALK_PAGES / c->stlb : curve[i].x;
		/* the walk alone is no curve */
		if (!(t > 0) || (walk && c->ntlb == 0) || c->ntlb == (int)(sizeof c->tlb_x / sizeof *c->tlb_x))
			continue;
		curve_point(c, x, t);
	}
	int below = -1, at = 0;
	for (int i = 0; i < c->ntlb; i++) {
		below = c->tlb_x[i] < 1 ? i : below;
		at |= c->tlb_x[i] == 1;
	}
	if (measured && below >= 0 && !at && c->ntlb < (int)(sizeof c->tlb_x / sizeof *c->tlb_x))
		curve_point(c, 1, c->tlb_t[below]);
	monotone(c->tlb_t, c->ntlb);
}

double epi_mcosts_tlb(const epi_mcosts *c, double pages)
{
	if (!(pages > c->dtlb))
		return 0;
	double x = pages / c->stlb;
	/* a table from before the curve: the walk past the TLB's reach only */
	if (c->ntlb == 0)
		return c->walk > 0 && x > 1 ? c->walk : 0;
	if (x <= c->tlb_x[0])
		return c->tlb_t[0];
	for (int i = 1; i < c->ntlb; i++)
		if (x <= c->tlb_x[i]) {
			double f = (x - c->tlb_x[i - 1]) / (c->tlb_x[i] - c->tlb_x[i - 1]);
			return c->tlb_t[i - 1] + f * (c->tlb_t[i] - c->tlb_t[i - 1]);
		}
	return c->tlb_t[c->ntlb - 1];
}

/* Whether IN divides (or takes the root of) single-precision values. */
static int fdiv32(const epi_mcosts *c, const epi_insn *in)
{
	return in->klass == EPI_IC_FP_DIV && in->elem == 4 && c->fdiv32_tp > 0;
}

/* Whether IN divides integers of 32 bits or fewer (idivl, sdiv w0),
 * which many cores do in far less time than 64-bit ones. */
static int idiv32(const epi_mcosts *c, const epi_insn *in)
{
	return in->klass == EPI_IC_INT_DIV && in->elem > 0 && in->elem <= 4 && c->idiv32_tp > 0;
}

double epi_mcosts_tp(const epi_mcosts *c, const epi_insn *in)
{
	return fdiv32(c, in) ? c->fdiv32_tp : idiv32(c, in) ? c->idiv32_tp : c->tp[in->klass];
}

double epi_mcosts_lat(const epi_mcosts *c, const epi_insn *in)
{
	if (in->aop == EPI_AOP_FMINMAX && c->fmax_lat > 0)
		return c->fmax_lat;
	if (idiv32(c, in) && c->idiv32_lat > 0)
		return c->idiv32_lat;
	return fdiv32(c, in) && c->fdiv32_lat > 0 ? c->fdiv32_lat : c->lat[in->klass];
}

double epi_mcosts_e(const epi_mcosts *c, const epi_insn *in)
{
	return fdiv32(c, in) ? c->e_fdiv32 : idiv32(c, in) ? c->e_idiv32 : c->e_dyn[in->klass];
}

/* add.f64.window's chain: its adds, and its instructions (an add and
 * three others a link, the zeroing before, the loop's end after) */
#define WINDOW_LINKS 64
#define WINDOW_INSNS (4 * WINDOW_LINKS + 2)
/* load.fwdfp.window's: a store and a load besides */
#define WINDOW_SLOT_INSNS (6 * WINDOW_LINKS + 2)

void epi_mcosts_from(epi_mcosts *c, const epi_fcol *col, const unsigned long long cache[3],
		     unsigned long long l3_serves, unsigned long long tlb_pages)
{
	memset(c, 0, sizeof *c);
	static const unsigned long long typical[3] = {32 << 10, 1 << 20, 32 << 20};
	for (int i = 0; i < 3; i++)
		c->cache[i] = cache && cache[i] ? cache[i] : typical[i];
	c->l3_serves = l3_serves;
	/* a cycle: the integer add's latency */
	double cyc = cost(col, "add.i64.lat", "add.i64", 0);
	struct {
		enum epi_iclass k;
		const char *tp, *lat;
	} map[] = {
		{EPI_IC_INT, "add.i64", "add.i64.lat"},      {EPI_IC_INT_MUL, "mul.i64", "mul.i64.lat"},
		{EPI_IC_INT_DIV, "div.i64", "div.i64.lat"},  {EPI_IC_FP_ADD, "add.f64", "add.f64.lat"},
		{EPI_IC_FP_MUL, "mul.f64", "mul.f64.lat"},   {EPI_IC_FP_FMA, "mul.f64", "mul.f64.lat"},
		{EPI_IC_FP_DIV, "div.f64", "div.f64.lat"},   {EPI_IC_FP_CVT, "add.f64", "add.f64.lat"},
		{EPI_IC_VEC, "bit.i64", "bit.i64.lat"},      {EPI_IC_MOVE, "bit.i64", NULL},
		{EPI_IC_BRANCH, "cmp.i64", NULL},            {EPI_IC_CALL, "cmp.i64", NULL},
		{EPI_IC_RET, "cmp.i64", NULL},               {EPI_IC_NOP, "bit.i64", NULL},
		{EPI_IC_OTHER, "add.i64", "add.i64.lat"},
	};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
		c->tp[map[i].k] = cost(col, map[i].tp, "add.i64", 0);
		c->lat[map[i].k] = map[i].lat ? cost(col, map[i].lat, "add.i64.lat", 0) : 0;
		c->e_dyn[map[i].k] = cost(col, map[i].tp, "add.i64", 1);
	}
	c->lat[EPI_IC_INT] = cyc;
	/* a floating-point minimum or maximum's latency (cmp.fmax.lat):
	 * without the kernel, an add's */
	c->fmax_lat = cost(col, "cmp.fmax.lat", NULL, 0);
	/* add.f64.mix's pair, an add and a multiply, against the two alone:
	 * the longer of them where each has units of its own, their sum
	 * where they share */
	double ta = c->tp[EPI_IC_FP_ADD], tm = c->tp[EPI_IC_FP_MUL], pair = 2 * cost(col, "add.f64.mix", NULL, 0);
	if (pair > 0 && ta > 0 && tm > 0)
		c->fp_apart = fmin(1, fmax(0, 1 - (pair - fmax(ta, tm)) / fmin(ta, tm)));
	/* the window: add.f64.window's chains of WINDOW_LINKS adds, one after
	 * the other, each started afresh, end sooner than their latency by
	 * 1 + W / (instructions of a chain) where the core holds W
	 * instructions in flight; without the kernel, none overlap */
	double fresh = cost(col, "add.f64.window", NULL, 0), flat = cost(col, "add.f64.lat", NULL, 0);
	if (fresh > 0 && flat > fresh)
		c->window = WINDOW_INSNS * (flat / fresh - 1);
	/* load.fwdfp.window's through a slot: a link the round trip and the
	 * add (load.fwdfp.lat and add.f64.lat) when not overlapped */
	double sfresh = cost(col, "load.fwdfp.window", NULL, 0);
	double slink = cost(col, "load.fwdfp.lat", NULL, 0) + flat;
	if (sfresh > 0 && epi_fcol_find(col, "load.fwdfp.lat") && slink > sfresh)
		c->window_slot = WINDOW_SLOT_INSNS * (slink / sfresh - 1);
	/* -O0 code's dot product down columns against the same along a row
	 * (load.frame.col, load.frame.row): what the walk adds, per load of
	 * the kernels' iteration */
	const epi_cost *fc = epi_fcol_find(col, "load.frame.col"), *fr = epi_fcol_find(col, "load.frame.row");
	c->frame_stall = fc && fr && fc->t > 0 && fr->t > 0 ? fmax(0, fc->t - fr->t) / EPI_FRAME_LOADS : -1;
	c->fdiv32_tp = cost(col, "div.f32", "div.f64", 0);
	c->fdiv32_lat = cost(col, "div.f32.lat", "div.f64.lat", 0);
	c->e_fdiv32 = cost(col, "div.f32", "div.f64", 1);
	c->idiv32_tp = cost(col, "div.i32", "div.i64", 0);
	c->idiv32_lat = cost(col, "div.i32.lat", "div.i64.lat", 0);
	c->e_idiv32 = cost(col, "div.i32", "div.i64", 1);
	c->load_tp = cost(col, "load.l1", "load", 0);
	c->fp_load_tp = cost(col, "load.fp.l1", NULL, 0);
	if (!(c->fp_load_tp > 0))
		c->fp_load_tp = c->load_tp;
	c->store_tp = cost(col, "store.l1", "store", 0);
	const epi_cost *mix = epi_fcol_find(col, "load.mix.l1");
	c->access_tp = mix && mix->t > 0 ? mix->t : 0;
	/* a stack slot's access in -O0 code (without the kernel, as any) */
	c->slot_tp = cost(col, "load.mix.frame", NULL, 0);
	if (!(c->slot_tp > 0))
		c->slot_tp = c->access_tp;
	c->load_lat = cost(col, "load.l1.lat", "load.l1", 0);
	c->load_lat_fp = cost(col, "load.fp.lat", NULL, 0);
	c->load_lat_idx = cost(col, "load.idx.lat", NULL, 0);
	/* a line per access: without the line kernels, eight sequential loads */
	static const char *const line[3] = {"load.l2.line", "load.l3.line", "load.dram.line"};
	static const char *const seq[3] = {"load.l2", "load.l3", "load.dram"};
	for (int i = 0; i < 3; i++) {
		/* a line moved by one load or by eight in a row, whichever the
		 * level delivers faster (prefetching streams) */
		double by8 = 8 * cost(col, seq[i], "load", 0);
		c->line[i] = epi_fcol_find(col, line[i]) ? cost(col, line[i], NULL, 0) : by8;
		if (by8 > 0 && by8 < c->line[i])
			c->line[i] = by8;
	}
	/* a line only written: eight 8-byte stores in address order (the
	 * store kernels: the line read first and written back, as the level
	 * does it); without them, a line read twice */
	static const char *const wseq[3] = {"store.l2", "store.l3", "store.dram"};
	for (int i = 0; i < 3; i++) {
		double st = cost(col, wseq[i], NULL, 0);
		c->wline[i] = st > 0 ? 8 * st : 2 * c->line[i];
	}
	/* lines from L2 beside lines from L3: what they add to load.l3's
	 * time, as a share of it (load.l3.near); without the kernel, a whole
	 * line's (every line in the same queue) */
	double l3 = cost(col, "load.l3", NULL, 0), near = cost(col, "load.l3.near", NULL, 0);
	c->near_share = l3 > 0 && near > 0 ? fmin(1, fmax(0, (near - l3) / l3)) : 1;
	/* beside lines from memory: what load.dram.near adds to load.dram's
	 * time, an 8-byte load of the L2 buffer, eight to a line; without the
	 * kernel, L3's price at near_share */
	double dram = cost(col, "load.dram", NULL, 0), dnear = cost(col, "load.dram.near", NULL, 0);
	c->near_mem = dram > 0 && dnear > dram ? 8 * (dnear - dram) : 0;
	/* a line read with no other near it (a column walk's): from L3 in a
	 * random order (load.l3.scatter), where that is slower than in
	 * order; from L2 and from memory, as lines in order (memory's
	 * scattered lines are priced apart, below) */
	memcpy(c->cline, c->line, sizeof c->cline);
	double sc = cost(col, "load.l3.scatter", NULL, 0);
	if (sc > c->cline[1])
		c->cline[1] = sc;
	/* without the kernel, as the lines in order */
	c->scatter = epi_fcol_find(col, "load.dram.scatter") ? cost(col, "load.dram.scatter", NULL, 0) : c->line[2];
	c->fwd_lat = cost(col, "load.fwd.lat", "load.l1.lat", 0);
	c->fwd_lat_fp = cost(col, "load.fwdfp.lat", "load.l1.lat", 0);
	c->fwd_fail_lat = cost(col, "load.fwdfail.lat", "load.fwd.lat", 0);
	/* -O0's chain through an array element whose address each iteration
	 * computes anew: load.frame.elem keeps load.frame.row's sum in one,
	 * t[j * m + j], its address a slot's load, a multiply and four
	 * integer steps (mflow's rule waits for that and a load from L1
	 * where they take longer than the forward); what the kernel takes
	 * beyond the row's, against that wait, is the share waited */
	const epi_cost *fe = epi_fcol_find(col, "load.frame.elem");
	double wait = 2 * c->load_lat + c->lat[EPI_IC_INT_MUL] + 4 * cyc - c->fwd_lat_fp;
	if (fe && fr && fe->t > 0 && fr->t > 0 && wait > 0)
		c->elem_ahead = 1 - fmin(1, fmax(0, (fe->t - fr->t) / wait));
	/* the kernel's round trip includes its add */
	const epi_cost *op = epi_fcol_find(col, "load.fwdop.lat");
	c->fwd_op_lat = op && op->t > cyc ? op->t - cyc : c->fwd_lat;
	c->e_load = cost(col, "load.l1", "load", 1);
	c->e_store = cost(col, "store.l1", "store", 1);
	/* the issue rate: the fastest independent stream the table knows */
	c->issue = cost(col, "issue", NULL, 0);
	if (!(c->issue > 0)) {
		double best = c->tp[EPI_IC_INT];
		if (c->load_tp > 0 && c->load_tp < best)
			best = c->load_tp;
		c->issue = best;
	}
	/* a taken branch: the empty loop's iteration, one taken branch and
	 * its counter's step (the front end's rate of following branches) */
	c->taken = cost(col, "iter", NULL, 0);
	c->split = cost(col, "iter.split", NULL, 0);
	/* the kernel's unit is a load, a test and branch fused, and an add
	 * skipped half the time, mispredicted half the time */
	const epi_cost *m = epi_fcol_find(col, "cmp.branch.miss");
	double unit = m && m->t > 0 ? m->t - 1.5 * c->issue : 0;
	c->miss = unit > 0 ? 2 * unit : 0;
	/* page walks: without the kernels, none priced; the TLBs' reach as
	 * the kernels took it */
	c->walk = cost(col, "load.page.walk", NULL, 0);
	c->set1 = cost(col, "load.l2.set", NULL, 0);
	c->walk_far = cost(col, "load.page.walkfar", NULL, 0);
	long page = sysconf(_SC_PAGESIZE);
	c->page = page >= 4096 ? (double)page : 4096;
	c->stlb = tlb_pages ? (double)tlb_pages : epi_tlb_pages(2);
	c->stlb_sets = epi_tlb_sets();
	c->dtlb = epi_tlb_pages(1);
	tlb_curve(c, col, tlb_pages > 0);
	const epi_cost *t = epi_fcol_find(col, "malloc.touch");
	c->touch = t && t->t > 0 ? t->t / (1 << 20) : 0;
	c->idle_w = col->idle_w;
	c->energy = 0;
	for (int i = 0; i < col->n; i++)
		c->energy |= !isnan(col->op[i].e);
}

int epi_mcosts_usable(const epi_fcol *col, char *missing, size_t n)
{
	static const char *const need[] = {"add.i64", "add.i64.lat", "add.f64", "add.f64.lat", "mul.f64",
					   "load.l1", "load.l1.lat", "store.l1"};
	size_t len = 0;
	missing[0] = 0;
	for (size_t i = 0; i < sizeof need / sizeof *need; i++)
		if (!epi_fcol_find(col, need[i]) && len + strlen(need[i]) + 3 < n)
			len += (size_t)snprintf(missing + len, n - len, "%s%s", len ? ", " : "", need[i]);
	return len == 0;
}

/* Which resource an instruction of class K occupies. */
static enum epi_bound unit_of(enum epi_iclass k)
{
	switch (k) {
	case EPI_IC_FP_ADD:
	case EPI_IC_FP_MUL:
	case EPI_IC_FP_FMA:
	case EPI_IC_FP_CVT:
	case EPI_IC_VEC: return EPI_BOUND_FP;
	case EPI_IC_INT_DIV:
	case EPI_IC_FP_DIV: return EPI_BOUND_DIV;
	case EPI_IC_MOVE:
	case EPI_IC_NOP: return EPI_BOUND_ISSUE; /* no execution unit of note */
	default: return EPI_BOUND_INT;
	}
}

/* Whether X's and Y's addresses are the same registers (base, index,
 * scale) less than a line apart. */
static int near_address(const epi_insn *x, const epi_insn *y)
{
	return y->base == x->base && y->index == x->index && y->scale == x->scale && y->disp - x->disp < 64 &&
	       x->disp - y->disp < 64;
}

/* Whether access I of loop L reads or writes the lines of an earlier one:
 * the same registers, unchanged in between, the same stride, less than a
 * line apart (a[i - 1], a[i], a[i + 1]). */
static int same_stream(const epi_object *o, int l, int lo, int i)
{
	const epi_insn *x = &o->in[i];
	for (int j = i - 1; j >= lo; j--) {
		const epi_insn *y = &o->in[j];
		for (int w = 0; w < y->nwr; w++)
			if ((y->wr[w] == x->base && x->base) || (y->wr[w] == x->index && x->index))
				return 0;
		if (o->loop_of[j] == l && (y->loads || y->stores) && !o->frame[j] && o->stride[j] == o->stride[i] &&
		    near_address(x, y))
			return 1;
	}
	return 0;
}

/* Whether access I of loop L walks the same rows as an access J before it
 * in the loop: the same base register, the same step from one iteration
 * to the next, an offset between them that the loop does not change (an
 * index register it never writes: data[k][i] and data[k][j] along k). Or,
 * in code that computes each address apart (-O0), an offset added to the
 * same array's address with the same step: their offset apart moves by
 * the difference of their steps, none. */
static int same_rows(const epi_object *o, int l, int lo, int i)
{
	const epi_insn *x = &o->in[i];
	int64_t a = o->array ? o->array[i] : EPI_STRIDE_UNKNOWN;
	if (!x->base && a == EPI_STRIDE_UNKNOWN)
		return 0;
	for (int j = lo; j < i; j++) {
		const epi_insn *y = &o->in[j];
		if (o->loop_of[j] != l || !(y->loads || y->stores) || o->frame[j] || o->stride[j] != o->stride[i])
			continue;
		if (a != EPI_STRIDE_UNKNOWN && o->array[j] == a)
			return 1;
		if (!x->base || y->base != x->base || (y->index == x->index && y->scale == x->scale))
			continue;
		int moved = 0;
		for (int k = o->loop[l].first; k <= o->loop[l].last && !moved; k++)
			for (int w = 0; w < o->in[k].nwr && !moved; w++)
				moved = (x->index && o->in[k].wr[w] == x->index) || (y->index && o->in[k].wr[w] == y->index);
		if (!moved)
			return 1;
	}
	return 0;
}

/* The bytes cache level K (0: L1 .. 2: L3) keeps: what fills three
 * quarters of it (it is not fully associative, and it holds other data
 * too: the stack, the code, other cores' lines in a shared L3); an L3
 * whose reach was measured, what it was measured to serve. */
static double reach(const epi_mcosts *c, int k)
{
	return k == 2 && c->l3_serves ? (double)c->l3_serves : 0.75 * (double)c->cache[k];
}

/* The smallest cache level (0: L1, 3: memory) holding BYTES. */
static int level_of(const epi_mcosts *c, double bytes)
{
	int k = 0;
	while (k < 3 && bytes > reach(c, k))
		k++;
	return k;
}

/* Whether access I of loop L reads or writes again, one or two
 * iterations of the loop around later, the lines another access of L
 * touches first (A[i + 1][j] at row i, read as A[i][j] at row i + 1 and
 * A[i - 1][j] at row i + 2: a stencil's rows): both start from one
 * register at the loop around's iteration, with the same index, stride
 * and outer stride OS, offsets apart by one or two times OS. */
static int group_reuse(const epi_object *o, int l, int i, int64_t os)
{
	if (!o->group || !o->group[i] || os == 0 || os == EPI_STRIDE_UNKNOWN || os == EPI_STRIDE_RUNTIME)
		return 0;
	const epi_insn *x = &o->in[i];
	for (int j = o->loop[l].first; j <= o->loop[l].last; j++) {
		const epi_insn *y = &o->in[j];
		if (j == i || o->loop_of[j] != l || o->group[j] != o->group[i] || y->index != x->index ||
		    y->scale != x->scale || o->stride[j] != o->stride[i] || o->outer_stride[j] != os)
			continue;
		int64_t gap = o->group_off[j] - o->group_off[i];
		if (gap % os == 0 && (gap / os == 1 || gap / os == 2))
			return 1;
	}
	return 0;
}

/* The shape of a trip count that varies from entry to entry, of mean 1
 * and spread CV (its standard deviation over its mean): even from
 * 1 - sqrt(3) cv to 1 + sqrt(3) cv while that stays above 0 (a loop over
 * a triangle); beyond, a density falling from 0 to its largest trip count
 * as (largest - trip)^(beta - 1) (the innermost of three loops over a
 * tetrahedron: beta 2). Into *BETA (0: even); returns the largest trip
 * count over the mean. */
static double trip_shape(double cv, double *beta)
{
	if (!(cv > 0)) { /* none, or not known (NAN) */
		*beta = 0;
		return 1;
	}
	cv = fmin(cv, 0.95);
	if (cv <= 1 / sqrt(3)) {
		*beta = 0;
		return 1 + sqrt(3) * cv;
	}
	*beta = 2 * cv * cv / (1 - cv * cv);
	return 1 + *beta;
}

/* Loop L's streams, per iteration: the lines its accesses move whose
 * next entry of L touches them again (x[j] in a row sweep starts where
 * it did: NEAR) and those it does not (A[i][j]: FAR), of the streams in
 * address order ([0]) and of those that move a line per access (a column
 * walk, [1]), and of the far lines those that loads bring a page or
 * more apart (FAR_APART: a store's line drains through the store buffer
 * while the loads go on); what one entry touches (SPAN) and one entry of
 * the loop around (OUTER_SPAN). */
typedef struct streams {
	double near[2], far[2], far_apart, span, outer_span;
	double wnear[2], wfar[2]; /* of NEAR and FAR, the lines only written (not read first) */
	double conflict;     /* what the column walks' lines of an entry hold of a cache with the sets
				they cannot use (set_conflict) */
	double crowd;        /* the column walks' accesses whose lines crowd a few sets of L1: their
				time (crowded) */
	double pages, walks; /* a column walk's pages per entry, and new pages per iteration */
	double walks_far;    /* of those, the share whose page-table entries share fewer lines than
				load.page.walk's (pages farther apart than its 16 KiB) */
	double load_walks, load_walks_far; /* the same for the loads alone */
} streams;

/* The greatest common divisor of A and B (B > 0) */
static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;
		a = b;
		b = r;
	}
	return a;
}

/* How many times its bytes a column walk's lines, STEP bytes apart, hold
 * of a cache: a line's set is picked by the address bits above the line's
 * own, and those within a page follow the address (those above it the
 * page the system gave). Lines a multiple of 128 bytes apart within a page
 * (rows of 1,024 doubles: 8 KiB) fall in a share of the sets only, and
 * the cache keeps as few of them as that share of it holds (2 for 128
 * bytes, 64 for a whole page on 64-byte lines, as on a cache of a page's
 * lines worth of sets or more: L1 of 32 KiB 8-way, and beyond). */
static double set_conflict(double page_bytes, double step)
{
	if (!(page_bytes >= 64) || !isfinite(step) || step < 64 || step > 0x1p52)
		return 1;
	uint64_t page = (uint64_t)page_bytes, a = (uint64_t)llround(step) % page;
	a = gcd(a ? a : page, page);
	return a > 64 ? (double)a / 64 : 1;
}

/* The same for the second-level TLB, whose set a page's number picks: a
 * walk whose pages are a whole number of pages apart, N, uses 1 in
 * gcd(N, sets) of its sets, and takes that many times its pages of it. */
static double tlb_conflict(const epi_mcosts *c, double step)
{
	if (!(c->stlb_sets > 1) || !(c->page > 0) || !isfinite(step) || step > 0x1p52)
		return 1;
	uint64_t page = (uint64_t)c->page, s = (uint64_t)llround(step);
	if (s < page || s % page)
		return 1;
	return (double)gcd(s / page, (uint64_t)c->stlb_sets);
}

/* Seconds per access of a column walk of C whose lines fall in 1 in
 * CONFLICT (set_conflict) of a page's lines' sets, TRIP accesses an
 * entry, where they more than fill the sets of L1 they fall in (a page's
 * worth of sets, L1's bytes a page per way, as on caches indexed within
 * the page): misses to one set wait for each other, at load.l2.set's time
 * per access with one set, and the more sets the more of them at a time,
 * down to a column's line from L2. 0 where they fit, or without the
 * kernel. */
static double crowded(const epi_mcosts *c, double conflict, double trip)
{
	if (!(c->set1 > 0) || !(c->page >= 4096))
		return 0;
	double sets = c->page / 64 / conflict, ways = (double)c->cache[0] / c->page;
	if (!(trip / sets > (ways >= 1 ? ways : 1)))
		return 0;
	double line = c->cline[0] < c->set1 ? c->cline[0] : c->set1;
	return line + (c->set1 - line) / sets;
}

/* The row that loop L's column walks whose steps are known only at run
 * time move along: the longest of those that the loop around moves along
 * (its stride at each of its iterations, over its largest entry's: a
 * triangle's rows are as long as its longest), or INFINITY. A walk that
 * the loop around does not move takes it too (most often a matrix of the
 * same shape: Q[i][k] beside A[i][j] along i). */
static double runtime_row(const epi_object *o, int l, const epi_msweep *sw)
{
	double beta, outer = sw->outer_trip * trip_shape(sw->outer_spread, &beta), row = INFINITY;
	if (!(outer > 1))
		return row;
	for (int i = o->loop[l].first; i <= o->loop[l].last; i++) {
		int64_t os = o->outer_stride[i];
		if (o->loop_of[i] != l || !(o->in[i].loads || o->in[i].stores) || o->stride[i] != EPI_STRIDE_RUNTIME ||
		    os == 0 || os == EPI_STRIDE_UNKNOWN || os == EPI_STRIDE_RUNTIME)
			continue;
		double r = fabs((double)os) * outer;
		if (!isfinite(row) || r > row)
			row = r;
	}
	return row;
}

/* How far access I of loop L moves per iteration, as scan takes it (ROW
 * for a step known only at run time: runtime_row's); 0 for an access that
 * is no stream of its own (none that moves, one that follows the data, or
 * one on the lines of another). */
static double stream_step(const epi_object *o, int l, int lo, int i, double row)
{
	int64_t s = o->stride[i];
	/* an address that follows the data: where it lands is not known,
	 * and taken to be close (as the source-level model takes it) */
	if (o->loop_of[i] != l || !(o->in[i].loads || o->in[i].stores) || s == 0 || s == EPI_STRIDE_UNKNOWN)
		return 0;
	if (same_stream(o, l, lo, i) || (o->repeat && o->repeat[i]))
		return 0;
	return s != EPI_STRIDE_RUNTIME ? fabs((double)s) : row;
}

/* Whether access I of a loop, of step STEP (stream_step's), is a row (a
 * stream in address order) that the loop around moves on (its outer
 * stride not 0). */
static int moving_row(const epi_object *o, int i, double step)
{
	int64_t os = o->outer_stride[i];
	return step > 0 && step < 64 && os != 0 && os != EPI_STRIDE_UNKNOWN;
}

/* Whether row I of loop L reads what an earlier row of it, one the loop
 * around moves as far, may have read: only loads, the same stride, the
 * same outer stride (both known only at run time, or equal). STEP: the
 * steps of L's instructions from LO on (stream_step's). */
static int reads_like(const epi_object *o, int l, int lo, int i, const double *step)
{
	const epi_insn *x = &o->in[i];
	if (x->stores)
		return 0;
	/* a row that is written too (A[i][j] -= ...) is the one the loop
	 * makes anew */
	for (int j = lo; j <= o->loop[l].last; j++)
		if (o->loop_of[j] == l && o->in[j].stores && near_address(x, &o->in[j]))
			return 0;
	for (int j = lo; j < i; j++)
		if (moving_row(o, j, step[j - lo]) && !o->in[j].stores && o->stride[j] == o->stride[i] &&
		    o->outer_stride[j] == o->outer_stride[i])
			return 1;
	return 0;
}

/* Of loop L's rows that the loop around moves on, how many read rows
 * another reads an iteration of that loop before or after (a stencil's
 * A[i - 1][j], A[i][j], A[i + 1][j]): those beyond the arrays that the
 * source loop's moving references name, when it names fewer. */
static int reread_rows(const epi_object *o, int l, const epi_msweep *sw, const double *step)
{
	if (!(sw->arrays > 0) || !(sw->refs > sw->arrays))
		return 0;
	int lo = o->loop[l].first, rows = 0, known = 0;
	for (int i = lo; i <= o->loop[l].last; i++)
		if (moving_row(o, i, step[i - lo])) {
			rows++;
			known += group_reuse(o, l, i, o->outer_stride[i]);
		}
	/* less those whose offsets the code tells (group_reuse) */
	return rows - known > sw->arrays ? rows - known - sw->arrays : 0;
}

/* Loop L's streams at SW into ST; C, when given, the machine whose cache
 * and TLB sets its column walks fall in (without it, all of them); PER,
 * when given: what one entry touches, by instruction from the loop's
 * first. */
static void scan(const epi_object *o, int l, const epi_msweep *sw, const epi_mcosts *c, streams *st, double *per)
{
	memset(st, 0, sizeof *st);
	int lo = o->loop[l].first, hi = o->loop[l].last;
	double trip = sw->trip, outer = sw->outer_trip, row = runtime_row(o, l, sw);
	/* each access's step, once: the rows read again compare them */
	double *steps = xmalloc(((size_t)(hi >= lo ? hi - lo : 0) + 1) * sizeof *steps);
	for (int i = lo; i <= hi; i++)
		steps[i - lo] = stream_step(o, l, lo, i, row);
	int reread = reread_rows(o, l, sw, steps);
	for (int i = lo; i <= hi; i++) {
		double step = steps[i - lo];
		if (step == 0)
			continue;
		int64_t os = o->outer_stride[i];
		int known_os = os != EPI_STRIDE_UNKNOWN && os != EPI_STRIDE_RUNTIME;
		int col = step >= 64;
		double bytes = col ? 64 : step;
		/* a line only written is priced apart: the cache reads it
		 * first and writes it back later */
		double w = o->weight[i];
		int wo = o->in[i].stores && !o->in[i].loads;
		double entry = o->weight[i] * bytes * trip;
		/* the share of what an entry touches that is new at the next:
		 * of its run of contiguous bytes, or of each of its lines */
		double run = col ? 64 : bytes * trip;
		double fresh = os == 0 || !(outer > 1) ? 0 : known_os && run > 0 ? fmin(1, fabs((double)os) / run) : 1;
		if (fresh > 0 && group_reuse(o, l, i, os))
			fresh = 0;
		else if (fresh > 0 && reread > 0 && !col && reads_like(o, l, lo, i, steps)) {
			fresh = 0;
			reread--;
		}
		st->near[col] += (1 - fresh) * w * bytes / 64;
		st->far[col] += fresh * w * bytes / 64;
		if (wo) {
			st->wnear[col] += (1 - fresh) * w * bytes / 64;
			st->wfar[col] += fresh * w * bytes / 64;
		}
		if (step >= 4096)
			st->far_apart += fresh * o->weight[i] * o->in[i].loads * bytes / 64;
		/* the pages a column walk turns: one per access a page or more
		 * apart, else one per 4 KiB of its steps */
		if (col && isfinite(step) && trip > 0) {
			double per = step >= 4096 ? 1 : step / 4096;
			/* beside another walk of the same rows, an offset apart
			 * that the code does not tell: on a page of its own in
			 * the share of offsets within a row that cross one,
			 * 1 - 2,048 / step for offsets spread evenly */
			if (step >= 4096 && same_rows(o, l, lo, i))
				per = 1 - 2048 / step;
			st->pages += per * trip * (c ? tlb_conflict(c, step) : 1);
			/* 16 KiB apart two entries share a line, 32 KiB and
			 * more none */
			double far = fmin(1, fmax(0, (step - 16384) / 16384)), ld = o->in[i].loads ? 1 : 0;
			st->walks += o->weight[i] * per;
			st->walks_far += o->weight[i] * per * far;
			st->load_walks += ld * o->weight[i] * per;
			st->load_walks_far += ld * o->weight[i] * per * far;
		}
		if (col) {
			double sc = c ? set_conflict(c->page, step) : 1;
			st->conflict += entry * sc;
			if (c && isfinite(step))
				st->crowd += w * crowded(c, sc, trip);
		}
		st->span += entry;
		if (per)
			per[i - lo] = entry;
		st->outer_span += entry * (1 + fresh * (outer - 1));
	}
	free(steps);
}

double epi_mloop_bytes(const epi_object *o, int l, double trip)
{
	epi_msweep sw = {.trip = trip, .outer_trip = NAN, .round = NAN};
	streams st;
	scan(o, l, &sw, NULL, &st, NULL);
	return trip > 0 ? st.span : 0;
}

/* A stream of a round: where it starts (o->group, o->group_off), its
 * stride and the bytes of the largest entry that touches it. */
typedef struct round_stream {
	uint16_t group;
	int64_t off, stride;
	double bytes;
} round_stream;

/* What one entry of loop L touches, added to SUM: an access that starts
 * where an access of a loop before it beside it did (RS, *N of them)
 * adds only the bytes it touches beyond that one's. */
static void round_add(const epi_object *o, int l, double trip, round_stream **rs, int *n, int *cap, double *sum)
{
	int lo = o->loop[l].first, len = o->loop[l].last - lo + 1;
	double *per = xcalloc((size_t)len, sizeof *per);
	epi_msweep sw = {.trip = trip, .outer_trip = NAN, .round = NAN};
	streams st;
	scan(o, l, &sw, NULL, &st, per);
	for (int k = 0; k < len; k++) {
		int i = lo + k;
		if (!(per[k] > 0))
			continue;
		if (!o->group || !o->group[i]) {
			*sum += per[k];
			continue;
		}
		int j = 0;
		while (j < *n && !((*rs)[j].group == o->group[i] && (*rs)[j].off == o->group_off[i] &&
				   ((*rs)[j].stride > 0) == (o->stride[i] > 0)))
			j++;
		if (j == *n) {
			ALLOC_GROW(*rs, *n + 1, *cap);
			(*rs)[(*n)++] = (round_stream){o->group[i], o->group_off[i], o->stride[i], 0};
		}
		if (per[k] > (*rs)[j].bytes) {
			*sum += per[k] - (*rs)[j].bytes;
			(*rs)[j].bytes = per[k];
		}
	}
	free(per);
}

void epi_mround_bytes(const epi_object *o, const double *trip, double *round)
{
	/* the loops with a loop around them, by that loop, then in order */
	epi_ipair *idx = xmalloc(((size_t)o->nloop + 1) * sizeof *idx);
	int m = 0;
	for (int l = 0; l < o->nloop; l++)
		if (o->loop[l].parent >= 0 && trip[l] > 0)
			idx[m++] = (epi_ipair){o->loop[l].parent, l};
	qsort(idx, (size_t)m, sizeof *idx, epi_ipair_cmp);
	round_stream *rs = NULL;
	int n = 0, cap = 0;
	for (int k = 0; k < m; k++) {
		if (k == 0 || idx[k - 1].a != idx[k].a)
			n = 0; /* a new loop around: its own streams */
		round_add(o, idx[k].b, trip[idx[k].b], &rs, &n, &cap, &round[idx[k].a]);
	}
	free(rs);
	free(idx);
}

/* Seconds for N lines at level K (1: L2 .. 3: memory), of which W are
 * only written: lines in order, and a column's, a line an access. */
static double lines(const epi_mcosts *c, int k, double n, double w)
{
	return (n - w) * c->line[k - 1] + w * c->wline[k - 1];
}

static double col_lines(const epi_mcosts *c, int k, double n, double w)
{
	return (n - w) * c->cline[k - 1] + w * c->wline[k - 1];
}

/* The lines loop L's own accesses bring per iteration from beyond L1:
 * the near ones from the level that holds what one iteration of the loop
 * around touches (this loop's entry and the loops' beside it), the far
 * ones from the level that holds what one entry of the loop around
 * touches. Lines in order are priced at the deepest level any comes
 * from, the near ones beside them at the share of an L3 line's price
 * that load.l3.near measures (a line missing L1 waits in the same queue
 * whichever level serves it: all of it without the kernel). COL: the
 * column walks' lines from beyond L1 per iteration, and their time. */
static double memory(const epi_msweep *sw, const streams *st, const epi_mcosts *c, epi_mloop_price *out, double *wait,
		     double col[2], double walked[2])
{
	*wait = col[0] = col[1] = walked[0] = walked[1] = 0;
	if (!(sw->trip > 0))
		return 0;
	double round = sw->round > st->span ? sw->round : st->span;
	int ln = level_of(c, round), lf = level_of(c, st->outer_span);
	/* the deepest level any of the streams in order comes from */
	int deep = st->far[0] > 0 && lf > ln ? lf : ln;
	double t = 0;
	if (deep > ln && ln > 0) {
		/* the near lines beside far ones from a deeper level: at the
		 * share of an L3 line's price that load.l3.near measures (what
		 * a nearer line adds beside L3's lines), beside memory's at
		 * what load.dram.near measures (they wait behind memory's for
		 * the first level's misses to be served), and no less than
		 * their own level's */
		int at = deep < 2 ? deep : 2;
		t = lines(c, deep, st->far[0], st->wfar[0]);
		if (deep == 3 && c->near_mem > 0)
			t += c->near_mem * st->near[0];
		else
			t += c->near_share * lines(c, at, st->near[0], st->wnear[0]);
		double own = lines(c, ln, st->near[0], st->wnear[0]);
		if (own > t)
			t = own;
	} else if (deep > 0) {
		t = lines(c, deep, (ln > 0 ? st->near[0] : 0) + (lf > 0 ? st->far[0] : 0),
			  (ln > 0 ? st->wnear[0] : 0) + (lf > 0 ? st->wfar[0] : 0));
	}
	/* a line per access: each line from its own level. Those the next
	 * entry reads again, from the level that holds them in the sets they
	 * can use (the walks start at one offset within a page, as large
	 * arrays do: the sets of the offset all of them visit hold the most,
	 * their lines at set_conflict's times their bytes). From memory, those
	 * a page or more apart come in no order a prefetcher follows (a cache
	 * serves them as fast as lines in order): their share is returned,
	 * for price_range */
	int lc = ln;
	while (lc < 3 && st->conflict > (lc < 2 ? (double)c->cache[lc] : reach(c, 2)))
		lc++;
	double walk = 0;
	if (lc > 0 && st->near[1] > 0) {
		walk += col_lines(c, lc, st->near[1], st->wnear[1]);
		col[0] += st->near[1];
		deep = lc > deep ? lc : deep;
	}
	double apart = lf == 3 ? st->far_apart : 0;
	if (lf > 0 && st->far[1] > 0) {
		walk += col_lines(c, lf, st->far[1] - apart, st->wfar[1]);
		col[0] += st->far[1] - apart;
		deep = lf > deep ? lf : deep;
	}
	col[1] = walk;
	/* lines crowding a few sets of L1 come no faster than their misses
	 * to a set follow each other, whichever level serves them */
	if (st->crowd > walk) {
		walk = st->crowd;
		deep = deep > 0 ? deep : 1;
	}
	t += walk;
	if (deep > 0 && t > 0)
		out->bound_t[EPI_BOUND_L2 + deep - 1] = t;
	/* column walks over more pages than the first-level TLB maps: each
	 * new page is looked up in the second level, and once the pages of
	 * one entry outgrow that (gradually: the curve), the page tables are
	 * walked for them when the next entry comes back */
	double per = epi_mcosts_tlb(c, st->pages);
	out->bound_t[EPI_BOUND_TLB] = st->walks * per;
	/* of the loads' share, what is beyond a hit in the second level (the
	 * curve's first point): their page walks, which hold up the loads
	 * behind them (a store's walk does not) */
	double hit = c->ntlb > 0 ? c->tlb_t[0] : 0;
	*wait = st->load_walks * (per > hit ? per - hit : 0);
	/* what of it meets memory's lines (WALKED[0]): the walks past the
	 * second level, and the loads' lookups there, whose data the window
	 * waits for; a store's lookup there (WALKED[1]) only where the
	 * stores behind it hold the window too (price_range) */
	walked[0] = st->walks * (per > hit ? per - hit : 0) + st->load_walks * (per < hit ? per : hit);
	walked[1] = (st->walks - st->load_walks) * (per < hit ? per : hit);
	/* walks whose entries are each on a line of their own take the far
	 * kernel's time, in the share of the accesses that walk (past the
	 * second level's reach, on the curve) */
	double at_reach = epi_mcosts_tlb(c, c->stlb);
	if (st->walks_far > 0 && c->walk_far > c->walk && c->walk > at_reach && per > at_reach) {
		double share = fmin(1, (per - at_reach) / (c->walk - at_reach));
		out->bound_t[EPI_BOUND_TLB] += st->walks_far * (c->walk_far - c->walk) * share;
		walked[0] += st->walks_far * (c->walk_far - c->walk) * share;
		*wait += st->load_walks_far * (c->walk_far - c->walk) * share;
	}
	return apart;
}

/* OUT's bound: the largest of its bounds, or the mispredictions' refills
 * on top of it when they take longer. */
static void name_bound(epi_mloop_price *out)
{
	out->bound = EPI_BOUND_ISSUE;
	for (int b = 0; b < EPI_BOUND_N; b++)
		if (b != EPI_BOUND_BRANCH && out->bound_t[b] > out->bound_t[out->bound])
			out->bound = b;
	if (out->bound_t[EPI_BOUND_BRANCH] > out->bound_t[out->bound])
		out->bound = EPI_BOUND_BRANCH;
}

/* The time the front end takes over an iteration of loop L, in one pass
 * over its own instructions: C->taken for each branch it takes (its
 * backward branch, its jumps, and of a conditional branch forward within
 * it the share of the flow that its target gets from it: what the next
 * instruction loses), and C->split for each further 64-byte line of code
 * it enters (where the flow runs on from one instruction into the next
 * line, and where an instruction reached by a jump ends in the line after
 * its first byte). */
#define CODE_LINE 64

static double fetch_time(const epi_object *o, int l, const epi_mcosts *c)
{
	const epi_mloop *L = &o->loop[l];
	uint64_t lo = o->in[L->first].addr, hi = o->in[L->last].addr;
	double taken = 0, lines = 0;
	for (int i = L->first; i <= L->last; i++) {
		if (o->loop_of[i] != l)
			continue;
		const epi_insn *in = &o->in[i];
		double w = o->weight[i];
		if (in->klass == EPI_IC_BRANCH) {
			if (!in->cond || !in->direct || (in->target >= lo && in->target <= in->addr))
				taken += w;
			else if (in->target > in->addr && in->target <= hi && i < L->last && o->loop_of[i + 1] == l &&
				 w > o->weight[i + 1])
				taken += w - o->weight[i + 1];
		}
		uint64_t end = (in->addr + in->size - 1) / CODE_LINE, from = in->addr / CODE_LINE;
		/* the instruction before runs on into this one (within the
		 * loop: the loop's entry from before it runs once) */
		if (i > L->first) {
			const epi_insn *p = &o->in[i - 1];
			int on = p->klass != EPI_IC_RET && !(p->klass == EPI_IC_BRANCH && !p->cond);
			if (on && p->addr + p->size == in->addr)
				from = (p->addr + p->size - 1) / CODE_LINE;
		}
		if (end > from)
			lines += w * (double)(end - from);
	}
	return taken * c->taken + lines * c->split;
}

/* The stack slots a loop stores that price_range tells apart; past them,
 * every slot's accesses are taken as a stored slot's */
#define STORED_SLOTS 32

/* The instructions [lo, hi] owned by L (-1: the function's own): bounds
 * per iteration into OUT; a loop's with its streams ST (scan's at SW),
 * NULL for code in no loop. */
static void price_range(const epi_object *o, int l, int lo, int hi, const int *sel, int want, const epi_msweep *sw,
			const streams *st, const epi_mcosts *c, epi_mloop_price *out)
{
	memset(out, 0, sizeof *out);
	double n = 0, acc = 0, slots = 0, nld = 0, idiv = 0, fdiv = 0, imul = 0, fadd = 0, fmul = 0;
	/* the stack slots the loop stores (-O0's counter, a sum): their loads
	 * wait for the value of a store still in flight; those it only reads
	 * (a parameter, the counters of the loops around) are loads as any */
	int64_t stored[STORED_SLOTS];
	int nstored = 0, many = 0;
	for (int i = lo; i <= hi && !many; i++) {
		if (o->loop_of[i] != l || (sel && sel[i] != want) || !o->frame[i] || !o->in[i].stores)
			continue;
		int k = 0;
		while (k < nstored && stored[k] != o->in[i].disp)
			k++;
		if (k == nstored && nstored < STORED_SLOTS)
			stored[nstored++] = o->in[i].disp;
		else if (k == nstored)
			many = 1;
	}
	for (int i = lo; i <= hi; i++) {
		if (o->loop_of[i] != l || (sel && sel[i] != want))
			continue;
		const epi_insn *in = &o->in[i];
		double w = o->weight[i];
		/* a compare and the conditional branch after it issue as one
		 * (macro-fusion) */
		int fused = in->klass == EPI_IC_BRANCH && in->cond && i > lo && o->loop_of[i - 1] == l &&
			    (o->in[i - 1].aop == EPI_AOP_CMP || o->in[i - 1].aop == EPI_AOP_TEST);
		n += fused ? 0 : w;
		enum epi_bound u = unit_of(in->klass);
		/* the integer and the floating-point dividers work beside
		 * each other and beside the other units */
		double tp = w * epi_mcosts_tp(c, in);
		if (in->klass == EPI_IC_INT_DIV) {
			idiv += tp;
		} else if (in->klass == EPI_IC_FP_DIV) {
			fdiv += tp;
		} else if (in->klass == EPI_IC_INT_MUL) {
			/* a multiply takes one of the integer units' turns, as
			 * an add does, on the units that multiply: those at
			 * mul.i64's rate (fewer than the adders) */
			out->bound_t[EPI_BOUND_INT] += w * c->tp[EPI_IC_INT];
			imul += tp;
		} else if (in->klass == EPI_IC_FP_MUL || in->klass == EPI_IC_FP_FMA) {
			fmul += tp;
		} else if (in->klass == EPI_IC_FP_ADD || in->klass == EPI_IC_FP_CVT) {
			fadd += tp;
		} else if (u != EPI_BOUND_ISSUE) {
			out->bound_t[u] += tp;
		}
		out->bound_t[EPI_BOUND_LOAD] +=
			w * in->loads * (o->vdst[i] && c->fp_load_tp > 0 ? c->fp_load_tp : c->load_tp);
		out->bound_t[EPI_BOUND_STORE] += w * in->stores * c->store_tp;
		nld += w * in->loads;
		int fwd = o->frame[i] && many;
		for (int k = 0; o->frame[i] && k < nstored && !fwd; k++)
			fwd = stored[k] == in->disp;
		if (fwd)
			slots += w * (in->loads + in->stores);
		else
			acc += w * (in->loads + in->stores);
		out->e_dyn += w * (epi_mcosts_e(c, in) + in->loads * c->e_load + in->stores * c->e_store);
	}
	if (imul > out->bound_t[EPI_BOUND_INT])
		out->bound_t[EPI_BOUND_INT] = imul;
	/* adds and multiplies: in units of their own the longer of the two,
	 * in shared ones their sum (the other SIMD work beside them) */
	out->bound_t[EPI_BOUND_FP] += fmax(fadd, fmul) + (1 - c->fp_apart) * fmin(fadd, fmul);
	out->bound_t[EPI_BOUND_ISSUE] = n * c->issue;
	out->bound_t[EPI_BOUND_DIV] = idiv > fdiv ? idiv : fdiv;
	/* loads and stores share address units: so many accesses a cycle of
	 * either kind (load.mix.l1); a stack slot's that the loop stores, in
	 * code that keeps its variables there, at the rate such code sustains
	 * (load.mix.frame: its counter stored and loaded back) */
	double ports = acc * c->access_tp + slots * c->slot_tp;
	if (ports > out->bound_t[EPI_BOUND_LOAD])
		out->bound_t[EPI_BOUND_LOAD] = ports;
	double apart = 0, wait = 0, col[2], walked[2] = {0, 0};
	if (st) {
		apart = memory(sw, st, c, out, &wait, col, walked);
		epi_mflow fl;
		epi_mflow_loop(o, l, c, &fl);
		/* a chain through a stack slot (-O0) stores at each iteration,
		 * and those stores leave the store queue in order, behind a
		 * column's store that waits for its page's lookup */
		if (fl.slot)
			walked[0] += walked[1];
		out->bound_t[EPI_BOUND_LATENCY] = fl.latency;
		out->bound_t[EPI_BOUND_BRANCH] = fl.misses * c->miss;
		/* a chain that passes through memory (a value stored and loaded
		 * back, as -O0 keeps every variable) waits for the page walks
		 * of its iteration: the loads behind a walk wait with it. And
		 * for a column walk's load that misses both L1 and the
		 * first-level TLB (a line from beyond L1 on a page of its own):
		 * what the memory side does for the iteration, a line of the
		 * column's or what its loads wait, whichever takes longer, does
		 * not overlap the chain, in the share of the iterations whose
		 * column load misses both. What the loads wait: as the table
		 * measured it in -O0 code's own column walk, per load of the
		 * iteration (load.frame.col); without the kernels, the loads
		 * through their ports. Whether the chain passes through
		 * memory: it lengthens with the loads' latency */
		double stall = 0, miss = fmin(1, fmin(st->load_walks, col[0]));
		double held = c->frame_stall >= 0 ? nld * c->frame_stall : out->bound_t[EPI_BOUND_LOAD];
		if (miss > 0 && col[1] > 0 && st->pages > c->dtlb)
			stall = miss * fmax(col[1] / col[0], held);
		if ((wait > 0 || stall > 0) && fl.latency > 0) {
			epi_mcosts slower = *c;
			double d = c->load_lat > 0 ? c->load_lat : 1e-9;
			slower.load_lat += d;
			if (slower.load_lat_fp > 0)
				slower.load_lat_fp += d;
			if (slower.load_lat_idx > 0)
				slower.load_lat_idx += d;
			slower.fwd_lat += d;
			slower.fwd_lat_fp += d;
			slower.fwd_op_lat += d;
			slower.fwd_fail_lat += d;
			epi_mflow fs;
			epi_mflow_loop(o, l, &slower, &fs);
			if (fs.latency - fl.latency > 0.5 * d)
				out->bound_t[EPI_BOUND_LATENCY] = fl.latency + fmax(wait, stall);
		}
		/* a chain that starts afresh at each entry of a short loop (a
		 * dot product of a few elements) overlaps the next entry's as
		 * far as the window reaches: an entry's chain ends sooner by 1
		 * + window / (the instructions of an entry); one started before
		 * the loop around (a window's rows and columns), an entry of
		 * that loop's. A chain through a stack slot (-O0's s = 0 and s
		 * += ...) over the window such chains leave */
		double window = fl.slot ? c->window_slot : c->window;
		if (window > 0 && fl.afresh && sw->trip > 0 && n > 0) {
			double span = n * sw->trip * (fl.afresh == 2 ? sw->outer_trip : 1);
			if (span > 0)
				out->bound_t[EPI_BOUND_LATENCY] /= 1 + window / span;
		}
	}
	/* the core's bounds and the lines from its caches overlap, though
	 * not perfectly: where several come close, each holds up the others
	 * part of the time (an instruction ready when its port is busy, a
	 * load waiting for its line while the window fills behind it). They
	 * combine as a norm of order EPI_OVERLAP_NORM: their largest where
	 * one leads by far, 2^(1/p) times it where two are equal */
	double lines_t = 0, core = 0;
	for (int b = EPI_BOUND_L2; b < EPI_BOUND_DRAM; b++)
		if (out->bound_t[b] > lines_t)
			lines_t = out->bound_t[b];
	double mem = out->bound_t[EPI_BOUND_DRAM];
	/* page walks beside lines from memory: the stream evicts the page
	 * tables' lines the walks read, and each walk waits on memory too.
	 * Not the stores' lookups that the second level serves (memory's
	 * side: WALKED[0]), which read no page table and hold up nothing
	 * behind them: they stay with the core's bounds */
	int walks_mem = mem > 0 && walked[0] > 0;
	for (int b = 0; b < EPI_BOUND_L2; b++)
		if (b != EPI_BOUND_DIV)
			core += pow(fmax(0, out->bound_t[b] - (walks_mem && b == EPI_BOUND_TLB ? walked[0] : 0)),
				    EPI_OVERLAP_NORM);
	core = pow(core + pow(lines_t, EPI_OVERLAP_NORM), 1.0 / EPI_OVERLAP_NORM);
	/* the dividers overlap the rest less: not pipelined, each division
	 * holds one for its whole turn and its result comes about twice
	 * that later, while the work that waits for it (the conversion and
	 * the store after a modulo) holds the window. With the rest they
	 * combine as a 2-norm */
	double div = out->bound_t[EPI_BOUND_DIV];
	core = sqrt(core * core + div * div);
	if (walks_mem)
		mem += walked[0];
	/* lines from memory overlap the core's work only in part (the loads
	 * that wait for them hold the core's window): the two add as a 3-norm,
	 * between their largest (a cache's lines) and their sum */
	double t = core;
	if (mem > 0)
		t = cbrt(core * core * core + mem * mem * mem);
	/* a walk down columns pages apart meets memory in sweeps: in a share
	 * APART of the iterations each access waits for a line from memory,
	 * at memory's rate for lines in no order (the walk's stride is one a
	 * prefetcher follows from one access to the next: the accesses behind
	 * it do not wait its latency out), or the core's time if longer */
	if (apart > 0) {
		double f = apart < 1 ? apart : 1, miss = c->scatter > core ? c->scatter : core;
		t = f * miss + (1 - f) * t;
		out->bound_t[EPI_BOUND_DRAM] += f * miss;
	}
	/* an iteration takes at least the time the front end takes to follow
	 * its taken branches, at the empty loop's rate of one an iteration,
	 * and to enter the other lines of code its body runs into, at what
	 * iter.split adds (the core's other bounds overlap it: where it is
	 * the longest, the rest waits for instructions; the bound named issue) */
	if (st && (c->taken > 0 || c->split > 0)) {
		double fe = fetch_time(o, l, c);
		if (fe > t) {
			t = fe;
			if (fe > out->bound_t[EPI_BOUND_ISSUE])
				out->bound_t[EPI_BOUND_ISSUE] = fe;
		}
	}
	out->t = t + out->bound_t[EPI_BOUND_BRANCH];
	name_bound(out);
}

/* Where what one entry of the loop around touches outgrows a quarter of
 * L3's reach, the lines it streams in order come from memory in a growing
 * share, linearly up to all of them at the reach: a cache shared with
 * other cores and other data, whose replacement does not keep a working
 * set whole up to its last line. Loop L priced, at that share of its far
 * lines that are in order, as from L3 and as from memory (L3's reach
 * taken below the working set). A column walk's lines, one an access and
 * each used again by the next entries, stay in L3 up to the reach. */
#define L3_BLEND_FROM 0.25

static void price_loop(const epi_object *o, int l, const epi_msweep *sw, const epi_mcosts *c, epi_mloop_price *out)
{
	streams st;
	scan(o, l, sw, c, &st, NULL);
	price_range(o, l, o->loop[l].first, o->loop[l].last, NULL, 0, sw, &st, c, out);
	double l3 = reach(c, 2), from = L3_BLEND_FROM * l3;
	/* a loop with none around it in its function (a kernel a caller
	 * runs again and again): what one entry touches is what the next
	 * finds in L3, its lines in order those at stake */
	double in_order = st.far[0], cols = st.far[1], set = st.outer_span;
	if (!(sw->outer_trip > 0)) {
		in_order += st.near[0];
		cols += st.near[1];
		set = st.span;
	}
	if (!(l3 > 0) || !(sw->trip > 0) || level_of(c, set) != 2 || !(set > from) || !(in_order > 0))
		return;
	double share = (set - from) / (l3 - from) * in_order / (in_order + cols);
	epi_mcosts beyond = *c;
	beyond.l3_serves = (unsigned long long)(set / 2);
	epi_mloop_price m;
	price_range(o, l, o->loop[l].first, o->loop[l].last, NULL, 0, sw, &st, &beyond, &m);
	out->t = (1 - share) * out->t + share * m.t;
	for (int k = 0; k < EPI_BOUND_N; k++)
		out->bound_t[k] = (1 - share) * out->bound_t[k] + share * m.bound_t[k];
	name_bound(out);
}

/* Points at which a loop whose trip count varies is priced */
#define SPREAD_POINTS 8

void epi_mprice_loop(const epi_object *o, int l, const epi_msweep *sw, const epi_mcosts *c, epi_mloop_price *out)
{
	double mean = sw->trip;
	if (!(sw->spread > 0.05) || !(mean > 0)) {
		price_loop(o, l, sw, c, out);
		return;
	}
	/* a trip count that varies from entry to entry (a triangular loop):
	 * what its iterations touch, and so where it comes from and how many
	 * pages it turns, varies with it, and the price of an iteration is no
	 * straight line in the trip count. The trip counts taken at the
	 * midpoints of equal shares of the entries, of a distribution with
	 * the measured mean and deviation (trip_shape), each priced, weighted
	 * by its iterations. */
	double cv = fmin(sw->spread, 0.95), beta, b = mean * trip_shape(cv, &beta);
	int even = beta == 0;
	double wsum = 0;
	epi_mloop_price acc = {0}, p;
	for (int q = 0; q < SPREAD_POINTS; q++) {
		double u = (q + 0.5) / SPREAD_POINTS;
		double trip = even ? mean * (1 + sqrt(3) * cv * (2 * u - 1)) : b * (1 - pow(1 - u, 1 / beta));
		epi_msweep at = *sw;
		at.trip = trip;
		at.spread = 0;
		/* what an iteration of the loop around touches grows with it */
		if (isfinite(sw->round))
			at.round = sw->round * trip / mean;
		price_loop(o, l, &at, c, &p);
		wsum += trip;
		acc.t += trip * p.t;
		acc.e_dyn += trip * p.e_dyn;
		for (int k = 0; k < EPI_BOUND_N; k++)
			acc.bound_t[k] += trip * p.bound_t[k];
	}
	*out = acc;
	out->t /= wsum;
	out->e_dyn /= wsum;
	for (int k = 0; k < EPI_BOUND_N; k++)
		out->bound_t[k] /= wsum;
	name_bound(out);
}

void epi_mprice_fn(const epi_object *o, int f, const epi_mcosts *c, epi_mloop_price *out)
{
	price_range(o, -1, o->fn[f].first, o->fn[f].first + o->fn[f].n - 1, NULL, 0, NULL, NULL, c, out);
}

void epi_mprice_sel(const epi_object *o, int f, const int *sel, int want, const epi_mcosts *c, epi_mloop_price *out)
{
	price_range(o, -1, o->fn[f].first, o->fn[f].first + o->fn[f].n - 1, sel, want, NULL, NULL, c, out);
}
