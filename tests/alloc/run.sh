#!/usr/bin/env bash
# tests/alloc/run.sh GPULINT FAILMALLOC_SO: fails allocation N of a small run, for every N of the
# start-up (where libgit2 1.5's initialisation once dereferenced a failed allocation) and for a
# stride of the rest, and checks each run ends well: the normal output and status, or exit 2 with
# "gpulint: out of memory" and nothing else on stderr; never a signal, never another message.
set -u
gpulint=$1 lib=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
git init -q .
printf 'import cupy as cp\nfor x in batches:\n    y = cp.asarray(x)\n    print(float(y.sum()))\n' > a.py
printf '[tool.gpulint]\nselect = ["GPU"]\n' > pyproject.toml
run() {   # the summary's time is the one thing that differs between runs
  GL_FAIL_AT=$1 LD_PRELOAD=$lib "$gpulint" --no-cache --format concise a.py 2>"$tmp/err" |
    sed -E 's/ in [0-9.]+s\./ in Ts./' >"$tmp/out"
  return "${PIPESTATUS[0]}"
}
run 0; want_rc=$?; cp "$tmp/out" "$tmp/want"
total=$(GL_FAIL_COUNT=1 LD_PRELOAD=$lib "$gpulint" --no-cache --format concise a.py 2>&1 >/dev/null |
        sed -n 's/^allocations: //p')
[ -n "$total" ] && [ "$total" -gt 1000 ] || { echo "could not count allocations ($total)"; exit 1; }
bad=0 runs=0
for ((n = 1; n <= total; n += (n < 300 ? 1 : 331))); do
  run "$n"; rc=$?; runs=$((runs + 1))
  if [ "$rc" -eq 2 ] && [ "$(cat "$tmp/err")" = "gpulint: out of memory" ]; then continue; fi
  if [ "$rc" -eq "$want_rc" ] && cmp -s "$tmp/out" "$tmp/want"; then continue; fi
  echo "allocation $n failed: exit $rc, stderr: $(head -c 200 "$tmp/err")"
  bad=$((bad + 1))
done
echo "$runs runs of $total allocations, $bad bad"
[ "$bad" -eq 0 ]
