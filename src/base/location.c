/* location.c: SARIF URIs relative to %SRCROOT% and GitHub's primaryLocationLineHash (see
 * location.h).
 * Owns: lexical path normalisation, percent-encoding, the rolling line hash and its counts.
 * Not: printing, choosing what a format shows.
 * Threads: stateless; safe from any thread (getcwd is read-only). */
#include "base/location.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"

/* ---- URIs ------------------------------------------------------------------------------------ */

/* The current directory, or NULL when it cannot be had (removed, too long). */
static char *current_dir(void) {
  for (size_t cap = 256; cap <= (1u << 20); cap *= 2) {
    char *buf = gl_xmalloc(cap);
    if (getcwd(buf, cap)) return buf;
    free(buf);
  }
  return NULL;
}

/* Removes "", "." and ".." components of an absolute path lexically ("/" stays "/"). */
static char *normalize_abs(const char *p) {
  gl_strbuf out = {0};
  gl_vec(size_t) marks = {0}; /* out.len before each kept component */
  while (*p) {
    while (*p == '/') p++;
    size_t n = strcspn(p, "/");
    if (n == 0) break;
    if (n == 2 && p[0] == '.' && p[1] == '.') {
      if (marks.len) out.len = marks.data[--marks.len];
    } else if (!(n == 1 && p[0] == '.')) {
      gl_vec_push(&marks, out.len);
      gl_strbuf_add(&out, "/", 1);
      gl_strbuf_add(&out, p, n);
    }
    p += n;
  }
  gl_vec_free(&marks);
  if (out.len == 0) gl_strbuf_add(&out, "/", 1);
  out.data[out.len] = '\0';
  return gl_strbuf_take(&out);
}

/* Makes path absolute against the current directory, then normalizes it; NULL without a cwd. */
static char *absolute(const char *path) {
  if (path[0] == '/') return normalize_abs(path);
  char *cwd = current_dir();
  if (!cwd) return NULL;
  char *joined = gl_xasprintf("%s/%s", cwd, path);
  free(cwd);
  char *abs = normalize_abs(joined);
  free(joined);
  return abs;
}

/* RFC 3986: unreserved characters and '/' stay, every other byte becomes %XX. */
static void percent_encode(gl_strbuf *b, const char *s) {
  static const char hex[] = "0123456789ABCDEF";
  for (const unsigned char *u = (const unsigned char *)s; *u; u++) {
    bool keep = (*u >= 'A' && *u <= 'Z') || (*u >= 'a' && *u <= 'z') || (*u >= '0' && *u <= '9') ||
                *u == '-' || *u == '.' || *u == '_' || *u == '~' || *u == '/';
    if (keep) {
      gl_strbuf_add(b, (const char *)u, 1);
      continue;
    }
    char esc[3] = {'%', hex[*u >> 4], hex[*u & 15]};
    gl_strbuf_add(b, esc, 3);
  }
}

/* The part of abs below root ("/a/b" under "/a" is "b"), or NULL when abs is not below it. */
static const char *below(const char *abs, const char *root) {
  if (strcmp(root, "/") == 0) return abs[1] ? abs + 1 : NULL;
  size_t n = strlen(root);
  if (strncmp(abs, root, n) != 0 || abs[n] != '/' || abs[n + 1] == '\0') return NULL;
  return abs + n + 1;
}

char *gl_loc_uri(const char *path, const char *srcroot, bool *relative) {
  gl_strbuf b = {0};
  *relative = false;
  char *abs = absolute(path);
  if (!abs) {
    percent_encode(&b, path); /* no cwd: a relative reference without a base is all we know */
    return gl_strbuf_take(&b);
  }
  char *root = srcroot ? absolute(srcroot[0] ? srcroot : "/") : NULL;
  const char *rel = root ? below(abs, root) : NULL;
  if (rel) {
    *relative = true;
    percent_encode(&b, rel);
  } else {
    gl_strbuf_adds(&b, "file://");
    percent_encode(&b, abs);
  }
  free(root);
  free(abs);
  return gl_strbuf_take(&b);
}

/* ---- primaryLocationLineHash ---------------------------------------------------------------- */
/* GitHub's upload action (codeql-action src/fingerprints.ts) hashes each line as a rolling hash,
 * multiplier 37 in 64-bit wrap-around arithmetic, over the next BLOCK non-space, non-tab UTF-16
 * code units from the line's start; CR LF and lone CR read as LF; a 65535 sentinel follows the
 * last unit, then zeros. The value is "<hex>:<n>", n counting earlier lines with the same hash. */

enum { HASH_BLOCK = 100, HASH_EOF = 65535 };

/* Open-addressing map from hash value to how often it was seen. */
typedef struct hash_counts {
  uint64_t *keys;
  uint32_t *counts; /* 0 = empty slot */
  size_t cap, len;
} hash_counts;

static uint32_t *hash_counts_slot(hash_counts *m, uint64_t key) {
  size_t mask = m->cap - 1;
  size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & mask;
  while (m->counts[i] && m->keys[i] != key) i = (i + 1) & mask;
  m->keys[i] = key;
  return &m->counts[i];
}

static uint32_t hash_counts_bump(hash_counts *m, uint64_t key) {
  if ((m->len + 1) * 2 > m->cap) {
    hash_counts old = *m;
    m->cap = old.cap ? old.cap * 2 : 64;
    m->keys = gl_xcalloc(m->cap, sizeof *m->keys);
    m->counts = gl_xcalloc(m->cap, sizeof *m->counts);
    for (size_t i = 0; i < old.cap; i++)
      if (old.counts[i]) *hash_counts_slot(m, old.keys[i]) = old.counts[i];
    free(old.keys);
    free(old.counts);
  }
  uint32_t *c = hash_counts_slot(m, key);
  if (*c == 0) m->len++;
  return ++*c;
}

typedef struct line_hasher {
  uint32_t window[HASH_BLOCK];
  int64_t line_at[HASH_BLOCK]; /* line number starting at that window slot, or -1 */
  uint64_t hash, first_mod;
  size_t index;
  int64_t line;
  bool line_start, prev_cr;
  hash_counts seen;
  gl_vec(char *) out; /* out.data[k] = hash of line k + 1 */
} line_hasher;

static void hasher_output(line_hasher *h) {
  uint32_t n = hash_counts_bump(&h->seen, h->hash);
  char *s = gl_xasprintf("%" PRIx64 ":%" PRIu32, h->hash, n);
  /* Lines come out in order, each once: the slot's line number is out.len + 1. */
  gl_vec_push(&h->out, s);
  h->line_at[h->index] = -1;
}

static void hasher_update(line_hasher *h, uint32_t current) {
  uint32_t begin = h->window[h->index];
  h->window[h->index] = current;
  h->hash = 37u * h->hash + current - h->first_mod * begin;
  h->index = (h->index + 1) % HASH_BLOCK;
}

static void hasher_char(line_hasher *h, uint32_t c) {
  if (c == ' ' || c == '\t' || (h->prev_cr && c == '\n')) {
    h->prev_cr = false;
    return;
  }
  h->prev_cr = c == '\r';
  if (c == '\r') c = '\n';
  if (h->line_at[h->index] != -1) hasher_output(h);
  if (h->line_start) {
    h->line_start = false;
    h->line_at[h->index] = ++h->line;
  }
  if (c == '\n') h->line_start = true;
  hasher_update(h, c);
}

char **gl_loc_line_hashes(const char *text, size_t len, size_t *nlines_out) {
  line_hasher *h = gl_xcalloc(1, sizeof *h);
  h->first_mod = 1;
  for (int i = 0; i < HASH_BLOCK; i++) {
    h->first_mod *= 37u;
    h->line_at[i] = -1;
  }
  h->line_start = true;
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    bool invalid;
    i += gl_utf8_next(text, len, i, true, &cp, &invalid);
    if (cp < 0x10000) {
      hasher_char(h, cp);
      continue;
    }
    hasher_char(h, 0xD800 + ((cp - 0x10000) >> 10));
    hasher_char(h, 0xDC00 + ((cp - 0x10000) & 0x3FF));
  }
  hasher_char(h, HASH_EOF);
  for (int i = 0; i < HASH_BLOCK; i++) {
    if (h->line_at[h->index] != -1) hasher_output(h);
    hasher_update(h, 0);
  }
  char **lines = h->out.data;
  *nlines_out = h->out.len;
  free(h->seen.keys);
  free(h->seen.counts);
  free(h);
  return lines;
}
