/* parse_fixture.h: sources for the unit tests of the parse stage (test_parse.c,
 * test_parse_arena.c): a line repeated and a tail, and the input that takes the parser seconds.
 * Owns: nothing outside a test; every function is static inline (header-only, a test may use any
 * subset).
 * Threads: single-threaded test code. Include after <cmocka.h>. */
#ifndef GL_TEST_PARSE_FIXTURE_H
#define GL_TEST_PARSE_FIXTURE_H

#include <stdlib.h>
#include <string.h>

/* Builds `count` copies of `line` followed by `tail` (heap string the caller frees). */
static inline char *repeat_then(const char *line, size_t count, const char *tail,
                                size_t *len_out) {
  size_t ll = strlen(line), tl = strlen(tail);
  char *s = malloc(ll * count + tl + 1);
  assert_non_null(s);
  for (size_t i = 0; i < count; i++) memcpy(s + i * ll, line, ll);
  memcpy(s + ll * count, tail, tl + 1);
  *len_out = ll * count + tl;
  return s;
}

/* 16,000 backslash-continuation lines: about 2 s to parse (the scanner is quadratic on them),
 * for the parse time limit. */
static inline char *slow_source(size_t *len_out) {
  return repeat_then("\\\n", 16000, "1\n", len_out);
}

#endif
