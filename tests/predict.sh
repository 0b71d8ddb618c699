# End-to-end tests of epi-predict (the sanitized build) on real files:
# exit codes and one-line errors, CSV and JSON, threads, the release build,
# compiler flags, make install, the paper's kernels and tables, the corpus.
. "$(dirname "$0")/lib.sh"

expect "help" 0 "usage: epi-predict" -- --help
expect "no file" 2 "usage: no C file given" --
expect "unknown option" 2 "unknown option '--bogus'" -- --bogus "$ex/scalar_product.c"
expect "missing file" 1 "error: cannot open 'nope.c'" -- nope.c
# a name with a newline (or bytes of damaged input) stays on one line
nl='no
pe.c'
"$P" "$nl" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "cannot open 'no?pe.c'" "$tmp/err" &&
	ok "an error naming a file with a newline is one line" ||
	bad "an error naming a file with a newline is one line" "$tmp/err"
printf 'int f(int n) {\n  return n +;\n}\n' >"$tmp/broken.c"
expect "C that does not parse" 1 "broken.c:2:13: error: expected expression" -- "$tmp/broken.c"
# older C that gcc builds with warnings (implicit int, undeclared calls, an
# integer taken as a pointer, a bare return in an int function): counted,
# unless the user's flags forbid it
cat >"$tmp/old.c" <<'EOF'
static twice(a) int a; { return a + a; }
int sum(int n) { int *p = n; int t = 0; for (int i = 0; i < n; i++) t += twice(i); return t + (p != 0) + strlen("x"); }
int scale(n, x) int n; double *x; { int i; if (n <= 0) return; for (i = 0; i < n; i++) x[i] *= 2; return n; }
EOF
expect "older C gcc accepts: counted" 0 "call:strlen .* 1" -- "$tmp/old.c"
expect "older C, -Werror=implicit-int" 1 "old.c:1:8: error: type specifier missing" -- "$tmp/old.c" -- -Werror=implicit-int
# loops under pragmas: an unrolling or vectorising hint (an attributed
# statement to libclang) and OpenMP's directives (their loops hidden from
# libclang's cursors when parsed with -fopenmp): each counted, none dropped
cat >"$tmp/prag.c" <<'EOF'
void hints(int n, double *a)
{
#pragma GCC unroll 4
	for (int i = 0; i < n; i++)
		a[i] *= 2;
#pragma clang loop vectorize(enable)
	for (int i = 0; i < n; i++)
		a[i] += 1;
}
void omp(int n, double *a)
{
#pragma omp parallel for collapse(2)
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			a[i] += j;
#pragma omp parallel
	{
#pragma omp for
		for (int i = 0; i < n; i++)
			a[i] -= 1;
	}
}
EOF
"$P" "$tmp/prag.c" --param n=10 --format csv >"$tmp/prag.csv" 2>"$tmp/err"
grep -q 'prag.c,4,hints,loop,iter,10,' "$tmp/prag.csv" && grep -q 'prag.c,7,hints,loop,iter,10,' "$tmp/prag.csv" &&
	ok "loops under unrolling and vectorising hints counted" ||
	bad "loops under unrolling and vectorising hints counted" "$tmp/prag.csv"
"$P" "$tmp/prag.c" --param n=10 --format csv -- -fopenmp >"$tmp/prag.csv" 2>"$tmp/err"
grep -q 'prag.c,13,omp,loop,iter,110,' "$tmp/prag.csv" && grep -q 'prag.c,19,omp,loop,iter,10,' "$tmp/prag.csv" &&
	ok "loops under OpenMP directives counted with -fopenmp" ||
	bad "loops under OpenMP directives counted with -fopenmp" "$tmp/prag.csv"
"$P" "$tmp/prag.c" --param n=10 --format csv -- -fopenmp-simd >"$tmp/prag.csv" 2>"$tmp/err"
grep -q 'prag.c,13,omp,loop,iter,110,' "$tmp/prag.csv" && grep -q 'prag.c,19,omp,loop,iter,10,' "$tmp/prag.csv" &&
	ok "loops under OpenMP directives counted with -fopenmp-simd" ||
	bad "loops under OpenMP directives counted with -fopenmp-simd" "$tmp/prag.csv"
expect "OpenMP: read as plain C, said so" 0 "prag.c:12: OpenMP directives are read as plain C" -- "$tmp/prag.c" -- -fopenmp
printf '#include <omp.h>\nint f(int n)\n{\n\tint s = 0;\n#pragma omp parallel for reduction(+ : s)\n\tfor (int i = 0; i < n; i++)\n\t\ts += omp_get_thread_num();\n\treturn s;\n}\n' >"$tmp/ompinc.c"
expect "OpenMP: a program that includes omp.h" 0 "call:omp_get_thread_num  *10 " -- "$tmp/ompinc.c" --param n=10 -- -fopenmp
printf 'int f(int n)\n{\n\tint s = 0;\n\tfor (int i = 0; i < n; i++) {\n\t\t__asm__ volatile("" ::: "memory");\n\t\ts += i;\n\t}\n\treturn s;\n}\n' >"$tmp/asm.c"
expect "inline assembly, said so" 0 "asm.c:5: inline assembly: its instructions are not counted" -- "$tmp/asm.c"
# helpers that a header of the program defines: counted at their calls;
# one whose loop cannot be counted is listed, and said so
printf 'static inline double dot(int n, const double *a)\n{\n\tdouble s = 0;\n\tfor (int i = 0; i < n; i++)\n\t\ts += a[i] * a[i];\n\treturn s;\n}\n' >"$tmp/vec.h"
printf 'static inline int last(const int *next, int i)\n{\n\twhile (next[i] >= 0)\n\t\ti = next[i];\n\treturn i;\n}\n' >>"$tmp/vec.h"
printf '#include "vec.h"\ndouble norm2(int n, const double *a)\n{\n\treturn dot(n, a);\n}\nint end(const int *next)\n{\n\treturn last(next, 0);\n}\n' >"$tmp/usevec.c"
expect "a helper a header defines, counted" 0 "usevec.c,2,norm2,function,mul.f64,7," -- "$tmp/usevec.c" --param n=7 --format csv
expect "a header's helper that cannot be counted, said so" 0 \
	"usevec.c:8: last() is defined in vec.h:8: the call is listed, its work not counted (.*vec.h:10: cannot count this loop" -- "$tmp/usevec.c"
printf '<?xml version="1.0"?>\n<costtable version="1">\n<machine><cpu>x</cpu></machine>\n<meter name="none" domain="none"/>\n<frequency ghz="2">\n<op name="add" unit="op" energy_j="abc" runs="1"/>\n</frequency>\n</costtable>\n' >"$tmp/bad.xml"
expect "schema-invalid table" 1 "bad.xml' line 6" -- "$ex/scalar_product.c" --table "$tmp/bad.xml"
printf '<costtable>\n<oops>\n' >"$tmp/trunc.xml"
expect "malformed table" 1 "trunc.xml' line 3" -- "$ex/scalar_product.c" --table "$tmp/trunc.xml"
expect "unparsable frequency" 1 "invalid frequency 'fast'" -- "$ex/scalar_product.c" --table "$ref" --freq fast
expect "frequency outside the table" 1 "calibrated: 1.6, 1.8, 2.13, 2.4 GHz" -- "$ex/scalar_product.c" --table "$ref" --freq 3GHz
expect "interpolated frequency" 0 "at 2 GHz, interpolated" -- "$ex/scalar_product.c" --table "$ref" --freq 2GHz --param n=10
expect "unparsable --param" 2 "invalid --param 'n=abc'" -- "$ex/scalar_product.c" --param n=abc
expect "unknown --param" 1 "'q' is not a parameter" -- "$ex/scalar_product.c" --param q=3
# a function's parameter that no count depends on (its loop's bound a
# macro, as PolyBench's stencils take their time steps): a note, the rest
# bound; a name the file does not have stays an error
printf '#define T 10\nvoid sweep(int tsteps, int n, double *a)\n{\n\tfor (int t = 0; t < T; t++)\n\t\tfor (int i = 1; i < n; i++)\n\t\t\ta[i] = 0.5 * a[i - 1];\n}\n' >"$tmp/steps.c"
expect "a parameter no count depends on: a note" 0 "no count of '.*steps.c' depends on 'tsteps' (its parameters: n): ignored" -- \
	"$tmp/steps.c" --param tsteps=5 --param n=8
expect "a parameter no count depends on: the rest bound" 0 "steps.c,4,sweep,loop,mul.f64,70," -- \
	"$tmp/steps.c" --param tsteps=5 --param n=8 --format csv
expect "a name the file does not have" 1 "'tstep' is not a parameter of '.*steps.c' (its parameters: n)" -- \
	"$tmp/steps.c" --param tstep=5 --param n=8
expect "bad --format" 2 "invalid --format 'xml'" -- "$ex/scalar_product.c" --format xml
expect "bad --branch-prob" 2 "invalid --branch-prob '2'" -- "$ex/scalar_product.c" --branch-prob 2
expect "unbound parameter" 0 "unbound parameters: n" -- "$ex/scalar_product.c" --table "$ref"
expect "selection sort at 2.4 GHz" 0 "2.315 kJ" -- "$ex/selection_sort.c" --table "$ref" --freq 2.4GHz --param n=100000
expect "10^6 elements, exact" 0 "499999500000" -- "$ex/selection_sort.c" --param n=1e6
expect "counts without a table" 0 "counts only" -- "$ex/weighted_means.c"
EPI_TABLE="$ref" expect "EPI_TABLE" 0 "cost table $ref" -- "$ex/scalar_product.c" --param n=5

# CSV: the notes on standard error, the rows alone on standard output
printf 'int f(int *a)\n{\n\tint i = 0;\n\twhile (a[i])\n\t\ti++;\n\treturn i;\n}\n' >"$tmp/scan.c"
"$P" "$tmp/scan.c" --format csv >"$tmp/o.csv" 2>"$tmp/err"
grep -q "^epi-predict: note: .*scan.c:4: cannot count this loop" "$tmp/err" && ! grep -q "cannot count" "$tmp/o.csv" &&
	ok "CSV: notes on standard error" || bad "CSV: notes on standard error" "$tmp/err"
# a loop bounded by what memory holds (a sparse row's end) says so
printf 'void spmv(int n, const int *rowptr, const double *val, double *y)\n{\n\tfor (int i = 0; i < n; i++)\n\t\tfor (int j = rowptr[i]; j < rowptr[i + 1]; j++)\n\t\t\ty[i] += val[j];\n}\n' >"$tmp/spmv.c"
expect "a bound read from memory, said so" 0 "spmv.c:4: cannot count this loop: its condition reads memory ('rowptr\[i + 1\]')" -- "$tmp/spmv.c"
# a '!=' bound behind the first value (an unsigned byte that wraps from 250
# to 4): not taken as '<' (no iteration), said so, its trip count asked for;
# a bound ahead of it stays '<', exact
printf '#include <stdint.h>\nlong wrap(void)\n{\n\tlong s = 0;\n\tfor (uint8_t i = 250; i != 4; i++)\n\t\ts += i;\n\tfor (unsigned j = 0; j != 10; j++)\n\t\ts += j;\n\treturn s;\n}\n' >"$tmp/wrap.c"
expect "a '!=' bound reached by wrapping around, said so" 0 "wrap.c:5: cannot count this loop: its '!=' bound 4 is below its first value 250: reached only by wrapping around" -- "$tmp/wrap.c"
"$P" "$tmp/wrap.c" --trip 5=10 --format csv 2>/dev/null >"$tmp/o.csv" &&
	grep -q 'wrap.c,5,wrap,loop,iter,10,' "$tmp/o.csv" && grep -q 'wrap.c,7,wrap,loop,iter,10,' "$tmp/o.csv" &&
	ok "a '!=' bound reached by wrapping around, counted with --trip" ||
	bad "a '!=' bound reached by wrapping around, counted with --trip"
# a loop stepped by a parameter says so
printf 'void tiles(int n, int bs, double *a)\n{\n\tfor (int ii = 0; ii < n; ii += bs)\n\t\ta[ii] = 0;\n}\n' >"$tmp/tiles.c"
expect "a step that is no constant, said so" 0 "tiles.c:3: cannot count this loop: 'ii' steps by 'bs', which is no constant" -- "$tmp/tiles.c"
printf 'int walk(int n, int s, const int *a)\n{\n\tint i = 0, c = 0;\n\twhile (i < n) {\n\t\tc += a[i];\n\t\ti += s;\n\t}\n\treturn c;\n}\n' >"$tmp/wstep.c"
expect "a while loop's step that is no constant, said so" 0 "wstep.c:4: cannot count this loop: 'i' steps by 's', which is no constant" -- "$tmp/wstep.c"
printf 'void halve(int n, double *a)\n{\n\tfor (int m = 1; m < n; m *= 2)\n\t\tfor (int i = 0; i < n; i += m + m)\n\t\t\ta[i] += 1;\n}\n' >"$tmp/mstep.c"
expect "a step the loop around changes: the step named, not the loop's own variable" 0 \
	"mstep.c:4: cannot count this loop: 'i' steps by 'm + m', which is no constant" -- "$tmp/mstep.c"
# a loop stepped by a parameter, counted exactly for a call that passes a
# constant (blocks of 32 over n = 100: partial blocks at the edge), and
# where the call passes a variable, its point loops over the whole range
# (the tile loops' own iterations alone take trip counts)
cat >"$tmp/tblock.c" <<'EOF'
void tr(int n, int b, const float *s, float *d)
{
	for (int ii = 0; ii < n; ii += b)
		for (int jj = 0; jj < n; jj += b)
			for (int i = ii; i < ii + b && i < n; i++)
				for (int j = jj; j < jj + b && j < n; j++)
					d[j * n + i] = s[i * n + j];
}
void run(int n, int reps, const float *s, float *d)
{
	for (int r = 0; r < reps; r++)
		tr(n, 32, s, d);
}
void any(int n, int bs, const float *s, float *d)
{
	tr(n, bs, s, d);
}
EOF
"$P" "$tmp/tblock.c" --param n=100 --param reps=3 --format csv >"$tmp/out" 2>"$tmp/err"
grep -q '/tblock.c,9,run,function,store.f32,30000,30000,30000,' "$tmp/out" &&
	grep -q '/tblock.c,9,run,function,store.f32,30000,30000,30000,n^2\*reps for reps >= 1 and n >= 63,' "$tmp/out" &&
	grep -q '/tblock.c,14,any,function,store.f32,10000,10000,10000,n^2 for n >= 0,' "$tmp/out" &&
	grep -q "tblock.c:3: the loops inside it from 'ii' to the lesser of 'ii + b' and its bound cover its range once" "$tmp/err" &&
	grep -q "tblock.c:12: tr() is counted for this call's b = 32: its loops' trip counts are known" "$tmp/err" &&
	! grep -q "AddressSanitizer\|runtime error" "$tmp/err" &&
	ok "a step by a parameter counted for the call that passes a constant" ||
	bad "a step by a parameter counted for the call that passes a constant" "$tmp/out"
# the constant passed down a chain of calls six deep, each level calling
# the next three times: the step's trip count known at the bottom, each
# function counted once for each value
cat >"$tmp/chain.c" <<'EOF'
double acc[1];
void f6(int n, int b) { for (int i = 0; i < n; i += b) acc[0] += 1.0; }
void f5(int n, int b) { f6(n, b); f6(n, b); f6(n, b); }
void f4(int n, int b) { f5(n, b); f5(n, b); f5(n, b); }
void f3(int n, int b) { f4(n, b); f4(n, b); f4(n, b); }
void f2(int n, int b) { f3(n, b); f3(n, b); f3(n, b); }
void f1(int n, int b) { f2(n, b); f2(n, b); f2(n, b); }
void f0(int n) { f1(n, 2); f1(n, 3); }
EOF
# 3^5 calls of f6 for each b: 243 * (50 + 34)
expect "a constant passed down six calls counted at the bottom" 0 '/chain.c,8,f0,function,add.f64,20412,' \
	-- "$tmp/chain.c" --param n=100 --format csv
# a callee counted for one value that passes another to its own callee:
# each value's counts its own (f1's b = 2 walks f2 with b = 3, which is
# not f1's b = 3)
cat >"$tmp/memo.c" <<'EOF'
double acc[1];
void f2(int n, int b) { for (int i = 0; i < n; i += b) acc[0] += 1.0; }
void f1(int n, int b) { for (int i = 0; i < n; i += b) acc[0] += 1.0; f2(n, b + 1); }
void f0(void) { f1(100, 2); f1(100, 3); }
EOF
# (50 + 34) + (34 + 25)
expect "a value passed on is not the caller's value" 0 "add.f64 *143 " -- "$tmp/memo.c"
# a nest whose sums need more floor terms than the symbol table holds (a
# strided loop bounded by a quotient, calling a strided loop with its
# variables): that loop counted with a trip-count parameter, the file not
# given up
cat >"$tmp/ovf.c" <<'EOF'
void f1(int p0, int p1, int p2)
{
	for (int i0 = p0 + 4; i0 < -p2 + 1; i0 += 2) {
	}
}
void f0(int p0)
{
	for (int i0 = p0; i0 <= -1; i0 += 1)
		for (int i1 = i0 + 4; i1 < 1; i1 += 2)
			for (int i2 = i1 + p0; i2 < (2 * i0 + i1) / 4; i2 += 2)
				f1(i2 + 1, i0 / 2, p0);
}
EOF
expect "a loop beyond the symbol table: its trip-count parameter" 0 \
	"ovf.c:8: cannot count this loop: too complex to count exactly (more than .* symbols in use at once.*the parameter T8" \
	-- "$tmp/ovf.c"
# a call whose arguments (a half of a parameter) make the callee's counts
# need more floor terms than the table holds: the call listed, said so
cat >"$tmp/ovc.c" <<'EOF'
void f5(int p0, int p1, int p2)
{
	for (int i0 = 1; i0 < p0 + p1 + p2 + 1; i0 += 3)
		for (int i1 = 0; i1 <= i0 + p0 + 2 * p1 - 2; i1 += 1)
			;
}
void f1(int p0, int p1, int p2)
{
	for (int i0 = 1; i0 <= p1 + 1; i0 += 1) {
		f5(p2 / 3, p2, i0);
		for (int i1 = 4; i1 < p2 + 3; i1 += 2)
			for (int i2 = 2 * i0 + p0 + 4; i2 < -i0 + 2 * i1 - p0 + p1 + 3; i2 += 1)
				;
	}
}
void f0(int p0, int p1)
{
	f1(p0 / 2, 1, p1);
}
EOF
expect "a call beyond the symbol table: listed, said so" 0 \
	"ovc.c:18: f1()'s counts for this call's arguments are beyond the analysis (more than .*): the call is listed" \
	-- "$tmp/ovc.c"
grep -q "^  call:f1 *1 " "$tmp/out" && ok "a call beyond the symbol table: its row" || bad "a call beyond the symbol table: its row" "$tmp/out"
printf 'struct it { int i; };\nvoid zero(int n, double *a, struct it *p)\n{\n\tfor (p->i = 0; p->i < n; p->i += 2)\n\t\ta[p->i] = 0;\n}\n' >"$tmp/member.c"
expect "a counter that is a structure's member, said so" 0 \
	"member.c:4: cannot count this loop: its counter 'p->i' is a member of a structure" -- "$tmp/member.c"
# CSV: the exact header, 12 fields on every row
"$P" "$ex/selection_sort.c" --table "$ref" --param n=1000 --format csv >"$tmp/o.csv" 2>"$tmp/err"
if [ "$(head -1 "$tmp/o.csv")" = "file,line,function,scope,op,count,count_min,count_max,formula,energy_j,time_s,freq_ghz" ] &&
	awk -F, '{ q = gsub(/"/, "\""); if (q == 0 && NF != 12) exit 1 }' "$tmp/o.csv"; then
	ok "csv columns"
else
	bad "csv columns" "$tmp/o.csv"
fi
# JSON through --output, written atomically; the same bytes as stdout
"$P" "$ex/selection_sort.c" --param n=1000 --format json >"$tmp/a.json" &&
	"$P" "$ex/selection_sort.c" --param n=1000 --format json -o "$tmp/b.json" &&
	cmp -s "$tmp/a.json" "$tmp/b.json" && [ "$(ls "$tmp" | grep -c 'b.json')" -eq 1 ] &&
	grep -q '"count_exact": "499500"' "$tmp/b.json" && ok "json and --output" || bad "json and --output"
expect "bad --jobs" 2 "invalid --jobs '0'" -- "$ex/scalar_product.c" --jobs 0

# the report formatted on several threads: the same bytes as on one
sh "$top/evals/gen-nests.sh" 150 >"$tmp/nests.c"
jobs_ok=1
for f in table csv json; do
	"$P" "$tmp/nests.c" --table "$ref" --freq all --param n=60 --format $f -j 1 >"$tmp/j1" 2>"$tmp/err" &&
		"$P" "$tmp/nests.c" --table "$ref" --freq all --param n=60 --format $f -j 3 >"$tmp/j3" 2>>"$tmp/err" &&
		[ "$(grep -c '' "$tmp/j1")" -gt 1000 ] && cmp -s "$tmp/j1" "$tmp/j3" && ! grep -q Sanitizer "$tmp/err" ||
		jobs_ok=0
done
[ $jobs_ok = 1 ] && ok "--jobs 3: the same report as --jobs 1" || bad "--jobs 3: the same report as --jobs 1" "$tmp/err"
# the release build (mimalloc, huge pages) writes the same bytes as the sanitized one
"$top/bin/epi-predict" "$tmp/nests.c" --table "$ref" --freq all --param n=60 --format csv >"$tmp/rel" 2>"$tmp/err" &&
	"$P" "$tmp/nests.c" --table "$ref" --freq all --param n=60 --format csv >"$tmp/j1" &&
	cmp -s "$tmp/j1" "$tmp/rel" && [ ! -s "$tmp/err" ] && ok "release build: the same CSV as the sanitized one" ||
	bad "release build: the same CSV as the sanitized one" "$tmp/err"
# libclang parses on epi-predict's own threads (LIBCLANG_NOTHREADS): the
# deepest nesting clang accepts (256 brackets) in a file long enough for two
# threads, and with the main thread's stack limit below libclang's (then
# libclang parses on threads of its own), the same counts
awk 'BEGIN { for (f = 0; f < 60; f++) {
	printf "int f%d(int n) {\n\tint s = 0;\n\tfor (int i = 0; i < n; i++) ", f
	for (d = 0; d < 250; d++) printf "{"
	printf "s += "; for (d = 0; d < 250; d++) printf "("; printf "i"; for (d = 0; d < 250; d++) printf ")"
	printf ";"; for (d = 0; d < 250; d++) printf "}"
	printf "\n\treturn s;\n}\n"; for (l = 0; l < 4; l++) print "" } }' >"$tmp/deep.c"
"$top/bin/epi-predict" "$tmp/deep.c" -j 2 --format csv >"$tmp/deep1" 2>"$tmp/err" &&
	(ulimit -s 1024 && "$top/bin/epi-predict" "$tmp/deep.c" -j 2 --format csv) >"$tmp/deep2" 2>>"$tmp/err" &&
	cmp -s "$tmp/deep1" "$tmp/deep2" && grep -q '^[^,]*deep.c,534,f59,loop,add.i32,,,,n for n >= 0,' "$tmp/deep1" &&
	ok "release build: 250-deep nesting parsed on its own threads and on libclang's alike" ||
	bad "release build: 250-deep nesting parsed on its own threads and on libclang's alike" "$tmp/err"
# C in a file whose name clang takes for no source (no suffix, .inc): parsed
# and built as C, where libclang took it for a precompiled AST (error 4);
# a directory: the reason named
cp "$top/data/examples/selection_sort.c" "$tmp/sort.inc"
cp "$top/data/examples/selection_sort.c" "$tmp/sort"
expect "C in a .inc file" 0 "cmp.i32 .* n\*(n - 1)/2 for n >= 0" -- "$tmp/sort.inc"
expect "C in a file without a suffix, built by -- -O2" 0 \
	"model: compiled code of .*sort built by clang -g -c -O2 (x86-64, 3 machine loops, 3 matched" -- "$tmp/sort" -- -O2
expect "a directory for a source" 1 "cannot read '$tmp': Is a directory" -- "$tmp"
# expressions as deep as their operators chain, as code generators write
# them: a statement of 20,000 terms and a bound of 3,000 (the walk recursed
# past an 8 MiB stack into a crash), counted on the walk's own stacks
awk 'BEGIN { printf "void f(int n, double *x, const double *y";
	for (k = 0; k < 10; k++) printf ", int a%d", k; print ") {\n\tfor (int i = 0; i < n; i++)";
	printf "\t\tx[i] = 1.0 * y[i]"; for (k = 1; k < 20000; k++) printf " + %d.0 * y[i + %d]", k % 97 + 1, k % 100;
	print ";\n\tfor (int i = 0; i < 0"; for (k = 0; k < 3000; k++) printf " + %d * a%d", k % 7 + 1, k % 10;
	print "; i++)\n\t\tx[i] = 0;\n}" }' >"$tmp/deepexpr.c"
params=""
for k in 0 1 2 3 4 5 6 7 8 9; do params="$params --param a$k=1"; done
"$P" "$tmp/deepexpr.c" --param n=10 $params --format csv >"$tmp/out" 2>"$tmp/err"
if grep -q '^[^,]*deepexpr.c,2,f,loop,add.f64,199990,' "$tmp/out" && grep -q '^[^,]*deepexpr.c,2,f,loop,load.f64,200000,' "$tmp/out" &&
	grep -q '^[^,]*deepexpr.c,4,f,loop,store.f64,11994,' "$tmp/out" && ! grep -q Sanitizer "$tmp/err"; then
	ok "a statement of 20,000 terms and a bound of 3,000: counted"
else
	bad "a statement of 20,000 terms and a bound of 3,000: counted" "$tmp/err"
fi
# its allocator options are set before mimalloc starts (so they hold for its
# first segment), and the environment's own settings win
MIMALLOC_VERBOSE=1 "$top/bin/epi-predict" --help >/dev/null 2>"$tmp/mi1"
MIMALLOC_VERBOSE=1 MIMALLOC_LARGE_OS_PAGES=0 MIMALLOC_EAGER_COMMIT_DELAY=2 "$top/bin/epi-predict" --help >/dev/null 2>"$tmp/mi2"
# (mimalloc 2.1 calls the first option allow_large_os_pages)
grep -q "option '\(allow_\)\{0,1\}large_os_pages': 1" "$tmp/mi1" && grep -q "option 'eager_commit_delay': 0" "$tmp/mi1" &&
	grep -q "option '\(allow_\)\{0,1\}large_os_pages': 0" "$tmp/mi2" && grep -q "option 'eager_commit_delay': 2" "$tmp/mi2" &&
	ok "release build: mimalloc's large pages from the start, unless the environment says otherwise" ||
	bad "release build: mimalloc's large pages from the start, unless the environment says otherwise" "$tmp/mi2"

# a long file is analysed in chunks of functions, each in a symbol table of
# its own, then merged: a function counts the same there as in a file of its
# own, and the total is the sum of the functions nobody calls
"$P" "$tmp/nests.c" --param n=40 --param m=30 --format csv >"$tmp/all.csv" 2>"$tmp/err"
chunk_ok=$?
# FUNCTION,OP,COUNT,MIN,MAX of the function rows (the columns before the formula)
rows() { awk -F, -v f="$2" '$3 == f && $4 == "function" { print $3, $5, $6, $7, $8 }' "$1"; }
for k in 0 7 14; do
	awk -v k="$k" 'NR == 1 || /^static double helper/ { h = 1 } h { print } /^}/ { h = 0 }
		$0 ~ "^void kernel" k "\\(" { f = 1 } f && !h { print } f && /^}/ { f = 0 }' "$tmp/nests.c" >"$tmp/one.c"
	"$P" "$tmp/one.c" --param n=40 --param m=30 --format csv >"$tmp/one.csv" 2>>"$tmp/err" || chunk_ok=1
	rows "$tmp/all.csv" "kernel$k" >"$tmp/r1"
	rows "$tmp/one.csv" "kernel$k" >"$tmp/r2"
	[ -s "$tmp/r1" ] && cmp -s "$tmp/r1" "$tmp/r2" || chunk_ok=1
done
sums=$(awk -F, '$5 == "all" { next } $4 == "function" && $3 ~ /^kernel/ { s[$5] += $6 } $4 == "total" { t[$5] = $6 }
	END { for (o in s) if (s[o] != t[o]) bad = 1; for (o in t) if (s[o] != t[o]) bad = 1;
	      print bad ? "differ" : "same" }' "$tmp/all.csv")
[ $chunk_ok = 0 ] && [ "$sums" = same ] && ! grep -q Sanitizer "$tmp/err" &&
	ok "a file in chunks: each function as alone, the total as their sum" ||
	bad "a file in chunks: each function as alone, the total as their sum" "$tmp/err"

# a recursive call is cut where the walk meets it again, which depends on
# where the walk starts: a file whose chunks cut one is walked in one piece,
# so that a function called once counts as much as its callee (f and g call
# each other from different chunks; top, after g, calls f)
{
	echo 'void g(double *a, int n);'
	echo 'void f(double *a, int n) {'
	echo '  for (int i = 0; i < n; i++) a[i] += 1;'
	echo '  if (n > 0) g(a, n - 1);'
	echo '}'
	k=0
	while [ $k -lt 140 ]; do
		printf 'void pad%d(double *a, int n) {\n  for (int i = 0; i < n; i++) a[i] *= 2;\n  for (int i = 1; i < n; i++) a[i] += a[i - 1];\n}\n' $k
		k=$((k + 1))
	done
	echo 'void g(double *a, int n) {'
	echo '  for (int i = 0; i < n; i += 2) a[i] -= 1;'
	echo '  if (n > 0) f(a, n - 1);'
	echo '}'
	echo 'void top(double *a, int n) { f(a, n); }'
} >"$tmp/rec.c"
"$P" "$tmp/rec.c" --param n=50 --format csv >"$tmp/rec.csv" 2>"$tmp/err"
awk -F, '$3 == "f" && $4 == "function" { print $5, $6, $7, $8 }' "$tmp/rec.csv" >"$tmp/r1"
awk -F, '$3 == "top" && $4 == "function" { print $5, $6, $7, $8 }' "$tmp/rec.csv" >"$tmp/r2"
[ "$(wc -l <"$tmp/rec.c")" -gt 512 ] && [ -s "$tmp/r1" ] && cmp -s "$tmp/r1" "$tmp/r2" && grep -q 'add.f64 75 75 75' "$tmp/r1" &&
	! grep -q Sanitizer "$tmp/err" && ok "recursion across chunks: a caller counts as much as its callee" ||
	bad "recursion across chunks: a caller counts as much as its callee" "$tmp/err"

# with several threads, each parses a copy of the file without the bodies it
# does not walk: a call the quick scan cannot see (behind a macro), a macro
# defined in a body, and an error in a body another thread owns all come
# out as with one thread
pad() { # pad FIRST LAST: functions of four lines
	k=$1
	while [ $k -lt $2 ]; do
		printf 'void pad%d(double *a, int n) {\n  for (int i = 0; i < n; i++) a[i] *= 2;\n  for (int i = 1; i < n; i++) a[i] += a[i - 1];\n}\n' $k
		k=$((k + 1))
	done
}
{
	echo '#define CALL_HELPER(x, n) helper(x, n)'
	echo 'static double helper(const double *x, int m) {'
	echo '  double s = 0;'
	echo '  for (int k = 0; k < m; k++) s += x[k] * x[k];'
	echo '  return s;'
	echo '}'
	pad 0 70
	echo 'void late(double *a, int n) {'
	echo '#define LATE 3'
	echo '  for (int i = 0; i < n; i++) a[i] = CALL_HELPER(a, i);'
	echo '}'
	pad 70 140
	echo 'void later(double *a, int n) { for (int i = 0; i < n * LATE; i++) a[i] += 1; }'
} >"$tmp/hidden.c"
{
	pad 0 140
	echo 'void broken(double *a, int n) { for (int i = 0; i < n; i++) a[i] = nope; }'
} >"$tmp/broken.c"
split_ok=1
for j in 1 2 3; do
	"$P" "$tmp/hidden.c" --param n=10 --format csv -j $j >"$tmp/hidden$j.csv" 2>>"$tmp/err" || split_ok=0
	"$P" "$tmp/broken.c" -j $j >/dev/null 2>"$tmp/broken$j.err" && split_ok=0
done
grep -q '^[^,]*,[0-9]*,late,function,mul.f64,45,' "$tmp/hidden1.csv" &&
	grep -q '^[^,]*,[0-9]*,later,function,add.f64,30,' "$tmp/hidden1.csv" || split_ok=0
grep -q "broken.c:561:[0-9]*: error: use of undeclared identifier 'nope'" "$tmp/broken1.err" || split_ok=0
for j in 2 3; do
	cmp -s "$tmp/hidden1.csv" "$tmp/hidden$j.csv" && cmp -s "$tmp/broken1.err" "$tmp/broken$j.err" || split_ok=0
done
[ $split_ok = 1 ] && ! grep -q Sanitizer "$tmp/err" "$tmp"/broken*.err &&
	ok "threads parsing part of the file: hidden calls, macros in bodies, late errors as with one" ||
	bad "threads parsing part of the file: hidden calls, macros in bodies, late errors as with one" "$tmp/err"

# compiler flags after -- and from compile_commands.json
printf '#ifndef SIZE\n#error SIZE undefined\n#endif\nvoid f(double *a) { for (int i = 0; i < SIZE; i++) a[i] = 0; }\n' >"$tmp/flags.c"
expect "flags after --" 0 "store.f64 *7 " -- "$tmp/flags.c" -- -DSIZE=7
mkdir -p "$tmp/db"
printf '[{"directory": "%s", "file": "%s", "arguments": ["cc", "-DSIZE=9", "-c", "%s", "-o", "flags.o"]}]\n' \
	"$tmp" "$tmp/flags.c" "$tmp/flags.c" >"$tmp/db/compile_commands.json"
expect "compile_commands.json" 0 "store.f64 *9 " -- "$tmp/flags.c" -p "$tmp/db"
expect "loop that cannot be counted, --strict" 1 "cannot count this loop" -- "$top/tests/data/linked_list.c" --strict
expect "loop that cannot be counted: its trip-count parameter" 0 "unbound parameters: T10;" -- "$top/tests/data/linked_list.c"
expect "the trip-count parameter bound" 0 "load.ptr *40 " -- "$top/tests/data/linked_list.c" --param T10=40
expect "the trip-count parameter in JSON's unbound_params" 0 '"unbound_params": \[' -- "$top/tests/data/linked_list.c" --format json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["unbound_params"] == ["T10"] and any("T10" in n for n in d["notes"]) else 1)' "$tmp/out" &&
	ok "JSON: unbound_params is [\"T10\"], a note says why" || bad "JSON: unbound_params is [\"T10\"], a note says why" "$tmp/out"
# a program's own T3 beside the trip count of the loop on line 3: two
# parameters, the trip count's named apart
printf 'void f(int T3, int n, int *a) {\n\tfor (int i = 0; i < T3; i++)\n\t\tfor (int j = 1; j < n; j *= 2)\n\t\t\ta[i] += j;\n}\n' >"$tmp/tname.c"
expect "a trip count beside the program's T3 of the same line" 0 "unbound parameters: T3, T3_trip;" -- "$tmp/tname.c"
expect "the program's T3 and the trip count bound apart" 0 "add.i32 *70 " -- "$tmp/tname.c" --param T3=10 --param T3_trip=7
expect "--trip for it" 0 "load.ptr *40 " -- "$top/tests/data/linked_list.c" --trip linked_list.c:10=n --param n=40
expect "--trip for it, --strict" 0 "load.ptr *40 " -- "$top/tests/data/linked_list.c" --trip 10=n --param n=40 --strict
expect "--trip naming a line without a loop" 1 "error: --trip '11=n': .*linked_list.c has no loop on line 11" -- \
	"$top/tests/data/linked_list.c" --trip 11=n
expect "--trip naming a second loop that is not there" 1 "has no loop 2 on line 10" -- \
	"$top/tests/data/linked_list.c" --trip 10_2=n
expect "--trip naming another file" 1 "names another file than" -- \
	"$top/tests/data/linked_list.c" --trip other.c:10=n
expect "--trip with a bad line" 2 "invalid --trip '10_x=n'" -- "$top/tests/data/linked_list.c" --trip 10_x=n
awk 'BEGIN { n = 14; printf "void deep(int *a"; for (k = 0; k < n; k++) printf ", int n%d", k; print ") {";
	for (k = 0; k < n; k++) printf "for (int i%d = 0; i%d < n%d; i%d++)\n", k, k, k, k; print "a[0] = 1;\n}" }' >"$tmp/deepnest.c"
expect "a term in more symbols than a monomial holds: an error, not an exit from the library" 1 \
	"deepnest.c:1: a count of deep() has a term in more than 12 symbols" -- "$tmp/deepnest.c"
# a statement that needs more symbols than the first table holds and calls
# a function counted for the first time inside it (so that the statement
# cannot simply be counted again): the file is counted in wider tables
awk 'BEGIN { n = 60; print "static void g(int k, int *a);"; printf "void f(int *a";
	for (k = 0; k < n; k++) printf ", int n%d", k; print ") {\n\t{\n\t\tg(3, a);";
	for (k = 0; k < n; k++) printf "\t\tfor (int i = 0; i < n%d; i++)\n\t\t\ta[i] += %d;\n", k, k;
	print "\t}\n}\nstatic void g(int k, int *a) { for (int i = 0; i < k; i++) a[i] = 0; }" }' >"$tmp/wide.c"
expect "a statement beyond the first symbol table, with a callee first counted in it" 0 \
	"store.i32 .* n57 + n58 + n59 + 3 " -- "$tmp/wide.c"
# --calls: a file without main() whose functions another file calls; the
# total counts each as often as given
printf 'static int sq(int x) { return x * x; }\nvoid scale(int n, double *a)\n{\n\tfor (int i = 0; i < n; i++)\n\t\ta[i] *= 2.0;\n}\nvoid once(int n, double *a)\n{\n\tfor (int i = 0; i < n; i++)\n\t\ta[i] += sq(i);\n}\n' >"$tmp/lib.c"
expect "--calls: the total counts the function as often" 0 'lib.c,,,total,mul.f64,30000,' -- \
	"$tmp/lib.c" --param n=10 --calls scale=3000 --format csv
expect "--calls: the other functions once" 0 'lib.c,,,total,add.f64,10,' -- \
	"$tmp/lib.c" --param n=10 --calls scale=3000 --format csv
expect "--calls: the function's own region stays one call" 0 'lib.c,2,scale,function,mul.f64,10,' -- \
	"$tmp/lib.c" --param n=10 --calls scale=3000 --format csv
expect "--calls of a function the file does not define" 1 "--calls 'scal=3': .*lib.c defines no function 'scal'" -- \
	"$tmp/lib.c" --param n=10 --calls scal=3
expect "--calls of a function the file's code calls" 1 "--calls 'sq=3': the code of .*lib.c calls sq()" -- \
	"$tmp/lib.c" --param n=10 --calls sq=3
expect "--calls beside main()" 1 "--calls 'selection_sort=3': .* defines main(), whose run is the total" -- \
	"$ex/selection_sort.c" --param n=10 --calls selection_sort=3
# beside main(), a function the file's code only reaches through a
# pointer: said so, and --calls counts its calls in the total
printf 'static double a[100];\nvoid work(int n)\n{\n\tfor (int i = 0; i < n; i++)\n\t\ta[i] *= 0.5;\n}\nstatic void run(void (*fn)(int), int n) { fn(n); }\nint main(void)\n{\n\trun(work, 100);\n\treturn 0;\n}\n' >"$tmp/fnptr.c"
expect "a function reached through a pointer only, said so" 0 \
	"fnptr.c: no code of the file calls work() (called through pointers, or not at all): its work is not in main()'s total" -- \
	"$tmp/fnptr.c" --param n=100
expect "--calls beside main(): a function only a pointer reaches" 0 'fnptr.c,,main,total,mul.f64,3000,' -- \
	"$tmp/fnptr.c" --param n=100 --calls work=30 --format csv
expect "--calls '*=N': every function no code of the file calls" 0 'fnptr.c,,main,total,mul.f64,3000,' -- \
	"$tmp/fnptr.c" --param n=100 --calls '*=30' --format csv
printf 'static void g(int n) { for (int i = 0; i < n; i++) ; }\nint main(void) { g(3); return 0; }\n' >"$tmp/allcalled.c"
expect "--calls '*=N' where main's code calls every function" 1 \
	"--calls '\*=2': the code of .*allcalled.c calls every function it defines but main()" -- "$tmp/allcalled.c" --calls '*=2'
expect "--calls beside main(): a function main's code calls" 1 "--calls 'run=3': .* defines main(), whose run is the total" -- \
	"$tmp/fnptr.c" --param n=100 --calls run=3
expect "--calls that is no count" 2 "invalid --calls 'scale=many'" -- "$tmp/lib.c" --calls scale=many
# a count in pieces: the formula of large parameters (here the row's
# loop empty) unless the parameters given select another piece, whose
# formula the count then is
printf 'void rows(double v[100], int col[100], int rd[11], double out[10])\n{\n\tfor (int i = 0; i < 10; i++) {\n\t\tint b = rd[i], e = rd[i + 1];\n\t\tfor (int j = b; j < e; j++)\n\t\t\tout[i] += v[col[j]];\n\t}\n}\n' >"$tmp/pieces.c"
expect "a count in pieces: the formula of the values given" 0 'rows,function,load.i32,70,70,70,10\*e - 10\*b + 20 for e >= b + 1,' -- \
	"$tmp/pieces.c" --param b=0 --param e=5 --format csv
expect "a bound that a variable of the function holds, said so" 0 \
	"pieces.c:5: 'e', a variable of rows() (declared on line 4), is taken as a parameter: counted as one value; where it changes during the run, bind its mean" -- \
	"$tmp/pieces.c"
expect "a count in pieces, parameters unbound: the formula of large parameters" 0 \
	'rows,function,load.i32,,,,20 for large parameters,' -- "$tmp/pieces.c" --format csv
# a break on the loop's variable that a statement before it may skip, or
# whose test reads a variable the body changes, stays a way out (a range);
# one after an inner loop's own break bounds the loop
cat >"$tmp/brkno.c" <<'EOF'
double acc[1];
void s1(int n, int m, const int *a)
{
	for (int i = 0; i < n; i++) {
		if (a[i] > 0)
			continue;
		if (i >= m)
			break;
		acc[0] += 1.0;
	}
}
void s2(int n, int m)
{
	for (int i = 0; i < n; i++) {
		if (i >= m)
			break;
		acc[0] += 1.0;
		m--;
	}
}
void s3(int n, int m)
{
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < i; j++)
			if (j > 3)
				break;
		if (i >= m)
			break;
		acc[0] += 1.0;
	}
}
EOF
expect "a break a continue before it may skip: a range" 0 'brkno.c,2,s1,function,add.f64,10,0,10,' -- \
	"$tmp/brkno.c" --param n=10 --param m=4 --format csv
expect "a break whose bound the body changes: a range" 0 'brkno.c,12,s2,function,add.f64,10,0,10,' -- \
	"$tmp/brkno.c" --param n=10 --param m=4 --format csv
expect "a break after an inner loop's own: exact" 0 'brkno.c,21,s3,function,add.f64,4,4,4,' -- \
	"$tmp/brkno.c" --param n=10 --param m=4 --format csv
# a second bound (i < n && i < m) whose variable the body changes
printf 'double acc[1];\nvoid s(int n, int m)\n{\n\tfor (int i = 0; i < n && i < m; i++) {\n\t\tacc[0] += 1.0;\n\t\tm--;\n\t}\n}\n' >"$tmp/bound2.c"
expect "a second bound the body changes: the loop is not counted by it" 0 \
	"bound2.c:4: cannot count this loop: 'm' changes inside it (line 6)" -- "$tmp/bound2.c"
# a bound that a function of the file chooses, the lesser or the greater
# of its two arguments, in the forms C writes them
cat >"$tmp/minfn.c" <<'EOF'
static inline int imin(int a, int b) { return a < b ? a : b; }
static int imax(int x, int y)
{
	if (x > y)
		return x;
	return y;
}
static int lower(int a, int b)
{
	if (b >= a) {
		return a;
	} else {
		return b;
	}
}
static int sum2(int a, int b) { return a + b < b ? a : b; }
void f(int n, int m, double *a)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < imin(i, m); j++)
			a[j] += 1.0;
	for (int i = imax(0, m); i < n; i++)
		a[i] *= 2.0;
	for (int i = 0; i < lower(n, m); i++)
		a[i] /= 3.0;
}
void g(int n, int m, double *a)
{
	for (int i = 0; i < sum2(n, m); i++)
		a[i] += 2.0;
}
EOF
expect "a bound a min() function of the file chooses" 0 'minfn.c,[0-9]*,f,function,add.f64,30,' -- \
	"$tmp/minfn.c" --param n=10 --param m=4 --format csv
expect "a first value a max() function (if, return) chooses" 0 'minfn.c,[0-9]*,f,function,mul.f64,6,' -- \
	"$tmp/minfn.c" --param n=10 --param m=4 --format csv
expect "a bound a function with if and else chooses" 0 'minfn.c,[0-9]*,f,function,div.f64,4,' -- \
	"$tmp/minfn.c" --param n=10 --param m=4 --format csv
expect "a function that is no such choice: a trip count" 0 "minfn.c:29: cannot count this loop" -- \
	"$tmp/minfn.c" --param n=10 --param m=4
# a tile loop whose body reads its variable (or the variable that holds
# a point loop's end) elsewhere than its point loops' headers and
# subscripts, leaves early or changes the step keeps its trip counts
cat >"$tmp/tilesno.c" <<'EOF'
#define MIN(a, b) ((a) < (b) ? (a) : (b))
void fromii(int n, int b, double *a)
{
	for (int ii = 0; ii < n; ii += b)
		for (int i = ii; i < MIN(ii + b, n); i++)
			for (int j = ii; j < i; j++)
				a[j] += 1.0;
}
void brk(int n, int b, double *a)
{
	for (int ii = 0; ii < n; ii += b) {
		if (a[0] > 0)
			break;
		for (int i = ii; i < MIN(ii + b, n); i++)
			a[i] += 1.0;
	}
}
void grow(int n, int b, double *a)
{
	for (int ii = 0; ii < n; ii += b) {
		for (int i = ii; i < MIN(ii + b, n); i++)
			a[i] += 1.0;
		b = b + 1;
	}
}
void leak(int n, int b, double *a)
{
	for (int ii = 0; ii < n; ii += b) {
		int e = MIN(ii + b, n);
		for (int i = ii; i < e; i++)
			a[i] += 1.0;
		for (int j = 0; j < e; j++)
			a[j] *= 2.0;
	}
}
EOF
"$P" "$tmp/tilesno.c" --format csv >"$tmp/out" 2>"$tmp/err"
for f in fromii brk grow leak; do
	grep -q "tilesno.c,[0-9]*,$f,function,add.f64,,,,.*T[0-9]" "$tmp/out" &&
		! grep -q "cover its range once" "$tmp/err" &&
		ok "a tile loop that is not one ($f): trip counts" ||
		bad "a tile loop that is not one ($f): trip counts" "$tmp/out"
done
cat >"$tmp/tilesyes.c" <<'EOF'
#define MIN(a, b) ((a) < (b) ? (a) : (b))
void packed(int n, int b, const double *a, double *buf)
{
	for (int ii = 0; ii < n; ii += b) {
		int e = MIN(ii + b, n);
		for (int i = ii; i < e; i++)
			buf[i - ii] = a[i];
		buf[e - ii - 1] += 1.0;
	}
}
EOF
expect "a tile loop whose variable and end move addresses only (buf[i - ii]) is one" 0 \
	'packed,function,load.f64,,,,n + T4 for n >= 1,' -- "$tmp/tilesyes.c" --format csv
# floor terms of one parameter: the formula that holds in every class of
# it modulo their denominators, not the polynomial of one class
printf '#define MIN(a, b) ((a) < (b) ? (a) : (b))\nvoid tiled(double *a, int n)\n{\n\tfor (int ii = 0; ii < n; ii += 32)\n\t\tfor (int i = ii; i < MIN(ii + 32, n); i++)\n\t\t\ta[i] += 1.0;\n}\n' >"$tmp/tiled.c"
expect "a tiled loop's count, the same polynomial in every class of n mod 32" 0 \
	'tiled,function,add.f64,,,,n for n >= 0,' -- "$tmp/tiled.c" --format csv
expect "a tiled loop's iterations, one floor term left" 0 \
	'tiled,function,iter,,,,n + floor((n + 31)/32) for n >= 0,' -- "$tmp/tiled.c" --format csv
expect "the count at an n that is no multiple of the tile" 0 'tiled,function,iter,73,' -- \
	"$tmp/tiled.c" --format csv --param n=70
printf 'void strided(double *a, int n)\n{\n\tfor (int i = 1; i < n; i += 4)\n\t\tfor (int j = i; j < n; j += 2)\n\t\t\ta[j] += 1.0;\n}\n' >"$tmp/strided.c"
expect "a condition on a floor term alone, said of its parameter" 0 \
	'strided,function,add.f64,,,,.* for n >= 2,' -- "$tmp/strided.c" --format csv
printf '#define MIN(a, b) ((a) < (b) ? (a) : (b))\nvoid ragged(double *a, int n)\n{\n\tfor (int ii = 1; ii < n; ii += 16)\n\t\tfor (int i = ii; i < MIN(ii + 16, n); i += 3)\n\t\t\ta[i] += 1.0;\n}\n' >"$tmp/ragged.c"
expect "a formula that holds in some classes only, which named" 0 \
	'ragged,function,add.f64,,,,.* for large parameters and n mod 48 = [0-9, or]*,' -- "$tmp/ragged.c" --format csv
printf 'static const int table[4] = {1, 2, 3, 4};\n' >"$tmp/nofn.c"
expect "a file that defines no function says so" 0 "nofn.c: defines no function, so there is nothing to count" -- "$tmp/nofn.c"
printf 'int f(int *p) {\n  int k = 0;\n#pragma epi trip(\n  while (*p) p++;\n  return k;\n}\n' >"$tmp/badpragma.c"
expect "malformed pragma" 1 "badpragma.c:3: malformed pragma '#pragma epi trip('" -- "$tmp/badpragma.c"
printf 'int f(int *p) {\n#pragma epi tirp(3)\n  while (*p) p++;\n  return 0;\n}\n' >"$tmp/badpragma2.c"
expect "misspelt pragma" 1 "badpragma2.c:2: malformed pragma '#pragma epi tirp(3)'" -- "$tmp/badpragma2.c"
printf 'int f(int *p) {\n#pragma epi trip(3)\n  p++;\n  while (*p) p++;\n  return 0;\n}\n' >"$tmp/lostpragma.c"
expect "pragma without a loop" 1 "lostpragma.c:2: '#pragma epi trip(3)' is followed by no loop (line 3 has none)" -- \
	"$tmp/lostpragma.c"

# make install honours PREFIX and DESTDIR
if make -s -C "$top" install DESTDIR="$tmp/inst" PREFIX=/usr >"$tmp/inst.log" 2>&1 &&
	[ -x "$tmp/inst/usr/bin/epi-predict" ] && [ -f "$tmp/inst/usr/share/man/man1/epi-predict.1" ] &&
	[ -f "$tmp/inst/usr/share/epi/rr8416-q6600.xml" ] && [ -f "$tmp/inst/usr/share/epi/examples/selection_sort.c" ]; then
	ok "make install DESTDIR PREFIX"
else
	bad "make install DESTDIR PREFIX" "$tmp/inst.log"
fi

# the paper's algorithms build and run
for alg in selection_sort weighted_means scalar_product; do
	if cc -O0 -Wall -Wextra -Werror -o "$tmp/$alg" "$ex/$alg.c" >"$tmp/cc.log" 2>&1 && "$tmp/$alg" 300 >"$tmp/run.log" 2>&1; then
		ok "data/examples/$alg.c builds and runs"
	else
		bad "data/examples/$alg.c builds and runs" "$tmp/cc.log"
	fi
done

# RR-8416 Tables VI-VIII from the paper's own table
if sh "$top/scripts/rr8416-compare.sh" "$P" >"$tmp/cmp" 2>&1; then
	ok "RR-8416 Tables VI-VIII reproduced ($(grep -o '^[0-9]* of [0-9]* cells' "$tmp/cmp"))"
else
	bad "RR-8416 Tables VI-VIII" "$tmp/cmp"
fi

# the C kernels of the architectures with no assembly ones compile
# (EPI_PORTABLE: built here in their place)
portable_ok=1
for f in "$top"/bench/*.c; do
	${CC:-gcc} -std=c11 -O2 -Wall -Wextra -Wno-unused-parameter -Werror -D_DEFAULT_SOURCE -DEPI_PORTABLE -I"$top" \
		-c "$f" -o "$tmp/portable.o" >>"$tmp/portable.log" 2>&1 || portable_ok=0
done
[ $portable_ok = 1 ] && ok "bench kernels in portable C compile" || bad "bench kernels in portable C compile" "$tmp/portable.log"

# the kernels' aarch64 assembly assembles (a cross compiler: their
# constraints, register names and instructions; running them needs the
# machine, or qemu with an arm64 GSL)
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	cross_ok=1
	for f in "$top"/bench/*.c; do
		aarch64-linux-gnu-gcc -std=c11 -O2 -Wall -Wextra -Wno-unused-parameter -Werror -D_DEFAULT_SOURCE -I"$top" \
			-c "$f" -o "$tmp/a64.o" >>"$tmp/a64.log" 2>&1 || cross_ok=0
	done
	[ $cross_ok = 1 ] && aarch64-linux-gnu-gcc -std=c11 -O2 -D_DEFAULT_SOURCE -I"$top" -S "$top/bench/load.c" -o - 2>/dev/null |
		grep -q "ldr	x[0-9]*, \[x[0-9]*\]" && ok "bench kernels assemble for aarch64" || bad "bench kernels assemble for aarch64" "$tmp/a64.log"
else
	bad "aarch64-linux-gnu-gcc (gcc-aarch64-linux-gnu) is needed to check the aarch64 kernels"
fi

# the corpus of real-looking C (tests/corpus): every file reports on the
# first run, no function is left out, the sanitizers stay quiet
if EPI_PREDICT="$P" sh "$top/evals/corpus.sh" -q >"$tmp/corpus.out" 2>&1; then
	ok "corpus: $(grep -o '^files: [0-9]*' "$tmp/corpus.out" | cut -d' ' -f2) files report on the first run, every function named ($(grep -o 'exact or bounded without annotation: [0-9]* ([0-9.]*%)' "$tmp/corpus.out"))"
else
	bad "corpus: every file reports on the first run, every function named" "$tmp/corpus.out"
fi

finish
