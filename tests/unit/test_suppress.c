/* test_suppress.c: the noqa comment grammar (Ruff/flake8 compatible). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "suppress.h"

static int parse(const char *text, char codes[][16]) {
  return gl_suppress_parse_noqa(text, strlen(text), codes, 8);
}

static void test_bare_noqa(void **state) {
  char codes[8][16];
  assert_int_equal(parse("# noqa", codes), 0);
  assert_int_equal(parse("#noqa", codes), 0);
  assert_int_equal(parse("# NOQA", codes), 0);
  assert_int_equal(parse("# noqa because reasons", codes), 0);
  assert_int_equal(parse("# noqa: ", codes), 0); /* a colon with no code acts as bare (flake8) */
}

static void test_codes(void **state) {
  char codes[8][16];
  assert_int_equal(parse("# noqa: GPU101", codes), 1);
  assert_string_equal(codes[0], "GPU101");
  assert_int_equal(parse("# noqa:GPU101,GPU102", codes), 2);
  assert_string_equal(codes[1], "GPU102");
  assert_int_equal(parse("# noqa: GPU101 GPU203, E501 trailing words", codes), 3);
  assert_string_equal(codes[2], "E501");
  assert_int_equal(parse("# type: ignore  # noqa: GPU201", codes), 1);
  assert_string_equal(codes[0], "GPU201");
}

static void test_not_noqa(void **state) {
  char codes[8][16];
  assert_int_equal(parse("# a comment", codes), -1);
  assert_int_equal(parse("# noqa123", codes), -1);
  assert_int_equal(parse("# noqa_like", codes), -1);
  assert_int_equal(parse("# this is not noqa", codes), -1);
  assert_int_equal(parse("# expect: GPU101", codes), -1);
}

static void test_codes_stop_at_non_codes(void **state) {
  char codes[8][16];
  /* lower-case words are not codes: parsing stops at the first non-code */
  assert_int_equal(parse("# noqa: GPU101 gpu102", codes), 1);
  assert_int_equal(parse("# noqa: GPU", codes), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bare_noqa),
      cmocka_unit_test(test_codes),
      cmocka_unit_test(test_not_noqa),
      cmocka_unit_test(test_codes_stop_at_non_codes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
