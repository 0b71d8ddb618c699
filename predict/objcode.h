/* objcode: a program's machine code read for pricing. The functions
 * compiled from one source file, each instruction decoded and classified
 * (isa.h) with its source line from DWARF, and the machine loops (the
 * targets of backward branches), nested, each matched to the source loop
 * it was compiled from. */
#ifndef EPI_OBJCODE_H
#define EPI_OBJCODE_H

#include <elfutils/libdwfl.h>

#include "predict/cfront.h"
#include "predict/isa.h"

/* What a stretch of machine code does: per run through it, or summed
 * over the runs (epi_mix_add). */
typedef struct epi_mix {
	double n;            /* instructions */
	double cls[EPI_IC_N]; /* instructions per class */
	double loads, stores; /* memory accesses */
	double flops;        /* floating-point operations: lanes, twice for an FMA */
	double load_bytes, store_bytes; /* moved to and from memory other than stack slots */
} epi_mix;

/* DST += TIMES x SRC. */
void epi_mix_add(epi_mix *dst, const epi_mix *src, double times);
/* M += instruction IN run W times (FRAME: its memory operand is a stack slot). */
void epi_mix_insn(epi_mix *m, const epi_insn *in, double w, int frame);

/* A function compiled from the source: instructions [first, first + n). */
typedef struct epi_mfn {
	char *name;
	int first, n;
	int line;            /* its declaration's line */
	epi_mix own;         /* per call: its instructions in no machine loop */
	int alias;           /* a function at the same address (identical functions merged), -1 */
} epi_mfn;

/* A machine loop: a natural loop of the function's control flow graph,
 * entered at instruction HEAD, END the last of its branches back to it;
 * its instructions are those whose loop_of is it or a loop inside it. */
typedef struct epi_mloop {
	int fn;
	int head, end;
	int parent;          /* the machine loop it is in, -1 */
	int depth;           /* 0 outermost in its function */
	int src;             /* the source loop (index into the list matched against), -1 none */
	int branch_line;     /* the source line of its backward branch (0: none in the source) */
	int branch_col;      /* its column there (0: not known) */
	epi_mix own;         /* its instructions that are in no inner machine loop */
	int first, last;     /* the first and last instruction in it or in a loop inside it */
} epi_mloop;

/* Addresses [lo, hi) of code that function CALLEE, inlined by the call on
 * LINE of the source, brought there; DEPTH its inlined calls around it. */
typedef struct epi_inlined_range {
	uint64_t lo, hi;
	int line, depth;
	char *callee;
} epi_inlined_range;

typedef struct epi_object {
	char *path;
	char *source;        /* the source file its functions were matched against */
	int machine;         /* ELF e_machine: EM_X86_64, EM_AARCH64 */
	unsigned char id[64];
	int idlen;           /* build-id bytes; 0: none */
	epi_insn *in;        /* registers as their full registers (epi_isa_reg_full) */
	int *line;           /* per instruction: its line in the source, 0 when elsewhere */
	int *xline;          /* per instruction on no line of the source: its line in the file it is
				from (a header's function inlined), else 0 */
	uint16_t *col;       /* per instruction with a line: its column there, 0 when not known */
	int *loop_of;        /* per instruction: the innermost machine loop holding it, -1 */
	unsigned char *frame; /* per instruction: its memory operand is a stack slot (frame register + constant) */
	unsigned char *vdst; /* per instruction: it writes a floating-point or SIMD register */
	int64_t *stride;     /* per instruction: the bytes its memory operand moves per iteration of its
				loop: 0 the same place; EPI_STRIDE_RUNTIME a constant step known only at
				run time (a column walk's, n * 8); EPI_STRIDE_UNKNOWN an address that
				follows the data (h[v[i]], a[min]); 0 for stack slots and outside loops */
	int64_t *outer_stride; /* per instruction of a loop inside another: how far its access at the
				  loop's first iteration moves per iteration of the loop around it (as
				  stride); EPI_STRIDE_UNKNOWN elsewhere */
	uint16_t *group;     /* per access of a loop inside another: the register whose value at
				the start of an iteration of the loop around its address holds at
				the loop's first iteration, plus GROUP_OFF bytes (rows i - 1, i and
				i + 1 of a stencil: one register, three offsets); 0 not known */
	int64_t *group_off;
	int64_t *array;      /* per access of a loop: where the array's address it adds an offset to came
				from (a stack slot's displacement, even; a global's address, odd), for
				-O0 code, which computes each address apart; EPI_STRIDE_UNKNOWN not known */
	unsigned char *repeat; /* per instruction of a loop: its access is within a line of one that
				  comes before it in the same iteration (the element addressed
				  again, as -O0 code does for a[i] += x: a load and a store) */
	unsigned char *rmw;  /* per store of a loop: to where a load of the same iteration read
				(the element rewritten, not written first: epi_mflow_repeats) */
	unsigned char *ret_arg; /* per instruction: a call whose result is its first argument
				   (memcpy, memset, strcpy, ...) */
	float *weight;       /* per instruction: the share of its loop's iterations that run it: 1, or
				in a block that not every iteration passes, its share of the flow
				from the loop's head (each branch of an if giving the branch
				probability to the block it guards, a switch's jump its runs to
				its targets alike) */
	unsigned char *dispatch; /* per load: it reads a switch's jump table (the address an indirect
				    jump takes), work of no source statement */
	int *gate;           /* per instruction of such a block: the machine loop L directly inside
				its loop whose runs tell how often it runs: L when once per run of
				L (its way in, or its one way out), -2 - L when at least as often
				(a test on the only way into L), -1 none (epi_mcount_gates) */
	double branch_prob;  /* that probability */
	int nin;
	epi_mfn *fn;
	int nfn;
	char **empty;        /* the source's functions that DWARF gives no code (a body the compiler
				dropped: an endless loop that does nothing), by name */
	int nempty;
	epi_mloop *loop;     /* per function, in the order of their headers' blocks */
	int nloop;
	int nother;          /* instructions the classifier did not know */
	/* the calls its code makes, by the line of the source they are made on
	 * (0: elsewhere): a call (or a jump out of a function) that reaches a
	 * function of the source, and a function of the source inlined
	 * (DWARF's inlined subroutines); callee NULL: a call whose callee is
	 * not known. By callee (unknown first), then line */
	epi_call_site *calls;
	int ncalls;
	/* the calls to functions whose code the object does not have (a
	 * library's: memcpy, sqrt, printf; another file's), by line of the source then
	 * callee, one for each pair (callee named, line 0: elsewhere) */
	epi_call_site *ext;
	int next;
	/* the address ranges of the functions inlined by calls the source
	 * makes (DWARF's inlined subroutines called from the source's lines) */
	epi_inlined_range *inl;
	int ninl;
	double bss;          /* bytes of zero-initialised data (static arrays), fresh on first touch */
	/* the arrays of constant size that the source's functions and file
	 * scope declare, with the sizes the program was built with */
	epi_sized *sized;
	int nsized;
	/* the integer variables of the source's functions whose value the
	 * build fixed (a constant the compiler kept for the variable, or the
	 * one constant the code stores on its declaration's line, as -O0's
	 * int n = N; does): dims[0] */
	epi_sized *values;
	int nvalues;
	/* functions of the source whose code is a jump to another's with the
	 * same code (gcc's -fipa-icf, at -O2): FOLD_FROM[i] runs FOLD_INTO[i] */
	char **fold_from, **fold_into;
	int nfold;
} epi_object;

/* Reads the machine code of PATH's functions compiled from SOURCE, finds
 * and nests its loops. Returns 0, or -1 with ERR: no such file, not an
 * ELF program, a machine other than x86-64 and aarch64, no debug
 * information (build with -g), no function compiled from SOURCE (the
 * files it was built from are named). A block of a loop that not every
 * iteration runs (one that does not dominate the branches back) runs in
 * its share of the iterations: followed from the loop's head, a
 * conditional branch gives BRANCH_PROB of its runs to the block it guards
 * (as the source analysis takes an if's branches) and the rest to the way
 * around it, so the ways of an else-if chain or of a switch compiled to
 * compares share each iteration. */
int epi_object_read(epi_object *o, const char *path, const char *source, double branch_prob, char *err);

/* Whether O was built with other array sizes than the source's parse
 * gives (SRC, N of them, as the analysis lists them: a build given -D
 * values the parse was not): the arrays declared alike (function, name,
 * line) whose sizes differ. Returns how many, with the first of them
 * told in MSG (LEN bytes) when one does. */
int epi_object_sizes_differ(const epi_object *o, const epi_sized *src, int n, char *msg, size_t len);
/* O's array declared as X is (function, name, line), NULL none. */
const epi_sized *epi_object_sized(const epi_object *o, const epi_sized *x);
/* O's value of the variable declared as X is, NULL none. */
const epi_sized *epi_object_value(const epi_object *o, const epi_sized *x);
/* The line of the source's call whose inlined code holds ADDR (the
 * innermost such call), its callee into *CALLEE; 0 when none does. */
int epi_object_inlined_at(const epi_object *o, uint64_t addr, const char **callee);
void epi_object_free(epi_object *o);

/* Of the N call sites SITES of the source (their callees the source's
 * functions), marks in DEAD those that O's code does not make: no call
 * nor inlined copy of any function on the site's line (a call of another
 * may stand for it: identical functions merged, calls redirected). A
 * callee called or inlined on a line that none of its sites is on (after
 * a compiler merged two calls, say) has none of its sites marked: which
 * site that call stands for cannot be told. Returns how many are marked. */
int epi_object_dead_calls(const epi_object *o, const epi_call_site *sites, int n, char *dead);
/* The first of O's calls (in their order: by callee, then line) of
 * CALLEE on LINE or after. */
int epi_object_first_call(const epi_object *o, const char *callee, int line);
/* Whether O's code has a copy of FUNCTION inlined somewhere. */
int epi_object_inlined(const epi_object *o, const char *function);
/* Whether O's code calls CALLEE on LINE, or makes a call of unknown
 * callee there, or (INLINED) has a copy of it inlined there. */
int epi_object_calls_on(const epi_object *o, const char *callee, int line, int inlined);
/* Whether O's code calls CALLEE (INLINED: or has a copy of it inlined) on
 * a line that none of LINES (N, in increasing order) is. */
int epi_object_calls_off(const epi_object *o, const char *callee, const int *lines, int n, int inlined);

/* Matches each machine loop to one of LOOPS (epi_find_loops of the
 * source): the loop whose keyword (or, for a do-while, whose closing
 * line) is on the line of its last backward branch, else the innermost
 * loop spanning that line; within the source loop of the machine loop it
 * is in. Sets each epi_mloop's src; returns how many
 * machine loops were matched. */
int epi_object_match(epi_object *o, const epi_nest *loops, int nloops);

/* Calls FN for every named function (DW_TAG_subprogram) in MOD's compile
 * units, those with code defined inside others too, with its compile unit,
 * the unit's directory (may be NULL) and the file declaring it (NULL for
 * one declared nowhere: an outlined parallel region); stops at the first
 * FN returning non-zero, and returns that. -1 when MOD has no compile unit
 * (no debug information). */
typedef int (*epi_dwarf_fn)(Dwarf_Die *cu, const char *dir, Dwarf_Die *die, const char *name, const char *decl_file,
			    void *ctx);
int epi_dwarf_functions(Dwfl_Module *mod, epi_dwarf_fn fn, void *ctx);

#define EPI_STRIDE_UNKNOWN INT64_MIN
#define EPI_STRIDE_RUNTIME (INT64_MIN + 1)

/* Whether instruction I is in machine loop L or a loop inside it. */
int epi_in_loop(const epi_object *o, int i, int l);
/* The index of O's instruction at ADDR among [LO, HI), or -1. */
int epi_object_insn_at(const epi_object *o, int lo, int hi, uint64_t addr);
/* O->stride and O->outer_stride of machine loops LO..HI-1 (mstride.c),
 * into arrays the caller allocated (outer strides EPI_STRIDE_UNKNOWN where
 * no loop sets them). A loop writes the strides of its own instructions
 * and the outer strides of those of the loops directly inside it, so that
 * loops apart may be taken on threads of their own; epi_object_read does. */
void epi_object_strides(epi_object *o, int lo, int hi);

/* Machine loop L's iterations per entry when they are a constant of the
 * code: a counter set to a constant before the loop, stepped by a constant
 * once per iteration, and the loop left when it reaches a constant (an
 * unrolled loop of constant trip count counts down by its factor); 0 when
 * not so. */
int64_t epi_mloop_const_trip(const epi_object *o, int l);

/* Whether IN adds a constant to the register it writes, and reads no
 * memory (add r, 8; sub; inc; lea r, [r + 8]; aarch64 add x, x, #8): the
 * register into *R, the constant into *K. */
int epi_steps_reg(const epi_insn *in, unsigned *r, int64_t *k);
/* Whether IN sets the register it writes to another register's value plus
 * a constant, and reads no memory (lea r, [b + k]; aarch64 add r, b, #k,
 * sub): that register into *FROM, the constant into *K. */
int epi_copies_plus(const epi_insn *in, unsigned *from, int64_t *k);

/* Registers are numbered below this. */
#define EPI_LOOP_REGS 1024
/* The registers that instructions [LO, HI) of O name, read or written,
 * and those a call may change, into REGS (room for EPI_LOOP_REGS); returns
 * how many: what a pass over a loop needs to set up, and no more. */
int epi_loop_regs(const epi_object *o, int lo, int hi, unsigned *regs);

/* Whether paths A and B name the same file: the same real path when both
 * exist, else the same base name. */
int epi_same_file(const char *a, const char *b);
/* The same for a DWARF file name NAME, relative to the compile unit's
 * directory DIR (may be NULL) when not absolute, and the path SOURCE. */
int epi_same_source(const char *name, const char *dir, const char *source);

/* The folders of the files that the units of the program or object PATH
 * compiled from SOURCE include, as PATH's debug information names them,
 * then (their number in *BESIDE) the folders of its other units' sources
 * (absolute, each once, in the order met; the system's, under /usr/, and
 * SOURCE's own folder left out): into *DIRS (each and the array
 * malloc'd), their number. 0 when there are none, or PATH has no such
 * unit or cannot be read. */
int epi_object_include_dirs(const char *path, const char *source, char ***dirs, int *beside);

/* The machine name ("x86-64", "aarch64") of ELF machine M. */
const char *epi_machine_name(int m);

#endif
