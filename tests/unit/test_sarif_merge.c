/* test_sarif_merge.c: unit tests for src/sarif_merge.c: two small shard logs with overlapping
 * rules merged (rule order and dedup, renumbered ruleIndex, results and notifications in file
 * order, executionSuccessful, originalUriBaseIds), the results limit, and errors with
 * file:line:col (not json, another tool, another version, another category, other evidence).
 * Not: byte equality with an unsharded run (tests/cli/merge-*). Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "ci/ci.h"
#include "base/xalloc.h"

static char dir[] = "/tmp/gl_merge_XXXXXX";

static int setup(void **state) {
  (void)state;
  return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

/* Writes text to dir/name; returns the path (caller frees). */
static char *put(const char *name, const char *text) {
  char *path = gl_xasprintf("%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  return path;
}

#define RULE(id) "{\"id\": \"" id "\", \"shortDescription\": {\"text\": \"" id "\"}}"
#define RESULT(rule, index, uri, line)                                                        \
  "{\"ruleId\": \"" rule "\", \"ruleIndex\": " #index ", \"level\": \"warning\", \"message\": " \
  "{\"text\": \"m\"}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": \"" \
  uri "\", \"uriBaseId\": \"%SRCROOT%\"}, \"region\": {\"startLine\": " #line "}}}]}"
#define HEAD(version) \
  "{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"gpulint\", " \
  "\"version\": \"" version "\", \"rules\": ["

static const char log_a[] =
    HEAD("0.1.0") RULE("GPU101") ", " RULE("GPU201") "]}},\n"
    " \"invocations\": [{\"executionSuccessful\": true, \"workingDirectory\": {\"uri\": \"file:///w/\"}}],\n"
    " \"originalUriBaseIds\": {\"%SRCROOT%\": {\"uri\": \"file:///w/\"}},\n"
    " \"results\": [" RESULT("GPU201", 1, "b.py", 4) "]}]}\n";

static const char log_b[] =
    HEAD("0.1.0") RULE("GPU101") ", " RULE("GPU105") ", " RULE("GPU201") "]}},\n"
    " \"invocations\": [{\"executionSuccessful\": false, \"workingDirectory\": {\"uri\": \"file:///w/\"},\n"
    "   \"toolExecutionNotifications\": [{\"level\": \"error\", \"message\": {\"text\": \"syntax\"},"
    " \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": \"c.py\"}}}]},"
    " {\"level\": \"error\", \"message\": {\"text\": \"skipped\"}, \"locations\": [{\"physicalLocation\":"
    " {\"artifactLocation\": {\"uri\": \"a%20b.py\"}}}]}]}],\n"
    " \"originalUriBaseIds\": {\"%SRCROOT%\": {\"uri\": \"file:///w/\"}, \"OTHER\": {\"uri\": \"file:///o/\"}},\n"
    " \"results\": [" RESULT("GPU105", 1, "a%20b.py", 2) ", " RESULT("GPU101", 0, "c.py", 1) ", "
    RESULT("GPU201", 2, "c.py", 3) "]}]}\n";

static cJSON *merge2(const char *a, const char *b, size_t *dropped) {
  char *pa = put("a.sarif", a), *pb = put("b.sarif", b);
  const char *paths[] = {pa, pb};
  gl_diag err = {0};
  char *text = gl_sarif_merge(paths, 2, dropped, &err);
  assert_non_null(text);
  assert_int_equal(text[strlen(text) - 1], '\n');
  cJSON *root = cJSON_Parse(text);
  assert_non_null(root);
  free(text);
  free(pa);
  free(pb);
  return root;
}

static cJSON *at(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }

static void test_merge_two_logs(void **state) {
  (void)state;
  size_t dropped = 99;
  cJSON *root = merge2(log_a, log_b, &dropped);
  assert_int_equal(dropped, 0);
  cJSON *run = at(root, "runs")->child;
  cJSON *rules = at(at(at(run, "tool"), "driver"), "rules");
  assert_int_equal(cJSON_GetArraySize(rules), 3);
  assert_string_equal(at(cJSON_GetArrayItem(rules, 0), "id")->valuestring, "GPU101");
  assert_string_equal(at(cJSON_GetArrayItem(rules, 1), "id")->valuestring, "GPU105");
  assert_string_equal(at(cJSON_GetArrayItem(rules, 2), "id")->valuestring, "GPU201");
  cJSON *results = at(run, "results");
  assert_int_equal(cJSON_GetArraySize(results), 4);
  const char *rule[] = {"GPU105", "GPU201", "GPU101", "GPU201"};
  const int index[] = {1, 2, 0, 2}, line[] = {2, 4, 1, 3}; /* a b.py, b.py, c.py, c.py */
  for (int i = 0; i < 4; i++) {
    cJSON *r = cJSON_GetArrayItem(results, i);
    assert_string_equal(at(r, "ruleId")->valuestring, rule[i]);
    assert_int_equal(at(r, "ruleIndex")->valueint, index[i]);
    cJSON *phys = at(at(r, "locations")->child, "physicalLocation");
    assert_int_equal(at(at(phys, "region"), "startLine")->valueint, line[i]);
  }
  cJSON *inv = at(run, "invocations")->child;
  assert_true(cJSON_IsFalse(at(inv, "executionSuccessful")));
  /* inserted after workingDirectory, as the writer orders it; a b.py sorts before c.py */
  assert_string_equal(inv->child->next->next->string, "toolExecutionNotifications");
  cJSON *notes = at(inv, "toolExecutionNotifications");
  assert_int_equal(cJSON_GetArraySize(notes), 2);
  assert_string_equal(at(at(notes->child, "message"), "text")->valuestring, "skipped");
  assert_string_equal(at(at(notes->child->next, "message"), "text")->valuestring, "syntax");
  cJSON *bases = at(run, "originalUriBaseIds");
  assert_int_equal(cJSON_GetArraySize(bases), 2);
  assert_string_equal(at(at(bases, "OTHER"), "uri")->valuestring, "file:///o/");
  cJSON_Delete(root);
}

/* Shard order does not matter, and a log merged with nothing new is itself. */
static void test_merge_order_independent(void **state) {
  (void)state;
  size_t dropped = 0;
  cJSON *ab = merge2(log_a, log_b, &dropped), *ba = merge2(log_b, log_a, &dropped);
  cJSON *runs_ab = at(ab, "runs"), *runs_ba = at(ba, "runs");
  assert_true(cJSON_Compare(at(runs_ab->child, "results"), at(runs_ba->child, "results"), 1));
  assert_true(cJSON_Compare(at(at(at(runs_ab->child, "tool"), "driver"), "rules"),
                            at(at(at(runs_ba->child, "tool"), "driver"), "rules"), 1));
  cJSON_Delete(ab);
  cJSON_Delete(ba);
  cJSON *aa = merge2(log_a, log_a, &dropped);
  assert_int_equal(cJSON_GetArraySize(at(at(aa, "runs")->child, "results")), 2);
  assert_true(cJSON_IsTrue(at(at(at(aa, "runs")->child, "invocations")->child, "executionSuccessful")));
  assert_null(at(at(at(aa, "runs")->child, "invocations")->child, "toolExecutionNotifications"));
  cJSON_Delete(aa);
}

/* Merges a and b expecting the error expected ('@' = the scratch directory). */
static void expect_error(const char *a, const char *b, const char *expected) {
  char *pa = put("a.sarif", a), *pb = put("b.sarif", b);
  const char *paths[] = {pa, pb};
  gl_diag err = {0};
  size_t dropped = 0;
  assert_null(gl_sarif_merge(paths, 2, &dropped, &err));
  char buf[1024];
  gl_diag_format(&err, buf, sizeof buf);
  char want[1024] = ""; /* expected with each '@' replaced by the scratch directory */
  for (const char *p = expected; *p; p++) {
    size_t len = strlen(want);
    if (*p == '@') snprintf(want + len, sizeof want - len, "%s", dir);
    else snprintf(want + len, sizeof want - len, "%c", *p);
  }
  assert_string_equal(buf, want);
  free(pa);
  free(pb);
}

static void test_errors(void **state) {
  (void)state;
  expect_error(log_a, "{\"version\": \"2.1.0\",\n oops}", "@/b.sarif:2:3: invalid json");
  expect_error("{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"ruff\"}}}]}",
               log_a, "@/a.sarif:1:60: not a gpulint SARIF log: the tool is 'ruff'");
  expect_error(log_a, "{\"version\": \"2.0.0\"}", "@/b.sarif:1:13: not a SARIF 2.1.0 log");
  static const char v2[] = HEAD("0.2.0") "]}}, \"results\": []}]}";
  expect_error(log_a, v2, "@/b.sarif:1:82: gpulint version '0.2.0' differs from '0.1.0' in "
               "@/a.sarif");
}

static void test_category_and_evidence(void **state) {
  (void)state;
  static const char cat_a[] = HEAD("0.1.0") "]}}, \"automationDetails\": {\"id\": \"a/\"}, \"results\": []}]}";
  static const char cat_b[] = HEAD("0.1.0") "]}}, \"automationDetails\": {\"id\": \"b/\"}, \"results\": []}]}";
  static const char none[] = HEAD("0.1.0") "]}}, \"results\": []}]}";
  expect_error(cat_a, cat_b, "@/b.sarif:1:127: category 'b/' differs from 'a/' in @/a.sarif");
  expect_error(cat_a, none, "@/b.sarif:1:31: category none differs from 'a/' in @/a.sarif");
  static const char ev_a[] = HEAD("0.1.0") "]}}, \"results\": [], \"properties\": {\"evidence\": {\"gpu\": \"H200\"}}}]}";
  static const char ev_b[] = HEAD("0.1.0") "]}}, \"results\": [], \"properties\": {\"evidence\": {\"gpu\": \"A100\"}}}]}";
  expect_error(ev_a, ev_b, "@/b.sarif:1:135: run properties (evidence) differ from @/a.sarif's");
  expect_error(ev_a, none, "@/b.sarif:1:31: run properties (evidence) differ from @/a.sarif's");
  size_t dropped = 0;
  cJSON *same = merge2(ev_a, ev_a, &dropped);
  assert_string_equal(at(at(at(at(same, "runs")->child, "properties"), "evidence"), "gpu")->valuestring, "H200");
  cJSON_Delete(same);
}

/* A log of n results GPU101 in file f%05zu.py (one per file), from file first on. */
static char *big_log(size_t first, size_t n) {
  char *s = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&s, &len);
  assert_non_null(f);
  fputs(HEAD("0.1.0") RULE("GPU101") "]}}, \"invocations\": [{\"executionSuccessful\": true}],"
        " \"results\": [", f);
  for (size_t i = 0; i < n; i++)
    fprintf(f, "%s{\"ruleId\": \"GPU101\", \"ruleIndex\": 0, \"locations\": [{\"physicalLocation\": "
            "{\"artifactLocation\": {\"uri\": \"f%05zu.py\"}}}]}", i ? "," : "", first + i);
  fputs("]}]}", f);
  fclose(f);
  return s;
}

/* 12,501 + 12,501 results: the first 25,000 in file order are kept, and the writer's note says so. */
static void test_results_limit(void **state) {
  (void)state;
  char *a = big_log(12501, 12501), *b = big_log(0, 12501);
  size_t dropped = 0;
  cJSON *root = merge2(a, b, &dropped);
  free(a);
  free(b);
  assert_int_equal(dropped, 2);
  cJSON *run = at(root, "runs")->child;
  cJSON *results = at(run, "results");
  assert_int_equal(cJSON_GetArraySize(results), 25000);
  cJSON *last = cJSON_GetArrayItem(results, 24999);
  cJSON *art = at(at(at(last, "locations")->child, "physicalLocation"), "artifactLocation");
  assert_string_equal(at(art, "uri")->valuestring, "f24999.py");
  cJSON *note = at(at(run, "invocations")->child, "toolExecutionNotifications")->child;
  assert_string_equal(at(at(note, "message"), "text")->valuestring,
                      "Left out 2 of 25002 results: GitHub code scanning accepts at most 25000 "
                      "results per run, so the first 25000 in output order were kept.");
  assert_string_equal(at(at(note, "descriptor"), "id")->valuestring, "sarif-limit");
  assert_int_equal(at(at(note, "descriptor"), "index")->valueint, 3);
  cJSON_Delete(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_merge_two_logs),
      cmocka_unit_test(test_merge_order_independent),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_category_and_evidence),
      cmocka_unit_test(test_results_limit),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
