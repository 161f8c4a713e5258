#!/usr/bin/env bash
# scripts/compare-output.sh OLD NEW [WORK]: runs two gpulint binaries over the same inputs and
# compares their output byte for byte: every format, the default rules and --select ALL, with and
# without the bundled evidence, over the bundled examples, every rule fixture and test fixture,
# and the benchmark's gpu-dense corpus (tests/bench/corpus.py); plus `rules`, `rules --format
# json` and `rule ID` for every rule; only the summary line's elapsed time is masked. For a change that must not change behaviour (a refactor):
# prints one line per comparison and exits 1 when any differs. WORK (default: a temp dir) keeps
# the outputs.
set -uo pipefail
old=$(realpath "$1") new=$(realpath "$2")
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${3:-$(mktemp -d "${TMPDIR:-/tmp}/gpulint-compare.XXXXXX")}
mkdir -p "$work/old" "$work/new"
cd "$repo" || exit 2
[ -d "$work/corpus/gpu-dense" ] || python3 tests/bench/corpus.py "$work/corpus" >/dev/null || exit 2

inputs=(examples tests/rules/fixtures tests/fixtures "$work/corpus/gpu-dense")
names=(examples rule-fixtures test-fixtures gpu-dense)
formats=(full concise json sarif github gcc)
differ=0 total=0

run_both() {  # run_both NAME ARGS...: one comparison
  local name=$1; shift
  for side in old new; do
    local bin=$old; [ $side = new ] && bin=$new
    "$bin" "$@" >"$work/$side/$name.out" 2>"$work/$side/$name.err"
    echo $? >"$work/$side/$name.rc"
    # The summary line's elapsed time is the one part of the output that may differ.
    sed -i -E 's/ in [0-9]+(\.[0-9]+)?m?s([.)])$/ in [TIME]\2/' "$work/$side/$name.out" "$work/$side/$name.err"
  done
  total=$((total + 1))
  if cmp -s "$work/old/$name.out" "$work/new/$name.out" && cmp -s "$work/old/$name.err" "$work/new/$name.err" \
     && cmp -s "$work/old/$name.rc" "$work/new/$name.rc"; then
    echo "same     $name ($(wc -c <"$work/new/$name.out") bytes, exit $(cat "$work/new/$name.rc"))"
  else
    echo "DIFFERS  $name"; differ=$((differ + 1))
  fi
}

for i in "${!inputs[@]}"; do
  for fmt in "${formats[@]}"; do
    run_both "${names[$i]}.$fmt.default" --no-cache --color never --format "$fmt" "${inputs[$i]}"
    run_both "${names[$i]}.$fmt.all" --no-cache --color never --select ALL --format "$fmt" "${inputs[$i]}"
  done
  run_both "${names[$i]}.sarif.all.evidence" --no-cache --select ALL --format sarif \
    --evidence examples/evidence/nvidia-h200.json "${inputs[$i]}"
  run_both "${names[$i]}.full.all.evidence" --no-cache --color never --select ALL \
    --evidence examples/evidence/nvidia-h200.json "${inputs[$i]}"
done
run_both rules.text rules
run_both rules.json rules --format json
for id in $("$new" rules --format json | python3 -c 'import json,sys; print(" ".join(r["id"] for r in json.load(sys.stdin)))'); do
  run_both "rule.$id" rule "$id"
done
echo "$((total - differ)) of $total comparisons byte-identical; outputs in $work"
[ "$differ" = 0 ]
