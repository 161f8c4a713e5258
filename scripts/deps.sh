#!/usr/bin/env bash
# scripts/deps.sh: installs what building and testing gpulint needs on a Debian 12 machine:
# compilers and libraries from Debian, and the SARIF validator (the Microsoft SARIF multitool) from
# the npm registry into .tools/, the VS Code extension's locked tools into
# editors/vscode/node_modules (both ignored by git), and the benchmark's hyperfine, time and
# ast-grep (tests/bench/run.sh; ast-grep into .tools/astgrep). Safe to run again; skips what is
# already there.
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=(cmake gcc g++ make pkg-config git libcjson-dev libpcre2-dev libcmocka-dev libgit2-dev
      libtomlplusplus-dev
      python3 python3-jsonschema python3-yaml pre-commit neovim hyperfine time)
# npm fetches tree-sitter's sources at configure time; some machines have it from a Node.js
# distribution that conflicts with Debian's npm package, so ask for npm only when it is missing.
command -v npm >/dev/null 2>&1 || pkgs+=(npm)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ "${GL_NO_SARIF_TOOLS:-0}" != 1 ] && [ ! -x .tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool ]; then
  mkdir -p .tools
  npm install --silent --no-audit --no-fund --prefix .tools @microsoft/sarif-multitool@5.7.0 >/dev/null
fi
# ast-grep, the benchmark's competitor (tests/bench/run.sh).
if [ "${GL_NO_BENCH_TOOLS:-0}" != 1 ] && [ ! -x .tools/astgrep/node_modules/.bin/ast-grep ]; then
  npm install --silent --no-audit --no-fund --prefix .tools/astgrep @ast-grep/cli@0.51 >/dev/null
fi
# The VS Code extension's locked build and test tools (TypeScript, @vscode/vsce), again when the
# lock file changed since the last install.
if [ ! -f editors/vscode/node_modules/.package-lock.json ] \
   || [ editors/vscode/package-lock.json -nt editors/vscode/node_modules/.package-lock.json ]; then
  (cd editors/vscode && npm ci --silent --no-audit --no-fund >/dev/null)
fi
echo "deps: ok"
