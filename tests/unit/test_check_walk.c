/* test_check_walk.c: unit tests for the flow checks' walk and node helpers (src/checks/walk.h,
 * src/checks/node.h), over models built from strings.
 * Owns: the pre-order walk, its skip and stop, a walk of a subtree, the ancestors and field names
 *       (including a walk rooted below the module), the enclosing scopes, the walk against an
 *       independent cursor walk, the body and defs walks, ancestor chains; callee, positional
 *       and keyword argument lookups, method calls, text comparisons and copies, the def of a
 *       name and its ambiguity, the import scan; each with its near misses.
 * Not: the checks themselves (their fixtures in tests/rules/fixtures/<pack>).
 * Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "checks/node.h"
#include "checks/walk.h"
#include "model_fixture.h"

/* fx, fx_build(), done() and find() come from model_fixture.h; these tests build without library
 * models (names only). */
static fx *build(const char *code) { return fx_build(code, strlen(code), NULL); }

/* Walks to the nth (0-based) named node of type whose text is text; fails when there is none.
 * The walk stays positioned there for gl_check__walk_up / _field / _scope (free it after). */
static TSNode walk_to(const fx *f, gl_check__walk *w, const char *type, const char *text, int nth) {
  gl_check__walk_init(w, f->m, ts_tree_root_node(f->tree));
  TSNode n;
  while (gl_check__walk_next(w, &n)) {
    if (strcmp(ts_node_type(n), type) != 0 || !gl_check__text_is(&f->src, n, text)) continue;
    if (nth-- == 0) return n;
  }
  fail_msg("no %s '%s'", type, text);
  return n;
}

static void test_walk_named_preorder_skip_and_stop(void **state) {
  (void)state;
  fx *f = build("def f():\n    a = 1\nb = (2)\nc = 3\n");
  gl_check__walk w;
  gl_check__walk_init(&w, f->m, ts_tree_root_node(f->tree));
  TSNode n;
  const char *seen[16];
  int k = 0;
  while (gl_check__walk_next(&w, &n) && k < 16) {
    seen[k++] = ts_node_type(n);
    if (strcmp(ts_node_type(n), "function_definition") == 0) gl_check__walk_skip(&w);
    if (strcmp(ts_node_type(n), "integer") == 0) gl_check__walk_stop(&w);
  }
  assert_false(gl_check__walk_next(&w, &n));   /* stopped stays stopped */
  gl_check__walk_free(&w);
  assert_int_equal(k, 7);
  const char *want[] = {"module", "function_definition", "expression_statement", "assignment",
                        "identifier", "parenthesized_expression", "integer"};
  for (int i = 0; i < 7; i++) assert_string_equal(seen[i], want[i]);
  done(f);
}

static void test_walk_of_subtree_stays_inside(void **state) {
  (void)state;
  fx *f = build("x = g(1)\ny = 2\n");
  gl_check__walk w;
  gl_check__walk_init(&w, f->m, find(f, "call", "g(1)", 0));
  TSNode n;
  int k = 0;
  while (gl_check__walk_next(&w, &n)) k++;
  assert_false(gl_check__walk_next(&w, &n));
  gl_check__walk_free(&w);
  assert_int_equal(k, 4);   /* call, identifier, argument_list, integer */
  done(f);
}

static void test_walk_of_unindexed_root_is_empty(void **state) {
  (void)state;
  fx *f = build("a = 1\n");
  fx *g = build("def h():\n    return 2\n");
  gl_check__walk w;
  TSNode n;
  gl_check__walk_init(&w, f->m, find(g, "integer", "2", 0));   /* another tree's node */
  assert_false(gl_check__walk_next(&w, &n));
  gl_check__walk_free(&w);
  gl_check__walk_init(&w, NULL, ts_tree_root_node(f->tree));   /* no model */
  assert_false(gl_check__walk_next(&w, &n));
  gl_check__walk_free(&w);
  gl_check__walk_init(&w, f->m, (TSNode){0});
  assert_false(gl_check__walk_next(&w, &n));
  gl_check__walk_free(&w);
  done(f);
  done(g);
}

static void test_up_fields_and_depth(void **state) {
  (void)state;
  fx *f = build("for x in xs:\n    buf.fill(x)\n");
  gl_check__walk w;
  TSNode buf = walk_to(f, &w, "identifier", "buf", 0);
  assert_int_equal(ts_node_start_byte(buf), 17);
  assert_string_equal(gl_check__walk_field(&w), "object");
  assert_int_equal(gl_check__walk_depth(&w), 6);
  const char *field = NULL;
  TSNode p = gl_check__walk_up(&w, 0, &field);
  assert_string_equal(ts_node_type(p), "attribute");
  assert_string_equal(field, "function");
  p = gl_check__walk_up(&w, 1, &field);
  assert_string_equal(ts_node_type(p), "call");
  assert_null(field);   /* an expression_statement's child has no field */
  p = gl_check__walk_up(&w, 3, &field);
  assert_string_equal(ts_node_type(p), "block");
  assert_string_equal(field, "body");
  assert_string_equal(ts_node_type(gl_check__walk_up(&w, 4, NULL)), "for_statement");
  assert_string_equal(ts_node_type(gl_check__walk_up(&w, 5, &field)), "module");
  assert_null(field);
  p = gl_check__walk_up(&w, 6, &field);
  assert_true(ts_node_is_null(p));
  assert_null(field);
  gl_check__walk_free(&w);
  done(f);
}

static void test_walk_rooted_below_module(void **state) {
  (void)state;
  fx *f = build("while go:\n    t = y\nz = 1\n");
  TSNode body = find(f, "block", "t = y", 0);
  gl_check__walk w;
  gl_check__walk_init(&w, f->m, body);
  TSNode n;
  int ids = 0;
  while (gl_check__walk_next(&w, &n)) {
    if (ts_node_eq(n, body)) {
      assert_null(gl_check__walk_field(&w));   /* the root's field is not the walk's */
      assert_int_equal(gl_check__walk_depth(&w), 0);
    }
    if (strcmp(ts_node_type(n), "identifier") != 0) continue;
    ids++;
    if (!gl_check__text_is(&f->src, n, "y")) continue;
    assert_string_equal(gl_check__walk_field(&w), "right");
    assert_string_equal(ts_node_type(gl_check__walk_up(&w, 1, NULL)), "expression_statement");
    const char *field = "x";
    assert_true(ts_node_eq(gl_check__walk_up(&w, 2, &field), body));
    assert_null(field);
    assert_true(ts_node_is_null(gl_check__walk_up(&w, 3, NULL)));   /* above the walk's root */
  }
  gl_check__walk_free(&w);
  assert_int_equal(ids, 2);   /* t and y; z is outside the body */
  done(f);
}

static void test_scopes(void **state) {
  (void)state;
  fx *f = build("class C:\n    def m(self):\n        g = lambda: q\n        return r\n"
                "s = 1\n");
  gl_check__walk w;
  walk_to(f, &w, "identifier", "q", 0);
  TSNode s = gl_check__walk_scope(&w, 0);
  assert_string_equal(ts_node_type(s), "lambda");
  gl_check__walk_free(&w);
  walk_to(f, &w, "identifier", "r", 0);
  assert_string_equal(ts_node_type(gl_check__walk_scope(&w, 0)), "function_definition");
  gl_check__walk_free(&w);
  TSNode m = walk_to(f, &w, "function_definition",
                     "def m(self):\n        g = lambda: q\n        return r", 0);
  assert_true(ts_node_is_null(gl_check__walk_scope(&w, 0)));   /* a class is no def */
  assert_string_equal(ts_node_type(gl_check__walk_scope(&w, GL_CHECK__SCOPE_CLASSES)),
                      "class_definition");
  assert_true(ts_node_eq(gl_check__walk_scope(&w, GL_CHECK__SCOPE_SELF), m));
  gl_check__walk_free(&w);
  walk_to(f, &w, "identifier", "s", 0);
  assert_true(ts_node_is_null(gl_check__walk_scope(&w, GL_CHECK__SCOPE_CLASSES)));
  gl_check__walk_free(&w);
  /* Every scope around q, innermost first: lambda, def (and class with the flag). */
  walk_to(f, &w, "identifier", "q", 0);
  gl_check__nodes chain = {0};
  gl_check__walk_scopes(&w, 0, &chain);
  assert_int_equal(chain.len, 2);
  assert_string_equal(ts_node_type(chain.data[0]), "lambda");
  assert_string_equal(ts_node_type(chain.data[1]), "function_definition");
  chain.len = 0;
  gl_check__walk_scopes(&w, GL_CHECK__SCOPE_CLASSES, &chain);
  assert_int_equal(chain.len, 3);
  assert_string_equal(ts_node_type(chain.data[2]), "class_definition");
  gl_check__walk_free(&w);
  walk_to(f, &w, "identifier", "s", 0);   /* module level: none */
  chain.len = 0;
  gl_check__walk_scopes(&w, GL_CHECK__SCOPE_CLASSES, &chain);
  assert_int_equal(chain.len, 0);
  gl_check__walk_free(&w);
  gl_vec_free(&chain);
  done(f);
}

/* The walk returns what an independent TSTreeCursor walk over the named nodes returns: the same
 * nodes in the same order, with the same field names, from the root and from a subtree. */
static void same_as_cursor(const fx *f, TSNode root) {
  gl_check__walk w;
  gl_check__walk_init(&w, f->m, root);
  TSTreeCursor c = ts_tree_cursor_new(root);
  TSNode n;
  size_t walked = 0, cursored = 0;
  for (uint32_t depth = 0;;) {
    TSNode k = ts_tree_cursor_current_node(&c);
    if (ts_node_is_named(k)) {
      cursored++;
      assert_true(gl_check__walk_next(&w, &n));
      walked++;
      assert_true(ts_node_eq(k, n));
      const char *fa = depth ? ts_tree_cursor_current_field_name(&c) : NULL;
      const char *fb = gl_check__walk_field(&w);
      assert_true(fa == fb || (fa && fb && strcmp(fa, fb) == 0));
    }
    if (ts_tree_cursor_goto_first_child(&c)) {
      depth++;
      continue;
    }
    while (depth > 0 && !ts_tree_cursor_goto_next_sibling(&c)) {
      ts_tree_cursor_goto_parent(&c);
      depth--;
    }
    if (depth == 0) break;
  }
  ts_tree_cursor_delete(&c);
  assert_false(gl_check__walk_next(&w, &n));
  gl_check__walk_free(&w);
  assert_int_equal(walked, cursored);
}

static void test_walk_matches_cursor(void **state) {
  (void)state;
  fx *f = build("import cupy as cp  # c\n"
                "class C:\n    def m(self, x=1):\n        return [y for y in x if y not in z]\n"
                "for i in range(3):\n    a = cp.zeros(3)\n    a[i] += f(i, k=2)\n"
                "with open(p) as fh:\n    d = {k: v for k, v in fh if k is not None}\n");
  TSNode root = ts_tree_root_node(f->tree);
  same_as_cursor(f, root);
  same_as_cursor(f, ts_node_named_child(root, 3));   /* the for statement */
  done(f);
}

typedef struct seen {
  const fx *f;
  int n;
  bool stop_at_b;
} seen;

static void count(TSNode n, gl_check__walk *w, void *data) {
  seen *s = data;
  s->n++;
  if (s->stop_at_b && gl_check__text_is(&s->f->src, n, "b")) gl_check__walk_stop(w);
}

static void test_each_and_body_each(void **state) {
  (void)state;
  fx *f = build("def f():\n    a = 1\n    def g():\n        b = 2\n    h = lambda: 3\n    b\n");
  seen s = {f, 0, false};
  gl_check__each(f->m, ts_tree_root_node(f->tree), count, &s);
  assert_int_equal(s.n, (int)gl_model_node_count(f->m));
  TSNode def = find(f, "function_definition", "def f():\n    a = 1\n    def g():\n        b = 2\n"
                    "    h = lambda: 3\n    b", 0);
  s.n = 0;
  assert_true(gl_check__body_each(f->m, def, count, &s));
  /* block; a = 1 (3 + 1); h = lambda (expression_statement, assignment, identifier); b (2):
   * the def g and the lambda are not entered */
  assert_int_equal(s.n, 1 + 4 + 3 + 2);
  s = (seen){f, 0, true};
  gl_check__body_each(f->m, def, count, &s);
  assert_int_equal(s.n, 1 + 4 + 3 + 1);   /* stopped at the statement `b`, before its name */
  assert_false(gl_check__body_each(f->m, find(f, "identifier", "a", 0), count, &s));
  done(f);
}

static void test_ancestors(void **state) {
  (void)state;
  fx *f = build("def f():\n    if a:\n        g(x)\n");
  fx *g = build("def h():\n    return 2\n");
  TSNode x = find(f, "identifier", "x", 0);
  gl_check__nodes chain = {0};
  assert_true(gl_check__ancestors(f->m, x, &chain));
  const char *want[] = {"module", "function_definition", "block", "if_statement", "block",
                        "expression_statement", "call", "argument_list", "identifier"};
  assert_int_equal(chain.len, 9);
  for (size_t i = 0; i < 9; i++) assert_string_equal(ts_node_type(chain.data[i]), want[i]);
  assert_true(ts_node_eq(chain.data[8], x));
  assert_false(gl_check__ancestors(f->m, find(g, "integer", "2", 0), &chain));
  assert_int_equal(chain.len, 0);
  gl_vec_free(&chain);
  done(f);
  done(g);
}

static void test_defs_and_ambiguity(void **state) {
  (void)state;
  fx *f = build("def a():\n    pass\ndef b():\n    def a():\n        pass\n"
                "class C:\n    def m(self):\n        pass\nb()\na()\nm()\nz()\n");
  gl_check__nodes defs = {0};
  gl_check__defs(f->m, f->tree, &defs);
  assert_int_equal(defs.len, 4);
  assert_int_equal(ts_node_start_point(defs.data[3]).row, 6);   /* m, in source order */
  TSNode d = gl_check__def_named(&f->src, &defs, find(f, "identifier", "b", 1));
  assert_false(ts_node_is_null(d));
  assert_int_equal(ts_node_start_point(d).row, 2);
  assert_true(ts_node_is_null(gl_check__def_named(&f->src, &defs, find(f, "identifier", "a", 2))));
  assert_true(ts_node_is_null(gl_check__def_named(&f->src, &defs, find(f, "identifier", "z", 0))));
  gl_vec_free(&defs);
  done(f);
}

static void test_call_helpers(void **state) {
  (void)state;
  fx *f = build("import timeit as ti\nti.timeit(a.b, 3, stmt=c, *rest)\nh(*xs, 1)\nq.rec(a.b)\n"
                "k(x for x in y)\n");
  TSNode call = find(f, "call", "ti.timeit(a.b, 3, stmt=c, *rest)", 0);
  char q[64];
  assert_true(gl_check__callee(f->m, call, q, sizeof q));
  assert_string_equal(q, "timeit.timeit");
  const char *names[] = {"time.time", "timeit.timeit"};
  assert_true(gl_check__callee_in(f->m, call, names, 2));
  assert_false(gl_check__callee_in(f->m, call, names, 1));
  assert_true(gl_check__text_is(&f->src, gl_check__arg(call, 0), "a.b"));
  assert_true(gl_check__text_is(&f->src, gl_check__arg(call, 1), "3"));
  assert_true(ts_node_is_null(gl_check__arg(call, 2)));   /* a keyword, then a splat */
  assert_true(gl_check__text_is(&f->src, gl_check__kwarg(&f->src, call, "stmt"), "c"));
  assert_true(ts_node_is_null(gl_check__kwarg(&f->src, call, "stm")));
  TSNode splat = find(f, "call", "h(*xs, 1)", 0);
  assert_true(ts_node_is_null(gl_check__arg(splat, 0)));   /* after a splat: unknowable */
  assert_false(gl_check__callee(f->m, splat, q, sizeof q));   /* h is not an import */
  assert_false(gl_check__callee(f->m, gl_check__arg(call, 0), q, sizeof q));   /* not a call */
  assert_true(ts_node_is_null(gl_check__arg(find(f, "call", "k(x for x in y)", 0), 0)));
  TSNode rec = find(f, "call", "q.rec(a.b)", 0), recv;
  assert_true(gl_check__method(&f->src, rec, "rec", &recv));
  assert_true(gl_check__text_is(&f->src, recv, "q"));
  assert_false(gl_check__method(&f->src, rec, "record", &recv));
  assert_false(gl_check__method(&f->src, splat, "h", &recv));   /* not a method call */
  char meth[8];
  assert_true(gl_check__method_name(&f->src, rec, meth, sizeof meth, &recv));
  assert_string_equal(meth, "rec");
  assert_false(gl_check__method_name(&f->src, rec, meth, 3, &recv));   /* does not fit */
  assert_false(gl_check__method_name(&f->src, splat, meth, sizeof meth, &recv));
  assert_true(gl_check__same_text(&f->src, gl_check__arg(call, 0), gl_check__arg(rec, 0)));
  assert_false(gl_check__same_text(&f->src, gl_check__arg(call, 0), gl_check__arg(call, 1)));
  done(f);
}

static void test_text_copy(void **state) {
  (void)state;
  fx *f = build("x = f(a,\n      b)\ny = long_function_name(1)\n");
  char buf[16];
  gl_check__text(&f->src, find(f, "call", "f(a,\n      b)", 0), buf, sizeof buf);
  assert_string_equal(buf, "f(a,...");   /* first line only */
  gl_check__text(&f->src, find(f, "call", "long_function_name(1)", 0), buf, sizeof buf);
  assert_string_equal(buf, "long_functio...");   /* cap - 4 bytes and the mark */
  gl_check__text(&f->src, find(f, "identifier", "y", 0), buf, sizeof buf);
  assert_string_equal(buf, "y");
  gl_check__text(&f->src, find(f, "identifier", "y", 0), buf, 4);
  assert_string_equal(buf, "");   /* no room for the mark */
  done(f);
}

static bool imports(const char *code, const char *lib) {
  fx *f = build(code);
  const char *libs[2] = {"nothing_here", lib};
  bool r = gl_check__imports_any(f->m, libs, 2);
  done(f);
  return r;
}

static void test_imports_any(void **state) {
  (void)state;
  assert_true(imports("import cupy as cp\n", "cupy"));
  assert_true(imports("import cupy.cuda\n", "cupy"));
  assert_true(imports("from numba import cuda\n", "numba"));
  assert_true(imports("def f():\n    if x:\n        import torch\n", "torch"));
  assert_true(imports("try:\n    import warp as wp\nexcept ImportError:\n    wp = None\n", "warp"));
  assert_true(imports("import os, cupy\n", "cupy"));
  assert_false(imports("import cupyx\n", "cupy"));            /* a whole segment only */
  assert_false(imports("from . import cupy\n", "cupy"));      /* relative */
  assert_false(imports("x = 'import cupy'\ncupy = 1\n", "cupy"));
  assert_false(imports("import numpy as cupy\n", "cupy"));    /* the module, not the alias */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_walk_named_preorder_skip_and_stop),
      cmocka_unit_test(test_walk_of_subtree_stays_inside),
      cmocka_unit_test(test_walk_of_unindexed_root_is_empty),
      cmocka_unit_test(test_up_fields_and_depth),
      cmocka_unit_test(test_walk_rooted_below_module),
      cmocka_unit_test(test_scopes),
      cmocka_unit_test(test_walk_matches_cursor),
      cmocka_unit_test(test_each_and_body_each),
      cmocka_unit_test(test_ancestors),
      cmocka_unit_test(test_defs_and_ambiguity),
      cmocka_unit_test(test_call_helpers),
      cmocka_unit_test(test_text_copy),
      cmocka_unit_test(test_imports_any),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
