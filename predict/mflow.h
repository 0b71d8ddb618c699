/* mflow: what one iteration of a machine loop waits for from the ones
 * before it, and the branches in it that the data decides.
 *
 * Three iterations go through the loop's instructions, each instruction
 * starting when its inputs are ready (no resource limit); the growth of
 * the last is the loop-carried latency chain. A chain in a register or a
 * stack slot that the straight code before the loop sets from nothing the
 * loop computes (a zeroing idiom, a constant, a load; s = 0) starts afresh
 * at each entry: the pricing overlaps it with the next entry's within the
 * core's window. Values cross iterations in registers, in stack slots
 * (-O0's variables: a store forwarded to the next load, `load.fwd.lat` and
 * `load.fwdfp.lat`) and in array elements: every address is followed as a
 * linear form of the values the iteration starts with (registers, stack
 * slots) and of what it computes from them, so that a load is matched to
 * the store of an earlier iteration that wrote the same bytes (s[i] =
 * s[i - 1] + v[i]; A[i][j - 1] in a sweep in place; v[j][i] from
 * v[j + 1][i] down a column, whose step is known only at run time, through
 * forms carried over the iterations), forwarded, or, when it covers that
 * store only in part, waiting for it to reach the cache
 * (`load.fwdfail.lat`). A store that not every
 * iteration runs is waited for in the share of the iterations that run it.
 *
 * A conditional branch inside the loop (neither its exit nor its way
 * back) whose condition depends on data loaded from memory that moves
 * with the iteration is taken to be mispredicted at min(p, 1 - p) of its
 * runs, p the branch probability, unless the code it guards writes back
 * something the condition read: a running minimum or maximum, a
 * relaxation (d[i][j] = min(d[i][j], ...)) or a swap of the elements
 * compared, whose outcomes grow predictable as the data settles. */
#ifndef EPI_MFLOW_H
#define EPI_MFLOW_H

#include "predict/mprice.h"

typedef struct epi_mflow {
	double latency; /* seconds per iteration of the loop-carried chain */
	double misses;  /* mispredicted branches per iteration */
	int afresh;     /* the code before the loop sets the chain's register or slot
			   anew at each entry (1: s = 0 before a dot product), or the code
			   before the loop around (2: s = 0 before a sum over a window's
			   rows and columns); 0: neither */
	int slot;       /* the chain passes through a stack slot (-O0's variables) */
} epi_mflow;

/* The chain and the mispredictions of machine loop L of O (its own
 * instructions), at the costs C. */
void epi_mflow_loop(const epi_object *o, int l, const epi_mcosts *c, epi_mflow *out);

/* Frees what epi_mflow_loop keeps on the calling thread between calls
 * (a thread that ends without it leaks that). */
void epi_mflow_release(void);

/* Marks in O->repeat (allocated by the caller) the accesses of machine
 * loops LO..HI-1 that are within a line of an access before them in the
 * same iteration: their addresses, followed as linear forms of the values
 * the iteration starts with, differ by less than a line. -O0 code computes
 * an element's address anew for each access (the load and the store of
 * a[i] += x), so the registers alone do not show it. Marks in O->rmw
 * likewise the stores to where a load of the same iteration read (the
 * store of a[i] -= x; an instruction that loads and stores), which
 * rewrite an element rather than write it first. Reads the loops'
 * strides; writes only their own instructions' marks. */
void epi_mflow_repeats(epi_object *o, int lo, int hi);

#endif
