#!/bin/sh
# make accuracy: how well the predicted time of each loop nest agrees with
# the sampled time, per compiler and optimisation level. For each kernel of
# evals/kernels/, each compiler (gcc, and clang-19 when installed) and each
# level (-O0, -O2): build with -g, profile with epi profile (time only: no
# meter), compare with epi validate against a cost table of this machine,
# and print per loop nest the predicted and sampled times and the relative
# error (predicted / sampled - 1), then the mean absolute error per compiler
# and level. A benchmark that prints figures, not a test: it fails only when
# nothing at all could be compared.
#
# Environment:
#   KERNELS="gemm jacobi-2d"  a subset (default: every evals/kernels/*.c)
#   CCS="gcc clang-19"        compilers (default: gcc, and clang-19 if installed)
#   LEVELS="-O0 -O2"          optimisation levels (default: -O0 -O2)
#   TABLE=FILE                the cost table (default: build/accuracy/table.xml,
#                             calibrated at the start of each run with epi
#                             calibrate --freqs current, the last run's kept as
#                             table.xml.old; TABLE=build/accuracy/table.xml
#                             reuses it)
#   MODEL=NAME                passed to epi validate as --model NAME; when
#                             not set, the default model (the compiled code's)
#                             and the source-level model (--model source) side
#                             by side, on the same profiles
#   RUNS=N                    profiled runs of each build (default 3)
#   MIN_SAMPLES=N             nests with fewer samples are printed but left out
#                             of the means (default 30)
# Output: the table on stdout, progress on stderr, the rows as CSV in
# build/accuracy/results.csv, each build's files in build/accuracy/work/.
# Each row carries its build's runs_spread (the standard deviation of its
# runs' times over their mean; empty with one run), and each mean is also
# given over the nests of builds whose runs agree within 5%: on a machine
# shared with other work, the error that the model can answer for.
set -u
WHO=accuracy
. "$(dirname "$0")/lib.sh"
E="$top/bin/epi"
work="$out/work"
RUNS=${RUNS:-3}
MIN_SAMPLES=${MIN_SAMPLES:-30}
MODEL=${MODEL:-}

[ -x "$E" ] || die "no $E: run make first"
mkdir -p "$work" || die "cannot create $work"

# the kernels' sizes at -O2, where they run faster: NAME=VALUE pairs that
# replace the defaults of the kernel's source (the values of its argv)
o2_sizes() {
	case $1 in
	3mm) echo n=500 ;;
	adi) echo n=600 tsteps=100 ;;
	atax) echo n=2000 reps=140 ;;
	bicg) echo n=2000 reps=210 ;;
	colmeans) echo n=1000 m=1024 reps=130 ;;
	count_above) echo n=1000000 reps=1000 ;;
	covariance) echo n=900 ;;
	doitgen) echo n=190 ;;
	dot) echo n=100000 reps=6000 ;;
	durbin) echo n=2000 reps=200 ;;
	fdtd-2d) echo n=1000 tsteps=480 ;;
	floyd-warshall) echo n=1000 ;;
	gemm) echo n=800 ;;
	gemver) echo n=2000 reps=75 ;;
	gesummv) echo n=2000 reps=240 ;;
	gramschmidt) echo n=920 ;;
	heat-3d) echo n=80 tsteps=250 ;;
	histogram) echo n=1000000 reps=1200 ;;
	imatmul) echo n=800 ;;
	jacobi-1d) echo n=100000 tsteps=5000 ;;
	jacobi-2d) echo n=500 tsteps=1000 ;;
	lu) echo n=1300 ;;
	ludcmp) echo n=1300 ;;
	mvt) echo n=2000 reps=100 ;;
	nussinov) echo n=1500 ;;
	prefix_sum) echo n=1000000 reps=600 ;;
	sumsq) echo n=100000 reps=6000 ;;
	symm) echo n=1400 ;;
	syr2k) echo n=1300 ;;
	syrk) echo n=900 ;;
	syrk-col) echo n=1200 m=1000 ;;
	triad) echo n=16000000 reps=20 ;;
	trisolv) echo n=2000 reps=300 ;;
	esac
}

# NAME=VALUE for each size the kernel's main reads from argv, in argv order:
# its lines `int NAME = argc > K ? atoi(argv[K]) : DEFAULT;`, the defaults
# replaced at -O2 by o2_sizes
sizes() {
	over=""
	[ "$2" = -O2 ] && over=$(o2_sizes "$1")
	sed -n 's/.*int \([A-Za-z_][A-Za-z_0-9]*\) = argc > \([0-9]*\) ? atoi(argv\[[0-9]*\]) : \([0-9]*\);.*/\2 \1 \3/p' "$kdir/$1.c" |
		sort -n | awk -v over="$over" '
		BEGIN { k = split(over, o, " "); for (i = 1; i <= k; i++) { split(o[i], nv, "="); v[nv[1]] = nv[2] } }
		{ val = $3; if ($2 in v) val = v[$2]; printf "%s%s=%s", (NR > 1 ? " " : ""), $2, val }'
}

# the default operations that the table at $1 lacks, on one line; and
# "L3-reach" when its L3 is larger than the L3 kernels' buffer takes
# (4 x L2, at least 8 MiB, as half of it) and the table does not say what
# L3 serves (it was calibrated before epi measured it)
lacking() {
	ops=$("$E" calibrate --list 2>/dev/null | awk 'NR > 1 { print $1 }' | while read -r op; do
		grep -q "<op name=\"$op\"" "$1" || printf '%s ' "$op"
	done)
	reach=$(sed -n 's/.*<cache level="\([23]\)" bytes="\([0-9]*\)"\(.*\)\/>.*/\1 \2 \3/p' "$1" | awk '
		$1 == 2 { l2 = $2 } $1 == 3 { l3 = $2; serves = ($3 ~ /serves=/) }
		END { cap = 4 * l2; if (cap < 8388608) cap = 8388608; if (l3 / 2 > cap && !serves) print "L3-reach" }')
	echo "$ops$reach" | sed 's/ $//'
}

# the cost table: TABLE, or one calibrated here at the start of the run, as
# the README advises (a table and the profiles it prices taken in the same
# hour: a machine's state moves, a shared VM's most), written under another
# name first so that an interrupted calibration is not taken for a table;
# the last run's kept beside it, and what the calibration warns of said
if [ -n "${TABLE:-}" ]; then
	[ -r "$TABLE" ] || die "cannot read the cost table '$TABLE'"
	table=$TABLE
	miss=$(lacking "$table")
	[ -z "$miss" ] || say "warning: $table lacks operations the model uses ($miss): it falls back without them"
else
	table="$out/table.xml"
	if [ -s "$table" ]; then
		mv "$table" "$table.old" || die "cannot move $table aside"
	fi
	say "calibrating this machine (epi calibrate --freqs current), into $table (TABLE=FILE reuses a table)"
	"$E" calibrate --freqs current -q -o "$out/table.part.xml" >"$out/calibrate.log" 2>&1 ||
		die "calibration failed (see $out/calibrate.log): $(tail -1 "$out/calibrate.log")"
	mv "$out/table.part.xml" "$table" || die "cannot write $table"
	sed -n 's/^epi calibrate: warning: //p' "$out/calibrate.log" | grep -v '^no energy meter' |
		while IFS= read -r w; do say "the calibration warns: $w"; done
fi

model_opt=""
[ -n "$MODEL" ] && model_opt="--model $MODEL"
# the results, one row per loop nest; failures, one line per build
res="$out/results.csv"
echo "kernel,compiler,level,params,line,function,samples,pred_time_s,time_s,time_error,source_pred_time_s,source_time_error,runs_spread" >"$res.part"
fails="$out/failures.txt"
: >"$fails"

start=$(date +%s)
for k in $KERNELS; do
	src="$kdir/$k.c"
	for cc in $CCS; do
		for lv in $LEVELS; do
			step=$((step + 1))
			tag="$k $cc $lv"
			w="$work/$k-$cc$lv"
			rm -rf "$w"
			mkdir -p "$w"
			params=""
			[ -r "$src" ] && params=$(sizes "$k" "$lv")
			build_kernel "profile (runs: $RUNS), validate" || continue
			# $args unquoted: the sizes are separate arguments
			if ! "$E" profile -n "$RUNS" -m none -q -o "$w/trace" -- "$w/$k" $args >"$w/profile.txt" 2>"$w/profile.err"; then
				fail "profile failed: $(reason "$w/profile.err")"
				continue
			fi
			if ! "$E" validate "$src" --against "$w/trace" --table "$table" $popts $model_opt --format csv \
				-o "$w/validate.csv" -- -std=c11 $lv >"$w/validate.err" 2>&1; then
				fail "validate failed: $(reason "$w/validate.err")"
				continue
			fi
			# the source-level model on the same profile, beside
			: >"$w/source.csv"
			if [ -z "$MODEL" ] && ! "$E" validate "$src" --against "$w/trace" --table "$table" $popts --model source \
				--format csv -o "$w/source.csv" -- -std=c11 $lv >"$w/source.err" 2>&1; then
				say "[$step/$total] $tag: the source-level model failed: $(reason "$w/source.err")"
			fi
			# how far apart the runs' times were: their standard
			# deviation over their mean (empty with one run)
			spread=$("$E" profile --report "$w/trace" -F json 2>/dev/null | awk -F': ' '
				$1 == "  \"time_s\"" { t = $2 + 0 } $1 == "  \"time_sd_s\"" { sd = $2 }
				END { sub(/,$/, "", sd); if (sd != "" && sd != "null" && t > 0) printf "%.4f", sd / t }')
			# the loop rows: block is quoted, the other columns plain
			# (by name: with MODEL set the source-level file is empty)
			awk -F'",' -v k="$k" -v cc="$cc" -v lv="$lv" -v p="$params" -v src="$w/source.csv" -v sp_="$spread" '
				FNR == 1 { next }
				{ split($2, f, ",") }
				f[1] != "loop" { next }
				FILENAME == src { sp[f[3]] = f[6]; se[f[3]] = f[11]; next }
				{ printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", k, cc, lv, p, f[3], f[2], f[5], f[6], f[8], f[11], sp[f[3]], se[f[3]], sp_ }' \
				"$w/source.csv" "$w/validate.csv" >"$w/rows.csv"
			if [ ! -s "$w/rows.csv" ]; then
				fail "epi validate reported no loop nest"
				continue
			fi
			if awk -F, '{ n += $7 } END { exit n > 0 }' "$w/rows.csv"; then
				say "[$step/$total] $tag: warning: no sample fell in a loop nest (see $w/profile.txt)"
				echo "$tag: warning: no sample fell in a loop nest" >>"$fails"
			fi
			cat "$w/rows.csv" >>"$res.part"
		done
	done
done
mv "$res.part" "$res"
secs=$(($(date +%s) - start))

cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
echo "predicted against sampled time per loop nest: $(date +%Y-%m-%d), ${cpu:-unknown CPU}, table $table"
echo "profiled runs per build: $RUNS; error = predicted / sampled - 1; * fewer than $MIN_SAMPLES samples, left out of the means"
awk -F, -v min="$MIN_SAMPLES" '
function pct(x) { return x == "" ? "-" : sprintf("%+.1f%%", 100 * x) }
NR == 1 { printf "  %-15s %-9s %-4s %-22s %-18s %7s %12s %12s %8s\n", "kernel", "compiler", "", "sizes", "nest (line)", "samples", "predicted", "sampled", "error"; next }
{
	few = ($7 + 0 < min || $10 == "")
	printf "  %-15s %-9s %-4s %-22s %-18s %7d %10.4g s %10.4g s %8s%s\n", $1, $2, $3, $4, $5 " " $6 "()", $7, $8, $9, pct($10), few ? " *" : ""
	g = $2 " " $3
	if (!(g in seen)) { seen[g] = 1; order[++ng] = g }
	row = $1 SUBSEP $5 " " $6 "()"
	if (!(row in rowseen)) { rowseen[row] = 1; rows[++nr] = row }
	if (few) { left[g]++; next }
	shown[row] = 1
	cell[row, g] = pct($10)
	e = $10 < 0 ? -$10 : $10
	sum[g] += e; n[g]++; pt[g] += $8; st[g] += $9
	if ($13 != "" && $13 + 0 < 0.05) { qsum[g] += e; qn[g]++ }
	if ($12 != "") { es = $12 < 0 ? -$12 : $12; ssum[g] += es; sn[g]++ }
}
END {
	# the same errors as a matrix: a row per nest, a column per compiler and level
	printf "\nerror per nest with %d samples or more, by compiler and level:\n  %-15s %-20s", min, "kernel", "nest (line)"
	for (i = 1; i <= ng; i++)
		printf " %13s", order[i]
	printf "\n"
	for (r = 1; r <= nr; r++) {
		if (!shown[rows[r]])
			continue
		split(rows[r], rk, SUBSEP)
		printf "  %-15s %-20s", rk[1], rk[2]
		for (i = 1; i <= ng; i++)
			printf " %13s", ((rows[r], order[i]) in cell) ? cell[rows[r], order[i]] : "-"
		printf "\n"
	}
	print "mean absolute error per compiler and level:"
	for (i = 1; i <= ng; i++) {
		g = order[i]
		if (n[g]) {
			printf "  %-14s %6.1f%% over %d nest%s (%d left out); together: predicted %.3g s, sampled %.3g s (%+.1f%%)", g, 100 * sum[g] / n[g], n[g], (n[g] > 1 ? "s" : ""), left[g], pt[g], st[g], 100 * (pt[g] / st[g] - 1)
			if (sn[g])
				printf "; source-level model %.1f%%", 100 * ssum[g] / sn[g]
			printf "\n"
			printf "  %-14s %6s  the nests of builds whose runs agree within 5%% (their standard deviation): ", "", ""
			if (qn[g])
				printf "%.1f%% over %d\n", 100 * qsum[g] / qn[g], qn[g]
			else
				printf "none\n"
		}
		else
			printf "  %-14s no nest with %d samples or more\n", g, min
	}
}' "$res"
if [ -s "$fails" ]; then
	echo "skipped or suspect ($(wc -l <"$fails") of $total):"
	sed 's/^/  /' "$fails"
fi
echo "builds: $total in ${secs} s; rows in $res"
say "done in ${secs} s"
ok=$(($(wc -l <"$res") - 1))
[ "$ok" -gt 0 ] || die "no loop nest was compared"
