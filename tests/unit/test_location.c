/* test_location.c: unit tests for src/report/location.c (line hashes, URIs, visible text).
 * Owns: every line-hash vector published in codeql-action's src/fingerprints.test.ts, exact, plus
 *       vectors for astral characters, invalid UTF-8, a BOM, long and blank lines computed with
 *       Node 20 running a transliteration of fingerprints.ts's hash() (Node's own UTF-8 stream
 *       decoder); URI cases; gl_utf8_safe_text cases.
 * Not: the formats (test_sarif.c, test_report.c).
 * Threads: single-threaded; the URI tests chdir into a mkdtemp directory and back. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "report/report.h"
#include "base/utf8.h"
#include "base/location.h"

/* ---- line hashes ---------------------------------------------------------------------------- */

static void check_hashes(const char *text, size_t len, const char *const *want, size_t nwant) {
  size_t n = 0;
  char **got = gl_loc_line_hashes(text, len, &n);
  if (n != nwant) fail_msg("got %zu lines, want %zu", n, nwant);
  for (size_t i = 0; i < n; i++) {
    if (strcmp(got[i], want[i]) != 0) fail_msg("line %zu: got %s, want %s", i + 1, got[i], want[i]);
    free(got[i]);
  }
  free(got);
}

#define CHECK_HASHES(lit, ...)                                                \
  do {                                                                        \
    static const char *const want_[] = {__VA_ARGS__};                         \
    check_hashes((lit), sizeof(lit) - 1, want_, sizeof want_ / sizeof *want_); \
  } while (0)

/* The tail every text ending in a line break shares: the empty last line. */
#define EMPTY_LINE "c129715d7a2bc9a3:1"

static void test_hash_empty_file(void **state) {
  (void)state;
  CHECK_HASHES("", EMPTY_LINE);
}

static void test_hash_published_newlines(void **state) {
  (void)state;
  CHECK_HASHES(" a\nb\n  \t\tc\n d", "271789c17abda88f:1", "54703d4cd895b18:1", "180aee12dab6264:1",
               "a23a3dc5e078b07b:1");
  CHECK_HASHES(" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End", "8b7cf3e952e7aeb2:1",
               "b1ae1287ec4718d9:1", "bff680108adb0fcc:1", "c6805c5e1288b612:1",
               "b86d3392aea1be30:1", "e6ceba753e1a442:1");
}

/* The same six lines followed by a line break, written with LF, CR, CR LF and a mix: all equal. */
static void test_hash_published_line_ends(void **state) {
  (void)state;
#define SEVEN "e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1", \
              "e20e36e16fcb0cc8:1", "b3edc88f2938467e:1", "c8e28b0b4002a3a0:1", EMPTY_LINE
  CHECK_HASHES(" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n", SEVEN);
  CHECK_HASHES(" hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r", SEVEN);
  CHECK_HASHES(" hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n", SEVEN);
  CHECK_HASHES(" hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n", SEVEN);
#undef SEVEN
}

/* Ten identical lines: the published test expects 11 hashes (split counts the empty last line);
 * the first six collide and are told apart by the counter. */
static void test_hash_published_repeats(void **state) {
  (void)state;
  const char *line = "Lorem ipsum dolor sit amet.\n";
  char text[400] = "";
  for (int i = 0; i < 10; i++) strcat(text, line);
  static const char *const want[] = {
      "a7f2ff13bc495cf2:1", "a7f2ff13bc495cf2:2", "a7f2ff13bc495cf2:3", "a7f2ff13bc495cf2:4",
      "a7f2ff13bc495cf2:5", "a7f2ff13bc495cf2:6", "a7f2ff1481e87703:1", "a9cf91f7bbf1862b:1",
      "55ec222b86bcae53:1", "cc97dc7b1d7d8f7b:1", EMPTY_LINE};
  check_hashes(text, strlen(text), want, 11);
}

/* An emoji is two UTF-16 units (a surrogate pair) in the window. */
static void test_hash_astral(void **state) {
  (void)state;
  CHECK_HASHES("x = \"\xf0\x9f\x98\x80\"\ny\n", "2f33ba528ac3c4ea:1", "c33be7e0cf7c3ca:1", EMPTY_LINE);
}

/* Node's decoder: FF -> U+FFFD; E2 82 (truncated) -> one U+FFFD; ED A0 80 (a surrogate) -> three;
 * F0 9F 98 before LF -> one. */
static void test_hash_invalid_utf8(void **state) {
  (void)state;
  CHECK_HASHES("a\xff\xe2\x82" "b\n\xed\xa0\x80" "c\n\xf0\x9f\x98\n", "4050768cb653c59:1",
               "3e45bd4e7f537bda:1", "a88b3c201b7e6ebe:1", EMPTY_LINE);
}

/* The BOM is a character like any other (Node keeps U+FEFF). */
static void test_hash_bom(void **state) {
  (void)state;
  CHECK_HASHES("\xef\xbb\xbfimport cupy\n", "2d8d97eae1af8b5c:1", EMPTY_LINE);
  CHECK_HASHES("import cupy\n", "474a2ca312e670bd:1", EMPTY_LINE);
}

/* A line longer than the 100-unit window, and one whose 100 units end inside the next line. */
static void test_hash_long_lines(void **state) {
  (void)state;
  char text[400];
  memset(text, 'x', 250);
  text[250] = '\n';
  memcpy(text + 251, "  ", 2);
  memset(text + 253, 'y', 99);
  memcpy(text + 352, " z\n", 4);
  static const char *const want[] = {"52b56201ffb58620:1", "cadd4b5b9d92c51d:1", EMPTY_LINE};
  check_hashes(text, strlen(text), want, 3);
}

/* Blank lines, lone CRs, CR LF and whitespace-only lines each count as one line. */
static void test_hash_blank_lines(void **state) {
  (void)state;
  CHECK_HASHES("a\r\rb\r\n\r\n  \n\t\n", "58e8504d6fda3ba6:1", "6abcc6469357f117:1",
               "7528822d4c9545e9:1", "4e5d562094661a0d:1", "5b5d4caf73a13177:1",
               "3c5bef55b72b93c9:1", EMPTY_LINE);
}

/* ---- URIs ----------------------------------------------------------------------------------- */

static void check_uri(const char *path, const char *root, const char *want, bool want_rel) {
  bool rel = !want_rel;
  char *got = gl_loc_uri(path, root, &rel);
  if (strcmp(got, want) != 0 || rel != want_rel)
    fail_msg("uri(%s, %s): got %s (%d), want %s (%d)", path, root ? root : "NULL", got, rel, want,
             want_rel);
  free(got);
}

static void test_uri_absolute_paths(void **state) {
  (void)state;
  check_uri("/repo/src/a.py", "/repo", "src/a.py", true);
  check_uri("/repo/./src/../lib//b.py", "/repo", "lib/b.py", true);
  check_uri("/repo/src/a.py", "/repo/", "src/a.py", true);
  check_uri("/other/a.py", "/repo", "file:///other/a.py", false);
  /* a sibling whose name starts like the root is outside it */
  check_uri("/repository/a.py", "/repo", "file:///repository/a.py", false);
  check_uri("/repo/../etc/x.py", "/repo", "file:///etc/x.py", false);
  check_uri("/repo", "/repo", "file:///repo", false);
  check_uri("/a.py", NULL, "file:///a.py", false);
  check_uri("/x/../../a.py", "/", "a.py", true);
}

static void test_uri_percent_encoding(void **state) {
  (void)state;
  check_uri("/repo/my dir/100%.py", "/repo", "my%20dir/100%25.py", true);
  check_uri("/repo/bad\xff.py", "/repo", "bad%FF.py", true);
  check_uri("/repo/esc\x1b[31m.py", "/repo", "esc%1B%5B31m.py", true);
  check_uri("/repo/a:b#c?d.py", "/repo", "a%3Ab%23c%3Fd.py", true);
  check_uri("/repo/~keep-._.py", "/repo", "~keep-._.py", true);
  check_uri("/repo/\xc3\xa9.py", "/repo", "%C3%A9.py", true);
  check_uri("/out side/x.py", "/repo", "file:///out%20side/x.py", false);
}

typedef struct cwd_state {
  char old[PATH_MAX];
  char dir[64];
} cwd_state;

static int cwd_setup(void **state) {
  cwd_state *s = calloc(1, sizeof *s);
  if (!getcwd(s->old, sizeof s->old)) return -1;
  snprintf(s->dir, sizeof s->dir, "/tmp/gl_loc_XXXXXX");
  if (!mkdtemp(s->dir) || chdir(s->dir) != 0) return -1;
  *state = s;
  return 0;
}

static int cwd_teardown(void **state) {
  cwd_state *s = *state;
  int rc = chdir(s->old);
  rmdir(s->dir);
  free(s);
  return rc;
}

/* Relative paths are made absolute against the current directory first. */
static void test_uri_relative_paths(void **state) {
  cwd_state *s = *state;
  char real[PATH_MAX];
  assert_non_null(getcwd(real, sizeof real));
  check_uri("src/a.py", real, "src/a.py", true);
  check_uri("./src/../a.py", real, "a.py", true);
  check_uri("a.py", ".", "a.py", true);
  char *want = NULL;
  want = malloc(strlen(real) + 32);
  snprintf(want, strlen(real) + 32, "file://%s/a.py", real);
  check_uri("a.py", "/elsewhere", want, false);
  free(want);
  /* "../x.py" leaves the root (the temp directory) */
  check_uri("../x.py", real, "file:///tmp/x.py", false);
  (void)s;
}

/* ---- visible text --------------------------------------------------------------------------- */

static void check_safe(const char *s, size_t len, const char *want) {
  char *got = gl_utf8_safe_text(s, len);
  if (strcmp(got, want) != 0) fail_msg("safe(%zu bytes): got '%s', want '%s'", len, got, want);
  free(got);
}

#define CHECK_SAFE(lit, want) check_safe((lit), sizeof(lit) - 1, (want))

static void test_safe_text_controls(void **state) {
  (void)state;
  CHECK_SAFE("plain.py", "plain.py");
  CHECK_SAFE("a\x1b[31mred", "a\\x1b[31mred");
  CHECK_SAFE("tab\tstays", "tab\tstays");
  CHECK_SAFE("new\nline\r", "new\\x0aline\\x0d");
  CHECK_SAFE("nul\0x", "nul\\x00x");
  CHECK_SAFE("del\x7f", "del\\x7f");
  CHECK_SAFE("bell\a", "bell\\x07");
  /* C1 CSI (U+009B) and a right-to-left override are escaped too */
  CHECK_SAFE("c1\xc2\x9b" "2J", "c1\\u009b2J");
  CHECK_SAFE("rlo\xe2\x80\xae", "rlo\\u202e");
  CHECK_SAFE("", "");
}

static void test_safe_text_utf8(void **state) {
  (void)state;
  CHECK_SAFE("caf\xc3\xa9 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xf0\x9f\x98\x80");
  /* every invalid byte is its own U+FFFD (as load.c counts columns) */
  CHECK_SAFE("a\xff" "b", "a\xef\xbf\xbd" "b");
  CHECK_SAFE("\xe2\x82" "x", "\xef\xbf\xbd\xef\xbf\xbd" "x");
  CHECK_SAFE("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
  CHECK_SAFE("\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd");
  CHECK_SAFE("end\xf0\x9f\x98", "end\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hash_empty_file),
      cmocka_unit_test(test_hash_published_newlines),
      cmocka_unit_test(test_hash_published_line_ends),
      cmocka_unit_test(test_hash_published_repeats),
      cmocka_unit_test(test_hash_astral),
      cmocka_unit_test(test_hash_invalid_utf8),
      cmocka_unit_test(test_hash_bom),
      cmocka_unit_test(test_hash_long_lines),
      cmocka_unit_test(test_hash_blank_lines),
      cmocka_unit_test(test_uri_absolute_paths),
      cmocka_unit_test(test_uri_percent_encoding),
      cmocka_unit_test_setup_teardown(test_uri_relative_paths, cwd_setup, cwd_teardown),
      cmocka_unit_test(test_safe_text_controls),
      cmocka_unit_test(test_safe_text_utf8),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
