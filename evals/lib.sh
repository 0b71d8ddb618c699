# lib.sh: what evals/accuracy.sh and evals/counts.sh share, sourced by both
# after setting WHO (the prefix of their messages): the project's paths,
# the kernels, compilers and levels to run (KERNELS, CCS, LEVELS from the
# environment, else every kernel, gcc and clang-19 when installed, -O0 and
# -O2), messages, the builds' count, and the record of a build skipped
# (fail, into the file $fails).
top=$(cd "$(dirname "$0")/.." && pwd)
kdir="$top/evals/kernels"
out="$top/build/accuracy"
LEVELS=${LEVELS:--O0 -O2}
if [ -z "${CCS:-}" ]; then
	CCS=gcc
	command -v clang-19 >/dev/null 2>&1 && CCS="$CCS clang-19"
fi
if [ -z "${KERNELS:-}" ]; then
	KERNELS=$(for f in "$kdir"/*.c; do basename "$f" .c; done)
fi
# the builds: kernels x compilers x levels
total=$(($(echo $KERNELS | wc -w) * $(echo $CCS | wc -w) * $(echo $LEVELS | wc -w)))
step=0

say() { echo "$WHO: $*" >&2; }
die() {
	say "$*"
	exit 1
}
# the first line of FILE that says what went wrong (not a "try --help" hint)
reason() { grep -v "^try '" "$1" | grep -v '^ *$' | head -1; }
# a build ($tag, the $step-th) that could not be compared: why, on stderr
# and in $fails
fail() {
	say "[$step/$total] $tag: $1; skipped"
	echo "$tag: $1" >>"$fails"
}
