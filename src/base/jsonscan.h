/* jsonscan.h: byte positions inside json text that a parser already accepted.
 * Owns: walking raw json text (whitespace, strings with escapes, nested values) to find where a
 *       key or value starts, so loaders can report file:line:col for semantic errors that cJSON
 *       (which keeps no positions) cannot place.
 * Not: parsing or validating json (cJSON does that first; on text cJSON rejected the answers are
 *       merely unspecified, never out of bounds), line / column arithmetic (callers).
 * Threads: stateless. */
#ifndef GL_JSONSCAN_H
#define GL_JSONSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include "base/vec.h"

#define GL_JSONSCAN_NONE ((size_t)-1)

/* The first offset >= i that is not json whitespace (len when none). */
size_t gl_jsonscan_ws(const char *s, size_t len, size_t i);

/* The offset just past the value starting at i (string, number, literal, object or array). */
size_t gl_jsonscan_value_end(const char *s, size_t len, size_t i);

/* In the object whose '{' is at obj: the nth (from 0) member whose raw key bytes equal key.
 * Sets *key_off (the key's opening quote) and *val_off; returns false when there is none. */
bool gl_jsonscan_member(const char *s, size_t len, size_t obj, const char *key, int nth,
                        size_t *key_off, size_t *val_off);

/* The raw offset of decoded byte idx of the string whose opening quote is at str (escapes such
 * as \" or \u00b5 count as the bytes they decode to). */
size_t gl_jsonscan_string_offset(const char *s, size_t len, size_t str, size_t idx);

/* The offset of the first `\u0000` escape inside a string at or after i, or GL_JSONSCAN_NONE:
 * cJSON decodes it to a NUL byte, which would cut the string there. */
size_t gl_jsonscan_nul_escape(const char *s, size_t len, size_t i);

/* One value of a document, in pre-order (the order cJSON links its items). */
typedef struct gl_jsonpos {
  size_t key_off;   /* the member's key (opening quote), or GL_JSONSCAN_NONE */
  size_t val_off;   /* the value's first byte */
} gl_jsonpos;

typedef gl_vec(gl_jsonpos) gl_jsonpos_list;

/* Appends the position of every value of the document starting at offset start, in pre-order;
 * iterative, so nesting depth costs heap, not stack. */
void gl_jsonscan_walk(const char *s, size_t len, size_t start, gl_jsonpos_list *out);

#endif
