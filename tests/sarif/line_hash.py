#!/usr/bin/env python3
"""line_hash.py GPULINT REPO: checks gpulint's partialFingerprints.primaryLocationLineHash against
an independent computation.

The computation below is written from the issue's description of what GitHub's upload action
(codeql-action, src/fingerprints.ts) does when a result has no fingerprint, not from gpulint's C:
the file is decoded as UTF-8 the way Node decodes it (an invalid sequence becomes one U+FFFD per
maximal subpart, a BOM stays a character) and read as UTF-16 code units; spaces and tabs are
skipped; CR LF and a lone CR count as one LF; from each line's first counted unit, a rolling hash
(multiplier 37, 64-bit wrap-around) runs over the next 100 counted units, with a 65535 sentinel
after the last unit and zeros after that; the value is the unsigned hex of the hash, ':' and how
many times that hash occurred so far in the file (1-based).

It first checks the issue's published test vectors, then lints every file of tests/rules/fixtures,
examples/ and the CLI snapshot inputs (BOM, CRLF, invalid UTF-8 ...) and a generated edge case with --format sarif,
and compares every result's fingerprint with its own; the CLI inputs are also linted through
--stdin-filename. Any mismatch fails the test (exit 1) and is printed; the last line says how
many results were compared. Python standard library only.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

BLOCK = 100
MOD = 37
EOF_UNIT = 65535
MASK = (1 << 64) - 1
TAB, SPACE, LF, CR = 9, 32, 10, 13


def line_hashes(data):
    """The fingerprint of every line of data (bytes), as a list indexed by line - 1."""
    text = data.decode("utf-8", errors="replace")
    units16 = text.encode("utf-16-le", errors="surrogatepass")
    units = [units16[i] | (units16[i + 1] << 8) for i in range(0, len(units16), 2)]
    first_mod = pow(MOD, BLOCK, 1 << 64)
    window = [0] * BLOCK
    line_at = [-1] * BLOCK
    state = {"hash": 0, "index": 0, "line": 0, "start": True, "prev_cr": False}
    counts = {}
    out = {}

    def output():
        value = format(state["hash"], "x")
        counts[value] = counts.get(value, 0) + 1
        out[line_at[state["index"]]] = "%s:%d" % (value, counts[value])
        line_at[state["index"]] = -1

    def update(unit):
        i = state["index"]
        begin = window[i]
        window[i] = unit
        state["hash"] = (MOD * state["hash"] + unit - first_mod * begin) & MASK
        state["index"] = (i + 1) % BLOCK

    def process(unit):
        if unit in (SPACE, TAB) or (state["prev_cr"] and unit == LF):
            state["prev_cr"] = False
            return
        state["prev_cr"] = unit == CR
        if unit == CR:
            unit = LF
        if line_at[state["index"]] != -1:
            output()
        if state["start"]:
            state["start"] = False
            state["line"] += 1
            line_at[state["index"]] = state["line"]
        if unit == LF:
            state["start"] = True
        update(unit)

    for unit in units:
        process(unit)
    process(EOF_UNIT)
    for _ in range(BLOCK):
        if line_at[state["index"]] != -1:
            output()
        update(0)
    return [out[n] for n in range(1, len(out) + 1)]


def check_vectors():
    """The issue's test vectors; returns how many lines they checked."""
    cases = [
        (b"", ["c129715d7a2bc9a3:1"]),
        (b" a\nb\n  \t\tc\n d", ["271789c17abda88f:1", "54703d4cd895b18:1", "180aee12dab6264:1",
                                "a23a3dc5e078b07b:1"]),
        (b"Lorem ipsum dolor sit amet.\n" * 10,
         ["a7f2ff13bc495cf2:%d" % n for n in range(1, 7)] +
         ["a7f2ff1481e87703:1"]),
    ]
    checked = 0
    for data, want in cases:
        got = line_hashes(data)[:len(want)]
        if got != want:
            sys.exit("FAIL: test vector %r: got %s, want %s" % (data[:30], got, want))
        checked += len(want)
    # The folding rules: CRLF and a lone CR read as LF, spaces and tabs are skipped.
    lf = line_hashes(b"a = 1\nb = 2\n")
    for variant in (b"a = 1\r\nb = 2\r\n", b"a = 1\rb = 2\r", b"a=1\nb\t=\t2\n"):
        if line_hashes(variant) != lf:
            sys.exit("FAIL: %r does not hash like %r" % (variant, b"a = 1\nb = 2\n"))
    return checked


def sarif_results(log):
    """(uri, uriBaseId, startLine, fingerprint) of every result of a SARIF log."""
    for run in log["runs"]:
        for r in run.get("results", []):
            loc = r["locations"][0]["physicalLocation"]
            fp = r.get("partialFingerprints", {}).get("primaryLocationLineHash")
            yield (loc["artifactLocation"]["uri"], loc["artifactLocation"].get("uriBaseId"),
                   loc["region"]["startLine"], fp, r["ruleId"])


def compare(results, path_of, problems):
    """Compares each result's fingerprint with ours; returns how many were compared."""
    cache = {}
    n = 0
    for uri, base, line, fp, rule in results:
        path = path_of(uri, base)
        if path not in cache:
            with open(path, "rb") as f:
                cache[path] = line_hashes(f.read())
        want = cache[path][line - 1] if line - 1 < len(cache[path]) else None
        n += 1
        if fp != want:
            problems.append("%s:%d %s: gpulint %s, independent %s" % (uri, line, rule, fp, want))
    return n


# One more input built here: every folding rule next to findings (BOM, CRLF, lone CR, NUL, tabs,
# astral and invalid UTF-8, a line longer than the 100-unit window, repeated lines, no final LF).
EDGE = (b"\xef\xbb\xbfimport cuspatial\r\n"
        b"x = '\x00'\rimport cuspatial\n"
        b"if x:\n\t  import cuspatial  # \xf0\x9f\x98\x80 \xe2\x82 \xed\xa0\x80 \xff\n"
        b"s = '" + b"\xc3\xa9" * 120 + b"'; import cuspatial\n"
        + b"import cuspatial\n" * 3 + b"import cuspatial")


def copy_inputs(repo, dst):
    """Copies the fixtures, examples, notebooks and CLI inputs under dst and writes EDGE; returns the files
    to lint through --stdin-filename too."""
    os.mkdir(os.path.join(dst, "generated"))
    edge = os.path.join(dst, "generated", "edge.py")
    with open(edge, "wb") as f:
        f.write(EDGE)
    shutil.copytree(os.path.join(repo, "tests", "rules", "fixtures"), os.path.join(dst, "fixtures"))
    shutil.copytree(os.path.join(repo, "examples"), os.path.join(dst, "examples"))
    # notebooks: the hash is of the .ipynb's json line, as GitHub hashes the file it shows
    notebooks = os.path.join(dst, "notebooks")
    shutil.copytree(os.path.join(repo, "tests", "fixtures", "notebooks"), notebooks)
    cli_files = [edge] + [os.path.join(notebooks, f) for f in sorted(os.listdir(notebooks))]
    cli = os.path.join(repo, "tests", "cli")
    for case in sorted(os.listdir(cli)):
        src = os.path.join(cli, case, "input")
        if not os.path.isdir(src):
            continue
        target = os.path.join(dst, "cli", case)
        shutil.copytree(src, target, symlinks=True)
        for root, _, files in os.walk(target):
            cli_files += [os.path.join(root, f) for f in sorted(files) if f.endswith(".py")]
    return cli_files


def run(cmd, cwd, stdin=None):
    p = subprocess.run(cmd, cwd=cwd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1, 2):
        sys.exit("FAIL: %s exited %d: %s" % (cmd, p.returncode, p.stderr.decode(errors="replace")))
    return json.loads(p.stdout)


def main():
    gpulint, repo = os.path.abspath(sys.argv[1]), sys.argv[2]
    vectors = check_vectors()
    print("test vectors: %d lines match the issue's published hashes" % vectors)
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        os.mkdir(src)
        subprocess.run(["git", "init", "-q", src], check=True)
        cli_files = copy_inputs(repo, src)
        args = [gpulint, "--select", "ALL", "--no-prefilter", "--no-respect-gitignore", "-q",
                "--format", "sarif"]
        log = run(args + ["."], src)

        def path_of(uri, base):
            if base != "%SRCROOT%":
                sys.exit("FAIL: result URI %s is not relative to %%SRCROOT%%" % uri)
            return os.path.join(src, urllib.parse.unquote(uri))

        results = list(sarif_results(log))
        files = len({r[0] for r in results})
        n = compare(results, path_of, problems)
        # The same inputs through --stdin-filename (an editor's view of an unsaved buffer).
        m = 0
        for path in cli_files:
            rel = os.path.relpath(path, src)
            with open(path, "rb") as f:
                log = run(args + ["--stdin-filename", rel], src, stdin=f)
            m += compare(list(sarif_results(log)), path_of, problems)
    for p in problems:
        print("MISMATCH " + p)
    if n == 0 or m == 0:
        sys.exit("FAIL: no results to compare (%d files, %d via stdin)" % (n, m))
    print("compared %d results in %d files and %d results through --stdin-filename: %d mismatches"
          % (n, files, m, len(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
