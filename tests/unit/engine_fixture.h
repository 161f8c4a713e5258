/* engine_fixture.h: the built-in rules, narrowed by a selection, and one source string linted
 * through the real engine, for the unit tests that check findings end to end (test_engine.c,
 * test_precision.c, test_vecio.c, test_launch.c, test_accel.c): a cmocka group setup and
 * teardown, a lint of t.py, and an assertion on one finding's rule and columns.
 * Owns: nothing outside a test; every function is static inline (header-only, a test may use any
 * subset). Include after <cmocka.h>. Threads: single-threaded test code. */
#ifndef GL_TEST_ENGINE_FIXTURE_H
#define GL_TEST_ENGINE_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "parse/parse.h"

/* The group state: built-in rules with a selection applied, their matcher and engine options
 * (one job, the prefilter on); a test may change opts and must restore it. */
typedef struct ctx {
  gl_ruleset *set;
  gl_matcher *matcher;
  gl_engine_opts opts;
} ctx;

/* Group setup: loads the built-in rules, selects sel[0..nsel) (ids, packs or "ALL") and builds
 * the matcher into a new ctx at *state; -1 (cmocka skips the group) when any step fails. */
static inline int engine_setup(void **state, const char *const *sel, size_t nsel) {
  ctx *c = calloc(1, sizeof(*c));
  gl_diag_list errs = {0};
  c->set = gl_rules_new();
  gl_rules_add_builtin(c->set, &errs);
  gl_rules_finish(c->set, &errs);
  gl_diag err = {0};
  if (gl_rules_select(c->set, sel, nsel, NULL, 0, NULL, 0, &err) != 0) return -1;
  c->matcher = gl_match_new(c->set, gl_parse_language(), &errs);
  if (errs.len || !c->matcher) return -1;
  c->opts = (gl_engine_opts){.jobs = 1, .parse_timeout_ms = 5000, .prefilter = true};
  *state = c;
  return 0;
}

/* Group teardown: frees what engine_setup built. */
static inline int engine_teardown(void **state) {
  ctx *c = *state;
  gl_match_free(c->matcher);
  gl_rules_free(c->set);
  free(c);
  return 0;
}

/* Lints text as t.py with c's rules and options; the caller frees the result
 * (gl_file_result_free). */
static inline gl_file_result lint_py(const ctx *c, const char *text) {
  gl_file_result r = {0};
  gl_engine_lint_buffer("t.py", text, strlen(text), c->set, c->matcher, &c->opts, &r);
  return r;
}

/* Asserts that f is rule id starting at line:col and ending at column end_col. */
static inline void assert_finding(const gl_finding *f, const char *id, uint32_t line, uint32_t col,
                                  uint32_t end_col) {
  assert_string_equal(f->rule->id, id);
  assert_int_equal(f->region.start_line, line);
  assert_int_equal(f->region.start_col, col);
  assert_int_equal(f->region.end_col, end_col);
}

#endif
