#!/bin/sh
# make bench: figures for epi-profile and epi-validate.
#  1. the profiler's overhead on a 10 s program at 100 Hz and 1 kHz: the
#     program's run time under the profiler against unprofiled runs,
#     interleaved (target: at most 1%)
#  2. per-nest time error against the program's own clock_gettime
#     instrumentation (tests/phases.c measures each nest's CPU time;
#     target: at most 2%)
#  3. epi-validate's mean error of predicted against sampled time for the
#     RR-8416 examples, with a table calibrated here in the paper's style
# ROUNDS (default 3) sets how many runs of each kind.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
E="$top/bin/epi"
PH="$top/build/tests/phases"
rounds=${ROUNDS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# a fresh shared page: the program adds each nest's CPU time to it
page() { head -c 4096 /dev/zero >"$tmp/page"; }
# the page's per-nest CPU seconds (doubles at bytes 40 and 48), and wall seconds (56, 64)
nest_cpu() { od -A n -t f8 -j 40 -N 16 "$tmp/page" | awk '{ print $1, $2 }'; }
nest_wall() { od -A n -t f8 -j 56 -N 16 "$tmp/page" | awk '{ print $1 + $2 }'; }

# the program's own CPU time, nests A and B, as its clock_gettime measured it
nests() { nest_cpu | awk '{ print $1 + $2 }'; }
# profile once at interval $1, scale $2 (sampler $3, perf by default): "samples wall_s" and the JSON/CSV in $tmp
profile() {
	page
	"$E" profile --method "${3:-perf}" -n 1 -i "$1" -m none -q -F json -o "$tmp/p.trace" -- "$PH" "$tmp/page" "$2" >"$tmp/p.json" 2>"$tmp/err" || {
		cat "$tmp/err"
		exit 1
	}
	echo "$(sed -n 's/^  "samples": \(.*\),$/\1/p' "$tmp/p.json") $(sed -n 's/^  "wall_s": \(.*\),$/\1/p' "$tmp/p.json")"
}
plain() {
	page
	"$PH" "$tmp/page" "$1" >/dev/null
}

# the scale that makes a run last about 10 s
plain 100000
scale=$(nests | awk '{ printf "%d", 100000 * 10 / $1 }')

# 1. the cost of one sample, at 10 kHz where it is large enough to see: the
#    program's CPU time with and without, per sample taken
short=$((scale / 10))
# cost_rounds FILE MEASURE INTERVAL SAMPLER: per round, the program's MEASURE
# unprofiled, then profiled, and the samples taken, into FILE
cost_rounds() {
	file=$1 measure=$2 iv=$3 method=$4
	: >"$file"
	for r in $(seq 1 "$rounds"); do
		plain "$short"
		v0=$($measure)
		set -- $(profile "$iv" "$short" "$method")
		echo "$v0 $($measure) $1" >>"$file"
	done
}
cost_rounds "$tmp/cost" nests 100us perf
# the ptrace sampler's tick stops the program: its cost is in wall time
cost_rounds "$tmp/ptcost" nest_wall 1ms ptrace
# 2. the 10 s program at 100 Hz and 1 kHz, interleaved with unprofiled runs;
# 3. the per-nest estimates of the 1 kHz runs against the program's clock
: >"$tmp/rows"
for r in $(seq 1 "$rounds"); do
	plain "$scale"
	c0=$(nests)
	for iv in 10ms 1ms; do
		set -- $(profile "$iv" "$scale")
		n=$1
		"$E" profile --report "$tmp/p.trace" -F csv >"$tmp/p.csv"
		set -- $(nest_cpu)
		# nests in source order: the lower line is nest A
		est=$(awk -F'",' '/ loop in main",/ { split($2, f, ","); print f[3], f[10] }' "$tmp/p.csv" | sort -n | awk '{ printf "%s ", $2 }')
		echo "$iv $c0 $(nests) $n $1 $2 $est" >>"$tmp/rows"
	done
done

echo "profiler overhead: the program's own CPU time (tests/phases.c's clock_gettime) with and without sampling, $rounds interleaved rounds:"
awk '{ d += $2 - $1; n += $3; k++ } END {
	c = d / n
	printf "  perf: cost of a sample (10 kHz on a %.1f s program): %.1f us, so %.2f%% at 100 Hz and %.2f%% at 1 kHz\n", $1, 1e6 * c, 100 * c * 100, 100 * c * 1000 }' "$tmp/cost"
awk '{ d += $2 - $1; n += $3 } END {
	c = d / n
	printf "  ptrace: cost of a tick in the program'"'"'s wall time (1 kHz): %.1f us, so %.2f%% at 100 Hz and %.2f%% at 1 kHz\n", 1e6 * c, 100 * c * 100, 100 * c * 1000 }' "$tmp/ptcost"
for iv in 10ms 1ms; do
	awk -v iv="$iv" '$1 == iv { o = $3 / $2 - 1; s += o; s2 += o * o; k++; p += $2; w += $3 }
	END {
		m = s / k; sd = k > 1 ? sqrt((s2 - s * s / k) / (k - 1)) : 0
		hz = iv == "10ms" ? "100 Hz" : "1 kHz"
		printf "  %-7s a %.1f s program: %.3f s profiled: overhead %+.2f%% (sd %.2f%% over %d rounds; target <= 1%%)\n", hz, p / k, w / k, 100 * m, 100 * sd, k
		if (sd > 0.01)
			printf "          (run-to-run noise here, sd %.1f%%, hides a 1%% effect: the per-sample cost above is the figure)\n", 100 * sd
	}' "$tmp/rows"
done
echo "per-nest CPU time, sampled at 1 kHz against the program's clock_gettime:"
awk '$1 == "1ms" { for (k = 0; k < 2; k++) { t = $(5 + k); x = $(7 + k); e = x / t - 1; e = e < 0 ? -e : e; a[k] += e; n[k]++; if (e > mx[k]) mx[k] = e; tt[k] += t } }
END { for (k = 0; k < 2; k++) printf "  nest %s  %6.3f s  mean |error| %.2f%%, worst %.2f%% over %d runs (target <= 2%%)\n", k ? "B" : "A", tt[k] / n[k], 100 * a[k] / n[k], 100 * mx[k], n[k] }' "$tmp/rows"

# the RR-8416 examples at -O0 against a paper-style table of this machine
"$E" calibrate --style paper --freqs current -m none -q -o "$tmp/paper.xml" >/dev/null 2>"$tmp/err" || {
	cat "$tmp/err"
	exit 1
}
echo "epi-validate: predicted against sampled CPU time, RR-8416's examples at -O0, table calibrated here (--style paper):"
for x in "selection_sort 20000" "weighted_means 2000" "scalar_product 2000"; do
	set -- $x
	cc -O0 -g -o "$tmp/$1" "$top/data/examples/$1.c"
	"$E" profile -n 3 -m none -q -o "$tmp/$1.trace" -- "$tmp/$1" "$2" >/dev/null 2>&1
	"$E" validate "$top/data/examples/$1.c" -a "$tmp/$1.trace" -t "$tmp/paper.xml" -P "n=$2" -F csv >"$tmp/v.csv"
	awk -F'",' -v name="$1 n=$2" '
	NR > 1 { split($2, f, ",")
		if (f[1] == "loop" && f[11] != "") { e = f[11] < 0 ? -f[11] : f[11]; s += e; k++; if (f[12] == "yes") in_++ }
		if (f[1] == "program") pe = f[11] }
	END { printf "  %-22s loop nests: mean |error| %5.1f%% over %d (%d inside the 95%% interval); program %+.1f%%\n", name, 100 * s / k, k, in_, 100 * pe }' "$tmp/v.csv"
done
