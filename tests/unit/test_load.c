/* test_load.c: unit tests for load.c (reading files, normalisation, line table, positions).
 * Owns: checks of what load.h promises: exact lines and UTF-16 / code-point columns, skip and
 *       error results for FIFOs, devices, directories, missing and oversized files.
 * Not: walking directories (test_walk.c).
 * Threads: single-threaded; every file test works in its own mkdtemp directory. */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/load.h"

/* ---- helpers ------------------------------------------------------------------------------- */

static gl_source load_str(const char *s, size_t len) {
  gl_source src;
  gl_load_buffer(&src, "t.py", s, len);
  return src;
}

#define LOAD(lit) load_str((lit), sizeof(lit) - 1)

static void assert_pos(const gl_source *src, size_t off, uint32_t line, uint32_t col,
                       uint32_t col_cp) {
  gl_pos p = gl_load_position(src, off);
  if (p.line != line || p.col != col || p.col_cp != col_cp)
    fail_msg("offset %zu: got %u:%u (cp %u), want %u:%u (cp %u)", off, p.line, p.col, p.col_cp,
             line, col, col_cp);
}

static void assert_line(const gl_source *src, uint32_t line, const char *want, size_t want_len) {
  size_t len = 99;
  const char *s = gl_load_line(src, line, &len);
  assert_non_null(s);
  assert_int_equal(len, want_len);
  assert_memory_equal(s, want, want_len);
}

#define ASSERT_LINE(src, n, lit) assert_line((src), (n), (lit), sizeof(lit) - 1)

typedef struct tmpdir {
  char path[64];
} tmpdir;

static int tmp_setup(void **state) {
  tmpdir *t = calloc(1, sizeof(*t));
  snprintf(t->path, sizeof(t->path), "/tmp/gl_load_XXXXXX");
  if (!mkdtemp(t->path)) return -1;
  *state = t;
  alarm(20); /* a blocking open or read fails the test instead of hanging it */
  return 0;
}

static int tmp_teardown(void **state) {
  tmpdir *t = *state;
  alarm(0);
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->path);
  int rc = system(cmd);
  free(t);
  return rc == 0 ? 0 : -1;
}

static void write_file(const char *path, const char *bytes, size_t len) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(bytes, 1, len, f), len);
  assert_int_equal(fclose(f), 0);
}

static void assert_empty_source(const gl_source *src) {
  assert_null(src->path);
  assert_null(src->bytes);
  assert_null(src->line_starts);
  assert_int_equal(src->len, 0);
  assert_int_equal(src->nlines, 0);
}

/* ---- line table and normalisation ---------------------------------------------------------- */

static void test_empty_buffer(void **state) {
  (void)state;
  gl_source src = LOAD("");
  assert_int_equal(src.len, 0);
  assert_null(src.line_starts); /* built on first use */
  assert_int_equal(gl_load_nlines(&src), 1);
  assert_non_null(src.line_starts);
  assert_int_equal(src.line_starts[0], 0);
  assert_int_equal(src.bytes[0], '\0');
  assert_string_equal(src.path, "t.py");
  assert_pos(&src, 0, 1, 1, 1);
  assert_pos(&src, 7, 1, 1, 1);
  ASSERT_LINE(&src, 1, "");
  ASSERT_LINE(&src, 2, "");
  ASSERT_LINE(&src, 0, "");
  gl_source_free(&src);
}

static void test_no_trailing_newline(void **state) {
  (void)state;
  gl_source src = LOAD("a\nbc");
  assert_int_equal(gl_load_nlines(&src), 2);
  assert_int_equal(src.line_starts[1], 2);
  assert_pos(&src, 0, 1, 1, 1);
  assert_pos(&src, 1, 1, 2, 2); /* the '\n' itself belongs to line 1 */
  assert_pos(&src, 2, 2, 1, 1);
  assert_pos(&src, 4, 2, 3, 3); /* end of file */
  assert_pos(&src, 1000, 2, 3, 3); /* clamped to the end */
  ASSERT_LINE(&src, 1, "a");
  ASSERT_LINE(&src, 2, "bc");
  ASSERT_LINE(&src, 3, "");
  gl_source_free(&src);
}

static void test_trailing_newline_makes_empty_last_line(void **state) {
  (void)state;
  gl_source src = LOAD("a\n");
  assert_int_equal(gl_load_nlines(&src), 2);
  assert_pos(&src, 1, 1, 2, 2);
  assert_pos(&src, 2, 2, 1, 1);
  assert_pos(&src, 3, 2, 1, 1);
  ASSERT_LINE(&src, 1, "a");
  ASSERT_LINE(&src, 2, "");
  gl_source_free(&src);

  gl_source two = LOAD("\n\n");
  assert_int_equal(gl_load_nlines(&two), 3);
  assert_pos(&two, 0, 1, 1, 1);
  assert_pos(&two, 1, 2, 1, 1);
  assert_pos(&two, 2, 3, 1, 1);
  gl_source_free(&two);
}

static void test_crlf_kept(void **state) {
  (void)state;
  gl_source src = LOAD("ab\r\ncd\r\n");
  assert_int_equal(src.len, 8);
  assert_memory_equal(src.bytes, "ab\r\ncd\r\n", 8);
  assert_false(src.had_lone_cr);
  assert_int_equal(gl_load_nlines(&src), 3);
  assert_int_equal(src.line_starts[1], 4);
  assert_int_equal(src.line_starts[2], 8);
  assert_pos(&src, 2, 1, 3, 3); /* the '\r' has a column of its own */
  assert_pos(&src, 3, 1, 4, 4);
  assert_pos(&src, 4, 2, 1, 1);
  assert_pos(&src, 5, 2, 2, 2);
  assert_pos(&src, 8, 3, 1, 1);
  ASSERT_LINE(&src, 1, "ab");
  ASSERT_LINE(&src, 2, "cd");
  ASSERT_LINE(&src, 3, "");
  gl_source_free(&src);
}

static void test_lone_cr_rewritten(void **state) {
  (void)state;
  gl_source src = LOAD("a\rb\r\nc\r");
  assert_true(src.had_lone_cr);
  assert_int_equal(src.len, 7);
  assert_memory_equal(src.bytes, "a\nb\r\nc\n", 7);
  assert_int_equal(gl_load_nlines(&src), 4);
  assert_pos(&src, 2, 2, 1, 1);
  assert_pos(&src, 5, 3, 1, 1);
  assert_pos(&src, 7, 4, 1, 1);
  ASSERT_LINE(&src, 1, "a");
  ASSERT_LINE(&src, 2, "b");
  ASSERT_LINE(&src, 3, "c");
  ASSERT_LINE(&src, 4, "");
  gl_source_free(&src);

  gl_source cr_only = LOAD("\r\r");
  assert_true(cr_only.had_lone_cr);
  assert_int_equal(gl_load_nlines(&cr_only), 3);
  gl_source_free(&cr_only);
}

static void test_bom_not_counted_on_line_one(void **state) {
  (void)state;
  gl_source src = LOAD("\xEF\xBB\xBF" "ab\ncd");
  assert_int_equal(src.bom_len, 3);
  assert_int_equal(src.len, 8);
  assert_memory_equal(src.bytes, "\xEF\xBB\xBF", 3); /* the BOM stays in the buffer */
  assert_pos(&src, 0, 1, 1, 1);
  assert_pos(&src, 2, 1, 1, 1); /* inside the BOM */
  assert_pos(&src, 3, 1, 1, 1);
  assert_pos(&src, 4, 1, 2, 2);
  assert_pos(&src, 5, 1, 3, 3);
  assert_pos(&src, 6, 2, 1, 1);
  assert_pos(&src, 7, 2, 2, 2);
  ASSERT_LINE(&src, 1, "ab");
  ASSERT_LINE(&src, 2, "cd");
  gl_source_free(&src);

  /* U+FEFF anywhere else is an ordinary character of one unit. */
  gl_source later = LOAD("x\n\xEF\xBB\xBFy");
  assert_int_equal(later.bom_len, 0);
  assert_pos(&later, 5, 2, 2, 2);
  ASSERT_LINE(&later, 2, "\xEF\xBB\xBFy");
  gl_source_free(&later);

  gl_source bom_only = LOAD("\xEF\xBB\xBF");
  assert_int_equal(bom_only.bom_len, 3);
  assert_pos(&bom_only, 3, 1, 1, 1);
  ASSERT_LINE(&bom_only, 1, "");
  gl_source_free(&bom_only);

  gl_source partial = LOAD("\xEF\xBB" "x");
  assert_int_equal(partial.bom_len, 0);
  assert_pos(&partial, 2, 1, 3, 3); /* two invalid bytes, one unit each */
  gl_source_free(&partial);
}

static void test_tab_counts_one(void **state) {
  (void)state;
  gl_source src = LOAD("\t\tx = 1");
  assert_pos(&src, 2, 1, 3, 3);
  assert_pos(&src, 4, 1, 5, 5);
  gl_source_free(&src);
}

static void test_multibyte_columns(void **state) {
  (void)state;
  gl_source two = LOAD("\xC3\xA9x"); /* é */
  assert_pos(&two, 1, 1, 1, 1);      /* middle of é: counts up to its start */
  assert_pos(&two, 2, 1, 2, 2);
  gl_source_free(&two);

  gl_source three = LOAD("\xE2\x82\xACx"); /* € */
  assert_pos(&three, 1, 1, 1, 1);
  assert_pos(&three, 2, 1, 1, 1);
  assert_pos(&three, 3, 1, 2, 2);
  gl_source_free(&three);

  gl_source four = LOAD("a\xF0\x9F\x98\x80" "b\xF0\x9F\x98\x80" "c"); /* a😀b😀c */
  assert_pos(&four, 1, 1, 2, 2);
  assert_pos(&four, 2, 1, 2, 2);
  assert_pos(&four, 4, 1, 2, 2);
  assert_pos(&four, 5, 1, 4, 3);  /* b: the emoji is 2 UTF-16 units, 1 code point */
  assert_pos(&four, 10, 1, 7, 5); /* c */
  assert_pos(&four, 11, 1, 8, 6); /* end */
  gl_source_free(&four);

  gl_source edges = LOAD("\xED\x9F\xBF" "a\xF4\x8F\xBF\xBF" "b"); /* U+D7FF, U+10FFFF */
  assert_pos(&edges, 3, 1, 2, 2);
  assert_pos(&edges, 8, 1, 5, 4);
  gl_source_free(&edges);
}

static void test_invalid_utf8_bytes_count_one_each(void **state) {
  (void)state;
  static const struct {
    const char *bytes;
    size_t len;
    uint32_t col; /* column of the final 'x' */
  } cases[] = {
      {"\xFFx", 2, 2},                  /* bad lead */
      {"\x80x", 2, 2},                  /* stray continuation */
      {"\xC3x", 2, 2},                  /* truncated 2-byte */
      {"\xE2\x82x", 3, 3},              /* truncated 3-byte */
      {"\xF0\x9F\x98x", 4, 4},          /* truncated 4-byte */
      {"\xC0\x80x", 3, 3},              /* overlong 2-byte */
      {"\xC1\xBFx", 3, 3},              /* overlong 2-byte */
      {"\xE0\x80\x80x", 4, 4},          /* overlong 3-byte */
      {"\xF0\x80\x80\x80x", 5, 5},      /* overlong 4-byte */
      {"\xED\xA0\x80x", 4, 4},          /* surrogate U+D800 */
      {"\xED\xBF\xBFx", 4, 4},          /* surrogate U+DFFF */
      {"\xF4\x90\x80\x80x", 5, 5},      /* U+110000 */
      {"\xF5\x80\x80\x80x", 5, 5},      /* lead beyond F4 */
      {"\xC3\xA9\xFF\xC3\xA9x", 6, 4},  /* valid, invalid, valid */
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    gl_source src = load_str(cases[i].bytes, cases[i].len);
    assert_pos(&src, cases[i].len - 1, 1, cases[i].col, cases[i].col);
    gl_source_free(&src);
  }
  /* a truncated sequence at the very end of the file */
  gl_source end = LOAD("ab\xE2\x82");
  assert_pos(&end, 4, 1, 5, 5);
  gl_source_free(&end);
}

static void test_nul_bytes_in_the_middle(void **state) {
  (void)state;
  gl_source src = LOAD("a\0b\nc\0");
  assert_int_equal(src.len, 6);
  assert_int_equal(gl_load_nlines(&src), 2);
  assert_int_equal(src.bytes[6], '\0');
  assert_pos(&src, 2, 1, 3, 3);
  assert_pos(&src, 4, 2, 1, 1);
  assert_pos(&src, 6, 2, 3, 3);
  /* the parser and every C string see spaces; the offsets say where the NULs were */
  ASSERT_LINE(&src, 1, "a b");
  ASSERT_LINE(&src, 2, "c ");
  assert_int_equal(src.n_nuls, 2);
  assert_int_equal(src.nuls[0], 1);
  assert_int_equal(src.nuls[1], 5);
  gl_source_free(&src);
}

/* gl_load_add_shown: the text as the file holds it, each NUL one U+2400, from any start. */
/* Widens ASCII text to UTF-16/32 in either byte order, for the detection tests. */
static gl_source load_widened(const char *ascii, int width, bool big, const char *bom,
                              size_t bom_len) {
  size_t n = strlen(ascii), len = bom_len + n * (size_t)width;
  char *b = calloc(len, 1);
  memcpy(b, bom, bom_len);
  for (size_t i = 0; i < n; i++)
    b[bom_len + i * (size_t)width + (big ? (size_t)width - 1 : 0)] = ascii[i];
  gl_source src = load_str(b, len);
  free(b);
  return src;
}

static void test_foreign_encodings_detected(void **state) {
  (void)state;
  const char *text = "import torch\nx = torch.ones(3).cuda()\nprint(x.sum().item())\n";
  static const struct {
    size_t width;
    bool big_endian;
    const char *bom; /* "" : detected by where the NULs fall */
    size_t bom_len;
    const char *want;
  } cases[] = {
      {2, false, "\xFF\xFE", 2, "UTF-16LE"}, {2, true, "\xFE\xFF", 2, "UTF-16BE"},
      {4, false, "\xFF\xFE\0\0", 4, "UTF-32LE"}, {4, true, "\0\0\xFE\xFF", 4, "UTF-32BE"},
      {2, false, "", 0, "UTF-16LE"}, {2, true, "", 0, "UTF-16BE"},
      {4, false, "", 0, "UTF-32LE"}, {4, true, "", 0, "UTF-32BE"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gl_source s = load_widened(text, cases[i].width, cases[i].big_endian, cases[i].bom,
                               cases[i].bom_len);
    assert_string_equal(s.foreign, cases[i].want);
    gl_source_free(&s);
  }
}

static void test_utf8_with_nuls_is_not_foreign(void **state) {
  (void)state;
  gl_source s = LOAD("\xEF\xBB\xBFimport torch\nx = 1\n");
  assert_null(s.foreign);
  gl_source_free(&s);
  /* a few NULs in UTF-8 text, even many in a row, are NULs, not another encoding */
  s = LOAD("import torch\0\nx = \"\0\0\0\0\0\0\0\0\"\ny = 2\nz = 3\n");
  assert_null(s.foreign);
  gl_source_free(&s);
  s = LOAD("ab");
  assert_null(s.foreign);
  gl_source_free(&s);
}

static void test_add_shown_marks_each_nul(void **state) {
  (void)state;
  gl_source src = LOAD("x = \"a\0b\0\0\"\ny\0");
  gl_strbuf b = {0};
  gl_load_add_shown(&b, &src, src.bytes, 0, src.len);
  char *all = gl_strbuf_take(&b);
  assert_string_equal(all, "x = \"a\xE2\x90\x80" "b\xE2\x90\x80\xE2\x90\x80\"\ny\xE2\x90\x80");
  free(all);
  gl_load_add_shown(&b, &src, src.bytes, 8, 10); /* from the second NUL to the closing quote */
  char *mid = gl_strbuf_take(&b);
  assert_string_equal(mid, "\xE2\x90\x80\xE2\x90\x80");
  free(mid);
  gl_load_add_shown(&b, &src, src.bytes, 0, 4); /* no NUL in the range */
  char *none = gl_strbuf_take(&b);
  assert_string_equal(none, "x = ");
  free(none);
  gl_source_free(&src);
  gl_source clean = LOAD("abc");
  assert_null(clean.nuls);
  gl_load_add_shown(&b, &clean, clean.bytes, 1, 3);
  char *plain = gl_strbuf_take(&b);
  assert_string_equal(plain, "bc");
  free(plain);
  gl_source_free(&clean);
}

/* JSON readers refuse at the first NUL; the line hashes see the bytes as written. */
static void test_first_nul_and_as_written(void **state) {
  (void)state;
  gl_source src = LOAD("ab\0c\0\n");
  assert_int_equal(gl_load_first_nul(&src), 2);
  char *raw = gl_load_as_written(&src);
  assert_non_null(raw);
  assert_memory_equal(raw, "ab\0c\0\n", 7);
  assert_int_equal(raw[6], '\0');
  free(raw);
  gl_source_free(&src);
  gl_source clean = LOAD("abc");
  assert_true(gl_load_first_nul(&clean) == SIZE_MAX);
  assert_null(gl_load_as_written(&clean));
  gl_source_free(&clean);
}

static void test_source_free_twice_and_zeroed(void **state) {
  (void)state;
  gl_source zero;
  memset(&zero, 0, sizeof(zero));
  gl_source_free(&zero);
  gl_source_free(&zero);
  gl_source_free(NULL);
  assert_pos(&zero, 3, 1, 1, 1);
  ASSERT_LINE(&zero, 1, "");

  gl_source src = LOAD("x\n");
  gl_source_free(&src);
  assert_empty_source(&src);
  gl_source_free(&src);
}

/* ---- reading files ------------------------------------------------------------------------- */

static void test_file_regular(void **state) {
  (void)state;
  tmpdir *t = *state;
  char path[128];
  snprintf(path, sizeof(path), "%s/a.py", t->path);
  write_file(path, "\xEF\xBB\xBFx = 1\r\ny\rz", 13);
  gl_source src;
  gl_diag err = {0};
  assert_int_equal(gl_load_file(&src, path, 0, &err), GL_OK);
  assert_string_equal(src.path, path);
  assert_int_equal(src.len, 13);
  assert_int_equal(src.bom_len, 3);
  assert_true(src.had_lone_cr);
  assert_int_equal(gl_load_nlines(&src), 3);
  ASSERT_LINE(&src, 1, "x = 1");
  ASSERT_LINE(&src, 2, "y");
  ASSERT_LINE(&src, 3, "z");
  assert_pos(&src, 7, 1, 5, 5);
  gl_source_free(&src);
}

static void test_file_empty(void **state) {
  (void)state;
  tmpdir *t = *state;
  char path[128];
  snprintf(path, sizeof(path), "%s/empty.py", t->path);
  write_file(path, "", 0);
  gl_source src;
  gl_diag err = {0};
  assert_int_equal(gl_load_file(&src, path, 10, &err), GL_OK);
  assert_int_equal(src.len, 0);
  assert_int_equal(gl_load_nlines(&src), 1);
  assert_string_equal(src.bytes, "");
  gl_source_free(&src);
}

static void test_file_fifo_skipped_without_blocking(void **state) {
  (void)state;
  tmpdir *t = *state;
  char path[128];
  snprintf(path, sizeof(path), "%s/pipe.py", t->path);
  assert_int_equal(mkfifo(path, 0600), 0);
  gl_source src;
  gl_diag err = {0};
  assert_int_equal(gl_load_file(&src, path, 0, &err), GL_ESKIP);
  assert_string_equal(err.msg, "not a regular file");
  assert_string_equal(err.path, "");
  assert_empty_source(&src);
  gl_source_free(&src);
}

static void test_file_dev_zero_skipped(void **state) {
  (void)state;
  gl_source src;
  gl_diag err = {0};
  assert_int_equal(gl_load_file(&src, "/dev/zero", 0, &err), GL_ESKIP);
  assert_string_equal(err.msg, "not a regular file");
  assert_empty_source(&src);
}

static void test_file_directory_skipped(void **state) {
  (void)state;
  tmpdir *t = *state;
  gl_source src;
  gl_diag err = {0};
  assert_int_equal(gl_load_file(&src, t->path, 0, &err), GL_ESKIP);
  assert_string_equal(err.msg, "not a regular file");
  assert_empty_source(&src);
}

static void test_file_missing_is_eio(void **state) {
  (void)state;
  tmpdir *t = *state;
  char path[128];
  snprintf(path, sizeof(path), "%s/missing.py", t->path);
  gl_source src;
  gl_diag err = {0};
  assert_int_equal(gl_load_file(&src, path, 0, &err), GL_EIO);
  assert_string_equal(err.msg, "cannot open file: no such file or directory");
  assert_string_equal(err.path, "");
  assert_empty_source(&src);
}

static void test_file_unreadable_is_eio(void **state) {
  (void)state;
  if (geteuid() == 0) skip(); /* root reads a mode-000 file */
  tmpdir *t = *state;
  char path[128];
  snprintf(path, sizeof(path), "%s/secret.py", t->path);
  write_file(path, "x", 1);
  assert_int_equal(chmod(path, 0), 0);
  gl_source src;
  gl_diag err = {0};
  assert_int_equal(gl_load_file(&src, path, 0, &err), GL_EIO);
  assert_string_equal(err.msg, "cannot open file: permission denied");
  assert_empty_source(&src);
}

static void test_file_over_cap(void **state) {
  (void)state;
  tmpdir *t = *state;
  char path[128];
  snprintf(path, sizeof(path), "%s/big.py", t->path);
  char bytes[100];
  memset(bytes, 'x', sizeof(bytes));
  write_file(path, bytes, sizeof(bytes));
  gl_source src;
  gl_diag err = {0};
  assert_int_equal(gl_load_file(&src, path, 99, &err), GL_ESKIP);
  assert_string_equal(err.msg, "file is 100 bytes, over the size cap of 99 bytes");
  assert_empty_source(&src);

  /* exactly at the cap is fine */
  assert_int_equal(gl_load_file(&src, path, 100, &err), GL_OK);
  assert_int_equal(src.len, 100);
  gl_source_free(&src);
}

static void test_file_growing_past_cap(void **state) {
  (void)state;
  /* /proc files report size 0 and then deliver bytes: the read loop must grow and still cap. */
  gl_source src;
  gl_diag err = {0};
  assert_int_equal(gl_load_file(&src, "/proc/self/status", 0, &err), GL_OK);
  assert_true(src.len > 20);
  assert_memory_equal(src.bytes, "Name:", 5);
  assert_true(gl_load_nlines(&src) > 3);
  gl_source_free(&src);

  assert_int_equal(gl_load_file(&src, "/proc/self/status", 10, &err), GL_ESKIP);
  assert_string_equal(err.msg, "file grew over the size cap of 10 bytes while read");
  assert_empty_source(&src);
}

static void test_file_five_megabytes(void **state) {
  (void)state;
  tmpdir *t = *state;
  char path[128];
  snprintf(path, sizeof(path), "%s/five.py", t->path);
  const size_t nlines = 5u * 1024u * 1024u / 8u; /* "x = 12\n" plus one more byte per line */
  size_t len = nlines * 8u;
  char *bytes = malloc(len);
  assert_non_null(bytes);
  for (size_t i = 0; i < nlines; i++) memcpy(bytes + i * 8u, "x  = 12\n", 8);
  write_file(path, bytes, len);
  gl_source src;
  gl_diag err = {0};
  assert_int_equal(gl_load_file(&src, path, 8u * 1024u * 1024u, &err), GL_OK);
  assert_int_equal(src.len, 5u * 1024u * 1024u);
  assert_memory_equal(src.bytes, bytes, len);
  assert_int_equal(gl_load_nlines(&src), nlines + 1);
  assert_int_equal(src.line_starts[nlines - 1], len - 8u);
  assert_pos(&src, len - 2u, (uint32_t)nlines, 7, 7);
  assert_pos(&src, len, (uint32_t)nlines + 1u, 1, 1);
  ASSERT_LINE(&src, (uint32_t)nlines, "x  = 12");
  gl_source_free(&src);
  free(bytes);
}

/* ---- gl_load_fd (--stdin-filename) ---------------------------------------------------------- */

/* A pipe whose write end a child fills with n bytes of fill (then text) and closes; returns the
 * read end and the child's pid. The child exits 0 only when every write succeeded (no EPIPE). */
static int pipe_from_child(const char *text, size_t n, char fill, pid_t *pid) {
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  *pid = fork();
  assert_true(*pid >= 0);
  if (*pid == 0) {
    close(fds[0]);
    char block[4096];
    memset(block, fill, sizeof(block));
    for (size_t done = 0; done < n;) {
      size_t k = n - done < sizeof(block) ? n - done : sizeof(block);
      ssize_t w = write(fds[1], block, k);
      if (w <= 0) _exit(3);
      done += (size_t)w;
    }
    size_t len = strlen(text);
    _exit(write(fds[1], text, len) == (ssize_t)len ? 0 : 3);
  }
  close(fds[1]);
  return fds[0];
}

static int child_status(pid_t pid) {
  int st = 0;
  assert_int_equal(waitpid(pid, &st, 0), pid);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void test_fd_pipe_normalised_like_a_file(void **state) {
  (void)state;
  pid_t pid;
  int fd = pipe_from_child("\xEF\xBB\xBFx = 1\rimport cupy\r\n", 0, ' ', &pid);
  gl_source src;
  gl_diag err = {0};
  assert_int_equal(gl_load_fd(&src, fd, "virtual/never.py", 0, &err), GL_OK);
  assert_int_equal(child_status(pid), 0);
  close(fd);
  assert_string_equal(src.path, "virtual/never.py");
  assert_int_equal(src.bom_len, 3);
  assert_true(src.had_lone_cr);
  assert_int_equal(gl_load_nlines(&src), 3);
  ASSERT_LINE(&src, 1, "x = 1");
  ASSERT_LINE(&src, 2, "import cupy");
  ASSERT_LINE(&src, 3, "");
  gl_source_free(&src);
}

static void test_fd_pipe_over_cap_drains_the_writer(void **state) {
  (void)state;
  pid_t pid;
  /* 300,000 bytes: more than a pipe buffer, so the writer blocks unless the reader drains */
  int fd = pipe_from_child("tail", 300000, 'a', &pid);
  gl_source src;
  gl_diag err = {0};
  assert_int_equal(gl_load_fd(&src, fd, "x.py", 100000, &err), GL_ESKIP);
  assert_string_equal(err.msg, "standard input is over the size cap of 100000 bytes");
  assert_null(src.bytes);
  assert_int_equal(child_status(pid), 0);
  char c;
  assert_int_equal(read(fd, &c, 1), 0); /* everything was read */
  close(fd);
}

static void test_fd_device_over_cap_ends(void **state) {
  (void)state;
  /* /dev/zero never ends: the read stops at the cap and nothing is drained after it. */
  int fd = open("/dev/zero", O_RDONLY);
  assert_true(fd >= 0);
  gl_source src;
  gl_diag err = {0};
  assert_int_equal(gl_load_fd(&src, fd, "x.py", 100000, &err), GL_ESKIP);
  assert_string_equal(err.msg, "standard input is over the size cap of 100000 bytes");
  assert_int_equal(gl_load_drain(fd), GL_OK);
  close(fd);
}

static void test_drain_is_bounded(void **state) {
  (void)state;
  pid_t pid;
  /* A writer that never stops: the drain gives up after GL_LOAD_DRAIN_MAX bytes. */
  int fd = pipe_from_child("", SIZE_MAX, 'y', &pid);
  assert_int_equal(gl_load_drain(fd), GL_OK);
  close(fd);
  kill(pid, SIGKILL);
  child_status(pid);
}

static void test_fd_pipe_exactly_at_cap(void **state) {
  (void)state;
  pid_t pid;
  int fd = pipe_from_child("", 100000, 'b', &pid);
  gl_source src;
  gl_diag err = {0};
  assert_int_equal(gl_load_fd(&src, fd, "x.py", 100000, &err), GL_OK);
  assert_int_equal(src.len, 100000);
  assert_int_equal(child_status(pid), 0);
  close(fd);
  gl_source_free(&src);
}

static void test_fd_regular_file_and_nul(void **state) {
  tmpdir *t = *state;
  char path[128];
  snprintf(path, sizeof(path), "%s/in.py", t->path);
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  assert_int_equal(fwrite("a\0b\n\xff\n", 1, 6, fp), 6);
  assert_int_equal(fclose(fp), 0);
  int fd = open(path, O_RDONLY);
  gl_source src;
  gl_diag err = {0};
  assert_int_equal(gl_load_fd(&src, fd, "other.py", 0, &err), GL_OK);
  close(fd);
  assert_int_equal(src.len, 6);
  assert_int_equal(gl_load_nlines(&src), 3);
  assert_line(&src, 1, "a b", 3);
  assert_int_equal(src.n_nuls, 1);
  assert_pos(&src, 4, 2, 1, 1);
  assert_pos(&src, 5, 2, 2, 2); /* the invalid byte counts one column */
  gl_source_free(&src);
}

static void test_fd_read_error(void **state) {
  tmpdir *t = *state;
  int fd = open(t->path, O_RDONLY | O_DIRECTORY); /* read(2) of a directory: EISDIR */
  assert_true(fd >= 0);
  gl_source src;
  gl_diag err = {0};
  assert_int_equal(gl_load_fd(&src, fd, "x.py", 0, &err), GL_EIO);
  assert_string_equal(err.msg, "cannot read standard input: is a directory");
  close(fd);
  assert_int_equal(gl_load_drain(-1), GL_EIO);
}

/* gl_source_has: a byte search that NUL bytes in the file do not stop. */
static void test_source_has(void **state) {
  (void)state;
  gl_source src = {0};
  gl_load_buffer(&src, "t.py", "import cupy\0x.elapsed_time(e)\n", 30);
  assert_true(gl_source_has(&src, "cupy"));
  assert_true(gl_source_has(&src, "elapsed_time"));   /* after the NUL */
  assert_true(gl_source_has(&src, "(e)\n"));            /* at the very end */
  assert_true(gl_source_has(&src, ""));
  assert_false(gl_source_has(&src, "elapsed_times"));
  assert_false(gl_source_has(&src, "torch"));
  gl_source_free(&src);
  gl_source empty = {0};
  assert_false(gl_source_has(&empty, "x"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_empty_buffer),
      cmocka_unit_test(test_no_trailing_newline),
      cmocka_unit_test(test_trailing_newline_makes_empty_last_line),
      cmocka_unit_test(test_crlf_kept),
      cmocka_unit_test(test_lone_cr_rewritten),
      cmocka_unit_test(test_bom_not_counted_on_line_one),
      cmocka_unit_test(test_tab_counts_one),
      cmocka_unit_test(test_multibyte_columns),
      cmocka_unit_test(test_invalid_utf8_bytes_count_one_each),
      cmocka_unit_test(test_nul_bytes_in_the_middle),
      cmocka_unit_test(test_add_shown_marks_each_nul),
      cmocka_unit_test(test_first_nul_and_as_written),
      cmocka_unit_test(test_foreign_encodings_detected),
      cmocka_unit_test(test_utf8_with_nuls_is_not_foreign),
      cmocka_unit_test(test_source_free_twice_and_zeroed),
      cmocka_unit_test_setup_teardown(test_file_regular, tmp_setup, tmp_teardown),
      cmocka_unit_test_setup_teardown(test_file_empty, tmp_setup, tmp_teardown),
      cmocka_unit_test_setup_teardown(test_file_fifo_skipped_without_blocking, tmp_setup,
                                      tmp_teardown),
      cmocka_unit_test_setup_teardown(test_file_dev_zero_skipped, tmp_setup, tmp_teardown),
      cmocka_unit_test_setup_teardown(test_file_directory_skipped, tmp_setup, tmp_teardown),
      cmocka_unit_test_setup_teardown(test_file_missing_is_eio, tmp_setup, tmp_teardown),
      cmocka_unit_test_setup_teardown(test_file_unreadable_is_eio, tmp_setup, tmp_teardown),
      cmocka_unit_test_setup_teardown(test_file_over_cap, tmp_setup, tmp_teardown),
      cmocka_unit_test_setup_teardown(test_file_growing_past_cap, tmp_setup, tmp_teardown),
      cmocka_unit_test_setup_teardown(test_file_five_megabytes, tmp_setup, tmp_teardown),
      cmocka_unit_test_setup_teardown(test_fd_pipe_normalised_like_a_file, tmp_setup, tmp_teardown),
      cmocka_unit_test_setup_teardown(test_fd_pipe_over_cap_drains_the_writer, tmp_setup,
                                      tmp_teardown),
      cmocka_unit_test_setup_teardown(test_fd_pipe_exactly_at_cap, tmp_setup, tmp_teardown),
      cmocka_unit_test(test_fd_device_over_cap_ends),
      cmocka_unit_test(test_drain_is_bounded),
      cmocka_unit_test_setup_teardown(test_fd_regular_file_and_nul, tmp_setup, tmp_teardown),
      cmocka_unit_test_setup_teardown(test_fd_read_error, tmp_setup, tmp_teardown),
      cmocka_unit_test(test_source_has),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
