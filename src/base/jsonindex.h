/* jsonindex.h: where each item of a cJSON tree sits in the text it was parsed from.
 * Owns: pairing a tree's items (pre-order, the order cJSON links them) with jsonscan's raw walk of
 *       the same text, and looking an item's key and value offsets up by its address.
 * Not: parsing (cJSON), walking the raw text (jsonscan.c), line / column arithmetic (load.c).
 * Threads: an index belongs to its caller; built once, then read. */
#ifndef GL_JSONINDEX_H
#define GL_JSONINDEX_H

#include <stddef.h>
#include "base/jsonscan.h"
#include "base/vec.h"

struct cJSON;

typedef struct gl_jsonslot {
  const struct cJSON *item;
  size_t index;               /* pre-order position: pos.data[index] */
} gl_jsonslot;

typedef struct gl_jsonindex {
  gl_jsonpos_list pos;        /* every value of the raw text, in pre-order */
  gl_vec(gl_jsonslot) map;    /* item -> index, sorted by address */
} gl_jsonindex;

/* Indexes root, parsed from text[0..len) whose document starts at offset start (after a BOM).
 * The text must be what cJSON accepted: the walk and the tree then have the same items. */
void gl_jsonindex_build(gl_jsonindex *ix, const char *text, size_t len, size_t start,
                        const struct cJSON *root);

/* The position of item (its key and value offsets), or NULL when item is not in the tree. */
const gl_jsonpos *gl_jsonindex_find(const gl_jsonindex *ix, const struct cJSON *item);

void gl_jsonindex_free(gl_jsonindex *ix);

#endif
