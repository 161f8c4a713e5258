#!/usr/bin/env bash
# tests/bench/run.sh: the benchmark, one command: gpulint against the parse-only floor and ast-grep
# on corpora generated from this machine's Python standard library (tests/bench/corpus.py), every
# command timed as whole processes by ONE hyperfine run (so machine noise cancels in the ratios),
# plus one extra run each under /usr/bin/time for the peak RSS. Prints the table and ratios
# (tests/bench/table.py) and keeps hyperfine.json, rss.txt and table.md in the results dir.
#
#   bash tests/bench/run.sh [--quick | --smoke] [--out DIR] [--jobs N] [--runs N]
#                           [--gpulint BIN] [--floor BIN] [--astgrep BIN]
#
# Needs (installs nothing): hyperfine (apt-get install hyperfine), /usr/bin/time (apt-get install
# time), python3, gpulint and parse_floor built (cmake --build build --target gpulint parse_floor),
# ast-grep 0.51 (npm install --prefix .tools/astgrep @ast-grep/cli@0.51).
# --smoke (ctest bench/smoke): 20 files, 1 run each, no ast-grep rows when it is missing, exit 77
# (skipped) without hyperfine; checks only that the table is complete, never the timings.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

mode=full runs="" out="" jobs="" gl="" floor="" ag=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) mode=quick ;;
    --smoke) mode=smoke ;;
    --out) out=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --runs) runs=$2; shift ;;
    --gpulint) gl=$2; shift ;;
    --floor) floor=$2; shift ;;
    --astgrep) ag=$2; shift ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

warmup=1 limit=()
case $mode in
  full) runs=${runs:-3} ;;
  quick) runs=${runs:-2} ;;
  smoke) runs=${runs:-1}; warmup=0; limit=(--limit 20) ;;
esac
jobs=${jobs:-$(nproc)}
[ -n "$gl" ] || { [ -x "$repo/build/gpulint" ] && gl=$repo/build/gpulint; } || gl=$(command -v gpulint || true)
[ -n "$floor" ] || floor=$(dirname "${gl:-.}")/tests/bench/parse_floor
[ -n "$ag" ] || { [ -x "$repo/.tools/astgrep/node_modules/.bin/ast-grep" ] && ag=$repo/.tools/astgrep/node_modules/.bin/ast-grep; } \
  || ag=$(command -v ast-grep || true)

need_tool() {  # need_tool NAME HOW: a missing tool skips the smoke test (77) and stops the others (2)
  echo "run.sh: $1 is missing: $2" >&2
  [ "$mode" = smoke ] && exit 77
  exit 2
}
command -v hyperfine >/dev/null || need_tool hyperfine "apt-get install hyperfine"
[ -x /usr/bin/time ] || need_tool /usr/bin/time "apt-get install time"
[ -n "$gl" ] && [ -x "$gl" ] || need_tool gpulint "cmake --build build --target gpulint (or --gpulint BIN)"
[ -x "$floor" ] || need_tool parse_floor "cmake --build build --target parse_floor (or --floor BIN)"
if [ -z "$ag" ] || [ ! -x "$ag" ]; then
  [ "$mode" = smoke ] || need_tool ast-grep "npm install --prefix .tools/astgrep @ast-grep/cli@0.51 (or --astgrep BIN)"
  ag=""
fi

gl=$(realpath "$gl") floor=$(realpath "$floor")
[ -z "$ag" ] || ag=$(realpath "$ag")
work=$(mktemp -d "${TMPDIR:-/tmp}/gpulint-bench-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -z "$out" ]; then out=$(mktemp -d "${TMPDIR:-/tmp}/gpulint-bench.XXXXXX"); fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
c=$work/corpus
python3 "$here/corpus.py" "$c" "${limit[@]}"

# The result cache (when this gpulint has one) stays out of every row but the warm-cache row.
help=$("$gl" --help 2>&1 || true)
nocache=() cache_note="gpulint has no result cache yet (--no-cache is not in gpulint --help): every row runs without it, the warm-cache row is skipped"
if grep -q -- '--no-cache' <<<"$help"; then
  nocache=(--no-cache)
  cache_note="every gpulint row but gl-warm runs with --no-cache"
fi
cachedir=()
grep -q -- '--cache-dir' <<<"$help" && cachedir=(--cache-dir "$work/cache")

G="$gl --format concise --color never"
A1="$ag scan -r $here/astgrep/rules/gpu102.yml -j $jobs --report-style short --color never"
A25="$ag scan -c $here/astgrep/sgconfig.yml -j $jobs --report-style short --color never"
rows=$out/rows.txt
: >"$rows"
row() { printf '%s\t%s\t%s\t%s\n' "$@" >>"$rows"; }
skip() { printf '%s\t%s\t%s\t-\t%s\n' "$@" >>"$rows"; }
row gl-default stdlib "gpulint default" "$G ${nocache[*]} -j $jobs $c/stdlib"
row gl-noprefilter gpu-dense "gpulint --no-prefilter -j$jobs" "$G --no-prefilter ${nocache[*]} -j $jobs $c/gpu-dense"
if [ ${#nocache[@]} -gt 0 ]; then
  row gl-warm gpu-dense "gpulint warm cache -j$jobs" "$G ${cachedir[*]} -j $jobs $c/gpu-dense"
else
  skip gl-warm gpu-dense "gpulint warm cache" "skipped: no result cache in this gpulint"
fi
row gl-j1 gpu-dense "gpulint --no-prefilter -j1" "$G --no-prefilter ${nocache[*]} -j 1 $c/gpu-dense"
row floor gpu-dense "parse-only floor -j$jobs" "$floor -j $jobs -l $c/gpu-dense.list"
row floor-heap gpu-dense "parse-only floor, heap allocation -j$jobs" "$floor --heap -j $jobs -l $c/gpu-dense.list"
row floor-walk gpu-dense "parse, then one walk over every node -j$jobs" "$floor --walk -j $jobs -l $c/gpu-dense.list"
for corpus in stdlib dense; do
  dir=$c/gpu-dense; [ $corpus = stdlib ] && dir=$c/stdlib
  name=gpu-dense; [ $corpus = stdlib ] && name=stdlib
  if [ -n "$ag" ]; then
    row ag1-$corpus $name "ast-grep 1 rule (gpu102) -j$jobs" "$A1 $dir"
    row ag25-$corpus $name "ast-grep 25 rules -j$jobs" "$A25 $dir"
  else
    skip ag1-$corpus $name "ast-grep 1 rule" "skipped: ast-grep not installed"
    skip ag25-$corpus $name "ast-grep 25 rules" "skipped: ast-grep not installed"
  fi
done
row gl-2x gpu-dense-2x "gpulint --no-prefilter -j$jobs" "$G --no-prefilter ${nocache[*]} -j $jobs $c/gpu-dense-2x"
row gl-4x gpu-dense-4x "gpulint --no-prefilter -j$jobs" "$G --no-prefilter ${nocache[*]} -j $jobs $c/gpu-dense-4x"

args=()
while IFS=$'\t' read -r id _ _ cmd skipped; do
  [ -z "${skipped:-}" ] || continue
  args+=(-n "$id" "$cmd")
done <"$rows"

# From inside the temporary directory, so a cache without --cache-dir lands there, not here.
cd "$work"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
# -N: no shell between hyperfine and the tool; -i: gpulint and ast-grep exit non-zero on findings.
hyperfine -N -i --style basic --warmup "$warmup" --runs "$runs" --export-json "$out/hyperfine.json" "${args[@]}"
: >"$out/rss.txt"
while IFS=$'\t' read -r id _ _ cmd skipped; do
  [ -z "${skipped:-}" ] || continue
  # shellcheck disable=SC2086  # the command is a word list, as hyperfine -N splits it
  /usr/bin/time -f "$id %M" -a -o "$out/rss.txt" $cmd >/dev/null 2>&1 || true
done <"$rows"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
{
  echo "gpulint benchmark ($mode), $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m), ${cpu:-unknown CPU}, $(nproc) online cores"
  echo "load average (1/5/15 min) before $load_before, after $load_after"
  echo "$("$gl" --version 2>/dev/null | head -1 || echo gpulint), ${ag:+$("$ag" --version), }$(hyperfine --version); python3 $(python3 -c 'import platform; print(platform.python_version())') stdlib"
  echo "hyperfine --warmup $warmup --runs $runs, all commands in one run; peak RSS from one more run each (/usr/bin/time %M)"
  echo "$cache_note"
  echo "jobs=$jobs"
} >"$out/meta.txt"
cp "$work/corpus/corpora.json" "$out/corpora.json"
status=0
python3 "$here/table.py" "$out" >"$out/table.md" || status=$?
cat "$out/table.md"
echo
echo "results: $out (hyperfine.json, rss.txt, table.md)"
exit $status
