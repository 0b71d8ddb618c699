# End-to-end test of loops that break on a test of their own variable:
# random nests (tests/breaks.py) with `if (TEST) break;` in one loop,
# built with gcc and run; epi-predict's total at six points must be the
# run's count where it says it is exact, and bound it otherwise. Every
# test the generator writes (from some iteration on, at one value, at the
# first iteration or never) makes the count exact: all must be.
. "$(dirname "$0")/lib.sh"

W="$tmp/breaks"
mkdir -p "$W"
python3 "$top/tests/breaks.py" "$P" "$W" $(seq 1 40) >"$W/results" 2>"$W/err" ||
	bad "breaks: the generator ran" "$W/err"
while read -r what rest; do
	case $what in
	exact) ok "breaks: $rest counted exactly" ;;
	bounded) ok "breaks: $rest bounded by its range" ;;
	*) bad "breaks: $rest" ;;
	esac
done <"$W/results"
exact=$(grep -c '^exact' "$W/results")
[ "$exact" -eq 40 ] && ok "breaks: all 40 exact" || bad "breaks: $exact of 40 exact, not all" "$W/results"

finish
