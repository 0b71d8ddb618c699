#!/bin/sh
# embed.sh SYMBOL FILE: prints a C file defining `const char SYMBOL[]` with FILE's text.
sym=$1
file=$2
echo "/* generated from $file by scripts/embed.sh; do not edit */"
echo "const char $sym[] ="
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$file"
echo ";"
