#!/bin/sh
# make bench: figures for epi-predict.
#  1. analysis time of a generated file with 2,000 loop nests, next to
#     clang -fsyntax-only on the same file (target: at most 1.5x)
#  2. the compiled-code model on the same file built once with -O2 -g
#     (what `-- -O2` builds, timed apart), priced from its object; and
#     what `-- -O2` adds to a build (the build emulated: below)
#  3. evaluation at n = 10 and n = 10^6 (symbolic: the same time)
#  4. one function of growing length (the walk grows with it, not its square)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
P="$top/bin/epi-predict"
CLANG=${CLANG:-clang-19}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# wall time in seconds of one run of a command
wall() {
	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	e=$(date +%s.%N)
	echo "$s $e" | awk '{ printf "%.4f\n", $2 - $1 }'
}

# median wall time in seconds of RUNS runs of a command
median() {
	runs=$1
	shift
	i=0
	while [ $i -lt "$runs" ]; do
		wall "$@"
		i=$((i + 1))
	done | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

# "median min max" of column C of FILE
stats() {
	cut -d' ' -f"$2" "$1" | sort -n |
		awk '{ a[NR] = $1 } END { printf "%.3f %.3f %.3f\n", a[int((NR + 1) / 2)], a[1], a[NR] }'
}

sh "$top/evals/gen-nests.sh" 2000 >"$tmp/nests.c"
lines=$(wc -l <"$tmp/nests.c")
build=$(wall "$CLANG" -O2 -g -c "$tmp/nests.c" -o "$tmp/nests.o")
# the four commands in turn, RUNS times, so that the machine's noise
# (large on a shared VM) falls on all of them alike
RUNS=${RUNS:-15}
i=0
while [ $i -lt "$RUNS" ]; do
	echo "$(wall "$CLANG" -fsyntax-only "$tmp/nests.c") $(wall "$P" "$tmp/nests.c")" \
		"$(wall "$P" "$tmp/nests.c" --param n=1000 --param m=500 --format csv)" \
		"$(wall "$P" "$tmp/nests.c" --binary "$tmp/nests.o")"
	i=$((i + 1))
done >"$tmp/times"
set -- $(stats "$tmp/times" 4)
compiled="$1 $2 $3"
set -- $(stats "$tmp/times" 1) $(stats "$tmp/times" 2) $(stats "$tmp/times" 3)
echo "analysis of 2,000 loop nests ($lines lines of C), median of $RUNS runs (min-max):"
printf '  %-44s %8.3f s  (%s-%s)\n' "$CLANG -fsyntax-only" "$1" "$2" "$3"
printf '  %-44s %8.3f s  (%s-%s)  %.2fx, target <= 1.5x\n' "epi-predict (formulas)" "$4" "$5" "$6" \
	"$(echo "$4 $1" | awk '{ print $1 / $2 }')"
printf '  %-44s %8.3f s  (%s-%s)  %.2fx\n' "epi-predict --param n=1000 m=500 --format csv" "$7" "$8" "$9" \
	"$(echo "$7 $1" | awk '{ print $1 / $2 }')"
syntax=$1
set -- $compiled
printf '  %-44s %8.3f s  (%s-%s)  %.2fx, target <= 1.5x besides the build\n' \
	"epi-predict --binary (compiled-code model)" "$1" "$2" "$3" "$(echo "$1 $syntax" | awk '{ print $1 / $2 }')"
printf '  %-44s %8.3f s  (once)\n' "$CLANG -O2 -g -c (the build)" "$build"

# epi-predict -- -O2 with a compiler that takes WAIT seconds and gives the
# object built above: its wall time less WAIT is what the model adds to a
# build (the analysis runs during it)
WAIT=2
cat >"$tmp/cc" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do [ "\$1" = -o ] && out=\$2; shift; done
sleep $WAIT
cp "$tmp/nests.o" "\$out"
EOF
chmod +x "$tmp/cc"
i=0
while [ $i -lt "${BRUNS:-5}" ]; do
	wall env EPI_CC="$tmp/cc" "$P" "$tmp/nests.c" -- -O2 | awk -v w=$WAIT '{ printf "%.4f\n", $1 - w }'
	i=$((i + 1))
done >"$tmp/beyond"
set -- $(stats "$tmp/beyond" 1)
printf '  %-44s %8.3f s  (%s-%s)  %.2fx, target <= 1.5x\n' "epi-predict -- -O2, beyond the build" "$1" "$2" "$3" \
	"$(echo "$1 $syntax" | awk '{ print $1 / $2 }')"

ex="$top/data/examples/selection_sort.c"
t10=$(median 5 "$P" "$ex" --param n=10)
t6=$(median 5 "$P" "$ex" --param n=1000000)
t12=$(median 5 "$P" "$ex" --param n=1000000000000)
echo "selection sort, evaluated exactly:"
printf '  %-44s %8.3f s\n' "n = 10" "$t10" "n = 10^6" "$t6" "n = 10^12" "$t12"

# growth GEN RUNS N...: epi-predict and clang-19 -fsyntax-only on the file
# evals/GEN.sh writes for each N, medians of RUNS runs
growth() {
	gen=$1 runs=$2
	shift 2
	for n in "$@"; do
		sh "$top/evals/$gen.sh" $n >"$tmp/$gen$n.c"
		tc=$(median "$runs" "$CLANG" -fsyntax-only "$tmp/$gen$n.c")
		tp=$(median "$runs" "$P" "$tmp/$gen$n.c")
		printf '  %-44s %8.3f s  (%s -fsyntax-only %.3f s: %.2fx)\n' "N = $n" "$tp" "$CLANG" "$tc" \
			"$(echo "$tp $tc" | awk '{ print $1 / $2 }')"
	done
}

# one long function: a walk that scanned the function once per variable
# read grew with the square of its length
echo "one function of N blocks (local, guard, loop: 4N lines), median of 5 runs:"
growth gen-long 5 200 400 800 1600

# a chain of calls: a search of the file's functions by name at each call
# grew with the square of their number
echo "N functions, each calling the next (evals/gen-chain.sh), median of 3 runs:"
growth gen-chain 3 1000 2000 4000 8000
