# End-to-end tests of epi trips: tests/data/trips_loops.c
# (a list walk, searches left by break, nested loops, a function called with
# three lengths, a do-while, continue, return and goto out of loops, a loop
# never entered) built with gcc --coverage and with clang's coverage, each
# loop's entries, iterations and trip count checked; a --param series fitted
# to exact polynomials; the trips file read back by epi-predict --trips; and
# the errors: no coverage, an optimised gcc build, bad options, a malformed
# trips file.  Nothing may be left beside the program (.gcda, .profraw).
. "$(dirname "$0")/lib.sh"

E="$top/build/san/bin/epi"
TR="$tmp/trips"
mkdir -p "$TR/gcc" "$TR/clang" "$TR/tmp"
cp "$top/tests/data/trips_loops.c" "$TR/gcc/"
cp "$top/tests/data/trips_loops.c" "$TR/clang/"
(cd "$TR/gcc" && gcc --coverage -g -O0 -o prog trips_loops.c) >"$TR/cc.log" 2>&1 &&
	(cd "$TR/clang" && clang-19 -fprofile-instr-generate -fcoverage-mapping -g -o prog trips_loops.c) >>"$TR/cc.log" 2>&1 ||
	bad "trips: the test program builds with gcc --coverage and clang-19 -fprofile-instr-generate -fcoverage-mapping" "$TR/cc.log"

# trips_run DIR NAME STATUS PATTERN -- ARGS: expect (run.sh) of epi ARGS
# run in DIR, its temporary folders in $TR/tmp
trips_run() {
	dir=$1 saved=$P here=$(pwd) tmpdir=${TMPDIR-}
	shift
	P=$E
	export TMPDIR="$TR/tmp"
	cd "$dir" && expect "$@"
	cd "$here"
	P=$saved
	if [ -n "$tmpdir" ]; then TMPDIR=$tmpdir; else unset TMPDIR; fi
}

# LINE NTH FUNCTION KIND ENTRIES ITERATIONS TRIP with n = 10, in either compiler
known='15 1 list_len while 1 7 7
25 1 search for 1 13 13
35 1 nested for 1 10 10
36 1 nested for 10 45 9/2
44 1 walk for 3 18 6
53 1 digits do 1 5 5
63 1 skip_odd while 1 10 10
74 1 first_neg for 1 16 16
75 1 first_neg for 16 46 23/8
86 1 forever for 1 6 6
97 1 find_inline for 1 5 5
105 1 gotos while 1 6 6
119 1 main for 1 7 7
126 1 main for 1 20 20
135 1 main while 1 45 45
146 1 main while 1 7 7
153 1 main for 1 12 12
155 1 main for 1 3 3
156 1 main for 3 30 10'
for cc in gcc clang; do
	trips_run "$TR/$cc" "trips ($cc): runs the program, its output through" 0 "^262 48$" -- \
		trips -F csv -o "$TR/$cc.json" -- ./prog 10
	# the program's output first, then the report
	sed -n '/^file,/,$p' "$tmp/out" >"$TR/$cc.csv"
	head -1 "$TR/$cc.csv" | grep -qx "file,line,nth,function,kind,entries,iterations,trip,params,residual,note" &&
		ok "trips ($cc): CSV columns" || bad "trips ($cc): CSV columns" "$TR/$cc.csv"
	echo "$known" | {
		fails=0
		while read -r line nth fn kind e i trip; do
			grep -qx "trips_loops.c,$line,$nth,$fn,$kind,$e,$i,$trip,,0," "$TR/$cc.csv" ||
				{ echo "line $line: want $e entries, $i iterations, trip $trip" >>"$TR/$cc.miss"; fails=1; }
		done
		exit $fails
	} && ok "trips ($cc): entries, iterations and trip of 19 loops (list walk, breaks, nests, average, do-while, goto, empty bodies)" ||
		{ cat "$TR/$cc.csv" >>"$TR/$cc.miss"; bad "trips ($cc): entries, iterations and trip of 19 loops" "$TR/$cc.miss"; }
	grep -q '^trips_loops.c,141,1,main,while,0,0,,,,never entered$' "$TR/$cc.csv" &&
		ok "trips ($cc): a loop never entered has no trip" || bad "trips ($cc): a loop never entered has no trip" "$TR/$cc.csv"
	left=$(find "$TR/$cc" "$TR/tmp" -name '*.gcda' -o -name '*.profraw' -o -name '*.profdata' | head -3)
	[ -z "$left" ] && [ -z "$(ls -A "$TR/tmp")" ] && ok "trips ($cc): no coverage file left behind" ||
		bad "trips ($cc): no coverage file left behind ($left $(ls -A "$TR/tmp"))"
done
# header and body on one line: clang's regions count it, gcov's lines cannot
grep -q '^trips_loops.c,139,1,main,for,1,3,3,,0,$' "$TR/clang.csv" &&
	grep -q '^trips_loops.c,139,1,main,for,,,,,,gcov cannot tell its entries from its iterations: its header and body share a line$' "$TR/gcc.csv" &&
	ok "trips: a one-line loop is read from clang's regions, and said unreadable from gcov's lines" ||
	bad "trips: a one-line loop is read from clang's regions, and said unreadable from gcov's lines" "$TR/gcc.csv"
grep -q '"compiler": "gcc"' "$TR/gcc.json" && grep -q '"compiler": "clang"' "$TR/clang.json" &&
	grep -q '"entries": "10",' "$TR/gcc.json" && grep -q '"trip": "9/2",' "$TR/clang.json" &&
	ok "trips -o: the trips file, counts as strings" || bad "trips -o: the trips file, counts as strings" "$TR/gcc.json"

# a --param series: a triangular loop's trip fitted to n*(n - 1)/2, exactly
for cc in gcc clang; do
	trips_run "$TR/$cc" "trips ($cc) --param: three runs, a polynomial per loop" 0 "3 runs with n = 10, 20, 40" -- \
		trips -P n=10,20,40 -o "$TR/$cc-n.json" -- ./prog '{n}'
	grep -q '^trips_loops.c *135 *1 *main *3 *1015 *n\*(n - 1)/2 *0 *$' "$tmp/out" &&
		grep -q '^trips_loops.c *36 *1 *nested *70 *1015 *1/2\*n - 1/2 *0 *$' "$tmp/out" &&
		grep -q '^trips_loops.c *15 *1 *list_len *3 *21 *7 *0 *$' "$tmp/out" &&
		ok "trips ($cc) --param: n*(n - 1)/2, (n - 1)/2 and a constant, exact" ||
		bad "trips ($cc) --param: n*(n - 1)/2, (n - 1)/2 and a constant, exact" "$tmp/out"
done
grep -q '"n": 40' "$TR/gcc-n.json" && grep -q '"params": \[$' "$TR/gcc-n.json" && grep -q '"per_run"' "$TR/gcc-n.json" &&
	ok "trips --param: the runs' parameters in the trips file" || bad "trips --param: the runs' parameters in the trips file" "$TR/gcc-n.json"

# the trips file through epi-predict: measured trips for the loops its analysis cannot count
expect "predict --trips: the measured trips load" 0 "list_len" -- "$TR/gcc/trips_loops.c" --trips "$TR/gcc-n.json" --param n=10 -F csv
grep -q '^[^,]*,[0-9]*,list_len,function,load.ptr,7,' "$tmp/out" &&
	ok "predict --trips: the list walk counted with its measured 7 trips" ||
	bad "predict --trips: the list walk counted with its measured 7 trips" "$tmp/out"
printf '{"version": 1, "loops": [{"file": "trips_loops.c", "line": "15", "trip": "7"}]}\n' >"$TR/bad.json"
expect "predict --trips: a malformed trips file" 1 "trips file '$TR/bad.json': loops\[0\] has no \"line\"" -- \
	"$TR/gcc/trips_loops.c" --trips "$TR/bad.json"
printf '{"version": 1, "loops": [\n' >"$TR/cut.json"
expect "predict --trips: a trips file cut short" 1 "trips file '$TR/cut.json' line 2" -- "$TR/gcc/trips_loops.c" --trips "$TR/cut.json"
expect "predict --trips: a trips file of other sources" 0 "the trips files have no loop of" -- \
	"$ex/scalar_product.c" --trips "$TR/gcc-n.json"
saved_p=$P
P=$E
expect "validate --trips: the file is read as epi-predict reads it" 1 "trips file '$TR/bad.json': loops\[0\] has no \"line\"" -- \
	validate "$TR/gcc/trips_loops.c" --trips "$TR/bad.json" --against "$TR/none.trace"
P=$saved_p

# a loop after a label on its line (MachSuite's style: "outer: for"):
# the label runs no code, and gcc's line counts are the loop's
mkdir -p "$TR/label"
printf 'volatile int s;\nint main(void)\n{\n\tint i;\nrows:\tfor (i = 0; i < 10; i++)\n\t\ts += i;\n\treturn 0;\n}\n' >"$TR/label/l.c"
(cd "$TR/label" && gcc --coverage -g -O0 -o l l.c)
trips_run "$TR/label" "trips: a loop after a label, gcc" 0 "^l.c  *5  *1  *main  *1  *10  *10 " -- trips -- ./l

# a source whose loops a macro of the build selects (Linpack's ROLL):
# parsed with the build's -D, its loop is measured; without it, none
mkdir -p "$TR/macro"
printf '#ifdef ROLL\ndouble sum(double *x, int n)\n{\n\tdouble s = 0;\n\tint i;\n\tfor (i = 0; i < n; i++)\n\t\ts += x[i];\n\treturn s;\n}\n#else\ndouble sum(double *x, int n) { return x[0] * n; }\n#endif\nint main(void)\n{\n\tdouble x[100] = {0};\n\treturn (int)sum(x, 100);\n}\n' >"$TR/macro/m.c"
(cd "$TR/macro" && gcc --coverage -g -O0 -DROLL -o m m.c)
trips_run "$TR/macro" "trips: -D as the program was built" 0 "^m.c  *6  *1  *sum  *1  *100  *100 " -- trips -DROLL -- ./m
trips_run "$TR/macro" "trips: without the build's -D, not the program's loops" 0 "(no loop in the sources)" -- trips -- ./m

# errors and warnings
# a profile of a clang whose format llvm-profdata-19 does not read (the
# tool stood in for by one that answers as it does)
printf '#!/bin/sh\necho "warning: x.profraw: raw profile version mismatch: Profile uses raw profile format version = 8; expected version = 10" >&2\nexit 1\n' >"$TR/old-profdata"
chmod +x "$TR/old-profdata"
EPI_LLVM_PROFDATA="$TR/old-profdata" trips_run "$TR/clang" "trips: another clang's profile, said so" 1 \
	"'./prog' was built by a clang whose coverage format .*old-profdata does not read (build it with clang-19" -- \
	trips -- ./prog 3
cc -O0 -g -o "$TR/plain" "$TR/gcc/trips_loops.c"
trips_run "$TR" "trips: a program built without coverage" 1 \
	"'./plain' was built without coverage: rebuild it with gcc --coverage -g (at -O0), or clang -fprofile-instr-generate -fcoverage-mapping -g" -- \
	trips -- ./plain 3
(cd "$TR/gcc" && gcc --coverage -g -O2 -o prog2 trips_loops.c)
trips_run "$TR/gcc" "trips: an optimised gcc build" 1 "'./prog2' was compiled with -O2 (trips_loops.c): .* rebuild it with gcc --coverage -g -O0" -- \
	trips -- ./prog2 3
trips_run "$TR/clang" "trips: a non-zero exit is a warning" 0 "warning: run 1: './prog' exited with status 3" -- \
	trips -- ./prog 4 3
trips_run "$TR/gcc" "trips --param without {n} in the arguments" 2 "the program's arguments have no {n}" -- trips -P n=1,2 -- ./prog 3
trips_run "$TR/gcc" "trips --param with a value that is no number" 2 "invalid --param 'n=1,x'" -- trips -P n=1,x -- ./prog '{n}'
trips_run "$TR" "trips without a program" 2 "no program to run" -- trips
trips_run "$TR" "trips with a program that does not exist" 1 "cannot run './nope'" -- trips -- ./nope
trips_run "$TR" "trips --help" 0 "usage: epi trips \[options\] \[--\] PROGRAM" -- trips --help
trips_run "$TR/clang" "trips --format json" 0 '"tool": "epi trips"' -- trips -F json -- ./prog 2
left=$(find "$TR/gcc" "$TR/clang" -name '*.gcda' -o -name '*.profraw' | head -3)
[ -z "$left" ] && [ -z "$(ls -A "$TR/tmp")" ] && ok "trips: nothing left behind after every run" ||
	bad "trips: nothing left behind after every run ($left)"

finish
