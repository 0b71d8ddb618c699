#!/usr/bin/env python3
"""Random loops that break on a test of their variable (tests/breaks.sh).

Each program has a nest of one to three for loops, counted up or down by
1 from affine first values to affine bounds in the parameters n and m and
the outer variables; one loop's body holds `if (TEST) break;` where TEST
compares the loop's variable with an affine value, most often the way
that holds from some iteration on (i >= e counting up, i < e counting
down), sometimes at one value (==) or the other way round (holding at
the first iteration or never), amid statements that add 1.0 to a global
before and after it and inner loops. The program prints the global.
epi-predict's total of add.f64 at each point must equal the run's count
where it says it is exact (its minimum and maximum equal), and lie
between them otherwise.

usage: breaks.py EPI-PREDICT WORKDIR SEED...; prints one line a program:
  exact NAME       every point counted exactly, the run's count
  bounded NAME     some point a range that holds the run's count
  FAIL NAME: why
"""
import csv
import io
import random
import subprocess
import sys

POINTS = [(0, 0), (1, 5), (6, 3), (9, -2), (11, 9), (7, 14)]


def program(seed):
    R = random.Random(seed)
    depth = R.choice([1, 2, 2, 3])
    brk = R.randrange(depth)
    lines = ['#include <stdio.h>', '#include <stdlib.h>', 'double acc[1];', 'void kern(int n, int m)', '{']
    ind = '\t'
    outer = []

    def aff(vs):
        """An affine value of the parameters and the variables VS."""
        t = R.choice(['n', 'm', str(R.randint(0, 4))] + vs)
        c = R.randint(-2, 3)
        return '%s + %d' % (t, c) if c >= 0 else '%s - %d' % (t, -c)

    for k in range(depth):
        v = 'i%d' % k
        up = R.random() < 0.7
        lo, hi = aff(outer), aff(outer)
        if up:
            lines.append('%sfor (int %s = %s; %s %s %s; %s++) {' % (ind, v, lo, v, R.choice(['<', '<=']), hi, v))
        else:
            lines.append('%sfor (int %s = %s; %s %s %s; %s--) {' % (ind, v, hi, v, R.choice(['>', '>=']), lo, v))
        if R.random() < 0.5:
            lines.append('%s\tacc[0] += 1.0;' % ind)
        if k == brk:
            rel = R.choice((['>=', '>'] if up else ['<=', '<']) * 3 + ['==', '<' if up else '>'])
            e = aff(outer)
            test = R.choice(['%s %s %s' % (v, rel, e), '%s %s %s' % (e, {'>=': '<=', '>': '<', '<=': '>=', '<': '>',
                                                                          '==': '=='}[rel], v)])
            lines.append('%s\tif (%s)' % (ind, test))
            lines.append('%s\t\tbreak;' % ind)
            if R.random() < 0.7:
                lines.append('%s\tacc[0] += 1.0;' % ind)
        outer.append(v)
        ind += '\t'
    lines.append('%sacc[0] += 1.0;' % ind)
    for _ in range(depth):
        ind = ind[:-1]
        lines.append('%s}' % ind)
    lines += ['}', 'int main(int argc, char **argv)', '{', '\tkern(atoi(argv[1]), atoi(argv[2]));',
              '\tprintf("%ld\\n", (long)acc[0]);', '\treturn 0;', '}']
    return '\n'.join(lines) + '\n'


def check(epi, work, seed):
    name = 'breaks%d.c' % seed
    path = '%s/%s' % (work, name)
    with open(path, 'w') as f:
        f.write(program(seed))
    exe = path[:-2]
    cc = subprocess.run(['gcc', '-O0', '-w', path, '-o', exe], capture_output=True, text=True)
    if cc.returncode:
        return 'FAIL %s: gcc: %s' % (name, cc.stderr.strip()[:200])
    exact = True
    for n, m in POINTS:
        truth = int(subprocess.run([exe, str(n), str(m)], capture_output=True, text=True, timeout=60).stdout)
        p = subprocess.run([epi, path, '--param', 'n=%d' % n, '--param', 'm=%d' % m, '--format', 'csv'],
                           capture_output=True, text=True, timeout=600)
        if p.returncode or 'Sanitizer' in p.stderr or 'runtime error' in p.stderr:
            return 'FAIL %s: epi-predict exit %d: %s' % (name, p.returncode, p.stderr.strip()[:300])
        rows = [r for r in csv.reader(io.StringIO(p.stdout)) if len(r) > 7 and r[3] == 'total' and r[4] == 'add.f64']
        if not rows:
            if truth:
                return 'FAIL %s: n=%d m=%d: the run counts %d, epi-predict none' % (name, n, m, truth)
            continue
        lo, hi = (float(x) for x in rows[0][6:8])
        if lo == hi and lo != truth:
            return 'FAIL %s: n=%d m=%d: the run counts %d, epi-predict %g exactly' % (name, n, m, truth, lo)
        if not lo <= truth <= hi:
            return 'FAIL %s: n=%d m=%d: the run counts %d, outside %g..%g' % (name, n, m, truth, lo, hi)
        exact &= lo == hi
    return '%s %s' % ('exact' if exact else 'bounded', name)


if __name__ == '__main__':
    epi, work = sys.argv[1], sys.argv[2]
    for s in sys.argv[3:]:
        print(check(epi, work, int(s)), flush=True)
