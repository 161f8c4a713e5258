/* text_fixture.h: helpers for the unit tests of the loaders (test_rules.c, test_libmodel.c):
 * editing a known-good source text into a broken one, and printing collected errors.
 * Owns: nothing outside a test; every function is static (header-only). Include after <cmocka.h>.
 * Threads: single-threaded test code. */
#ifndef GL_TEST_TEXT_FIXTURE_H
#define GL_TEST_TEXT_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "diag.h"

/* A copy of s with the first occurrence of from replaced by to (which must exist); the caller
 * frees it. */
static char *edit(const char *s, const char *from, const char *to) {
  const char *at = strstr(s, from);
  assert_non_null(at);
  size_t a = (size_t)(at - s), n = strlen(s), f = strlen(from), t = strlen(to);
  char *out = malloc(n - f + t + 1);
  memcpy(out, s, a);
  memcpy(out + a, to, t);
  memcpy(out + a + t, at + f, n - a - f + 1);
  return out;
}

/* Prints every error of errs (shown when an assertion about them fails). */
static void print_errors(const gl_diag_list *errs) {
  for (size_t i = 0; i < errs->len; i++)
    print_message("error: %s:%u:%u: %s\n", errs->data[i].path, errs->data[i].line, errs->data[i].col,
                  errs->data[i].msg);
}

#endif
