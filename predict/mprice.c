/* mprice: the time and energy of machine code (see mprice.h). */
#include "predict/mprice.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *epi_bound_name(enum epi_bound b)
{
	static const char *const n[EPI_BOUND_N] = {"issue", "int", "fp", "load", "store", "latency"};
	return b < EPI_BOUND_N ? n[b] : "?";
}

/* KEY's seconds (or dynamic joules, DYN) per unit at COL, else those of
 * FALLBACK (noted in C as missing), else 0. */
static const epi_cost *exact(const epi_fcol *col, const char *key)
{
	for (int i = 0; i < col->n; i++)
		if (strcmp(col->op[i].key, key) == 0)
			return &col->op[i];
	return NULL;
}

static double cost(epi_mcosts *c, const epi_fcol *col, const char *key, const char *fallback, int dyn)
{
	const epi_cost *e = exact(col, key); /* a kernel, not its class's entry */
	if (!e && fallback) {
		if (!dyn && !strstr(c->missing_names, key)) {
			size_t n = strlen(c->missing_names);
			if (n + strlen(key) + 3 < sizeof c->missing_names)
				snprintf(c->missing_names + n, sizeof c->missing_names - n, "%s%s", n ? ", " : "", key);
			c->missing++;
		}
		e = exact(col, fallback);
		if (!e)
			e = epi_fcol_lookup(col, fallback);
	}
	if (!e)
		return 0;
	double v = dyn ? (isnan(e->e_dyn) ? e->e : e->e_dyn) : e->t;
	return isnan(v) || v < 0 ? 0 : v;
}

void epi_mcosts_from(epi_mcosts *c, const epi_fcol *col)
{
	memset(c, 0, sizeof *c);
	/* a cycle: the integer add's latency */
	double cyc = cost(c, col, "add.i64.lat", "add.i64", 0);
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
		c->tp[map[i].k] = cost(c, col, map[i].tp, "add.i64", 0);
		c->lat[map[i].k] = map[i].lat ? cost(c, col, map[i].lat, "add.i64.lat", 0) : 0;
		c->e_dyn[map[i].k] = cost(c, col, map[i].tp, "add.i64", 1);
	}
	c->lat[EPI_IC_INT] = cyc;
	c->load_tp = cost(c, col, "load.l1", "load", 0);
	c->store_tp = cost(c, col, "store.l1", "store", 0);
	c->load_lat = cost(c, col, "load.l1.lat", "load.l1", 0);
	c->fwd_lat = cost(c, col, "load.fwd.lat", "load.l1.lat", 0);
	c->fwd_lat_fp = cost(c, col, "load.fwdfp.lat", "load.l1.lat", 0);
	c->e_load = cost(c, col, "load.l1", "load", 1);
	c->e_store = cost(c, col, "store.l1", "store", 1);
	/* the issue rate: the fastest independent stream the table knows */
	c->issue = cost(c, col, "issue", NULL, 0);
	if (!(c->issue > 0)) {
		double best = c->tp[EPI_IC_INT];
		if (c->load_tp > 0 && c->load_tp < best)
			best = c->load_tp;
		c->issue = best;
	}
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
		if (!exact(col, need[i]) && len + strlen(need[i]) + 3 < n)
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
	case EPI_IC_FP_DIV:
	case EPI_IC_FP_CVT:
	case EPI_IC_VEC: return EPI_BOUND_FP;
	case EPI_IC_MOVE:
	case EPI_IC_NOP: return EPI_BOUND_ISSUE; /* no execution unit of note */
	default: return EPI_BOUND_INT;
	}
}

#define NREG 1024
#define NSLOT 64

typedef struct flow {
	double reg[NREG];
	int64_t slot_disp[NSLOT];
	double slot[NSLOT];
	int nslot;
} flow;

static double *slot_of(flow *f, int64_t disp, int create)
{
	for (int i = 0; i < f->nslot; i++)
		if (f->slot_disp[i] == disp)
			return &f->slot[i];
	if (!create || f->nslot == NSLOT)
		return NULL;
	f->slot_disp[f->nslot] = disp;
	f->slot[f->nslot] = 0;
	return &f->slot[f->nslot++];
}

/* One pass of the instructions [lo, hi] of O that are L's own (L -1: in
 * no loop) through the
 * data flow, each starting when its inputs are ready (no resource limit). */
static void flow_pass(const epi_object *o, int l, int lo, int hi, const epi_mcosts *c, flow *f)
{
	for (int i = lo; i <= hi; i++) {
		if (o->loop_of[i] != l)
			continue;
		const epi_insn *in = &o->in[i];
		if (in->klass == EPI_IC_BRANCH || in->klass == EPI_IC_NOP)
			continue; /* predicted: no wait */
		double start = 0;
		for (int r = 0; r < in->nrd; r++)
			if (in->rd[r] < NREG && f->reg[in->rd[r]] > start)
				start = f->reg[in->rd[r]];
		int slot = o->frame[i];
		int64_t disp = in->disp;
		double lat = c->lat[in->klass];
		if (in->loads) {
			double *s = slot ? slot_of(f, disp, 0) : NULL;
			double fwd = o->vdst[i] ? c->fwd_lat_fp : c->fwd_lat;
			if (s && *s + fwd > start + c->load_lat)
				start = *s + fwd - c->load_lat;
			lat += c->load_lat;
		}
		double done = start + lat;
		for (int r = 0; r < in->nwr; r++)
			if (in->wr[r] < NREG)
				f->reg[in->wr[r]] = done;
		if (in->stores && slot) {
			double *s = slot_of(f, disp, 1);
			if (s)
				*s = done;
		}
	}
}

static double flow_max(const flow *f)
{
	double m = 0;
	for (int r = 0; r < NREG; r++)
		if (f->reg[r] > m)
			m = f->reg[r];
	for (int i = 0; i < f->nslot; i++)
		if (f->slot[i] > m)
			m = f->slot[i];
	return m;
}

/* The instructions [lo, hi] owned by L (-1: the function's own): bounds
 * per iteration into OUT. */
static void price_range(const epi_object *o, int l, int lo, int hi, const epi_mcosts *c, int loop,
			epi_mloop_price *out)
{
	memset(out, 0, sizeof *out);
	double n = 0;
	for (int i = lo; i <= hi; i++) {
		if (o->loop_of[i] != l)
			continue;
		const epi_insn *in = &o->in[i];
		double w = o->weight[i];
		n += w;
		enum epi_bound u = unit_of(in->klass);
		if (u != EPI_BOUND_ISSUE)
			out->bound_t[u] += w * c->tp[in->klass];
		out->bound_t[EPI_BOUND_LOAD] += w * in->loads * c->load_tp;
		out->bound_t[EPI_BOUND_STORE] += w * in->stores * c->store_tp;
		out->e_dyn += w * (c->e_dyn[in->klass] + in->loads * c->e_load + in->stores * c->e_store);
	}
	out->bound_t[EPI_BOUND_ISSUE] = n * c->issue;
	if (loop) {
		/* three iterations through the data flow: the growth of the last
		 * is what each iteration waits for the one before */
		static __thread flow f;
		memset(&f, 0, sizeof f);
		flow_pass(o, l, lo, hi, c, &f);
		flow_pass(o, l, lo, hi, c, &f);
		double t2 = flow_max(&f);
		flow_pass(o, l, lo, hi, c, &f);
		out->bound_t[EPI_BOUND_LATENCY] = flow_max(&f) - t2;
	}
	out->bound = EPI_BOUND_ISSUE;
	for (int b = 0; b < EPI_BOUND_N; b++)
		if (out->bound_t[b] > out->bound_t[out->bound])
			out->bound = b;
	out->t = out->bound_t[out->bound];
}

void epi_mprice_loop(const epi_object *o, int l, const epi_mcosts *c, epi_mloop_price *out)
{
	const epi_mfn *f = &o->fn[o->loop[l].fn];
	price_range(o, l, f->first, f->first + f->n - 1, c, 1, out);
}

void epi_mprice_fn(const epi_object *o, int f, const epi_mcosts *c, epi_mloop_price *out)
{
	price_range(o, -1, o->fn[f].first, o->fn[f].first + o->fn[f].n - 1, c, 0, out);
}
