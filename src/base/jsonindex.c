/* jsonindex.c: where each item of a cJSON tree sits in its text (see jsonindex.h).
 * Owns: the pre-order walk of the tree (iterative: nesting depth costs heap, not stack) and the
 *       address-sorted map from item to position.
 * Not: the raw-text walk (jsonscan.c). Threads: stateless beyond the caller's index. */
#include "base/jsonindex.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>

static int cmp_slot(const void *pa, const void *pb) {
  uintptr_t a = (uintptr_t)((const gl_jsonslot *)pa)->item;
  uintptr_t b = (uintptr_t)((const gl_jsonslot *)pb)->item;
  return a < b ? -1 : a > b;
}

void gl_jsonindex_build(gl_jsonindex *ix, const char *text, size_t len, size_t start,
                        const struct cJSON *root) {
  gl_jsonscan_walk(text, len, start, &ix->pos);
  gl_vec(const cJSON *) up = {0};
  size_t n = 0;
  for (const cJSON *it = root; it;) {
    gl_jsonslot s = {it, n++};
    gl_vec_push(&ix->map, s);
    if (it->child) {
      gl_vec_push(&up, it);
      it = it->child;
      continue;
    }
    while (it && !it->next) it = up.len ? up.data[--up.len] : NULL;
    if (it) it = it->next;
  }
  gl_vec_free(&up);
  if (ix->map.len > 1) qsort(ix->map.data, ix->map.len, sizeof *ix->map.data, cmp_slot);
}

const gl_jsonpos *gl_jsonindex_find(const gl_jsonindex *ix, const struct cJSON *item) {
  if (!item || !ix->map.len) return NULL;
  gl_jsonslot key = {item, 0};
  const gl_jsonslot *s = bsearch(&key, ix->map.data, ix->map.len, sizeof key, cmp_slot);
  return s && s->index < ix->pos.len ? &ix->pos.data[s->index] : NULL;
}

void gl_jsonindex_free(gl_jsonindex *ix) {
  gl_vec_free(&ix->pos);
  gl_vec_free(&ix->map);
}
