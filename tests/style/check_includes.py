#!/usr/bin/env python3
"""tests/style/check_includes.py REPO: the include rules of src/ (docs/architecture.md).

A module is a folder of src/ (src/checks/<pack>/ belongs to checks), or one file stem at the top
of src/ (engine, walk, ...). Checked here:
  1. no circle between modules: the graph of `#include "..."` between modules is acyclic;
  2. a folder's public header is <folder>/<folder>.h; any other header in it is private and is
     included only from inside that folder (base/ is the exception: a library of utilities, each
     header its own public interface);
  3. every include names its path from src/ ("base/xalloc.h"), never "../" or a bare name from
     another folder.
Prints one line per problem and exits 1 when there is any."""
import os
import re
import sys

INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def module_of(rel):
    parts = rel.split('/')
    return parts[0] if len(parts) > 1 else os.path.splitext(parts[0])[0]


def main(repo):
    src = os.path.join(repo, 'src')
    files = []
    for d, _, names in os.walk(src):
        for n in names:
            if n.endswith(('.c', '.h', '.cpp')):
                files.append(os.path.relpath(os.path.join(d, n), src))
    files.sort()
    problems, edges = [], {}
    for rel in files:
        text = open(os.path.join(src, rel), encoding='utf-8', errors='replace').read()
        me = module_of(rel)
        for inc in INC.findall(text):
            if not os.path.exists(os.path.join(src, inc)):
                problems.append('src/%s: include "%s" does not name a path from src/' % (rel, inc))
                continue
            them = module_of(inc)
            folder = inc.split('/')[0] if '/' in inc else None
            if folder and folder != 'base' and them != me:
                public = '%s/%s.h' % (folder, folder)
                if inc != public:
                    problems.append('src/%s: includes %s, private to src/%s/ (its public header is %s)'
                                    % (rel, inc, folder, public))
            if them != me:
                edges.setdefault(me, {}).setdefault(them, rel)
    # Circles: Tarjan's strongly connected components.
    index, low, stack, on, sccs = {}, {}, [], set(), []
    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v); on.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: sccs.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in sorted(set(edges) | {w for e in edges.values() for w in e}):
        if v not in index: visit(v)
    for comp in sccs:
        links = ['%s -> %s (%s)' % (a, b, edges[a][b]) for a in comp for b in comp
                 if b in edges.get(a, {})]
        problems.append('include circle between modules %s: %s' % (', '.join(comp), '; '.join(links)))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else '.'))
