# End-to-end test of tiled loops whose tile size is a parameter: random
# nests of one to three tile loops `for (t = lo; t < n; t += b)` around
# their point loops `for (i = t; i < MIN(t + b, n); i++)` in the forms
# blocked code writes them (tests/tiles.py), built with gcc and run; each
# run's count against epi-predict's total at five points, with the tile
# loops' own trip counts bound to the run's: the point loops cover the
# range once, whatever b, and are counted so.
. "$(dirname "$0")/lib.sh"

W="$tmp/tiles"
mkdir -p "$W"
python3 "$top/tests/tiles.py" "$P" "$W" $(seq 1 30) >"$W/results" 2>"$W/err" ||
	bad "tiles: the generator ran" "$W/err"
while read -r what rest; do
	case $what in
	counted) ok "tiles: $rest counted exactly" ;;
	*) bad "tiles: $rest" ;;
	esac
done <"$W/results"
[ "$(grep -c '^counted' "$W/results")" -eq 30 ] && ok "tiles: all 30 counted exactly" ||
	bad "tiles: all 30 counted exactly" "$W/results"

finish
