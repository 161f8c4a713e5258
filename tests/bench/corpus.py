#!/usr/bin/env python3
"""tests/bench/corpus.py: generates the benchmark's corpora under DIR from this machine's python3.

  stdlib/            every *.py file of sysconfig's stdlib directory, same relative paths,
                     without the directories gpulint skips (site-packages, __pycache__, build,
                     dist, ...) or hidden ones (ast-grep skips those), so every tool sees one set
  gpu-dense/         the same files, each prefixed with imports of cupy, torch and numba's cuda
                     so that no prefilter can skip a file and every rule pack is live
  gpu-dense-2x/      2 copies of gpu-dense (0/, 1/), for the linearity rows
  gpu-dense-4x/      4 copies (0/ .. 3/)
  <name>.list        one absolute path a line, for parse_floor -l
  corpora.json       {name: {"files": N, "bytes": B}}

Usage: corpus.py DIR [--limit N]   (--limit: only the first N files in path order, for --smoke)
"""
import json
import os
import sys
import sysconfig

PREFIX = b"import cupy as cp\nimport torch\nfrom numba import cuda\n"
SKIP = {".git", ".venv", "venv", "__pycache__", "node_modules", "build", "dist",
        "site-packages", "dist-packages", ".tox", ".eggs"}


def stdlib_files(root):
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP and not x.startswith("."))
        for f in sorted(files):
            if f.endswith(".py") and not f.startswith("."):
                out.append(os.path.relpath(os.path.join(d, f), root))
    return sorted(out)


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--limit"):
        sys.stderr.write("usage: corpus.py DIR [--limit N]\n")
        return 2
    out = os.path.abspath(argv[1])
    root = sysconfig.get_paths()["stdlib"]
    rels = stdlib_files(root)
    if len(argv) == 4:
        rels = rels[: int(argv[3])]
    names = {"stdlib": [], "gpu-dense": [], "gpu-dense-2x": [], "gpu-dense-4x": []}
    sizes = {n: {"files": 0, "bytes": 0} for n in names}

    def add(name, path, data):
        write(path, data)
        names[name].append(path)
        sizes[name]["files"] += 1
        sizes[name]["bytes"] += len(data)

    for rel in rels:
        with open(os.path.join(root, rel), "rb") as fh:
            data = fh.read()
        add("stdlib", os.path.join(out, "stdlib", rel), data)
        dense = PREFIX + data
        add("gpu-dense", os.path.join(out, "gpu-dense", rel), dense)
        for copies in (2, 4):
            for i in range(copies):
                add("gpu-dense-%dx" % copies, os.path.join(out, "gpu-dense-%dx" % copies, str(i), rel), dense)
    for name, paths in names.items():
        with open(os.path.join(out, name + ".list"), "w") as fh:
            fh.write("".join(p + "\n" for p in paths))
    with open(os.path.join(out, "corpora.json"), "w") as fh:
        json.dump({"stdlib_root": root, "corpora": sizes}, fh, indent=1)
    for name, s in sizes.items():
        print("corpus %-13s %6d files %8.1f MB" % (name, s["files"], s["bytes"] / 1e6))
    return 0 if rels else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
