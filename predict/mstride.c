/* mstride: how far each memory access of a machine loop moves from one
 * iteration to the next (see objcode.h). The change of every register over
 * one iteration is followed through the loop's instructions: registers
 * stepped by constants (an induction variable, a pointer), stack slots
 * stepped likewise (-O0 keeps the loop's variable there), and what is
 * computed from them by moves, additions, shifts and multiplications by
 * constants; anything else that varies is unknown, as a stride in a
 * register (a column walk, a[k * n + j] along k) is. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"
#include "predict/objcode.h"

#define U EPI_STRIDE_UNKNOWN
#define R EPI_STRIDE_RUNTIME
#define NREG EPI_LOOP_REGS
#define NSLOT 64

static int64_t d_add(int64_t a, int64_t b)
{
	if (a == U || b == U)
		return U;
	if (a == R || b == R)
		return R;
	return a + b;
}

static int64_t d_mul(int64_t a, int64_t k)
{
	if (a == U || a == R)
		return k ? a : 0;
	return a * k;
}

/* The change of a product of A (changing) and an invariant not known at
 * compile time: a step known at run time. */
static int64_t d_scaled(int64_t a)
{
	return a == 0 ? 0 : a == U ? U : R;
}

typedef struct slots {
	int64_t disp[NSLOT], step[NSLOT];
	int n;
} slots;

static int64_t *slot(slots *s, int64_t disp)
{
	for (int i = 0; i < s->n; i++)
		if (s->disp[i] == disp)
			return &s->step[i];
	if (s->n == NSLOT)
		return NULL;
	s->disp[s->n] = disp;
	s->step[s->n] = 0;
	return &s->step[s->n++];
}

/* Whether IN writes the register of its first operand (not a compare's
 * or a test's, which set the flags only). */
static int writes_first(const epi_insn *in)
{
	if (in->nop < 1 || in->op[0].kind != EPI_OPND_REG)
		return 0;
	for (int w = 0; w < in->nwr; w++)
		if (in->wr[w] == in->op[0].reg)
			return 1;
	return 0;
}

static int64_t reg_d(const int64_t *d, unsigned r)
{
	return r && r < NREG ? d[r] : 0;
}

/* Whether IN adds a constant to its destination register (add r, imm;
 * sub; inc; dec; lea r, [r + imm]; aarch64 add x, x, #imm): the constant
 * into *K. */
static int steps_reg(const epi_insn *in, unsigned *r, int64_t *k)
{
	const epi_opnd *o = in->op;
	if (in->nop < 1 || o[0].kind != EPI_OPND_REG)
		return 0;
	*r = o[0].reg;
	if ((in->aop == EPI_AOP_INC || in->aop == EPI_AOP_DEC) && in->nop == 1) {
		*k = in->aop == EPI_AOP_INC ? 1 : -1;
		return 1;
	}
	int sub = in->aop == EPI_AOP_SUB || in->aop == EPI_AOP_SUBS;
	if ((in->aop == EPI_AOP_ADD || sub) && in->nop == 2 && o[1].kind == EPI_OPND_IMM) {
		*k = sub ? -o[1].imm : o[1].imm;
		return 1;
	}
	if ((in->aop == EPI_AOP_ADD || in->aop == EPI_AOP_ADDS || sub) && in->nop == 3 && o[1].kind == EPI_OPND_REG &&
	    o[1].reg == o[0].reg && o[2].kind == EPI_OPND_IMM) {
		*k = sub ? -o[2].imm : o[2].imm;
		return 1;
	}
	if (in->aop == EPI_AOP_LEA && in->base == o[0].reg && !in->index) {
		*k = in->disp;
		return 1;
	}
	return 0;
}

int epi_steps_reg(const epi_insn *in, unsigned *r, int64_t *k)
{
	return !in->loads && !in->stores && steps_reg(in, r, k);
}

int epi_copies_plus(const epi_insn *in, unsigned *from, int64_t *k)
{
	const epi_opnd *o = in->op;
	if (in->loads || in->stores || in->nop < 1 || o[0].kind != EPI_OPND_REG)
		return 0;
	if (in->aop == EPI_AOP_LEA && in->base && !in->index && in->base != o[0].reg) {
		*from = in->base;
		*k = in->disp;
		return 1;
	}
	if ((in->aop == EPI_AOP_ADD || in->aop == EPI_AOP_SUB) && in->nop == 3 && o[1].kind == EPI_OPND_REG &&
	    o[1].reg != o[0].reg && o[2].kind == EPI_OPND_IMM) {
		*from = o[1].reg;
		*k = in->aop == EPI_AOP_SUB ? -o[2].imm : o[2].imm;
		return 1;
	}
	return 0;
}

/* Whether IN adds a register that loop L never writes to its destination
 * (add r, r2; aarch64 add x, x, x2): into *R. */
static int steps_by_reg(const char *wl, const epi_insn *in, unsigned *r)
{
	const epi_opnd *op = in->op;
	if (!(in->aop == EPI_AOP_ADD || in->aop == EPI_AOP_SUB) || in->nop < 2 || op[0].kind != EPI_OPND_REG)
		return 0;
	int two = in->nop == 2 && op[1].kind == EPI_OPND_REG;
	int three = in->nop == 3 && op[1].kind == EPI_OPND_REG && op[1].reg == op[0].reg && op[2].kind == EPI_OPND_REG;
	if (!two && !three)
		return 0;
	unsigned by = op[two ? 1 : 2].reg;
	if (by == op[0].reg || by >= NREG || wl[by])
		return 0;
	*r = op[0].reg;
	return 1;
}

/* The change of the register IN writes, from the changes D of what it reads. */
static int64_t written(const epi_insn *in, int frame, const int64_t *d, slots *sl, int64_t addr_d)
{
	const epi_opnd *o = in->op;
	int n = in->nop;
	int64_t s1 = n > 1 && o[1].kind == EPI_OPND_REG ? reg_d(d, o[1].reg) : 0;
	int64_t s2 = n > 2 && o[2].kind == EPI_OPND_REG ? reg_d(d, o[2].reg) : 0;
	int64_t d0 = reg_d(d, o[0].reg);
	if (in->loads && !in->stores) {
		/* a value from memory: a stack slot's change, or nothing when
		 * read from the same place every iteration */
		int64_t from = U;
		if (frame) {
			int64_t *p = slot(sl, in->disp);
			from = p ? *p : U;
		} else if (addr_d == 0) {
			from = 0;
		}
		if (in->klass == EPI_IC_MOVE || (in->aop == EPI_AOP_MOVSX || in->aop == EPI_AOP_MOVSXD) || in->aop == EPI_AOP_MOVZX)
			return from; /* movsxd rcx, slot: widened, the same change */
		if (in->aop == EPI_AOP_ADD)
			return d_add(d0, from);
		if (in->aop == EPI_AOP_SUB)
			return d_add(d0, d_mul(from, -1));
		if (in->aop == EPI_AOP_IMUL && from == 0)
			return d_scaled(d0); /* i * n, n in memory */
		return from == 0 && d0 == 0 ? 0 : U;
	}
	if (in->aop == EPI_AOP_XOR && n == 2 && o[1].kind == EPI_OPND_REG && o[1].reg == o[0].reg)
		return 0;
	if (epi_aop_mov(in->aop) || in->aop == EPI_AOP_CDQE || in->aop == EPI_AOP_CLTQ || in->aop == EPI_AOP_SXTW ||
	    in->aop == EPI_AOP_UXTW) {
		if (in->aop == EPI_AOP_CDQE || in->aop == EPI_AOP_CLTQ)
			return d0;
		if (n >= 2 && o[1].kind == EPI_OPND_IMM)
			return 0;
		return n >= 2 ? s1 : U;
	}
	if (in->aop == EPI_AOP_ADD || in->aop == EPI_AOP_SUB) {
		int neg = in->aop == EPI_AOP_SUB;
		if (n == 2) /* x86: dst op= src */
			return o[1].kind == EPI_OPND_IMM ? d0 : d_add(d0, neg ? d_mul(s1, -1) : s1);
		if (n == 3) /* aarch64: dst = src1 op src2 */
			return o[2].kind == EPI_OPND_IMM ? s1 : d_add(s1, neg ? d_mul(s2, -1) : s2);
	}
	if (in->aop == EPI_AOP_INC || in->aop == EPI_AOP_DEC)
		return d0;
	if (in->aop == EPI_AOP_NEG)
		return d_mul(n == 2 ? s1 : d0, -1);
	if (in->aop == EPI_AOP_LEA)
		return d_add(reg_d(d, in->base), d_mul(reg_d(d, in->index), in->scale ? in->scale : 1));
	if ((in->aop == EPI_AOP_SHL || in->aop == EPI_AOP_SAL) && n == 2 && o[1].kind == EPI_OPND_IMM && o[1].imm < 32)
		return d_mul(d0, (int64_t)1 << o[1].imm);
	if (in->aop == EPI_AOP_LSL && n == 3 && o[2].kind == EPI_OPND_IMM && o[2].imm < 32)
		return d_mul(s1, (int64_t)1 << o[2].imm);
	if (in->aop == EPI_AOP_IMUL || in->aop == EPI_AOP_MUL) {
		if (n == 3 && o[2].kind == EPI_OPND_IMM)
			return d_mul(s1, o[2].imm);
		if (n == 2 && o[1].kind == EPI_OPND_IMM)
			return d_mul(d0, o[1].imm);
		/* by an invariant register: i * n */
		if (n == 2 && o[1].kind == EPI_OPND_REG && (s1 == 0 || d0 == 0))
			return d_scaled(s1 == 0 ? d0 : s1);
		if (n == 3 && o[2].kind == EPI_OPND_REG && (s1 == 0 || s2 == 0))
			return d_scaled(s1 == 0 ? s2 : s1);
	}
	/* anything else: invariant when every input is */
	for (int r = 0; r < in->nrd; r++)
		if (reg_d(d, in->rd[r]) != 0)
			return U;
	return 0;
}

/* Follows which registers hold a stack slot's value plus a constant, or
 * plus a register that holds the same value every iteration (D: the
 * changes so far; a step known at run time, a row's length kept on the
 * stack), after IN (FRAME: its memory operand is a stack slot). */
static void track_origin(const epi_insn *in, int frame, const int64_t *d, char *org, int64_t *disp, int64_t *off)
{
	const epi_opnd *o = in->op;
	if (!writes_first(in) || o[0].reg >= NREG)
		return;
	unsigned r = o[0].reg, x;
	int64_t k;
	if (frame && in->loads && !in->stores && in->klass == EPI_IC_MOVE) {
		org[r] = 1;
		disp[r] = in->disp;
		off[r] = 0;
		return;
	}
	if (!in->loads && !in->stores && steps_reg(in, &x, &k) && x == r) {
		off[r] = d_add(off[r], k);
		return;
	}
	if (in->klass == EPI_IC_MOVE && !in->loads && in->nop == 2 && o[1].kind == EPI_OPND_REG && o[1].reg < NREG) {
		org[r] = org[o[1].reg];
		disp[r] = disp[o[1].reg];
		off[r] = off[o[1].reg];
		return;
	}
	/* lea r, [b + k] (aarch64: add r, b, #k): -O0's a[i++] keeps i's old
	 * value and stores the new from another register */
	if (epi_copies_plus(in, &x, &k) && x < NREG) {
		org[r] = org[x];
		disp[r] = disp[x];
		off[r] = d_add(off[x], k);
		return;
	}
	/* add r, n (x86) or add r, s, n (aarch64), n the same every iteration */
	if (in->aop == EPI_AOP_ADD && !in->loads && !in->stores) {
		int two = in->nop == 2 && o[1].kind == EPI_OPND_REG;
		int three = in->nop == 3 && o[1].kind == EPI_OPND_REG && o[2].kind == EPI_OPND_REG;
		unsigned from = three ? o[1].reg : r, by = two ? o[1].reg : three ? o[2].reg : NREG;
		if ((two || three) && from < NREG && by < NREG && by != from && org[from] && reg_d(d, by) == 0) {
			org[r] = 1;
			disp[r] = disp[from];
			off[r] = R;
			return;
		}
	}
	if (in->aop == EPI_AOP_CDQE || in->aop == EPI_AOP_CLTQ)
		return;
	org[r] = 0;
}

/* Follows which registers hold an array's address plus an offset (KEY:
 * where the address came from; U none): loaded from a stack slot (-O0
 * keeps a pointer parameter there: its displacement, even) or taken of a
 * global (lea sym(%rip): its address, odd), with anything added to it
 * after. -O0 code computes a[k * n + i] as that address plus the
 * element's offset, apart from the a[k * n + j] beside it. */
static void track_pointer(const epi_insn *in, int frame, int64_t *key)
{
	const epi_opnd *o = in->op;
	unsigned r = in->nop >= 1 && o[0].kind == EPI_OPND_REG ? o[0].reg : NREG;
	int64_t k = U;
	if (r < NREG && writes_first(in)) {
		unsigned a = NREG, b = NREG; /* the registers it adds */
		if (frame && in->loads && !in->stores && in->klass == EPI_IC_MOVE && in->mem_bytes == 8)
			k = 2 * in->disp;
		else if (in->aop == EPI_AOP_LEA && !in->base && !in->index)
			k = 2 * in->disp + 1;
		else if (in->aop == EPI_AOP_LEA) {
			a = in->base ? in->base : NREG;
			b = in->index && in->scale == 1 ? in->index : NREG;
		} else if (in->aop == EPI_AOP_MOV && !in->loads && in->nop == 2 && o[1].kind == EPI_OPND_REG) {
			a = o[1].reg;
		} else if (in->aop == EPI_AOP_ADD && !in->stores && in->nop == 2) {
			a = r;
			b = o[1].kind == EPI_OPND_REG ? o[1].reg : NREG;
			if (frame && in->loads && in->mem_bytes == 8)
				k = key[r] == U ? 2 * in->disp : U;
		} else if (in->aop == EPI_AOP_ADD && !in->loads && !in->stores && in->nop == 3) {
			a = o[1].kind == EPI_OPND_REG ? o[1].reg : NREG;
			b = o[2].kind == EPI_OPND_REG ? o[2].reg : NREG;
		}
		int64_t ka = a < NREG ? key[a] : U, kb = b < NREG ? key[b] : U;
		if (!(frame && in->loads && in->aop == EPI_AOP_ADD) && (ka == U) != (kb == U))
			k = ka != U ? ka : kb;
	}
	for (int w = 0; w < in->nwr; w++)
		if (in->wr[w] < NREG)
			key[in->wr[w]] = U;
	if (r < NREG && writes_first(in))
		key[r] = k;
}

/* Follows which register's value at the start of an iteration each
 * register holds plus a constant (CP[r], 0 none; CPK[r]), through IN
 * (INSIDE: in a loop inside): moves, constant steps and calls that return
 * their first argument carry a value over, anything else that writes a
 * register ends it (WL: the registers written in the loop). */
static void track_copy(const epi_object *o, int i, int inside, const char *wl, unsigned *cp, int64_t *cpk)
{
	const epi_insn *in = &o->in[i];
	const epi_opnd *op = in->op;
	unsigned r;
	int64_t k;
	if (in->klass == EPI_IC_CALL) {
		unsigned a0 = epi_isa_arg0(o->machine), ret = epi_isa_ret(o->machine);
		unsigned v = a0 < NREG ? cp[a0] : 0;
		int64_t vk = a0 < NREG ? cpk[a0] : 0;
		int n;
		const unsigned *clob = epi_isa_call_clobbers(o->machine, &n);
		for (int c = 0; c < n; c++)
			if (clob[c] < NREG)
				cp[clob[c]] = 0;
		if (!inside && o->ret_arg && o->ret_arg[i] && ret < NREG) {
			cp[ret] = v;
			cpk[ret] = vk;
		}
	} else if (!inside && !in->loads && !in->stores && steps_reg(in, &r, &k) && r < NREG) {
		cpk[r] = d_add(cpk[r], k);
		return;
	} else if (!inside && !in->loads && !in->stores && steps_by_reg(wl, in, &r)) {
		cpk[r] = d_add(cpk[r], R); /* p += stride */
		return;
	} else if (!inside && epi_copies_plus(in, &r, &k) && r < NREG && op[0].reg < NREG) {
		/* lea r, [b + k], aarch64 add r, b, #k: b's value plus k */
		cp[op[0].reg] = cp[r];
		cpk[op[0].reg] = d_add(cpk[r], k);
		return;
	} else if (!inside && in->aop == EPI_AOP_MOV && !in->loads && in->nop == 2 && op[0].kind == EPI_OPND_REG &&
		   op[1].kind == EPI_OPND_REG && op[0].reg < NREG && op[1].reg < NREG) {
		cp[op[0].reg] = cp[op[1].reg];
		cpk[op[0].reg] = cpk[op[1].reg];
		for (int w = 0; w < in->nwr; w++)
			if (in->wr[w] < NREG && in->wr[w] != op[0].reg)
				cp[in->wr[w]] = 0;
		return;
	}
	for (int w = 0; w < in->nwr; w++)
		if (in->wr[w] < NREG)
			cp[in->wr[w]] = 0;
}

/* A call's changes to the registers it may write (D, the changes so far):
 * unknown, but the result of one that returns its first argument moves
 * as that argument did. */
static void call_changes(const epi_object *o, int i, int64_t *d)
{
	unsigned a0 = epi_isa_arg0(o->machine), ret = epi_isa_ret(o->machine);
	int64_t v = reg_d(d, a0);
	int n;
	const unsigned *clob = epi_isa_call_clobbers(o->machine, &n);
	for (int c = 0; c < n; c++)
		if (clob[c] < NREG)
			d[clob[c]] = U;
	for (int w = 0; w < o->in[i].nwr; w++)
		if (o->in[i].wr[w] < NREG)
			d[o->in[i].wr[w]] = U;
	if (o->ret_arg && o->ret_arg[i] && ret < NREG)
		d[ret] = v;
}

/* REGS[*N] = R, when R is a register not yet in REGS (SEEN). */
static void add_reg(unsigned r, unsigned char *seen, unsigned *regs, int *n)
{
	if (r && r < EPI_LOOP_REGS && !seen[r]) {
		seen[r] = 1;
		regs[(*n)++] = r;
	}
}

int epi_loop_regs(const epi_object *o, int lo, int hi, unsigned *regs)
{
	static __thread unsigned char seen[EPI_LOOP_REGS];
	int nclob, n = 0;
	const unsigned *clob = epi_isa_call_clobbers(o->machine, &nclob);
	for (int c = 0; c < nclob; c++)
		add_reg(clob[c], seen, regs, &n);
	add_reg(epi_isa_arg0(o->machine), seen, regs, &n);
	add_reg(epi_isa_ret(o->machine), seen, regs, &n);
	for (int i = lo; i < hi; i++) {
		const epi_insn *in = &o->in[i];
		for (int k = 0; k < in->nrd; k++)
			add_reg(in->rd[k], seen, regs, &n);
		for (int k = 0; k < in->nwr; k++)
			add_reg(in->wr[k], seen, regs, &n);
		add_reg(in->base, seen, regs, &n);
		add_reg(in->index, seen, regs, &n);
		for (int k = 0; k < in->nop; k++)
			if (in->op[k].kind == EPI_OPND_REG)
				add_reg(in->op[k].reg, seen, regs, &n);
	}
	for (int k = 0; k < n; k++)
		seen[regs[k]] = 0;
	return n;
}

/* Whether BR is a branch taken while the flags say not equal (x86 jne,
 * aarch64 b.ne): a loop's way back until what it compares is equal. */
static int branches_unequal(const epi_insn *br)
{
	return br->cond && (strcmp(br->mnem, "jne") == 0 || strcmp(br->mnem, "b.ne") == 0);
}

/* Whether loop C ends at its conditional branch E when register X, which
 * it steps by a constant, reaches register Y, which it does not write
 * (cmp X, Y; jne back): then X leaves it holding Y's value. Into *X and
 * *Y. */
static int exit_at(const epi_object *o, int c, int e, unsigned *x, unsigned *y)
{
	if (e < 1 || o->loop_of[e - 1] != c || o->loop_of[e] != c)
		return 0;
	const epi_insn *br = &o->in[e], *cmp = &o->in[e - 1];
	if (!branches_unequal(br) || cmp->aop != EPI_AOP_CMP ||
	    cmp->nop != 2 || cmp->op[0].kind != EPI_OPND_REG || cmp->op[1].kind != EPI_OPND_REG)
		return 0;
	for (int side = 0; side < 2; side++) {
		unsigned a = cmp->op[side].reg, b = cmp->op[1 - side].reg;
		int steps = 0, writes_b = 0, writes_a = 0;
		for (int i = o->loop[c].first; i <= o->loop[c].last; i++) {
			const epi_insn *in = &o->in[i];
			unsigned r;
			int64_t k;
			int st = o->loop_of[i] == c && !in->loads && !in->stores && steps_reg(in, &r, &k) && r == a;
			steps += st;
			for (int w = 0; w < in->nwr; w++) {
				writes_b |= in->wr[w] == b || in->klass == EPI_IC_CALL;
				writes_a |= in->wr[w] == a && !st;
			}
		}
		if (steps == 1 && !writes_a && !writes_b && a < NREG && b < NREG) {
			*x = a;
			*y = b;
			return 1;
		}
	}
	return 0;
}

/* Whether loop C ends so (exit_at), at its last branch back to its head
 * or, for a loop entered in its middle (gcc's jump to the test), at its
 * last instruction. */
static int exits_equal(const epi_object *o, int c, unsigned *x, unsigned *y)
{
	return exit_at(o, c, o->loop[c].end, x, y) ||
	       (o->loop[c].last != o->loop[c].end && exit_at(o, c, o->loop[c].last, x, y));
}

/* The constant R is set to by IN (mov r, imm; a zeroing xor r, r; aarch64
 * mov x, #imm, movz, mov x, xzr): into *V. */
static int sets_const(const epi_insn *in, unsigned r, int64_t *v)
{
	const epi_opnd *op = in->op;
	if (in->nop < 1 || op[0].kind != EPI_OPND_REG || op[0].reg != r)
		return 0;
	if ((in->aop == EPI_AOP_MOV || strcmp(in->mnem, "movz") == 0) && in->nop == 2 && op[1].kind == EPI_OPND_IMM) {
		*v = op[1].imm;
		return 1;
	}
	if (in->nrd == 0 && in->nwr >= 1 && (in->aop == EPI_AOP_XOR || in->aop == EPI_AOP_MOV)) {
		*v = 0; /* a zeroing idiom reads nothing */
		return 1;
	}
	return 0;
}

/* Whether IN widens register X's low half into X itself (x86's cltq, a
 * movsxd or 32-bit mov of X to X): a counter kept in the low half, as it
 * is compared and stepped, keeps its value. */
static int widens_itself(const epi_insn *in, unsigned x)
{
	if (strcmp(in->mnem, "cdqe") == 0)
		return in->nwr >= 1 && in->wr[0] == x;
	return in->nop == 2 && in->op[0].kind == EPI_OPND_REG && in->op[1].kind == EPI_OPND_REG &&
	       in->op[0].reg == x && in->op[1].reg == x &&
	       (strcmp(in->mnem, "movsxd") == 0 || (in->aop == EPI_AOP_MOV && in->elem == 4));
}

int64_t epi_mloop_const_trip(const epi_object *o, int l)
{
	const epi_mloop *L = &o->loop[l];
	int e = L->end;
	if (e < 1 || o->loop_of[e] != l || !o->in[e].cond)
		return 0;
	const epi_insn *br = &o->in[e], *prev = &o->in[e - 1];
	unsigned x = 0;
	int64_t end = 0, k = 0;
	int ne = branches_unequal(br);
	if ((strcmp(br->mnem, "cbnz") == 0) && br->nop >= 1 && br->op[0].kind == EPI_OPND_REG)
		x = br->op[0].reg; /* until X is 0 */
	else if (ne && prev->aop == EPI_AOP_CMP && prev->nop == 2 && prev->op[0].kind == EPI_OPND_REG &&
		 prev->op[1].kind == EPI_OPND_IMM && o->loop_of[e - 1] == l)
		x = prev->op[0].reg, end = prev->op[1].imm; /* until X is END */
	else if (ne && o->loop_of[e - 1] == l && prev->aop != EPI_AOP_LEA &&
		 (o->machine != EM_AARCH64 || prev->aop == EPI_AOP_SUBS || prev->aop == EPI_AOP_ADDS) &&
		 steps_reg(prev, &x, &k) && !prev->loads && !prev->stores)
		; /* add x, -3; jne: until the step leaves X at 0 */
	else
		return 0;
	/* X steps once per iteration, by a constant, and nothing else in the
	 * loop writes it */
	int steps = 0;
	for (int i = L->first; i <= L->last; i++) {
		const epi_insn *in = &o->in[i];
		unsigned r;
		int64_t kk;
		if (o->loop_of[i] == l && !in->loads && !in->stores && steps_reg(in, &r, &kk) && r == x) {
			steps++;
			k = kk;
			continue;
		}
		if (widens_itself(in, x))
			continue;
		for (int w = 0; w < in->nwr; w++)
			if (in->wr[w] == x)
				return 0;
		if (in->klass == EPI_IC_CALL)
			return 0;
	}
	if (steps != 1 || k == 0)
		return 0;
	/* X's value on entry: set to a constant in the straight code before
	 * the loop's head, which nothing jumps into */
	int64_t start;
	int fn_first = o->fn[L->fn].first;
	for (int i = L->head - 1; i >= fn_first; i--) {
		const epi_insn *in = &o->in[i];
		if (in->klass == EPI_IC_BRANCH || in->klass == EPI_IC_CALL || in->klass == EPI_IC_RET)
			return 0;
		int writes = 0;
		for (int w = 0; w < in->nwr; w++)
			writes |= in->wr[w] == x;
		if (!writes)
			continue;
		if (!sets_const(in, x, &start))
			return 0;
		int64_t span = end - start;
		if (span == 0 || (span > 0) != (k > 0) || span % k)
			return 0;
		return span / k;
	}
	return 0;
}

/* The loop directly inside L whose last instruction is I, or -1. */
static int child_ending(const epi_object *o, int l, int i)
{
	int c = o->loop_of[i];
	while (c >= 0 && o->loop[c].parent != l)
		c = o->loop[c].parent;
	return c >= 0 && o->loop[c].last == i ? c : -1;
}

/* In the pass over loop L's iteration with the loops directly inside it
 * as their first iteration runs (CHILD: I is theirs; DEEPER: in a loop
 * further in), where access I's address starts, as the value a register
 * has at the start of L's iteration plus a constant (CP, CPK: what each
 * register holds, followed through I), into O->group and O->group_off. */
static void group_of(epi_object *o, int i, int child, int deeper, const char *wl, unsigned *cp, int64_t *cpk)
{
	const epi_insn *in = &o->in[i];
	if (child && (in->loads || in->stores) && !o->frame[i] && in->klass != EPI_IC_CALL && in->base &&
	    in->base < NREG && cp[in->base] && cpk[in->base] != U && cpk[in->base] != R) {
		o->group[i] = (uint16_t)cp[in->base];
		o->group_off[i] = cpk[in->base] + in->disp;
	}
	track_copy(o, i, deeper, wl, cp, cpk);
}

/* The strides of loop L's own accesses, into O->stride. */
static void loop_strides(epi_object *o, int l)
{
	int lo = o->loop[l].first, hi = o->loop[l].last + 1;
	static __thread int64_t d[NREG], step[NREG];
	static __thread double part[NREG]; /* steps on some ways only, by their shares of the iterations */
	static __thread char wl[NREG]; /* written in L or a loop inside */
	static __thread unsigned cp[NREG];
	static __thread int64_t cpk[NREG];
	static __thread unsigned regs[NREG];
	int nclob;
	const unsigned *clob = epi_isa_call_clobbers(o->machine, &nclob);
	/* only the registers L's instructions name are read or written: only
	 * theirs are set up */
	int nregs = epi_loop_regs(o, lo, hi, regs);
	for (int k = 0; k < nregs; k++) {
		unsigned r = regs[k];
		step[r] = 0;
		part[r] = 0;
		wl[r] = 0;
		cp[r] = r;
		cpk[r] = 0;
	}
	for (int i = lo; i < hi; i++) {
		int in_l = epi_in_loop(o, i, l);
		for (int w = 0; in_l && w < o->in[i].nwr; w++)
			if (o->in[i].wr[w] < NREG)
				wl[o->in[i].wr[w]] = 1;
		for (int c = 0; in_l && o->in[i].klass == EPI_IC_CALL && c < nclob; c++)
			if (clob[c] < NREG)
				wl[clob[c]] = 1;
	}
	slots sl = {.n = 0};
	/* what one iteration adds to each register and stack slot: constants
	 * in L itself; anything else, or any change in a loop inside, unknown */
	for (int i = lo; i < hi; i++) {
		int in_l = o->loop_of[i] == l;
		if (!in_l && !epi_in_loop(o, i, l))
			continue;
		const epi_insn *in = &o->in[i];
		unsigned r;
		int64_t k;
		track_copy(o, i, !in_l, wl, cp, cpk);
		unsigned ex, ey;
		int c = in_l ? -1 : child_ending(o, l, i);
		if (c >= 0 && exits_equal(o, c, &ex, &ey)) { /* p = end after the loop inside */
			cp[ex] = cp[ey];
			cpk[ex] = cpk[ey];
		}
		if (in->klass == EPI_IC_CALL) {
			for (int c = 0; c < nclob; c++)
				if (clob[c] < NREG)
					step[clob[c]] = U;
		}
		if (in_l && !in->loads && !in->stores && steps_reg(in, &r, &k) && r < NREG) {
			if (o->weight[i] < 1)
				part[r] += o->weight[i] * (double)k; /* on some ways round the loop */
			else
				step[r] = d_add(step[r], k);
			continue;
		}
		if (in_l && !in->loads && !in->stores && steps_by_reg(wl, in, &r)) {
			step[r] = d_add(step[r], R); /* p += stride, the stride in a register */
			continue;
		}
		if (in->writeback && in->base < NREG)
			step[in->base] = in_l ? d_add(step[in->base], in->post_index) : U;
		if (o->frame[i] && in->stores) {
			int64_t *p = slot(&sl, in->disp);
			int rmw = in->loads && in->nop == 2 && in->op[1].kind == EPI_OPND_IMM &&
				  (in->aop == EPI_AOP_ADD || in->aop == EPI_AOP_SUB);
			if (p && rmw && in_l)
				*p = d_add(*p, in->aop == EPI_AOP_SUB ? -in->op[1].imm : in->op[1].imm);
			else if (p && !(in_l && in->klass == EPI_IC_MOVE))
				*p = U; /* a store of a register is followed below */
			continue;
		}
		/* what else it writes changes unknowably, but for the base a
		 * post-index steps (ldr d2, [x0], #8: above) */
		for (int w = 0; w < in->nwr; w++)
			if (in->wr[w] < NREG && !(in->klass == EPI_IC_BRANCH) && !(in->writeback && in->wr[w] == in->base))
				step[in->wr[w]] = U;
	}
	/* a register stepped on some ways round the loop only (a pointer
	 * advanced in each case of a switch, or in one arm of a merge): by
	 * what an iteration adds on average, at least a byte when it adds
	 * anything (the ways the data takes decide it) */
	for (int k = 0; k < nregs; k++) {
		unsigned r = regs[k];
		if (part[r] == 0 || step[r] == U || step[r] == R)
			continue;
		int64_t mean = llround(part[r]);
		step[r] = d_add(step[r], mean != 0 ? mean : part[r] > 0 ? 1 : -1);
	}
	/* a register that an iteration leaves holding its own value plus a
	 * constant through copies (p = memcpy(p, ...)) moves by that constant */
	for (int k = 0; k < nregs; k++)
		if (step[regs[k]] == U && cp[regs[k]] == regs[k])
			step[regs[k]] = cpk[regs[k]];
	/* two passes in address order: the second sees the slots a store of a
	 * register set in the first */
	/* a register holding a stack slot's value plus a constant (-O0's
	 * i = i + 1 through eax): stored back, the constant is the slot's step */
	/* a third pass, when L has loops inside: the instructions of the loops
	 * directly inside as their first iteration runs (their own steps not
	 * taken), for how far their accesses start from one iteration of L to
	 * the next */
	static __thread int64_t org_disp[NREG], org_off[NREG];
	static __thread char org[NREG];
	static __thread int64_t ptr[NREG]; /* track_pointer's */
	int inner = 0;
	for (int i = lo; i < hi && !inner; i++)
		inner = o->loop_of[i] >= 0 && o->loop[o->loop_of[i]].parent == l;
	for (int pass = 0; pass < 2 + inner; pass++) {
		for (int k = 0; k < nregs; k++) {
			d[regs[k]] = step[regs[k]];
			ptr[regs[k]] = U;
			org[regs[k]] = 0;
			cp[regs[k]] = regs[k];
			cpk[regs[k]] = 0;
		}
		for (int i = lo; i < hi; i++) {
			unsigned ex, ey;
			int ended = i > lo ? child_ending(o, l, i - 1) : -1;
			if (ended >= 0 && exits_equal(o, ended, &ex, &ey))
				d[ex] = d[ey]; /* a loop inside ended: X holds Y's value */
			int child = pass == 2 && o->loop_of[i] >= 0 && o->loop[o->loop_of[i]].parent == l;
			if (pass == 2)
				group_of(o, i, child, o->loop_of[i] != l && !child, wl, cp, cpk);
			if (o->loop_of[i] != l && !child)
				continue;
			epi_insn *in = &o->in[i];
			track_origin(in, o->frame[i], d, org, org_disp, org_off);
			if (pass == 1 && o->loop_of[i] == l && (in->loads || in->stores) && !o->frame[i] &&
			    in->klass != EPI_IC_CALL) {
				int64_t kb = in->base < NREG ? ptr[in->base] : U;
				int64_t ki = in->index < NREG && in->scale == 1 ? ptr[in->index] : U;
				o->array[i] = in->base && kb != U ? kb : in->index && ki != U && !in->base ? ki : U;
			}
			if (pass == 1)
				track_pointer(in, o->frame[i], ptr);
			int64_t addr_d = 0;
			if ((in->loads || in->stores) && !o->frame[i])
				addr_d = d_add(reg_d(d, in->base), d_mul(reg_d(d, in->index), in->scale ? in->scale : 1));
			int access = (in->loads || in->stores) && !o->frame[i] && in->klass != EPI_IC_CALL;
			if (pass == 1)
				o->stride[i] = access ? addr_d : 0;
			if (child)
				o->outer_stride[i] = access ? addr_d : 0;
			const epi_opnd *src = epi_isa_stored(in);
			if (o->frame[i] && in->stores && in->klass == EPI_IC_MOVE && src && src->kind != EPI_OPND_MEM) {
				int64_t *p = slot(&sl, in->disp);
				unsigned r = src->reg;
				if (p && src->kind == EPI_OPND_IMM)
					*p = 0; /* j = 0 */
				else if (p && r < NREG && org[r] && org_disp[r] == in->disp)
					*p = org_off[r];
				else if (p)
					*p = reg_d(d, r);
				continue;
			}
			if (in->aop == EPI_AOP_CDQE || in->aop == EPI_AOP_CLTQ)
				continue; /* rax from eax: the same change */
			if (in->klass == EPI_IC_CALL) {
				call_changes(o, i, d);
				for (int c = 0; c < nclob; c++)
					if (clob[c] < NREG)
						org[clob[c]] = 0;
				continue;
			}
			unsigned r;
			int64_t k;
			if (!in->loads && !in->stores && (steps_reg(in, &r, &k) || steps_by_reg(wl, in, &r)))
				continue; /* its change is the step, already in d */
			if (writes_first(in) && in->op[0].reg < NREG && in->klass != EPI_IC_BRANCH) {
				int64_t v = written(in, o->frame[i], d, &sl, addr_d);
				/* every other register it writes (flags, rdx of cqo),
				 * but a post-indexed base, whose change is its step */
				for (int w = 0; w < in->nwr; w++)
					if (in->wr[w] < NREG && in->wr[w] != in->op[0].reg &&
					    !(in->writeback && in->wr[w] == in->base))
						d[in->wr[w]] = U;
				d[in->op[0].reg] = v;
			} else {
				for (int w = 0; w < in->nwr; w++)
					if (in->wr[w] < NREG && !(in->writeback && in->wr[w] == in->base))
						d[in->wr[w]] = U;
			}
		}
	}
}

void epi_object_strides(epi_object *o, int lo, int hi)
{
	for (int l = lo; l < hi; l++)
		loop_strides(o, l);
}
