#!/usr/bin/env bash
# tests/editors/precommit_test.sh: runs the real pre-commit on a throwaway Python project whose
# .pre-commit-config.yaml uses this repository's .pre-commit-hooks.yaml, taken from a clone of the
# repository's HEAD (so the hook file must be committed), with the built gpulint first on PATH.
# Offline: the hook repository is a local path and the hook's language is `system`.
# Asserts that the run fails with the GPU201 finding in a.py (and not in a .txt file with the same
# text, or the clean b.py), then passes once the finding is fixed.
# Usage: precommit_test.sh path/to/gpulint repo-root
set -euo pipefail
gpulint=$(realpath "$1")
root=$(realpath "$2")
fail() { echo "precommit_test: FAIL: $*" >&2; exit 1; }
command -v pre-commit >/dev/null || fail "pre-commit is not installed (scripts/deps.sh installs it)"
[ "$(basename "$gpulint")" = gpulint ] || fail "$gpulint is not named gpulint; the hook runs 'gpulint'"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PRE_COMMIT_HOME="$tmp/cache" PATH="$(dirname "$gpulint"):$PATH"
export GIT_CONFIG_NOSYSTEM=1 HOME="$tmp/home" PRE_COMMIT_COLOR=never
mkdir -p "$HOME"
git config --global user.name test && git config --global user.email test@example.invalid
git config --global init.defaultBranch main
# The checkout may belong to another user (CI containers); this HOME is the test's own.
git config --global --add safe.directory '*'

git clone -q "$root" "$tmp/hooks"
[ -f "$tmp/hooks/.pre-commit-hooks.yaml" ] || fail ".pre-commit-hooks.yaml is not committed at HEAD"
rev=$(git -C "$tmp/hooks" rev-parse HEAD)

proj="$tmp/proj"
git init -q "$proj" && cd "$proj"
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $tmp/hooks
    rev: $rev
    hooks:
      - id: gpulint
        args: [--extend-select, GPU201]  # below the precision gate: off unless selected
YAML
printf 'import cupy as cp\n\nx = cp.zeros(4, dtype=cp.float32)\nfor i in range(3):\n    v = float(x.sum())\n' > a.py
cp a.py notes.txt
printf 'import cupy as cp\n\ny = cp.ones(2, dtype=cp.float32).sum()\n' > b.py
git add .pre-commit-config.yaml a.py b.py notes.txt

set +e
pre-commit run --all-files > "$tmp/run1.log" 2>&1
rc=$?
set -e
cat "$tmp/run1.log"
[ "$rc" -eq 1 ] || fail "pre-commit with a finding exited $rc, expected 1"
grep -qE '^gpulint\.+Failed$' "$tmp/run1.log" || fail "no 'gpulint....Failed' line"
grep -qF 'a.py:5:9: GPU201 `float(x.sum())` copies device data to the host on every iteration' "$tmp/run1.log" \
  || fail "the GPU201 finding at a.py:5:9 is not in the output"
grep -qF "Found 1 finding (0 errors, 1 warning, 0 notes) in 2 files" "$tmp/run1.log" || fail "gpulint did not lint exactly a.py and b.py"
[ "$(grep -cE ':[0-9]+:[0-9]+: GPU[0-9]{3} ' "$tmp/run1.log")" -eq 1 ] || fail "expected exactly one finding"
if grep -qE 'notes\.txt|b\.py:' "$tmp/run1.log"; then fail "the hook reported a non-Python or clean file"; fi

# The fix: copy once after the loop.
printf 'import cupy as cp\n\nx = cp.zeros(4, dtype=cp.float32)\nfor i in range(3):\n    x += 1\nv = float(x.sum())\n' > a.py
git add a.py
pre-commit run --all-files > "$tmp/run2.log" 2>&1 || { cat "$tmp/run2.log"; fail "pre-commit failed after the fix"; }
cat "$tmp/run2.log"
grep -qE '^gpulint\.+Passed$' "$tmp/run2.log" || fail "no 'gpulint....Passed' line"
echo "precommit_test: ok"
