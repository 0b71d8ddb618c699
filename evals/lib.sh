# lib.sh: what evals/accuracy.sh and evals/counts.sh share, sourced by both
# after setting WHO (the prefix of their messages): the project's paths,
# the kernels, compilers and levels to run (KERNELS, CCS, LEVELS from the
# environment, else every kernel, gcc and clang-19 when installed, -O0 and
# -O2), messages, the builds' count, the record of a build skipped (fail,
# into the file $fails), and a kernel's build (build_kernel).
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

# Kernel $k ($src) built by $cc at $lv with -g into $w/$k, its sizes
# $params (NAME=VALUE ...): sets $args (the sizes as its argv) and $popts
# (a --param for each). WHAT names the work after the build, for the
# progress line; the other arguments are more compiler flags. Returns 1
# when the build cannot be made, recorded by fail.
build_kernel() {
	what=$1
	shift
	if [ ! -r "$src" ]; then
		fail "no kernel $src"
		return 1
	fi
	if [ -z "$params" ]; then
		fail "its main reads no size from argv ('int NAME = argc > K ? atoi(argv[K]) : DEFAULT;')"
		return 1
	fi
	args=$(for p in $params; do printf '%s ' "${p#*=}"; done)
	popts=$(for p in $params; do printf ' --param %s' "$p"; done)
	if ! command -v "$cc" >/dev/null 2>&1; then
		fail "no compiler '$cc'"
		return 1
	fi
	say "[$step/$total] $tag ($params): build, $what"
	if ! "$cc" -std=c11 $lv -g "$@" -o "$w/$k" "$src" -lm >"$w/build.log" 2>&1; then
		fail "build failed: $(grep -m1 -i 'error' "$w/build.log" || reason "$w/build.log")"
		return 1
	fi
}
