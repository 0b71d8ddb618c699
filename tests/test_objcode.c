/* Unit tests for reading machine code and mapping it to the source: small
 * C loops built at test time (gcc for x86-64, the aarch64 cross gcc), read
 * back (objcode.c), their natural loops nested and matched to the source's
 * loops, each access's stride, and the machine iterations counted from
 * the exact source counts (mcount.c): a vectorised loop with its
 * remainder, an unrolled one, invariant code hoisted out of a loop; and
 * what the pricing follows from one iteration to the next (mflow.c): a
 * chain through an element written one iteration and read the next, and
 * which branches the data decides. */
#include <math.h>
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

#include "bench/bench.h"
#include "model/util.h"
#include "predict/mflow.h"
#include "predict/mmodel.h"
#include "predict/report.h"

static char dir[256];

static int setup(void **st)
{
	(void)st;
	snprintf(dir, sizeof dir, "/tmp/epi-test-objcode.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
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

/* Writes SRC to DIR/NAME.c and builds DIR/NAME.o with CC FLAGS -g -c. */
static void build(const char *name, const char *src, const char *cc, const char *flags, char *c_path,
		  char *o_path)
{
	snprintf(c_path, 300, "%s/%s.c", dir, name);
	snprintf(o_path, 300, "%s/%s.o", dir, name);
	FILE *f = fopen(c_path, "w");
	assert_non_null(f);
	fputs(src, f);
	fclose(f);
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s %s -g -c -o '%s' '%s'", cc, flags, o_path, c_path);
	assert_int_equal(system(cmd), 0);
}

/* SRC built by CC FLAGS as DIR/NAME.o and read back into *OBJ. */
static void read_built(const char *name, const char *src, const char *cc, const char *flags, epi_object *obj)
{
	char c[300], o[300], err[EPI_ERRLEN];
	build(name, src, cc, flags, c, o);
	if (epi_object_read(obj, o, c, 0.5, err) < 0)
		fail_msg("%s", err);
}

/* SRC built by CC FLAGS as DIR/NAME.o, its analysis (tag_loops) with BIND
 * bound (NULL: nothing to bind), and the model of the object counted from
 * it. */
typedef struct fixture {
	epi_analysis a;
	sym_env env;
	epi_front_opts fo;
	epi_mmodel m;
} fixture;

static void model(fixture *x, const char *name, const char *src, const char *cc, const char *flags, const char *bind)
{
	char c[300], o[300], err[EPI_ERRLEN];
	build(name, src, cc, flags, c, o);
	memset(x, 0, sizeof *x);
	epi_front_opts_init(&x->fo);
	x->fo.tag_loops = 1;
	const char *params[] = {bind};
	int code = epi_analyze_bind(&x->a, c, &x->fo, params, bind ? 1 : 0, &x->env, err);
	if (code)
		fail_msg("%s", err);
	/* what object reading alone sees, whatever the host */
	if (epi_object_read(&x->m.obj, o, c, 0.5, err) < 0)
		fail_msg("%s", err);
	epi_nest *loops;
	int n;
	assert_int_equal(epi_find_loops(c, &x->fo, &loops, &n, err), 0);
	epi_mmodel_link(&x->m, loops, n);
	epi_mmodel_count(&x->m, &x->a, &x->env, NULL);
}

static void model_free(fixture *x)
{
	epi_mmodel_free(&x->m);
	sym_env_clear(&x->env);
	epi_analysis_free(&x->a);
	epi_front_opts_clear(&x->fo);
}

/* The machine loops matched to the source loop on LINE: how many, and the
 * machine iterations of all of them together (source iterations covered:
 * sum of iters x k when COVERED). */
static double on_line(const fixture *x, int line, int *n, int covered)
{
	double it = 0;
	*n = 0;
	for (int i = 0; i < x->m.obj.nloop; i++) {
		int s = x->m.obj.loop[i].src;
		if (s < 0 || x->m.loops[s].line != line)
			continue;
		(*n)++;
		it += covered ? x->m.cnt.l[i].iters * x->m.cnt.l[i].k : x->m.cnt.l[i].iters;
	}
	return it;
}

/* The first machine loop in ROLE, or -1. */
static int with_role(const fixture *x, enum epi_mrole role)
{
	for (int i = 0; i < x->m.obj.nloop; i++)
		if (x->m.cnt.l[i].role == role)
			return i;
	return -1;
}

/* The builds of the tests that run on both architectures: x86-64 and
 * aarch64 (the cross gcc, when installed), each at -O0 and -O2 */
static const char *const both_ccs[] = {"gcc", "gcc", "aarch64-linux-gnu-gcc", "aarch64-linux-gnu-gcc"};
static const char *const both_levels[] = {"-O0", "-O2", "-O0", "-O2"};

static const char nest_src[] = "void mm(int n, double *c, const double *a, const double *b)\n" /* 1 */
			       "{\n"
			       "\tfor (int i = 0; i < n; i++)\n" /* 3 */
			       "\t\tfor (int j = 0; j < n; j++) {\n" /* 4 */
			       "\t\t\tdouble s = 0;\n"
			       "\t\t\tfor (int k = 0; k < n; k++)\n" /* 6 */
			       "\t\t\t\ts += a[i * n + k] * b[k * n + j];\n"
			       "\t\t\tc[i * n + j] = s;\n"
			       "\t\t}\n"
			       "}\n";

/* -O0 and -O2: three nested natural loops, matched one to one, each run
 * its exact source count; the rows of a walk along k, the columns not */
static void test_nest(void **st)
{
	(void)st;
	const char *const *levels = both_levels, *const *ccs = both_ccs;
	for (int lv = 0; lv < 4; lv++) {
		if (lv >= 2 && !have(ccs[lv]))
			break;
		fixture x;
		model(&x, levels[lv] + 1, nest_src, ccs[lv], levels[lv], "n=50");
		assert_int_equal(x.m.obj.nloop, 3);
		assert_int_equal(x.m.nmatched, 3);
		int n;
		assert_true(on_line(&x, 3, &n, 0) == 50 && n == 1);
		assert_true(on_line(&x, 4, &n, 0) == 2500 && n == 1);
		assert_true(on_line(&x, 6, &n, 0) == 125000 && n == 1);
		/* the innermost loop: depth 2, a row stride of 8 and a column stride known at run time */
		int inner = -1;
		for (int i = 0; i < x.m.obj.nloop; i++)
			if (x.m.obj.loop[i].depth == 2)
				inner = i;
		assert_true(inner >= 0);
		int rows = 0, cols = 0;
		for (int i = 0; i < x.m.obj.nin; i++) {
			if (x.m.obj.loop_of[i] != inner || !x.m.obj.in[i].loads || x.m.obj.frame[i])
				continue;
			rows += x.m.obj.stride[i] == 8;
			cols += x.m.obj.stride[i] == EPI_STRIDE_RUNTIME;
		}
		assert_int_equal(rows, 1);
		assert_int_equal(cols, 1);
		/* from one j to the next, the row starts where it did and the
		 * column one element on */
		int again = 0, next = 0;
		for (int i = 0; i < x.m.obj.nin; i++) {
			if (x.m.obj.loop_of[i] != inner || !x.m.obj.in[i].loads || x.m.obj.frame[i])
				continue;
			again += x.m.obj.stride[i] == 8 && x.m.obj.outer_stride[i] == 0;
			next += x.m.obj.stride[i] == EPI_STRIDE_RUNTIME && x.m.obj.outer_stride[i] == 8;
		}
		assert_int_equal(again, 1);
		assert_int_equal(next, 1);
		model_free(&x);
	}
}

/* rbp in -O2 code is a register like any other: with most registers kept
 * from gcc, out's pointer lives in it and moves a double each j (its
 * store is no stack slot); the spills at rsp are. At -O0, rbp is the
 * frame pointer and its slots are the variables'. */
static const char rbp_src[] = "void walk(int n, int m, const double *d, double *out)\n"
			      "{\n"
			      "\tfor (int j = 0; j < m; j++) {\n" /* 3 */
			      "\t\tconst double *p = d + j;\n"
			      "\t\tdouble s = 0;\n"
			      "\t\tfor (int i = 0; i < n; i++) {\n" /* 6 */
			      "\t\t\ts += *p;\n"
			      "\t\t\tp += m;\n"
			      "\t\t}\n"
			      "\t\tout[j] = s;\n"
			      "\t}\n"
			      "}\n";

static void test_frame_pointer(void **st)
{
	(void)st;
	epi_object o;
	read_built("rbp2", rbp_src, "gcc",
		   "-O2 -ffixed-rax -ffixed-rbx -ffixed-r8 -ffixed-r9 -ffixed-r10 -ffixed-r11 -ffixed-r12 -ffixed-r13 "
		   "-ffixed-r14 -ffixed-r15",
		   &o);
	int rbp = 0, rsp = 0;
	for (int i = 0; i < o.nin; i++) {
		const epi_insn *in = &o.in[i];
		if (!(in->loads || in->stores) || in->index || o.loop_of[i] < 0)
			continue;
		if (in->base == X86_REG_RBP) {
			rbp++;
			assert_false(o.frame[i]);
			assert_true(in->stores && o.stride[i] == 8);
		} else if (in->base == X86_REG_RSP) {
			rsp++;
			assert_true(o.frame[i]);
		}
	}
	assert_int_equal(rbp, 1);
	assert_true(rsp > 0);
	epi_object_free(&o);
	read_built("rbp0", rbp_src, "gcc", "-O0", &o);
	int slots = 0;
	for (int i = 0; i < o.nin; i++) {
		const epi_insn *in = &o.in[i];
		if ((in->loads || in->stores) && in->base == X86_REG_RBP && !in->index) {
			slots++;
			assert_true(o.frame[i]);
		}
	}
	assert_true(slots > 0);
	epi_object_free(&o);
}

static const char vec_src[] = "void scale(int n, double *restrict a, const double *restrict b, double c)\n"
			      "{\n"
			      "\tfor (int i = 0; i < n; i++)\n" /* 3 */
			      "\t\ta[i] = b[i] * c;\n"
			      "}\n";

/* c + 1.5 is computed once, before the loop: the vector loop does two of
 * the source's three flops per element, and its stores tell k */
static const char hoisted_vec_src[] = "void axpc(int n, double *restrict a, const double *restrict b, double c)\n"
				      "{\n"
				      "\tfor (int i = 0; i < n; i++)\n" /* 3 */
				      "\t\ta[i] = b[i] + (c + 1.5) * b[i];\n"
				      "}\n";

/* gcc -O3 vectorises: two doubles per iteration of the vector loop, the
 * odd one left to the remainder; n = 1001 gives 500 + 1 */
static void check_vector(const char *src, const char *cc, const char *flags, int lanes)
{
	fixture x;
	model(&x, "vec", src, cc, flags, "n=1001");
	int n, main = with_role(&x, EPI_MR_MAIN), rem = with_role(&x, EPI_MR_REMAINDER);
	/* every source iteration in a loop, but the odd one done by straight code */
	assert_true(on_line(&x, 3, &n, 1) == 1001 - (rem < 0 ? 1001 % lanes : 0));
	assert_true(main >= 0);
	assert_int_equal((int)x.m.cnt.l[main].k, lanes);
	assert_true(x.m.cnt.l[main].iters == 1001 / lanes);
	if (rem >= 0) /* gcc may finish the last element without a loop */
		assert_true(x.m.cnt.l[rem].iters == 1001 % lanes);
	model_free(&x);
}

static void test_vector_x86(void **st)
{
	(void)st;
	check_vector(vec_src, "gcc", "-O3", 2);        /* SSE2: two doubles */
	check_vector(vec_src, "gcc", "-O3 -mavx2", 4); /* AVX2: four */
	check_vector(hoisted_vec_src, "gcc", "-O3 -mavx2", 4);
}

static void test_vector_a64(void **st)
{
	(void)st;
	if (!have("aarch64-linux-gnu-gcc"))
		skip();
	check_vector(vec_src, "aarch64-linux-gnu-gcc", "-O3", 2); /* NEON: two doubles */
}

static const char guard_src[] = "void add_rows(int m, double *a, const double *b)\n"
				"{\n"
				"\tfor (int i = 0; i < 100; i++)\n"   /* 3 */
				"\t\tfor (int j = 0; j < m; j++)\n" /* 4 */
				"\t\t\ta[i * m + j] += b[j];\n"
				"}\n";

/* clang's vectorised loop behind its checks (enough iterations, a and b
 * apart) in the loop around, its scalar loop for the remainder: the
 * checks and the code after the vector loop run at every entry of it
 * (weight 1), the remainder loop's set-up as often as it is entered:
 * never at m = 64, every time at m = 67 (three left); the test before it,
 * at least as often (the branch probability where that is more) */
static void test_vector_guards(void **st)
{
	(void)st;
	if (!have("clang-19"))
		skip();
	const char *binds[] = {"m=64", "m=67"};
	for (int k = 0; k < 2; k++) {
		fixture x;
		char bind[32];
		snprintf(bind, sizeof bind, "%s", binds[k]);
		model(&x, "guard", guard_src, "clang-19", "-O2", bind);
		const epi_object *o = &x.m.obj;
		int main = -1, rem = -1, to_main = 0, to_rem = 0;
		for (int l = 0; l < o->nloop; l++) {
			if (o->loop[l].src < 0 || x.m.loops[o->loop[l].src].line != 4)
				continue;
			if (x.m.cnt.l[l].role == EPI_MR_MAIN)
				main = l;
			else if (x.m.cnt.l[l].role == EPI_MR_REMAINDER)
				rem = l;
		}
		assert_true(main >= 0 && rem >= 0);
		for (int i = 0; i < o->nin; i++) {
			if (o->gate[i] == main || o->gate[i] == -2 - main) {
				to_main++;
				assert_true(o->weight[i] == 1);
			} else if (o->gate[i] == rem) {
				to_rem++;
				assert_true(o->weight[i] == (k == 0 ? 0 : 1));
			} else if (o->gate[i] == -2 - rem) {
				assert_true(o->weight[i] == (k == 0 ? 0.5 : 1));
			}
		}
		assert_true(to_main > 0 && to_rem > 0);
		model_free(&x);
	}
}

static const char unroll_src[] = "double sum(int n, const double *a)\n"
				 "{\n"
				 "\tdouble s = 0;\n"
				 "\tfor (int i = 0; i < n; i++)\n" /* 4 */
				 "\t\ts += a[i];\n"
				 "\treturn s;\n"
				 "}\n";

/* unrolled by 4 (no vectorising: the sum's order is kept): k = 4 */
static void test_unrolled(void **st)
{
	(void)st;
	fixture x;
	model(&x, "unroll", unroll_src, "gcc", "-O2 -funroll-loops --param max-unroll-times=4", "n=4000");
	int n, main = with_role(&x, EPI_MR_MAIN);
	assert_true(on_line(&x, 4, &n, 1) == 4000);
	assert_true(main >= 0);
	assert_int_equal((int)x.m.cnt.l[main].k, 4);
	model_free(&x);
}

static const char hoist_src[] = "void f(int n, double *a, double x, double y)\n"
				"{\n"
				"\tfor (int i = 0; i < n; i++)\n" /* 3 */
				"\t\ta[i] = a[i] + x * y;\n"
				"}\n";

/* x * y is computed once, before the loop: the loop's own work is one add
 * per iteration, the multiply runs once per call */
static void test_hoisted(void **st)
{
	(void)st;
	fixture x;
	model(&x, "hoist", hoist_src, "gcc", "-O2 -fno-tree-vectorize", "n=100");
	assert_int_equal(x.m.obj.nloop, 1);
	const epi_mloop *l = &x.m.obj.loop[0];
	assert_true(l->own.cls[EPI_IC_FP_ADD] == 1 && l->own.cls[EPI_IC_FP_MUL] == 0);
	assert_true(x.m.obj.fn[0].own.cls[EPI_IC_FP_MUL] == 1);
	assert_true(x.m.cnt.l[0].iters == 100 && x.m.cnt.calls[0] == 1);
	model_free(&x);
}

/* The machine loop matched to the source loop on LINE (one expected). */
static int loop_on(const fixture *x, int line)
{
	int n;
	on_line(x, line, &n, 0);
	assert_int_equal(n, 1);
	for (int i = 0; i < x->m.obj.nloop; i++) {
		int s = x->m.obj.loop[i].src;
		if (s >= 0 && x->m.loops[s].line == line)
			return i;
	}
	return -1;
}

static const char regloop_src[] = "unsigned long f(int n)\n"
				  "{\n"
				  "\tunsigned long t = 0;\n"
				  "\tfor (int i = 1; i <= n; i++) {\n" /* 4 */
				  "\t\tunsigned long x = i;\n"
				  "\t\tfor (int s = 0; s < 300; s++)\n" /* 6 */
				  "\t\t\tx = x & 1 ? 3 * x + 1 : x / 2;\n"
				  "\t\tt += x;\n"
				  "\t}\n"
				  "\treturn t;\n"
				  "}\n";

/* A loop of register work only (no load, store or flop to compare): the
 * inner loop's counter, set to 300 before it and stepped once per
 * iteration, gives its machine trip count; clang unrolls it by 3 (counting
 * down by 3 from 300), aarch64 gcc not. The outer loop's bound is n. */
static void check_regloop(const char *cc, const char *flags, int64_t trip, int k)
{
	fixture x;
	model(&x, "regloop", regloop_src, cc, flags, "n=1000");
	int n, inner = loop_on(&x, 6), outer = loop_on(&x, 4);
	assert_true(inner >= 0 && outer >= 0);
	assert_int_equal(epi_mloop_const_trip(&x.m.obj, inner), trip);
	assert_int_equal(epi_mloop_const_trip(&x.m.obj, outer), 0);
	assert_int_equal((int)x.m.cnt.l[inner].k, k);
	assert_true(fabs(on_line(&x, 6, &n, 0) - 300000.0 / k) < 1e-6);
	model_free(&x);
}

static void test_register_unroll(void **st)
{
	(void)st;
	if (have("clang-19"))
		check_regloop("clang-19", "-O2", 100, 3);
	if (have("aarch64-linux-gnu-gcc"))
		check_regloop("aarch64-linux-gnu-gcc", "-O2", 300, 1);
}

/* A counter that starts below zero (clang: mov eax, 0xfffffe0c, an
 * immediate capstone gives unsigned) and that the loop widens into itself
 * at each iteration (cltq, to index by it): its trip count is still the
 * constant one, 500 iterations of 2 (clang unrolls i / 7 by 2) */
static const char negstart_src[] = "long f(void)\n"
				   "{\n"
				   "\tlong s = 0;\n"
				   "\tfor (int i = -500; i < 500; i++)\n" /* 4 */
				   "\t\ts += i / 7;\n"
				   "\treturn s;\n"
				   "}\n";

static void test_negative_start(void **st)
{
	(void)st;
	if (!have("clang-19"))
		skip();
	fixture x;
	model(&x, "negstart", negstart_src, "clang-19", "-O2", NULL);
	int n, l = loop_on(&x, 4);
	assert_true(l >= 0);
	assert_int_equal(epi_mloop_const_trip(&x.m.obj, l), 500);
	assert_int_equal((int)x.m.cnt.l[l].k, 2);
	assert_true(fabs(on_line(&x, 4, &n, 0) - 500) < 1e-6);
	model_free(&x);
}

/* A value the source reads three times and the machine code loads once
 * (clang unrolls the loop, one 8-byte load an element): the loads' ratio
 * is under one, and the constant trip counts give the factor */
static const char reread_src[] = "#include <stdint.h>\n"
				 "uint64_t a[100000];\n"
				 "long f(void)\n"
				 "{\n"
				 "\tlong s = 0;\n"
				 "\tfor (int i = 0; i < 100000; i++)\n" /* 6 */
				 "\t\ts += __builtin_popcountll(a[i]) + (long)(a[i] & 0xff) + (long)(a[i] >> 60);\n"
				 "\treturn s;\n"
				 "}\n";

static void test_repeated_load(void **st)
{
	(void)st;
	if (!have("clang-19"))
		skip();
	fixture x;
	model(&x, "reread", reread_src, "clang-19", "-O2 -mpopcnt", NULL);
	int n, l = loop_on(&x, 6);
	assert_true(l >= 0);
	int64_t trip = epi_mloop_const_trip(&x.m.obj, l);
	assert_true(trip > 0 && trip < 100000 && 100000 % trip == 0);
	assert_int_equal((int)x.m.cnt.l[l].k, (int)(100000 / trip));
	assert_true(fabs(on_line(&x, 6, &n, 0) - (double)trip) < 1e-6);
	model_free(&x);
}

/* Two loops side by side on one line, and two a macro expands on one
 * line: each machine loop is the loop whose text holds its branch's
 * column, and runs that loop's iterations */
static const char beside_src[] = "double a[1000], b[2000];\n"
				 "#define CLEAR(x, n) for (int q = 0; q < (n); q++) (x)[q] = 0\n"
				 "void f(int n)\n"
				 "{\n"
				 "\tfor (int i = 0; i < n; i++) a[i] = i; for (int j = 0; j < 2 * n; j++) b[j] += 1;\n" /* 5 */
				 "}\n"
				 "void g(int n)\n"
				 "{\n"
				 "\tCLEAR(a, n); CLEAR(b, 2 * n);\n" /* 9 */
				 "}\n";

static void test_loops_beside(void **st)
{
	(void)st;
	const char *cc[] = {"gcc", "gcc", "clang-19", "clang-19"}, *fl[] = {"-O0", "-O1", "-O0", "-O1"};
	for (int k = 0; k < 4; k++) {
		if (!have(cc[k]))
			continue;
		fixture x;
		model(&x, "beside", beside_src, cc[k], fl[k], "n=1000");
		for (int line = 5; line <= 9; line += 4) {
			/* the source loops on the line, in order */
			int s0 = -1, s1 = -1;
			for (int s = 0; s < x.m.nloops; s++)
				if (x.m.loops[s].line == line && s0 < 0)
					s0 = s;
				else if (x.m.loops[s].line == line)
					s1 = s;
			assert_true(s0 >= 0 && s1 > s0 && x.m.loops[s0].tag != x.m.loops[s1].tag);
			assert_true(x.m.loops[s0].col > 0 && x.m.loops[s0].end_col < x.m.loops[s1].col);
			double it[2] = {0, 0};
			int n = 0;
			for (int l = 0; l < x.m.obj.nloop; l++) {
				int s = x.m.obj.loop[l].src;
				if (s == s0 || s == s1) {
					it[s == s1] += x.m.cnt.l[l].iters * x.m.cnt.l[l].k;
					n++;
				}
			}
			if (n == 0) /* memset's calls */
				continue;
			assert_true(fabs(it[0] - 1000) < 1e-6);
			assert_true(fabs(it[1] - 2000) < 1e-6);
		}
		model_free(&x);
	}
}

/* Costs in cycles of one second: every latency 1, a double's round trip
 * through memory 9, a load 4, a double add 3. */
static void cycles(epi_mcosts *c)
{
	memset(c, 0, sizeof *c);
	for (int k = 0; k < EPI_IC_N; k++)
		c->lat[k] = 1;
	c->lat[EPI_IC_MOVE] = c->lat[EPI_IC_BRANCH] = 0;
	c->lat[EPI_IC_FP_ADD] = 3;
	c->load_lat = 4;
	c->fwd_lat = 1;
	c->fwd_lat_fp = 9;
	c->fwd_op_lat = 7;
	c->fwd_fail_lat = 20;
	c->frame_stall = -1; /* a table without load.frame.col */
}

/* Machine loop L of X priced at K, entered alone (no loop around) for TRIP
 * iterations, into *P. */
static void price_alone(const fixture *x, int l, double trip, const epi_mcosts *k, epi_mloop_price *p)
{
	epi_mprice_loop(&x->m.obj, l, &(epi_msweep){.trip = trip, .outer_trip = NAN, .round = NAN}, k, p);
}

/* The loop-carried chain of machine loop L of X priced at K, entered
 * alone for 4,000 iterations. */
static double chain_alone(const fixture *x, int l, const epi_mcosts *k)
{
	epi_mloop_price p;
	price_alone(x, l, 4000, k, &p);
	return p.bound_t[EPI_BOUND_LATENCY];
}

/* A load into a floating-point register (addsd (mem), xmm) at the table's
 * rate for those, where it has one; else at the general loads' */
static void test_fp_loads(void **st)
{
	(void)st;
	fixture x;
	model(&x, "fpload", unroll_src, "gcc", "-O2", "n=4000");
	int l = loop_on(&x, 4);
	epi_mcosts k;
	cycles(&k);
	k.load_tp = 1;
	epi_mloop_price p;
	price_alone(&x, l, 4000, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_LOAD] - 1) < 1e-9);
	k.fp_load_tp = 3;
	price_alone(&x, l, 4000, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_LOAD] - 3) < 1e-9);
	model_free(&x);
}

static const char latch_src[] = "#define N 4001\n"
				"double b5[N], sa[N], sb[N];\n"
				"void recurrence(int n, int loop)\n"
				"{\n"
				"\tdouble stb5 = 0.1;\n"
				"\tfor (int l = 1; l <= loop; l++) {\n"
				"\t\tfor (int k = 0; k < n; k++) {\n" /* 7 */
				"\t\t\tb5[k] = sa[k] + stb5 * sb[k];\n"
				"\t\t\tstb5 = b5[k] - stb5;\n"
				"\t\t}\n"
				"\t\tfor (int i = 1; i <= n; i++) {\n" /* 11 */
				"\t\t\tint k = n - i;\n"
				"\t\t\tb5[k] = sa[k] + stb5 * sb[k];\n"
				"\t\t\tstb5 = b5[k] - stb5;\n"
				"\t\t}\n"
				"\t}\n"
				"}\n"
				"int main(int argc, char **argv)\n"
				"{\n"
				"\t(void)argv;\n"
				"\trecurrence(N, 100 * argc);\n"
				"\treturn (int)b5[7];\n"
				"}\n";

/* clang -O2 unrolls the inner loops of the copy of recurrence() inlined
 * into main by two, their exit tests in the middle, and gives their
 * latches and heads no line: each is still its source loop, by the line
 * of its own code that a loop starts on */
static void test_latch_without_line(void **st)
{
	(void)st;
	if (!have("clang-19"))
		skip();
	fixture x;
	model(&x, "latch", latch_src, "clang-19", "-O2", "loop=100");
	int inner = 0;
	for (int m = 0; m < x.m.obj.nloop; m++) {
		const epi_mloop *l = &x.m.obj.loop[m];
		assert_true(l->src >= 0);
		if (l->parent >= 0) {
			int line = x.m.loops[l->src].line;
			assert_true(line == 7 || line == 11);
			inner++;
		}
	}
	assert_true(inner >= 4); /* recurrence()'s own and main()'s copy */
	model_free(&x);
}

/* The chain of gcc -O2's loop on line 4 of SRC: between LO and HI with
 * cycles(), MORE longer at K */
static void chain_grows(const char *name, const char *src, double lo, double hi, const epi_mcosts *k, double more)
{
	fixture x;
	model(&x, name, src, "gcc", "-O2", "n=4000");
	int l = loop_on(&x, 4);
	epi_mcosts base;
	cycles(&base);
	double plain = chain_alone(&x, l, &base);
	assert_true(plain >= lo && plain < hi);
	assert_true(fabs(chain_alone(&x, l, k) - (plain + more)) < 1e-9);
	model_free(&x);
}

static const char argmin_src[] = "int argmin(int n, const double *x)\n"
				 "{\n"
				 "\tint m = 0;\n"
				 "\tfor (int k = 1; k < n; k++)\n" /* 4 */
				 "\t\tif (x[k] < x[m])\n"
				 "\t\t\tm = k;\n"
				 "\treturn m;\n"
				 "}\n";

/* The first minimum's index, which gcc -O2 keeps with cmov: x[m]'s load
 * is on the chain, at the table's latency for a load into a
 * floating-point register where it has one (load.fp.lat), else at a
 * load's */
static void test_fp_load_chain(void **st)
{
	(void)st;
	epi_mcosts k;
	cycles(&k);
	k.load_lat_fp = 9;
	chain_grows("argmin", argmin_src, 4 + 3, 12, &k, 5); /* the load and the compare at least */
}

static const char crc_src[] = "unsigned crc(int n, const unsigned char *p, const unsigned *table)\n"
			      "{\n"
			      "\tunsigned c = 0xffffffffu;\n"
			      "\tfor (int i = 0; i < n; i++)\n" /* 4 */
			      "\t\tc = table[(c ^ p[i]) & 0xff] ^ (c >> 8);\n"
			      "\treturn ~c;\n"
			      "}\n";

/* A table-driven CRC: the table's element, at an address with an index
 * register, is on the chain, at the table's latency for such a load
 * where it has one (load.idx.lat), else at a load's */
static void test_index_load_chain(void **st)
{
	(void)st;
	epi_mcosts k;
	cycles(&k);
	k.load_lat_idx = 6;
	chain_grows("crc", crc_src, 4 + 2, 10, &k, 2); /* the load, the xor and the mask at least */
}

static const char commoning_src[] = "double x[8000], u[8000];\n"
				    "void eos(int n, double r, double t)\n"
				    "{\n"
				    "\tfor (int k = 0; k < n - 3; k++)\n" /* 4 */
				    "\t\tx[k] = u[k] + r * u[k + 1] + t * (u[k + 2] + r * u[k + 3]);\n"
				    "}\n";

/* gcc -O2 loads u[k + 3] once and moves it down to u[k] one register an
 * iteration: nothing waits for an earlier iteration but the index, though
 * a value loaded at the first iteration reaches the arithmetic only at the
 * fourth (the flow's first passes start from the loop's entry) */
static void test_rotated_loads_no_chain(void **st)
{
	(void)st;
	fixture x;
	model(&x, "commoning", commoning_src, "gcc", "-O2", "n=4000");
	int l = loop_on(&x, 4);
	int moves = 0;
	for (int i = 0; i < x.m.obj.nin; i++)
		moves += x.m.obj.loop_of[i] == l && x.m.obj.in[i].klass == EPI_IC_MOVE && !x.m.obj.in[i].loads &&
			 !x.m.obj.in[i].stores && x.m.obj.vdst[i];
	if (moves == 0) { /* a gcc that does not rotate them: nothing to see */
		model_free(&x);
		skip();
	}
	epi_mcosts k;
	cycles(&k);
	k.load_lat_fp = 9;
	assert_true(chain_alone(&x, l, &k) <= 1 + 1e-9); /* the index's add */
	model_free(&x);
}

/* The equation of state's adds and multiplies (commoning_src's), one
 * per cycle each: their sum where they share units, the longer where
 * each has its own */
static void test_fp_units(void **st)
{
	(void)st;
	fixture x;
	model(&x, "fpunits", commoning_src, "gcc", "-O2", "n=4000");
	int l = loop_on(&x, 4);
	double adds = 0, muls = 0;
	for (int i = 0; i < x.m.obj.nin; i++)
		if (x.m.obj.loop_of[i] == l) {
			adds += (x.m.obj.in[i].klass == EPI_IC_FP_ADD) * x.m.obj.weight[i];
			muls += (x.m.obj.in[i].klass == EPI_IC_FP_MUL) * x.m.obj.weight[i];
		}
	assert_true(adds >= 3 && muls >= 2);
	epi_mcosts k;
	cycles(&k);
	k.tp[EPI_IC_FP_ADD] = k.tp[EPI_IC_FP_MUL] = 1;
	epi_mloop_price p;
	price_alone(&x, l, 4000, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_FP] - (adds + muls)) < 1e-9);
	k.fp_apart = 1;
	price_alone(&x, l, 4000, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_FP] - fmax(adds, muls)) < 1e-9);
	k.fp_apart = 0.5;
	price_alone(&x, l, 4000, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_FP] - (fmax(adds, muls) + 0.5 * fmin(adds, muls))) < 1e-9);
	model_free(&x);
}

static const char twice_src[] = "static inline __attribute__((always_inline)) void step3(int n, const double *in, double *out)\n"
				"{\n"
				"\tfor (int i = 1; i < n - 1; i++)\n" /* 3 */
				"\t\tout[i] = (in[i - 1] + 2.0 * in[i] + in[i + 1]) * 0.25;\n"
				"}\n"
				"double run(int steps, double *p, double *q)\n"
				"{\n"
				"\tfor (int t = 0; t < steps; t++) {\n"
				"\t\tstep3(4096, p, q);\n"
				"\t\tstep3(4096, q, p);\n"
				"\t}\n"
				"\treturn p[1];\n"
				"}\n";

/* step3() inlined into run() at both calls: two copies of its
 * loop in one function, each the main loop of its copy, running half of
 * the loop's entries with the trip count of one (not one main loop and a
 * version the model never runs) */
static void test_two_inlined_copies(void **st)
{
	(void)st;
	fixture x;
	model(&x, "twice", twice_src, "gcc", "-O2", "steps=100");
	int copies = 0;
	for (int m = 0; m < x.m.obj.nloop; m++) {
		const epi_mloop *l = &x.m.obj.loop[m];
		if (l->src < 0 || x.m.loops[l->src].line != 3 || strcmp(x.m.obj.fn[l->fn].name, "run") != 0)
			continue;
		const epi_mloop_count *c = &x.m.cnt.l[m];
		if (c->role != EPI_MR_MAIN)
			continue;
		copies++;
		assert_true(fabs(c->part - 0.5) < 1e-9);
		assert_true(fabs(c->trip * c->k - 4094) < 2 * c->k); /* one call's iterations */
		assert_true(fabs(c->iters * c->k - 100 * 4094) < 100 * 2 * c->k);
	}
	assert_int_equal(copies, 2);
	model_free(&x);
}

static const char max_src[] = "double mx(int n, const double *v)\n"
			      "{\n"
			      "\tdouble m = v[0];\n"
			      "\tfor (int i = 0; i < n; i++)\n" /* 4 */
			      "\t\tif (v[i] > m)\n"
			      "\t\t\tm = v[i];\n"
			      "\treturn m;\n"
			      "}\n";

/* A running maximum, which gcc -O2 keeps in maxsd: its chain at the
 * maximum's latency where the table has one (cmp.fmax.lat), else at an
 * add's */
static void test_fmax_chain(void **st)
{
	(void)st;
	fixture x;
	model(&x, "mx", max_src, "gcc", "-O2", "n=4000");
	int l = loop_on(&x, 4);
	int max = 0;
	for (int i = 0; i < x.m.obj.nin; i++)
		max += x.m.obj.loop_of[i] == l && x.m.obj.in[i].aop == EPI_AOP_FMINMAX;
	assert_int_equal(max, 1);
	epi_mcosts k;
	cycles(&k);
	double add = chain_alone(&x, l, &k);
	assert_true(add >= 3 && add < 7);
	k.fmax_lat = 7;
	assert_true(fabs(chain_alone(&x, l, &k) - (add + 4)) < 1e-9);
	model_free(&x);
}

static const char swap_src[] = "#include <string.h>\n"
			       "void pass(int n, unsigned *v)\n"
			       "{\n"
			       "\tfor (int j = 0; j < n - 1; j++) {\n" /* 4 */
			       "\t\tunsigned long long p;\n"
			       "\t\tmemcpy(&p, v + j, 8);\n"
			       "\t\tif ((unsigned)p * 1000003u > (unsigned)(p >> 32)) {\n"
			       "\t\t\tp = p >> 32 | p << 32;\n"
			       "\t\t\tmemcpy(v + j, &p, 8);\n"
			       "\t\t}\n"
			       "\t}\n"
			       "}\n";

/* Neighbours swapped with one 8-byte load and store, as gcc -O2 does a
 * bubble sort's: the next iteration's load takes half its bytes from the
 * store, so it waits for the store to reach the cache (load.fwdfail.lat),
 * and the store reaches it only once it retires, after the compare that
 * decided it: the multiply on the compare's path, not on the stored
 * value's, is on the chain */
static void test_fwd_fail_retires(void **st)
{
	(void)st;
	fixture x;
	model(&x, "swap", swap_src, "gcc", "-O2", "n=4000");
	int l = loop_on(&x, 4);
	epi_mcosts k;
	cycles(&k);
	int mul = 0;
	for (int i = 0; i < x.m.obj.nin; i++)
		mul += x.m.obj.loop_of[i] == l && x.m.obj.in[i].klass == EPI_IC_INT_MUL;
	assert_int_equal(mul, 1);
	double base = chain_alone(&x, l, &k);
	/* in the share of the iterations that store */
	double w = 0;
	for (int i = 0; i < x.m.obj.nin; i++)
		if (x.m.obj.loop_of[i] == l && x.m.obj.in[i].stores)
			w = x.m.obj.weight[i];
	assert_true(w > 0 && w < 1);
	k.fwd_fail_lat = 40;
	assert_true(fabs(chain_alone(&x, l, &k) - (base + 20 * w)) < 1e-9);
	k.fwd_fail_lat = 20;
	k.lat[EPI_IC_INT_MUL] = 11;
	assert_true(fabs(chain_alone(&x, l, &k) - (base + 10)) < 1e-9);
	model_free(&x);
}

static const char elem_src[] = "void chol(int n, int i, int j, double *A)\n"
			       "{\n"
			       "\tfor (int k = 0; k < j; k++)\n" /* 3 */
			       "\t\tA[i * n + j] -= A[i * n + k] * A[j * n + k];\n"
			       "}\n";

static const char volatile_src[] = "void acc(int n, volatile int *out, const int *a)\n"
				   "{\n"
				   "\tfor (int k = 0; k < n; k++)\n" /* 3 */
				   "\t\t*out += a[k];\n"
				   "}\n";

/* -O0 keeps A[i * n + j] in memory and computes its address anew in each
 * iteration from the stack slots of i, n and j: the load of what the
 * iteration before stored there is issued once that value is there, its
 * address computed after, so the address's multiply is on the chain. An
 * address in a register (-O2's volatile *out) keeps the forward's chain.
 * So on cores that wait so (load.frame.elem: elem_ahead) */
static void test_elem_chain_address(void **st)
{
	(void)st;
	fixture v;
	model(&v, "vacc", volatile_src, "gcc", "-O2", "n=1000");
	int lv = loop_on(&v, 3);
	epi_mcosts kv;
	cycles(&kv);
	double fwd = chain_alone(&v, lv, &kv);
	assert_true(fabs(fwd - (kv.fwd_lat + kv.lat[EPI_IC_INT])) < 1e-9);
	kv.load_lat += 10;
	assert_true(fabs(chain_alone(&v, lv, &kv) - fwd) < 1e-9);
	model_free(&v);
	fixture x;
	model(&x, "chol", elem_src, "gcc", "-O0", "n=1000");
	int l = loop_on(&x, 3);
	epi_mcosts k;
	cycles(&k);
	double base = chain_alone(&x, l, &k);
	assert_true(base > k.fwd_lat_fp + k.lat[EPI_IC_FP_ADD]);
	k.lat[EPI_IC_INT_MUL] += 10;
	assert_true(fabs(chain_alone(&x, l, &k) - (base + 10)) < 1e-9);
	/* a core that forwards the element as a slot (elem_ahead 1) keeps
	 * the forward's chain; a share of them, that share of the wait */
	k.lat[EPI_IC_INT_MUL] -= 10;
	k.elem_ahead = 1;
	double ahead = chain_alone(&x, l, &k);
	assert_true(fabs(ahead - (k.fwd_lat_fp + k.lat[EPI_IC_FP_ADD])) < 1e-9);
	assert_true(base > ahead + 1);
	k.elem_ahead = 0.25;
	assert_true(fabs(chain_alone(&x, l, &k) - (ahead + 0.75 * (base - ahead))) < 1e-9);
	model_free(&x);
}

static const char rowsum_src[] = "void rowsum(int n, int i, double *A)\n"
				"{\n"
				"\tfor (int j = 1; j < n; j++)\n" /* 3 */
				"\t\tA[i * n + j] += A[i * n + j - 1];\n"
				"}\n";

/* K's times in seconds at a clock of GHZ, from K's in cycles */
static void in_seconds(epi_mcosts *k, double ghz)
{
	double s = 1e-9 / ghz;
	for (int c = 0; c < EPI_IC_N; c++)
		k->lat[c] *= s;
	k->load_lat *= s;
	k->fwd_lat *= s;
	k->fwd_lat_fp *= s;
	k->fwd_op_lat *= s;
	k->fwd_fail_lat *= s;
}

/* The chains do not depend on the unit of time. -O0's running sum along
 * a row (A[i][j] += A[i][j - 1]) computes the element's address from j,
 * which the loop carries through its stack slot in a cycle or two where
 * the core renames the slot's store and load: that address is ready
 * later at each iteration, so the element's chain is the forward and the
 * add, in cycles as in the nanoseconds of a 3 GHz core */
static void test_elem_chain_units(void **st)
{
	(void)st;
	fixture x;
	model(&x, "rowsum", rowsum_src, "gcc", "-O0", "n=1000");
	int l = loop_on(&x, 3);
	epi_mcosts k;
	cycles(&k);
	double base = chain_alone(&x, l, &k);
	assert_true(base >= k.fwd_lat_fp + k.lat[EPI_IC_FP_ADD]);
	in_seconds(&k, 3.0);
	assert_true(fabs(chain_alone(&x, l, &k) * 3e9 - base) < 1e-6 * base);
	model_free(&x);
}

static const char afresh_src[] = "void dist(int np, int d, const float *x, float *out)\n"
				"{\n"
				"\tfor (int p = 0; p < np; p++) {\n"
				"\t\tfloat s = 0;\n"
				"\t\tfor (int k = 0; k < d; k++)\n" /* 5 */
				"\t\t\ts += x[p * d + k] * x[p * d + k];\n"
				"\t\tout[p] = s;\n"
				"\t}\n"
				"}\n"
				"float window(int np, int k, const float *x, float *out)\n"
				"{\n"
				"\tfor (int p = 0; p < np; p++) {\n"
				"\t\tfloat s = 0;\n"
				"\t\tfor (int a = 0; a < k; a++)\n"
				"\t\t\tfor (int b = 0; b < k; b++)\n" /* 15 */
				"\t\t\t\ts += x[p + a * np + b];\n"
				"\t\tout[p] = s;\n"
				"\t}\n"
				"\treturn out[0];\n"
				"}\n"
				"float total(int np, int d, int reps, const float *x)\n"
				"{\n"
				"\tfloat s = 0;\n"
				"\tfor (int r = 0; r < reps; r++)\n"
				"\t\tfor (int p = 0; p < np; p++)\n"
				"\t\t\tfor (int k = 0; k < d; k++)\n" /* 26 */
				"\t\t\t\ts += x[p * d + k];\n"
				"\treturn s;\n"
				"}\n"
				"void blocks(int nb, int w, const float *x, float *y)\n"
				"{\n"
				"\tfor (int b = 1; b < nb; b++) {\n"
				"\t\tfloat s = y[b - 1];\n"
				"\t\tfor (int k = 0; k < w; k++)\n" /* 34 */
				"\t\t\ts += x[b * w + k];\n"
				"\t\ty[b] = s;\n"
				"\t}\n"
				"}\n";

/* afresh_src built by CC at LEVEL into X: the dot product's loop (line
 * 5), its flow at cycles() costs (K) into FL. */
static int afresh_sum(fixture *x, const char *cc, const char *level, epi_mcosts *k, epi_mflow *fl)
{
	char name[40];
	snprintf(name, sizeof name, "afresh%s%s", level + 1, cc[0] == 'a' ? "a64" : "");
	model(x, name, afresh_src, cc, level, "np=100");
	cycles(k);
	int l = loop_on(x, 5);
	epi_mflow_loop(&x->m.obj, l, k, fl);
	return l;
}

/* A sum that starts afresh at each entry (s = 0 before the loop, zeroed
 * in its register) overlaps the next entry's within the core's window:
 * its chain shortened by 1 + window / (the entry's instructions), next to
 * nothing for long entries; one that starts afresh before the loop
 * around, at each of that loop's entries; a sum carried from entry to
 * entry of the loop around is not */
static void test_fresh_chain(void **st)
{
	(void)st;
	fixture x;
	epi_mcosts k;
	epi_mflow fl;
	epi_mloop_price p;
	int l = afresh_sum(&x, "gcc", "-O2", &k, &fl);
	assert_true(fl.afresh);
	assert_true(fl.latency >= 3);
	price_alone(&x, l, 16, &k, &p);
	double alone = p.bound_t[EPI_BOUND_LATENCY];
	assert_true(fabs(alone - fl.latency) < 1e-9);
	k.window = 160;
	price_alone(&x, l, 16, &k, &p);
	double shorter = p.bound_t[EPI_BOUND_LATENCY];
	assert_true(shorter < alone / 2 && shorter > alone / 11); /* 3 to 9 instructions an iteration */
	price_alone(&x, l, 1e6, &k, &p);
	assert_true(p.bound_t[EPI_BOUND_LATENCY] > 0.999 * alone);
	/* a sum over a window's rows and columns starts afresh at each entry
	 * of the loop around: an entry of that loop is the chain */
	int w = loop_on(&x, 15);
	epi_mflow_loop(&x.m.obj, w, &k, &fl);
	assert_int_equal(fl.afresh, 2);
	k.window = 0;
	epi_mprice_loop(&x.m.obj, w, &(epi_msweep){.trip = 3, .outer_trip = 3, .round = NAN}, &k, &p);
	alone = p.bound_t[EPI_BOUND_LATENCY];
	k.window = 160;
	epi_mprice_loop(&x.m.obj, w, &(epi_msweep){.trip = 3, .outer_trip = 3, .round = NAN}, &k, &p);
	assert_true(p.bound_t[EPI_BOUND_LATENCY] < alone / 2);
	int t = loop_on(&x, 26);
	epi_mflow_loop(&x.m.obj, t, &k, &fl);
	assert_false(fl.afresh);
	price_alone(&x, t, 16, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_LATENCY] - fl.latency) < 1e-9);
	model_free(&x);
}

/* At -O0 the sum lives in a stack slot that s = 0 stores before the loop,
 * entered by a jump to its test: the chain through the slot starts afresh
 * at each entry too, and overlaps over the window such chains leave
 * (load.fwdfp.window's), not over a register chain's */
static void test_fresh_slot_chain(void **st)
{
	(void)st;
	fixture x;
	epi_mcosts k;
	epi_mflow fl;
	epi_mloop_price p;
	int l = afresh_sum(&x, "gcc", "-O0", &k, &fl);
	assert_int_equal(fl.afresh, 1);
	assert_true(fl.slot);
	assert_true(fl.latency >= 9 + 3); /* the double's round trip and the add */
	price_alone(&x, l, 16, &k, &p);
	double alone = p.bound_t[EPI_BOUND_LATENCY];
	k.window = 1000;
	price_alone(&x, l, 16, &k, &p);
	assert_true(p.bound_t[EPI_BOUND_LATENCY] == alone);
	k.window_slot = 50;
	price_alone(&x, l, 16, &k, &p);
	assert_true(p.bound_t[EPI_BOUND_LATENCY] < alone / 1.05 && p.bound_t[EPI_BOUND_LATENCY] > alone / 1.5);
	epi_mflow_loop(&x.m.obj, loop_on(&x, 15), &k, &fl);
	assert_int_equal(fl.afresh, 2);
	epi_mflow_loop(&x.m.obj, loop_on(&x, 26), &k, &fl);
	assert_false(fl.afresh);
	/* a running total by blocks: s = y[b - 1] reads what the iteration
	 * before stored (y[b] = s), so the chain goes on from entry to entry */
	epi_mflow_loop(&x.m.obj, loop_on(&x, 34), &k, &fl);
	assert_false(fl.afresh);
	model_free(&x);
	/* aarch64's the same: s = 0 a movi, or at -O0 a store of the zero
	 * register (str wzr, [sp, #40]) */
	for (int lv = 0; lv < 2 && have("aarch64-linux-gnu-gcc"); lv++) {
		l = afresh_sum(&x, "aarch64-linux-gnu-gcc", lv ? "-O2" : "-O0", &k, &fl);
		k.lat[EPI_IC_FP_FMA] = 4; /* fmadd's chain, not the pointer's */
		epi_mflow_loop(&x.m.obj, l, &k, &fl);
		assert_int_equal(fl.afresh, 1);
		assert_int_equal(fl.slot, !lv);
		epi_mflow_loop(&x.m.obj, loop_on(&x, 26), &k, &fl);
		assert_false(fl.afresh);
		model_free(&x);
	}
}

/* aarch64 -O2 walks x with ldr s0, [x0], #4: x0 is ready an add after it
 * was, not with the load's data, so the loop waits for fmadd's chain (an
 * add's cycle at these costs), not for a load each iteration */
static void test_writeback_chain(void **st)
{
	(void)st;
	if (!have("aarch64-linux-gnu-gcc"))
		skip();
	fixture x;
	epi_mcosts k;
	epi_mflow fl;
	afresh_sum(&x, "aarch64-linux-gnu-gcc", "-O2", &k, &fl);
	assert_true(fl.latency < k.load_lat);
	model_free(&x);
}

/* C from the first N of the costs OP as a table's column at 3 GHz, with
 * the typical cache sizes. */
static void costs_of(epi_mcosts *c, epi_cost *op, int n)
{
	epi_fcol col = {.khz = 3000000, .n = n, .op = op, .effective_ghz = 3, .idle_w = NAN};
	epi_mcosts_from(c, &col, (const unsigned long long[3]){0, 0, 0}, 0, 0);
}

/* elem_ahead from load.frame.elem against load.frame.row: the address's
 * wait (two loads, a multiply and four steps beyond load.fwdfp.lat's
 * forward: 2 * 4 + 3 + 4 - 9 = 6 here) not taken, all of it taken, half;
 * 0 without the kernel */
static void test_elem_ahead_from_table(void **st)
{
	(void)st;
	epi_cost op[] = {
		{.key = "add.i64", .t = 1, .e = NAN, .e_dyn = NAN},
		{.key = "add.i64.lat", .t = 1, .e = NAN, .e_dyn = NAN},
		{.key = "mul.i64.lat", .t = 3, .e = NAN, .e_dyn = NAN},
		{.key = "load.l1.lat", .t = 4, .e = NAN, .e_dyn = NAN},
		{.key = "load.fwdfp.lat", .t = 9, .e = NAN, .e_dyn = NAN},
		{.key = "load.frame.row", .t = 12, .e = NAN, .e_dyn = NAN},
		{.key = "load.frame.elem", .t = 12, .e = NAN, .e_dyn = NAN},
	};
	int n = (int)(sizeof op / sizeof *op);
	epi_mcosts c;
	costs_of(&c, op, n);
	assert_true(fabs(c.elem_ahead - 1) < 1e-9);
	op[n - 1].t = 15;
	costs_of(&c, op, n);
	assert_true(fabs(c.elem_ahead - 0.5) < 1e-9);
	op[n - 1].t = 30;
	costs_of(&c, op, n);
	assert_true(c.elem_ahead == 0);
	costs_of(&c, op, n - 1);
	assert_true(c.elem_ahead == 0);
}

/* The window from add.f64.window's chains against add.f64.lat's: 258
 * instructions a chain, ended twice as fast, hold 258 more in flight;
 * none without the kernel, or where it is no faster than the chain */
static void test_window_from_table(void **st)
{
	(void)st;
	epi_cost op[3] = {
		{.key = "add.i64", .t = 1, .e = NAN, .e_dyn = NAN},
		{.key = "add.f64.lat", .t = 3, .e = NAN, .e_dyn = NAN},
		{.key = "add.f64.window", .t = 1.5, .e = NAN, .e_dyn = NAN},
	};
	epi_mcosts c;
	costs_of(&c, op, 3);
	assert_true(fabs(c.window - 258) < 1e-9);
	assert_true(c.window_slot == 0);
	op[2].t = 3.5;
	costs_of(&c, op, 3);
	assert_true(c.window == 0);
	costs_of(&c, op, 2);
	assert_true(c.window == 0);
	/* through a slot: 386 instructions a chain, a link of 9 + 3 cycles
	 * ended in 10 */
	epi_cost slot[4] = {
		{.key = "add.i64", .t = 1, .e = NAN, .e_dyn = NAN},
		{.key = "add.f64.lat", .t = 3, .e = NAN, .e_dyn = NAN},
		{.key = "load.fwdfp.lat", .t = 9, .e = NAN, .e_dyn = NAN},
		{.key = "load.fwdfp.window", .t = 10, .e = NAN, .e_dyn = NAN},
	};
	costs_of(&c, slot, 4);
	assert_true(fabs(c.window_slot - 386 * 0.2) < 1e-9);
	assert_true(c.window == 0);
}

static const char csr_src[] = "void csr(int n, const int *rp, const int *col, const double *v, const double *x,\n"
			      "\t double *y)\n"
			      "{\n"
			      "\tfor (int i = 0; i < n; i++) {\n" /* 4 */
			      "\t\tdouble s = 0;\n"
			      "\t\tfor (int j = rp[i]; j < rp[i + 1]; j++)\n" /* 6 */
			      "\t\t\ts += v[j] * x[col[j]];\n"
			      "\t\ty[i] = s;\n"
			      "\t}\n"
			      "}\n";

/* A sparse matrix's rows: the test whether a row's loop runs at all
 * compares bounds read from memory, but goes the way the rows' loops do
 * (seldom empty), as a predictor learns: no misprediction priced for it */
static void test_row_guard(void **st)
{
	(void)st;
	fixture x;
	model(&x, "csr", csr_src, "gcc", "-O2", "n=100");
	const epi_object *o = &x.m.obj;
	int l = -1;
	for (int i = 0; i < o->nloop; i++)
		if (o->loop[i].parent < 0 && o->loop[i].src >= 0 && x.m.loops[o->loop[i].src].line == 4)
			l = i;
	assert_true(l >= 0);
	/* the outer loop's own code tests the row's bounds before its loop */
	int conds = 0;
	for (int i = o->loop[l].first; i <= o->loop[l].last; i++)
		conds += o->loop_of[i] == l && o->in[i].klass == EPI_IC_BRANCH && o->in[i].cond;
	assert_true(conds >= 2);
	epi_mcosts k;
	cycles(&k);
	epi_mflow fl;
	epi_mflow_loop(o, l, &k, &fl);
	assert_true(fl.misses == 0);
	model_free(&x);
}

static const char imul_src[] = "long dotk(int n, const int *a, const int *b)\n"
			       "{\n"
			       "\tlong s = 0;\n"
			       "\tfor (int i = 0; i < n; i++)\n" /* 4 */
			       "\t\ts += a[i] * b[i * 64];\n"
			       "\treturn s;\n"
			       "}\n";

/* An integer multiply takes one of the integer units' turns, as an add
 * does, on the units that multiply: the integer bound is the larger of
 * all the integer work's turns and the multiplies at their own rate,
 * not their sum */
static void test_multiply_turns(void **st)
{
	(void)st;
	fixture x;
	model(&x, "imul", imul_src, "gcc", "-O2", "n=4000");
	int l = loop_on(&x, 4);
	epi_mcosts k;
	cycles(&k);
	for (int c = 0; c < EPI_IC_N; c++)
		k.tp[c] = 0.25;
	k.tp[EPI_IC_BRANCH] = 0.5;
	k.tp[EPI_IC_INT_MUL] = 1;
	double turns = 0, mul = 0;
	const epi_object *o = &x.m.obj;
	for (int i = o->loop[l].first; i <= o->loop[l].last; i++) {
		if (o->loop_of[i] != l)
			continue;
		enum epi_iclass c = o->in[i].klass;
		double w = o->weight[i];
		if (c == EPI_IC_INT_MUL) {
			turns += w * 0.25;
			mul += w;
		} else if (c == EPI_IC_INT || c == EPI_IC_BRANCH || c == EPI_IC_CALL || c == EPI_IC_RET ||
			   c == EPI_IC_OTHER) {
			turns += w * k.tp[c];
		}
	}
	assert_true(mul >= 1 && turns > mul);
	epi_mloop_price p;
	price_alone(&x, l, 4000, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_INT] - turns) < 1e-9);
	/* the multiplies alone bound it when their units are slow enough */
	k.tp[EPI_IC_INT_MUL] = 2 * turns / mul;
	price_alone(&x, l, 4000, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_INT] - 2 * turns) < 1e-9);
	model_free(&x);
}

static const char div_src[] = "void qd(int n, int d, const int *x, int *q, double *r)\n"
			      "{\n"
			      "\tfor (int i = 0; i < n; i++) {\n" /* 3 */
			      "\t\tq[i] = x[i] / d + i;\n"
			      "\t\tr[i] = (double)i / d;\n"
			      "\t}\n"
			      "}\n";

/* The dividers work beside the other units and beside each other: an
 * integer and a floating-point division an iteration bound it at the
 * slower of the two, not at their sum with the other integer work */
static void test_dividers(void **st)
{
	(void)st;
	fixture x;
	model(&x, "div", div_src, "gcc", "-O2", "n=1000");
	int l = loop_on(&x, 3);
	epi_mcosts k;
	cycles(&k);
	k.tp[EPI_IC_INT] = 0.25;
	k.tp[EPI_IC_INT_DIV] = 7;
	k.tp[EPI_IC_FP_DIV] = 5;
	epi_mloop_price p;
	price_alone(&x, l, 1000, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_DIV] - 7) < 1e-9);
	assert_true(p.bound_t[EPI_BOUND_INT] < 7);
	assert_string_equal(epi_bound_name(EPI_BOUND_DIV), "div");
	k.tp[EPI_IC_FP_DIV] = 9;
	price_alone(&x, l, 1000, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_DIV] - 9) < 1e-9);
	assert_int_equal(p.bound, EPI_BOUND_DIV);
	/* the dividers overlap the rest less than the other units do: their
	 * bound and the norm of the others combine as a 2-norm */
	assert_true(p.bound_t[EPI_BOUND_DRAM] == 0 && p.bound_t[EPI_BOUND_BRANCH] == 0);
	double rest = 0, lines = 0;
	for (int b = 0; b < EPI_BOUND_L2; b++)
		if (b != EPI_BOUND_DIV)
			rest += pow(p.bound_t[b], EPI_OVERLAP_NORM);
	for (int b = EPI_BOUND_L2; b < EPI_BOUND_DRAM; b++)
		lines = fmax(lines, p.bound_t[b]);
	rest = pow(rest + pow(lines, EPI_OVERLAP_NORM), 1 / EPI_OVERLAP_NORM);
	assert_true(rest > 1);
	assert_true(fabs(p.t - sqrt(rest * rest + 81)) < 1e-9);
	model_free(&x);
}

static const char peel_src[] = "void sy(int n, double alpha, double *c, const double *a, const double *b)\n"
			       "{\n"
			       "\tfor (int i = 0; i < n; i++)\n" /* 3 */
			       "\t\tfor (int k = 0; k <= i; k++) {\n" /* 4 */
			       "\t\t\tdouble s = alpha * a[i * n + k];\n"
			       "\t\t\tfor (int j = 0; j < n; j++)\n" /* 6 */
			       "\t\t\t\tc[i * n + j] += s * b[k * n + j];\n"
			       "\t\t}\n"
			       "}\n";

/* clang -O2 vectorises the loop on j and leaves its last iteration as
 * straight code in the loop on k: that iteration's multiply, add and
 * store are the loop on j's work, so the loop on k runs once a source
 * iteration (its own work one multiply), not twice */
static void test_peeled_iteration(void **st)
{
	(void)st;
	fixture x;
	model(&x, "peel", peel_src, "clang-19", "-O2", "n=101");
	int n;
	double k_iters = on_line(&x, 4, &n, 1);
	assert_true(n >= 1);
	assert_true(fabs(k_iters - 101 * 102 / 2) < 1e-6);
	for (int i = 0; i < x.m.obj.nloop; i++) {
		int s = x.m.obj.loop[i].src;
		if (s >= 0 && x.m.loops[s].line == 4)
			assert_true(x.m.cnt.l[i].k == 1);
	}
	/* the loop on j: every source iteration covered once */
	assert_true(fabs(on_line(&x, 6, &n, 1) - 101.0 * 101 * 102 / 2) < 1e-6);
	model_free(&x);
}

static const char fdiv_src[] = "float qf(int n, float d, float e, float *r)\n"
			       "{\n"
			       "\tfor (int i = 0; i < n; i++)\n" /* 3 */
			       "\t\tr[i] = (float)i / d;\n"
			       "\tfor (int i = 0; i < n; i++)\n" /* 5 */
			       "\t\te = e / d;\n"
			       "\treturn e;\n"
			       "}\n";

/* A single-precision division takes the divider for its own time (and a
 * chain of them its own latency), a double's without the kernels */
static void test_float_divides(void **st)
{
	(void)st;
	fixture x;
	model(&x, "fdiv", fdiv_src, "gcc", "-O2", "n=1000");
	int l = loop_on(&x, 3), c = loop_on(&x, 5);
	epi_mcosts k;
	cycles(&k);
	k.tp[EPI_IC_INT] = 0.25;
	k.tp[EPI_IC_FP_DIV] = 5;
	k.lat[EPI_IC_FP_DIV] = 13;
	k.fdiv32_tp = 3;
	k.fdiv32_lat = 10;
	epi_mloop_price p;
	price_alone(&x, l, 1000, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_DIV] - 3) < 1e-9);
	epi_mflow f;
	epi_mflow_loop(&x.m.obj, c, &k, &f);
	assert_true(fabs(f.latency - 10) < 1e-9);
	/* a table without them */
	k.fdiv32_tp = k.fdiv32_lat = 0;
	price_alone(&x, l, 1000, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_DIV] - 5) < 1e-9);
	epi_mflow_loop(&x.m.obj, c, &k, &f);
	assert_true(fabs(f.latency - 13) < 1e-9);
	model_free(&x);
}

static const char idiv_src[] = "int qi(int n, int d, int e, long dl, long el, int *r, long *rl)\n"
			       "{\n"
			       "\tfor (int i = 0; i < n; i++)\n" /* 3 */
			       "\t\tr[i] = i / d;\n"
			       "\tfor (int i = 0; i < n; i++)\n" /* 5 */
			       "\t\te = e / d;\n"
			       "\tfor (long i = 0; i < n; i++)\n" /* 7 */
			       "\t\trl[i] = i / dl;\n"
			       "\tfor (int i = 0; i < n; i++)\n" /* 9 */
			       "\t\tel = el / dl;\n"
			       "\treturn e + (int)el;\n"
			       "}\n";

/* A 32-bit integer division takes the divider for its own time (and a
 * chain of them its own latency), a 64-bit one for the 64-bit kernels';
 * without the 32-bit kernels, both the 64-bit ones */
static void test_int_divides(void **st)
{
	(void)st;
	fixture x;
	model(&x, "idiv", idiv_src, "gcc", "-O2", "n=1000");
	int l32 = loop_on(&x, 3), c32 = loop_on(&x, 5), l64 = loop_on(&x, 7), c64 = loop_on(&x, 9);
	epi_mcosts k;
	cycles(&k);
	k.tp[EPI_IC_INT] = 0.25;
	k.tp[EPI_IC_INT_DIV] = 7;
	k.lat[EPI_IC_INT_DIV] = 13;
	k.idiv32_tp = 6;
	k.idiv32_lat = 12;
	epi_mloop_price p;
	epi_mflow f;
	price_alone(&x, l32, 1000, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_DIV] - 6) < 1e-9);
	epi_mflow_loop(&x.m.obj, c32, &k, &f);
	assert_true(fabs(f.latency - (12 + 1)) < 1e-9); /* and cltd's cycle */
	price_alone(&x, l64, 1000, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_DIV] - 7) < 1e-9);
	epi_mflow_loop(&x.m.obj, c64, &k, &f);
	assert_true(fabs(f.latency - (13 + 1)) < 1e-9); /* and cqo's */
	/* a table without them */
	k.idiv32_tp = k.idiv32_lat = 0;
	price_alone(&x, l32, 1000, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_DIV] - 7) < 1e-9);
	epi_mflow_loop(&x.m.obj, c32, &k, &f);
	assert_true(fabs(f.latency - (13 + 1)) < 1e-9);
	model_free(&x);
}

static const char switch_src[] = "long sw(const unsigned char *op, int n)\n"
				 "{\n"
				 "\tlong acc = 0;\n"
				 "\tfor (int i = 0; i < n; i++) {\n" /* 4 */
				 "\t\tswitch (op[i] & 15) {\n"
				 "\t\tcase 0: acc = acc * 3 + 1; break;\n"
				 "\t\tcase 1: acc = acc * 4 + 8; break;\n"
				 "\t\tcase 2: acc = acc * 5 + 15; break;\n"
				 "\t\tcase 3: acc = acc * 6 + 22; break;\n"
				 "\t\tcase 4: acc = acc * 7 + 29; break;\n"
				 "\t\tcase 5: acc = acc * 8 + 36; break;\n"
				 "\t\tcase 6: acc = acc * 9 + 43; break;\n"
				 "\t\tcase 7: acc = acc * 10 + 50; break;\n"
				 "\t\tcase 8: acc = acc * 11 + 57; break;\n"
				 "\t\tcase 9: acc = acc * 12 + 64; break;\n"
				 "\t\tcase 10: acc = acc * 13 + 71; break;\n"
				 "\t\tcase 11: acc = acc * 14 + 78; break;\n"
				 "\t\tcase 12: acc = acc * 15 + 85; break;\n"
				 "\t\tcase 13: acc = acc * 16 + 92; break;\n"
				 "\t\tcase 14: acc = acc * 17 + 99; break;\n"
				 "\t\tcase 15: acc = acc * 18 + 106; break;\n"
				 "\t\t}\n"
				 "\t}\n"
				 "\treturn acc;\n"
				 "}\n";

/* A switch compiled to a jump table by CC: the cases, which only the
 * indirect jump reaches, are the loop's, each run in one of the jump's
 * runs in as many as it has targets (sixteen, all of them, where the jump
 * is on every way round the loop: ALL); the table's entry is no work of
 * the source's, so one machine iteration is one source iteration */
static void check_jump_table(const char *cc, int all)
{
	fixture x;
	model(&x, "switch", switch_src, cc, "-O2", "n=1000");
	const epi_object *o = &x.m.obj;
	int l = loop_on(&x, 4), jumps = 0, tables = 0, cases = 0;
	assert_true(l >= 0);
	for (int i = 0; i < o->nin; i++) {
		const epi_insn *in = &o->in[i];
		if (in->klass == EPI_IC_BRANCH && !in->direct && !in->cond) {
			jumps++;
			assert_int_equal(o->loop_of[i], l);
		}
		tables += o->dispatch[i];
		if (o->loop_of[i] == l && o->weight[i] < 1 && in->klass != EPI_IC_NOP) {
			if (all)
				assert_true(fabs(o->weight[i] - 1.0 / 16) < 1e-6);
			cases += o->weight[i] < 0.1;
		}
	}
	assert_int_equal(jumps, 1);
	assert_int_equal(tables, 1);
	assert_true(cases >= 15);
	assert_true(fabs(x.m.cnt.l[l].iters - 1000) < 1e-9);
	model_free(&x);
}

static void test_jump_table(void **st)
{
	(void)st;
	check_jump_table("gcc", 1);
	/* case 0 behind a test of its own, the table's fifteen behind it */
	if (have("aarch64-linux-gnu-gcc"))
		check_jump_table("aarch64-linux-gnu-gcc", 0);
	else
		print_message("aarch64-linux-gnu-gcc missing: aarch64 not tested\n");
}

/* A switch that gcc compiles to compares, each case advancing the
 * pointer on its own way back (-O2), or recomputing the element from the
 * index (-O0): the loop's ways share each iteration (the blocks that step
 * the pointer run once an iteration between them), every access moves by
 * the struct's 16 bytes, one machine iteration is one source iteration,
 * and the branches on the loaded kind are the data's to decide */
static const char ways_src[] = "struct pt { float x, y, z; int kind; };\n"
			       "float step(struct pt *p, int n)\n"
			       "{\n"
			       "\tfloat e = 0;\n"
			       "\tfor (int i = 0; i < n; i++) {\n" /* 5 */
			       "\t\tswitch (p[i].kind) {\n"
			       "\t\tcase 0: p[i].x += 0.5f; break;\n"
			       "\t\tcase 1: p[i].y *= 0.99f; break;\n"
			       "\t\tcase 2: p[i].z = p[i].x - p[i].y; break;\n"
			       "\t\tdefault: e += p[i].z;\n"
			       "\t\t}\n"
			       "\t}\n"
			       "\treturn e;\n"
			       "}\n";

/* gcc -O2 enters the loop in its middle, past the compare of the pointer
 * with the end (cmp rdi, rdx): a compare sets the flags only, so every
 * access of the loop moves by a step known when compiled */
static void test_compare_writes_flags(void **st)
{
	(void)st;
	fixture x;
	model(&x, "ways", ways_src, "gcc", "-O2", "n=1000");
	const epi_object *o = &x.m.obj;
	int l = loop_on(&x, 5), moving = 0;
	assert_true(l >= 0);
	for (int i = 0; i < o->nin; i++)
		if (o->loop_of[i] == l && (o->in[i].loads || o->in[i].stores) && !o->frame[i]) {
			assert_true(o->stride[i] != EPI_STRIDE_UNKNOWN && o->stride[i] != EPI_STRIDE_RUNTIME);
			moving += o->stride[i] != 0;
		}
	assert_true(moving >= 4);
	model_free(&x);
}

static void check_ways(const char *cc, const char *flags)
{
	fixture x;
	model(&x, "ways", ways_src, cc, flags, "n=1000");
	const epi_object *o = &x.m.obj;
	int l = loop_on(&x, 5), accesses = 0, steppers = 0;
	assert_true(l >= 0);
	double stepped = 0, conds = 0;
	for (int i = 0; i < o->nin; i++) {
		const epi_insn *in = &o->in[i];
		if (o->loop_of[i] != l)
			continue;
		assert_true(o->weight[i] > 0 && o->weight[i] <= 1);
		if ((in->loads || in->stores) && !o->frame[i] && o->stride[i] != 0) { /* not a constant's */
			assert_true(o->stride[i] == 16);
			accesses++;
		}
		unsigned r;
		int64_t k;
		if (epi_steps_reg(in, &r, &k) && k == 16) {
			stepped += o->weight[i];
			steppers++;
		}
		conds += in->klass == EPI_IC_BRANCH && in->cond && o->weight[i] < 1;
	}
	assert_true(accesses >= 4);
	if (steppers) /* the pointer, once an iteration whichever way it takes */
		assert_true(fabs(stepped - 1) < 1e-6);
	assert_true(conds >= 1);
	assert_true(fabs(x.m.cnt.l[l].iters - 1000) < 1e-9);
	epi_mcosts k;
	cycles(&k);
	epi_mflow fl;
	epi_mflow_loop(o, l, &k, &fl);
	assert_true(fl.misses > 0.5);
	model_free(&x);
}

static void test_switch_ways(void **st)
{
	(void)st;
	check_ways("gcc", "-O2");
	check_ways("gcc", "-O0");
	/* aarch64 -O0 stores a variable's slot with the register first
	 * (str w0, [sp, #20]): i's step, and the elements' with it */
	if (have("aarch64-linux-gnu-gcc")) {
		check_ways("aarch64-linux-gnu-gcc", "-O2");
		check_ways("aarch64-linux-gnu-gcc", "-O0");
	} else {
		print_message("aarch64-linux-gnu-gcc missing: aarch64 not tested\n");
	}
}

/* A merge: each iteration advances one index or the other, as the data
 * says. -O0 keeps i in a stack slot and writes a[i++] as a load of i, an
 * lea of i + 1 into another register and its store back: the elements
 * still move with the iteration, and the compare of a[i] with b[j] is the
 * data's to decide at both levels: the indices are stepped, not set from
 * the data as a running minimum's would be, and the register that one
 * arm sets to a[i] (-O2) is loaded anew with b[j] before the next compare */
static const char merge_src[] = "void merge(int n, const int *a, const int *b, int *c)\n"
				"{\n"
				"\tint i = 0, j = 0;\n"
				"\tfor (int k = 0; k < 2 * n; k++) {\n" /* 4 */
				"\t\tif (j >= n || (i < n && a[i] <= b[j]))\n"
				"\t\t\tc[k] = a[i++];\n"
				"\t\telse\n"
				"\t\t\tc[k] = b[j++];\n"
				"\t}\n"
				"}\n";

static void test_merge_ways(void **st)
{
	(void)st;
	/* aarch64 -O0 computes i + 1 into another register (add w1, w0, #1)
	 * and stores it back with the register named first; -O2 indexes with
	 * the 32-bit register (ldr w6, [x2, w7, sxtw #2]) */
	const char *const *ccs = both_ccs, *const *levels = both_levels;
	for (int v = 0; v < 4; v++) {
		if (v >= 2 && !have(ccs[v])) {
			print_message("%s missing: aarch64 not tested\n", ccs[v]);
			break;
		}
		fixture x;
		model(&x, "merge", merge_src, ccs[v], levels[v], "n=1000");
		const epi_object *o = &x.m.obj;
		epi_mcosts k;
		cycles(&k);
		/* gcc -O2 makes versions of the loop (the tail of either
		 * array, one inside another: its indices change there; on
		 * aarch64 a cycle entered at two places) */
		int loads = 0;
		double misses = 0;
		for (int l = 0; l < o->nloop; l++) {
			if (o->loop[l].src < 0 || x.m.loops[o->loop[l].src].line != 4)
				continue;
			for (int i = 0; i < o->nin; i++) {
				if (o->loop_of[i] != l || o->frame[i])
					continue;
				if (o->in[i].loads)
					loads += o->stride[i] > 0 && o->stride[i] <= 4;
				/* c[k], once an iteration whichever way */
				else if (o->in[i].stores && o->stride[i] > 0)
					assert_int_equal(o->stride[i], 4);
			}
			epi_mflow fl;
			epi_mflow_loop(o, l, &k, &fl);
			misses = fl.misses > misses ? fl.misses : misses;
		}
		assert_true(loads >= 2);
		assert_true(misses > 0);
		model_free(&x);
	}
}

/* Selection sort's running minimum: the compare of a[j] with a[min] goes
 * the same way more and more often as the minimum settles, so it counts
 * as predictable. clang-19 -O2 enters the inner loop past its latch and
 * keeps min in two registers (r9 = j, set back to min on the other way,
 * then min = r9 on the way back): the value the branch chose is marked
 * where it is written, whatever the order the walk meets the code in */
static const char minsort_src[] = "void ssort(int n, int *a)\n"
				  "{\n"
				  "\tfor (int i = 0; i < n - 1; i++) {\n"
				  "\t\tint m = i;\n"
				  "\t\tfor (int j = i + 1; j < n; j++)\n" /* 5 */
				  "\t\t\tif (a[j] < a[m])\n"
				  "\t\t\t\tm = j;\n"
				  "\t\tint t = a[i];\n"
				  "\t\ta[i] = a[m];\n"
				  "\t\ta[m] = t;\n"
				  "\t}\n"
				  "}\n";

static void test_running_min(void **st)
{
	(void)st;
	const char *ccs[] = {"gcc", "gcc", "clang-19", "clang-19"}, *levels[] = {"-O0", "-O2", "-O0", "-O2"};
	for (int v = 0; v < 4; v++) {
		if (v >= 2 && !have("clang-19"))
			break;
		fixture x;
		model(&x, "minsort", minsort_src, ccs[v], levels[v], "n=1000");
		epi_mcosts k;
		cycles(&k);
		int seen = 0;
		for (int l = 0; l < x.m.obj.nloop; l++) {
			if (x.m.obj.loop[l].src < 0 || x.m.loops[x.m.obj.loop[l].src].line != 5)
				continue;
			epi_mflow fl;
			epi_mflow_loop(&x.m.obj, l, &k, &fl);
			assert_true(fl.misses == 0);
			seen++;
		}
		assert_true(seen >= 1);
		model_free(&x);
	}
}

/* Gauss-Seidel in place: aarch64 gcc -O2 steps the pointer to the row
 * through another register (add x3, x2, #8; mov x2, x3) and reads the
 * row below with a pre-index writeback (ldr d6, [x0, #16]!), x0 set
 * afresh from x2 each iteration: every access of the j loop moves 8 bytes
 * an iteration, as at x86 */
static const char seidel_src[] = "void seidel(int n, int t, double *A)\n"
				 "{\n"
				 "\tfor (int s = 0; s < t; s++)\n"
				 "\t\tfor (int i = 1; i < n - 1; i++)\n"
				 "\t\t\tfor (int j = 1; j < n - 1; j++)\n" /* 5 */
				 "\t\t\t\tA[i * n + j] = (A[(i - 1) * n + j - 1] + A[(i - 1) * n + j] + A[(i - 1) * n + j + 1] +\n"
				 "\t\t\t\t\t\tA[i * n + j - 1] + A[i * n + j] + A[i * n + j + 1] + A[(i + 1) * n + j - 1] +\n"
				 "\t\t\t\t\t\tA[(i + 1) * n + j] + A[(i + 1) * n + j + 1]) / 9.0;\n"
				 "}\n";

static void test_copied_step(void **st)
{
	(void)st;
	const char *ccs[] = {"gcc", "aarch64-linux-gnu-gcc"};
	for (int v = 0; v < 2; v++) {
		if (!have(ccs[v])) {
			print_message("%s missing: not tested\n", ccs[v]);
			continue;
		}
		fixture x;
		model(&x, "seidel", seidel_src, ccs[v], "-O2", "n=1000");
		const epi_object *o = &x.m.obj;
		int l = loop_on(&x, 5), n = 0;
		for (int i = 0; i < o->nin; i++)
			if (o->loop_of[i] == l && (o->in[i].loads || o->in[i].stores) && !o->frame[i]) {
				assert_int_equal(o->stride[i], 8);
				n++;
			}
		assert_true(n >= 4);
		model_free(&x);
	}
}

/* SRC built by CC FLAGS, modelled with n = 100: the chain and the
 * mispredictions of the loop on each of the N LINES, in cycles, into OUT. */
static void flows(const char *name, const char *src, const char *cc, const char *flags, const int *lines, int n,
		  epi_mflow *out)
{
	fixture x;
	model(&x, name, src, cc, flags, "n=100");
	epi_mcosts k;
	cycles(&k);
	for (int i = 0; i < n; i++)
		epi_mflow_loop(&x.m.obj, loop_on(&x, lines[i]), &k, &out[i]);
	model_free(&x);
}

static const char chain_src[] = "void ps(int n, double *s, const double *v)\n"
				"{\n"
				"\tfor (int i = 1; i < n; i++)\n" /* 3 */
				"\t\ts[i] = s[i - 1] + v[i];\n"
				"}\n";

/* s[i - 1] is the element the iteration before stored: each iteration
 * waits for its round trip through memory and the add; clang -O0 widens
 * the index with movsxd, which the address's form goes through */
static void test_memory_chain(void **st)
{
	(void)st;
	epi_mflow fl;
	flows("chain", chain_src, "gcc", "-O0", (const int[]){3}, 1, &fl);
	assert_true(fl.latency >= 9 + 3);
	assert_true(fl.misses == 0);
	if (!have("clang-19"))
		skip();
	flows("chain", chain_src, "clang-19", "-O0", (const int[]){3}, 1, &fl);
	assert_true(fl.latency >= 9 + 3);
}

/* The same down a column: v[j * n + i] from v[(j + 1) * n + i], a step
 * of a row known only at run time; the store of one iteration and the
 * load of the next meet in the forms carried over the passes */
static const char column_src[] = "void back(int n, int i, double *v, const double *p)\n"
				 "{\n"
				 "\tfor (int j = n - 2; j >= 1; j--)\n" /* 3 */
				 "\t\tv[j * n + i] = p[j] * v[(j + 1) * n + i] + 1.0;\n"
				 "}\n";

static void test_column_chain(void **st)
{
	(void)st;
	epi_mflow fl;
	flows("column", column_src, "gcc", "-O0", (const int[]){3}, 1, &fl);
	assert_true(fl.latency >= 9 + 3);
	if (!have("clang-19"))
		skip();
	flows("column", column_src, "clang-19", "-O0", (const int[]){3}, 1, &fl);
	assert_true(fl.latency >= 9 + 3);
}

static const char branch_src[] = "long above(int n, const int *v, int t)\n"
				 "{\n"
				 "\tlong c = 0;\n"
				 "\tfor (int i = 0; i < n; i++)\n" /* 4 */
				 "\t\tif (v[i] > t)\n"
				 "\t\t\tc++;\n"
				 "\treturn c;\n"
				 "}\n"
				 "int top(int n, const int *v)\n"
				 "{\n"
				 "\tint m = v[0];\n"
				 "\tfor (int i = 1; i < n; i++)\n" /* 12 */
				 "\t\tif (v[i] > m)\n"
				 "\t\t\tm = v[i];\n"
				 "\treturn m;\n"
				 "}\n"
				 "void relax(int n, int *d, const int *a, int b)\n"
				 "{\n"
				 "\tfor (int j = 0; j < n; j++)\n" /* 19 */
				 "\t\tif (a[j] + b < d[j])\n"
				 "\t\t\td[j] = a[j] + b;\n"
				 "}\n"
				 "void odd(int n, int *a)\n"
				 "{\n"
				 "\tfor (int i = 0; i < n; i++)\n" /* 25 */
				 "\t\tif (i & 1)\n"
				 "\t\t\ta[i] = 0;\n"
				 "}\n";

/* A branch on the data mispredicts at min(p, 1 - p); one that updates what
 * it compared (a running maximum, a relaxation) or that follows the
 * iteration does not */
static void test_data_branches(void **st)
{
	(void)st;
	static const int line[] = {4, 12, 19, 25};
	static const double misses[] = {0.5, 0, 0, 0};
	epi_mflow fl[4];
	flows("branch", branch_src, "gcc", "-O0", line, 4, fl);
	for (int i = 0; i < 4; i++)
		if (fl[i].misses != misses[i])
			fail_msg("the loop on line %d: %g mispredictions per iteration, not %g", line[i], fl[i].misses,
				 misses[i]);
}

static const char select_src[] = "void sel(int n, int *v)\n"
				 "{\n"
				 "\tfor (int i = 0; i < n; i++) {\n" /* 3 */
				 "\t\tint m = i;\n"
				 "\t\tfor (int j = i + 1; j < n; j++)\n" /* 5 */
				 "\t\t\tif (v[j] < v[m])\n"
				 "\t\t\t\tm = j;\n"
				 "\t\tint x = v[i];\n"
				 "\t\tv[i] = v[m];\n"
				 "\t\tv[m] = x;\n"
				 "\t}\n"
				 "}\n";

/* gcc -O2 gives the outer loop's last branch the inner loop's line: a
 * machine loop with a loop inside is still matched to the outer source
 * loop, each machine loop to a source loop at its own depth */
static void test_match_depth(void **st)
{
	(void)st;
	fixture x;
	model(&x, "select", select_src, "gcc", "-O2", "n=100");
	int n3, n5;
	on_line(&x, 3, &n3, 0);
	on_line(&x, 5, &n5, 0);
	assert_true(n3 >= 1 && n5 >= 1);
	for (int i = 0; i < x.m.obj.nloop; i++) {
		int s = x.m.obj.loop[i].src;
		assert_true(s >= 0);
		assert_int_equal(x.m.obj.loop[i].depth, x.m.loops[s].depth);
	}
	model_free(&x);
}

static const char inlined_src[] = "static void cols(int n, const double *a, const double *y, double *x)\n"
				  "{\n"
				  "\tfor (int i = 0; i < n; i++) {\n" /* 3 */
				  "\t\tdouble s = x[i];\n"
				  "\t\tfor (int j = 0; j < n; j++)\n" /* 5 */
				  "\t\t\ts += a[j * n + i] * y[j];\n"
				  "\t\tx[i] = s;\n"
				  "\t}\n"
				  "}\n"
				  "void run(int n, const double *a, const double *y, double *x)\n"
				  "{\n"
				  "\tfor (int r = 0; r < 7; r++)\n" /* 12 */
				  "\t\tcols(n, a, y, x);\n"
				  "}\n";

/* gcc -O2 inlines cols into run's loop: its loops are inside run's in the
 * machine code, not in the source, and are matched all the same, each
 * run its exact count */
static void test_match_inlined(void **st)
{
	(void)st;
	fixture x;
	model(&x, "inlined", inlined_src, "gcc", "-O2", "n=100");
	int n;
	assert_true(on_line(&x, 3, &n, 0) == 700 && n == 1);
	assert_true(on_line(&x, 5, &n, 0) == 70000 && n == 1);
	int up = x.m.obj.loop[loop_on(&x, 3)].parent;
	assert_true(up >= 0 && x.m.obj.loop[up].src >= 0);
	assert_int_equal(x.m.loops[x.m.obj.loop[up].src].line, 12);
	model_free(&x);
}

static const char opchain_src[] = "void ps(int n, const unsigned *x, unsigned *y)\n"
				  "{\n"
				  "\tunsigned s = 0;\n"
				  "\tfor (int i = 0; i < n; i++) {\n" /* 4 */
				  "\t\ts += x[i];\n"
				  "\t\ty[i] = s;\n"
				  "\t}\n"
				  "}\n";

/* clang -O0 adds the stack slot of s into a register (add slot, reg): the
 * load is not renamed, each iteration waits for the forward */
static void test_forward_into_op(void **st)
{
	(void)st;
	if (!have("clang-19"))
		skip();
	epi_mflow fl;
	flows("opchain", opchain_src, "clang-19", "-O0", (const int[]){4}, 1, &fl);
	assert_true(fl.latency >= 7 + 1);
}

static const char guarded_src[] = "unsigned all(int n, const unsigned *v)\n"
				  "{\n"
				  "\tunsigned s = 1;\n"
				  "\tfor (int i = 0; i < n; i++)\n" /* 4 */
				  "\t\ts = s * 3 + v[i];\n"
				  "\treturn s;\n"
				  "}\n"
				  "unsigned some(int n, const unsigned *v)\n"
				  "{\n"
				  "\tunsigned s = 1;\n"
				  "\tfor (int i = 0; i < n; i++)\n" /* 11 */
				  "\t\tif (v[i] & 1)\n"
				  "\t\t\ts = s * 3 + v[i];\n"
				  "\treturn s;\n"
				  "}\n";

/* a chain through code half the iterations run grows half as fast */
static void test_guarded_chain(void **st)
{
	(void)st;
	epi_mflow fl[2]; /* every iteration, half of them */
	flows("guarded", guarded_src, "gcc", "-O0", (const int[]){4, 11}, 2, fl);
	if (!(fl[1].latency < 0.75 * fl[0].latency && fl[1].latency > 0.25 * fl[0].latency))
		fail_msg("chain %g per iteration, %g when half the iterations run it", fl[0].latency, fl[1].latency);
}

/* loads and stores share the core's address units: with an access a cycle
 * of either kind and loads ten times faster alone, the load bound of an
 * -O0 loop is its accesses, loads and stores together */
static void test_access_bound(void **st)
{
	(void)st;
	fixture x;
	model(&x, "access", chain_src, "gcc", "-O0", "n=100");
	epi_mcosts k;
	cycles(&k);
	k.load_tp = 0.1;
	k.store_tp = 0.1;
	k.access_tp = 1;
	k.slot_tp = 1;
	int l = loop_on(&x, 3);
	const epi_mloop *ml = &x.m.obj.loop[l];
	epi_mloop_price p;
	epi_mprice_loop(&x.m.obj, l, &(epi_msweep){.trip = NAN, .outer_trip = NAN, .round = NAN}, &k, &p);
	assert_true(ml->own.stores >= 2 && ml->own.loads >= 4);
	assert_true(fabs(p.bound_t[EPI_BOUND_LOAD] - (ml->own.loads + ml->own.stores)) < 1e-9);
	/* the accesses of a stack slot the loop stores (i, loaded back after
	 * i++) at load.mix.frame's rate; those of the slots it only reads
	 * (n, s, v) and the elements' at load.mix.l1's */
	const epi_object *o = &x.m.obj;
	double slots = 0, read = 0, other = 0;
	for (int i = ml->first; i <= ml->last; i++) {
		if (o->loop_of[i] != l)
			continue;
		int stored = 0;
		for (int j = ml->first; j <= ml->last && o->frame[i]; j++)
			stored |= o->loop_of[j] == l && o->frame[j] && o->in[j].stores && o->in[j].disp == o->in[i].disp;
		*(stored ? &slots : o->frame[i] ? &read : &other) += o->weight[i] * (o->in[i].loads + o->in[i].stores);
	}
	assert_true(slots >= 3 && read >= 3 && other >= 1);
	k.slot_tp = 3;
	epi_mprice_loop(&x.m.obj, l, &(epi_msweep){.trip = NAN, .outer_trip = NAN, .round = NAN}, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_LOAD] - (3 * slots + read + other)) < 1e-9);
	model_free(&x);
}

static const char count_src[] = "long count(int n, const int *v)\n"
				"{\n"
				"\tlong c = 0;\n"
				"\tfor (int i = 0; i < n; i++)\n" /* 4 */
				"\t\tc += v[i] > 7;\n"
				"\treturn c;\n"
				"}\n"
				"long pick(int n, const int *v)\n"
				"{\n"
				"\tlong c = 0;\n"
				"\tfor (int i = 0; i < n; i++) {\n" /* 11 */
				"\t\tif (v[i] & 1)\n"
				"\t\t\tc = c * 3 + v[i];\n"
				"\t\telse\n"
				"\t\t\tc = c / 2 - v[i];\n"
				"\t}\n"
				"\treturn c;\n"
				"}\n";

/* X's code moved so that loop L's first instruction starts OFF bytes into
 * a 64-byte line (every address and direct target alike) */
static void place(fixture *x, int l, unsigned off)
{
	epi_object *o = &x->m.obj;
	uint64_t first = o->in[o->loop[l].first].addr;
	uint64_t d = (first | 63) + 1 + off - first;
	for (int i = 0; i < o->nin; i++) {
		o->in[i].addr += d;
		if (o->in[i].direct)
			o->in[i].target += d;
	}
}

/* The front end follows a taken branch in the empty loop's time: an
 * iteration takes at least that for each branch it takes (its backward
 * branch; of an if and its else, the jump over the one not run), and for
 * each other 64-byte line of code it runs into, iter.split's; the bound is
 * then the issue's. A table without the empty loop sets no floor. */
static void test_taken_branches(void **st)
{
	(void)st;
	fixture x;
	model(&x, "taken", count_src, "gcc", "-O1", "n=1000");
	epi_mcosts k;
	cycles(&k);
	k.issue = 0.25;
	k.load_tp = k.store_tp = 0.5;
	int l = loop_on(&x, 4);
	epi_mloop_price p;
	price_alone(&x, l, 1000, &k, &p);
	assert_true(p.t < 5);
	k.taken = 20;
	price_alone(&x, l, 1000, &k, &p);
	/* one taken branch an iteration: the loop's own */
	assert_true(fabs(p.t - 20) < 1e-9);
	assert_int_equal(p.bound, EPI_BOUND_ISSUE);
	assert_true(fabs(p.bound_t[EPI_BOUND_ISSUE] - 20) < 1e-9);
	/* the front end enters a 64-byte line of code a turn: the same body
	 * run on into the next line takes the split's time more */
	k.split = 7;
	const epi_object *o = &x.m.obj;
	const epi_insn *last = &o->in[o->loop[l].last];
	uint64_t bytes = last->addr + last->size - o->in[o->loop[l].first].addr;
	assert_true(bytes > 8 && bytes < 64);
	place(&x, l, 0);
	price_alone(&x, l, 1000, &k, &p);
	assert_true(fabs(p.t - 20) < 1e-9);
	/* the last instruction in the next line */
	place(&x, l, (unsigned)(64 - bytes + 1));
	price_alone(&x, l, 1000, &k, &p);
	assert_true(fabs(p.t - 27) < 1e-9);
	assert_int_equal(p.bound, EPI_BOUND_ISSUE);
	/* the first instruction across the line: entered by the loop's
	 * branch, it ends in the next */
	place(&x, l, 63);
	price_alone(&x, l, 1000, &k, &p);
	assert_true(fabs(p.t - 27) < 1e-9);
	k.split = 0;
	/* an if and its else: the backward branch, and one of the branch
	 * over the else's block and the jump over it, on each way */
	l = loop_on(&x, 11);
	price_alone(&x, l, 1000, &k, &p);
	assert_true(p.t > 20 * 1.4 && p.t <= 20 * 2 + 1e-9);
	model_free(&x);
}

static const char mv_src[] = "void mv(int n, const double *a, const double *x, double *y)\n"
			     "{\n"
			     "\tfor (int i = 0; i < n; i++) {\n" /* 3 */
			     "\t\tdouble s = 0;\n"
			     "\t\tfor (int j = 0; j < n; j++)\n" /* 5 */
			     "\t\t\ts += a[i * n + j] * x[j];\n"
			     "\t\ty[i] = s;\n"
			     "\t}\n"
			     "}\n";

/* Costs of a machine with 32 KiB, 1 MiB and 32 MiB of cache, lines from
 * them in order in 2, 4 and 10 cycles, 40 in no order. */
static void memory_cycles(epi_mcosts *k)
{
	cycles(k);
	k->cache[0] = 32 << 10;
	k->cache[1] = 1 << 20;
	k->cache[2] = 32 << 20;
	k->line[0] = 2;
	k->line[1] = 4;
	k->line[2] = 10;
	for (int i = 0; i < 3; i++) {
		k->wline[i] = 2 * k->line[i];
		k->cline[i] = k->line[i];
	}
	k->near_share = 1;
	k->scatter = 40;
}

/* A row sweep, y = A x: x starts where it did at each row, A one row on.
 * With n = 2000 a row of A and x fill L1 (from L2 then), and A is larger
 * than the last cache: A's lines come at memory's rate, a line per 8
 * elements, x's beside them at L3's (the near lines' share of it, all of
 * it here), and they overlap the add chain only in part; with n = 100 x stays in
 * L1 and A, from L2, costs less than the chain it overlaps, and about as
 * much when its lines come slower. */
static void test_row_sweep(void **st)
{
	(void)st;
	fixture x;
	model(&x, "mv", mv_src, "gcc", "-O2", "n=2000");
	int l = loop_on(&x, 5);
	int again = 0, moves = 0;
	for (int i = 0; i < x.m.obj.nin; i++) {
		if (x.m.obj.loop_of[i] != l || !x.m.obj.in[i].loads)
			continue;
		again += x.m.obj.outer_stride[i] == 0;
		moves += x.m.obj.outer_stride[i] == EPI_STRIDE_RUNTIME;
	}
	assert_int_equal(again, 1);
	assert_int_equal(moves, 1);
	epi_mcosts k;
	memory_cycles(&k);
	assert_true(fabs(epi_mloop_bytes(&x.m.obj, l, 2000) - 32000) < 1e-9);
	epi_mloop_price p;
	epi_mprice_loop(&x.m.obj, l, &(epi_msweep){.trip = 2000, .outer_trip = 2000, .round = 32000}, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_DRAM] - (1.25 + 0.5)) < 1e-9);
	assert_true(fabs(p.bound_t[EPI_BOUND_LATENCY] - 3) < 1e-9);
	assert_true(fabs(p.t - cbrt(27 + 1.75 * 1.75 * 1.75)) < 1e-9);
	epi_mprice_loop(&x.m.obj, l, &(epi_msweep){.trip = 100, .outer_trip = 100, .round = 1600}, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_L2] - 0.25) < 1e-9 && p.bound_t[EPI_BOUND_DRAM] == 0);
	/* A's lines from L2 beside the add chain: the bounds overlap as a
	 * norm, nearly the chain's alone where it leads by far, 2^(1/p)
	 * times it where the lines take as long (24 cycles a line) */
	assert_true(fabs(p.t - pow(pow(3, EPI_OVERLAP_NORM) + pow(0.25, EPI_OVERLAP_NORM), 1 / EPI_OVERLAP_NORM)) < 1e-9);
	assert_true(p.t < 3.0001);
	k.line[0] = 24;
	epi_mprice_loop(&x.m.obj, l, &(epi_msweep){.trip = 100, .outer_trip = 100, .round = 1600}, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_L2] - 3) < 1e-9);
	assert_true(fabs(p.t - 3 * pow(2, 1 / EPI_OVERLAP_NORM)) < 1e-9);
	k.line[0] = 2;
	/* n = 1000: A's 8 MB within a quarter of the 32 MiB L3 was measured
	 * to serve, its lines from there; a share of them from memory where
	 * it serves 16 MiB (8,008,000 bytes an entry of the row loop, from
	 * a quarter of the reach to all of it); all from memory when it
	 * serves only 4 MiB (a socket's L3 that other cores share) */
	epi_msweep mid = {.trip = 1000, .outer_trip = 1000, .round = 16000};
	k.l3_serves = 32 << 20;
	epi_mprice_loop(&x.m.obj, l, &mid, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_L3] - 0.5) < 1e-9 && p.bound_t[EPI_BOUND_DRAM] == 0);
	double from_l3 = p.t;
	k.l3_serves = 4 << 20;
	epi_mprice_loop(&x.m.obj, l, &mid, &k, &p);
	double from_dram = p.t;
	k.l3_serves = 16 << 20;
	epi_mprice_loop(&x.m.obj, l, &mid, &k, &p);
	double share = (8008000.0 - (4 << 20)) / (double)(12 << 20);
	assert_true(fabs(p.bound_t[EPI_BOUND_L3] - (1 - share) * 0.5) < 1e-9);
	assert_true(fabs(p.bound_t[EPI_BOUND_DRAM] - share * 1.25) < 1e-9);
	assert_true(fabs(p.t - ((1 - share) * from_l3 + share * from_dram)) < 1e-9);
	k.l3_serves = 4 << 20;
	epi_mprice_loop(&x.m.obj, l, &mid, &k, &p);
	assert_true(p.bound_t[EPI_BOUND_L3] == 0 && fabs(p.bound_t[EPI_BOUND_DRAM] - 1.25) < 1e-9);
	/* n = 2000 where x's lines, from L2, cost a quarter of L3's beside
	 * A's (load.l3.near): 1.25 for A's, 0.125 for x's; never less than
	 * x's from L2 alone (a line in 20 cycles: 2.5) */
	k.l3_serves = 0;
	k.near_share = 0.25;
	epi_msweep big = {.trip = 2000, .outer_trip = 2000, .round = 32000};
	epi_mprice_loop(&x.m.obj, l, &big, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_DRAM] - 1.375) < 1e-9);
	/* beside memory's lines, where the table has load.dram.near, at
	 * what it measures a line: 8 cycles, 1 for x's */
	k.near_mem = 8;
	epi_mprice_loop(&x.m.obj, l, &big, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_DRAM] - 2.25) < 1e-9);
	k.near_mem = 0;
	k.near_share = 0;
	k.line[0] = 20;
	epi_mprice_loop(&x.m.obj, l, &big, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_DRAM] - 2.5) < 1e-9);
	model_free(&x);
}

/* Machine loop L of X over sweep SW at memory_cycles() with a large TLB,
 * where L3 serves 32 MiB (ALL), 16 MiB (HALF) and 4 MiB (SMALL). */
static void price_reaches(const fixture *x, int l, const epi_msweep *sw, epi_mloop_price *all, epi_mloop_price *half,
			  epi_mloop_price *small)
{
	epi_mcosts k;
	memory_cycles(&k);
	k.stlb = 1 << 20;
	k.l3_serves = 32 << 20;
	epi_mprice_loop(&x->m.obj, l, sw, &k, all);
	k.l3_serves = 16 << 20;
	epi_mprice_loop(&x->m.obj, l, sw, &k, half);
	k.l3_serves = 4 << 20;
	epi_mprice_loop(&x->m.obj, l, sw, &k, small);
}

static const char triad_src[] = "void triad(int n, double *restrict a, const double *restrict b,\n"
				"\t   const double *restrict c)\n"
				"{\n"
				"\tfor (int i = 0; i < n; i++)\n" /* 4 */
				"\t\ta[i] = b[i] + 1.5 * c[i];\n"
				"}\n";

/* A loop with none around it in its function (a kernel its caller runs
 * again and again) over 8 MB: what an entry touches is what the next
 * finds, as for an entry of a loop around: from L3 where L3 serves 32
 * MiB, a share of its lines from memory where it serves 16 MiB (from a
 * quarter of the reach to all of it), all from memory where it serves
 * 4 MiB */
static void test_kernel_in_l3(void **st)
{
	(void)st;
	fixture x;
	model(&x, "triad", triad_src, "gcc", "-O2", "n=1000");
	int l = loop_on(&x, 4);
	assert_true(x.m.obj.loop[l].parent < 0);
	double trip = 8e6 / (epi_mloop_bytes(&x.m.obj, l, 1000) / 1000);
	double span = epi_mloop_bytes(&x.m.obj, l, trip);
	assert_true(fabs(span - 8e6) < 1);
	epi_mloop_price l3, some, dram;
	price_reaches(&x, l, &(epi_msweep){.trip = trip, .outer_trip = NAN, .round = NAN}, &l3, &some, &dram);
	assert_true(l3.bound_t[EPI_BOUND_L3] > 0 && l3.bound_t[EPI_BOUND_DRAM] == 0);
	assert_true(dram.bound_t[EPI_BOUND_DRAM] > 0 && dram.t > l3.t);
	double share = (span - (4 << 20)) / (double)(12 << 20);
	assert_true(fabs(some.t - ((1 - share) * l3.t + share * dram.t)) < 1e-9 * dram.t);
	model_free(&x);
}

static const char stencil_src[] = "#define N 1000\n"
				  "void jac(double A[N][N], double B[N][N])\n"
				  "{\n"
				  "\tfor (int i = 1; i < N - 1; i++)\n"     /* 4 */
				  "\t\tfor (int j = 1; j < N - 1; j++)\n" /* 5 */
				  "\t\t\tB[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);\n"
				  "}\n";

/* A five-point stencil over rows of 8,000 bytes: rows i - 1, i and i + 1
 * of A start from one register at the row's iteration, 8,000 bytes apart;
 * of them only the row the next iterations read again first (i + 1) brings
 * new lines, the others read lines it brought one and two rows before
 * (from the level that holds a round). With L3 smaller than A, A's new
 * lines and B's come from memory, the two rows read again beside them at
 * the near lines' share of an L3 line (a quarter here). */
static void test_stencil_rows(void **st)
{
	(void)st;
	fixture x;
	model(&x, "stencil", stencil_src, "gcc", "-O2", NULL);
	int l = loop_on(&x, 5);
	epi_object *o = &x.m.obj;
	int rows = 0, first = -1;
	int64_t lo = INT64_MAX, hi = INT64_MIN, step = 0;
	for (int i = o->loop[l].first; i <= o->loop[l].last; i++) {
		if (o->loop_of[i] != l || !o->in[i].loads || !o->group[i] || o->outer_stride[i] != 8000)
			continue;
		if (first < 0)
			first = i;
		if (o->group[i] != o->group[first])
			continue;
		rows++;
		lo = o->group_off[i] < lo ? o->group_off[i] : lo;
		hi = o->group_off[i] > hi ? o->group_off[i] : hi;
		step = o->stride[i];
	}
	assert_true(rows >= 3);
	assert_true(hi - lo >= 16000 && hi - lo < 16000 + 64);
	assert_true(step == 8 || step == 16);
	epi_mcosts k;
	memory_cycles(&k);
	k.cache[2] = 4 << 20;
	k.near_share = 0.25;
	epi_msweep sw = {.trip = 998, .outer_trip = 998, .round = epi_mloop_bytes(o, l, 998)};
	epi_mloop_price p, alone;
	epi_mprice_loop(o, l, &sw, &k, &p);
	double lines = (double)step / 64;
	/* a line of A read (10 cycles), a line of B only written (20), two
	 * of A read again at a quarter of L3's price (4) */
	assert_true(fabs(p.bound_t[EPI_BOUND_DRAM] - lines * (10 + 20 + 0.25 * 2 * 4)) < 1e-9);
	/* the rows taken apart: three lines of A from memory */
	uint16_t *g = o->group;
	o->group = NULL;
	epi_mprice_loop(o, l, &sw, &k, &alone);
	o->group = g;
	assert_true(fabs(alone.bound_t[EPI_BOUND_DRAM] - lines * (3 * 10 + 20)) < 1e-9);
	model_free(&x);
}

static const char back_src[] = "#define W 600\n"
			       "#define H 500\n"
			       "void back(float y[W][H], float x[W][H], float a, float b)\n"
			       "{\n"
			       "\tfor (int j = 0; j < H; j++) {\n" /* 5 */
			       "\t\tfloat t = 0, u = 0;\n"
			       "\t\tfor (int i = W - 1; i >= 0; i--) {\n" /* 7 */
			       "\t\t\ty[i][j] = a * t + b * u;\n"
			       "\t\t\tu = t;\n"
			       "\t\t\tt = x[i][j];\n"
			       "\t\t}\n"
			       "\t}\n"
			       "}\n";

/* A column walked upwards, entered at its test (gcc -O2: jmp into the
 * loop, the exit at its last instruction, not at the branch back to its
 * head): the offset leaves the loop equal to the register it is compared
 * with, which the loop around steps by 4, so each column starts 4 bytes
 * on from the last (near lines, not a column of its own each time). */
static void test_mid_entry_exit(void **st)
{
	(void)st;
	fixture x;
	model(&x, "back", back_src, "gcc", "-O2", NULL);
	int l = loop_on(&x, 7);
	const epi_object *o = &x.m.obj;
	int acc = 0;
	for (int i = o->loop[l].first; i <= o->loop[l].last; i++) {
		if (o->loop_of[i] != l || !(o->in[i].loads || o->in[i].stores) || o->frame[i])
			continue;
		acc++;
		assert_true(o->stride[i] == -2000);
		assert_true(o->outer_stride[i] == 4);
	}
	assert_int_equal(acc, 2);
	model_free(&x);
}

static const char sweeps_src[] = "#define N 100000\n"
				 "void sweeps(int reps, unsigned x[N], unsigned y[N])\n"
				 "{\n"
				 "\tfor (int r = 0; r < reps; r++) {\n" /* 4 */
				 "\t\tunsigned s = 0;\n"
				 "\t\tfor (int i = 0; i < N; i++) {\n" /* 6 */
				 "\t\t\ts += x[i];\n"
				 "\t\t\ty[i] = s;\n"
				 "\t\t}\n"
				 "\t\tfor (int i = 0; i < N; i++)\n" /* 10 */
				 "\t\t\tx[i] = y[i] ^ (unsigned)r;\n"
				 "\t}\n"
				 "}\n";

/* Two sweeps over the same two arrays in each iteration of the loop
 * around: what one of its iterations touches is the arrays once (800,000
 * bytes), not each sweep's bytes added (1,600,000), which would take it
 * a cache level further when the arrays fill half of one. */
static void test_sweeps_round(void **st)
{
	(void)st;
	fixture x;
	model(&x, "sweeps", sweeps_src, "gcc", "-O2", "reps=10");
	const epi_object *o = &x.m.obj;
	int up = loop_on(&x, 4);
	double *trip = xcalloc((size_t)o->nloop + 1, sizeof *trip);
	double added = 0;
	int inside = 0;
	for (int l = 0; l < o->nloop; l++)
		if (o->loop[l].parent == up && x.m.cnt.l[l].trip > 0) {
			trip[l] = x.m.cnt.l[l].trip;
			added += epi_mloop_bytes(o, l, trip[l]);
			inside++;
		}
	assert_true(inside >= 2);
	assert_true(fabs(added - 1600000) < 1600000 * 0.01);
	double *round = xcalloc((size_t)o->nloop + 1, sizeof *round);
	epi_mround_bytes(o, trip, round);
	assert_true(fabs(round[up] - 800000) < 800000 * 0.01);
	free(round);
	free(trip);
	model_free(&x);
}

static const char scale_src[] = "void scale(int n, const double *a, double *b)\n"
				"{\n"
				"\tfor (int i = 0; i < n; i++)\n" /* 3 */
				"\t\tb[i] = 2 * a[i];\n"
				"}\n";

/* b[i] = 2 * a[i] over 4 MB, from L3: a line of a read and a line of b
 * only written per 8 iterations, b's at the price of a line written (the
 * store kernels'), not of two lines read */
static void test_written_lines(void **st)
{
	(void)st;
	fixture x;
	model(&x, "scale", scale_src, "gcc", "-O2", "n=1000000");
	int l = loop_on(&x, 3);
	epi_mcosts k;
	memory_cycles(&k);
	k.wline[1] = 6;
	epi_mloop_price p;
	price_alone(&x, l, 2.5e5, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_L3] - (4 + 6) / 8.0) < 1e-9);
	model_free(&x);
}

/* A walk down columns 16000 bytes apart (the row the loop around walks
 * along, 2000 doubles): a line an access, seven in eight left in L2 by the
 * column before, the eighth from memory at the rate of lines in no order,
 * all in the sweeps over a new column */
static void test_column_walk(void **st)
{
	(void)st;
	fixture x;
	model(&x, "cols", nest_src, "gcc", "-O2", "n=2000");
	int l = loop_on(&x, 6);
	epi_mcosts k;
	memory_cycles(&k);
	epi_mloop_price p;
	double round = epi_mloop_bytes(&x.m.obj, l, 2000);
	assert_true(fabs(round - 2000 * (64 + 8)) < 1e-9);
	epi_mprice_loop(&x.m.obj, l, &(epi_msweep){.trip = 2000, .outer_trip = 2000, .round = round}, &k, &p);
	/* the row: 1/8 line from L2; the column: 7/8 from L2, 1/8 scattered */
	assert_true(fabs(p.bound_t[EPI_BOUND_DRAM] - (0.125 * 2 + 0.875 * 2 + 0.125 * 40)) < 1e-9);
	/* the eighth of the iterations that sweep a new column each wait 40
	 * cycles; the others overlap their two cycles of lines with the add
	 * chain, 3 */
	double rest = cbrt(27 + 8);
	assert_true(fabs(p.t - (0.125 * 40 + 0.875 * rest)) < 1e-9);
	/* memory twice as slow for lines in no order: the sweeps wait twice
	 * as long, however many instructions the loop has in flight */
	k.scatter = 80;
	epi_mprice_loop(&x.m.obj, l, &(epi_msweep){.trip = 2000, .outer_trip = 2000, .round = round}, &k, &p);
	assert_true(fabs(p.t - (0.125 * 80 + 0.875 * rest)) < 1e-9);
	k.scatter = 40;
	/* 100 columns (2 MB): the column's new lines from L3, at its rate for
	 * lines in no order (load.l3.scatter) where that is slower */
	epi_msweep few = {.trip = 2000, .outer_trip = 100, .round = round};
	epi_mprice_loop(&x.m.obj, l, &few, &k, &p);
	double in_order = p.bound_t[EPI_BOUND_L3];
	assert_true(in_order > 0 && p.bound_t[EPI_BOUND_DRAM] == 0);
	k.cline[1] = 12;
	epi_mprice_loop(&x.m.obj, l, &few, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_L3] - in_order - 0.125 * (12 - 4)) < 1e-9);
	model_free(&x);
}

/* A column copy, b's column from a's: both move a line an access, and
 * in the sweeps over a new column the iteration waits for the line its
 * load needs; the store's line drains through the store buffer (its
 * traffic counts with the lines, not with the waits) */
static const char colcopy_src[] = "void cp(int n, const double *a, double *b)\n"
				  "{\n"
				  "\tfor (int j = 0; j < n; j++)\n"
				  "\t\tfor (int i = 0; i < n; i++)\n" /* 4 */
				  "\t\t\tb[i * n + j] = 2 * a[i * n + j];\n"
				  "}\n";

static void test_column_sweep_loads(void **st)
{
	(void)st;
	fixture x;
	model(&x, "colcp", colcopy_src, "gcc", "-O2", "n=2000");
	int l = loop_on(&x, 4);
	epi_mcosts k;
	memory_cycles(&k);
	const epi_msweep sw = {.trip = 2000, .outer_trip = 2000, .round = epi_mloop_bytes(&x.m.obj, l, 2000)};
	epi_mloop_price p40, p80;
	epi_mprice_loop(&x.m.obj, l, &sw, &k, &p40);
	k.scatter = 80;
	epi_mprice_loop(&x.m.obj, l, &sw, &k, &p80);
	/* an eighth of the iterations wait: 40 more cycles each */
	assert_true(fabs(p80.bound_t[EPI_BOUND_DRAM] - p40.bound_t[EPI_BOUND_DRAM] - 0.125 * 40) < 1e-9);
	model_free(&x);
}

/* The walk down b's column of nest_src built at gcc -O2 with n = N: its
 * machine loop, and one entry of it for pricing into *SW. */
static int column_of(fixture *x, const char *name, int n, epi_msweep *sw)
{
	char bind[32];
	snprintf(bind, sizeof bind, "n=%d", n);
	model(x, name, nest_src, "gcc", "-O2", bind);
	int l = loop_on(x, 6);
	*sw = (epi_msweep){.trip = n, .outer_trip = n, .round = epi_mloop_bytes(&x->m.obj, l, n)};
	return l;
}

/* Rows of 1,024 doubles (8 KiB): the walk's lines all at one offset in
 * their pages, so in 1/64 of the sets of each cache; its 1,024 lines
 * (64 KiB) that the next column reads again are kept by L3 only, not by
 * L2 (1 MiB here). Rows of 1,000 doubles fall in every set, and 2,000
 * doubles (16,000 bytes: 128 bytes on within a page) in half of them:
 * from L2 both. Without the page's size, no sets told apart. */
static void test_set_conflict(void **st)
{
	(void)st;
	static const struct {
		int n;
		double again; /* the price of a line the next column reads again */
	} want[] = {{1024, 4}, {1000, 2}, {2000, 2}};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		fixture x;
		epi_msweep sw;
		char name[32];
		snprintf(name, sizeof name, "sets%d", want[i].n);
		int l = column_of(&x, name, want[i].n, &sw);
		epi_mcosts k;
		memory_cycles(&k);
		k.page = 4096;
		k.cache[2] = 256 << 20; /* the matrix (8 to 32 MB) well within L3 */
		epi_mloop_price p;
		epi_mprice_loop(&x.m.obj, l, &sw, &k, &p);
		/* a's row from L2, an eighth of a line an access; the column's
		 * lines again (7/8 of the accesses); the eighth that the next
		 * column brings from L3 */
		double lines = 0.125 * 2 + 0.875 * want[i].again + 0.125 * 4;
		assert_true(fabs(p.bound_t[EPI_BOUND_L3] - lines) < 1e-9);
		if (want[i].again > 2) {
			k.page = 0;
			epi_mprice_loop(&x.m.obj, l, &sw, &k, &p);
			assert_true(fabs(p.bound_t[EPI_BOUND_L3] - (0.125 * 2 + 0.875 * 2 + 0.125 * 4)) < 1e-9);
		}
		model_free(&x);
	}
}

/* Rows two pages apart (1,024 doubles) fall in half of the second-level
 * TLB's sets and take twice their pages of it, on the miss curve; rows of
 * 1,000 doubles (not a whole number of pages) all of them, as every walk
 * does in a TLB of one set or of sets not known */
static void test_tlb_sets(void **st)
{
	(void)st;
	static const struct {
		int n, sets;
		double per;
	} want[] = {{1024, 256, 4}, {1024, 1, 2}, {1024, 0, 2}, {1000, 256, 2}};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		fixture x;
		epi_msweep sw;
		char name[32];
		snprintf(name, sizeof name, "tlbsets%zu", i);
		int l = column_of(&x, name, want[i].n, &sw);
		epi_mcosts k;
		memory_cycles(&k);
		k.page = 4096;
		k.stlb = 4096;
		k.stlb_sets = want[i].sets;
		k.dtlb = 64;
		k.ntlb = 3;
		k.tlb_x[0] = 0.25, k.tlb_t[0] = 2;
		k.tlb_x[1] = 0.5, k.tlb_t[1] = 4;
		k.tlb_x[2] = 1, k.tlb_t[2] = 8;
		epi_mloop_price p;
		epi_mprice_loop(&x.m.obj, l, &sw, &k, &p);
		/* a new page each access: 1,000 or 1,024 pages of 4,096 */
		assert_true(fabs(p.bound_t[EPI_BOUND_TLB] - want[i].per) < 0.05);
		model_free(&x);
	}
}

/* A column of a walked again for every row of b (the first loop of a
 * Cholesky test matrix, b = a a^T): at n = 2,000 its 2,000 pages outgrow
 * the TLB, while b's rows come from memory. The walks read page tables
 * that b's stream evicts: their time adds to the lines', not to the
 * core's bounds */
static const char aat_src[] = "void aat(int n, double b[2000][2000], double a[2000][2000])\n"
			      "{\n"
			      "\tfor (int t = 0; t < n; t++)\n"
			      "\t\tfor (int r = 0; r < n; r++)\n"
			      "\t\t\tfor (int s = 0; s < n; s++)\n" /* 5 */
			      "\t\t\t\tb[r][s] += a[r][t] * a[s][t];\n"
			      "}\n";

static void test_walks_beside_memory(void **st)
{
	(void)st;
	fixture x;
	model(&x, "aat", aat_src, "gcc", "-O2", "n=2000");
	int l = loop_on(&x, 5);
	epi_msweep sw = {.trip = 2000, .outer_trip = 2000, .round = epi_mloop_bytes(&x.m.obj, l, 2000)};
	epi_mcosts k;
	memory_cycles(&k);
	k.stlb = 1024;
	epi_mloop_price p0, p;
	epi_mprice_loop(&x.m.obj, l, &sw, &k, &p0);
	double mem = p0.bound_t[EPI_BOUND_DRAM];
	assert_true(mem > 0 && p0.bound_t[EPI_BOUND_TLB] == 0);
	double core = cbrt(pow(p0.t, 3) - pow(mem, 3));
	k.walk = 15;
	epi_mprice_loop(&x.m.obj, l, &sw, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_TLB] - 15) < 1e-9);
	assert_true(fabs(p.t - cbrt(pow(core, 3) + pow(mem + 15, 3))) < 1e-6 * p.t);
	model_free(&x);
}

/* A transpose: b's column written, a page on at each element, beside a's
 * rows from memory. Within the TLB's reach each store's page is found in
 * the second level, which reads no page table and holds up nothing behind
 * the store: that lookup stays with the core's bounds (-O2). Where a chain
 * through a stack slot stores at each iteration too (-O0), its stores wait
 * in order behind the column's: the lookup adds to the lines' time. */
static const char transpose_src[] = "void tr(int n, const double *a, double *b)\n"
				    "{\n"
				    "\tfor (int i = 0; i < n; i++)\n"
				    "\t\tfor (int j = 0; j < n; j++)\n" /* 4 */
				    "\t\t\tb[j * n + i] = a[i * n + j];\n"
				    "}\n";

static void test_store_walks_beside_memory(void **st)
{
	(void)st;
	static const char *const level[] = {"-O2", "-O0"};
	for (int v = 0; v < 2; v++) {
		fixture x;
		model(&x, "transpose", transpose_src, "gcc", level[v], "n=2000");
		int l = loop_on(&x, 4);
		epi_msweep sw = {.trip = 2000, .outer_trip = 2000, .round = epi_mloop_bytes(&x.m.obj, l, 2000)};
		epi_mcosts k;
		memory_cycles(&k);
		k.stlb = 4096;
		k.dtlb = 64;
		epi_mloop_price p0, p;
		epi_mprice_loop(&x.m.obj, l, &sw, &k, &p0);
		double mem = p0.bound_t[EPI_BOUND_DRAM];
		assert_true(mem > 0 && p0.bound_t[EPI_BOUND_TLB] == 0);
		/* 2,000 of 4,096 pages: a hit in the second level, 3 a store */
		k.ntlb = 2;
		k.tlb_x[0] = 0.5, k.tlb_t[0] = 3;
		k.tlb_x[1] = 1, k.tlb_t[1] = 6;
		epi_mprice_loop(&x.m.obj, l, &sw, &k, &p);
		assert_true(fabs(p.bound_t[EPI_BOUND_TLB] - 3) < 1e-9);
		assert_true(fabs(p.bound_t[EPI_BOUND_DRAM] - mem) < 1e-9 * mem);
		double core = 0;
		for (int b = 0; b < EPI_BOUND_L2; b++)
			if (b != EPI_BOUND_DIV && (v == 0 || b != EPI_BOUND_TLB))
				core += pow(p.bound_t[b], EPI_OVERLAP_NORM);
		double lines = 0;
		for (int b = EPI_BOUND_L2; b < EPI_BOUND_DRAM; b++)
			lines = fmax(lines, p.bound_t[b]);
		core = pow(core + pow(lines, EPI_OVERLAP_NORM), 1 / EPI_OVERLAP_NORM);
		core = sqrt(core * core + p.bound_t[EPI_BOUND_DIV] * p.bound_t[EPI_BOUND_DIV]);
		double want = cbrt(pow(core, 3) + pow(mem + (v == 0 ? 0 : 3), 3));
		assert_true(fabs(p.t - p.bound_t[EPI_BOUND_BRANCH] - want) < 1e-6 * p.t);
		model_free(&x);
	}
}

/* A column walk over more pages than the TLB maps: each access (a row
 * of 16,000 bytes on) turns a page, at the table's page-walk rate; with
 * the pages mapped, or a table without the kernel, no walks; rows farther
 * apart, at the far walk's rate */
static void test_page_walks(void **st)
{
	(void)st;
	fixture x;
	epi_msweep sw;
	int l = column_of(&x, "walk", 2000, &sw);
	epi_mcosts k;
	memory_cycles(&k);
	k.walk = 15;
	epi_mloop_price p;
	k.stlb = 1024;
	epi_mprice_loop(&x.m.obj, l, &sw, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_TLB] - 15) < 1e-9);
	assert_int_equal(p.bound, EPI_BOUND_TLB);
	assert_string_equal(epi_bound_name(p.bound), "tlb");
	k.stlb = 4096;
	epi_mprice_loop(&x.m.obj, l, &sw, &k, &p);
	assert_true(p.bound_t[EPI_BOUND_TLB] == 0);
	/* within the reach, on the table's miss curve: 2,000 of 4,096 pages */
	k.dtlb = 64;
	k.ntlb = 2;
	k.tlb_x[0] = 0.5, k.tlb_t[0] = 3;
	k.tlb_x[1] = 1, k.tlb_t[1] = 6;
	epi_mprice_loop(&x.m.obj, l, &sw, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_TLB] - 3) < 1e-9);
	k.ntlb = 0;
	k.stlb = 1024;
	k.walk = 0;
	epi_mprice_loop(&x.m.obj, l, &sw, &k, &p);
	assert_true(p.bound_t[EPI_BOUND_TLB] == 0);
	/* the row loop around it walks no column */
	int r = loop_on(&x, 4);
	k.walk = 15;
	epi_mprice_loop(&x.m.obj, r, &(epi_msweep){.trip = 2000, .outer_trip = 2000, .round = NAN}, &k, &p);
	assert_true(p.bound_t[EPI_BOUND_TLB] == 0);
	model_free(&x);
	/* rows 32 KB apart (n = 4096): each walk's page-table entry on a line
	 * of its own, at the far kernel's time; without it, the walk's; 16 KB
	 * apart, the walk's */
	k.walk_far = 20;
	l = column_of(&x, "farwalk", 4096, &sw);
	epi_mprice_loop(&x.m.obj, l, &sw, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_TLB] - 20) < 1e-9);
	k.walk_far = 0;
	epi_mprice_loop(&x.m.obj, l, &sw, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_TLB] - 15) < 1e-9);
	model_free(&x);
	k.walk_far = 20;
	l = column_of(&x, "nearwalk", 2048, &sw);
	epi_mprice_loop(&x.m.obj, l, &sw, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_TLB] - 15) < 1e-9);
	model_free(&x);
}

/* Two columns of matrices n doubles wide, walked along i: q's column k,
 * which the loop around keeps, beside a's column j, which it moves on */
static const char twocol_src[] = "double twocol(int n, int k, const double *a, const double *q)\n"
				 "{\n"
				 "\tdouble t = 0;\n"
				 "\tfor (int j = k; j < n; j++) {\n"
				 "\t\tdouble s = 0;\n"
				 "\t\tfor (int i = 0; i < n; i++)\n" /* 6 */
				 "\t\t\ts += q[i * n + k] * a[i * n + j];\n"
				 "\t\tt += s;\n"
				 "\t}\n"
				 "\treturn t;\n"
				 "}\n";

/* Column walks whose step is known only at run time: the row is what the
 * loop around moves a's walk along over its largest entry (a triangle's
 * longest row, not its mean), and q's walk, which that loop does not
 * move, turns pages down rows as long */
static void test_runtime_rows(void **st)
{
	(void)st;
	fixture x;
	model(&x, "twocol", twocol_src, "gcc", "-O2", "n=2000");
	int l = loop_on(&x, 6);
	const epi_object *o = &x.m.obj;
	int walks = 0, kept = 0;
	for (int i = o->loop[l].first; i <= o->loop[l].last; i++)
		if (o->loop_of[i] == l && o->in[i].loads && o->stride[i] == EPI_STRIDE_RUNTIME) {
			walks++;
			kept += o->outer_stride[i] == 0;
		}
	assert_int_equal(walks, 2);
	assert_int_equal(kept, 1);
	epi_mcosts k;
	memory_cycles(&k);
	k.stlb = 1024;
	k.walk = 15;
	epi_mloop_price p;
	/* rows of 1,000 x 8 bytes: a page an access, both walks past the TLB */
	epi_mprice_loop(o, l, &(epi_msweep){.trip = 2000, .outer_trip = 1000, .round = NAN}, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_TLB] - 2 * 15) < 1e-9);
	/* 300 x 8: a page every 4,096 / 2,400 accesses */
	epi_mprice_loop(o, l, &(epi_msweep){.trip = 2000, .outer_trip = 300, .round = NAN}, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_TLB] - 2 * 15 * 2400 / 4096.0) < 1e-9);
	/* a spread not known: as none */
	epi_mprice_loop(o, l, &(epi_msweep){.trip = 2000, .outer_trip = 300, .round = NAN, .outer_spread = NAN}, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_TLB] - 2 * 15 * 2400 / 4096.0) < 1e-9);
	/* 300 on average over a triangle (0 to 600): rows of 600 x 8 */
	epi_mprice_loop(o, l, &(epi_msweep){.trip = 2000, .outer_trip = 300, .round = NAN, .outer_spread = 1 / sqrt(3)},
			&k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_TLB] - 2 * 15) < 1e-9);
	model_free(&x);
}

static const char colsum_src[] = "double colsum(int n, const double *a)\n"
				 "{\n"
				 "\tdouble s = 0;\n"
				 "\tfor (int j = 0; j < n; j++)\n"
				 "\t\tfor (int i = 0; i < n; i++)\n" /* 5 */
				 "\t\t\ts += a[i * n + j];\n"
				 "\treturn s;\n"
				 "}\n";

/* A column sum's page walks hold up the loads behind them: at -O0 the sum
 * goes through its stack slot, a load in every iteration's chain, which
 * waits the walk's time beyond a hit in the second-level TLB; at -O2 the
 * sum stays in a register and its chain does not wait. Within the second
 * level's reach, each access of the walk misses the first-level TLB and
 * L1 (2,000 lines, seven in eight from L2, read again by the next column;
 * the eighth from memory, priced apart): the -O0 chain waits for the
 * longer of the line and the iteration's loads through their ports, in
 * seven iterations of eight; past it, for the walk if that is longer.
 * With load.frame.col in the table, the loads' part is what it measured
 * per load, times the iteration's loads */
static void test_walks_hold_chains(void **st)
{
	(void)st;
	const char *levels[] = {"-O0", "-O2"};
	for (int lv = 0; lv < 2; lv++) {
		fixture x;
		model(&x, "colsum", colsum_src, "gcc", levels[lv], "n=2000");
		int l = loop_on(&x, 5);
		epi_mcosts k;
		memory_cycles(&k);
		k.stlb = 1024;
		k.ntlb = 1;
		k.tlb_x[0] = 0.5, k.tlb_t[0] = 3;
		const epi_msweep sw = {.trip = 2000, .outer_trip = 2000, .round = epi_mloop_bytes(&x.m.obj, l, 2000)};
		epi_mloop_price none, walk;
		epi_mprice_loop(&x.m.obj, l, &sw, &k, &none);
		k.walk = 15;
		k.tlb_x[1] = 1.5, k.tlb_t[1] = 15; /* past it: 2,000 pages of 1,024 */
		k.ntlb = 2;
		epi_mprice_loop(&x.m.obj, l, &sw, &k, &walk);
		assert_true(fabs(walk.bound_t[EPI_BOUND_TLB] - 15) < 1e-9);
		epi_mflow fl;
		epi_mflow_loop(&x.m.obj, l, &k, &fl);
		double stall = 0.875 * fmax(k.cline[0], none.bound_t[EPI_BOUND_LOAD]);
		assert_true(fl.latency > 0 && stall > 0);
		assert_true(fabs(none.bound_t[EPI_BOUND_LATENCY] - fl.latency - (lv == 0 ? stall : 0)) < 1e-9);
		assert_true(fabs(walk.bound_t[EPI_BOUND_LATENCY] - fl.latency - (lv == 0 ? fmax(15 - 3, stall) : 0)) < 1e-9);
		const epi_object *o = &x.m.obj;
		double loads = 0;
		for (int i = o->loop[l].first; i <= o->loop[l].last; i++)
			loads += o->loop_of[i] == l ? o->weight[i] * o->in[i].loads : 0;
		k.walk = 0;
		k.ntlb = 1;
		k.slot_tp = k.access_tp = 1; /* the ports' part without the kernels: the accesses */
		epi_mloop_price ports;
		epi_mprice_loop(o, l, &sw, &k, &ports);
		for (int v = 0; v < 2; v++) {
			k.frame_stall = v ? 0.5 : 0; /* a wait per load, and none measured */
			epi_mloop_price held;
			epi_mprice_loop(o, l, &sw, &k, &held);
			double want = lv == 0 ? 0.875 * fmax(k.cline[0], loads * k.frame_stall) : 0;
			assert_true(lv == 1 || want < ports.bound_t[EPI_BOUND_LATENCY] - fl.latency);
			assert_true(fabs(held.bound_t[EPI_BOUND_LATENCY] - fl.latency - want) < 1e-9);
		}
		k.frame_stall = -1;
		model_free(&x);
	}
}

/* A matrix product's column walk (b down k, each line read again by the
 * next seven columns) over a matrix of 8 MB: where L3 serves 16 MiB, a
 * working set of half the reach, its lines come from L3 as where it
 * serves 32 MiB (only lines streamed in order come from memory in a share
 * growing from a quarter of the reach); where it serves 4 MiB, from
 * memory */
static void test_column_in_l3(void **st)
{
	(void)st;
	fixture x;
	epi_msweep sw;
	int l = column_of(&x, "l3col", 1000, &sw);
	sw.outer_trip = 1000;
	epi_mloop_price all, half, small;
	price_reaches(&x, l, &sw, &all, &half, &small);
	assert_true(all.bound_t[EPI_BOUND_L3] > 0 && all.bound_t[EPI_BOUND_DRAM] == 0);
	assert_true(half.t == all.t && half.bound_t[EPI_BOUND_DRAM] == 0);
	assert_true(small.bound_t[EPI_BOUND_DRAM] > 0 && small.t > all.t);
	model_free(&x);
}

/* A column sum down rows of 1,024 doubles (8 KiB): the walk's lines all
 * in one set of L1 (32 KiB, 8 ways of a page), far more than its ways:
 * an access at load.l2.set's time, from L2 or beyond alike. Rows of
 * 1,000 doubles spread over all 64 sets: their lines (1,000 of them) do
 * not fit either, at a line's price from L2 and a 64th of the rest.
 * Short columns (8 lines a set) fit; without the kernel, no such time. */
static void test_crowded_sets(void **st)
{
	(void)st;
	static const struct {
		int n;
		double per; /* seconds an access, 0: the walk's lines alone */
	} want[] = {{1024, 12}, {1000, 2 + 10.0 / 64}, {8, 0}};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		fixture x;
		char bind[32];
		snprintf(bind, sizeof bind, "n=%d", want[i].n);
		model(&x, "crowd", colsum_src, "gcc", "-O2", bind);
		int l = loop_on(&x, 5);
		epi_msweep sw = {.trip = want[i].n, .outer_trip = want[i].n, .round = epi_mloop_bytes(&x.m.obj, l, want[i].n)};
		epi_mcosts k;
		memory_cycles(&k);
		k.cache[1] = 64 << 20; /* every column in L2: a line from there at 2 */
		k.page = 4096;
		epi_mloop_price none, p;
		epi_mprice_loop(&x.m.obj, l, &sw, &k, &none);
		k.set1 = 12;
		epi_mprice_loop(&x.m.obj, l, &sw, &k, &p);
		if (want[i].per > 0) {
			assert_true(fabs(p.bound_t[EPI_BOUND_L2] - want[i].per) < 1e-9);
			assert_true(p.t > none.t);
		} else {
			assert_true(p.t == none.t);
		}
		model_free(&x);
	}
}

static const char rows_src[] = "double cov(int n, const double data[][1200], int i, int j)\n"
			       "{\n"
			       "\tdouble s = 0;\n"
			       "\tfor (int k = 0; k < n; k++)\n" /* 4 */
			       "\t\ts += data[k][i] * data[k][j];\n"
			       "\treturn s;\n"
			       "}\n";

/* Two walks down the same rows (data[k][i] and data[k][j], from one base
 * an offset apart that the loop does not change): the second is on a page
 * of the first's in the share of offsets that do not cross one, 2,048 of
 * the row's 9,600 bytes on average. At -O0 too, where each address is the
 * array's pointer, loaded from its stack slot, plus an offset computed
 * apart (gcc adds the two in a register, clang gives both to the load) */
static void test_same_rows(void **st)
{
	(void)st;
	const char *cc[] = {"gcc", "gcc", "clang-19"}, *fl[] = {"-O2", "-O0", "-O0"};
	for (int i = 0; i < 3; i++) {
		if (!have(cc[i]))
			continue;
		fixture x;
		model(&x, "rows", rows_src, cc[i], fl[i], "n=2000");
		int l = loop_on(&x, 4);
		epi_mcosts k;
		memory_cycles(&k);
		k.walk = 15;
		k.stlb = 1024;
		epi_mloop_price p;
		price_alone(&x, l, 2000, &k, &p);
		assert_true(fabs(p.bound_t[EPI_BOUND_TLB] - 15 * (2 - 2048.0 / 9600)) < 1e-9);
		model_free(&x);
	}
}

/* What -O0 code's column walk adds to its chain, per load of its
 * iteration: load.frame.col's time over load.frame.row's; none where the
 * column took no longer; without the kernels, not known */
static void test_frame_stall_from_table(void **st)
{
	(void)st;
	const struct {
		double col, row, want;
		int n;
	} t[] = {{14, 11, 3.0 / EPI_FRAME_LOADS, 3}, {10, 11, 0, 3}, {14, 0, -1, 2}};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		epi_cost op[3] = {
			{.key = "add.i64", .t = 1, .e = NAN, .e_dyn = NAN},
			{.key = "load.frame.col", .t = t[i].col, .e = NAN, .e_dyn = NAN},
			{.key = "load.frame.row", .t = t[i].row, .e = NAN, .e_dyn = NAN},
		};
		epi_mcosts c;
		costs_of(&c, op, t[i].n);
		assert_true(fabs(c.frame_stall - t[i].want) < 1e-12);
	}
}

/* A misprediction from the kernel's unit (mispredicted half the time)
 * less its three instructions' issue, twice */
static void test_miss_from_table(void **st)
{
	(void)st;
	epi_cost op[3] = {
		{.key = "add.i64", .t = 1, .e = NAN, .e_dyn = NAN},
		{.key = "cmp.branch.miss", .t = 10, .e = NAN, .e_dyn = NAN},
		{.key = "cmp.fmax.lat", .t = 4, .e = NAN, .e_dyn = NAN},
	};
	epi_mcosts c;
	costs_of(&c, op, 3);
	assert_true(c.issue == 1);
	assert_true(fabs(c.miss - 2 * (10 - 1.5)) < 1e-9);
	assert_true(c.fmax_lat == 4); /* a maximum's latency, where the table has it */
}

/* Adds and multiplies in units of their own where add.f64.mix's pair
 * takes the longer of the two alone, in shared ones where it takes their
 * sum; in between, in part; shared without the kernel */
static void test_fp_units_from_table(void **st)
{
	(void)st;
	const struct {
		double mix, apart;
	} want[] = {{1, 1}, {1.2, 0.8}, {2, 0}, {0, 0}};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		epi_cost op[4] = {
			{.key = "add.i64", .t = 1, .e = NAN, .e_dyn = NAN},
			{.key = "add.f64", .t = 2, .e = NAN, .e_dyn = NAN},
			{.key = "mul.f64", .t = 2, .e = NAN, .e_dyn = NAN},
			{.key = "add.f64.mix", .t = want[i].mix, .e = NAN, .e_dyn = NAN},
		};
		epi_mcosts c;
		costs_of(&c, op, want[i].mix > 0 ? 4 : 3);
		assert_true(fabs(c.fp_apart - want[i].apart) < 1e-9);
	}
}

/* Lines from L2 beside L3's: what load.l3.near adds to load.l3, as a
 * share of it; all of it without the kernel. Beside memory's: what
 * load.dram.near adds to load.dram, eight loads to a line; none without
 * the kernel, or where it adds nothing */
static void test_near_share_from_table(void **st)
{
	(void)st;
	epi_cost op[5] = {
		{.key = "add.i64", .t = 1, .e = NAN, .e_dyn = NAN},
		{.key = "load.l3", .t = 2, .e = NAN, .e_dyn = NAN},
		{.key = "load.l3.near", .t = 2.5, .e = NAN, .e_dyn = NAN},
		{.key = "load.dram", .t = 1, .e = NAN, .e_dyn = NAN},
		{.key = "load.dram.near", .t = 2.5, .e = NAN, .e_dyn = NAN},
	};
	epi_mcosts c;
	costs_of(&c, op, 5);
	assert_true(fabs(c.near_share - 0.25) < 1e-9);
	assert_true(fabs(c.near_mem - 12) < 1e-9);
	costs_of(&c, op, 4);
	assert_true(c.near_mem == 0);
	op[4].t = 0.9;
	costs_of(&c, op, 5);
	assert_true(c.near_mem == 0);
	costs_of(&c, op, 2);
	assert_true(c.near_share == 1);
}

/* A column's lines from L3 at the rate of lines in no order where that is
 * slower than lines in order; else, and from L2 and memory, in order */
static void test_column_lines_from_table(void **st)
{
	(void)st;
	epi_cost op[3] = {
		{.key = "add.i64", .t = 1, .e = NAN, .e_dyn = NAN},
		{.key = "load.l3.line", .t = 2, .e = NAN, .e_dyn = NAN},
		{.key = "load.l3.scatter", .t = 3, .e = NAN, .e_dyn = NAN},
	};
	epi_mcosts c;
	costs_of(&c, op, 3);
	assert_true(c.line[1] == 2 && c.cline[1] == 3 && c.cline[0] == c.line[0] && c.cline[2] == c.line[2]);
	op[2].t = 1.5;
	costs_of(&c, op, 3);
	assert_true(c.cline[1] == 2);
}

/* Triangular loops: a trip count that varies over the entries, its
 * spread read from the exact sum of its squares (unit and other steps);
 * priced at the trip counts it takes, not at their mean alone: a column
 * walk whose longer entries turn more pages than the TLB maps walks the
 * page tables in those, weighted by their iterations */
static const char trisum_src[] = "double down(int n, const double *a)\n"
				 "{\n"
				 "\tdouble s = 0;\n"
				 "\tfor (int j = 0; j < n; j++)\n"
				 "\t\tfor (int i = 0; i <= j; i++)\n" /* 5 */
				 "\t\t\ts += a[i * n + j];\n"
				 "\treturn s;\n"
				 "}\n"
				 "double up(int n, const double *a)\n"
				 "{\n"
				 "\tdouble s = 0;\n"
				 "\tfor (int j = 0; j < n; j++)\n"
				 "\t\tfor (int i = j; i >= 0; i -= 3)\n" /* 13 */
				 "\t\t\ts += a[i * n + j];\n"
				 "\treturn s;\n"
				 "}\n"
				 "double tet(int n, const double *a)\n"
				 "{\n"
				 "\tdouble s = 0;\n"
				 "\tfor (int i = 0; i < n; i++)\n"
				 "\t\tfor (int j = 0; j < i; j++)\n"
				 "\t\t\tfor (int k = 0; k < j; k++)\n" /* 22 */
				 "\t\t\t\ts += a[k * n + j];\n"
				 "\treturn s;\n"
				 "}\n";

/* The standard deviation over the mean of trip counts 1 + j / STEP for
 * j = 0..N-1, counted one by one */
static double spread_of(int n, int step)
{
	double s1 = 0, s2 = 0;
	for (int j = 0; j < n; j++) {
		double t = 1 + j / step;
		s1 += t;
		s2 += t * t;
	}
	double mean = s1 / n;
	return sqrt(s2 / n - mean * mean) / mean;
}

static void test_triangular_spread(void **st)
{
	(void)st;
	fixture x;
	model(&x, "trisum", trisum_src, "gcc", "-O2", "n=2000");
	int l = loop_on(&x, 5), u = loop_on(&x, 13), r = loop_on(&x, 4);
	assert_true(fabs(x.m.cnt.l[l].spread - spread_of(2000, 1)) < 1e-9);
	assert_true(fabs(x.m.cnt.l[u].spread - spread_of(2000, 3)) < 1e-9);
	assert_true(x.m.cnt.l[r].spread == 0); /* every entry the same */
	assert_true(fabs(x.m.cnt.l[l].trip - 1000.5) < 1e-9);
	epi_mcosts k;
	memory_cycles(&k);
	k.stlb = 1500;
	k.ntlb = 0;
	k.walk = 15;
	epi_msweep sw = {.trip = 1000.5, .outer_trip = 2000, .round = epi_mloop_bytes(&x.m.obj, l, 1000.5)};
	epi_mloop_price mean, spread;
	epi_mprice_loop(&x.m.obj, l, &sw, &k, &mean);
	assert_true(mean.bound_t[EPI_BOUND_TLB] == 0); /* 1,000 pages */
	sw.spread = x.m.cnt.l[l].spread;
	epi_mprice_loop(&x.m.obj, l, &sw, &k, &spread);
	/* trip counts 1..2000 evenly: of the iterations, (2000^2 - 1500^2) /
	 * 2000^2 in entries of more than 1,500 pages */
	assert_true(fabs(spread.bound_t[EPI_BOUND_TLB] / 15 - 0.4375) < 0.005);
	assert_true(spread.t > mean.t);
	model_free(&x);
	/* the innermost loop of three over a tetrahedron: trip counts
	 * T = 0..n-2 in n-1-T entries each, a deviation beyond what an even
	 * spread above 0 can have; of its iterations, those in entries of
	 * more than 1,500 pages: the sum of T (n-1-T) over them against all */
	model(&x, "tetsum", trisum_src, "gcc", "-O2", "n=3000");
	int t = loop_on(&x, 22);
	double s1 = 0, s2 = 0, all = 0, past = 0, e = 0;
	for (int j = 0; j < 3000; j++) {
		e += 3000 - 1 - j;
		s1 += (double)j * (3000 - 1 - j);
		s2 += (double)j * j * (3000 - 1 - j);
		all += (double)j * (3000 - 1 - j);
		past += j > 1500 ? (double)j * (3000 - 1 - j) : 0;
	}
	double mu = s1 / e;
	assert_true(fabs(x.m.cnt.l[t].spread - sqrt(s2 / e - mu * mu) / mu) < 1e-9);
	assert_true(x.m.cnt.l[t].spread > 1 / sqrt(3));
	sw = (epi_msweep){.trip = x.m.cnt.l[t].trip, .outer_trip = 1500, .round = NAN, .spread = x.m.cnt.l[t].spread};
	epi_mprice_loop(&x.m.obj, t, &sw, &k, &spread);
	assert_true(fabs(spread.bound_t[EPI_BOUND_TLB] / 15 - past / all) < 0.02);
	model_free(&x);
}

/* The TLB's miss curve from a table: nothing within the first level's
 * reach, the half-reach kernel's cost up to half the second level's,
 * followed between the kernels (the walk's at its 8,192 pages), flat past
 * the last; a table with the walk alone: the walk past the reach only. */
static void test_tlb_curve(void **st)
{
	(void)st;
	epi_cost op[4] = {
		{.key = "load.page.tlb50", .t = 2, .e = NAN, .e_dyn = NAN},
		{.key = "load.page.tlb100", .t = 5, .e = NAN, .e_dyn = NAN},
		{.key = "load.page.tlb150", .t = 12, .e = NAN, .e_dyn = NAN},
		{.key = "load.page.walk", .t = 17, .e = NAN, .e_dyn = NAN},
	};
	epi_mcosts c;
	costs_of(&c, op, 4);
	double s = c.stlb, walk_x = 8192 / s;
	assert_true(c.dtlb > 0 && c.dtlb < s / 2);
	assert_true(epi_mcosts_tlb(&c, c.dtlb) == 0);
	assert_true(epi_mcosts_tlb(&c, c.dtlb + 1) == 2);
	assert_true(epi_mcosts_tlb(&c, 0.5 * s) == 2);
	assert_true(fabs(epi_mcosts_tlb(&c, 0.75 * s) - 3.5) < 1e-9);
	assert_true(fabs(epi_mcosts_tlb(&c, s) - 5) < 1e-9);
	if (walk_x > 1.5) { /* the walk's pages past 150% of this processor's TLB */
		assert_true(fabs(epi_mcosts_tlb(&c, 1.25 * s) - 8.5) < 1e-9);
		double x = (1.5 + walk_x) / 2;
		assert_true(fabs(epi_mcosts_tlb(&c, x * s) - 14.5) < 1e-9);
	}
	assert_true(epi_mcosts_tlb(&c, 100 * s) == 17);
	/* the walk alone */
	costs_of(&c, &op[3], 1);
	assert_true(epi_mcosts_tlb(&c, 0.9 * s) == 0);
	assert_true(epi_mcosts_tlb(&c, 1.1 * s) == 17);
	/* neither */
	costs_of(&c, &op[3], 0);
	assert_true(epi_mcosts_tlb(&c, 100 * s) == 0);
	/* a table of the previous version: the points beside the cliff, 75%
	 * and 125%, and the curve through them where 100% was */
	epi_cost now[6] = {
		{.key = "load.page.tlb50", .t = 2, .e = NAN, .e_dyn = NAN},
		{.key = "load.page.tlb75", .t = 4, .e = NAN, .e_dyn = NAN},
		{.key = "load.page.tlb125", .t = 13, .e = NAN, .e_dyn = NAN},
		{.key = "load.page.tlb150", .t = 15, .e = NAN, .e_dyn = NAN},
		{.key = "load.page.walk", .t = 17, .e = NAN, .e_dyn = NAN},
		{.key = "load.page.tlb110", .t = 12, .e = NAN, .e_dyn = NAN},
	};
	costs_of(&c, now, 5);
	assert_true(fabs(epi_mcosts_tlb(&c, 0.75 * s) - 4) < 1e-9);
	assert_true(fabs(epi_mcosts_tlb(&c, s) - 8.5) < 1e-9);
	assert_true(fabs(epi_mcosts_tlb(&c, 1.25 * s) - 13) < 1e-9);
	/* this version's: the cliff's far side at 110% too, the curve
	 * through it (steeper from 75% on, flatter after) */
	costs_of(&c, now, 6);
	assert_true(fabs(epi_mcosts_tlb(&c, 0.75 * s) - 4) < 1e-9);
	assert_true(fabs(epi_mcosts_tlb(&c, s) - (4 + 8 * 25.0 / 35)) < 1e-9);
	assert_true(fabs(epi_mcosts_tlb(&c, 1.1 * s) - 12) < 1e-9);
	assert_true(fabs(epi_mcosts_tlb(&c, 1.2 * s) - (12 + 1 * 10.0 / 15)) < 1e-9);
	assert_true(fabs(epi_mcosts_tlb(&c, 1.25 * s) - 13) < 1e-9);
	/* with the reach the table measured (where walks start to miss):
	 * the curve at its shares of it, flat from 75% up to it, then up to
	 * 110%; the walk's 8,192 pages past 150% of its 3,000 */
	epi_fcol col = {.khz = 3000000, .n = 6, .op = now, .effective_ghz = 3, .idle_w = NAN};
	epi_mcosts_from(&c, &col, (const unsigned long long[3]){0, 0, 0}, 0, 3000);
	assert_true(c.stlb == 3000);
	assert_true(fabs(epi_mcosts_tlb(&c, 2250) - 4) < 1e-9);
	assert_true(fabs(epi_mcosts_tlb(&c, 2900) - 4) < 1e-9);
	assert_true(fabs(epi_mcosts_tlb(&c, 3000) - 4) < 1e-9);
	assert_true(fabs(epi_mcosts_tlb(&c, 3150) - 8) < 1e-9);
	assert_true(fabs(epi_mcosts_tlb(&c, 3300) - 12) < 1e-9);
	assert_true(fabs(epi_mcosts_tlb(&c, 8192) - 17) < 1e-9);
	/* a table that walked 100%: its point kept, none made */
	epi_cost with100[3] = {
		{.key = "load.page.tlb75", .t = 4, .e = NAN, .e_dyn = NAN},
		{.key = "load.page.tlb100", .t = 6, .e = NAN, .e_dyn = NAN},
		{.key = "load.page.tlb110", .t = 12, .e = NAN, .e_dyn = NAN},
	};
	col.op = with100;
	col.n = 3;
	epi_mcosts_from(&c, &col, (const unsigned long long[3]){0, 0, 0}, 0, 3000);
	assert_true(c.ntlb == 3 && fabs(epi_mcosts_tlb(&c, 3000) - 6) < 1e-9);
	/* a kernel measured below the one over fewer pages (125% under
	 * 110%, and the walk under 150%): each such run of points and the
	 * points above it before it at their mean, so that more pages never
	 * cost less an access */
	epi_cost falls[5] = {
		{.key = "load.page.tlb75", .t = 3, .e = NAN, .e_dyn = NAN},
		{.key = "load.page.tlb110", .t = 9, .e = NAN, .e_dyn = NAN},
		{.key = "load.page.tlb125", .t = 8, .e = NAN, .e_dyn = NAN},
		{.key = "load.page.tlb150", .t = 16, .e = NAN, .e_dyn = NAN},
		{.key = "load.page.walk", .t = 15, .e = NAN, .e_dyn = NAN},
	};
	col.op = falls;
	col.n = 5;
	epi_mcosts_from(&c, &col, (const unsigned long long[3]){0, 0, 0}, 0, 3000);
	assert_true(fabs(epi_mcosts_tlb(&c, 3300) - 8.5) < 1e-9);
	assert_true(fabs(epi_mcosts_tlb(&c, 3750) - 8.5) < 1e-9);
	assert_true(fabs(epi_mcosts_tlb(&c, 4500) - 15.5) < 1e-9);
	assert_true(fabs(epi_mcosts_tlb(&c, 8192) - 15.5) < 1e-9);
	for (double p = 1000, last = 0; p <= 9000; p += 50) {
		double t = epi_mcosts_tlb(&c, p);
		assert_true(t >= last - 1e-12);
		last = t;
	}
}

/* -O0 computes an element's address anew for each access: the store of
 * a[i] after its load, and b[i + 1] after b[i], repeat their lines and
 * are no streams of their own; b[i + 16] (128 bytes on) is one. At -O2
 * the same accesses share registers, and the marks agree. */
static const char repeat_src[] = "void scale(int n, double *a, const double *b)\n"
				 "{\n"
				 "\tfor (int i = 0; i < n; i++)\n" /* 3 */
				 "\t\ta[i] = a[i] * 2 + b[i] + b[i + 1] + b[i + 16];\n"
				 "}\n";

static void test_repeated_lines(void **st)
{
	(void)st;
	const char *levels[] = {"-O0", "-O2"};
	for (int lv = 0; lv < 2; lv++) {
		fixture x;
		model(&x, levels[lv] + 1, repeat_src, "gcc", levels[lv], "n=1000");
		const epi_object *o = &x.m.obj;
		int l = loop_on(&x, 3), fresh = 0, again = 0, stores = 0;
		for (int i = o->loop[l].first; i <= o->loop[l].last; i++) {
			if (o->loop_of[i] != l || o->frame[i] || !(o->in[i].loads || o->in[i].stores))
				continue;
			fresh += !o->repeat[i];
			again += o->repeat[i];
			stores += o->in[i].stores && o->repeat[i];
		}
		/* a[i], b[i], b[i + 16]: three streams; a[i]'s store repeats */
		assert_int_equal(fresh, 3);
		assert_int_equal(stores, 1);
		assert_true(again >= 1 + (lv == 0)); /* -O0: b[i + 1] too */
		/* what one entry touches: the three streams' bytes, once each */
		assert_true(fabs(epi_mloop_bytes(o, l, 1000) - 3 * 8 * 1000) < 1e-9);
		model_free(&x);
	}
}

/* The loops the analysis lists as it walks (tag_loops) are those a parse
 * of their own finds: a file of 150 functions, analysed in chunks on two
 * threads (for, while, do, nested, a do-while(0) that is no loop, a loop
 * in it that is) */
static void test_analysis_loops(void **st)
{
	(void)st;
	char path[] = "/tmp/epi-loops-XXXXXX.c";
	int fd = mkstemps(path, 2);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	for (int i = 0; i < 150; i++)
		fprintf(f,
			"void f%d(int n, double *a)\n{\n"
			"\tfor (int i = 0; i < n; i++)\n\t\tfor (int j = 0; j < i; j++)\n\t\t\ta[j] += i;\n"
			"\tint k = n;\n\twhile (k > %d) {\n\t\tk--;\n\t\tdo { a[k]++; } while (0);\n\t}\n"
			"\tdo {\n\t\tfor (int m = 0; m < 4; m++)\n\t\t\ta[m] = 0;\n\t} while (0);\n}\n",
			i, i % 3);
	fclose(f);
	epi_front_opts fo;
	epi_front_opts_init(&fo);
	fo.tag_loops = 1;
	fo.jobs = 2;
	epi_analysis a;
	char err[EPI_ERRLEN];
	if (epi_analyze(&a, path, &fo, err) < 0)
		fail_msg("%s", err);
	epi_nest *v;
	int n;
	if (epi_find_loops(path, &fo, &v, &n, err) < 0)
		fail_msg("%s", err);
	assert_int_equal(n, 150 * 4);
	assert_int_equal(a.nloops, n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(a.loops[i].line, v[i].line);
		assert_int_equal(a.loops[i].end_line, v[i].end_line);
		assert_int_equal(a.loops[i].parent, v[i].parent);
		assert_int_equal(a.loops[i].depth, v[i].depth);
		assert_int_equal(a.loops[i].tag, v[i].tag);
		assert_int_equal(a.loops[i].col, v[i].col);
		assert_int_equal(a.loops[i].end_col, v[i].end_col);
		assert_string_equal(a.loops[i].function, v[i].function);
	}
	epi_nests_free(v, n);
	epi_analysis_free(&a);
	/* without tag_loops, none listed */
	fo.tag_loops = 0;
	if (epi_analyze(&a, path, &fo, err) < 0)
		fail_msg("%s", err);
	assert_int_equal(a.nloops, 0);
	epi_analysis_free(&a);
	unlink(path);
}

static const char refs_src[] = "void use(double *p);\n"
			       "void refs(int n, double *A, double *B, const double *x, const int *idx)\n"
			       "{\n"
			       "\tfor (int i = 1; i < n - 1; i++)\n" /* 4 */
			       "\t\tfor (int j = 1; j < n - 1; j++)\n" /* 5 */
			       "\t\t\tB[i * n + j] = A[(i - 1) * n + j] + A[i * n + j] + A[(i + 1) * n + j] +\n"
			       "\t\t\t\t       A[i * n + j] * x[i];\n"
			       "\tfor (int j = 0; j < n; j++)\n" /* 8 */
			       "\t\tB[j] += A[idx[j]] + *(A + j);\n"
			       "\tfor (int j = 0; j < n; j++)\n" /* 10 */
			       "\t\tuse(&B[j]);\n"
			       "\tint k = 0;\n"
			       "\tfor (int i = 0; i < n; i++) {\n" /* 13 */
			       "\t\tB[k] += 1;\n"
			       "\t\tfor (int j = 0; j < n; j++) {\n" /* 15 */
			       "\t\t\tB[k] += 2;\n"
			       "\t\t\tk++;\n"
			       "\t\t}\n"
			       "\t}\n"
			       "}\n"
			       "struct vec { double *x; };\n"
			       "void members(int n, struct vec *p, struct vec *q)\n"
			       "{\n"
			       "\tfor (int j = 0; j < n; j++)\n" /* 24 */
			       "\t\tp->x[j] += q->x[j];\n"
			       "}\n"
			       "int spin(const int *a)\n"
			       "{\n"
			       "\tfor (;;)\n" /* 29 */
			       "\t\tif (a[0])\n"
			       "\t\t\treturn 1;\n"
			       "}\n";

static const char jac_src[] = "void jac(int n, const double *A, double *B)\n"
			      "{\n"
			      "\tfor (int i = 1; i < n - 1; i++)\n"     /* 3 */
			      "\t\tfor (int j = 1; j < n - 1; j++)\n" /* 4 */
			      "\t\t\tB[i * n + j] = 0.2 * (A[i * n + j] + A[i * n + j - 1] + A[i * n + j + 1] +\n"
			      "\t\t\t\t\t       A[(i + 1) * n + j] + A[(i - 1) * n + j]);\n"
			      "}\n";

/* The same stencil over rows of a length known at run time: the code does
 * not tell how far apart the rows of A start, the source does (the loop's
 * six moving references name two arrays): of A's three rows, two read
 * lines another brought an iteration of the row loop before. With L3
 * smaller than A, a line of A and one of B (only written, at twice a
 * line's price) come from memory every eight iterations, not three of A */
static void test_reread_rows(void **st)
{
	(void)st;
	fixture x;
	model(&x, "jacn", jac_src, "gcc", "-O2", "n=2000");
	int l = loop_on(&x, 4);
	const epi_object *o = &x.m.obj;
	int rows = 0;
	for (int i = o->loop[l].first; i <= o->loop[l].last; i++)
		rows += o->loop_of[i] == l && o->in[i].loads && o->stride[i] == 8 &&
			o->outer_stride[i] == EPI_STRIDE_RUNTIME;
	assert_true(rows >= 3);
	epi_mcosts k;
	memory_cycles(&k);
	k.near_share = 0;
	epi_mloop_price p;
	epi_msweep sw = {.trip = 1998, .outer_trip = 1998, .round = 64000, .refs = 6, .arrays = 2};
	epi_mprice_loop(o, l, &sw, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_DRAM] - (10 + 20) / 8.0) < 1e-9);
	/* not told: each row of A new */
	sw.refs = sw.arrays = 0;
	epi_mprice_loop(o, l, &sw, &k, &p);
	assert_true(fabs(p.bound_t[EPI_BOUND_DRAM] - (3 * 10 + 20) / 8.0) < 1e-9);
	assert_int_equal(x.m.loops[1].line, 4);
	assert_int_equal(x.m.loops[1].refs, 6);
	assert_int_equal(x.m.loops[1].arrays, 2);
	model_free(&x);
}

/* Each loop's own references that move with it, and their arrays: a
 * stencil's rows of one array (the same text once, x[i] not moving with
 * j), none in the loop around them; a subscript through another and a
 * dereference; none told for a loop that passes memory to a call; the
 * same text in a loop and in the loop around it, each its own (B[k]
 * moves in both: the loop inside assigns k); a member of two objects, two
 * arrays; none in a loop of a function that assigns nothing */
static void test_loop_refs(void **st)
{
	(void)st;
	fixture x;
	model(&x, "refs", refs_src, "gcc", "-O2", "n=100");
	int want[][3] = {{4, 0, 0}, {5, 4, 2}, {8, 4, 3}, {10, 0, 0}, {13, 1, 1}, {15, 1, 1}, {24, 2, 2}, {29, 0, 0}};
	for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
		int found = 0;
		for (int l = 0; l < x.m.nloops; l++)
			if (x.m.loops[l].line == want[k][0]) {
				found = 1;
				assert_int_equal(x.m.loops[l].refs, want[k][1]);
				assert_int_equal(x.m.loops[l].arrays, want[k][2]);
			}
		assert_true(found);
	}
	model_free(&x);
}

/* The object read on a thread beside the analysis: built from the source
 * when no binary is given (and removed once read), refused with the
 * reader's message when the binary cannot be read */
static void test_model_job(void **st)
{
	(void)st;
	char c[300], o[300];
	build("job", nest_src, "gcc", "-O2", c, o);
	epi_front_opts fo;
	epi_front_opts_init(&fo);
	const char *flags[] = {"-O2"};
	fo.clang_args = flags;
	fo.nclang_args = 1;
	epi_mmodel m;
	epi_mmodel_job j = {.m = &m, .binary = NULL, .source = c, .fo = &fo};
	epi_mmodel_start(&j);
	assert_int_equal(epi_mmodel_finish(&j, NULL), 0);
	assert_true(j.built[0] && access(j.built, F_OK) != 0);
	assert_true(m.nmatched >= 3);
	epi_mmodel_free(&m);
	epi_mmodel_job bad = {.m = &m, .binary = "/nonexistent/prog", .source = c, .fo = &fo};
	epi_mmodel_start(&bad);
	assert_int_equal(epi_mmodel_finish(&bad, NULL), -1);
	assert_non_null(strstr(bad.err, "/nonexistent/prog"));
	epi_mmodel_free(&m);
	fo.clang_args = NULL;
	fo.nclang_args = 0;
	epi_front_opts_clear(&fo);
}

static const char bss_src[] = "static double big[1 << 16];\n"
			      "double f(int n)\n"
			      "{\n"
			      "\tfor (int i = 0; i < n; i++)\n" /* 4 */
			      "\t\tbig[i] = i;\n"
			      "\treturn big[7];\n"
			      "}\n";

/* a static array is fresh memory too: the first nest to write it pays its
 * first touch, as it would a malloc'd one's */
static void test_static_fresh(void **st)
{
	(void)st;
	fixture x;
	model(&x, "bss", bss_src, "gcc", "-O2", "n=65536");
	assert_true(x.m.obj.bss >= 8 << 16);
	int s = x.m.obj.loop[loop_on(&x, 4)].src;
	assert_true(x.m.cnt.touch[s] == 8 << 16);
	model_free(&x);
}

static const char rewrite_src[] = "static double L[256 * 256], x[256];\n"
				  "void init(int n)\n"
				  "{\n"
				  "\tfor (int i = 0; i < n; i++)\n" /* 4 */
				  "\t\tfor (int j = 0; j <= i; j++)\n"
				  "\t\t\tL[i * n + j] = i + j;\n"
				  "}\n"
				  "double solve(int n)\n"
				  "{\n"
				  "\tfor (int i = 0; i < n; i++) {\n" /* 10 */
				  "\t\tx[i] = 1;\n"
				  "\t\tfor (int j = 0; j < i; j++)\n"
				  "\t\t\tx[i] -= L[i * n + j] * x[j];\n"
				  "\t}\n"
				  "\treturn x[7];\n"
				  "}\n";

/* fresh memory goes to the bytes a nest writes, not to its stores: the
 * solve rewrites x[i] in every iteration over j (-O0) or once per i (-O2),
 * 2 KB, and takes none of the half of L the init leaves untouched */
static void test_rewrites_fresh(void **st)
{
	(void)st;
	const char *levels[] = {"-O0", "-O2"};
	for (int k = 0; k < 2; k++) {
		fixture x;
		model(&x, "rewrite", rewrite_src, "gcc", levels[k], "n=256");
		int init = x.m.obj.loop[loop_on(&x, 4)].src, solve = x.m.obj.loop[loop_on(&x, 10)].src;
		assert_true(x.m.cnt.touch[init] == 256 * 257 / 2 * 8);
		assert_true(x.m.cnt.touch[solve] >= 256 * 8 && x.m.cnt.touch[solve] <= 3 * 256 * 8);
		model_free(&x);
	}
}

/* The source nest of X on LINE (one there). */
static int nest_on(const fixture *x, int line)
{
	for (int s = 0; s < x->m.nloops; s++)
		if (x->m.loops[s].line == line)
			return s;
	fail_msg("no nest on line %d", line);
	return -1;
}

static const char steps_src[] = "static double a[4096], b[4096], c[4 * 4096];\n"
				"void step(double *dst, const double *src, int n)\n"
				"{\n"
				"\tfor (int i = 0; i < n; i++)\n" /* 4 */
				"\t\tdst[i] = 0.5 * src[i];\n"
				"}\n"
				"void fill(double *dst, int n)\n"
				"{\n"
				"\tfor (int i = 0; i < n; i++)\n" /* 9 */
				"\t\tdst[i] = i;\n"
				"}\n"
				"double run(int n)\n"
				"{\n"
				"\tfor (int i = 0; i < n; i++)\n" /* 14 */
				"\t\ta[i] = i;\n"
				"\tfor (int t = 0; t < 10; t++)\n"
				"\t\tstep(b, a, n);\n"
				"\tfor (int r = 0; r < 4; r++)\n"
				"\t\tfill(c + r * n, n);\n"
				"\treturn b[1] + c[2];\n"
				"}\n";

/* A kernel called at each step with the same arrays writes their fresh
 * memory at the first call only: step() takes b's first touch, once, and
 * leaves c's to fill(), whose calls each write a part of c of their own */
static void test_steps_fresh(void **st)
{
	(void)st;
	const char *levels[] = {"-O0", "-O2"};
	for (int k = 0; k < 2; k++) {
		fixture x;
		model(&x, "steps", steps_src, "gcc", levels[k], "n=4096");
		int s4 = nest_on(&x, 4), s9 = nest_on(&x, 9), s14 = nest_on(&x, 14);
		const epi_mcount *c = &x.m.cnt;
		assert_true(c->touch[s14] == 8 * 4096);
		assert_true(c->touch[s4] + c->touch_call[s4] == 8 * 4096);
		assert_true(c->touch[s9] + c->touch_call[s9] == 4 * 8 * 4096);
		model_free(&x);
	}
}

static const char timeloop_src[] = "static double g[64 * 64], v[8 * 4096], w[8 * 4096];\n"
				 "double sweeps(int n)\n"
				 "{\n"
				 "\tfor (int t = 0; t < 8; t++)\n" /* 4: the same places each time */
				 "\t\tfor (int i = 1; i < 63; i++)\n"
				 "\t\t\tfor (int j = 1; j < 63; j++)\n"
				 "\t\t\t\tg[i * 64 + j] = 0.25 * (g[i * 64 + j - 1] + g[i * 64 + j + 1] + g[i * 64 + j - 64]);\n"
				 "\tfor (int r = 0; r < 8; r++)\n" /* 8: a row of its own each time */
				 "\t\tfor (int i = 0; i < n; i++)\n"
				 "\t\t\tv[r * n + i] = i;\n"
				 "\tdouble *p = w;\n"
				 "\tfor (int r = 0; r < 8; r++)\n" /* 12: a pointer carried on */
				 "\t\tfor (int i = 0; i < n; i++)\n"
				 "\t\t\t*p++ = i;\n"
				 "\treturn g[65] + v[2] + w[3];\n"
				 "}\n";

/* A time loop around a sweep writes its fresh memory at its first
 * iteration only; loops whose iterations write places of their own (a
 * row each, a pointer carried on) write it at every iteration */
static void test_sweeps_fresh(void **st)
{
	(void)st;
	const char *levels[] = {"-O0", "-O2"};
	for (int k = 0; k < 2; k++) {
		fixture x;
		model(&x, "timeloop", timeloop_src, "gcc", levels[k], "n=4096");
		int s4 = nest_on(&x, 4), s8 = nest_on(&x, 8), s12 = nest_on(&x, 12);
		const epi_mcount *c = &x.m.cnt;
		assert_true(c->touch[s4] + c->touch_call[s4] == 62 * 62 * 8);
		assert_true(c->touch[s8] + c->touch_call[s8] == 8 * 8 * 4096);
		assert_true(c->touch[s12] + c->touch_call[s12] == 8 * 8 * 4096);
		model_free(&x);
	}
}

static const char fresh_src[] = "#include <stdlib.h>\n"
				"double f(int n)\n"
				"{\n"
				"\tdouble *a = malloc(sizeof *a * n);\n"
				"\tdouble *b = malloc(sizeof *b * n);\n"
				"\tfor (int i = 0; i < n; i++)\n" /* 6: writes a first */
				"\t\ta[i] = i;\n"
				"\tfor (int i = 0; i < n; i++)\n" /* 8: reads a, writes it again */
				"\t\ta[i] -= 1;\n"
				"\tfor (int i = 0; i < n; i++)\n" /* 10: a call of memset at -O2 */
				"\t\tb[i] = 0;\n"
				"\tdouble r = a[1] + b[2];\n"
				"\tfree(a);\n"
				"\tfree(b);\n"
				"\treturn r;\n"
				"}\n";

/* A nest that writes back what it read (a[i] -= 1) writes no fresh
 * memory: b's first write goes to the nest after it, which gcc -O2 makes a
 * call of memset; that write is the call's, which a profile samples in
 * memset: not on the nest's own lines, in the program's total */
static void test_fresh_order(void **st)
{
	(void)st;
	const char *levels[] = {"-O0", "-O2"};
	for (int k = 0; k < 2; k++) {
		fixture x;
		model(&x, "fresh", fresh_src, "gcc", levels[k], "n=4096");
		int s6 = nest_on(&x, 6), s8 = nest_on(&x, 8), s10 = nest_on(&x, 10);
		const epi_mcount *c = &x.m.cnt;
		assert_true(c->touch[s6] == 8 * 4096);
		assert_true(c->touch[s8] == 0 && c->touch_call[s8] == 0);
		assert_true(c->touch[s10] + c->touch_call[s10] == 8 * 4096);
		if (k == 1) { /* the memset's */
			assert_true(c->touch_call[s10] == 8 * 4096);
			epi_cost op[] = {{.key = "add.i64", .t = 1e-9, .e = NAN, .e_dyn = NAN},
					 {.key = "malloc.touch", .t = 1e-3, .e = NAN, .e_dyn = NAN}};
			epi_fcol col = {.khz = 1000000, .n = 2, .op = op, .effective_ghz = 1, .idle_w = NAN};
			epi_mprices *p = epi_mmodel_prices(&x.m, &col);
			epi_mcost nest, total;
			epi_mmodel_nest(&x.m, p, 10, &nest);
			epi_mmodel_total(&x.m, p, &total);
			assert_true(nest.bound_t[EPI_BOUND_PAGES] == 0);
			assert_true(fabs(total.bound_t[EPI_BOUND_PAGES] - 2 * 8 * 4096 * 1e-3 / (1 << 20)) < 1e-12);
			epi_mprices_free(p);
		}
		model_free(&x);
	}
}

static const char copy_src[] = "void f(int n, int m, double *restrict y, const double *restrict z,\n"
			       "       double *restrict s)\n"
			       "{\n"
			       "\tfor (int t = 0; t < m; t++) {\n" /* 4 */
			       "\t\tfor (int i = 0; i < n; i++)\n"  /* 5 */
			       "\t\t\ts[i] += y[i];\n"
			       "\t\tfor (int i = 0; i < n; i++)\n" /* 7: a memcpy */
			       "\t\t\ty[i] = z[i];\n"
			       "\t}\n"
			       "}\n"
			       "int main(void)\n"
			       "{\n"
			       "\tstatic double y[64], z[64], s[64];\n"
			       "\tf(64, 3, y, z, s);\n"
			       "\treturn s[1] > 0;\n"
			       "}\n";

/* The loop on LINE of the program or object PATH built from C: each of its
 * memory accesses starts where it did at the previous iteration of the loop
 * around it (the sum reads y from the same place every time); and how many
 * of its calls return their first argument, into *RET. */
static void check_copy(const char *path, const char *c, int line, int *ret)
{
	char err[EPI_ERRLEN];
	epi_object o;
	if (epi_object_read(&o, path, c, 0.5, err) < 0)
		fail_msg("%s", err);
	int l = -1, n = 0;
	*ret = 0;
	for (int i = 0; i < o.nin; i++) {
		*ret += o.ret_arg[i];
		if (o.loop_of[i] >= 0 && o.line[i] == line && o.loop[o.loop_of[i]].parent >= 0)
			l = o.loop_of[i];
	}
	assert_true(l >= 0);
	for (int i = o.loop[l].first; i <= o.loop[l].last; i++)
		if (o.loop_of[i] == l && (o.in[i].loads || o.in[i].stores) && !o.frame[i]) {
			assert_int_equal(o.outer_stride[i], 0);
			n++;
		}
	assert_true(n >= 2);
	epi_object_free(&o);
}

/* gcc -O2 makes the copy a memcpy and goes on addressing y through the
 * pointer memcpy returns (its first argument): the sum's accesses do not
 * move from one t to the next, in an object file (the call's relocation
 * names memcpy), linked programs (dynamic and static), and aarch64's */
static void test_copy_returns(void **st)
{
	(void)st;
	char c[300], o[300], prog[320], cmd[1024];
	int ret;
	build("copy", copy_src, "gcc", "-O2", c, o);
	check_copy(o, c, 6, &ret);
	assert_int_equal(ret, 1);
	/* through a PLT stub, through the GOT slot alone, and a static
	 * program's IRELATIVE slot (memcpy's resolver) */
	static const char *const link[] = {"", "-fno-plt", "-static"};
	for (int k = 0; k < 3; k++) {
		snprintf(prog, sizeof prog, "%s/copy%d", dir, k);
		snprintf(cmd, sizeof cmd, "gcc -O2 -g %s -o '%s' '%s'", link[k], prog, c);
		assert_int_equal(system(cmd), 0);
		check_copy(prog, c, 6, &ret);
		assert_int_equal(ret, 1);
	}
	if (!have("aarch64-linux-gnu-gcc"))
		return;
	build("copy64", copy_src, "aarch64-linux-gnu-gcc", "-O2", c, o);
	check_copy(o, c, 6, &ret);
	assert_int_equal(ret, 1);
	for (int k = 0; k < 3; k += 2) {
		snprintf(prog, sizeof prog, "%s/copy64-%d", dir, k);
		snprintf(cmd, sizeof cmd, "aarch64-linux-gnu-gcc -O2 -g %s -o '%s' '%s'", link[k], prog, c);
		assert_int_equal(system(cmd), 0);
		check_copy(prog, c, 6, &ret);
		assert_int_equal(ret, 1);
	}
}

/* A program whose debug information was damaged (bytes changed at
 * random, a function's range among them): read without sizing its arrays
 * by the damaged range (58 GB asked of the allocator before), its
 * functions outside the code left out */
static void test_damaged_ranges(void **st)
{
	(void)st;
	char src[300], err[EPI_ERRLEN];
	snprintf(src, sizeof src, "%s/mm.c", dir); /* the name it was built from */
	FILE *f = fopen(src, "w");
	assert_non_null(f);
	fputs("int main(void) { return 0; }\n", f);
	fclose(f);
	char elf[300];
	snprintf(elf, sizeof elf, "%s/tests/data/objcode-range.elf", getenv("EPI_TOP") ? getenv("EPI_TOP") : ".");
	epi_object o;
	int r = epi_object_read(&o, elf, src, 0.5, err);
	if (r == 0) {
		assert_true(o.nin < 100000);
		epi_object_free(&o);
	} else {
		assert_true(err[0] != 0);
	}
}

static const char exit_src[] = "#define N 1400\n"
			       "#define M 1200\n"
			       "void f(double data[N][M], double mean[M], double d)\n"
			       "{\n"
			       "\tfor (int j = 0; j < M; j++) {\n" /* 5 */
			       "\t\tmean[j] = 0.0;\n"
			       "\t\tfor (int i = 0; i < N; i++)\n" /* 7 */
			       "\t\t\tmean[j] += data[i][j];\n"
			       "\t\tmean[j] /= d;\n"
			       "\t}\n"
			       "}\n";

/* gcc -O2 starts the next column from where the walk down this one ended
 * (lea 8(%rax), %rcx after cmp %rcx, %rax; jne): the loop inside leaves
 * its pointer equal to its bound, so the column moves 8 bytes from one j
 * to the next, not by a step nobody knows (which priced it from memory) */
static void test_exit_value(void **st)
{
	(void)st;
	epi_object obj;
	read_built("exitv", exit_src, "gcc", "-O2", &obj);
	int n = 0;
	for (int i = 0; i < obj.nin; i++)
		if (obj.in[i].loads && obj.line[i] == 8 && obj.stride[i] == 9600) {
			assert_int_equal(obj.outer_stride[i], 8);
			n++;
		}
	assert_int_equal(n, 1);
	epi_object_free(&obj);
}

/* A row pointer kept on the stack and advanced by a row's length that is
 * reloaded from the stack too (what clang -O2 does when registers run
 * out): the pointer moves by a step known at run time. Written as the
 * machine code itself, so that no compiler's register choice decides. */
static const char spill_src[] = "void rows(long n, long m, double *p)\n"
				"{\n"
				"\t__asm__ volatile(\"mov %0, -16(%%rsp)\\n\"\n"
				"\t\t\"shl $3, %1\\n\"\n"
				"\t\t\"mov %1, -24(%%rsp)\\n\"\n"
				"\t\t\"1: mov -16(%%rsp), %%rax\\n\"\n"
				"\t\t\"mov -24(%%rsp), %%rsi\\n\"\n"
				"\t\t\"add %%rsi, %%rax\\n\"\n"
				"\t\t\"mov %%rax, -16(%%rsp)\\n\"\n"
				"\t\t\"movsd %%xmm0, (%%rax)\\n\"\n"
				"\t\t\"dec %2\\n\"\n"
				"\t\t\"jne 1b\\n\"\n"
				"\t\t: \"+r\"(p), \"+r\"(n), \"+r\"(m)\n"
				"\t\t:\n"
				"\t\t: \"rax\", \"rsi\", \"memory\");\n"
				"}\n";

static void test_spilled_step(void **st)
{
	(void)st;
	epi_object obj;
	read_built("spill", spill_src, "gcc", "-O1", &obj);
	int n = 0;
	for (int i = 0; i < obj.nin; i++)
		if (obj.in[i].stores && !obj.frame[i] && obj.loop_of[i] >= 0) {
			assert_true(obj.stride[i] == EPI_STRIDE_RUNTIME);
			n++;
		}
	assert_int_equal(n, 1);
	epi_object_free(&obj);
}

/* A program of 1,000 functions (over 64 KiB of code: decoded on several
 * threads and appended in order): every function read once, each one's
 * instructions back to back, as many bytes in all as the symbol table
 * gives the functions. */
static void test_many_functions(void **st)
{
	(void)st;
	char c[300], o[300], cmd[700], err[EPI_ERRLEN];
	snprintf(c, sizeof c, "%s/many.c", dir);
	snprintf(o, sizeof o, "%s/many.o", dir);
	FILE *f = fopen(c, "w");
	assert_non_null(f);
	for (int k = 0; k < 1000; k++)
		fprintf(f,
			"double f%d(int n, double *a, const double *b)\n{\n\tdouble s = 0;\n"
			"\tfor (int i = 0; i < n; i++) {\n\t\ta[i] = a[i] * %d.5 + b[i];\n\t\ts += a[i] / (b[i] + %d);\n\t}\n"
			"\tfor (int i = 1; i < n; i++)\n\t\ta[i] += a[i - 1] * s;\n\treturn s;\n}\n",
			k, k, k + 1);
	fclose(f);
	snprintf(cmd, sizeof cmd, "gcc -O2 -g -c -o '%s' '%s'", o, c);
	assert_int_equal(system(cmd), 0);
	epi_object obj;
	if (epi_object_read(&obj, o, c, 0.5, err) < 0)
		fail_msg("%s", err);
	assert_int_equal(obj.nfn, 1000);
	int total = 0;
	char seen[1000] = {0};
	for (int k = 0; k < obj.nfn; k++) {
		int id = -1;
		assert_int_equal(sscanf(obj.fn[k].name, "f%d", &id), 1);
		assert_true(id >= 0 && id < 1000 && !seen[id]);
		seen[id] = 1;
		assert_true(obj.fn[k].n > 0);
		for (int i = obj.fn[k].first; i + 1 < obj.fn[k].first + obj.fn[k].n; i++)
			assert_true(obj.in[i + 1].addr == obj.in[i].addr + obj.in[i].size);
		total += obj.fn[k].n;
	}
	assert_int_equal(total, obj.nin);
	/* the bytes decoded: the functions' sizes in the symbol table */
	long bytes = 0, sized = 0;
	for (int i = 0; i < obj.nin; i++)
		bytes += obj.in[i].size;
	snprintf(cmd, sizeof cmd, "nm -S --defined-only '%s'", o);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char line[256];
	while (fgets(line, sizeof line, p)) {
		unsigned long at, size;
		char type;
		if (sscanf(line, "%lx %lx %c", &at, &size, &type) == 3 && (type == 'T' || type == 't'))
			sized += (long)size;
	}
	pclose(p);
	assert_int_equal(bytes, sized);
	assert_true(sized >= 64 << 10); /* read on several threads */
	/* the loops, found on several threads: in the functions' order,
	 * each function's own, holding its instructions */
	assert_true(obj.nloop >= 2000);
	for (int l = 0; l < obj.nloop; l++) {
		const epi_mloop *L = &obj.loop[l];
		assert_true(l == 0 || obj.loop[l - 1].fn <= L->fn);
		assert_true(L->first >= obj.fn[L->fn].first && L->last < obj.fn[L->fn].first + obj.fn[L->fn].n);
		assert_true(L->parent < 0 || obj.loop[L->parent].fn == L->fn);
	}
	for (int i = 0; i < obj.nin; i++) {
		int l = obj.loop_of[i];
		assert_true(l < 0 || (obj.loop[l].first <= i && i <= obj.loop[l].last));
	}
	/* the passes over the 2,000 loops, taken in blocks by several
	 * threads, leave what one pass over all of them in order leaves */
	int64_t *stride = obj.stride, *outer = obj.outer_stride;
	unsigned char *repeat = obj.repeat;
	obj.stride = xcalloc((size_t)obj.nin + 1, sizeof *obj.stride);
	obj.outer_stride = xmalloc(((size_t)obj.nin + 1) * sizeof *obj.outer_stride);
	for (int i = 0; i < obj.nin; i++)
		obj.outer_stride[i] = EPI_STRIDE_UNKNOWN;
	obj.repeat = xcalloc((size_t)obj.nin + 1, 1);
	epi_object_strides(&obj, 0, obj.nloop);
	epi_mflow_repeats(&obj, 0, obj.nloop);
	int moving = 0, repeated = 0;
	for (int i = 0; i < obj.nin; i++) {
		assert_true(obj.stride[i] == stride[i]);
		assert_true(obj.outer_stride[i] == outer[i]);
		assert_int_equal(obj.repeat[i], repeat[i]);
		moving += stride[i] == 8;
		repeated += repeat[i];
	}
	assert_true(moving >= 4000); /* a[i] and b[i] in every function */
	assert_true(repeated >= 1000); /* a[i - 1] read, a[i] written: the same line */
	free(stride);
	free(outer);
	free(repeat);
	epi_object_free(&obj);
}

/* --jobs reaches the object's reading and pricing through the process's
 * default number of threads */
static void test_jobs_default(void **st)
{
	(void)st;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	epi_threads_default(3);
	assert_int_equal(epi_threads(0), 3);
	assert_int_equal(epi_threads(2), 2);
	epi_threads_default(0);
	assert_int_equal(epi_threads(0), cpus > 0 ? cpus : 1);
}

static const char unrolled_src[] = "int a[16];\n"
				   "__attribute__((noinline)) void init(int k)\n"
				   "{\n"
				   "\tfor (int i = 0; i < 16; i++)\n" /* 4: unrolled whole at -O2 */
				   "\t\ta[i] = 3 * i + k;\n"
				   "}\n"
				   "void run(int reps)\n"
				   "{\n"
				   "\tfor (int r = 0; r < reps; r++)\n" /* 9 */
				   "\t\tinit(r);\n"
				   "}\n";

/* A nest the compiler unrolled into straight code has no machine loop:
 * over the run (what a profile samples on its lines) it is that code at
 * each of its 1,000 entries, which its function's code outside its nests
 * no longer holds */
static void test_straight_nest(void **st)
{
	(void)st;
	fixture x;
	model(&x, "unrolled", unrolled_src, "clang-19", "-O2", "reps=1000");
	epi_cost op[] = {{.key = "add.i64", .t = 1e-9, .e = NAN, .e_dyn = NAN},
			 {.key = "store.l1", .t = 1e-9, .e = NAN, .e_dyn = NAN}};
	epi_fcol col = {.khz = 1000000, .n = 2, .op = op, .effective_ghz = 1, .idle_w = NAN};
	epi_mprices *p = epi_mmodel_prices(&x.m, &col);
	epi_mcost nest, fn, total;
	epi_mmodel_nest(&x.m, p, 4, &nest);
	epi_mmodel_function(&x.m, p, "init", &fn);
	epi_mmodel_total(&x.m, p, &total);
	assert_true(nest.mix.n >= 1000 * 4); /* the unrolled stores, 1,000 times */
	assert_true(nest.p.t > 0 && fn.p.t >= 0);
	assert_true(nest.p.t + fn.p.t <= total.p.t * (1 + 1e-9));
	epi_mprices_free(p);
	model_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_nest, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vector_x86, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vector_a64, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vector_guards, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unrolled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fresh_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_steps_fresh, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sweeps_fresh, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fp_loads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_latch_without_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fp_load_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_index_load_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rotated_loads_no_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_inlined_copies, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fp_units, setup, teardown),
		cmocka_unit_test_setup_teardown(test_row_guard, setup, teardown),
		cmocka_unit_test_setup_teardown(test_multiply_turns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dividers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hoisted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_register_unroll, setup, teardown),
		cmocka_unit_test_setup_teardown(test_negative_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_repeated_load, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loops_beside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_memory_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_column_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_data_branches, setup, teardown),
		cmocka_unit_test_setup_teardown(test_match_depth, setup, teardown),
		cmocka_unit_test_setup_teardown(test_match_inlined, setup, teardown),
		cmocka_unit_test_setup_teardown(test_forward_into_op, setup, teardown),
		cmocka_unit_test_setup_teardown(test_guarded_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_access_bound, setup, teardown),
		cmocka_unit_test_setup_teardown(test_taken_branches, setup, teardown),
		cmocka_unit_test_setup_teardown(test_static_fresh, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rewrites_fresh, setup, teardown),
		cmocka_unit_test_setup_teardown(test_copy_returns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_damaged_ranges, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exit_value, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spilled_step, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_functions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_float_divides, setup, teardown),
		cmocka_unit_test_setup_teardown(test_int_divides, setup, teardown),
		cmocka_unit_test_setup_teardown(test_jump_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compare_writes_flags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_switch_ways, setup, teardown),
		cmocka_unit_test_setup_teardown(test_merge_ways, setup, teardown),
		cmocka_unit_test_setup_teardown(test_running_min, setup, teardown),
		cmocka_unit_test_setup_teardown(test_copied_step, setup, teardown),
		cmocka_unit_test_setup_teardown(test_peeled_iteration, setup, teardown),
		cmocka_unit_test_setup_teardown(test_row_sweep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_in_l3, setup, teardown),
		cmocka_unit_test_setup_teardown(test_written_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fmax_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fwd_fail_retires, setup, teardown),
		cmocka_unit_test_setup_teardown(test_elem_chain_address, setup, teardown),
		cmocka_unit_test_setup_teardown(test_elem_chain_units, setup, teardown),
		cmocka_unit_test(test_elem_ahead_from_table),
		cmocka_unit_test_setup_teardown(test_fresh_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fresh_slot_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writeback_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_column_walk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stencil_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mid_entry_exit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sweeps_round, setup, teardown),
		cmocka_unit_test_setup_teardown(test_repeated_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_page_walks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_runtime_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loop_refs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reread_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_conflict, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tlb_sets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_walks_beside_memory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_walks_beside_memory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_frame_pointer, setup, teardown),
		cmocka_unit_test(test_tlb_curve),
		cmocka_unit_test_setup_teardown(test_triangular_spread, setup, teardown),
		cmocka_unit_test(test_miss_from_table),
		cmocka_unit_test(test_fp_units_from_table),
		cmocka_unit_test(test_window_from_table),
		cmocka_unit_test(test_near_share_from_table),
		cmocka_unit_test(test_column_lines_from_table),
		cmocka_unit_test_setup_teardown(test_same_rows, setup, teardown),
		cmocka_unit_test(test_frame_stall_from_table),
		cmocka_unit_test_setup_teardown(test_walks_hold_chains, setup, teardown),
		cmocka_unit_test_setup_teardown(test_column_in_l3, setup, teardown),
		cmocka_unit_test_setup_teardown(test_crowded_sets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_column_sweep_loads, setup, teardown),
		cmocka_unit_test(test_analysis_loops),
		cmocka_unit_test(test_jobs_default),
		cmocka_unit_test_setup_teardown(test_straight_nest, setup, teardown),
		cmocka_unit_test_setup_teardown(test_model_job, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
