/* isa: x86-64 and aarch64 instructions decoded by capstone 4 and classified
 * for pricing (see isa.h). Capstone names the instruction and its operands;
 * the class and the element type come from its ids and mnemonics (the SSE/AVX
 * suffixes ss/sd/ps/pd, NEON arrangements), and the access bits capstone 4
 * is known to get wrong (x86 stores read as loads, aarch64 aliases that read
 * their destination) are corrected here. */
#include "predict/isa.h"

#include <capstone/capstone.h>
#include <elf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

/* LLVM's disassembler (libLLVM, which libclang links), for the x86
 * instructions capstone 4 does not know (AVX-512 VL/DQ forms such as
 * vextractf64x2, which -march=native emits): their length keeps the
 * decoding aligned, their mnemonic names them. Its C API
 * (llvm-c/Disassembler.h) as declared there: Debian ships the header only
 * with llvm-19-dev, the whole of LLVM's development files. */
typedef void *LLVMDisasmContextRef;
LLVMDisasmContextRef LLVMCreateDisasm(const char *triple, void *info, int tag, void *get_op_info, void *lookup);
size_t LLVMDisasmInstruction(LLVMDisasmContextRef dc, uint8_t *bytes, uint64_t size, uint64_t pc, char *out,
			     size_t out_size);
void LLVMDisasmDispose(LLVMDisasmContextRef dc);
void LLVMInitializeX86TargetInfo(void);
void LLVMInitializeX86TargetMC(void);
void LLVMInitializeX86Disassembler(void);

/* The process's one-time set-up for x86-64: LLVM's disassembler, and
 * capstone's table of the registers that Intel syntax leaves implicit,
 * which capstone 4 sorts in place at its first detailed decoding (a race
 * when two threads decode first at once): one instruction decoded here
 * sorts it before any thread of ours decodes. */
static void x86_init(void)
{
	LLVMInitializeX86TargetInfo();
	LLVMInitializeX86TargetMC();
	LLVMInitializeX86Disassembler();
	csh cs;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		return;
	static const uint8_t add_eax[] = {0x05, 0x01, 0x00, 0x00, 0x00}; /* add eax, 1 */
	cs_insn *insn = NULL;
	if (cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON) == CS_ERR_OK) {
		size_t n = cs_disasm(cs, add_eax, sizeof add_eax, 0, 1, &insn);
		cs_free(insn, n);
	}
	cs_close(&cs);
}

struct epi_isa {
	csh cs;
	int arm; /* aarch64; else x86-64 */
	cs_insn *insn;
	LLVMDisasmContextRef llvm; /* x86-64: what capstone cannot decode; NULL when LLVM cannot open */
	const char **by_id;        /* the last mnemonic interned for each capstone id */
	unsigned nid;
	/* instructions decoded (dc_n of them), and an index of them by their
	 * bytes: dc_cap slots, each 0 or an entry's number plus one (dc_find) */
	struct dc_ent *dc;
	uint32_t *dc_slot;
	size_t dc_cap, dc_n, dc_alloc;
	uint16_t dc_lens[256]; /* bit L: an instruction of L bytes starting with this byte is cached */
};

/* ---- mnemonics, each kept once for the process -------------------------- */

static pthread_mutex_t names_mu = PTHREAD_MUTEX_INITIALIZER;
static char **names; /* open addressing over a power of two */
static size_t names_cap, names_n;

static size_t name_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return (size_t)h;
}

/* The N bytes at S as a string that lives as long as the process. */
static const char *intern(const char *s, size_t n)
{
	pthread_mutex_lock(&names_mu);
	if (2 * (names_n + 1) > names_cap) {
		size_t cap = names_cap ? 2 * names_cap : 1024;
		char **t = xcalloc(cap, sizeof *t);
		for (size_t i = 0; i < names_cap; i++)
			if (names[i]) {
				size_t j = name_hash(names[i], strlen(names[i])) & (cap - 1);
				while (t[j])
					j = (j + 1) & (cap - 1);
				t[j] = names[i];
			}
		free(names);
		names = t;
		names_cap = cap;
	}
	size_t i = name_hash(s, n) & (names_cap - 1);
	while (names[i] && (strncmp(names[i], s, n) != 0 || names[i][n]))
		i = (i + 1) & (names_cap - 1);
	if (!names[i]) {
		names[i] = xmalloc(n + 1);
		memcpy(names[i], s, n);
		names[i][n] = 0;
		names_n++;
	}
	const char *r = names[i];
	pthread_mutex_unlock(&names_mu);
	return r;
}

/* Capstone's mnemonic for instruction ID, through the decoder's cache. */
static const char *mnemonic(epi_isa *d, unsigned id, const char *m)
{
	if (id < d->nid && d->by_id[id] && strcmp(d->by_id[id], m) == 0)
		return d->by_id[id];
	const char *r = intern(m, strlen(m));
	if (id < d->nid)
		d->by_id[id] = r;
	return r;
}

static const char *const iclass_names[EPI_IC_N] = {
	[EPI_IC_INT] = "int",
	[EPI_IC_INT_MUL] = "int.mul",
	[EPI_IC_INT_DIV] = "int.div",
	[EPI_IC_FP_ADD] = "fp.add",
	[EPI_IC_FP_MUL] = "fp.mul",
	[EPI_IC_FP_FMA] = "fp.fma",
	[EPI_IC_FP_DIV] = "fp.div",
	[EPI_IC_FP_CVT] = "fp.cvt",
	[EPI_IC_VEC] = "vec",
	[EPI_IC_MOVE] = "move",
	[EPI_IC_BRANCH] = "branch",
	[EPI_IC_CALL] = "call",
	[EPI_IC_RET] = "ret",
	[EPI_IC_NOP] = "nop",
	[EPI_IC_OTHER] = "other",
};

const char *epi_iclass_name(enum epi_iclass c)
{
	return (unsigned)c < EPI_IC_N ? iclass_names[c] : "?";
}

/* ---- helpers ----------------------------------------------------------- */

static int starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static int ends(const char *s, const char *p)
{
	size_t n = strlen(s), k = strlen(p);
	return n >= k && strcmp(s + n - k, p) == 0;
}

static int starts_any(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (starts(s, *list))
			return 1;
	return 0;
}

static int is_any(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

static void reg_add(uint16_t *v, uint8_t *n, unsigned r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < *n; i++)
		if (v[i] == r)
			return;
	if (*n < EPI_ISA_MAXREG)
		v[(*n)++] = (uint16_t)r;
}

static void reg_del(uint16_t *v, uint8_t *n, unsigned r)
{
	for (unsigned i = 0; i < *n; i++)
		if (v[i] == r) {
			memmove(v + i, v + i + 1, (*n - i - 1) * sizeof *v);
			(*n)--;
			return;
		}
}

/* Registers of one size, consecutive in capstone's numbering. */
typedef struct reg_range {
	unsigned first, last;
	int bytes;
} reg_range;

static int range_bytes(const reg_range *t, size_t n, unsigned r)
{
	for (size_t i = 0; i < n; i++)
		if (r >= t[i].first && r <= t[i].last)
			return t[i].bytes;
	return 0;
}

static int has_group(const cs_insn *in, uint8_t g)
{
	for (int i = 0; i < in->detail->groups_count; i++)
		if (in->detail->groups[i] == g)
			return 1;
	return 0;
}

/* ---- x86-64 ------------------------------------------------------------ */

static int x86_vreg_bytes(unsigned r)
{
	static const reg_range vregs[] = {
		{X86_REG_XMM0, X86_REG_XMM31, 16}, {X86_REG_YMM0, X86_REG_YMM31, 32},
		{X86_REG_ZMM0, X86_REG_ZMM31, 64}, {X86_REG_MM0, X86_REG_MM7, 8},
	};
	return range_bytes(vregs, sizeof vregs / sizeof *vregs, r);
}

static int x86_is_vec(unsigned r)
{
	return x86_vreg_bytes(r) || (r >= X86_REG_K0 && r <= X86_REG_K7);
}

/* Element bytes of an SSE/AVX floating suffix (addsd, mulps, vaddph); 0
 * without one. */
static int fp_suffix(const char *s, int *scalar)
{
	size_t n = strlen(s);
	if (n < 3)
		return 0;
	char a = s[n - 2], b = s[n - 1];
	int e = b == 's' ? 4 : b == 'd' ? 8 : b == 'h' ? 2 : 0;
	if (!e || (a != 's' && a != 'p'))
		return 0;
	*scalar = a == 's';
	return e;
}

/* Element bytes of integer SIMD from the last letter (paddd, vpxorq,
 * pshufb); pand has none. */
static int int_suffix(const char *s)
{
	if (strcmp(s, "pand") == 0)
		return 0;
	switch (s[strlen(s) - 1]) {
	case 'b': return 1;
	case 'w': return 2;
	case 'd': return 4;
	case 'q': return 8;
	}
	return 0;
}

/* The general-purpose operand of cvtsi2sd and cvttsd2si (or the memory
 * one when the integer is in memory). */
static int x86_gpr_bytes(const cs_x86 *x)
{
	int mem = 0;
	for (int i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];
		if (op->type == X86_OP_REG && !x86_is_vec(op->reg))
			return op->size;
		if (op->type == X86_OP_MEM)
			mem = op->size;
	}
	return mem;
}

static int cvt_type(const char *t, size_t n, const cs_x86 *x, int *scalar)
{
	static const struct { const char *name; int bytes, scalar; } types[] = {
		{"ss", 4, 1}, {"sd", 8, 1}, {"sh", 2, 1}, {"ps", 4, 0}, {"pd", 8, 0}, {"ph", 2, 0},
		{"dq", 4, 0}, {"udq", 4, 0}, {"qq", 8, 0}, {"uqq", 8, 0}, {"pi", 4, 0},
	};
	*scalar = 0;
	if ((n == 2 && strncmp(t, "si", 2) == 0) || (n == 3 && strncmp(t, "usi", 3) == 0)) {
		*scalar = 1;
		return x86_gpr_bytes(x);
	}
	for (size_t i = 0; i < sizeof types / sizeof *types; i++)
		if (strlen(types[i].name) == n && strncmp(t, types[i].name, n) == 0) {
			*scalar = types[i].scalar;
			return types[i].bytes;
		}
	return 0;
}

/* cvt[t]A2B: the wider of the two elements, scalar when either side is. */
static int x86_cvt(const char *s, const cs_x86 *x, int *scalar)
{
	const char *a = s + 3;
	if (*a == 't')
		a++;
	const char *two = strchr(a, '2');
	if (!two)
		return 0;
	int sa, sb;
	int ea = cvt_type(a, (size_t)(two - a), x, &sa);
	int eb = cvt_type(two + 1, strlen(two + 1), x, &sb);
	*scalar = sa || sb;
	return ea > eb ? ea : eb;
}

/* SSE, AVX and AVX-512 work (S without its VEX 'v'): the class, the
 * element bytes, and whether it works on one element. */
static int x86_simd_class(const char *s, const cs_x86 *x, int *elem, int *scalar)
{
	static const char *const fp_add[] = {"add", "sub", "min", "max", "cmp", "comi", "ucomi", "hadd", "hsub", NULL};
	static const char *const fp_mul[] = {"mul", "dp", "scalef", "rcp", "rsqrt", NULL};
	static const char *const fma[] = {"fmadd", "fmsub", "fnmadd", "fnmsub", NULL};
	static const char *const dup[] = {"movddup", "movshdup", "movsldup", NULL};
	*scalar = 0;
	if (starts(s, "cvt")) {
		*elem = x86_cvt(s, x, scalar);
		return EPI_IC_FP_CVT;
	}
	/* p-prefixed is integer SIMD, but for vpermpd and vpermilps */
	int fp = 0, e = 0;
	if (s[0] != 'p' || ends(s, "ps") || ends(s, "pd"))
		fp = (e = fp_suffix(s, scalar)) != 0;
	if (fp) {
		/* a broadcast of a scalar fills every lane */
		if (starts(s, "broadcast"))
			*scalar = 0;
		*elem = e;
		if (starts_any(s, fma))
			return EPI_IC_FP_FMA;
		if (starts_any(s, fp_add))
			return EPI_IC_FP_ADD;
		if (starts_any(s, fp_mul))
			return EPI_IC_FP_MUL;
		if (starts(s, "div") || starts(s, "sqrt"))
			return EPI_IC_FP_DIV;
		if (starts(s, "round") || starts(s, "rndscale"))
			return EPI_IC_FP_CVT;
		if ((starts(s, "mov") && !starts(s, "movmsk") && strcmp(s, "movhlps") && strcmp(s, "movlhps")) ||
		    starts(s, "maskmov") || starts(s, "gather") || starts(s, "scatter"))
			return EPI_IC_MOVE;
		return EPI_IC_VEC;
	}
	*elem = int_suffix(s);
	/* one element between a vector and a general register, or memory */
	*scalar = strcmp(s, "movd") == 0 || strcmp(s, "movq") == 0 || starts(s, "pextr") || starts(s, "pinsr");
	if (starts(s, "movdq") && s[strlen(s) - 1] >= '0' && s[strlen(s) - 1] <= '9')
		*elem = atoi(s + 6) / 8; /* vmovdqu64: elements of 64 bits */
	if ((starts(s, "mov") && !is_any(s, dup)) || starts(s, "kmov") || starts(s, "lddqu") ||
	    starts(s, "maskmov") || starts(s, "pmaskmov") || starts(s, "pgather") || starts(s, "pscatter"))
		return EPI_IC_MOVE;
	if (is_any(s, dup))
		*elem = s[3] == 'd' ? 8 : 4;
	return EPI_IC_VEC;
}

/* x87 on the stack registers (long double). */
static int x87_class(const char *m)
{
	static const char *const add[] = {"fadd", "fiadd", "fsub", "fisub", "fcom", "fucom", "ficom", "ftst", NULL};
	static const char *const other[] = {"fldcw", "fldenv", "fstcw", "fstsw", "fstenv", NULL};
	if (starts_any(m, add))
		return EPI_IC_FP_ADD;
	if (starts(m, "fmul") || starts(m, "fimul"))
		return EPI_IC_FP_MUL;
	if (starts(m, "fdiv") || starts(m, "fidiv") || strcmp(m, "fsqrt") == 0)
		return EPI_IC_FP_DIV;
	if (starts(m, "fild") || starts(m, "fist") || strcmp(m, "frndint") == 0)
		return EPI_IC_FP_CVT;
	if (starts_any(m, other))
		return EPI_IC_OTHER;
	if (starts(m, "fld") || starts(m, "fst") || starts(m, "fxch") || starts(m, "fcmov"))
		return EPI_IC_MOVE;
	if (strcmp(m, "fchs") == 0 || strcmp(m, "fabs") == 0)
		return EPI_IC_VEC;
	return EPI_IC_OTHER;
}

static int x86_int_class(const cs_insn *in, const char *m)
{
	switch (in->id) {
	case X86_INS_IMUL: case X86_INS_MUL: case X86_INS_MULX:
		return EPI_IC_INT_MUL;
	case X86_INS_DIV: case X86_INS_IDIV:
		return EPI_IC_INT_DIV;
	case X86_INS_ADD: case X86_INS_ADC: case X86_INS_ADCX: case X86_INS_ADOX: case X86_INS_SUB:
	case X86_INS_SBB: case X86_INS_AND: case X86_INS_OR: case X86_INS_XOR: case X86_INS_NOT:
	case X86_INS_NEG: case X86_INS_INC: case X86_INS_DEC: case X86_INS_SHL: case X86_INS_SAL:
	case X86_INS_SHR: case X86_INS_SAR: case X86_INS_ROL: case X86_INS_ROR: case X86_INS_RCL:
	case X86_INS_RCR: case X86_INS_SHLD: case X86_INS_SHRD: case X86_INS_SHLX: case X86_INS_SHRX:
	case X86_INS_SARX: case X86_INS_RORX: case X86_INS_LEA: case X86_INS_CMP: case X86_INS_TEST:
	case X86_INS_BT: case X86_INS_BTC: case X86_INS_BTR: case X86_INS_BTS: case X86_INS_MOVZX:
	case X86_INS_MOVSX: case X86_INS_MOVSXD: case X86_INS_CBW: case X86_INS_CWDE: case X86_INS_CDQE:
	case X86_INS_CWD: case X86_INS_CDQ: case X86_INS_CQO: case X86_INS_BSF: case X86_INS_BSR:
	case X86_INS_TZCNT: case X86_INS_LZCNT: case X86_INS_POPCNT: case X86_INS_BSWAP:
	case X86_INS_ANDN: case X86_INS_BEXTR: case X86_INS_BLSI: case X86_INS_BLSMSK: case X86_INS_BLSR:
	case X86_INS_BZHI: case X86_INS_PDEP: case X86_INS_PEXT: case X86_INS_XADD: case X86_INS_CMPXCHG:
	case X86_INS_CMPXCHG16B: case X86_INS_CMPXCHG8B: case X86_INS_CRC32: case X86_INS_LAHF:
	case X86_INS_SAHF: case X86_INS_CLC: case X86_INS_STC: case X86_INS_CMC: case X86_INS_CLD:
	case X86_INS_STD: case X86_INS_CMPSB: case X86_INS_CMPSW: case X86_INS_CMPSD: case X86_INS_CMPSQ:
	case X86_INS_SCASB: case X86_INS_SCASW: case X86_INS_SCASD: case X86_INS_SCASQ:
		return EPI_IC_INT;
	case X86_INS_MOV: case X86_INS_MOVABS: case X86_INS_PUSH: case X86_INS_POP: case X86_INS_XCHG:
	case X86_INS_MOVBE: case X86_INS_MOVNTI: case X86_INS_STOSB: case X86_INS_STOSW:
	case X86_INS_STOSD: case X86_INS_STOSQ: case X86_INS_LODSB: case X86_INS_LODSW:
	case X86_INS_LODSD: case X86_INS_LODSQ: case X86_INS_MOVSB: case X86_INS_MOVSW:
	case X86_INS_MOVSD: case X86_INS_MOVSQ: case X86_INS_LEAVE:
		return EPI_IC_MOVE;
	case X86_INS_VZEROUPPER: case X86_INS_VZEROALL:
		return EPI_IC_VEC;
	case X86_INS_NOP: case X86_INS_ENDBR64: case X86_INS_ENDBR32: case X86_INS_PAUSE:
	case X86_INS_PREFETCH: case X86_INS_PREFETCHW: case X86_INS_PREFETCHNTA: case X86_INS_PREFETCHT0:
	case X86_INS_PREFETCHT1: case X86_INS_PREFETCHT2:
		return EPI_IC_NOP;
	}
	if (starts(m, "set") || has_group(in, X86_GRP_CMOV))
		return EPI_IC_INT;
	return EPI_IC_OTHER;
}

/* Whether memory operand K is read or written (CS_AC_*). Capstone 4 marks
 * many stores as reads (vmovupd, movq, pextrd, fstp to memory) and test's
 * operand as written, so the first operand, the destination, is judged by
 * the class; a later memory operand is a source. */
static int x86_mem_access(const cs_insn *in, const char *m, int klass, int k)
{
	static const char *const x87_store[] = {"fst", "fist", "fnst", "fbstp", "fsave", "fnsave", "fxsave", NULL};
	const cs_x86_op *op = &in->detail->x86.operands[k];
	if (in->id == X86_INS_XCHG)
		return CS_AC_READ | CS_AC_WRITE;
	if (k > 0)
		return CS_AC_READ;
	if (m[0] == 'f')
		return starts_any(m, x87_store) ? CS_AC_WRITE : CS_AC_READ;
	switch (klass) {
	case EPI_IC_MOVE:
		return in->id == X86_INS_PUSH ? CS_AC_READ : CS_AC_WRITE;
	case EPI_IC_VEC:
	case EPI_IC_FP_CVT: /* vpextrd, vextractf128, vpmovqd, vcvtps2ph to memory */
		return CS_AC_WRITE;
	case EPI_IC_INT:
		switch (in->id) {
		case X86_INS_CMP: case X86_INS_TEST: case X86_INS_BT: case X86_INS_CMPSB:
		case X86_INS_CMPSW: case X86_INS_CMPSD: case X86_INS_CMPSQ:
			return CS_AC_READ;
		}
		return starts(m, "set") ? CS_AC_WRITE : CS_AC_READ | CS_AC_WRITE;
	case EPI_IC_INT_MUL: case EPI_IC_INT_DIV: case EPI_IC_BRANCH: case EPI_IC_CALL:
		return CS_AC_READ;
	}
	return op->access ? op->access : CS_AC_READ;
}

/* xor eax, eax and its SIMD kin: the result does not depend on the
 * register, so it is no reader of it (no chain through it). */
static void x86_zero_idiom(const char *s, const cs_x86 *x, epi_insn *o)
{
	static const char *const idioms[] = {"xor", "sub", "pxor", "pxord", "pxorq", "xorps", "xorpd", "psubb",
					     "psubw", "psubd", "psubq", "pcmpeqb", "pcmpeqw", "pcmpeqd", "pcmpeqq", NULL};
	/* the two sources: xor eax, eax; vxorps xmm0, xmm1, xmm1 */
	int k = x->op_count - 2;
	if (k < 0 || k > 1)
		return;
	const cs_x86_op *a = &x->operands[k], *b = &x->operands[k + 1];
	if (a->type == X86_OP_REG && b->type == X86_OP_REG && a->reg == b->reg && is_any(s, idioms))
		reg_del(o->rd, &o->nrd, a->reg);
}

/* An SSE scalar conversion, square root or rounding (not its VEX form)
 * writes the low element of its destination and keeps the rest: it waits
 * for the destination's last value (cvtsi2sd after an add on xmm0 is a
 * chain, which compilers break with a pxor that -O0 code leaves out). */
static void x86_merge(const char *m, const cs_x86 *x, epi_insn *o)
{
	static const char *const merge[] = {"cvtsi2sd", "cvtsi2ss", "cvtss2sd", "cvtsd2ss", "sqrtsd", "sqrtss",
					    "roundsd", "roundss", "rcpss", "rsqrtss"};
	if (x->op_count < 2 || x->operands[0].type != X86_OP_REG || !x86_is_vec(x->operands[0].reg))
		return;
	for (size_t i = 0; i < sizeof merge / sizeof *merge; i++)
		if (strcmp(m, merge[i]) == 0)
			reg_add(o->rd, &o->nrd, x->operands[0].reg);
}

static void x86_classify(epi_isa *d, const cs_insn *in, epi_insn *o)
{
	const cs_x86 *x = &in->detail->x86;
	/* the operation after rep, lock, notrack */
	const char *m = strrchr(in->mnemonic, ' ');
	m = m ? m + 1 : in->mnemonic;
	int vec = 0, vbytes = 0, memk = -1;
	for (int i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];
		if (op->type == X86_OP_REG && x86_is_vec(op->reg)) {
			vec = 1;
			if (x86_vreg_bytes(op->reg) > vbytes)
				vbytes = x86_vreg_bytes(op->reg);
		} else if (op->type == X86_OP_MEM && memk < 0) {
			memk = i;
		}
	}
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	if (cs_regs_access(d->cs, in, rd, &nrd, wr, &nwr) == CS_ERR_OK) {
		for (int i = 0; i < nrd; i++)
			reg_add(o->rd, &o->nrd, rd[i]);
		for (int i = 0; i < nwr; i++)
			reg_add(o->wr, &o->nwr, wr[i]);
	}

	int klass, elem = 0, scalar = 1, x87 = 0;
	/* the instruction without its VEX/EVEX 'v' (but vmcall, verr) */
	const char *s = m[0] == 'v' && !has_group(in, X86_GRP_VM) && !starts(m, "ver") ? m + 1 : m;
	if (has_group(in, CS_GRP_CALL)) {
		klass = EPI_IC_CALL;
	} else if (has_group(in, CS_GRP_RET)) {
		klass = EPI_IC_RET;
	} else if (has_group(in, CS_GRP_JUMP) || in->id == X86_INS_LOOP || in->id == X86_INS_LOOPE ||
		   in->id == X86_INS_LOOPNE) {
		klass = EPI_IC_BRANCH;
		o->cond = in->id != X86_INS_JMP && in->id != X86_INS_LJMP;
	} else if (m[0] == 'f') {
		klass = x87_class(m);
		x87 = klass != EPI_IC_OTHER;
		elem = x87 ? 10 : 0;
	} else if (vec || starts(s, "cvt")) { /* cvttsd2si rax, [rdi] names no vector register */
		klass = x86_simd_class(s, x, &elem, &scalar);
	} else {
		klass = x86_int_class(in, m);
		if (klass != EPI_IC_NOP && klass != EPI_IC_OTHER && x->op_count)
			elem = x->operands[0].size;
	}
	o->klass = (uint8_t)klass;

	if (klass == EPI_IC_NOP) { /* nopw [rax+rax], prefetcht0: no data, no chain */
		o->nrd = o->nwr = 0;
		return;
	}
	if (x87) {
		/* capstone 4 leaves out the stack top; every x87 result lands there */
		if (!starts(m, "fld") && !starts(m, "fild"))
			reg_add(o->rd, &o->nrd, X86_REG_ST0);
		reg_add(o->wr, &o->nwr, X86_REG_ST0);
	}
	x86_zero_idiom(s, x, o);
	x86_merge(m, x, o);
	reg_del(o->rd, &o->nrd, X86_REG_RIP); /* pc-relative addresses are constants */

	for (int i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];
		if (op->type != X86_OP_MEM || in->id == X86_INS_LEA)
			continue;
		int ac = x86_mem_access(in, m, klass, i);
		o->loads += (ac & CS_AC_READ) != 0;
		o->stores += (ac & CS_AC_WRITE) != 0;
	}
	if (memk >= 0) {
		const x86_op_mem *mm = &x->operands[memk].mem;
		o->base = (uint16_t)mm->base;
		o->index = (uint16_t)mm->index;
		o->scale = mm->scale;
		o->disp = mm->disp;
		if (in->id != X86_INS_LEA)
			o->mem_bytes = x->operands[memk].size;
		if (mm->base == X86_REG_RIP) { /* the absolute address, for comparing slots */
			o->base = 0;
			o->disp = (int64_t)(in->address + in->size) + mm->disp;
		}
	} else if (in->id == X86_INS_PUSH || in->id == X86_INS_POP || in->id == X86_INS_LEAVE) {
		/* the stack slot pushed to or popped from */
		o->base = in->id == X86_INS_LEAVE ? X86_REG_RBP : X86_REG_RSP;
		o->scale = 1;
		o->disp = in->id == X86_INS_PUSH ? -8 : 0;
		o->mem_bytes = 8;
		elem = 8;
	}
	if (in->id == X86_INS_PUSH)
		o->stores++;
	else if (in->id == X86_INS_POP || in->id == X86_INS_LEAVE)
		o->loads++;

	o->elem = (uint8_t)elem;
	if (vec && elem && !scalar) {
		/* a vector move's width is its memory operand's (movhps moves 8
		 * bytes of a 16-byte register); other work, a gather's too, spans
		 * the widest register */
		int gather = memk >= 0 && x86_is_vec(x->operands[memk].mem.index);
		int width = klass == EPI_IC_MOVE && memk >= 0 && !gather ? o->mem_bytes : vbytes;
		if (gather)
			o->mem_bytes = (uint16_t)vbytes;
		o->lanes = (uint8_t)(width / elem > 0 ? width / elem : 1);
	}

	if ((klass == EPI_IC_BRANCH || klass == EPI_IC_CALL) && x->op_count == 1 &&
	    x->operands[0].type == X86_OP_IMM) {
		o->target = (uint64_t)x->operands[0].imm;
		o->direct = 1;
	}
}

/* ---- aarch64 ----------------------------------------------------------- */

static int a64_reg_bytes(unsigned r)
{
	static const reg_range gregs[] = {
		{ARM64_REG_W0, ARM64_REG_W30, 4}, {ARM64_REG_WSP, ARM64_REG_WZR, 4},
		{ARM64_REG_X0, ARM64_REG_X28, 8}, {ARM64_REG_X29, ARM64_REG_X30, 8},
		{ARM64_REG_SP, ARM64_REG_SP, 8}, {ARM64_REG_XZR, ARM64_REG_XZR, 8},
		{ARM64_REG_B0, ARM64_REG_B31, 1}, {ARM64_REG_H0, ARM64_REG_H31, 2},
		{ARM64_REG_S0, ARM64_REG_S31, 4}, {ARM64_REG_D0, ARM64_REG_D31, 8},
		{ARM64_REG_Q0, ARM64_REG_Q31, 16}, {ARM64_REG_V0, ARM64_REG_V31, 16},
	};
	return range_bytes(gregs, sizeof gregs / sizeof *gregs, r);
}

static int a64_is_fp(unsigned r)
{
	return (r >= ARM64_REG_B0 && r <= ARM64_REG_Q31) || (r >= ARM64_REG_S0 && r <= ARM64_REG_S31) ||
	       (r >= ARM64_REG_V0 && r <= ARM64_REG_V31);
}

/* The lanes and element bytes of a NEON operand (v0.4s; v0.s[1] is one
 * element); 0 for none. */
static int a64_shape(const cs_arm64_op *op, int *lanes)
{
	static const struct { int lanes, elem; } vas[] = {
		[ARM64_VAS_8B] = {8, 1}, [ARM64_VAS_16B] = {16, 1}, [ARM64_VAS_4H] = {4, 2},
		[ARM64_VAS_8H] = {8, 2}, [ARM64_VAS_2S] = {2, 4}, [ARM64_VAS_4S] = {4, 4},
		[ARM64_VAS_1D] = {1, 8}, [ARM64_VAS_2D] = {2, 8}, [ARM64_VAS_1Q] = {1, 16},
	};
	static const int vess[] = {[ARM64_VESS_B] = 1, [ARM64_VESS_H] = 2, [ARM64_VESS_S] = 4, [ARM64_VESS_D] = 8};
	*lanes = 0;
	if (op->type != ARM64_OP_REG)
		return 0;
	if (op->vas > ARM64_VAS_INVALID && op->vas <= ARM64_VAS_1Q) {
		*lanes = vas[op->vas].lanes;
		return vas[op->vas].elem;
	}
	if (op->vess > ARM64_VESS_INVALID && op->vess <= ARM64_VESS_D) {
		*lanes = 1;
		return vess[op->vess];
	}
	return 0;
}

static int a64_class(const cs_insn *in, const char *m, int fp, int load, int store)
{
	const cs_arm64 *a = &in->detail->arm64;
	switch (in->id) {
	case ARM64_INS_B: case ARM64_INS_BR: case ARM64_INS_CBZ: case ARM64_INS_CBNZ:
	case ARM64_INS_TBZ: case ARM64_INS_TBNZ:
		return EPI_IC_BRANCH;
	case ARM64_INS_BL: case ARM64_INS_BLR:
		return EPI_IC_CALL;
	case ARM64_INS_RET:
		return EPI_IC_RET;
	case ARM64_INS_NOP: case ARM64_INS_HINT: case ARM64_INS_YIELD: case ARM64_INS_PRFM:
	case ARM64_INS_PRFUM:
		return EPI_IC_NOP;
	case ARM64_INS_SDIV: case ARM64_INS_UDIV:
		return EPI_IC_INT_DIV;
	case ARM64_INS_MUL: case ARM64_INS_MADD: case ARM64_INS_MSUB: case ARM64_INS_MNEG:
	case ARM64_INS_SMULL: case ARM64_INS_UMULL: case ARM64_INS_SMULH: case ARM64_INS_UMULH:
	case ARM64_INS_SMADDL: case ARM64_INS_UMADDL: case ARM64_INS_SMSUBL: case ARM64_INS_UMSUBL:
	case ARM64_INS_SMNEGL: case ARM64_INS_UMNEGL:
		return fp ? EPI_IC_VEC : EPI_IC_INT_MUL;
	case ARM64_INS_ADD: case ARM64_INS_SUB: case ARM64_INS_CMP: case ARM64_INS_CMN: case ARM64_INS_TST:
	case ARM64_INS_AND: case ARM64_INS_ORR: case ARM64_INS_ORN: case ARM64_INS_EOR: case ARM64_INS_EON:
	case ARM64_INS_BIC: case ARM64_INS_MVN: case ARM64_INS_NEG: case ARM64_INS_NGC: case ARM64_INS_NGCS:
	case ARM64_INS_ADC: case ARM64_INS_SBC: case ARM64_INS_LSL: case ARM64_INS_LSR: case ARM64_INS_ASR:
	case ARM64_INS_ROR: case ARM64_INS_SXTB: case ARM64_INS_SXTH: case ARM64_INS_SXTW:
	case ARM64_INS_UXTB: case ARM64_INS_UXTH: case ARM64_INS_SBFIZ: case ARM64_INS_SBFX:
	case ARM64_INS_UBFIZ: case ARM64_INS_UBFX: case ARM64_INS_BFI: case ARM64_INS_BFXIL:
	case ARM64_INS_BFM: case ARM64_INS_SBFM: case ARM64_INS_UBFM: case ARM64_INS_EXTR:
	case ARM64_INS_CSEL: case ARM64_INS_CSINC: case ARM64_INS_CSINV: case ARM64_INS_CSNEG:
	case ARM64_INS_CSET: case ARM64_INS_CSETM: case ARM64_INS_CINC: case ARM64_INS_CINV:
	case ARM64_INS_CNEG: case ARM64_INS_CCMP: case ARM64_INS_CCMN: case ARM64_INS_ADR:
	case ARM64_INS_ADRP: case ARM64_INS_CLZ: case ARM64_INS_CLS: case ARM64_INS_RBIT:
	case ARM64_INS_REV: case ARM64_INS_REV16: case ARM64_INS_REV32:
		return fp ? EPI_IC_VEC : EPI_IC_INT;
	case ARM64_INS_MOV:
		/* umov w0, v1.s[1] and ins v0.s[1], v1.s[0] move lanes */
		for (int i = 0; i < a->op_count; i++)
			if (a->operands[i].type == ARM64_OP_REG && a->operands[i].vector_index >= 0)
				return EPI_IC_VEC;
		return EPI_IC_MOVE;
	case ARM64_INS_MOVZ: case ARM64_INS_MOVN: case ARM64_INS_MOVK: case ARM64_INS_FMOV:
	case ARM64_INS_MOVI: case ARM64_INS_MVNI:
		return EPI_IC_MOVE;
	case ARM64_INS_FADD: case ARM64_INS_FSUB: case ARM64_INS_FABD: case ARM64_INS_FADDP:
	case ARM64_INS_FMAX: case ARM64_INS_FMIN: case ARM64_INS_FMAXNM: case ARM64_INS_FMINNM:
	case ARM64_INS_FMAXP: case ARM64_INS_FMINP: case ARM64_INS_FMAXNMP: case ARM64_INS_FMINNMP:
	case ARM64_INS_FMAXV: case ARM64_INS_FMINV: case ARM64_INS_FMAXNMV: case ARM64_INS_FMINNMV:
	case ARM64_INS_FCMP: case ARM64_INS_FCMPE: case ARM64_INS_FCCMP: case ARM64_INS_FCCMPE:
	case ARM64_INS_FCMEQ: case ARM64_INS_FCMGE: case ARM64_INS_FCMGT: case ARM64_INS_FCMLE:
	case ARM64_INS_FCMLT: case ARM64_INS_FACGE: case ARM64_INS_FACGT:
		return EPI_IC_FP_ADD;
	case ARM64_INS_FMUL: case ARM64_INS_FNMUL: case ARM64_INS_FMULX: case ARM64_INS_FRECPE:
	case ARM64_INS_FRSQRTE: case ARM64_INS_FRECPX:
		return EPI_IC_FP_MUL;
	case ARM64_INS_FMADD: case ARM64_INS_FMSUB: case ARM64_INS_FNMADD: case ARM64_INS_FNMSUB:
	case ARM64_INS_FMLA: case ARM64_INS_FMLS: case ARM64_INS_FRECPS: case ARM64_INS_FRSQRTS:
		return EPI_IC_FP_FMA;
	case ARM64_INS_FDIV: case ARM64_INS_FSQRT:
		return EPI_IC_FP_DIV;
	case ARM64_INS_SCVTF: case ARM64_INS_UCVTF:
		return EPI_IC_FP_CVT;
	}
	if (starts(m, "fcvt") || starts(m, "frint"))
		return EPI_IC_FP_CVT;
	if (load || store) /* ld1r loads one element into every lane */
		return load && ends(m, "r") && m[2] >= '1' && m[2] <= '4' ? EPI_IC_VEC : EPI_IC_MOVE;
	return fp ? EPI_IC_VEC : EPI_IC_OTHER;
}

/* stxr w2, x0, [x1]: w2 receives the status, x0 is stored */
static int a64_status(const char *m)
{
	return starts(m, "stx") || starts(m, "stlx");
}

/* Register access rebuilt from the operands: capstone 4 has cmp and tst
 * write their first operand, movz, lsl and sxtw read their destination, st1
 * write its second register and ld1 lose its third and fourth. */
static void a64_regs(const cs_insn *in, const char *m, int klass, int load, int store, epi_insn *o)
{
	static const char *const reads_dest[] = {
		"movk", "bfi", "bfxil", "bfm", "fmla", "fmls", "mla", "mls", "bsl", "bit", "bif", "sli", "sri",
		"tbx", "ssra", "usra", "srsra", "ursra", "saba", "uaba", "sabal", "uabal", "sabal2", "uabal2",
		"smlal", "smlal2", "umlal", "umlal2", "smlsl", "smlsl2", "umlsl", "umlsl2", "sqdmlal",
		"sqdmlal2", "sqdmlsl", "sqdmlsl2", "sadalp", "uadalp", "sdot", "udot", "fcmla", NULL};
	const cs_arm64 *a = &in->detail->arm64;
	int compare = in->id == ARM64_INS_CMP || in->id == ARM64_INS_CMN || in->id == ARM64_INS_TST ||
		      in->id == ARM64_INS_FCMP || in->id == ARM64_INS_FCMPE || in->id == ARM64_INS_CCMP ||
		      in->id == ARM64_INS_CCMN || in->id == ARM64_INS_FCCMP || in->id == ARM64_INS_FCCMPE;
	int control = klass == EPI_IC_BRANCH || klass == EPI_IC_CALL || klass == EPI_IC_RET;
	int status = store && a64_status(m);
	/* xtn2, fcvtn2, shrn2 fill the upper half and keep the lower */
	int keeps = is_any(m, reads_dest) || ends(m, "n2");
	int after_mem = 0;
	for (int i = 0; i < a->op_count; i++) {
		const cs_arm64_op *op = &a->operands[i];
		if (op->type == ARM64_OP_MEM) {
			reg_add(o->rd, &o->nrd, op->mem.base);
			reg_add(o->rd, &o->nrd, op->mem.index);
			if (a->writeback)
				reg_add(o->wr, &o->nwr, op->mem.base);
			after_mem = 1;
			continue;
		}
		if (op->type != ARM64_OP_REG)
			continue;
		int r, w;
		if (compare || control) {
			r = 1, w = 0;
		} else if (store) {
			w = status && i == 0;
			r = !w;
		} else if (load) {
			w = !after_mem;
			r = after_mem || op->vector_index >= 0; /* ld1 {v0.s}[1] keeps the rest */
		} else if (i == 0) {
			w = 1;
			r = keeps || op->vector_index >= 0;
		} else {
			r = 1, w = 0;
		}
		if (r)
			reg_add(o->rd, &o->nrd, op->reg);
		if (w)
			reg_add(o->wr, &o->nwr, op->reg);
	}
	for (int i = 0; i < in->detail->regs_read_count; i++)
		reg_add(o->rd, &o->nrd, in->detail->regs_read[i]);
	for (int i = 0; i < in->detail->regs_write_count; i++)
		reg_add(o->wr, &o->nwr, in->detail->regs_write[i]);
	if (a->cc != ARM64_CC_INVALID && a->cc != ARM64_CC_AL && a->cc != ARM64_CC_NV)
		reg_add(o->rd, &o->nrd, ARM64_REG_NZCV);
	if (a->update_flags)
		reg_add(o->wr, &o->nwr, ARM64_REG_NZCV);
	if (klass == EPI_IC_RET && a->op_count == 0)
		reg_add(o->rd, &o->nrd, ARM64_REG_X30);
}

static void a64_classify(const cs_insn *in, epi_insn *o)
{
	const cs_arm64 *a = &in->detail->arm64;
	const char *m = in->mnemonic;
	int fp = 0, memk = -1;
	for (int i = 0; i < a->op_count; i++) {
		if (a->operands[i].type == ARM64_OP_REG && a64_is_fp(a->operands[i].reg))
			fp = 1;
		else if (a->operands[i].type == ARM64_OP_MEM && memk < 0)
			memk = i;
	}
	int load = starts(m, "ld"), store = starts(m, "st");
	int klass = a64_class(in, m, fp, load, store);
	o->klass = (uint8_t)klass;
	if (klass == EPI_IC_NOP) /* prfm: a hint, no data */
		return;
	a64_regs(in, m, klass, load, store, o);

	/* the shape: the operand of the widest element (fcvtl v0.2d, v1.2s
	 * converts two), else the widest register */
	int lanes = 1, elem = 0, vector = 0;
	for (int i = 0; i < a->op_count; i++) {
		int l, e = a64_shape(&a->operands[i], &l);
		if (e > elem || (e == elem && l > lanes)) {
			elem = e;
			lanes = l;
			vector = 1;
		}
	}
	if (!vector && klass != EPI_IC_BRANCH && klass != EPI_IC_CALL && klass != EPI_IC_RET) {
		for (int i = 0; i < a->op_count; i++)
			if (a->operands[i].type == ARM64_OP_REG && a64_reg_bytes(a->operands[i].reg) > elem)
				elem = a64_reg_bytes(a->operands[i].reg);
	}

	if (load || store) {
		o->loads = (uint8_t)load;
		o->stores = (uint8_t)store;
		int nt = 0, per = 0;
		int last = memk >= 0 ? memk : a->op_count;
		for (int i = 0; i < last; i++) {
			const cs_arm64_op *op = &a->operands[i];
			if (op->type != ARM64_OP_REG || (i == 0 && a64_status(m)))
				continue;
			if (!nt++) {
				int l, e = a64_shape(op, &l);
				if (m[2] >= '1' && m[2] <= '4') /* ld1-ld4, st1-st4 */
					per = op->vector_index >= 0 || ends(m, "r") ? e : e * l;
				else if (ends(m, "b"))
					per = 1;
				else if (ends(m, "h"))
					per = 2;
				else if (ends(m, "sw"))
					per = 4;
				else
					per = a64_reg_bytes(op->reg);
				if (!vector)
					elem = per;
			}
		}
		o->mem_bytes = (uint16_t)(nt * per);
		if (memk < 0) { /* ldr x0, label: the literal's address */
			for (int i = 0; i < a->op_count; i++)
				if (a->operands[i].type == ARM64_OP_IMM)
					o->disp = a->operands[i].imm;
			o->scale = 1;
		}
	}
	if (memk >= 0) {
		const cs_arm64_op *op = &a->operands[memk];
		o->base = (uint16_t)op->mem.base;
		o->index = (uint16_t)op->mem.index;
		o->disp = op->mem.disp;
		o->scale = op->mem.index && op->shift.type == ARM64_SFT_LSL ? 1 << op->shift.value : 1;
	}
	/* q registers without an arrangement hold no particular element */
	o->elem = (uint8_t)(elem == 16 && !vector ? 0 : elem);
	o->lanes = (uint8_t)(lanes > 0 ? lanes : 1);

	if (klass == EPI_IC_BRANCH || klass == EPI_IC_CALL) {
		o->cond = in->id == ARM64_INS_CBZ || in->id == ARM64_INS_CBNZ || in->id == ARM64_INS_TBZ ||
			  in->id == ARM64_INS_TBNZ ||
			  (in->id == ARM64_INS_B && a->cc != ARM64_CC_INVALID && a->cc != ARM64_CC_AL &&
			   a->cc != ARM64_CC_NV);
		if (in->id != ARM64_INS_BR && in->id != ARM64_INS_BLR)
			for (int i = 0; i < a->op_count; i++)
				if (a->operands[i].type == ARM64_OP_IMM) {
					o->target = (uint64_t)a->operands[i].imm;
					o->direct = 1;
				}
	}
}

/* ---- the decoder ------------------------------------------------------- */

epi_isa *epi_isa_open(int machine, char *err)
{
	cs_arch arch;
	cs_mode mode;
	if (machine == EM_X86_64) {
		arch = CS_ARCH_X86;
		mode = CS_MODE_64;
	} else if (machine == EM_AARCH64) {
		arch = CS_ARCH_ARM64;
		mode = CS_MODE_ARM;
	} else {
		epi_error(err, "ELF machine %d: only x86-64 and aarch64 instructions are classified", machine);
		return NULL;
	}
	csh cs;
	cs_err e = cs_open(arch, mode, &cs);
	if (e != CS_ERR_OK) {
		epi_error(err, "capstone: %s", cs_strerror(e));
		return NULL;
	}
	if ((e = cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON)) != CS_ERR_OK) {
		epi_error(err, "capstone: %s", cs_strerror(e));
		cs_close(&cs);
		return NULL;
	}
	epi_isa *d = xcalloc(1, sizeof *d);
	d->cs = cs;
	d->arm = machine == EM_AARCH64;
	d->insn = cs_malloc(cs);
	if (!d->insn)
		epi_out_of_memory(sizeof *d->insn);
	d->nid = d->arm ? ARM64_INS_ENDING : X86_INS_ENDING;
	d->by_id = xcalloc(d->nid, sizeof *d->by_id);
	if (!d->arm) {
		static pthread_once_t once = PTHREAD_ONCE_INIT;
		pthread_once(&once, x86_init);
		d->llvm = LLVMCreateDisasm("x86_64-unknown-linux-gnu", NULL, 0, NULL, NULL);
	}
	return d;
}

static int aop_cmp(const void *k, const void *e)
{
	return strcmp(k, *(const char *const *)e);
}

enum epi_aop epi_isa_aop(const char *m)
{
	/* sorted, for bsearch; the index of each name is its enum epi_aop */
	static const char *const name[] = {"add",  "adds", "adrp", "cdqe", "cltq", "cmp",    "dec",   "imul",
					   "inc",  "lea",  "lsl",  "mov",  "movsx",  "movsxd", "movzx",
					   "mul",  "neg",  "sal",  "shl",  "sub",    "subs",  "sxtw",
					   "test", "uxtw", "xor"};
	static const enum epi_aop code[] = {
		EPI_AOP_ADD, EPI_AOP_ADDS,  EPI_AOP_ADRP, EPI_AOP_CDQE,   EPI_AOP_CLTQ,  EPI_AOP_CMP,  EPI_AOP_DEC,  EPI_AOP_IMUL,
		EPI_AOP_INC, EPI_AOP_LEA,   EPI_AOP_LSL,    EPI_AOP_MOV,   EPI_AOP_MOVSX, EPI_AOP_MOVSXD, EPI_AOP_MOVZX,
		EPI_AOP_MUL, EPI_AOP_NEG,   EPI_AOP_SAL,    EPI_AOP_SHL,   EPI_AOP_SUB,  EPI_AOP_SUBS, EPI_AOP_SXTW,
		EPI_AOP_TEST, EPI_AOP_UXTW, EPI_AOP_XOR};
	_Static_assert(sizeof name / sizeof *name == sizeof code / sizeof *code, "one code per name");
	const char *const *e = bsearch(m, name, sizeof name / sizeof *name, sizeof *name, aop_cmp);
	if (e)
		return code[e - name];
	if (strncmp(m, "mov", 3) == 0)
		return EPI_AOP_MOV_OTHER;
	/* x86's [v]{min,max}{s,p}{s,d}, aarch64's fmin, fmax, fminnm, fmaxnm */
	const char *x = m[0] == 'v' ? m + 1 : m;
	if ((strncmp(x, "min", 3) == 0 || strncmp(x, "max", 3) == 0) && strlen(x) == 5 && strchr("sp", x[3]) &&
	    strchr("sd", x[4]))
		return EPI_AOP_FMINMAX;
	if (strcmp(m, "fmin") == 0 || strcmp(m, "fmax") == 0 || strcmp(m, "fminnm") == 0 || strcmp(m, "fmaxnm") == 0)
		return EPI_AOP_FMINMAX;
	return EPI_AOP_NONE;
}

void epi_isa_close(epi_isa *d)
{
	if (!d)
		return;
	cs_free(d->insn, 1);
	cs_close(&d->cs);
	free(d->dc);
	free(d->dc_slot);
	if (d->llvm)
		LLVMDisasmDispose(d->llvm);
	free(d->by_id);
	free(d);
}

static unsigned x86_full(unsigned r);
static unsigned a64_full(unsigned r);

/* An immediate operand of value V: none of either kind past 32 bits. */
static epi_opnd imm_opnd(int64_t v)
{
	if (v < INT32_MIN || v > INT32_MAX)
		return (epi_opnd){0};
	return (epi_opnd){.kind = EPI_OPND_IMM, .imm = (int32_t)v};
}

/* The explicit operands of IN, in order, for the analyses of how values
 * change from one iteration to the next. */
static void operands(const epi_isa *d, const cs_insn *in, epi_insn *out)
{
	out->isa_id = (uint16_t)in->id;
	if (!in->detail)
		return;
	if (d->arm) {
		const cs_arm64 *a = &in->detail->arm64;
		for (int i = 0; i < a->op_count && out->nop < 4; i++) {
			const cs_arm64_op *o = &a->operands[i];
			if (o->type == ARM64_OP_REG)
				out->op[out->nop++] = (epi_opnd){.kind = EPI_OPND_REG, .reg = (uint16_t)a64_full(o->reg)};
			else if (o->type == ARM64_OP_IMM) /* #1, lsl #12: 4096 */
				out->op[out->nop++] = imm_opnd(o->shift.type == ARM64_SFT_LSL && o->shift.value < 64
								       ? (int64_t)((uint64_t)o->imm << o->shift.value)
								       : o->imm);
			else if (o->type == ARM64_OP_MEM)
				out->op[out->nop++] = (epi_opnd){.kind = EPI_OPND_MEM};
		}
		out->writeback = a->writeback;
		/* post-indexed: [xN], #imm comes as a memory operand then an immediate */
		if (a->writeback && out->nop >= 2 && out->op[out->nop - 1].kind == EPI_OPND_IMM &&
		    out->op[out->nop - 2].kind == EPI_OPND_MEM)
			out->post_index = out->op[out->nop - 1].imm;
		else if (a->writeback)
			out->post_index = (int32_t)out->disp;
		return;
	}
	const cs_x86 *x = &in->detail->x86;
	for (int i = 0; i < x->op_count && out->nop < 4; i++) {
		const cs_x86_op *o = &x->operands[i];
		if (o->type == X86_OP_REG)
			out->op[out->nop++] = (epi_opnd){.kind = EPI_OPND_REG, .reg = (uint16_t)x86_full(o->reg)};
		else if (o->type == X86_OP_IMM)
			/* of a 32-bit operation, capstone gives the immediate's
			 * bits unsigned (mov eax, 0xfffffe0c): its value is the
			 * same bits signed, as the operation's arithmetic takes it */
			out->op[out->nop++] = imm_opnd(o->size == 4 && o->imm > INT32_MAX && o->imm <= UINT32_MAX
							       ? (int32_t)(uint32_t)o->imm
							       : o->imm);
		else if (o->type == X86_OP_MEM)
			out->op[out->nop++] = (epi_opnd){.kind = EPI_OPND_MEM};
	}
}

/* ---- decoded instructions, by their bytes -------------------------------
 *
 * Code repeats the same encodings (the same register moves, loads from
 * the same stack slots), and capstone's decoding with details is most of
 * the cost of reading an object. An encoding decodes alike wherever it
 * is, unless it is addressed from the program counter (a relative branch
 * or call, a rip-relative operand, adr, adrp, a literal load). Rather
 * than list those forms, an encoding is decoded again where it is met the
 * second time: if that decoding equals the first one but for the address,
 * at an address in another 4 KiB page (adrp's result moves with the page
 * only), the encoding is taken from the cache from then on; if it
 * differs, it is always decoded. An encoding costs at most two decodings. */

enum { DC_ONCE = 1, DC_SAME, DC_PCREL };
enum { DC_MAXLEN = 15, DC_MAX = 1 << 15 };

typedef struct dc_ent {
	epi_insn in; /* as decoded at in.addr */
	uint8_t bytes[DC_MAXLEN];
	uint8_t state;
} dc_ent;

static size_t dc_hash(const uint8_t *b, size_t n)
{
	return name_hash((const char *)b, n);
}

/* The cached instruction that CODE (N bytes) starts with, or NULL. An
 * encoding's length is fixed by its own bytes, so one that matches the
 * start of CODE is the instruction there. */
static dc_ent *dc_find(const epi_isa *d, const uint8_t *code, size_t n)
{
	unsigned lens = d->dc_n ? d->dc_lens[code[0]] : 0;
	for (size_t len = 1; lens >> len && len <= n; len++) {
		if (!(lens >> len & 1))
			continue;
		size_t mask = d->dc_cap - 1;
		for (size_t i = dc_hash(code, len) & mask; d->dc_slot[i]; i = (i + 1) & mask) {
			dc_ent *e = &d->dc[d->dc_slot[i] - 1];
			if (e->in.size == len && memcmp(e->bytes, code, len) == 0)
				return e;
		}
	}
	return NULL;
}

/* Indexes entry K of D in its slots. */
static void dc_index(epi_isa *d, size_t k)
{
	const dc_ent *e = &d->dc[k];
	size_t i = dc_hash(e->bytes, e->in.size) & (d->dc_cap - 1);
	while (d->dc_slot[i])
		i = (i + 1) & (d->dc_cap - 1);
	d->dc_slot[i] = (uint32_t)k + 1;
}

/* Caches IN, decoded from CODE, until the cache holds DC_MAX encodings. */
static void dc_add(epi_isa *d, const uint8_t *code, const epi_insn *in)
{
	if (in->size == 0 || in->size > DC_MAXLEN || d->dc_n >= DC_MAX)
		return;
	ALLOC_GROW(d->dc, d->dc_n + 1, d->dc_alloc);
	dc_ent *e = &d->dc[d->dc_n++];
	*e = (dc_ent){.in = *in, .state = DC_ONCE};
	memcpy(e->bytes, code, in->size);
	d->dc_lens[code[0]] |= (uint16_t)(1u << in->size);
	if (2 * d->dc_n > d->dc_cap) {
		free(d->dc_slot);
		d->dc_cap = d->dc_cap ? 2 * d->dc_cap : 1024;
		d->dc_slot = xcalloc(d->dc_cap, sizeof *d->dc_slot);
		for (size_t k = 0; k < d->dc_n; k++)
			dc_index(d, k);
	} else {
		dc_index(d, d->dc_n - 1);
	}
}

/* E met again and decoded there as IN (at IN's address): marks whether
 * it decodes alike anywhere (DC_SAME), or not (DC_PCREL); met again in the
 * same page, it stays DC_ONCE. */
static void dc_again(dc_ent *e, const epi_insn *in)
{
	epi_insn t = e->in;
	t.addr = in->addr;
	if (memcmp(&t, in, sizeof t) != 0)
		e->state = DC_PCREL;
	else if ((e->in.addr ^ in->addr) >> 12)
		e->state = DC_SAME;
}

static size_t decode(epi_isa *d, const uint8_t *code, size_t n, uint64_t addr, epi_insn *out, int *decoded);

size_t epi_isa_decode(epi_isa *d, const uint8_t *code, size_t n, uint64_t addr, epi_insn *out)
{
	dc_ent *e = n ? dc_find(d, code, n) : NULL;
	if (e && e->state == DC_SAME) {
		*out = e->in;
		out->addr = addr;
		return out->size;
	}
	int decoded = 0;
	size_t sz = decode(d, code, n, addr, out, &decoded);
	if (e && e->state == DC_ONCE)
		dc_again(e, out);
	else if (!e && decoded)
		dc_add(d, code, out);
	return sz;
}

/* Decodes the instruction at CODE; DECODED set when capstone knew it. */
static size_t decode(epi_isa *d, const uint8_t *code, size_t n, uint64_t addr, epi_insn *out, int *decoded)
{
	memset(out, 0, sizeof *out);
	out->addr = addr;
	out->klass = EPI_IC_OTHER;
	out->lanes = 1;
	const uint8_t *p = code;
	size_t left = n;
	uint64_t a = addr;
	if (!n || !cs_disasm_iter(d->cs, &p, &left, &a, d->insn)) {
		/* x86: LLVM's length and mnemonic, the instruction counted as
		 * other; else (bad), and a caller steps over it (aarch64
		 * instructions are all four bytes) */
		char text[128];
		size_t len = n && d->llvm ? LLVMDisasmInstruction(d->llvm, (uint8_t *)code, n, addr, text, sizeof text) : 0;
		if (len > 0 && len <= 15) {
			const char *m = text + strspn(text, " \t");
			out->size = (uint8_t)len;
			out->mnem = intern(m, strcspn(m, " \t"));
			return len;
		}
		size_t step = d->arm ? 4 : 1;
		out->size = (uint8_t)(n < step ? n : step);
		out->mnem = intern("(bad)", 5);
		return 0;
	}
	const cs_insn *in = d->insn;
	*decoded = 1;
	out->size = (uint8_t)in->size;
	out->mnem = mnemonic(d, in->id, in->mnemonic);
	out->aop = (uint8_t)epi_isa_aop(out->mnem);
	if (d->arm)
		a64_classify(in, out);
	else
		x86_classify(d, in, out);
	operands(d, in, out);
	return in->size;
}

const epi_opnd *epi_isa_stored(const epi_insn *in)
{
	return in->nop >= 2 ? &in->op[in->op[0].kind == EPI_OPND_MEM ? 1 : 0] : NULL;
}

const char *epi_isa_reg_name(const epi_isa *d, unsigned reg)
{
	const char *s = reg ? cs_reg_name(d->cs, reg) : NULL;
	return s ? s : "?";
}

static unsigned x86_full(unsigned r)
{
	switch (r) {
	case X86_REG_AL: case X86_REG_AH: case X86_REG_AX: case X86_REG_EAX: return X86_REG_RAX;
	case X86_REG_BL: case X86_REG_BH: case X86_REG_BX: case X86_REG_EBX: return X86_REG_RBX;
	case X86_REG_CL: case X86_REG_CH: case X86_REG_CX: case X86_REG_ECX: return X86_REG_RCX;
	case X86_REG_DL: case X86_REG_DH: case X86_REG_DX: case X86_REG_EDX: return X86_REG_RDX;
	case X86_REG_SIL: case X86_REG_SI: case X86_REG_ESI: return X86_REG_RSI;
	case X86_REG_DIL: case X86_REG_DI: case X86_REG_EDI: return X86_REG_RDI;
	case X86_REG_BPL: case X86_REG_BP: case X86_REG_EBP: return X86_REG_RBP;
	case X86_REG_SPL: case X86_REG_SP: case X86_REG_ESP: return X86_REG_RSP;
	case X86_REG_IP: case X86_REG_EIP: return X86_REG_RIP;
	}
	if (r >= X86_REG_R8B && r <= X86_REG_R15B)
		return X86_REG_R8 + (r - X86_REG_R8B);
	if (r >= X86_REG_R8W && r <= X86_REG_R15W)
		return X86_REG_R8 + (r - X86_REG_R8W);
	if (r >= X86_REG_R8D && r <= X86_REG_R15D)
		return X86_REG_R8 + (r - X86_REG_R8D);
	/* xmm0 and ymm0 are the low parts of zmm0 */
	if (r >= X86_REG_XMM0 && r <= X86_REG_XMM31)
		return X86_REG_ZMM0 + (r - X86_REG_XMM0);
	if (r >= X86_REG_YMM0 && r <= X86_REG_YMM31)
		return X86_REG_ZMM0 + (r - X86_REG_YMM0);
	return r;
}

static unsigned a64_full(unsigned r)
{
	if (r == ARM64_REG_W29)
		return ARM64_REG_X29;
	if (r == ARM64_REG_W30)
		return ARM64_REG_X30;
	if (r >= ARM64_REG_W0 && r <= ARM64_REG_W28)
		return ARM64_REG_X0 + (r - ARM64_REG_W0);
	if (r == ARM64_REG_WZR)
		return ARM64_REG_XZR;
	if (r == ARM64_REG_WSP)
		return ARM64_REG_SP;
	/* b0, h0, s0, d0, q0 are the low parts of v0 */
	static const unsigned first[] = {ARM64_REG_B0, ARM64_REG_H0, ARM64_REG_S0, ARM64_REG_D0, ARM64_REG_Q0};
	for (size_t i = 0; i < sizeof first / sizeof *first; i++)
		if (r >= first[i] && r <= first[i] + 31)
			return ARM64_REG_V0 + (r - first[i]);
	return r;
}

unsigned epi_isa_reg_full(const epi_isa *d, unsigned reg)
{
	return d->arm ? a64_full(reg) : x86_full(reg);
}

int epi_isa_reg_vector(const epi_isa *d, unsigned reg)
{
	unsigned r = epi_isa_reg_full(d, reg);
	if (d->arm)
		return r >= ARM64_REG_V0 && r <= ARM64_REG_V31;
	return r >= X86_REG_ZMM0 && r <= X86_REG_ZMM31;
}

int epi_isa_reg_frame(const epi_isa *d, unsigned reg)
{
	unsigned r = epi_isa_reg_full(d, reg);
	if (d->arm)
		return r == ARM64_REG_SP || r == ARM64_REG_X29;
	return r == X86_REG_RSP || r == X86_REG_RBP;
}

int epi_isa_reg_stack(const epi_isa *d, unsigned reg)
{
	return epi_isa_reg_full(d, reg) == (d->arm ? (unsigned)ARM64_REG_SP : (unsigned)X86_REG_RSP);
}

int epi_isa_sets_frame(const epi_isa *d, const epi_insn *in)
{
	unsigned fp = d->arm ? ARM64_REG_X29 : X86_REG_RBP;
	int w = 0, r = 0;
	for (int k = 0; k < in->nwr; k++)
		w |= epi_isa_reg_full(d, in->wr[k]) == fp;
	for (int k = 0; k < in->nrd; k++)
		r |= epi_isa_reg_stack(d, in->rd[k]);
	return w && r && !in->loads;
}

const unsigned *epi_isa_call_clobbers(int machine, int *n)
{
	static const unsigned x86[] = {X86_REG_RAX, X86_REG_RCX, X86_REG_RDX, X86_REG_RSI, X86_REG_RDI,
				       X86_REG_R8,  X86_REG_R9,  X86_REG_R10, X86_REG_R11};
	static const unsigned a64[] = {ARM64_REG_X0,  ARM64_REG_X1,  ARM64_REG_X2,  ARM64_REG_X3,  ARM64_REG_X4,
				       ARM64_REG_X5,  ARM64_REG_X6,  ARM64_REG_X7,  ARM64_REG_X8,  ARM64_REG_X9,
				       ARM64_REG_X10, ARM64_REG_X11, ARM64_REG_X12, ARM64_REG_X13, ARM64_REG_X14,
				       ARM64_REG_X15, ARM64_REG_X16, ARM64_REG_X17, ARM64_REG_X18, ARM64_REG_X30};
	if (machine == EM_AARCH64) {
		*n = (int)(sizeof a64 / sizeof *a64);
		return a64;
	}
	*n = (int)(sizeof x86 / sizeof *x86);
	return x86;
}

unsigned epi_isa_arg0(int machine)
{
	return machine == EM_AARCH64 ? ARM64_REG_X0 : X86_REG_RDI;
}

unsigned epi_isa_ret(int machine)
{
	return machine == EM_AARCH64 ? ARM64_REG_X0 : X86_REG_RAX;
}

int epi_isa_reg_zero(int machine, unsigned reg)
{
	return machine == EM_AARCH64 && reg == ARM64_REG_XZR;
}
