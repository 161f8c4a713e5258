#!/usr/bin/env bash
# validate.sh GPULINT REPO: runs gpulint --format sarif over the bundled examples and the rule
# fixtures (many files, findings, suppressions, a syntax-error notification, notebooks), once as
# is and once calibrated with --evidence (the H200-like fixture and the calibration test pack: ranks, result
# properties, run properties.evidence), and once with --baseline of the first log after editing
# the input (baselineState new / unchanged, and absent results copied from the baseline), then
# validates each log with the SARIF multitool (errors AND warnings of rule kinds Sarif and Gh count) and with the
# SARIF 2.1.0 JSON schema shipped in the multitool package; also --shard I/N for N = 1, 2, 3, 7:
# the shards' findings together equal the unsharded run's, and `gpulint merge` of their logs equals
# the unsharded log byte for byte (one merged log is validated too). Exit 77 = validator missing (skip).
set -u
gpulint=$1; repo=$2
tool=${GL_SARIF_MULTITOOL:-$repo/.tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool}
if [ ! -x "$tool" ]; then echo "SKIP: SARIF multitool not installed (run scripts/deps.sh)"; exit 77; fi
schema=$(dirname "$tool")/sarif-2.1.0.json
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Input: a copy of the examples and fixtures plus a file with a syntax error and a noqa.
mkdir -p "$tmp/src"
cp -r "$repo/examples" "$repo/tests/rules/fixtures" "$tmp/src/"
# The multitool's GH1004 (raised to an error below) flags a run of over 1,000 results: the legacy
# fixtures (about 330 results of one shape: an import or a name) stay out; examples/ still has
# legacy findings.
rm -rf "$tmp/src/fixtures/legacy"
# notebooks: results point into the .ipynb json text (UTF-16 columns, json-line hashes)
cp -r "$repo/tests/fixtures/notebooks" "$tmp/src/"
printf 'import cuspatial  # noqa: GPU102\nimport cuxfilter\ndef broken(:\n    pass\n' >"$tmp/src/mixed.py"
printf 'import torch\nfor x in xs:\n    s += x.sum().item()\ny = torch.zeros(2, dtype=torch.float64)\n' >"$tmp/src/calib.py"
evidence=$repo/tests/fixtures/evidence
(cd "$tmp/src" && git init -q . && "$gpulint" --select ALL --sarif-category gpulint/py --format sarif -o "$tmp/run.sarif" . )
rc=$?
if [ $rc -ne 1 ]; then echo "FAIL: gpulint exited $rc, expected 1 (findings)"; exit 1; fi
# --shard I/N over the same files: for N = 1, 2, 3, 7 the shards' text findings together are the
# unsharded run's, and `gpulint merge` of their SARIF logs is the unsharded log byte for byte
# (the N = 3 merge is validated below as run-merged).
(cd "$tmp/src" && "$gpulint" --select ALL -q --format concise . | sort >"$tmp/all.txt")
for n in 1 2 3 7; do
  logs=()
  for i in $(seq 1 $n); do
    (cd "$tmp/src" && "$gpulint" --select ALL --sarif-category gpulint/py -q --format sarif --shard $i/$n \
       -o "$tmp/shard-$i.sarif" .; "$gpulint" --select ALL -q --format concise --shard $i/$n .)
  done | sort >"$tmp/union.txt"
  for i in $(seq 1 $n); do logs+=("$tmp/shard-$i.sarif"); done
  cmp -s "$tmp/all.txt" "$tmp/union.txt" || { echo "FAIL: --shard I/$n findings differ from the unsharded run"; exit 1; }
  "$gpulint" merge "${logs[@]}" -o "$tmp/run-merged.sarif" || { echo "FAIL: gpulint merge of $n shards"; exit 1; }
  cmp "$tmp/run.sarif" "$tmp/run-merged.sarif" || { echo "FAIL: merged $n shards differ from the unsharded log"; exit 1; }
  [ $n = 3 ] && cp "$tmp/run-merged.sarif" "$tmp/run-merged-3.sarif"
done
mv "$tmp/run-merged-3.sarif" "$tmp/run-merged.sarif"
echo "shards: N = 1, 2, 3, 7 give the unsharded findings and log ($(wc -l <"$tmp/all.txt") findings)"
(cd "$tmp/src" && "$gpulint" --select ALL --rules "$evidence/pack" --evidence "$evidence/h200.json" -q \
   --format sarif -o "$tmp/run-evidence.sarif" . )
rc=$?
if [ $rc -ne 1 ]; then echo "FAIL: gpulint --evidence exited $rc, expected 1 (findings)"; exit 1; fi
grep -q '"rank":' "$tmp/run-evidence.sarif" || { echo "FAIL: no calibrated result in the --evidence run"; exit 1; }
# --baseline: drop mixed.py's cuxfilter import (absent), add a file with it (new); the rest,
# suppressed cuspatial import included, is unchanged.
printf 'import cuspatial  # noqa: GPU102\ndef broken(:\n    pass\n' >"$tmp/src/mixed.py"
printf 'import cuxfilter\n' >"$tmp/src/added.py"
(cd "$tmp/src" && "$gpulint" --select ALL --baseline "$tmp/run.sarif" -q --format sarif \
   -o "$tmp/run-baseline.sarif" . )
rc=$?
if [ $rc -ne 1 ]; then echo "FAIL: gpulint --baseline exited $rc, expected 1 (new findings)"; exit 1; fi
for state in new unchanged absent; do
  grep -q "\"baselineState\":[[:space:]]*\"$state\"" "$tmp/run-baseline.sarif" ||
    { echo "FAIL: no $state result in the --baseline run"; exit 1; }
done

"$tool" export-validation-config "$tmp/config.xml" >/dev/null
for gh in GH1001 GH1002 GH1003 GH1004 GH1005 GH1006 GH1007; do
  sed -i "/Key=\"$gh\./,/<\/Properties>/ s/Value=\"Default\"/Value=\"Error\"/" "$tmp/config.xml"
done
PY3=/usr/bin/python3; [ -x "$PY3" ] || PY3=python3
status=0
for log in run run-evidence run-baseline run-merged; do
echo "== $log.sarif"
"$tool" validate "$tmp/$log.sarif" --rule-kind "Sarif;Gh" -c "$tmp/config.xml" -o "$tmp/validation-$log.sarif" \
  >"$tmp/validate.out" 2>&1
"$PY3" - "$tmp/validation-$log.sarif" "$tmp/$log.sarif" "$schema" <<'PY' || status=1
import json, sys
log = json.load(open(sys.argv[1]))
problems = []
for run in log.get("runs", []):
    for r in run.get("results", []):
        if r.get("level", "warning") in ("error", "warning"):
            problems.append("%s %s: %s" % (r.get("ruleId"), r.get("level", "warning"),
                                          r.get("message", {}).get("text", r.get("message"))))
    for inv in run.get("invocations", []):
        for n in inv.get("toolExecutionNotifications", []) + inv.get("toolConfigurationNotifications", []):
            if n.get("level") == "error":
                problems.append("tool error: %s" % n.get("message", {}).get("text"))
sarif = json.load(open(sys.argv[2]))
results = sum(len(r.get("results", [])) for r in sarif["runs"])
print("multitool: %d results checked, %d problems" % (results, len(problems)))
for p in problems:
    print("  " + p)
try:
    import jsonschema
    schema = json.load(open(sys.argv[3]))
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(sarif), key=lambda e: list(e.path))
    print("json schema: %d errors" % len(errors))
    for e in errors[:20]:
        print("  /%s: %s" % ("/".join(map(str, e.path)), e.message))
except ImportError:
    print("json schema: python3-jsonschema missing")
    errors = [1]
if results == 0:
    print("no results in the run: nothing was validated")
sys.exit(1 if problems or errors or results == 0 else 0)
PY
done
exit $status
