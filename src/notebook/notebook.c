/* notebook.c: reading an nbformat-4 notebook into one virtual source (see notebook.h).
 * Owns: the json checks cJSON does not make (duplicate keys, `\u0000`), the notebook's shape,
 *       joining code cells, the cell map and virtual -> .ipynb positions.
 * Not: magics (notebook_magic.c), reading the file, linting.
 * Threads: no state; a gl_notebook belongs to its caller. */
#include "notebook/notebook.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonindex.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "notebook/notebook_int.h"

typedef struct reader {
  gl_notebook *nb;
  const gl_source *raw;
  gl_jsonindex ix;
  gl_diag *err;
  gl_vec(gl_nb_cellspan) spans;
  bool failed;
} reader;

static void fail(reader *r, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void fail(reader *r, size_t off, const char *fmt, ...) {
  if (r->failed) return;
  r->failed = true;
  gl_pos p = gl_load_position(r->raw, off);
  va_list ap;
  va_start(ap, fmt);
  gl_diag_vset(r->err, r->raw->path, p.line, p.col, fmt, ap);
  va_end(ap);
}

static size_t val_off(const reader *r, const cJSON *it) {
  const gl_jsonpos *p = gl_jsonindex_find(&r->ix, it);
  return p ? p->val_off : r->raw->bom_len;
}

static size_t key_off(const reader *r, const cJSON *it) {
  const gl_jsonpos *p = gl_jsonindex_find(&r->ix, it);
  if (!p) return r->raw->bom_len;
  return p->key_off != GL_JSONSCAN_NONE ? p->key_off : p->val_off;
}

/* ---- json checks ---------------------------------------------------------------------------- */

static cJSON *parse(reader *r) {
  const gl_source *raw = r->raw;
  size_t nul = gl_load_first_nul(raw);
  if (nul != SIZE_MAX) {
    fail(r, nul, "notebook contains a NUL byte");
    return NULL;
  }
  const char *text = raw->bytes + raw->bom_len, *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, raw->len - raw->bom_len + 1, &end, 1);
  if (root) return root;
  size_t off = end && end >= text ? (size_t)(end - raw->bytes) : raw->bom_len;
  const char *at = raw->bytes + off;
  bool special = strncmp(at, "NaN", 3) == 0 || strncmp(at, "Infinity", 8) == 0 ||
                 strncmp(at, "-Infinity", 9) == 0;
  fail(r, off, special ? "invalid json: NaN and Infinity are not json numbers" : "invalid json");
  return NULL;
}

/* The offset of the first key (in the text) that repeats an earlier key of its object. */
static size_t first_duplicate(const reader *r, const cJSON *obj, const char **name) {
  size_t best = GL_JSONSCAN_NONE;
  for (const cJSON *a = obj->child; a; a = a->next)
    for (const cJSON *b = a->next; b; b = b->next) {
      if (!a->string || !b->string || strcmp(a->string, b->string) != 0) continue;
      size_t off = key_off(r, b);
      if (off < best) best = off, *name = b->string;
    }
  return best;
}

static void check_items(reader *r) {
  size_t best = GL_JSONSCAN_NONE;
  const char *dup = NULL;
  for (size_t i = 0; i < r->ix.map.len; i++) {
    const cJSON *it = r->ix.map.data[i].item;
    if (!cJSON_IsObject(it)) continue;
    const char *name = NULL;
    size_t off = first_duplicate(r, it, &name);
    if (off < best) best = off, dup = name;
  }
  size_t nul = gl_jsonscan_nul_escape(r->raw->bytes, r->raw->len, r->raw->bom_len);
  if (nul < best) fail(r, nul, "a \\u0000 escape in a string (a NUL character)");
  if (dup) fail(r, best, "duplicate key '%.200s'", dup);
}

/* ---- shape ---------------------------------------------------------------------------------- */

static const cJSON *member(const cJSON *o, const char *key) {
  return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

static const cJSON *the_cells(reader *r, const cJSON *root) {
  if (!cJSON_IsObject(root)) {
    fail(r, val_off(r, root), "a notebook must be a json object");
    return NULL;
  }
  const cJSON *v = member(root, "nbformat"), *cells = member(root, "cells");
  if (!v) fail(r, val_off(r, root), "missing 'nbformat': not a Jupyter notebook");
  else if (!cJSON_IsNumber(v))
    fail(r, val_off(r, v), "'nbformat' must be a number (4), not %s",
         cJSON_IsString(v) ? "a string" : "this value");
  else if (v->valuedouble != 4)
    fail(r, val_off(r, v), "nbformat %g is not supported: only nbformat 4", v->valuedouble);
  else if (!cells) fail(r, val_off(r, root), "missing 'cells'");
  else if (!cJSON_IsArray(cells)) fail(r, val_off(r, cells), "'cells' must be an array");
  return r->failed ? NULL : cells;
}

/* Checks a code cell's source; sets *n to its number of strings (1 for a string). */
static bool check_source(reader *r, const cJSON *cell, uint32_t no, const cJSON **src) {
  *src = member(cell, "source");
  if (!*src) {
    fail(r, val_off(r, cell), "cell %u: missing 'source'", (unsigned)no);
    return false;
  }
  if (cJSON_IsString(*src)) return true;
  if (!cJSON_IsArray(*src)) {
    fail(r, val_off(r, *src), "cell %u: 'source' must be a string or an array of strings",
         (unsigned)no);
    return false;
  }
  unsigned k = 1;
  for (const cJSON *s = (*src)->child; s; s = s->next, k++)
    if (!cJSON_IsString(s)) {
      fail(r, val_off(r, s), "cell %u: line %u of 'source' is not a string", (unsigned)no, k);
      return false;
    }
  return true;
}

/* ---- building ------------------------------------------------------------------------------- */

static void add_piece(reader *r, gl_strbuf *code, const cJSON *s) {
  size_t n = strlen(s->valuestring);
  if (!n) return;
  gl_nb_seg seg = {(uint32_t)code->len, (uint32_t)val_off(r, s), 0};
  gl_vec_push(&r->nb->segs, seg);
  gl_strbuf_add(code, s->valuestring, n);
}

static void add_cell(reader *r, gl_strbuf *code, const cJSON *src, uint32_t no) {
  uint32_t start = (uint32_t)code->len;
  if (cJSON_IsString(src)) add_piece(r, code, src);
  else
    for (const cJSON *s = src->child; s; s = s->next) add_piece(r, code, s);
  if (code->len == start) return; /* an empty cell has no lines */
  if (code->data[code->len - 1] != '\n') gl_vec_push(code, '\n');
  uint32_t line = 0;
  for (size_t i = start; i < code->len; i++)
    if (i == start || code->data[i - 1] == '\n') {
      gl_nb_line l = {no, ++line, (uint32_t)i};
      gl_vec_push(&r->nb->lines, l);
    }
  gl_nb_cellspan span = {no, start, (uint32_t)code->len};
  gl_vec_push(&r->spans, span);
}

static void build(reader *r, const cJSON *cells) {
  gl_strbuf code = {0};
  uint32_t no = 0;
  for (const cJSON *cell = cells->child; cell && !r->failed; cell = cell->next) {
    no++;
    if (!cJSON_IsObject(cell)) {
      fail(r, val_off(r, cell), "cell %u must be an object", (unsigned)no);
      break;
    }
    const cJSON *type = member(cell, "cell_type"), *src = NULL;
    if (!cJSON_IsString(type)) {
      fail(r, type ? val_off(r, type) : val_off(r, cell), "cell %u: missing 'cell_type'", (unsigned)no);
      break;
    }
    if (strcmp(type->valuestring, "code") != 0) continue;
    if (!check_source(r, cell, no, &src)) break;
    r->nb->ncode++;
    add_cell(r, &code, src, no);
  }
  r->nb->ncells = no;
  gl_vec_push(&code, '\0');
  r->nb->len = code.len - 1;
  r->nb->code = code.data;
  r->nb->orig = gl_xmalloc(code.len);
  memcpy(r->nb->orig, code.data, code.len);
}

int gl_notebook_read(gl_notebook *nb, const gl_source *raw, gl_diag *err) {
  memset(nb, 0, sizeof *nb);
  reader r = {.nb = nb, .raw = raw, .err = err};
  cJSON *root = parse(&r);
  if (root) {
    gl_jsonindex_build(&r.ix, raw->bytes, raw->len, raw->bom_len, root);
    check_items(&r);
    const cJSON *cells = r.failed ? NULL : the_cells(&r, root);
    if (cells) build(&r, cells);
    if (!r.failed) gl_notebook__blank(nb, r.spans.data, r.spans.len);
  }
  cJSON_Delete(root);
  gl_jsonindex_free(&r.ix);
  gl_vec_free(&r.spans);
  if (!r.failed) return 0;
  gl_notebook_free(nb);
  return GL_EINVAL;
}

bool gl_notebook_is_path(const char *path) {
  size_t n = strlen(path);
  return n >= 6 && strcmp(path + n - 6, ".ipynb") == 0;
}

gl_pos gl_notebook_file_pos(const gl_notebook *nb, const gl_source *raw, uint32_t vbyte) {
  size_t lo = 0, hi = nb->segs.len;
  while (lo < hi) { /* the last segment starting at or before vbyte */
    size_t mid = (lo + hi) / 2;
    if (nb->segs.data[mid].vstart <= vbyte) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return gl_load_position(raw, raw->bom_len);
  const gl_nb_seg *s = &nb->segs.data[lo - 1];
  size_t off = gl_jsonscan_string_offset(raw->bytes, raw->len, s->str_off,
                                         s->str_idx + (vbyte - s->vstart));
  return gl_load_position(raw, off);
}

gl_nb_line gl_notebook_cell_of(const gl_notebook *nb, uint32_t vbyte) {
  size_t lo = 0, hi = nb->lines.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (nb->lines.data[mid].vstart <= vbyte) lo = mid + 1;
    else hi = mid;
  }
  gl_nb_line none = {0, 0, 0};
  return lo ? nb->lines.data[lo - 1] : none;
}

void gl_notebook_free(gl_notebook *nb) {
  if (!nb) return;
  free(nb->code);
  free(nb->orig);
  for (size_t i = 0; i < nb->magics.len; i++) {
    free(nb->magics.data[i].args);
    free(nb->magics.data[i].text);
  }
  gl_vec_free(&nb->magics);
  gl_vec_free(&nb->lines);
  gl_vec_free(&nb->segs);
  memset(nb, 0, sizeof *nb);
}
