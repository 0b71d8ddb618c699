/* load: element reads from a buffer sized for one cache level (L1, L2, L3,
 * DRAM). Throughput: 32 independent 8-byte loads in address order per
 * iteration, then the pointer advances 256 bytes and wraps at the end of
 * the buffer (add, cmp, cmovae or csel: part of each iteration's cost). Latency:
 * pointer chasing, `mov (%rax), %rax`, through the buffer's cache lines in
 * a random cyclic order (GSL's shuffle), so that neither the prefetcher
 * nor overlap hides the load-to-use time. Scattered: a load from each line
 * in that kind of order, the offsets read in order from a second buffer,
 * the loads independent: the rate at which memory serves lines that no
 * prefetcher foresees but that do not wait for each other, as a walk down
 * the columns of a large matrix brings them. Mixed: two loads and a store,
 * ten times per iteration: the core's rate of memory accesses of both kinds
 * together (three a cycle where it loads three and stores two). */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench/asm.h"
#include "bench/bench.h"
#include "machine/cpu.h"
#include "model/util.h"

/* One load of 8 bytes at offset K from %[p]; one step of the chase. */
#if defined(__x86_64__)
#define LD(k) "mov " #k "(%[p]), %[t]\n\t"
#define CHASE "mov (%[p]), %[p]\n\t"
#define CHASE_FP "movq (%[p]), %[f]\n\tmovq %[f], %[p]\n\t"
#define CHASE_IDX "mov (%[b],%[i],8), %[i]\n\t"
#elif defined(__aarch64__)
#define LD(k) "ldr %x[t], [%x[p], #" #k "]\n\t"
#define CHASE "ldr %x[p], [%x[p]]\n\t"
#define CHASE_FP "ldr %d[f], [%x[p]]\n\tfmov %x[p], %d[f]\n\t"
#define CHASE_IDX "ldr %x[i], [%x[b], %x[i], lsl #3]\n\t"
#endif

static int setup_seq(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	(void)k;
	return epi_bench_alloc(c, c->bytes, 0, err);
}

/* A kernel of 32 loads at offsets OFFS(LD) from the pointer, which then
 * advances by STEP bytes (WRAP) and wraps at the end of the buffer. */
#if defined(EPI_ASM)
#define SEQ_LOADS(name, OFFS, WRAP, step)                                                              \
	static void name(epi_bench_ctx *c, uint64_t n)                                                  \
	{                                                                                               \
		char *p = c->buf, *start = c->buf, *end = (char *)c->buf + c->bytes;                    \
		uint64_t t;                                                                             \
		if (n)                                                                                  \
			__asm__ volatile("1:\n\t" OFFS(LD) WRAP EPI_LOOP                                  \
					 : [p] "+&r"(p), [t] "=&r"(t), [n] EPI_NCON(n)                          \
					 : [start] "r"(start), [end] "r"(end)                                   \
					 : "cc", "memory");                                                     \
	}
#else
#define SEQ_LOADS(name, OFFS, WRAP, step)                                                              \
	static void name(epi_bench_ctx *c, uint64_t n)                                                  \
	{                                                                                               \
		char *p = c->buf, *start = c->buf, *end = (char *)c->buf + c->bytes;                    \
		for (; n; n--) {                                                                        \
			volatile uint64_t *q = (volatile uint64_t *)p;                                  \
			uint64_t t;                                                                     \
			for (int i = 0; i < EPI_UNROLL; i++)                                            \
				t = q[i * ((step) / 256)];                                              \
			(void)t;                                                                        \
			p += (step);                                                                    \
			if (p >= end)                                                                   \
				p = start;                                                              \
		}                                                                                       \
	}
#endif

SEQ_LOADS(thr, EPI_OFFS32, EPI_WRAP256, 256)

/* The same 32 loads of 8 bytes into a floating-point register: on some
 * cores fewer of these issue a cycle than of loads into general registers
 * (two against three on Zen 4). */
#if defined(__x86_64__)
#define LDF(k) "movsd " #k "(%[p]), %%xmm0\n\t"
#define FP_CLOBBER "xmm0"
#elif defined(__aarch64__)
#define LDF(k) "ldr d0, [%x[p], #" #k "]\n\t"
#define FP_CLOBBER "v0"
#endif

static void thr_fp(epi_bench_ctx *c, uint64_t n)
{
	char *p = c->buf, *start = c->buf, *end = (char *)c->buf + c->bytes;
	if (!n)
		return;
#if defined(EPI_ASM)
	__asm__ volatile("1:\n\t" EPI_OFFS32(LDF) EPI_WRAP256 EPI_LOOP
			 : [p] "+&r"(p), [n] EPI_NCON(n)
			 : [start] "r"(start), [end] "r"(end)
			 : "cc", "memory", FP_CLOBBER);
#else
	for (; n; n--) {
		volatile double *q = (volatile double *)p;
		double t;
		for (int i = 0; i < EPI_UNROLL; i++)
			t = q[i];
		(void)t;
		p += 256;
		if (p >= end)
			p = start;
	}
#endif
}

/* Lines from L2 beside lines from L3 (from memory): per unit, an 8-byte
 * load from the L3 (memory) buffer and one from a buffer in L2, both in
 * address order. The L2 buffer: 1/64 of the other, within 128-256 KiB
 * (larger than any L1, smaller than any L2). Its time beyond load.l3's
 * (load.dram's) is what the L2 lines add to a loop whose other lines come
 * from L3 (from memory): the compiled-code model prices such lines (a row
 * or a vector reused from the loop around, beside rows from further away)
 * at that share of the far level's price. */
static size_t near_bytes(size_t bytes)
{
	size_t b = bytes / 64;
	b = b < (128 << 10) ? 128 << 10 : b > (256 << 10) ? 256 << 10 : b;
	return bytes / 4 < b ? bytes / 4 : b;
}

static int setup_near(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	(void)k;
	if (epi_bench_alloc(c, c->bytes, 0, err) < 0)
		return -1;
	size_t nb = near_bytes(c->bytes);
	if (posix_memalign(&c->buf2, 4096, nb) != 0) {
		c->buf2 = NULL;
		epi_bench_free(c);
		return epi_error(err, "cannot allocate %zu bytes for a benchmark buffer", nb);
	}
	memset(c->buf2, 0, nb);
	c->aux = (char *)c->buf2 + nb;
	return 0;
}

#if defined(__x86_64__)
#define LD2(k) "mov " #k "(%[p]), %[t]\n\tmov " #k "(%[q]), %[t]\n\t"
#define WRAPQ "add $256, %[q]\n\tcmp %[qend], %[q]\n\tcmovae %[qstart], %[q]\n\t"
#elif defined(__aarch64__)
#define LD2(k) "ldr %x[t], [%x[p], #" #k "]\n\tldr %x[t], [%x[q], #" #k "]\n\t"
#define WRAPQ "add %x[q], %x[q], #256\n\tcmp %x[q], %x[qend]\n\tcsel %x[q], %x[qstart], %x[q], hs\n\t"
#endif

static void thr_near(epi_bench_ctx *c, uint64_t n)
{
	char *p = c->buf, *start = c->buf, *end = (char *)c->buf + c->bytes;
	char *q = c->buf2, *qstart = c->buf2, *qend = c->aux;
	uint64_t t;
	if (!n)
		return;
#if defined(EPI_ASM)
	__asm__ volatile("1:\n\t" EPI_OFFS32(LD2) EPI_WRAP256 WRAPQ EPI_LOOP
			 : [p] "+&r"(p), [q] "+&r"(q), [t] "=&r"(t), [n] EPI_NCON(n)
			 : [start] "r"(start), [end] "r"(end), [qstart] "r"(qstart), [qend] "r"(qend)
			 : "cc", "memory");
#else
	for (; n; n--) {
		volatile uint64_t *x = (volatile uint64_t *)p, *y = (volatile uint64_t *)q;
		for (int i = 0; i < EPI_UNROLL; i++) {
			t = x[i];
			t = y[i];
		}
		p += 256;
		if (p >= end)
			p = start;
		q += 256;
		if (q >= qend)
			q = qstart;
	}
#endif
	(void)t;
}

/* A near kernel: NAME, WHAT it measures, its far buffer at LEVEL. */
#define NEAR_KERNEL(id, nm, wh, lvl)                                                                         \
	const epi_kernel id = {                                                                             \
		.name = nm,                                                                                 \
		.what = wh,                                                                                 \
		.seq = EPI_ISA("mov 8k(%rsi), %rax; mov 8k(%rdi), %rax", "ldr x0, [x1, #8k]; ldr x0, [x2, #8k]"), \
		.unit = EPI_UNIT_OP, .level = lvl, .units = EPI_UNROLL, .setup = setup_near, .run = thr_near, \
		.teardown = epi_bench_free,                                                                 \
	}

NEAR_KERNEL(epi_k_load_l3_near, "load.l3.near",
	    "an 8-byte load from L3 and one from L2, both in address order: the L2 lines beside L3's", EPI_LVL_L3);
NEAR_KERNEL(epi_k_load_dram_near, "load.dram.near",
	    "an 8-byte load from memory and one from L2, both in address order: the L2 lines beside memory's",
	    EPI_LVL_DRAM);

/* One load per 64-byte line, 32 lines in address order per iteration: the
 * rate at which a level delivers lines, what a walk along a column or any
 * stride of a line or more moves. */
#define LINES32(F) F(0) F(64) F(128) F(192) F(256) F(320) F(384) F(448) F(512) F(576) F(640) F(704) F(768) \
	F(832) F(896) F(960) F(1024) F(1088) F(1152) F(1216) F(1280) F(1344) F(1408) F(1472) F(1536) F(1600) \
	F(1664) F(1728) F(1792) F(1856) F(1920) F(1984)
#if defined(__x86_64__)
#define WRAP2048 "add $2048, %[p]\n\tcmp %[end], %[p]\n\tcmovae %[start], %[p]\n\t"
#elif defined(__aarch64__)
#define WRAP2048 "add %x[p], %x[p], #2048\n\tcmp %x[p], %x[end]\n\tcsel %x[p], %x[start], %x[p], hs\n\t"
#else
#define WRAP2048 ""
#endif

SEQ_LOADS(thr_line, LINES32, WRAP2048, 2048)

/* Two loads and a store at offset K (the store's value not loaded). */
#if defined(__x86_64__)
#define MIX3(k) "mov " #k "(%[p]), %[t]\n\tmov " #k "+8(%[p]), %[t]\n\tmov %[z], " #k "+16(%[p])\n\t"
#elif defined(__aarch64__)
#define MIX3(k) "ldr %x[t], [%x[p], #" #k "]\n\tldr %x[t], [%x[p], #" #k "+8]\n\tstr %x[z], [%x[p], #" #k "+16]\n\t"
#endif
#define OFFS10(F) F(0) F(24) F(48) F(72) F(96) F(120) F(144) F(168) F(192) F(216)

static void mixed(epi_bench_ctx *c, uint64_t n)
{
	char *p = c->buf, *start = c->buf, *end = (char *)c->buf + c->bytes;
	uint64_t t, z = 0;
	if (!n)
		return;
#if defined(EPI_ASM)
	__asm__ volatile("1:\n\t" OFFS10(MIX3) EPI_WRAP256 EPI_LOOP
			 : [p] "+&r"(p), [t] "=&r"(t), [n] EPI_NCON(n)
			 : [start] "r"(start), [end] "r"(end), [z] "r"(z)
			 : "cc", "memory");
#else
	for (; n; n--) {
		volatile uint64_t *q = (volatile uint64_t *)p;
		for (int i = 0; i < 10; i++) {
			t = q[3 * i];
			t = q[3 * i + 1];
			q[3 * i + 2] = z;
		}
		p += 256;
		if (p >= end)
			p = start;
	}
	(void)t;
#endif
}

/* A random cyclic order of the buffer's 64-byte lines: each line holds
 * the address of the next. */
static int setup_chase(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	(void)k;
	if (epi_bench_alloc(c, c->bytes, 0, err) < 0)
		return -1;
	size_t lines = c->bytes / 64;
	size_t *order = malloc(lines * sizeof *order);
	for (size_t i = 0; i < lines; i++)
		order[i] = i;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 8416);
	gsl_ran_shuffle(r, order, lines, sizeof *order);
	gsl_rng_free(r);
	char *b = c->buf;
	for (size_t i = 0; i < lines; i++)
		*(void **)(b + order[i] * 64) = b + order[(i + 1) % lines] * 64;
	c->aux = b + order[0] * 64;
	free(order);
	return 0;
}

static void lat(epi_bench_ctx *c, uint64_t n)
{
	void *p = c->aux;
	if (!n)
		return;
#if defined(EPI_ASM)
	__asm__ volatile("1:\n\t" R32(CHASE) EPI_LOOP : [p] "+r"(p), [n] EPI_NCON(n) : : "cc", "memory");
#else
	for (; n; n--) {
		R32(p = *(void *volatile *)p;)
	}
#endif
	c->aux = p;
}

/* The chase through a floating-point register: each pointer loaded into
 * one and moved back to a general register to be followed. */
static void lat_fp(epi_bench_ctx *c, uint64_t n)
{
	void *p = c->aux;
	if (!n)
		return;
#if defined(EPI_ASM)
	double f;
	__asm__ volatile("1:\n\t" R32(CHASE_FP) EPI_LOOP
			 : [p] "+r"(p), [f] "=&" EPI_FPCON(f), [n] EPI_NCON(n)
			 :
			 : "cc", "memory");
#else
	for (; n; n--) {
		R32({
			double f = *(volatile double *)p;
			memcpy(&p, &f, sizeof p);
		})
	}
#endif
	c->aux = p;
}

/* setup_chase's order as indices of 8-byte words from the buffer's
 * start: each line holds the index of the next; C->aux the first's. */
static int setup_chase_idx(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	if (setup_chase(k, c, err) < 0)
		return -1;
	char *b = c->buf;
	size_t lines = c->bytes / 64;
	for (size_t i = 0; i < lines; i++) {
		char *next = *(char **)(b + i * 64);
		*(uint64_t *)(b + i * 64) = (uint64_t)(next - b) / 8;
	}
	c->aux = (void *)(uintptr_t)((size_t)((char *)c->aux - b) / 8);
	return 0;
}

/* The chase by index: each load's address the buffer's start plus 8
 * times the index the last one gave (base, index and scale). */
static void lat_idx(epi_bench_ctx *c, uint64_t n)
{
	uint64_t i = (uint64_t)(uintptr_t)c->aux;
	if (!n)
		return;
#if defined(EPI_ASM)
	__asm__ volatile("1:\n\t" R32(CHASE_IDX) EPI_LOOP
			 : [i] "+r"(i), [n] EPI_NCON(n)
			 : [b] "r"(c->buf)
			 : "cc", "memory");
#else
	const volatile uint64_t *b = c->buf;
	for (; n; n--) {
		R32(i = b[i];)
	}
#endif
	c->aux = (void *)(uintptr_t)i;
}

/* The buffer's 64-byte lines in a random order, as byte offsets (GSL's
 * shuffle) in a second buffer, read in address order. */
static int setup_scatter(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	if (epi_bench_alloc(c, c->bytes, 0, err) < 0)
		return -1;
	size_t lines = c->bytes / 64;
	uint64_t *at = NULL;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!r || posix_memalign((void **)&at, 4096, lines * sizeof *at) != 0) {
		gsl_rng_free(r);
		epi_bench_free(c);
		return epi_error(err, "cannot allocate the line order of the %s kernel", k->name);
	}
	for (size_t i = 0; i < lines; i++)
		at[i] = i * 64;
	gsl_rng_set(r, 8416);
	gsl_ran_shuffle(r, at, lines, sizeof *at);
	gsl_rng_free(r);
	c->buf2 = at;
	c->aux = (char *)at + lines / 32 * 256; /* the end of whole iterations */
	return 0;
}

/* One unit: the next offset, and a load from the line there; the loads do
 * not wait for each other, as a walk down a column does not. */
#if defined(__x86_64__)
#define SCAT(k) "mov " #k "(%[p]), %[t]\n\tmov (%[b],%[t]), %[u]\n\t"
#elif defined(__aarch64__)
#define SCAT(k) "ldr %x[t], [%x[p], #" #k "]\n\tldr %x[u], [%x[b], %x[t]]\n\t"
#endif

#define SCAT_CLOBBERS "cc", "memory"

/* The kernel: 32 loads over the offsets. */
#if defined(EPI_ASM)
static void scatter(epi_bench_ctx *c, uint64_t n)
{
	char *p = c->buf2, *start = c->buf2, *end = c->aux;
	const char *b = c->buf;
	uint64_t t, u;
	if (n)
		__asm__ volatile("1:\n\t" EPI_OFFS32(SCAT) EPI_WRAP256 EPI_LOOP
				 : [p] "+&r"(p), [t] "=&r"(t), [u] "=&r"(u), [n] EPI_NCON(n)
				 : [start] "r"(start), [end] "r"(end), [b] "r"(b)
				 : SCAT_CLOBBERS);
}
#else
static void scatter(epi_bench_ctx *c, uint64_t n)
{
	char *p = c->buf2, *start = c->buf2, *end = c->aux;
	const char *b = c->buf;
	volatile uint64_t u;
	for (; n; n--) {
		const uint64_t *q = (const uint64_t *)p;
		for (int i = 0; i < EPI_UNROLL; i++)
			u = *(volatile const uint64_t *)(b + q[i]);
		p += 256;
		if (p >= end)
			p = start;
	}
	(void)u;
}
#endif

/* Page walks: a load from each of PAGES pages STEP bytes apart, in
 * address order, as a walk down a long column of a large matrix reads
 * them. One line per page, each at another offset when SPREAD (the lines
 * fill every cache set alike and stay cached: at most 512 KiB in all), so
 * that what is measured is the translation; else all at the page's first
 * byte. The mapping is as a program's malloc'd matrix gets it: where the
 * system gives large pages, the kernels measure those. */
static int setup_pages(const epi_kernel *k, epi_bench_ctx *c, size_t pages, size_t step, int spread, char *err)
{
	pages = (pages + 31) / 32 * 32; /* whole iterations */
	size_t len = pages * step;
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uint64_t *at = NULL;
	if (m == MAP_FAILED || posix_memalign((void **)&at, 4096, pages * sizeof *at) != 0) {
		if (m != MAP_FAILED)
			munmap(m, len);
		return epi_error(err, "cannot map %zu MiB for the %s kernel", len >> 20, k->name);
	}
	for (size_t i = 0; i < pages; i++) {
		at[i] = i * step + (spread ? i % 64 * 64 : 0);
		((char *)m)[at[i]] = 1; /* the page mapped, as the matrix's are */
	}
	c->buf = m;
	c->bytes = len;
	/* the pages walked, mapped again before each run (epi_bench_touch),
	 * and no others */
	c->mapped = len;
	c->two = 0;
	c->touch_step = step;
	c->buf2 = at;
	epi_bench_walk_len(c, pages); /* the end of whole iterations */
	return 0;
}

/* More pages than any core's second-level TLB holds (EPI_WALK_PAGES), 16
 * KiB apart (a row of 2,000 doubles; a walk costs more the farther apart
 * its pages, as their page-table entries share fewer lines): each load
 * waits for the page tables. */
static int setup_walk(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	return setup_pages(k, c, EPI_WALK_PAGES, (size_t)16 << 10, 1, err);
}

/* The same pages 64 KiB apart (a row of 8,192 doubles): each walk's
 * page-table entry on a line of its own, where at 16 KiB two share one. */
static int setup_walkfar(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	return setup_pages(k, c, EPI_WALK_PAGES, (size_t)64 << 10, 1, err);
}

/* Pages in a row, SHARE percent of what this processor's second-level
 * TLB maps (as calibration measured it, else epi_tlb_pages): the TLB's
 * miss curve, from pages that the first level does not hold but the
 * second does, to a walk that outgrows the second. */
static int setup_tlb(const epi_kernel *k, epi_bench_ctx *c, int share, char *err)
{
	size_t reach = c->tlb_pages ? c->tlb_pages : epi_tlb_pages(2);
	return setup_pages(k, c, reach * (size_t)share / 100, 4096, 1, err);
}

int epi_bench_walk(const epi_kernel *k, epi_bench_ctx *c, size_t pages, char *err)
{
	return setup_pages(k, c, pages, 4096, 1, err);
}

void epi_bench_walk_len(epi_bench_ctx *c, size_t pages)
{
	c->aux = (char *)c->buf2 + pages / 32 * 256;
}

/* EPI_SET_LINES lines a page apart, all at one offset: a column walk down
 * rows a whole number of pages long (1,024 doubles, 4 KiB apart or a
 * multiple) whose lines fall in one set of L1 (a page's worth of sets on
 * a cache indexed within the page), far more than its ways hold: each
 * access misses L1, and its misses to the one set wait for each other.
 * Within L2 and the second-level TLB. */
static int setup_set(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	return setup_pages(k, c, EPI_SET_LINES, 4096, 0, err);
}

static void teardown_walk(epi_bench_ctx *c)
{
	if (c->buf)
		munmap(c->buf, c->bytes);
	free(c->buf2);
	c->buf = c->buf2 = NULL;
	c->mapped = 0;
}

/* A page kernel: NAME, WHAT it loads, at LEVEL, set up by SETUP. */
#define PAGE_KERNEL(id, nm, wh, lvl, su)                                                                     \
	const epi_kernel id = {                                                                             \
		.name = nm,                                                                                 \
		.what = wh,                                                                                 \
		.seq = EPI_ISA("mov 8k(%rsi), %rdx; mov (%rdi,%rdx), %rax", "ldr x2, [x1, #8k]; ldr x0, [x3, x2]"), \
		.unit = EPI_UNIT_OP, .level = lvl, .units = EPI_UNROLL, .setup = su, .run = scatter,        \
		.teardown = teardown_walk,                                                                  \
	}

PAGE_KERNEL(epi_k_load_page_walk, "load.page.walk",
	    "a load from each of 8,192 pages 16 KiB apart, in order (independent loads, lines cached): "
	    "a column walk longer than the TLB reaches",
	    EPI_LVL_DRAM, setup_walk);
PAGE_KERNEL(epi_k_load_page_walkfar, "load.page.walkfar",
	    "a load from each of 8,192 pages 64 KiB apart, in order (independent loads, lines cached): "
	    "a walk whose page-table entries share no line",
	    EPI_LVL_DRAM, setup_walkfar);

PAGE_KERNEL(epi_k_load_l2_set, "load.l2.set",
	    "a load from each of 128 lines 4 KiB apart, in order (independent loads): a column walk "
	    "whose lines all fall in one set of L1",
	    EPI_LVL_L2, setup_set);

#define TLB_KERNEL(share)                                                                                   \
	static int setup_tlb##share(const epi_kernel *k, epi_bench_ctx *c, char *err)                       \
	{                                                                                                   \
		return setup_tlb(k, c, share, err);                                                         \
	}                                                                                                   \
	PAGE_KERNEL(epi_k_load_page_tlb##share, "load.page.tlb" #share,                                    \
		    "a load from each page in a row, " #share "% of the pages the second-level TLB "       \
		    "maps (measured, else cpuid), in order (independent loads, lines cached)",             \
		    EPI_LVL_L2, setup_tlb##share);
EPI_TLB_SHARES(TLB_KERNEL)

/* Lines in a random order from a level (a walk down a matrix's columns,
 * whose lines no prefetcher follows). */
#define SCATTER_K(var, nm, lvl, wh)                                                                      \
	const epi_kernel var = {                                                                         \
		.name = nm,                                                                              \
		.what = "a 64-byte line, one load from each in a random order (independent loads), " wh, \
		.seq = EPI_ISA("mov 8k(%rsi), %rdx; mov (%rdi,%rdx), %rax", "ldr x2, [x1, #8k]; ldr x0, [x3, x2]"), \
		.unit = EPI_UNIT_OP, .level = lvl, .units = EPI_UNROLL, .setup = setup_scatter, .run = scatter,  \
		.teardown = epi_bench_free,                                                              \
	}

SCATTER_K(epi_k_load_l3_scatter, "load.l3.scatter", EPI_LVL_L3, "buffer in L3");
SCATTER_K(epi_k_load_dram_scatter, "load.dram.scatter", EPI_LVL_DRAM, "buffer in DRAM");

#define LOAD_K(var, nm, lvl, wh)                                                                        \
	const epi_kernel var = {.name = nm, .what = "8-byte load in address order, " wh,                 \
				.seq = EPI_ISA("mov 8k(%rsi), %rax", "ldr x0, [x1, #8k]"), .unit = EPI_UNIT_OP, .level = lvl,          \
				.units = EPI_UNROLL, .setup = setup_seq, .run = thr, .teardown = epi_bench_free}
#define CHASE_K(var, nm, lvl, wh)                                                                       \
	const epi_kernel var = {.name = nm, .what = "load-to-use, pointer chasing, " wh,                 \
				.seq = EPI_ISA("mov (%rax), %rax", "ldr x0, [x0]"), .unit = EPI_UNIT_OP, .level = lvl, .latency = 1, \
				.units = EPI_UNROLL, .setup = setup_chase, .run = lat, .teardown = epi_bench_free}

#define LINE_K(var, nm, lvl, wh)                                                                        \
	const epi_kernel var = {.name = nm, .what = "a 64-byte line, one load from each in address order, " wh,  \
				.seq = EPI_ISA("mov 64k(%rsi), %rax", "ldr x0, [x1, #64k]"), .unit = EPI_UNIT_OP,          \
				.level = lvl, .units = EPI_UNROLL, .setup = setup_seq, .run = thr_line,                    \
				.teardown = epi_bench_free}

LINE_K(epi_k_load_l2_line, "load.l2.line", EPI_LVL_L2, "buffer in L2");
LINE_K(epi_k_load_l3_line, "load.l3.line", EPI_LVL_L3, "buffer in L3");
LINE_K(epi_k_load_dram_line, "load.dram.line", EPI_LVL_DRAM, "buffer in DRAM");
LOAD_K(epi_k_load_l1, "load.l1", EPI_LVL_L1, "buffer in L1");
LOAD_K(epi_k_load_l2, "load.l2", EPI_LVL_L2, "buffer in L2");
LOAD_K(epi_k_load_l3, "load.l3", EPI_LVL_L3, "buffer in L3");
LOAD_K(epi_k_load_dram, "load.dram", EPI_LVL_DRAM, "buffer in DRAM");
CHASE_K(epi_k_load_l1_lat, "load.l1.lat", EPI_LVL_L1, "buffer in L1");
CHASE_K(epi_k_load_l2_lat, "load.l2.lat", EPI_LVL_L2, "buffer in L2");
CHASE_K(epi_k_load_l3_lat, "load.l3.lat", EPI_LVL_L3, "buffer in L3");
CHASE_K(epi_k_load_dram_lat, "load.dram.lat", EPI_LVL_DRAM, "buffer in DRAM");

const epi_kernel epi_k_load_fp_lat = {
	.name = "load.fp.lat",
	.what = "load-to-use into a floating-point register, pointer chasing, buffer in L1 (the pointer moved "
		"back to a general register)",
	.seq = EPI_ISA("movq (%rax), %xmm0; movq %xmm0, %rax", "ldr d0, [x0]; fmov x0, d0"), .unit = EPI_UNIT_OP,
	.level = EPI_LVL_L1, .latency = 1, .units = EPI_UNROLL, .setup = setup_chase, .run = lat_fp,
	.teardown = epi_bench_free,
};

const epi_kernel epi_k_load_idx_lat = {
	.name = "load.idx.lat",
	.what = "load-to-use, chasing indices, buffer in L1 (each address a base plus 8 times the index loaded last)",
	.seq = EPI_ISA("mov (%rbx,%rax,8), %rax", "ldr x0, [x1, x0, lsl #3]"), .unit = EPI_UNIT_OP,
	.level = EPI_LVL_L1, .latency = 1, .units = EPI_UNROLL, .setup = setup_chase_idx, .run = lat_idx,
	.teardown = epi_bench_free,
};

const epi_kernel epi_k_load_fp_l1 = {
	.name = "load.fp.l1", .what = "8-byte load into a floating-point register, in address order, buffer in L1",
	.seq = EPI_ISA("movsd 8k(%rsi), %xmm0", "ldr d0, [x1, #8k]"), .unit = EPI_UNIT_OP, .level = EPI_LVL_L1,
	.units = EPI_UNROLL, .setup = setup_seq, .run = thr_fp, .teardown = epi_bench_free,
};

const epi_kernel epi_k_load_mix = {
	.name = "load.mix.l1", .what = "two 8-byte loads and a store, independent, buffer in L1: per access",
	.seq = EPI_ISA("mov 24k(%rsi), %rax; mov 24k+8(%rsi), %rax; mov %rdx, 24k+16(%rsi)",
		       "ldr x0, [x1, #24k]; ldr x0, [x1, #24k+8]; str x2, [x1, #24k+16]"),
	.unit = EPI_UNIT_OP, .level = EPI_LVL_L1, .units = 30, .setup = setup_seq, .run = mixed,
	.teardown = epi_bench_free,
};
