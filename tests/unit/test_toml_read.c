/* test_toml_read.c: unit tests of the C interface over toml++ (src/toml_read.h): every value
 * kind, key positions (bare, quoted, dotted, table headers, inline tables), array item positions,
 * source order of table entries, strings holding "\u0000", and syntax errors with their exact
 * file:line:col and toml++'s message. Owns: nothing shared. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "config/toml_read.h"

static gl_toml_value *parse_ok(const char *text) {
  gl_diag err = {0};
  gl_toml_value *root = gl_toml_parse("t.toml", text, strlen(text), &err);
  if (!root) fail_msg("unexpected error: %s:%u:%u: %s", err.path, err.line, err.col, err.msg);
  return root;
}

static void test_scalars(void **state) {
  (void)state;
  gl_toml_value *root = parse_ok("s = \"a\\tb\"\nn = -42\nf = 2.5\nb = true\nd = 1979-05-27\n");
  assert_int_equal(root->kind, GL_TOML_TABLE);
  assert_int_equal(root->nitems, 5);
  const gl_toml_value *s = gl_toml_get(root, "s");
  assert_int_equal(s->kind, GL_TOML_STRING);
  assert_string_equal(s->str, "a\tb");
  assert_int_equal(s->len, 3);
  assert_int_equal(s->line, 1);
  assert_int_equal(s->col, 1);
  const gl_toml_value *n = gl_toml_get(root, "n");
  assert_int_equal(n->kind, GL_TOML_INTEGER);
  assert_int_equal(n->integer, -42);
  assert_int_equal(n->line, 2);
  assert_true(gl_toml_get(root, "f")->number == 2.5);
  assert_int_equal(gl_toml_get(root, "f")->kind, GL_TOML_FLOAT);
  assert_int_equal(gl_toml_get(root, "b")->kind, GL_TOML_BOOL);
  assert_true(gl_toml_get(root, "b")->boolean);
  assert_int_equal(gl_toml_get(root, "d")->kind, GL_TOML_DATETIME);
  assert_null(gl_toml_get(root, "S"));
  assert_null(gl_toml_get(s, "x"));
  assert_null(gl_toml_get(NULL, "s"));
  gl_toml_free(root);
}

static void test_positions_and_order(void **state) {
  (void)state;
  const char *text =
      "zeta = 1\n"
      "[tool.ruff]\n"
      "select = 3\n"
      "\n"
      "[tool.gpulint]\n"
      "  \"fail-on\" = \"note\"\n"
      "select = [\"GPU1\",\n"
      "          \"GPU201\"]\n"
      "severity = { GPU201 = \"error\" }\n"
      "per-file-ignores.\"tests/*\" = [\"GPU3\"]\n";
  gl_toml_value *root = parse_ok(text);
  assert_int_equal(root->nitems, 2);
  assert_string_equal(root->items[0].key, "zeta"); /* source order, not key order */
  assert_string_equal(root->items[1].key, "tool");
  const gl_toml_value *tool = gl_toml_get(root, "tool");
  assert_int_equal(tool->kind, GL_TOML_TABLE);
  assert_string_equal(tool->items[0].key, "ruff");
  const gl_toml_value *g = gl_toml_get(tool, "gpulint");
  assert_int_equal(g->line, 5);
  assert_int_equal(g->col, 7);
  assert_int_equal(g->nitems, 4);
  const gl_toml_value *fo = gl_toml_get(g, "fail-on");
  assert_int_equal(fo->line, 6);
  assert_int_equal(fo->col, 3);
  const gl_toml_value *sel = gl_toml_get(g, "select");
  assert_int_equal(sel->kind, GL_TOML_ARRAY);
  assert_int_equal(sel->nitems, 2);
  assert_null(sel->items[0].key);
  assert_string_equal(sel->items[1].str, "GPU201");
  assert_int_equal(sel->items[1].line, 8);
  assert_int_equal(sel->items[1].col, 11);
  const gl_toml_value *sev = gl_toml_get(g, "severity");
  assert_int_equal(sev->kind, GL_TOML_TABLE);
  assert_int_equal(gl_toml_get(sev, "GPU201")->line, 9);
  assert_int_equal(gl_toml_get(sev, "GPU201")->col, 14);
  const gl_toml_value *pfi = gl_toml_get(g, "per-file-ignores");
  assert_int_equal(pfi->line, 10);
  assert_int_equal(pfi->col, 1);
  const gl_toml_value *glob = gl_toml_get(pfi, "tests/*");
  assert_int_equal(glob->line, 10);
  assert_int_equal(glob->col, 18);
  assert_string_equal(glob->items[0].str, "GPU3");
  gl_toml_free(root);
}

static void test_nul_and_arrays_of_tables(void **state) {
  (void)state;
  gl_toml_value *root = parse_ok("s = \"a\\u0000b\"\n[[x]]\nk = 1\n[[x]]\nk = 2\n");
  const gl_toml_value *s = gl_toml_get(root, "s");
  assert_int_equal(s->len, 3);
  assert_memory_equal(s->str, "a\0b", 3);
  const gl_toml_value *x = gl_toml_get(root, "x");
  assert_int_equal(x->kind, GL_TOML_ARRAY);
  assert_int_equal(x->nitems, 2);
  assert_int_equal(x->items[1].kind, GL_TOML_TABLE);
  assert_int_equal(gl_toml_get(&x->items[1], "k")->integer, 2);
  gl_toml_free(root);
  gl_toml_free(NULL);
}

static void expect_error(const char *text, uint32_t line, uint32_t col, const char *msg) {
  gl_diag err = {0};
  gl_toml_value *root = gl_toml_parse("dir/pyproject.toml", text, strlen(text), &err);
  assert_null(root);
  assert_string_equal(err.path, "dir/pyproject.toml");
  assert_int_equal(err.line, line);
  assert_int_equal(err.col, col);
  assert_string_equal(err.msg, msg);
}

static void test_syntax_errors(void **state) {
  (void)state;
  expect_error("a = 1\nb = \n", 2, 5, "Error while parsing key-value pair: expected value, saw '\\n'");
  expect_error("a = 1\na = 2\n", 2, 5,
               "Error while parsing key-value pair: cannot redefine existing integer 'a'");
  expect_error("[t]\nx = [1, 2\n", 2, 11, "Error while parsing array: encountered end-of-file");
  expect_error("x = \"abc\n", 1, 9, "Error while parsing string: unescaped control characters "
               "other than TAB (U+0009) are explicitly prohibited");
  expect_error("[tool.gpulint]\nx = 1\n[tool.gpulint]\n", 3, 1,
               "Error while parsing table header: cannot redefine existing table 'tool.gpulint'");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scalars),
      cmocka_unit_test(test_positions_and_order),
      cmocka_unit_test(test_nul_and_arrays_of_tables),
      cmocka_unit_test(test_syntax_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
