/* diag.h: gl_diag, the error record every fallible function fills, and gl_diag_list.
 * Owns: a position (path, 1-based line and column) plus a fixed-size message; no heap inside a
 *       gl_diag. Messages follow git's rules: lower case, no full stop, what failed first.
 * Not: printing (only src/main.c prints).
 * Threads: a gl_diag or list belongs to its caller. */
#ifndef GL_DIAG_H
#define GL_DIAG_H

#include <stdarg.h>
#include <stdint.h>
#include "base/vec.h"

enum {
  GL_OK = 0,
  GL_EIO = -1,      /* cannot read or write a file */
  GL_EINVAL = -2,   /* bad input: rule file, option, argument */
  GL_ESKIP = -3,    /* file not linted on purpose (not regular, too large) */
  GL_ELIMIT = -4,   /* a limit was hit: parse time, depth, match limit */
};

typedef struct gl_diag {
  char path[1024];   /* "" when there is no file */
  uint32_t line;     /* 1-based; 0 when unknown */
  uint32_t col;      /* 1-based; 0 when unknown */
  char msg[512];
} gl_diag;

/* Fills d (path may be NULL). Messages are truncated to fit, never overflow. */
void gl_diag_set(gl_diag *d, const char *path, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* gl_diag_set with the arguments in ap: the one body of every "error at an offset" helper. */
void gl_diag_vset(gl_diag *d, const char *path, uint32_t line, uint32_t col, const char *fmt,
                  va_list ap) __attribute__((format(printf, 5, 0)));

/* Formats "path:line:col: msg" (omitting what is unknown) into buf. */
void gl_diag_format(const gl_diag *d, char *buf, size_t cap);

typedef gl_vec(gl_diag) gl_diag_list;

/* Appends a new diag and returns it for gl_diag_set. */
gl_diag *gl_diag_list_add(gl_diag_list *list);

/* The system's text for errno value err, lower-cased as git writes it ("no such file or
 * directory"), into buf (thread-safe). */
void gl_diag_errno_text(int err, char *buf, size_t cap);

#endif
