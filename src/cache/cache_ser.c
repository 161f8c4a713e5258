/* cache_ser.c: the bytes of a cache entry: the 128-bit hash, the header, and the encoding of a
 * gl_file_result (every field the reports read).
 * Owns: gl_hash128_of, gl_cache_encode / gl_cache_decode, gl_cache_entry_build / _check.
 * Not: files and directories (cache.c), the run key (cache_key.c).
 * Threads: pure functions; any thread.
 *
 * Integers are little-endian whatever the host; doubles are their IEEE-754 bits; a string is a
 * u32 length and its bytes, with length 0xFFFFFFFF for NULL. The header is the magic
 * "GLCACHE\0", the format version (u32), a reserved u32, the payload length (u64), the content
 * hash and the payload's checksum (a gl_hash128 each, lo then hi). */
#include "cache/cache.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

#define FORMAT_VERSION 2u
#define HEADER_LEN 56u
#define NULL_STR 0xFFFFFFFFu
static const char magic[8] = {'G', 'L', 'C', 'A', 'C', 'H', 'E', '\0'};

/* ---- MurmurHash3 x64-128 ---------------------------------------------------------------- */

static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static uint64_t fmix(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

static uint64_t le64(const unsigned char *p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t v;
  memcpy(&v, p, 8); /* one load; the hash reads every byte of every linted file */
  return v;
#else
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
#endif
}

gl_hash128 gl_hash128_of(const void *data, size_t len, uint64_t seed) {
  const uint64_t c1 = 0x87c37b91114253d5ULL, c2 = 0x4cf5ad432745937fULL;
  const unsigned char *p = data;
  uint64_t h1 = seed, h2 = seed;
  size_t nblocks = len / 16;
  for (size_t i = 0; i < nblocks; i++, p += 16) {
    uint64_t k1 = le64(p), k2 = le64(p + 8);
    k1 *= c1; k1 = rotl(k1, 31); k1 *= c2; h1 ^= k1;
    h1 = rotl(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
    k2 *= c2; k2 = rotl(k2, 33); k2 *= c1; h2 ^= k2;
    h2 = rotl(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
  }
  unsigned char tail[16] = {0};
  memcpy(tail, p, len & 15);
  uint64_t k1 = le64(tail), k2 = le64(tail + 8);
  if ((len & 15) > 8) { k2 *= c2; k2 = rotl(k2, 33); k2 *= c1; h2 ^= k2; }
  if (len & 15) { k1 *= c1; k1 = rotl(k1, 31); k1 *= c2; h1 ^= k1; }
  h1 ^= (uint64_t)len;
  h2 ^= (uint64_t)len;
  h1 += h2; h2 += h1;
  h1 = fmix(h1); h2 = fmix(h2);
  h1 += h2; h2 += h1;
  return (gl_hash128){h1, h2};
}

/* ---- writing ---------------------------------------------------------------------------- */

static void put_bytes(gl_cache_keybuf *o, const void *p, size_t n) {
  gl_vec_reserve(o, o->len + n);
  memcpy(o->data + o->len, p, n);
  o->len += n;
}

static void put_u64(gl_cache_keybuf *o, uint64_t v) {
  unsigned char b[8];
  for (int i = 0; i < 8; i++) b[i] = (unsigned char)(v >> (8 * i));
  put_bytes(o, b, 8);
}

static void put_u32(gl_cache_keybuf *o, uint32_t v) {
  unsigned char b[4];
  for (int i = 0; i < 4; i++) b[i] = (unsigned char)(v >> (8 * i));
  put_bytes(o, b, 4);
}

static void put_u8(gl_cache_keybuf *o, unsigned v) {
  unsigned char b = (unsigned char)v;
  put_bytes(o, &b, 1);
}

static void put_double(gl_cache_keybuf *o, double d) {
  uint64_t bits;
  memcpy(&bits, &d, 8);
  put_u64(o, bits);
}

static void put_str(gl_cache_keybuf *o, const char *s) {
  if (!s) {
    put_u32(o, NULL_STR);
    return;
  }
  size_t n = strlen(s);
  put_u32(o, (uint32_t)n);
  put_bytes(o, s, n);
}

static void put_region(gl_cache_keybuf *o, const gl_region *r) {
  const uint32_t v[8] = {r->start_line, r->start_col, r->end_line, r->end_col,
                         r->start_col_cp, r->end_col_cp, r->start_byte, r->end_byte};
  for (int i = 0; i < 8; i++) put_u32(o, v[i]);
}

static void put_finding(gl_cache_keybuf *o, const gl_finding *f) {
  put_str(o, f->rule->id);
  put_u8(o, f->level);
  put_region(o, &f->region);
  put_str(o, f->message);
  put_str(o, f->snippet);
  put_str(o, f->line_hash);
  put_u8(o, f->suppressed);
  put_u8(o, f->baseline);
  put_u8(o, f->nrelated);
  for (unsigned i = 0; i < f->nrelated && i < GL_FINDING_MAX_RELATED; i++) {
    put_region(o, &f->related[i]);
    put_str(o, f->related_msg[i]);
  }
  put_u8(o, f->calib != NULL);
  if (f->calib) {
    put_double(o, f->calib->rank);
    put_double(o, f->calib->value);
    put_str(o, f->calib->metric);
    put_str(o, f->calib->unit);
    put_str(o, f->calib->device);
    put_u8(o, f->calib->default_level);
  }
  put_u32(o, f->cell);
  put_region(o, &f->cell_region);
}

void gl_cache_encode(const gl_file_result *r, gl_cache_keybuf *out) {
  put_str(out, r->path);
  put_u8(out, r->linted);
  put_u32(out, (uint32_t)r->findings.len);
  for (size_t i = 0; i < r->findings.len; i++) put_finding(out, &r->findings.data[i]);
  put_u32(out, (uint32_t)r->notes.len);
  for (size_t i = 0; i < r->notes.len; i++) {
    const gl_notification *n = &r->notes.data[i];
    put_u8(out, n->kind);
    put_u8(out, n->level);
    put_u32(out, n->line);
    put_u32(out, n->col);
    put_str(out, n->message);
  }
  put_str(out, r->summary);
}

void gl_cache_entry_build(const gl_file_result *r, gl_hash128 content, gl_cache_keybuf *out) {
  size_t start = out->len;
  put_bytes(out, magic, sizeof(magic));
  put_u32(out, FORMAT_VERSION);
  put_u32(out, 0);
  put_u64(out, 0); /* payload length, patched below */
  put_u64(out, content.lo);
  put_u64(out, content.hi);
  put_u64(out, 0); /* checksum, patched below */
  put_u64(out, 0);
  gl_cache_encode(r, out);
  size_t plen = out->len - start - HEADER_LEN;
  gl_hash128 sum = gl_hash128_of(out->data + start + HEADER_LEN, plen, 0);
  gl_cache_keybuf patch = {0};
  put_u64(&patch, plen);
  put_u64(&patch, content.lo);
  put_u64(&patch, content.hi);
  put_u64(&patch, sum.lo);
  put_u64(&patch, sum.hi);
  memcpy(out->data + start + 16, patch.data, patch.len);
  gl_vec_free(&patch);
}

/* ---- reading ---------------------------------------------------------------------------- */

typedef struct reader {
  const unsigned char *p;
  size_t left;
  bool bad;
} reader;

static const unsigned char *take(reader *r, size_t n) {
  if (r->bad || r->left < n) {
    r->bad = true;
    return NULL;
  }
  const unsigned char *p = r->p;
  r->p += n;
  r->left -= n;
  return p;
}

static uint64_t get_u64(reader *r) {
  const unsigned char *p = take(r, 8);
  return p ? le64(p) : 0;
}

static uint32_t get_u32(reader *r) {
  const unsigned char *p = take(r, 4);
  return p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24 : 0;
}

static unsigned get_u8(reader *r, unsigned max) {
  const unsigned char *p = take(r, 1);
  if (p && *p > max) r->bad = true;
  return p && *p <= max ? *p : 0;
}

static double get_double(reader *r) {
  uint64_t bits = get_u64(r);
  double d;
  memcpy(&d, &bits, 8);
  return d;
}

/* A string; NULL for the NULL marker or on error (then r->bad). */
static char *get_str(reader *r) {
  uint32_t n = get_u32(r);
  if (r->bad || n == NULL_STR) return NULL;
  const unsigned char *p = take(r, n);
  if (!p || memchr(p, '\0', n)) {
    r->bad = true;
    return NULL;
  }
  return gl_xstrndup((const char *)p, n);
}

static void get_region(reader *r, gl_region *g) {
  uint32_t v[8];
  for (int i = 0; i < 8; i++) v[i] = get_u32(r);
  *g = (gl_region){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
}

static void get_calib(reader *r, gl_finding *f) {
  if (!get_u8(r, 1)) return;
  gl_calibration *c = gl_xcalloc(1, sizeof(*c));
  f->calib = c;
  c->rank = get_double(r);
  c->value = get_double(r);
  c->metric = get_str(r);
  c->unit = get_str(r);
  c->device = get_str(r);
  c->default_level = (gl_level)get_u8(r, GL_LEVEL_ERROR);
}

static void get_finding(reader *r, const gl_ruleset *set, gl_finding *f) {
  char *id = get_str(r);
  f->rule = id ? gl_rules_find(set, id) : NULL;
  if (!f->rule || strcmp(f->rule->id, id) != 0) r->bad = true; /* a name is not an id */
  free(id);
  f->level = (gl_level)get_u8(r, GL_LEVEL_ERROR);
  get_region(r, &f->region);
  f->message = get_str(r);
  f->snippet = get_str(r);
  f->line_hash = get_str(r);
  f->suppressed = get_u8(r, 1);
  f->baseline = (gl_baseline_state)get_u8(r, GL_BASELINE_UNCHANGED);
  f->nrelated = (uint8_t)get_u8(r, GL_FINDING_MAX_RELATED);
  for (unsigned i = 0; i < f->nrelated && !r->bad; i++) {
    get_region(r, &f->related[i]);
    f->related_msg[i] = get_str(r);
  }
  get_calib(r, f);
  f->cell = get_u32(r);
  get_region(r, &f->cell_region);
  if (!f->message) r->bad = true;
}

static void get_note(reader *r, gl_notification *n) {
  n->kind = (gl_note_kind)get_u8(r, GL_NOTE_SKIPPED);
  n->level = (gl_level)get_u8(r, GL_LEVEL_ERROR);
  n->line = get_u32(r);
  n->col = get_u32(r);
  n->message = get_str(r);
  if (!n->message) r->bad = true;
}

bool gl_cache_decode(const char *data, size_t len, const gl_ruleset *set, gl_file_result *out) {
  reader r = {(const unsigned char *)data, len, false};
  gl_file_result res = {0};
  res.path = get_str(&r);
  res.linted = get_u8(&r, 1);
  uint32_t nf = get_u32(&r);
  for (uint32_t i = 0; i < nf && !r.bad; i++) {
    if (r.left < 4) r.bad = true; /* a huge count in a short entry must not allocate */
    gl_finding f = {0};
    if (!r.bad) get_finding(&r, set, &f);
    gl_vec_push(&res.findings, f);
  }
  uint32_t nn = get_u32(&r);
  for (uint32_t i = 0; i < nn && !r.bad; i++) {
    gl_notification n = {0};
    get_note(&r, &n);
    gl_vec_push(&res.notes, n);
  }
  if (!r.bad) res.summary = get_str(&r);
  if (r.bad || r.left != 0 || !res.path) {
    gl_file_result_free(&res);
    *out = (gl_file_result){0};
    return false;
  }
  *out = res;
  return true;
}

size_t gl_cache_entry_check(const char *data, size_t len, gl_hash128 content) {
  reader r = {(const unsigned char *)data, len, false};
  const unsigned char *m = take(&r, sizeof(magic));
  if (!m || memcmp(m, magic, sizeof(magic)) != 0) return 0;
  if (get_u32(&r) != FORMAT_VERSION || get_u32(&r) != 0) return 0;
  uint64_t plen = get_u64(&r);
  gl_hash128 c, sum; /* one statement each: initializers are not sequenced */
  c.lo = get_u64(&r);
  c.hi = get_u64(&r);
  sum.lo = get_u64(&r);
  sum.hi = get_u64(&r);
  if (r.bad || plen != r.left || c.lo != content.lo || c.hi != content.hi) return 0;
  gl_hash128 got = gl_hash128_of(r.p, r.left, 0);
  if (got.lo != sum.lo || got.hi != sum.hi) return 0;
  return HEADER_LEN;
}
