/* github.c: GitHub Actions workflow commands, one annotation per shown finding (not
 * suppressed, not unchanged from --baseline):
 * `::warning file=PATH,line=L,col=C,endLine=EL,endColumn=EC,title=ID::MESSAGE`.
 * Owns: the level word (error -> ::error, warning -> ::warning, note -> ::notice) and escaping as
 *       the Actions toolkit does: data `%` `\r` `\n` -> %25 %0D %0A, properties also `:` `,` ->
 *       %3A %2C (actions/toolkit command.ts escapeData / escapeProperty). CR and LF are kept as
 *       %0D / %0A, so a message with a line break shows one; every other control character is
 *       made visible with gl_utf8_safe_text (the log viewer renders ANSI escapes). Columns
 *       are code points; endColumn is exclusive, as in Ruff's output.
 * The notifications that make a run incomplete (a file not linted, or linted only in part) are
 * annotations too, titled with their id. Not: locations (location.c). Threads: main thread. */
#include <stdlib.h>
#include <string.h>
#include "report/report_int.h"

/* One run of text without CR or LF, made visible, then escaped. */
static void put_segment(FILE *out, const char *s, size_t len, bool property) {
  char *safe = gl_utf8_safe_text(s, len);
  for (const char *p = safe; *p; p++) {
    if (*p == '%') fputs("%25", out);
    else if (property && *p == ':') fputs("%3A", out);
    else if (property && *p == ',') fputs("%2C", out);
    else fputc(*p, out);
  }
  free(safe);
}

static void put_escaped(FILE *out, const char *s, bool property) {
  for (;;) {
    size_t n = strcspn(s, "\r\n");
    put_segment(out, s, n, property);
    if (!s[n]) return;
    fputs(s[n] == '\r' ? "%0D" : "%0A", out);
    s += n + 1;
  }
}

static const char *command(gl_level level) {
  if (level == GL_LEVEL_ERROR) return "error";
  if (level == GL_LEVEL_WARNING) return "warning";
  return "notice";
}

/* `::level file=PATH[,line=L,col=C,endLine=EL,endColumn=EC],title=ID::MESSAGE`; r NULL leaves
 * the position out (a file-level notification). */
static void annotate(FILE *out, gl_level level, const char *path, const gl_region *r,
                     const char *id, const char *message) {
  fprintf(out, "::%s file=", command(level));
  put_escaped(out, path, true);
  if (r)
    fprintf(out, ",line=%u,col=%u,endLine=%u,endColumn=%u", (unsigned)r->start_line,
            (unsigned)r->start_col_cp, (unsigned)r->end_line, (unsigned)r->end_col_cp);
  fputs(",title=", out);
  put_escaped(out, id, true);
  fputs("::", out);
  put_escaped(out, message, false);
  fputc('\n', out);
}

/* A notification that makes the run incomplete (report_int.h) is an annotation too, so the
 * pull request shows which file was not linted. */
static void annotate_note(FILE *out, const char *path, const gl_notification *n) {
  const char *id = gl_report__incomplete_id(n);
  if (!id) return;
  gl_region at = {.start_line = n->line, .start_col_cp = n->col ? n->col : 1, .end_line = n->line,
                  .end_col_cp = n->col ? n->col : 1};
  annotate(out, n->level, path, n->line ? &at : NULL, id, n->message);
}

int gl_github_write(FILE *out, const gl_run *run, const gl_report_opts *opts) {
  (void)opts;
  for (size_t i = 0; i < run->files.len; i++) {
    const gl_file_result *f = &run->files.data[i];
    for (size_t j = 0; j < f->findings.len; j++) {
      const gl_finding *x = &f->findings.data[j];
      if (gl_report__shown(x)) annotate(out, x->level, f->path, &x->region, x->rule->id, x->message);
    }
    for (size_t j = 0; j < f->notes.len; j++) annotate_note(out, f->path, &f->notes.data[j]);
  }
  return 0;
}
