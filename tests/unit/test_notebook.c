/* test_notebook.c: unit tests for notebook.c and notebook_magic.c.
 * Owns: checks of the virtual source (code cells only, magics blanked with their columns kept),
 *       the cell map, virtual -> .ipynb positions through json escapes, CRLF json, and every
 *       malformed-notebook error with its exact message, line and UTF-16 column.
 * Not: linting notebooks end to end (tests/cli/notebook-*).
 * Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "notebook/notebook.h"

/* Line numbers of the json text matter: cell 2's second source line is on json line 5. */
static const char NB[] =
    "{\"nbformat\": 4, \"nbformat_minor\": 5, \"metadata\": {}, \"cells\": [\n"
    "{\"cell_type\": \"markdown\", \"metadata\": {}, \"source\": [\"# T\\u00e9st\\n\"]},\n"
    "{\"cell_type\": \"code\", \"metadata\": {}, \"outputs\": [], \"source\": [\n"
    " \"%%time\\n\",\n"
    " \"s = \\\"\\u00e9\\\\\\\\\\\" ; z = cp.asnumpy(x)\\n\",\n"
    " \"!pip install cupy\"]},\n"
    "{\"cell_type\": \"raw\", \"metadata\": {}, \"source\": \"raw\"},\n"
    "{\"cell_type\": \"code\", \"metadata\": {}, \"outputs\": [], \"source\": \"%timeit -n 3 "
    "f(x)\\nfor i in r:\\n    !ls\\nobj?\"}\n"
    "]}\n";

static const char CODE[] =
    "      \n"
    "s = \"\xc3\xa9\\\\\" ; z = cp.asnumpy(x)\n"
    "pass             \n"
    "pass;        f(x)\n"
    "for i in r:\n"
    "    0  \n"
    "pass\n";

static void read_ok(const char *text, size_t len, gl_source *raw, gl_notebook *nb) {
  gl_load_buffer(raw, "t.ipynb", text, len);
  gl_diag err = {0};
  int rc = gl_notebook_read(nb, raw, &err);
  if (rc != 0) fail_msg("unexpected error %u:%u: %s", err.line, err.col, err.msg);
}

static void test_virtual_source_and_cell_map(void **state) {
  (void)state;
  gl_source raw;
  gl_notebook nb;
  read_ok(NB, sizeof NB - 1, &raw, &nb);
  assert_int_equal(nb.len, sizeof CODE - 1);
  assert_string_equal(nb.code, CODE);
  assert_int_equal(nb.ncells, 4);
  assert_int_equal(nb.ncode, 2);
  assert_int_equal(nb.lines.len, 7);
  static const uint32_t cells[] = {2, 2, 2, 4, 4, 4, 4}, lines[] = {1, 2, 3, 1, 2, 3, 4};
  for (size_t i = 0; i < 7; i++) {
    assert_int_equal(nb.lines.data[i].cell, cells[i]);
    assert_int_equal(nb.lines.data[i].cell_line, lines[i]);
  }
  /* orig keeps the magics, same length */
  assert_memory_equal(nb.orig, "%%time\n", 7);
  assert_non_null(strstr(nb.orig, "%timeit -n 3 f(x)\nfor i in r:\n    !ls\nobj?\n"));
  gl_nb_line l = gl_notebook_cell_of(&nb, (uint32_t)(strstr(CODE, "f(x)") - CODE));
  assert_int_equal(l.cell, 4);
  assert_int_equal(l.cell_line, 1);
  gl_notebook_free(&nb);
  gl_source_free(&raw);
}

static void test_magic_records(void **state) {
  (void)state;
  gl_source raw;
  gl_notebook nb;
  read_ok(NB, sizeof NB - 1, &raw, &nb);
  assert_int_equal(nb.magics.len, 5);
  const gl_nb_magic *m = nb.magics.data;
  assert_int_equal(m[0].kind, GL_NB_CELL_MAGIC);
  assert_string_equal(m[0].name, "time");
  assert_int_equal(m[0].start, 0);
  assert_int_equal(m[0].end, 6);
  assert_int_equal(m[0].body_end, (uint32_t)(strstr(CODE, "pass;") - CODE));
  assert_int_equal(m[1].kind, GL_NB_SHELL);
  assert_string_equal(m[1].name, "pip");
  assert_string_equal(m[1].args, "install cupy");
  assert_string_equal(m[1].text, "!pip install cupy");
  assert_int_equal(m[2].kind, GL_NB_LINE_MAGIC);
  assert_string_equal(m[2].name, "timeit");
  assert_string_equal(m[2].args, "-n 3 f(x)");
  uint32_t l4 = (uint32_t)(strstr(CODE, "pass;") - CODE);
  assert_int_equal(m[2].start, l4);
  assert_int_equal(m[2].end, l4 + 12); /* "%timeit -n 3" */
  assert_int_equal(m[2].body_end, l4 + 17);
  assert_int_equal(m[3].kind, GL_NB_SHELL);
  assert_string_equal(m[3].name, "ls");
  assert_int_equal(m[3].cell, 4);
  assert_int_equal(m[4].kind, GL_NB_HELP);
  assert_string_equal(m[4].name, "obj");
  gl_notebook_free(&nb);
  gl_source_free(&raw);
}

static void assert_file_pos(const gl_notebook *nb, const gl_source *raw, uint32_t vbyte,
                            uint32_t line, uint32_t col) {
  gl_pos p = gl_notebook_file_pos(nb, raw, vbyte);
  if (p.line != line || p.col != col)
    fail_msg("virtual byte %u: got %u:%u, want %u:%u", vbyte, p.line, p.col, line, col);
}

static void test_positions_through_escapes(void **state) {
  (void)state;
  gl_source raw;
  gl_notebook nb;
  read_ok(NB, sizeof NB - 1, &raw, &nb);
  uint32_t cp = (uint32_t)(strstr(CODE, "cp.asnumpy") - CODE);
  assert_file_pos(&nb, &raw, cp, 5, 28);        /* after \" \u00e9 \\\\ \" */
  assert_file_pos(&nb, &raw, cp + 13, 5, 41);   /* exclusive end of cp.asnumpy(x) */
  uint32_t e = (uint32_t)(strstr(CODE, "\xc3\xa9") - CODE);
  assert_file_pos(&nb, &raw, e, 5, 9);          /* the \u00e9 escape starts at column 9 */
  assert_file_pos(&nb, &raw, e + 2, 5, 15);     /* the first \\ after it */
  assert_file_pos(&nb, &raw, 0, 4, 3);          /* %%time */
  uint32_t fx = (uint32_t)(strstr(CODE, "f(x)") - CODE);
  assert_file_pos(&nb, &raw, fx, 8, 78);
  uint32_t ls = (uint32_t)(strstr(CODE, "    0  ") - CODE) + 4;
  assert_file_pos(&nb, &raw, ls, 8, 101);
  gl_notebook_free(&nb);
  gl_source_free(&raw);
}

static void test_crlf_json(void **state) {
  (void)state;
  static const char crlf[] =
      "{\r\n \"cells\": [\r\n  {\r\n   \"cell_type\": \"code\",\r\n   \"source\": [\r\n"
      "    \"import cupy as cp\\r\\n\",\r\n    \"x = cp.ones(3)\"\r\n   ]\r\n  }\r\n ],\r\n"
      " \"nbformat\": 4\r\n}\r\n";
  gl_source raw;
  gl_notebook nb;
  read_ok(crlf, sizeof crlf - 1, &raw, &nb);
  assert_string_equal(nb.code, "import cupy as cp\r\nx = cp.ones(3)\n");
  assert_int_equal(nb.lines.len, 2);
  uint32_t x = (uint32_t)(strstr(nb.code, "x =") - nb.code);
  assert_file_pos(&nb, &raw, x, 7, 6);
  assert_file_pos(&nb, &raw, x + 4, 7, 10);
  gl_notebook_free(&nb);
  gl_source_free(&raw);
}

static void assert_error(const char *text, uint32_t line, uint32_t col, const char *msg) {
  gl_source raw;
  gl_load_buffer(&raw, "bad.ipynb", text, strlen(text));
  gl_notebook nb;
  gl_diag err = {0};
  assert_int_equal(gl_notebook_read(&nb, &raw, &err), GL_EINVAL);
  if (err.line != line || err.col != col || strcmp(err.msg, msg) != 0)
    fail_msg("got %u:%u '%s', want %u:%u '%s'", err.line, err.col, err.msg, line, col, msg);
  assert_string_equal(err.path, "bad.ipynb");
  assert_null(nb.code);
  gl_notebook_free(&nb);
  gl_source_free(&raw);
}

#define CELL(src) "{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"code\", \"source\": " src "}]}"

static void test_malformed(void **state) {
  (void)state;
  assert_error("{\"nbformat\": 4, \"cells\": [", 1, 27, "invalid json");
  assert_error("{\"nbformat\": 4,\n \"cells\": [], \"x\": NaN}", 2, 20,
               "invalid json: NaN and Infinity are not json numbers");
  assert_error("{\"nbformat\": 3, \"worksheets\": []}", 1, 14,
               "nbformat 3 is not supported: only nbformat 4");
  assert_error("{\"nbformat\": \"4\", \"cells\": []}", 1, 14,
               "'nbformat' must be a number (4), not a string");
  assert_error("{\"nbformat\": 4.5, \"cells\": []}", 1, 14,
               "nbformat 4.5 is not supported: only nbformat 4");
  assert_error("{\"cells\": []}", 1, 1, "missing 'nbformat': not a Jupyter notebook");
  assert_error("{\"nbformat\": 4}", 1, 1, "missing 'cells'");
  assert_error("{\"nbformat\": 4, \"cells\": {}}", 1, 26, "'cells' must be an array");
  assert_error("{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"code\"}]}", 1, 27,
               "cell 1: missing 'source'");
  assert_error(CELL("[\"a = 1\\n\", 2]"), 1, 71, "cell 1: line 2 of 'source' is not a string");
  assert_error(CELL("7"), 1, 59, "cell 1: 'source' must be a string or an array of strings");
  assert_error(CELL("\"a = 1\\u0000b\""), 1, 65, "a \\u0000 escape in a string (a NUL character)");
  assert_error("{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"code\", \"source\": \"a\",\n"
               "  \"metadata\": {\"k\": 1, \"k\": 2}}]}", 2, 24, "duplicate key 'k'");
  assert_error("{\"nbformat\": 4, \"cells\": [3]}", 1, 27, "cell 1 must be an object");
  assert_error("{\"nbformat\": 4, \"cells\": [{\"source\": \"\"}]}", 1, 27,
               "cell 1: missing 'cell_type'");
  assert_error("{\"nbformat\": 4, \"cells\": [], \"z\": \"\xc3\xa9\", \"z\": 1}", 1, 40,
               "duplicate key 'z'");
}

static void test_markdown_source_not_checked_and_empty_cells(void **state) {
  (void)state;
  static const char t[] =
      "{\"nbformat\": 4, \"cells\": [{\"cell_type\": \"markdown\", \"source\": 5},"
      " {\"cell_type\": \"code\", \"source\": []}, {\"cell_type\": \"code\", \"source\": \"x?\"}]}";
  gl_source raw;
  gl_notebook nb;
  read_ok(t, sizeof t - 1, &raw, &nb);
  assert_string_equal(nb.code, "0 \n");
  assert_int_equal(nb.lines.data[0].cell, 3);
  assert_int_equal(nb.ncode, 2);
  gl_notebook_free(&nb);
  gl_source_free(&raw);
}

/* %%writefile of a .py file keeps its body (a module the notebook writes and runs); of any
 * other file, or %%bash, the body is blanked. */
static void test_writefile_python_body(void **state) {
  (void)state;
  static const char t[] =
      "{\"nbformat\": 4, \"cells\": ["
      "{\"cell_type\": \"code\", \"source\": \"%%writefile -a train.py\\nx = 1\\n\"},"
      " {\"cell_type\": \"code\", \"source\": \"%%writefile notes.txt\\nx = 1\\n\"},"
      " {\"cell_type\": \"code\", \"source\": \"%%bash\\nls a.py\\n\"}]}";
  gl_source raw;
  gl_notebook nb;
  read_ok(t, sizeof t - 1, &raw, &nb);
  assert_string_equal(nb.code,
                      "                       \nx = 1\n                     \n     \n      \n       \n");
  assert_int_equal(nb.magics.len, 3);
  assert_string_equal(nb.magics.data[0].args, "-a train.py");
  gl_notebook_free(&nb);
  gl_source_free(&raw);
}

static void test_is_path(void **state) {
  (void)state;
  assert_true(gl_notebook_is_path("a/b.ipynb"));
  assert_false(gl_notebook_is_path("a/b.py"));
  assert_false(gl_notebook_is_path("ipynb"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_virtual_source_and_cell_map),
      cmocka_unit_test(test_magic_records),
      cmocka_unit_test(test_positions_through_escapes),
      cmocka_unit_test(test_crlf_json),
      cmocka_unit_test(test_malformed),
      cmocka_unit_test(test_markdown_source_not_checked_and_empty_cells),
      cmocka_unit_test(test_writefile_python_body),
      cmocka_unit_test(test_is_path),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
