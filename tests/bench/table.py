#!/usr/bin/env python3
"""tests/bench/table.py: turns one benchmark run (hyperfine's JSON, the peak-RSS runs, the corpora
sizes and run.sh's notes) into the Markdown table and ratios run.sh prints and saves.

Usage: table.py DIR   (DIR is run.sh's results dir: hyperfine.json, rss.txt, rows.txt,
                       corpora.json, meta.txt). Writes nothing; prints the table on stdout.
Exit status 1 when the table is incomplete: a row that run.sh planned has no timing or no peak
RSS, or a figure the ratios need is missing (the smoke test relies on this). Never judges timings.
"""
import json
import os
import sys


def load_rows(d):
    """rows.txt: one planned row a line, `id<TAB>corpus<TAB>label<TAB>command` or
    `id<TAB>corpus<TAB>label<TAB>-<TAB>skipped: reason`."""
    rows = []
    with open(os.path.join(d, "rows.txt")) as fh:
        for line in fh:
            parts = line.rstrip("\n").split("\t")
            rows.append({"id": parts[0], "corpus": parts[1], "label": parts[2],
                         "command": parts[3], "skip": parts[4] if len(parts) > 4 else ""})
    return rows


def load_rss(d):
    rss = {}
    path = os.path.join(d, "rss.txt")
    if os.path.exists(path):
        with open(path) as fh:
            for line in fh:
                key, _, value = line.strip().partition(" ")
                if value.isdigit():
                    rss[key] = int(value) / 1024.0
    return rss


def fmt(x, spec="%.3f"):
    return spec % x if x is not None else "—"


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: table.py DIR\n")
        return 2
    d = argv[1]
    rows = load_rows(d)
    with open(os.path.join(d, "hyperfine.json")) as fh:
        results = {r["command"]: r for r in json.load(fh)["results"]}
    with open(os.path.join(d, "corpora.json")) as fh:
        corpora = json.load(fh)["corpora"]
    rss = load_rss(d)
    with open(os.path.join(d, "meta.txt")) as fh:
        meta = fh.read().rstrip("\n")
    missing = []
    med = {}
    out = [meta, "",
           "| row | corpus | command | median s | min s | max s | peak RSS MB |",
           "|---|---|---|---:|---:|---:|---:|"]
    for r in rows:
        size = corpora.get(r["corpus"], {})
        corpus = "%s (%d files, %.1f MB)" % (r["corpus"], size.get("files", 0), size.get("bytes", 0) / 1e6)
        if r["skip"]:
            out.append("| %s | %s | %s | %s | | | |" % (r["id"], corpus, r["label"], r["skip"]))
            continue
        res = results.get(r["id"])
        if res is None or r["id"] not in rss:
            missing.append(r["id"])
        if res is not None:
            med[r["id"]] = res["median"]
        out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            r["id"], corpus, r["label"], fmt(res and res["median"]), fmt(res and res["min"]),
            fmt(res and res["max"]), fmt(rss.get(r["id"]), "%.1f")))

    def ratio(a, b):
        return med[a] / med[b] if a in med and b in med and med[b] > 0 else None

    jobs = next((line.split("=", 1)[1] for line in meta.splitlines() if line.startswith("jobs=")), "N")
    lines = [
        ("gpulint --no-prefilter / ast-grep 25 rules (gpu-dense, -j%s); target <= 0.85" % jobs,
         ratio("gl-noprefilter", "ag25-dense"), "ag25-dense"),
        ("gpulint --no-prefilter / parse floor (gpu-dense, -j%s); target <= 1.15" % jobs,
         ratio("gl-noprefilter", "floor"), "floor"),
        ("parse floor / parse floor with tree-sitter's heap allocation (gpu-dense, -j%s): what the "
         "parse arena saves" % jobs, ratio("floor", "floor-heap"), "floor-heap"),
        ("parse and one walk over every node / parse floor (gpu-dense, -j%s): the least any linter "
         "that looks at every node adds" % jobs, ratio("floor-walk", "floor"), "floor-walk"),
        ("gpulint -j%s / -j1 time (gpu-dense, --no-prefilter); speed-up target >= 1.8 (ratio <= 0.56)" % jobs,
         ratio("gl-noprefilter", "gl-j1"), "gl-j1"),
        ("ast-grep 1 rule / gpulint default (stdlib): times faster; target >= 25",
         ratio("ag1-stdlib", "gl-default"), "ag1-stdlib"),
        ("ast-grep 25 rules / ast-grep 1 rule (gpu-dense): the cost of more rules",
         ratio("ag25-dense", "ag1-dense"), "ag1-dense"),
    ]
    out += ["", "Ratios of medians:", ""]
    skipped = {r["id"] for r in rows if r["skip"]}
    for text, value, needs in lines:
        if value is None and needs in skipped:
            out.append("- %s: not measured (%s skipped)" % (text, needs))
            continue
        if value is None:
            missing.append("ratio: " + text)
        out.append("- %s: %s" % (text, fmt(value)))
    out += ["", "Time per MB, gpulint --no-prefilter -j%s:" % jobs, ""]
    for rid, name in (("gl-noprefilter", "gpu-dense"), ("gl-2x", "gpu-dense-2x"), ("gl-4x", "gpu-dense-4x")):
        mb = corpora.get(name, {}).get("bytes", 0) / 1e6
        value = med[rid] / mb * 1000 if rid in med and mb > 0 else None
        if value is None:
            missing.append("time per MB: " + name)
        out.append("- %s (%.1f MB): %s ms/MB" % (name, mb, fmt(value, "%.1f")))
    print("\n".join(out))
    if missing:
        sys.stderr.write("table.py: incomplete table, missing: %s\n" % ", ".join(missing))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
