#!/usr/bin/env bash
# tests/probe/json_gpulint.sh WRITER GPULINT DIR: gpulint --evidence reads what the probe's writer
# writes: on an empty .py file it exits 0. Skipped (77) while gpulint has no --evidence option.
set -u
writer=$1 gpulint=$2 dir=$3
if ! "$gpulint" --help 2>&1 | grep -q -- --evidence; then
  echo "SKIP: $gpulint has no --evidence option yet"
  exit 77
fi
mkdir -p "$dir" && rm -f "$dir/evidence.json"
"$writer" "$dir/evidence.json" || { echo "FAIL: probe_json_writer exited $?"; exit 1; }
: > "$dir/empty.py"
"$gpulint" --no-cache --evidence "$dir/evidence.json" "$dir/empty.py"
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "FAIL: gpulint --evidence exited $rc on the probe writer's evidence file"
  exit 1
fi
echo "OK"
