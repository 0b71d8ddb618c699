# End-to-end tests of epi validate: selection sort profiled with an assumed constant power and
# compared per loop nest, the RR-8416 measurements compared whole-program,
# and bad input: a source edited or foreign to the binary, unbound
# parameters, no frequency, malformed measurement files.
. "$(dirname "$0")/lib.sh"

Q6600="$top/data/rr8416-q6600.xml"
cp "$ex/selection_sort.c" "$tmp/sel.c"
cc -O0 -g -o "$tmp/sel" "$tmp/sel.c"
# n = 20000 runs about 0.2 s: long enough that the boundaries of a run (exec,
# a sample more or less) stay well inside the 2% the energy check below allows
SEL_N=20000
"$top/build/san/bin/epi" profile -n 3 -m const:50 -q -o "$tmp/sel.trace" -- "$tmp/sel" $SEL_N >/dev/null 2>&1
VAL="validate $tmp/sel.c --against $tmp/sel.trace --table $Q6600 --freq 2.4GHz --param n=$SEL_N"
run_epi "validate --help" 0 "usage: epi validate \[options\] SOURCE.c --against" -- validate --help
run_epi "validate without --against" 2 "nothing to compare with" -- validate "$tmp/sel.c"
run_epi "validate a trace: loop nests and the program" 0 "^sel.c:11 loop in selection_sort *[1-9][0-9]* " -- $VAL
grep -q "^program " "$tmp/out" && grep -q "^time: mean absolute error [0-9.]*% over [12] loop nests*; [012] of 2 predictions inside" "$tmp/out" &&
	grep -q "^energy: mean absolute error" "$tmp/out" && ok "validate: time and energy summaries" ||
	bad "validate: time and energy summaries" "$tmp/out"
grep -q "samples are outside the code" "$tmp/out" && bad "validate: no note for a run in the source" "$tmp/out" ||
	ok "validate: no note for a run in the source"
# runs of different lengths (a program that does 1, 3 and 5 times the work
# in turn): a note says so, and the intervals carry the spread; one run has none
cp "$top/tests/data/grow.c" "$tmp/grow.c"
cc -O0 -g -o "$tmp/grow" "$tmp/grow.c"
GROW="validate $tmp/grow.c --table $Q6600 --freq 2.4GHz --param n=3000000 --against"
echo 0 >"$tmp/grow.count"
"$top/build/san/bin/epi" profile -n 3 -q -o "$tmp/grow.trace" -- "$tmp/grow" 3000000 "$tmp/grow.count" >/dev/null 2>&1
run_epi "validate: runs of different lengths noted" 0 "note: the trace's 3 runs took [0-9.]* s +- [1-9][0-9]*% of CPU time" -- \
	$GROW "$tmp/grow.trace"
echo 0 >"$tmp/grow.count"
"$top/build/san/bin/epi" profile -n 1 -q -o "$tmp/grow1.trace" -- "$tmp/grow" 3000000 "$tmp/grow.count" >/dev/null 2>&1
run_epi "validate: one run" 0 "^program " -- $GROW "$tmp/grow1.trace"
grep -q "runs took" "$tmp/out" && bad "validate: one run, no note on runs" "$tmp/out" || ok "validate: one run, no note on runs"
run_epi "validate --format csv" 0 '^"program",program,,,2.4,' -- $VAL --format csv
head -1 "$tmp/out" | grep -qx "block,kind,function,line,freq_ghz,samples,pred_time_s,pred_time_sd,time_s,time_lo,time_hi,time_error,time_inside,pred_energy_j,pred_energy_sd,energy_j,energy_lo,energy_hi,energy_error,energy_inside" &&
	ok "validate CSV columns" || bad "validate CSV columns" "$tmp/out"
# every error is (predicted - measured) / measured, every inside agrees with the interval
awk -F'",' 'NR > 1 { print $2 }' "$tmp/out" | awk -F, '
function chk(p, m, lo, hi, e, in_) {
	if (m != "" && m + 0 > 0) { if (e == "" || (e - (p - m) / m) ^ 2 > 1e-8) bad++ }
	if (lo != "") { want = (p + 0 >= lo + 0 && p + 0 <= hi + 0) ? "yes" : "no"; if (in_ != want) bad++ }
	n++
}
{ chk($6, $8, $9, $10, $11, $12); chk($13, $15, $16, $17, $18, $19) }
END { exit (n >= 4 && !bad) ? 0 : 1 }' && ok "validate CSV: errors and insides follow from the columns" ||
	bad "validate CSV: errors and insides follow from the columns" "$tmp/out"
# the program's measured energy is 50 W x its wall time (the assumed meter),
# which the trace's report gives, and at least 50 W x its CPU time
wall=$("$E" profile --report "$tmp/sel.trace" -F json | sed -n 's/^  "wall_s": \(.*\),$/\1/p')
echo "wall time per run: $wall s" >>"$tmp/out"
awk -F'",' '$1 == "\"program" { print $2 }' "$tmp/out" | awk -F, -v w="$wall" \
	'{ r = $15 / (w * 50); exit (r > 0.999 && r < 1.001 && $15 >= 0.98 * 50 * $8) ? 0 : 1 }' &&
	ok "validate: the program's energy is the meter's" || bad "validate: the program's energy is the meter's" "$tmp/out"
run_epi "validate --format json" 0 '"kind": "loop"' -- $VAL -F json
grep -q '"mean_abs_error": [0-9]' "$tmp/out" && grep -q '"inside": \(true\|false\)' "$tmp/out" &&
	ok "validate JSON summary" || bad "validate JSON summary" "$tmp/out"
# the profile measured the clock its runs had; RR-8416's table says none of
# its own, so the costs stay as they are
grep -q '"trace_ghz": [0-9]*\.[0-9]' "$tmp/out" && grep -q '"table_ghz": null' "$tmp/out" &&
	grep -q '"scale": 1\(\.0\)*,*$' "$tmp/out" && ok "validate JSON: the trace's clock, no scaling without the table's" ||
	bad "validate JSON: the trace's clock, no scaling without the table's" "$tmp/out"
# a table measured at a 2 GHz effective clock: every time it predicts is
# scaled by 2 GHz over the trace's clock, which the header names
cp "$tmp/out" "$tmp/unscaled.json"
sed 's/<frequency ghz="2.4"/<frequency ghz="2.4" effective_ghz="2"/' "$Q6600" >"$tmp/clocked.xml"
run_epi "validate: costs at the trace's clock" 0 "core times at the trace's [0-9.]* GHz effective clock, measured at 2.000" -- \
	validate "$tmp/sel.c" --against "$tmp/sel.trace" --table "$tmp/clocked.xml" --freq 2.4GHz --param n=$SEL_N
"$E" validate "$tmp/sel.c" --against "$tmp/sel.trace" --table "$tmp/clocked.xml" --freq 2.4GHz --param n=$SEL_N -F json \
	>"$tmp/scaled.json" 2>&1
python3 - "$tmp/unscaled.json" "$tmp/scaled.json" >"$tmp/out" 2>&1 <<'PY' && ok "validate: predicted times scaled by the clocks' ratio" ||
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
s = b["clock"]["scale"]
assert abs(s - 2.0 / b["clock"]["trace_ghz"]) < 1e-9, s
pa = {r["block"]: r["time_s"]["predicted"] for r in a["rows"]}
n = 0
for r in b["rows"]:
    p = r["time_s"]["predicted"]
    if pa[r["block"]]:
        assert abs(p / pa[r["block"]] - s) < 1e-6, (r["block"], p, pa[r["block"]])
        n += 1
assert n >= 2, n
PY
	bad "validate: predicted times scaled by the clocks' ratio" "$tmp/out"
# a table whose memory served a load in 10 ns (slower than any machine's):
# memory's times scaled to the rate the profile measured before the runs
# (beyond the band), which the header names; the core's kept
sed 's|<frequency ghz="2.4"><!-- Table V -->|&<op name="load.dram" unit="op" energy_j="1e-8" time_s="1e-8" runs="3"/>|' \
	"$Q6600" >"$tmp/slowmem.xml"
run_epi "validate: memory's costs at the trace's rate" 0 \
	"(memory times x0\.[0-9]*: load.dram [0-9.]* ns a load before the runs, 10 ns in the table)" -- \
	validate "$tmp/sel.c" --against "$tmp/sel.trace" --table "$tmp/slowmem.xml" --freq 2.4GHz --param n=$SEL_N
"$E" validate "$tmp/sel.c" --against "$tmp/sel.trace" --table "$tmp/slowmem.xml" --freq 2.4GHz --param n=$SEL_N -F json \
	>"$tmp/mem.json" 2>&1
python3 - "$tmp/unscaled.json" "$tmp/mem.json" >"$tmp/out" 2>&1 <<'PY' && ok "validate: memory scaled by the probe, beyond the band" ||
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
m = b["memory"]
assert m["table_load_s"] == 1e-8 and 0 < m["trace_load_s"] < 1e-8 / 1.15, m
assert abs(m["scale"] - m["trace_load_s"] / 1e-8 * 1.15) < 1e-9, m
assert a["memory"]["scale"] == 1 and a["memory"]["table_load_s"] is None, a["memory"]
pa = {r["block"]: r["time_s"]["predicted"] for r in a["rows"]}
assert all(r["time_s"]["predicted"] == pa[r["block"]] for r in b["rows"])
PY
	bad "validate: memory scaled by the probe, beyond the band" "$tmp/out"
"$E" $VAL -o "$tmp/val.txt" >"$tmp/out" 2>&1 &&
	grep -q "^sel.c:11 loop in selection_sort" "$tmp/val.txt" && [ ! -s "$tmp/out" ] && ok "validate -o: the report in the file" ||
	bad "validate -o: the report in the file" "$tmp/val.txt"
run_epi "validate --plot" 0 "^program " -- $VAL --plot "$tmp/val.svg"
grep -q "<svg" "$tmp/val.svg" && grep -q "sel.c:11 loop in selection_sort" "$tmp/val.svg" &&
	ok "validate --plot: an SVG naming the nests" || bad "validate --plot: an SVG naming the nests" "$tmp/val.svg"
# bad input
# n as main() set it from the run's command line (atoi(argv[1])): as
# with --param, said
"$E" validate "$tmp/sel.c" -a "$tmp/sel.trace" -t "$Q6600" -f 2.4GHz -F csv >"$tmp/read" 2>"$tmp/note"
"$E" validate "$tmp/sel.c" -a "$tmp/sel.trace" -t "$Q6600" -f 2.4GHz -F csv -P n=$SEL_N >"$tmp/given" 2>/dev/null
cmp -s "$tmp/read" "$tmp/given" && grep -q "^epi validate: note: n = $SEL_N: as main() ran with the run's command line" "$tmp/note" &&
	ok "validate: n from the run's command line, as with --param" ||
	bad "validate: n from the run's command line, as with --param" "$tmp/note"
# a value main() takes from elsewhere (the environment): asked for
sed 's/int n = argc > 1 ? atoi(argv\[1\]) : 100000;/int n = getenv("N") ? atoi(getenv("N")) : 100000;/' "$tmp/sel.c" >"$tmp/selenv.c"
grep -q 'getenv("N")' "$tmp/selenv.c" || bad "validate: the source's main() as this test expects it" "$tmp/selenv.c"
cc -O0 -g -o "$tmp/selenv" "$tmp/selenv.c"
N=2000 "$top/build/san/bin/epi" profile -n 1 -m const:50 -q -o "$tmp/selenv.trace" -- "$tmp/selenv" >/dev/null 2>&1
run_epi "validate without the parameters" 1 "give --param for n" -- validate "$tmp/selenv.c" -a "$tmp/selenv.trace" -t "$Q6600" -f 2.4GHz
# a program whose total needs one trip count: the error names it alone
# (not body's rpt, which main binds) and says what T<line> stands for
cat >"$tmp/par.c" <<'EOF'
int body(int rpt)
{
	int s = 0;
	for (int i = 0; i < rpt; i++)
		s += i;
	return s;
}
int collatz(unsigned x)
{
	int k = 0;
	while (x != 1) {
		x = x % 2 ? 3 * x + 1 : x / 2;
		k++;
	}
	return k;
}
int main(void)
{
	volatile int r = 0;
	for (int j = 0; j < 2000000; j++)
		r += collatz(27) + body(10);
	return 0;
}
EOF
gcc -O0 -g -o "$tmp/par" "$tmp/par.c"
"$top/build/san/bin/epi" profile -n 1 -m none -q -o "$tmp/par.trace" -- "$tmp/par" >/dev/null 2>&1
run_epi "validate: only the parameters the program needs, trip counts explained" 1 \
	"give --param for T11 (T<line>: the trip count of the loop on that line" -- \
	validate "$tmp/par.c" -a "$tmp/par.trace" -t "$Q6600" -f 2.4GHz --model source
# the error's recipe for the trip counts, followed as written, binds them
grep -q "from epi trips: gcc --coverage -g -O0 -o par-cov $tmp/par.c && epi trips -o par.trips -- ./par-cov, then --trips par.trips)" "$tmp/err" &&
	ok "validate: how to measure the trip counts, from the run's command line" ||
	bad "validate: how to measure the trip counts, from the run's command line" "$tmp/err"
recipe=$(sed -n 's/.*from epi trips: \(gcc .*\), then --trips .*/\1/p' "$tmp/err" | sed "s|&& epi |\&\& $top/build/san/bin/epi |")
(cd "$tmp" && sh -c "$recipe") >"$tmp/recipe.log" 2>&1 || bad "validate: the recipe runs" "$tmp/recipe.log"
run_epi "validate with the recipe's trip counts" 0 "par.c:11 loop in collatz" -- \
	validate "$tmp/par.c" -a "$tmp/par.trace" -t "$Q6600" -f 2.4GHz --model source --trips "$tmp/par.trips"
: >"$tmp/empty.trace"
run_epi "validate against an empty file" 1 "'.*empty.trace' is empty: --against takes an epi trace" -- \
	validate "$tmp/sel.c" -a "$tmp/empty.trace" -t "$Q6600" -f 2.4GHz
head -c 5 "$tmp/sel.trace" >"$tmp/cut.trace"
run_epi "validate against a trace cut short" 1 "'.*cut.trace' is an epi trace cut short (5 bytes)" -- \
	validate "$tmp/sel.c" -a "$tmp/cut.trace" -t "$Q6600" -f 2.4GHz
run_epi "validate a trace without a pinned frequency" 1 "records no pinned frequency and '$Q6600' has 4: give --freq" -- \
	validate "$tmp/sel.c" -a "$tmp/sel.trace" -t "$Q6600" -P n=$SEL_N
run_epi "validate another program's source" 1 "is not a source of '$tmp/sel'" -- \
	validate "$ex/weighted_means.c" -a "$tmp/sel.trace" -t "$Q6600" -f 2.4GHz -P n=$SEL_N
# a trace whose program is gone: said so
cp "$tmp/sel" "$tmp/gone"
"$top/build/san/bin/epi" profile -n 1 -m none -q -o "$tmp/gone.trace" -- "$tmp/gone" 2000 >/dev/null 2>&1
rm "$tmp/gone"
run_epi "validate a trace whose program was deleted" 1 \
	"cannot read '$tmp/gone', the program the trace recorded: No such file or directory" -- \
	validate "$tmp/sel.c" -a "$tmp/gone.trace" -t "$Q6600" -f 2.4GHz -P n=2000
sed -i '1i /* a line added after the build */' "$tmp/sel.c"
run_epi "validate a source edited since the build" 1 "'$tmp/sel.c' does not match the binary '$tmp/sel': selection_sort is on line 9 in the source, line 8 in the binary" -- $VAL
run_epi "validate against a missing file" 1 "cannot read '$tmp/none.trace'" -- validate "$ex/selection_sort.c" -a "$tmp/none.trace" -t "$Q6600"
run_epi "validate: a bad --param" 2 "invalid --param 'n=many'" -- validate "$ex/selection_sort.c" -a "$tmp/sel.trace" -P n=many

# a program built with -I, validated without its flags: the trace's
# program names where its headers were, and the source parses
mkdir -p "$tmp/inc"
printf '#define REPS 300\ntypedef double real;\n' >"$tmp/inc/reps.h"
printf '#include <stdlib.h>\n#include <reps.h>\nint main(void)\n{\n\tint n = 20000;\n\treal *a = calloc(n, sizeof *a);\n\tfor (int r = 0; r < REPS; r++)\n\t\tfor (int i = 1; i < n; i++)\n\t\t\ta[i] += a[i - 1] + 1;\n\treturn a[n - 1] < 0;\n}\n' >"$tmp/reps.c"
gcc -O0 -g -I "$tmp/inc" -o "$tmp/reps" "$tmp/reps.c"
"$top/build/san/bin/epi" profile -n 1 -m none -q -o "$tmp/reps.trace" -- "$tmp/reps" >/dev/null 2>&1
run_epi "validate without the build's -I: its headers found, said so" 0 \
	"headers also searched for where the debug information of '$tmp/reps' says its build found them .*: $tmp/inc" -- \
	validate "$tmp/reps.c" -a "$tmp/reps.trace" -t "$Q6600" -f 2.4GHz -P n=20000

# a loop bounded by variables the function sets (a row of a sparse
# matrix): the error asking for them says what they are
printf 'int main(void)\n{\n\tstatic double v[100];\n\tint rd[11];\n\tfor (int i = 0; i < 11; i++)\n\t\trd[i] = 5 * i;\n\tfor (int r = 0; r < 20000; r++)\n\t\tfor (int i = 0; i < 10; i++) {\n\t\t\tint b = rd[i], e = rd[i + 1];\n\t\t\tfor (int j = b; j < e; j++)\n\t\t\t\tv[j] += 1;\n\t\t}\n\treturn v[3] > 1e300;\n}\n' >"$tmp/rows.c"
cc -O0 -g -o "$tmp/rows" "$tmp/rows.c"
"$top/build/san/bin/epi" profile -n 1 -m none -q -o "$tmp/rows.trace" -- "$tmp/rows" >/dev/null 2>&1
run_epi "validate: the parameters that are variables of the source, said so" 1 \
	"give --param for .* (e, b: variables its functions set, each taken as one value: their means over the run" -- \
	validate "$tmp/rows.c" -a "$tmp/rows.trace" -t "$Q6600" -f 2.4GHz
run_epi "validate: their means given, compared" 0 "^rows.c:7 loop in main " -- \
	validate "$tmp/rows.c" -a "$tmp/rows.trace" -t "$Q6600" -f 2.4GHz -P b=0 -P e=5

# what the analysis notes comes with the comparison: a recursive call that
# the prediction lists but does not count
cat >"$tmp/fib.c" <<'EOF'
int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
int main(void)
{
	volatile int s = 0;
	for (int i = 0; i < 300; i++)
		s += fib(20);
	return 0;
}
EOF
cc -O0 -g -o "$tmp/fib" "$tmp/fib.c"
"$top/build/san/bin/epi" profile -n 1 -m none -q -o "$tmp/fib.trace" -- "$tmp/fib" >/dev/null 2>&1
FIB="validate $tmp/fib.c -a $tmp/fib.trace -t $Q6600 -f 2.4GHz"
run_epi "validate: the analysis's notes" 0 "^note: .*fib.c:3: recursive call to fib() is listed, not counted" -- $FIB
run_epi "validate: the analysis's notes in JSON" 0 '"notes": \[' -- $FIB -F json
grep -q '"[^"]*fib.c:3: recursive call to fib() is listed, not counted"' "$tmp/out" && ok "validate: a note in JSON" ||
	bad "validate: a note in JSON" "$tmp/out"
run_epi "validate: the analysis's notes on stderr beside CSV" 0 "^epi validate: note: .*recursive call to fib()" -- $FIB -F csv
grep -q "recursive" "$tmp/out" && bad "validate: CSV rows alone on stdout" "$tmp/out" || ok "validate: CSV rows alone on stdout"

# a run so short that its start-up and the C library take most samples:
# said so, as the program row compares the whole process with main's work
cat >"$tmp/short.c" <<'EOF'
int main(void)
{
	volatile double s = 0;
	for (int i = 0; i < 20000; i++)
		s += i;
	return 0;
}
EOF
cc -O0 -g -o "$tmp/short" "$tmp/short.c"
"$top/build/san/bin/epi" profile -n 20 -i 50us -m none -q -o "$tmp/short.trace" -- "$tmp/short" >/dev/null 2>&1
run_epi "validate: a run mostly outside the source noted" 0 \
	"^note: [0-9]*% of the program's [0-9]* samples are outside the code of '.*short.c'" -- \
	validate "$tmp/short.c" -a "$tmp/short.trace" -t "$Q6600" -f 2.4GHz

# most of the time in a header's function that the code calls (-O0): the
# note says where
printf 'static double heavy(double x)\n{\n\tdouble y = x * x + 1;\n\ty = y * y / (y + 3);\n\ty = y * 0.5 + x / (y + 1);\n\treturn y / (y + x + 2);\n}\n' >"$tmp/heavy.h"
printf '#include "heavy.h"\nint main(void)\n{\n\tvolatile double s = 0;\n\tfor (int i = 0; i < 3000000; i++)\n\t\ts += heavy(i);\n\treturn 0;\n}\n' >"$tmp/calls.c"
cc -O0 -g -o "$tmp/calls" "$tmp/calls.c"
"$top/build/san/bin/epi" profile -n 2 -m none -q -o "$tmp/calls.trace" -- "$tmp/calls" >/dev/null 2>&1
run_epi "validate: the time outside the source, where" 0 \
	"^note: .* outside the code of '.*calls.c' (.*; the most in heavy (heavy.h) [0-9]*%" -- \
	validate "$tmp/calls.c" -a "$tmp/calls.trace" -t "$Q6600" -f 2.4GHz

# whole-program measurements: RR-8416's Table VI
MEAS="$top/data/rr8416-measured/selection_sort.csv"
run_epi "validate against RR-8416's measurements" 0 "^n=100000 *1.6 *3015 *2600 *+16.0%" -- \
	validate "$ex/selection_sort.c" --against "$MEAS" --table "$Q6600"
grep -q "^energy: mean absolute error [0-9.]*% over 40 measurements" "$tmp/out" && ok "validate: 40 measurements summarised" ||
	bad "validate: 40 measurements summarised" "$tmp/out"
run_epi "validate measurements at one frequency, CSV" 0 '^"n=1000000",measurement,,,2.4,' -- \
	validate "$ex/selection_sort.c" --against "$MEAS" --table "$Q6600" --freq 2.4GHz -F csv
[ "$(grep -c ',measurement,' "$tmp/out")" -eq 10 ] && ok "validate --freq keeps that frequency's rows" ||
	bad "validate --freq keeps that frequency's rows" "$tmp/out"
printf 'param,freq_ghz,measured_j\n100000,1.6,2600\n200000,1.6,oops\n' >"$tmp/m.csv"
run_epi "validate: a measurement that is not a number" 1 "$tmp/m.csv:3: measured_j 'oops' is not an energy in joules" -- \
	validate "$ex/selection_sort.c" --against "$tmp/m.csv" --table "$Q6600"
printf 'param,freq_ghz,measured_j\nm=5,1.6,2600\n' >"$tmp/m.csv"
run_epi "validate: a measurement of an unknown parameter" 1 "$tmp/m.csv:2: --param 'm=5': 'm' is not a parameter" -- \
	validate "$ex/selection_sort.c" --against "$tmp/m.csv" --table "$Q6600"
printf 'n,f,j\n1,2,3\n' >"$tmp/m.csv"
run_epi "validate: a CSV without the columns" 1 "$tmp/m.csv:1: the header has no column 'param'" -- \
	validate "$ex/selection_sort.c" --against "$tmp/m.csv" --table "$Q6600"

# a nest's prediction is its own work over the whole run: weighted_means()
# runs 10^4 times from main's loop at line 32, which keeps only its own
cc -O0 -g -o "$tmp/wm" "$ex/weighted_means.c"
"$top/build/san/bin/epi" profile -n 1 -m none -q -o "$tmp/wm.trace" -- "$tmp/wm" 200 >/dev/null 2>&1
run_epi "validate a program whose nest is called 10^4 times" 0 '^"weighted_means.c:14 loop in weighted_means",loop,' -- \
	validate "$ex/weighted_means.c" -a "$tmp/wm.trace" -t "$Q6600" -f 2.4GHz -P n=200 -F csv
"$top/bin/epi-predict" "$ex/weighted_means.c" -t "$Q6600" -f 2.4GHz -P n=200 -F csv >"$tmp/wm.pred"
per_call=$(awk -F, '$2 == 14 && $4 == "loop" && $5 == "all" { print $10 }' "$tmp/wm.pred")
incl=$(awk -F, '$2 == 32 && $4 == "loop" && $5 == "all" { print $10 }' "$tmp/wm.pred")
awk -F'",' -v pc="$per_call" -v incl="$incl" '
$1 == "\"weighted_means.c:14 loop in weighted_means" { split($2, f, ","); if ((f[13] / (1e4 * pc) - 1) ^ 2 < 1e-6) a = 1 }
$1 == "\"weighted_means.c:32 loop in main" { split($2, f, ","); if (f[13] != "" && f[13] < 1e-3 * incl) b = 1 }
END { exit (a && b && pc > 0) ? 0 : 1 }' "$tmp/out" &&
	ok "validate: the called nest is priced for its 10^4 calls, the calling nest for its own work" ||
	bad "validate: the called nest is priced for its 10^4 calls, the calling nest for its own work" "$tmp/out"

finish
