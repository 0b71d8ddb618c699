/* isa: machine instructions (x86-64 and aarch64, decoded by capstone)
 * classified for pricing: what kind of work each one does, on how many
 * elements, which memory it reads and writes, and which registers, for the
 * dependency chains between iterations. */
#ifndef EPI_ISA_H
#define EPI_ISA_H

#include <stddef.h>
#include <stdint.h>

enum epi_iclass {
	EPI_IC_INT,      /* integer ALU: add, sub, logic, shifts, lea, cmp, test, setcc, cmov, extensions */
	EPI_IC_INT_MUL,  /* integer multiply (and multiply-add on aarch64) */
	EPI_IC_INT_DIV,  /* integer divide */
	EPI_IC_FP_ADD,   /* floating add, sub, min, max, compare (scalar or packed) */
	EPI_IC_FP_MUL,   /* floating multiply, and reciprocal estimates (rcpps, frecpe) */
	EPI_IC_FP_FMA,   /* fused multiply-add (two flops per lane), and frecps's Newton step */
	EPI_IC_FP_DIV,   /* floating divide and square root */
	EPI_IC_FP_CVT,   /* conversions between integer and floating, and between widths;
			    rounding to an integral value (roundsd, frintm); x87 fild/fist */
	EPI_IC_VEC,      /* other SIMD/FP-register work: integer SIMD arithmetic, logic (andpd too),
			    shuffles, lane inserts and extracts, broadcasts (ld1r too), fabs, fneg */
	EPI_IC_MOVE,     /* data movement only: register copies, immediates, plain loads and stores,
			    push, pop, gathers and scatters */
	EPI_IC_BRANCH,   /* jumps, conditional or not */
	EPI_IC_CALL,
	EPI_IC_RET,
	EPI_IC_NOP,      /* nops, endbr64, pause, hints; prefetches too (no data to wait for) */
	EPI_IC_OTHER,    /* not known to the classifier: counted, never priced as something else */
	EPI_IC_N
};

/* The class's name as in reports and JSON ("int", "fp.add", ...). */
const char *epi_iclass_name(enum epi_iclass c);

#define EPI_ISA_MAXREG 12

/* An explicit operand: EPI_OPND_REG, EPI_OPND_IMM or EPI_OPND_MEM; an
 * immediate that does not fit 32 bits is kept as no operand of either
 * kind (kind 0), which the passes take for a value they do not know. */
typedef struct epi_opnd {
	int32_t imm;
	uint16_t reg;
	uint8_t kind;
} epi_opnd;

/* One decoded instruction, kept small: a program's code is decoded whole,
 * and the pages its instructions fill can cost more than the decoding
 * (on a virtual machine). */
typedef struct epi_insn {
	uint64_t addr;
	/* the memory operand's address: registers (0: none), scale, displacement;
	 * a pc-relative address is resolved (base 0, disp the address), push and
	 * pop address their stack slot, lea its operand (reading nothing) */
	int64_t disp;
	uint64_t target;   /* a direct branch's or call's target (direct set); else 0 */
	const char *mnem;  /* the mnemonic, for notes and reports (kept for the process) */
	/* the explicit operands in order (the destination first): registers as
	 * their full registers, immediates, and memory (its address above) */
	epi_opnd op[4];
	int32_t post_index; /* aarch64: how far the base register moves (post_index, or disp
			       when pre-indexed) when writeback */
	/* registers read and written, implicit ones too, the flags included; as
	 * capstone numbers them. A zeroing idiom (xor eax, eax) reads nothing, a
	 * nop or prefetch neither reads nor writes, rip is never read */
	uint16_t rd[EPI_ISA_MAXREG], wr[EPI_ISA_MAXREG];
	uint16_t base, index;
	uint16_t mem_bytes; /* bytes read or written by the memory operand (ldp x: 16) */
	uint16_t isa_id;   /* capstone's instruction id */
	uint8_t size;      /* bytes */
	uint8_t klass;     /* enum epi_iclass */
	uint8_t lanes;     /* elements operated on: 1 scalar, 2..64 packed; 1 also for
			      vector work of no element type (pxor, movdqu, ldr q) */
	uint8_t elem;      /* element bytes (4 float, 8 double, 10 x87, 1-8 integer; of a
			      conversion the wider side); 0 unknown */
	uint8_t loads;     /* memory operands read (an x86 memory source, ldp counts 1,
			      pop 1; a call's or ret's return address is not counted) */
	uint8_t stores;    /* memory operands written (push 1) */
	uint8_t cond;      /* a conditional branch */
	uint8_t direct;    /* a branch or call to TARGET (an object file's code starts at 0) */
	uint8_t nrd, nwr;
	uint8_t nop;
	uint8_t writeback; /* aarch64: the base register moves by post_index */
	uint8_t aop;       /* enum epi_aop: the operation, for the passes over loops */
	int8_t scale;
} epi_insn;

/* The operations the passes over loops (strides, data flow, fusion) tell
 * apart, both architectures', from the mnemonic once at decoding: an
 * instruction with a prefix (lock add) is none of them. */
enum epi_aop {
	EPI_AOP_NONE,
	EPI_AOP_ADD, EPI_AOP_ADDS, EPI_AOP_SUB, EPI_AOP_SUBS, EPI_AOP_INC, EPI_AOP_DEC, EPI_AOP_NEG,
	EPI_AOP_LEA, EPI_AOP_XOR, EPI_AOP_IMUL, EPI_AOP_MUL, EPI_AOP_SHL, EPI_AOP_SAL, EPI_AOP_LSL,
	EPI_AOP_CDQE, EPI_AOP_CLTQ, EPI_AOP_SXTW, EPI_AOP_UXTW,
	EPI_AOP_MOV, EPI_AOP_MOVSX, EPI_AOP_MOVSXD, EPI_AOP_MOVZX,
	EPI_AOP_MOV_OTHER, /* any other mnemonic that starts with mov */
	EPI_AOP_CMP, EPI_AOP_TEST, EPI_AOP_ADRP,
	EPI_AOP_FMINMAX, /* a floating-point minimum or maximum (maxsd, vminpd, fmax, fminnm) */
};
/* The operation of mnemonic M. */
enum epi_aop epi_isa_aop(const char *m);
/* Whether A's mnemonic starts with mov (a move, a widening one too). */
static inline int epi_aop_mov(unsigned a)
{
	return a >= EPI_AOP_MOV && a <= EPI_AOP_MOV_OTHER;
}

enum { EPI_OPND_REG = 1, EPI_OPND_IMM, EPI_OPND_MEM };

typedef struct epi_isa epi_isa;

/* A decoder for ELF machine MACHINE (EM_X86_64 or EM_AARCH64); NULL with
 * ERR for another machine or when capstone cannot open it. */
epi_isa *epi_isa_open(int machine, char *err);
void epi_isa_close(epi_isa *d);

/* Decodes and classifies the instruction at CODE (N bytes available, at
 * address ADDR) into OUT. Returns its size in bytes, or 0 when the bytes
 * are no instruction or one capstone 4 does not know (some AVX-512 forms,
 * SVE): OUT is then an EPI_IC_OTHER of one byte on x86-64, of four on
 * aarch64, whose instructions all have that size. */
size_t epi_isa_decode(epi_isa *d, const uint8_t *code, size_t n, uint64_t addr, epi_insn *out);

/* The register name of capstone number REG, for messages. */
const char *epi_isa_reg_name(const epi_isa *d, unsigned reg);
/* The operand holding the value store IN writes: x86 names it second (mov
 * [rbp - 4], eax), aarch64 first (str w0, [sp, #20]); NULL with fewer than
 * two operands. */
const epi_opnd *epi_isa_stored(const epi_insn *in);
/* The register REG as the full register it is part of (eax, ax, al -> rax;
 * w3 -> x3; s0, d0, q0 -> v0), so that a write to one is seen by readers
 * of the other. */
unsigned epi_isa_reg_full(const epi_isa *d, unsigned reg);
/* Whether REG is a floating-point or SIMD register (xmm/ymm/zmm; aarch64
 * b/h/s/d/q/v): values whose trips through memory cost differently. */
int epi_isa_reg_vector(const epi_isa *d, unsigned reg);
/* Whether REG is the stack or frame pointer (rsp, rbp; sp, x29), whose
 * slots -O0 code keeps its variables in. */
int epi_isa_reg_frame(const epi_isa *d, unsigned reg);
/* Whether REG is the stack pointer (rsp; sp). */
int epi_isa_reg_stack(const epi_isa *d, unsigned reg);
/* Whether IN sets the frame pointer from the stack pointer (mov rbp, rsp;
 * mov x29, sp or add x29, sp, #n), not restoring it from memory: the
 * function keeps its slots at the frame pointer, which otherwise (gcc's
 * and clang's -O2 code) is a register like any other. */
int epi_isa_sets_frame(const epi_isa *d, const epi_insn *in);

/* The general registers that a call may change under ELF machine
 * MACHINE's calling convention (System V x86-64: rax, rcx, rdx, rsi, rdi,
 * r8-r11; AAPCS64: x0-x18, x30), as full registers: a constant list of
 * *N. */
const unsigned *epi_isa_call_clobbers(int machine, int *n);
/* The register of a call's first argument, and of its result. */
unsigned epi_isa_arg0(int machine);
unsigned epi_isa_ret(int machine);
/* Whether full register REG of ELF machine MACHINE always reads zero
 * (aarch64's xzr, as wzr's full register): a constant, not a value. */
int epi_isa_reg_zero(int machine, unsigned reg);

#endif
