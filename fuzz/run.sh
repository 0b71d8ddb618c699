#!/bin/sh
# make fuzz: each harness under libFuzzer for FUZZ_TIME seconds (default 60),
# from its committed corpus (fuzz/corpus/NAME) and the inputs it found
# before (build/fuzz/work/NAME, not committed); an input that crashes is
# written to fuzz/crashes/NAME/, which `make check` replays for good. Then
# CSMITH random C programs (default 200; csmith) through epi-predict built
# with the sanitizers: each must give a report or one-line errors, within
# 60 s; a program that does not is kept in fuzz/csmith/ and replayed by
# `make check`. Prints a table of what ran.
# usage: fuzz/run.sh NAME...
top=$(cd "$(dirname "$0")/.." && pwd)
T=${FUZZ_TIME:-60}
N=${CSMITH:-200}
status=0
printf '%-10s %8s %12s %10s %8s %8s\n' harness seconds executions exec/s edges crashes
for name in "$@"; do
	work="$top/build/fuzz/work/$name"
	crashes="$top/fuzz/crashes/$name"
	mkdir -p "$work" "$crashes"
	before=$(ls "$crashes" | wc -l)
	log="$top/build/fuzz/$name.log"
	"$top/build/fuzz/fuzz_$name" -max_total_time="$T" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
		-artifact_prefix="$crashes/" "$work" "$top/fuzz/corpus/$name" >"$log" 2>&1
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	cov=$(grep -a -o 'cov: [0-9]*' "$log" | tail -1 | sed 's/cov: //')
	after=$(ls "$crashes" | wc -l)
	printf '%-10s %8s %12s %10s %8s %8s\n' "$name" "$T" "${runs:-?}" "${rate:-?}" "${cov:-?}" "$((after - before))"
	if [ "$after" -gt "$before" ]; then
		status=1
		grep -a -m 3 'ERROR\|SUMMARY\|Test unit written' "$log" | sed 's/^/    /'
	fi
done
rmdir "$top"/fuzz/crashes/* 2>/dev/null

# random programs through the whole analysis
if [ "$N" -gt 0 ]; then
	if ! command -v csmith >/dev/null 2>&1; then
		echo "fuzz: csmith is not installed (make fuzz installs it)" >&2
		exit 1
	fi
	inc=$(dirname "$(find /usr/include -name csmith.h 2>/dev/null | head -1)")
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	kept=0 reports=0 errors=0
	seed0=$(date +%s)
	i=0
	while [ $i -lt "$N" ]; do
		seed=$((seed0 + i))
		i=$((i + 1))
		(cd "$tmp" && csmith --seed "$seed" >p.c 2>/dev/null) || continue # platform.info lands there
		timeout 60 "$top/build/san/bin/epi-predict" "$tmp/p.c" --model source -- -I"$inc" -w >"$tmp/out" 2>"$tmp/err"
		st=$?
		why=
		if [ $st -eq 124 ]; then
			why="no answer within 60 s"
		elif grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
			why=$(grep -m 1 'Sanitizer\|runtime error' "$tmp/err")
		elif [ $st -ne 0 ] && [ $st -ne 1 ]; then
			why="exit status $st"
		elif grep -v '^epi-predict: \(error\|warning\): ' "$tmp/err" | grep -q .; then
			why="a message that is not one line"
		fi
		if [ -n "$why" ]; then
			mkdir -p "$top/fuzz/csmith"
			cp "$tmp/p.c" "$top/fuzz/csmith/seed$seed.c"
			echo "csmith seed $seed: $why (kept as fuzz/csmith/seed$seed.c)"
			kept=$((kept + 1))
			status=1
		elif [ $st -eq 0 ]; then
			reports=$((reports + 1))
		else
			errors=$((errors + 1))
		fi
	done
	echo "csmith: $N programs (seeds $seed0 to $((seed0 + N - 1))): $reports reports, $errors one-line errors, $kept kept"
fi
exit $status
