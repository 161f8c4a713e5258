/* match_names.c: finding the name patterns of a compiled matcher (match_int.h, gl_mname).
 * A pattern `((identifier) @hit (#resolves-match? @hit "^warp\\.sim"))` makes tree-sitter start
 * a match at every identifier of every file, and the legacy pack alone has 31 such patterns on
 * identifiers and attributes; they can only match a name that resolves to an import. This stage
 * recognizes them from their text, disables them in the query and lists them, so the match loop
 * (match_run.c) offers them only the model's qualified nodes. The findings are the same.
 * Owns: recognizing the shape `( (TYPE) @hit (#pred ...)* )` with TYPE identifier or attribute.
 * Not: evaluating predicates or reporting (match_run.c, predicate.c).
 * Threads: runs once, while the matcher is compiled (match.c). */
#include <string.h>

#include "match/match_int.h"

/* Skips the expected byte c after blanks and comments; false when another byte comes. */
static bool expect(const char *t, uint32_t *i, uint32_t end, char c) {
  *i = gl_query_skip_space(t, *i, end);
  if (*i >= end || t[*i] != c) return false;
  (*i)++;
  return true;
}

/* The node type of a name pattern's text t[i, end), or NULL when it has another shape. */
static const char *name_pattern_type(const char *t, uint32_t i, uint32_t end) {
  static const char *const types[] = {"identifier", "attribute"};
  if (!expect(t, &i, end, '(') || !expect(t, &i, end, '(')) return NULL;
  i = gl_query_skip_space(t, i, end);
  const char *type = NULL;
  for (size_t k = 0; k < sizeof types / sizeof *types && !type; k++) {
    size_t n = strlen(types[k]);
    if (i + n <= end && memcmp(t + i, types[k], n) == 0) type = types[k], i += (uint32_t)n;
  }
  if (!type || !expect(t, &i, end, ')') || !expect(t, &i, end, '@')) return NULL;
  if (i + 3 > end || memcmp(t + i, "hit", 3) != 0) return NULL;
  i += 3;
  if (i < end && (t[i] == '_' || t[i] == '-' || t[i] == '.' ||
                  (t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z') ||
                  (t[i] >= '0' && t[i] <= '9')))
    return NULL;   /* @hitter */
  for (;;) {
    i = gl_query_skip_space(t, i, end);
    if (i >= end) return NULL;
    if (t[i] == ')') return gl_query_skip_space(t, i + 1, end) == end ? type : NULL;
    if (t[i] != '(' || i + 1 >= end || t[i + 1] != '#') return NULL;
    i = gl_query_skip_group(t, i, end);
  }
}

/* The first predicate of p that can only hold on a name that resolves (a positive
 * #resolves-to? / #resolves-match? on @hit), or NULL. */
static const gl_pred *resolution_filter(const gl_mpattern *p, uint32_t hit) {
  for (uint32_t k = 0; k < p->npreds; k++) {
    const gl_pred *d = &p->preds[k];
    if (!d->negated && d->capture == hit &&
        (d->kind == GL_PRED_RESOLVES_TO || d->kind == GL_PRED_RESOLVES_MATCH))
      return d;
  }
  return NULL;
}

void gl_match_names_take(gl_matcher *m, const gl_qtext *qt) {
  uint32_t n = ts_query_pattern_count(m->query);
  for (uint32_t i = 0; i < n && i < m->patterns.len; i++) {
    uint32_t start = ts_query_start_byte_for_pattern(m->query, i);
    uint32_t end = ts_query_end_byte_for_pattern(m->query, i);
    if (end > qt->len || start >= end) continue;
    const char *type = name_pattern_type(qt->text, start, end);
    const gl_pred *filter = type ? resolution_filter(&m->patterns.data[i], m->hit) : NULL;
    if (!filter) continue;
    TSSymbol sym = ts_language_symbol_for_name(m->lang, type, (uint32_t)strlen(type), true);
    if (!sym) continue;
    ts_query_disable_pattern(m->query, i);
    gl_vec_push(&m->names, ((gl_mname){i, sym, filter}));
  }
}
