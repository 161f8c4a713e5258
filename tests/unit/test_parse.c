/* test_parse.c: unit tests for parse.c (bounded parsing, coverage check, first syntax error).
 * Owns: the two runtime/grammar regressions named in grammars/CMakeLists.txt (65,540 comment lines
 *       then code; code after a 256-column indented line), the parse time limit and the reuse of
 *       a parser after a cancelled parse, the messages of gl_parse_source, gl_parse_first_error.
 * Not: what names mean (test_model.c).
 * Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "parse/parse.h"
#include "parse_fixture.h"

const TSLanguage *tree_sitter_python(void);

/* ---- helpers ------------------------------------------------------------------------------- */

static gl_source src_of(const char *s, size_t len) {
  gl_source src;
  gl_load_buffer(&src, "t.py", s, len);
  return src;
}

/* Parses s with a fresh parser without limits; asserts success. */
static TSTree *parse_ok(const char *s, size_t len) {
  gl_parser *p = gl_parse_new(0, 0);
  gl_source src = src_of(s, len);
  gl_diag err = {0};
  TSTree *t = gl_parse_source(p, &src, &err);
  if (!t) fail_msg("parse failed: %s", err.msg);
  gl_source_free(&src);
  gl_parse_free(p);
  return t;
}

#define PARSE_OK(lit) parse_ok((lit), sizeof(lit) - 1)

static double ms_since(const struct timespec *a) {
  struct timespec b;
  clock_gettime(CLOCK_MONOTONIC, &b);
  return (double)(b.tv_sec - a->tv_sec) * 1e3 + (double)(b.tv_nsec - a->tv_nsec) / 1e6;
}

static void assert_type(TSNode n, const char *type) {
  if (strcmp(ts_node_type(n), type) != 0) fail_msg("got %s, want %s", ts_node_type(n), type);
}

/* ---- language and parser ------------------------------------------------------------------- */

static void test_language_is_python(void **state) {
  const TSLanguage *lang = gl_parse_language();
  assert_ptr_equal(lang, tree_sitter_python());
  assert_int_not_equal(ts_language_symbol_for_name(lang, "import_from_statement", 21, true), 0);
  assert_int_not_equal(ts_language_field_id_for_name(lang, "module_name", 11), 0);
  assert_int_equal(ts_language_symbol_for_name(lang, "no_such_node", 12, true), 0);
}

static void test_max_depth_default_and_explicit(void **state) {
  gl_parser *p = gl_parse_new(0, 0);
  assert_int_equal(gl_parse_max_depth(p), GL_PARSE_DEFAULT_MAX_DEPTH);
  assert_int_equal(gl_parse_max_depth(p), 10000);
  gl_parse_free(p);
  p = gl_parse_new(0, 50);
  assert_int_equal(gl_parse_max_depth(p), 50);
  gl_parse_free(p);
  gl_parse_free(NULL);
}

static void test_simple_file(void **state) {
  TSTree *t = PARSE_OK("import cupy as cp\nx = cp.zeros(3)\n");
  TSNode root = ts_tree_root_node(t);
  assert_type(root, "module");
  assert_false(ts_node_has_error(root));
  assert_int_equal(ts_node_named_child_count(root), 2);
  assert_type(ts_node_named_child(root, 0), "import_statement");
  assert_type(ts_node_named_child(root, 1), "expression_statement");
  assert_int_equal(ts_node_start_point(ts_node_named_child(root, 1)).row, 1);
  assert_int_equal(ts_node_end_byte(root), 34);
  ts_tree_delete(t);
}

/* gl_parse_child answers as ts_node_child_by_field_name, whatever buffer names the field. */
static void test_child_by_field(void **state) {
  TSTree *t = PARSE_OK("a.b(c)\nd = e\n");
  TSNode call = ts_node_named_child(ts_node_named_child(ts_tree_root_node(t), 0), 0);
  TSNode asg = ts_node_named_child(ts_node_named_child(ts_tree_root_node(t), 1), 0);
  assert_type(call, "call");
  assert_type(gl_parse_child(call, "function", 8), "attribute");
  assert_type(gl_parse_child(call, "arguments", 9), "argument_list");
  assert_type(gl_parse_child(gl_parse_child(call, "function", 8), "attribute", 9), "identifier");
  assert_true(ts_node_is_null(gl_parse_child(call, "left", 4)));      /* a field call lacks */
  assert_true(ts_node_is_null(gl_parse_child(call, "no_such", 7)));   /* no such field */
  assert_true(
      ts_node_is_null(gl_parse_child(ts_node_child_by_field_name(call, "left", 4), "x", 1)));
  char name[16];
  memcpy(name, "left", 5);   /* one buffer naming two fields in turn */
  assert_true(
      ts_node_eq(gl_parse_child(asg, name, 4), ts_node_child_by_field_name(asg, "left", 4)));
  memcpy(name, "righ", 5);
  assert_true(ts_node_is_null(gl_parse_child(asg, name, 4)));
  memcpy(name, "right", 6);
  assert_true(
      ts_node_eq(gl_parse_child(asg, name, 5), ts_node_child_by_field_name(asg, "right", 5)));
  ts_tree_delete(t);
}

/* gl_parse_is answers strcmp(ts_node_type(n), name) == 0 for every node, named or anonymous,
 * aliased or not, and every type of GL_PARSE_TYPES. */
static void test_type_sets(void **state) {
  static const char code[] =
      "import a.b as c\nfrom d import (e as f, g)\n@deco\nclass K(B):\n    x: int = 1\n"
      "    def m(self, p=1, *, q: int = 2, **kw):\n        return lambda y: y + p\n"
      "async def h():\n    async with w() as v, u:\n        await v\n"
      "    try:\n        pass\n    except* E as e:\n        pass\n    except (A, B):\n        "
      "pass\n"
      "    else:\n        pass\n    finally:\n        pass\n"
      "match z:\n    case [1, *rest] if rest:\n        t = -z[0] ** 2 < 3 <= 4\n    case _:\n"
      "        t += (z.a)(1)\nprint >> sys.stderr, 'x'\nexec 'code'\nif a: b\nelif c: d\n"
      "lambda: 0\nx = [i for i in y if i]\n";
  const char *names[] = {
#define NAME(n) #n,
      GL_PARSE_TYPES(NAME)
#undef NAME
  };
  const gl_types *T = gl_parse_types();
  const gl_type_set *sets[] = {
#define SET(n) &T->n,
      GL_PARSE_TYPES(SET)
#undef SET
  };
  assert_true(ts_language_symbol_count(gl_parse_language()) <= 64 * GL_PARSE_SYMBOL_WORDS);
  TSTree *t = PARSE_OK(code);
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(t));
  size_t nodes = 0, hits = 0;
  for (bool more = true; more;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    nodes++;
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
      bool want = strcmp(ts_node_type(n), names[k]) == 0;
      if (gl_parse_is(n, sets[k]) != want)
        fail_msg("node '%s' at %u, type %s", ts_node_type(n), ts_node_start_byte(n), names[k]);
      hits += want;
    }
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c))
      if (!ts_tree_cursor_goto_parent(&c)) {
        more = false;
        break;
      }
  }
  ts_tree_cursor_delete(&c);
  if (nodes <= 250 || hits <= 60) fail_msg("%zu nodes, %zu hits", nodes, hits);
  assert_false(gl_parse_is((TSNode){0}, &T->call));
  assert_true(GL_IS(ts_tree_root_node(t), module));
  ts_tree_delete(t);
}

static void test_empty_and_blank_files(void **state) {
  TSTree *t = PARSE_OK("");
  assert_type(ts_tree_root_node(t), "module");
  assert_int_equal(ts_node_child_count(ts_tree_root_node(t)), 0);
  ts_tree_delete(t);
  t = PARSE_OK("\n\n   \n\t\n");
  assert_int_equal(ts_node_child_count(ts_tree_root_node(t)), 0);
  ts_tree_delete(t);
}

static void test_syntax_error_keeps_tree(void **state) {
  TSTree *t = PARSE_OK("x = 1\nf(a b)\ny = 2\n");
  TSNode root = ts_tree_root_node(t);
  assert_true(ts_node_has_error(root));
  assert_int_equal(ts_node_named_child_count(root), 3);
  assert_type(ts_node_named_child(root, 2), "expression_statement");
  ts_tree_delete(t);
}

/* ---- regressions: runtime 0.20.7 and grammar 0.23.6 ---------------------------------------- */

/* Runtime 0.20.7 stored child counts in 16 bits: 65,534 comment lines then code gave an EMPTY
 * module with no error. 65,540 comments + one import = 65,541 children. */
static void test_many_comment_lines_then_code(void **state) {
  size_t len;
  char *s = repeat_then("# c\n", 65540, "import cuspatial\n", &len);
  TSTree *t = parse_ok(s, len);
  TSNode root = ts_tree_root_node(t);
  assert_false(ts_node_has_error(root));
  assert_int_equal(ts_node_named_child_count(root), 65541);
  assert_int_equal(ts_node_end_byte(root), len);
  TSTreeCursor c = ts_tree_cursor_new(root);
  assert_true(ts_tree_cursor_goto_first_child(&c));
  assert_type(ts_tree_cursor_current_node(&c), "comment");
  ts_tree_cursor_reset(&c, root);
  assert_true(ts_tree_cursor_goto_last_child(&c));
  TSNode last = ts_tree_cursor_current_node(&c);
  assert_type(last, "import_statement");
  assert_int_equal(ts_node_start_point(last).row, 65540);
  assert_int_equal(ts_node_start_point(last).column, 0);
  assert_int_equal(ts_node_start_byte(last), 65540u * 4u);
  ts_tree_cursor_delete(&c);
  ts_tree_delete(t);
  free(s);
}

/* Grammar 0.23.6 kept the indent in one byte: a 256-column line read as column 0, so what
 * followed landed in the wrong block. `z = 1` must be a direct child of the module. */
static void check_indent_case(size_t indent) {
  char s[1024];
  size_t n = (size_t)snprintf(s, sizeof(s), "if a:\n    for i in x:\n");
  memset(s + n, ' ', indent);
  n += indent;
  n += (size_t)snprintf(s + n, sizeof(s) - n, "pass\n    y = 2\nz = 1\n");
  TSTree *t = parse_ok(s, n);
  TSNode root = ts_tree_root_node(t);
  assert_false(ts_node_has_error(root));
  assert_int_equal(ts_node_named_child_count(root), 2);
  TSNode if_stmt = ts_node_named_child(root, 0);
  assert_type(if_stmt, "if_statement");
  TSNode z = ts_node_named_child(root, 1);
  assert_type(z, "expression_statement");
  assert_int_equal(ts_node_start_point(z).row, 4);
  assert_int_equal(ts_node_start_point(z).column, 0);
  /* The if body holds the for loop and `y = 2`; the for body holds only `pass`. */
  TSNode if_body = ts_node_child_by_field_name(if_stmt, "consequence", 11);
  assert_int_equal(ts_node_named_child_count(if_body), 2);
  TSNode loop = ts_node_named_child(if_body, 0);
  assert_type(loop, "for_statement");
  TSNode loop_body = ts_node_child_by_field_name(loop, "body", 4);
  assert_int_equal(ts_node_named_child_count(loop_body), 1);
  assert_type(ts_node_named_child(loop_body, 0), "pass_statement");
  assert_int_equal(ts_node_start_point(ts_node_named_child(loop_body, 0)).column, indent);
  TSNode y = ts_node_named_child(if_body, 1);
  assert_type(y, "expression_statement");
  assert_int_equal(ts_node_start_point(y).column, 4);
  ts_tree_delete(t);
}

static void test_indent_of_256_columns(void **state) {
  check_indent_case(256);
  check_indent_case(260); /* 260 mod 256 = 4: would have matched `y = 2`'s column */
  check_indent_case(255);
}

static void test_for_body_at_256_then_module_statement(void **state) {
  char s[512];
  size_t n = (size_t)snprintf(s, sizeof(s), "for i in x:\n");
  memset(s + n, ' ', 256);
  n += 256;
  n += (size_t)snprintf(s + n, sizeof(s) - n, "pass\nz = 1\n");
  TSTree *t = parse_ok(s, n);
  TSNode root = ts_tree_root_node(t);
  assert_false(ts_node_has_error(root));
  assert_int_equal(ts_node_named_child_count(root), 2);
  assert_type(ts_node_named_child(root, 0), "for_statement");
  TSNode z = ts_node_named_child(root, 1);
  assert_type(z, "expression_statement");
  assert_int_equal(ts_node_start_point(z).row, 2);
  ts_tree_delete(t);
}

/* ---- time limit ---------------------------------------------------------------------------- */

static void test_time_limit_cancels_and_parser_is_reusable(void **state) {
  size_t len;
  char *s = slow_source(&len);
  gl_parser *p = gl_parse_new(50, 0);
  gl_source src = src_of(s, len);
  gl_diag err = {0};
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  TSTree *t = gl_parse_source(p, &src, &err);
  double took = ms_since(&start);
  assert_null(t);
  assert_string_equal(err.msg, "parse time limit of 50 ms exceeded");
  assert_string_equal(err.path, "t.py");
  /* it must stop well before the whole slow file is parsed; the margin covers a loaded CI
   * machine (two cores busy with other tests under ASan took 1021 ms once) */
  if (took > 2500.0) fail_msg("cancel took %.0f ms", took);
  gl_source_free(&src);

  /* The same parser, reset, parses the next file from scratch. */
  src = src_of("import cupy\nx = 1\n", 18);
  t = gl_parse_source(p, &src, &err);
  assert_non_null(t);
  TSNode root = ts_tree_root_node(t);
  assert_false(ts_node_has_error(root));
  assert_int_equal(ts_node_named_child_count(root), 2);
  assert_type(ts_node_named_child(root, 0), "import_statement");
  assert_int_equal(ts_node_end_byte(root), 18);
  ts_tree_delete(t);
  gl_source_free(&src);
  gl_parse_free(p);
  free(s);
}

static void test_time_limit_not_hit_by_small_file(void **state) {
  gl_parser *p = gl_parse_new(5000, 0);
  gl_source src = src_of("for i in x:\n    y = 1\n", 22);
  gl_diag err = {0};
  TSTree *t = gl_parse_source(p, &src, &err);
  assert_non_null(t);
  assert_string_equal(err.msg, "");
  assert_type(ts_node_named_child(ts_tree_root_node(t), 0), "for_statement");
  ts_tree_delete(t);
  gl_source_free(&src);
  gl_parse_free(p);
}

/* ---- coverage ------------------------------------------------------------------------------ */

static void test_covers_whole_file(void **state) {
  TSTree *t = PARSE_OK("x = 1\n# trailing\n");
  gl_source src = src_of("x = 1\n# trailing\n", 17);
  uint32_t covered = 0;
  assert_true(gl_parse_covers(t, &src, &covered));
  assert_int_equal(covered, 17);
  gl_source_free(&src);
  ts_tree_delete(t);
}

/* A tree of a prefix does not cover the whole source; trailing whitespace does not count. */
static void test_covers_rejects_short_tree(void **state) {
  TSTree *t = PARSE_OK("import a\n");
  gl_source src = src_of("import a\nimport b\n", 18);
  uint32_t covered = 0;
  assert_false(gl_parse_covers(t, &src, &covered));
  assert_int_equal(covered, 9);
  gl_source_free(&src);
  src = src_of("import a\n \t\n\r\n\f", 15);
  assert_true(gl_parse_covers(t, &src, &covered));
  assert_int_equal(covered, 9);
  gl_source_free(&src);
  src = src_of("import a\n  #", 12);
  assert_false(gl_parse_covers(t, &src, &covered));
  gl_source_free(&src);
  ts_tree_delete(t);
}

/* The loader reads a NUL as a space (load.h), so the statement after it is parsed, not lost in
 * an error node that stops at the NUL. */
static void test_nul_byte_still_covered(void **state) {
  (void)state;
  TSTree *t = parse_ok("x = 1\n\0y = 2\n", 13);
  TSNode root = ts_tree_root_node(t);
  assert_int_equal(ts_node_end_byte(root), 13);
  assert_false(ts_node_has_error(root));
  assert_int_equal(ts_node_named_child_count(root), 2);
  ts_tree_delete(t);
}

/* ---- first error --------------------------------------------------------------------------- */

static void test_first_error_missing_paren(void **state) {
  TSTree *t = PARSE_OK("def f(:\n");
  uint32_t byte = 99;
  const char *what = NULL;
  assert_true(gl_parse_first_error(t, &byte, &what));
  assert_int_equal(byte, 6);
  assert_string_equal(what, "missing ')'");
  ts_tree_delete(t);
}

static void test_first_error_unexpected_after_clean_code(void **state) {
  TSTree *t = PARSE_OK("x = 1\ny = [2, 3]\nf(a b)\nz = (\n");
  uint32_t byte = 0;
  const char *what = NULL;
  assert_true(gl_parse_first_error(t, &byte, &what));
  assert_int_equal(byte, 21); /* the `b` of `f(a b)` */
  assert_string_equal(what, "unexpected input");
  ts_tree_delete(t);
}

static void test_first_error_none(void **state) {
  TSTree *t = PARSE_OK("def f(a):\n    return a\n");
  uint32_t byte = 7;
  const char *what = "unchanged";
  assert_false(gl_parse_first_error(t, &byte, &what));
  assert_int_equal(byte, 7);
  assert_string_equal(what, "unchanged");
  ts_tree_delete(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_language_is_python),
      cmocka_unit_test(test_max_depth_default_and_explicit),
      cmocka_unit_test(test_simple_file),
      cmocka_unit_test(test_child_by_field),
      cmocka_unit_test(test_type_sets),
      cmocka_unit_test(test_empty_and_blank_files),
      cmocka_unit_test(test_syntax_error_keeps_tree),
      cmocka_unit_test(test_many_comment_lines_then_code),
      cmocka_unit_test(test_indent_of_256_columns),
      cmocka_unit_test(test_for_body_at_256_then_module_statement),
      cmocka_unit_test(test_time_limit_cancels_and_parser_is_reusable),
      cmocka_unit_test(test_time_limit_not_hit_by_small_file),
      cmocka_unit_test(test_covers_whole_file),
      cmocka_unit_test(test_covers_rejects_short_tree),
      cmocka_unit_test(test_nul_byte_still_covered),
      cmocka_unit_test(test_first_error_missing_paren),
      cmocka_unit_test(test_first_error_unexpected_after_clean_code),
      cmocka_unit_test(test_first_error_none),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
