/* test_prefilter.c: trigger words decide whether a file is parsed at all; the quick rejections of
 * the scanner (first byte, length) never hide a trigger. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "prefilter.h"

typedef struct fixture {
  gl_ruleset set;
  gl_pack pack, other;
  gl_rule rule, other_rule;
} fixture;

static char *legacy_words[] = {"cuspatial", "warp", "nvprof"};
static char *other_words[] = {"torch"};

static void make(fixture *f, bool other_enabled) {
  memset(f, 0, sizeof(*f));
  f->pack = (gl_pack){.name = "legacy", .triggers = legacy_words, .ntriggers = 3};
  f->other = (gl_pack){.name = "other", .triggers = other_words, .ntriggers = 1};
  f->rule = (gl_rule){.id = "GPU101", .pack = &f->pack, .enabled = true};
  f->other_rule = (gl_rule){.id = "GPU201", .pack = &f->other, .enabled = other_enabled};
  gl_vec_push(&f->set.packs, &f->pack);
  gl_vec_push(&f->set.packs, &f->other);
  gl_vec_push(&f->set.rules, &f->rule);
  gl_vec_push(&f->set.rules, &f->other_rule);
}

static void destroy(fixture *f) {
  gl_vec_free(&f->set.packs);
  gl_vec_free(&f->set.rules);
}

static bool wants(const gl_prefilter *pf, const char *s) { return gl_prefilter_wants(pf, s, strlen(s)); }

static void test_whole_words(void **state) {
  fixture f;
  make(&f, false);
  gl_prefilter *pf = gl_prefilter_new(&f.set);
  assert_true(wants(pf, "import cuspatial\n"));
  assert_true(wants(pf, "import warp as wp"));
  assert_true(wants(pf, "x=1\nsubprocess.run(['nvprof','a'])"));
  assert_true(wants(pf, "warp"));                         /* at both ends of the buffer */
  assert_false(wants(pf, "import cuspatial_utils\n"));     /* look-alike module */
  assert_false(wants(pf, "import mycuspatial\n"));
  assert_false(wants(pf, "warped = 1\n"));
  assert_false(wants(pf, ""));
  assert_false(wants(pf, "import torch\n"));               /* the other pack has no enabled rule */
  gl_prefilter_free(pf);
  destroy(&f);
}

static void test_enabled_packs_only(void **state) {
  fixture f;
  make(&f, true);
  gl_prefilter *pf = gl_prefilter_new(&f.set);
  assert_true(wants(pf, "import torch\n"));
  gl_prefilter_free(pf);
  destroy(&f);
}

static void test_no_triggers_means_no_filter(void **state) {
  gl_ruleset empty = {0};
  gl_prefilter *pf = gl_prefilter_new(&empty);
  assert_true(wants(pf, "print('hello')\n"));
  gl_prefilter_free(pf);
  gl_prefilter_free(NULL);
}

static void test_binary_bytes(void **state) {
  fixture f;
  make(&f, false);
  gl_prefilter *pf = gl_prefilter_new(&f.set);
  const char bytes[] = "\xff\xfe\x00warp\x00\x80";
  assert_true(gl_prefilter_wants(pf, bytes, sizeof(bytes) - 1));
  assert_false(gl_prefilter_wants(pf, bytes, 3));
  gl_prefilter_free(pf);
  destroy(&f);
}

/* The quick rejections (first byte, length) never hide a trigger: near misses on each side. */
static void test_first_byte_and_length_filters(void **state) {
  (void)state;
  fixture f;
  make(&f, true);
  gl_prefilter *pf = gl_prefilter_new(&f.set);
  assert_false(wants(pf, "wars = 1\n"));                  /* first byte and length of warp */
  assert_false(wants(pf, "torcH nvpro nvprofs\n"));       /* one off in case or length */
  assert_false(wants(pf, "xtorch = torc + orch\n"));
  assert_true(wants(pf, "a.b(c)[d] + torch\n"));          /* after many short rejected words */
  assert_true(wants(pf, "_ = 1;nvprof"));                  /* last word of the buffer */
  char big[200];
  memset(big, 'w', sizeof(big) - 1);                      /* 199-byte word starting with 'w' */
  big[sizeof(big) - 1] = '\0';
  assert_false(wants(pf, big));
  memcpy(big + 190, " warp ", 6);                       /* then "www" */
  assert_true(wants(pf, big));
  gl_prefilter_free(pf);
  destroy(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_first_byte_and_length_filters),
      cmocka_unit_test(test_whole_words),
      cmocka_unit_test(test_enabled_packs_only),
      cmocka_unit_test(test_no_triggers_means_no_filter),
      cmocka_unit_test(test_binary_bytes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
