# End-to-end tests of epi profile: a program with two loop nests profiled through perf, reports
# in three formats, and every kind of bad input: no command, a bad interval,
# a program that does not exist or crashes, truncated and foreign traces, a
# program rebuilt since it was profiled.
. "$(dirname "$0")/lib.sh"

PH="$top/build/tests/phases"
head -c 4096 /dev/zero >"$tmp/page"
run_epi "profile --help" 0 "usage: epi profile \[options\] -o TRACE" -- profile --help
run_epi "profile without a command" 2 "no command to profile" -- profile -o "$tmp/x.trace"
run_epi "profile without a trace file" 2 "no trace file: give -o TRACE" -- profile -- true
run_epi "profile: an interval without a unit" 2 "--interval '5' is not a time with a unit" -- profile -i 5 -o "$tmp/x.trace" -- true
run_epi "profile: an unknown sampler" 2 "--method 'dtrace' is not a sampler here (perf or ptrace)" -- profile --method dtrace -o "$tmp/x.trace" -- true
run_epi "profile a program with two loop nests" 0 "phases.c:[0-9]* loop in main" -- \
	profile -n 2 -m none -q -o "$tmp/ph.trace" -- "$PH" "$tmp/page" 20000
# the two nests with the most samples are the program's two phases (the
# final sum, a few microseconds, may catch a sample now and then)
nests=$(grep -n "for (long r = 0" "$top/tests/phases.c" | cut -d: -f1 | sort -n | tr '\n' ' ')
top2() { grep "loop in main" "$tmp/out" | sort -k5,5nr | head -2 | sed 's/^phases.c:\([0-9]*\) .*/\1/' | sort -n | tr '\n' ' '; }
[ -n "$nests" ] && [ "$(top2)" = "$nests" ] && grep -q "2 runs, [0-9]* samples every 1ms (perf), cpu time" "$tmp/out" &&
	ok "profile: both nests, runs and samples" || bad "profile: both nests, runs and samples" "$tmp/out"
# runs of 1, 3 and 5 times the work: the header gives their spread, JSON
# its standard deviation; one run has neither
cc -O0 -g -o "$tmp/grow" "$top/tests/data/grow.c"
echo 0 >"$tmp/grow.count"
run_epi "profile: runs of different lengths" 0 "cpu time [0-9.]* s per run (runs +- [1-9][0-9]*%)" -- \
	profile -n 3 -m none -q -o "$tmp/grow.trace" -- "$tmp/grow" 3000000 "$tmp/grow.count"
run_epi "profile --report -F json: the runs' deviation" 0 '"time_sd_s": [0-9.e-]*[1-9]' -- \
	profile --report "$tmp/grow.trace" -F json
run_epi "profile: one run" 0 "cpu time [0-9.]* s per run, " -- \
	profile -n 1 -m none -q -o "$tmp/grow1.trace" -- "$tmp/grow" 3000000 "$tmp/grow.count"
run_epi "profile --report -F json: one run, no deviation" 0 '"time_sd_s": null' -- \
	profile --report "$tmp/grow1.trace" -F json
# clang writes no .debug_aranges: the lines are found through each compile
# unit's ranges, so the samples still reach the loop nests
clang-19 -std=c11 -O1 -g -I"$top" -o "$tmp/phases-clang" "$top/tests/phases.c"
run_epi "profile a clang program (no .debug_aranges)" 0 "phases.c:[0-9]* loop in main" -- \
	profile -n 1 -m none -q -o "$tmp/phc.trace" -- "$tmp/phases-clang" "$tmp/page" 20000
# a header's inline helper called in a loop: its code, inlined there, is
# the loop's (on the line of the call), not the function's outside its
# loops nor a block of the header's lines
mkdir -p "$tmp/hdr"
printf 'static inline long mix(long x)\n{\n\treturn x * x %% 7 + (x >> 3);\n}\n' >"$tmp/hdr/mix.h"
printf '#include "mix.h"\nint main(void)\n{\n\tlong s = 0;\n\tfor (long i = 0; i < 60000000L; i++)\n\t\ts += mix(i + s %% 3);\n\tvolatile long sink = s;\n\t(void)sink;\n\treturn 0;\n}\n' >"$tmp/hdr/m.c"
for cc in gcc clang-19; do
	"$cc" -O2 -g -o "$tmp/hdr/m-$cc" "$tmp/hdr/m.c"
	run_epi "profile: a header's helper inlined into a loop is the loop's ($cc)" 0 "m.c:5 loop in main" -- \
		profile -n 1 -m none -q -o "$tmp/hdr/$cc.trace" -- "$tmp/hdr/m-$cc"
	awk '/loop in main/ { l = $(NF - 5) } /^main / || /mix/ { o += $(NF - 5) } END { exit (l > 20 * (o + 1)) ? 0 : 1 }' \
		"$tmp/out" && ok "profile: the inlined helper's samples in the loop ($cc)" ||
		bad "profile: the inlined helper's samples in the loop ($cc)" "$tmp/out"
done
# clang -O2 unrolls the inner loops of a function inlined into main with
# constant bounds and gives their latches and heads line 0: code the
# compiler made goes with the line before it, so the samples there are
# the nest's, not main's outside its loops
mkdir -p "$tmp/l0"
cat >"$tmp/l0/rc.c" <<'EOF2'
#include <stdlib.h>
#define N 4001
double b5[N], sa[N], sb[N];
void recurrence(int n, int loop)
{
	double stb5 = 0.1;
	for (int l = 1; l <= loop; l++) {
		for (int k = 0; k < n; k++) {
			b5[k] = sa[k] + stb5 * sb[k];
			stb5 = b5[k] - stb5;
		}
		for (int i = 1; i <= n; i++) {
			int k = n - i;
			b5[k] = sa[k] + stb5 * sb[k];
			stb5 = b5[k] - stb5;
		}
	}
}
int main(int argc, char **argv)
{
	recurrence(N, argc > 1 ? atoi(argv[1]) : 3000);
	return (int)b5[7];
}
EOF2
clang-19 -O2 -g -o "$tmp/l0/rc" "$tmp/l0/rc.c"
run_epi "profile: clang's code on line 0 (an unrolled loop's latch)" 0 "rc.c:7 loop in recurrence" -- \
	profile -n 1 -m none -q -o "$tmp/l0/rc.trace" -- "$tmp/l0/rc" 20000
awk '/loop in recurrence/ { l = $(NF - 5) } /^main / { o += $(NF - 5) } END { exit (l > 50 * (o + 1)) ? 0 : 1 }' \
	"$tmp/out" && ok "profile: the samples on line 0 are the nest's" || bad "profile: the samples on line 0 are the nest's" "$tmp/out"
# a source that needs -I: the loops that do not parse are reported by
# function, and the report says so; with the flags after --, by nest
mkdir -p "$tmp/inc/h"
printf '#define N 30000000L\n' >"$tmp/inc/h/n.h"
printf '#include "n.h"\nint main(void)\n{\n\tlong s = 0;\n\tfor (long i = 0; i < N; i++)\n\t\ts += i * i %% 7;\n\tvolatile long sink = s;\n\t(void)sink;\n\treturn 0;\n}\n' >"$tmp/inc/p.c"
gcc -O1 -g -I"$tmp/inc/h" -o "$tmp/inc/p" "$tmp/inc/p.c"
run_epi "profile: a source that needs -I, said so" 0 "'n.h' file not found: the nests this error hides are reported by function" -- \
	profile -n 1 -m none -q -o "$tmp/inc.trace" -- "$tmp/inc/p"
run_epi "profile --report with the flags after --" 0 "p.c:5 loop in main" -- \
	profile --report "$tmp/inc.trace" -- -I"$tmp/inc/h"
run_epi "profile --report --format csv" 0 '^"phases.c:[0-9]* loop in main",loop,.*phases.c,[0-9]*,main,.*/phases,[0-9]*,0\.' -- \
	profile --report "$tmp/ph.trace" --format csv
head -1 "$tmp/out" | grep -qx "block,kind,file,line,function,object,samples,share,share_lo,share_hi,time_s,time_lo,time_hi,energy_j,energy_lo,energy_hi,power_w,power_lo,power_hi" &&
	ok "profile CSV columns" || bad "profile CSV columns" "$tmp/out"
run_epi "profile --report --format json" 0 '"time_basis": "cpu"' -- profile --report "$tmp/ph.trace" -F json
grep -q '"kind": "loop"' "$tmp/out" && grep -q '"energy_j": null' "$tmp/out" && ok "profile JSON blocks" || bad "profile JSON blocks" "$tmp/out"
# the clock the runs had and memory's rate, measured before them, in both reports
grep -q '"effective_ghz": [0-9]*\.[0-9]' "$tmp/out" && grep -q '"dram_load_s": [0-9]*\.*[0-9]*e-[0-9]*,' "$tmp/out" &&
	"$E" profile --report "$tmp/ph.trace" | head -1 |
	grep -q ", clock [0-9]*\.[0-9]* GHz effective, memory [0-9.]* ns a load (load.dram)$" &&
	ok "profile: the clock and memory of the runs" || bad "profile: the clock and memory of the runs" "$tmp/out"
run_epi "profile --no-memory-probe" 0 "cpu time" -- profile -n 1 -m none -q --no-memory-probe -o "$tmp/nomem.trace" -- true
"$E" profile --report "$tmp/nomem.trace" -F json | grep -q '"dram_load_s": null' &&
	! "$E" profile --report "$tmp/nomem.trace" | head -1 | grep -q "memory" &&
	ok "profile --no-memory-probe: memory not measured" || bad "profile --no-memory-probe: memory not measured" "$tmp/out"
run_epi "profile --report --by line" 0 "^phases.c:[0-9]* " -- profile --report "$tmp/ph.trace" --by line
run_epi "profile --report --by function" 0 "^main " -- profile --report "$tmp/ph.trace" --by function
# bad input
run_epi "profile a program that does not exist" 1 "cannot run 'no-such-program'" -- profile -m none -o "$tmp/none.trace" -- no-such-program
[ ! -e "$tmp/none.trace" ] && ok "profile: no trace when no run finished" || bad "profile: no trace when no run finished"
# a program that exits non-zero by design runs as often as asked; a
# changed status stops the runs (exit 1 either way)
run_epi "profile: the same non-zero status every run" 1 "run 1: 'sh' exited with status 7; the runs go on while it exits so" -- \
	profile -n 3 -m none -q -o "$tmp/st.trace" -- sh -c 'exit 7'
run_epi "profile --report: its three runs" 0 "3 runs, " -- profile --report "$tmp/st.trace"
rm -f "$tmp/count"
run_epi "profile: another status stops the runs" 1 "run 2: 'sh' exited with status 4, run 1 with 3; runs stop here" -- \
	profile -n 3 -m none -q -o "$tmp/st2.trace" -- sh -c "n=\$(cat '$tmp/count' 2>/dev/null || echo 0); echo \$((n + 1)) >'$tmp/count'; exit \$((n + 3))"
run_epi "profile a program that crashes" 1 "killed by signal 11" -- profile -n 3 -m none -q -o "$tmp/crash.trace" -- sh -c 'kill -SEGV $$'
run_epi "profile: the crashed run's trace is kept" 0 "1 run," -- profile --report "$tmp/crash.trace"
size=$(wc -c <"$tmp/ph.trace")
head -c $((size - 100)) "$tmp/ph.trace" >"$tmp/cut.trace"
run_epi "profile --report of a truncated trace keeps the complete runs" 0 "truncated record at byte [0-9]*; the 1 complete run before it is used" -- \
	profile --report "$tmp/cut.trace"
run_epi "profile --report of a file that is not a trace" 1 "is not an epi trace" -- profile --report "$tmp/page"
run_epi "profile --report of a missing trace" 1 "cannot open trace '$tmp/nope.trace'" -- profile --report "$tmp/nope.trace"
# the program rebuilt since: its build-id differs
cp "$PH" "$tmp/prog"
"$top/build/san/bin/epi" profile -n 1 -m none -q -o "$tmp/prog.trace" -- "$tmp/prog" "$tmp/page" 2000 >/dev/null 2>&1
cc -O0 -g -I"$top" -o "$tmp/prog" "$top/tests/phases.c" # other code, another build-id
run_epi "profile --report of a program rebuilt since" 1 "the trace is of another build of '$tmp/prog'" -- profile --report "$tmp/prog.trace"

# ALEA's own sampler: every thread interrupted at each tick, wall-clock time
run_epi "profile --method ptrace" 0 "2 runs, [0-9]* samples every 1ms (ptrace), wall time" -- \
	profile --method ptrace -n 2 -m none -q -o "$tmp/pt.trace" -- "$PH" "$tmp/page" 20000
[ "$(top2)" = "$nests" ] && ok "profile --method ptrace: both nests" || bad "profile --method ptrace: both nests" "$tmp/out"
# two threads at once, profiled by METHOD with a const:60 meter: the blocks'
# energies over the measured energy must lie in (LO, HI). With SAMPLES=cpu
# the samples come only where a thread ran, the meter runs on wall time: on a
# loaded machine the wall time the threads waited for a CPU (the program
# reports it, from schedstat) is energy no block can have, so LO drops by its
# share of the wall time (by nothing on an idle machine)
TH="$top/build/tests/threads"
# one profile and its check; 0 when the ratio is within the bounds, else 1,
# and 2 when it is not but the threads waited for a CPU a tenth of the wall
# time or more (another test's processes on the same CPUs)
threads_try() { # METHOD LO HI SAMPLES
	rm -f "$tmp/th.delay"
	export THREADS_DELAY="$tmp/th.delay"
	run_epi "profile --method $1, two threads" 0 "threads.c:[0-9]* loop in work" -- \
		profile --method "$1" -n 2 -m const:60 -q -F csv -o "$tmp/th-$1.trace" -- "$TH" 50000000
	unset THREADS_DELAY
	"$E" profile --report "$tmp/th-$1.trace" -F json >"$tmp/th.json" 2>&1
	awk -F'",' 'NR > 1 { split($2, f, ","); e += f[13] } END { print e }' "$tmp/out" >"$tmp/th.sum"
	measured=$(sed -n 's/^  "energy_j": \(.*\),$/\1/p' "$tmp/th.json")
	wall=$(sed -n 's/^  "wall_s": \(.*\),$/\1/p' "$tmp/th.json")
	runs=$(sed -n 's/^  "runs": \(.*\),$/\1/p' "$tmp/th.json")
	delay=$(awk '{ d += $1 } END { print d + 0 }' "$tmp/th.delay" 2>/dev/null || echo 0)
	awk -v a="$(cat "$tmp/th.sum")" -v b="$measured" -v lo="$2" -v hi="$3" -v d="$delay" -v w="$wall" -v n="$runs" -v cpu="$4" \
		'BEGIN { share = (w > 0 && n > 0) ? d / (n * w) : 0
		lo -= cpu == "cpu" ? share : 0
		printf "blocks %g J, measured %g J, ratio %g, bounds (%g, %g); %d runs of %g s wall, %g s waiting for a CPU\n", a, b, (b > 0 ? a / b : 0), lo, hi, n, w, d
		if (b > 0 && a / b > lo && a / b < hi)
			exit 0
		exit share >= 0.1 ? 2 : 1 }' >>"$tmp/th.json"
}
# the check, once more when the first one failed on a busy machine
threads_energy() { # METHOD LO HI SAMPLES
	threads_try "$@"
	st=$?
	if [ $st = 2 ]; then
		cp "$tmp/th.json" "$tmp/th.first.json"
		threads_try "$@"
		st=$?
	fi
	[ $st = 0 ] && ok "profile --method $1, two threads: the blocks' energies against the measured energy" ||
		bad "profile --method $1, two threads: the blocks' energies against the measured energy" "$tmp/th.json"
}
# ptrace: each tick is a vector of blocks and its power is divided among the
# tick's threads, so the energies add up to the measured one (to 0.5%: each
# reading is stamped at the middle of its read; without the division, two
# threads would count their common ticks twice, +30% or more)
threads_energy ptrace 0.995 1.005 wall
# perf, whose samples come per thread at their own times: the threads sampled
# within an interval of a sample share its power (without, +45%); the run's
# wall time outside the threads (start, exit) is the rest. A sample stands for
# a whole interval (1 ms) of its thread, though the thread may end sooner
# after it: with two threads over a 50 ms run that is up to +4% (1.024 seen
# on a quiet machine), so the bound above is 1.1, still well short of +45%
threads_energy perf 0.8 1.1 cpu
run_epi "profile --method ptrace: a program that does not exist" 1 "cannot run 'no-such-program'" -- \
	profile --method ptrace -m none -o "$tmp/none.trace" -- no-such-program
run_epi "profile --method ptrace: a program that crashes" 1 "killed by signal 11" -- \
	profile --method ptrace -n 3 -m none -q -o "$tmp/crash.trace" -- sh -c 'kill -SEGV $$'

finish
