#!/bin/sh
# make demo: calibrate this machine quickly (a few operations, 2%), let
# epi-predict find that table by itself, then the paper's selection sort
# priced with the paper's own table and its three prediction tables
# reproduced. The demo's table goes to build/demo, not to your data folder.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
export EPI_DATA_DIR="$top/build/demo"
mkdir -p "$EPI_DATA_DIR"
rm -f "$EPI_DATA_DIR/costtable.xml"
echo '$ EPI_DATA_DIR=build/demo bin/epi-calibrate --freqs all --ops add,mul,div,cmp,load.l1,store.l1,print --precision 2% --max-time 2'
"$top/bin/epi-calibrate" --freqs all --ops add,mul,div,cmp,load.l1,store.l1,print --precision 2% --max-time 2
echo
echo '$ EPI_DATA_DIR=build/demo bin/epi-predict data/examples/selection_sort.c --param n=100000'
"$top/bin/epi-predict" "$top/data/examples/selection_sort.c" --param n=100000
echo
echo '$ bin/epi-predict data/examples/selection_sort.c --table data/rr8416-q6600.xml --freq 2.4GHz --param n=100000'
"$top/bin/epi-predict" "$top/data/examples/selection_sort.c" --table "$top/data/rr8416-q6600.xml" --freq 2.4GHz --param n=100000
echo
echo '$ sh scripts/rr8416-compare.sh   # RR-8416 Tables VI-VIII, prediction columns'
sh "$top/scripts/rr8416-compare.sh" "$top/bin/epi-predict"
