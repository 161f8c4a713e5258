/* test_prefilter.c: trigger words decide whether a file is parsed at all; the quick rejections of
 * the scanner (first byte, length) never hide a trigger, and the block scanner answers as a plain
 * word-by-word reference on 30,000 random buffers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "prefilter/prefilter.h"

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

static bool wants(const gl_prefilter *pf, const char *s) {
  return gl_prefilter_wants(pf, s, strlen(s));
}

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

/* ---- against a plain reference on random buffers -------------------------------------------- */

static bool ref_word_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The definition, written the slow way: some maximal run of word bytes equals a trigger. */
static bool ref_wants(const char *b, size_t len, char *const *words, size_t nwords) {
  for (size_t i = 0; i < len;) {
    if (!ref_word_byte((unsigned char)b[i])) {
      i++;
      continue;
    }
    size_t j = i;
    while (j < len && ref_word_byte((unsigned char)b[j])) j++;
    for (size_t k = 0; k < nwords; k++)
      if (strlen(words[k]) == j - i && memcmp(words[k], b + i, j - i) == 0) return true;
    i = j;
  }
  return false;
}

static uint32_t next_random(uint32_t *x) {   /* xorshift32: the same buffers every run */
  *x ^= *x << 13;
  *x ^= *x >> 17;
  *x ^= *x << 5;
  return *x;
}

/* Buffers of 0-200 bytes (some of 2,000) of word bytes, separators, bytes over 0x7F and NULs,
 * with triggers and near misses dropped at random offsets, so words start, end and cross every
 * position of the scanner's 16-byte blocks. */
static void test_random_buffers_match_reference(void **state) {
  (void)state;
  fixture f;
  make(&f, false);
  gl_prefilter *pf = gl_prefilter_new(&f.set);
  static const char *const pieces[] = {"warp", "cuspatial", "nvprof", "xwarp", "warpx", "war",
                                       "WARP", "warp_", "_warp", "nvpro", "cuspatia", "w"};
  static const char alphabet[] = "abwpcnvx_Z09 \n\t.,()[]=\x80\xc3\xff";
  char buf[2100];
  uint32_t seed = 2463534242u;
  size_t hits = 0;
  for (int round = 0; round < 30000; round++) {
    size_t len = next_random(&seed) % (round % 50 == 0 ? 2000 : 200);
    for (size_t i = 0; i < len; i++)
      buf[i] = next_random(&seed) % 23 == 0 ? '\0'
                                            : alphabet[next_random(&seed) % (sizeof alphabet - 1)];
    for (int k = (int)(next_random(&seed) % 4); k > 0 && len > 0; k--) {
      const char *w = pieces[next_random(&seed) % (sizeof pieces / sizeof *pieces)];
      size_t at = next_random(&seed) % len, n = strlen(w);
      if (at + n <= len) memcpy(buf + at, w, n);
    }
    bool want = ref_wants(buf, len, legacy_words, 3);
    hits += want;
    if (gl_prefilter_wants(pf, buf, len) != want) fail_msg("round %d: %zu bytes", round, len);
  }
  if (hits < 1000 || hits > 27000) fail_msg("%zu of 30000 buffers hold a trigger", hits);
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
      cmocka_unit_test(test_random_buffers_match_reference),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
