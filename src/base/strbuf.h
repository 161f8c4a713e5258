/* strbuf.h: gl_strbuf, the one growable string of gpulint (a gl_vec(char) kept NUL-terminated).
 * Owns: appending bytes, C strings and formatted text, and handing the string to the caller.
 * Not: encodings (utf8.h), escaping for any format.
 * Threads: a gl_strbuf belongs to whoever holds it; no locking. */
#ifndef GL_STRBUF_H
#define GL_STRBUF_H

#include <stddef.h>
#include "base/vec.h"

/* {data, len, cap}; data is NUL-terminated once anything was added. Zero-initialise to start;
 * free with gl_vec_free or hand the string over with gl_strbuf_take. */
typedef gl_vec(char) gl_strbuf;

/* Appends n bytes of s (s may be NULL when n is 0) and keeps a NUL after them. */
void gl_strbuf_add(gl_strbuf *b, const char *s, size_t n);
/* Appends the C string s. */
void gl_strbuf_adds(gl_strbuf *b, const char *s);
/* Appends printf-style text. */
void gl_strbuf_addf(gl_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hands the string to the caller, who frees it (never NULL: "" for an empty buffer); b is empty
 * afterwards. */
char *gl_strbuf_take(gl_strbuf *b);

#endif
