/* notebook_map.c: moving a notebook's lint results from the virtual source to the notebook.
 * Owns: gl_notebook_remap: regions into the .ipynb's json text, the cell view of each finding,
 *       code frames from the cell lines as written, line hashes of the json lines, notification
 *       positions.
 * Not: reading the notebook (notebook.c), linting (engine.c), formatting (src/report/).
 * Threads: no state; works on one worker's file result. */
#include "base/utf8.h"
#include "notebook/notebook.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/location.h"
#include "base/xalloc.h"
#include "report/report.h"
#include "result/result.h"

#define SNIPPET_MAX_LINES 5

/* Region r (virtual) in the .ipynb's json text; the byte offsets stay virtual. */
static gl_region to_file(const gl_notebook *nb, const gl_source *raw, gl_region r) {
  gl_pos a = gl_notebook_file_pos(nb, raw, r.start_byte);
  gl_pos b = gl_notebook_file_pos(nb, raw, r.end_byte);
  gl_region out = r;
  out.start_line = a.line, out.start_col = a.col, out.start_col_cp = a.col_cp;
  out.end_line = b.line, out.end_col = b.col, out.end_col_cp = b.col_cp;
  return out;
}

/* Region r (virtual) in its cell: the columns are those of the virtual line, which is the cell
 * line. */
static gl_region to_cell(const gl_notebook *nb, gl_region r, uint32_t *cell) {
  gl_nb_line a = gl_notebook_cell_of(nb, r.start_byte);
  gl_nb_line b = gl_notebook_cell_of(nb, r.end_byte);
  *cell = a.cell;
  r.start_line = a.cell_line;
  r.end_line = b.cell == a.cell ? b.cell_line : a.cell_line;
  return r;
}

/* The cell lines of region r (virtual) as written, at most SNIPPET_MAX_LINES. */
static char *snippet_of(const gl_notebook *nb, const gl_source *vsrc, const gl_region *r) {
  uint32_t last = r->end_line < r->start_line ? r->start_line : r->end_line;
  if (last - r->start_line >= SNIPPET_MAX_LINES) last = r->start_line + SNIPPET_MAX_LINES - 1;
  size_t n0 = 0, n1 = 0;
  const char *first = gl_load_line(vsrc, r->start_line, &n0);
  const char *end = gl_load_line(vsrc, last, &n1) + n1;
  size_t a = (size_t)(first - vsrc->bytes), b = (size_t)(end - vsrc->bytes);
  if (a > nb->len || b > nb->len || b < a) return gl_xstrdup("");
  gl_strbuf shown = {0};
  gl_load_add_shown(&shown, vsrc, nb->orig, a, b);
  return gl_strbuf_take(&shown);
}

/* The virtual byte of 1-based line / UTF-16 column col of vsrc. */
static uint32_t byte_of(const gl_source *vsrc, uint32_t line, uint32_t col) {
  size_t n = 0;
  const char *s = gl_load_line(vsrc, line, &n);
  size_t i = 0;
  for (uint32_t units = 1; i < n && units < col;) {  /* columns counted as gl_load_position does */
    uint32_t cp;
    bool invalid;
    i += gl_utf8_next(s, n, i, false, &cp, &invalid);
    units += gl_utf8_units(cp, invalid);
  }
  return (uint32_t)((size_t)(s - vsrc->bytes) + i);
}

/* A related region moves to the .ipynb; its message gets the cell view. */
static void remap_related(const gl_notebook *nb, const gl_source *raw, gl_finding *f, uint8_t k) {
  uint32_t cell = 0;
  gl_region c = to_cell(nb, f->related[k], &cell);
  size_t cap = strlen(f->related_msg[k]) + 64;
  char *msg = gl_xmalloc(cap);
  snprintf(msg, cap, "%s (cell %u, line %u, col %u)", f->related_msg[k], (unsigned)cell,
           (unsigned)c.start_line, (unsigned)c.start_col_cp);
  free(f->related_msg[k]);
  f->related_msg[k] = msg;
  f->related[k] = to_file(nb, raw, f->related[k]);
}

static void remap_note(const gl_notebook *nb, const gl_source *raw, const gl_source *vsrc,
                       gl_notification *n) {
  if (!n->line) return;
  uint32_t b = byte_of(vsrc, n->line, n->col ? n->col : 1);
  gl_nb_line cl = gl_notebook_cell_of(nb, b);
  gl_pos p = gl_notebook_file_pos(nb, raw, b);
  size_t cap = strlen(n->message) + 64;
  char *msg = gl_xmalloc(cap);
  snprintf(msg, cap, "cell %u, line %u: %s", (unsigned)cl.cell, (unsigned)cl.cell_line, n->message);
  free(n->message);
  n->message = msg;
  n->line = p.line;
  n->col = p.col;
}

void gl_notebook_remap(const gl_notebook *nb, const gl_source *raw, const gl_source *vsrc,
                       gl_file_result *out) {
  size_t nhashes = 0;
  char **hashes = out->findings.len ? gl_loc_line_hashes(raw->bytes, raw->len, &nhashes) : NULL;
  for (size_t i = 0; i < out->findings.len; i++) {
    gl_finding *f = &out->findings.data[i];
    free(f->snippet);
    free(f->line_hash);
    f->snippet = snippet_of(nb, vsrc, &f->region);
    f->line_hash = NULL;
    f->cell_region = to_cell(nb, f->region, &f->cell);
    f->region = to_file(nb, raw, f->region);
    for (uint8_t k = 0; k < f->nrelated; k++) remap_related(nb, raw, f, k);
    uint32_t line = f->region.start_line;
    if (line >= 1 && line <= nhashes) f->line_hash = gl_xstrdup(hashes[line - 1]);
  }
  for (size_t i = 0; i < nhashes; i++) free(hashes[i]);
  free(hashes);
  for (size_t i = 0; i < out->notes.len; i++) remap_note(nb, raw, vsrc, &out->notes.data[i]);
}
