#!/usr/bin/env bash
# tests/gpu/run.sh: owns the one command that validates gpulint-probe on a machine with an NVIDIA
# GPU (issue 5): builds cuda-probe/ standalone, runs it quick once and full twice, runs
# reference.py (CuPy + PyTorch) and prints compare.py's table. Not owned: the probe, the
# measurements, the table's contents. Every step runs under `timeout`, within one overall budget
# (GPU_RUN_BUDGET_S, default 460 s), so the whole script ends in under 8 minutes; a failed step is
# reported and the steps after it still run where they can.
#
# usage (from anywhere; it works in the repository root): bash tests/gpu/run.sh
# env: OUT (default ./gpu-out) receives log.txt, probe-quick.json, probe-1.json, probe-2.json,
#      reference.json, compare.txt; PROBE_BUILD_DIR (default /tmp/probe); PROBE_CMAKE_ARGS (extra
#      configure arguments, split on spaces); GPU_RUN_BUDGET_S (default 460).
# exit: 0 every step succeeded (compare.py's "runs differ by over 5 %" counts as success: it is a
#       finding, shown in the table); 1 some step failed, timed out or was skipped; 2 setup error.
set -u -o pipefail
OUT=${OUT:-./gpu-out}                  # relative to the caller's directory, resolved before the cd
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd) || exit 2
cd "$(dirname "$0")/../.." || exit 2
BUILD=${PROBE_BUILD_DIR:-/tmp/probe}
BUDGET_S=${GPU_RUN_BUDGET_S:-460}
RESERVE_S=25          # kept back by every step but the last, so compare.py always gets to run
REF_RESERVE_S=$((RESERVE_S + 120))   # what the probe runs leave for reference.py and compare.py
START_S=$SECONDS
read -r -a EXTRA_CMAKE <<< "${PROBE_CMAKE_ARGS:-}"

now() { date +%s.%N; }
left() { echo $((BUDGET_S - (SECONDS - START_S))); }

# limit_for NOMINAL [RESERVE]: the seconds a step may take now: NOMINAL, cut to what the budget
# leaves after RESERVE.
limit_for() {
  local nominal=$1 reserve=${2:-$RESERVE_S} lim
  lim=$(($(left) - reserve))
  ((lim > nominal)) && lim=$nominal
  echo "$lim"
}

SUMMARY=()
FAILED=0
# step NAME LIMIT CMD...: runs CMD under timeout LIMIT (already cut by limit_for), timed; records
# one summary line; returns CMD's status (125 when skipped for lack of time).
step() {
  local name=$1 limit=$2 t0 rc dt what
  shift 2
  if ((limit < 5)); then
    echo "=== $name: SKIPPED: out of time ($(left) s of the ${BUDGET_S} s budget left)"
    SUMMARY+=("$(printf '%-13s SKIPPED (out of time)' "$name:")")
    FAILED=1
    return 125
  fi
  echo "=== $name (limit ${limit} s): $*"
  t0=$(now)
  timeout -k 5 "$limit" "$@"
  rc=$?
  dt=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
  what="exit $rc"
  if ((rc == 124 || rc == 137)); then
    what="TIMED OUT after ${limit} s (exit $rc)"
  fi
  echo "=== $name: $what in $dt s"
  SUMMARY+=("$(printf '%-13s %s in %s s' "$name:" "$what" "$dt")")
  return $rc
}

# skip NAME WHY: records a step that could not run.
skip() {
  echo "=== $1: SKIPPED: $2"
  SUMMARY+=("$(printf '%-13s SKIPPED (%s)' "$1:" "$2")")
  FAILED=1
}

main() {
  echo "=== tests/gpu/run.sh: $(date -u +%Y-%m-%dT%H:%M:%SZ), OUT=$OUT, budget ${BUDGET_S} s"
  echo "host: $(uname -srm), $(nproc 2>/dev/null || echo '?') cores"
  timeout 10 nvcc --version 2>&1 | tail -n 2
  timeout 10 cmake --version 2>&1 | head -n 1
  timeout 10 python3 --version 2>&1

  step gpu-info "$(limit_for 20)" bash -c 'nvidia-smi -L && nvidia-smi \
    --query-gpu=name,driver_version,pstate,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,compute_mode,memory.used,memory.total \
    --format=csv' || FAILED=1

  local probe=""
  if [ -d cuda-probe ]; then
    # shellcheck disable=SC2016  # $1 and $@ belong to the inner bash
    step build "$(limit_for 180)" bash -c 'cmake -S cuda-probe -B "$1" -DCMAKE_BUILD_TYPE=Release \
      "${@:2}" && cmake --build "$1" -j16' _ "$BUILD" "${EXTRA_CMAKE[@]}" || FAILED=1
    if [ -x "$BUILD/gpulint-probe" ]; then
      probe=$BUILD/gpulint-probe
    else
      probe=$(find "$BUILD" -maxdepth 4 -type f -name gpulint-probe -perm -u+x 2>/dev/null | head -n 1)
    fi
  else
    skip build "no cuda-probe/ directory in $(pwd)"
  fi

  if [ -n "$probe" ]; then
    echo "probe: $probe"
    step help "$(limit_for 10)" "$probe" --help || FAILED=1
    # The probe runs keep REF_RESERVE_S back too, so a slow probe cannot starve reference.py.
    step quick "$(limit_for 60 "$REF_RESERVE_S")" "$probe" --quick -o "$OUT/probe-quick.json" \
      || FAILED=1
    step full-1 "$(limit_for 150 "$REF_RESERVE_S")" "$probe" -o "$OUT/probe-1.json" || FAILED=1
    step full-2 "$(limit_for 150 "$REF_RESERVE_S")" "$probe" -o "$OUT/probe-2.json" || FAILED=1
  else
    for s in help quick full-1 full-2; do skip "$s" "no gpulint-probe binary"; done
  fi

  local lim
  lim=$(limit_for 240)
  step reference "$lim" env PYTHONUNBUFFERED=1 python3 tests/gpu/reference.py \
    -o "$OUT/reference.json" --deadline-s $((lim > 40 ? lim - 20 : 20)) || FAILED=1

  # shellcheck disable=SC2016  # $1 and $@ belong to the inner bash
  step compare "$(limit_for 20 0)" bash -c 'out=$1; shift
    python3 tests/gpu/compare.py "$@" >"$out/compare.txt" 2>&1
    rc=$?; cat "$out/compare.txt"; exit $rc' _ \
    "$OUT" "$OUT/probe-1.json" "$OUT/probe-2.json" "$OUT/reference.json"
  local crc=$?
  if ((crc == 1)); then
    SUMMARY+=("              (compare exit 1: some metric's two probe runs differ by over 5 %)")
  elif ((crc != 0)); then
    FAILED=1
  fi

  echo
  echo "=== summary ($((SECONDS - START_S)) s of the ${BUDGET_S} s budget; files in $OUT)"
  printf '%s\n' "${SUMMARY[@]}"
  return $FAILED
}

main 2>&1 | tee "$OUT/log.txt"
exit "${PIPESTATUS[0]}"
