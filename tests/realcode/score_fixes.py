#!/usr/bin/env python3
"""tests/realcode/score_fixes.py: scores a gpulint build against maintainers' sync fixes.

fixes.tsv (format in README.md, "The fix-commit part") lists commits in which the maintainers of
a project removed a per-step device-to-host read, synchronize or blocking upload. For each row,
the file is extracted at the parent commit and at the fix commit from a local bare snapshot (git
show; nothing is run), gpulint runs over each version alone (as a user linting that one file:
--isolated, --no-cache, --format json), and:

  found      the parent's line has a finding of a rule the row's category maps to (score.py's
             table; `other` takes any rule but the legacy ones): the pitfall was seen
  fix-flag   the fix commit's line has such a finding: the repair is reported as the pitfall

per half (a `half` column pinned per fix commit: within each project the commits, sorted by the
SHA-256 of the fix commit, alternate, starting from the parity of the project's hash).

Usage:
  score_fixes.py --check                          validate fixes.tsv (and print the split)
  score_fixes.py --pin                            write each row's half into fixes.tsv
  score_fixes.py --gpulint build/gpulint [--half held] [--misses] [-- extra gpulint args]
"""
import argparse
import hashlib
import os
import subprocess
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import score  # noqa: E402  (the category table, rule_in and run_gpulint)

FIXES = os.path.join(HERE, "fixes.tsv")
COLUMNS = ["repo", "parent", "fix", "path", "parent_line", "fix_line", "category", "note"]
CATEGORIES = {"d2h-in-loop", "sync-in-loop", "device-condition", "upload-in-loop",
              "implicit-conversion", "other"}


class FixError(Exception):
    pass


def is_commit(s):
    return len(s) == 40 and all(c in "0123456789abcdef" for c in s)


def read_fixes(path=FIXES):
    rows, header, extra = [], None, []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            where = f"{os.path.basename(path)}:{n}"
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if header is None:
                if cols[:len(COLUMNS)] != COLUMNS or cols[len(COLUMNS):] not in ([], ["half"]):
                    raise FixError(f"{where}: the column header must be {' '.join(COLUMNS)} [half]")
                header = cols
                continue
            if len(cols) != len(header):
                raise FixError(f"{where}: expected {len(header)} columns, got {len(cols)}")
            r = dict(zip(header, cols))
            r["where"] = where
            if not (is_commit(r["parent"]) and is_commit(r["fix"])):
                raise FixError(f"{where}: parent and fix must be 40-hex commit ids")
            if r["category"] not in CATEGORIES:
                raise FixError(f"{where}: unknown category {r['category']!r}")
            try:
                r["parent_line"] = int(r["parent_line"])
                r["fix_line"] = None if r["fix_line"] == "-" else int(r["fix_line"])
            except ValueError:
                raise FixError(f"{where}: parent_line must be a number, fix_line a number or -")
            if r.get("half", "tune") not in ("tune", "held"):
                raise FixError(f"{where}: half must be tune or held")
            rows.append(r)
    if header is None:
        raise FixError(f"{path}: no column header line")
    return rows


def assign_halves(rows):
    """Rows without a half: within each project, the fix commits sorted by their SHA-256
    alternate, the first going to the half the parity of the project's hash picks."""
    by_repo = defaultdict(set)
    for r in rows:
        if "half" not in r:
            by_repo[r["repo"]].add(r["fix"])
    half_of = {}
    for repo, fixes in by_repo.items():
        start = hashlib.sha256(repo.encode()).digest()[0] % 2
        for i, fix in enumerate(sorted(fixes, key=lambda f: hashlib.sha256(f.encode()).hexdigest())):
            half_of[(repo, fix)] = "held" if (i + start) % 2 else "tune"
    for r in rows:
        r.setdefault("half", half_of.get((r["repo"], r["fix"])))


def pin(rows, path=FIXES):
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    out, seen_header, i = [], False, 0
    for line in lines:
        if not line.strip() or line.startswith("#"):
            out.append(line)
        elif not seen_header:
            seen_header = True
            out.append(line if line.endswith("\thalf") else line + "\thalf")
        else:
            cols = line.split("\t")
            out.append(line if len(cols) > len(COLUMNS) else line + "\t" + rows[i]["half"])
            i += 1
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(out))


def extract(r, commit, mirror, work):
    """The row's file at commit, under work/<owner+name>@<commit12>/; returns that folder."""
    dest = os.path.join(work, r["repo"].replace("/", "+") + "@" + commit[:12])
    target = os.path.join(dest, r["path"])
    if os.path.exists(target):
        return dest
    gitdir = os.path.join(mirror, r["repo"].replace("/", "+"), "repo")
    if not os.path.isdir(gitdir):
        raise FixError(f"{r['where']}: no snapshot at {gitdir} (fetch {r['repo']} first)")
    p = subprocess.run(["git", "--git-dir", gitdir, "show", f"{commit}:{r['path']}"],
                       capture_output=True)
    if p.returncode != 0:
        raise FixError(f"{r['where']}: git show {commit[:12]}:{r['path']} failed")
    if ".." in r["path"].split("/") or r["path"].startswith("/"):
        raise FixError(f"{r['where']}: bad path {r['path']!r}")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as fh:
        fh.write(p.stdout)
    return dest


def extract_whole(r, commit, mirror, work):
    """Every .py file of the repository at commit, under work/<owner+name>@<commit12>-all/: the
    project as its users lint it (`gpulint .`), so callers in other files are in the run."""
    dest = os.path.join(work, r["repo"].replace("/", "+") + "@" + commit[:12] + "-all")
    if os.path.exists(os.path.join(dest, ".extracted")):
        return dest
    gitdir = os.path.join(mirror, r["repo"].replace("/", "+"), "repo")
    if not os.path.isdir(gitdir):
        raise FixError(f"{r['where']}: no snapshot at {gitdir} (fetch {r['repo']} first)")
    err = score.archive(gitdir, commit, [":(glob)**/*.py"], dest)
    if err is not None:
        raise FixError(f"{r['where']}: git archive {commit[:12]} failed: {err}")
    return dest


def counts(rule, category):
    if category == "other":
        return not rule.startswith("GPU1")
    return score.rule_in(rule, category)


def flagged(findings, r, line):
    return line is not None and any(
        f["filename"] == r["path"] and f["location"]["row"] == line and counts(f["code"], r["category"])
        for f in findings)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gpulint")
    ap.add_argument("--check", action="store_true", help="validate fixes.tsv and print the split")
    ap.add_argument("--pin", action="store_true", help="write each row's half into fixes.tsv")
    ap.add_argument("--half", choices=["tune", "held", "both"], default="both")
    ap.add_argument("--misses", action="store_true", help="list the pitfalls not found")
    ap.add_argument("--whole", action="store_true",
                    help="lint every .py file of the repository at each commit (`gpulint .`), "
                         "not the fixed file alone: callers in other files are in the run")
    ap.add_argument("--mirror", default="/work/.mirror")
    ap.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                   "gpulint-fixes"))
    ap.add_argument("extra", nargs="*", help="more gpulint arguments, after --")
    a = ap.parse_args()
    try:
        rows = read_fixes()
    except FixError as e:
        sys.exit(f"score_fixes.py: {e}")
    assign_halves(rows)
    if a.pin:
        pin(rows)
        return
    if a.check:
        for half in ("tune", "held"):
            rs = [r for r in rows if r["half"] == half]
            projects = sorted({r["repo"] for r in rs})
            print(f"{half}: {len(rs)} rows, {len({r['fix'] for r in rs})} fix commits, "
                  f"{len(projects)} projects ({', '.join(projects)})")
        return
    if not a.gpulint:
        sys.exit("score_fixes.py: --gpulint BINARY is required")
    binary = os.path.abspath(a.gpulint)
    halves = ["tune", "held"] if a.half == "both" else [a.half]
    cache = {}
    for half in halves:
        rs = [r for r in rows if r["half"] == half]
        per_cat = defaultdict(lambda: [0, 0, 0, 0])   # found, pitfalls, fix-flag, fix lines
        misses = []
        for r in rs:
            got = {}
            for side in ("parent", "fix"):
                try:
                    if a.whole:
                        tree = extract_whole(r, r[side], a.mirror, a.work)
                    else:
                        tree = extract(r, r[side], a.mirror, a.work)
                except FixError as e:
                    sys.exit(f"score_fixes.py: {e}")
                key = (tree, "." if a.whole else r["path"])
                if key not in cache:
                    found = score.run_gpulint(binary, tree, [key[1]], a.extra)
                    for f in found:
                        f["filename"] = f["filename"].removeprefix("./")
                    cache[key] = found
                got[side] = cache[key]
            c = per_cat[r["category"]]
            c[1] += 1
            if flagged(got["parent"], r, r["parent_line"]):
                c[0] += 1
            else:
                misses.append(r)
            if r["fix_line"] is not None:
                c[3] += 1
                c[2] += flagged(got["fix"], r, r["fix_line"])
        rows_out = [[k, v[0], v[1], score.pct(v[0], v[1]), v[2], v[3]] for k, v in sorted(per_cat.items())]
        tot = [sum(v[i] for v in per_cat.values()) for i in range(4)]
        rows_out.append(["all", tot[0], tot[1], score.pct(tot[0], tot[1]), tot[2], tot[3]])
        score.table(f"[{half}] {len(rs)} fixes, {len({r['fix'] for r in rs})} commits: parent lines found, "
                    f"fix lines flagged", rows_out,
                    ["category", "found", "pitfalls", "recall", "fix-flag", "fix lines"])
        if a.misses:
            print(f"\n[{half}] not found:")
            for r in misses:
                print(f"  {r['repo']} {r['fix'][:10]} {r['path']}:{r['parent_line']}  "
                      f"{r['category']}  {r['note'][:80]}")


if __name__ == "__main__":
    main()
