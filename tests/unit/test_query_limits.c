/* test_query_limits.c: the limits on user queries (query_build.c, match.c, match_run.c).
 * Owns: the shape checks made before tree-sitter sees a query (nesting depth, a '+' that repeats
 *       without end, patterns per run), each at its rule-file position with near misses that
 *       still load, the per-file time limit on matching, and a backtracking regex switched off. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/strbuf.h"
#include "match/match.h"
#include "match/query_build.h"
#include "model/model.h"
#include "parse/parse.h"

#include "match_fixture.h"

static size_t load_query(const char *q, char *buf, size_t cap) {
  spec s = {"GPU900", q, 20, NULL, 0, true, NULL};
  return load_errors(&s, 1, buf, cap);
}

#define ENDLESS "'+' on a pattern that may match nothing repeats without end: use '*', or repeat a " \
                "node that must be there"

static void test_endless_repetition_refused(void **state) {
  (void)state;
  char buf[1024];
  static const struct {
    const char *query;
    const char *where;   /* line:col of the '+' */
  } bad[] = {
      {"((comment)?+ @hit)", "20:12"},
      {"((comment) ? + @hit)", "20:14"},
      {"((comment)*+ @hit)", "20:12"},
      {"(((comment)?)+ @hit)", "20:14"},
      {"(module ((comment)? (comment)*)+ @hit)", "20:32"},
      {"(module [(comment)? (comment)*]+ @hit)", "20:32"},
      {"(module\n  ((comment)? ; a comment with a + in it\n   (comment)?)+ @hit)", "22:15"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_int_equal(load_query(bad[i].query, buf, sizeof buf), 1);
    char want[1024];
    snprintf(want, sizeof want, "rules/t/GPU900.md:%s: " ENDLESS, bad[i].where);
    assert_string_equal(buf, want);
  }
  /* Near misses that tree-sitter runs to an end: they load. */
  static const char *const good[] = {
      "((comment)+ @hit)",
      "((comment)** @hit)",
      "((comment)?? @hit)",
      "((comment)++ @hit)",
      "(((comment)?)* @hit)",
      "(module ((comment)? (expression_statement))+ @hit)",
      "(module [(comment)? (expression_statement)]+ @hit)",
      "((identifier) @hit (#match? @hit \"^a?+$\"))",
      "((identifier)+ @hit (#any-of? @hit \"a+\" \"b?\"))",
  };
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    if (load_query(good[i], buf, sizeof buf)) fail_msg("%s: %s", good[i], buf);
  }
}

static void test_depth_refused_before_tree_sitter(void **state) {
  (void)state;
  char buf[1024];
  /* 20,000 levels overflowed tree-sitter's recursive query parser. */
  gl_strbuf q = {0};
  for (int i = 0; i < 20000; i++) gl_strbuf_add(&q, "(", 1);
  gl_strbuf_add(&q, "identifier) @hit", 16);
  for (int i = 1; i < 20000; i++) gl_strbuf_add(&q, ")", 1);
  assert_int_equal(load_query(q.data, buf, sizeof buf), 1);
  assert_string_equal(buf, "rules/t/GPU900.md:20:257: query nests deeper than 256 levels");
  free(q.data);
  /* Brackets in strings and comments do not count. */
  gl_strbuf ok = {0};
  gl_strbuf_add(&ok, "((identifier) @hit (#eq? @hit \"", 31);
  for (int i = 0; i < 300; i++) gl_strbuf_add(&ok, "(", 1);
  gl_strbuf_add(&ok, "\"))\n; ", 6);
  for (int i = 0; i < 300; i++) gl_strbuf_add(&ok, "[", 1);
  assert_int_equal(load_query(ok.data, buf, sizeof buf), 0);
  free(ok.data);
  gl_qshape sh = gl_query_shape("((a) (b (c)))\n[(d) (e)]\n\"f\"", 27);
  assert_int_equal(sh.patterns, 3);
  assert_int_equal(sh.depth, 3);
  assert_int_equal(sh.depth_off, UINT32_MAX);
  assert_int_equal(sh.endless_off, UINT32_MAX);
}

static void test_pattern_cap_names_the_rule_that_passes_it(void **state) {
  (void)state;
  /* Three rules of 2,000 patterns: the second passes 4,096 with the first. */
  gl_strbuf q = {0};
  for (int i = 0; i < 2000; i++) gl_strbuf_addf(&q, "((identifier) @hit (#eq? @hit \"n%d\"))\n", i);
  spec s[3] = {{"GPU901", q.data, 20, NULL, 0, true, NULL},
               {"GPU902", q.data, 20, NULL, 0, true, NULL},
               {"GPU903", q.data, 20, NULL, 0, true, NULL}};
  char buf[1024];
  assert_int_equal(load_errors(s, 3, buf, sizeof buf), 1);
  assert_string_equal(buf, "rules/t/GPU903.md:20:1: the enabled query rules hold more than 4096 "
                           "patterns in all (6000 with this rule): split the pack or select fewer "
                           "rules");
  /* Disabled rules do not count. */
  s[2].enabled = false;
  assert_int_equal(load_errors(s, 3, buf, sizeof buf), 0);
  free(q.data);
}

/* Lints code with one rule GPU900 of query q, matching within budget_ms. */
static void lint_one(const char *q, const char *code, uint32_t budget_ms, gl_file_result *out) {
  spec s = {"GPU900", q, 0, NULL, 0, true, NULL};
  gl_ruleset *set = set_new(&s, 1);
  gl_matcher *m = matcher_ok(set);
  lint_buffer_within(m, 0, budget_ms, code, out);
  gl_match_free(m);
  set_free(set);
}

/* A query whose matching is slow on a file stops at the file's time limit, with a note. */
static void test_time_limit_stops_matching(void **state) {
  (void)state;
  const char *q = "(module (_)* @x (expression_statement) @hit (_)* @y)";
  gl_strbuf code = {0};
  for (int i = 0; i < 400; i++) gl_strbuf_addf(&code, "x%d = %d\n", i, i);
  gl_file_result out;
  lint_one(q, code.data, 20, &out);
  assert_int_equal(out.notes.len, 1);
  assert_int_equal(out.notes.data[0].kind, GL_NOTE_PARTIAL);
  assert_string_equal(out.notes.data[0].message,
                      "matching time limit of 20 ms exceeded (--parse-timeout); some findings may "
                      "be missing");
  assert_true(out.findings.len < 400);
  gl_file_result_free(&out);
  /* Within its limit the same query finds every statement of a small file. */
  lint_one(q, "a = 1\nb = 2\n", 5000, &out);
  assert_int_equal(out.notes.len, 0);
  assert_int_equal(out.findings.len, 2);
  gl_file_result_free(&out);
  free(code.data);
}

/* A regex that backtracks on one string does on every string like it: after the first limit hit
 * the rule is off for the rest of the file, in the early tests of dispatch as in the full match,
 * so 2,000 such strings (2.5 ms each before) finish far inside the time limit. */
static void test_regex_limit_switches_the_rule_off(void **state) {
  (void)state;
  const char *q = "((string_content) @hit (#match? @hit \"^(a+)+$\"))";
  gl_strbuf code = {0};
  for (int i = 0; i < 2000; i++) gl_strbuf_addf(&code, "x = \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaab\"\n");
  gl_strbuf_addf(&code, "y = \"aaaa\"\n");   /* would match: the rule is off by now */
  gl_file_result out;
  lint_one(q, code.data, 2000, &out);
  assert_int_equal(out.findings.len, 0);
  assert_int_equal(out.notes.len, 1);
  assert_string_equal(out.notes.data[0].message,
                      "regex limit hit in rule GPU900; the rule is off for the rest of the file");
  gl_file_result_free(&out);
  lint_one(q, "y = \"aaaa\"\n", 2000, &out);   /* another file: the rule is on again */
  assert_int_equal(out.findings.len, 1);
  assert_int_equal(out.notes.len, 0);
  gl_file_result_free(&out);
  free(code.data);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_endless_repetition_refused),
      cmocka_unit_test(test_depth_refused_before_tree_sitter),
      cmocka_unit_test(test_pattern_cap_names_the_rule_that_passes_it),
      cmocka_unit_test(test_time_limit_stops_matching),
      cmocka_unit_test(test_regex_limit_switches_the_rule_off),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
