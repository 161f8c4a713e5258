/* load.c: reads one source file into memory and maps byte offsets to lines and columns.
 * Owns: the safe read (O_NONBLOCK open, fstat check, read loop with a size cap, never mmap), the
 *       lone-CR rewrite, BOM detection, the line table, the UTF-8 aware column arithmetic and
 *       the byte search of gl_source_has.
 * Not: choosing files (walk.c), parsing (parse.c), printing.
 * Threads: stateless; a gl_source belongs to one worker. */
#include "base/load.h"
#include "base/utf8.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"

/* ---- reading ------------------------------------------------------------------------------- */

static int failed(gl_load_fail *fail, gl_load_step step, int e, long long size) {
  fail->step = step;
  fail->err_no = e;
  fail->size = size;
  return step == GL_LOAD_NOT_REGULAR || step == GL_LOAD_TOO_BIG ? GL_ESKIP : GL_EIO;
}

/* Reads fd to EOF into a heap buffer with room for a NUL. size_hint is the fstat size; the file
 * may grow or shrink while read. More than limit bytes is GL_LOAD_TOO_BIG with size -1. */
static int read_all(int fd, size_t size_hint, size_t limit, char **out, size_t *out_len,
                    gl_load_fail *fail) {
  /* Data capacity starts one byte past the fstat size, so the first EOF probe notices growth;
   * one more byte holds the NUL. Reading stops once limit + 1 bytes prove the file too large. */
  size_t cap = size_hint + 2;
  char *buf = gl_xmalloc(cap);
  size_t len = 0;
  for (;;) {
    if (len + 1 == cap) {
      if (len > limit) break;
      size_t want = (cap - 1) * 2;
      if (want > limit + 1) want = limit + 1;
      cap = want + 1;
      buf = gl_xrealloc(buf, cap);
    }
    ssize_t n = read(fd, buf + len, cap - 1 - len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      free(buf);
      return failed(fail, GL_LOAD_READ, e, 0);
    }
    if (n == 0) break;
    len += (size_t)n;
  }
  if (len > limit) {
    free(buf);
    return failed(fail, GL_LOAD_TOO_BIG, 0, -1);
  }
  buf[len] = '\0';
  *out = buf;
  *out_len = len;
  return GL_OK;
}

int gl_load_read(const char *path, size_t cap, char **out, size_t *len, gl_load_fail *fail) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return failed(fail, GL_LOAD_OPEN, errno, 0);
  struct stat st;
  int rc;
  if (fstat(fd, &st) != 0)
    rc = failed(fail, GL_LOAD_STAT, errno, 0);
  else if (!S_ISREG(st.st_mode))
    rc = failed(fail, GL_LOAD_NOT_REGULAR, 0, 0);
  else if (st.st_size < 0 || (uintmax_t)st.st_size > (uintmax_t)cap)
    rc = failed(fail, GL_LOAD_TOO_BIG, 0, (long long)st.st_size);
  else
    rc = read_all(fd, (size_t)st.st_size, cap, out, len, fail);
  close(fd);
  return rc;
}

/* The message gl_load_file gives for fail (no path prefix). */
int gl_load_fail_diag(gl_diag *err, const gl_load_fail *fail, size_t limit) {
  static const char *const step_verb[] = {
      [GL_LOAD_OPEN] = "open", [GL_LOAD_STAT] = "stat", [GL_LOAD_READ] = "read"};
  char text[256];
  switch (fail->step) {
  case GL_LOAD_NOT_REGULAR:
    gl_diag_set(err, NULL, 0, 0, "not a regular file");
    return GL_ESKIP;
  case GL_LOAD_TOO_BIG:
    if (fail->size < 0)
      gl_diag_set(err, NULL, 0, 0, "file grew over the size cap of %zu bytes while read", limit);
    else
      gl_diag_set(err, NULL, 0, 0, "file is %lld bytes, over the size cap of %zu bytes",
                  fail->size, limit);
    return GL_ESKIP;
  default:
    gl_diag_errno_text(fail->err_no, text, sizeof(text));
    gl_diag_set(err, NULL, 0, 0, "cannot %s file: %s", step_verb[fail->step], text);
    return GL_EIO;
  }
}

/* ---- normalisation and line table ---------------------------------------------------------- */

static void rewrite_lone_cr(gl_source *src) {
  char *p = src->bytes;
  char *end = src->bytes + src->len;
  while ((p = memchr(p, '\r', (size_t)(end - p))) != NULL) {
    if (p + 1 == end || p[1] != '\n') {
      *p = '\n';
      src->had_lone_cr = true;
    }
    p++;
  }
}

/* UTF-16 or UTF-32 text, by its BOM or, without one, by the NULs that ASCII characters (most of
 * any Python file) leave at fixed positions mod 4 in the first 4 KiB. */
static const char *foreign_encoding(const unsigned char *b, size_t len) {
  if (len >= 4 && !memcmp(b, "\xFF\xFE\0\0", 4)) return "UTF-32LE";
  if (len >= 4 && !memcmp(b, "\0\0\xFE\xFF", 4)) return "UTF-32BE";
  if (len >= 2 && !memcmp(b, "\xFF\xFE", 2)) return "UTF-16LE";
  if (len >= 2 && !memcmp(b, "\xFE\xFF", 2)) return "UTF-16BE";
  size_t n = (len < 4096 ? len : 4096) & ~(size_t)3, z[4] = {0};
  if (n < 8 || !memchr(b, '\0', n)) return NULL; /* UTF-8 text: no count on every file */
  for (size_t i = 0; i < n; i++) z[i % 4] += b[i] == 0;
  size_t q = n / 4;
  bool hi[4], lo[4];
  for (int k = 0; k < 4; k++) {
    hi[k] = z[k] * 10 >= q * 6; /* at least 60 % of the slot is NUL */
    lo[k] = z[k] * 10 <= q;     /* at most 10 % */
  }
  if (lo[0] && hi[1] && hi[2] && hi[3]) return "UTF-32LE";
  if (hi[0] && hi[1] && hi[2] && lo[3]) return "UTF-32BE";
  if (lo[0] && hi[1] && lo[2] && hi[3]) return "UTF-16LE";
  if (hi[0] && lo[1] && hi[2] && lo[3]) return "UTF-16BE";
  return NULL;
}

/* NUL bytes become spaces, their offsets kept for gl_load_add_shown and the cache key. */
static void rewrite_nuls(gl_source *src) {
  char *p = src->bytes, *end = src->bytes + src->len;
  size_t cap = 0;
  while ((p = memchr(p, '\0', (size_t)(end - p))) != NULL) {
    if (src->n_nuls == cap) {
      cap = cap ? cap * 2 : 8;
      src->nuls = gl_xrealloc(src->nuls, cap * sizeof(uint32_t));
    }
    src->nuls[src->n_nuls++] = (uint32_t)(p - src->bytes);
    *p++ = ' ';
  }
}

/* One pass over the bytes; the table starts at a guess of 40 bytes a line and doubles. */
static void build_lines(gl_source *src) {
  const char *b = src->bytes;
  const char *end = b + src->len;
  size_t cap = src->len / 40 + 16, n = 1;
  uint32_t *starts = gl_xmalloc(cap * sizeof(uint32_t));
  starts[0] = 0;
  for (const char *p = b; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) {
    if (n == cap) {
      cap *= 2;
      starts = gl_xrealloc(starts, cap * sizeof(uint32_t));
    }
    starts[n++] = (uint32_t)(p + 1 - b);
  }
  src->line_starts = starts;
  src->nlines = (uint32_t)n;
}

/* The line table, built on first use: most files the prefilter skips never need it. A gl_source
 * is used by one thread at a time, so building it needs no lock. */
static const gl_source *with_lines(const gl_source *src) {
  if (!src->line_starts && src->bytes) build_lines((gl_source *)src);
  return src;
}

uint32_t gl_load_nlines(const gl_source *src) { return with_lines(src)->nlines; }

/* Takes ownership of bytes (NUL-terminated at len). */
static void adopt(gl_source *src, const char *path, char *bytes, size_t len) {
  memset(src, 0, sizeof(*src));
  src->path = gl_xstrdup(path ? path : "");
  src->bytes = bytes;
  src->len = len;
  if (len >= 3 && memcmp(bytes, "\xEF\xBB\xBF", 3) == 0) src->bom_len = 3;
  src->foreign = foreign_encoding((const unsigned char *)bytes, len);
  rewrite_lone_cr(src);
  rewrite_nuls(src);
}

int gl_load_file(gl_source *src, const char *path, size_t max_bytes, gl_diag *err) {
  memset(src, 0, sizeof(*src));
  size_t limit = (max_bytes && max_bytes < GL_LOAD_MAX_BYTES) ? max_bytes : GL_LOAD_MAX_BYTES;
  char *bytes = NULL;
  size_t len = 0;
  gl_load_fail fail;
  if (gl_load_read(path, limit, &bytes, &len, &fail) != GL_OK) return gl_load_fail_diag(err, &fail, limit);
  adopt(src, path, bytes, len);
  return GL_OK;
}

int gl_load_drain(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0) return GL_EIO;
  if (!S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)) return GL_OK;
  char buf[65536];
  for (size_t left = GL_LOAD_DRAIN_MAX; left;) {
    ssize_t n = read(fd, buf, left < sizeof(buf) ? left : sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return GL_EIO;
    if (n == 0) return GL_OK;
    left -= (size_t)n;
  }
  return GL_OK;
}

int gl_load_fd(gl_source *src, int fd, const char *path, size_t max_bytes, gl_diag *err) {
  memset(src, 0, sizeof(*src));
  size_t limit = (max_bytes && max_bytes < GL_LOAD_MAX_BYTES) ? max_bytes : GL_LOAD_MAX_BYTES;
  struct stat st;
  size_t hint = 65536; /* a pipe's size is unknown; a redirected file's is a good first guess */
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0) hint = (size_t)st.st_size;
  if (hint > limit) hint = limit;
  char *bytes = NULL;
  size_t len = 0;
  gl_load_fail fail;
  int rc = read_all(fd, hint, limit, &bytes, &len, &fail);
  if (rc == GL_ESKIP) {
    gl_load_drain(fd);
    gl_diag_set(err, NULL, 0, 0, "standard input is over the size cap of %zu bytes", limit);
    return rc;
  }
  if (rc != GL_OK) {
    char text[256];
    gl_diag_errno_text(fail.err_no, text, sizeof(text));
    gl_diag_set(err, NULL, 0, 0, "cannot read standard input: %s", text);
    return rc;
  }
  adopt(src, path, bytes, len);
  return GL_OK;
}

void gl_load_buffer(gl_source *src, const char *path, const char *bytes, size_t len) {
  if (len > GL_LOAD_MAX_BYTES) len = GL_LOAD_MAX_BYTES;
  char *copy = gl_xmalloc(len + 1);
  if (len) memcpy(copy, bytes, len);
  copy[len] = '\0';
  adopt(src, path, copy, len);
}

void gl_source_free(gl_source *src) {
  if (!src) return;
  free(src->path);
  free(src->bytes);
  free(src->line_starts);
  free(src->nuls);
  memset(src, 0, sizeof(*src));
}

/* ---- positions ----------------------------------------------------------------------------- */

/* Index (0-based) of the line holding offset: the last line start <= offset. */
static uint32_t line_index(const gl_source *src, size_t offset) {
  uint32_t lo = 0;
  uint32_t hi = src->nlines; /* line_starts[lo] <= offset < line_starts[hi] (hi == n: end) */
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (src->line_starts[mid] <= offset)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

gl_pos gl_load_position(const gl_source *src, size_t offset) {
  gl_pos pos = {1, 1, 1};
  if (!gl_load_nlines(src)) return pos;
  if (offset > src->len) offset = src->len;
  uint32_t li = line_index(src, offset);
  size_t start = src->line_starts[li];
  if (li == 0 && src->bom_len) start = offset < src->bom_len ? offset : src->bom_len;
  pos.line = li + 1;
  for (size_t i = start; i < offset;) {
    uint32_t cp;
    bool invalid;
    size_t n = gl_utf8_next(src->bytes, src->len, i, false, &cp, &invalid);
    if (i + n > offset) break; /* offset inside a sequence: count up to its start */
    pos.col += gl_utf8_units(cp, invalid);
    pos.col_cp += 1;
    i += n;
  }
  return pos;
}

gl_pos gl_load_text_position(const char *text, size_t len, size_t offset, uint32_t first_line) {
  gl_source src = {0};
  gl_load_buffer(&src, "", text ? text : "", text ? len : 0);
  gl_pos pos = gl_load_position(&src, offset);
  gl_source_free(&src);
  if (first_line > 1) pos.line += first_line - 1;
  return pos;
}

const char *gl_load_line(const gl_source *src, uint32_t line, size_t *len) {
  *len = 0;
  if (line < 1 || line > gl_load_nlines(src)) return "";
  size_t start = src->line_starts[line - 1];
  if (line == 1) start = src->bom_len;
  size_t end = src->len;
  if (line < src->nlines) {
    end = src->line_starts[line] - 1; /* the '\n' */
    if (end > start && src->bytes[end - 1] == '\r') end--;
  }
  *len = end - start;
  return src->bytes + start;
}

bool gl_source_has(const gl_source *src, const char *text) {
  size_t n = strlen(text), len = src->len;
  const char *b = src->bytes;
  if (n == 0) return true;
  if (!b) return false;
  for (size_t i = 0; i + n <= len;) {   /* memchr for the first byte, then compare */
    const char *p = memchr(b + i, text[0], len - n + 1 - i);
    if (!p) return false;
    if (memcmp(p, text, n) == 0) return true;
    i = (size_t)(p - b) + 1;
  }
  return false;
}

void gl_load_add_shown(gl_strbuf *b, const gl_source *src, const char *bytes, size_t start,
                       size_t end) {
  uint32_t lo = 0, hi = src->n_nuls; /* the first NUL at or after start */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (src->nuls[mid] < start) lo = mid + 1;
    else hi = mid;
  }
  for (; lo < src->n_nuls && src->nuls[lo] < end; lo++) {
    gl_strbuf_add(b, bytes + start, src->nuls[lo] - start);
    gl_strbuf_add(b, "\xE2\x90\x80", 3); /* U+2400 */
    start = src->nuls[lo] + 1;
  }
  gl_strbuf_add(b, bytes + start, end > start ? end - start : 0);
}

size_t gl_load_first_nul(const gl_source *src) { return src->n_nuls ? src->nuls[0] : SIZE_MAX; }

char *gl_load_as_written(const gl_source *src) {
  if (!src->n_nuls) return NULL;
  char *copy = gl_xmalloc(src->len + 1);
  memcpy(copy, src->bytes, src->len + 1);
  for (uint32_t i = 0; i < src->n_nuls; i++) copy[src->nuls[i]] = '\0';
  return copy;
}
