/* jsondoc.h: a json file being validated: its bytes, the cJSON tree, where each item sits in the
 * text, and the first error found, with the file's line and column.
 * Owns: reading the file (regular files only, a size cap) or taking a copy of bytes, the NUL-byte
 *       and syntax checks, the item index (jsonindex.h) and first-error-wins reporting.
 * Not: what the document must contain (each loader: evidence.c, baseline.c).
 * Threads: a document belongs to its caller. */
#ifndef GL_JSONDOC_H
#define GL_JSONDOC_H

#include <stdbool.h>
#include <stddef.h>
#include "base/diag.h"
#include "base/jsonindex.h"
#include "base/load.h"

struct cJSON;

typedef struct gl_jsondoc {
  gl_source src;
  size_t start;             /* first byte after a BOM */
  struct cJSON *root;       /* NULL until parsed */
  gl_jsonindex ix;          /* where each item of root sits in the text */
  gl_diag *err;             /* the first error goes here */
  bool failed;
} gl_jsondoc;

/* Reads path (bytes == NULL: regular files only, at most cap bytes) or takes a copy of
 * bytes[0..len) as path's text, then parses it. Returns true when it parsed. Otherwise err says
 * why, once: an unreadable file (line 0), "<what> contains a NUL byte", "<what> is not valid UTF-8
 * (byte 0xFF)", "invalid json" or "invalid json: NaN and Infinity are not json numbers" (at the
 * position where parsing stopped), or "<what> holds a \u0000 escape in a string": json is UTF-8
 * (RFC 8259), and a NUL would cut the string, so every string cJSON gives back is valid UTF-8
 * with no NUL in it and can go into gpulint's own json or SARIF as it is.
 * gl_jsondoc_close must follow either way. */
bool gl_jsondoc_open(gl_jsondoc *d, const char *path, const char *bytes, size_t len, size_t cap,
                     const char *what, gl_diag *err);

/* Sets the error at byte off of the file, unless an earlier one was set. */
void gl_jsondoc_fail(gl_jsondoc *d, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Sets the error at the value of item it (NULL or not in the tree: the document's start), unless
 * an earlier one was set. */
void gl_jsondoc_fail_item(gl_jsondoc *d, const struct cJSON *it, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The position of item it, or NULL when it is not in the tree. */
const gl_jsonpos *gl_jsondoc_pos(const gl_jsondoc *d, const struct cJSON *it);

/* The byte offset of it's value (the document's start when unknown). */
size_t gl_jsondoc_val_off(const gl_jsondoc *d, const struct cJSON *it);

void gl_jsondoc_close(gl_jsondoc *d);

#endif
