/* test_shard.c: unit tests for src/shard.c: the shard of a URI (fixed expected numbers, so a
 * change of hash that would move files between CI runners fails here), and keeping one shard's
 * walked files and baseline results.
 * Not: the end-to-end union of shards (tests/cli/shard-*). Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ci/ci.h"
#include "base/xalloc.h"

static unsigned shard(const char *uri, unsigned n) { return gl_shard_of(uri, strlen(uri), n); }

/* Expected values computed apart from this code (FNV-1a 64 by hand in Python). */
static void test_fixed_shards(void **state) {
  (void)state;
  assert_int_equal(shard("src/app.py", 1), 1);
  assert_int_equal(shard("src/app.py", 2), 1);
  assert_int_equal(shard("src/app.py", 3), 2);
  assert_int_equal(shard("src/app.py", 7), 1);
  assert_int_equal(shard("src/app.py", 1024), 603);
  assert_int_equal(shard("examples/host_round_trips.py", 3), 3);
  assert_int_equal(shard("examples/host_round_trips.py", 7), 5);
  assert_int_equal(shard("examples/host_round_trips.py", 1024), 543);
  assert_int_equal(shard("a.py", 2), 2);
  assert_int_equal(shard("a.py", 1024), 450);
  assert_int_equal(shard("", 7), 3);
}

/* The length is honoured: a prefix is another key. */
static void test_length_counts(void **state) {
  (void)state;
  assert_int_equal(gl_shard_of("src/app.pyXYZ", 10, 1024), 603);
  assert_int_equal(gl_shard_of("a.pyz", 4, 1024), 450);
}

static void add_file(gl_walk_result *w, const char *path) {
  gl_walk_file f = {gl_xstrdup(path), false};
  gl_vec_push(&w->files, f);
}

/* Files are keyed by their URI relative to the srcroot, not by the path as displayed. */
static void test_filter_files(void **state) {
  (void)state;
  gl_walk_result w = {0};
  add_file(&w, "/repo/a.py");                          /* a.py: 2 of 2 */
  add_file(&w, "/repo/examples/host_round_trips.py");  /* 1 of 2 */
  add_file(&w, "/repo/src/app.py");                    /* 1 of 2 */
  gl_shard_filter_files(&w, "/repo", 1, 2);
  assert_int_equal(w.files.len, 2);
  assert_string_equal(w.files.data[0].path, "/repo/examples/host_round_trips.py");
  assert_string_equal(w.files.data[1].path, "/repo/src/app.py");
  gl_walk_result_free(&w);

  gl_walk_result v = {0};
  add_file(&v, "/repo/a.py");
  add_file(&v, "/repo/src/app.py");
  gl_shard_filter_files(&v, "/repo", 2, 2);
  assert_int_equal(v.files.len, 1);
  assert_string_equal(v.files.data[0].path, "/repo/a.py");
  gl_walk_result_free(&v);
}

static void add_result(gl_baseline *b, const char *uri) {
  gl_baseline_result r;
  memset(&r, 0, sizeof r);
  r.rule_id = gl_xstrdup("GPU201");
  r.uri = gl_xstrdup(uri);
  r.message = gl_xstrdup("m");
  r.level = gl_xstrdup("warning");
  gl_vec_push(&b->results, r);
}

static void test_filter_baseline(void **state) {
  (void)state;
  gl_baseline *b = gl_xcalloc(1, sizeof *b);
  b->path = gl_xstrdup("old.sarif");
  add_result(b, "src/app.py");  /* 2 of 3 */
  add_result(b, "a.py");        /* 2 of 3 */
  add_result(b, "examples/host_round_trips.py"); /* 3 of 3 */
  gl_shard_filter_baseline(b, 3, 3);
  assert_int_equal(b->results.len, 1);
  assert_string_equal(b->results.data[0].uri, "examples/host_round_trips.py");
  gl_shard_filter_baseline(b, 1, 3);
  assert_int_equal(b->results.len, 0);
  gl_shard_filter_baseline(NULL, 1, 3);
  gl_baseline_free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fixed_shards),
      cmocka_unit_test(test_length_counts),
      cmocka_unit_test(test_filter_files),
      cmocka_unit_test(test_filter_baseline),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
