#!/bin/sh
# make check: the cmocka unit tests (built with ASan/UBSan), then the
# end-to-end test files (tests/*.sh but this one and lib.sh, each a script
# of its own) on every core, their output shown in order.
# usage: tests/run.sh [UNIT-TEST-BINARIES...]
#   T="tests/validate.sh ..."  only these end-to-end files (and no unit test
#                              unless U is given too)
#   U="test_count ..."         only the unit tests of these names (and no
#                              end-to-end file unless T is given too)
#   J=N                        end-to-end files run at once (default: the CPUs)
top=$(cd "$(dirname "$0")/.." && pwd)
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
start=$(date +%s)
unit_failed=0
unit_passed=0
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
for t in "$@"; do
	name=$(basename "$t")
	if [ -n "${U:-}" ]; then
		case " $U " in *" $name "*) ;; *) continue ;; esac
	elif [ -n "${T:-}" ]; then
		continue
	fi
	"$t" >"$logs/unit" 2>&1
	cat "$logs/unit"
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\./\1/p' "$logs/unit" | tail -1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:/\1/p' "$logs/unit" | tail -1)
	unit_passed=$((unit_passed + ${p:-0}))
	if [ -n "$f" ] || [ -z "$p" ] || grep -q "Sanitizer" "$logs/unit"; then
		unit_failed=$((unit_failed + ${f:-1}))
	fi
done

# the end-to-end files, J at a time; each prints "NAME: N passed, N failed" last
if [ -n "${T:-}" ]; then
	files=$T
elif [ -n "${U:-}" ]; then
	files=
else
	files=$(ls "$top"/tests/*.sh | grep -v '/run\.sh$\|/lib\.sh$')
fi
jobs=${J:-$(nproc 2>/dev/null || echo 2)}
printf '%s\n' $files | xargs -r -P "$jobs" -I{} sh -c 'sh "$1" >"$2/$(basename "$1").out" 2>&1' sh {} "$logs"
pass=0
fail=0
for f in $files; do
	out="$logs/$(basename "$f").out"
	cat "$out"
	line=$(tail -1 "$out")
	p=$(echo "$line" | sed -n 's/^[a-z_-]*: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	q=$(echo "$line" | sed -n 's/^[a-z_-]*: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	if [ -z "$p" ]; then
		echo "FAIL - $(basename "$f") ended without its closing line"
		q=$((${q:-0} + 1))
	fi
	pass=$((pass + ${p:-0}))
	fail=$((fail + ${q:-0}))
done

echo "time: $(($(date +%s) - start)) s with $jobs end-to-end files at once"
echo "unit: $unit_passed passed, $unit_failed failed"
echo "e2e: $pass passed, $fail failed"
echo "check: $((unit_passed + pass)) passed, $((unit_failed + fail)) failed"
[ $((unit_failed + fail)) -eq 0 ]
