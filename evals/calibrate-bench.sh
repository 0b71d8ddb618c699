#!/bin/sh
# make bench: figures for epi-calibrate.
#  1. wall time to calibrate every operation at one frequency to 1%
#     (target: at most 60 s; RR-8416 took about 1.7 h per frequency)
#  2. cycles per operation of the latency kernels next to the latencies
#     documented for this CPU (Agner Fog's instruction tables, uops.info,
#     the vendors' optimisation guides); target: within 10% of the
#     documented value or range
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
C="$top/bin/epi-calibrate"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

s=$(date +%s.%N)
"$C" --freqs current --meter none --precision 0.01 -q -o "$tmp/t.xml" -F csv >"$tmp/t.csv" 2>"$tmp/err" || {
	cat "$tmp/err"
	exit 1
}
e=$(date +%s.%N)
n=$(tail -n +2 "$tmp/t.csv" | awk -F, '$15 == ""' | wc -l)
conv=$(tail -n +2 "$tmp/t.csv" | awk -F, '$15 == "" && $12 < 30' | wc -l)
echo "calibration of every operation at one frequency, time only (--meter none), precision 1%:"
printf '  %-44s %8.1f s  (target <= 60 s; %d operations, %d reached 1%% before 30 runs)\n' \
	"epi-calibrate --freqs current" "$(echo "$s $e" | awk '{ print $2 - $1 }')" "$n" "$conv"

# documented latencies (cycles): lo hi per kernel, by CPU
vendor=$(sed -n 's/^vendor_id[[:space:]]*: //p' /proc/cpuinfo | head -1)
family=$(sed -n 's/^cpu family[[:space:]]*: //p' /proc/cpuinfo | head -1)
case "$vendor/$family" in
AuthenticAMD/25) cpu="AMD Zen 3/4"
	doc="add.i64.lat 1 1
mul.i64.lat 3 3
add.f64.lat 3 3
mul.f64.lat 3 3
div.f64.lat 13 15
div.i64.lat 10 18
load.l1.lat 4 5" ;;
AuthenticAMD/26) cpu="AMD Zen 5" # family 1Ah: its FP adder takes 2 cycles, Zen 4's 3
	doc="add.i64.lat 1 1
mul.i64.lat 3 3
add.f64.lat 2 2
mul.f64.lat 3 3
div.f64.lat 13 15
div.i64.lat 10 18
load.l1.lat 4 5" ;;
AuthenticAMD/23) cpu="AMD Zen 1/2"
	doc="add.i64.lat 1 1
mul.i64.lat 3 3
add.f64.lat 3 3
mul.f64.lat 3 4
div.f64.lat 8 13
div.i64.lat 14 46
load.l1.lat 4 5" ;;
GenuineIntel/6) cpu="Intel Core (Skylake and later)"
	doc="add.i64.lat 1 1
mul.i64.lat 3 3
add.f64.lat 4 4
mul.f64.lat 4 4
div.f64.lat 13 15
div.i64.lat 14 95
load.l1.lat 4 5" ;;
*) cpu="" doc="" ;;
esac
echo "latency kernels, cycles per operation (time x effective frequency) against the documented latency:"
if [ -z "$cpu" ]; then
	echo "  no documented latencies for $vendor family $family here; measured:"
	awk -F, '$4 ~ /\.lat$/ { printf "  %-14s %8.2f\n", $4, $8 }' "$tmp/t.csv"
	exit 0
fi
echo "$doc" | while read -r k lo hi; do
	awk -F, -v k="$k" -v lo="$lo" -v hi="$hi" -v cpu="$cpu" '$4 == k {
		ok = $8 >= 0.9 * lo && $8 <= 1.1 * hi
		d = lo == hi ? lo : lo "-" hi
		printf "  %-14s %8.2f   documented %-6s (%s)  %s\n", k, $8, d, cpu, ok ? "within 10%" : "OUTSIDE 10%"
	}' "$tmp/t.csv"
done
