#!/bin/sh
# make demo: epi-predict on the paper's selection sort, then the paper's three
# prediction tables reproduced from its own cost table.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
echo '$ bin/epi-predict data/examples/selection_sort.c --table data/rr8416-q6600.xml --freq 2.4GHz --param n=100000'
"$top/bin/epi-predict" "$top/data/examples/selection_sort.c" --table "$top/data/rr8416-q6600.xml" --freq 2.4GHz --param n=100000
echo
echo '$ sh scripts/rr8416-compare.sh   # RR-8416 Tables VI-VIII, prediction columns'
sh "$top/scripts/rr8416-compare.sh" "$top/bin/epi-predict"
