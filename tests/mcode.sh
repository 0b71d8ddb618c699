# End-to-end tests of the compiled-code model (epi-predict --binary, the
# build it makes itself, epi-validate against a trace): kernels of
# evals/kernels built by gcc and clang at -O0 and -O2 (vectorised,
# unrolled, with remainder loops at -O2), their machine instructions
# counted by the model and by valgrind's callgrind, which must agree
# within 2% over the functions of the kernel's file, and over a whole
# program whose compiler removed a call; the loops matched to the
# source's; the bound and the instruction mix in the report; and the
# bad input: no debug information, another program's source, a stripped
# program, a foreign architecture, LTO bytecode, split DWARF, no code, a
# truncated file, a table without the model's kernels.
. "$(dirname "$0")/lib.sh"

K="$top/evals/kernels"
M="$tmp/m"
mkdir -p "$M"
# traced NAME CFLAGS [ARGS...]: $M/NAME.c built by gcc -g CFLAGS into
# $M/NAME, profiled once with ARGS into $M/NAME.trace
traced() {
	name=$1 cflags=$2
	shift 2
	gcc -g $cflags -o "$M/$name" "$M/$name.c"
	"$top/build/san/bin/epi" profile -n 1 -m none -q -o "$M/$name.trace" -- "$M/$name" "$@" >/dev/null 2>&1
}
# a table with the kernels the model rests on, costs in the ratios of a
# recent x86-64 core at 1 GHz (seconds per unit)
cat >"$M/t.xml" <<'EOF'
<?xml version="1.0"?>
<costtable version="1">
<machine><cpu>test</cpu></machine>
<meter name="none" domain="none"/>
<frequency ghz="1">
<op name="iter" unit="op" runs="1" time_s="1e-9"/>
<op name="add.i64" unit="op" runs="1" time_s="0.25e-9"/>
<op name="add.i64.lat" unit="op" runs="1" time_s="1e-9"/>
<op name="add.f64" unit="op" runs="1" time_s="0.5e-9"/>
<op name="add.f64.lat" unit="op" runs="1" time_s="3e-9"/>
<op name="mul.i64" unit="op" runs="1" time_s="1e-9"/>
<op name="mul.i64.lat" unit="op" runs="1" time_s="3e-9"/>
<op name="mul.f64" unit="op" runs="1" time_s="0.5e-9"/>
<op name="mul.f64.lat" unit="op" runs="1" time_s="3e-9"/>
<op name="div.f64" unit="op" runs="1" time_s="4e-9"/>
<op name="div.f64.lat" unit="op" runs="1" time_s="13e-9"/>
<op name="bit.i64" unit="op" runs="1" time_s="0.25e-9"/>
<op name="cmp.i64" unit="op" runs="1" time_s="0.25e-9"/>
<op name="load.l1" unit="op" runs="1" time_s="0.33e-9"/>
<op name="load.l1.lat" unit="op" runs="1" time_s="4e-9"/>
<op name="store.l1" unit="op" runs="1" time_s="0.5e-9"/>
<op name="load.fwd.lat" unit="op" runs="1" time_s="1e-9"/>
<op name="load.fwdfp.lat" unit="op" runs="1" time_s="9e-9"/>
</frequency>
</costtable>
EOF

# callgrind's instructions in function FN of the kernel's file, its own
# (gcc's clones of it, FN.constprop.0, included), on the lines of any file
# (a header's functions inlined into it: callgrind names their file)
cg_count() { # PROG SOURCE-BASENAME FN ARGS...
	prog=$1 fn=$3
	shift 3
	valgrind --tool=callgrind --callgrind-out-file="$M/cg.out" "$prog" "$@" >/dev/null 2>&1 || return 1
	callgrind_annotate "$M/cg.out" 2>/dev/null |
		awk -v f="$fn" '!/=>/ && (index($0, ":" f " ") || index($0, ":" f ".") || $NF ~ (":" f "$")) {
			gsub(",", "", $1); n += $1 } END { print n + 0 }'
}

# the model's instructions of function FN over the run, its own (its loops
# and the rest, not its callees': JSON's self_instructions)
model_count() { # PROG SOURCE FN PARAMS...
	prog=$1 src=$2 fn=$3
	shift 3
	"$P" "$src" --binary "$prog" --table "$M/t.xml" "$@" -F json >"$M/pred.json" 2>"$M/pred.err" || return 1
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = [r for r in d["regions"] if r["scope"] == "function" and r["function"] == sys.argv[2]][0]
print(round(t["self_instructions"]))' "$M/pred.json" "$fn"
}

# the kernel's function: the model's count against callgrind's
agree() { # CC LEVEL KERNEL FUNCTION "ARGS" PARAMS...
	cc=$1 lvl=$2 k=$3 fn=$4 args=$5
	shift 5
	name="compiled model: $fn() by $cc $lvl, instructions within 2% of callgrind's"
	exe="$M/$k-$(echo "$cc" | tr -d ' ')$lvl"
	if ! $cc $lvl -g -o "$exe" "$K/$k.c" 2>"$M/cc.err"; then
		bad "$name (build failed)" "$M/cc.err"
		return
	fi
	# shellcheck disable=SC2086
	want=$(cg_count "$exe" "$k.c" "$fn" $args)
	got=$(model_count "$exe" "$K/$k.c" "$fn" "$@")
	if [ -z "$got" ] || [ -z "$want" ] || [ "$want" -eq 0 ]; then
		bad "$name (model '$got', callgrind '$want')" "$M/pred.err"
		return
	fi
	awk -v a="$got" -v b="$want" 'BEGIN { e = a / b - 1; exit (e * e < 0.0004) ? 0 : 1 }' &&
		ok "$name" || bad "$name (model $got, callgrind $want)"
}

if command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null; then
	# loops with no branch on the data: their counts are exact formulas, and
	# so must the instructions be (vectorised, unrolled and remainder
	# loops at -O2, hoisted code); -fno-inline keeps the kernel a function
	# of its own, for callgrind to count apart
	for lvl in -O0 -O2; do
		agree "gcc -fno-inline" $lvl gemm gemm "60" --param n=60
		agree "gcc -fno-inline" $lvl trisolv trisolv "200 2" --param n=200 --param reps=2
		agree "gcc -fno-inline" $lvl dot dot "1000 20" --param n=1000 --param reps=20
		agree "gcc -fno-inline" $lvl syrk syrk "50" --param n=50
		agree "gcc -fno-inline" $lvl jacobi-2d jacobi_2d "40 5" --param n=40 --param tsteps=5
		# called three times by mm3: its own instructions over the run,
		# not the one call its region prices
		agree "gcc -fno-inline" $lvl 3mm mm "30" --param n=30
	done
	# loops of two iterations at -O0: each entry runs the header's exit
	# test once more than the body (entered by a jump to the test), 2
	# instructions of 11 an iteration here
	mkdir -p "$M/short"
	cat >"$M/short/pairs.c" <<'EOF'
#include <stdio.h>
#define N 10000
static int a[N][2];
static long pairs(void)
{
	long s = 0;
	for (int i = 0; i < N; i++)
		for (int k = 0; k < 2; k++)
			s += a[i][k];
	return s;
}
int main(void)
{
	for (int i = 0; i < N; i++)
		a[i][0] = a[i][1] = i % 7;
	printf("%ld\n", pairs());
	return 0;
}
EOF
	# an outer loop that gcc -O2 vectorises by 2 around an inner loop of 5
	# iterations: the inner loop runs once per machine iteration of the
	# outer for both of its source iterations
	cat >"$M/short/conv.c" <<'EOF'
#include <stdio.h>
#define N 4000
static double x[N], y[N];
static const double w[5] = {0.1, 0.2, 0.4, 0.2, 0.1};
static void conv(void)
{
	for (int i = 0; i < N - 4; i++) {
		double s = 0;
		for (int k = 0; k < 5; k++)
			s += w[k] * x[i + k];
		y[i] = s;
	}
}
int main(void)
{
	for (int i = 0; i < N; i++)
		x[i] = i % 10;
	conv();
	printf("%f\n", y[N / 2]);
	return 0;
}
EOF
	# gcc -O2's clone of a kernel for its constant arguments enters the
	# loop past a latch of one move that carries the function's line: the
	# loop is the source loop of its header's line
	cat >"$M/short/eos.c" <<'EOF'
#include <stdio.h>
#define N 995
static double x[N], u[N + 7];
static void eos(double q, double r, double t)
{
	int k;
	for (k = 0; k < N; k++)
		x[k] = u[k] + t * (u[k + 3] + r * (u[k + 2] + r * u[k + 1]) +
			    t * (u[k + 6] + q * (u[k + 5] + q * u[k + 4])));
}
int main(void)
{
	int i;
	for (i = 0; i < N + 7; i++)
		u[i] = (i % 5) * 0.3;
	for (i = 0; i < 10; i++)
		eos(0.5, 0.25 + 0.01 * i, 0.125);
	printf("%f\n", x[N - 1]);
	return 0;
}
EOF
	# a zeroing store moved into a call of memset, the rest vectorised:
	# the factor from the floating-point work (the stores give 2.67)
	cat >"$M/short/split.c" <<'EOF'
#include <stdio.h>
#define N 4000
static double a[N], b[N], c[N];
static void init(void)
{
	for (int i = 0; i < N; i++) {
		a[i] = 1.0 + i;
		b[i] = 2.0;
		c[i] = 0.0;
	}
}
int main(void)
{
	init();
	printf("%f %f %f\n", a[7], b[11], c[N - 1]);
	return 0;
}
EOF
	# --branch-prob at 0 and 1 as the limits of the values near them: the
	# way it gives none of is priced at none, not as a way the flow misses
	cat >"$M/short/sign.c" <<'EOF'
#include <stdio.h>
#define N 1000
static int a[N];
static long f(void)
{
	long s = 0;
	for (int i = 0; i < N; i++) {
		if (a[i] > 0)
			s += a[i];
		else
			s -= 1;
	}
	return s;
}
int main(void)
{
	for (int i = 0; i < N; i++)
		a[i] = 1 + i % 7;
	printf("%ld\n", f());
	return 0;
}
EOF
	gcc -O0 -g -fno-inline -o "$M/short/sign" "$M/short/sign.c"
	lim=""
	for bp in 0 0.000001 1 0.999999; do
		lim="$lim $("$P" "$M/short/sign.c" --binary "$M/short/sign" --table "$M/t.xml" --branch-prob $bp -F json 2>/dev/null |
			python3 -c 'import json, sys; print([r for r in json.load(sys.stdin)["regions"] if r["function"] == "f" and r["scope"] == "function"][0]["self_instructions"])')"
	done
	# shellcheck disable=SC2086
	if echo $lim | awk 'NF == 4 && ($1 - $2) ^ 2 < 1 && ($3 - $4) ^ 2 < 1 && $3 > $1 { ok = 1 } END { exit !ok }'; then
		ok "compiled model: --branch-prob 0 and 1 are the limits of the values near them"
	else
		bad "compiled model: --branch-prob 0 and 1 are the limits of the values near them (f():$lim at 0, 1e-6, 1, 1 - 1e-6)"
	fi
	# a zero stored to an array that holds zeros, dropped by clang -O2 (an
	# add it does in integers): the stores' ratio is not whole, the
	# constant trip counts' is
	sed 's/1\.0 + i;/1.0 + (i % 3);/' "$M/short/split.c" >"$M/short/zeros.c"
	# a function that only reads memory, called ten times with the same
	# argument: gcc -O2 calls it once and multiplies, the loop gone
	cat >"$M/short/pure.c" <<'EOF'
#include <stdio.h>
#define N 2750
static int a[N];
static long isum(const int *x)
{
	long s = 0;
	for (int i = 0; i < N; i++)
		s += x[i];
	return s;
}
int main(void)
{
	long t = 0;
	for (int i = 0; i < N; i++)
		a[i] = i % 11;
	for (int r = 0; r < 10; r++)
		t += isum(a);
	printf("%ld\n", t);
	return 0;
}
EOF
	k_all=$K
	K="$M/short"
	agree "gcc -fno-inline" -O0 pairs pairs ""
	command -v clang-19 >/dev/null && agree "clang-19 -fno-inline" -O0 pairs pairs ""
	agree "gcc -fno-inline" -O2 conv conv ""
	agree "gcc -fno-inline" -O2 eos eos ""
	agree "gcc -fno-inline" -O2 split init ""
	command -v clang-19 >/dev/null && agree "clang-19 -fno-inline" -O2 split init ""
	command -v clang-19 >/dev/null && agree "clang-19 -fno-inline" -O2 zeros init ""
	agree "gcc -fno-inline" -O2 pure isum ""
	K=$k_all
	# two loops nested on one line: each machine loop runs its own
	# source loop's iterations (their counts apart, not the line's sum)
	mkdir -p "$M/same"
	cat >"$M/same/same.c" <<'EOF'
#include <stdlib.h>
__attribute__((noinline)) static void sweep(int reps, int n, double *a)
{
	for (int r = 0; r < reps; r++) for (int i = 0; i < n; i++) a[i] = a[i] * 0.5 + 1.0;
}
int main(int argc, char **argv)
{
	int reps = argc > 2 ? atoi(argv[1]) : 1, n = argc > 2 ? atoi(argv[2]) : 1;
	double *a = calloc((size_t)n, sizeof *a);
	sweep(reps, n, a);
	return a && a[0] > 3;
}
EOF
	for lvl in -O1 -O2; do
		name="compiled model: two loops nested on one line, gcc $lvl, instructions within 2% of callgrind's"
		exe="$M/same/same$lvl"
		gcc $lvl -g -o "$exe" "$M/same/same.c" 2>"$M/cc.err" || bad "$name (build failed)" "$M/cc.err"
		want=$(cg_count "$exe" same.c sweep 300 1000)
		got=$(model_count "$exe" "$M/same/same.c" sweep --param reps=300 --param n=1000)
		if [ -z "$got" ] || [ -z "$want" ] || [ "$want" -eq 0 ]; then
			bad "$name (model '$got', callgrind '$want')" "$M/pred.err"
		else
			awk -v a="$got" -v b="$want" 'BEGIN { e = a / b - 1; exit (e * e < 0.0004) ? 0 : 1 }' &&
				ok "$name" || bad "$name (model $got, callgrind $want)"
		fi
	done
	# a vectorised loop of a function that main() does not call (a kernel
	# a harness reaches through a pointer): an iteration covers as many
	# source iterations as where main() calls it
	cat >"$M/same/vec.c" <<'EOF'
float a[32000], b[32000];
__attribute__((noinline)) void k(void)
{
	for (int i = 0; i < 32000; i++)
		a[i] = b[i] + 1;
}
int main(void)
{
#ifdef CALL
	k();
#endif
	return 0;
}
EOF
	name="compiled model: a vectorised loop of a function main() does not call, as where it does"
	loop_insns() { # PROG FLAGS...: the machine instructions of the nest on line 4
		prog=$1
		shift
		"$P" "$M/same/vec.c" --binary "$prog" --table "$M/t.xml" -F json -- "$@" 2>"$M/pred.err" |
			python3 -c 'import json, sys
print([round(r["machine"]["instructions"]) for r in json.load(sys.stdin)["regions"] if r["scope"] == "loop"][0])'
	}
	if gcc -O2 -g -DCALL -o "$M/same/vec-called" "$M/same/vec.c" 2>"$M/cc.err" &&
		gcc -O2 -g -o "$M/same/vec-not" "$M/same/vec.c" 2>>"$M/cc.err"; then
		called=$(loop_insns "$M/same/vec-called" -DCALL)
		not=$(loop_insns "$M/same/vec-not")
		[ -n "$called" ] && [ "$called" = "$not" ] && ok "$name" || bad "$name (called $called, not called $not)" "$M/pred.err"
	else
		bad "$name (build failed)" "$M/cc.err"
	fi
	# a column walk in a function only a pointer reaches: its accesses
	# come from the cache level they come from when main()'s total counts
	# its call (--calls)
	cat >"$M/same/walk.c" <<'EOF'
float aa[256][256], bb[256][256], cc[256][256];
void walk(int reps)
{
	for (int nl = 0; nl < reps; nl++)
		for (int j = 0; j < 256; j++)
			for (int i = j; i < 256; i++)
				aa[i][j] = bb[i][j] + cc[i][j];
}
int main(void)
{
	void (*volatile f)(int) = walk;
	f(300);
	return 0;
}
EOF
	name="compiled model: a column walk only a pointer reaches, priced as with --calls"
	# the test table with lines from L2, L3 and memory
	sed 's|</frequency>|<op name="load.l2.line" unit="op" runs="1" time_s="4e-9"/>\
<op name="load.l3.line" unit="op" runs="1" time_s="12e-9"/>\
<op name="load.dram.line" unit="op" runs="1" time_s="40e-9"/>\
</frequency>|' "$M/t.xml" >"$M/tl.xml"
	walk_price() { # ARGS...: the bound and time of the nest
		"$P" "$M/same/walk.c" --binary "$M/same/walk" --table "$M/tl.xml" --param reps=300 -F json "$@" 2>"$M/pred.err" |
			python3 -c 'import json, sys
print(*[(r["all"][0]["bound"], r["all"][0]["time_s"]) for r in json.load(sys.stdin)["regions"] if r["scope"] == "loop"][0])'
	}
	if gcc -O2 -g -o "$M/same/walk" "$M/same/walk.c" 2>"$M/cc.err"; then
		set -- $(walk_price) $(walk_price --calls walk=1)
		[ "$#" -eq 4 ] && [ "$1" = "$3" ] && awk -v a="$2" -v b="$4" 'BEGIN { e = a / b - 1; exit (e * e < 0.0025) ? 0 : 1 }' &&
			ok "$name" || bad "$name (alone: $1 $2; with --calls: $3 $4)" "$M/pred.err"
	else
		bad "$name (build failed)" "$M/cc.err"
	fi
	# the same calls of three branches merged into one call site by gcc
	# -O2 (cross-jumping), on the line of one of them: the others' calls
	# are made there, not removed
	cat >"$M/same/cross.c" <<'EOF'
#include <string.h>
float a[1000], b[1000];
__attribute__((noinline)) void fill(float *p, float v) { for (int i = 0; i < 1000; i++) p[i] = v; }
void init(const char *name)
{
	if (!strcmp(name, "x")) { fill(a, 1.f); fill(b, 2.f); }
	else if (!strcmp(name, "y")) { fill(a, 3.f); fill(b, 2.f); }
	else if (!strcmp(name, "z")) { fill(a, 5.f); fill(b, 2.f); }
}
int main(int argc, char **argv)
{
	init(argv[argc - 1]);
	return 0;
}
EOF
	name="compiled model: calls merged into one call site by gcc -O2 are counted"
	if gcc -O2 -g -o "$M/same/cross" "$M/same/cross.c" 2>"$M/cc.err"; then
		"$P" "$M/same/cross.c" --binary "$M/same/cross" --format csv >"$M/cross.csv" 2>"$M/pred.err"
		"$P" "$M/same/cross.c" --format csv >"$M/cross-src.csv" 2>>"$M/pred.err"
		got=$(awk -F, '$3 == "init" && $4 == "function" && $5 == "store.f32" { print $6 }' "$M/cross.csv")
		want=$(awk -F, '$3 == "init" && $4 == "function" && $5 == "store.f32" { print $6 }' "$M/cross-src.csv")
		[ -n "$want" ] && [ "$got" = "$want" ] && ! grep -q "makes no call" "$M/pred.err" &&
			ok "$name" || bad "$name (stores $got, the source's $want)" "$M/pred.err"
	else
		bad "$name (build failed)" "$M/cc.err"
	fi
	# a recurrence down columns, which gcc -O2 vectorises across them: the
	# inner loop stores through one register what it loads through another
	# the iteration after, the two set apart by a constant before the loop
	cat >"$M/same/rec.c" <<'EOF'
float aa[256][256], bb[256][256];
void rec(void)
{
	for (int r = 0; r < 100; r++)
		for (int i = 0; i < 256; i++)
			for (int j = 1; j < 256; j++)
				aa[j][i] = aa[j - 1][i] + bb[j][i];
}
int main(void)
{
	rec();
	return 0;
}
EOF
	name="compiled model: a recurrence down columns, vectorised across them, is bound by its chain"
	if gcc -O2 -g -o "$M/same/rec" "$M/same/rec.c" 2>"$M/cc.err"; then
		"$P" "$M/same/rec.c" --binary "$M/same/rec" --table "$M/t.xml" -F json >"$M/rec.json" 2>"$M/pred.err"
		bound=$(python3 -c 'import json, sys
print([r["all"][0]["bound"] for r in json.load(open(sys.argv[1]))["regions"] if r["scope"] == "loop"][0])' "$M/rec.json")
		[ "$bound" = latency ] && ok "$name" || bad "$name (bound '$bound')" "$M/pred.err"
	else
		bad "$name (build failed)" "$M/cc.err"
	fi
	# helpers inlined into a loop (a header's static inline functions and
	# the file's own): their work is the loop's, which tells how many
	# source iterations a machine iteration does
	mkdir -p "$M/h"
	cat >"$M/h/helpers.h" <<'EOF'
static inline double sq(double x)
{
	return x * x;
}
static inline double lerp(double a, double b, double t)
{
	return a + t * (b - a);
}
EOF
	cat >"$M/h/helpers.c" <<'EOF'
#include <stdlib.h>
#include "helpers.h"
static inline double half(double x)
{
	return 0.5 * x;
}
__attribute__((noinline)) static void norms(int n, int m, const double *a, double *y)
{
	for (int i = 0; i < m; i++) {
		double s = 0;
		for (int j = 0; j < n; j++)
			s += lerp(sq(a[i * n + j]), 1.0, 0.25) + half(a[j]);
		y[i] = s;
	}
}
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100, m = 100;
	double *a = malloc(sizeof *a * n * m), *y = malloc(sizeof *y * m);
	for (int i = 0; i < n * m; i++)
		a[i] = i % 7;
	norms(n, m, a, y);
	return y[3] < 0;
}
EOF
	# a header's functions with loops inlined by the file's calls: each
	# machine loop of theirs is the loop of its call, run as the source
	# counts that call (a dot product in a loop, twice on one line; two
	# loops one after the other; a nest called outside any loop; a dot
	# product that a header's function calls, alone and in its loop)
	cat >"$M/h/vec.h" <<'EOF'
static inline double dot(const double *a, const double *b, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}
static inline void axpy2(double *y, const double *x, double a, int n)
{
	for (int i = 0; i < n; i++)
		y[i] += a * x[i];
	for (int i = 0; i < n; i++)
		y[i] *= 0.5;
}
static inline double msum(const double *m, int r, int c)
{
	double s = 0;
	for (int i = 0; i < r; i++)
		for (int j = 0; j < c; j++)
			s += m[i * c + j];
	return s;
}
static inline double norm2(const double *a, int n)
{
	return dot(a, a, n);
}
static inline double rowsum(const double *m, int r, int c)
{
	double s = 0;
	for (int i = 0; i < r; i++)
		s += dot(&m[i * c], &m[i * c], c);
	return s;
}
EOF
	cat >"$M/h/hloops.c" <<'EOF'
#include <stdlib.h>
#include "vec.h"
__attribute__((noinline)) static double work(int n, int m, double *a, double *x, double *y)
{
	double t = 0;
	for (int i = 0; i < m; i++) {
		t += dot(&a[i * n], x, n) + dot(x, x, n);
		axpy2(y, &a[i * n], 0.5, n);
	}
	for (int r = 0; r < 3; r++)
		t += norm2(y, n) + rowsum(a, m, n);
	return t + msum(a, m, n);
}
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100, m = argc > 2 ? atoi(argv[2]) : 50;
	double *a = malloc(sizeof *a * n * m), *x = malloc(sizeof *x * n), *y = malloc(sizeof *y * n);
	for (int i = 0; i < n * m; i++)
		a[i] = i % 5;
	for (int i = 0; i < n; i++)
		x[i] = y[i] = 1;
	return work(n, m, a, x, y) < 0;
}
EOF
	k0=$K
	K="$M/h"
	agree gcc -O2 helpers norms "300" --param n=300 --param m=100
	command -v clang-19 >/dev/null && agree clang-19 -O2 helpers norms "300" --param n=300 --param m=100
	agree gcc -O2 hloops work "300 60" --param n=300 --param m=60
	command -v clang-19 >/dev/null && agree clang-19 -O2 hloops work "300 60" --param n=300 --param m=60
	K=$k0
	grep -q "matches no loop\|match no loop" "$M/pred.json" &&
		bad "compiled model: a header's loops inlined are matched to their calls' loops" "$M/pred.json" ||
		ok "compiled model: a header's loops inlined are matched to their calls' loops"
	if command -v clang-19 >/dev/null; then
		for lvl in -O0 -O2; do
			agree "clang-19 -fno-inline" $lvl gemm gemm "60" --param n=60
			agree "clang-19 -fno-inline" $lvl dot dot "1000 20" --param n=1000 --param reps=20
			agree "clang-19 -fno-inline" $lvl trisolv trisolv "200 2" --param n=200 --param reps=2
		done
	else
		bad "clang-19 is needed to check clang's builds"
	fi
else
	bad "valgrind (callgrind) is needed to check the compiled model's counts"
fi

# the loops matched, the report's header, bound and mix
gcc -O0 -g -o "$M/gemm" "$K/gemm.c"
expect "compiled model: the table names the machine code" 0 "machine code: [0-9.e+]* instructions; .*bound: " -- \
	"$K/gemm.c" --binary "$M/gemm" --table "$M/t.xml" --param n=60
expect "compiled model: JSON carries the bound and the mix" 0 '"bound": "latency"' -- \
	"$K/gemm.c" --binary "$M/gemm" --table "$M/t.xml" --param n=60 -F json
grep -q '"fp.mul": ' "$tmp/out" && ok "compiled model: JSON instruction classes" ||
	bad "compiled model: JSON instruction classes" "$tmp/out"
# and what each bound alone would take: the bound named among them, none
# of the core's longer than the time (they overlap, not add), the chain
# of -O0's sum through its slot the largest of gemm's inner loop
python3 -c '
import json, sys
core = ("issue", "int", "fp", "load", "store", "div", "latency", "tlb")
loops = [r["all"][0] for r in json.load(open(sys.argv[1]))["regions"] if r["scope"] == "loop"]
ok = loops and all(a["bound"] in a["bounds_s"] and
		   all(v <= a["time_s"] * (1 + 1e-9) for k, v in a["bounds_s"].items() if k in core) for a in loops)
ok = ok and any(max(a["bounds_s"], key=a["bounds_s"].get) == "latency" for a in loops)
sys.exit(0 if ok else 1)' "$tmp/out" && ok "compiled model: JSON has each bound alone" ||
	bad "compiled model: JSON has each bound alone" "$tmp/out"
# -O0 keeps the accumulator in a stack slot: a double's store-to-load round
# trip (9 ns) and the add (3 ns) per inner iteration, 60^3 of them
awk '/"scope": "loop"/ { l = 1 } l && /"time_s"/ { gsub(/[^0-9.e-]/, "", $2); print $2; exit }' "$tmp/out" >"$M/t"
awk '{ e = $1 / (60 * 60 * 60 * 12e-9) - 1; exit (e * e < 0.01) ? 0 : 1 }' "$M/t" &&
	ok "compiled model: -O0's loop-carried chain through a stack slot prices the inner loop" ||
	bad "compiled model: -O0's loop-carried chain through a stack slot prices the inner loop" "$M/t"
# energy: idle power x time plus each instruction's dynamic energy
sed -e 's/<frequency ghz="1">/<frequency ghz="1" idle_w="10">/' \
	-e 's/ time_s="\([^"]*\)"/ time_s="\1" energy_j="2e-9" energy_dyn_j="1e-9"/' "$M/t.xml" >"$M/te.xml"
expect "compiled model: energy with idle power" 0 '"energy_idle_j"' -- \
	"$K/gemm.c" --binary "$M/gemm" --table "$M/te.xml" --param n=60 -F json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = [r for r in d["regions"] if r["scope"] == "loop"][0]
a = t["all"][0]
idle = 10 * a["time_s"]
dyn = a["energy_j"] - a["energy_idle_j"]
n = t["machine"]["instructions"]
# the idle share is 10 W x time; the dynamic energy is 1 nJ per instruction
# and per memory access
ok = abs(a["energy_idle_j"] / idle - 1) < 1e-6 and n * 1e-9 <= dyn <= 3 * n * 1e-9
sys.exit(0 if ok else 1)' "$tmp/out" && ok "compiled model: energy = idle power x time + dynamic energy" ||
	bad "compiled model: energy = idle power x time + dynamic energy" "$tmp/out"
sed 's/ idle_w="10"//' "$M/te.xml" >"$M/tn.xml"
expect "compiled model: energy without idle power, said so" 0 "no idle power in the table: the energy is the sum" -- \
	"$K/gemm.c" --binary "$M/gemm" --table "$M/tn.xml" --param n=60
# the build made by epi-predict itself, removed afterwards
before=$(ls /tmp | grep -c '^epi-build-')
expect "compiled model: -O2 after -- builds the file with clang" 0 "machine code: " -- \
	"$K/gemm.c" --table "$M/t.xml" --param n=60 -- -O2
[ "$(ls /tmp | grep -c '^epi-build-')" -eq "$before" ] && ok "compiled model: its build is removed" ||
	bad "compiled model: its build is removed"
# older C that gcc builds with warnings: the build takes it as the parse did
printf 'static twice(a) int a; { return a + a; }\nint sum(int n) { int t = 0; for (int i = 0; i < n; i++) t += twice(i); return t + strlen("x"); }\n' >"$M/old.c"
expect "compiled model: older C gcc accepts, built and priced" 0 "machine code: .*instructions" -- \
	"$M/old.c" --table "$M/t.xml" --param n=60 -- -O0
# a function the source defines and a system header declares (an
# interposer's read): gcc names the header as its declaration's file
cat >"$M/rd.c" <<'EOF'
#include <unistd.h>
ssize_t read(int fd, void *buf, size_t count)
{
	char *b = buf;
	for (size_t i = 0; i < count; i++)
		b[i] = (char)(fd + i);
	return (ssize_t)count;
}
EOF
gcc -O2 -g -c -o "$M/rd.o" "$M/rd.c"
expect "compiled model: a function a system header declares, priced" 0 "1 machine loop, 1 matched" -- \
	"$M/rd.c" --binary "$M/rd.o" --table "$M/t.xml" --param count=100
# a header's helper with a loop, inlined into the file's loop: its
# machine loop is the loop of the call, priced in the nest; called at -O0,
# the helper is another function's code, and the note says it is not
# priced (the source-level counts have its work)
printf 'static inline double dot(const double *a, int n)\n{\n\tdouble s = 0;\n\tfor (int i = 0; i < n; i++)\n\t\ts += a[i] * a[i];\n\treturn s;\n}\n' >"$M/vec.h"
printf '#include "vec.h"\nvoid norms(int m, int n, const double *A, double *y)\n{\n\tfor (int i = 0; i < m; i++)\n\t\ty[i] = dot(&A[i * n], n);\n}\n' >"$M/norms.c"
gcc -O2 -g -c -o "$M/norms.o" "$M/norms.c"
expect "compiled model: a header's loop inlined, matched to its call" 0 "2 machine loops, 2 matched to the source" -- \
	"$M/norms.c" --binary "$M/norms.o" --table "$M/t.xml" --param m=10 --param n=10
grep -q "matches no loop" "$tmp/out" "$tmp/err" &&
	bad "compiled model: a header's loop inlined, no note of it" "$tmp/err" ||
	ok "compiled model: a header's loop inlined, no note of it"
gcc -O0 -g -c -o "$M/norms0.o" "$M/norms.c"
expect "compiled model: a call of a header's function, not priced, said so" 0 \
	"the compiled code calls dot(), a function that a header of the program defines: its code is not priced" -- \
	"$M/norms.c" --binary "$M/norms0.o" --table "$M/t.xml" --param m=10 --param n=10
# a helper that other files may call (not static): gcc -O2 inlines it into
# the loop and keeps its own copy, which no call runs; the nest and its
# function count the inlined code alone, as the total does (callgrind's
# count), and the helper's own region is one call of its copy
printf 'int get(const int *p, int i)\n{\n\treturn p[i];\n}\nlong sum(int reps, int n, const int *a)\n{\n\tlong s = 0;\n\tfor (int t = 0; t < reps; t++)\n\t\tfor (int i = 0; i < n; i++)\n\t\t\ts += get(a, i);\n\treturn s;\n}\n' >"$M/helper.c"
gcc -O2 -g -c -o "$M/helper.o" "$M/helper.c"
"$P" "$M/helper.c" --binary "$M/helper.o" --table "$M/t.xml" --param reps=100 --param n=10000 -F json >"$tmp/out" 2>"$tmp/err"
python3 - "$tmp/out" >"$tmp/why" 2>&1 <<'PY' &&
import json, sys
d = json.load(open(sys.argv[1]))
ins = {(r["scope"], r.get("function"), r.get("line")): r["machine"]["instructions"] for r in d["regions"] if r.get("machine")}
total = [v for (s, f, l), v in ins.items() if s == "total"][0]
nest = ins[("loop", "sum", 8)]
fn = ins[("function", "sum", 5)]
get = ins[("function", "get", 1)]
assert 0 < get <= 4, ("the helper's region: one call of its copy", get)
assert abs(fn - total) <= 1e-9 * total, ("function against total", fn, total)
assert 0.99 * fn < nest <= fn, ("the nest holds the function's run", nest, fn)
print("ok", nest, fn, total)
PY
	ok "compiled model: an inlined helper's own copy is not counted per call" ||
	bad "compiled model: an inlined helper's own copy is not counted per call" "$tmp/why"
# calls into a library inside loop nests (sqrt, memcpy at -O0: the
# compiler keeps both calls): the calls are priced, not the callees' work,
# and a note names each callee with its line; a library call outside the
# nests (printf in main) is not named
printf '#include <math.h>\n#include <stdio.h>\n#include <string.h>\ndouble f(int n, double *a, double *b)\n{\n\tdouble s = 0;\n\tfor (int i = 0; i < n; i++)\n\t\ts += sqrt(a[i]);\n\tfor (int i = 0; i < n; i++)\n\t\tmemcpy(b, a, 4096);\n\treturn s;\n}\nint main(void)\n{\n\tstatic double a[1000], b[1000];\n\tprintf("%%f\\n", f(1000, a, b));\n\treturn 0;\n}\n' >"$M/libcalls.c"
gcc -O0 -g -o "$M/libcalls" "$M/libcalls.c" -lm
expect "compiled model: library calls in nests, not priced, said so" 0 \
	"^note: in loop nests the compiled code calls sqrt() (line 8), memcpy() (line 10), whose code is not in '.*libcalls' (a library's, or another file's)" -- \
	"$M/libcalls.c" --binary "$M/libcalls" --table "$M/t.xml" --param n=1000
grep "in loop nests the compiled code calls" "$tmp/out" "$tmp/err" | grep -q "printf()" &&
	bad "compiled model: a library call outside the nests, not named" "$tmp/err" ||
	ok "compiled model: a library call outside the nests, not named"
# a header from a folder of the build's -I, not repeated: found where the
# binary's debug information says the build found it (a header it names:
# one whose declarations the code uses), said so; the flags' own folder
# wins and needs no note
mkdir -p "$M/inc"
printf '#define STEPS 12\ntypedef double real;\n' >"$M/inc/steps.h"
printf '#include <steps.h>\nvoid run(int n, real *a)\n{\n\tfor (int t = 0; t < STEPS; t++)\n\t\tfor (int i = 1; i < n; i++)\n\t\t\ta[i] += a[i - 1];\n}\n' >"$M/usesteps.c"
gcc -O2 -g -I "$M/inc" -c -o "$M/usesteps.o" "$M/usesteps.c"
expect "compiled model: a header found through the binary's debug information" 0 \
	"headers also searched for where the debug information of '.*usesteps.o' says its build found them .*: $M/inc" -- \
	"$M/usesteps.c" --binary "$M/usesteps.o" --table "$M/t.xml" --param n=10
expect "compiled model: the header's value counted" 0 "usesteps.c,4,run,loop,add.f64,108," -- \
	"$M/usesteps.c" --binary "$M/usesteps.o" --table "$M/t.xml" --param n=10 --format csv
"$P" "$M/usesteps.c" --binary "$M/usesteps.o" --table "$M/t.xml" --param n=10 -- -I "$M/inc" >"$tmp/out" 2>&1
[ $? -eq 0 ] && ! grep -q "headers also searched" "$tmp/out" &&
	ok "compiled model: the flags' own folder, no note" || bad "compiled model: the flags' own folder, no note" "$tmp/out"
# a header that the debug information does not name (clang -O0 names no
# file the code only declares from), beside the program's other source:
# found there, said so
mkdir -p "$M/app" "$M/lib"
printf '#define STEPS 7\nint finish(double *a);\n' >"$M/lib/lib.h"
printf '#include "lib.h"\nint finish(double *a)\n{\n\treturn a[99] < 0;\n}\n' >"$M/lib/lib.c"
printf '#include "lib.h"\ndouble a[100];\nint main(void)\n{\n\tfor (int t = 0; t < STEPS; t++)\n\t\tfor (int i = 1; i < 100; i++)\n\t\t\ta[i] += a[i - 1];\n\treturn finish(a);\n}\n' >"$M/app/main.c"
clang-19 -O0 -g -I "$M/lib" -o "$M/app/prog" "$M/app/main.c" "$M/lib/lib.c"
expect "compiled model: a header beside the program's other source, said" 0 \
	"headers also searched for beside the other sources of '.*prog' .*: $M/lib" -- \
	"$M/app/main.c" --binary "$M/app/prog" --table "$M/t.xml"
expect "compiled model: that header's value counted" 0 "main.c,5,main,loop,add.f64,693," -- \
	"$M/app/main.c" --binary "$M/app/prog" --table "$M/t.xml" --format csv
# a program built with other array sizes than the parse gives (a -D
# the build had, not repeated): said, naming the first array and both
# sizes, and the source counted with the -D that gives the program's
# sizes; with the build's flags, nothing (arrays as parameters, which
# decay to pointers, behind typedefs and pointers, file-scope and local)
cat >"$M/sizes.c" <<'EOF2'
#ifndef N
#define N 100
#endif
typedef double row[N];
double g[N][8];
static row h[4];
void fill(int n, double A[N][N], double x[N], double (*p)[N])
{
	double t[N];
	double (*q)[N][N] = 0;
	for (int i = 0; i < n; i++) {
		t[i] = x[i];
		A[i][0] = t[i] + g[i][0] + h[0][i] + p[0][i];
	}
	x[0] = t[1] + (q ? 1 : 0);
}
EOF2
gcc -O0 -g -DN=300 -c -o "$M/sizes0.o" "$M/sizes.c"
expect "compiled model: a build with other array sizes, said, its -D read back" 0 \
	"'.*sizes0.o' was built with other array sizes than '.*sizes.c' has as parsed: g (line 5) is \[300\]\[8\] in the program, \[100\]\[8\] in the source, and 5 more arrays. The source is counted as built with -DN=300, which give the sizes and values the program was built with; the build's own -D flags after -- choose" -- \
	"$M/sizes.c" --binary "$M/sizes0.o" --table "$M/t.xml" --param n=10
# a size that no one macro makes (N * M): not read back, said
printf '#ifndef N\n#define N 100\n#endif\n#define M 8\ndouble w[N * M];\nvoid put(int n)\n{\n\tfor (int i = 0; i < n; i++)\n\t\tw[i] = i;\n}\n' >"$M/prod.c"
gcc -O0 -g -DN=300 -c -o "$M/prod.o" "$M/prod.c"
expect "compiled model: a size no one macro makes, not read back, said" 0 \
	"'.*prod.o' was built with other array sizes than '.*prod.c' has as parsed: w (line 5) is \[2400\] in the program, \[800\] in the source. Give the build's -D flags after -- : until then" -- \
	"$M/prod.c" --binary "$M/prod.o" --table "$M/t.xml" --param n=10
# one size read back, another no one macro makes: counted with the first,
# the one left said
printf '#ifndef N\n#define N 100\n#endif\n#ifndef M\n#define M 8\n#endif\ndouble a[N];\ndouble w[N * M];\nvoid put(int n)\n{\n\tfor (int i = 0; i < n; i++)\n\t\ta[i] = w[i] = i;\n}\n' >"$M/part.c"
gcc -O0 -g -DN=300 -DM=4 -c -o "$M/part.o" "$M/part.c"
expect "compiled model: a size read back, one left, said" 0 \
	"counted as built with -DN=300 -DM=8, which give the sizes and values the program was built with but for 1 array or variable (M=8 as the source has it" -- \
	"$M/part.c" --binary "$M/part.o" --table "$M/t.xml" --param n=10
# the sizes read back as PolyBench declares them: through a macro, from
# a header that defines them only when none is given, beside a step
# count that no array's size tells (kept as the source has it, said);
# the loop counted at the program's sizes, as with the build's flags
mkdir -p "$M/pb"
cat >"$M/pb/dims.h" <<'EOF2'
#if !defined(M) && !defined(N) && !defined(STEPS)
#define M 50
#define N 60
#define STEPS 3
#endif
#define ARR2(v, d1, d2) v[d1][d2]
EOF2
cat >"$M/pb/pbk.c" <<'EOF2'
#include "dims.h"
static double ARR2(A, M, N);
static double x[N + 1];
void kernel(int m, int n, int steps, double ARR2(B, M, N))
{
	for (int s = 0; s < steps; s++)
		for (int i = 0; i < m; i++)
			for (int j = 0; j < n; j++)
				B[i][j] += A[i][j] * x[j];
}
int main(void)
{
	kernel(M, N, STEPS, A);
	return 0;
}
EOF2
gcc -O2 -g -DM=70 -DN=90 -DSTEPS=3 -o "$M/pb/pbk" "$M/pb/pbk.c"
expect "compiled model: PolyBench's sizes read back, the steps kept, said" 0 \
	"counted as built with -DM=70 -DN=90 -DSTEPS=3, which give the sizes and values the program was built with (STEPS=3 as the source has it: no array's size or variable's value tells)" -- \
	"$M/pb/pbk.c" --binary "$M/pb/pbk" --table "$M/t.xml"
"$P" "$M/pb/pbk.c" --binary "$M/pb/pbk" --table "$M/t.xml" --format csv >"$tmp/read" 2>/dev/null
"$P" "$M/pb/pbk.c" --binary "$M/pb/pbk" --table "$M/t.xml" --format csv -- -DM=70 -DN=90 -DSTEPS=3 >"$tmp/given" 2>/dev/null
grep -q ',11,main,function,add.f64,18900,' "$tmp/read" && cmp -s "$tmp/read" "$tmp/given" &&
	ok "compiled model: PolyBench's sizes read back, counted as with the build's -D" ||
	bad "compiled model: PolyBench's sizes read back, counted as with the build's -D" "$tmp/read"
for cc in gcc clang-19; do
	$cc -O2 -g -DN=300 -c -o "$M/sizes2.o" "$M/sizes.c"
	"$P" "$M/sizes.c" --binary "$M/sizes2.o" --table "$M/t.xml" --param n=10 -- -DN=300 >"$tmp/out" 2>&1
	[ $? -eq 0 ] && ! grep -q "other array sizes" "$tmp/out" &&
		ok "compiled model: $cc -O2, the build's sizes given, no note" ||
		bad "compiled model: $cc -O2, the build's sizes given, no note" "$tmp/out"
	expect "compiled model: $cc -O2, the sizes of a function's array differ, said" 0 \
		"other array sizes .* is \[300\].* in the program, \[100\].* in the source" -- \
		"$M/sizes.c" --binary "$M/sizes2.o" --table "$M/t.xml" --param n=10
done
# the step count read back from a variable main() initialises with it:
# the constant the compiler kept for it (-O2), or the one the code stores
# on its line (-O0)
sed 's/^\tkernel(M, N, STEPS, A);$/\tint steps = STEPS;\n\tkernel(M, N, steps, A);/' "$M/pb/pbk.c" >"$M/pb/pbv.c"
for o in -O0 -O2; do
	gcc $o -g -DM=70 -DN=90 -DSTEPS=5 -o "$M/pb/pbv" "$M/pb/pbv.c"
	"$P" "$M/pb/pbv.c" --binary "$M/pb/pbv" --table "$M/t.xml" --format csv >"$tmp/read" 2>"$tmp/note"
	grep -q ',11,main,function,add.f64,31500,' "$tmp/read" &&
		grep -q "counted as built with -DM=70 -DN=90 -DSTEPS=5, which give" "$tmp/note" &&
		ok "compiled model: gcc $o, a step count read back from its variable" ||
		bad "compiled model: gcc $o, a step count read back from its variable" "$tmp/note"
done
# validate, the traced program's sizes against the source's
printf '#ifndef N\n#define N 1000\n#endif\ndouble a[N];\nint main(void)\n{\n\tfor (int r = 0; r < 300; r++)\n\t\tfor (int i = 1; i < N; i++)\n\t\t\ta[i] += a[i - 1] + 1;\n\treturn a[N - 1] < 0;\n}\n' >"$M/gsize.c"
traced gsize "-O0 -DN=20000"
run_epi "compiled model: validate a program built with other array sizes, said" 0 \
	"^note: '.*gsize' was built with other array sizes than '.*gsize.c' has as parsed: a (line 4) is \[20000\] in the program, \[1000\] in the source" -- \
	validate "$M/gsize.c" -a "$M/gsize.trace" -t "$M/t.xml"
"$E" validate "$M/gsize.c" -a "$M/gsize.trace" -t "$M/t.xml" -- -DN=20000 >"$tmp/out" 2>&1
[ $? -eq 0 ] && ! grep -q "other array sizes" "$tmp/out" &&
	ok "compiled model: validate with the build's -D, no note" || bad "compiled model: validate with the build's -D, no note" "$tmp/out"
# the size read back: predicted as with the build's -D
"$E" validate "$M/gsize.c" -a "$M/gsize.trace" -t "$M/t.xml" --format csv >"$tmp/read" 2>/dev/null
"$E" validate "$M/gsize.c" -a "$M/gsize.trace" -t "$M/t.xml" --format csv -- -DN=20000 >"$tmp/given" 2>/dev/null
grep -q '^"program",' "$tmp/read" && cmp -s "$tmp/read" "$tmp/given" &&
	ok "compiled model: validate, the build's size read back, predicted as with its -D" ||
	bad "compiled model: validate, the build's size read back, predicted as with its -D" "$tmp/read"
# the parameters that main() sets from the run's command line (after a
# usage check, over a default, through atoi and sscanf): validated
# without --param as with it, said; --param chooses
cat >"$M/argn.c" <<'EOF2'
#include <stdio.h>
#include <stdlib.h>
static double a[4000];
int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s N REPS\n", argv[0]);
		return 1;
	}
	int n = 100, reps;
	if (argc > 1)
		n = atoi(argv[1]);
	sscanf(argv[2], "%d", &reps);
	for (int r = 0; r < reps; r++)
		for (int i = 1; i < n; i++)
			a[i] += a[i - 1] * 0.5;
	return a[n - 1] > 1e300;
}
EOF2
traced argn -O0 4000 2000
"$E" validate "$M/argn.c" -a "$M/argn.trace" -t "$M/t.xml" >"$tmp/out" 2>&1
[ $? -eq 0 ] && grep "^note: .*: as main() ran with the run's command line (.*argn 4000 2000); --param chooses" "$tmp/out" |
	grep "reps = 2000" | grep -q "n = 4000" &&
	ok "compiled model: validate, parameters from the run's command line, said" ||
	bad "compiled model: validate, parameters from the run's command line, said" "$tmp/out"
"$E" validate "$M/argn.c" -a "$M/argn.trace" -t "$M/t.xml" --format csv >"$tmp/read" 2>/dev/null
"$E" validate "$M/argn.c" -a "$M/argn.trace" -t "$M/t.xml" --format csv -P n=4000 -P reps=2000 >"$tmp/given" 2>/dev/null
grep -q '^"program",' "$tmp/read" && cmp -s "$tmp/read" "$tmp/given" &&
	ok "compiled model: validate, parameters from the command line, as with --param" ||
	bad "compiled model: validate, parameters from the command line, as with --param" "$tmp/read"
"$E" validate "$M/argn.c" -a "$M/argn.trace" -t "$M/t.xml" -P n=1000 >"$tmp/out" 2>&1
[ $? -eq 0 ] && grep -q "n = 1000" "$tmp/out" && grep -q "^note: reps = 2000: as main() ran" "$tmp/out" &&
	ok "compiled model: validate, --param over the command line" ||
	bad "compiled model: validate, --param over the command line" "$tmp/out"
# a default from a -D that the sizes read back give: run without words,
# n is the build's N
printf '#include <stdlib.h>\n#ifndef N\n#define N 100\n#endif\nstatic double a[N];\nint main(int argc, char **argv)\n{\n\tint n = argc > 1 ? atoi(argv[1]) : N;\n\tfor (int r = 0; r < 300; r++)\n\t\tfor (int i = 1; i < n; i++)\n\t\t\ta[i] += a[i - 1] * 0.5;\n\treturn a[n - 1] > 1e300;\n}\n' >"$M/argd.c"
traced argd "-O0 -DN=5000"
run_epi "compiled model: validate, a default the build's -D gave" 0 \
	"^note: n = 5000: as main() ran with the run's command line" -- \
	validate "$M/argd.c" -a "$M/argd.trace" -t "$M/t.xml"
# options parsed by getopt (a GNU case range among its labels too) and
# by a loop over argv with strcmp (a word also kept in a pointer): the
# loops run as the program ran them, their trip counts too
cat >"$M/argo.c" <<'EOF2'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static double a[8000];
int main(int argc, char **argv)
{
	int n = 1000, reps = 10, c;
	while ((c = getopt(argc, argv, "vn:r:")) != -1)
		switch (c) {
		case 'n':
			n = atoi(optarg);
			break;
		case 'r':
			reps = atoi(optarg);
			break;
		case 'v':
			break;
		default:
			fprintf(stderr, "usage: %s [-v] [-n N] [-r REPS]\n", argv[0]);
			return 1;
		}
	for (int r = 0; r < reps; r++)
		for (int i = 1; i < n; i++)
			a[i] += a[i - 1] * 0.5;
	return a[n - 1] > 1e300;
}
EOF2
cat >"$M/args.c" <<'EOF2'
#include <stdlib.h>
#include <string.h>
static double a[8000];
int main(int argc, char **argv)
{
	int n = 1000, reps = 10;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			n = atoi(argv[++i]);
		else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
			reps = atoi(argv[++i]);
	}
	for (int r = 0; r < reps; r++)
		for (int i = 1; i < n; i++)
			a[i] += a[i - 1] * 0.5;
	return a[n - 1] > 1e300;
}
EOF2
sed 's/if (!strcmp(argv\[i\], "-n")/const char *w = argv[i];\n\t\tif (!strcmp(w, "-n")/' "$M/args.c" >"$M/argw.c"
grep -q 'const char \*w = argv\[i\];' "$M/argw.c" || bad "compiled model: argw.c as this test expects it" "$M/argw.c"
traced argo -O0 -v -n 4000 -r 2000
traced args -O0 --reps 2000 -n 4000
traced argw -O0 --reps 2000 -n 4000
sed 's/^\t\tcase .v.:$/\t\tcase '"'0'"' ... '"'9'"':\n\t\tcase '"'v'"':/' "$M/argo.c" >"$M/argr.c"
grep -q "case '0' ... '9':" "$M/argr.c" || bad "compiled model: argr.c as this test expects it" "$M/argr.c"
traced argr -O0 -v -n 4000 -r 2000
for p in "argo T8=3" "args T7=2" "argw T7=2" "argr T8=3"; do
	set -- $p
	"$E" validate "$M/$1.c" -a "$M/$1.trace" -t "$M/t.xml" --format csv >"$tmp/read" 2>"$tmp/note"
	"$E" validate "$M/$1.c" -a "$M/$1.trace" -t "$M/t.xml" --format csv -P n=4000 -P reps=2000 -P $2 >"$tmp/given" 2>/dev/null
	grep -q '^"program",' "$tmp/read" && cmp -s "$tmp/read" "$tmp/given" &&
		grep "as main() ran with the run's command line" "$tmp/note" | grep -q "${2%=*} = ${2#*=}" &&
		ok "compiled model: validate, options of $1.c run as the program ran them" ||
		bad "compiled model: validate, options of $1.c run as the program ran them" "$tmp/note"
done
# an option loop that cannot be run (a word copied by strcpy): n not
# taken from it, asked for
sed 's/if (!strcmp(argv\[i\], "-n")/char w[64];\n\t\tstrcpy(w, argv[i]);\n\t\tif (!strcmp(w, "-n")/' "$M/args.c" >"$M/argc.c"
grep -q 'strcpy(w, argv\[i\]);' "$M/argc.c" || bad "compiled model: argc.c as this test expects it" "$M/argc.c"
traced argc -O0 --reps 2000 -n 4000
run_epi "compiled model: validate, an option loop not run, its values asked for" 1 "give --param for .*n" -- \
	validate "$M/argc.c" -a "$M/argc.trace" -t "$M/t.xml"
# a switch with a label it cannot place (inside a block of its body, as
# Duff's device has them): not run
sed 's/^\t\tcase .r.:$/\t\t{\n\t\tcase '"'r'"':/; s/^\t\t\treps = atoi(optarg);$/\t\t\treps = atoi(optarg);\n\t\t}/; s/^\t\t\treturn 1;$/\t\t\tbreak;/' \
	"$M/argo.c" >"$M/argb.c"
grep -q "^		{$" "$M/argb.c" && ! grep -q "return 1;" "$M/argb.c" ||
	bad "compiled model: argb.c as this test expects it" "$M/argb.c"
traced argb -O0 -v -n 4000 -r 2000
run_epi "compiled model: validate, a switch with a label in a block not run, its values asked for" 1 \
	"give --param for .*n" -- validate "$M/argb.c" -a "$M/argb.trace" -t "$M/t.xml"
# a kernel whose main() is in another file: validate says that each of
# its functions is predicted for one call, and --calls gives how many
printf 'void kern(int n, double *a)\n{\n\tfor (int i = 1; i < n; i++)\n\t\ta[i] += a[i - 1] * 0.5;\n}\n' >"$M/kern.c"
printf 'void kern(int n, double *a);\nstatic double a[1000];\nint main(void)\n{\n\tfor (int r = 0; r < 20000; r++)\n\t\tkern(1000, a);\n\treturn a[999] > 1e300;\n}\n' >"$M/drv.c"
gcc -O0 -g -o "$M/kern" "$M/kern.c" "$M/drv.c"
"$top/build/san/bin/epi" profile -n 1 -m none -q -o "$M/kern.trace" -- "$M/kern" >/dev/null 2>&1
run_epi "compiled model: validate a file without main(), one call each, said" 0 \
	"^note: '.*kern.c' defines no main(): the program calls its functions from other files, and kern() is predicted for one call; give how often the run called it with --calls FUNCTION=N" -- \
	validate "$M/kern.c" -a "$M/kern.trace" -t "$M/t.xml" -P n=1000
"$E" validate "$M/kern.c" -a "$M/kern.trace" -t "$M/t.xml" -P n=1000 -F csv >"$M/one.csv" 2>/dev/null
"$E" validate "$M/kern.c" -a "$M/kern.trace" -t "$M/t.xml" -P n=1000 -F csv --calls kern=20000 >"$M/all.csv" 2>"$tmp/err"
python3 -c '
import csv, sys
def loop(f):
    return [float(r["pred_time_s"]) for r in csv.DictReader(open(f)) if r["kind"] == "loop"][0]
sys.exit(0 if abs(loop(sys.argv[2]) / loop(sys.argv[1]) / 20000 - 1) < 1e-4 else 1)' "$M/one.csv" "$M/all.csv" &&
	! grep -q "defines no main" "$tmp/err" &&
	ok "compiled model: validate --calls prices the nest for every call" ||
	bad "compiled model: validate --calls prices the nest for every call" "$tmp/err"
# two functions of the same code: gcc -O2 folds the second into the
# first (its code a jump to the first's), and the report says so
twin='(double *a, const double *x, int o, int s)\n{\n'
for k in 0 1 2 3 4 5 6 7; do twin="$twin\ta[$k] = x[$k * s + o];\n"; done
printf "void loadx$twin}\nvoid loady$twin}\n" >"$M/twins.c"
printf 'int main(void)\n{\n\tstatic double a[8], x[64];\n\tfor (int r = 0; r < 1000; r++) {\n\t\tloadx(a, x, r %% 8, 4);\n\t\tloady(a, x, r %% 7, 3);\n\t}\n\treturn a[0] > 1;\n}\n' >>"$M/twins.c"
gcc -O2 -g -o "$M/twins" "$M/twins.c"
objdump -d "$M/twins" | grep -A1 '<loady>:' | grep -q 'jmp.*<loadx>' &&
	ok "compiled model: gcc -O2 folds loady() into loadx() (the case below)" ||
	bad "compiled model: gcc -O2 folds loady() into loadx() (the case below)"
expect "compiled model: a function folded into its twin, said" 0 \
	"the compiler folded loady() into loadx(), whose machine code is the same" -- \
	"$M/twins.c" --binary "$M/twins" --table "$M/t.xml"
gcc -O2 -g -fno-ipa-icf -o "$M/twins2" "$M/twins.c"
"$P" "$M/twins.c" --binary "$M/twins2" --table "$M/t.xml" >"$tmp/out" 2>&1
[ $? -eq 0 ] && ! grep -q "the compiler folded" "$tmp/out" && ok "compiled model: twins kept apart, no note" ||
	bad "compiled model: twins kept apart, no note" "$tmp/out"
# gcc outlines an OpenMP parallel loop into a function of its own
# (axpy._omp_fn.0, declared nowhere, inside axpy's debug information):
# its machine loop is the nest's
cat >"$M/omp.c" <<'EOF'
void axpy(int n, double a, const double *x, double *y)
{
#pragma omp parallel for
	for (int i = 0; i < n; i++)
		y[i] = a * x[i] + y[i];
}
EOF
gcc -O2 -g -fopenmp -c -o "$M/omp.o" "$M/omp.c"
"$P" "$M/omp.c" --binary "$M/omp.o" --table "$M/t.xml" --param n=100000 --format json -- -fopenmp >"$tmp/out" 2>"$tmp/err"
python3 -c '
import json, sys
r = [x for x in json.load(open(sys.argv[1]))["regions"] if x["scope"] == "loop" and x["line"] == 4]
sys.exit(0 if len(r) == 1 and r[0]["all"][0]["time_s"] > 0 and r[0]["machine"]["instructions"] > 100000 else 1)' "$tmp/out" &&
	ok "compiled model: an OpenMP loop outlined by gcc is priced in its nest" ||
	bad "compiled model: an OpenMP loop outlined by gcc is priced in its nest" "$tmp/err"
expect "compiled model: --model source keeps the source-level model" 0 "^  all  .*J +- " -- \
	"$ex/selection_sort.c" --table "$ref" --freq 2.4GHz --param n=100 --model source -- -O2

# a function's region, callees included, is one call of it: main's is the
# program's total; sum's holds its loop and the ten calls of get (each
# priced as one call in get's region), whose instructions the nest holds
# too; with n unbound, how often the loop runs is not known: '-'
cat >"$M/calls.c" <<'EOF'
int a[64];
int get(int i)
{
	return a[i] * 3;
}
int sum(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += get(i);
	return s;
}
int main(void)
{
	return sum(10) > 0;
}
EOF
gcc -O0 -g -o "$M/calls" "$M/calls.c"
expect "compiled model: a region is one run, callees included" 0 '"scope": "total"' -- \
	"$M/calls.c" --binary "$M/calls" --table "$M/t.xml" --param n=10 -F json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = {(x["scope"], x["function"]): x for x in d["regions"]}
t = lambda k: r[k]["all"][0]["time_s"]
n = lambda k: r[k]["machine"]["instructions"]
get, summ, nest = ("function", "get"), ("function", "sum"), ("loop", "sum")
total = [x for x in d["regions"] if x["scope"] == "total"][0]["all"][0]["time_s"]
ok = (abs(t(("function", "main")) / total - 1) < 1e-9 and t(summ) > t(nest) > 10 * t(get)
      and n(nest) > 10 * n(get) and n(summ) > n(nest))
sys.exit(0 if ok else 1)' "$tmp/out" && ok "compiled model: main is the total, sum holds ten calls of get" ||
	bad "compiled model: main is the total, sum holds ten calls of get" "$tmp/out"
expect "compiled model: a region whose runs need a parameter" 0 "how often it runs needs the unbound parameters" -- \
	"$M/calls.c" --binary "$M/calls" --table "$M/t.xml"
# in JSON too, that nest has no time and so no bound; get's region, one
# call whatever n is, has both
expect "compiled model: JSON of a region whose runs need a parameter" 0 '"scope": "loop"' -- \
	"$M/calls.c" --binary "$M/calls" --table "$M/t.xml" -F json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = {(x["scope"], x["function"]): x["all"][0] for x in d["regions"]}
nest, get = r[("loop", "sum")], r[("function", "get")]
ok = (nest["time_s"] is None and nest["bound"] is None and get["time_s"] > 0 and get["bound"] is not None)
sys.exit(0 if ok else 1)' "$tmp/out" && ok "compiled model: no bound in JSON where no time was priced" ||
	bad "compiled model: no bound in JSON where no time was priced" "$tmp/out"

# a nest the compiler unrolls whole into straight code keeps that code:
# its region is priced with it, not at 0 s
cat >"$M/unrolled.c" <<'EOF'
int a[16];
void init(void)
{
	for (int i = 0; i < 16; i++)
		a[i] = 3 * i + 1;
}
EOF
clang-19 -O2 -g -c -o "$M/unrolled.o" "$M/unrolled.c"
"$P" "$M/unrolled.c" --binary "$M/unrolled.o" --table "$M/t.xml" -F json >"$tmp/out" 2>"$tmp/err"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
nest = [r for r in d["regions"] if r["scope"] == "loop"][0]
ok = nest["machine"]["instructions"] >= 4 and nest["all"][0]["time_s"] > 0
sys.exit(0 if ok else 1)' "$tmp/out" && ok "compiled model: a nest unrolled into straight code" ||
	bad "compiled model: a nest unrolled into straight code" "$tmp/out"

# a function inlined into every caller has no code of its own: its region
# says so, priced '-', not 0 s
cat >"$M/inl.c" <<'EOF'
static inline int twice(int x)
{
	return 2 * x;
}
int sum(int *a, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += twice(a[i]);
	return s;
}
EOF
gcc -O2 -g -c -o "$M/inl.o" "$M/inl.c"
expect "compiled model: a function inlined into its callers" 0 "machine code: none of its own, inlined into its callers" -- \
	"$M/inl.c" --binary "$M/inl.o" --table "$M/t.xml" --param n=10

# a loop the compiler removes (it does nothing) has no machine code: said so
cat >"$M/empty.c" <<'EOF'
int main(void)
{
	for (int i = 0; i < 32; i++) {
	}
	return 0;
}
EOF
gcc -O2 -g -o "$M/empty" "$M/empty.c"
expect "compiled model: a loop the compiler removed" 0 "machine code: none on its lines: the compiler removed it" -- \
	"$M/empty.c" --binary "$M/empty" --table "$M/t.xml"

# the object read and priced on one thread or three: the same report
"$P" "$K/gemm.c" --binary "$M/gemm" --table "$M/t.xml" --param n=60 -F csv -j 1 >"$tmp/j1" 2>"$tmp/err" &&
	"$P" "$K/gemm.c" --binary "$M/gemm" --table "$M/t.xml" --param n=60 -F csv -j 3 >"$tmp/j3" 2>>"$tmp/err" &&
	cmp -s "$tmp/j1" "$tmp/j3" && ok "compiled model: --jobs 3, the same report as --jobs 1" ||
	bad "compiled model: --jobs 3, the same report as --jobs 1" "$tmp/err"

# a function that ends in a jump to the next one (a tail call): that jump
# leaves the function's code, whatever the bytes after its instructions'
# blocks hold (malloc_fill_byte: fresh memory not ASan's default filling)
cat >"$M/tail.c" <<'EOF'
static void body(double *a, int n);
void entry(double *a, int n) { body(a, n); }
static void __attribute__((noinline)) body(double *a, int n)
{
	for (int i = 0; i < n; i++)
		a[i] = a[i] * a[i] + 1;
}
EOF
clang-19 -O2 -g -c -o "$M/tail.o" "$M/tail.c"
ASAN_OPTIONS=$ASAN_OPTIONS:malloc_fill_byte=2 expect "compiled model: a tail call to the next function" 0 \
	"^  all .*[0-9] ns" -- "$M/tail.c" --binary "$M/tail.o" --table "$M/t.xml" --param n=100

# a loop at the start of an object file's code: its branch back goes to
# address 0, a direct target all the same
cat >"$M/l0.c" <<'EOF'
void scale(double *a, double *end)
{
	do
		*a *= 2;
	while (++a < end);
}
EOF
gcc -O2 -g -c -o "$M/l0.o" "$M/l0.c"
expect "compiled model: a loop at address 0 of an object file" 0 "(x86-64, 1 machine loop, 1 matched to the source)" -- \
	"$M/l0.c" --binary "$M/l0.o" --table "$M/t.xml"

# the program's instructions, the model's total against callgrind's over
# the functions of the source, within 2%
whole() { # NAME PROG SOURCE
	name=$1 prog=$2 src=$3
	valgrind --tool=callgrind --callgrind-out-file="$M/cg.out" "$prog" >/dev/null 2>&1
	want=$(callgrind_annotate "$M/cg.out" 2>/dev/null |
		awk -v s="$(basename "$src"):" '!/=>/ && index($0, s) { gsub(",", "", $1); n += $1 } END { print n + 0 }')
	"$P" "$src" --binary "$prog" --table "$M/t.xml" -F json >"$M/pred.json" 2>"$M/pred.err"
	got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(round([r for r in d["regions"] if r["scope"] == "total"][0]["machine"]["instructions"]))' "$M/pred.json")
	if [ -n "$got" ] && [ -n "$want" ] && [ "$want" -gt 0 ] &&
		awk -v a="$got" -v b="$want" 'BEGIN { e = a / b - 1; exit (e * e < 0.0004) ? 0 : 1 }'; then
		ok "$name"
	else
		bad "$name (model '$got', callgrind '$want')" "$M/pred.err"
	fi
}

# a call whose result is never used, which the compiler removes: the
# callee's loop never runs, and is not priced
cat >"$M/dead.c" <<'EOF'
double a[100];
double energy(const double *x, int n)
{
	double e = 0;
	for (int i = 0; i < n; i++)
		e += x[i] * x[i] / (i + 1.0);
	return e;
}
int main(void)
{
	for (long r = 0; r < 20000; r++) {
		energy(a, 100);
		a[r % 100] += 1.0;
	}
	return 0;
}
EOF
for cc in gcc clang-19; do
	$cc -O2 -g -o "$M/dead-$cc" "$M/dead.c"
	whole "compiled model: a call $cc removed is not priced" "$M/dead-$cc" "$M/dead.c"
	grep -q "dead.c:12: the compiled code makes no call to energy() here" "$M/pred.json" &&
		ok "compiled model: a call $cc removed is noted" || bad "compiled model: a call $cc removed is noted" "$M/pred.json"
	# and not taken for a function that only pointers reach
	! grep -q "no code of the file calls energy()" "$M/pred.json" &&
		ok "compiled model: a call $cc removed is not said never made" ||
		bad "compiled model: a call $cc removed is not said never made" "$M/pred.json"
done
# a function inlined into its caller's loop, and unrolled there, and also
# compiled on its own with a loop that nothing calls: priced once
cat >"$M/unroll.c" <<'EOF'
struct body {
	double v[3], mass;
};
struct body b[5] = {{{1, 2, 3}, 4}, {{1, 2, 3}, 4}, {{1, 2, 3}, 4}, {{1, 2, 3}, 4}, {{1, 2, 3}, 4}};
void offset(struct body *p, unsigned n)
{
	for (unsigned i = 0; i < n; ++i)
		for (int k = 0; k < 3; ++k)
			p[0].v[k] -= p[i].v[k] * p[i].mass / 40.0;
}
int main(void)
{
	for (int r = 0; r < 20000; r++)
		offset(b, 5);
	return b[0].v[0] > 0;
}
EOF
gcc -O2 -g -o "$M/unroll" "$M/unroll.c"
whole "compiled model: a function's own loop runs for its calls that are not inlined" "$M/unroll" "$M/unroll.c"
# a function inlined into a caller that is itself inlined everywhere: the
# copy of its loop in the caller's own code never runs (here the call is
# removed where the caller was inlined, its result unused)
cat >"$M/copy.c" <<'EOF'
float D[64];
int check(void)
{
	float s = 0;
	for (int i = 0; i < 64; i++)
		s += D[i];
	return s != 144.0f;
}
int run(void)
{
	D[0] += 1;
	return check();
}
int main(void)
{
	int r = 0;
	for (int k = 0; k < 20000; k++)
		r += run();
	return r & 0;
}
EOF
gcc -O2 -g -o "$M/copy" "$M/copy.c"
whole "compiled model: a loop's copy inside a caller inlined everywhere does not run" "$M/copy" "$M/copy.c"
# identical functions merged: by gcc (g's body compiled as f's, its
# inlined copies named f) and by the linker (gold --icf=all: f and g at
# one address); g's calls are made in f's code, on f's lines
cat >"$M/icf.c" <<'EOF'
int calls;
__attribute__((noinline)) double h(double x)
{
	double s = 0;
	for (int i = 0; i < 50; i++)
		s += x / (i + 1);
	return s;
}
double f(double *a, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += h(a[i]);
	calls++;
	return s;
}
double g(double *a, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += h(a[i]);
	calls++;
	return s;
}
int main(void)
{
	double a[100];
	for (int i = 0; i < 100; i++)
		a[i] = i;
	double s = 0;
	for (int r = 0; r < 200; r++)
		s += f(a, 100) + g(a + 1, 99);
	return s < 0;
}
EOF
gcc -O2 -g -o "$M/icf" "$M/icf.c"
whole "compiled model: identical functions merged by gcc" "$M/icf" "$M/icf.c"
if command -v ld.gold >/dev/null; then
	sed 's/^double \([fg]\)(/__attribute__((noinline)) double \1(/' "$M/icf.c" >"$M/icfl.c"
	gcc -O2 -g -ffunction-sections -fuse-ld=gold -Wl,--icf=all -o "$M/icfl" "$M/icfl.c"
	whole "compiled model: identical functions merged by the linker" "$M/icfl" "$M/icfl.c"
else
	bad "ld.gold (binutils) is needed to merge identical functions at link time"
fi
# a pure function's call whose arguments do not change in the loop: the
# compiler calls it once, before the loop (gcc keeps the call's line, clang
# gives it the line of the code before the loop)
cat >"$M/hoist.c" <<'EOF'
__attribute__((noinline)) double norm(const double *v, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += v[i] * v[i];
	return s;
}
int main(void)
{
	double v[100];
	for (int i = 0; i < 100; i++)
		v[i] = i;
	double t = 0;
	for (int r = 0; r < 100000; r++)
		t += norm(v, 100) * r;
	return t > 0;
}
EOF
gcc -O2 -g -o "$M/hoist" "$M/hoist.c"
whole "compiled model: a call moved out of its loop is counted once per run of the loop" "$M/hoist" "$M/hoist.c"
clang-19 -O2 -g -o "$M/hoist-clang" "$M/hoist.c"
expect "compiled model: a call clang moved out of its loop, noted" 0 \
	"hoist.c:15: the compiled code calls norm() once per run of the loop on line 14, before it" -- \
	"$M/hoist.c" --binary "$M/hoist-clang" --table "$M/t.xml"
# clang unrolls a loop of a constant trip count by 5 and keeps its
# counter in a double too (five multiply-adds and one more add an
# iteration): the trip counts, not the floating-point work, give the 5
cat >"$M/unroll5.c" <<'EOF'
double w = 0.5;
int main(void)
{
	double t = 0;
	for (int r = 0; r < 100000; r++)
		t += w * r;
	return t > 0;
}
EOF
clang-19 -O2 -g -o "$M/unroll5" "$M/unroll5.c"
whole "compiled model: clang's loop unrolled by 5, counted by its constant trips" "$M/unroll5" "$M/unroll5.c"
# a tail call to the first function of an object file, at address 0
cat >"$M/at0.c" <<'EOF'
__attribute__((noinline)) double body(double *a, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += a[i] * a[i];
	return s;
}
double bench(double *a)
{
	return body(a, 1000);
}
EOF
gcc -O2 -g -c -o "$M/at0.o" "$M/at0.c"
"$P" "$M/at0.c" --binary "$M/at0.o" --table "$M/t.xml" -F json >"$tmp/out" 2>&1
! grep -q "makes no call" "$tmp/out" && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = [r for r in d["regions"] if r["scope"] == "function" and r["function"] == "bench"][0]
sys.exit(0 if r["all"][0]["time_s"] > 1000e-9 else 1)' "$tmp/out" &&
	ok "compiled model: a tail call to address 0 of an object file is a call" ||
	bad "compiled model: a tail call to address 0 of an object file is a call" "$tmp/out"

# a shared object calls its own global functions through its procedure
# linkage table: such a call is made, not removed
cat >"$M/pic.c" <<'EOF'
double energy(const double *x, int n)
{
	double e = 0;
	for (int i = 0; i < n; i++)
		e += x[i] * x[i] / (i + 1.0);
	return e;
}
double use(const double *x)
{
	double s = 0;
	for (int r = 0; r < 1000; r++)
		s += energy(x, 100);
	return s;
}
EOF
gcc -O2 -g -fPIC -shared -o "$M/pic.so" "$M/pic.c"
"$P" "$M/pic.c" --binary "$M/pic.so" --table "$M/t.xml" -F json >"$tmp/out" 2>&1
! grep -q "makes no call" "$tmp/out" && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = [r for r in d["regions"] if r["scope"] == "total"][0]
sys.exit(0 if t["machine"]["instructions"] > 1000 * 100 * 3 else 1)' "$tmp/out" &&
	ok "compiled model: a call through a shared object's linkage table is a call" ||
	bad "compiled model: a call through a shared object's linkage table is a call" "$tmp/out"

# validate prices the program without the call removed, and says so
"$top/build/san/bin/epi" profile -n 1 -m none -q -o "$M/dead.trace" -- "$M/dead-gcc" >/dev/null 2>&1
DEAD="validate $M/dead.c -a $M/dead.trace -t $M/t.xml"
run_epi "compiled model: validate notes a call removed" 0 "^note: .*dead.c:12: the compiled code makes no call to energy() here" -- $DEAD
grep -q '^dead.c:5 loop in energy  *0  0 ' "$tmp/out" && ok "compiled model: validate, a loop of a removed call predicted 0 s" ||
	bad "compiled model: validate, a loop of a removed call predicted 0 s" "$tmp/out"

# validate's rows hold what the profile samples on their lines: a callee's
# nest inlined and unrolled into its caller's loop (the caller's machine
# loop mostly on the callee's lines), and one unrolled into the straight
# code of a function called in a loop
cat >"$M/rows.c" <<'EOF'
struct body {
	double v[3], mass;
};
struct body b[5] = {{{1, 2, 3}, 4}, {{1, 2, 3}, 4}, {{1, 2, 3}, 4}, {{1, 2, 3}, 4}, {{1, 2, 3}, 4}};
double a[4];
void offset(struct body *p, unsigned n)
{
	for (unsigned i = 0; i < n; ++i)
		for (int k = 0; k < 3; ++k)
			p[0].v[k] -= p[i].v[k] * p[i].mass / 40.0;
}
static void scale(double *x)
{
	for (int k = 0; k < 4; k++)
		x[k] = x[k] / 3.0 + 1;
}
__attribute__((noinline)) void step(void)
{
	scale(a);
}
int main(void)
{
	for (int r = 0; r < 2000000; r++)
		offset(b, 5);
	for (int r = 0; r < 8000000; r++)
		step();
	return b[0].v[0] > a[0];
}
EOF
gcc -O2 -g -o "$M/rows" "$M/rows.c"
"$top/build/san/bin/epi" profile -n 1 -m none -q -o "$M/rows.trace" -- "$M/rows" >/dev/null 2>&1
run_epi "compiled model: validate a program with nests inlined into others" 0 '^"rows.c:8 loop in offset",loop,' -- \
	validate "$M/rows.c" -a "$M/rows.trace" -t "$M/t.xml" -F csv
python3 -c '
import csv, sys
rows = {r["block"]: r for r in csv.DictReader(open(sys.argv[1]))}
p = lambda b: float(rows[b]["pred_time_s"])
s = lambda b: int(rows[b]["samples"])
# the profile samples offset()s unrolled code on its nest, scale()s on its:
# the model prices them there, not in the loop or function they are in
ok = s("rows.c:8 loop in offset") > s("rows.c:23 loop in main") and p("rows.c:8 loop in offset") > 2 * p("rows.c:23 loop in main")
ok = ok and s("rows.c:14 loop in scale") > s("step() outside its loops") and p("rows.c:14 loop in scale") > 2 * p("step() outside its loops")
sys.exit(0 if ok else 1)' "$tmp/out" && ok "compiled model: validate prices inlined code on the nest whose lines it is on" ||
	bad "compiled model: validate prices inlined code on the nest whose lines it is on" "$tmp/out"

# validate prices the program as the runs mapped it, when the command
# named it relative to the directory it was profiled in
cp "$K/gemm.c" "$M/vg.c"
gcc -O2 -g -o "$M/vg" "$M/vg.c"
(cd "$M" && "$top/build/san/bin/epi" profile -n 1 -m none -q -o rel.trace -- ./vg 200 >/dev/null 2>&1)
run_epi "compiled model: validate a program named relative to where it ran" 0 "^model: compiled code of $M/vg " -- \
	validate "$M/vg.c" -a "$M/rel.trace" -t "$M/t.xml" -P n=200
# validate's JSON rows carry what bounds each and the instructions it runs
# (gemm's nest: its multiply-adds), not under the source-level model
run_epi "compiled model: validate JSON" 0 '"kind": "loop"' -- \
	validate "$M/vg.c" -a "$M/rel.trace" -t "$M/t.xml" -P n=200 -F json
python3 -c '
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["rows"] if r["kind"] == "loop"]
names = ("issue", "int", "fp", "load", "store", "div", "latency", "tlb", "l2", "l3", "dram", "pages", "branch")
ok = rows and all(r["bound"] in names and r["machine"]["instructions"] > 0 for r in rows)
ok = ok and all(r["bound"] in r["bounds_s"] and set(r["bounds_s"]) <= set(names) for r in rows)
ok = ok and max(r["machine"]["flops"] for r in rows) >= 2 * 200 ** 3
sys.exit(0 if ok else 1)' "$tmp/out" && ok "compiled model: validate JSON has each nest's bound and instructions" ||
	bad "compiled model: validate JSON has each nest's bound and instructions" "$tmp/out"
run_epi "validate JSON, source-level model" 0 '"kind": "loop"' -- \
	validate "$M/vg.c" -a "$M/rel.trace" -t "$M/t.xml" -P n=200 -F json --model source
grep -q '"bound"' "$tmp/out" && bad "validate JSON: no bound under the source-level model" "$tmp/out" ||
	ok "validate JSON: no bound under the source-level model"

# bad input
gcc -O2 -o "$M/nodebug" "$K/gemm.c"
expect "compiled model: a program without debug information" 1 "no debug information: build it with -g" -- \
	"$K/gemm.c" --binary "$M/nodebug" --table "$M/t.xml" --param n=60
expect "compiled model: a program built from another source" 1 "has no function compiled from .*trisolv.c' (it was built from gemm.c)" -- \
	"$K/trisolv.c" --binary "$M/gemm" --table "$M/t.xml" --param n=60 --param reps=1
cp "$M/gemm" "$M/stripped" && strip "$M/stripped"
expect "compiled model: a stripped program" 1 "no debug information: build it with -g" -- \
	"$K/gemm.c" --binary "$M/stripped" --table "$M/t.xml" --param n=60
gcc -O2 -g -flto -c -o "$M/lto.o" "$K/gemm.c"
expect "compiled model: an object of LTO bytecode" 1 "'.*lto.o' holds link-time optimisation bytecode (-flto)" -- \
	"$K/gemm.c" --binary "$M/lto.o" --table "$M/t.xml" --param n=60
(cd "$M" && gcc -O2 -g -gsplit-dwarf -c -o split.o "$K/gemm.c")
expect "compiled model: debug information in .dwo files" 1 "keeps its debug information in .dwo files (-gsplit-dwarf)" -- \
	"$K/gemm.c" --binary "$M/split.o" --table "$M/t.xml" --param n=60
# clang's line tables alone: no function to read, said so
printf 'double sum(int n, const double *a)\n{\n\tdouble s = 0;\n\tfor (int i = 0; i < n; i++)\n\t\ts += a[i];\n\treturn s;\n}\n' >"$M/lines.c"
clang-19 -O2 -gline-tables-only -c -o "$M/lines.o" "$M/lines.c"
expect "compiled model: line tables only" 1 "'.*lines.o' has line tables and no functions in its debug information (-gline-tables-only): build it with -g" -- \
	"$M/lines.c" --binary "$M/lines.o" --table "$M/t.xml" --param n=60
# debug sections compressed with zstd: read where libdw reads them, else
# said so (not taken for a program without debug information)
clang-19 -O2 -g -gz=zstd -c -o "$M/zstd.o" "$K/gemm.c"
if "$P" "$K/gemm.c" --binary "$M/zstd.o" --table "$M/t.xml" --param n=60 >"$tmp/out" 2>"$tmp/err"; then
	ok "compiled model: zstd-compressed debug information, read"
else
	expect "compiled model: zstd-compressed debug information, said so" 1 "'.*zstd.o' keeps its debug information compressed with zstd (-gz=zstd), which this system's libdw does not read" -- \
		"$K/gemm.c" --binary "$M/zstd.o" --table "$M/t.xml" --param n=60
fi
printf '#if 0\nint f(void) { return 0; }\n#endif\n' >"$M/none.c"
gcc -O2 -g -c -o "$M/none.o" "$M/none.c"
expect "compiled model: an object with no function in it" 1 "'.*none.o' holds no machine code" -- \
	"$M/none.c" --binary "$M/none.o" --table "$M/t.xml"
expect "compiled model: the build of a file with no function" 1 "the build of '.*none.c' holds no machine code" -- \
	"$M/none.c" --table "$M/t.xml" -- -O2
# a file whose functions all come from a .c file it includes
printf 'int twice(int a) { return a + a; }\n' >"$M/part.c"
printf '#include "part.c"\n' >"$M/whole.c"
gcc -O0 -g -c -o "$M/whole.o" "$M/whole.c"
expect "compiled model: functions all from an included file" 1 "has no function of '.*whole.c' itself" -- \
	"$M/whole.c" --binary "$M/whole.o" --table "$M/t.xml"
# a main() whose body clang removes (a loop that ends only by overflow,
# doing nothing): the function is there, with no code
if command -v clang-19 >/dev/null; then
	printf 'int main(void)\n{\n\tfor (int i = 1; i > 0; i++)\n\t\t;\n\treturn 0;\n}\n' >"$M/spin.c"
	clang-19 -O2 -g -c -o "$M/spin.o" "$M/spin.c"
	expect "compiled model: a function whose body the compiler removed" 1 \
		"'.*spin.o': main() of '.*spin.c' has no machine code: the compiler removed its body" -- \
		"$M/spin.c" --binary "$M/spin.o" --table "$M/t.xml"
	# beside a function with code: said in its report
	printf 'void spin(void)\n{\n\tfor (int i = 1; i > 0; i++)\n\t\t;\n}\ndouble g(const double *a, int n)\n{\n\tdouble s = 0;\n\tfor (int i = 0; i < n; i++)\n\t\ts += a[i];\n\treturn s;\n}\n' >"$M/spin2.c"
	clang-19 -O2 -g -c -o "$M/spin2.o" "$M/spin2.c"
	if "$P" "$M/spin2.c" --binary "$M/spin2.o" --table "$M/t.xml" --param n=10 -F json 2>"$M/pred.err" |
		python3 -c '
import json, sys
f = {r["function"]: r for r in json.load(sys.stdin)["regions"] if r["scope"] == "function"}
sys.exit(0 if f["spin"].get("empty") is True and "empty" not in f["g"] and f["g"]["machine"]["instructions"] > 0 else 1)'; then
		ok "compiled model: a function whose body was removed, beside one with code"
	else
		bad "compiled model: a function whose body was removed, beside one with code" "$M/pred.err"
	fi
fi
# the prices do not depend on the unit of time: the table's times a third
# (a core at 3 GHz, the same cycles) make every region's a third, -O0's
# chains through stack slots and array elements included
awk '{ while (match($0, /time_s="[^"]*"/)) {
	v = substr($0, RSTART + 8, RLENGTH - 9); printf "%s", substr($0, 1, RSTART - 1)
	printf "time_s=\"%.17g\"", v / 3; $0 = substr($0, RSTART + RLENGTH) } print }' "$M/t.xml" >"$M/t3.xml"
for b in seidel-2d:-O0:tsteps=2 seidel-2d:-O2:tsteps=2 ludcmp:-O0:n=200 nussinov:-O0:n=200; do
	k=${b%%:*} lvl=${b#*:} bind=${b##*:}
	lvl=${lvl%%:*}
	name="compiled model: $k $lvl priced alike in nanoseconds and in thirds of them"
	gcc $lvl -g -o "$M/$k$lvl" "$K/$k.c"
	"$P" "$K/$k.c" --binary "$M/$k$lvl" --table "$M/t.xml" --param n=200 --param "$bind" -F json >"$M/u1.json" 2>"$M/pred.err" &&
		"$P" "$K/$k.c" --binary "$M/$k$lvl" --table "$M/t3.xml" --param n=200 --param "$bind" -F json >"$M/u3.json" 2>>"$M/pred.err"
	if python3 -c '
import json, sys
a, b = (json.load(open(f))["regions"] for f in sys.argv[1:3])
t = [(x["all"][0]["time_s"], y["all"][0]["time_s"]) for x, y in zip(a, b) if x.get("all") and x["all"][0]["time_s"]]
sys.exit(not (len(a) == len(b) and t and all(abs(3 * v - u) <= 1e-6 * u for u, v in t)))' "$M/u1.json" "$M/u3.json"; then
		ok "$name"
	else
		bad "$name" "$M/pred.err"
	fi
done
head -c 1000 "$M/gemm" >"$M/truncated"
expect "compiled model: a truncated program" 1 "'.*truncated' is truncated" -- \
	"$K/gemm.c" --binary "$M/truncated" --table "$M/t.xml" --param n=60
expect "compiled model: not a program" 1 "is not an ELF program" -- \
	"$K/gemm.c" --binary "$K/gemm.c" --table "$M/t.xml" --param n=60
expect "compiled model: no such program" 1 "cannot open the program" -- \
	"$K/gemm.c" --binary "$M/none" --table "$M/t.xml" --param n=60
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	aarch64-linux-gnu-gcc -O2 -g -c -o "$M/a64.o" "$K/gemm.c"
	expect "compiled model: another architecture's program" 1 "is aarch64 machine code and this machine is x86-64" -- \
		"$K/gemm.c" --binary "$M/a64.o" --table "$M/t.xml" --param n=60
else
	bad "aarch64-linux-gnu-gcc is needed to check a foreign program"
fi
gcc -O0 -g -o "$M/sel" "$ex/selection_sort.c"
expect "compiled model: a table without its kernels" 0 "lacks the kernels add.i64, add.i64.lat" -- \
	"$ex/selection_sort.c" --binary "$M/sel" --table "$ref" --freq 2.4GHz --param n=100
expect "compiled model: --binary with --model source" 2 "goes with --model compiled" -- \
	"$K/gemm.c" --binary "$M/gemm" --model source
expect "compiled model: an unknown model" 2 "expected compiled or source" -- "$K/gemm.c" --model fast
export EPI_CC=false
expect "compiled model: a build that fails" 1 "the compiler 'false' could not build" -- \
	"$K/gemm.c" --table "$M/t.xml" --param n=60 -- -O2
EPI_CC="$M/none"
expect "compiled model: no compiler" 1 "cannot run the compiler" -- \
	"$K/gemm.c" --table "$M/t.xml" --param n=60 -- -O2
unset EPI_CC

finish
