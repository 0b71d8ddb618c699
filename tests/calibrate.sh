# End-to-end tests of epi calibrate: on a machine
# without meter or cpufreq (a bare sysroot), on a fake acpi-cpufreq tree
# with four frequencies, interrupted by SIGINT and resumed, and the table
# found by epi-predict without --table.
. "$(dirname "$0")/lib.sh"

C="$top/build/san/bin/epi-calibrate"
Q="--meter none --run-time 0.005 --max-runs 4 --idle-time 0.1"

EPI_SYSROOT="$tmp/bare" run_epi "calibrate without cpufreq says so" 0 "cannot set CPU frequencies (no CPU frequency control" -- \
	calibrate --freqs all $Q --ops add.i64.lat,div.f64.lat -o "$tmp/c1.xml"
grep -q "no energy meter (meter none): calibrating time and cycles only" "$tmp/err" &&
	grep -q "add.i64.lat" "$tmp/out" && grep -q "div.f64.lat" "$tmp/out" && grep -q "<frequency ghz=" "$tmp/c1.xml" &&
	ok "calibrate: time and cycles at the current frequency" || bad "calibrate: time and cycles at the current frequency" "$tmp/err"
grep -q "^epi calibrate: \[1/3\] .* iter " "$tmp/err" && ok "calibrate: progress lines in a pipe" || bad "calibrate: progress lines in a pipe" "$tmp/err"
# the default table, found by epi-predict without --table
mkdir -p "$tmp/data"
EPI_DATA_DIR="$tmp/data" EPI_SYSROOT="$tmp/bare" "$C" --freqs current $Q --ops add,cmp,load.l1,store.l1 -q >/dev/null 2>"$tmp/err" &&
	EPI_DATA_DIR="$tmp/data" "$P" "$ex/selection_sort.c" --param n=1000 >"$tmp/out" 2>&1 &&
	grep -q "cost table $tmp/data/costtable.xml" "$tmp/out" && grep -q "^  all .* ms\|^  all .* us" "$tmp/out" &&
	ok "calibrate writes this machine's table; epi-predict uses it without --table" ||
	bad "calibrate writes this machine's table; epi-predict uses it without --table" "$tmp/out"
# machine-readable summaries
EPI_SYSROOT="$tmp/bare" "$C" --freqs current $Q --ops mul.i64.lat -o "$tmp/c2.xml" -F csv -q >"$tmp/out" 2>/dev/null
[ "$(head -1 "$tmp/out")" = "freq_ghz,effective_ghz,idle_w,op,unit,time_s,time_ci_s,cycles,energy_j,energy_ci_j,energy_dyn_j,runs,outliers,drift,kernel" ] &&
	grep -q ",mul.i64.lat,op,[0-9.e-]*,[0-9.e-]*,[0-9.]*,,,,[0-9]*,[0-9]*,[01],$" "$tmp/out" &&
	ok "calibrate --format csv" || bad "calibrate --format csv" "$tmp/out"
EPI_SYSROOT="$tmp/bare" "$C" --freqs current $Q --ops mul.i64.lat -o "$tmp/c2.xml" -F json -q >"$tmp/out" 2>/dev/null
grep -q '"frequencies"' "$tmp/out" && grep -q '"energy_j": null' "$tmp/out" && grep -q '"l1_bytes": null' "$tmp/out" &&
	grep -q '"tlb_pages": null' "$tmp/out" && ok "calibrate --format json" || bad "calibrate --format json" "$tmp/out"

echo "keep me" >"$tmp/notes.txt"
# the paper's style: its C kernels in context, nothing subtracted
EPI_SYSROOT="$tmp/bare" "$C" --freqs current $Q --style paper --ops add,print -o "$tmp/paper.xml" -q >"$tmp/out" 2>"$tmp/err" &&
	grep -q '<calibration [^>]*style="paper"' "$tmp/paper.xml" && grep -q '<op name="add" unit="op" [^>]*style="paper"' "$tmp/paper.xml" &&
	! grep -q '<op name="iter"' "$tmp/paper.xml" && ok "calibrate --style paper" || bad "calibrate --style paper" "$tmp/err"
run_epi "calibrate: an unknown style" 2 "invalid --style 'fast' (net or paper)" -- calibrate --style fast
# the plot (gnuplot)
run_epi "calibrate --plot draws the table" 0 "drew '$tmp/c1.xml' into '$tmp/c1.svg'" -- calibrate --plot "$tmp/c1.svg" -o "$tmp/c1.xml"
grep -q "<svg" "$tmp/c1.svg" && grep -q "div.f64.lat" "$tmp/c1.svg" && grep -q "time (no energy meter) per operation\|per operation, time (no energy meter)" "$tmp/c1.svg" &&
	ok "calibrate --plot: an SVG with every operation" || bad "calibrate --plot: an SVG with every operation" "$tmp/c1.svg"
run_epi "calibrate --plot of a file that is not a table" 1 "notes.txt' line 1" -- calibrate --plot "$tmp/n.svg" -o "$tmp/notes.txt"

# bad input
run_epi "calibrate: unknown operation" 1 "unknown operation 'fma' (operations: iter, add.i64, " -- calibrate $Q --ops fma -o "$tmp/x.xml"
EPI_SYSROOT="$tmp/bare" run_epi "calibrate: a frequency without cpufreq" 1 "cannot calibrate at 2GHz: no CPU frequency control" -- \
	calibrate $Q --freqs 2GHz -o "$tmp/x.xml"
run_epi "calibrate: a bad precision" 2 "--precision 'none' is not a positive number" -- calibrate --precision none
run_epi "calibrate: an empty CPU" 2 "--cpu '' is not a CPU number" -- calibrate --cpu ''
run_epi "calibrate: a CPU with a tail" 2 "--cpu '2x' is not a CPU number" -- calibrate --cpu 2x
EPI_SYSROOT="$tmp/bare" run_epi "calibrate: refuses a file that is not a cost table" 1 "notes.txt' exists and is not a cost table" -- \
	calibrate $Q --freqs current --ops add -o "$tmp/notes.txt"
[ "$(cat "$tmp/notes.txt")" = "keep me" ] && ok "calibrate: the file is left as it was" || bad "calibrate: the file is left as it was"

# four frequencies on a fake acpi-cpufreq tree, restored afterwards
fake_freq_tree "$F"
export EPI_STATE_DIR="$F/state"
EPI_SYSROOT="$F" run_epi "calibrate --freqs all pins each frequency" 0 "2.4 GHz, effective" -- \
	calibrate --freqs all $Q --cpu 1 --ops add.i64.lat -o "$tmp/c4.xml"
[ "$(grep -c '<frequency ghz="[0-9.]*" effective_ghz="[0-9.]*" pinned="true">' "$tmp/c4.xml")" = 4 ] &&
	ok "calibrate: a table with four pinned frequencies" || bad "calibrate: a table with four pinned frequencies" "$tmp/c4.xml"
[ "$(cat "$P1/scaling_governor")" = schedutil ] && [ "$(cat "$F/sys/devices/system/cpu/cpufreq/boost")" = 1 ] &&
	[ ! -e "$F/state/cpufreq-state" ] && ok "calibrate: cpufreq restored" || bad "calibrate: cpufreq restored"

# SIGINT mid-calibration: frequencies restored, finished entries kept; --resume completes
fake_freq_tree "$F"
rm -f "$tmp/c5.xml"
EPI_SYSROOT="$F" "$C" --freqs all --meter none --run-time 0.02 --max-runs 30 --precision 0.0001 --cpu 1 \
	--ops add.i64.lat,mul.i64.lat -o "$tmp/c5.xml" >"$tmp/out" 2>"$tmp/err" &
pid=$!
i=0
while ! grep -q "mul.i64.lat\|add.i64.lat" "$tmp/c5.xml" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
kill -INT $pid
wait $pid
st=$?
if [ $st = 130 ] && grep -q "interrupted by signal 2: '$tmp/c5.xml' keeps [1-9][0-9]* of 12 entries; continue with: epi-calibrate .* --resume" "$tmp/err" &&
	[ "$(cat "$P1/scaling_governor")" = schedutil ] && [ ! -e "$F/state/cpufreq-state" ]; then
	ok "calibrate: SIGINT restores the frequencies and keeps the table"
else
	bad "calibrate: SIGINT restores the frequencies and keeps the table (exit $st)" "$tmp/err"
fi
# what was measured stays as it was (cycles follow the frequency measured again)
measured() { grep -o '<op name="iter"[^>]*' "$1" | head -1 | grep -o ' \(time_s\|time_sd_s\|time_ci_s\|runs\)="[^"]*"'; }
kept=$(measured "$tmp/c5.xml")
EPI_SYSROOT="$F" "$C" --freqs all --meter none --run-time 0.02 --max-runs 3 --cpu 1 --ops add.i64.lat,mul.i64.lat \
	-o "$tmp/c5.xml" --resume -q >"$tmp/out" 2>"$tmp/err"
st=$?
if [ $st = 0 ] && grep -q "entries were already in" "$tmp/err" && [ "$(grep -c '<op name="mul.i64.lat"' "$tmp/c5.xml")" = 4 ] &&
	[ -n "$kept" ] && [ "$(measured "$tmp/c5.xml")" = "$kept" ] && [ ! -e "$F/state/cpufreq-state" ]; then
	ok "calibrate --resume completes the table, keeping what was done"
else
	bad "calibrate --resume completes the table, keeping what was done (exit $st)" "$tmp/err"
fi
unset EPI_STATE_DIR

# a machine whose L3 is reported larger than the L3 kernels' buffer (8 MiB
# here, of 1 GiB, more than any L3 serves one core): what it serves (up to
# 512 MiB, where lines come from memory) is measured once, and kept in the
# table beside its size
CS="$tmp/caches"
for cpu in 0 1; do
	for i in "0 1 Data 32K" "1 2 Unified 256K" "2 3 Unified 1024M"; do
		set -- $i
		d="$CS/sys/devices/system/cpu/cpu$cpu/cache/index$1"
		mkdir -p "$d"
		echo "$2" >"$d/level"
		echo "$3" >"$d/type"
		echo "$4" >"$d/size"
	done
done
EPI_SYSROOT="$CS" "$C" --freqs current $Q --cpu 1 --ops load.l3.line -o "$tmp/c7.xml" -q >"$tmp/out" 2>"$tmp/err"
st=$?
serves=$(sed -n 's/.*<cache level="3" bytes="1073741824" serves="\([0-9]*\)"\/>.*/\1/p' "$tmp/c7.xml")
# the walk starts at 8 MiB: on a host whose own L3 (the real one) is no
# larger than twice that, most sizes come from memory alike and the step
# may or may not show (a part of the first size still in L3, or a busy
# moment): the table keeps no reach, or one within the walk that the
# report says beside the size
host_l3=$(sed -n 's/^\([0-9]*\)K$/\1/p' /sys/devices/system/cpu/cpu1/cache/index3/size 2>/dev/null)
if [ -n "$host_l3" ] && [ "$host_l3" -le $((16 << 10)) ]; then
	said="L3 1048576 KiB"
	[ -n "$serves" ] && said="L3 1048576 KiB (serves $((${serves:-0} >> 10)) KiB)"
	if [ $st = 0 ] && grep -q '<op name="load.l3.line"' "$tmp/c7.xml" &&
		{ [ -z "$serves" ] || { [ "$serves" -ge $((8 << 20)) ] && [ "$serves" -lt $((512 << 20)) ]; }; } &&
		grep -q "^caches: L1 32 KiB, L2 256 KiB, $said$" "$tmp/out"; then
		ok "calibrate: where this host's L3 ($host_l3 KiB) holds no more than the walk's start, a reach kept only within the walk"
	else
		bad "calibrate: where this host's L3 ($host_l3 KiB) holds no more than the walk's start, a reach kept only within the walk (exit $st, serves '$serves')" "$tmp/c7.xml"
	fi
elif [ $st = 0 ] && [ -n "$serves" ] && [ "$serves" -ge $((8 << 20)) ] && [ "$serves" -lt $((512 << 20)) ] &&
	grep -q '<op name="load.l3.line"' "$tmp/c7.xml" &&
	grep -q "^caches: L1 32 KiB, L2 256 KiB, L3 1048576 KiB (serves $((serves >> 10)) KiB)$" "$tmp/out"; then
	ok "calibrate: L3's reach measured and kept beside its size"
else
	bad "calibrate: L3's reach measured and kept beside its size (exit $st, serves '$serves')" "$tmp/c7.xml"
fi
# without the line kernel, nothing is measured
EPI_SYSROOT="$CS" "$C" --freqs current $Q --cpu 1 --ops add.i64 -o "$tmp/c8.xml" -q >"$tmp/out" 2>"$tmp/err"
grep -q '<cache level="3" bytes="1073741824"/>' "$tmp/c8.xml" && ok "calibrate: L3's reach measured only with the line kernel" ||
	bad "calibrate: L3's reach measured only with the line kernel" "$tmp/c8.xml"
# the second-level TLB's reach: measured only with the TLB curve's kernels
! grep -q '<tlb ' "$tmp/c8.xml" && ok "calibrate: the TLB's reach measured only with the TLB kernels" ||
	bad "calibrate: the TLB's reach measured only with the TLB kernels" "$tmp/c8.xml"
# with them, kept in the table where this machine shows a cliff (large
# pages can hide it); a table whose curve was walked without it (an
# earlier version's, resumed) is not given one its points do not follow
"$C" --freqs current $Q --cpu 1 --ops load.page.tlb50 -o "$tmp/c9.xml" -q >"$tmp/out" 2>"$tmp/err"
st=$?
reach=$(sed -n 's/.*<tlb pages="\([0-9]*\)"\/>.*/\1/p' "$tmp/c9.xml")
if [ $st = 0 ] && [ -n "$reach" ]; then
	[ "$reach" -ge 256 ] && [ "$reach" -le 16384 ] && grep -q '<op name="load.page.tlb50"' "$tmp/c9.xml" &&
		ok "calibrate: the TLB's reach measured and kept ($reach pages)" ||
		bad "calibrate: the TLB's reach measured and kept ($reach pages)" "$tmp/c9.xml"
	grep -v '<tlb ' "$tmp/c9.xml" >"$tmp/c10.xml"
	"$C" --freqs current $Q --cpu 1 --ops load.page.tlb50,load.page.tlb75 -o "$tmp/c10.xml" --resume -q >"$tmp/out" 2>"$tmp/err"
	[ $? = 0 ] && ! grep -q '<tlb ' "$tmp/c10.xml" && grep -q '<op name="load.page.tlb75"' "$tmp/c10.xml" &&
		ok "calibrate --resume: no reach for a curve walked without it" ||
		bad "calibrate --resume: no reach for a curve walked without it" "$tmp/c10.xml"
elif [ $st = 0 ]; then
	ok "calibrate: no TLB cliff on this machine (large pages?): no reach kept"
else
	bad "calibrate: the TLB kernel (exit $st)" "$tmp/err"
fi

# a meter that fails mid-calibration: the table keeps what finished, the
# message says how to continue; a counter that stands still is said
fake_powercap_tree "$PC"
rm -f "$tmp/c6.xml"
EPI_SYSROOT="$PC" "$C" --freqs current --meter powercap --run-time 0.02 --idle-time 0.1 --max-runs 200 --precision 0.00001 \
	--ops add.i64.lat,mul.i64.lat -o "$tmp/c6.xml" -q >"$tmp/out" 2>"$tmp/err" &
pid=$!
i=0
while ! grep -q '<op name="iter"' "$tmp/c6.xml" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
rm -f "$PC$PKG"
wait $pid
st=$?
if [ $st = 1 ] && grep -q "cannot read '.*energy_uj'.*; '$tmp/c6.xml' keeps 1 finished entry: continue with --resume" "$tmp/err" &&
	grep -q "the meter's counter did not advance at idle" "$tmp/err" && grep -q '<op name="iter"' "$tmp/c6.xml"; then
	ok "calibrate: a meter failing mid-run keeps the table and says to resume"
else
	bad "calibrate: a meter failing mid-run keeps the table and says to resume (exit $st)" "$tmp/err"
fi

finish
