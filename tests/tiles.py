#!/usr/bin/env python3
"""Random tiled nests against their runs (tests/tiles.sh).

Each program tiles one to three loops by a tile size b that is a
parameter, as blocked code does: tile loops `for (t = lo; t < n; t += b)`
and, inside the innermost, point loops `for (i = t; i < MIN(t + b, n);
i++)` (or `t + b < n ? t + b : n`, `i < t + b && i < n`, either way
round, `imin(t + b, n)` of a function, or the end in a variable the
innermost tile body sets, `int e = MIN(t + b, n)`), each point loop inside the one before, perhaps around a loop
bounded by a point variable, perhaps writing `scratch[i - t]` (a tile
variable that moves an address only); some tile bodies run a statement
once per tile. The innermost body and those statements add 1.0 to a global, which
the program prints with the tile loops' trip counts. epi-predict's total
is evaluated with the trip-count parameters of the tile loops (T<line>)
bound to those trip counts: it must equal the run's count at every point.

usage: tiles.py EPI-PREDICT WORKDIR SEED...; prints one line a program:
  counted NAME     the total evaluated equals the run's count at every point
  FAIL NAME: why
"""
import csv
import io
import random
import subprocess
import sys

POINTS = [(0, 0, 1), (7, 5, 3), (13, 10, 4), (9, 9, 9), (10, 12, 16)]


def program(seed):
    """The program of SEED, and the lines of its tile loops."""
    R = random.Random(seed)
    dims = R.choice([1, 2, 2, 3])
    bounds = [R.choice(['n', 'm', 'n - 1']) for _ in range(dims)]
    los = [R.choice([0, 0, 1, 2]) for _ in range(dims)]
    lines = ['#include <stdio.h>', '#include <stdlib.h>', '#define MIN(a, b) ((a) < (b) ? (a) : (b))',
             'static inline int imin(int a, int b) { return a < b ? a : b; }',
             'double acc[1], scratch[64];', 'long trips[3];', 'void kern(int n, int m, int b)', '{']
    tile_lines = []
    ind = '\t'
    for k in range(dims):
        tile_lines.append(len(lines) + 1)
        lines.append('%sfor (int t%d = %d; t%d < %s; t%d += b) {' % (ind, k, los[k], k, bounds[k], k))
        lines.append('%s\ttrips[%d]++;' % (ind, k))
        if R.random() < 0.3:
            lines.append('%s\tacc[0] += 1.0;' % ind)
        ind += '\t'
    closes = dims
    for k in range(dims):
        end = 't%d + b' % k
        cond = R.choice(['i%d < MIN(%s, %s)' % (k, end, bounds[k]), 'i%d < MIN(%s, %s)' % (k, bounds[k], end),
                         'i%d < (%s < %s ? %s : %s)' % (k, end, bounds[k], end, bounds[k]),
                         'i%d < %s && i%d < %s' % (k, end, k, bounds[k]),
                         'i%d < %s && i%d < %s' % (k, bounds[k], k, end), 'local',
                         'i%d < imin(%s, %s)' % (k, end, bounds[k])])
        if cond == 'local':  # the end in a variable, set where the tile body declares it
            lines.insert(len(lines) - k, '%sint e%d = MIN(%s, %s);' % (ind[:len(ind) - k], k, end, bounds[k]))
            cond = 'i%d < e%d' % (k, k)
        lines.append('%sfor (int i%d = t%d; %s; i%d++) {' % (ind, k, k, cond, k))
        ind += '\t'
        closes += 1
    if R.random() < 0.3:  # a tile variable that moves an address only
        k = R.randrange(dims)
        lines.append('%sscratch[i%d - t%d] = 1.0;' % (ind, k, k))
    if R.random() < 0.4:
        lines.append('%sfor (int j = %d; j < i%d; j++)' % (ind, R.choice([0, 1]), R.randrange(dims)))
        lines.append('%s\tacc[0] += 1.0;' % ind)
    else:
        lines.append('%sacc[0] += 1.0;' % ind)
    for _ in range(closes):
        ind = ind[:-1]
        lines.append('%s}' % ind)
    lines.append('}')
    lines += ['int main(int argc, char **argv)', '{',
              '\tkern(atoi(argv[1]), atoi(argv[2]), atoi(argv[3]));',
              '\tprintf("%ld %ld %ld %ld\\n", (long)acc[0], trips[0], trips[1], trips[2]);', '\treturn 0;', '}']
    return '\n'.join(lines) + '\n', tile_lines


def check(epi, work, seed):
    name = 'tiles%d.c' % seed
    path = '%s/%s' % (work, name)
    text, tile_lines = program(seed)
    with open(path, 'w') as f:
        f.write(text)
    exe = path[:-2]
    cc = subprocess.run(['gcc', '-O0', '-w', path, '-o', exe], capture_output=True, text=True)
    if cc.returncode:
        return 'FAIL %s: gcc: %s' % (name, cc.stderr.strip()[:200])
    for n, m, b in POINTS:
        out = subprocess.run([exe, str(n), str(m), str(b)], capture_output=True, text=True, timeout=60).stdout.split()
        truth, trips = out[0], [int(x) for x in out[1:]]
        # each tile loop's trip count per entry: its iterations over those of the loop around
        args = ['--param', 'n=%d' % n, '--param', 'm=%d' % m, '--param', 'b=%d' % b]
        for k, line in enumerate(tile_lines):
            around = trips[k - 1] if k else 1
            args += ['--param', 'T%d=%d' % (line, trips[k] // around if around else 0)]
        p = subprocess.run([epi, path, '--format', 'csv'] + args, capture_output=True, text=True, timeout=600)
        if p.returncode or 'Sanitizer' in p.stderr or 'runtime error' in p.stderr:
            return 'FAIL %s: epi-predict exit %d: %s' % (name, p.returncode, p.stderr.strip()[:300])
        got = [r[5] for r in csv.reader(io.StringIO(p.stdout)) if len(r) > 5 and r[3] == 'total' and r[4] == 'add.f64']
        got = got[0] if got else ''
        if got.endswith('.0'):
            got = got[:-2]
        if got != truth:
            return 'FAIL %s: n=%d m=%d b=%d: the run counts %s, epi-predict %r' % (name, n, m, b, truth, got[:200])
    return 'counted %s' % name


if __name__ == '__main__':
    epi, work = sys.argv[1], sys.argv[2]
    for s in sys.argv[3:]:
        print(check(epi, work, int(s)), flush=True)
