#!/usr/bin/env bash
# tests/gpu/selftest.sh: owns the GPU-free checks of tests/gpu: compare.py against the fixtures in
# fixtures/ (snapshots compare-2runs.txt, compare-1run.txt, exit statuses, unreadable inputs) and
# reference.py's fail-soft line and, where numpy is importable, a full run over the stand-ins in
# mock/ with its output validated. GL_UPDATE_SNAPSHOTS=1 rewrites the snapshots.
# usage: bash tests/gpu/selftest.sh [PYTHON]   (default python3; ends with 'N passed, N failed')
set -u
export PYTHONDONTWRITEBYTECODE=1   # keep __pycache__ out of mock/
cd "$(dirname "$0")" || exit 2
PY=${1:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1: $2"; failed=$((failed + 1)); }

# snapshot NAME EXPECTED_RC SNAPSHOT ARGS...: compare.py's stdout must equal fixtures/SNAPSHOT.
snapshot() {
  local name=$1 want_rc=$2 snap=fixtures/$3 rc
  shift 3
  "$PY" compare.py "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "${GL_UPDATE_SNAPSHOTS:-0}" = 1 ]; then cp "$tmp/out" "$snap"; fi
  if [ "$rc" != "$want_rc" ]; then bad "$name" "exit $rc, want $want_rc ($(head -c 300 "$tmp/err"))"
  elif ! diff -u "$snap" "$tmp/out" >"$tmp/diff"; then bad "$name" "output differs:"; cat "$tmp/diff"
  elif [ -s "$tmp/err" ]; then bad "$name" "unexpected stderr: $(head -c 300 "$tmp/err")"
  else ok "$name"; fi
}

snapshot "compare: two runs, 5 % flags" 1 compare-2runs.txt \
  fixtures/probe-1.json fixtures/probe-2.json fixtures/reference.json
snapshot "compare: one run" 0 compare-1run.txt fixtures/probe-2.json fixtures/reference.json

"$PY" compare.py fixtures/probe-1.json "$tmp/none.json" fixtures/reference.json >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && grep -q "none.json: cannot read" "$tmp/err" && grep -q "(missing)" "$tmp/out" &&
   ! grep -q "run to run" "$tmp/out"; then ok "compare: missing second run"
else bad "compare: missing second run" "exit $rc; $(cat "$tmp/err")"; fi

printf '{"schema": "gpulint-evidence", "metrics": {' >"$tmp/broken.json"
"$PY" compare.py "$tmp/broken.json" "$tmp/none.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && grep -q "broken.json: not JSON" "$tmp/err" && grep -q "no input could be read" "$tmp/err"
then ok "compare: nothing readable"; else bad "compare: nothing readable" "exit $rc; $(cat "$tmp/err")"; fi

"$PY" compare.py fixtures/probe-1.json >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && [ "$(cat "$tmp/err")" = "usage: compare.py PROBE1.json [PROBE2.json] REFERENCE.json" ]
then ok "compare: usage error"; else bad "compare: usage error" "exit $rc; $(cat "$tmp/err")"; fi

# reference.py where neither library imports: exit 3, one line, a JSON file that says why.
mkdir "$tmp/nolibs"
echo 'raise ImportError("selftest: no cupy here")' >"$tmp/nolibs/cupy.py"
echo 'raise ImportError("selftest: no torch here")' >"$tmp/nolibs/torch.py"
PYTHONPATH=$tmp/nolibs "$PY" reference.py -o "$tmp/ref0.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
want="reference.py: nothing measured: cupy not importable (ImportError: selftest: no cupy here); torch not importable (ImportError: selftest: no torch here)"
if [ $rc = 3 ] && [ "$(cat "$tmp/err")" = "$want" ] && [ ! -s "$tmp/out" ] &&
   grep -q '"selftest: no torch here\|torch not importable' "$tmp/ref0.json"; then ok "reference: fail soft"
else bad "reference: fail soft" "exit $rc; $(cat "$tmp/err")"; fi

# reference.py over the stand-ins: every section runs and writes valid statistics.
if "$PY" -c 'import numpy' 2>/dev/null; then
  PYTHONPATH=$PWD/mock "$PY" reference.py -o "$tmp/ref.json" 2>"$tmp/err" >"$tmp/out"
  rc=$?
  if [ $rc = 0 ] && "$PY" - "$tmp/ref.json" >"$tmp/check" 2>&1 <<'PYEOF'
import json, re, sys
doc = json.load(open(sys.argv[1]))
caps = {"us": 1e7, "ms": 1e6, "GB/s": 1e5, "TFLOP/s": 1e5, "ratio": 1e3, "x": 1e6}
common = {"item_roundtrip_us", "get_1elem_us", "memcpy_d2h_4B_us", "d2h_scalar_pinned_us",
          "h2d_pageable_GBps", "h2d_pinned_GBps", "d2h_pageable_GBps", "d2h_pinned_GBps",
          "launch_async_us", "launch_sync_us", "sync_idle_us", "pool_alloc_1MiB_us",
          "pool_alloc_64MiB_us", "pool_alloc_256MiB_us", "d2d_copy_GBps",
          "fixed_kernel_synced_ms", "fixed_kernel_unsynced_ms", "timer_underreport_x",
          "context_init_ms"}
want = {"cupy": common | {"launch_async_elementwise_us", "launch_sync_elementwise_us",
                          "cudaMalloc_free_1MiB_us", "cudaMalloc_free_64MiB_us",
                          "cudaMalloc_free_256MiB_us", "cupy_pool_alloc_1MiB_us",
                          "cupy_pool_alloc_64MiB_us", "cupy_pool_alloc_256MiB_us",
                          "d2d_copy_elementwise_GBps", "float_fma_TFLOPs", "double_fma_TFLOPs",
                          "fp64_to_fp32_ratio", "elementwise_float_fma_TFLOPs",
                          "elementwise_double_fma_TFLOPs"},
        "torch": common}
assert doc["schema"] == "gpulint-reference" and doc["version"] == 1, doc["schema"]
assert doc["errors"] == [], doc["errors"]
for lib, keys in want.items():
    assert set(doc[lib]) == keys, (lib, sorted(set(doc[lib]) ^ keys))
    for key, m in doc[lib].items():
        assert re.fullmatch(r"[A-Za-z0-9_]+", key), key
        assert set(m) == {"unit", "median", "p10", "p90", "samples", "what"}, (key, sorted(m))
        assert m["unit"] in caps and isinstance(m["samples"], int) and m["samples"] >= 1, key
        assert 0 < m["p10"] <= m["median"] <= m["p90"], (key, m)
        assert m["what"], key
print("valid")
PYEOF
  then ok "reference: full run over mock/"
  else bad "reference: full run over mock/" "exit $rc; $(tail -n 3 "$tmp/err"); $(cat "$tmp/check" 2>/dev/null)"; fi
else
  echo "skip reference: full run over mock/ ($PY has no numpy)"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
