# The fuzzed parsers' regression inputs: each harness (fuzz/fuzz_NAME.c),
# built with the sanitizers, replays its committed corpus and every input
# that once crashed it; the random programs csmith wrote that once broke
# epi-predict go through it again. (`make fuzz` finds new ones.)
. "$(dirname "$0")/lib.sh"

for name in table trace measured wattsup args compdb; do
	R="$top/build/tests/replay_$name"
	"$R" "$top/fuzz/corpus/$name" "$top/fuzz/crashes/$name" >"$tmp/out" 2>"$tmp/err"
	st=$?
	n=$(sed -n 's/^replayed \([0-9]*\) inputs$/\1/p' "$tmp/out")
	if [ $st -ne 0 ] || grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
		bad "fuzz: $name replays its corpus and crashes (exit $st)" "$tmp/err"
	elif [ "${n:-0}" -lt 2 ]; then
		bad "fuzz: $name replays its corpus (${n:-no} inputs)" "$tmp/out"
	else
		ok "fuzz: $name replays its $n inputs"
	fi
done

# a trace cut right after its signature: an error, not a crash
printf 'EPITRACE\003\0\0\0\0\0\0\0' >"$tmp/short.trace"
if "$top/build/tests/replay_trace" "$tmp/short.trace" >/dev/null 2>&1; then
	ok "fuzz: a trace cut after its signature replays as an error"
else
	bad "fuzz: a trace cut after its signature replays as an error"
fi

inc=/usr/include/csmith
# replay WHAT FILE ARGS: a report or one-line errors, and no sanitizer report
replay() {
	what=$1 c=$2
	shift 2
	"$P" "$c" --model source "$@" -- -I"$inc" -w >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ $st -gt 1 ] || grep -q 'Sanitizer\|runtime error' "$tmp/err" ||
		grep -v '^epi-predict: \(error\|warning\): ' "$tmp/err" | grep -q .; then
		bad "fuzz: $what (exit $st)" "$tmp/err"
	else
		ok "fuzz: $what: a report or one-line errors"
	fi
}
for c in "$top"/fuzz/csmith/*.c; do
	[ -e "$c" ] || continue
	replay "csmith program $(basename "$c")" "$c"
	# its loops that cannot be counted are errors: the analysis ends with
	# their lines, its counts freed first in this build
	replay "csmith program $(basename "$c") under --strict" "$c" --strict
done

finish
