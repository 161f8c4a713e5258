/* prefilter.c: skips files that name none of the enabled packs' (and models') trigger words.
 * Owns: an open-addressing hash set of trigger words and the word scanner. A word is a maximal
 *       run of ASCII letters, digits and '_' (so `cuspatial_utils` is not the word `cuspatial`, and
 *       `import cupy as cp` holds `cupy`). Not: findings. Threads: read-only after gl_prefilter_new.
 * Speed: one pass over the bytes. With SSE2 (every x86-64) 16 bytes at a time: a mask of word
 *       bytes gives the word starts and, for a word that ends in the block, its length, so only
 *       starts whose first byte starts some trigger are looked at; elsewhere (and for the last
 *       bytes) a byte-class table, one byte at a time. A word is hashed only when its length is
 *       one a trigger has and its first two bytes start one, and the probe compares stored
 *       lengths before bytes. On the Python stdlib (no trigger anywhere): about 5 instructions a
 *       byte with SSE2, 8 without. */
#include "prefilter/prefilter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/hash.h"
#include "libmodel/libmodel.h"

#define LEN_BITS 64   /* lengths of trigger words, as bits; longer ones share the last bit */

struct gl_prefilter {
  char **slots;       /* NULL = empty; size is a power of two */
  size_t *lens;       /* strlen of each slot */
  size_t mask;
  size_t count;
  size_t max_len;     /* longest word: longer runs cannot be triggers */
  uint64_t len_bits;  /* bit min(len, LEN_BITS - 1) set for each trigger's length */
  bool word[256];     /* bytes that make up words: [A-Za-z0-9_] */
  bool first[256];    /* bytes that start some trigger */
  uint8_t pairs[65536 / 8];   /* bit b0 | b1 << 8: some trigger starts with bytes b0, b1 */
};

static uint64_t hash_word(const char *s, size_t len) {
  return gl_fnv64(GL_FNV64_TABLE_SEED, s, len);
}

static bool is_word_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool set_contains(const gl_prefilter *pf, const char *w, size_t len) {
  for (size_t i = hash_word(w, len) & pf->mask;; i = (i + 1) & pf->mask) {
    const char *slot = pf->slots[i];
    if (!slot) return false;
    if (pf->lens[i] == len && memcmp(slot, w, len) == 0) return true;
  }
}

static uint64_t len_bit(size_t len) {
  return 1ull << (len < LEN_BITS ? len : LEN_BITS - 1);
}

static void set_add(gl_prefilter *pf, const char *w) {
  size_t len = strlen(w);
  if (!len || set_contains(pf, w, len)) return;
  size_t i = hash_word(w, len) & pf->mask;
  while (pf->slots[i]) i = (i + 1) & pf->mask;
  pf->slots[i] = gl_xstrdup(w);
  pf->lens[i] = len;
  pf->count++;
  if (len > pf->max_len) pf->max_len = len;
  pf->len_bits |= len_bit(len);
  pf->first[(unsigned char)w[0]] = true;
  if (len >= 2) {
    unsigned pair = (unsigned char)w[0] | (unsigned)(unsigned char)w[1] << 8;
    pf->pairs[pair >> 3] |= (uint8_t)(1u << (pair & 7));
  }
}

static bool pack_has_enabled_rule(const gl_ruleset *set, const gl_pack *pack) {
  for (size_t i = 0; i < set->rules.len; i++)
    if (set->rules.data[i]->pack == pack && set->rules.data[i]->enabled) return true;
  return false;
}

gl_prefilter *gl_prefilter_new(const gl_ruleset *set) {
  size_t total = 0, nmodel = 0;
  for (size_t i = 0; i < set->packs.len; i++) total += set->packs.data[i]->ntriggers;
  gl_libmodels_triggers(set->models, &nmodel);
  total += nmodel;
  size_t cap = 16;
  while (cap < total * 2 + 1) cap *= 2;
  gl_prefilter *pf = gl_xcalloc(1, sizeof(*pf));
  pf->slots = gl_xcalloc(cap, sizeof(char *));
  pf->lens = gl_xcalloc(cap, sizeof(size_t));
  pf->mask = cap - 1;
  for (unsigned c = 0; c < 256; c++) pf->word[c] = is_word_byte((unsigned char)c);
  bool any_enabled = false;
  for (size_t i = 0; i < set->packs.len; i++) {
    const gl_pack *pack = set->packs.data[i];
    if (!pack_has_enabled_rule(set, pack)) continue;
    any_enabled = true;
    for (size_t j = 0; j < pack->ntriggers; j++) set_add(pf, pack->triggers[j]);
  }
  /* A user's model of another library (--rules DIR/models/x.json) names its own words, so the
   * role-based rules see files that use only that library. */
  const char *const *words = gl_libmodels_triggers(set->models, &nmodel);
  for (size_t j = 0; any_enabled && j < nmodel; j++) set_add(pf, words[j]);
  return pf;
}

void gl_prefilter_free(gl_prefilter *pf) {
  if (!pf) return;
  for (size_t i = 0; i <= pf->mask; i++) free(pf->slots[i]);
  free(pf->slots);
  free(pf->lens);
  free(pf);
}

/* A word found at w[0, len): a trigger? The first byte, the length and the first two bytes
 * reject most words before the hash. */
static bool is_trigger(const gl_prefilter *pf, const char *w, size_t len) {
  if (!pf->first[(unsigned char)w[0]] || !(pf->len_bits & len_bit(len)) || len > pf->max_len)
    return false;
  if (len >= 2) {   /* a trigger of this length has two bytes, so its first two are a pair */
    unsigned pair = (unsigned char)w[0] | (unsigned)(unsigned char)w[1] << 8;
    if (!(pf->pairs[pair >> 3] & (1u << (pair & 7)))) return false;
  }
  return set_contains(pf, w, len);
}

/* The byte-at-a-time scan of bytes[i, len); in_word: bytes[i] continues a word that started
 * before i and was already looked at. */
static bool scan_bytes(const gl_prefilter *pf, const char *bytes, size_t i, size_t len,
                       bool in_word) {
  const unsigned char *b = (const unsigned char *)bytes;
  const bool *word = pf->word;
  if (in_word)
    while (i < len && word[b[i]]) i++;
  for (;;) {
    while (i < len && !word[b[i]]) i++;
    if (i >= len) return false;
    size_t start = i++;
    while (i < len && word[b[i]]) i++;
    if (is_trigger(pf, bytes + start, i - start)) return true;
  }
}

#if defined(__SSE2__)
/* Bit k set when byte k of the 16 at p is a word byte ([A-Za-z0-9_]): signed compares after a
 * shift that moves each range to the bottom of the signed bytes. */
static uint32_t word_mask16(const unsigned char *p) {
  __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
  __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20)); /* A-Z -> a-z; no other byte lands there */
  __m128i letter = _mm_cmplt_epi8(_mm_add_epi8(folded, _mm_set1_epi8((char)(0x80 - 'a'))),
                                  _mm_set1_epi8((char)(0x80 + 26)));
  __m128i digit = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8((char)(0x80 - '0'))),
                                 _mm_set1_epi8((char)(0x80 + 10)));
  __m128i under = _mm_cmpeq_epi8(v, _mm_set1_epi8('_'));
  return (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letter, digit), under));
}
#endif

bool gl_prefilter_wants(const gl_prefilter *pf, const char *bytes, size_t len) {
  if (!pf || pf->count == 0) return true;
  size_t i = 0;
  bool in_word = false;   /* bytes[i - 1] is a word byte */
#if defined(__SSE2__)
  /* 16 bytes at a time: only word starts whose first byte starts a trigger are looked at, and a
   * word that ends inside the block is measured from the mask. */
  const unsigned char *b = (const unsigned char *)bytes;
  for (; i + 16 <= len; i += 16) {
    uint32_t m = word_mask16(b + i);
    uint32_t starts = m & ~((m << 1) | (uint32_t)in_word) & 0xFFFFu;
    in_word = (m >> 15) & 1u;
    while (starts) {
      unsigned k = (unsigned)__builtin_ctz(starts);
      starts &= starts - 1;
      if (!pf->first[b[i + k]]) continue;
      uint32_t ends = (~m & 0xFFFFu) >> k;
      size_t wlen = ends ? (size_t)__builtin_ctz(ends) : 16 - k;
      if (!ends)   /* the word runs on past the block */
        while (i + k + wlen < len && pf->word[b[i + k + wlen]]) wlen++;
      if (is_trigger(pf, bytes + i + k, wlen)) return true;
    }
  }
#endif
  return scan_bytes(pf, bytes, i, len, in_word);
}
