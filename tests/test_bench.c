/* The microbenchmark kernels: every kernel sets up, runs and tears down
 * cleanly under the sanitizers (memory kernels stay inside their buffers),
 * the pointer chase visits every cache line of its buffer in one cycle,
 * the scattered loads every line once in no order,
 * and buffer sizes follow the cache sizes read from a fake sysfs tree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "bench/bench.h"
#include "machine/cpu.h"
#include "tests/fakehw.h"

static void test_every_kernel_runs(void **st)
{
	int n;
	const epi_kernel *const *k = epi_kernels(&n);
	assert_true(n >= 30);
	assert_string_equal(k[0]->name, "iter");
	for (int i = 0; i < n; i++) {
		epi_bench_ctx c = {0};
		char err[512];
		/* small buffers: the same code paths, quickly */
		c.bytes = k[i]->level == EPI_LVL_NONE ? 0 : 64 << 10;
		if (k[i]->setup && k[i]->setup(k[i], &c, err) < 0)
			fail_msg("%s: %s", k[i]->name, err);
		double units = k[i]->units_of ? k[i]->units_of(&c) : k[i]->units;
		assert_true(units > 0);
		assert_non_null(k[i]->seq);
		assert_non_null(k[i]->what);
		assert_ptr_equal(epi_kernel_find(k[i]->name), k[i]);
		k[i]->run(&c, 0); /* no iterations: returns at once */
		k[i]->run(&c, 3);
		if (k[i]->teardown)
			k[i]->teardown(&c);
	}
	assert_null(epi_kernel_find("nosuch"));
}

static void test_paper_kernels_run(void **st)
{
	int n;
	const epi_kernel *const *k = epi_kernels_paper(&n);
	const char *want[] = {"add", "mul", "div", "cmp", "load", "store", "memcpy", "malloc", "print"};
	assert_int_equal(n, 9);
	for (int i = 0; i < n; i++) {
		assert_string_equal(k[i]->name, want[i]);
		epi_bench_ctx c = {0};
		char err[512];
		if (k[i]->setup && k[i]->setup(k[i], &c, err) < 0)
			fail_msg("%s: %s", k[i]->name, err);
		k[i]->run(&c, 2);
		if (k[i]->teardown)
			k[i]->teardown(&c);
	}
}

static void test_chase_is_one_cycle(void **st)
{
	const epi_kernel *k = epi_kernel_find("load.l2.lat");
	epi_bench_ctx c = {.bytes = 256 << 10};
	char err[512];
	assert_int_equal(k->setup(k, &c, err), 0);
	size_t lines = c.bytes / 64, steps = 0;
	void *start = c.aux, *p = start;
	do {
		p = *(void **)p;
		assert_true((char *)p >= (char *)c.buf && (char *)p < (char *)c.buf + c.bytes);
		assert_int_equal(((char *)p - (char *)c.buf) % 64, 0);
		steps++;
	} while (p != start && steps <= lines);
	assert_int_equal(steps, lines);
	k->teardown(&c);
}

/* One step of a chase from S: the pointer S points to; the index word S
 * of the buffer holds. */
static uintptr_t by_pointer(const epi_bench_ctx *c, uintptr_t s)
{
	(void)c;
	return *(const uintptr_t *)s;
}

static uintptr_t by_index(const epi_bench_ctx *c, uintptr_t s)
{
	assert_true(s % 8 == 0 && s < c->bytes / 8);
	return (uintptr_t)((const uint64_t *)c->buf)[s];
}

/* Chase kernel NAME follows its ring by STEP: once round the buffer's
 * lines it is back at the start, one step of 32 loads further it is
 * where 32 steps lead */
static void chase_follows(const char *name, uintptr_t (*step)(const epi_bench_ctx *, uintptr_t))
{
	const epi_kernel *k = epi_kernel_find(name);
	assert_non_null(k);
	assert_true(k->latency);
	epi_bench_ctx c = {.bytes = 256 << 10};
	char err[512];
	assert_int_equal(k->setup(k, &c, err), 0);
	size_t lines = c.bytes / 64;
	uintptr_t start = (uintptr_t)c.aux, s = start;
	for (int i = 0; i < 32; i++)
		s = step(&c, s);
	k->run(&c, lines / 32);
	assert_true((uintptr_t)c.aux == start);
	k->run(&c, 1);
	assert_true((uintptr_t)c.aux == s);
	assert_true(s != start);
	k->teardown(&c);
}

/* the chase through a floating-point register, the chase by index */
static void test_chases_follow(void **st)
{
	(void)st;
	chase_follows("load.fp.lat", by_pointer);
	chase_follows("load.idx.lat", by_index);
}

/* the scattered kernel's offsets: every line of its buffer once, not in
 * address order */
static void test_scatter_visits_every_line(void **st)
{
	(void)st;
	const epi_kernel *k = epi_kernel_find("load.dram.scatter");
	assert_non_null(k);
	epi_bench_ctx c = {.bytes = 256 << 10};
	char err[512];
	assert_int_equal(k->setup(k, &c, err), 0);
	size_t lines = c.bytes / 64, in_order = 0;
	const uint64_t *at = c.buf2;
	char *seen = calloc(lines, 1);
	for (size_t i = 0; i < lines; i++) {
		assert_true(at[i] % 64 == 0 && at[i] < c.bytes);
		assert_false(seen[at[i] / 64]);
		seen[at[i] / 64] = 1;
		in_order += i > 0 && at[i] == at[i - 1] + 64;
	}
	assert_true(in_order < lines / 16);
	assert_ptr_equal(c.aux, (char *)c.buf2 + lines * 8);
	free(seen);
	k->run(&c, 2 * lines / 32); /* twice round the offsets */
	k->teardown(&c);
}

/* A page kernel NAME set up on C: its offsets (c->buf2), how many into *N */
static const epi_kernel *page_kernel(const char *name, epi_bench_ctx *c, size_t *n)
{
	const epi_kernel *k = epi_kernel_find(name);
	assert_non_null(k);
	*c = (epi_bench_ctx){.bytes = 1 << 20};
	char err[512];
	assert_int_equal(k->setup(k, c, err), 0);
	*n = (size_t)((const char *)c->aux - (const char *)c->buf2) / 8;
	return k;
}

/* the kernel runs twice round its N offsets, and unmaps */
static void page_kernel_done(const epi_kernel *k, epi_bench_ctx *c, size_t n)
{
	k->run(c, 2 * n / 32);
	k->teardown(c);
	assert_null(c->buf);
}

/* the page-walk kernel's offsets: each on a page of its own, in address
 * order, pages more than a TLB maps; their lines at 64 offsets in turn
 * (every cache set alike); the kernel runs round them and unmaps */
static void test_page_walk_offsets(void **st)
{
	(void)st;
	epi_bench_ctx c;
	size_t n, sets[64] = {0};
	const epi_kernel *k = page_kernel("load.page.walk", &c, &n);
	const uint64_t *at = c.buf2;
	assert_true(n >= 8192);
	for (size_t i = 0; i < n; i++) {
		assert_true(at[i] < c.bytes);
		if (i > 0)
			assert_true(at[i] / 4096 > at[i - 1] / 4096 + 1); /* pages apart, in order */
		sets[at[i] / 64 % 64]++;
	}
	for (int s = 0; s < 64; s++)
		assert_true(sets[s] == n / 64);
	page_kernel_done(k, &c, n);
}

/* the crowded-set kernel's lines: EPI_SET_LINES of them, a page apart in
 * address order, all at a page's first byte (one set of an L1 indexed
 * within the page) */
static void test_set_offsets(void **st)
{
	(void)st;
	epi_bench_ctx c;
	size_t n;
	const epi_kernel *k = page_kernel("load.l2.set", &c, &n);
	assert_int_equal(k->level, EPI_LVL_L2);
	const uint64_t *at = c.buf2;
	assert_int_equal(n, EPI_SET_LINES);
	for (size_t i = 0; i < n; i++)
		assert_true(at[i] == i * 4096 && at[i] < c.bytes);
	page_kernel_done(k, &c, n);
}

/* the TLB's miss curve is measured beside its cliff, at 75% and 110% of
 * the pages the second level maps (and at 125%), not at 100% */
static void test_tlb_points(void **st)
{
	(void)st;
	static const char *const want[] = {"load.page.tlb50", "load.page.tlb75", "load.page.tlb110",
					   "load.page.tlb125", "load.page.tlb150"};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		assert_non_null(epi_kernel_find(want[i]));
	assert_null(epi_kernel_find("load.page.tlb100"));
}

/* the TLBs' entries as the processor gives them, a second level that is
 * no reading of the hardware (a VM's: 96 and 128) and what is not given
 * taken as the smallest of current cores' */
static void test_tlb_sizes(void **st)
{
	(void)st;
	assert_int_equal(epi_tlb_from(1, 72, 3072), 72);
	assert_int_equal(epi_tlb_from(2, 72, 3072), 3072);
	assert_int_equal(epi_tlb_from(2, 96, 128), 1536);
	assert_int_equal(epi_tlb_from(1, 96, 128), 96);
	assert_int_equal(epi_tlb_from(2, 64, 256), 256);
	assert_int_equal(epi_tlb_from(2, 64, 255), 1536);
	assert_int_equal(epi_tlb_from(2, 0, 2048), 2048);
	assert_int_equal(epi_tlb_from(1, 0, 0), 64);
	assert_int_equal(epi_tlb_from(2, 0, 0), 1536);
}

/* the second-level TLB's sets: AMD's ways from its code (Zen 3: 2,048
 * entries, code 6, 8 ways), none for a fully associative one or a code
 * that stands for no ways; ways that do not divide the entries, unknown */
static void test_tlb_sets(void **st)
{
	(void)st;
	assert_int_equal(epi_amd_ways(6), 8);
	assert_int_equal(epi_amd_ways(8), 16);
	assert_int_equal(epi_amd_ways(5), 6);
	assert_int_equal(epi_amd_ways(0xf), 0);
	assert_int_equal(epi_amd_ways(7), 0);
	assert_int_equal(epi_amd_ways(0), 0);
	assert_int_equal(epi_tlb_sets_from(64, 2048, epi_amd_ways(6)), 256);
	assert_int_equal(epi_tlb_sets_from(72, 3072, epi_amd_ways(8)), 192);
	assert_int_equal(epi_tlb_sets_from(0, 2048, epi_amd_ways(6)), 256);
	assert_int_equal(epi_tlb_sets_from(64, 2048, epi_amd_ways(0xf)), 0);
	assert_int_equal(epi_tlb_sets_from(64, 1000, 16), 0);
	assert_int_equal(epi_tlb_sets_from(64, 0, 8), 0);
	/* a hypervisor's leaf (a Zen 5 guest's: 96 entries, then 128 of 8
	 * ways) is not believed for the sets either */
	assert_int_equal(epi_tlb_sets_from(96, 128, epi_amd_ways(6)), 0);
}

/* the TLB curve's kernels: each a walk over its share of the pages the
 * second-level TLB maps (epi_tlb_pages), in whole iterations, a page
 * each in a row, in the default set */
static void test_tlb_curve_offsets(void **st)
{
	(void)st;
	const double reach = epi_tlb_pages(2);
	static const int share[] = {50, 75, 110, 125, 150};
	for (int i = 0; i < 5; i++) {
		char name[32];
		snprintf(name, sizeof name, "load.page.tlb%d", share[i]);
		epi_bench_ctx c;
		size_t n;
		const epi_kernel *k = page_kernel(name, &c, &n);
		const uint64_t *at = c.buf2;
		assert_true(n % 32 == 0 && n >= reach * share[i] / 100 && n < reach * share[i] / 100 + 32);
		for (size_t j = 1; j < n; j++)
			assert_true(at[j] / 4096 == at[j - 1] / 4096 + 1);
		page_kernel_done(k, &c, n);
	}
}

/* the -O0 statement kernel does its statement: with x all ones and a = 1,
 * every statement adds one to an element of y */
static void test_frame_statement(void **st)
{
	(void)st;
	const epi_kernel *k = epi_kernel_find("load.mix.frame");
	assert_non_null(k);
	epi_bench_ctx c = {0};
	char err[512];
	assert_int_equal(k->setup(k, &c, err), 0);
	double *x = c.buf, *y = x + 512, sum = 0;
	for (int i = 0; i < 512; i++)
		x[i] = 1;
	k->run(&c, 48); /* 1,536 statements: three rounds of y */
	for (int i = 0; i < 512; i++)
		sum += y[i];
	assert_true(sum == 48 * 32);
	assert_true(y[0] == 3 && y[511] == 3);
	k->teardown(&c);
}

/* -O0 code's column walk: as many rows as half the pages the
 * second-level TLB maps (256 at least), a page and a line apart, so that
 * each access turns a page, over EPI_FRAME_COLS columns of them; the row
 * kernel the same code along one row, in L1, and the element kernel the
 * row's with its sums in an array. Each runs its iterations
 * within its buffer (the sanitizer's build checks every access) */
static void test_frame_walks(void **st)
{
	(void)st;
	const epi_kernel *col = epi_kernel_find("load.frame.col"), *row = epi_kernel_find("load.frame.row");
	const epi_kernel *elem = epi_kernel_find("load.frame.elem");
	assert_non_null(col);
	assert_non_null(row);
	assert_non_null(elem);
	const size_t reach[] = {1536, 300};
	for (int i = 0; i < 2; i++) {
		size_t rows = reach[i] / 2 < 256 ? 256 : reach[i] / 2;
		epi_bench_ctx c = {.tlb_pages = reach[i]};
		char err[512];
		assert_int_equal(col->setup(col, &c, err), 0);
		assert_true(col->units_of(&c) == (double)rows * EPI_FRAME_COLS);
		assert_true(c.mapped >= rows * (4096 + 64) && c.mapped < rows * (4096 + 64) + 4096);
		col->run(&c, 1);
		col->teardown(&c);
		epi_bench_ctx r = {.tlb_pages = reach[i]};
		assert_int_equal(row->setup(row, &r, err), 0);
		assert_true(row->units_of(&r) == (double)rows * EPI_FRAME_COLS);
		assert_true(r.mapped < 4096 + (rows + EPI_FRAME_COLS) * sizeof(double));
		row->run(&r, 2);
		row->teardown(&r);
		/* the row's loop with its sums in t[j * m + j]: within t */
		epi_bench_ctx e = {.tlb_pages = reach[i]};
		assert_int_equal(elem->setup(elem, &e, err), 0);
		assert_true(elem->units_of(&e) == (double)rows * EPI_FRAME_COLS);
		elem->run(&e, 2);
		elem->teardown(&e);
		assert_null(e.aux);
	}
}

/* the first-touch kernel maps what calibration gives a DRAM kernel (more
 * than the caches hold), takes a fresh page fault on every page of it at
 * each iteration, and prices it per MiB */
static void test_touch_faults_every_page(void **st)
{
	(void)st;
	const epi_kernel *k = epi_kernel_find("malloc.touch");
	assert_non_null(k);
	assert_int_equal(k->level, EPI_LVL_DRAM);
	epi_bench_ctx c = {.bytes = 8 << 20}; /* what calibration sets; nothing to set up */
	assert_null(k->setup);
	assert_true(k->units_of(&c) == 8);
	struct rusage a, b;
	getrusage(RUSAGE_SELF, &a);
	k->run(&c, 2);
	getrusage(RUSAGE_SELF, &b);
	/* a fault per 4 KiB page, or per 2 MiB where transparent huge pages
	 * are always on */
	char thp[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (f) {
		if (!fgets(thp, sizeof thp, f))
			thp[0] = 0;
		fclose(f);
	}
	long pages = strstr(thp, "[always]") ? 4 : 2048;
	assert_true(b.ru_minflt - a.ru_minflt >= 2 * pages);
}

/* Pages of LEN bytes at P that are mapped (mincore). */
static int resident(void *p, size_t len)
{
	unsigned char v[64];
	assert_true(len / 4096 <= sizeof v);
	assert_int_equal(mincore(p, len, v), 0);
	int n = 0;
	for (size_t i = 0; i < len / 4096; i++)
		n += v[i] & 1;
	return n;
}

/* Whether the system maps transparent huge pages unasked. */
static int thp_always(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128] = "";
	if (f) {
		if (!fgets(line, sizeof line, f))
			line[0] = 0;
		fclose(f);
	}
	return strstr(line, "[always]") != NULL;
}

/* what calibration reads before each run: every page of both buffers that
 * epi_bench_alloc made, mapped again after they were dropped; nothing of
 * buffers it did not make, nor after they are freed */
static void test_touch_maps_the_buffers(void **st)
{
	(void)st;
	char err[256];
	epi_bench_ctx c = {0};
	size_t len = 40 * 4096;
	assert_int_equal(epi_bench_alloc(&c, len, 1, err), 0);
	assert_true(c.mapped == len && c.two);
	assert_int_equal(madvise(c.buf, len, MADV_DONTNEED), 0);
	assert_int_equal(madvise(c.buf2, len, MADV_DONTNEED), 0);
	assert_int_equal(resident(c.buf, len) + resident(c.buf2, len), 0);
	epi_bench_touch(&c);
	assert_int_equal(resident(c.buf, len), 40);
	assert_int_equal(resident(c.buf2, len), 40);
	epi_bench_free(&c);
	assert_true(c.mapped == 0 && !c.two);
	/* a kernel's own mapping that it did not ask to be touched: left alone */
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(m != MAP_FAILED);
	epi_bench_ctx own = {.buf = m, .bytes = len};
	epi_bench_touch(&own);
	assert_int_equal(resident(m, len), 0);
	munmap(m, len);
	/* a page walk's: the pages it walks (16 KiB apart), and no others
	 * (where the system maps large pages unasked, all of them) */
	const epi_kernel *k = epi_kernel_find("load.page.walk");
	assert_non_null(k);
	epi_bench_ctx w = {0};
	assert_int_equal(k->setup(k, &w, err), 0);
	size_t part = 64 * 4096;
	int walked = thp_always() ? 64 : 16;
	assert_int_equal(resident(w.buf, part), walked);
	assert_int_equal(madvise(w.buf, w.bytes, MADV_DONTNEED), 0);
	assert_int_equal(resident(w.buf, part), 0);
	epi_bench_touch(&w);
	assert_int_equal(resident(w.buf, part), walked);
	k->teardown(&w);
	assert_true(w.mapped == 0 && w.buf == NULL);
}

/* AMD's legacy leaves: L1d and L2 where the deterministic leaves left
 * them unknown (a Zen 5 guest's: 48 KiB and 1 MiB), nothing over what is
 * known; an Intel's 0x80000005 (0) gives no L1 */
static void test_cache_legacy(void **st)
{
	(void)st;
	epi_caches c = {0};
	epi_caches_from_amd(0x300c0140, 0x04006140, &c);
	assert_true(c.l1 == 48 << 10 && c.l2 == 1 << 20 && c.l3 == 0);
	epi_caches k = {.l1 = 32 << 10, .l2 = 0, .l3 = 8 << 20};
	epi_caches_from_amd(0x300c0140, 0x02006140, &k);
	assert_true(k.l1 == 32 << 10 && k.l2 == 512 << 10 && k.l3 == 8 << 20);
	epi_caches in = {0};
	epi_caches_from_amd(0, 0x05008040, &in);
	assert_true(in.l1 == 0 && in.l2 == 1280 << 10);
}

/* the deterministic cache parameters leaf decoded: a Zen 3's subleaves
 * (AMD's 0x8000001D) and an Intel L2 of 20 ways (leaf 4) */
static void test_cache_leaf(void **st)
{
	(void)st;
	int level = 0;
	assert_int_equal(epi_cache_from_leaf(0x121, 0x01c0003f, 0x3f, &level), 32 << 10);
	assert_int_equal(level, 1);
	assert_int_equal(epi_cache_from_leaf(0x122, 0x01c0003f, 0x3f, &level), 0); /* instructions */
	assert_int_equal(epi_cache_from_leaf(0x143, 0x01c0003f, 0x3ff, &level), 512 << 10);
	assert_int_equal(level, 2);
	assert_int_equal(epi_cache_from_leaf(0x4163, 0x03c0003f, 0x7fff, &level), 32 << 20);
	assert_int_equal(level, 3);
	assert_int_equal(epi_cache_from_leaf(0x143, (19u << 22) | 63, 1023, &level), 1280 << 10);
	assert_int_equal(epi_cache_from_leaf(0, 0, 0, &level), 0); /* past the last */
}

static void test_levels_from_sysfs(void **st)
{
	fake_root();
	const char *idx[][4] = {{"0", "1", "Data", "48K"},
				{"1", "1", "Instruction", "32K"},
				{"2", "2", "Unified", "2048K"},
				{"3", "3", "Unified", "96M"}};
	for (int i = 0; i < 4; i++) {
		char rel[128], v[32];
		const char *f[] = {"level", "type", "size"};
		for (int j = 0; j < 3; j++) {
			snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu2/cache/index%s/%s", idx[i][0], f[j]);
			snprintf(v, sizeof v, "%s\n", idx[i][j + 1]);
			fake_put(rel, v);
		}
	}
	epi_caches cs;
	epi_caches_read(2, &cs);
	assert_true(cs.l1 == 48 << 10 && cs.l2 == 2 << 20 && cs.l3 == 96ull << 20);
	assert_int_equal(epi_level_bytes(cs.l1, cs.l2, cs.l3, EPI_LVL_L1), 24 << 10);
	assert_int_equal(epi_level_bytes(cs.l1, cs.l2, cs.l3, EPI_LVL_L2), 1 << 20);
	/* L3: half of it, but no more than 4 x L2 (here 8 MiB) */
	assert_int_equal(epi_level_bytes(cs.l1, cs.l2, cs.l3, EPI_LVL_L3), 8 << 20);
	assert_int_equal(epi_level_bytes(cs.l1, 256 << 10, 8 << 20, EPI_LVL_L3), 4 << 20);
	assert_int_equal(epi_level_bytes(cs.l1, 4 << 20, 128ull << 20, EPI_LVL_L3), 16 << 20);
	assert_int_equal(epi_level_bytes(cs.l1, 512 << 10, 480ull << 20, EPI_LVL_L3), 8 << 20);
	assert_int_equal(epi_level_bytes(cs.l1, cs.l2, cs.l3, EPI_LVL_DRAM), 384ull << 20);
	/* a CPU without cache information: typical sizes, DRAM at least 64 MiB */
	epi_caches_read(5, &cs);
	assert_true(cs.l1 == 0 && cs.l2 == 0 && cs.l3 == 0);
	assert_int_equal(epi_level_bytes(0, 0, 0, EPI_LVL_L1), 16 << 10);
	assert_int_equal(epi_level_bytes(0, 0, 0, EPI_LVL_DRAM), 64 << 20);
	fake_root_free();
}

/* L3's reach from lines' times over growing buffers, the last memory's:
 * where a line takes EPI_L3_REACH_SHARE of the way from the first size's
 * time to the last's, in proportion between the sizes around it; unknown
 * (0) when the last size is not memory's step slower */
static void test_l3_serves(void **st)
{
	(void)st;
	const size_t b[7] = {8 << 20, 11 << 20, 16 << 20, 22 << 20, 32 << 20, 45 << 20, 64 << 20};
	const double flat[7] = {2.0, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6}, curve[7] = {2.0, 2.1, 2.4, 3.0, 5.0, 7.0, 8.0},
		     noisy_first[7] = {2.0, 2.6, 2.0, 2.0, 5.0, 7.0, 8.0};
	assert_true(epi_l3_serves(b, flat, 7) == 0);
	/* a quarter of the way from 2 to 8: 3.5, a quarter of the way from
	 * 22 MiB (3.0) to 32 MiB (5.0) */
	assert_true(EPI_L3_REACH_SHARE == 0.25);
	assert_true(epi_l3_serves(b, curve, 7) == ((22ull << 20) + (10ull << 20) / 4));
	/* a size slower by chance before the step does not end the reach */
	assert_true(epi_l3_serves(b, noisy_first, 7) == ((22ull << 20) + (10ull << 20) / 2));
	/* the step reached at the last size: the reach between it and the one before */
	const double late[3] = {2.0, 2.0, 4.0};
	assert_true(epi_l3_serves(b, late, 3) == ((11ull << 20) + (5ull << 20) / 4));
	assert_true(epi_l3_serves(b, curve, 1) == 0);
	assert_true(epi_l3_serves(b, curve, 0) == 0);
	const double none[2] = {0, 8};
	assert_true(epi_l3_serves(b, none, 2) == 0);
}

/* The second-level TLB's reach from a load's times over walks of growing
 * page counts: where the time leaves the plateau (the least of the first
 * quarter) by EPI_TLB_REACH_SHARE of the rise to the last walk's, from
 * where on all stay above, in proportion between the walks around it;
 * unknown (0) without a cliff of EPI_TLB_WALK_STEP */
static void test_tlb_reach(void **st)
{
	(void)st;
	const size_t p[10] = {1024, 1216, 1440, 1728, 2048, 2432, 2880, 3456, 4096, 4864};
	/* the plateau 0.5, the last 6.0: the threshold 0.5 + 0.55 = 1.05,
	 * a quarter of the way from 4096 (0.6) to 4864 (2.4) */
	const double cliff[10] = {0.5, 0.5, 0.55, 0.5, 0.55, 0.6, 0.55, 0.6, 0.6, 2.4};
	const double walks[12] = {0.5, 0.5, 0.55, 0.5, 0.55, 0.6, 0.55, 0.6, 0.6, 2.4, 4.0, 6.0};
	const size_t pw[12] = {1024, 1216, 1440, 1728, 2048, 2432, 2880, 3456, 4096, 4864, 5792, 6880};
	assert_true(EPI_TLB_REACH_SHARE == 0.1 && EPI_TLB_WALK_STEP == 3.0);
	assert_true(epi_tlb_reach(pw, walks, 12) == 4096 + 768 / 4);
	/* a walk slowed by chance on the plateau is not the cliff */
	double noisy[12];
	memcpy(noisy, walks, sizeof noisy);
	noisy[4] = 3.0;
	assert_true(epi_tlb_reach(pw, noisy, 12) == 4096 + 768 / 4);
	/* a slow first walk does not raise the plateau: the least of the
	 * first quarter is */
	noisy[0] = 0.9;
	assert_true(epi_tlb_reach(pw, noisy, 12) == 4096 + 768 / 4);
	/* the cliff at the last walk: the threshold 0.5 + 0.19 */
	assert_true(epi_tlb_reach(p, cliff, 10) == 4096 + (unsigned long long)(768 * (0.69 - 0.6) / 1.8));
	/* no cliff (large pages, a TLB beyond the walks), too few walks */
	const double flat[10] = {0.5, 0.5, 0.55, 0.5, 0.55, 0.6, 0.55, 0.6, 0.6, 1.4};
	assert_true(epi_tlb_reach(p, flat, 10) == 0);
	assert_true(epi_tlb_reach(pw, walks, 3) == 0);
	const double zero[4] = {0, 0, 0, 1};
	assert_true(epi_tlb_reach(p, zero, 4) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kernel_runs),
		cmocka_unit_test(test_paper_kernels_run),
		cmocka_unit_test(test_chase_is_one_cycle),
		cmocka_unit_test(test_chases_follow),
		cmocka_unit_test(test_scatter_visits_every_line),
		cmocka_unit_test(test_page_walk_offsets),
		cmocka_unit_test(test_set_offsets),
		cmocka_unit_test(test_tlb_points),
		cmocka_unit_test(test_tlb_sizes),
		cmocka_unit_test(test_tlb_sets),
		cmocka_unit_test(test_tlb_curve_offsets),
		cmocka_unit_test(test_frame_statement),
		cmocka_unit_test(test_frame_walks),
		cmocka_unit_test(test_touch_faults_every_page),
		cmocka_unit_test(test_touch_maps_the_buffers),
		cmocka_unit_test(test_tlb_reach),
		cmocka_unit_test(test_cache_legacy),
		cmocka_unit_test(test_cache_leaf),
		cmocka_unit_test(test_levels_from_sysfs),
		cmocka_unit_test(test_l3_serves),
	};
	return cmocka_run_group_tests_name("bench", tests, NULL, NULL);
}
