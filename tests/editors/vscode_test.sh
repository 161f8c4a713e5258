#!/usr/bin/env bash
# tests/editors/vscode_test.sh: builds and checks the VS Code extension (editors/vscode): installs
# its locked npm dependencies when node_modules is missing (npm ci), compiles with tsc, runs the
# Node test runner (the SARIF mapping on real gpulint fixtures, and process.ts against the built
# gpulint given as $1), and packages a .vsix with @vscode/vsce into a temporary directory.
# Usage: vscode_test.sh path/to/gpulint repo-root
set -euo pipefail
gpulint=$(realpath "$1")
ext="$2/editors/vscode"
fail() { echo "vscode_test: FAIL: $*" >&2; exit 1; }

command -v node >/dev/null || fail "node is not installed (scripts/deps.sh installs it)"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || fail "Node.js $(node --version) is too old: @vscode/vsce needs 20 or newer"
cd "$ext"
if [ ! -d node_modules ]; then
  npm ci --no-audit --no-fund >/dev/null || fail "npm ci in $ext"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Build in a copy, so two build trees testing at once never share editors/vscode/out.
mkdir "$tmp/ext"
cp -R src package.json package-lock.json tsconfig.json README.md CHANGELOG.md LICENSE .vscodeignore "$tmp/ext/"
ln -s "$ext/node_modules" "$tmp/ext/node_modules"
cd "$tmp/ext"

npx --no-install tsc -p . || fail "tsc"
GPULINT="$gpulint" node --test out/test/ > "$tmp/tests.tap" 2>&1 || { cat "$tmp/tests.tap"; fail "node --test"; }
grep -E '^# (tests|pass|fail|skipped)' "$tmp/tests.tap"
grep -q '^# fail 0$' "$tmp/tests.tap" || { cat "$tmp/tests.tap"; fail "node --test reported failures"; }
grep -q '^# skipped 0$' "$tmp/tests.tap" || { grep -B1 '# SKIP' "$tmp/tests.tap"; fail "tests were skipped"; }

npx --no-install vsce package --no-dependencies -o "$tmp/gpulint.vsix" > "$tmp/vsce.log" 2>&1 \
  || { cat "$tmp/vsce.log"; fail "vsce package"; }
grep 'Packaged:' "$tmp/vsce.log"
listing=$(unzip -l "$tmp/gpulint.vsix" 2>/dev/null || python3 -m zipfile -l "$tmp/gpulint.vsix")
for f in extension/package.json extension/out/extension.js extension/out/sarif.js extension/out/process.js \
         extension/readme.md extension/LICENSE.txt extension/changelog.md; do
  grep -q "$f" <<<"$listing" || fail "$f missing from the .vsix"
done
if grep -qE 'extension/(src/|out/test/|node_modules/)' <<<"$listing"; then fail "sources, tests or node_modules packaged"; fi
echo "vscode_test: ok"
