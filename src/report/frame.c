/* frame.c: the code frame under a finding in the full text format (Ruff's shape): a gutter with
 * line numbers, the finding's source lines, a caret line under its columns, and one
 * `= note: <msg> at line:col` line per related location.
 * Owns: rendering a source line visibly (control characters escaped, invalid UTF-8 as U+FFFD,
 *       tabs expanded to stops of GL_FRAME_TAB) and placing carets in the same display columns.
 * Not: the finding's header line or the summary (text.c), what the snippet holds (the engine).
 * Threads: main thread. */
#include <stdlib.h>
#include <string.h>
#include "report/report_int.h"

enum {
  GL_FRAME_TAB = 4,        /* tab stops, as Ruff's default indent width */
  GL_FRAME_MAX_LINES = 5,  /* longer findings show their first lines, then "..." */
};

/* A rendered line and the display columns where the finding starts and ends on it. */
typedef struct rendered {
  gl_strbuf text;
  size_t start, end; /* display columns (0-based) before code points start_cp and end_cp */
} rendered;

/* Renders s[0..len) and finds the display columns before the 1-based code-point columns
 * start_cp and end_cp (end_cp 0 = the end of the line). Columns past the end of the line count
 * one display column per code point, as a caret after the last character needs. */
static void render_line(rendered *r, const char *s, size_t len, uint32_t start_cp, uint32_t end_cp) {
  size_t col = 0, k = 0;
  bool have_start = false, have_end = false;
  for (size_t i = 0; i < len; k++) {
    if (k + 1 == start_cp) {
      r->start = col;
      have_start = true;
    }
    if (k + 1 == end_cp) {
      r->end = col;
      have_end = true;
    }
    uint32_t cp;
    bool invalid;
    i += gl_utf8_next(s, len, i, false, &cp, &invalid);
    if (cp == '\t' && !invalid) {
      size_t n = GL_FRAME_TAB - col % GL_FRAME_TAB;
      gl_strbuf_add(&r->text, "        ", n);
      col += n;
      continue;
    }
    char esc[16];
    gl_strbuf_add(&r->text, esc, gl_utf8_escape_cp(cp, invalid, esc));
    col += gl_utf8_cp_width(cp, invalid);
  }
  gl_strbuf_add(&r->text, "", 0);
  if (!have_start) r->start = col + (start_cp > k + 1 ? start_cp - (k + 1) : 0);
  if (!have_end) r->end = end_cp == 0 ? col : col + (end_cp > k + 1 ? end_cp - (k + 1) : 0);
}

static size_t digits(uint32_t n) {
  size_t d = 1;
  for (; n >= 10; n /= 10) d++;
  return d;
}

/* "  |" (an empty gutter), "3 | code", "  | ..." */
static void gutter(FILE *out, size_t width, uint32_t line, const gl_report_opts *opts) {
  if (opts->color) fputs("\x1b[36m", out);
  if (line) fprintf(out, "%*u |", (int)width, (unsigned)line);
  else fprintf(out, "%*s |", (int)width, "");
  if (opts->color) fputs("\x1b[0m", out);
}

static void caret_line(FILE *out, size_t width, const rendered *r, const gl_finding *x,
                       const gl_report_opts *opts) {
  size_t n = r->end > r->start ? r->end - r->start : 1;
  gutter(out, width, 0, opts);
  fprintf(out, " %*s", (int)r->start, "");
  if (opts->color) fputs(gl_report__level_color(x->level), out);
  for (size_t i = 0; i < n; i++) fputc('^', out);
  char *id = gl_utf8_safe_text(x->rule->id, strlen(x->rule->id));
  fprintf(out, " %s", id);
  free(id);
  if (opts->color) fputs("\x1b[0m", out);
  fputc('\n', out);
}

void gl_report__frame(FILE *out, const gl_finding *x, const gl_report_opts *opts) {
  if (!x->snippet) return;
  uint32_t nlines = 1; /* lines in the snippet (the engine may have cut it short) */
  for (const char *p = x->snippet; *p; p++) nlines += *p == '\n';
  uint32_t shown = nlines > GL_FRAME_MAX_LINES ? GL_FRAME_MAX_LINES : nlines;
  const gl_region *reg = x->cell ? &x->cell_region : &x->region; /* notebooks: cell lines */
  uint32_t spanned = reg->end_line > reg->start_line ? reg->end_line - reg->start_line + 1 : 1;
  size_t width = digits(reg->start_line + shown - 1);
  gutter(out, width, 0, opts);
  fputc('\n', out);
  const char *line = x->snippet;
  for (uint32_t k = 0; k < shown; k++) {
    size_t len = strcspn(line, "\n");
    size_t shown_len = len && line[len - 1] == '\r' ? len - 1 : len;
    bool multi = reg->end_line > reg->start_line;
    rendered r = {{0}, 0, 0};
    render_line(&r, line, shown_len, reg->start_col_cp ? reg->start_col_cp : 1, multi ? 0 : reg->end_col_cp);
    gutter(out, width, reg->start_line + k, opts);
    fprintf(out, "%s%s\n", r.text.len ? " " : "", r.text.data);
    if (k == 0) caret_line(out, width, &r, x, opts);
    gl_vec_free(&r.text);
    line += len + (line[len] == '\n');
  }
  if (nlines > shown || spanned > shown) {
    gutter(out, width, 0, opts);
    fputs(" ...\n", out);
  }
  gutter(out, width, 0, opts);
  fputc('\n', out);
  for (uint8_t i = 0; i < x->nrelated && i < GL_FINDING_MAX_RELATED; i++) {
    char *msg = gl_utf8_safe_text(x->related_msg[i], strlen(x->related_msg[i]));
    fprintf(out, "%*s = note: %s at %u:%u\n", (int)width, "", msg, (unsigned)x->related[i].start_line,
            (unsigned)x->related[i].start_col_cp);
    free(msg);
  }
}
