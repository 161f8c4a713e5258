#!/usr/bin/env bash
# tests/editors/nvim_test.sh: runs the Neovim plugin's test (nvim_test.lua) in a real headless
# Neovim >= 0.7 with the built gpulint on PATH. Usage: nvim_test.sh GPULINT REPO_ROOT.
# The fixtures are copied to a temporary directory (the test edits and writes them); a wrapper
# named gpulint logs each run's arguments and runs GPULINT. Fails on a non-zero exit, on a missing
# pass line, and on any "Error" on standard error (headless Neovim prints Lua errors there and may
# still exit 0). Without Neovim: exit 77 (CTest skip), but exit 1 when CI=true.
set -u
gpulint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # the wrapper runs in other directories
root=$(cd "$2" && pwd)

if ! command -v nvim >/dev/null 2>&1; then
  if [ "${CI:-}" = true ]; then
    echo "nvim_test: FAIL: neovim is not installed (CI=true; scripts/deps.sh installs it)" >&2
    exit 1
  fi
  echo "nvim_test: neovim is not installed; skipped"
  exit 77
fi
if ! nvim --headless --clean -u NONE -i NONE -n \
     -c 'if has("nvim-0.7") | qall! | else | cquit 1 | endif' </dev/null >/dev/null 2>&1; then
  echo "nvim_test: FAIL: $(nvim --version | head -1) is older than 0.7" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root"/tests/editors/fixtures/*.py "$work"/
printf 'import cupy as cp\nx = float(cp.zeros(1).sum())\n' > "$work/notes.txt"
# A project: gpulint runs at its root, so .gitignore and the default excludes (build/) apply.
git -C "$work" init -q
# GPU201 (unicode.py) and GPU501 (levels.py) are below the precision gate, off unless selected:
# this project selects them.
printf '[tool.gpulint]\nextend-select = ["GPU201", "GPU501"]\n' > "$work/pyproject.toml"
printf 'ignored.py\n' > "$work/.gitignore"
mkdir -p "$work/build"
cp "$work/unicode.py" "$work/ignored.py"
cp "$work/unicode.py" "$work/build/unicode.py"
mkdir -p "$work/bin" "$work/xdg"
cat > "$work/bin/gpulint" <<WRAP
#!/bin/sh
printf '%s\n' "\$*" >> "$work/runs.log"
exec "$gpulint" "\$@"
WRAP
chmod +x "$work/bin/gpulint"

status=0
PATH="$work/bin:$PATH" GL_NVIM_WORK="$work" GL_NVIM_LOG="$work/runs.log" \
  XDG_CONFIG_HOME="$work/xdg" XDG_DATA_HOME="$work/xdg" XDG_STATE_HOME="$work/xdg" \
  XDG_CACHE_HOME="$work/xdg" NVIM_LOG_FILE="$work/xdg/nvim.log" \
  timeout 120 nvim --headless --clean -u NONE -i NONE -n \
    --cmd "set runtimepath^=$root/editors/nvim" \
    -c "luafile $root/tests/editors/nvim_test.lua" </dev/null >"$work/stdout" 2>"$work/stderr" || status=$?
cat "$work/stdout"
cat "$work/stderr" >&2
if [ "$status" != 0 ]; then
  echo "nvim_test: FAIL: nvim exited with status $status" >&2
  exit 1
fi
if grep -q "Error" "$work/stderr"; then
  echo "nvim_test: FAIL: errors on standard error" >&2
  exit 1
fi
if ! grep -q "^nvim_test: ok, [0-9]* checks passed$" "$work/stdout"; then
  echo "nvim_test: FAIL: no pass line" >&2
  exit 1
fi
