/* suppress.c: the noqa grammar and where a finding's noqa belongs.
 * Owns: the line-level grammar (Ruff/flake8 compatible): `# noqa` anywhere in a comment,
 *       optionally followed by `:` and codes ([A-Z]+[0-9]+, case as written) separated by commas
 *       and/or spaces, free text after them; "noqa" in any case. A noqa whose colon is followed by
 *       no valid code acts as a bare noqa (flake8). The file-level `# gpulint: noqa[: codes]` and
 *       `# gpulint: skip-file`. The noqa line of a finding (multi-line strings, backslash
 *       continuations).
 * Not: reading comments (model.c collects them), applying directives (suppress_apply.c),
 *      fixture annotations (ordinary comments here).
 * Threads: pure functions. */
#include "suppress/suppress.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_word(char c) { return isalnum((unsigned char)c) || c == '_'; }

static size_t skip_blanks(const char *t, size_t len, size_t i) {
  while (i < len && (t[i] == ' ' || t[i] == '\t')) i++;
  return i;
}

/* Finds "noqa" (any case) right after '#' and optional blanks; returns the offset after it. */
static long find_noqa(const char *t, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (t[i] != '#') continue;
    size_t j = skip_blanks(t, len, i + 1);
    if (j + 4 <= len && strncasecmp(t + j, "noqa", 4) == 0) {
      size_t k = j + 4;
      /* `# noqa123` or `# noqa_x` is another word, not a directive */
      if (k < len && is_word(t[k])) continue;
      return (long)k;
    }
  }
  return -1;
}

/* Reads the codes after a colon at text[i]; returns how many, *end past the last one. */
static int read_codes(const char *text, size_t len, size_t i, char codes[][16], int max,
                      size_t *end) {
  int n = 0;
  for (;;) {
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == ',')) i++;
    size_t start = i;
    while (i < len && is_upper(text[i])) i++;
    if (i == start) break;
    size_t letters_end = i;
    while (i < len && is_digit(text[i])) i++;
    if (i == letters_end) break;            /* letters without digits: not a code */
    if (i < len && is_word(text[i])) break; /* `GPU201x`: not a code */
    if (n < max && i - start < 16) {
      memcpy(codes[n], text + start, i - start);
      codes[n][i - start] = '\0';
      n++;
    }
    if (end) *end = i;
  }
  return n;
}

int gl_suppress_parse_noqa_at(const char *text, size_t len, char codes[][16], int max, size_t *end) {
  long at = find_noqa(text, len);
  if (at < 0) return -1;
  size_t i = (size_t)at;
  if (end) *end = i;
  if (i >= len || text[i] != ':') return 0;
  return read_codes(text, len, i + 1, codes, max, end);
}

int gl_suppress_parse_noqa(const char *text, size_t len, char codes[][16], int max) {
  return gl_suppress_parse_noqa_at(text, len, codes, max, NULL);
}

/* Offset just past "# gpulint:" and blanks at some '#' of t, scanning from `from`, or -1. */
static long find_gpulint(const char *t, size_t len, size_t *from) {
  static const char tag[] = "gpulint:";
  for (size_t i = *from; i < len; i++) {
    if (t[i] != '#') continue;
    size_t j = skip_blanks(t, len, i + 1);
    if (len - j < sizeof(tag) - 1 || memcmp(t + j, tag, sizeof(tag) - 1) != 0) continue;
    *from = i + 1;
    return (long)skip_blanks(t, len, j + sizeof(tag) - 1);
  }
  return -1;
}

bool gl_suppress_is_skip_file(const char *t, size_t len) {
  static const char word[] = "skip-file";
  size_t from = 0;
  long at;
  while ((at = find_gpulint(t, len, &from)) >= 0) {
    size_t j = (size_t)at;
    if (len - j >= sizeof(word) - 1 && memcmp(t + j, word, sizeof(word) - 1) == 0 &&
        (j + sizeof(word) - 1 == len || !is_word(t[j + sizeof(word) - 1])))
      return true;
  }
  return false;
}

int gl_suppress_parse_file_noqa(const char *t, size_t len, char codes[][16], int max) {
  size_t from = 0;
  long at;
  while ((at = find_gpulint(t, len, &from)) >= 0) {
    size_t j = (size_t)at;
    if (len - j < 4 || strncasecmp(t + j, "noqa", 4) != 0) continue;
    j += 4;
    if (j < len && is_word(t[j])) continue;
    if (j >= len || t[j] != ':') return 0;
    return read_codes(t, len, j + 1, codes, max, NULL);
  }
  return -1;
}

/* Walks down from the root (a cursor, no parent walks) to the nodes holding byte `off`: returns
 * the 1-based end line of the outermost string node around it, or 0; *in_comment tells whether a
 * comment node holds it. */
static uint32_t string_end_line(const TSTree *tree, uint32_t off, bool *in_comment) {
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
  uint32_t found = 0;
  *in_comment = false;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    bool holds = ts_node_start_byte(n) <= off && ts_node_end_byte(n) > off;
    if (holds && strcmp(ts_node_type(n), "comment") == 0) *in_comment = true;
    if (holds && ts_node_start_byte(n) < off && strcmp(ts_node_type(n), "string") == 0) {
      found = ts_node_end_point(n).row + 1;
      break;
    }
    if (ts_tree_cursor_goto_first_child_for_byte(&c, off) < 0) break;
  }
  ts_tree_cursor_delete(&c);
  return found;
}

/* The line a noqa for `line` moves to, or `line` when it stays: the end of a multi-line string
 * open at the line end, or the next line after a backslash continuation outside comments. */
static uint32_t next_noqa_line(const gl_source *src, const TSTree *tree, uint32_t line) {
  size_t len = 0;
  const char *p = gl_load_line(src, line, &len);
  uint32_t off = (uint32_t)(p - src->bytes + len);
  bool in_comment = false;
  uint32_t end = string_end_line(tree, off, &in_comment);
  if (end > line) return end;
  while (len && (p[len - 1] == ' ' || p[len - 1] == '\t')) len--;
  if (!len || p[len - 1] != '\\') return line;
  string_end_line(tree, (uint32_t)(p - src->bytes + len - 1), &in_comment);
  return in_comment ? line : line + 1;
}

uint32_t gl_suppress_noqa_line(const gl_source *src, const TSTree *tree, uint32_t line) {
  if (!tree || !src || line < 1) return line;
  for (int hops = 0; hops < 64 && line < gl_load_nlines(src); hops++) {
    uint32_t next = next_noqa_line(src, tree, line);
    if (next <= line) break;
    line = next;
  }
  return line;
}
