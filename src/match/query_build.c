/* query_build.c: the combined query text, rule-file positions of query offsets, tree-sitter query
 * errors as gl_diag messages, and a lexer over query source (strings, ';' comments, predicates).
 * Owns: the byte layout of the combined text (block, "\n", block, "\n", ...) that match.c maps
 *       pattern start bytes through.
 * Not: compiling the combined query or predicates (match.c, predicate.c).
 * Threads: start-up only; stateless. */
#include "match/query_build.h"
#include "base/utf8.h"

#include <stdio.h>
#include <string.h>

#define TOKEN_MAX 60   /* longest offending token quoted in a message */

static bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* tree-sitter's stream_is_ident_start / stream_scan_identifier, for ASCII. */
static bool is_ident_start(char c) {
  return is_alnum(c) || c == '_' || c == '-';
}

static bool is_ident_char(char c) {
  return is_ident_start(c) || c == '.' || c == '?' || c == '!';
}

static uint32_t skip_ident(const char *t, uint32_t i, uint32_t end) {
  while (i < end && is_ident_char(t[i])) i++;
  return i;
}

/* i at '"': offset after the closing quote, or the offset of the line end / end that cut it. */
static uint32_t skip_string(const char *t, uint32_t i, uint32_t end, bool *closed) {
  *closed = false;
  for (i++; i < end; i++) {
    if (t[i] == '\\' && i + 1 < end && t[i + 1] != '\n') {
      i++;
    } else if (t[i] == '"') {
      *closed = true;
      return i + 1;
    } else if (t[i] == '\n') {
      return i;
    }
  }
  return end;
}

static uint32_t skip_comment(const char *t, uint32_t i, uint32_t end) {
  while (i < end && t[i] != '\n') i++;
  return i;
}

void gl_qtext_build(gl_qtext *qt, const gl_rule *const *rules, size_t n) {
  memset(qt, 0, sizeof(*qt));
  size_t total = 1;
  for (size_t i = 0; i < n; i++) total += strlen(rules[i]->query) + 1;
  qt->text = gl_xmalloc(total);
  size_t at = 0;
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(rules[i]->query);
    memcpy(qt->text + at, rules[i]->query, len);
    gl_qspan *sp = gl_vec_grow(&qt->spans);
    sp->rule = rules[i];
    sp->start = (uint32_t)at;
    sp->end = (uint32_t)(at + len);
    at += len;
    qt->text[at++] = '\n';
  }
  qt->text[at] = '\0';
  qt->len = (uint32_t)at;
}

void gl_qtext_free(gl_qtext *qt) {
  if (!qt) return;
  free(qt->text);
  gl_vec_free(&qt->spans);
  qt->text = NULL;
  qt->len = 0;
}

const gl_qspan *gl_qtext_span_at(const gl_qtext *qt, uint32_t offset) {
  size_t lo = 0, hi = qt->spans.len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const gl_qspan *sp = &qt->spans.data[mid];
    if (offset < sp->start)
      hi = mid;
    else if (offset > sp->end)
      lo = mid + 1;
    else
      return sp;
  }
  return NULL;
}

void gl_query_position(const gl_rule *rule, uint32_t offset, uint32_t *line, uint32_t *col) {
  const char *q = rule->query ? rule->query : "";
  size_t len = strlen(q);
  if (offset > len) offset = (uint32_t)len;
  uint32_t l = 0, line_start = 0;
  for (uint32_t i = 0; i < offset; i++) {
    if (q[i] == '\n') {
      l++;
      line_start = i + 1;
    }
  }
  *line = (rule->query_line ? rule->query_line : 1) + l;
  *col = offset - line_start + 1;
}

uint32_t gl_query_skip_space(const char *text, uint32_t start, uint32_t end) {
  uint32_t i = start;
  while (i < end) {
    if (is_space(text[i]))
      i++;
    else if (text[i] == ';')
      i = skip_comment(text, i, end);
    else
      break;
  }
  return i;
}

/* Copies text[from, to) into buf, cut at TOKEN_MAX bytes (on a UTF-8 boundary) with "…". */
static void copy_token(const char *t, uint32_t from, uint32_t to, char *buf, size_t cap) {
  uint32_t n = to - from;
  bool cut = n > TOKEN_MAX;
  if (cut) {
    n = TOKEN_MAX;
    while (n > 0 && gl_utf8_is_cont((unsigned char)t[from + n])) n--;
  }
  snprintf(buf, cap, "%.*s%s", (int)n, t + from, cut ? "\xE2\x80\xA6" : "");
}

uint32_t gl_query_skip_group(const char *t, uint32_t i, uint32_t end) {
  int depth = 0;
  bool closed;
  while (i < end) {
    char c = t[i];
    if (c == '"') {
      i = skip_string(t, i, end, &closed);
      continue;
    }
    if (c == ';') {
      i = skip_comment(t, i, end);
      continue;
    }
    if (c == '(' || c == '[') depth++;
    if ((c == ')' || c == ']') && --depth == 0) return i + 1;
    i++;
  }
  return end;
}

/* The token starting at off: a group, a string, an identifier, or one UTF-8 character. */
static void token_at(const char *t, uint32_t len, uint32_t off, char *buf, size_t cap) {
  bool closed;
  uint32_t to;
  char c = t[off];
  if (c == '(' || c == '[')
    to = gl_query_skip_group(t, off, len);
  else if (c == '"')
    to = skip_string(t, off, len, &closed);
  else if (is_ident_start(c))
    to = skip_ident(t, off, len);
  else {
    to = off + 1;
    while (to < len && gl_utf8_is_cont((unsigned char)t[to])) to++;
  }
  copy_token(t, off, to, buf, cap);
}

void gl_query_error(const gl_rule *rule, TSQueryError type, uint32_t offset, gl_diag_list *errs) {
  const char *q = rule->query ? rule->query : "";
  uint32_t len = (uint32_t)strlen(q);
  if (offset > len) offset = len;
  char tok[TOKEN_MAX + 8] = "";
  bool at_end = gl_query_skip_space(q, offset, len) == len;
  if (!at_end) token_at(q, len, offset, tok, sizeof(tok));
  /* "at end of query" points just past the last token, not at the closing fence's line */
  while (at_end && offset > 0 && is_space(q[offset - 1])) offset--;
  uint32_t line, col;
  gl_query_position(rule, offset, &line, &col);
  gl_diag *d = gl_diag_list_add(errs);
  switch (type) {
    case TSQueryErrorSyntax:
      if (at_end)
        gl_diag_set(d, rule->path, line, col, "invalid query syntax at end of query");
      else
        gl_diag_set(d, rule->path, line, col, "invalid query syntax near '%s'", tok);
      return;
    case TSQueryErrorNodeType:
      gl_diag_set(d, rule->path, line, col, "unknown node type '%s'", tok);
      return;
    case TSQueryErrorField:
      gl_diag_set(d, rule->path, line, col, "unknown field '%s'", tok);
      return;
    case TSQueryErrorCapture:
      gl_diag_set(d, rule->path, line, col, "invalid capture '@%s'", tok);
      return;
    case TSQueryErrorStructure:
      gl_diag_set(d, rule->path, line, col, "impossible pattern structure '%s'", tok);
      return;
    case TSQueryErrorLanguage:
      gl_diag_set(d, rule->path, line, col, "query language version mismatch");
      return;
    case TSQueryErrorNone:
      break;
  }
  gl_diag_set(d, rule->path, line, col, "invalid query");
}

bool gl_query_check_alone(const gl_rule *rule, const TSLanguage *lang, gl_diag_list *errs) {
  uint32_t offset = 0;
  TSQueryError type = TSQueryErrorNone;
  const char *q = rule->query ? rule->query : "";
  TSQuery *query = ts_query_new(lang, q, (uint32_t)strlen(q), &offset, &type);
  if (query) {
    ts_query_delete(query);
    return true;
  }
  gl_query_error(rule, type, offset, errs);
  return false;
}

/* An open '(' or '[' of gl_query_shape: what it is, and whether its elements may match nothing. */
typedef struct qframe {
  char kind;          /* '?' not known yet, 'n' node, 'g' grouping, 'a' alternation, 'p' predicate */
  bool all_opt;       /* every element (of a grouping) or alternative may match nothing */
  uint32_t n;         /* elements */
} qframe;

/* The element just read (a node, string or group) and whether it may match nothing:
 * its quantifiers come after it. */
typedef struct qpending {
  bool have, nullable;
} qpending;

static void commit(qframe *f, qpending *p) {
  if (f && p->have) {
    f->n++;
    f->all_opt &= p->nullable;
  }
  p->have = false;
}

gl_qshape gl_query_shape(const char *text, uint32_t len) {
  gl_qshape sh = {0, 0, UINT32_MAX, UINT32_MAX};
  qframe frames[GL_QUERY_MAX_DEPTH];
  uint32_t depth = 0;
  qpending pend = {false, false};
  for (uint32_t i = 0; i < len;) {
    char c = text[i];
    if (is_space(c)) {
      i++;
      continue;
    }
    if (c == ';') {
      i = skip_comment(text, i, len);
      continue;
    }
    qframe *top = depth && depth <= GL_QUERY_MAX_DEPTH ? &frames[depth - 1] : NULL;
    bool quantifier = c == '?' || c == '*' || c == '+';
    if (c == '+' && pend.have && pend.nullable && sh.endless_off == UINT32_MAX) sh.endless_off = i;
    if (quantifier) {
      if (c != '+') pend.nullable = true;
      i++;
      continue;
    }
    if (top && top->kind == '?') top->kind = c == '#' ? 'p' : is_ident_start(c) ? 'n' : 'g';
    if (c == '"') {
      bool closed;
      i = skip_string(text, i, len, &closed);
      if (!depth) sh.patterns++;
      commit(top, &pend);
      pend = (qpending){true, false};
      continue;
    }
    if (c == '@' || c == '#' || is_ident_start(c)) {   /* captures, predicates, names: '?' inside */
      i = skip_ident(text, i + 1, len);
      continue;
    }
    if (c == '(' || c == '[') {
      if (!depth) sh.patterns++;
      commit(top, &pend);
      if (++depth > sh.depth) sh.depth = depth;
      if (depth <= GL_QUERY_MAX_DEPTH) frames[depth - 1] = (qframe){c == '[' ? 'a' : '?', true, 0};
      else if (sh.depth_off == UINT32_MAX) sh.depth_off = i;
    } else if ((c == ')' || c == ']') && depth) {
      commit(top, &pend);
      depth--;
      if (top && top->kind != 'p')
        pend = (qpending){true, top->kind != 'n' && top->n && top->all_opt};
    }
    i++;
  }
  return sh;
}

bool gl_query_check_shape(const gl_rule *rule, gl_qshape *shape, gl_diag_list *errs) {
  const char *q = rule->query ? rule->query : "";
  *shape = gl_query_shape(q, (uint32_t)strlen(q));
  uint32_t off = shape->depth_off < shape->endless_off ? shape->depth_off : shape->endless_off;
  if (off == UINT32_MAX) return true;
  uint32_t line, col;
  gl_query_position(rule, off, &line, &col);
  gl_diag *d = gl_diag_list_add(errs);
  if (off == shape->depth_off)
    gl_diag_set(d, rule->path, line, col, "query nests deeper than %d levels", GL_QUERY_MAX_DEPTH);
  else
    gl_diag_set(d, rule->path, line, col,
                "'+' on a pattern that may match nothing repeats without end: use '*', or repeat "
                "a node that must be there");
  return false;
}

bool gl_query_is_closed(const char *text, size_t len) {
  long depth = 0;
  bool closed;
  uint32_t end = (uint32_t)len;
  uint32_t i = 0;
  while (i < end) {
    char c = text[i];
    if (c == ';') {
      i = skip_comment(text, i, end);
      continue;
    }
    if (c == '"') {
      i = skip_string(text, i, end, &closed);
      if (!closed) return false;
      continue;
    }
    if (c == '(' || c == '[') depth++;
    if ((c == ')' || c == ']') && --depth < 0) return false;
    i++;
  }
  return depth == 0;
}

/* i just after a predicate's '#': offset of argument arg, or 0 when it has fewer. */
static uint32_t predicate_arg(const char *t, uint32_t i, uint32_t end, size_t arg) {
  bool closed;
  i = skip_ident(t, i, end);
  for (size_t a = 0;; a++) {
    i = gl_query_skip_space(t, i, end);
    if (i >= end || t[i] == ')') return 0;
    if (a == arg) return i;
    if (t[i] == '"')
      i = skip_string(t, i, end, &closed);
    else if (t[i] == '@')
      i = skip_ident(t, i + 1, end);
    else if (is_ident_start(t[i]))
      i = skip_ident(t, i, end);
    else
      return 0;
  }
}

bool gl_query_locate_predicate(const char *text, uint32_t start, uint32_t end, size_t k,
                               size_t arg, uint32_t *pred_off, uint32_t *arg_off) {
  size_t seen = 0;
  bool closed;
  uint32_t i = start;
  while (i < end) {
    char c = text[i];
    if (c == ';') {
      i = skip_comment(text, i, end);
      continue;
    }
    if (c == '"') {
      i = skip_string(text, i, end, &closed);
      continue;
    }
    i++;
    if (c != '(') continue;
    uint32_t j = gl_query_skip_space(text, i, end);
    if (j >= end || (text[j] != '#' && text[j] != '.')) continue;
    if (seen++ < k) continue;
    *pred_off = j;
    uint32_t a = predicate_arg(text, j + 1, end, arg);
    *arg_off = a ? a : j;
    return true;
  }
  return false;
}

uint32_t gl_query_string_offset(const char *text, uint32_t lit_off, size_t decoded) {
  uint32_t i = lit_off + 1;
  size_t d = 0;
  while (d < decoded && text[i] && text[i] != '"' && text[i] != '\n') {
    if (text[i] != '\\') {
      i++;
      d++;
      continue;
    }
    char e = text[i + 1];
    if (!e) break;
    if (e == 'n' || e == 'r' || e == 't' || e == '0') {
      i += 2;
      d++;
    } else {
      uint32_t cp;
      bool invalid;
      uint32_t k = (uint32_t)gl_utf8_next(text + i + 1, strnlen(text + i + 1, 4), 0, false, &cp, &invalid);
      i += 1 + k;
      d += k;
    }
  }
  return i;
}
