/* vec.h: gl_vec(T), the one growable array of gpulint (shaped after tree-sitter's Array(T)).
 * Owns: {data, len, cap} and the push / reserve / free macros; growth goes through gl_xrealloc.
 * Not: ownership of the elements: freeing a vec frees its buffer, never what the elements point to.
 * Threads: a vec belongs to whoever holds it; no locking. */
#ifndef GL_VEC_H
#define GL_VEC_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "base/xalloc.h"

#define gl_vec(T) struct { T *data; size_t len; size_t cap; }

/* One growth function serves every element type (as tree-sitter's array.h does). */
static inline void gl_vec__reserve(void **data, size_t *cap, size_t len, size_t n, size_t elem) {
  if (len + n <= *cap) return;
  size_t c = *cap ? *cap * 2 : 8;
  while (c < len + n) c *= 2;
  *data = gl_xrealloc(*data, c * elem);
  *cap = c;
}

/* Makes room for at least n more elements (an expression). */
#define gl_vec_reserve(v, n) \
  gl_vec__reserve((void **)&(v)->data, &(v)->cap, (v)->len, (n), sizeof(*(v)->data))

#define gl_vec_push(v, x)                                                                 \
  do {                                                                                    \
    gl_vec_reserve((v), 1);                                                               \
    (v)->data[(v)->len++] = (x);                                                          \
  } while (0)

/* Returns a pointer to a new zeroed element at the end. */
#define gl_vec_grow(v) \
  (gl_vec_reserve((v), 1), memset(&(v)->data[(v)->len], 0, sizeof(*(v)->data)), &(v)->data[(v)->len++])

#define gl_vec_last(v) (&(v)->data[(v)->len - 1])

#define gl_vec_free(v)                                                                    \
  do {                                                                                    \
    free((v)->data);                                                                      \
    (v)->data = NULL;                                                                     \
    (v)->len = (v)->cap = 0;                                                              \
  } while (0)

#endif
