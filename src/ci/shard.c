/* shard.c: which shard of --shard I/N a file belongs to, and keeping one shard's files (see
 * ci.h).
 * Owns: the hash (64-bit FNV-1a: fixed constants, byte order independent, so every machine
 *       agrees) and the in-place filters. Not: walking, reporting. Threads: main thread only. */
#include "ci/ci.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/location.h"

unsigned gl_shard_of(const char *uri, size_t len, unsigned n) {
  uint64_t h = gl_fnv64(GL_FNV64_OFFSET, uri, len);
  return n ? 1 + (unsigned)(h % n) : 1;
}

static bool in_shard(const char *uri, unsigned index, unsigned n) {
  return gl_shard_of(uri, strlen(uri), n) == index;
}

void gl_shard_filter_files(gl_walk_result *walked, const char *srcroot, unsigned index, unsigned n) {
  const char *root = !srcroot ? "." : srcroot[0] ? srcroot : "/";
  size_t kept = 0;
  for (size_t i = 0; i < walked->files.len; i++) {
    gl_walk_file f = walked->files.data[i];
    bool relative;
    char *uri = gl_loc_uri(f.path, root, &relative);
    bool keep = in_shard(uri, index, n);
    free(uri);
    if (keep) walked->files.data[kept++] = f;
    else free(f.path);
  }
  walked->files.len = kept;
}

void gl_shard_filter_baseline(gl_baseline *base, unsigned index, unsigned n) {
  if (!base) return;
  size_t kept = 0;
  for (size_t i = 0; i < base->results.len; i++) {
    gl_baseline_result r = base->results.data[i];
    if (in_shard(r.uri, index, n)) {
      base->results.data[kept++] = r;
      continue;
    }
    free(r.rule_id);
    free(r.line_hash);
    free(r.uri);
    free(r.message);
    free(r.level);
  }
  base->results.len = kept;
}
