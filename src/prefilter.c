/* prefilter.c: skips files that name none of the enabled packs' (and models') trigger words.
 * Owns: an open-addressing hash set of trigger words and the word scanner. A word is a maximal
 *       run of ASCII letters, digits and '_' (so `cuspatial_utils` is not the word `cuspatial`, and
 *       `import cupy as cp` holds `cupy`). Not: findings. Threads: read-only after gl_prefilter_new. */
#include "prefilter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libmodel.h"

struct gl_prefilter {
  char **slots;       /* NULL = empty; size is a power of two */
  size_t mask;
  size_t count;
  size_t max_len;     /* longest word: longer runs cannot be triggers */
};

static uint64_t hash_word(const char *s, size_t len) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (size_t i = 0; i < len; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ull;
  }
  return h;
}

static bool is_word_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool set_contains(const gl_prefilter *pf, const char *w, size_t len) {
  for (size_t i = hash_word(w, len) & pf->mask;; i = (i + 1) & pf->mask) {
    const char *slot = pf->slots[i];
    if (!slot) return false;
    if (strlen(slot) == len && memcmp(slot, w, len) == 0) return true;
  }
}

static void set_add(gl_prefilter *pf, const char *w) {
  size_t len = strlen(w);
  if (!len || set_contains(pf, w, len)) return;
  size_t i = hash_word(w, len) & pf->mask;
  while (pf->slots[i]) i = (i + 1) & pf->mask;
  pf->slots[i] = gl_xstrdup(w);
  pf->count++;
  if (len > pf->max_len) pf->max_len = len;
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
  pf->mask = cap - 1;
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
  free(pf);
}

bool gl_prefilter_wants(const gl_prefilter *pf, const char *bytes, size_t len) {
  if (!pf || pf->count == 0) return true;
  size_t i = 0;
  while (i < len) {
    if (!is_word_byte((unsigned char)bytes[i])) {
      i++;
      continue;
    }
    size_t start = i;
    while (i < len && is_word_byte((unsigned char)bytes[i])) i++;
    size_t wlen = i - start;
    if (wlen <= pf->max_len && set_contains(pf, bytes + start, wlen)) return true;
  }
  return false;
}
