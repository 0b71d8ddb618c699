/* counts: per-operation counts of a piece of code, each as three exact
 * piecewise polynomials: the minimum, maximum and expected count over the
 * branches taken.  Keys are op keys ("add.f64") or "call:NAME" for calls
 * that are listed but not counted; with block tags (epi_front_opts), also
 * "@LINE/KEY" and "@FUNCTION()/KEY" (see cfront.h).  The loops' own
 * counts ("%LINE/iter", "%-K/flops": cfront.h's tag_loops), which only the
 * compiled-code model reads, and reads as expected counts, keep the
 * expected count alone: their minimum and maximum are never worked out. */
#ifndef EPI_COUNTS_H
#define EPI_COUNTS_H

#include "predict/sym.h"

typedef struct epi_tri {
	sym_pw min, max, exp;
	int same; /* no branch in between, or a loop's own count: min and max are exp
		     (and left empty) */
} epi_tri;

/* The minimum and maximum of T, whether stored or shared with exp. */
const sym_pw *tri_min(const epi_tri *t);
const sym_pw *tri_max(const epi_tri *t);

typedef struct epi_counts {
	int n, cap;
	char **key;
	epi_tri *v;
	int approx; /* some minimum or maximum is a bound, not exact */
	/* an index of the keys once there are many (per-loop tags): slots of
	 * key index + 1, 0 empty; HCAP slots (a power of 2) */
	int *hash;
	int hcap;
} epi_counts;

void counts_init(epi_counts *c);
void counts_clear(sym_ctx *s, epi_counts *c);
void counts_set(sym_ctx *s, epi_counts *dst, const epi_counts *src);
/* DST's KEY += K times A's count I (A not DST). */
void counts_add_scaled(sym_ctx *s, epi_counts *dst, const char *key, const epi_counts *a, int i, long k);
/* DST += A's counts whose keys KEEP says to keep. */
void counts_add_if(sym_ctx *s, epi_counts *dst, const epi_counts *a, int (*keep)(const char *key));
/* Adds AMOUNT (exact) of KEY. */
void counts_add_poly(sym_ctx *s, epi_counts *c, const char *key, const poly_t amount);
void counts_add_si(sym_ctx *s, epi_counts *c, const char *key, long amount);
/* dst += a */
void counts_add(sym_ctx *s, epi_counts *dst, const epi_counts *a);
/* dst += a[0] + ... + a[n-1] (none of them dst): the same as n counts_add()s,
 * in time linear in the pieces (the total of a long program), in steps that
 * threads can share: DST's keys first, with where each is in the pieces
 * (counts_where), then the sum of each key D, on any thread and in any order
 * (each reads its key's counts only, and writes DST's entry D only). */
typedef struct counts_where {
	const epi_tri **at; /* key D's counts in the pieces, in their order: */
	int *from;          /* at[from[D]] .. at[from[D + 1] - 1] */
} counts_where;
void counts_add_all_keys(sym_ctx *s, epi_counts *dst, const epi_counts *const *a, int n, counts_where *w);
void counts_add_all_key(sym_ctx *s, epi_counts *dst, int d, const counts_where *w);
void counts_where_free(counts_where *w);
/* DST (in S's symbol table, emptied first) = A, counts of a table whose
 * symbols counts_map() has mapped into S's through MAP; A is left empty:
 * see sym_pw_adopt() for M. */
void counts_adopt(sym_ctx *s, epi_counts *dst, epi_counts *a, const int *map, sym_moved *m);
/* Maps A's symbols into S's table for counts_adopt(): see sym_pw_map().
 * Returns 0 or -1 (s->err). */
int counts_map(sym_ctx *s, const sym_ctx *src, const epi_counts *a, int *map);
/* dst += the counts of SRC whose key starts with PREFIX, under the key
 * without it ("@12/add.i32" -> "add.i32" for PREFIX "@12/"). */
void counts_select(sym_ctx *s, epi_counts *dst, const epi_counts *src, const char *prefix);
/* Removes the counts of C whose key starts with PREFIX. */
void counts_drop(sym_ctx *s, epi_counts *c, const char *prefix);
/* dst += one of A (probability p) or B: min and max per class, expected p*A + (1-p)*B. */
void counts_branch(sym_ctx *s, epi_counts *dst, const epi_counts *a, const epi_counts *b, const fmpq_t p);
/* dst += A, which can be cut short: the minimum of each count is B's (the
 * counts up to its earliest end, at most A's), its maximum and expectation
 * A's; the minima become bounds (approx). */
void counts_cut(sym_ctx *s, epi_counts *dst, const epi_counts *a, const epi_counts *b);
/* Restricts every count of C to where COND >= 0 (zero elsewhere). */
void counts_restrict(sym_ctx *s, epi_counts *c, const poly_t cond);
/* c = sum over var from lo to hi of c. Returns 0 or -1 (s->err). */
int counts_sum(sym_ctx *s, epi_counts *c, int var, const poly_t lo, const poly_t hi);
int counts_compose(sym_ctx *s, epi_counts *c, poly_struct *const *sub);
void counts_mul_poly(sym_ctx *s, epi_counts *c, const poly_t p);
/* Index of KEY or -1. */
int counts_find(const epi_counts *c, const char *key);
/* Marks every symbol any count uses (atoms and what they use included). */
void counts_symbols(sym_ctx *s, const epi_counts *c, int *used);
/* Marks the parameters any count depends on. */
void counts_params(sym_ctx *s, const epi_counts *c, int *used);

#endif
