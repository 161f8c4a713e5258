#!/usr/bin/env bash
# scripts/quickstart.sh: from a fresh Debian 12 machine to findings: installs the build
# dependencies, builds gpulint into build/ and runs it on the bundled examples/.
# gpulint exits 1 there on purpose (the examples contain findings); this script passes that on.
set -euo pipefail
cd "$(dirname "$0")/.."
GL_NO_SARIF_TOOLS=1 bash scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGL_TESTS=OFF -DGL_DOWNLOAD_DIR="$(pwd)/.tools/deps" >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)" >/dev/null
exec ./build/gpulint examples/
