/* Unit tests for the instruction classifier: assembly snippets and small C
 * loops built at test time (gcc, clang, the aarch64 cross tools), their
 * .text decoded through capstone and checked instruction by instruction:
 * class, lanes, element, memory operand, registers, branch targets; and
 * random bytes decoded without a crash. */
#include <fcntl.h>
#include <gelf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <capstone/capstone.h>

#include "model/util.h"
#include "predict/isa.h"

static char dir[256];

static int setup(void **st)
{
	snprintf(dir, sizeof dir, "/tmp/epi-test-isa.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int have(const char *tool)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

/* An object file's machine and .text. */
typedef struct text {
	int machine;
	uint8_t *code;
	size_t n;
} text;

static void read_text(const char *path, text *t)
{
	assert_int_not_equal(elf_version(EV_CURRENT), EV_NONE);
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(e);
	GElf_Ehdr eh;
	assert_non_null(gelf_getehdr(e, &eh));
	t->machine = eh.e_machine;
	size_t shstr;
	assert_int_equal(elf_getshdrstrndx(e, &shstr), 0);
	t->code = NULL;
	t->n = 0;
	for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
		GElf_Shdr sh;
		gelf_getshdr(s, &sh);
		if (strcmp(elf_strptr(e, shstr, sh.sh_name), ".text") != 0)
			continue;
		Elf_Data *d = elf_getdata(s, NULL);
		t->n = d->d_size;
		t->code = xmalloc(t->n);
		memcpy(t->code, d->d_buf, t->n);
	}
	elf_end(e);
	close(fd);
	assert_non_null(t->code);
}

/* Writes SRC to DIR/NAME and builds it into an object with CC and FLAGS. */
static void build(const char *name, const char *src, const char *cc, const char *flags, text *t)
{
	char path[512], cmd[1400];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(src, f);
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof cmd, "%s %s -w -c -o '%s.o' '%s'", cc, flags, path, path);
	assert_int_equal(system(cmd), 0);
	snprintf(path + strlen(path), sizeof path - strlen(path), ".o");
	read_text(path, t);
}

/* Every instruction of T, each known to capstone. */
static epi_insn *decode_all(epi_isa *d, const text *t, int *n)
{
	epi_insn *v = xcalloc(t->n, sizeof *v);
	int k = 0;
	for (size_t off = 0; off < t->n; k++) {
		size_t size = epi_isa_decode(d, t->code + off, t->n - off, off, &v[k]);
		if (!size)
			fail_msg("no instruction at %#zx", off);
		assert_int_equal(size, v[k].size);
		off += size;
	}
	*n = k;
	return v;
}

/* The first instruction of mnemonic M (a prefix when it ends in '*'), and
 * of LANES lanes when given. */
static const epi_insn *find(const epi_insn *v, int n, const char *m, int lanes)
{
	size_t len = strlen(m);
	int prefix = len && m[len - 1] == '*';
	for (int i = 0; i < n; i++)
		if ((prefix ? strncmp(v[i].mnem, m, len - 1) : strcmp(v[i].mnem, m)) == 0 &&
		    (!lanes || v[i].lanes == lanes))
			return &v[i];
	return NULL;
}

static int reads(const epi_insn *x, unsigned r)
{
	for (int i = 0; i < x->nrd; i++)
		if (x->rd[i] == r)
			return 1;
	return 0;
}

static int writes(const epi_insn *x, unsigned r)
{
	for (int i = 0; i < x->nwr; i++)
		if (x->wr[i] == r)
			return 1;
	return 0;
}

/* Builds SRC with CC and FLAGS and decodes the object's .text. */
static epi_insn *built(const char *name, const char *src, const char *cc, const char *flags, epi_isa **d, int *n)
{
	char err[EPI_ERRLEN];
	text t;
	build(name, src, cc, flags, &t);
	*d = epi_isa_open(t.machine, err);
	assert_non_null(*d);
	epi_insn *v = decode_all(*d, &t, n);
	free(t.code);
	return v;
}

/* An instruction of a snippet and what it must be; a label where klass is
 * NULL. */
typedef struct row {
	const char *insn, *klass;
	int lanes, elem, loads, stores;
} row;

/* Assembles HEAD and ROWS with TOOL; each instruction's class, lanes,
 * element and memory accesses checked. */
static epi_insn *snippet(const char *head, const row *rows, size_t nrows, const char *tool, epi_isa **d)
{
	size_t len = strlen(head) + 1;
	for (size_t i = 0; i < nrows; i++)
		len += strlen(rows[i].insn) + 2;
	char *src = xmalloc(len);
	strcpy(src, head);
	for (size_t i = 0; i < nrows; i++) {
		strcat(src, rows[i].klass ? "\t" : "");
		strcat(src, rows[i].insn);
		strcat(src, "\n");
	}
	int n, k = 0;
	epi_insn *v = built("snippet.s", src, tool, "", d, &n);
	for (size_t i = 0; i < nrows; i++) {
		const row *r = &rows[i];
		if (!r->klass)
			continue;
		assert_true(k < n);
		const epi_insn *x = &v[k++];
		if (strcmp(epi_iclass_name(x->klass), r->klass) != 0 || x->lanes != r->lanes || x->elem != r->elem ||
		    x->loads != r->loads || x->stores != r->stores)
			fail_msg("%s: %s, lanes %d, elem %d, loads %d, stores %d", r->insn, epi_iclass_name(x->klass),
				 x->lanes, x->elem, x->loads, x->stores);
	}
	assert_int_equal(k, n);
	free(src);
	return v;
}

/* ---- x86-64 ---- */

static const row x86_rows[] = {
	{"f:", NULL, 0, 0, 0, 0},
	/* a memory source is both the arithmetic and a load */
	{"addsd xmm0, qword ptr [rax + rbx*8 + 16]", "fp.add", 1, 8, 1, 0}, /* 0 */
	{"addpd xmm1, xmm2", "fp.add", 2, 8, 0, 0},
	{"vaddps ymm0, ymm1, ymm2", "fp.add", 8, 4, 0, 0},
	{"mulsd xmm0, xmm1", "fp.mul", 1, 8, 0, 0},
	{"vmulpd ymm0, ymm1, ymm2", "fp.mul", 4, 8, 0, 0},
	{"divsd xmm0, xmm1", "fp.div", 1, 8, 0, 0}, /* 5 */
	{"divpd xmm0, xmm1", "fp.div", 2, 8, 0, 0},
	{"sqrtsd xmm0, xmm1", "fp.div", 1, 8, 0, 0},
	{"vsqrtps ymm0, ymm1", "fp.div", 8, 4, 0, 0},
	{"vfmadd231pd ymm0, ymm1, ymm2", "fp.fma", 4, 8, 0, 0},
	{"vfmadd231sd xmm0, xmm1, qword ptr [rdi]", "fp.fma", 1, 8, 1, 0}, /* 10 */
	{"imul rax, rcx", "int.mul", 1, 8, 0, 0},
	{"idiv rcx", "int.div", 1, 8, 0, 0},
	/* lea computes an address and reads no memory */
	{"lea rax, [rdi + rsi*4 + 8]", "int", 1, 8, 0, 0},
	{"cmp eax, ecx", "int", 1, 4, 0, 0},
	{"jne f", "branch", 1, 0, 0, 0}, /* 15 */
	{"call g", "call", 1, 0, 0, 0},
	/* push and pop are a store and a load of the stack slot */
	{"push rbx", "move", 1, 8, 0, 1},
	{"pop rbx", "move", 1, 8, 1, 0},
	{"movupd xmm0, xmmword ptr [rsi]", "move", 2, 8, 1, 0},
	/* capstone 4 marks this store a read */
	{"vmovupd ymmword ptr [rdi + 32], ymm0", "move", 4, 8, 0, 1}, /* 20 */
	{"mov rax, qword ptr [rbx]", "move", 1, 8, 1, 0},
	{"movsd xmm0, qword ptr [rax]", "move", 1, 8, 1, 0},
	{"cvtsi2sd xmm0, eax", "fp.cvt", 1, 8, 0, 0},
	{"cvttsd2si eax, xmm0", "fp.cvt", 1, 8, 0, 0},
	{"vcvtdq2pd ymm0, xmm1", "fp.cvt", 4, 8, 0, 0}, /* 25 */
	{"add qword ptr [rax], rcx", "int", 1, 8, 1, 1},
	{"xor eax, eax", "int", 1, 4, 0, 0},
	{"nop dword ptr [rax]", "nop", 1, 0, 0, 0},
	{"mov rax, qword ptr [rip + 0x10]", "move", 1, 8, 1, 0},
	{"vaddpd zmm0, zmm1, zmm2", "fp.add", 8, 8, 0, 0}, /* 30 */
	{"jmp f", "branch", 1, 0, 0, 0},
	{"mov dword ptr [rbp - 4], eax", "move", 1, 4, 0, 1},
	{"cvtps2pd xmm0, xmm1", "fp.cvt", 2, 8, 0, 0},
	{"movaps xmmword ptr [rsp], xmm0", "move", 4, 4, 0, 1},
	{"vmovupd ymm1, ymmword ptr [rsi + r8*8]", "move", 4, 8, 1, 0}, /* 35 */
	/* an indirect call through memory: no target, a load */
	{"call qword ptr [rax]", "call", 1, 0, 1, 0},
	{"test byte ptr [rdi], 1", "int", 1, 1, 1, 0},
	{"pextrd dword ptr [rdi], xmm1, 1", "vec", 1, 4, 0, 1},
	{"fstp qword ptr [rdi]", "move", 1, 10, 0, 1},
	/* -O0's int division: a 32-bit divide (priced apart) and a load */
	{"idiv dword ptr [rbp - 20]", "int.div", 1, 4, 1, 0}, /* 40 */
	{"g:", NULL, 0, 0, 0, 0},
	{"ret", "ret", 1, 0, 0, 0},
};

static void test_x86_snippet(void **st)
{
	epi_isa *d;
	epi_insn *v = snippet("\t.intel_syntax noprefix\n\t.text\n", x86_rows, sizeof x86_rows / sizeof *x86_rows,
			      "gcc", &d);
	assert_int_equal(v[0].base, X86_REG_RAX);
	assert_int_equal(v[0].index, X86_REG_RBX);
	assert_int_equal(v[0].scale, 8);
	assert_int_equal(v[0].disp, 16);
	assert_int_equal(v[0].mem_bytes, 8);
	assert_true(reads(&v[0], X86_REG_XMM0) && writes(&v[0], X86_REG_XMM0));
	assert_true(reads(&v[9], X86_REG_YMM0)); /* the accumulator */
	/* a scalar square root and conversion keep the destination's upper
	 * element: they wait for its last value */
	assert_true(reads(&v[7], X86_REG_XMM0) && reads(&v[23], X86_REG_XMM0));
	assert_false(reads(&v[22], X86_REG_XMM0)); /* a load fills the register */
	assert_int_equal(v[10].base, X86_REG_RDI);
	assert_true(reads(&v[12], X86_REG_RAX) && reads(&v[12], X86_REG_RDX) && writes(&v[12], X86_REG_RDX));
	assert_int_equal(v[13].base, X86_REG_RDI);
	assert_int_equal(v[13].index, X86_REG_RSI);
	assert_int_equal(v[13].scale, 4);
	assert_int_equal(v[13].disp, 8);
	assert_true(writes(&v[14], X86_REG_EFLAGS));
	assert_true(v[15].cond);
	assert_int_equal(v[15].target, 0);
	assert_true(reads(&v[15], X86_REG_EFLAGS));
	assert_int_equal(v[16].target, v[41].addr);
	assert_int_equal(v[17].base, X86_REG_RSP);
	assert_true(epi_isa_reg_frame(d, v[17].base));
	assert_true(writes(&v[18], X86_REG_RBX) && writes(&v[18], X86_REG_RSP));
	assert_int_equal(v[19].mem_bytes, 16);
	assert_int_equal(v[20].mem_bytes, 32);
	assert_int_equal(v[20].disp, 32);
	/* xor eax, eax depends on nothing; a nop neither */
	assert_false(reads(&v[27], X86_REG_EAX));
	assert_true(writes(&v[27], X86_REG_EAX));
	assert_int_equal(v[28].nrd, 0);
	/* a rip-relative address is resolved to the slot's */
	assert_int_equal(v[29].base, 0);
	assert_int_equal(v[29].disp, (int64_t)(v[30].addr + 0x10));
	assert_false(v[31].cond);
	assert_int_equal(v[31].target, 0);
	/* a jump to f, the snippet's first address (0 in its object file), is
	 * direct; a call through memory is not */
	assert_true(v[15].direct && v[16].direct && v[31].direct);
	assert_true(epi_isa_reg_frame(d, v[32].base));
	assert_int_equal(v[35].index, X86_REG_R8);
	assert_int_equal(v[36].target, 0);
	assert_false(v[36].direct);
	/* the operations the passes tell apart, from the decoded mnemonic */
	assert_int_equal(v[11].aop, EPI_AOP_IMUL);
	assert_int_equal(v[13].aop, EPI_AOP_LEA);
	assert_int_equal(v[14].aop, EPI_AOP_CMP);
	assert_int_equal(v[26].aop, EPI_AOP_ADD);
	assert_int_equal(v[27].aop, EPI_AOP_XOR);
	assert_int_equal(v[21].aop, EPI_AOP_MOV);
	assert_true(epi_aop_mov(v[22].aop) && v[22].aop != EPI_AOP_MOV); /* movsd */
	assert_int_equal(v[0].aop, EPI_AOP_NONE); /* addsd is no add */
	free(v);
	epi_isa_close(d);
}

static const char loops_c[] =
	"#include <math.h>\n"
	"void daxpy(int n, double a, const double *x, double *y)\n"
	"{ for (int i = 0; i < n; i++) y[i] += a * x[i]; }\n"
	"float sdot(int n, const float *x, const float *y)\n"
	"{ float s = 0; for (int i = 0; i < n; i++) s += x[i] * y[i]; return s; }\n"
	"void droot(int n, double *x, const double *y)\n"
	"{ for (int i = 0; i < n; i++) x[i] = sqrt(x[i]) / y[i]; }\n"
	"long imix(int n, long *a, const int *b)\n"
	"{ long s = 1; for (int i = 0; i < n; i++) { s = s * a[i] + b[i] / 7; a[i] = s % (i + 3); } return s; }\n"
	"void cvt(int n, double *d, const int *k, float *f)\n"
	"{ for (int i = 0; i < n; i++) { d[i] = k[i]; f[i] = (float)d[i]; } }\n"
	"int bits(int n, const unsigned char *a)\n"
	"{ int s = 0; for (int i = 0; i < n; i++) s += (a[i] & 0x55) ? a[i] >> 2 : -a[i]; return s; }\n"
	"extern void g(int);\n"
	"void calls(int n) { for (int i = 0; i < n; i++) g(i); }\n"
	"void mm(int n, const double *a, const double *b, double *c)\n"
	"{ for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) { double s = 0;\n"
	"  for (int k = 0; k < n; k++) s += a[i*n+k] * b[k*n+j]; c[i*n+j] = s; } }\n"
	"long double lsum(int n, const long double *x)\n"
	"{ long double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return s; }\n";

/* Builds the loops with CC and FLAGS: every instruction decoded and none
 * left unclassified. */
static epi_insn *loops(const char *cc, const char *flags, epi_isa **d, int *n)
{
	epi_insn *v = built("loops.c", loops_c, cc, flags, d, n);
	for (int i = 0; i < *n; i++)
		if (v[i].klass == EPI_IC_OTHER)
			fail_msg("%s %s: %s at %#lx unclassified", cc, flags, v[i].mnem, (unsigned long)v[i].addr);
	return v;
}

/* Whether the loops built with CC at each of LEVELS are all classified. */
static void loops_at(const char *cc, const char *target, const char *const *levels, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char flags[128];
		snprintf(flags, sizeof flags, "%s %s", target, levels[i]);
		epi_isa *d;
		int k;
		free(loops(cc, flags, &d, &k));
		epi_isa_close(d);
	}
}

/* What the loops built with FLAGS contain: the first instruction of MNEM
 * (of LANES lanes when packed). */
typedef struct expect {
	const char *flags, *mnem, *klass;
	int lanes, elem;
} expect;

/* The loops built with GCC: at -O0 FRAME moves a variable to or from the
 * stack frame; at every level of E the loops branch back and calls() calls,
 * and the instructions are as E says. */
static void expect_loops(const char *gcc, const char *frame, const expect *e, size_t ne)
{
	epi_isa *d;
	int n;
	epi_insn *v = loops(gcc, "-O0", &d, &n);
	const epi_insn *x = find(v, n, frame, 0);
	assert_non_null(x);
	assert_true(x->loads || x->stores);
	assert_true(epi_isa_reg_frame(d, x->base));
	free(v);
	epi_isa_close(d);

	for (size_t i = 0; i < ne;) {
		v = loops(gcc, e[i].flags, &d, &n);
		int back = 0, call = 0;
		for (int k = 0; k < n; k++) {
			back += v[k].klass == EPI_IC_BRANCH && v[k].cond && v[k].target && v[k].target < v[k].addr;
			call += v[k].klass == EPI_IC_CALL;
		}
		assert_true(back >= 5);
		assert_true(call >= 1);
		const char *flags = e[i].flags;
		for (; i < ne && strcmp(e[i].flags, flags) == 0; i++) {
			x = find(v, n, e[i].mnem, e[i].lanes > 1 ? e[i].lanes : 0);
			if (!x)
				fail_msg("%s %s: no %s", gcc, flags, e[i].mnem);
			assert_string_equal(epi_iclass_name(x->klass), e[i].klass);
			assert_int_equal(x->lanes, e[i].lanes);
			assert_int_equal(x->elem, e[i].elem);
		}
		free(v);
		epi_isa_close(d);
	}
}

static const expect x86_expect[] = {
	{"-O2", "mulsd", "fp.mul", 1, 8},
	{"-O2", "sqrtsd", "fp.div", 1, 8},
	{"-O2", "cvtsi2sd", "fp.cvt", 1, 8},
	{"-O2", "imul", "int.mul", 1, 8},
	{"-O2", "fld", "move", 1, 10},
	/* vectorized: two doubles to an SSE2 register, four to an AVX one */
	{"-O3", "mulpd", "fp.mul", 2, 8},
	{"-O3 -mavx2 -mfma", "vfmadd*", "fp.fma", 4, 8},
	{"-O3 -mavx2 -mfma", "vmovupd", "move", 4, 8},
};

static void test_x86_loops(void **st)
{
	expect_loops("gcc", "movsd", x86_expect, sizeof x86_expect / sizeof *x86_expect);
	static const char *const levels[] = {"-O0", "-O2", "-O3", "-O3 -mavx2 -mfma"};
	if (have("clang"))
		loops_at("clang", "", levels, sizeof levels / sizeof *levels);
}

/* ---- aarch64 ---- */

static const row a64_rows[] = {
	{"f:", NULL, 0, 0, 0, 0},
	{"fadd d0, d1, d2", "fp.add", 1, 8, 0, 0}, /* 0 */
	{"fadd v0.2d, v1.2d, v2.2d", "fp.add", 2, 8, 0, 0},
	{"fmul v0.4s, v1.4s, v2.4s", "fp.mul", 4, 4, 0, 0},
	{"fdiv d0, d1, d2", "fp.div", 1, 8, 0, 0},
	{"fsqrt v0.2d, v1.2d", "fp.div", 2, 8, 0, 0},
	{"fmadd d0, d1, d2, d3", "fp.fma", 1, 8, 0, 0}, /* 5 */
	{"fmla v0.4s, v1.4s, v2.4s", "fp.fma", 4, 4, 0, 0},
	{"madd x0, x1, x2, x3", "int.mul", 1, 8, 0, 0},
	{"msub w0, w1, w2, w3", "int.mul", 1, 4, 0, 0},
	{"sdiv x0, x1, x2", "int.div", 1, 8, 0, 0},
	{"udiv w0, w1, w2", "int.div", 1, 4, 0, 0}, /* 10 */
	{"ldr x0, [x1]", "move", 1, 8, 1, 0},
	{"ldr d0, [x1, x2, lsl #3]", "move", 1, 8, 1, 0},
	/* sixteen bytes of no particular element */
	{"ldr q0, [x1, #16]", "move", 1, 0, 1, 0},
	/* a pair is one memory operand of both registers */
	{"ldp x2, x3, [x4, #32]", "move", 1, 8, 1, 0},
	{"stp x29, x30, [sp, #-32]!", "move", 1, 8, 0, 1}, /* 15 */
	{"ld1 {v0.2d, v1.2d}, [x0], #32", "move", 2, 8, 1, 0},
	{"st1 {v0.4s}, [x1]", "move", 4, 4, 0, 1},
	{"scvtf d0, w1", "fp.cvt", 1, 8, 0, 0},
	{"fcvtzs w0, d1", "fp.cvt", 1, 8, 0, 0},
	{"add w0, w1, w2", "int", 1, 4, 0, 0}, /* 20 */
	{"cmp x0, x1", "int", 1, 8, 0, 0},
	{"b.ne f", "branch", 1, 0, 0, 0},
	{"cbz x0, f", "branch", 1, 0, 0, 0},
	{"cbnz w0, f", "branch", 1, 0, 0, 0},
	{"tbz w0, #3, f", "branch", 1, 0, 0, 0}, /* 25 */
	{"tbnz x0, #40, f", "branch", 1, 0, 0, 0},
	{"bl g", "call", 1, 0, 0, 0},
	{"blr x8", "call", 1, 0, 0, 0},
	{"b f", "branch", 1, 0, 0, 0},
	{"mov x1, #5", "move", 1, 8, 0, 0}, /* 30 */
	{"lsl x1, x2, #3", "int", 1, 8, 0, 0},
	{"str w0, [x29, #28]", "move", 1, 4, 0, 1},
	{"ld1r {v2.4s}, [x3]", "vec", 4, 4, 1, 0},
	{"dup v1.2d, x0", "vec", 2, 8, 0, 0},
	{"fcvtl v0.2d, v1.2s", "fp.cvt", 2, 8, 0, 0}, /* 35 */
	{"add x0, x0, #1, lsl #12", "int", 1, 8, 0, 0},
	{"g:", NULL, 0, 0, 0, 0},
	{"ret", "ret", 1, 0, 0, 0},
};

static void test_a64_snippet(void **st)
{
	if (!have("aarch64-linux-gnu-gcc")) {
		print_message("aarch64-linux-gnu-gcc missing: aarch64 not tested\n");
		skip();
	}
	epi_isa *d;
	epi_insn *v = snippet("\t.text\n", a64_rows, sizeof a64_rows / sizeof *a64_rows, "aarch64-linux-gnu-gcc", &d);
	assert_true(reads(&v[0], ARM64_REG_D1) && writes(&v[0], ARM64_REG_D0));
	assert_true(reads(&v[6], ARM64_REG_V0)); /* the accumulator */
	assert_int_equal(v[11].base, ARM64_REG_X1);
	assert_int_equal(v[11].mem_bytes, 8);
	assert_int_equal(v[12].index, ARM64_REG_X2);
	assert_int_equal(v[12].scale, 8);
	assert_int_equal(v[13].mem_bytes, 16);
	assert_int_equal(v[13].disp, 16);
	assert_int_equal(v[14].mem_bytes, 16);
	assert_true(writes(&v[14], ARM64_REG_X2) && writes(&v[14], ARM64_REG_X3));
	assert_int_equal(v[15].base, ARM64_REG_SP);
	assert_int_equal(v[15].disp, -32);
	assert_true(writes(&v[15], ARM64_REG_SP)); /* the writeback */
	assert_true(reads(&v[15], ARM64_REG_X29) && reads(&v[15], ARM64_REG_X30));
	assert_true(epi_isa_reg_frame(d, v[15].base));
	assert_int_equal(v[16].mem_bytes, 32);
	assert_true(writes(&v[16], ARM64_REG_V0) && writes(&v[16], ARM64_REG_V1) && writes(&v[16], ARM64_REG_X0));
	assert_int_equal(v[17].mem_bytes, 16);
	assert_false(writes(&v[17], ARM64_REG_V0));
	/* capstone 4 has cmp write x0, and movz and lsl read their destination */
	assert_true(reads(&v[21], ARM64_REG_X0) && reads(&v[21], ARM64_REG_X1));
	assert_false(writes(&v[21], ARM64_REG_X0));
	assert_true(writes(&v[21], ARM64_REG_NZCV));
	assert_int_equal(v[30].nrd, 0);
	assert_false(reads(&v[31], ARM64_REG_X1));
	for (int i = 22; i <= 26; i++) {
		assert_true(v[i].cond);
		assert_int_equal(v[i].target, 0);
		assert_true(v[i].direct);
	}
	assert_true(reads(&v[22], ARM64_REG_NZCV));
	assert_true(reads(&v[23], ARM64_REG_X0));
	assert_int_equal(v[27].target, v[37].addr);
	assert_true(writes(&v[27], ARM64_REG_X30));
	assert_int_equal(v[28].target, 0);
	assert_false(v[28].direct); /* blr */
	assert_true(reads(&v[28], ARM64_REG_X8));
	assert_false(v[29].cond);
	assert_true(epi_isa_reg_frame(d, v[32].base));
	assert_int_equal(v[33].mem_bytes, 4);
	/* a shifted immediate is its value */
	assert_int_equal(v[36].nop, 3);
	assert_int_equal(v[36].op[2].imm, 4096);
	assert_true(reads(&v[37], ARM64_REG_X30));
	free(v);
	epi_isa_close(d);
}

static const expect a64_expect[] = {
	{"-O2", "fmadd", "fp.fma", 1, 8},
	{"-O2", "sdiv", "int.div", 1, 8},
	{"-O2", "scvtf", "fp.cvt", 1, 8},
	{"-O2", "bl", "call", 1, 0},
	{"-O3", "fmla", "fp.fma", 2, 8},
};

static void test_a64_loops(void **st)
{
	if (!have("aarch64-linux-gnu-gcc")) {
		print_message("aarch64-linux-gnu-gcc missing: aarch64 not tested\n");
		skip();
	}
	expect_loops("aarch64-linux-gnu-gcc", "ldr*", a64_expect, sizeof a64_expect / sizeof *a64_expect);
	static const char *const levels[] = {"-O0", "-O2", "-O3"};
	if (have("clang"))
		loops_at("clang", "--target=aarch64-linux-gnu", levels, sizeof levels / sizeof *levels);
}

/* ---- what is no instruction ---- */

static void test_invalid(void **st)
{
	char err[EPI_ERRLEN];
	epi_isa *d = epi_isa_open(EM_X86_64, err);
	assert_non_null(d);
	epi_insn x;
	static const uint8_t bad[] = {0x06}; /* push es: none in 64-bit mode */
	assert_int_equal(epi_isa_decode(d, bad, sizeof bad, 0x1000, &x), 0);
	assert_int_equal(x.klass, EPI_IC_OTHER);
	assert_int_equal(x.size, 1);
	assert_int_equal(x.addr, 0x1000);
	static const uint8_t cut[] = {0x48, 0x8b}; /* mov rax, ... cut short */
	assert_int_equal(epi_isa_decode(d, cut, sizeof cut, 0, &x), 0);
	assert_int_equal(x.klass, EPI_IC_OTHER);
	assert_int_equal(epi_isa_decode(d, cut, 0, 0, &x), 0);
	assert_int_equal(x.size, 0);

	/* random bytes: whatever they decode to, nothing out of range */
	uint8_t *junk = xmalloc(1 << 16);
	unsigned long seed = 12345;
	for (size_t i = 0; i < 1 << 16; i++) {
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		junk[i] = (uint8_t)(seed >> 33);
	}
	epi_isa *a = epi_isa_open(EM_AARCH64, err);
	assert_non_null(a);
	epi_isa *both[] = {d, a};
	for (int k = 0; k < 2; k++) {
		for (size_t off = 0; off < 1 << 16;) {
			size_t size = epi_isa_decode(both[k], junk + off, (1 << 16) - off, off, &x);
			assert_true(x.klass < EPI_IC_N);
			assert_true(x.lanes >= 1);
			assert_true(x.nrd <= EPI_ISA_MAXREG && x.nwr <= EPI_ISA_MAXREG);
			assert_non_null(epi_iclass_name(x.klass));
			assert_true(x.size > 0);
			off += size ? size : x.size;
		}
	}
	/* an AVX-512 instruction capstone 4 does not know, vextractf64x2
	 * (-march=native's reductions): its whole length, named, counted as
	 * other, and the vsubsd after it decoded where it starts */
	static const uint8_t evex[] = {0x62, 0xf3, 0xfd, 0x28, 0x19, 0xd4, 0x01, 0xc5, 0xfb, 0x5c, 0xc4};
	assert_int_equal(epi_isa_decode(d, evex, sizeof evex, 0x2000, &x), 7);
	assert_int_equal(x.size, 7);
	assert_string_equal(x.mnem, "vextractf64x2");
	assert_int_equal(x.klass, EPI_IC_OTHER);
	assert_int_equal(epi_isa_decode(d, evex + 7, sizeof evex - 7, 0x2007, &x), 4);
	assert_string_equal(x.mnem, "vsubsd");
	assert_int_equal(x.klass, EPI_IC_FP_ADD);
	static const uint8_t udf[] = {0, 0, 0, 0}; /* udf #0, unknown to capstone 4 */
	size_t r = epi_isa_decode(a, udf, sizeof udf, 0, &x);
	assert_true(r == 0 || r == 4);
	assert_int_equal(x.klass, EPI_IC_OTHER);
	assert_int_equal(x.size, 4);
	free(junk);
	epi_isa_close(a);
	epi_isa_close(d);

	assert_null(epi_isa_open(EM_386, err));
	assert_non_null(strstr(err, "x86-64"));
}

/* ---- registers and names ---- */

/* Sub-registers and their full register, and the frame registers. */
static const struct {
	int machine;
	unsigned reg, full, frame;
} regs[] = {
	{EM_X86_64, X86_REG_EAX, X86_REG_RAX, 0},
	{EM_X86_64, X86_REG_AX, X86_REG_RAX, 0},
	{EM_X86_64, X86_REG_AL, X86_REG_RAX, 0},
	{EM_X86_64, X86_REG_AH, X86_REG_RAX, 0},
	{EM_X86_64, X86_REG_RAX, X86_REG_RAX, 0},
	{EM_X86_64, X86_REG_R8D, X86_REG_R8, 0},
	{EM_X86_64, X86_REG_R15B, X86_REG_R15, 0},
	{EM_X86_64, X86_REG_SIL, X86_REG_RSI, 0},
	{EM_X86_64, X86_REG_XMM3, X86_REG_ZMM3, 0},
	{EM_X86_64, X86_REG_YMM3, X86_REG_ZMM3, 0},
	{EM_X86_64, X86_REG_XMM4, X86_REG_ZMM4, 0},
	{EM_X86_64, X86_REG_ESP, X86_REG_RSP, 1},
	{EM_X86_64, X86_REG_EBP, X86_REG_RBP, 1},
	{EM_X86_64, X86_REG_BPL, X86_REG_RBP, 1},
	{EM_AARCH64, ARM64_REG_W3, ARM64_REG_X3, 0},
	{EM_AARCH64, ARM64_REG_W29, ARM64_REG_X29, 1},
	{EM_AARCH64, ARM64_REG_W30, ARM64_REG_X30, 0},
	{EM_AARCH64, ARM64_REG_WZR, ARM64_REG_XZR, 0},
	{EM_AARCH64, ARM64_REG_B0, ARM64_REG_V0, 0},
	{EM_AARCH64, ARM64_REG_H0, ARM64_REG_V0, 0},
	{EM_AARCH64, ARM64_REG_S0, ARM64_REG_V0, 0},
	{EM_AARCH64, ARM64_REG_D0, ARM64_REG_V0, 0},
	{EM_AARCH64, ARM64_REG_Q0, ARM64_REG_V0, 0},
	{EM_AARCH64, ARM64_REG_D31, ARM64_REG_V31, 0},
	{EM_AARCH64, ARM64_REG_SP, ARM64_REG_SP, 1},
	{EM_AARCH64, ARM64_REG_X28, ARM64_REG_X28, 0},
};

/* Mnemonics to operations: exact names, a prefix makes none, the moves by
 * their first letters. */
static void test_aop(void **st)
{
	(void)st;
	static const struct {
		const char *m;
		enum epi_aop a;
	} rows[] = {
		{"add", EPI_AOP_ADD},     {"adds", EPI_AOP_ADDS},     {"sub", EPI_AOP_SUB},   {"subs", EPI_AOP_SUBS},
		{"inc", EPI_AOP_INC},     {"dec", EPI_AOP_DEC},       {"neg", EPI_AOP_NEG},   {"lea", EPI_AOP_LEA},
		{"xor", EPI_AOP_XOR},     {"imul", EPI_AOP_IMUL},     {"mul", EPI_AOP_MUL},   {"shl", EPI_AOP_SHL},
		{"sal", EPI_AOP_SAL},     {"lsl", EPI_AOP_LSL},       {"cdqe", EPI_AOP_CDQE}, {"cltq", EPI_AOP_CLTQ},
		{"sxtw", EPI_AOP_SXTW},   {"uxtw", EPI_AOP_UXTW},     {"mov", EPI_AOP_MOV},   {"movsx", EPI_AOP_MOVSX},
		{"movsxd", EPI_AOP_MOVSXD}, {"movzx", EPI_AOP_MOVZX}, {"cmp", EPI_AOP_CMP},   {"test", EPI_AOP_TEST},
		{"movabs", EPI_AOP_MOV_OTHER}, {"movaps", EPI_AOP_MOV_OTHER}, {"lock add", EPI_AOP_NONE},
		{"addsd", EPI_AOP_NONE},  {"ad", EPI_AOP_NONE},       {"", EPI_AOP_NONE},     {"(bad)", EPI_AOP_NONE},
		{"maxsd", EPI_AOP_FMINMAX}, {"minss", EPI_AOP_FMINMAX}, {"vmaxpd", EPI_AOP_FMINMAX},
		{"vminps", EPI_AOP_FMINMAX}, {"fmax", EPI_AOP_FMINMAX}, {"fminnm", EPI_AOP_FMINMAX},
		{"maxs", EPI_AOP_NONE},   {"maxsdx", EPI_AOP_NONE},   {"pmaxsd", EPI_AOP_NONE}, {"fmaxp", EPI_AOP_NONE},
		{"vmaxq", EPI_AOP_NONE},
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		if (epi_isa_aop(rows[i].m) != rows[i].a)
			fail_msg("'%s': %d, not %d", rows[i].m, epi_isa_aop(rows[i].m), rows[i].a);
		assert_int_equal(epi_aop_mov(rows[i].a), strncmp(rows[i].m, "mov", 3) == 0);
	}
}

static void test_registers(void **st)
{
	char err[EPI_ERRLEN];
	epi_isa *x86 = epi_isa_open(EM_X86_64, err), *a64 = epi_isa_open(EM_AARCH64, err);
	assert_non_null(x86);
	assert_non_null(a64);
	for (size_t i = 0; i < sizeof regs / sizeof *regs; i++) {
		epi_isa *d = regs[i].machine == EM_X86_64 ? x86 : a64;
		assert_int_equal(epi_isa_reg_full(d, regs[i].reg), regs[i].full);
		assert_int_equal(epi_isa_reg_frame(d, regs[i].reg), regs[i].frame);
	}
	assert_string_equal(epi_isa_reg_name(x86, X86_REG_R8D), "r8d");
	assert_string_equal(epi_isa_reg_name(a64, ARM64_REG_W3), "w3");
	assert_string_equal(epi_isa_reg_name(x86, 0), "?");

	/* a write to eax is seen by a reader of rax */
	static const uint8_t mov_eax[] = {0xb8, 1, 0, 0, 0}, add_rax[] = {0x48, 0x01, 0xd8};
	epi_insn w, r;
	assert_int_equal(epi_isa_decode(x86, mov_eax, sizeof mov_eax, 0, &w), 5);
	assert_int_equal(epi_isa_decode(x86, add_rax, sizeof add_rax, 5, &r), 3);
	assert_int_equal(w.nwr, 1);
	assert_true(reads(&r, epi_isa_reg_full(x86, w.wr[0])));
	epi_isa_close(x86);
	epi_isa_close(a64);

	const char *names[EPI_IC_N];
	for (int c = 0; c < EPI_IC_N; c++) {
		names[c] = epi_iclass_name(c);
		assert_non_null(names[c]);
		for (int k = 0; k < c; k++)
			assert_string_not_equal(names[k], names[c]);
	}
	assert_string_equal(epi_iclass_name(EPI_IC_FP_FMA), "fp.fma");
	assert_string_equal(epi_iclass_name(EPI_IC_OTHER), "other");
}

/* What sets the frame pointer from the stack pointer (a function that
 * keeps its slots there), and what does not: restoring it from memory,
 * moving it as a register, setting the stack pointer from it */
/* An instruction's bytes, and what a test expects of it. */
typedef struct code_row {
	int machine;
	uint8_t code[8];
	size_t len;
	int expect;
} code_row;

static void test_sets_frame(void **st)
{
	(void)st;
	char err[EPI_ERRLEN];
	static const code_row rows[] = {
		{EM_X86_64, {0x48, 0x89, 0xe5}, 3, 1},             /* mov %rsp,%rbp */
		{EM_X86_64, {0x48, 0x8d, 0x6c, 0x24, 0x10}, 5, 1}, /* lea 0x10(%rsp),%rbp */
		{EM_X86_64, {0x5d}, 1, 0},                         /* pop %rbp */
		{EM_X86_64, {0x48, 0x01, 0xf5}, 3, 0},             /* add %rsi,%rbp */
		{EM_X86_64, {0x48, 0x89, 0xec}, 3, 0},             /* mov %rbp,%rsp */
		{EM_X86_64, {0xc9}, 1, 0},                         /* leave */
		{EM_AARCH64, {0xfd, 0x03, 0x00, 0x91}, 4, 1},      /* mov x29, sp */
		{EM_AARCH64, {0xfd, 0x43, 0x00, 0x91}, 4, 1},      /* add x29, sp, #0x10 */
		{EM_AARCH64, {0xfd, 0x7b, 0xc1, 0xa8}, 4, 0},      /* ldp x29, x30, [sp], #16 */
		{EM_AARCH64, {0x1d, 0x00, 0x01, 0x8b}, 4, 0},      /* add x29, x0, x1 */
	};
	epi_isa *x86 = epi_isa_open(EM_X86_64, err), *a64 = epi_isa_open(EM_AARCH64, err);
	assert_non_null(x86);
	assert_non_null(a64);
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		epi_isa *d = rows[i].machine == EM_X86_64 ? x86 : a64;
		epi_insn in;
		assert_int_equal(epi_isa_decode(d, rows[i].code, rows[i].len, 0, &in), rows[i].len);
		if (epi_isa_sets_frame(d, &in) != rows[i].expect)
			fail_msg("row %zu: sets the frame pointer: %d", i, !rows[i].expect);
	}
	assert_true(epi_isa_reg_stack(x86, X86_REG_RSP) && !epi_isa_reg_stack(x86, X86_REG_RBP));
	assert_true(epi_isa_reg_stack(a64, ARM64_REG_SP) && !epi_isa_reg_stack(a64, ARM64_REG_X29));
	epi_isa_close(x86);
	epi_isa_close(a64);
}

/* The same instruction met again: decoded as it would be on its own at
 * each address, those addressed from the program counter too (adrp's
 * result moves with the 4 KiB page only), whatever was decoded before. */
static int same_insn(const epi_insn *a, const epi_insn *b)
{
	if (a->addr != b->addr || a->disp != b->disp || a->target != b->target || a->mnem != b->mnem ||
	    a->size != b->size || a->klass != b->klass || a->nop != b->nop || a->base != b->base ||
	    a->index != b->index || a->direct != b->direct || a->nrd != b->nrd || a->nwr != b->nwr)
		return 0;
	for (int k = 0; k < a->nop; k++)
		if (a->op[k].kind != b->op[k].kind || a->op[k].imm != b->op[k].imm || a->op[k].reg != b->op[k].reg)
			return 0;
	return memcmp(a->rd, b->rd, a->nrd * sizeof *a->rd) == 0 && memcmp(a->wr, b->wr, a->nwr * sizeof *a->wr) == 0;
}

static void test_decode_again(void **st)
{
	(void)st;
	char err[EPI_ERRLEN];
	/* expected: whether the decoding moves with the address */
	static const code_row rows[] = {
		{EM_X86_64, {0xe9, 0x10, 0x00, 0x00, 0x00}, 5, 1},             /* jmp rel32 */
		{EM_X86_64, {0xe8, 0x00, 0x01, 0x00, 0x00}, 5, 1},             /* call rel32 */
		{EM_X86_64, {0x75, 0xf0}, 2, 1},                               /* jne rel8 */
		{EM_X86_64, {0x48, 0x8d, 0x05, 0x10, 0x00, 0x00, 0x00}, 7, 1}, /* lea 0x10(%rip),%rax */
		{EM_X86_64, {0x8b, 0x05, 0x08, 0x00, 0x00, 0x00}, 6, 1},       /* mov 0x8(%rip),%eax */
		{EM_X86_64, {0x01, 0xd8}, 2, 0},                               /* add %ebx,%eax */
		{EM_X86_64, {0xf2, 0x0f, 0x10, 0x04, 0xc8}, 5, 0},             /* movsd (%rax,%rcx,8),%xmm0 */
		{EM_AARCH64, {0x04, 0x00, 0x00, 0x14}, 4, 1},                  /* b .+16 */
		{EM_AARCH64, {0x02, 0x00, 0x00, 0x94}, 4, 1},                  /* bl .+8 */
		{EM_AARCH64, {0x40, 0x00, 0x00, 0xb4}, 4, 1},                  /* cbz x0, .+8 */
		{EM_AARCH64, {0x80, 0x00, 0x00, 0x10}, 4, 1},                  /* adr x0, .+16 */
		{EM_AARCH64, {0x00, 0x00, 0x00, 0xb0}, 4, 1},                  /* adrp x0, next page */
		{EM_AARCH64, {0x40, 0x00, 0x00, 0x58}, 4, 1},                  /* ldr x0, .+8 */
		{EM_AARCH64, {0x20, 0x00, 0x02, 0x8b}, 4, 0},                  /* add x0, x1, x2 */
	};
	/* twice in a page, then in others, then back */
	static const uint64_t at[] = {0x1000, 0x1008, 0x1010, 0x5000, 0x5008, 0x9ff0, 0x10000, 0x1000, 0x7fff0};
	epi_isa *x86 = epi_isa_open(EM_X86_64, err), *a64 = epi_isa_open(EM_AARCH64, err);
	assert_non_null(x86);
	assert_non_null(a64);
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		epi_isa *d = rows[i].machine == EM_X86_64 ? x86 : a64;
		int moved = 0;
		epi_insn first;
		for (size_t k = 0; k < sizeof at / sizeof *at; k++) {
			epi_isa *alone = epi_isa_open(rows[i].machine, err);
			assert_non_null(alone);
			epi_insn a, b;
			assert_int_equal(epi_isa_decode(d, rows[i].code, rows[i].len, at[k], &a), rows[i].len);
			assert_int_equal(epi_isa_decode(alone, rows[i].code, rows[i].len, at[k], &b), rows[i].len);
			epi_isa_close(alone);
			if (!same_insn(&a, &b))
				fail_msg("row %zu (%s) at %#lx: not as decoded alone", i, b.mnem, (unsigned long)at[k]);
			if (k == 0)
				first = b;
			first.addr = b.addr;
			moved |= !same_insn(&first, &b);
		}
		if (moved != rows[i].expect)
			fail_msg("row %zu (%s): its decoding moves with its address: %d", i, first.mnem, moved);
	}
	epi_isa_close(x86);
	epi_isa_close(a64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sets_frame),
		cmocka_unit_test(test_aop),
		cmocka_unit_test_setup_teardown(test_x86_snippet, setup, teardown),
		cmocka_unit_test_setup_teardown(test_x86_loops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a64_snippet, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a64_loops, setup, teardown),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_registers),
		cmocka_unit_test(test_decode_again),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
