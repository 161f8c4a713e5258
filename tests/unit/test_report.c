/* test_report.c: unit tests for the text formats of src/report/ (full, concise, gcc, github,
 * json) and the format names, written into memory streams and compared byte for byte.
 * Owns: exact output of a 2-finding run (plus a suppressed one that must not appear) in every
 *       text format, colour, the summary's wording and plurals, code frames with tabs, wide
 *       characters, escapes and long findings, GitHub escaping, terminal-escape neutralising.
 * Not: SARIF (test_sarif.c), locations and hashes (test_location.c).
 * Threads: single-threaded. */
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "report/report.h"
#include "report_fixture.h"

static char *render(const gl_run *run, gl_format fmt, bool color, bool quiet) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  gl_report_opts opts = {.color = color, .tool_version = "0.0.1", .quiet = quiet};
  assert_int_equal(gl_report_write(f, fmt, run, &opts), 0);
  fclose(f);
  return buf;
}

static void check_render(const gl_run *run, gl_format fmt, bool color, const char *want) {
  char *got = render(run, fmt, color, false);
  if (strcmp(got, want) != 0) fail_msg("format %d:\n--- got ---\n%s--- want ---\n%s", fmt, got, want);
  free(got);
}

/* Two findings in two files, and a suppressed one that no text format shows. */
static void two_findings(fixture *fx) {
  fixture_init(fx, "/repo");
  gl_file_result *a = fixture_file(fx, "src/a.py");
  fixture_add(fx, a, (fixture_finding){0, GL_LEVEL_ERROR, 3, 5, 3, 20, 5, 20,
                                       "`warp.sim` was removed in Warp 1.10", "    import warp.sim",
                                       "1a2b:1", false});
  fixture_add(fx, a, (fixture_finding){2, GL_LEVEL_NOTE, 9, 1, 9, 17, 1, 17, "cuxfilter is sunset",
                                       "import cuxfilter  # noqa", NULL, true});
  gl_file_result *b = fixture_file(fx, "src/b.py");
  fixture_add(fx, b, (fixture_finding){1, GL_LEVEL_WARNING, 7, 1, 8, 4, 1, 4,
                                       "cuSpatial is archived", "x = (\n  1)", "3c4d:1", false});
}

static void test_format_names(void **state) {
  (void)state;
  static const char *const names[] = {"full", "concise", "json", "sarif", "github", "gcc"};
  for (int i = 0; i < 6; i++) {
    assert_int_equal(gl_report_format_parse(names[i]), i);
    assert_string_equal(gl_report_format_name((gl_format)i), names[i]);
  }
  assert_int_equal(gl_report_format_parse("Full"), -1);
  assert_int_equal(gl_report_format_parse("text"), -1);
  assert_int_equal(gl_report_format_parse(""), -1);
  assert_int_equal(gl_report_format_parse(NULL), -1);
  assert_null(gl_report_format_name((gl_format)42));
}

static void test_full(void **state) {
  (void)state;
  fixture fx;
  two_findings(&fx);
  check_render(&fx.run, GL_FORMAT_FULL, false,
               "src/a.py:3:5: GPU101 `warp.sim` was removed in Warp 1.10\n"
               "  |\n"
               "3 |     import warp.sim\n"
               "  |     ^^^^^^^^^^^^^^^ GPU101\n"
               "  |\n"
               "\n"
               "src/b.py:7:1: GPU102 cuSpatial is archived\n"
               "  |\n"
               "7 | x = (\n"
               "  | ^^^^^ GPU102\n"
               "8 |   1)\n"
               "  |\n"
               "\n"
               "Found 2 findings (1 error, 1 warning, 0 notes) in 2 files in 0.01s.\n");
  fixture_free(&fx);
}

/* Related locations: one `= note:` line each under the frame, aligned with its gutter, code-point
 * columns; the concise format does not show them. */
static void test_full_related(void **state) {
  (void)state;
  fixture fx;
  fixture_init(&fx, "/repo");
  gl_file_result *a = fixture_file(&fx, "src/a.py");
  fixture_add(&fx, a, (fixture_finding){1, GL_LEVEL_WARNING, 12, 6, 12, 25, 6, 25,
                                        "timer read without synchronizing", "t1 = time.perf_counter()",
                                        NULL, false});
  fixture_relate(a, 3, 6, 25, "timer started here");
  fixture_relate(a, 7, 9, 14, "last GPU work, not synchronized");
  check_render(&fx.run, GL_FORMAT_FULL, false,
               "src/a.py:12:6: GPU102 timer read without synchronizing\n"
               "   |\n"
               "12 | t1 = time.perf_counter()\n"
               "   |      ^^^^^^^^^^^^^^^^^^^ GPU102\n"
               "   |\n"
               "   = note: timer started here at 3:6\n"
               "   = note: last GPU work, not synchronized at 7:9\n"
               "\n"
               "Found 1 finding (0 errors, 1 warning, 0 notes) in 1 file in 0.01s.\n");
  check_render(&fx.run, GL_FORMAT_CONCISE, false,
               "src/a.py:12:6: GPU102 timer read without synchronizing\n"
               "Found 1 finding (0 errors, 1 warning, 0 notes) in 1 file in 0.01s.\n");
  fixture_free(&fx);
}

static void test_concise(void **state) {
  (void)state;
  fixture fx;
  two_findings(&fx);
  check_render(&fx.run, GL_FORMAT_CONCISE, false,
               "src/a.py:3:5: GPU101 `warp.sim` was removed in Warp 1.10\n"
               "src/b.py:7:1: GPU102 cuSpatial is archived\n"
               "Found 2 findings (1 error, 1 warning, 0 notes) in 2 files in 0.01s.\n");
  char *quiet = render(&fx.run, GL_FORMAT_CONCISE, false, true);
  assert_string_equal(quiet, "src/a.py:3:5: GPU101 `warp.sim` was removed in Warp 1.10\n"
                             "src/b.py:7:1: GPU102 cuSpatial is archived\n");
  free(quiet);
  fixture_free(&fx);
}

static void test_gcc(void **state) {
  (void)state;
  fixture fx;
  two_findings(&fx);
  check_render(&fx.run, GL_FORMAT_GCC, false,
               "src/a.py:3:5: error: `warp.sim` was removed in Warp 1.10 [GPU101]\n"
               "src/b.py:7:1: warning: cuSpatial is archived [GPU102]\n");
  fixture_free(&fx);
}

static void test_github(void **state) {
  (void)state;
  fixture fx;
  two_findings(&fx);
  check_render(&fx.run, GL_FORMAT_GITHUB, false,
               "::error file=src/a.py,line=3,col=5,endLine=3,endColumn=20,title=GPU101::"
               "`warp.sim` was removed in Warp 1.10\n"
               "::warning file=src/b.py,line=7,col=1,endLine=8,endColumn=4,title=GPU102::"
               "cuSpatial is archived\n");
  fixture_free(&fx);
}

/* As actions/toolkit does: properties escape % CR LF : ,; data escapes % CR LF (a line break
 * stays one, as %0A); other control characters are made visible, never sent raw. */
static void test_github_escaping(void **state) {
  (void)state;
  fixture fx;
  fixture_init(&fx, "/repo");
  gl_file_result *f = fixture_file(&fx, "dir,x/a:b%c.py");
  fixture_add(&fx, f, (fixture_finding){2, GL_LEVEL_NOTE, 1, 2, 1, 3, 2, 3,
                                        "100% done: a,b\r\nnext \x1b[2J::x\rlast\n", "ab", NULL,
                                        false});
  gl_file_result *g = fixture_file(&fx, "new\nline\r.py");
  fixture_add(&fx, g, (fixture_finding){0, GL_LEVEL_ERROR, 2, 1, 2, 3, 1, 3, "m\tn", "ab", NULL,
                                        false});
  check_render(&fx.run, GL_FORMAT_GITHUB, false,
               "::notice file=dir%2Cx/a%3Ab%25c.py,line=1,col=2,endLine=1,endColumn=3,title=GPU103::"
               "100%25 done: a,b%0D%0Anext \\x1b[2J::x%0Dlast%0A\n"
               "::error file=new%0Aline%0D.py,line=2,col=1,endLine=2,endColumn=3,title=GPU101::"
               "m\tn\n");
  fixture_free(&fx);
}

static void test_json(void **state) {
  (void)state;
  fixture fx;
  two_findings(&fx);
  char *text = render(&fx.run, GL_FORMAT_JSON, true, false);
  assert_null(strchr(text, '\x1b'));
  assert_int_equal(text[strlen(text) - 1], '\n');
  cJSON *root = cJSON_Parse(text);
  assert_non_null(root);
  assert_int_equal(cJSON_GetArraySize(root), 2);
  cJSON *o = cJSON_GetArrayItem(root, 0);
  /* keys in this order */
  static const char *const keys[] = {"code", "name", "message", "severity", "filename",
                                     "location", "end_location", "fingerprint"};
  cJSON *k = o->child;
  for (int i = 0; i < 8; i++, k = k->next) {
    assert_non_null(k);
    assert_string_equal(k->string, keys[i]);
  }
  assert_null(k);
  assert_string_equal(cJSON_GetObjectItemCaseSensitive(o, "code")->valuestring, "GPU101");
  assert_string_equal(cJSON_GetObjectItemCaseSensitive(o, "name")->valuestring, "warp-sim-removed");
  assert_string_equal(cJSON_GetObjectItemCaseSensitive(o, "severity")->valuestring, "error");
  assert_string_equal(cJSON_GetObjectItemCaseSensitive(o, "filename")->valuestring, "src/a.py");
  assert_string_equal(cJSON_GetObjectItemCaseSensitive(o, "fingerprint")->valuestring, "1a2b:1");
  cJSON *loc = cJSON_GetObjectItemCaseSensitive(o, "location");
  assert_int_equal(cJSON_GetObjectItemCaseSensitive(loc, "row")->valueint, 3);
  assert_int_equal(cJSON_GetObjectItemCaseSensitive(loc, "column")->valueint, 5);
  cJSON *end = cJSON_GetObjectItemCaseSensitive(o, "end_location");
  assert_int_equal(cJSON_GetObjectItemCaseSensitive(end, "row")->valueint, 3);
  assert_int_equal(cJSON_GetObjectItemCaseSensitive(end, "column")->valueint, 20);
  cJSON *o2 = cJSON_GetArrayItem(root, 1);
  assert_string_equal(cJSON_GetObjectItemCaseSensitive(o2, "code")->valuestring, "GPU102");
  assert_string_equal(cJSON_GetObjectItemCaseSensitive(o2, "severity")->valuestring, "warning");
  assert_string_equal(cJSON_GetObjectItemCaseSensitive(o2, "filename")->valuestring, "src/b.py");
  assert_int_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o2, "end_location"), "row")->valueint, 8);
  cJSON_Delete(root);
  free(text);
  fixture_free(&fx);
}

/* Invalid UTF-8 in a path and a message becomes U+FFFD; a missing hash is null; nothing -> []. */
static void test_json_edge_cases(void **state) {
  (void)state;
  fixture fx;
  fixture_init(&fx, "/repo");
  gl_file_result *f = fixture_file(&fx, "bad\xff.py");
  fixture_add(&fx, f, (fixture_finding){1, GL_LEVEL_WARNING, 1, 1, 1, 2, 1, 2, "m\xc3", "x", NULL, false});
  char *text = render(&fx.run, GL_FORMAT_JSON, false, false);
  cJSON *root = cJSON_Parse(text);
  assert_non_null(root);
  cJSON *o = cJSON_GetArrayItem(root, 0);
  assert_string_equal(cJSON_GetObjectItemCaseSensitive(o, "filename")->valuestring, "bad\xef\xbf\xbd.py");
  assert_string_equal(cJSON_GetObjectItemCaseSensitive(o, "message")->valuestring, "m\xef\xbf\xbd");
  assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(o, "fingerprint")));
  cJSON_Delete(root);
  free(text);
  fixture_free(&fx);

  fixture_init(&fx, "/repo");
  fixture_file(&fx, "clean.py");
  text = render(&fx.run, GL_FORMAT_JSON, false, false);
  assert_string_equal(text, "[]\n");
  free(text);
  fixture_free(&fx);
}

static void test_colour(void **state) {
  (void)state;
  fixture fx;
  two_findings(&fx);
  check_render(&fx.run, GL_FORMAT_CONCISE, true,
               "\x1b[1msrc/a.py\x1b[0m:3:5: \x1b[1;31mGPU101\x1b[0m `warp.sim` was removed in Warp 1.10\n"
               "\x1b[1msrc/b.py\x1b[0m:7:1: \x1b[1;33mGPU102\x1b[0m cuSpatial is archived\n"
               "Found 2 findings (1 error, 1 warning, 0 notes) in 2 files in 0.01s.\n");
  check_render(&fx.run, GL_FORMAT_GCC, true,
               "\x1b[1msrc/a.py\x1b[0m:3:5: \x1b[1;31merror:\x1b[0m `warp.sim` was removed in Warp 1.10 [GPU101]\n"
               "\x1b[1msrc/b.py\x1b[0m:7:1: \x1b[1;33mwarning:\x1b[0m cuSpatial is archived [GPU102]\n");
  char *full = render(&fx.run, GL_FORMAT_FULL, true, false);
  assert_non_null(strstr(full, "\x1b[36m3 |\x1b[0m     import warp.sim\n"
                               "\x1b[36m  |\x1b[0m     \x1b[1;31m^^^^^^^^^^^^^^^ GPU101\x1b[0m\n"));
  free(full);
  fixture_free(&fx);
}

/* A file name and a message cannot drive the terminal, in any text format. */
static void test_terminal_escapes(void **state) {
  (void)state;
  fixture fx;
  fixture_init(&fx, "/repo");
  gl_file_result *f = fixture_file(&fx, "evil\x1b]0;pwned\a\xff.py");
  fixture_add(&fx, f, (fixture_finding){0, GL_LEVEL_ERROR, 1, 1, 1, 2, 1, 2, "msg \x1b[2J\x9b",
                                        "x\x1b[31m", NULL, false});
  check_render(&fx.run, GL_FORMAT_CONCISE, false,
               "evil\\x1b]0;pwned\\x07\xef\xbf\xbd.py:1:1: GPU101 msg \\x1b[2J\xef\xbf\xbd\n"
               "Found 1 finding (1 error, 0 warnings, 0 notes) in 1 file in 0.01s.\n");
  check_render(&fx.run, GL_FORMAT_FULL, false,
               "evil\\x1b]0;pwned\\x07\xef\xbf\xbd.py:1:1: GPU101 msg \\x1b[2J\xef\xbf\xbd\n"
               "  |\n"
               "1 | x\\x1b[31m\n"
               "  | ^ GPU101\n"
               "  |\n"
               "\n"
               "Found 1 finding (1 error, 0 warnings, 0 notes) in 1 file in 0.01s.\n");
  fixture_free(&fx);
}

/* Tabs expand to stops of 4, a CJK character is two columns wide, an escape is as wide as its
 * text, an invalid byte one column: the carets stay under the finding. */
static void test_frame_columns(void **state) {
  (void)state;
  fixture fx;
  fixture_init(&fx, "/repo");
  gl_file_result *f = fixture_file(&fx, "t.py");
  /* cp columns: \t=1 i=2 f=3 ' '=4 中=5 :=6 ' '=7 \xff=8 f=9 o=10 o=11 (=12 */
  fixture_add(&fx, f, (fixture_finding){0, GL_LEVEL_ERROR, 12, 9, 12, 12, 9, 12, "m",
                                        "\tif \xe4\xb8\xad: \xff" "foo(\x1b)", NULL, false});
  check_render(&fx.run, GL_FORMAT_FULL, false,
               "t.py:12:9: GPU101 m\n"
               "   |\n"
               "12 |     if \xe4\xb8\xad: \xef\xbf\xbd" "foo(\\x1b)\n"
               "   |             ^^^ GPU101\n"
               "   |\n"
               "\n"
               "Found 1 finding (1 error, 0 warnings, 0 notes) in 1 file in 0.01s.\n");
  fixture_free(&fx);
}

/* A point finding at the end of a line gets one caret; an empty line has no trailing space;
 * a CR before the line end is not shown; findings longer than 5 lines are cut with "...". */
static void test_frame_edges(void **state) {
  (void)state;
  fixture fx;
  fixture_init(&fx, "/repo");
  gl_file_result *f = fixture_file(&fx, "e.py");
  fixture_add(&fx, f, (fixture_finding){2, GL_LEVEL_NOTE, 1, 4, 1, 4, 4, 4, "point", "abc\r", NULL, false});
  fixture_add(&fx, f, (fixture_finding){1, GL_LEVEL_WARNING, 8, 3, 14, 2, 3, 2, "long",
                                        "a = [\n\n  1,\n  2,\n  3,\n  4,\n]", NULL, false});
  check_render(&fx.run, GL_FORMAT_FULL, false,
               "e.py:1:4: GPU103 point\n"
               "  |\n"
               "1 | abc\n"
               "  |    ^ GPU103\n"
               "  |\n"
               "\n"
               "e.py:8:3: GPU102 long\n"
               "   |\n"
               " 8 | a = [\n"
               "   |   ^^^ GPU102\n"
               " 9 |\n"
               "10 |   1,\n"
               "11 |   2,\n"
               "12 |   3,\n"
               "   | ...\n"
               "   |\n"
               "\n"
               "Found 2 findings (0 errors, 1 warning, 1 note) in 1 file in 0.01s.\n");
  fixture_free(&fx);
}

/* The engine cuts snippets at 5 lines: "..." follows when the region spans more lines than the
 * frame shows, not when it spans exactly as many. */
static void test_frame_elision_by_region(void **state) {
  (void)state;
  fixture fx;
  fixture_init(&fx, "/repo");
  gl_file_result *f = fixture_file(&fx, "r.py");
  fixture_add(&fx, f, (fixture_finding){1, GL_LEVEL_WARNING, 1, 1, 5, 2, 1, 2, "five",
                                        "a\nb\nc\nd\ne", NULL, false});
  fixture_add(&fx, f, (fixture_finding){1, GL_LEVEL_WARNING, 6, 1, 30, 2, 1, 2, "many",
                                        "f\ng\nh\ni\nj", NULL, false});
  char *got = render(&fx.run, GL_FORMAT_FULL, false, true);
  assert_string_equal(got,
                      "r.py:1:1: GPU102 five\n"
                      "  |\n"
                      "1 | a\n"
                      "  | ^ GPU102\n"
                      "2 | b\n"
                      "3 | c\n"
                      "4 | d\n"
                      "5 | e\n"
                      "  |\n"
                      "\n"
                      "r.py:6:1: GPU102 many\n"
                      "   |\n"
                      " 6 | f\n"
                      "   | ^ GPU102\n"
                      " 7 | g\n"
                      " 8 | h\n"
                      " 9 | i\n"
                      "10 | j\n"
                      "   | ...\n"
                      "   |\n"
                      "\n");
  free(got);
  fixture_free(&fx);
}

static void test_summary_variants(void **state) {
  (void)state;
  fixture fx;
  fixture_init(&fx, "/repo");
  fixture_file(&fx, "a.py");
  gl_file_result *b = fixture_file(&fx, "b.py");
  /* only a suppressed finding: nothing to show */
  fixture_add(&fx, b, (fixture_finding){0, GL_LEVEL_ERROR, 1, 1, 1, 2, 1, 2, "m", "x", NULL, true});
  fx.run.elapsed_s = 1.005;
  check_render(&fx.run, GL_FORMAT_FULL, false, "All checks passed! (2 files in 1.00s)\n");
  check_render(&fx.run, GL_FORMAT_CONCISE, false, "All checks passed! (2 files in 1.00s)\n");
  check_render(&fx.run, GL_FORMAT_GCC, false, "");
  check_render(&fx.run, GL_FORMAT_GITHUB, false, "");
  char *quiet = render(&fx.run, GL_FORMAT_FULL, false, true);
  assert_string_equal(quiet, "");
  free(quiet);
  fixture_free(&fx);

  fixture_init(&fx, "/repo");
  fixture_file(&fx, "a.py");
  fx.run.elapsed_s = NAN; /* never prints nan */
  check_render(&fx.run, GL_FORMAT_CONCISE, false, "All checks passed! (1 file in 0.00s)\n");
  fixture_free(&fx);

  fixture_init(&fx, "/repo");
  check_render(&fx.run, GL_FORMAT_CONCISE, false, "All checks passed! (0 files in 0.01s)\n");
  fixture_free(&fx);
}

/* A run with a file not linted, or linted only in part, never says "passed"; gcc, github and
 * json list those notifications as they list findings; a syntax error is not among them. */
static void test_incomplete_runs(void **state) {
  (void)state;
  fixture fx;
  fixture_init(&fx, "/repo");
  gl_file_result *a = fixture_file(&fx, "a.py");
  gl_file_result_note(a, GL_NOTE_PARTIAL, GL_LEVEL_WARNING, 0, 0, "query match limit exceeded");
  gl_file_result_note(a, GL_NOTE_SYNTAX_ERROR, GL_LEVEL_WARNING, 2, 1, "syntax error");
  fx.run.elapsed_s = 1.0;
  check_render(&fx.run, GL_FORMAT_CONCISE, false,
               "No findings, but 1 of 1 file was linted only in part (see the notifications) in 1.00s.\n");
  gl_file_result *b = fixture_file(&fx, "b.py");
  gl_file_result_note(b, GL_NOTE_SKIPPED, GL_LEVEL_ERROR, 3, 4, "not linted: bad");
  gl_file_result_note(b, GL_NOTE_PARTIAL, GL_LEVEL_WARNING, 0, 0, "cut"); /* counted as skipped */
  check_render(&fx.run, GL_FORMAT_FULL, false,
               "No findings, but 1 of 2 files could not be linted and 1 was linted only in part (see "
               "the notifications) in 1.00s.\n");
  check_render(&fx.run, GL_FORMAT_GCC, false,
               "a.py: warning: query match limit exceeded [partial-lint]\n"
               "b.py:3:4: error: not linted: bad [file-skipped]\n"
               "b.py: warning: cut [partial-lint]\n");
  check_render(&fx.run, GL_FORMAT_GITHUB, false,
               "::warning file=a.py,title=partial-lint::query match limit exceeded\n"
               "::error file=b.py,line=3,col=4,endLine=3,endColumn=4,title=file-skipped::not linted: bad\n"
               "::warning file=b.py,title=partial-lint::cut\n");
  char *json = render(&fx.run, GL_FORMAT_JSON, false, false);
  assert_non_null(strstr(json, "\"code\":\t\"file-skipped\""));
  assert_non_null(strstr(json, "\"code\":\t\"partial-lint\""));
  assert_null(strstr(json, "syntax error"));
  free(json);
  gl_file_result *c = fixture_file(&fx, "c.py");
  fixture_add(&fx, c, (fixture_finding){0, GL_LEVEL_ERROR, 1, 1, 1, 2, 1, 2, "m", "x", NULL, false});
  check_render(&fx.run, GL_FORMAT_CONCISE, false,
               "c.py:1:1: GPU101 m\n"
               "Found 1 finding (1 error, 0 warnings, 0 notes) in 3 files in 1.00s; 1 of 3 files could "
               "not be linted and 1 was linted only in part (see the notifications).\n");
  fixture_free(&fx);
}

/* A stream that cannot be written is GL_EIO. */
static void test_write_error(void **state) {
  (void)state;
  fixture fx;
  two_findings(&fx);
  FILE *f = fopen("/dev/full", "w");
  if (!f) skip();
  gl_report_opts opts = {.color = false, .tool_version = "0.0.1"};
  assert_int_equal(gl_report_write(f, GL_FORMAT_CONCISE, &fx.run, &opts), GL_EIO);
  fclose(f);
  fixture_free(&fx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_format_names),     cmocka_unit_test(test_full),
      cmocka_unit_test(test_full_related),     cmocka_unit_test(test_incomplete_runs),
      cmocka_unit_test(test_concise),          cmocka_unit_test(test_gcc),
      cmocka_unit_test(test_github),           cmocka_unit_test(test_github_escaping),
      cmocka_unit_test(test_json),             cmocka_unit_test(test_json_edge_cases),
      cmocka_unit_test(test_colour),           cmocka_unit_test(test_terminal_escapes),
      cmocka_unit_test(test_frame_columns),    cmocka_unit_test(test_frame_edges),
      cmocka_unit_test(test_frame_elision_by_region),
      cmocka_unit_test(test_summary_variants), cmocka_unit_test(test_write_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
