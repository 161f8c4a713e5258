/* text.c: the line-oriented text formats, after Ruff's: full (header line, code frame, summary),
 * concise (header lines, summary) and gcc (`path:line:col: warning: message [ID]`).
 * Owns: the header line, the summary line and its wording, ANSI colour (only with opts->color).
 *       Only findings neither suppressed nor unchanged from --baseline are shown; every path
 *       and message goes through gl_utf8_safe_text, so a file name cannot drive the
 *       terminal. Columns are code points.
 * Not: the code frame (frame.c), notifications (main prints them to stderr).
 * Threads: main thread. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/report_int.h"

#define BOLD "\x1b[1m"
#define RESET "\x1b[0m"

static void put_safe(FILE *out, const char *s) {
  char *safe = gl_utf8_safe_text(s, strlen(s));
  fputs(safe, out);
  free(safe);
}

/* "path:line:col: " with the path in bold. */
static void put_position(FILE *out, const char *path, const gl_finding *x, const gl_report_opts *o) {
  if (o->color) fputs(BOLD, out);
  put_safe(out, path);
  if (o->color) fputs(RESET, out);
  if (x->cell) /* a notebook: the cell view, as Jupyter numbers cells */
    fprintf(out, ":cell %u:line %u:col %u: ", (unsigned)x->cell, (unsigned)x->cell_region.start_line,
            (unsigned)x->cell_region.start_col_cp);
  else
    fprintf(out, ":%u:%u: ", (unsigned)x->region.start_line, (unsigned)x->region.start_col_cp);
}

/* "path:line:col: GPU101 message\n" */
static void put_header(FILE *out, const char *path, const gl_finding *x, const gl_report_opts *o) {
  put_position(out, path, x, o);
  if (o->color) fputs(gl_report__level_color(x->level), out);
  put_safe(out, x->rule->id);
  if (o->color) fputs(RESET, out);
  fputc(' ', out);
  put_safe(out, x->message);
  fputc('\n', out);
}

static const char *plural(size_t n, const char *one, const char *many) {
  return n == 1 ? one : many;
}

/* "; 2 baseline findings hidden" after --baseline (even 0), else "". */
static void baseline_note(const gl_run *run, const gl_report__counts *c, char *buf, size_t cap) {
  buf[0] = '\0';
  if (run->baseline)
    snprintf(buf, cap, "; %zu baseline %s hidden", c->baseline_hidden,
             c->baseline_hidden == 1 ? "finding" : "findings");
}

/* "2 of 5 files could not be linted", "1 of 5 files was linted only in part", or both joined
 * by "and"; "" for a complete run. */
static void incomplete_clause(const gl_report__counts *c, size_t nf, char *buf, size_t cap) {
  buf[0] = '\0';
  const char *files = plural(nf, "file", "files");
  if (c->skipped && c->partial)
    snprintf(buf, cap, "%zu of %zu %s could not be linted and %zu %s linted only in part",
             c->skipped, nf, files, c->partial, c->partial == 1 ? "was" : "were");
  else if (c->skipped)
    snprintf(buf, cap, "%zu of %zu %s could not be linted", c->skipped, nf, files);
  else if (c->partial)
    snprintf(buf, cap, "%zu of %zu %s %s linted only in part", c->partial, nf, files,
             c->partial == 1 ? "was" : "were");
}

/* "Found 2 findings (1 error, 1 warning, 0 notes) in 3 files in 0.01s.", "All checks passed!
 * (3 files in 0.01s)", or, when a file was not (fully) linted, a line saying so and never
 * "passed"; with --baseline each adds how many findings the baseline hid. */
static void put_summary(FILE *out, const gl_run *run, const gl_report_opts *o) {
  if (o->quiet) return;
  gl_report__counts c = gl_report__count(run);
  char hid[64], incomplete[160];
  baseline_note(run, &c, hid, sizeof hid);
  double t = isfinite(run->elapsed_s) && run->elapsed_s > 0 ? run->elapsed_s : 0.0;
  size_t nf = run->files.len;
  incomplete_clause(&c, nf, incomplete, sizeof incomplete);
  if (c.total == 0 && incomplete[0]) {
    fprintf(out, "No findings, but %s (see the notifications) in %.2fs%s.\n", incomplete, t, hid);
    return;
  }
  if (c.total == 0) {
    fprintf(out, "All checks passed! (%zu %s in %.2fs%s)\n", nf, plural(nf, "file", "files"), t, hid);
    return;
  }
  fprintf(out, "Found %zu %s (%zu %s, %zu %s, %zu %s) in %zu %s in %.2fs%s", c.total,
          plural(c.total, "finding", "findings"), c.errors, plural(c.errors, "error", "errors"),
          c.warnings, plural(c.warnings, "warning", "warnings"), c.notes,
          plural(c.notes, "note", "notes"), nf, plural(nf, "file", "files"), t, hid);
  if (incomplete[0]) fprintf(out, "; %s (see the notifications)", incomplete);
  fputs(".\n", out);
}

typedef void (*finding_fn)(FILE *out, const char *path, const gl_finding *x,
                           const gl_report_opts *o);

/* Calls fn for every shown finding (not suppressed, not unchanged from the baseline), in run
 * order. */
static void each_finding(FILE *out, const gl_run *run, const gl_report_opts *o, finding_fn fn) {
  for (size_t i = 0; i < run->files.len; i++) {
    const gl_file_result *f = &run->files.data[i];
    for (size_t j = 0; j < f->findings.len; j++)
      if (gl_report__shown(&f->findings.data[j])) fn(out, f->path, &f->findings.data[j], o);
  }
}

static void full_one(FILE *out, const char *path, const gl_finding *x, const gl_report_opts *o) {
  put_header(out, path, x, o);
  gl_report__frame(out, x, o);
  fputc('\n', out);
}

int gl_text_write_full(FILE *out, const gl_run *run, const gl_report_opts *opts) {
  each_finding(out, run, opts, full_one);
  put_summary(out, run, opts);
  return 0;
}

int gl_text_write_concise(FILE *out, const gl_run *run, const gl_report_opts *opts) {
  each_finding(out, run, opts, put_header);
  put_summary(out, run, opts);
  return 0;
}

/* "warning: message [GPU101]\n", after the position. */
static void gcc_tail(FILE *out, gl_level level, const char *message, const char *id,
                     const gl_report_opts *o) {
  if (o->color) fputs(gl_report__level_color(level), out);
  fprintf(out, "%s:", gl_report__level_word(level));
  if (o->color) fputs(RESET, out);
  fputc(' ', out);
  put_safe(out, message);
  fputs(" [", out);
  put_safe(out, id);
  fputs("]\n", out);
}

/* "path:line:col: warning: message [GPU101]" */
static void gcc_one(FILE *out, const char *path, const gl_finding *x, const gl_report_opts *o) {
  put_position(out, path, x, o);
  gcc_tail(out, x->level, x->message, x->rule->id, o);
}

/* The file's notifications that make the run incomplete, as "path:line:col: error: not linted:
 * ... [file-skipped]" (no position when the note has none): a tool reading only stdout still
 * learns that a file was not linted. */
static void gcc_incomplete(FILE *out, const gl_file_result *f, const gl_report_opts *o) {
  for (size_t j = 0; j < f->notes.len; j++) {
    const gl_notification *n = &f->notes.data[j];
    const char *id = gl_report__incomplete_id(n);
    if (!id) continue;
    if (o->color) fputs(BOLD, out);
    put_safe(out, f->path);
    if (o->color) fputs(RESET, out);
    if (n->line) fprintf(out, ":%u:%u", (unsigned)n->line, (unsigned)(n->col ? n->col : 1));
    fputs(": ", out);
    gcc_tail(out, n->level, n->message, id, o);
  }
}

int gl_text_write_gcc(FILE *out, const gl_run *run, const gl_report_opts *opts) {
  for (size_t i = 0; i < run->files.len; i++) {
    const gl_file_result *f = &run->files.data[i];
    for (size_t j = 0; j < f->findings.len; j++)
      if (gl_report__shown(&f->findings.data[j])) gcc_one(out, f->path, &f->findings.data[j], opts);
    gcc_incomplete(out, f, opts);
  }
  return 0;
}
