/* result.c: findings and notifications: adding, sorting into output order, counting, freeing.
 * Owns: the output order (path, line, column, rule id) that makes every --jobs byte-identical.
 * Not: producing or printing results. Threads: a file result belongs to one worker; a run is
 * sorted and read only after the workers join. */
#include "result/result.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gl_file_result_note(gl_file_result *r, gl_note_kind kind, gl_level level, uint32_t line,
                         uint32_t col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *msg = gl_xmalloc((size_t)(n < 0 ? 0 : n) + 1);
  va_start(ap, fmt);
  vsnprintf(msg, (size_t)(n < 0 ? 0 : n) + 1, fmt, ap);
  va_end(ap);
  gl_notification *note = gl_vec_grow(&r->notes);
  note->kind = kind;
  note->level = level;
  note->line = line;
  note->col = col;
  note->message = msg;
}

static int cmp_finding(const void *pa, const void *pb) {
  const gl_finding *a = pa, *b = pb;
  if (a->region.start_line != b->region.start_line)
    return a->region.start_line < b->region.start_line ? -1 : 1;
  if (a->region.start_col != b->region.start_col)
    return a->region.start_col < b->region.start_col ? -1 : 1;
  int c = strcmp(a->rule->id, b->rule->id);
  if (c) return c;
  if (a->region.end_byte != b->region.end_byte)
    return a->region.end_byte < b->region.end_byte ? -1 : 1;
  return strcmp(a->message, b->message);
}

static int cmp_note(const void *pa, const void *pb) {
  const gl_notification *a = pa, *b = pb;
  if (a->line != b->line) return a->line < b->line ? -1 : 1;
  if (a->col != b->col) return a->col < b->col ? -1 : 1;
  return strcmp(a->message, b->message);
}

static int cmp_file(const void *pa, const void *pb) {
  const gl_file_result *a = pa, *b = pb;
  return strcmp(a->path, b->path);
}

void gl_run_sort(gl_run *run) {
  for (size_t i = 0; i < run->files.len; i++) {
    gl_file_result *f = &run->files.data[i];
    if (f->findings.len > 1)
      qsort(f->findings.data, f->findings.len, sizeof(gl_finding), cmp_finding);
    if (f->notes.len > 1) qsort(f->notes.data, f->notes.len, sizeof(gl_notification), cmp_note);
  }
  if (run->files.len > 1)
    qsort(run->files.data, run->files.len, sizeof(gl_file_result), cmp_file);
}

size_t gl_run_count_at_least(const gl_run *run, gl_level level) {
  size_t n = 0;
  for (size_t i = 0; i < run->files.len; i++) {
    const gl_file_result *f = &run->files.data[i];
    for (size_t j = 0; j < f->findings.len; j++)
      if (!f->findings.data[j].suppressed && f->findings.data[j].baseline != GL_BASELINE_UNCHANGED &&
          f->findings.data[j].level >= level)
        n++;
  }
  return n;
}

void gl_run_add_unread(gl_run *run, const char *path, const char *why) {
  gl_file_result *r = gl_vec_grow(&run->files);
  r->path = gl_xstrdup(path[0] ? path : ".");
  gl_file_result_note(r, GL_NOTE_SKIPPED, GL_LEVEL_ERROR, 0, 0, "not linted: %s", why);
}

bool gl_run_incomplete(const gl_run *run) {
  for (size_t i = 0; i < run->files.len; i++) {
    const gl_file_result *f = &run->files.data[i];
    for (size_t j = 0; j < f->notes.len; j++)
      if (f->notes.data[j].kind != GL_NOTE_SYNTAX_ERROR) return true;
  }
  return false;
}

void gl_calibration_free(gl_calibration *c) {
  if (!c) return;
  free(c->metric);
  free(c->unit);
  free(c->device);
  free(c);
}

void gl_finding_free_fields(gl_finding *f) {
  gl_calibration_free(f->calib);
  f->calib = NULL;
  free(f->message);
  free(f->snippet);
  free(f->line_hash);
  for (uint8_t i = 0; i < f->nrelated && i < GL_FINDING_MAX_RELATED; i++) free(f->related_msg[i]);
  f->message = f->snippet = f->line_hash = NULL;
  f->nrelated = 0;
}

void gl_file_result_free(gl_file_result *r) {
  if (!r) return;
  for (size_t i = 0; i < r->findings.len; i++) gl_finding_free_fields(&r->findings.data[i]);
  gl_vec_free(&r->findings);
  for (size_t i = 0; i < r->notes.len; i++) free(r->notes.data[i].message);
  gl_vec_free(&r->notes);
  free(r->path);
  free(r->summary);
  r->path = r->summary = NULL;
}

void gl_run_free(gl_run *run) {
  if (!run) return;
  for (size_t i = 0; i < run->files.len; i++) gl_file_result_free(&run->files.data[i]);
  gl_vec_free(&run->files);
  free(run->srcroot);
  run->srcroot = NULL;
}

gl_region gl_region_of(const gl_source *src, uint32_t start_byte, uint32_t end_byte) {
  gl_pos a = gl_load_position(src, start_byte);
  gl_pos b = gl_load_position(src, end_byte);
  gl_region r = {0};
  r.start_line = a.line;
  r.start_col = a.col;
  r.start_col_cp = a.col_cp;
  r.end_line = b.line;
  r.end_col = b.col;
  r.end_col_cp = b.col_cp;
  r.start_byte = start_byte;
  r.end_byte = end_byte;
  return r;
}
