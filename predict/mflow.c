/* mflow: the loop-carried chain and the branches the data decides (see
 * mflow.h). */
#include "predict/mflow.h"

#include <math.h>
#include <string.h>

#include "model/util.h"

#define NREG EPI_LOOP_REGS
#define NSLOT 64
#define NT 4      /* terms of a linear form */
#define PASSES 3
/* at most, while a loop's chains still change from pass to pass */
#define MAX_PASSES 8

/* What a value depends on: data loaded from memory that moves with the
 * iteration; something the code a branch guards writes back (read from
 * the iteration after: KEPT), or wrote in this one (CHOSEN); a stack
 * slot's load (SLOT: -O0's variables). */
enum { DATA = 1, KEPT = 2, CHOSEN = 4, SLOT = 8 };

/* A linear form: c + sum coef[k] x root[k], the roots the values an
 * iteration starts with (registers, stack slots) and the results it
 * computes otherwise (numbered by what they compute). */
typedef struct form {
	uint64_t root[NT];
	int64_t coef[NT];
	int64_t c;
	int n;
} form;

static uint64_t mixh(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static form f_root(uint64_t id)
{
	form f = {.n = 1};
	f.root[0] = id;
	f.coef[0] = 1;
	return f;
}

static form f_const(int64_t k)
{
	form f = {.n = 0, .c = k};
	return f;
}

static uint64_t f_hash(const form *f)
{
	uint64_t h = mixh(7, (uint64_t)f->c);
	for (int k = 0; k < f->n; k++)
		h = mixh(mixh(h, f->root[k]), (uint64_t)f->coef[k]);
	return h;
}

/* A + K x B; a form of more terms than NT, or one that overflows, is a
 * root of its own. */
static form f_add(const form *a, const form *b, int64_t k)
{
	form r = *a;
	int64_t x;
	if (__builtin_mul_overflow(k, b->c, &x) || __builtin_add_overflow(r.c, x, &r.c))
		goto opaque;
	for (int j = 0; j < b->n; j++) {
		int t = 0;
		while (t < r.n && r.root[t] != b->root[j])
			t++;
		if (t == r.n) {
			if (r.n == NT)
				goto opaque;
			r.root[r.n] = b->root[j];
			r.coef[r.n++] = 0;
		}
		if (__builtin_mul_overflow(k, b->coef[j], &x) || __builtin_add_overflow(r.coef[t], x, &r.coef[t]))
			goto opaque;
	}
	/* no zero terms, roots in order: one form, one representation */
	int m = 0;
	for (int t = 0; t < r.n; t++)
		if (r.coef[t]) {
			r.root[m] = r.root[t];
			r.coef[m++] = r.coef[t];
		}
	r.n = m;
	for (int i = 1; i < r.n; i++)
		for (int j = i; j > 0 && r.root[j - 1] > r.root[j]; j--) {
			uint64_t tr = r.root[j];
			int64_t tc = r.coef[j];
			r.root[j] = r.root[j - 1];
			r.coef[j] = r.coef[j - 1];
			r.root[j - 1] = tr;
			r.coef[j - 1] = tc;
		}
	return r;
opaque:
	return f_root(mixh(mixh(f_hash(a), f_hash(b)), (uint64_t)k));
}

static form f_scale(const form *a, int64_t k)
{
	form z = f_const(0);
	return f_add(&z, a, k);
}

/* Whether A - B is a constant: into *D. */
static int f_diff(const form *a, const form *b, int64_t *d)
{
	form x = f_add(a, b, -1);
	*d = x.c;
	return x.n == 0;
}

/* A store to memory other than a stack slot, as one iteration ran it. */
typedef struct store_rec {
	form addr;
	form aaddr;          /* the address as a form of what the loop's entry starts with */
	int64_t stride;
	int bytes;
	double t;            /* when its value is ready */
	double ret;          /* when it retires: its value and every instruction before it ready */
	float w;             /* the share of the iterations that run it */
	int pass;
	unsigned char bits;
} store_rec;

/* A loop-carried chain: a register's (REG), or a stack slot's (SLOT, the
 * slot at DISP from the frame); neither when both are 0. */
typedef struct chain {
	unsigned reg;
	int slot;
	int64_t disp;
} chain;

typedef struct slot_st {
	int64_t disp;
	double t;
	form f;
	unsigned gen;
	form af;             /* its form over the passes (flow.abs) */
	unsigned agen;
	unsigned char bits;
} slot_st;

typedef struct flow {
	double t[NREG];          /* when each register's value is ready */
	double ret;              /* when the instructions so far have all completed */
	unsigned char bits[NREG];
	form f[NREG];            /* its form in this pass, when gen says so */
	unsigned gen[NREG];
	/* the same carried over the passes, as forms of what the first one
	 * starts with (values loaded told apart by pass): what a store of one
	 * iteration and a load of a later one share when their step is known
	 * only at run time (a column walk's, n * 8) */
	form af[NREG];
	unsigned agen[NREG];
	/* registers the loop never writes that the code just before it sets
	 * to another such register plus a constant: at entry, that one's
	 * value plus it (ALIAS 1 + the other, 0 none) */
	unsigned alias[NREG];
	int64_t alias_off[NREG];
	unsigned regs[NREG];     /* the registers the loop names (epi_loop_regs): the others are not read */
	int nregs;
	unsigned run;            /* the epoch of this loop's first pass */
	int abs;                 /* the forms read: af's (1) or f's (0) */
	slot_st slot[NSLOT];
	int nslot;
	store_rec *st;
	int nst, cap;
	unsigned epoch;          /* the pass under way, over every call */
	int pass;
	int watch;               /* a load to watch (-1: none): WATCHED when it reads a store of an
				    earlier iteration */
	int watched;
	form *acc;               /* with REPEAT: the addresses accessed so far in this pass */
	int nacc, acap;
	unsigned char *repeat;   /* when not NULL, epi_object.repeat to mark */
	unsigned char *rmw;      /* with it, epi_object.rmw */
	unsigned char *accld;    /* per address in ACC: a load's */
	int accldcap;
	float *accw;             /* per address in ACC: its access's weight */
	int accwcap;
	double *addr;            /* per instruction from the loop's first: when its address was ready in
				    the pass before (-1: not yet) */
	int addrcap;
} flow;

/* Register R's value as the loop starts: its own, or another's plus a
 * constant (rsi = rdx + 0x400 before a column walk storing through rsi
 * what it loads through rdx the iteration after). */
static form entry_form(const flow *f, unsigned r)
{
	if (!f->alias[r])
		return f_root(mixh(1, r));
	form b = f_root(mixh(1, f->alias[r] - 1)), k = f_const(f->alias_off[r]);
	return f_add(&b, &k, 1);
}

static form reg_form(const flow *f, unsigned r)
{
	if (!r || r >= NREG)
		return f_const(0);
	if (f->abs)
		return f->agen[r] >= f->run ? f->af[r] : entry_form(f, r);
	return f->gen[r] == f->epoch ? f->f[r] : entry_form(f, r);
}

static slot_st *slot_of(flow *f, int64_t disp, int create)
{
	for (int i = 0; i < f->nslot; i++)
		if (f->slot[i].disp == disp)
			return &f->slot[i];
	if (!create || f->nslot == NSLOT)
		return NULL;
	slot_st *s = &f->slot[f->nslot++];
	memset(s, 0, sizeof *s);
	s->disp = disp;
	s->t = -1; /* no store yet */
	return s;
}

static form slot_form(const flow *f, const slot_st *s, int64_t disp)
{
	if (f->abs)
		return s && s->agen >= f->run ? s->af : f_root(mixh(2, (uint64_t)disp));
	return s && s->gen == f->epoch ? s->f : f_root(mixh(2, (uint64_t)disp));
}

/* The form of operand OP: a register's, an immediate, the value MEM read. */
static form opnd(const flow *f, const epi_opnd *op, const form *mem)
{
	switch (op->kind) {
	case EPI_OPND_REG: return reg_form(f, op->reg);
	case EPI_OPND_IMM: return f_const(op->imm);
	default: return *mem;
	}
}

static form addr_form(const flow *f, const epi_insn *in)
{
	form a = reg_form(f, in->base), x = reg_form(f, in->index), d = f_const(in->disp);
	form s = f_add(&a, &x, in->scale ? in->scale : 1);
	return f_add(&s, &d, 1);
}

/* The form of the value instruction I (IN) writes to its first operand,
 * MEM the value its memory operand read: moves, additions, shifts and
 * multiplications by constants followed; anything else numbered by what it
 * computes from what, so that the same computation twice is one value. */
static form value_of(const flow *f, const epi_insn *in, const form *mem)
{
	const epi_opnd *op = in->op;
	int n = in->nop;
	form d = reg_form(f, op[0].reg);
	form a = n > 1 ? opnd(f, &op[1], mem) : f_const(0);
	form b = n > 2 ? opnd(f, &op[2], mem) : f_const(0);
	int sub = in->aop == EPI_AOP_SUB || in->aop == EPI_AOP_SUBS;
	if ((in->aop == EPI_AOP_XOR || in->aop == EPI_AOP_SUB) && n == 2 && op[1].kind == EPI_OPND_REG &&
	    op[1].reg == op[0].reg)
		return f_const(0);
	if (in->klass == EPI_IC_MOVE && n == 2 && !in->stores)
		return a;
	/* widened: the same value (indices are small) */
	if ((in->aop == EPI_AOP_MOVSXD || in->aop == EPI_AOP_MOVSX || in->aop == EPI_AOP_MOVZX ||
	     in->aop == EPI_AOP_SXTW || in->aop == EPI_AOP_UXTW) &&
	    n == 2)
		return a;
	if ((in->aop == EPI_AOP_ADD || in->aop == EPI_AOP_ADDS || sub) && n == 2)
		return f_add(&d, &a, sub ? -1 : 1);
	if ((in->aop == EPI_AOP_ADD || in->aop == EPI_AOP_ADDS || sub) && n == 3)
		return f_add(&a, &b, sub ? -1 : 1);
	if (in->aop == EPI_AOP_INC || in->aop == EPI_AOP_DEC) {
		form one = f_const(1);
		return f_add(&d, &one, in->aop == EPI_AOP_INC ? 1 : -1);
	}
	if (in->aop == EPI_AOP_NEG)
		return f_scale(n == 1 ? &d : &a, -1);
	if (in->aop == EPI_AOP_LEA)
		return addr_form(f, in);
	if ((in->aop == EPI_AOP_SHL || in->aop == EPI_AOP_SAL) && n == 2 && op[1].kind == EPI_OPND_IMM && op[1].imm >= 0 &&
	    op[1].imm < 32)
		return f_scale(&d, (int64_t)1 << op[1].imm);
	if (in->aop == EPI_AOP_LSL && n == 3 && op[2].kind == EPI_OPND_IMM && op[2].imm >= 0 && op[2].imm < 32)
		return f_scale(&a, (int64_t)1 << op[2].imm);
	if (in->aop == EPI_AOP_IMUL || in->aop == EPI_AOP_MUL) {
		if (n == 3 && op[2].kind == EPI_OPND_IMM)
			return f_scale(&a, op[2].imm);
		const form *x = n == 2 ? &d : &a, *y = n == 2 ? &a : &b;
		if (n >= 2 && y->n == 0)
			return f_scale(x, y->c);
		if (n >= 2 && x->n == 0)
			return f_scale(y, x->c);
	}
	uint64_t h = mixh(4, in->isa_id);
	for (int k = 0; k < n; k++) {
		form v = opnd(f, &op[k], mem);
		h = mixh(h, f_hash(&v));
	}
	return f_root(h);
}

/* Whether conditional branch I of loop L goes one way or the other within
 * an iteration: neither leaves L nor goes back to its head. */
static int inner_branch(const epi_object *o, int l, int i, int lo, int hi)
{
	const epi_insn *in = &o->in[i];
	if (!in->direct || i + 1 > hi || !epi_in_loop(o, i + 1, l))
		return 0;
	int a = epi_object_insn_at(o, lo, hi + 1, in->target);
	return a >= 0 && a != o->loop[l].head && epi_in_loop(o, a, l);
}

/* Whether conditional branch I of loop L jumps over an inner loop whole
 * (its code from a few instructions after I to just before the target):
 * a test that an inner loop of the source runs at all, which goes the
 * way that loop's runs go, as a predictor learns (rows of a sparse matrix
 * are seldom empty). */
static int guards_loop(const epi_object *o, int l, int i, int lo, int hi)
{
	const epi_insn *in = &o->in[i];
	int a = in->direct ? epi_object_insn_at(o, lo, hi + 1, in->target) : -1;
	if (a < 0)
		return 0;
	/* an inner loop of the source's (not a version of L itself that the
	 * compiler made for a way the data takes) */
	for (int k = 0; k < o->nloop; k++)
		if (o->loop[k].parent == l && o->loop[k].src >= 0 && o->loop[k].src != o->loop[l].src &&
		    o->loop[k].first > i && o->loop[k].first <= i + 8 && o->loop[k].last < a && a - o->loop[k].last <= 8)
			return 1;
	return 0;
}

/* The latest store of an earlier iteration (or earlier in this one) whose
 * bytes a load of BYTES at ADDR (moving STRIDE per iteration) reads: into
 * *WHOLE whether it covers them all. */
static const store_rec *store_read(const flow *f, const form *addr, const form *aaddr, int64_t stride, int bytes,
				   int *whole)
{
	for (int k = f->nst - 1; k >= 0; k--) {
		const store_rec *s = &f->st[k];
		int d = f->pass - s->pass;
		int64_t c;
		if (d > 0 && stride == EPI_STRIDE_RUNTIME && s->stride == EPI_STRIDE_RUNTIME) {
			/* a step known at run time: the forms over the passes */
			if (!f_diff(aaddr, &s->aaddr, &c))
				continue;
		} else {
			if (d > 0 && (s->stride != stride || stride == EPI_STRIDE_UNKNOWN || stride == EPI_STRIDE_RUNTIME))
				continue;
			if (!f_diff(addr, &s->addr, &c))
				continue;
			c += d * stride;
		}
		if (c < s->bytes && c + bytes > 0) {
			*whole = c >= 0 && c + bytes <= s->bytes;
			return s;
		}
	}
	return NULL;
}

/* Whether code some iterations skip wrote, the iteration before, the bytes
 * at ADDR: a value the branch it guards reads back. */
static int kept(const flow *f, const form *addr, int bytes)
{
	for (int k = f->nst - 1; k >= 0 && f->st[k].pass >= f->pass - 1; k--) {
		const store_rec *s = &f->st[k];
		int64_t c;
		if (s->pass == f->pass - 1 && s->w < 1 && f_diff(addr, &s->addr, &c) && c < s->bytes && c + bytes > 0)
			return 1;
	}
	return 0;
}

/* Whether instruction I (a store to a stack slot, from LO on) stores the
 * slot's own value plus a constant: -O0's i++ (addl $1, slot; or a load
 * of the slot, an add or lea of a constant, the store back). */
static int steps_slot(const epi_object *o, int i, int lo)
{
	const epi_insn *in = &o->in[i];
	if (in->loads && (in->aop == EPI_AOP_ADD || in->aop == EPI_AOP_SUB) && in->nop == 2 &&
	    in->op[1].kind == EPI_OPND_IMM)
		return 1;
	const epi_opnd *src = epi_isa_stored(in);
	if (in->klass != EPI_IC_MOVE || in->loads || in->nop != 2 || src->kind != EPI_OPND_REG)
		return 0;
	unsigned r = src->reg, x;
	int stepped = 0;
	int64_t k;
	for (int j = i - 1; j >= lo && j >= i - 8; j--) {
		const epi_insn *p = &o->in[j];
		int writes = 0;
		for (int w = 0; w < p->nwr; w++)
			writes |= p->wr[w] == r;
		if (p->klass == EPI_IC_BRANCH || p->klass == EPI_IC_CALL)
			return 0;
		if (!writes)
			continue;
		if (!stepped && epi_steps_reg(p, &x, &k) && x == r) {
			stepped = 1;
		} else if (!stepped && epi_copies_plus(p, &x, &k)) {
			stepped = 1;
			r = x; /* lea edx, [rax + 1]; aarch64 add w1, w0, #1 */
		} else {
			return stepped && p->klass == EPI_IC_MOVE && p->loads && o->frame[j] && p->disp == in->disp;
		}
	}
	return 0;
}

/* Whether an instruction of class K works in the floating-point and SIMD
 * units (what it loads goes there). */
static int fp_op(enum epi_iclass k)
{
	switch (k) {
	case EPI_IC_FP_ADD:
	case EPI_IC_FP_MUL:
	case EPI_IC_FP_FMA:
	case EPI_IC_FP_DIV:
	case EPI_IC_FP_CVT:
	case EPI_IC_VEC: return 1;
	default: return 0;
	}
}

/* An instruction that the share W of the iterations runs completes at T:
 * F's instructions so far have all completed by F->ret, in that share
 * no sooner than T. */
static void retire(flow *f, float w, double t)
{
	if (t > f->ret)
		f->ret = w < 1 ? w * t + (1 - w) * f->ret : t;
}

/* One iteration: the instructions [lo, hi] that are L's own. */
static void pass(const epi_object *o, int l, int lo, int hi, const epi_mcosts *c, flow *f, epi_mflow *out)
{
	f->epoch++;
	/* what code some iterations skip wrote last, in the iteration
	 * before: a value a branch chose */
	for (int k = 0; k < f->nregs; k++)
		if (f->bits[f->regs[k]] & CHOSEN)
			f->bits[f->regs[k]] |= KEPT;
	for (int s = 0; s < f->nslot; s++)
		if (f->slot[s].bits & CHOSEN)
			f->slot[s].bits |= KEPT;
	double p = o->branch_prob < 0.5 ? o->branch_prob : 1 - o->branch_prob;
	/* from the loop's head on, the code before it in address order last
	 * (a loop entered in its middle runs that part at the iteration's end) */
	int h = o->loop[l].head >= lo && o->loop[l].head <= hi ? o->loop[l].head : lo;
	for (int n = 0, i = h; n <= hi - lo; n++, i = i == hi ? lo : i + 1) {
		if (o->loop_of[i] != l)
			continue;
		const epi_insn *in = &o->in[i];
		if (in->klass == EPI_IC_BRANCH) {
			/* it retires when what it tests is ready */
			double tb = 0;
			for (int r = 0; r < in->nrd; r++)
				if (in->rd[r] < NREG && f->t[in->rd[r]] > tb)
					tb = f->t[in->rd[r]];
			retire(f, o->weight[i], tb);
			/* predicted: nothing waits for it, unless the data decides */
			if (in->cond && f->pass == PASSES - 1 && p > 0 && inner_branch(o, l, i, lo, hi) &&
			    !guards_loop(o, l, i, lo, hi)) {
				unsigned char b = 0;
				for (int r = 0; r < in->nrd; r++)
					if (in->rd[r] < NREG)
						b |= f->bits[in->rd[r]];
				if ((b & DATA) && !(b & KEPT))
					out->misses += o->weight[i] * p;
			}
			continue;
		}
		if (in->klass == EPI_IC_NOP)
			continue;
		double start = 0, addr = 0;
		unsigned char bits = 0, abits = 0;
		for (int r = 0; r < in->nrd; r++) {
			unsigned x = in->rd[r];
			if (x >= NREG)
				continue;
			bits |= f->bits[x];
			if (in->loads && ((x == in->base && in->base) || (x == in->index && in->index))) {
				abits |= f->bits[x];
				if (f->t[x] > addr)
					addr = f->t[x];
			} else if (f->t[x] > start) {
				start = f->t[x];
			}
		}
		int frame = o->frame[i];
		form at = f_const(0), mem = f_const(0), aat = f_const(0), amem = f_const(0);
		if ((in->loads || in->stores) && !frame) {
			at = addr_form(f, in);
			f->abs = 1;
			aat = addr_form(f, in);
			f->abs = 0;
			if (f->repeat) {
				/* of an access that runs at least as often: one that
				 * some of the iterations skip (a case of a switch)
				 * does not bring the line for the others */
				int64_t d;
				float w = o->weight[i];
				for (int k = 0; k < f->nacc && !f->repeat[i]; k++)
					f->repeat[i] = f->accw[k] >= w && f_diff(&at, &f->acc[k], &d) && d > -64 && d < 64;
				/* a store of what the iteration has read there:
				 * the element is rewritten, not written first */
				f->rmw[i] = in->stores && in->loads;
				for (int k = 0; k < f->nacc && in->stores && !f->rmw[i]; k++)
					f->rmw[i] = f->accld[k] && f->accw[k] >= w && f_diff(&at, &f->acc[k], &d) && d == 0;
				ALLOC_GROW(f->acc, f->nacc + 1, f->acap);
				ALLOC_GROW(f->accld, f->nacc + 1, f->accldcap);
				ALLOC_GROW(f->accw, f->nacc + 1, f->accwcap);
				f->accld[f->nacc] = in->loads != 0;
				f->accw[f->nacc] = w;
				f->acc[f->nacc++] = at;
			}
		}
		if (in->loads) {
			/* the data reaches a floating-point or SIMD register
			 * later than a general one (the domains' crossing), and
			 * an address with an index later than base and offset */
			int fp = (o->vdst[i] || fp_op(in->klass)) && c->load_lat_fp > 0;
			double value = addr + (fp                                  ? c->load_lat_fp
					       : in->index && c->load_lat_idx > 0 ? c->load_lat_idx
										 : c->load_lat);
			/* a plain load of a store's value is renamed, a load into
			 * an operation waits for the forward (a double's always) */
			double fwd = o->vdst[i]                                   ? c->fwd_lat_fp
				     : in->klass == EPI_IC_MOVE || in->stores ? c->fwd_lat
									  : c->fwd_op_lat;
			if (frame) {
				slot_st *s = slot_of(f, in->disp, 0);
				if (s && s->t >= 0 && s->t + fwd > value)
					value = s->t + fwd;
				mem = slot_form(f, s, in->disp);
				f->abs = 1;
				amem = slot_form(f, s, in->disp);
				f->abs = 0;
				if (s)
					bits |= s->bits;
				bits |= SLOT;
			} else {
				mem = f_root(mixh(3, (uint64_t)i));
				amem = f_root(mixh(mixh(3, (uint64_t)i), (uint64_t)f->pass + 1));
				if (o->stride[i] != 0)
					bits |= DATA;
				int whole = 0;
				const store_rec *s = store_read(f, &at, &aat, o->stride[i], in->mem_bytes, &whole);
				if (s && i == f->watch && s->pass < f->pass)
					f->watched = 1;
				/* an address that each iteration computes anew
				 * from stack slots it does not carry (-O0's
				 * A[i * n + j]): ready as long after the
				 * iteration's start in every pass, to a
				 * millionth (of itself, or of a cycle): one from
				 * a slot the loop steps is ready a cycle or two
				 * later at each pass where the core renames the
				 * slot's store and load */
				int fresh = (abits & SLOT) && f->addr[i - lo] >= 0 &&
					    fabs(addr - f->addr[i - lo]) <= 1e-6 * (addr + c->lat[EPI_IC_INT]);
				f->addr[i - lo] = addr;
				if (s) {
					/* in the share of the iterations that store; a
					 * load that takes only part of its bytes from
					 * the store waits for it to reach the cache,
					 * so for it to retire. A load of an earlier
					 * iteration's store whose address the
					 * iteration computes anew is issued only once
					 * the store's value is there, its address
					 * computed after: the address's time and a
					 * load from L1 count from then, where they
					 * take longer than the forward (on cores
					 * that wait so: others forward the element
					 * as a slot, elem_ahead of the excess) */
					if (fresh && s->pass < f->pass && addr + c->load_lat > fwd)
						fwd += (1 - c->elem_ahead) * (addr + c->load_lat - fwd);
					double v = whole ? s->t + s->w * fwd : s->ret + s->w * c->fwd_fail_lat;
					if (v > value)
						value = v;
					bits |= s->bits;
				}
				if (kept(f, &at, in->mem_bytes))
					bits |= KEPT;
			}
			if (value > start)
				start = value;
		}
		double done = start + epi_mcosts_lat(c, in);
		/* in order: a store retires after every instruction before it */
		double ret = f->ret > done ? f->ret : done;
		retire(f, o->weight[i], done);
		double wb = in->writeback && in->base < NREG ? f->t[in->base] : 0;
		/* cltq: rax from eax, the same value */
		int same = in->aop == EPI_AOP_CDQE || in->aop == EPI_AOP_CLTQ;
		int first = in->nop > 0 && in->op[0].kind == EPI_OPND_REG;
		form v = first ? value_of(f, in, &mem) : f_const(0), av = f_const(0);
		if (first) {
			f->abs = 1;
			av = value_of(f, in, &amem);
			f->abs = 0;
		}
		/* code some iterations skip: its results are that late in that
		 * share of the iterations (an if and its else in turn: the chain
		 * of each path in its share) */
		float w = o->weight[i];
		/* a value that code some iterations skip writes is one the
		 * branch before chose (a running minimum): a condition that
		 * reads it back in a later iteration grows predictable. Not a
		 * pointer or an index it steps by a constant (a switch's case
		 * that advances the pointer, a merge's arms), nor what every
		 * iteration writes again after it */
		unsigned sr;
		int64_t sk;
		int steps = epi_steps_reg(in, &sr, &sk);
		unsigned char chosen = w < 1 && !steps ? CHOSEN : 0;
		if (steps)
			bits &= (unsigned char)~(KEPT | CHOSEN);
		for (int r = 0; r < in->nwr; r++) {
			unsigned x = in->wr[r];
			if (x >= NREG)
				continue;
			/* a base register that the access moves (aarch64's [x0], #8)
			 * is ready an add after the address, not with the data */
			double at = in->writeback && x == in->base ? wb + c->lat[EPI_IC_INT] : done;
			f->t[x] = w < 1 && f->t[x] < at ? w * at + (1 - w) * f->t[x] : at;
			f->bits[x] = bits | chosen;
			if (same) {
				f->f[x] = reg_form(f, x);
				f->abs = 1;
				f->af[x] = reg_form(f, x);
				f->abs = 0;
			} else {
				f->f[x] = first && x == in->op[0].reg ? v : f_root(mixh(mixh(5, (uint64_t)i), x));
				f->af[x] = first && x == in->op[0].reg
						   ? av
						   : f_root(mixh(mixh(mixh(5, (uint64_t)i), x), (uint64_t)f->pass + 1));
			}
			f->gen[x] = f->agen[x] = f->epoch;
		}
		if (!in->stores)
			continue;
		if (frame) {
			slot_st *s = slot_of(f, in->disp, 1);
			if (!s)
				continue;
			s->t = w < 1 && s->t >= 0 && s->t < done ? w * done + (1 - w) * s->t : done;
			if (w < 1 && steps_slot(o, i, lo))
				s->bits = bits & (unsigned char)~(KEPT | CHOSEN);
			else
				s->bits = bits | (w < 1 ? CHOSEN : 0);
			/* the value stored (add $1, slot: in place) */
			const epi_opnd *src = epi_isa_stored(in);
			if (in->loads && in->nop == 2 && src->kind == EPI_OPND_IMM &&
			    (in->aop == EPI_AOP_ADD || in->aop == EPI_AOP_SUB)) {
				form one = f_const(src->imm);
				s->f = f_add(&mem, &one, in->aop == EPI_AOP_SUB ? -1 : 1);
				s->af = f_add(&amem, &one, in->aop == EPI_AOP_SUB ? -1 : 1);
			} else if (!in->loads && in->nop == 2 && src->kind == EPI_OPND_REG) {
				s->f = reg_form(f, src->reg);
				f->abs = 1;
				s->af = reg_form(f, src->reg);
				f->abs = 0;
			} else {
				s->f = f_root(mixh(6, (uint64_t)i));
				s->af = f_root(mixh(mixh(6, (uint64_t)i), (uint64_t)f->pass + 1));
			}
			s->gen = s->agen = f->epoch;
		} else {
			ALLOC_GROW(f->st, f->nst + 1, f->cap);
			store_rec *s = &f->st[f->nst++];
			s->addr = at;
			s->aaddr = aat;
			s->stride = o->stride[i];
			s->bytes = in->mem_bytes;
			s->t = done;
			s->ret = ret;
			s->w = o->weight[i];
			s->pass = f->pass;
			s->bits = bits;
		}
	}
}

/* The largest growth of a value's time over the last iteration, from
 * BEFORE (registers, then slots, as they were when it began); into C,
 * the register that grows the most, or the slot where one grows as much
 * (the chain passes through memory: -O0's s += x loads s into a register
 * and stores it back, and both grow alike); neither when none grows. */
static double growth(const flow *f, const double *before, chain *c)
{
	double m = 0, ms = 0;
	memset(c, 0, sizeof *c);
	unsigned reg = 0;
	for (int k = 0; k < f->nregs; k++)
		if (f->t[f->regs[k]] - before[f->regs[k]] > m) {
			m = f->t[f->regs[k]] - before[f->regs[k]];
			reg = f->regs[k];
		}
	int64_t disp = 0;
	for (int i = 0; i < f->nslot; i++)
		if (f->slot[i].t - before[NREG + i] > ms) {
			ms = f->slot[i].t - before[NREG + i];
			disp = f->slot[i].disp;
		}
	if (ms > 0 && ms >= m * (1 - 1e-9)) {
		c->slot = 1;
		c->disp = disp;
	} else {
		c->reg = reg;
	}
	return m > ms ? m : ms;
}

/* F ready for a first pass over loop L (instructions LO..HI). */
/* Whether a branch of function FN goes to instruction I. */
static int branch_target(const epi_object *o, int fn, int i)
{
	const epi_mfn *g = &o->fn[fn];
	for (int j = g->first; j < g->first + g->n; j++)
		if (o->in[j].klass == EPI_IC_BRANCH && o->in[j].direct && o->in[j].target == o->in[i].addr)
			return 1;
	return 0;
}

/* F's aliases for loop L (instructions LO..HI): from the straight code
 * before its first instruction, back to a branch, a call or an
 * instruction a branch goes to. */
static void entry_aliases(flow *f, const epi_object *o, int l, int lo, int hi)
{
	unsigned char wl[NREG] = {0}, after[NREG] = {0};
	for (int k = 0; k < f->nregs; k++)
		f->alias[f->regs[k]] = 0;
	int fn = o->loop[l].fn;
	if (fn < 0 || fn >= o->nfn)
		return;
	for (int i = lo; i <= hi; i++)
		for (int k = 0; k < o->in[i].nwr; k++)
			if (o->in[i].wr[k] < NREG)
				wl[o->in[i].wr[k]] = 1;
	for (int i = lo - 1, n = 0; i >= o->fn[fn].first && n < 16; i--, n++) {
		const epi_insn *in = &o->in[i];
		if (in->klass == EPI_IC_BRANCH || in->klass == EPI_IC_CALL || in->klass == EPI_IC_RET)
			break;
		unsigned from, to = in->nwr ? in->wr[0] : 0;
		int64_t k;
		if (to && to < NREG && !after[to] && !wl[to] && epi_copies_plus(in, &from, &k) && from < NREG && from &&
		    !after[from] && !wl[from] && to == in->op[0].reg) {
			f->alias[to] = from + 1;
			f->alias_off[to] = k;
		}
		for (int w = 0; w < in->nwr; w++)
			if (in->wr[w] < NREG)
				after[in->wr[w]] = 1;
		if (branch_target(o, fn, i))
			break;
	}
}

/* Whether instruction I of O writes chain C: the register, or a store
 * to the slot. */
static int writes_chain(const epi_object *o, int i, const chain *c)
{
	const epi_insn *in = &o->in[i];
	if (c->slot)
		return o->frame[i] && in->stores && in->disp == c->disp;
	for (int w = 0; w < in->nwr; w++)
		if (in->wr[w] == c->reg)
			return 1;
	return 0;
}

/* Whether the straight code before instruction FROM of function FN sets
 * chain C from nothing computed before it: the register written by an
 * instruction that reads no register but a memory operand's address or
 * the zero register (a zeroing idiom, a constant, a load), the slot
 * stored a constant or such a register (-O0's s = 0; aarch64's str wzr).
 * Back to a call, a jump other than the one into loop IN_LOOP (-O0 enters
 * a loop at its test, at its end), or an instruction a branch goes to,
 * past the conditional branches that skip what follows (what comes before
 * them still runs first). 1: it does; 0: it does not; -1: the walk met an
 * instruction a branch goes to (*AT) first. *LOAD: the load from memory
 * (not a slot) that gave the value, if one did. */
static int sets_afresh(const epi_object *o, int fn, int from, int in_loop, const chain *c, int *at, int *load)
{
	uint64_t lo = o->in[o->loop[in_loop].first].addr, hi = o->in[o->loop[in_loop].last].addr;
	for (int i = from - 1, n = 0; i >= o->fn[fn].first && n < 16; i--, n++) {
		const epi_insn *in = &o->in[i];
		if (in->klass == EPI_IC_BRANCH && !in->cond && !(in->direct && in->target >= lo && in->target <= hi))
			return 0;
		if (in->klass == EPI_IC_CALL || in->klass == EPI_IC_RET)
			return 0;
		if (writes_chain(o, i, c)) {
			for (int r = 0; r < in->nrd; r++) {
				if (in->rd[r] == in->base || in->rd[r] == in->index ||
				    epi_isa_reg_zero(o->machine, in->rd[r]))
					continue;
				/* a slot's value from a register: that register's */
				chain from = {.reg = in->rd[r]};
				if (!c->slot || sets_afresh(o, fn, i, in_loop, &from, at, load) != 1)
					return 0;
			}
			if (in->loads && !o->frame[i])
				*load = i;
			return 1;
		}
		if (branch_target(o, fn, i)) {
			*at = i;
			return -1;
		}
	}
	return 0;
}

/* Where loop L's chain C starts afresh: at each entry of L (1: the code
 * before L sets it), at each entry of the loop around (2: the code before
 * that loop sets it, and the loop around writes it nowhere but in L: a
 * sum over a small window, s = 0 before two loops), or not (0). The core
 * overlaps one such start's chain with the next's. */
static int afresh_level(const epi_object *o, int l, const chain *c, int *load)
{
	int fn = o->loop[l].fn, at = -1;
	*load = -1;
	if ((!c->reg && !c->slot) || fn < 0 || fn >= o->nfn)
		return 0;
	int r = sets_afresh(o, fn, o->loop[l].first, l, c, &at, load);
	if (r >= 0)
		return r;
	int p = o->loop[l].parent;
	if (p < 0 || at < o->loop[p].first || at > o->loop[p].last)
		return 0;
	for (int i = o->loop[p].first; i <= o->loop[p].last; i++)
		if (o->loop_of[i] != l && writes_chain(o, i, c))
			return 0;
	return sets_afresh(o, fn, o->loop[p].first, p, c, &at, load) == 1 ? 2 : 0;
}

static void start(flow *f, const epi_object *o, int l, int lo, int hi)
{
	f->run = f->epoch + 1; /* forms over the passes from the first on */
	f->nregs = epi_loop_regs(o, lo, hi, f->regs);
	for (int k = 0; k < f->nregs; k++) {
		f->t[f->regs[k]] = 0;
		f->bits[f->regs[k]] = 0;
	}
	entry_aliases(f, o, l, lo, hi);
	f->ret = 0;
	ALLOC_GROW(f->addr, hi - lo + 1, f->addrcap);
	for (int i = 0; i <= hi - lo; i++)
		f->addr[i] = -1;
	f->watch = -1;
	f->watched = 0;
	f->nslot = 0;
	f->nst = 0;
	f->nacc = 0;
}

/* epi_mflow_loop's flow, one per thread, reused from loop to loop */
static __thread flow loop_flow;

void epi_mflow_release(void)
{
	free(loop_flow.acc);
	free(loop_flow.accld);
	free(loop_flow.accw);
	free(loop_flow.st);
	free(loop_flow.addr);
	loop_flow.addr = NULL;
	loop_flow.addrcap = 0;
	loop_flow.acc = NULL;
	loop_flow.accld = NULL;
	loop_flow.accw = NULL;
	loop_flow.st = NULL;
	loop_flow.acap = loop_flow.accldcap = loop_flow.accwcap = loop_flow.cap = 0;
}

/* Whether load I, an instruction of loop Q's own, reads what a store of
 * an earlier iteration of Q wrote (their addresses followed as in a
 * flow over Q). Uses the thread's flow. */
static int reads_earlier_store(const epi_object *o, int q, int i, const epi_mcosts *c)
{
	flow *f = &loop_flow;
	int lo = o->loop[q].first, hi = o->loop[q].last;
	epi_mflow ignored;
	memset(&ignored, 0, sizeof ignored);
	start(f, o, q, lo, hi);
	f->watch = i;
	for (f->pass = 0; f->pass < PASSES; f->pass++)
		pass(o, q, lo, hi, c, f, &ignored);
	f->watch = -1;
	return f->watched;
}

void epi_mflow_loop(const epi_object *o, int l, const epi_mcosts *c, epi_mflow *out)
{
	flow *f = &loop_flow;
	int lo = o->loop[l].first, hi = o->loop[l].last;
	memset(out, 0, sizeof *out);
	start(f, o, l, lo, hi);
	/* how much later each value is ready after the last iteration than
	 * after the one before: the largest is what each iteration waits for
	 * the one before. A value that waits several iterations in registers
	 * before it is used (gcc's predictive commoning moves u[k + 6] down to
	 * u[k + 1] one register an iteration) starts from the loop's entry,
	 * ready at once, for its first passes: those passes' growth is a load
	 * waited for once. So passes go on while the growth changes */
	static __thread double before[NREG + NSLOT];
	chain ch;
	double g = -1;
	for (f->pass = 0; f->pass < MAX_PASSES; f->pass++) {
		int nbefore = f->nslot;
		if (f->pass >= PASSES - 1) {
			for (int k = 0; k < f->nregs; k++)
				before[f->regs[k]] = f->t[f->regs[k]];
			for (int i = 0; i < nbefore; i++)
				before[NREG + i] = f->slot[i].t;
		}
		pass(o, l, lo, hi, c, f, out);
		if (f->pass < PASSES - 1)
			continue;
		/* a slot first stored by the last iteration, or not before it */
		for (int i = 0; i < f->nslot; i++)
			if (i >= nbefore || before[NREG + i] < 0)
				before[NREG + i] = f->slot[i].t;
		double last = g;
		g = growth(f, before, &ch);
		if (f->pass >= PASSES && fabs(g - last) <= 1e-3 * g)
			break;
	}
	int load;
	out->latency = g;
	out->afresh = out->latency > 0 ? afresh_level(o, l, &ch, &load) : 0;
	out->slot = ch.slot;
	/* a chain started from memory that the iteration before of the loop
	 * it is in stored (s = y[i - 1] before the loop, y[i] = s after it)
	 * goes on from entry to entry */
	if (out->afresh && load >= 0 && o->loop_of[load] >= 0 && reads_earlier_store(o, o->loop_of[load], load, c))
		out->afresh = 0;
}

void epi_mflow_repeats(epi_object *o, int lo, int hi)
{
	static const epi_mcosts none; /* forms only: no times */
	/* the thread's flow: start sets up what a loop's pass reads, so no
	 * fresh one (tens of kilobytes of forms) is cleared for each block */
	flow *f = &loop_flow;
	epi_mflow out;
	f->repeat = o->repeat;
	f->rmw = o->rmw;
	for (int l = lo; l < hi; l++) {
		start(f, o, l, o->loop[l].first, o->loop[l].last);
		pass(o, l, o->loop[l].first, o->loop[l].last, &none, f, &out);
	}
	f->repeat = NULL;
	f->rmw = NULL;
	epi_mflow_release();
}
