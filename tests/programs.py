#!/usr/bin/env python3
"""Random programs against their runs (tests/programs.sh).

Each program has a few functions whose loops have affine bounds in the
outer variables and the parameters, floor quotients by small constants,
steps up to 3, and calls to later functions with argument expressions
(constants, parameters, loop variables, halves and thirds of them),
inside loops and out.  The loops take the forms C programs write them
in: counted up or down, `while` and `do` loops, `!=` conditions, the
smaller of two bounds, a variable multiplied between constants, a
macro's loop, a pointer walking a buffer, `for (i = n; i--; )`, a step
by a parameter (a tile's: counted for the calls that pass a constant);
some statements are guarded by a comparison of a parameter, some
innermost bodies by an affine test of the iteration (i1 < i0 + p0,
i2 != 2 * i0 + 1, two such joined by && or ||, one negated), and some
for loops skip the rest of an iteration on one (if (i1 == i0)
continue;), those drawn from a generator of their own.  Every innermost
body (and every guarded statement) adds 1.0 to a global, so the
program's total of add.f64 is the number of them run, which the program
prints.  Every value a quotient or a loop variable takes is
non-negative, so C's truncating division is the analysis's floor.  The
seeds are fixed: a failure reproduces.

usage: programs.py [--plain] EPI-PREDICT WORKDIR SEED... (--plain: without
the tests of iterations, each seed's program as the generator wrote it
before them); prints one line a program:
  counted NAME          the total evaluated equals the run's count at every point,
                        and so does its formula where the formula's condition holds
  fallback NAME         no count evaluated (a trip-count parameter left) or a
                        call listed, said in a note
  FAIL NAME: why
"""
import csv
import io
import math
import re
from fractions import Fraction
import random
import subprocess
import sys

csv.field_size_limit(1 << 30)
POINTS = [(0, 0), (6, 3), (11, 9)]


def program(seed, tests=True):
    R = random.Random(seed)
    G = random.Random(seed + 1000003)  # the tests of iterations, apart: R's programs stay as they were
    K = R.randint(2, 6)
    nps = [R.randint(1, 3) for _ in range(K)]

    def aff(names, divide):
        """An affine expression of NAMES (all >= 0), divided by a constant
        only where it cannot be negative."""
        terms, pos = [], True
        c = R.randint(-2, 4) if divide is None else R.randint(0, 4)
        for v in names:
            if R.random() < 0.5:
                a = R.choice([1, 1, 1, 2, -1] if divide is None else [1, 1, 2])
                pos = pos and a > 0
                terms.append(('-' if a == -1 else '' if a == 1 else '%d * ' % a) + v)
        e = ' + '.join(terms) if terms else '0'
        if c:
            e = '%s + %d' % (e, c) if terms else str(c)
        if divide and terms and pos and c >= 0 and R.random() < 0.3:
            e = '(%s) / %d' % (e, R.randint(2, 4))
        return e.replace('+ -', '- ')

    def comparison(scope):
        a = G.choice(scope)
        b = ' + '.join(['%s%s' % (G.choice(['', '2 * ']), x) for x in scope + cur_params if x != a and G.random() < 0.4])
        b = '%s + %d' % (b, G.randint(-2, 3)) if b else str(G.randint(0, 4))
        return '%s %s %s' % (a, G.choice(['<', '<=', '>', '>=', '==', '!=']), b.replace('+ -', '- '))

    def iteration_test(scope):
        """An affine comparison of a loop variable of SCOPE with the others
        and the parameters of the function being written, or two joined by
        && or ||, or negated (G's draws)."""
        r = G.random()
        if r < 0.15:
            return '%s && %s' % (comparison(scope), comparison(scope))
        if r < 0.3:
            return '%s || %s' % (comparison(scope), comparison(scope))
        if r < 0.35:
            return '!(%s)' % comparison(scope)
        return comparison(scope)

    def args(g, pool):
        out = []
        for _ in range(nps[g]):
            r = R.random()
            if r < 0.3 or not pool:
                out.append(str(R.randint(0, 9)))
            elif r < 0.6:
                out.append(R.choice(pool))
            elif r < 0.8:
                out.append('%s / %d' % (R.choice(pool), R.randint(2, 3)))
            else:
                out.append('%s + %d' % (R.choice(pool), R.randint(0, 3)))
        return ', '.join(out)

    text = ['double acc[1];', 'double buf[100000];', '#define FOR(i, n) for (int i = 0; i < (n); i++)',
            '#include <stdio.h>', '#include <stdlib.h>']
    cur_params = []
    for f in range(K - 1, -1, -1):
        params = ['p%d' % i for i in range(nps[f])]
        cur_params[:] = params

        def nest(level, outer, indent):
            v = 'i%d' % level
            lo = aff(outer + params[:1], False) if R.random() < 0.5 else '0'
            hi = aff(outer + params, True) if R.random() < 0.7 else aff(outer + params, None)
            rel = R.choice(['<', '<='])
            form = R.random()
            head, tail, scope = None, [indent + '}'], outer + [v]
            if form < 0.2:  # counted down
                head = ['for (int %s = %s; %s %s %s; %s -= %d) {' % (v, hi, v, '>=' if rel == '<=' else '>', lo, v,
                                                                     R.choice([1, 1, 2]))]
            elif form < 0.35:  # a while loop, its update first
                head = ['{ int %s = %s;' % (v, lo), 'while (%s %s %s) {' % (v, rel, hi),
                        '\t%s += %d;' % (v, R.choice([1, 1, 2]))]
                tail = [indent + '} }']
            elif form < 0.45:  # a do loop: once at least
                head = ['{ int %s = %s;' % (v, lo), 'do {']
                tail = ['%s\t%s += %d;' % (indent, v, R.choice([1, 2])), '%s} while (%s %s %s); }' % (indent, v, rel, hi)]
            elif form < 0.55:  # != reached exactly
                head = ['for (int %s = %s; %s != %s + %s; %s++) {' % (v, lo, v, lo, aff(outer + params, False), v)]
            elif form < 0.65:  # the smaller of two bounds
                h2 = aff(outer + params, True)
                head = ['for (int %s = %s; %s < (%s < %s ? %s : %s); %s += %d) {' % (v, lo, v, hi, h2, hi, h2, v,
                                                                                   R.choice([1, 1, 2]))]
            elif form < 0.72:  # multiplied between constants
                head = ['for (int %s = 1; %s < %d; %s *= %d) {' % (v, v, R.randint(2, 100), v, R.choice([2, 3]))]
            elif form < 0.78:  # a macro's loop
                head = ['FOR(%s, %s) {' % (v, hi)]
            elif form < 0.84:  # a pointer walk (no integer for the loops inside)
                head = ['for (double *%s = buf + (%s); %s < buf + (%s); %s++) {' % (v, lo, v, hi, v)]
                scope = outer
            elif form < 0.9:  # counted down by the condition itself
                head = ['for (int %s = %s; %s--; ) {' % (v, aff(outer + params, False), v)]
            elif form < 0.95 and params:  # a step by a parameter (a tile's)
                head = ['for (int %s = %s; %s %s %s; %s += %s + 1) {' % (v, lo, v, rel, hi, v, R.choice(params))]
            else:
                head = ['for (int %s = %s; %s %s %s; %s += %d) {' % (v, lo, v, rel, hi, v, R.choice([1, 1, 1, 2, 3]))]
            lines = [indent + h for h in head]
            # a for loop (not one whose condition steps it, nor one counted
            # value by value) skips the rest of some iterations
            if tests and scope and head[0].startswith(('for (int', 'FOR(', 'for (double')) and '--; )' not in head[0] \
                    and '*=' not in head[0] and G.random() < 0.25:
                lines.append('%s\tif (%s) continue;' % (indent, iteration_test(scope)))
            if params and R.random() < 0.2:  # a guard on a parameter
                lines.append('%s\tif (%s %s %d)' % (indent, R.choice(params), R.choice(['>', '>=', '<', '==']),
                                                    R.randint(0, 5)))
                lines.append(indent + '\t\tacc[0] += 1.0;')
            if level < 2 and R.random() < 0.6:
                lines += nest(level + 1, scope, indent + '\t')
            elif tests and scope and G.random() < 0.4:  # a test of the iteration (its own generator)
                lines.append('%s\tif (%s)' % (indent, iteration_test(scope)))
                lines.append(indent + '\t\tacc[0] += 1.0;')
            else:
                lines.append(indent + '\tacc[0] += 1.0;')
            if f + 1 < K and R.random() < 0.3:
                g = R.randint(f + 1, K - 1)
                lines.append('%s\tf%d(%s);' % (indent, g, args(g, scope + params)))
            return lines + tail

        text.append('void f%d(%s)' % (f, ', '.join('int ' + p for p in params)))
        text.append('{')
        if f + 1 < K and R.random() < 0.5:
            g = R.randint(f + 1, K - 1)
            text.append('\tf%d(%s);' % (g, args(g, params)))
        for _ in range(R.randint(1, 3)):
            text += nest(0, [], '\t')
        text.append('}')
    text += ['int main(int argc, char **argv)', '{', '\tint n = atoi(argv[1]), m = atoi(argv[2]);',
             '\tf0(%s);' % ', '.join(R.choice(['n', 'm', 'n + 1', 'm / 2', '3']) for _ in range(nps[0])),
             '\tprintf("%ld\\n", (long)acc[0]);', '\treturn 0;', '}']
    return '\n'.join(text) + '\n'


def check(epi, work, seed, tests):
    name = 'prog%d.c' % seed
    path = '%s/%s' % (work, name)
    with open(path, 'w') as f:
        f.write(program(seed, tests))
    exe = path[:-2]
    cc = subprocess.run(['gcc', '-O0', '-w', path, '-o', exe], capture_output=True, text=True)
    if cc.returncode:
        return 'FAIL %s: gcc: %s' % (name, cc.stderr.strip()[:200])
    for n, m in POINTS:
        truth = subprocess.run([exe, str(n), str(m)], capture_output=True, text=True, timeout=60).stdout.strip()
        p = subprocess.run([epi, path, '--param', 'n=%d' % n, '--param', 'm=%d' % m, '--format', 'csv'],
                           capture_output=True, text=True, timeout=600)
        if p.returncode or 'Sanitizer' in p.stderr or 'runtime error' in p.stderr:
            return 'FAIL %s: epi-predict exit %d: %s' % (name, p.returncode, p.stderr.strip()[:300])
        got = [r[5] for r in csv.reader(io.StringIO(p.stdout)) if len(r) > 5 and r[3] == 'total' and r[4] == 'add.f64']
        got = got[0] if got else '0'
        # a count left to a trip-count parameter (none evaluated), or a
        # call listed: said in a note
        if not got or 'beyond the analysis' in p.stderr:
            if 'cannot count this loop' not in p.stderr and 'beyond the analysis' not in p.stderr:
                return 'FAIL %s: n=%d m=%d: no count and no note saying why' % (name, n, m)
            return 'fallback %s' % name
        if got.endswith('.0'):
            got = got[:-2]
        if got != truth:
            return 'FAIL %s: n=%d m=%d: the run counts %s bodies, epi-predict %s' % (name, n, m, truth, got[:200])
        # the formula printed beside the count, where its condition holds
        formula = [r[8] for r in csv.reader(io.StringIO(p.stdout)) if len(r) > 8 and r[3] == 'total' and r[4] == 'add.f64']
        why = formula_check(formula[0] if formula else '0', n, m, int(truth))
        if why:
            return 'FAIL %s: n=%d m=%d: %s' % (name, n, m, why)
    return 'counted %s' % name


def formula_value(text, n, m):
    """The value of a formula or condition as epi-predict writes them."""
    e = re.sub(r'\b(\d+)\b', r'F(\1)', text.replace('^', '**'))
    return eval(e, {'__builtins__': {}, 'F': Fraction, 'floor': math.floor, 'n': Fraction(n), 'm': Fraction(m)})


def formula_check(formula, n, m, truth):
    """Why FORMULA ('EXPR for COND') is wrong at (n, m), or None: where
    COND holds (or is 'the values given'), EXPR is the run's count."""
    expr, _, cond = formula.partition(' for ')
    if cond.startswith('large parameters'):
        return None
    try:
        if cond and cond != 'the values given' and not formula_value(cond, n, m):
            return None
        value = formula_value(expr, n, m)
    except Exception as x:  # a formula outside the grammar above
        return 'formula %r unreadable: %s' % (formula[:200], x)
    if value != truth:
        return 'formula %r gives %s where the run counts %d' % (formula[:200], value, truth)
    return None


if __name__ == '__main__':
    args = sys.argv[1:]
    tests = args[0] != '--plain'
    if not tests:
        args = args[1:]
    epi, work = args[0], args[1]
    for s in args[2:]:
        print(check(epi, work, int(s), tests), flush=True)
