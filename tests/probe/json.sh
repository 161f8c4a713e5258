#!/usr/bin/env bash
# tests/probe/json.sh WRITER DIR: the probe's JSON writer output parses strictly (python3 json, NaN
# and duplicate keys rejected) and carries exactly the values json_writer.c put in.
set -u
writer=$1 dir=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir" && rm -f "$dir/synthetic.json"
"$writer" "$dir/synthetic.json" || { echo "FAIL: probe_json_writer exited $?"; exit 1; }
python3 "$here/check_evidence.py" "$dir/synthetic.json" --synthetic || exit 1
# The checker itself must reject NaN, duplicate keys and a value over its cap.
sed 's/"median": 11,/"median": NaN,/' "$dir/synthetic.json" > "$dir/nan.json"
sed 's/"schema": "gpulint-evidence",/"schema": "gpulint-evidence", "schema": "x",/' "$dir/synthetic.json" > "$dir/dup.json"
sed 's/"median": 11,/"median": 1e999,/' "$dir/synthetic.json" > "$dir/inf.json"
for bad in nan dup inf; do
  if python3 "$here/check_evidence.py" "$dir/$bad.json" > /dev/null; then
    echo "FAIL: check_evidence.py accepted $bad.json"
    exit 1
  fi
done
echo "OK"
