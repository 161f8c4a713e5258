/* test_baseline.c: unit tests for src/baseline.c: reading a gpulint SARIF log (errors with
 * file:line:col), matching a hand-built run against it (moved line, edited line, multiset
 * counting, another file, another rule, suppressed findings) and the SARIF / text output that
 * follows (baselineState, absent results, the summary line, the exit count).
 * Not: the line-hash algorithm (test_location.c); end-to-end runs (tests/cli/baseline-*).
 * Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "ci/ci.h"
#include "report/report.h"
#include "report_fixture.h"

/* One result of a baseline log: rule, relative uri, start line, hash (NULL: none). */
typedef struct old_result {
  const char *rule, *uri;
  int line;
  const char *hash;
} old_result;

/* A gpulint SARIF log holding results (absent == true adds one already-absent result). */
static char *log_of(const old_result *r, size_t n, bool absent) {
  char *s = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&s, &len);
  assert_non_null(f);
  fputs("{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"gpulint\"}},\n"
        " \"results\": [\n", f);
  for (size_t i = 0; i < n; i++) {
    fprintf(f, "%s{\"ruleId\": \"%s\", \"level\": \"warning\", \"message\": {\"text\": \"old %zu\"},"
            " \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": \"%s\","
            " \"uriBaseId\": \"%%SRCROOT%%\"}, \"region\": {\"startLine\": %d, \"startColumn\": 5,"
            " \"endLine\": %d, \"endColumn\": 9}}}]",
            i ? ",\n" : "", r[i].rule, i + 1, r[i].uri, r[i].line, r[i].line);
    if (r[i].hash) fprintf(f, ", \"partialFingerprints\": {\"primaryLocationLineHash\": \"%s\"}", r[i].hash);
    fputs("}", f);
  }
  if (absent)
    fprintf(f, "%s{\"ruleId\": \"GPU101\", \"baselineState\": \"absent\", \"locations\": "
            "[{\"physicalLocation\": {\"artifactLocation\": {\"uri\": \"gone.py\"}}}]}", n ? ",\n" : "");
  fputs("]}]}\n", f);
  fclose(f);
  return s;
}

static gl_baseline *parse_log(const old_result *r, size_t n) {
  char *text = log_of(r, n, false);
  gl_diag err = {0};
  gl_baseline *b = gl_baseline_parse("old.sarif", text, strlen(text), &err);
  free(text);
  if (!b) fail_msg("baseline rejected: %s:%u:%u: %s", err.path, err.line, err.col, err.msg);
  return b;
}

/* Expects parsing text to fail at line:col with message msg. */
static void expect_error(const char *text, uint32_t line, uint32_t col, const char *msg) {
  gl_diag err = {0};
  gl_baseline *b = gl_baseline_parse("old.sarif", text, strlen(text), &err);
  assert_null(b);
  assert_string_equal(err.path, "old.sarif");
  assert_string_equal(err.msg, msg);
  assert_int_equal(err.line, line);
  assert_int_equal(err.col, col);
}

static void add(fixture *fx, gl_file_result *f, int rule, uint32_t line, const char *hash) {
  fixture_add(fx, f, (fixture_finding){rule, GL_LEVEL_WARNING, line, 5, line, 9, 5, 9, "now",
                                       NULL, hash, false});
}

/* ---- reading ------------------------------------------------------------------------------ */

static void test_reads_results(void **state) {
  (void)state;
  old_result r[] = {{"GPU101", "src/a.py", 3, "aaaa:1"}, {"GPU102", "b.py", 7, NULL}};
  char *text = log_of(r, 2, true);
  gl_diag err = {0};
  gl_baseline *b = gl_baseline_parse("old.sarif", text, strlen(text), &err);
  free(text);
  assert_non_null(b);
  assert_int_equal(b->results.len, 2); /* the already-absent one is not a finding */
  gl_baseline_result *x = &b->results.data[0];
  assert_string_equal(x->rule_id, "GPU101");
  assert_string_equal(x->uri, "src/a.py");
  assert_true(x->relative);
  assert_string_equal(x->line_hash, "aaaa:1");
  assert_string_equal(x->message, "old 1");
  assert_string_equal(x->level, "warning");
  assert_int_equal(x->region.start_line, 3);
  assert_int_equal(x->region.start_col, 5);
  assert_int_equal(x->region.end_line, 3);
  assert_int_equal(x->region.end_col, 9);
  assert_false(x->suppressed);
  assert_null(b->results.data[1].line_hash);
  gl_baseline_free(b);
  gl_baseline_free(NULL);
}

static void test_rejects_bad_logs(void **state) {
  (void)state;
  expect_error("{\"version\": \"2.1.0\",\n  \"runs\": [}", 2, 12, "invalid json");
  expect_error("", 1, 1, "invalid json");
  expect_error("[1, 2]", 1, 1, "not a SARIF 2.1.0 log");
  expect_error("{\"version\": \"2.0.0\", \"runs\": []}", 1, 13, "not a SARIF 2.1.0 log");
  expect_error("{\"version\": \"2.1.0\", \"runs\": []}", 1, 30, "a gpulint SARIF log has exactly one run");
  expect_error("{\"version\": \"2.1.0\",\n\"runs\": [{\"tool\": {\"driver\": {\"name\": \"ruff\"}}, \"results\": []}]}",
               2, 39, "not a gpulint SARIF log: the tool is 'ruff'");
  expect_error("{\"version\": \"2.1.0\", \"runs\": [{\"results\": []}]}", 1, 31,
               "not a gpulint SARIF log: runs[0].tool.driver.name is missing");
  expect_error("{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"gpulint\"}}}]}", 1, 31,
               "runs[0].results must be an array");
  expect_error("{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"gpulint\"}},\n"
               "\"results\": [{\"ruleId\": \"GPU101\", \"locations\": [{\"physicalLocation\": "
               "{\"artifactLocation\": {\"uri\": \"a.py\"}}}]},\n  {\"message\": {\"text\": \"x\"}}]}]}",
               3, 3, "result 2 has no ruleId");
  expect_error("{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"gpulint\"}},\n"
               "\"results\": [{\"ruleId\": \"GPU101\"}]}]}", 2, 13,
               "result 1 has no locations[0].physicalLocation.artifactLocation.uri");
  expect_error("{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"gpulint\"}},\n"
               "\"results\": [{\"ruleId\": 7}]}]}", 2, 24, "result 1: 'ruleId' must be a string");
  expect_error("{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"gpulint\"}},\n"
               "\"results\": [{\"ruleId\": \"A\", \"locations\": [{\"physicalLocation\": {\"artifactLocation\":"
               " {\"uri\": \"a.py\"}, \"region\": {\"startLine\": 0}}}]}]}]}", 2, 126,
               "result 1: 'startLine' must be a positive integer");
  expect_error("{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"gpulint\"}},\n"
               "\"results\": [3]}]}", 2, 13, "result 1 must be an object");
  const char nul[] = "{\"version\": \"2.1.0\"\0}";
  gl_diag err = {0};
  assert_null(gl_baseline_parse("old.sarif", nul, sizeof nul - 1, &err));
  assert_string_equal(err.msg, "baseline contains a NUL byte");
  assert_int_equal(err.col, 20);
  const char bad[] = "{\"version\": \"2.1.0\xC0\xAF\"}";
  assert_null(gl_baseline_parse("old.sarif", bad, sizeof bad - 1, &err));
  assert_string_equal(err.msg, "baseline is not valid UTF-8 (byte 0xC0)");
  assert_int_equal(err.col, 19);
  const char esc[] = "{\"version\": \"2.1.0\\u0000\"}";
  assert_null(gl_baseline_parse("old.sarif", esc, sizeof esc - 1, &err));
  assert_string_equal(err.msg, "baseline holds a \\u0000 escape in a string (a NUL character)");
  assert_int_equal(err.col, 19);
}

static void test_load_refuses_fifo_and_missing(void **state) {
  (void)state;
  char dir[] = "/tmp/gl_baseline_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char fifo[64];
  snprintf(fifo, sizeof fifo, "%s/fifo", dir);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  gl_diag err = {0};
  assert_null(gl_baseline_load(fifo, &err)); /* returns at once: never opened for blocking */
  assert_string_equal(err.msg, "not a regular file");
  assert_string_equal(err.path, fifo);
  unlink(fifo);
  rmdir(dir);
  assert_null(gl_baseline_load("/nonexistent/old.sarif", &err));
  assert_string_equal(err.msg, "cannot open file: no such file or directory");
}

/* ---- matching ----------------------------------------------------------------------------- */

static void test_moved_line_is_unchanged(void **state) {
  (void)state;
  old_result r[] = {{"GPU101", "a.py", 3, "aaaa:1"}};
  gl_baseline *b = parse_log(r, 1);
  fixture fx;
  fixture_init(&fx, "/src");
  add(&fx, fixture_file(&fx, "/src/a.py"), 0, 40, "aaaa:1"); /* 37 lines further down */
  gl_baseline_apply(b, &fx.run);
  assert_ptr_equal(fx.run.baseline, b);
  assert_int_equal(fx.run.files.data[0].findings.data[0].baseline, GL_BASELINE_UNCHANGED);
  assert_true(b->results.data[0].matched);
  assert_int_equal(gl_baseline_absent(b), 0);
  assert_int_equal(gl_run_count_at_least(&fx.run, GL_LEVEL_NOTE), 0);
  fixture_free(&fx);
  gl_baseline_free(b);
}

static void test_edited_line_is_new_and_absent(void **state) {
  (void)state;
  old_result r[] = {{"GPU101", "a.py", 3, "aaaa:1"}};
  gl_baseline *b = parse_log(r, 1);
  fixture fx;
  fixture_init(&fx, "/src");
  add(&fx, fixture_file(&fx, "/src/a.py"), 0, 3, "bbbb:1"); /* same line, other text */
  gl_baseline_apply(b, &fx.run);
  assert_int_equal(fx.run.files.data[0].findings.data[0].baseline, GL_BASELINE_NEW);
  assert_false(b->results.data[0].matched);
  assert_int_equal(gl_baseline_absent(b), 1);
  assert_int_equal(gl_run_count_at_least(&fx.run, GL_LEVEL_NOTE), 1);
  fixture_free(&fx);
  gl_baseline_free(b);
}

static void test_multiset_counts(void **state) {
  (void)state;
  old_result r[] = {{"GPU101", "a.py", 3, "aaaa:1"}, {"GPU101", "a.py", 3, "aaaa:1"}};
  gl_baseline *b = parse_log(r, 2);
  fixture fx;
  fixture_init(&fx, "/src");
  gl_file_result *f = fixture_file(&fx, "/src/a.py");
  for (uint32_t line = 5; line <= 7; line++) add(&fx, f, 0, line, "aaaa:1");
  gl_baseline_apply(b, &fx.run);
  /* two of the three are the baseline's two; the last in output order is new */
  assert_int_equal(f->findings.data[0].baseline, GL_BASELINE_UNCHANGED);
  assert_int_equal(f->findings.data[1].baseline, GL_BASELINE_UNCHANGED);
  assert_int_equal(f->findings.data[2].baseline, GL_BASELINE_NEW);
  assert_int_equal(gl_baseline_absent(b), 0);
  assert_int_equal(gl_run_count_at_least(&fx.run, GL_LEVEL_NOTE), 1);
  fixture_free(&fx);
  gl_baseline_free(b);

  /* and the other way round: three before, one now: two absent */
  old_result r3[] = {{"GPU101", "a.py", 3, "aaaa:1"}, {"GPU101", "a.py", 4, "aaaa:1"}, {"GPU101", "a.py", 5, "aaaa:1"}};
  b = parse_log(r3, 3);
  fixture_init(&fx, "/src");
  add(&fx, fixture_file(&fx, "/src/a.py"), 0, 9, "aaaa:1");
  gl_baseline_apply(b, &fx.run);
  assert_int_equal(fx.run.files.data[0].findings.data[0].baseline, GL_BASELINE_UNCHANGED);
  assert_true(b->results.data[0].matched);
  assert_false(b->results.data[1].matched);
  assert_false(b->results.data[2].matched);
  assert_int_equal(gl_baseline_absent(b), 2);
  fixture_free(&fx);
  gl_baseline_free(b);
}

static void test_other_file_or_rule_is_new(void **state) {
  (void)state;
  old_result r[] = {{"GPU101", "a.py", 3, "aaaa:1"}, {"GPU102", "a.py", 8, "cccc:1"}};
  gl_baseline *b = parse_log(r, 2);
  fixture fx;
  fixture_init(&fx, "/src");
  add(&fx, fixture_file(&fx, "/src/b.py"), 0, 3, "aaaa:1");   /* same rule and hash, other file */
  add(&fx, fixture_file(&fx, "/src/c/a.py"), 1, 8, "cccc:1"); /* same name in another folder */
  add(&fx, fixture_file(&fx, "/src/a.py"), 0, 8, "cccc:1");   /* same file and hash, other rule */
  gl_baseline_apply(b, &fx.run);
  for (size_t i = 0; i < 3; i++)
    assert_int_equal(fx.run.files.data[i].findings.data[0].baseline, GL_BASELINE_NEW);
  assert_int_equal(gl_baseline_absent(b), 2);
  fixture_free(&fx);
  gl_baseline_free(b);
}

static void test_without_hash_matches_by_line(void **state) {
  (void)state;
  old_result r[] = {{"GPU101", "a.py", 3, NULL}, {"GPU101", "a.py", 4, NULL}};
  gl_baseline *b = parse_log(r, 2);
  fixture fx;
  fixture_init(&fx, "/src");
  gl_file_result *f = fixture_file(&fx, "/src/a.py");
  add(&fx, f, 0, 3, NULL);
  add(&fx, f, 0, 5, NULL);
  add(&fx, f, 0, 6, "aaaa:1"); /* a hash never equals a missing one */
  gl_baseline_apply(b, &fx.run);
  assert_int_equal(f->findings.data[0].baseline, GL_BASELINE_UNCHANGED);
  assert_int_equal(f->findings.data[1].baseline, GL_BASELINE_NEW);
  assert_int_equal(f->findings.data[2].baseline, GL_BASELINE_NEW);
  assert_false(b->results.data[1].matched);
  fixture_free(&fx);
  gl_baseline_free(b);
}

static void test_suppressed_findings_match_too(void **state) {
  (void)state;
  old_result r[] = {{"GPU101", "a.py", 3, "aaaa:1"}};
  gl_baseline *b = parse_log(r, 1);
  fixture fx;
  fixture_init(&fx, "/src");
  gl_file_result *f = fixture_file(&fx, "/src/a.py");
  fixture_add(&fx, f, (fixture_finding){0, GL_LEVEL_ERROR, 3, 5, 3, 9, 5, 9, "now", NULL, "aaaa:1", true});
  fixture_add(&fx, f, (fixture_finding){1, GL_LEVEL_ERROR, 4, 5, 4, 9, 5, 9, "now", NULL, "dddd:1", true});
  gl_baseline_apply(b, &fx.run);
  assert_int_equal(f->findings.data[0].baseline, GL_BASELINE_UNCHANGED);
  assert_true(f->findings.data[0].suppressed); /* keeps its suppression */
  assert_int_equal(f->findings.data[1].baseline, GL_BASELINE_NEW);
  assert_int_equal(gl_run_count_at_least(&fx.run, GL_LEVEL_NOTE), 0); /* suppressed: not counted */
  fixture_free(&fx);
  gl_baseline_free(b);
}

/* ---- output -------------------------------------------------------------------------------- */

static char *write_as(const gl_run *run, gl_format fmt) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  gl_report_opts opts = {.tool_version = "9.8.7"};
  assert_int_equal(gl_report_write(f, fmt, run, &opts), 0);
  fclose(f);
  return buf;
}

static const char *str_at(const cJSON *results, int i, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(results, i), key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void test_sarif_states_and_absent(void **state) {
  (void)state;
  /* GPU101 unchanged; GPU104 (disabled now) and GPU999 (unknown now) gone */
  old_result r[] = {{"GPU101", "a.py", 3, "aaaa:1"}, {"GPU104", "a.py", 9, "eeee:1"}, {"GPU999", "z.py", 2, "ffff:1"}};
  gl_baseline *b = parse_log(r, 3);
  fixture fx;
  fixture_init(&fx, "/src");
  gl_file_result *f = fixture_file(&fx, "/src/a.py");
  add(&fx, f, 0, 4, "aaaa:1");
  add(&fx, f, 1, 6, "bbbb:1");
  gl_baseline_apply(b, &fx.run);
  char *text = write_as(&fx.run, GL_FORMAT_SARIF);
  cJSON *root = cJSON_Parse(text);
  assert_non_null(root);
  cJSON *run = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "runs"), 0);
  cJSON *results = cJSON_GetObjectItemCaseSensitive(run, "results");
  assert_int_equal(cJSON_GetArraySize(results), 4);
  assert_string_equal(str_at(results, 0, "baselineState"), "unchanged");
  assert_string_equal(str_at(results, 1, "baselineState"), "new");
  assert_string_equal(str_at(results, 2, "baselineState"), "absent");
  assert_string_equal(str_at(results, 2, "ruleId"), "GPU104");
  assert_string_equal(str_at(results, 2, "level"), "warning");
  /* ruleIndex of an absent result points at its rule, listed although disabled */
  cJSON *rules = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(run, "tool"), "driver"), "rules");
  int idx = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(results, 2), "ruleIndex")->valueint;
  assert_string_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rules, idx), "id")->valuestring, "GPU104");
  assert_string_equal(str_at(results, 3, "ruleId"), "GPU999");
  assert_null(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(results, 3), "ruleIndex"));
  cJSON *loc = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(results, 3), "locations"), 0),
      "physicalLocation");
  cJSON *art = cJSON_GetObjectItemCaseSensitive(loc, "artifactLocation");
  assert_string_equal(cJSON_GetObjectItemCaseSensitive(art, "uri")->valuestring, "z.py");
  assert_string_equal(cJSON_GetObjectItemCaseSensitive(art, "uriBaseId")->valuestring, "%SRCROOT%");
  cJSON *reg = cJSON_GetObjectItemCaseSensitive(loc, "region");
  assert_int_equal(cJSON_GetObjectItemCaseSensitive(reg, "startLine")->valueint, 2);
  assert_int_equal(cJSON_GetObjectItemCaseSensitive(reg, "endColumn")->valueint, 9);
  assert_string_equal(cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(results, 3), "partialFingerprints"),
      "primaryLocationLineHash")->valuestring, "ffff:1");
  assert_int_equal(gl_report_sarif_dropped(&fx.run, NULL, NULL), 0);
  gl_report_opts small = {.max_results = 3};
  assert_int_equal(gl_report_sarif_dropped(&fx.run, &small, NULL), 1); /* absent ones count */
  cJSON_Delete(root);
  free(text);

  /* text formats: only the new one, and the summary says one was hidden */
  text = write_as(&fx.run, GL_FORMAT_CONCISE);
  assert_string_equal(text, "/src/a.py:6:5: GPU102 now\n"
                            "Found 1 finding (0 errors, 1 warning, 0 notes) in 1 file in 0.01s; "
                            "1 baseline finding hidden.\n");
  free(text);
  text = write_as(&fx.run, GL_FORMAT_GCC);
  assert_string_equal(text, "/src/a.py:6:5: warning: now [GPU102]\n");
  free(text);
  fixture_free(&fx);
  gl_baseline_free(b);
}

static void test_summary_when_all_hidden(void **state) {
  (void)state;
  gl_baseline *b = parse_log(NULL, 0);
  fixture fx;
  fixture_init(&fx, "/src");
  fixture_file(&fx, "/src/a.py");
  gl_baseline_apply(b, &fx.run);
  char *text = write_as(&fx.run, GL_FORMAT_CONCISE);
  assert_string_equal(text, "All checks passed! (1 file in 0.01s; 0 baseline findings hidden)\n");
  free(text);
  fixture_free(&fx);
  gl_baseline_free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reads_results),
      cmocka_unit_test(test_rejects_bad_logs),
      cmocka_unit_test(test_load_refuses_fifo_and_missing),
      cmocka_unit_test(test_moved_line_is_unchanged),
      cmocka_unit_test(test_edited_line_is_new_and_absent),
      cmocka_unit_test(test_multiset_counts),
      cmocka_unit_test(test_other_file_or_rule_is_new),
      cmocka_unit_test(test_without_hash_matches_by_line),
      cmocka_unit_test(test_suppressed_findings_match_too),
      cmocka_unit_test(test_sarif_states_and_absent),
      cmocka_unit_test(test_summary_when_all_hidden),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
