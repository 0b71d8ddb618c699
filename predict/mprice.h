/* mprice: the time and energy of machine code, from a cost table's
 * microbenchmarks. One iteration of a machine loop takes the longest of
 * what bounds it (in the manner of the roofline and ECM models and of
 * basic-block throughput predictors such as llvm-mca): the issue of its
 * instructions, the busiest execution resource (integer, floating point,
 * loads, stores), and the chain of latencies one iteration waits for from
 * the previous one (registers, and at -O0 the stack slots variables live
 * in, and array elements written one iteration and read the next: mflow.h),
 * plus the branches the data decides that the core mispredicts. Energy is
 * idle power x time plus each instruction's dynamic energy. */
#ifndef EPI_MPRICE_H
#define EPI_MPRICE_H

#include "model/table.h"
#include "predict/objcode.h"

enum epi_bound {
	EPI_BOUND_ISSUE,   /* instructions issued per cycle */
	EPI_BOUND_INT,     /* integer units */
	EPI_BOUND_FP,      /* floating-point units */
	EPI_BOUND_LOAD,    /* load ports, or loads and stores together through the ports they share */
	EPI_BOUND_STORE,   /* store ports */
	EPI_BOUND_DIV,     /* the dividers (integer, floating-point: units of their own, beside the others) */
	EPI_BOUND_LATENCY, /* a dependency chain from one iteration to the next */
	EPI_BOUND_TLB,     /* page walks: a column walk over more pages than the TLB maps */
	EPI_BOUND_L2,      /* lines from the L2 cache */
	EPI_BOUND_L3,      /* lines from the L3 cache */
	EPI_BOUND_DRAM,    /* lines from memory */
	EPI_BOUND_PAGES,   /* the first writes to freshly allocated memory (page faults) */
	EPI_BOUND_BRANCH,  /* branches the data decides, mispredicted (added to the largest of the others) */
	EPI_BOUND_N
};

/* The order of the norm that combines a loop's bounds: their largest
 * where one leads by far, 2^(1/p) times it where two are equal (see
 * epi_mprice_loop) */
#define EPI_OVERLAP_NORM 5.0
const char *epi_bound_name(enum epi_bound b);

/* Seconds and dynamic joules per instruction of each kind at one
 * frequency, from a cost-table column. */
typedef struct epi_mcosts {
	double tp[EPI_IC_N];     /* throughput: seconds per instruction when many are independent */
	double lat[EPI_IC_N];    /* latency: seconds from its inputs to its result */
	double load_tp, store_tp; /* per access, data in L1 */
	double fp_load_tp;       /* per load into a floating-point or SIMD register (load.fp.l1; else load_tp) */
	double access_tp;        /* per access of either kind, loads and stores together (0: unknown) */
	double slot_tp;          /* the same for a stack slot's access in -O0 code (load.mix.frame) */
	double load_lat;         /* load to use, data in L1 */
	double load_lat_fp;      /* the same into a floating-point or SIMD register, or into such an
				    operation (load.fp.lat; 0: as load_lat) */
	double load_lat_idx;     /* into a general register from an address with an index register
				    (load.idx.lat; 0: as load_lat) */
	double fwd_lat;          /* a store to a stack slot to a load of it: an integer */
	double fwd_lat_fp;       /* the same for a floating-point or SIMD register's value */
	double fwd_op_lat;       /* the same into an operation (add slot, reg): no renaming, the full forward */
	double fwd_fail_lat;     /* a load over part of a store: waits for the store to reach the cache */
	double miss;             /* seconds per mispredicted branch; 0 when the table cannot say */
	double issue;            /* seconds per instruction at the core's issue rate */
	double taken;            /* seconds per taken branch at the rate the front end follows them (the
				    empty loop's iteration); 0 when the table cannot say */
	double split;            /* seconds the front end adds for each 64-byte line of code a loop's
				    body enters besides its taken branches (iter.split); 0 without it */
	double line[3];          /* seconds per 64-byte line read from L2, L3, memory */
	double wline[3];         /* seconds per 64-byte line only written, to L2, L3, memory */
	double cline[3];         /* seconds per line read a line an access (a column walk), from L2, L3, memory */
	double near_share;       /* of a deeper level's line price, what a nearer level's line costs beside it */
	double near_mem;         /* seconds per line from L2 beside lines from memory (load.dram.near); 0 without it */
	double scatter;          /* seconds per line read from memory in no order a prefetcher follows */
	double touch;            /* seconds per byte of fresh memory first written (malloc.touch) */
	double set1;             /* seconds per access of a column walk whose lines all fall in one set of L1,
				    more than its ways hold (load.l2.set; 0: unknown) */
	double walk;             /* seconds per access that waits for the page tables (load.page.walk; 0: unknown) */
	double walk_far;         /* the same when each page-table entry is on a line of its own
				    (load.page.walkfar; 0: unknown) */
	double page;             /* bytes of a page (the address bits within it pick a line's cache set) */
	double stlb;             /* pages the second-level TLB maps */
	double stlb_sets;        /* its sets (0: not known), picked by a page number's low bits */
	double dtlb;             /* pages the first-level data TLB maps */
	/* the TLB's miss curve: seconds per access of a walk over tlb_x[i] x
	 * stlb pages (load.page.tlbS, then load.page.walk), by tlb_x; no
	 * points when the table has no load.page.tlbS */
	double tlb_x[8], tlb_t[8];
	int ntlb;
	unsigned long long cache[3]; /* L1d, L2, L3 bytes */
	unsigned long long l3_serves; /* the working set L3 serves at its own rate; 0: 3/4 of it */
	double e_dyn[EPI_IC_N];  /* dynamic joules per instruction */
	/* a single-precision division's (div.f32, div.f32.lat; without them,
	 * a double's): the divider takes fewer cycles for fewer bits */
	double fdiv32_tp, fdiv32_lat, e_fdiv32;
	double idiv32_tp, idiv32_lat, e_idiv32; /* 32-bit (or narrower) integer divides */
	double fmax_lat;         /* a floating-point minimum's or maximum's latency (0: an add's) */
	double fp_apart;         /* how far adds and multiplies go to units of their own (add.f64.mix):
				    1, each to its own; 0 (without the kernel), to the same */
	double window;           /* instructions the core holds in flight, over which it overlaps
				    chains that start afresh (add.f64.window; 0: none overlap) */
	double window_slot;      /* the same over chains through stack slots (load.fwdfp.window) */
	double frame_stall;      /* what a chain through a stack slot waits, per load of its iteration,
				    where the iteration's column load misses L1 and the first-level TLB
				    (load.frame.col over load.frame.row); < 0 without the kernels */
	double elem_ahead;       /* of what -O0's chain through an array element waits for the element's
				    address computed anew (its time and a load from L1 beyond the
				    forward), the share the core does not wait (load.frame.elem over
				    load.frame.row): 0 without the kernels, 1 where it forwards the
				    element as a slot */
	double e_load, e_store;  /* dynamic joules per access */
	double idle_w;           /* NAN when the table has no idle power */
	int energy;              /* the table has energies (a meter calibrated it) */
} epi_mcosts;

/* The costs at column COL of a machine with data caches CACHE (L1d, L2,
 * L3 bytes; 0: typical sizes), whose L3 serves L3_SERVES bytes at its own
 * rate (0: unknown) and whose second-level TLB maps TLB_PAGES pages (0:
 * unknown, cpuid's); a kernel the table lacks is derived from a related
 * one. */
void epi_mcosts_from(epi_mcosts *c, const epi_fcol *col, const unsigned long long cache[3],
		     unsigned long long l3_serves, unsigned long long tlb_pages);

/* Seconds per access of a column walk over PAGES pages: 0 within the
 * first-level TLB's reach or without the kernels, else the miss curve
 * (epi_mcosts.tlb_x) followed between its points, flat beyond them. */
double epi_mcosts_tlb(const epi_mcosts *c, double pages);
/* Seconds instruction IN holds its unit, its latency and its dynamic
 * joules at C: its class's, a single-precision division's its own. */
double epi_mcosts_tp(const epi_mcosts *c, const epi_insn *in);
double epi_mcosts_lat(const epi_mcosts *c, const epi_insn *in);
double epi_mcosts_e(const epi_mcosts *c, const epi_insn *in);

/* Whether COL has the microbenchmarks the compiled-code model rests on
 * (integer and floating-point throughput and latency, L1 loads and stores,
 * load latency), measured by epi-calibrate; else the names of those it
 * lacks go to MISSING (N bytes). A table made for the source-level model
 * alone (per class, or RR-8416's in-context costs) has not. */
int epi_mcosts_usable(const epi_fcol *col, char *missing, size_t n);

/* The price of one iteration of machine loop L of O (its own instructions). */
typedef struct epi_mloop_price {
	double t;                  /* seconds */
	double e_dyn;              /* dynamic joules */
	double bound_t[EPI_BOUND_N]; /* seconds per iteration under each bound */
	enum epi_bound bound;      /* the largest */
} epi_mloop_price;

/* What a loop sweeps, for the cache level its accesses come from. */
typedef struct epi_msweep {
	double trip;       /* its iterations per entry; NAN when unknown (L1 assumed) */
	double outer_trip; /* iterations of the loop around it per entry of that loop; NAN: none */
	double round;      /* bytes one iteration of the loop around touches (its entry and those
			      of the loops beside it); NAN: its own entry's */
	double spread;     /* the trip count's standard deviation over its mean (0: the same at
			      every entry) */
	double outer_spread; /* the same of the loop around (0: the same at every entry, or none) */
	int refs, arrays;  /* the source loop's own references that move and the arrays they
			      name (epi_nest's; 0: not known) */
} epi_msweep;

/* Each access moves its stride's bytes per iteration, a line when the
 * stride is a line or more or not known at compile time; an access that
 * starts where it did at each entry (outer_stride 0) is served from the
 * level that holds a round, one that moves on from the level that holds
 * an entry of the loop around. */
void epi_mprice_loop(const epi_object *o, int l, const epi_msweep *sw, const epi_mcosts *c, epi_mloop_price *out);
/* The bytes one entry of loop L (TRIP iterations) touches. */
double epi_mloop_bytes(const epi_object *o, int l, double trip);
/* Per loop, into ROUND (zeroed, one per loop): the bytes one of its
 * iterations touches through the loops directly inside it, TRIP[l]
 * iterations an entry each (loops whose TRIP is not above 0 left out):
 * their entries' bytes, but an access that starts from the same register
 * at the outer iteration and the same offset, in the same direction, as
 * an access of a loop beside it before touches the same bytes, counted
 * once (the larger): two sweeps over the same arrays in one iteration (a
 * time step's) touch them once. */
void epi_mround_bytes(const epi_object *o, const double *trip, double *round);
/* The same for a function's instructions outside its loops, per call. */
void epi_mprice_fn(const epi_object *o, int f, const epi_mcosts *c, epi_mloop_price *out);
/* The same for those of its instructions whose entry in SEL (one per
 * instruction of the object) is WANT: a loop nest's code that is in no
 * machine loop (its set-up, or the whole nest when the compiler unrolled
 * it into straight code), or the function's outside its nests. */
void epi_mprice_sel(const epi_object *o, int f, const int *sel, int want, const epi_mcosts *c, epi_mloop_price *out);

#endif
