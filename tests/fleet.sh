# epi fleet: a cluster's tables, one per node. report on a folder of five
# nodes of one model (RR-8416's table) with one planted outlier, in every
# format and as a figure; what is not a table is left out, said so.
. "$(dirname "$0")/lib.sh"

run_epi "fleet --help" 0 "usage: epi fleet calibrate -d TABLEDIR" -- fleet --help
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
# epi-predict with the folder: the node asked for, this host's, else the
# model's median node, said so in the header
sel="$ex/selection_sort.c"
expect "predict --table TABLEDIR: the model's median node" 0 \
	"cost table $T/n1.xml (node n1, the median of the 5 nodes of Intel(R) Core(TM) 2 Quad CPU Q6600 @ 2.40GHz: this host ($(hostname -s)) has no table" \
	-- "$sel" --table "$T" --freq 1.6GHz --param n=1000
expect "predict --table TABLEDIR --node n3" 0 '"table_node": "node n3, as asked"' -- "$sel" --table "$T" --node n3 \
	--freq 1.6GHz --param n=1000 --format json
e3=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["regions"][-1]["all"][0]["energy_j"])' "$tmp/out" 2>/dev/null)
"$P" "$sel" --table "$T" --node n1 --freq 1.6GHz --param n=1000 --format json >"$tmp/n1.json" 2>/dev/null
e1=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["regions"][-1]["all"][0]["energy_j"])' "$tmp/n1.json" 2>/dev/null)
python3 -c "import sys; sys.exit(0 if float('$e3') > float('$e1') > 0 else 1)" 2>/dev/null &&
	ok "predict --node: n3's table prices its adds dearer ($e3 J > $e1 J)" || bad "predict --node: n3's table prices its adds dearer ('$e3' > '$e1')"
cp "$T/n4.xml" "$T/$(hostname -s).xml"
expect "predict --table TABLEDIR: this host's table" 0 "cost table $T/$(hostname -s).xml (node $(hostname -s): this host;" \
	-- "$sel" --table "$T" --freq 1.6GHz --param n=1000
rm "$T/$(hostname -s).xml"
expect "predict --node: a node without a table" 1 "no table for node 'n9' in the folder (nodes: n1, n2, n3, n4, n5)" \
	-- "$sel" --table "$T" --node n9
expect "predict --node without a folder" 2 "needs --table TABLEDIR, a folder of node tables" -- "$sel" --table "$ref" --node n1
mkdir -p "$tmp/none"
run_epi "fleet report: a folder without tables" 1 "'$tmp/none' holds no cost table" -- fleet report -d "$tmp/none"
run_epi "fleet report: no folder given" 2 "no table folder: -d TABLEDIR" -- fleet report
run_epi "fleet: an unknown command" 2 "unknown fleet command 'reprot'" -- fleet reprot -d "$T"
run_epi "fleet report: calibrate's options are not its" 2 "unknown or incomplete option '--ops'" -- fleet report -d "$T" --ops add

finish
