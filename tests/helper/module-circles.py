#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""module-circles.py OBJDIR SRCDIR: prints each circle among our modules, one
a line ("a -> b -> a: a calls b's f, ..."), from who calls whom (nm of
OBJDIR's trace-*.o) and which of our headers include which (SRCDIR's
trace-*.h); prints nothing when the modules call and include one way only."""
import collections
import glob
import os
import re
import subprocess
import sys


def call_graph(objdir):
    defs, uses = {}, collections.defaultdict(set)
    for o in sorted(glob.glob(os.path.join(objdir, 'trace-*.o'))):
        mod = os.path.basename(o)[:-2]
        out = subprocess.run(['nm', o], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in 'TDBRWV':
                defs[f[2]] = mod
            elif len(f) == 2 and f[0] == 'U':
                uses[mod].add(f[1])
    g, why = collections.defaultdict(set), collections.defaultdict(set)
    for mod, syms in uses.items():
        for s in syms:
            d = defs.get(s)
            if d and d != mod:
                g[mod].add(d)
                why[(mod, d)].add(s)
    return g, why


def include_graph(srcdir):
    g, why = collections.defaultdict(set), collections.defaultdict(set)
    for h in sorted(glob.glob(os.path.join(srcdir, 'trace-*.h'))):
        name = os.path.basename(h)
        for inc in re.findall(r'^#include "([^"]+)"', open(h).read(), re.M):
            g[name].add(inc)
            why[(name, inc)].add('#include')
    return g, why


def circles(g):
    """Tarjan's strongly connected components of more than one node."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(list(g)):
        if v not in index:
            visit(v)
    return out


def main():
    objdir, srcdir = sys.argv[1], sys.argv[2]
    for g, why in (call_graph(objdir), include_graph(srcdir)):
        for comp in circles(g):
            edges = ['%s -> %s (%s)' % (a, b, ', '.join(sorted(why[(a, b)])))
                     for a in comp for b in sorted(g[a]) if b in comp]
            print('circle: ' + '; '.join(edges))


main()
