#!/usr/bin/env bash
# bad_source.sh REPO DOWNLOAD_DIR: configure must stop with one clear sentence when a grammar source cannot be
# had: a missing tarball, and a tarball whose SHA-256 is not the pinned one.
set -u
repo=$1; dl=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'not a tarball' >"$tmp/fake.tgz"
fail=0
check() { # name, expected text, cmake args...
  local name=$1 want=$2; shift 2
  cmake -S "$repo" -B "$tmp/b-$name" -DGL_TESTS=OFF -DGL_DOWNLOAD_DIR="$dl" "$@" >"$tmp/$name.out" 2>&1
  local rc=$?
  local text; text=$(tr '\n' ' ' <"$tmp/$name.out" | tr -s ' ')
  if [ $rc -eq 0 ]; then echo "$name: configure succeeded, expected a failure"; fail=1
  elif [[ "$text" != *"$want"* ]]; then echo "$name: missing '$want' in:"; cat "$tmp/$name.out"; fail=1
  else echo "$name: ok"; fi
}
check missing "cannot obtain tree-sitter 0.25.1: $tmp/nope.tgz does not exist." \
  -DGL_USE_SYSTEM_TREE_SITTER=OFF -DGL_TREE_SITTER_SOURCE="$tmp/nope.tgz"
check checksum "cannot use $tmp/fake.tgz: its SHA-256 is" \
  -DGL_USE_SYSTEM_TREE_SITTER=OFF -DGL_TREE_SITTER_SOURCE="$tmp/fake.tgz"
check grammar-checksum "expected 63b76b3fa8181fd79eaad4abcdb21e2babcb504dbfc7710a89934fa456d26096 for tree-sitter-python 0.25.0." \
  -DGL_TREE_SITTER_PYTHON_SOURCE="$tmp/fake.tgz"
exit $fail
