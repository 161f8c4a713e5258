#!/usr/bin/env bash
# scripts/test.sh: the whole test suite, from a clean checkout: installs what is missing
# (scripts/deps.sh), builds with -Werror and runs every test, then builds again with
# AddressSanitizer + UndefinedBehaviorSanitizer and runs every test once more. Exits non-zero when
# anything fails. The last line is ctest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bash scripts/deps.sh
export GL_SARIF_MULTITOOL="$root/.tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
jobs=$(nproc 2>/dev/null || echo 2)
deps="-DGL_DOWNLOAD_DIR=$root/.tools/deps"

cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGL_WERROR=ON $deps >/dev/null
cmake --build build-test -j"$jobs" >/dev/null
(cd build-test && ctest --output-on-failure -j"$jobs")

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DGL_WERROR=ON -DGL_SANITIZE=ON $deps >/dev/null
cmake --build build-asan -j"$jobs" >/dev/null
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build-asan && ctest --output-on-failure -j"$jobs")
