/* rules_fixture.h: loading a rule pack from strings, for the unit tests of the rule loader
 * (test_rules.c, test_rulebind.c): a pack README and one rule file into a new ruleset, a load
 * that must succeed, and a load that must fail with exactly one error.
 * Owns: nothing outside a test; every function is static inline (header-only). Include after
 * <cmocka.h>. Threads: single-threaded test code. */
#ifndef GL_TEST_RULES_FIXTURE_H
#define GL_TEST_RULES_FIXTURE_H

#include <string.h>

#include "rules/rules.h"
#include "text_fixture.h"

/* Where the tests' pack README lives; rule files sit next to it (p/demo/GPU9xx.md). */
#define RULES_FIXTURE_README "p/demo/README.md"

static inline gl_rule_file rule_file(const char *path, const char *text) {
  gl_rule_file f = {path, text, strlen(text)};
  return f;
}

/* Loads readme (as RULES_FIXTURE_README) plus text as path into a new ruleset (the caller frees
 * it); *rc gets gl_rules_add_files's return code, errs its errors. */
static inline gl_ruleset *load_pack_rule(const char *readme, const char *path, const char *text,
                                         gl_diag_list *errs, int *rc) {
  gl_rule_file files[] = {rule_file(RULES_FIXTURE_README, readme), rule_file(path, text)};
  gl_ruleset *set = gl_rules_new();
  *rc = gl_rules_add_files(set, files, 2, errs);
  return set;
}

/* Loads readme plus text as path, asserts no error and exactly one rule, and returns the set
 * (the caller frees it). */
static inline gl_ruleset *load_rule_ok(const char *readme, const char *path, const char *text) {
  gl_diag_list errs = {0};
  int rc;
  gl_ruleset *set = load_pack_rule(readme, path, text, &errs, &rc);
  print_errors(&errs);
  assert_int_equal(rc, GL_OK);
  assert_int_equal(errs.len, 0);
  assert_int_equal(set->rules.len, 1);
  gl_vec_free(&errs);
  return set;
}

/* Asserts that loading readme plus text as path gives exactly one error, path:line:col with msg,
 * and that the rule is not added. */
static inline void expect_rule_error(const char *readme, const char *path, const char *text, uint32_t line,
                                     uint32_t col, const char *msg) {
  gl_diag_list errs = {0};
  int rc;
  gl_ruleset *set = load_pack_rule(readme, path, text, &errs, &rc);
  assert_int_equal(rc, GL_EINVAL);
  assert_one_diag(&errs, path, line, col, msg);
  assert_int_equal(set->rules.len, 0); /* a rule with errors is not added */
  gl_vec_free(&errs);
  gl_rules_free(set);
}

/* A rule file that tests edit: its pack README, its path and its text. */
typedef struct rule_under_test {
  const char *readme, *path, *text;
} rule_under_test;

/* Loads r's text edited from -> to (text_fixture.h's edit) and expects exactly one error at
 * line:col with msg. */
static inline void expect_edit_error(const rule_under_test *r, const char *from, const char *to,
                                     uint32_t line, uint32_t col, const char *msg) {
  char *text = edit(r->text, from, to);
  expect_rule_error(r->readme, r->path, text, line, col, msg);
  free(text);
}

/* Loads r's text edited from -> to, expects no error, and returns the set (the caller frees). */
static inline gl_ruleset *load_edit_ok(const rule_under_test *r, const char *from, const char *to) {
  char *text = edit(r->text, from, to);
  gl_ruleset *set = load_rule_ok(r->readme, r->path, text);
  free(text);
  return set;
}

#endif
