/* test_engine.c: the per-file pipeline through gl_engine_lint_buffer with the built-in rules:
 * suppression, frames and line hashes, the depth guard, syntax errors, the prefilter. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine_fixture.h"

static int setup(void **state) {
  static const char *const all[] = {"ALL"};
  return engine_setup(state, all, 1);
}

static void test_finding_has_frame_and_hash(void **state) {
  ctx *c = *state;
  gl_file_result r = lint_py(c, "x = 1\nimport cuspatial as cs\n");
  assert_int_equal(r.findings.len, 1);
  gl_finding *f = &r.findings.data[0];
  assert_string_equal(f->rule->id, "GPU102");
  assert_int_equal(f->region.start_line, 2);
  assert_int_equal(f->region.start_col, 8);
  assert_string_equal(f->snippet, "import cuspatial as cs");
  assert_non_null(f->line_hash);
  assert_non_null(strchr(f->line_hash, ':'));
  assert_false(f->suppressed);
  assert_true(r.linted);
  assert_int_equal(r.notes.len, 0);
  gl_file_result_free(&r);
}

static void test_noqa_and_skip_file(void **state) {
  ctx *c = *state;
  gl_file_result r = lint_py(c, "import cuspatial  # noqa: GPU102\nimport cuxfilter  # noqa: GPU102\n");
  assert_int_equal(r.findings.len, 3);
  assert_true(r.findings.data[0].suppressed);   /* names its id */
  assert_false(r.findings.data[1].suppressed);  /* names another id */
  /* ALL selects GPU001 (unused-noqa): line 2's GPU102 suppressed nothing */
  assert_string_equal(r.findings.data[2].rule->id, "GPU001");
  assert_int_equal(r.findings.data[2].region.start_line, 2);
  assert_string_equal(r.findings.data[2].message, "unused `noqa` directive (unused: `GPU102`)");
  gl_file_result_free(&r);
  r = lint_py(c, "import cuspatial\n# gpulint: skip-file\nimport cuxfilter\n");
  assert_int_equal(r.findings.len, 2);
  assert_true(r.findings.data[0].suppressed);
  assert_true(r.findings.data[1].suppressed);
  gl_file_result_free(&r);
}

static void test_syntax_error_is_a_note_not_a_skip(void **state) {
  ctx *c = *state;
  gl_file_result r = lint_py(c, "import cuspatial\ndef f(:\n    pass\n");
  assert_int_equal(r.findings.len, 1);
  assert_int_equal(r.notes.len, 1);
  assert_int_equal(r.notes.data[0].kind, GL_NOTE_SYNTAX_ERROR);
  assert_int_equal(r.notes.data[0].line, 2);
  assert_true(r.linted);
  gl_file_result_free(&r);
}

static void test_prefilter_skips_unparsed(void **state) {
  ctx *c = *state;
  /* a syntax error in a file naming no trigger word: not parsed, so no notification either */
  gl_file_result r = lint_py(c, "def f(:\n    pass\n");
  assert_int_equal(r.findings.len, 0);
  assert_int_equal(r.notes.len, 0);
  assert_true(r.linted);
  gl_file_result_free(&r);
  c->opts.prefilter = false;
  r = lint_py(c, "def f(:\n    pass\n");
  assert_int_equal(r.notes.len, 1);
  c->opts.prefilter = true;
  gl_file_result_free(&r);
}

static void test_depth_guard(void **state) {
  ctx *c = *state;
  size_t depth = 25000; /* over the engine's limit of 20,000 levels */
  size_t len = strlen("import cuspatial\nx = ") + 2 * depth + 3;
  char *text = malloc(len + 1);
  size_t n = (size_t)snprintf(text, len + 1, "import cuspatial\nx = ");
  for (size_t i = 0; i < depth; i++) text[n++] = '-';  /* unary minus nests one level each */
  text[n++] = '1';
  text[n++] = '\n';
  text[n] = '\0';
  gl_file_result r = {0};
  gl_engine_lint_buffer("deep.py", text, n, c->set, c->matcher, &c->opts, &r);
  assert_int_equal(r.notes.len, 1);
  assert_int_equal(r.notes.data[0].kind, GL_NOTE_SKIPPED);
  assert_non_null(strstr(r.notes.data[0].message, "levels deep"));
  assert_int_equal(r.findings.len, 0);
  assert_false(r.linted);
  gl_file_result_free(&r);
  free(text);
}

int main(void) {
  gl_parse_install_hooks();
  gl_xalloc_install_cjson_hooks();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_finding_has_frame_and_hash),
      cmocka_unit_test(test_noqa_and_skip_file),
      cmocka_unit_test(test_syntax_error_is_a_note_not_a_skip),
      cmocka_unit_test(test_prefilter_skips_unparsed),
      cmocka_unit_test(test_depth_guard),
  };
  return cmocka_run_group_tests(tests, setup, engine_teardown);
}
