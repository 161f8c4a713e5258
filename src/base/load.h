/* load.h: one source file's bytes and its line table.
 * Owns: reading a file safely (regular files only, never blocking on a FIFO or device, read not
 *       mapped, size cap), the byte offset -> (line, UTF-16 column, code-point column) mapping,
 *       BOM, CRLF / lone CR, NUL and invalid UTF-8 handling, and showing a source's text as the
 *       file holds it.
 * Not: deciding which files to read (walk.c), parsing (parse.c).
 * Threads: a gl_source belongs to one worker; functions keep no state between calls. */
#ifndef GL_LOAD_H
#define GL_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/diag.h"
#include "base/strbuf.h"

/* Hard ceiling on a source's size: offsets in the line table are 32-bit. gl_load_file applies it
 * even when max_bytes is 0; gl_load_buffer keeps only the first GL_LOAD_MAX_BYTES bytes. */
#define GL_LOAD_MAX_BYTES ((size_t)UINT32_MAX - 1)

typedef struct gl_source {
  char *path;             /* display path (owned) */
  char *bytes;            /* owned, NUL-terminated; lone CR already rewritten to LF */
  size_t len;             /* bytes, without the terminating NUL */
  uint32_t *line_starts;  /* owned; byte offset of each line's first byte; NULL until first used */
  uint32_t nlines;        /* at least 1 (an empty file has one empty line); 0 until first used:
                             read it with gl_load_nlines, which builds the table */
  uint32_t bom_len;       /* 3 when the file starts with a UTF-8 BOM, else 0 */
  bool had_lone_cr;       /* a lone CR was rewritten */
  uint32_t *nuls;         /* owned; ascending offsets of the file's NUL bytes, which bytes holds
                             as spaces (Python refuses a NUL, tree-sitter stops at one, and every
                             C string would be cut there); NULL when there are none */
  uint32_t n_nuls;
  const char *foreign;    /* "UTF-16LE", "UTF-32BE", ... when the bytes are text in an encoding
                             Python does not read source in (by BOM, or by where the NULs of
                             ASCII text fall): such a file is not linted; NULL for UTF-8 */
  const struct gl_notebook *notebook; /* borrowed: for a notebook's virtual source (notebook.h),
                                        its cells and magics; NULL for a .py file */
} gl_source;

typedef struct gl_pos {
  uint32_t line;          /* 1-based */
  uint32_t col;           /* 1-based, in UTF-16 code units (SARIF columnKind utf16CodeUnits) */
  uint32_t col_cp;        /* 1-based, in code points (text output, editors) */
} gl_pos;

/* Why gl_load_read failed: the step that failed and, for the system calls, errno. */
typedef enum gl_load_step {
  GL_LOAD_OPEN = 1,    /* open(2) failed (err_no) */
  GL_LOAD_STAT,        /* fstat(2) failed (err_no) */
  GL_LOAD_NOT_REGULAR, /* a directory, FIFO, device or socket: never read */
  GL_LOAD_TOO_BIG,     /* over the cap by fstat (size) or while read (grew) */
  GL_LOAD_READ,        /* read(2) failed (err_no) */
} gl_load_step;

typedef struct gl_load_fail {
  gl_load_step step;
  int err_no;          /* errno for OPEN, STAT, READ; 0 otherwise */
  long long size;      /* fstat size for TOO_BIG; -1 when the file grew while read */
} gl_load_fail;

/* The one safe read of a whole file, for every file gpulint reads (sources, configuration, rule
 * files, JSON documents): opens with O_NONBLOCK | O_NOCTTY, checks fstat before the first byte
 * (regular files only, at most cap bytes), reads to EOF and fails if the file grew over cap.
 * On success *out is a heap buffer NUL-terminated at *len and the return is 0; on failure
 * nothing is allocated, *fail says why, and the return is GL_ESKIP (not regular, too big) or
 * GL_EIO (a system call failed). Callers word the message for what the file is. */
int gl_load_read(const char *path, size_t cap, char **out, size_t *len, gl_load_fail *fail);
/* Words a failed gl_load_read into err, without a path ("not a regular file", "file is N
 * bytes, over the size cap of cap bytes", "cannot open file: ..."); returns what gl_load_read
 * did (GL_ESKIP or GL_EIO). */
int gl_load_fail_diag(gl_diag *err, const gl_load_fail *fail, size_t cap);

/* Reads path into src. Opens with O_NONBLOCK and checks fstat: anything but a regular file is
 * GL_ESKIP with a message, a file over max_bytes (0 = no cap) is GL_ESKIP, a read error GL_EIO.
 * On failure src is left empty (safe to gl_source_free) and err says why (no path prefix).
 * Messages: "not a regular file", "file is N bytes, over the size cap of M bytes", "file grew over
 * the size cap of M bytes while read", "cannot open file: no such file or directory" (also "cannot
 * stat file: ...", "cannot read file: ..."). src->path becomes a copy of path. Lone CRs are
 * rewritten to LF (had_lone_cr); CRLF stays; a file ending in "\n" has an empty last line. A NUL
 * byte becomes a space, its offset kept in src->nuls: offsets and columns do not move. */
int gl_load_file(gl_source *src, const char *path, size_t max_bytes, gl_diag *err);

/* Reads the already open fd (standard input for --stdin-filename: a pipe, a redirected file or a
 * terminal) to its end as the source of path, which need not exist. Blocks until end of input
 * (on a terminal, until Ctrl-D), as Ruff does. More than max_bytes (0 = GL_LOAD_MAX_BYTES) is
 * GL_ESKIP "standard input is over the size cap of M bytes", and the rest of a piped input is
 * read and discarded (gl_load_drain), so the writer never gets EPIPE; a read error is GL_EIO "cannot read standard
 * input: ...". The bytes are then treated exactly as gl_load_file treats a file's (BOM, CRLF,
 * lone CR, NUL, invalid UTF-8). fd is not closed. On failure src is left empty. */
int gl_load_fd(gl_source *src, int fd, const char *path, size_t max_bytes, gl_diag *err);

/* Reads a pipe or socket fd to its end, or for GL_LOAD_DRAIN_MAX bytes, and discards what it
 * reads (the input of an --stdin-filename that is excluded or over the cap), so a writer such as
 * `cat` never gets EPIPE. Anything else is left alone: a file has no writer to spare, and a device
 * (/dev/zero, a terminal) may never end. Returns 0, or GL_EIO on a read error. */
#define GL_LOAD_DRAIN_MAX ((size_t)256 << 20)
int gl_load_drain(int fd);

/* Takes a copy of bytes[0..len) as the source of path (tests, the docs checker). Never fails. */
void gl_load_buffer(gl_source *src, const char *path, const char *bytes, size_t len);

/* Frees what src owns; gl_source_free on a zeroed source does nothing. */
void gl_source_free(gl_source *src);

/* Position of a byte offset (clamped to len). Line 1's columns do not count the BOM. Each invalid
 * UTF-8 byte counts as one code point / one UTF-16 unit (it is shown as U+FFFD); a 4-byte sequence
 * counts two UTF-16 units. An offset inside a multi-byte sequence gets the column of the
 * sequence's start; the '\r' of a CRLF has a column of its own. A zeroed src gives 1:1. */
gl_pos gl_load_position(const gl_source *src, size_t offset);

/* gl_load_position for text that is not a loaded source: text[0..len) (its own copy is made and
 * freed), with its first line numbered first_line, for errors in text cut from a larger file (a
 * json block of a rule file). The one offset -> line:column conversion: every other caller has a
 * gl_source. */
gl_pos gl_load_text_position(const char *text, size_t len, size_t offset, uint32_t first_line);

/* Lines in src (at least 1 for a loaded source, 0 for an empty gl_source), building the line
 * table on first use. */
uint32_t gl_load_nlines(const gl_source *src);

/* True when src's bytes hold text anywhere (NUL bytes in the file do not stop the search): the
 * checks' cheap early exit, since a call of `elapsed_time` cannot exist without those bytes. */
bool gl_source_has(const gl_source *src, const char *text);

/* The bytes of 1-based line `line` without its line end ("\n", or "\r\n"); line 1 starts after
 * the BOM. *len receives the length. A line out of range gives "" and 0. Borrowed from src. */
const char *gl_load_line(const gl_source *src, uint32_t line, size_t *len);

/* Appends bytes[start, end) to b with each byte that was a NUL in the file (src->nuls) shown as
 * U+2400 SYMBOL FOR NULL, one code point as the NUL was, so a message or code frame built from
 * it is neither cut nor shows a space the file does not hold. bytes is src->bytes or a copy of
 * the same length (a notebook's cells as written). */
void gl_load_add_shown(gl_strbuf *b, const gl_source *src, const char *bytes, size_t start,
                       size_t end);

/* The offset of the file's first NUL byte, or SIZE_MAX when it has none: a JSON document (a
 * config, baseline, evidence file or notebook) holding one is refused there. */
size_t gl_load_first_nul(const gl_source *src);

/* A copy of src->bytes (len bytes and a terminating NUL) with each NUL of the file put back, for
 * what must see the bytes as written (GitHub's line hashes); NULL when the file has none. */
char *gl_load_as_written(const gl_source *src);

#endif
