#!/bin/sh
# corpus.sh [-q] [FILE.c|DIR]... : how much of a corpus of C files epi-predict
# counts.  Runs ${EPI_PREDICT:-bin/epi-predict} FILE --format json on every
# tests/corpus/*.c (or the files given, and the *.c files under each
# directory given, recursively) and prints, per file and in total, the loop
# statements (for/while/do, not do { } while (0)) and how each was handled:
#
#   exact      counted exactly (no note below names it)
#   bounded    bounded without annotation: a note says 'can end this loop
#              early' or 'can skip the rest of an iteration'
#   annot      bounded by a loopbound pragma ('loopbound pragma' note), or
#              given its trip count by '#pragma epi trip(EXPR)' on the line
#              before it (which epi-predict uses without a note)
#   measured   counted with a measured trip count ('measured trip count')
#   trip       not counted: 'its trip count is the parameter T...'
#   failed     the loops of a file epi-predict failed on (non-zero exit, no
#              output or no region)
#
# Notes name their loop by FILE:LINE; the loop statements per line come from
# clang's JSON AST (${CLANG:-clang-19}, expansion lines, so a loop a macro
# writes is on the line of the macro's use), the total per file from
# expected.txt beside the file when it lists the file, else from the AST.
# Then the share of loops counted "exact or bounded without annotation", the
# files that failed, and (unless -q) the uncounted loops grouped by reason.
#
# Environment: EPI_PREDICT (the binary), CLANG (the clang for the AST),
# EPI_TIMEOUT (seconds per file, default 300), EPI_FLAGS (compiler flags
# given to both, after epi-predict's --).
# Exit status: 0, or 1 when a file failed, 2 on usage errors.

set -u

root=$(cd "$(dirname "$0")/.." && pwd)
quiet=0
if [ "${1:-}" = "-q" ]; then
	quiet=1
	shift
fi
case "${1:-}" in
-h | --help)
	sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
-*)
	echo "corpus.sh: unknown option '$1' (usage: corpus.sh [-q] [FILE.c|DIR]...)" >&2
	exit 2
	;;
esac

if [ -n "${EPI_PREDICT:-}" ]; then
	epi=$EPI_PREDICT
elif [ -x bin/epi-predict ]; then
	epi=bin/epi-predict
else
	epi=$root/bin/epi-predict
fi
if [ ! -x "$epi" ] && ! command -v "$epi" >/dev/null 2>&1; then
	echo "corpus.sh: $epi: not an executable (run make, or set EPI_PREDICT)" >&2
	exit 2
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "corpus.sh: python3 is needed to read the JSON reports" >&2
	exit 2
fi
clang=${CLANG:-}
if [ -z "$clang" ]; then
	for c in clang-19 clang; do
		if command -v "$c" >/dev/null 2>&1; then
			clang=$c
			break
		fi
	done
fi
timeout_s=${EPI_TIMEOUT:-300}
tmo=""
if command -v timeout >/dev/null 2>&1; then
	tmo="timeout $timeout_s"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/corpus.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

if [ $# -eq 0 ]; then
	if [ -d tests/corpus ]; then
		set -- tests/corpus
	else
		set -- "$root/tests/corpus"
	fi
fi

# The files, in order, one a line.
: >"$tmp/files"
for a in "$@"; do
	if [ -d "$a" ]; then
		find "$a" -type f -name '*.c' | LC_ALL=C sort >>"$tmp/files"
	elif [ -f "$a" ]; then
		printf '%s\n' "$a" >>"$tmp/files"
	else
		echo "corpus.sh: $a: no such file or directory" >&2
		exit 2
	fi
done
if [ ! -s "$tmp/files" ]; then
	echo "corpus.sh: no .c file in $*" >&2
	exit 2
fi

# Runs epi-predict and clang on each; the manifest has one tab-separated
# line per file: FILE RC REPORT STDERR AST.
n=0
: >"$tmp/manifest"
while IFS= read -r f; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	$tmo "$epi" "$f" --format json ${EPI_FLAGS:+-- $EPI_FLAGS} >"$tmp/$n.json" 2>"$tmp/$n.err" </dev/null
	rc=$?
	ast=-
	if [ -n "$clang" ]; then
		# shellcheck disable=SC2086
		if "$clang" -Xclang -ast-dump=json -fsyntax-only -w ${EPI_FLAGS:-} "$f" >"$tmp/$n.ast" 2>/dev/null </dev/null; then
			ast=$tmp/$n.ast
		else
			rm -f "$tmp/$n.ast"
		fi
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$f" "$rc" "$tmp/$n.json" "$tmp/$n.err" "$ast" >>"$tmp/manifest"
done <"$tmp/files"

EPI=$epi QUIET=$quiet python3 - "$tmp/manifest" <<'EOF'
import collections, json, os, re, sys

manifest = sys.argv[1]
quiet = os.environ.get("QUIET") == "1"
CLASSES = ["trip", "measured", "annot", "bounded"]


def ast_loops(path, src):
    """Loop statements of SRC per expansion line, from clang's JSON AST, and
    the names of the functions SRC defines (a macro's expansion included).

    The JSON dumper leaves out a location's file and line when they are the
    previous location's, so the locations are replayed in document order."""
    with open(path) as fh:
        tree = json.load(fh)
    state = {"file": None, "line": None}
    loops = []
    names = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(reversed(node))
            continue
        if not isinstance(node, dict):
            continue
        if "_check" in node:  # after a definition's subtree: its location is known
            loc = node["_check"].get("loc", {})
            loc = loc.get("expansionLoc", loc)
            if loc.get("_file") and same_file(loc["_file"], src):
                names.add(node["_check"].get("name"))
            continue
        if "offset" in node:  # a bare location
            if "file" in node:
                state["file"] = node["file"]
            if "line" in node:
                state["line"] = node["line"]
            node["_file"], node["_line"] = state["file"], state["line"]
        if node.get("kind") in ("ForStmt", "WhileStmt", "DoStmt"):
            loops.append(node)
        kids = [v for v in node.values() if isinstance(v, (dict, list))]
        if node.get("kind") == "FunctionDecl" and any(
                isinstance(c, dict) and c.get("kind") == "CompoundStmt" for c in node.get("inner") or []):
            stack.append({"_check": node})
        stack.extend(reversed(kids))
    per_line = collections.Counter()
    total = 0
    for lp in loops:
        if lp["kind"] == "DoStmt" and do_while_zero(lp):
            continue
        begin = lp.get("range", {}).get("begin", {})
        begin = begin.get("expansionLoc", begin)
        fname, line = begin.get("_file"), begin.get("_line")
        if fname is None or not same_file(fname, src):
            continue
        per_line[line] += 1
        total += 1
    return total, per_line, names


def do_while_zero(lp):
    inner = lp.get("inner") or []
    if len(inner) < 2:
        return False
    c = inner[-1]
    while c.get("kind") in ("ParenExpr", "ImplicitCastExpr", "CStyleCastExpr") and c.get("inner"):
        c = c["inner"][0]
    return c.get("kind") == "IntegerLiteral" and str(c.get("value")) == "0"


def same_file(a, b):
    return a == b or os.path.normpath(a) == os.path.normpath(b) or (
        os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b))


expected_cache = {}


def expected_for(path):
    d, base = os.path.split(path)
    exp = os.path.join(d or ".", "expected.txt")
    if exp not in expected_cache:
        m = {}
        if os.path.isfile(exp):
            with open(exp) as fh:
                for ln in fh:
                    parts = ln.split()
                    if len(parts) >= 2 and not parts[0].startswith("#") and parts[1].isdigit():
                        m[parts[0]] = int(parts[1])
        expected_cache[exp] = m
    return expected_cache[exp].get(base)


NOTE = re.compile(r"^(.*?):(\d+): (.*)$", re.S)
TRIP = re.compile(r"cannot count this loop: (.*); its trip count is the parameter (\S+)", re.S)


def classify(msg):
    if "its trip count is the parameter T" in msg:
        return "trip"
    if "measured trip count" in msg:
        return "measured"
    if "loopbound pragma" in msg or "its trip count is given" in msg:
        return "annot"
    if "can end this loop early" in msg or "can skip the rest of an iteration" in msg:
        return "bounded"
    return None


rows, uncounted, warnings, failed_files, dropped = [], [], [], [], []
totals = collections.Counter()
with open(manifest) as fh:
    entries = [ln.rstrip("\n").split("\t") for ln in fh if ln.strip()]
for src, rc, report, errf, astf in entries:
    rc = int(rc)
    base = os.path.basename(src)
    nloops, per_line = None, None
    if astf != "-":
        defined = None
        try:
            nloops, per_line, defined = ast_loops(astf, src)
        except (OSError, ValueError) as e:
            warnings.append("%s: cannot read clang's AST (%s)" % (src, e))
    exp = expected_for(src)
    if exp is not None:
        if nloops is not None and exp != nloops:
            warnings.append("%s: expected.txt says %d loops, clang's AST has %d" % (src, exp, nloops))
        nloops = exp
    try:
        with open(report) as fh:
            text = fh.read()
        rep = json.loads(text) if text.strip() else None
    except ValueError:
        rep = None
    regions = (rep or {}).get("regions") or []
    ok = rc == 0 and rep is not None and len(regions) > 0
    row = collections.Counter()
    status = str(rc)
    if rc == 124:
        status = "124 (timeout)"
    if not ok:
        if rc == 0:
            status = "0 (empty report)"
        with open(errf, errors="replace") as fh:
            err = fh.read().strip().splitlines()
        failed_files.append("%s: exit %s%s" % (src, status, (": " + err[0]) if err else ""))
        row["failed"] = nloops or 0
        row["loops"] = nloops or 0
    else:
        by_line = collections.defaultdict(lambda: {k: set() for k in CLASSES})
        trip_at = {}
        for note in rep.get("notes") or []:
            m = NOTE.match(note)
            if not m:
                continue
            nfile, line, msg = m.group(1), int(m.group(2)), m.group(3)
            if os.path.basename(nfile) != base:
                continue
            cls = classify(msg)
            if cls is None:
                continue
            if cls == "trip":
                t = TRIP.search(msg)
                key = t.group(2) if t else msg
                trip_at[(line, key)] = t.group(1) if t else msg
            else:
                key = msg
            by_line[line][cls].add(key)
        counted = collections.Counter()
        for line in sorted(by_line):
            room = None
            if per_line is not None:
                room = per_line.get(line, 0)
                if room == 0:
                    warnings.append("%s:%d: a note names this line, which has no loop statement: %s"
                                    % (src, line, "; ".join(sorted(set().union(*by_line[line].values())))[:200]))
            for cls in CLASSES:
                keys = sorted(by_line[line][cls])
                if room is not None:
                    take = keys[:room] if room > 0 else []
                    room -= len(take)
                else:
                    take = keys
                counted[cls] += len(take)
                if cls == "trip":
                    for k in keys:
                        uncounted.append((src, line, k, trip_at[(line, k)], k in take))
        handled = sum(counted.values())
        if nloops is None:
            nloops = handled
            warnings.append("%s: no loop count (no clang, not in expected.txt): exact loops unknown" % src)
        if handled > nloops:
            warnings.append("%s: %d loops named by notes, more than its %d loop statements" % (src, handled, nloops))
        row.update(counted)
        row["exact"] = max(nloops - handled, 0)
        row["loops"] = nloops
    row["nests"] = sum(1 for r in regions if r.get("scope") == "loop")
    if ok and astf != "-" and defined is not None:
        reported = {r.get("function") for r in regions if r.get("scope") == "function"}
        for name in sorted(defined - reported):
            dropped.append("%s: %s()" % (src, name))
    rows.append((src, status, row))
    totals.update(row)

cols = ["loops", "nests", "exact", "bounded", "annot", "measured", "trip", "failed"]
name_w = max([len("file"), len("total")] + [len(r[0]) for r in rows])
stat_w = max([len("exit")] + [len(r[1]) for r in rows])
head = "%-*s  %-*s" % (name_w, "file", stat_w, "exit") + "".join("%9s" % c for c in cols)
print("# epi-predict: %s" % os.environ.get("EPI", "bin/epi-predict"))
print(head)
for src, status, row in rows:
    print("%-*s  %-*s" % (name_w, src, stat_w, status) + "".join("%9d" % row[c] for c in cols))
nbad = len(failed_files)
print("%-*s  %-*s" % (name_w, "total", stat_w, "%d bad" % nbad) + "".join("%9d" % totals[c] for c in cols))
total = totals["loops"]
good = totals["exact"] + totals["bounded"]
pct = 100.0 * good / total if total else 0.0
print()
print("files: %d, loops: %d, exact or bounded without annotation: %d (%.1f%%)" % (len(rows), total, good, pct))
print("  exact %d, bounded without annotation %d, bounded by annotation %d, measured %d, "
      "trip parameter %d, in failed files %d"
      % (totals["exact"], totals["bounded"], totals["annot"], totals["measured"], totals["trip"], totals["failed"]))
print("files that exited non-zero or printed an empty report: %d" % nbad)
for f in failed_files:
    print("  " + f)
print("functions defined but not reported: %d" % len(dropped))
for f in dropped:
    print("  " + f)
for w in warnings:
    print("warning: " + w)

if not quiet and uncounted:
    def template(reason):
        r = re.sub(r"'[^' ]*'", "'...'", reason)
        r = re.sub(r"\bline \d+", "line N", r)
        return r
    groups = collections.OrderedDict()
    for u in sorted(uncounted, key=lambda u: (template(u[3]), u[0], u[1], u[2])):
        groups.setdefault(template(u[3]), []).append(u)
    print()
    print("loops counted with a trip-count parameter, by reason:")
    for tpl, items in sorted(groups.items(), key=lambda g: (-len(g[1]), g[0])):
        print("  %d x %s" % (len(items), tpl))
        for src, line, param, reason, in_loop in items:
            extra = "" if reason == tpl else "  [%s]" % reason
            print("    %s:%d %s%s%s" % (src, line, param, extra, "" if in_loop else "  (not a loop statement)"))
sys.exit(1 if nbad or dropped else 0)
EOF
