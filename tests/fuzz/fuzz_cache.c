/* fuzz_cache.c: a cache entry file: the header check (magic, version, length, content hash,
 * checksum; the content hash is taken from the input so the checksum path is reached) and the
 * payload's decoder; a payload that decodes is written in every report format and must encode and
 * decode again to the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "cache/cache.h"
#include "harness.h"

static uint64_t u64_at(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

static void decode(const uint8_t *data, size_t size) {
  gl_file_result r;
  if (!gl_cache_decode((const char *)data, size, gl_fuzz_rules(), &r)) return;
  gl_cache_keybuf once = {0}, twice = {0};
  gl_cache_encode(&r, &once);
  gl_file_result again;
  if (!gl_cache_decode(once.data, once.len, gl_fuzz_rules(), &again)) abort();
  gl_cache_encode(&again, &twice);
  if (once.len != twice.len || memcmp(once.data, twice.data, once.len) != 0) abort();
  gl_file_result_free(&again);
  gl_vec_free(&once);
  gl_vec_free(&twice);
  gl_run run = gl_fuzz_run();
  *gl_vec_grow(&run.files) = r;
  gl_fuzz_report_all(&run);
  gl_run_free(&run);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gl_hash128 content = {0, 0};
  if (size >= 40) content = (gl_hash128){u64_at(data + 24), u64_at(data + 32)};
  size_t off = gl_cache_entry_check((const char *)data, size, content);
  if (off) decode(data + off, size - off);
  else decode(data, size);
  return 0;
}
