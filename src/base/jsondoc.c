/* jsondoc.c: a json file being validated (see jsondoc.h).
 * Owns: the read, the NUL, UTF-8, `\u0000` and syntax checks, the error position.
 * Threads: caller's document. */
#include "base/jsondoc.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include "base/jsonscan.h"
#include "base/utf8.h"

void gl_jsondoc_fail(gl_jsondoc *d, size_t off, const char *fmt, ...) {
  if (d->failed) return;
  d->failed = true;
  gl_pos p = gl_load_position(&d->src, off);
  va_list ap;
  va_start(ap, fmt);
  gl_diag_vset(d->err, d->src.path, p.line, p.col_cp, fmt, ap);
  va_end(ap);
}

void gl_jsondoc_fail_item(gl_jsondoc *d, const struct cJSON *it, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  gl_jsondoc_fail(d, gl_jsondoc_val_off(d, it), "%s", msg);
}

static bool parse(gl_jsondoc *d, const char *what) {
  size_t nul = gl_load_first_nul(&d->src);
  if (nul != SIZE_MAX) {
    gl_jsondoc_fail(d, nul, "%s contains a NUL byte", what);
    return false;
  }
  size_t bad = gl_utf8_first_invalid(d->src.bytes + d->start, d->src.len - d->start);
  if (bad != SIZE_MAX) {
    gl_jsondoc_fail(d, d->start + bad, "%s is not valid UTF-8 (byte 0x%02X)", what,
                    (unsigned char)d->src.bytes[d->start + bad]);
    return false;
  }
  const char *text = d->src.bytes + d->start, *end = NULL;
  /* len + 1 with require_null_terminated: trailing bytes after the value are an error too */
  d->root = cJSON_ParseWithLengthOpts(text, d->src.len - d->start + 1, &end, 1);
  if (d->root) {
    gl_jsonindex_build(&d->ix, d->src.bytes, d->src.len, d->start, d->root);
    size_t esc = gl_jsonscan_nul_escape(d->src.bytes, d->src.len, d->start);
    if (esc == GL_JSONSCAN_NONE) return true;
    gl_jsondoc_fail(d, esc, "%s holds a \\u0000 escape in a string (a NUL character)", what);
    return false;
  }
  size_t off = end && end >= text ? (size_t)(end - d->src.bytes) : d->start;
  const char *at = d->src.bytes + off;
  bool special = strncmp(at, "NaN", 3) == 0 || strncmp(at, "Infinity", 8) == 0 ||
                 strncmp(at, "-Infinity", 9) == 0;
  gl_jsondoc_fail(d, off, special ? "invalid json: NaN and Infinity are not json numbers" : "invalid json");
  return false;
}

bool gl_jsondoc_open(gl_jsondoc *d, const char *path, const char *bytes, size_t len, size_t cap,
                     const char *what, gl_diag *err) {
  memset(d, 0, sizeof *d);
  d->err = err;
  if (bytes) {
    gl_load_buffer(&d->src, path, bytes, len);
  } else {
    gl_diag lerr = {0};
    if (gl_load_file(&d->src, path, cap, &lerr) != 0) {
      gl_diag_set(err, path, 0, 0, "%s", lerr.msg);
      d->failed = true;
      return false;
    }
  }
  d->start = d->src.bom_len;
  return parse(d, what);
}

const gl_jsonpos *gl_jsondoc_pos(const gl_jsondoc *d, const struct cJSON *it) {
  return gl_jsonindex_find(&d->ix, it);
}

size_t gl_jsondoc_val_off(const gl_jsondoc *d, const struct cJSON *it) {
  const gl_jsonpos *p = gl_jsonindex_find(&d->ix, it);
  return p ? p->val_off : d->start;
}

void gl_jsondoc_close(gl_jsondoc *d) {
  cJSON_Delete(d->root);
  d->root = NULL;
  gl_jsonindex_free(&d->ix);
  gl_source_free(&d->src);
}
