/* test_output.c: unit tests for src/report/output.c (atomic report files).
 * Owns: commit replaces the target in one step, abort and failed commits leave the old content
 *       and no temp file, the new file's mode is 0644 less the umask, errors name the file,
 *       devices are written in place, directories refused.
 * Not: formats (test_report.c, test_sarif.c).
 * Threads: single-threaded; each test works in its own mkdtemp directory. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/output.h"

typedef struct tmpdir {
  char path[64];
  char file[128];
} tmpdir;

static int setup(void **state) {
  tmpdir *t = calloc(1, sizeof *t);
  snprintf(t->path, sizeof t->path, "/tmp/gl_out_XXXXXX");
  if (!mkdtemp(t->path)) return -1;
  snprintf(t->file, sizeof t->file, "%s/report.sarif", t->path);
  *state = t;
  return 0;
}

/* Removes the directory's plain files, then the directory. */
static int teardown(void **state) {
  tmpdir *t = *state;
  DIR *d = opendir(t->path);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char p[512];
    snprintf(p, sizeof p, "%s/%s", t->path, e->d_name);
    if (unlink(p) != 0) rmdir(p);
  }
  if (d) closedir(d);
  rmdir(t->path);
  free(t);
  return 0;
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
}

static void assert_content(const char *path, const char *want) {
  char buf[256] = "";
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  assert_string_equal(buf, want);
}

/* Number of directory entries besides . and .. */
static int count_entries(const char *dir) {
  int n = 0;
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) n++;
  if (d) closedir(d);
  return n;
}

static void test_commit_replaces(void **state) {
  tmpdir *t = *state;
  write_file(t->file, "old content\n");
  gl_output o;
  assert_int_equal(gl_output_open(&o, t->file), 0);
  assert_non_null(o.tmp_path);
  /* the temp file sits next to the target: "<path>.gpulint-tmp-XXXXXX" */
  assert_int_equal(strncmp(o.tmp_path, t->file, strlen(t->file)), 0);
  assert_int_equal(strlen(o.tmp_path), strlen(t->file) + strlen(".gpulint-tmp-") + 6);
  assert_int_equal(strncmp(o.tmp_path + strlen(t->file), ".gpulint-tmp-", 13), 0);
  fputs("new", gl_output_stream(&o));
  /* until the commit, the target keeps its old content */
  fflush(gl_output_stream(&o));
  assert_content(t->file, "old content\n");
  assert_int_equal(count_entries(t->path), 2);
  assert_int_equal(gl_output_commit(&o), 0);
  assert_content(t->file, "new");
  assert_int_equal(count_entries(t->path), 1);
  gl_output_abort(&o); /* after a commit: nothing to do */
  assert_content(t->file, "new");
}

static void test_abort_keeps_old(void **state) {
  tmpdir *t = *state;
  write_file(t->file, "old content\n");
  gl_output o;
  assert_int_equal(gl_output_open(&o, t->file), 0);
  fputs("half a rep", gl_output_stream(&o));
  gl_output_abort(&o);
  assert_content(t->file, "old content\n");
  assert_int_equal(count_entries(t->path), 1);
  gl_output_abort(&o); /* twice is harmless */
}

static void test_abort_without_target(void **state) {
  tmpdir *t = *state;
  gl_output o;
  assert_int_equal(gl_output_open(&o, t->file), 0);
  fputs("x", gl_output_stream(&o));
  gl_output_abort(&o);
  assert_int_equal(count_entries(t->path), 0);
  assert_int_equal(access(t->file, F_OK), -1);
}

static void test_mode_respects_umask(void **state) {
  tmpdir *t = *state;
  mode_t old = umask(027);
  gl_output o;
  assert_int_equal(gl_output_open(&o, t->file), 0);
  assert_int_equal(gl_output_commit(&o), 0);
  umask(old);
  struct stat st;
  assert_int_equal(stat(t->file, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0640);
}

static void test_missing_directory(void **state) {
  tmpdir *t = *state;
  char path[256];
  snprintf(path, sizeof path, "%s/no/such/out.sarif", t->path);
  gl_output o;
  assert_int_equal(gl_output_open(&o, path), GL_EIO);
  assert_null(o.fp);
  char want[400];
  snprintf(want, sizeof want, "cannot create temp file '%s.gpulint-tmp-XXXXXX': no such file or directory", path);
  assert_string_equal(o.err.msg, want);
  assert_string_equal(o.err.path, path);
}

static void test_directory_target(void **state) {
  tmpdir *t = *state;
  gl_output o;
  assert_int_equal(gl_output_open(&o, t->path), GL_EIO);
  char want[200];
  snprintf(want, sizeof want, "cannot write '%s': is a directory", t->path);
  assert_string_equal(o.err.msg, want);
  assert_int_equal(count_entries(t->path), 0);
}

/* A failed rename (the target became a directory meanwhile) removes the temp file. */
static void test_failed_commit_cleans_up(void **state) {
  tmpdir *t = *state;
  gl_output o;
  assert_int_equal(gl_output_open(&o, t->file), 0);
  fputs("report", gl_output_stream(&o));
  assert_int_equal(mkdir(t->file, 0755), 0);
  char sub[200];
  snprintf(sub, sizeof sub, "%s/keep", t->file);
  write_file(sub, "x"); /* a non-empty directory cannot be renamed over */
  assert_int_equal(gl_output_commit(&o), GL_EIO);
  assert_non_null(strstr(o.err.msg, "cannot write '"));
  assert_int_equal(count_entries(t->path), 1); /* only the directory */
  gl_output_abort(&o);
  unlink(sub);
}

/* /dev/null is written in place, never renamed over. */
static void test_device_in_place(void **state) {
  (void)state;
  gl_output o;
  assert_int_equal(gl_output_open(&o, "/dev/null"), 0);
  assert_null(o.tmp_path);
  fputs("discarded", gl_output_stream(&o));
  assert_int_equal(gl_output_commit(&o), 0);
  struct stat st;
  assert_int_equal(stat("/dev/null", &st), 0);
  assert_true(S_ISCHR(st.st_mode));
}

static void test_stdout(void **state) {
  (void)state;
  gl_output o;
  assert_int_equal(gl_output_open(&o, "-"), 0);
  assert_ptr_equal(gl_output_stream(&o), stdout);
  assert_int_equal(gl_output_commit(&o), 0);
  assert_int_equal(gl_output_open(&o, NULL), 0);
  assert_ptr_equal(gl_output_stream(&o), stdout);
  gl_output_abort(&o);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_commit_replaces, setup, teardown),
      cmocka_unit_test_setup_teardown(test_abort_keeps_old, setup, teardown),
      cmocka_unit_test_setup_teardown(test_abort_without_target, setup, teardown),
      cmocka_unit_test_setup_teardown(test_mode_respects_umask, setup, teardown),
      cmocka_unit_test_setup_teardown(test_missing_directory, setup, teardown),
      cmocka_unit_test_setup_teardown(test_directory_target, setup, teardown),
      cmocka_unit_test_setup_teardown(test_failed_commit_cleans_up, setup, teardown),
      cmocka_unit_test(test_device_in_place),
      cmocka_unit_test(test_stdout),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
