/* strbuf.c: the growable string of strbuf.h.
 * Owns: growth (through gl_vec_reserve, so gl_xrealloc), the NUL kept after the bytes.
 * Not: encodings. Threads: stateless beyond the caller's buffer. */
#include "base/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void gl_strbuf_add(gl_strbuf *b, const char *s, size_t n) {
  gl_vec_reserve(b, n + 1);
  if (n) memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void gl_strbuf_adds(gl_strbuf *b, const char *s) { gl_strbuf_add(b, s, strlen(s)); }

void gl_strbuf_addf(gl_strbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n <= 0) return;
  gl_vec_reserve(b, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

char *gl_strbuf_take(gl_strbuf *b) {
  gl_vec_reserve(b, 1);
  b->data[b->len] = '\0';
  char *s = b->data;
  b->data = NULL;
  b->len = b->cap = 0;
  return s;
}
