#!/usr/bin/env bash
# run_case.sh CASE_DIR GPULINT: runs one end-to-end case of tests/cli and diffs what it printed.
# A case folder holds `cmd` (a shell line run in a scratch directory, $GPULINT is the binary),
# optionally `input/` (copied into the scratch directory first) and `setup` (a shell script run
# there before cmd: FIFOs, symlinks, big files), and the expected `stdout`, `stderr` and `exit`.
# Scratch paths become [TMP], the version [VERSION], elapsed times [TIME].
# GL_UPDATE_SNAPSHOTS=1 rewrites the expected files instead of diffing (review them in git diff).
set -u
case_dir=$(cd "$1" && pwd)
GPULINT=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
export GPULINT
version=$("$GPULINT" --version | sed 's/^gpulint //')

tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir "$tmp/w"
[ -d "$case_dir/input" ] && cp -a "$case_dir/input/." "$tmp/w/"
cd "$tmp/w" || exit 1
if [ -f "$case_dir/setup" ]; then
  bash "$case_dir/setup" || { echo "setup failed"; exit 1; }
fi
# A case may raise the 60 s limit in a file `timeout` (seconds): one that runs gpulint many times
# over --select ALL takes most of a minute under ASan on a 2-core machine.
limit=60
[ -f "$case_dir/timeout" ] && limit=$(cat "$case_dir/timeout")
timeout "$limit" bash -c "$(cat "$case_dir/cmd")" >"$tmp/stdout" 2>"$tmp/stderr" </dev/null
echo $? >"$tmp/exit"

normalise() {
  sed -e "s#$tmp/w#[TMP]#g" -e "s#$tmp#[TMP]#g" \
      -e "s#\"version\": \"$version\"#\"version\": \"[VERSION]\"#g" \
      -e "s#\"semanticVersion\": \"$version\"#\"semanticVersion\": \"[VERSION]\"#g" \
      -e "s#gpulint $version#gpulint [VERSION]#g" \
      -e 's# in [0-9]*\.[0-9]*s\b# in [TIME]s#g' "$1"
}

status=0
for f in stdout stderr exit; do
  normalise "$tmp/$f" >"$tmp/$f.norm"
  if [ "${GL_UPDATE_SNAPSHOTS:-0}" = 1 ]; then
    cp "$tmp/$f.norm" "$case_dir/$f"
  elif ! diff -u "$case_dir/$f" "$tmp/$f.norm"; then
    echo "--- $(basename "$case_dir"): $f differs (expected vs actual)"
    status=1
  fi
done
exit $status
