#!/bin/sh
# styles.sh [TABLE]: the kernels of evals/styles/, written as other people
# write them (rows through double **, flat i * n + j arrays, sizes from
# argv, a repetition loop in main), each built by gcc at -O0 and -O2 with
# -g, profiled (epi profile -n 3) and validated against its trace as a
# user would (epi validate SOURCE --against TRACE --table T --param ...
# -- FLAGS): predicted against sampled time of the kernel's loop nests (30
# samples or more), and the mean absolute error per level. Their sizes are
# in evals/styles/sizes.txt (0.5-1.5 s runs on a 3.7 GHz Zen 4). TABLE: a
# cost table; without it, one calibrated here (--freqs current), the
# profiles' hour's. Results in build/styles/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
E="$top/bin/epi"
sdir="$top/evals/styles"
out="$top/build/styles"
mkdir -p "$out"
say() { echo "styles: $*" >&2; }
table=${1:-}
if [ -z "$table" ]; then
	table="$out/table.xml"
	say "calibrating this machine (epi calibrate --freqs current), into $table"
	"$E" calibrate --freqs current -q -o "$table" >"$out/calibrate.log" 2>&1 ||
		{ say "calibration failed: $(tail -1 "$out/calibrate.log")"; exit 1; }
fi
[ -r "$table" ] || { say "cannot read the cost table '$table'"; exit 1; }
: >"$out/rows.csv"
while read -r k lv ps; do
	w="$out/$k$lv"
	mkdir -p "$w"
	say "$k $lv ($ps): build, profile, validate"
	if ! gcc -g "$lv" "$sdir/$k.c" -o "$w/$k" -lm 2>"$w/build.log"; then
		say "$k $lv: build failed: $(head -1 "$w/build.log")"
		continue
	fi
	args=$(for p in $ps; do printf ' %s' "${p#*=}"; done)
	# shellcheck disable=SC2086
	if ! "$E" profile -n 3 -m none -q -o "$w/trace" -- "$w/$k" $args >"$w/profile.txt" 2>"$w/profile.err"; then
		say "$k $lv: profile failed: $(tail -1 "$w/profile.err")"
		continue
	fi
	po=$(for p in $ps; do printf ' --param %s' "$p"; done)
	# shellcheck disable=SC2086
	if ! "$E" validate "$sdir/$k.c" --against "$w/trace" --table "$table" $po --format csv -o "$w/validate.csv" \
		-- -g $lv -lm >"$w/validate.err" 2>&1; then
		say "$k $lv: validate failed: $(tail -1 "$w/validate.err")"
		continue
	fi
	# the rows of kind loop: block (quoted), kind, function, line, GHz,
	# samples, predicted s, predicted J, measured s
	awk -F'",' -v k="$k" -v lv="$lv" 'FNR == 1 { next } { split($2, f, ",") }
		f[1] == "loop" && f[2] != "main" { printf "%s,%s,%s,%s,%s,%s,%s\n", k, lv, f[2], f[3], f[5], f[6], f[8] }' \
		"$w/validate.csv" >>"$out/rows.csv"
done <"$sdir/sizes.txt"
echo "kernel's loop nests against their sampled time (30 samples or more):"
awk -F, '$5 >= 30 && $7 > 0 { e = $6 / $7 - 1; printf "  %-14s %s %-12s line %-4s predicted %8.4f s  sampled %8.4f s  %+6.1f%%\n",
		$1, $2, $3, $4, $6, $7, 100 * e
		a = e < 0 ? -e : e; s[$2] += a; n[$2]++ }
	END { for (lv in s) printf "mean absolute error at %s: %.1f%% over %d nests\n", lv, 100 * s[lv] / n[lv], n[lv] }' \
	"$out/rows.csv"
