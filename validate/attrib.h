/* attrib: samples to code blocks. An instruction pointer becomes an address
 * in its object's file (through the run's load map: PIE and ASLR move every
 * run), then function and file:line through elfutils libdw, then the loop
 * nest of that line as epi-predict finds it in the source (same identity:
 * file, function, line of the loop keyword). Resolutions are cached per
 * (object, address): traces repeat the same addresses millions of times. */
#ifndef EPI_ATTRIB_H
#define EPI_ATTRIB_H

#include <stdint.h>

#include "validate/trace.h"

enum epi_by { EPI_BY_LOOP, EPI_BY_FUNCTION, EPI_BY_LINE };

enum epi_block_kind {
	EPI_BLOCK_LOOP,     /* a loop nest of the program's source */
	EPI_BLOCK_FUNCTION, /* a function (outside its loop nests, for EPI_BY_LOOP) */
	EPI_BLOCK_LINE,     /* one source line */
	EPI_BLOCK_OBJECT,   /* an object without symbols, or an address in no object */
};

typedef struct epi_block {
	enum epi_block_kind kind;
	char *name;         /* for tables: "sort.c:12 loop in sort", "memcpy (libc.so.6)" */
	char *file;         /* source file (LOOP, LINE, and FUNCTION with line info), else NULL */
	char *function;     /* NULL for OBJECT */
	char *object;       /* the object's file name */
	int line;           /* LOOP: the keyword's line; LINE: the line; else 0 */
	int in_program;     /* in the program's own executable */
	/* accumulations, by the caller */
	uint64_t n;         /* samples */
	double s1, s2;      /* sum of power and of its square over samples with power */
	double e1, e2;      /* the same of power / (samples in the sample's tick) */
	uint64_t np;        /* samples with power */
	/* the block's streaks (a thread's consecutive samples in it) over the
	 * meter readings that surely lie inside them: duration x (s), energy y
	 * (J) and the uncertainty u (s) of x from the readings' timing */
	double sx, sy, sxx, syy, sxy, su;
	uint64_t nk;        /* such streaks */
} epi_block;

typedef struct epi_attrib epi_attrib;

/* A new attributor at granularity BY. Clang flags (may be NULL) serve to
 * parse the sources for their loop nests. */
epi_attrib *epi_attrib_new(enum epi_by by, const char *const *clang_args, int nclang_args);
void epi_attrib_free(epi_attrib *a);

/* Starts a run with its load map (maps[0]: the program). Checks that each
 * object's build-id is the one recorded; returns 0, or -1 with ERR when the
 * program itself does not match (a trace of another binary). Other objects
 * that changed are only left unresolved (named in *WARN when not NULL). */
int epi_attrib_run(epi_attrib *a, const epi_map *maps, int nmaps, char *err);
/* The block of instruction pointer IP in the current run (an index into
 * the blocks, stable while A lives). */
int epi_attrib_ip(epi_attrib *a, uint64_t ip);
epi_block *epi_attrib_blocks(epi_attrib *a, int *n);
/* The line where the program's debug information declares FUNCTION of
 * source FILE (DW_AT_decl_line), to check a source against the binary:
 * the line, 0 when the binary has no such function, -1 when the program
 * is not loaded or has no debug information. */
int epi_attrib_decl_line(epi_attrib *a, const char *file, const char *function);

/* The path the program was mapped from in the runs read (absolute, as
 * the kernel gave it), NULL before any. */
const char *epi_attrib_program(const epi_attrib *a);

/* Notes about sources that could not be read or parsed, one per line ("" when none). */
const char *epi_attrib_notes(epi_attrib *a);

#endif
