/* test_bench_scan.c: unit tests for the tree helpers of the benchmarking checks (bench_scan.h).
 * Owns: the pre-order walk and its skip, ancestor chains by descent, text comparisons, callee,
 *       positional and keyword argument lookups, method calls, the def index and its ambiguity,
 *       and the body-synchronizes test; each with its near misses.
 * Not: the checks themselves (their fixtures in tests/rules/fixtures/timing).
 * Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "checks/bench_scan.h"
#include "model_fixture.h"

/* fx, fx_build(), done() and find() come from model_fixture.h; these tests build without models. */
static fx *build(const char *code) { return fx_build(code, strlen(code), NULL); }

static void test_walk_named_preorder_and_skip(void **state) {
  (void)state;
  fx *f = build("def f():\n    a = 1\nb = 2\n");
  gl_bscan s;
  gl_bscan_init(&s, ts_tree_root_node(f->tree));
  TSNode n;
  const char *seen[16];
  int k = 0;
  while (gl_bscan_next(&s, &n) && k < 16) {
    seen[k++] = ts_node_type(n);
    if (strcmp(ts_node_type(n), "function_definition") == 0) gl_bscan_skip(&s);
  }
  gl_bscan_free(&s);
  assert_int_equal(k, 6);
  assert_string_equal(seen[0], "module");
  assert_string_equal(seen[1], "function_definition");
  assert_string_equal(seen[2], "expression_statement");
  assert_string_equal(seen[3], "assignment");
  assert_string_equal(seen[4], "identifier");
  assert_string_equal(seen[5], "integer");
  done(f);
}

static void test_walk_of_subtree_stays_inside(void **state) {
  (void)state;
  fx *f = build("x = g(1)\ny = 2\n");
  TSNode call = find(f, "call", "g(1)", 0);
  gl_bscan s;
  gl_bscan_init(&s, call);
  TSNode n;
  int k = 0;
  while (gl_bscan_next(&s, &n)) k++;
  assert_false(gl_bscan_next(&s, &n));
  gl_bscan_free(&s);
  assert_int_equal(k, 4);   /* call, identifier, argument_list, integer */
  done(f);
}

static void test_chain_from_root(void **state) {
  (void)state;
  fx *f = build("def f():\n    if a:\n        g(x)\n");
  TSNode x = find(f, "identifier", "x", 0);
  gl_bnodes chain = {0};
  assert_true(gl_bscan_chain(f->tree, x, &chain));
  const char *want[] = {"module", "function_definition", "block", "if_statement", "block",
                        "expression_statement", "call", "argument_list", "identifier"};
  assert_int_equal(chain.len, 9);
  for (size_t i = 0; i < 9; i++) assert_string_equal(ts_node_type(chain.data[i]), want[i]);
  assert_true(ts_node_eq(chain.data[8], x));
  gl_vec_free(&chain);
  done(f);
}

static void test_chain_of_foreign_node_fails(void **state) {
  (void)state;
  fx *f = build("a = 1\n");
  fx *g = build("def h():\n    return 2\n");
  gl_bnodes chain = {0};
  assert_false(gl_bscan_chain(f->tree, find(g, "integer", "2", 0), &chain));
  gl_vec_free(&chain);
  done(f);
  done(g);
}

static void test_text_and_args(void **state) {
  (void)state;
  fx *f = build("import timeit as ti\nti.timeit(a.b, 3, stmt=c)\nh(*xs, 1)\nq.rec(a.b)\n");
  TSNode call = find(f, "call", "ti.timeit(a.b, 3, stmt=c)", 0);
  char q[64];
  assert_true(gl_bscan_callee(f->m, call, q, sizeof q));
  assert_string_equal(q, "timeit.timeit");
  assert_true(gl_bscan_text_is(&f->src, gl_bscan_arg(call, 0), "a.b"));
  assert_true(gl_bscan_text_is(&f->src, gl_bscan_arg(call, 1), "3"));
  assert_true(ts_node_is_null(gl_bscan_arg(call, 2)));
  assert_true(gl_bscan_text_is(&f->src, gl_bscan_kwarg(&f->src, call, "stmt"), "c"));
  assert_true(ts_node_is_null(gl_bscan_kwarg(&f->src, call, "number")));
  TSNode splat = find(f, "call", "h(*xs, 1)", 0);
  assert_true(ts_node_is_null(gl_bscan_arg(splat, 0)));   /* after a splat: unknowable */
  assert_false(gl_bscan_callee(f->m, splat, q, sizeof q));  /* h is not an import */
  TSNode rec = find(f, "call", "q.rec(a.b)", 0), recv;
  assert_true(gl_bscan_method(&f->src, rec, "rec", &recv));
  assert_true(gl_bscan_text_is(&f->src, recv, "q"));
  assert_false(gl_bscan_method(&f->src, rec, "record", &recv));
  assert_true(gl_bscan_same_text(&f->src, gl_bscan_arg(call, 0), gl_bscan_arg(rec, 0)));
  assert_false(gl_bscan_same_text(&f->src, gl_bscan_arg(call, 0), gl_bscan_arg(call, 1)));
  done(f);
}

static void test_defs_and_ambiguity(void **state) {
  (void)state;
  fx *f = build("def a():\n    pass\ndef b():\n    def a():\n        pass\n"
                "class C:\n    def m(self):\n        pass\nb()\na()\nm()\nz()\n");
  gl_bnodes defs = {0};
  gl_bscan_defs_in(f->m, f->tree, &defs);   /* through the index: the cursor walk's defs */
  assert_int_equal(defs.len, 4);
  gl_bnodes walked = {0};
  gl_bscan_defs_in(NULL, f->tree, &walked);
  assert_int_equal(walked.len, 4);
  for (size_t i = 0; i < 4; i++) assert_true(ts_node_eq(defs.data[i], walked.data[i]));
  gl_vec_free(&walked);
  TSNode d = gl_bscan_def_named(&f->src, &defs, find(f, "identifier", "b", 1));
  assert_false(ts_node_is_null(d));
  assert_int_equal(ts_node_start_point(d).row, 2);
  assert_true(ts_node_is_null(gl_bscan_def_named(&f->src, &defs, find(f, "identifier", "a", 2))));
  assert_true(ts_node_is_null(gl_bscan_def_named(&f->src, &defs, find(f, "identifier", "z", 0))));
  gl_vec_free(&defs);
  done(f);
}

static void test_scope_kinds(void **state) {
  (void)state;
  fx *f = build("f = lambda: 1\nclass C:\n    pass\n");
  assert_true(gl_bscan_is_scope(find(f, "lambda", "lambda: 1", 0)));
  assert_true(gl_bscan_is_scope(find(f, "class_definition", "class C:\n    pass", 0)));
  assert_false(gl_bscan_is_scope(find(f, "assignment", "f = lambda: 1", 0)));
  done(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_walk_named_preorder_and_skip),
      cmocka_unit_test(test_walk_of_subtree_stays_inside),
      cmocka_unit_test(test_chain_from_root),
      cmocka_unit_test(test_chain_of_foreign_node_fails),
      cmocka_unit_test(test_text_and_args),
      cmocka_unit_test(test_defs_and_ambiguity),
      cmocka_unit_test(test_scope_kinds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
