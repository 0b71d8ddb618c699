#!/bin/sh
# make accuracy, second part: the compiled-code model's executed machine
# instructions against valgrind's exact count (callgrind), per kernel of
# evals/kernels/, compiler (gcc, and clang-19 when installed) and level
# (-O0, -O2). Each build is made with -g and -fno-inline (as tests/mcode.sh
# does): without inlining each function of the file stays a function of its
# own, whose instructions callgrind counts apart. It runs under callgrind
# at small sizes, and epi-predict --binary counts the same program's
# instructions at the same sizes.
#
# What is compared: the instructions of every function of the kernel's file
# except main (the kernel, and its helpers: mm and mm3, heat_3d and sweep),
# their own instructions, not their callees'; gcc's clones of them
# (FN.constprop.0, FN.isra.0, FN.part.0, FN.cold) included. main is left
# out: its `argc > K ? atoi(argv[K]) : DEFAULT` and `if (!p) return 1`
# are branches the model takes with probability 0.5 and the runs always
# one way, so its count says nothing exact.
#
# Sizes: the defaults of the kernel's main (its lines `int NAME = argc > K ?
# atoi(argv[K]) : DEFAULT;`), all scaled down by one factor so that the
# source-level count of the functions' operations (epi-predict --model
# source) is about OPS; the factor comes from the count at the defaults and
# at half of them (the count's degree in the sizes), no size below 2. A
# kernel added later needs no entry anywhere.
#
# Data-dependent branches: the model takes a branch it cannot count, such
# as an `if` the data decides, to run with probability 0.5 (--branch-prob),
# so its count may rightly differ from the run's there. Each build is also
# counted at --branch-prob 0 and 1 (the model's range, printed). Marks:
#   d  the count moves with the probability and the functions' source has
#      a conditional (if, ?:, &&, ||, switch): a branch on the data; printed,
#      left out of the 2% summary
#   g  the count moves with the probability though the source has no
#      conditional: a branch of the compiled code that the sizes decide
#      (clang's guards around its vector and remainder loops), which the
#      model prices at the probability; held to the 2% like the others
# A build whose source has a conditional but whose code does not branch on
# it (cmov, max: the count does not move) is not marked either.
#
# Environment:
#   KERNELS, CCS, LEVELS   as for evals/accuracy.sh
#   TABLE=FILE             the cost table (default: build/accuracy/table.xml
#                          when there is one, else data/rr8416-q6600.xml;
#                          the counts do not depend on the costs)
#   OPS=N                  the source-level operations the sizes are scaled
#                          to (default 10000000)
# Output: the table on stdout, progress on stderr, the rows as CSV in
# build/accuracy/counts.csv, each build's files in build/accuracy/counts/.
# A benchmark that prints figures: it fails only when nothing at all could
# be compared.
set -u
WHO=counts
. "$(dirname "$0")/lib.sh"
P="$top/bin/epi-predict"
work="$out/counts"
OPS=${OPS:-10000000}

[ -x "$P" ] || die "no $P: run make first"
command -v valgrind >/dev/null 2>&1 || die "no valgrind: it is among the packages of make deps"
command -v python3 >/dev/null 2>&1 || die "no python3: it is among the packages of make deps"
mkdir -p "$work" || die "cannot create $work"

# the cost table: the counts do not depend on it, any table will do (one
# without the compiled-code model's kernels prices them from others)
if [ -n "${TABLE:-}" ]; then
	[ -r "$TABLE" ] || die "cannot read the cost table '$TABLE'"
	table=$TABLE
elif [ -s "$out/table.xml" ]; then
	table="$out/table.xml"
else
	table="$top/data/rr8416-q6600.xml"
fi

# the helpers, in python3 (a dependency already):
#   ops JSON              the source-level operations of the functions other
#                         than main, in epi-predict's JSON
#   compare CG PROG SRC J J0 J1
#                         callgrind's instructions (file CG, program PROG) of
#                         the functions the model reports, other than main,
#                         against the model's (JSON at --branch-prob 0.5, 0,
#                         1): "FUNCTIONS MODEL MIN MAX CALLGRIND MARK"
# callgrind's file is read directly: the self cost of each function of the
# program's object, the cost lines after calls= (a callee's) left out
helper='
import json, os, re, sys

def functions(path, all=False):
    d = json.load(open(path))
    return {r["function"]: r for r in d["regions"] if r["scope"] == "function" and (all or r["function"] != "main")}

# cob= names objects as ob= does, cfn= functions, fi= fe= cfi= cfl= files
kinds = {"ob": "ob", "cob": "ob", "fn": "fn", "cfn": "fn", "fl": "fl", "fi": "fl", "fe": "fl", "cfi": "fl", "cfl": "fl"}

def callgrind(path, prog):
    prog = os.path.realpath(prog)
    names = {}
    cost = {}
    ob = fn = None
    skip = False
    for line in open(path):
        line = line.rstrip("\n")
        key, eq, val = line.partition("=")
        if eq and key in kinds:
            table = names.setdefault(kinds[key], {})
            if val.startswith("("):
                i, _, name = val[1:].partition(")")
                name = name.strip()
                if name:
                    table[i] = name
                val = table.get(i, "")
            if key == "ob":
                ob = val
            elif key == "fn":
                fn = val
            continue
        if line.startswith("calls="):
            skip = True
            continue
        if line[:1].isdigit() or line[:1] in "+-*":
            if skip:
                skip = False
                continue
            f = line.split()
            if len(f) > 1 and ob and os.path.realpath(ob) == prog:
                cost[fn] = cost.get(fn, 0) + int(f[1])
    return cost

# whether the text of the functions (but main) has a conditional: if, ?:,
# &&, ||, switch; a function runs from its line to where the next one starts
def conditional(src, j):
    text = re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group(0)), open(src).read(), flags=re.S)
    lines = text.split("\n")
    starts = sorted((r["line"], name) for name, r in functions(j, True).items())
    for i, (start, name) in enumerate(starts):
        end = starts[i + 1][0] - 1 if i + 1 < len(starts) else len(lines)
        if name != "main" and re.search(r"\b(if|switch)\b|\?|&&|\|\|", "\n".join(lines[start - 1:end])):
            return True
    return False

if sys.argv[1] == "ops":
    print(sum(o["count"] or 0 for r in functions(sys.argv[2]).values() for o in r["ops"]))
    sys.exit(0)
cg, prog, src, j, j0, j1 = sys.argv[2:8]
f = functions(j)
# the own instructions of each function over the run (its region is one
# call, its callees included)
model = sum(r["self_instructions"] for r in f.values())
ends = [sum(r["self_instructions"] for r in functions(x).values()) for x in (j0, j1)]
cost = callgrind(cg, prog)
# a function and its clones: FN, FN.constprop.0, FN.cold, ...
got = sum(c for name, c in cost.items() if name.split(".")[0] in f)
moves = any(abs(e - model) > 1e-6 * model for e in ends)
mark = "-" if not moves else "d" if conditional(src, j) else "g"
print("+".join(sorted(f)), round(model), round(min(ends + [model])), round(max(ends + [model])), got, mark)
'
py() { python3 -c "$helper" "$@"; }

# NAME DEFAULT for each size the kernel's main reads from argv, in argv order
defaults() {
	sed -n 's/.*int \([A-Za-z_][A-Za-z_0-9]*\) = argc > \([0-9]*\) ? atoi(argv\[[0-9]*\]) : \([0-9]*\);.*/\2 \1 \3/p' "$1" |
		sort -n | awk '{ print $2, $3 }'
}
# NAME=VALUE pairs: the defaults (file DEFS) times FACTOR, no value below 2
scaled() { # DEFS FACTOR
	awk -v f="$2" '{ v = int($2 * f); if (v < 2) v = 2; printf "%s%s=%s", (NR > 1 ? " " : ""), $1, v }' "$1"
}
# the source-level operations of the kernel's functions at sizes NAME=VALUE...
ops() { # SOURCE NAME=VALUE...
	s=$1
	shift
	o=$(for p in "$@"; do printf ' --param %s' "$p"; done)
	# shellcheck disable=SC2086
	"$P" "$s" --model source --table "$table" $o -F json >"$w0/ops.json" 2>"$w0/ops.err" &&
		py ops "$w0/ops.json"
}
# the sizes of kernel K for a count of about OPS operations (see the header)
small_sizes() { # K
	src="$kdir/$1.c"
	defaults "$src" >"$w0/defaults"
	[ -s "$w0/defaults" ] || return 1
	# shellcheck disable=SC2046
	c0=$(ops "$src" $(scaled "$w0/defaults" 1))
	# shellcheck disable=SC2046
	c1=$(ops "$src" $(scaled "$w0/defaults" 0.5))
	if [ -z "$c0" ] || [ -z "$c1" ]; then
		say "$1: the source-level model cannot count it ($(tail -1 "$w0/ops.err")): the defaults / 8"
		scaled "$w0/defaults" 0.125
		return 0
	fi
	f=$(awk -v a="$c0" -v b="$c1" -v t="$OPS" 'BEGIN {
		if (a <= t) { print 1; exit }
		p = (b > 0 && a > b) ? log(a / b) / log(2) : 1
		if (p < 1) p = 1
		print exp(log(t / a) / p) }')
	# halve the factor while the rounding leaves the count above OPS
	i=0
	while [ $i -lt 8 ]; do
		# shellcheck disable=SC2046
		c=$(ops "$src" $(scaled "$w0/defaults" "$f"))
		awk -v c="${c:-0}" -v t="$OPS" 'BEGIN { exit !(c > 1.25 * t) }' || break
		f=$(awk -v f="$f" 'BEGIN { print f / 2 }')
		i=$((i + 1))
	done
	scaled "$w0/defaults" "$f"
}

res="$out/counts.csv"
echo "kernel,compiler,level,params,functions,model_instructions,model_min,model_max,callgrind_instructions,error,data_dependent" >"$res.part"
fails="$out/counts-failures.txt"
: >"$fails"
start=$(date +%s)
for k in $KERNELS; do
	src="$kdir/$k.c"
	w0="$work/$k"
	rm -rf "$w0"
	mkdir -p "$w0"
	params=""
	[ -r "$src" ] && params=$(small_sizes "$k")
	for cc in $CCS; do
		for lv in $LEVELS; do
			step=$((step + 1))
			tag="$k $cc $lv"
			w="$w0/$cc$lv"
			mkdir -p "$w"
			build_kernel "callgrind, model" -fno-inline || continue
			# $args unquoted: the sizes are separate arguments
			if ! valgrind --tool=callgrind --callgrind-out-file="$w/callgrind.out" "$w/$k" $args \
				>"$w/run.out" 2>"$w/valgrind.err"; then
				fail "the run under callgrind failed: $(reason "$w/valgrind.err")"
				continue
			fi
			bad=""
			for b in 0.5 0 1; do
				"$P" "$src" --binary "$w/$k" --table "$table" $popts --branch-prob $b -F json \
					>"$w/model-$b.json" 2>"$w/model.err" || bad=$b
			done
			if [ -n "$bad" ]; then
				fail "epi-predict failed: $(grep -v 'warning:' "$w/model.err" | head -1)"
				continue
			fi
			if ! row=$(py compare "$w/callgrind.out" "$w/$k" "$src" "$w/model-0.5.json" "$w/model-0.json" "$w/model-1.json" 2>"$w/compare.err"); then
				fail "comparison failed: $(tail -1 "$w/compare.err")"
				continue
			fi
			set -- $row
			if [ "$5" -eq 0 ]; then
				fail "callgrind counted no instruction in $1"
				continue
			fi
			echo "$k,$cc,$lv,$params,$1,$2,$3,$4,$5,$(awk -v a="$2" -v b="$5" 'BEGIN { printf "%.5f", a / b - 1 }'),$6" >>"$res.part"
		done
	done
done
mv "$res.part" "$res"
secs=$(($(date +%s) - start))

echo "the compiled-code model's instructions against callgrind's: $(date +%Y-%m-%d), the functions of each kernel's file but main, built with -g -fno-inline"
echo "error = model / callgrind - 1; d: a branch on the data (left out of the summary), g: a guard of the compiled code priced at --branch-prob; model's range at 0 and 1 shown"
awk -F, '
function pct(x) { return sprintf("%+.2f%%", 100 * x) }
NR == 1 { printf "  %-15s %-9s %-4s %-18s %14s %14s %9s\n", "kernel", "compiler", "", "sizes", "model", "callgrind", "error"; next }
{
	m = $11
	printf "  %-15s %-9s %-4s %-18s %14d %14d %9s", $1, $2, $3, $4, $6, $9, pct($10)
	if (m != "-")
		printf " %s (model %d to %d%s)", m, $7, $8, ($9 >= $7 && $9 <= $8) ? "" : ", outside"
	printf "\n"
	g = $2 " " $3
	if (!(g in n)) order[++ng] = g
	if (!($1 in seen)) { seen[$1] = 1; kernels[++nk] = $1 }
	cell[$1, g] = sprintf("%s%s", pct($10), m == "-" ? "  " : " " m)
	n[g]++
	e = $10 < 0 ? -$10 : $10
	if (m == "d") { nd[g]++; if ($9 >= $7 && $9 <= $8) rd[g]++; next }
	nx[g]++
	if (e <= 0.02) in2[g]++
	if (!(g in worst) || e > worst[g]) { worst[g] = e; wk[g] = $1; we[g] = $10 }
}
END {
	printf "\nerror per kernel, by compiler and level:\n  %-15s", "kernel"
	for (i = 1; i <= ng; i++)
		printf " %14s", order[i]
	printf "\n"
	for (r = 1; r <= nk; r++) {
		printf "  %-15s", kernels[r]
		for (i = 1; i <= ng; i++)
			printf " %14s", ((kernels[r], order[i]) in cell) ? cell[kernels[r], order[i]] : "-"
		printf "\n"
	}
	print "per compiler and level (builds with no branch on the data):"
	for (i = 1; i <= ng; i++) {
		g = order[i]
		printf "  %-14s %d of %d within 2%%", g, in2[g], nx[g]
		if (nx[g])
			printf ", worst %s (%s)", pct(we[g]), wk[g]
		if (nd[g])
			printf "; branching on the data: %d, callgrind within the range of the model in %d", nd[g], rd[g]
		printf "\n"
	}
}' "$res"
if [ -s "$fails" ]; then
	echo "skipped ($(wc -l <"$fails") of $total):"
	sed 's/^/  /' "$fails"
fi
echo "builds: $total in ${secs} s; rows in $res"
say "done in ${secs} s"
ok=$(($(wc -l <"$res") - 1))
[ "$ok" -gt 0 ] || die "no build was compared"
