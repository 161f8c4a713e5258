/* match.c: building the matcher: every enabled query rule compiled into ONE TSQuery, patterns
 * mapped to rules, predicates, regexes and message templates compiled, checks looked up.
 * Owns: the load-time validation of query rules (errors of every rule reported, each at its
 *       rule-file position) and freeing the matcher. Running it per file is match_run.c.
 * Not: parsing rule files (rules.c), evaluating predicates (predicate.c).
 * Threads: gl_match_new runs before the workers start; a lazy matcher is compiled once, by the
 *          first gl_match_ready, under its mutex (double-checked with an acquire/release flag). */
#include <string.h>

#include "match/match_int.h"
#include "match/query_build.h"

typedef gl_vec(const gl_rule *) rule_list;

/* Compiles the combined text of rules into *qt; NULL (and *off, *type) on failure. */
static TSQuery *compile_rules(const rule_list *rules, const TSLanguage *lang, gl_qtext *qt,
                              uint32_t *off, TSQueryError *type) {
  gl_qtext_build(qt, rules->data, rules->len);
  return ts_query_new(lang, qt->text, qt->len, off, type);
}

/* A failure of the combined query that no rule shows alone: report it where it points. */
static void combined_error(const gl_qtext *qt, uint32_t off, TSQueryError type,
                           gl_diag_list *errs) {
  const gl_qspan *sp = gl_qtext_span_at(qt, off);
  if (!sp && qt->spans.len) sp = gl_vec_last(&qt->spans);
  if (sp) gl_query_error(sp->rule, type, off > sp->start ? off - sp->start : 0, errs);
}

/* Keeps in out the rules whose query compiles alone (errors of the others go to errs). */
static void keep_compiling(const rule_list *in, const TSLanguage *lang, rule_list *out,
                           gl_diag_list *errs) {
  for (size_t i = 0; i < in->len; i++)
    if (gl_query_check_alone(in->data[i], lang, errs)) gl_vec_push(out, in->data[i]);
}

/* The combined query of the rules that are fine on their own: a query over the limits of its
 * shape (query_build.h) is refused before tree-sitter sees it, and so is every rule once the
 * patterns of those before it pass GL_QUERY_MAX_PATTERNS; a block that does not close its
 * parentheses or strings could merge with the next block, so it is compiled alone first; when
 * the combined query still fails, every rule is compiled alone to report each failing one. */
static TSQuery *build_query(const rule_list *all, const TSLanguage *lang, gl_qtext *qt,
                            gl_diag_list *errs) {
  rule_list closed = {0}, good = {0};
  uint32_t patterns = 0;
  bool over = false;
  for (size_t i = 0; i < all->len; i++) {
    const gl_rule *r = all->data[i];
    gl_qshape shape;
    if (!gl_query_check_shape(r, &shape, errs)) continue;
    patterns += shape.patterns;
    if (patterns > GL_QUERY_MAX_PATTERNS && !over) {
      over = true;
      gl_diag_set(gl_diag_list_add(errs), r->path, r->query_line, 1,
                  "the enabled query rules hold more than %d patterns in all (%u with this rule): "
                  "split the pack or select fewer rules", GL_QUERY_MAX_PATTERNS, patterns);
    }
    if (over) continue;
    if (gl_query_is_closed(r->query, strlen(r->query)) || gl_query_check_alone(r, lang, errs))
      gl_vec_push(&closed, r);
  }
  if (over) {   /* the run cannot load: compiling thousands of patterns would only cost time */
    gl_qtext_build(qt, NULL, 0);
    gl_vec_free(&closed);
    return NULL;
  }
  uint32_t off = 0;
  TSQueryError type = TSQueryErrorNone;
  TSQuery *q = compile_rules(&closed, lang, qt, &off, &type);
  if (!q) {
    keep_compiling(&closed, lang, &good, errs);
    if (good.len == closed.len) {
      combined_error(qt, off, type, errs);
    } else {
      gl_qtext_free(qt);
      q = compile_rules(&good, lang, qt, &off, &type);
      if (!q) combined_error(qt, off, type, errs);
    }
  }
  gl_vec_free(&closed);
  gl_vec_free(&good);
  return q;
}

static int64_t find_capture(const TSQuery *q, const char *name) {
  uint32_t n = ts_query_capture_count(q);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t len;
    const char *s = ts_query_capture_name_for_id(q, i, &len);
    if (len == strlen(name) && memcmp(s, name, len) == 0) return i;
  }
  return -1;
}

static void pattern_error(const gl_qspan *sp, uint32_t combined_off, const char *msg,
                          gl_diag_list *errs) {
  uint32_t line, col;
  gl_query_position(sp->rule, combined_off - sp->start, &line, &col);
  gl_diag_set(gl_diag_list_add(errs), sp->rule->path, line, col, "%s", msg);
}

/* True when the pattern's text is a bare "(#pred? ...)": a predicate written outside the
 * parentheses of the pattern it was meant for (tree-sitter makes it an empty pattern of its own). */
static bool predicate_only(const gl_qtext *qt, uint32_t start) {
  uint32_t i = gl_query_skip_space(qt->text, start, qt->len);
  if (i >= qt->len || qt->text[i] != '(') return false;
  i = gl_query_skip_space(qt->text, i + 1, qt->len);
  return i < qt->len && (qt->text[i] == '#' || qt->text[i] == '.');
}

/* Validates pattern i and compiles its predicates; marks the captures it has in captured[]. */
static void add_pattern(gl_matcher *m, const gl_qtext *qt, const gl_libmodels *lm, uint32_t i,
                        int64_t hit, bool *captured, uint32_t *npatterns, gl_diag_list *errs) {
  gl_mpattern *p = gl_vec_grow(&m->patterns);
  uint32_t start = ts_query_start_byte_for_pattern(m->query, i);
  const gl_qspan *sp = gl_qtext_span_at(qt, start);
  if (!sp) sp = gl_vec_last(&qt->spans);   /* unreachable: the spans tile the text */
  p->rule = (uint32_t)(sp - qt->spans.data);
  npatterns[p->rule]++;
  uint32_t ncap = ts_query_capture_count(m->query);
  bool *mine = captured + (size_t)p->rule * ncap;
  for (uint32_t c = 0; c < ncap; c++)
    if (ts_query_capture_quantifier_for_id(m->query, i, c) != TSQuantifierZero) mine[c] = true;
  uint32_t at = gl_query_skip_space(qt->text, start, sp->end);
  if (predicate_only(qt, start)) {
    pattern_error(sp, at, "predicate outside a pattern: wrap the pattern and its predicates in "
                          "one pair of parentheses", errs);
    return;
  }
  if (hit < 0 || ts_query_capture_quantifier_for_id(m->query, i, (uint32_t)hit) == TSQuantifierZero) {
    pattern_error(sp, at, "pattern has no @hit capture", errs);
    return;
  }
  gl_preds_compile(m->query, i, qt, sp, lm, &p->preds, &p->npreds, errs);
}

/* Patterns, predicates and messages of the compiled query. */
static void add_query_rules(gl_matcher *m, const gl_qtext *qt, const gl_libmodels *lm,
                            gl_diag_list *errs) {
  size_t nrules = qt->spans.len;
  uint32_t ncap = ts_query_capture_count(m->query);
  bool *captured = gl_xcalloc(nrules * (ncap ? ncap : 1), sizeof(bool));
  uint32_t *npatterns = gl_xcalloc(nrules, sizeof(uint32_t));
  int64_t hit = find_capture(m->query, "hit");
  m->hit = hit < 0 ? 0 : (uint32_t)hit;
  uint32_t n = ts_query_pattern_count(m->query);
  for (uint32_t i = 0; i < n; i++) add_pattern(m, qt, lm, i, hit, captured, npatterns, errs);
  for (size_t r = 0; r < nrules; r++) {
    gl_mrule *mr = gl_vec_grow(&m->rules);
    mr->rule = qt->spans.data[r].rule;
    if (!npatterns[r])
      gl_diag_set(gl_diag_list_add(errs), mr->rule->path, mr->rule->query_line, 1,
                  "query has no pattern");
    gl_msg_compile(&mr->msg, mr->rule, m->query, captured + r * ncap, errs);
  }
  free(captured);
  free(npatterns);
}

static void add_checks(gl_matcher *m, const gl_ruleset *set, gl_diag_list *errs) {
  for (size_t i = 0; i < set->rules.len; i++) {
    const gl_rule *r = set->rules.data[i];
    if (!r->enabled || !r->check) continue;
    const gl_check *c = gl_check_find(r->check);
    if (!c) {
      gl_diag_set(gl_diag_list_add(errs), r->path, 1, 1, "unknown check '%s'", r->check);
      continue;
    }
    gl_mcheck *mc = gl_vec_grow(&m->checks);
    mc->rule = r;
    mc->fn = c->fn;
  }
}

static bool diag_before(const gl_diag *a, const gl_diag *b) {
  int c = strcmp(a->path, b->path);
  if (c) return c < 0;
  if (a->line != b->line) return a->line < b->line;
  return a->col < b->col;
}

/* Orders errs[from..] by file, line, column (stable: insertion sort over a few errors), so they
 * read in rule order whichever pass found them. */
static void sort_errors(gl_diag_list *errs, size_t from) {
  for (size_t i = from + 1; i < errs->len; i++) {
    gl_diag d = errs->data[i];
    size_t j = i;
    for (; j > from && diag_before(&d, &errs->data[j - 1]); j--) errs->data[j] = errs->data[j - 1];
    errs->data[j] = d;
  }
}

/* Frees what a compilation built, leaving m empty. */
static void clear_compiled(gl_matcher *m) {
  for (size_t i = 0; i < m->patterns.len; i++)
    gl_preds_free(m->patterns.data[i].preds, m->patterns.data[i].npreds);
  for (size_t i = 0; i < m->rules.len; i++) gl_msg_free(&m->rules.data[i].msg);
  gl_vec_free(&m->patterns);
  gl_vec_free(&m->rules);
  gl_vec_free(&m->checks);
  gl_vec_free(&m->names);
  gl_mdispatch_free_all(m);
  if (m->query) ts_query_delete(m->query);
  m->query = NULL;
}

/* Compiles the enabled rules of m->set into m (errors to errs); false when there was any, in
 * which case m is left empty (no query, patterns, rules or checks). */
static bool compile_all(gl_matcher *m, gl_diag_list *errs) {
  size_t nerr = errs->len;
  rule_list rules = {0};
  for (size_t i = 0; i < m->set->rules.len; i++) {
    const gl_rule *r = m->set->rules.data[i];
    if (r->enabled && r->query) gl_vec_push(&rules, r);
  }
  if (rules.len) {
    gl_qtext qt;
    m->query = build_query(&rules, m->lang, &qt, errs);
    if (m->query) add_query_rules(m, &qt, m->set->models, errs);
    if (m->query && errs->len == nerr) {
      gl_match_names_take(m, &qt);
      gl_match_dispatch_take(m, &qt);
    }
    gl_qtext_free(&qt);
  }
  gl_vec_free(&rules);
  add_checks(m, m->set, errs);
  if (errs->len == nerr) return true;
  sort_errors(errs, nerr);
  clear_compiled(m);
  return false;
}

static gl_matcher *matcher_alloc(const gl_ruleset *set, const TSLanguage *lang) {
  gl_matcher *m = gl_xcalloc(1, sizeof(*m));
  m->set = set;
  m->lang = lang;
  pthread_mutex_init(&m->lock, NULL);
  atomic_init(&m->ready, false);
  return m;
}

gl_matcher *gl_match_new(const gl_ruleset *set, const TSLanguage *lang, gl_diag_list *errs) {
  gl_matcher *m = matcher_alloc(set, lang);
  if (!compile_all(m, errs)) {
    gl_match_free(m);
    return NULL;
  }
  atomic_store_explicit(&m->ready, true, memory_order_release);
  return m;
}

gl_matcher *gl_match_new_lazy(const gl_ruleset *set, const TSLanguage *lang) {
  return matcher_alloc(set, lang);
}

bool gl_match_ready(const gl_matcher *cm) {
  if (!cm) return false;
  /* The one write to a shared matcher: m was allocated non-const by matcher_alloc. */
  gl_matcher *m = (gl_matcher *)cm;
  if (atomic_load_explicit(&m->ready, memory_order_acquire)) return m->errs.len == 0;
  pthread_mutex_lock(&m->lock);
  if (!atomic_load_explicit(&m->ready, memory_order_relaxed)) {
    compile_all(m, &m->errs);
    atomic_store_explicit(&m->ready, true, memory_order_release);
  }
  pthread_mutex_unlock(&m->lock);
  return m->errs.len == 0;
}

bool gl_match_compiled(const gl_matcher *m) {
  return m && atomic_load_explicit(&m->ready, memory_order_acquire);
}

bool gl_match_dispatches(const gl_matcher *m) {
  return gl_match_compiled(m) && m->root_of != NULL;
}

const gl_diag_list *gl_match_errors(const gl_matcher *m) {
  return gl_match_compiled(m) ? &m->errs : NULL;
}

void gl_match_free(gl_matcher *m) {
  if (!m) return;
  clear_compiled(m);
  gl_vec_free(&m->errs);
  pthread_mutex_destroy(&m->lock);
  free(m);
}
