#!/usr/bin/env bash
# tests/probe/runtime.sh PROBE DIR: gpulint-probe with the real CUDA runtime. Without a usable GPU
# (this build machine: cudaErrorInsufficientDriver) --quick exits 3 or 4 with one stderr line and
# no output file; with a GPU it exits 0 and writes an evidence file that parses strictly. Usage
# errors exit 2 with one line, whatever the machine.
set -u
probe=$1 dir=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir" && rm -rf "${dir:?}"/*
fail=0
complain() { echo "FAIL: $1"; fail=1; }

"$probe" --quick -o "$dir/out.json" > "$dir/stdout" 2> "$dir/stderr"
rc=$?
case $rc in
  3|4)
    [ "$(wc -l < "$dir/stderr")" = 1 ] || complain "exit $rc with stderr: $(cat "$dir/stderr")"
    grep -q '^gpulint-probe: .*(3[456]\|100\|80[34])): ' "$dir/stderr" ||
      complain "exit $rc: the line does not name the CUDA error: $(cat "$dir/stderr")"
    [ -e "$dir/out.json" ] && complain "exit $rc but out.json was written"
    echo "no usable GPU here (exit $rc): $(cat "$dir/stderr")" ;;
  0)
    python3 "$here/check_evidence.py" "$dir/out.json" || complain "the evidence file does not check"
    grep -q '^metric ' "$dir/stdout" || complain "no table on stdout" ;;
  *) complain "--quick exited $rc: $(cat "$dir/stderr")" ;;
esac

usage_case() {
  local want_line=$1; shift
  "$probe" "$@" > "$dir/stdout" 2> "$dir/stderr"
  local rc=$?
  [ "$rc" = 2 ] || complain "$*: exit $rc, expected 2"
  [ "$(wc -l < "$dir/stderr")" = 1 ] || complain "$*: stderr is: $(cat "$dir/stderr")"
  [ "$(cat "$dir/stderr")" = "$want_line" ] || complain "$*: stderr is: $(cat "$dir/stderr")"
}
usage_case "gpulint-probe: unknown option '--bogus'; run gpulint-probe --help" --bogus
usage_case "gpulint-probe: --device needs a device index (0, 1, ...), not 'x'; run gpulint-probe --help" --device x
usage_case "gpulint-probe: --device needs a device index (0, 1, ...), not '-1'; run gpulint-probe --help" --device=-1
usage_case "gpulint-probe: --device needs a device index; run gpulint-probe --help" --device
usage_case "gpulint-probe: -o needs a file name; run gpulint-probe --help" -o

"$probe" -V > "$dir/stdout" 2>&1 || complain "-V exited $?"
[ "$(cat "$dir/stdout")" = "gpulint-probe 0.1.0" ] || complain "-V printed: $(cat "$dir/stdout")"
"$probe" --help > "$dir/stdout" 2>&1 || complain "--help exited $?"
grep -q '^usage: gpulint-probe \[--quick\]' "$dir/stdout" || complain "--help printed: $(cat "$dir/stdout")"

# An output path in a missing directory fails before measuring: status 9, one line, nothing made.
"$probe" --quick -o "$dir/missing/out.json" > /dev/null 2> "$dir/stderr"
rc=$?
[ "$rc" = 9 ] || complain "-o into a missing directory: exit $rc, expected 9"
grep -q "^gpulint-probe: cannot write $dir/missing/out.json: creating a temporary file next to it failed: " "$dir/stderr" ||
  complain "-o into a missing directory: $(cat "$dir/stderr")"

mkdir -p "$dir/adir"
"$probe" --quick -o "$dir/adir" > /dev/null 2> "$dir/stderr"
rc=$?
[ "$rc" = 9 ] || complain "-o a directory: exit $rc, expected 9"
[ "$(cat "$dir/stderr")" = "gpulint-probe: cannot write $dir/adir: it is a directory; choose a file with -o FILE" ] ||
  complain "-o a directory: $(cat "$dir/stderr")"

[ "$fail" = 0 ] && echo "OK"
exit $fail
