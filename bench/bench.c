/* bench: the registry of kernels, buffer sizes per cache level, and the
 * buffers memory kernels share. */
#include "bench/bench.h"
#include "model/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const epi_kernel epi_k_iter, epi_k_iter_split, epi_k_add_i64_lat, epi_k_add_i64, epi_k_add_f64_lat, epi_k_add_f64,
	epi_k_mul_i64_lat, epi_k_mul_i64, epi_k_mul_f64_lat, epi_k_mul_f64, epi_k_div_i64_lat, epi_k_div_i64,
	epi_k_div_i32, epi_k_div_i32_lat, epi_k_div_f64_lat, epi_k_div_f64, epi_k_div_f32, epi_k_div_f32_lat, epi_k_cmp_i64_lat, epi_k_cmp_i64,
	epi_k_cmp_f64, epi_k_bit_i64_lat, epi_k_bit_i64, epi_k_load_l1, epi_k_load_l2, epi_k_load_l3,
	epi_k_load_dram, epi_k_load_l1_lat, epi_k_load_l2_lat, epi_k_load_l3_lat, epi_k_load_dram_lat,
	epi_k_store_l1, epi_k_store_l2, epi_k_store_l3, epi_k_store_dram, epi_k_memcpy_l1, epi_k_memcpy_l2,
	epi_k_memcpy_l3, epi_k_memcpy_dram, epi_k_malloc_call, epi_k_malloc, epi_k_print, epi_k_fwd_i64_lat,
	epi_k_fwd_f64_lat, epi_k_load_l2_line, epi_k_load_l3_line, epi_k_load_dram_line, epi_k_malloc_touch,
	epi_k_fwd_fail_lat, epi_k_branch_miss, epi_k_fwd_op_lat, epi_k_load_mix, epi_k_load_fp_l1, epi_k_load_fp_lat, epi_k_load_idx_lat, epi_k_load_dram_scatter,
	epi_k_load_page_walk, epi_k_load_page_walkfar, epi_k_load_mix_frame,
	epi_k_load_l3_near, epi_k_load_dram_near, epi_k_load_l3_scatter, epi_k_max_f64_lat, epi_k_load_l2_set, epi_k_add_f64_window, epi_k_add_f64_mix, epi_k_load_fwdfp_window,
	epi_k_load_frame_col, epi_k_load_frame_row, epi_k_load_frame_elem;
#define TLB_EXTERN(share) extern const epi_kernel epi_k_load_page_tlb##share;
EPI_TLB_SHARES(TLB_EXTERN)
#define TLB_REF(share) &epi_k_load_page_tlb##share,

static const epi_kernel *const all[] = {
	&epi_k_iter,
	&epi_k_add_i64, &epi_k_add_i64_lat, &epi_k_add_f64, &epi_k_add_f64_lat, &epi_k_add_f64_window, &epi_k_add_f64_mix,
	&epi_k_mul_i64, &epi_k_mul_i64_lat, &epi_k_mul_f64, &epi_k_mul_f64_lat,
	&epi_k_div_i64, &epi_k_div_i64_lat, &epi_k_div_i32, &epi_k_div_i32_lat, &epi_k_div_f64, &epi_k_div_f64_lat, &epi_k_div_f32, &epi_k_div_f32_lat,
	&epi_k_cmp_i64, &epi_k_cmp_i64_lat, &epi_k_cmp_f64, &epi_k_max_f64_lat,
	&epi_k_bit_i64, &epi_k_bit_i64_lat,
	&epi_k_load_l1, &epi_k_load_l2, &epi_k_load_l3, &epi_k_load_dram, &epi_k_load_fp_l1, &epi_k_load_mix,
	&epi_k_load_l1_lat, &epi_k_load_fp_lat, &epi_k_load_idx_lat, &epi_k_load_l2_lat, &epi_k_load_l3_lat, &epi_k_load_dram_lat,
	&epi_k_load_l2_line, &epi_k_load_l3_line, &epi_k_load_dram_line, &epi_k_load_l3_near, &epi_k_load_dram_near, &epi_k_load_l3_scatter, &epi_k_load_dram_scatter,
	&epi_k_load_l2_set, &epi_k_load_page_walk, &epi_k_load_page_walkfar, EPI_TLB_SHARES(TLB_REF)
	&epi_k_store_l1, &epi_k_store_l2, &epi_k_store_l3, &epi_k_store_dram,
	&epi_k_fwd_i64_lat, &epi_k_fwd_f64_lat, &epi_k_fwd_fail_lat, &epi_k_fwd_op_lat, &epi_k_load_fwdfp_window,
	&epi_k_load_mix_frame, &epi_k_load_frame_col, &epi_k_load_frame_row, &epi_k_load_frame_elem,
	&epi_k_branch_miss, &epi_k_iter_split,
	&epi_k_memcpy_l1, &epi_k_memcpy_l2, &epi_k_memcpy_l3, &epi_k_memcpy_dram,
	&epi_k_malloc_call, &epi_k_malloc, &epi_k_malloc_touch,
	&epi_k_print,
};

const epi_kernel *const *epi_kernels(int *n)
{
	*n = (int)(sizeof all / sizeof *all);
	return all;
}

const epi_kernel *epi_kernel_find(const char *name)
{
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

size_t epi_level_bytes(unsigned long long l1, unsigned long long l2, unsigned long long l3, enum epi_level level)
{
	unsigned long long b = 0;
	switch (level) {
	case EPI_LVL_NONE: return 0;
	case EPI_LVL_L1: b = (l1 ? l1 : 32 << 10) / 2; break;
	case EPI_LVL_L2: b = (l2 ? l2 : 512 << 10) / 2; break;
	case EPI_LVL_L3: {
		/* half of L3, but no more than 4 x L2 or 8 MiB, whichever is
		 * larger: the L3 a system reports can be a socket's, shared by
		 * scores of cores (and other machines' in a VM), which serves a
		 * working set of a few tens of MiB at its own rate */
		unsigned long long all = (l3 ? l3 : 8 << 20) / 2, cap = 4 * (l2 ? l2 : 512 << 10);
		if (cap < 8 << 20)
			cap = 8 << 20;
		b = all < cap ? all : cap;
		break;
	}
	case EPI_LVL_DRAM:
		b = 4 * (l3 ? l3 : 8 << 20);
		if (b < 64ull << 20)
			b = 64ull << 20;
		break;
	}
	return (size_t)(b & ~4095ull);
}

unsigned long long epi_l3_serves(const size_t *bytes, const double *t, int n)
{
	if (n < 2 || !(t[0] > 0) || !(t[n - 1] >= EPI_L3_MEMORY_STEP * t[0]))
		return 0;
	double at = t[0] + EPI_L3_REACH_SHARE * (t[n - 1] - t[0]);
	int k = 1;
	while (k < n - 1 && !(t[k] >= at))
		k++;
	double f = t[k] > t[k - 1] ? (at - t[k - 1]) / (t[k] - t[k - 1]) : 1;
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	double s = (double)bytes[k - 1] + f * ((double)bytes[k] - (double)bytes[k - 1]);
	return (unsigned long long)s & ~4095ull;
}

unsigned long long epi_tlb_reach(const size_t *pages, const double *t, int n)
{
	if (n < 4)
		return 0;
	double base = INFINITY, top = t[n - 1];
	for (int i = 0; i < (n + 3) / 4; i++)
		if (t[i] < base)
			base = t[i];
	if (!(base > 0) || !(top >= EPI_TLB_WALK_STEP * base))
		return 0;
	double at = base + EPI_TLB_REACH_SHARE * (top - base);
	/* the first walk from which on all are above the threshold: a walk
	 * slowed by the machine's noise before the cliff is not the cliff */
	int k = n - 1;
	while (k > 1 && t[k - 1] >= at)
		k--;
	double f = t[k] > t[k - 1] ? (at - t[k - 1]) / (t[k] - t[k - 1]) : 1;
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	return (unsigned long long)((double)pages[k - 1] + f * ((double)pages[k] - (double)pages[k - 1]));
}

const char *epi_level_name(enum epi_level level)
{
	static const char *names[] = {"", "L1", "L2", "L3", "DRAM"};
	return names[level];
}

int epi_bench_alloc(epi_bench_ctx *ctx, size_t bytes, int two, char *err)
{
	ctx->buf = ctx->buf2 = NULL;
	if (posix_memalign(&ctx->buf, 4096, bytes) != 0 || (two && posix_memalign(&ctx->buf2, 4096, bytes) != 0)) {
		free(ctx->buf);
		ctx->buf = NULL;
		return epi_error(err, "cannot allocate %zu bytes for a benchmark buffer", bytes);
	}
	memset(ctx->buf, 0, bytes);
	if (two)
		memset(ctx->buf2, 0, bytes);
	ctx->mapped = bytes;
	ctx->two = two;
	ctx->touch_step = 0;
	return 0;
}

void epi_bench_free(epi_bench_ctx *ctx)
{
	free(ctx->buf);
	free(ctx->buf2);
	ctx->buf = ctx->buf2 = NULL;
	ctx->mapped = 0;
	ctx->two = 0;
}

void epi_bench_touch(const epi_bench_ctx *ctx)
{
	for (int b = 0; b < 1 + ctx->two; b++) {
		const volatile char *p = b ? ctx->buf2 : ctx->buf;
		size_t step = ctx->touch_step ? ctx->touch_step : 4096;
		for (size_t i = 0; p && i < ctx->mapped; i += step)
			(void)p[i];
	}
}

int epi_bench_open_null(const epi_kernel *k, epi_bench_ctx *ctx, char *err)
{
	FILE *f = fopen("/dev/null", "w");
	if (!f)
		return epi_error(err, "cannot open '/dev/null' for the %s kernel", k->name);
	ctx->aux = f;
	return 0;
}

void epi_bench_close_null(epi_bench_ctx *ctx)
{
	if (ctx->aux)
		fclose(ctx->aux);
	ctx->aux = NULL;
}
