/* suppress.c: applies `# noqa` comments and `# gpulint: skip-file` to one file's findings.
 * Owns: the noqa grammar (Ruff/flake8 compatible): `# noqa` anywhere in a comment, optionally
 *       followed by `:` and codes ([A-Z]+[0-9]+) separated by commas and/or spaces; "noqa" in any
 *       case. A noqa whose colon is followed by no valid code acts as a bare noqa (flake8).
 * Not: reading comments (model.c collects them), fixture annotations (ordinary comments here).
 * Threads: pure functions. */
#include "suppress.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Finds "noqa" (any case) right after '#' and optional spaces; returns the offset after it. */
static long find_noqa(const char *t, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (t[i] != '#') continue;
    size_t j = i + 1;
    while (j < len && (t[j] == ' ' || t[j] == '\t')) j++;
    if (j + 4 <= len && strncasecmp(t + j, "noqa", 4) == 0) {
      size_t k = j + 4;
      /* `# noqa123` or `# noqa_x` is another word, not a directive */
      if (k < len && (isalnum((unsigned char)t[k]) || t[k] == '_')) continue;
      return (long)k;
    }
  }
  return -1;
}

int gl_suppress_parse_noqa(const char *text, size_t len, char codes[][16], int max) {
  long at = find_noqa(text, len);
  if (at < 0) return -1;
  size_t i = (size_t)at;
  if (i >= len || text[i] != ':') return 0;
  i++;
  int n = 0;
  for (;;) {
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == ',')) i++;
    size_t start = i;
    while (i < len && is_upper(text[i])) i++;
    if (i == start) break;
    size_t letters_end = i;
    while (i < len && is_digit(text[i])) i++;
    if (i == letters_end) break;            /* letters without digits: not a code */
    if (i < len && (isalnum((unsigned char)text[i]) || text[i] == '_')) break;
    if (n < max && i - start < 16) {
      memcpy(codes[n], text + start, i - start);
      codes[n][i - start] = '\0';
      n++;
    }
  }
  return n;
}

static bool comment_skips_file(const char *t, size_t len) {
  static const char directive[] = "gpulint: skip-file";
  for (size_t i = 0; i < len; i++) {
    if (t[i] != '#') continue;
    size_t j = i + 1;
    while (j < len && (t[j] == ' ' || t[j] == '\t')) j++;
    if (len - j >= sizeof(directive) - 1 && memcmp(t + j, directive, sizeof(directive) - 1) == 0)
      return true;
  }
  return false;
}

static void suppress_line(gl_file_result *out, uint32_t line, char codes[][16], int n) {
  for (size_t i = 0; i < out->findings.len; i++) {
    gl_finding *f = &out->findings.data[i];
    if (f->region.start_line != line) continue;
    if (n == 0) {
      f->suppressed = true;
      continue;
    }
    for (int c = 0; c < n; c++)
      if (strcmp(codes[c], f->rule->id) == 0) f->suppressed = true;
  }
}

void gl_suppress_apply(const gl_source *src, const gl_model *model, gl_file_result *out) {
  if (!out->findings.len) return;
  size_t ncomments = 0;
  const gl_comment *comments = gl_model_comments(model, &ncomments);
  for (size_t i = 0; i < ncomments; i++) {
    const char *text = src->bytes + comments[i].start_byte;
    size_t len = comments[i].end_byte - comments[i].start_byte;
    if (comment_skips_file(text, len)) {
      for (size_t k = 0; k < out->findings.len; k++) out->findings.data[k].suppressed = true;
      return;
    }
    char codes[32][16];
    int n = gl_suppress_parse_noqa(text, len, codes, 32);
    if (n < 0) continue;
    uint32_t line = gl_load_position(src, comments[i].start_byte).line;
    suppress_line(out, line, codes, n);
  }
}
