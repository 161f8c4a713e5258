#!/usr/bin/env bash
# scripts/readme-rules.sh GPULINT [--check]: regenerates the rule table of README.md (between the
# `rules:begin` / `rules:end` markers) from `gpulint rules --format json`, so the list is made from
# the rules themselves. With --check it changes nothing and fails when README.md is out of date
# (run by the test suite).
set -euo pipefail
gpulint=$1; mode=${2:-write}
cd "$(dirname "$0")/.."
PY3=/usr/bin/python3; [ -x "$PY3" ] || PY3=python3
"$gpulint" rules --format json | "$PY3" -c '
import json, sys, re
rules = json.load(sys.stdin)
rows = ["| id | name | pack | level | precision | default | what it finds |",
        "| --- | --- | --- | --- | --- | --- | --- |"]
def precision(r):
    m = r.get("measured")
    return r["precision"] if not m else "%s: %d of %d right" % (r["precision"], m["right"], m["judged"])
def default(r):
    if r["enabled"]:
        return "on"
    return "off (precision gate)" if "precision" in r.get("why_off", "") else "off"
for r in rules:
    rows.append("| %s | `%s` | %s | %s | %s | %s | %s |" % (r["id"], r["name"], r["pack"], r["level"],
                precision(r), default(r), r["summary"].replace("|", "\\|")))
table = "\n".join(rows)
text = open("README.md").read()
new = re.sub(r"(<!-- rules:begin -->\n).*?(<!-- rules:end -->)", lambda m: m.group(1) + table + "\n" + m.group(2), text, flags=re.S)
if sys.argv[1] == "--check":
    if new != text:
        sys.exit("README.md rule table is out of date: run scripts/readme-rules.sh build/gpulint")
else:
    open("README.md", "w").write(new)
' "$mode"
