/* location.c: the one place that turns a finding's place into output text: SARIF URIs relative
 * to %SRCROOT%, GitHub's primaryLocationLineHash, and visible, valid text (UTF-8 repair, escapes
 * for control characters) for every writer.
 * Owns: gl_report_uri, gl_report_line_hashes, gl_report_safe_text and the decoding / escaping
 *       helpers of report_int.h.
 * Not: printing, choosing what a format shows.
 * Threads: stateless; safe from any thread (getcwd is read-only). */
#include "report/report.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report/report_int.h"

/* ---- UTF-8 ----------------------------------------------------------------------------------- */

/* Valid range of the second byte for each lead byte (Unicode table 3-7); later bytes 80..BF. */
static void lead_info(unsigned char b, size_t *n, unsigned char *lo, unsigned char *hi) {
  *lo = 0x80;
  *hi = 0xBF;
  if (b >= 0xC2 && b <= 0xDF) *n = 2;
  else if (b >= 0xE0 && b <= 0xEF) *n = 3;
  else if (b >= 0xF0 && b <= 0xF4) *n = 4;
  else *n = 0;
  if (b == 0xE0) *lo = 0xA0;
  if (b == 0xED) *hi = 0x9F;
  if (b == 0xF0) *lo = 0x90;
  if (b == 0xF4) *hi = 0x8F;
}

size_t gl_report__utf8_next(const char *s, size_t len, size_t i, bool maximal, uint32_t *cp,
                            bool *invalid) {
  const unsigned char *u = (const unsigned char *)s;
  *invalid = false;
  if (u[i] < 0x80) {
    *cp = u[i];
    return 1;
  }
  size_t n;
  unsigned char lo, hi;
  lead_info(u[i], &n, &lo, &hi);
  *cp = 0xFFFD;
  *invalid = true;
  if (n == 0) return 1;
  uint32_t v = u[i] & (0xFF >> (n + 1));
  for (size_t k = 1; k < n; k++) {
    bool ok = i + k < len && u[i + k] >= lo && u[i + k] <= hi;
    if (!ok) return maximal ? k : 1;
    v = (v << 6) | (u[i + k] & 0x3F);
    lo = 0x80;
    hi = 0xBF;
  }
  *cp = v;
  *invalid = false;
  return n;
}

static bool in_ranges(uint32_t cp, const uint32_t (*r)[2], size_t n) {
  for (size_t i = 0; i < n; i++)
    if (cp >= r[i][0] && cp <= r[i][1]) return true;
  return false;
}

/* Code points that reorder or break what a terminal or editor shows (Trojan Source set). */
static const uint32_t bidi_ranges[][2] = {
    {0x061C, 0x061C}, {0x200E, 0x200F}, {0x2028, 0x202E}, {0x2066, 0x2069},
};

static bool needs_escape(uint32_t cp) {
  if (cp == '\t') return false;
  if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) return true;
  return in_ranges(cp, bidi_ranges, sizeof bidi_ranges / sizeof bidi_ranges[0]);
}

static size_t put_utf8(uint32_t cp, char *out) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

size_t gl_report__escape_cp(uint32_t cp, bool invalid, char out[16]) {
  size_t n;
  if (invalid) n = put_utf8(0xFFFD, out);
  else if (cp <= 0x7F && needs_escape(cp)) n = (size_t)snprintf(out, 16, "\\x%02" PRIx32, cp);
  else if (needs_escape(cp)) n = (size_t)snprintf(out, 16, "\\u%04" PRIx32, cp);
  else n = put_utf8(cp, out);
  out[n] = '\0';
  return n;
}

/* East Asian wide and fullwidth ranges, and emoji (after Markus Kuhn's wcwidth). */
static const uint32_t wide_ranges[][2] = {
    {0x1100, 0x115F},   {0x2329, 0x232A},   {0x2E80, 0x303E},   {0x3041, 0x33FF},
    {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},   {0xAC00, 0xD7A3},
    {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},
    {0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F900, 0x1F9FF},
    {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

/* Combining marks and other zero-width code points that are shown as they are. */
static const uint32_t zero_ranges[][2] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x200B, 0x200D}, {0x20D0, 0x20FF},
    {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}, {0xE0100, 0xE01EF},
};

unsigned gl_report__cp_width(uint32_t cp, bool invalid) {
  if (invalid) return 1;
  if (needs_escape(cp)) {
    char tmp[16];
    return (unsigned)gl_report__escape_cp(cp, false, tmp);
  }
  if (in_ranges(cp, zero_ranges, sizeof zero_ranges / sizeof zero_ranges[0])) return 0;
  if (in_ranges(cp, wide_ranges, sizeof wide_ranges / sizeof wide_ranges[0])) return 2;
  return 1;
}

char *gl_report_safe_text(const char *s, size_t len) {
  gl_report__buf b = {0};
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    bool invalid;
    i += gl_report__utf8_next(s, len, i, false, &cp, &invalid);
    char esc[16];
    size_t n = gl_report__escape_cp(cp, invalid, esc);
    gl_report__buf_add(&b, esc, n);
  }
  return gl_report__buf_take(&b);
}

char *gl_report__json_text(const char *s) {
  gl_report__buf b = {0};
  size_t len = s ? strlen(s) : 0;
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    bool invalid;
    size_t n = gl_report__utf8_next(s, len, i, false, &cp, &invalid);
    if (invalid) gl_report__buf_add(&b, "\xEF\xBF\xBD", 3);
    else gl_report__buf_add(&b, s + i, n);
    i += n;
  }
  return gl_report__buf_take(&b);
}

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
  gl_report__buf out = {0};
  gl_vec(size_t) marks = {0}; /* out.len before each kept component */
  while (*p) {
    while (*p == '/') p++;
    size_t n = strcspn(p, "/");
    if (n == 0) break;
    if (n == 2 && p[0] == '.' && p[1] == '.') {
      if (marks.len) out.len = marks.data[--marks.len];
    } else if (!(n == 1 && p[0] == '.')) {
      gl_vec_push(&marks, out.len);
      gl_report__buf_add(&out, "/", 1);
      gl_report__buf_add(&out, p, n);
    }
    p += n;
  }
  gl_vec_free(&marks);
  if (out.len == 0) gl_report__buf_add(&out, "/", 1);
  out.data[out.len] = '\0';
  return gl_report__buf_take(&out);
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
static void percent_encode(gl_report__buf *b, const char *s) {
  static const char hex[] = "0123456789ABCDEF";
  for (const unsigned char *u = (const unsigned char *)s; *u; u++) {
    bool keep = (*u >= 'A' && *u <= 'Z') || (*u >= 'a' && *u <= 'z') || (*u >= '0' && *u <= '9') ||
                *u == '-' || *u == '.' || *u == '_' || *u == '~' || *u == '/';
    if (keep) {
      gl_report__buf_add(b, (const char *)u, 1);
      continue;
    }
    char esc[3] = {'%', hex[*u >> 4], hex[*u & 15]};
    gl_report__buf_add(b, esc, 3);
  }
}

/* The part of abs below root ("/a/b" under "/a" is "b"), or NULL when abs is not below it. */
static const char *below(const char *abs, const char *root) {
  if (strcmp(root, "/") == 0) return abs[1] ? abs + 1 : NULL;
  size_t n = strlen(root);
  if (strncmp(abs, root, n) != 0 || abs[n] != '/' || abs[n + 1] == '\0') return NULL;
  return abs + n + 1;
}

char *gl_report_uri(const char *path, const char *srcroot, bool *relative) {
  gl_report__buf b = {0};
  *relative = false;
  char *abs = absolute(path);
  if (!abs) {
    percent_encode(&b, path); /* no cwd: a relative reference without a base is all we know */
    return gl_report__buf_take(&b);
  }
  char *root = srcroot ? absolute(srcroot[0] ? srcroot : "/") : NULL;
  const char *rel = root ? below(abs, root) : NULL;
  if (rel) {
    *relative = true;
    percent_encode(&b, rel);
  } else {
    gl_report__buf_adds(&b, "file://");
    percent_encode(&b, abs);
  }
  free(root);
  free(abs);
  return gl_report__buf_take(&b);
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

char **gl_report_line_hashes(const char *text, size_t len, size_t *nlines_out) {
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
    i += gl_report__utf8_next(text, len, i, true, &cp, &invalid);
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
