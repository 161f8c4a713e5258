/* match_fixture.h: rules built by hand and one buffer linted with them, for the unit tests of the
 *       match stage (test_match.c, test_match_lazy.c).
 * Owns: nothing outside a test; every function is static inline (header-only). Include after
 *       cmocka.h, match.h, model.h and parse.h.
 * Threads: single-threaded helpers. */
#ifndef GL_TEST_MATCH_FIXTURE_H
#define GL_TEST_MATCH_FIXTURE_H

/* One rule: id, query (NULL: none), and what defaults leave alone. */
typedef struct spec {
  const char *id;
  const char *query;      /* NULL: no query */
  uint32_t query_line;    /* 0: line 20 of rules/t/<id>.md */
  const char *message;    /* NULL: "found {hit}" */
  gl_level level;         /* 0: warning */
  bool enabled;
  const char *check;      /* NULL: not a check rule */
} spec;

static inline gl_rule *rule_new(const spec *s) {
  gl_rule *r = calloc(1, sizeof(*r));
  r->id = gl_xstrdup(s->id);
  r->name = gl_xasprintf("rule-%s", s->id);
  r->level = s->level ? s->level : GL_LEVEL_WARNING;
  r->message = gl_xstrdup(s->message ? s->message : "found {hit}");
  r->query = gl_xstrdup(s->query);
  r->query_line = s->query_line ? s->query_line : 20;
  r->check = gl_xstrdup(s->check);
  r->path = gl_xasprintf("rules/t/%s.md", s->id);
  r->enabled = s->enabled;
  return r;
}

static inline gl_ruleset *set_new(const spec *specs, size_t n) {
  gl_ruleset *set = calloc(1, sizeof(*set));
  for (size_t i = 0; i < n; i++) gl_vec_push(&set->rules, rule_new(&specs[i]));
  return set;
}

static inline void set_free(gl_ruleset *set) {
  for (size_t i = 0; i < set->rules.len; i++) {
    gl_rule *r = set->rules.data[i];
    free(r->id);
    free(r->name);
    free(r->message);
    free(r->query);
    free(r->check);
    free(r->path);
    free(r);
  }
  gl_vec_free(&set->rules);
  free(set);
}

/* An eager matcher of set; fails the test on any load error. */
static inline gl_matcher *matcher_ok(const gl_ruleset *set) {
  gl_diag_list errs = {0};
  gl_matcher *m = gl_match_new(set, gl_parse_language(), &errs);
  if (errs.len) {
    char buf[2048];
    gl_diag_format(&errs.data[0], buf, sizeof(buf));
    fail_msg("unexpected load error: %s", buf);
  }
  assert_non_null(m);
  gl_vec_free(&errs);
  return m;
}

/* Builds an eager matcher of the rules; returns the number of load errors, the first one
 * formatted into buf ("" when none). The matcher is NULL exactly when there was one. */
static inline size_t load_errors(const spec *specs, size_t n, char *buf, size_t cap) {
  gl_ruleset *set = set_new(specs, n);
  gl_diag_list errs = {0};
  gl_matcher *m = gl_match_new(set, gl_parse_language(), &errs);
  size_t nerr = errs.len;
  buf[0] = '\0';
  if (nerr) gl_diag_format(&errs.data[0], buf, cap);
  if (nerr) assert_null(m);
  else assert_non_null(m);
  gl_match_free(m);
  gl_vec_free(&errs);
  set_free(set);
  return nerr;
}

/* Parses code as t.py, builds its model and runs m over it with a fresh ctx (match_limit and
 * budget_ms as gl_match_ctx_new takes them); findings in match order. */
static inline void lint_buffer_within(const gl_matcher *m, uint32_t match_limit, uint32_t budget_ms,
                                      const char *code, gl_file_result *out) {
  memset(out, 0, sizeof(*out));
  gl_source src;
  gl_load_buffer(&src, "t.py", code, strlen(code));
  gl_parser *p = gl_parse_new(0, 0);
  gl_diag err = {0};
  TSTree *tree = gl_parse_source(p, &src, &err);
  if (!tree) fail_msg("parse failed: %s", err.msg);
  gl_model *model = gl_model_build(&src, tree, NULL);
  gl_match_ctx *ctx = gl_match_ctx_new(m, match_limit, budget_ms);
  gl_match_run(ctx, &src, tree, model, out);
  gl_match_ctx_free(ctx);
  gl_model_free(model);
  ts_tree_delete(tree);
  gl_parse_free(p);
  gl_source_free(&src);
}

static inline void lint_buffer(const gl_matcher *m, uint32_t match_limit, const char *code,
                               gl_file_result *out) {
  lint_buffer_within(m, match_limit, 0, code, out);
}

#endif
