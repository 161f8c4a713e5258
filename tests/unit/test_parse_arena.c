/* test_parse_arena.c: unit tests for parse_arena.c and the arena parse of parse.c.
 * Owns: the fallback before the hooks are installed, trees parsed into the arena matching heap
 *       parses node for node, the chunk kept warm across files, a second tree on one thread
 *       going to the heap, a parse past the arena's bound spilling (ASan reports any leak), a
 *       cancelled parse leaving the arena free, and the hooks' block rules (growth in place,
 *       copy on growth, calloc zeroes reused bytes, heap pointers passed through).
 * Not: the parse itself (test_parse.c).
 * Threads: single-threaded; the hooks are installed once, by the first test that needs them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "parse/parse.h"
#include "parse/parse_arena.h"
#include "parse_fixture.h"

extern void *(*ts_current_malloc)(size_t);
extern void *(*ts_current_calloc)(size_t, size_t);
extern void *(*ts_current_realloc)(void *, size_t);
extern void (*ts_current_free)(void *);

static const char sample[] =
    "import cupy as cp\n"
    "def f(xs):\n"
    "    for x in xs:\n"
    "        y = cp.asarray(x).sum().item()\n"
    "        print(y, [z * 2 for z in range(3)], {'k': (1, 2.0)})\n"
    "class C:\n"
    "    @property\n"
    "    def g(self):\n"
    "        return lambda a, *b, **c: a if b else c\n";

/* The tree's s-expression (heap string the caller frees with free()). */
static char *sexp(TSTree *t) { return ts_node_string(ts_tree_root_node(t)); }

/* The s-expression of a heap parse of s, as the reference. */
static char *heap_sexp(const char *s, size_t len) {
  gl_parser *p = gl_parse_new(0, 0);
  gl_source src;
  gl_load_buffer(&src, "t.py", s, len);
  gl_diag err = {0};
  TSTree *t = gl_parse_source(p, &src, &err);
  assert_non_null(t);
  assert_false(gl_arena_owns(t));
  char *out = sexp(t);
  ts_tree_delete(t);
  gl_source_free(&src);
  gl_parse_free(p);
  return out;
}

static TSTree *scratch(gl_parser *p, const char *s, size_t len, gl_diag *err) {
  gl_source src;
  gl_load_buffer(&src, "t.py", s, len);
  TSTree *t = gl_parse_scratch(p, &src, err);
  gl_source_free(&src);
  return t;
}

/* Runs first: nothing is installed yet, so the arena path is the heap path. */
static void test_before_install_scratch_is_a_heap_parse(void **state) {
  assert_false(gl_arena_ready());
  assert_false(gl_arena_enter());
  gl_parser *p = gl_parse_new(0, 0);
  gl_diag err = {0};
  TSTree *t = scratch(p, sample, sizeof(sample) - 1, &err);
  assert_non_null(t);
  assert_false(gl_arena_owns(t));
  gl_parse_release(t);
  gl_parse_free(p);
  gl_arena_install();
  assert_true(gl_arena_ready());
}

static void test_arena_tree_matches_heap_tree_and_chunk_is_reused(void **state) {
  size_t len;
  char *s = repeat_then(sample, 40, "", &len);
  char *want = heap_sexp(s, len);
  gl_parser *p = gl_parse_new(0, 0);
  const void *first = NULL;
  for (int round = 0; round < 3; round++) {
    gl_diag err = {0};
    TSTree *t = scratch(p, s, len, &err);
    assert_non_null(t);
    assert_true(gl_arena_owns(t));
    assert_true(gl_arena_holds(t));
    assert_false(gl_arena_spilled());
    char *got = sexp(t);
    assert_string_equal(got, want);
    free(got);
    /* The same first block every time: the kept chunk is reused, not mapped again. */
    if (round == 0) first = t;
    else assert_ptr_equal(t, first);
    gl_parse_release(t);
    assert_false(gl_arena_owns(t) && gl_arena_spilled());
  }
  gl_parse_free(p);
  free(want);
  free(s);
}

static void test_second_tree_on_a_thread_goes_to_the_heap(void **state) {
  gl_parser *p = gl_parse_new(0, 0);
  gl_diag err = {0};
  TSTree *a = scratch(p, sample, sizeof(sample) - 1, &err);
  TSTree *b = scratch(p, "x = 1\n", 6, &err);
  assert_true(gl_arena_owns(a));
  assert_false(gl_arena_owns(b));
  assert_true(gl_arena_holds(a));
  assert_false(gl_arena_holds(b));
  assert_string_equal(ts_node_type(ts_node_named_child(ts_tree_root_node(b), 0)),
                      "expression_statement");
  gl_parse_release(b);
  gl_parse_release(a);
  /* Dropped: the next one is in the arena again. */
  TSTree *c = scratch(p, "y = 2\n", 6, &err);
  assert_true(gl_arena_owns(c));
  gl_parse_release(c);
  gl_parse_release(NULL);
  gl_parse_free(p);
}

/* A 2 MB bound (one chunk) and a file needing several times that: the rest comes from the heap,
 * the tree is still whole, and gl_parse_release frees the heap part (LeakSanitizer checks under
 * ASan). */
static void test_parse_past_the_bound_spills_to_the_heap(void **state) {
  size_t len;
  char *s = repeat_then(sample, 600, "", &len);
  char *want = heap_sexp(s, len);
  gl_arena_release_thread(); /* no chunks kept from the tests before */
  gl_arena_set_max_bytes((size_t)2 << 20);
  gl_parser *p = gl_parse_new(0, 0);
  gl_diag err = {0};
  TSTree *t = scratch(p, s, len, &err);
  assert_non_null(t);
  assert_true(gl_arena_spilled());
  assert_false(gl_arena_owns(t)); /* the tree itself is allocated last */
  assert_true(gl_arena_holds(t));
  char *got = sexp(t);
  assert_string_equal(got, want);
  free(got);
  gl_parse_release(t);
  assert_false(gl_arena_spilled());
  gl_arena_set_max_bytes(0);
  t = scratch(p, s, len, &err);
  assert_true(gl_arena_owns(t));
  assert_false(gl_arena_spilled());
  gl_parse_release(t);
  gl_parse_free(p);
  free(want);
  free(s);
}

/* A 50 ms limit cancels the parse of slow_source in the arena, which is then free for the next
 * file. */
static void test_cancelled_parse_leaves_the_arena_free(void **state) {
  size_t n;
  char *s = slow_source(&n);
  gl_parser *p = gl_parse_new(50, 0);
  gl_diag err = {0};
  assert_null(scratch(p, s, n, &err));
  assert_string_equal(err.msg, "parse time limit of 50 ms exceeded");
  TSTree *t = scratch(p, "import cupy\n", 12, &err);
  assert_non_null(t);
  assert_true(gl_arena_owns(t));
  gl_parse_release(t);
  gl_parse_free(p);
  free(s);
}

static void test_hooks_block_rules(void **state) {
  void *heap = ts_current_malloc(24); /* outside a parse: the heap */
  assert_false(gl_arena_owns(heap));
  assert_true(gl_arena_enter());
  assert_false(gl_arena_enter()); /* one tree at a time */
  char *a = ts_current_malloc(100);
  assert_true(gl_arena_owns(a));
  assert_int_equal((uintptr_t)a % 16, 0);
  memset(a, 'a', 100);
  /* The newest block grows where it is. */
  char *a2 = ts_current_realloc(a, 1000);
  assert_ptr_equal(a2, a);
  assert_int_equal(a2[99], 'a');
  char *b = ts_current_malloc(8);
  /* Not the newest any more: growth copies. */
  char *a3 = ts_current_realloc(a2, 5000);
  assert_ptr_not_equal(a3, a2);
  assert_true(gl_arena_owns(a3));
  assert_int_equal(a3[0], 'a');
  assert_int_equal(a3[99], 'a');
  /* A heap block grown during a parse stays on the heap. */
  heap = ts_current_realloc(heap, 4096);
  assert_false(gl_arena_owns(heap));
  /* Freeing the newest block gives its bytes back; calloc zeroes them. */
  memset(a3, 'x', 5000);
  ts_current_free(a3);
  unsigned char *z = ts_current_calloc(50, 100);
  assert_ptr_equal(z, a3);
  for (size_t i = 0; i < 5000; i++) assert_int_equal(z[i], 0);
  ts_current_free(b);
  ts_current_free(z);
  gl_arena_leave(NULL);
  assert_false(gl_arena_spilled());
  gl_arena_drop();
  assert_false(gl_arena_owns(z) && gl_arena_spilled());
  ts_current_free(heap);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_before_install_scratch_is_a_heap_parse),
      cmocka_unit_test(test_arena_tree_matches_heap_tree_and_chunk_is_reused),
      cmocka_unit_test(test_second_tree_on_a_thread_goes_to_the_heap),
      cmocka_unit_test(test_parse_past_the_bound_spills_to_the_heap),
      cmocka_unit_test(test_cancelled_parse_leaves_the_arena_free),
      cmocka_unit_test(test_hooks_block_rules),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  gl_arena_release_thread();
  return failed;
}
