# epi fleet: a cluster's tables, one per node. report on a folder of five
# nodes of one model (RR-8416's table) with one planted outlier, in every
# format and as a figure; what is not a table is left out, said so.
. "$(dirname "$0")/lib.sh"

run_epi "fleet --help" 0 "usage: epi fleet report -d TABLEDIR" -- fleet --help
[ -f "$top/man/epi-fleet.1" ] && ok "fleet: its man page" || bad "fleet: its man page"

T="$tmp/tables"
mkdir -p "$T"
for n in n1 n2 n4 n5; do cp "$ref" "$T/$n.xml"; done
# n3: add's energy at 1.6 GHz more than twice the others'
sed '0,/<op name="add" unit="op" energy_j="274e-9"/s//<op name="add" unit="op" energy_j="600e-9"/' "$ref" >"$T/n3.xml"
grep -q 'energy_j="600e-9"' "$T/n3.xml" && ok "fleet: the outlier planted" || bad "fleet: the outlier planted"
echo '<notes/>' >"$T/notes.xml"

run_epi "fleet report: a table per model, the outlier named" 0 "^1.6 GHz  *add  *energy  *5 .*n3:+119.0%" -- fleet report -d "$T"
grep -q "warning: .*notes.xml.*left out" "$tmp/err" && ok "fleet report: a file that is no table is left out, said so" ||
	bad "fleet report: a file that is no table is left out, said so" "$tmp/err"
grep -q "^1.6 GHz  *mul  *energy  *5 .* 0.0% *0.0% *$" "$tmp/out" && ok "fleet report: equal nodes, no spread, no outlier" ||
	bad "fleet report: equal nodes, no spread, no outlier" "$tmp/out"
run_epi "fleet report --format csv" 0 '^Intel(R) Core(TM) 2 Quad CPU Q6600 @ 2.40GHz,1.6,add,energy,5,' -- fleet report -d "$T" --format csv
if awk -F, '$3 == "add" && $4 == "energy" && $2 == 1.6 {print $NF}' "$tmp/out" | grep -qx 'n3:+119.0%' &&
	[ "$(awk -F, 'NR > 1 && $NF != "" {n++} END {print n + 0}' "$tmp/out")" = 1 ]; then
	ok "fleet report --format csv: one outlier, n3's add energy at 1.6 GHz"
else
	bad "fleet report --format csv: one outlier, n3's add energy at 1.6 GHz" "$tmp/out"
fi
run_epi "fleet report --format json" 0 '"rows"' -- fleet report -d "$T" --format json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
out = [(r["op"], r["quantity"], r["freq_ghz"], o["node"]) for r in d["rows"] for o in r["outliers"]]
assert out == [("add", "energy", 1.6, "n3")], out
assert sorted(n["node"] for n in d["nodes"]) == ["n1", "n2", "n3", "n4", "n5"]
r = [r for r in d["rows"] if r["op"] == "add" and r["quantity"] == "energy" and r["freq_ghz"] == 1.6][0]
assert abs(r["median"] - 274e-9) < 1e-15 and abs(r["values"]["n3"] - 600e-9) < 1e-15
' "$tmp/out" && ok "fleet report --format json: the outlier, the nodes, the values" ||
	bad "fleet report --format json: the outlier, the nodes, the values" "$tmp/out"
run_epi "fleet report --plot" 0 "" -- fleet report -d "$T" --plot "$tmp/fleet.svg" -o "$tmp/r.txt"
grep -q "<svg" "$tmp/fleet.svg" && grep -q "n3" "$tmp/fleet.svg" && grep -q "add" "$tmp/fleet.svg" &&
	grep -q "^fleet: 5 node tables" "$tmp/r.txt" && ok "fleet report --plot: the figure, the report in its file" ||
	bad "fleet report --plot: the figure, the report in its file"
mkdir -p "$tmp/none"
run_epi "fleet report: a folder without tables" 1 "'$tmp/none' holds no cost table" -- fleet report -d "$tmp/none"
run_epi "fleet report: no folder given" 2 "no table folder: -d TABLEDIR" -- fleet report
run_epi "fleet: an unknown command" 2 "unknown fleet command 'reprot'" -- fleet reprot -d "$T"

finish
