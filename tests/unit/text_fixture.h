/* text_fixture.h: helpers for the unit tests of the loaders (test_rules.c, test_libmodel.c,
 * test_rulebind.c, test_evidence.c, test_calibrate.c): editing a known-good source text into a
 * broken one, printing collected errors, asserting one error's path:line:column and message, and
 * routing cJSON's allocations through cmocka's test allocator.
 * Owns: nothing outside a test; every function is static inline (header-only, a test may use any
 * subset). Include after <cmocka.h>. Threads: single-threaded test code. */
#ifndef GL_TEST_TEXT_FIXTURE_H
#define GL_TEST_TEXT_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/diag.h"

/* A copy of s with the first occurrence of from replaced by to (which must exist); the caller
 * frees it. */
static inline char *edit(const char *s, const char *from, const char *to) {
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
static inline void print_errors(const gl_diag_list *errs) {
  for (size_t i = 0; i < errs->len; i++)
    print_message("error: %s:%u:%u: %s\n", errs->data[i].path, errs->data[i].line, errs->data[i].col,
                  errs->data[i].msg);
}

/* Asserts that d is path:line:col with msg; prints d first when it is not. */
static inline void assert_diag(const gl_diag *d, const char *path, uint32_t line, uint32_t col,
                               const char *msg) {
  if (strcmp(d->path, path) != 0 || d->line != line || d->col != col || strcmp(d->msg, msg) != 0)
    print_message("got %s:%u:%u: %s\n", d->path, d->line, d->col, d->msg);
  assert_string_equal(d->path, path);
  assert_string_equal(d->msg, msg);
  assert_int_equal(d->line, line);
  assert_int_equal(d->col, col);
}

/* Asserts that errs holds exactly one error, path:line:col with msg; prints them all when not. */
static inline void assert_one_diag(const gl_diag_list *errs, const char *path, uint32_t line, uint32_t col,
                                   const char *msg) {
  if (errs->len != 1) print_errors(errs);
  assert_int_equal(errs->len, 1);
  assert_diag(&errs->data[0], path, line, col, msg);
}

/* cJSON's allocations go through cmocka's test allocator, so a tree left undeleted fails the
 * test. */
static inline void *test_json_malloc(size_t n) { return _test_malloc(n, __FILE__, __LINE__); }
static inline void test_json_free(void *p) { _test_free(p, __FILE__, __LINE__); }

/* Call first in main(), before any test. */
static inline void use_test_json_hooks(void) {
  cJSON_Hooks hooks = {test_json_malloc, test_json_free};
  cJSON_InitHooks(&hooks);
}

#endif
