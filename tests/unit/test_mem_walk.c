/* test_mem_walk.c: unit tests for the walk and node helpers of the memory checks (mem_walk.h).
 * Owns: the pre-order walk over named nodes and its skip, the ancestor stack with field names
 *       (including a walk rooted below the module), the field of the current node, callee,
 *       positional and keyword argument lookups, text comparisons, the scope test and the
 *       import scan; each with its near misses.
 * Not: the checks themselves (their fixtures in tests/rules/fixtures/memory-precision).
 * Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "checks/mem_walk.h"
#include "model_fixture.h"

/* fx, fx_build() and done() come from model_fixture.h; these tests build without models. */
static fx *build(const char *code) { return fx_build(code, strlen(code), NULL); }

/* Walks to the nth (0-based) named node of type whose text is text; fails when there is none.
 * The walk stays positioned there for gl_mwalk_up / gl_mwalk_field (free it after). */
static TSNode walk_to(const fx *f, gl_mwalk *w, const char *type, const char *text, int nth) {
  gl_mwalk_init(w, ts_tree_root_node(f->tree));
  TSNode n;
  while (gl_mwalk_next(w, &n)) {
    if (strcmp(ts_node_type(n), type) != 0 || !gl_mem_text_is(&f->src, n, text)) continue;
    if (nth-- == 0) return n;
  }
  fail_msg("no %s '%s'", type, text);
  return n;
}

static void test_walk_named_preorder_and_skip(void **state) {
  (void)state;
  fx *f = build("def f():\n    a = 1\nb = (2)\n");
  gl_mwalk w;
  gl_mwalk_init(&w, ts_tree_root_node(f->tree));
  TSNode n;
  const char *seen[16];
  int k = 0;
  while (gl_mwalk_next(&w, &n) && k < 16) {
    seen[k++] = ts_node_type(n);
    if (strcmp(ts_node_type(n), "function_definition") == 0) gl_mwalk_skip(&w);
  }
  gl_mwalk_free(&w);
  assert_int_equal(k, 7);
  assert_string_equal(seen[0], "module");
  assert_string_equal(seen[1], "function_definition");
  assert_string_equal(seen[2], "expression_statement");
  assert_string_equal(seen[3], "assignment");
  assert_string_equal(seen[4], "identifier");
  assert_string_equal(seen[5], "parenthesized_expression");
  assert_string_equal(seen[6], "integer");
  done(f);
}

static void test_up_and_fields(void **state) {
  (void)state;
  fx *f = build("for x in xs:\n    buf.fill(x)\n");
  gl_mwalk w;
  TSNode buf = walk_to(f, &w, "identifier", "buf", 0);
  assert_string_equal(gl_mwalk_field(&w), "object");
  const char *field = NULL;
  TSNode p = gl_mwalk_up(&w, 0, &field);
  assert_string_equal(ts_node_type(p), "attribute");
  assert_string_equal(field, "function");
  p = gl_mwalk_up(&w, 1, &field);
  assert_string_equal(ts_node_type(p), "call");
  assert_null(field);   /* an expression_statement's child has no field */
  p = gl_mwalk_up(&w, 3, &field);
  assert_string_equal(ts_node_type(p), "block");
  assert_string_equal(field, "body");
  p = gl_mwalk_up(&w, 4, NULL);
  assert_string_equal(ts_node_type(p), "for_statement");
  p = gl_mwalk_up(&w, 5, NULL);
  assert_string_equal(ts_node_type(p), "module");
  p = gl_mwalk_up(&w, 6, &field);
  assert_true(ts_node_is_null(p));
  assert_null(field);
  assert_int_equal(ts_node_start_byte(buf), 17);
  gl_mwalk_free(&w);
  done(f);
}

static void test_walk_rooted_below_module(void **state) {
  (void)state;
  fx *f = build("while go:\n    t = y\nz = 1\n");
  gl_mwalk w;
  walk_to(f, &w, "block", "t = y", 0);
  TSNode body = gl_vec_last(&w.stack)->node;
  gl_mwalk_free(&w);
  gl_mwalk_init(&w, body);
  TSNode n;
  int ids = 0;
  while (gl_mwalk_next(&w, &n)) {
    if (strcmp(ts_node_type(n), "identifier") != 0) continue;
    ids++;
    if (gl_mem_text_is(&f->src, n, "y")) {
      assert_string_equal(gl_mwalk_field(&w), "right");
      assert_string_equal(ts_node_type(gl_mwalk_up(&w, 1, NULL)), "expression_statement");
      assert_true(ts_node_eq(gl_mwalk_up(&w, 2, NULL), body));
      assert_true(ts_node_is_null(gl_mwalk_up(&w, 3, NULL)));   /* above the walk's root */
    }
  }
  gl_mwalk_free(&w);
  assert_int_equal(ids, 2);   /* t and y; z is outside the body */
  done(f);
}

static void test_call_helpers(void **state) {
  (void)state;
  fx *f = build("import cupy as cp\nx = cp.zeros(n, 4, dtype=cp.float32, *rest)\ny = g()\n");
  gl_mwalk w;
  TSNode call = walk_to(f, &w, "call", "cp.zeros(n, 4, dtype=cp.float32, *rest)", 0);
  gl_mwalk_free(&w);
  char q[64];
  assert_true(gl_mem_callee(f->m, call, q, sizeof q));
  assert_string_equal(q, "cupy.zeros");
  assert_true(gl_mem_text_is(&f->src, gl_mem_arg(call, 0), "n"));
  assert_true(gl_mem_text_is(&f->src, gl_mem_arg(call, 1), "4"));
  assert_true(ts_node_is_null(gl_mem_arg(call, 2)));   /* stops at the splat */
  assert_true(gl_mem_text_is(&f->src, gl_mem_kwarg(&f->src, call, "dtype"), "cp.float32"));
  assert_true(ts_node_is_null(gl_mem_kwarg(&f->src, call, "dtyp")));
  TSNode g = walk_to(f, &w, "call", "g()", 0);
  gl_mwalk_free(&w);
  assert_false(gl_mem_callee(f->m, g, q, sizeof q));   /* g is bound by nothing */
  assert_true(ts_node_is_null(gl_mem_arg(g, 0)));
  assert_false(gl_mem_callee(f->m, gl_mem_arg(call, 0), q, sizeof q));   /* not a call */
  done(f);
}

static void test_text_and_kinds(void **state) {
  (void)state;
  fx *f = build("a = True\nb = ab\nf = lambda: a\nclass C: pass\n");
  gl_mwalk w;
  TSNode t = walk_to(f, &w, "true", "True", 0);
  gl_mwalk_free(&w);
  assert_true(gl_mem_is_true(t));
  assert_true(gl_parse_type_is(t, "true"));
  assert_false(gl_parse_type_is((TSNode){0}, "true"));
  TSNode a = walk_to(f, &w, "identifier", "a", 0);
  gl_mwalk_free(&w);
  TSNode ab = walk_to(f, &w, "identifier", "ab", 0);
  gl_mwalk_free(&w);
  TSNode a2 = walk_to(f, &w, "identifier", "a", 1);
  gl_mwalk_free(&w);
  assert_false(gl_mem_same_text(&f->src, a, ab));
  assert_true(gl_mem_same_text(&f->src, a, a2));
  assert_false(gl_mem_text_is(&f->src, ab, "a"));
  assert_false(gl_mem_is_true(a));
  assert_true(gl_mem_is_scope(walk_to(f, &w, "lambda", "lambda: a", 0)));
  gl_mwalk_free(&w);
  assert_true(gl_mem_is_scope(walk_to(f, &w, "class_definition", "class C: pass", 0)));
  gl_mwalk_free(&w);
  assert_false(gl_mem_is_scope(a));
  done(f);
}

/* The index mode (gl_mwalk_init_in) returns what the cursor mode does: the same nodes, fields,
 * ancestors and skips, from the root and from a subtree. */
static void same_walk(const fx *f, TSNode root) {
  gl_mwalk a, b;
  gl_mwalk_init(&a, root);
  gl_mwalk_init_in(&b, f->m, root);
  assert_non_null(b.m);
  TSNode na, nb;
  for (int i = 0;; i++) {
    bool ha = gl_mwalk_next(&a, &na), hb = gl_mwalk_next(&b, &nb);
    assert_int_equal(ha, hb);
    if (!ha) break;
    assert_true(ts_node_eq(na, nb));
    const char *fa = gl_mwalk_field(&a), *fb = gl_mwalk_field(&b);
    assert_true(fa == fb || (fa && fb && strcmp(fa, fb) == 0));
    for (size_t k = 0; k < 4; k++) {
      const char *ua = NULL, *ub = NULL;
      TSNode pa = gl_mwalk_up(&a, k, &ua), pb = gl_mwalk_up(&b, k, &ub);
      assert_true(ts_node_eq(pa, pb));
      assert_true(ua == ub || (ua && ub && strcmp(ua, ub) == 0));
    }
    if (i % 7 == 3) {   /* skip some subtrees in both */
      gl_mwalk_skip(&a);
      gl_mwalk_skip(&b);
    }
  }
  gl_mwalk_free(&a);
  gl_mwalk_free(&b);
}

static void test_index_mode_matches_cursor(void **state) {
  (void)state;
  fx *f = build("import cupy as cp\n"
                "class C:\n    def m(self, x=1):\n        return [y for y in x if y]\n"
                "for i in range(3):\n    a = cp.zeros(3)\n    a[i] += f(i, k=2)\n"
                "with open(p) as fh:\n    d = {k: v for k, v in fh}\n");
  TSNode root = ts_tree_root_node(f->tree);
  same_walk(f, root);
  same_walk(f, ts_node_named_child(root, 2));   /* the for statement */
  done(f);
}

static bool imports(const char *code, const char *lib) {
  fx *f = build(code);
  const char *libs[1] = {lib};
  bool r = gl_mem_imports_any(f->m, libs, 1);
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
  assert_true(imports("class C:\n    @staticmethod\n    def g():\n        from rmm import mr\n", "rmm"));
  assert_true(imports("import os, cupy\n", "cupy"));
  assert_false(imports("import cupyx\n", "cupy"));            /* a whole segment only */
  assert_false(imports("from . import cupy\n", "cupy"));      /* relative */
  assert_false(imports("from .cupy import x\n", "cupy"));
  assert_false(imports("x = 'import cupy'\ncupy = 1\n", "cupy"));
  assert_false(imports("f(lambda: __import__('cupy'))\n", "cupy"));
  assert_false(imports("import numpy as cupy\n", "cupy"));    /* the module, not the alias */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_walk_named_preorder_and_skip),
      cmocka_unit_test(test_up_and_fields),
      cmocka_unit_test(test_walk_rooted_below_module),
      cmocka_unit_test(test_call_helpers),
      cmocka_unit_test(test_text_and_kinds),
      cmocka_unit_test(test_imports_any),
      cmocka_unit_test(test_index_mode_matches_cursor),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
