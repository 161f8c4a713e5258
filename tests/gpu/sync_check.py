#!/usr/bin/env python3
# tests/gpu/sync_check.py: owns the annotation format of the sync oracle's case files
# (tests/gpu/sync_cases/*.py) and the GPU-free check of those files and of a results file written
# by sync_oracle.py. Not owned: running the cases (sync_oracle.py) and the cases themselves.
# Pure standard library; never executes a case file (compile() only). Single-threaded.
"""usage: sync_check.py [--results FILE] [CASE.py ...]

(a) Every case file (default: every tests/gpu/sync_cases/*.py) must compile, define a top-level
    `case(device)`, and carry at least one annotation. An annotation is a trailing comment on a
    line of code inside case(), exactly one of
        # sync: yes            the line is expected to synchronize the host with the GPU
        # sync: no             the line is expected not to
    optionally followed by " -- <entry name>". Any comment that starts with the word "sync" is
    taken for an annotation and must have this form.
(b) When FILE (default tests/gpu/sync_results.json) exists: every annotated line must have an entry
    there (same file and line) whose "expected" equals the annotation, and every entry for a
    checked case file must still be annotated (without CASE arguments, an entry for a case file
    that is gone is a problem too). Prints how many entries are confirmed.
Exit status: 0 no problem; 1 one line per problem was printed; 2 usage error.
"""
import argparse
import ast
import glob
import io
import json
import os
import re
import sys
import tokenize

HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CASES_DIR = os.path.join(HERE, "sync_cases")
DEFAULT_RESULTS = os.path.join(HERE, "sync_results.json")

LOOKS_LIKE = re.compile(r"#\s*sync\b", re.IGNORECASE)       # a comment meant as an annotation
WELL_FORMED = re.compile(r"# sync: (yes|no)(?: -- (\S(?:.*\S)?))?")


def rel_path(path):
    """The path as results files name it: relative to the repository root, with '/'."""
    return os.path.relpath(os.path.realpath(path), ROOT).replace(os.sep, "/")


def default_case_files():
    return sorted(p for p in glob.glob(os.path.join(CASES_DIR, "*.py"))
                  if not os.path.basename(p).startswith("_"))


def parse_case_file(path):
    """Returns (annotations, problems) for one case file.

    annotations: a list of {"line", "expected", "entry", "source"}, in line order; "entry" is the
    name after " -- ", or the line's code when there is none. problems: a list of strings, each
    "FILE:LINE: what is wrong" (FILE relative to the repository root)."""
    rel = rel_path(path)
    problems = []
    try:
        with open(path, "rb") as f:
            raw = f.read()
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [], ["%s: unreadable: %s" % (rel, exc)]
    try:
        tree = compile(text, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        compile(tree, path, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return [], ["%s:%s: does not compile: %s" % (rel, exc.lineno or 0, exc.msg)]

    case_span = None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "case":
            case_span = (node.lineno, getattr(node, "end_lineno", None) or node.lineno)
            args = node.args
            if len(args.posonlyargs) + len(args.args) != 1 or args.vararg or args.kwonlyargs:
                problems.append("%s:%d: case() must take exactly one argument, the device"
                                % (rel, node.lineno))
    if case_span is None:
        problems.append("%s: defines no top-level function case(device)" % rel)

    lines = text.splitlines()
    annotations = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError) as exc:
        return [], problems + ["%s: cannot be tokenized: %s" % (rel, exc)]
    for tok in tokens:
        if tok.type != tokenize.COMMENT or not LOOKS_LIKE.match(tok.string):
            continue
        row, col = tok.start
        comment = tok.string.rstrip()
        code = lines[row - 1][:col].strip()
        match = WELL_FORMED.fullmatch(comment)
        if not match:
            problems.append("%s:%d: malformed annotation %r (want '# sync: yes' or '# sync: no',"
                            " optionally followed by ' -- <name>')" % (rel, row, comment))
            continue
        if not code:
            problems.append("%s:%d: annotation on a line without code" % (rel, row))
            continue
        if case_span and not case_span[0] < row <= case_span[1]:
            problems.append("%s:%d: annotation outside case()" % (rel, row))
            continue
        annotations.append({"line": row, "expected": match.group(1),
                            "entry": match.group(2) or code, "source": code})
    if not annotations and not problems:
        problems.append("%s: has no annotated line" % rel)
    return annotations, problems


def check_results(results_path, annotated, every_case):
    """annotated: {rel file: [annotation, ...]}; every_case: annotated holds every case file, so
    an entry for another file is stale too. Returns the problems; prints the summary."""
    try:
        with open(results_path, encoding="utf-8") as f:
            doc = json.load(f)
        entries = doc["entries"]
        by_key = {(e["file"], int(e["line"])): e for e in entries}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return ["%s: unreadable results: %s: %s" % (results_path, type(exc).__name__, exc)]
    print("results: %s (torch %s, cuda %s, %s, %s, repeat %s)" % (
        results_path, doc.get("torch"), doc.get("cuda"), doc.get("device"), doc.get("date"),
        doc.get("repeat")))
    problems = []
    confirmed = {"yes": [0, 0], "no": [0, 0]}
    unconfirmed = []
    for rel, anns in sorted(annotated.items()):
        for ann in anns:
            entry = by_key.get((rel, ann["line"]))
            if entry is None:
                problems.append("%s:%d: no entry in %s (results older than the case?)"
                                % (rel, ann["line"], results_path))
                continue
            if entry.get("expected") != ann["expected"]:
                problems.append("%s:%d: results say expected %r, the annotation says %r"
                                % (rel, ann["line"], entry.get("expected"), ann["expected"]))
                continue
            confirmed[ann["expected"]][1] += 1
            if entry.get("confirmed") is True:
                confirmed[ann["expected"]][0] += 1
            else:
                unconfirmed.append("  not confirmed: %s:%d %s (expected %s, %s syncs per run)"
                                   % (rel, ann["line"], ann["entry"], ann["expected"],
                                      entry.get("syncs_per_run")))
    for (rel, line), entry in sorted(by_key.items()):
        if rel in annotated and all(a["line"] != line for a in annotated[rel]):
            problems.append("%s:%d: results have an entry (%s) for a line that is not annotated"
                            % (rel, line, entry.get("entry")))
        elif rel not in annotated and every_case:
            problems.append("%s:%d: results have an entry for a case file that is gone"
                            % (rel, line))
    total_ok = confirmed["yes"][0] + confirmed["no"][0]
    total = confirmed["yes"][1] + confirmed["no"][1]
    print("confirmed: %d of %d annotated lines (sync: yes %d of %d, sync: no %d of %d)" % (
        total_ok, total, confirmed["yes"][0], confirmed["yes"][1], confirmed["no"][0],
        confirmed["no"][1]))
    for line in unconfirmed:
        print(line)
    timing = doc.get("timing")
    if isinstance(timing, dict):
        print("timing: %s: %s (pinned %s ms, pageable %s ms, queued %s ms)" % (
            timing.get("entry"), "confirmed" if timing.get("confirmed") else "not confirmed",
            timing.get("pinned_return_ms"), timing.get("pageable_return_ms"),
            timing.get("queued_ms")))
    for item in doc.get("unannotated") or []:
        print("  unannotated sync: %s:%s %s" % (item.get("file"), item.get("line"),
                                                 item.get("source")))
    return problems


def main(argv):
    ap = argparse.ArgumentParser(
        description="Check the sync oracle's case files and results (no GPU needed).")
    ap.add_argument("--results", default=DEFAULT_RESULTS,
                    help="results file written by sync_oracle.py (default: %(default)s)")
    ap.add_argument("cases", nargs="*",
                    help="case files (default: every tests/gpu/sync_cases/*.py)")
    args = ap.parse_args(argv)
    files = args.cases or default_case_files()
    if not files:
        print("sync_check: no case files in %s" % CASES_DIR, file=sys.stderr)
        return 2
    for path in files:
        if not os.path.isfile(path):
            print("sync_check: no such case file: %s" % path, file=sys.stderr)
            return 2

    problems = []
    annotated = {}
    for path in files:
        anns, probs = parse_case_file(path)
        problems += probs
        annotated[rel_path(path)] = anns
    n_yes = sum(a["expected"] == "yes" for anns in annotated.values() for a in anns)
    n_no = sum(a["expected"] == "no" for anns in annotated.values() for a in anns)
    print("case files: %d, annotated lines: %d (sync: yes %d, sync: no %d)"
          % (len(files), n_yes + n_no, n_yes, n_no))
    if os.path.exists(args.results):
        problems += check_results(args.results, annotated, every_case=not args.cases)
    else:
        print("results: %s does not exist; checked the case files only" % args.results)
    for problem in problems:
        print("problem: " + problem)
    print("sync_check: %s" % ("%d problem(s)" % len(problems) if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
