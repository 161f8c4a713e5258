/* diag.c: filling and formatting gl_diag records.
 * Owns: bounded formatting into the fixed buffers of gl_diag (never overflows, never allocates
 *       inside a diag). Not: printing. Threads: stateless. */
#include "base/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void gl_diag_vset(gl_diag *d, const char *path, uint32_t line, uint32_t col, const char *fmt,
                  va_list ap) {
  if (!d) return;
  snprintf(d->path, sizeof(d->path), "%s", path ? path : "");
  d->line = line;
  d->col = col;
  vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
}

void gl_diag_set(gl_diag *d, const char *path, uint32_t line, uint32_t col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  gl_diag_vset(d, path, line, col, fmt, ap);
  va_end(ap);
}

void gl_diag_format(const gl_diag *d, char *buf, size_t cap) {
  if (!cap) return;
  if (!d->path[0])
    snprintf(buf, cap, "%s", d->msg);
  else if (!d->line)
    snprintf(buf, cap, "%s: %s", d->path, d->msg);
  else if (!d->col)
    snprintf(buf, cap, "%s:%u: %s", d->path, d->line, d->msg);
  else
    snprintf(buf, cap, "%s:%u:%u: %s", d->path, d->line, d->col, d->msg);
}

gl_diag *gl_diag_list_add(gl_diag_list *list) {
  gl_diag *d = gl_vec_grow(list);
  return d;
}

void gl_diag_errno_text(int err, char *buf, size_t cap) {
  if (!cap) return;
  buf[0] = '\0';
  /* XSI strerror_r (thread-safe, unlike strerror); lower-case first letter, git style. */
  if (strerror_r(err, buf, cap) != 0 || !buf[0]) snprintf(buf, cap, "error %d", err);
  if (buf[0] >= 'A' && buf[0] <= 'Z' && !(buf[1] >= 'A' && buf[1] <= 'Z')) buf[0] = (char)(buf[0] - 'A' + 'a');
}
