#!/usr/bin/env bash
# tests/build/git_no_certs.sh: checks that libgit2's call to mbedtls_x509_crt_parse_file binds to
# gpulint's own no-op (src/git_no_certs.c), so a run does not parse the system's TLS certificates.
# Skipped (77) when this gpulint's libgit2 does not use mbedTLS, or the dynamic linker cannot
# report its bindings (LD_DEBUG).
#   git_no_certs.sh GPULINT
set -euo pipefail
gl=$1
if ! ldd "$gl" 2>/dev/null | grep -q 'libmbedx509'; then
  echo "skipped: $gl does not load mbedTLS"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/gpulint-certs.XXXXXX")
trap 'rm -rf "$work"' EXIT
bindings=$(LD_DEBUG=bindings "$gl" --isolated --no-cache --quiet "$work" 2>&1 >/dev/null || true)
if ! grep -q 'binding file' <<<"$bindings"; then
  echo "skipped: the dynamic linker does not report bindings here"
  exit 77
fi
line=$(grep "normal symbol \`mbedtls_x509_crt_parse_file'" <<<"$bindings" | grep 'libgit2' || true)
if [ -z "$line" ]; then
  echo "FAIL: libgit2 made no call to mbedtls_x509_crt_parse_file (did git_libgit2_init change?)"
  exit 1
fi
case $line in
  *"to $gl "*) echo "ok: $line" ;;
  *) echo "FAIL: libgit2's mbedtls_x509_crt_parse_file binds elsewhere: $line"; exit 1 ;;
esac
