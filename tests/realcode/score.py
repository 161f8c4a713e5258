#!/usr/bin/env python3
"""tests/realcode/score.py: scores a gpulint build against the labelled real-code corpus.

For every labels file (labels/<owner>__<name>.tsv, format in README.md) it extracts the scoped
files of the labelled commit from a local bare snapshot (git archive; nothing is run), runs
gpulint over them with the default rule selection (as a new user would: --isolated, --no-cache,
--format json), and matches each finding to the labels of its file by line (or line range, or
notebook cell:line) and by the rules the label's category maps to. Then, per half (tune / held)
and per rule:

  TP        a finding on a `pitfall` label of a category the rule may report
  FP        a finding on an `ok` label of such a category (a labelled near miss)
  unjudged  a finding no label covers: read the code and add a label (--unjudged lists them)

precision = TP / (TP + FP) over the judged findings; recall per category = pitfall labels found by
a rule of the category / pitfall labels. `legacy` is scored apart from the rest, as issue 12 asks.

Usage:
  score.py --halves                        print which repository is in which half
  score.py --gpulint build/gpulint         score (text tables on stdout)
  score.py ... --half held --unjudged      also list unjudged findings and missed pitfalls
  score.py ... --json out.json             the figures as JSON too
  score.py ... --record 2026-12-06         write each rule's measured precision on the held-back
                                           half into its rule file (every finding must be judged)
Snapshots: --mirror DIR (default /work/.mirror) holds <owner>+<name>/repo bare git directories;
extracted trees are cached under --work DIR (default $TMPDIR/gpulint-realcode).
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import io
import re
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))

CATEGORY_RULES = {
    "d2h-in-loop": ["GPU201", "GPU206"],
    "device-condition": ["GPU202"],
    "upload-in-loop": ["GPU203", "GPU207", "GPU209"],
    "ping-pong": ["GPU204", "GPU402", "GPU403"],
    "host-array-kernel-arg": ["GPU205"],
    "implicit-conversion": ["GPU206"],
    "unsync-timer": ["GPU301", "GPU302", "GPU303", "GPU304"],
    "no-warmup": ["GPU305"],
    "framework-exit": ["GPU401"],
    "float64": ["GPU501", "GPU510", "GPU511", "GPU512", "GPU513", "GPU515", "GPU516"],
    "alloc-in-loop": ["GPU502", "GPU507"],
    "pool-defeated": ["GPU503"],
    "per-element-loop": ["GPU601", "GPU602", "GPU606", "GPU607", "GPU608"],
    "launch-loop": ["GPU603"],
    "sync-in-loop": ["GPU208"],
    "blocking-batch": ["GPU210"],
    "implicit-sync": ["GPU211"],
    "kernel-bug": ["GPU8"],       # a prefix: GPU801 .. GPU809
    "legacy": ["GPU1"],           # a prefix: GPU101 .. GPU120
    "other": [],
}
RULE_ID = re.compile(r"GPU[0-9]{3}")
KINDS = {"training", "rl", "diffusion", "detection", "jax", "warp", "numba", "cupy", "rapids",
         "course", "science", "other"}


def rule_in(rule, category):
    if RULE_ID.fullmatch(category):   # a label for one rule that no category covers (GPU505)
        return rule == category
    return any(rule.startswith(p) if len(p) < 6 else rule == p for p in CATEGORY_RULES[category])


class LabelError(Exception):
    pass


def parse_line_spec(spec, where):
    """'312' -> (None, 312, 312); '312-315' -> (None, 312, 315); '4:7' -> (4, 7, 7)."""
    cell = None
    if ":" in spec:
        c, spec = spec.split(":", 1)
        cell = int(c)
    if "-" in spec:
        a, b = spec.split("-", 1)
        lo, hi = int(a), int(b)
    else:
        lo = hi = int(spec)
    if lo < 1 or hi < lo:
        raise LabelError(f"{where}: bad line {spec!r}")
    return cell, lo, hi


def read_labels(path):
    repo = {"file": os.path.basename(path), "scope": [], "labels": []}
    seen_header = False
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            where = f"{path}:{n}"
            if not line.strip():
                continue
            if line.startswith("#"):
                key, _, val = line[1:].strip().partition(":")
                val = val.strip()
                if key == "scope":
                    repo["scope"].append(val)
                elif key in ("repo", "commit", "kind", "half"):
                    repo[key] = val
                continue
            cols = line.split("\t")
            if not seen_header:
                if cols[:4] != ["path", "line", "category", "verdict"]:
                    raise LabelError(f"{where}: the column header line must come first")
                seen_header = True
                continue
            if len(cols) < 4:
                raise LabelError(f"{where}: expected path, line, category, verdict, note")
            p, spec, cat, verdict = cols[:4]
            if cat not in CATEGORY_RULES and not RULE_ID.fullmatch(cat):
                raise LabelError(f"{where}: unknown category {cat!r}")
            if verdict not in ("pitfall", "ok"):
                raise LabelError(f"{where}: verdict must be pitfall or ok, not {verdict!r}")
            cell, lo, hi = parse_line_spec(spec, where)
            repo["labels"].append({"path": p, "cell": cell, "lo": lo, "hi": hi, "category": cat,
                                   "verdict": verdict, "note": cols[4] if len(cols) > 4 else "",
                                   "where": where, "found": False})
    for key in ("repo", "commit", "kind"):
        if key not in repo:
            raise LabelError(f"{path}: missing '# {key}:' header")
    if repo["kind"] not in KINDS:
        raise LabelError(f"{path}: unknown kind {repo['kind']!r}")
    if repo.get("half", "tune") not in ("tune", "held"):
        raise LabelError(f"{path}: '# half:' must be tune or held, not {repo['half']!r}")
    if not seen_header:
        raise LabelError(f"{path}: no column header line")
    for lab in repo["labels"]:
        if lab["path"] not in repo["scope"]:
            raise LabelError(f"{lab['where']}: {lab['path']} is not a '# scope:' file")
    return repo


def load_corpus():
    d = os.path.join(HERE, "labels")
    return [read_labels(os.path.join(d, f)) for f in sorted(os.listdir(d)) if f.endswith(".tsv")]


def assign_halves(repos):
    """A repository keeps the half its '# half:' header pins. Within each kind, the unpinned ones,
    sorted by the SHA-256 of owner/name, each go to the half with fewer repositories of the kind
    so far, and on a tie to the half the parity of the hash's first byte picks: adding a
    repository never moves an existing one, and the halves stay balanced within each kind."""
    by_kind = defaultdict(list)
    count = defaultdict(lambda: {"tune": 0, "held": 0})
    for r in repos:
        if "half" in r:
            count[r["kind"]][r["half"]] += 1
        else:
            by_kind[r["kind"]].append(r)
    for kind, rs in by_kind.items():
        rs.sort(key=lambda r: hashlib.sha256(r["repo"].encode()).hexdigest())
        for r in rs:
            c = count[kind]
            if c["tune"] != c["held"]:
                r["half"] = "tune" if c["tune"] < c["held"] else "held"
            else:
                r["half"] = "held" if hashlib.sha256(r["repo"].encode()).digest()[0] % 2 else "tune"
            c[r["half"]] += 1

def archive(gitdir, commit, pathspecs, dest):
    """Extracts the files of commit that pathspecs name from the bare git directory gitdir under
    dest (never outside it); returns git's error text, or None."""
    tar = subprocess.run(["git", "--git-dir", gitdir, "archive", "--format=tar", commit, "--"]
                         + pathspecs, capture_output=True)
    if tar.returncode != 0:
        return tar.stderr.decode().strip()
    os.makedirs(dest, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(tar.stdout)) as t:
        for m in t.getmembers():
            if m.isfile() and not m.name.startswith("/") and ".." not in m.name.split("/"):
                t.extract(m, dest, set_attrs=False)
    open(os.path.join(dest, ".extracted"), "w").close()
    return None


def extract(repo, mirror, work, whole=False):
    """The scoped files of repo at its commit (whole: and every other .py file), under
    work/<file stem>@<commit12>[-all]/; returns that folder."""
    dest = os.path.join(work, repo["file"][:-4] + "@" + repo["commit"][:12] + ("-all" if whole else ""))
    if os.path.exists(os.path.join(dest, ".extracted")):
        return dest
    gitdir = os.path.join(mirror, repo["repo"].replace("/", "+"), "repo")
    if not os.path.isdir(gitdir):
        raise LabelError(f"{repo['repo']}: no snapshot at {gitdir} (fetch it first)")
    err = archive(gitdir, repo["commit"], repo["scope"] + ([":(glob)**/*.py"] if whole else []), dest)
    if err is not None:
        raise LabelError(f"{repo['repo']}: git archive failed: {err}")
    return dest


def in_scope(finding, scope):
    """True when finding's file is a scoped file or lies in a scoped folder; strips "./"."""
    name = finding["filename"] = finding["filename"].removeprefix("./")
    return any(name == s or name.startswith(s.rstrip("/") + "/") for s in scope)


def run_gpulint(binary, tree, scope, extra):
    cmd = [binary, "check", "--isolated", "--no-cache", "--format", "json", "-q"] + extra + scope
    p = subprocess.run(cmd, cwd=tree, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.stderr.write(f"score.py: gpulint exited {p.returncode} in {tree}: {p.stderr.strip()}\n")
    return json.loads(p.stdout or "[]")


def label_covers(lab, f):
    if lab["path"] != f["filename"]:
        return False
    if lab["cell"] is not None:
        return f.get("cell") == lab["cell"] and lab["lo"] <= f.get("cell_line", 0) <= lab["hi"]
    return lab["lo"] <= f["location"]["row"] <= lab["hi"]


def score_repo(repo, findings):
    """Judges each finding; returns a list of (rule, verdict, finding, label)."""
    out = []
    for f in findings:
        if f["filename"] not in repo["scope"]:
            continue
        rule = f["code"]
        judged = None
        for lab in repo["labels"]:
            if label_covers(lab, f) and rule_in(rule, lab["category"]):
                if lab["verdict"] == "pitfall":
                    lab["found"] = True
                    judged = ("TP", lab)
                    break
                judged = judged or ("FP", lab)
        verdict, lab = judged or ("unjudged", None)
        out.append((rule, verdict, f, lab))
    return out


def where_of(f):
    if f.get("cell"):
        return f"{f['filename']}:{f['cell']}:{f['cell_line']}"
    return f"{f['filename']}:{f['location']['row']}"


def table(title, rows, header):
    print(f"\n{title}")
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)] if rows else []
    for r in [header] + rows:
        print("  " + "  ".join(str(x).ljust(w) for x, w in zip(r, widths)))


def pct(a, b):
    return f"{100.0 * a / b:.0f}%" if b else "-"


def context_of(tree, f, n):
    """The n lines either side of a finding in a .py file of the extracted tree, numbered."""
    if n <= 0 or f.get("cell"):
        return ""
    try:
        with open(os.path.join(tree, f["filename"]), encoding="utf-8", errors="replace") as fh:
            lines = fh.read().split("\n")
    except OSError:
        return ""
    row = f["location"]["row"]
    lo, hi = max(1, row - n), min(len(lines), row + n)
    return "".join(f"      {'>' if i == row else ' '}{i:5} {lines[i - 1]}\n" for i in range(lo, hi + 1))


def report(repos, results, halves, show_unjudged, trees=None, context=0):
    summary = {}
    for half in halves:
        rs = [r for r in repos if r["half"] == half]
        per_rule = defaultdict(lambda: {"TP": 0, "FP": 0, "unjudged": 0})
        for r in rs:
            for rule, verdict, _, _ in results[r["repo"]]:
                per_rule[rule][verdict] += 1
        rows = []
        tot = {"legacy": [0, 0, 0], "rest": [0, 0, 0]}
        for rule in sorted(per_rule):
            c = per_rule[rule]
            rows.append([rule, c["TP"], c["FP"], c["unjudged"], pct(c["TP"], c["TP"] + c["FP"])])
            t = tot["legacy" if rule.startswith("GPU1") else "rest"]
            t[0] += c["TP"]; t[1] += c["FP"]; t[2] += c["unjudged"]
        for k, t in tot.items():
            rows.append([f"all {k}", t[0], t[1], t[2], pct(t[0], t[0] + t[1])])
        table(f"[{half}] {len(rs)} repositories: findings per rule",
              rows, ["rule", "TP", "FP", "unjudged", "precision"])
        per_cat = defaultdict(lambda: [0, 0])
        for r in rs:
            for lab in r["labels"]:
                if lab["verdict"] == "pitfall":
                    per_cat[lab["category"]][1] += 1
                    per_cat[lab["category"]][0] += lab["found"]
        crow = [[c, per_cat[c][0], per_cat[c][1], pct(*per_cat[c])] for c in sorted(per_cat)]
        nl = [sum(v[i] for c, v in per_cat.items() if c != "legacy") for i in (0, 1)]
        crow.append(["all non-legacy", nl[0], nl[1], pct(*nl)])
        table(f"[{half}] recall per category", crow, ["category", "found", "pitfalls", "recall"])
        summary[half] = {"rules": dict(per_rule), "categories": dict(per_cat),
                         "precision_non_legacy": [tot["rest"][0], tot["rest"][0] + tot["rest"][1]],
                         "recall_non_legacy": nl}
        if show_unjudged:
            print(f"\n[{half}] unjudged findings (label them):")
            for r in rs:
                for rule, verdict, f, _ in results[r["repo"]]:
                    if verdict == "unjudged":
                        print(f"  {r['file']}  {where_of(f)}  {rule}  {f['message'][:110]}")
                        if context:
                            print(context_of(trees[r["repo"]], f, context), end="")
            print(f"\n[{half}] false positives:")
            for r in rs:
                for rule, verdict, f, lab in results[r["repo"]]:
                    if verdict == "FP":
                        print(f"  {r['file']}  {where_of(f)}  {rule}  ({lab['note'][:90]})")
            print(f"\n[{half}] missed pitfalls:")
            for r in rs:
                for lab in r["labels"]:
                    if lab["verdict"] == "pitfall" and not lab["found"]:
                        cl = f"{lab['cell']}:" if lab["cell"] else ""
                        print(f"  {r['file']}  {lab['path']}:{cl}{lab['lo']}  {lab['category']}"
                              f"  {lab['note'][:90]}")
    return summary


PRECISION_VALUE = re.compile(r'"precision":\s*("[a-z-]+"|\{[^{}]*\})')


def record_precision(per_rule, date):
    """Writes "precision": {"measured", "right", "judged", "date"} into the json block of each
    rule with judged findings on the held-back half (rules/<pack>/<ID>.md). A rule with unjudged
    findings is not recorded: its figure would not be a measurement."""
    rules_dir = os.path.join(HERE, "..", "..", "rules")
    paths = {}
    for pack in os.listdir(rules_dir):
        d = os.path.join(rules_dir, pack)
        if os.path.isdir(d):
            for f in os.listdir(d):
                if RULE_ID.fullmatch(f[:-3]) and f.endswith(".md"):
                    paths[f[:-3]] = os.path.join(d, f)
    for rule, c in sorted(per_rule.items()):
        judged = c["TP"] + c["FP"]
        if c["unjudged"] or not judged or rule not in paths:
            print(f"record: {rule} not recorded ({c['unjudged']} unjudged, {judged} judged)")
            continue
        with open(paths[rule], encoding="utf-8") as fh:
            text = fh.read()
        value = (f'{{"measured": {c["TP"] / judged:.3f}, "right": {c["TP"]}, "judged": {judged}, '
                 f'"date": "{date}"}}')
        new, n = PRECISION_VALUE.subn('"precision": ' + value.replace("\\", "\\\\"), text, count=1)
        if n != 1:
            sys.exit(f"score.py: no \"precision\" field in {paths[rule]}")
        with open(paths[rule], "w", encoding="utf-8") as fh:
            fh.write(new)
        print(f"record: {rule} precision {c['TP']}/{judged} = {c['TP'] / judged:.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gpulint", help="the gpulint binary to score")
    ap.add_argument("--halves", action="store_true", help="print the split and exit")
    ap.add_argument("--half", choices=["tune", "held", "both"], default="both")
    ap.add_argument("--repo", action="append", help="only these owner/name (repeatable)")
    ap.add_argument("--unjudged", action="store_true",
                    help="list unjudged findings, false positives and missed pitfalls")
    ap.add_argument("--context", type=int, default=0,
                    help="with --unjudged: print N lines of code either side of each finding")
    ap.add_argument("--mirror", default="/work/.mirror")
    ap.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                   "gpulint-realcode"))
    ap.add_argument("--whole", action="store_true",
                    help="lint every .py file of each repository (`gpulint .`), judging the "
                         "scoped files: callers in other files are in the run")
    ap.add_argument("--json", help="write the figures to this file")
    ap.add_argument("--record", metavar="DATE",
                    help="write the held-back half's per-rule precision into the rule files")
    ap.add_argument("extra", nargs="*", help="more gpulint arguments, after --")
    a = ap.parse_args()
    try:
        repos = load_corpus()
    except LabelError as e:
        sys.exit(f"score.py: {e}")
    assign_halves(repos)
    if a.halves:
        for half in ("tune", "held"):
            print(f"{half}:")
            for r in sorted((r for r in repos if r["half"] == half), key=lambda r: r["kind"]):
                n = sum(lab["verdict"] == "pitfall" for lab in r["labels"])
                print(f"  {r['kind']:10} {r['repo']}  ({n} pitfalls, {len(r['labels'])} labels)")
        return
    if not a.gpulint:
        sys.exit("score.py: --gpulint BINARY is required")
    binary = os.path.abspath(a.gpulint)
    if a.repo:
        repos = [r for r in repos if r["repo"] in a.repo]
    halves = ["tune", "held"] if a.half == "both" else [a.half]
    repos = [r for r in repos if r["half"] in halves]
    results, trees = {}, {}
    for r in repos:
        try:
            tree = extract(r, a.mirror, a.work, a.whole)
        except LabelError as e:
            sys.exit(f"score.py: {e}")
        trees[r["repo"]] = tree
        if a.whole:   # the project as its users lint it; judged in the scoped files only
            found = [f for f in run_gpulint(binary, tree, ["."], a.extra)
                     if in_scope(f, r["scope"])]
        else:
            found = run_gpulint(binary, tree, r["scope"], a.extra)
        results[r["repo"]] = score_repo(r, found)
    summary = report(repos, results, halves, a.unjudged, trees, a.context)
    if a.record:
        if "held" not in summary:
            sys.exit("score.py: --record measures the held-back half: use --half held or both")
        record_precision(summary["held"]["rules"], a.record)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(summary, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
