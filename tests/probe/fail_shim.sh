#!/usr/bin/env bash
# tests/probe/fail_shim.sh PROBE SHIM DIR: with cudaGetDeviceCount interposed (fake_cudart.c) to
# return each CUDA error class, gpulint-probe exits with the spec's status, prints exactly one
# stderr line "gpulint-probe: ..." naming the error, creates no output file, and leaves an existing
# one untouched.
set -u
probe=$1 shim=$2 dir=$3
mkdir -p "$dir" && rm -rf "${dir:?}"/*
fail=0
complain() { echo "FAIL: $1"; fail=1; }
# code, expected status, error name
cases="100 4 cudaErrorNoDevice
46 5 cudaErrorDevicesUnavailable
2 6 cudaErrorMemoryAllocation
209 7 cudaErrorNoKernelImageForDevice
222 7 cudaErrorUnsupportedPtxVersion
999 8 cudaErrorUnknown
35 3 cudaErrorInsufficientDriver
34 3 cudaErrorStubLibrary
803 3 cudaErrorSystemDriverMismatch"
while read -r code want name; do
  for existing in 0 1; do
    out="$dir/out-$code.json"
    rm -f "$dir"/out-*
    [ "$existing" = 1 ] && printf 'keep me\n' > "$out"
    FAKE_CUDA_ERROR=$code LD_PRELOAD="$shim" "$probe" --quick -o "$out" > "$dir/stdout" 2> "$dir/stderr"
    rc=$?
    [ "$rc" = "$want" ] || complain "error $code: exit $rc, expected $want"
    lines=$(wc -l < "$dir/stderr")
    [ "$lines" = 1 ] || complain "error $code: $lines stderr lines, expected 1: $(cat "$dir/stderr")"
    grep -q "^gpulint-probe: counting CUDA devices failed with $name ($code): " "$dir/stderr" ||
      complain "error $code: stderr does not name $name ($code): $(cat "$dir/stderr")"
    [ -s "$dir/stdout" ] && complain "error $code: wrote to stdout: $(cat "$dir/stdout")"
    if [ "$existing" = 1 ]; then
      [ "$(cat "$out")" = "keep me" ] || complain "error $code: the existing output file changed"
    else
      [ -e "$out" ] && complain "error $code: created $out"
    fi
    leftovers=$(find "$dir" -name 'out-*.tmp*' | head -1)
    [ -z "$leftovers" ] || complain "error $code: left a temporary file $leftovers"
  done
done <<< "$cases"
[ "$fail" = 0 ] && echo "OK"
exit $fail
