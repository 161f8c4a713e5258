/* test_walk.c: unit tests for walk.c (which files a run lints).
 * Owns: checks of what walk.h promises, on real trees built in a mkdtemp directory: recursion and
 *       order, excludes, symlinks and loops, FIFOs, errors, .gitignore through libgit2 (and that
 *       a repository's core.fsmonitor program never runs), display-path normalisation.
 * Not: reading files (test_load.c).
 * Threads: single-threaded; each test chdirs into its own temporary tree and back. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <git2.h>

#include "walk/walk.h"

/* ---- fixture ------------------------------------------------------------------------------- */

typedef struct fixture {
  char root[64];
  char old_cwd[4096];
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof(*f));
  snprintf(f->root, sizeof(f->root), "/tmp/gl_walk_XXXXXX");
  if (!mkdtemp(f->root) || !getcwd(f->old_cwd, sizeof(f->old_cwd)) || chdir(f->root) != 0)
    return -1;
  *state = f;
  alarm(30); /* a blocking open of a FIFO fails the test instead of hanging the suite */
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  alarm(0);
  int rc = chdir(f->old_cwd);
  char cmd[256];
  snprintf(cmd, sizeof(cmd), "chmod -R u+rwx '%s' && rm -rf '%s'", f->root, f->root);
  if (system(cmd) != 0) rc = -1;
  free(f);
  return rc;
}

/* mkdir -p for every parent of path. */
static void make_parents(const char *path) {
  char buf[1024];
  snprintf(buf, sizeof(buf), "%s", path);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0755) != 0 && errno != EEXIST) fail_msg("mkdir %s", buf);
    *p = '/';
  }
}

static void put(const char *path, const char *text) {
  make_parents(path);
  FILE *fp = fopen(path, "w");
  if (!fp) fail_msg("cannot create %s", path);
  fputs(text, fp);
  assert_int_equal(fclose(fp), 0);
}

static void link_to(const char *target, const char *path) {
  make_parents(path);
  if (symlink(target, path) != 0) fail_msg("symlink %s", path);
}

/* The result as "a.py,sub/b.py*" (a '*' marks explicit_arg), so a mismatch shows the whole list. */
static void assert_files(const gl_walk_result *r, const char *want) {
  char got[4096] = "";
  size_t o = 0;
  for (size_t i = 0; i < r->files.len; i++)
    o += (size_t)snprintf(got + o, sizeof(got) - o, "%s%s%s", i ? "," : "", r->files.data[i].path,
                          r->files.data[i].explicit_arg ? "*" : "");
  assert_string_equal(got, want);
}

static gl_walk_result walk1(const char *path, const gl_walk_opts *opts, int want_rc) {
  gl_walk_result r;
  const char *paths[] = {path};
  assert_int_equal(gl_walk(paths, 1, opts, &r), want_rc);
  return r;
}

static const gl_walk_opts git_on = {NULL, 0, true};
static const gl_walk_opts git_off = {NULL, 0, false};

static void std_tree(void) {
  put("b.py", "");
  put("a.py", "");
  put("Z.py", "");
  put("notes.txt", "");
  put("a.pyc", "");
  put("sub/c.py", "");
  put("sub/x.pyi", "");
  put("sub/deep/d.py", "");
}

/* ---- recursion, order, excludes ------------------------------------------------------------ */

static void test_default_excluded_names(void **state) {
  (void)state;
  const char *yes[] = {".git", ".venv", "venv", "__pycache__", "node_modules",
                       "build", "dist", "site-packages", ".tox", ".eggs"};
  for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
    assert_true(gl_walk_is_default_excluded(yes[i]));
  const char *no[] = {"", "Build", "builds", ".github", "venv2", "src", "dist.py", "eggs"};
  for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
    assert_false(gl_walk_is_default_excluded(no[i]));
}

static void test_recursion_and_sorting(void **state) {
  (void)state;
  std_tree();
  gl_walk_result r;
  assert_int_equal(gl_walk(NULL, 0, NULL, &r), GL_OK);
  assert_files(&r, "Z.py,a.py,b.py,sub/c.py,sub/deep/d.py");
  assert_int_equal(r.errors.len, 0);
  gl_walk_result_free(&r);

  r = walk1(".", &git_off, GL_OK);
  assert_files(&r, "Z.py,a.py,b.py,sub/c.py,sub/deep/d.py");
  gl_walk_result_free(&r);
  gl_walk_result_free(&r); /* freeing twice is harmless */
}

static void test_default_excludes_pruned(void **state) {
  (void)state;
  const char *dirs[] = {".git", ".venv", "venv", "__pycache__", "node_modules",
                        "build", "dist", "site-packages", ".tox", ".eggs"};
  char path[128];
  for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
    snprintf(path, sizeof(path), "pkg/%s/x.py", dirs[i]);
    put(path, "");
  }
  put("pkg/builder/ok.py", "");
  put("pkg/build.py", "");
  put("pkg/.hidden/h.py", "");
  gl_walk_result r = walk1("pkg", &git_off, GL_OK);
  assert_files(&r, "pkg/.hidden/h.py,pkg/build.py,pkg/builder/ok.py");
  gl_walk_result_free(&r);

  /* a directory named explicitly is walked even though its name is a default exclude */
  r = walk1("pkg/build", &git_off, GL_OK);
  assert_files(&r, "pkg/build/x.py");
  gl_walk_result_free(&r);
}

static void test_user_excludes(void **state) {
  (void)state;
  put("app.py", "");
  put("pkg/a.py", "");
  put("pkg/test_a.py", "");
  put("pkg/gen/g.py", "");
  put("pkg/gen2/g.py", "");
  put("vendor/v.py", "");
  put("lib/vendor.py", "");
  const char *globs[] = {"test_*.py", "pkg/gen", "./vendor*/"};
  gl_walk_opts opts = {globs, 3, false};
  gl_walk_result r = walk1(".", &opts, GL_OK);
  /* the trailing slash means directories only: lib/vendor.py stays; "pkg/gen" keeps pkg/gen2 */
  assert_files(&r, "app.py,lib/vendor.py,pkg/a.py,pkg/gen2/g.py");
  gl_walk_result_free(&r);

  /* a path glob is matched relative to the walk root and as displayed */
  const char *rel_glob[] = {"gen*/g.py"};
  gl_walk_opts rel = {rel_glob, 1, false};
  r = walk1("pkg", &rel, GL_OK);
  assert_files(&r, "pkg/a.py,pkg/test_a.py");
  gl_walk_result_free(&r);

  const char *disp_glob[] = {"pkg/gen2"};
  gl_walk_opts disp = {disp_glob, 1, false};
  r = walk1("pkg", &disp, GL_OK);
  assert_files(&r, "pkg/a.py,pkg/gen/g.py,pkg/test_a.py");
  gl_walk_result_free(&r);

  /* near misses: globs match whole names and paths, never a part of one */
  const char *miss_glob[] = {"ge", "en", "a", "pkg/ge", "kg/gen", "g.p"};
  gl_walk_opts miss = {miss_glob, 6, false};
  r = walk1("pkg", &miss, GL_OK);
  assert_files(&r, "pkg/a.py,pkg/gen/g.py,pkg/gen2/g.py,pkg/test_a.py");
  gl_walk_result_free(&r);
}

static void test_explicit_file_beats_exclude(void **state) {
  (void)state;
  put("pkg/test_a.py", "");
  put("build/b.py", "");
  const char *globs[] = {"test_*.py", "b.py"};
  gl_walk_opts opts = {globs, 2, false};
  const char *paths[] = {"pkg/test_a.py", "build/b.py", "pkg"};
  gl_walk_result r;
  assert_int_equal(gl_walk(paths, 3, &opts, &r), GL_OK);
  assert_files(&r, "build/b.py*,pkg/test_a.py*");
  gl_walk_result_free(&r);
}

static void test_explicit_non_py_file_listed(void **state) {
  (void)state;
  put("script", "");
  put("notes.txt", "");
  const char *paths[] = {"script", "./notes.txt"};
  gl_walk_result r;
  assert_int_equal(gl_walk(paths, 2, &git_off, &r), GL_OK);
  assert_files(&r, "notes.txt*,script*");
  gl_walk_result_free(&r);
}

/* ---- symlinks, FIFOs, devices, depth ------------------------------------------------------- */

static void test_symlink_loop_terminates(void **state) {
  (void)state;
  put("dir/a.py", "");
  link_to("..", "dir/up");
  link_to(".", "dir/self");
  link_to("loop.py", "dir/loop.py"); /* a link to itself: stat fails with ELOOP */
  gl_walk_result r = walk1(".", &git_off, GL_OK);
  assert_files(&r, "dir/a.py");
  assert_int_equal(r.errors.len, 0);
  gl_walk_result_free(&r);
}

static void test_symlinks_inside_walk(void **state) {
  (void)state;
  put("real.py", "");
  put("notes.txt", "");
  put("sub/inner.py", "");
  link_to("real.py", "alias.py");         /* listed under its own name */
  link_to("notes.txt", "text_alias.py");  /* a *.py link to a regular file: listed */
  link_to("real.py", "alias_no_ext");     /* name is not *.py: skipped */
  link_to("sub", "dirlink.py");           /* points at a directory: skipped, not walked */
  link_to("sub", "sublink");
  link_to("missing.py", "dangling.py");   /* dangling: skipped silently */
  gl_walk_result r = walk1(".", &git_off, GL_OK);
  assert_files(&r, "alias.py,real.py,sub/inner.py,text_alias.py");
  assert_int_equal(r.errors.len, 0);
  gl_walk_result_free(&r);
}

/* A link inside the walk that points outside the directory named is not read; named, it is. */
static void test_symlinks_out_of_the_tree_not_followed(void **state) {
  (void)state;
  put("outside.py", "");
  put("tree/inner.py", "");
  link_to("../outside.py", "tree/up.py");
  link_to("/etc/passwd", "tree/passwd.py");
  link_to("inner.py", "tree/alias.py");       /* inside: listed */
  gl_walk_result r = walk1("tree", &git_off, GL_OK);
  assert_files(&r, "tree/alias.py,tree/inner.py");
  assert_int_equal(r.errors.len, 0);
  gl_walk_result_free(&r);
  r = walk1(".", &git_off, GL_OK);             /* from above, ../outside.py is inside */
  assert_files(&r, "outside.py,tree/alias.py,tree/inner.py,tree/up.py");
  gl_walk_result_free(&r);
  r = walk1("tree/up.py", &git_off, GL_OK);    /* named by the user: read */
  assert_files(&r, "tree/up.py*");
  gl_walk_result_free(&r);
}

/* t/../t/ok.py is t/ok.py when t is a real directory: one file, not two; through a symlink the
 * ".." is elsewhere, so the path is kept as written. */
static void test_dotdot_canonicalised(void **state) {
  (void)state;
  put("t/ok.py", "");
  put("real/x.py", "");
  link_to("real", "lnk");
  const char *paths[] = {"t/../t/ok.py", "t/ok.py", "./t/./ok.py", "t/sub/../ok.py", "lnk/../t/ok.py"};
  gl_walk_result r;
  assert_int_equal(gl_walk(paths, 5, &git_off, &r), GL_EIO);   /* t/sub does not exist */
  assert_files(&r, "lnk/../t/ok.py*,t/ok.py*");
  gl_walk_result_free(&r);
  r = walk1("t/..", &git_off, GL_OK);
  assert_files(&r, "real/x.py,t/ok.py");
  gl_walk_result_free(&r);
}

static void test_explicit_symlinks_followed(void **state) {
  (void)state;
  put("sub/inner.py", "");
  put("notes.txt", "");
  link_to("sub", "dirlink");
  link_to("notes.txt", "textlink");
  link_to("nowhere.py", "dangling.py");
  const char *paths[] = {"dirlink", "textlink", "dangling.py"};
  gl_walk_result r;
  assert_int_equal(gl_walk(paths, 3, &git_off, &r), GL_EIO);
  assert_files(&r, "dirlink/inner.py,textlink*");
  assert_int_equal(r.errors.len, 1);
  assert_string_equal(r.errors.data[0].path, "dangling.py");
  assert_string_equal(r.errors.data[0].msg, "not a regular file or directory");
  gl_walk_result_free(&r);
}

static void test_fifo_inside_walk_skipped(void **state) {
  (void)state;
  put("d/a.py", "");
  assert_int_equal(mkfifo("d/pipe.py", 0600), 0);
  gl_walk_result r = walk1("d", &git_off, GL_OK);
  assert_files(&r, "d/a.py");
  assert_int_equal(r.errors.len, 0);
  gl_walk_result_free(&r);
}

static void test_explicit_fifo_and_device_are_errors(void **state) {
  (void)state;
  assert_int_equal(mkfifo("pipe.py", 0600), 0);
  put("ok.py", "");
  const char *paths[] = {"pipe.py", "/dev/null", "ok.py"};
  gl_walk_result r;
  assert_int_equal(gl_walk(paths, 3, &git_off, &r), GL_EIO);
  assert_files(&r, "ok.py*");
  assert_int_equal(r.errors.len, 2);
  assert_string_equal(r.errors.data[0].path, "pipe.py");
  assert_string_equal(r.errors.data[0].msg, "not a regular file or directory");
  assert_string_equal(r.errors.data[1].path, "/dev/null");
  assert_string_equal(r.errors.data[1].msg, "not a regular file or directory");
  gl_walk_result_free(&r);
}

static void test_missing_path_is_error(void **state) {
  (void)state;
  put("a.py", "");
  const char *paths[] = {"a.py", "./missing.py", ""};
  gl_walk_result r;
  assert_int_equal(gl_walk(paths, 3, &git_off, &r), GL_EIO);
  assert_files(&r, "a.py*");
  assert_int_equal(r.errors.len, 2);
  assert_string_equal(r.errors.data[0].path, "missing.py");
  assert_string_equal(r.errors.data[0].msg, "no such file or directory");
  assert_string_equal(r.errors.data[1].path, "");
  assert_string_equal(r.errors.data[1].msg, "empty string is not a valid path");
  gl_walk_result_free(&r);
  /* a path longer than any fixed buffer is kept whole */
  char longp[3000];
  for (size_t i = 0; i < 2990; i += 2) memcpy(longp + i, "d/", 2);
  memcpy(longp + 2990, "x.py", 5);
  const char *one[] = {longp};
  assert_int_equal(gl_walk(one, 1, &git_off, &r), GL_EIO);
  assert_int_equal(r.errors.len, 1);
  assert_string_equal(r.errors.data[0].path, longp);
  gl_walk_result_free(&r);
}

static void test_unreadable_directory_is_error(void **state) {
  (void)state;
  if (geteuid() == 0) skip(); /* root reads a mode-000 directory */
  put("ok.py", "");
  put("locked/x.py", "");
  assert_int_equal(chmod("locked", 0), 0);
  gl_walk_result r = walk1(".", &git_off, GL_EIO);
  assert_files(&r, "ok.py");
  assert_int_equal(r.errors.len, 1);
  assert_string_equal(r.errors.data[0].path, "locked");
  assert_string_equal(r.errors.data[0].msg, "cannot open directory: permission denied");
  gl_walk_result_free(&r);
}

static void test_depth_limit(void **state) {
  (void)state;
  char path[1024] = "n";
  for (int i = 1; i < 258; i++) strcat(path, "/n"); /* 258 levels */
  char file[1100];
  snprintf(file, sizeof(file), "%s/deep.py", path);
  put(file, "");
  snprintf(file, sizeof(file), "%.*s/ok.py", 2 * 256 - 1, path); /* at level 256 */
  put(file, "");
  gl_walk_result r = walk1(".", &git_off, GL_EIO);
  assert_int_equal(r.files.len, 1);
  assert_string_equal(r.files.data[0].path, file);
  assert_int_equal(r.errors.len, 1);
  char deep[1024];
  snprintf(deep, sizeof(deep), "%.*s", 2 * 257 - 1, path);
  assert_string_equal(r.errors.data[0].path, deep);
  assert_string_equal(r.errors.data[0].msg, "directory nesting deeper than 256 levels, not walked");
  gl_walk_result_free(&r);
}

/* ---- display paths ------------------------------------------------------------------------- */

static void test_display_path_normalisation(void **state) {
  (void)state;
  std_tree();
  const char *paths[] = {"./sub/", "sub//c.py", "./a.py", "sub/./deep/../deep/d.py"};
  gl_walk_result r;
  assert_int_equal(gl_walk(paths, 4, &git_off, &r), GL_OK);
  /* duplicates merge, keeping explicit_arg; "deep/.." cancels (deep is a real directory; through
   * a symlink it is kept: test_dotdot_canonicalised) */
  assert_files(&r, "a.py*,sub/c.py*,sub/deep/d.py*");
  gl_walk_result_free(&r);

  const char *both[] = {".", "a.py"};
  assert_int_equal(gl_walk(both, 2, &git_off, &r), GL_OK);
  assert_files(&r, "Z.py,a.py*,b.py,sub/c.py,sub/deep/d.py");
  gl_walk_result_free(&r);
}

static void test_absolute_root(void **state) {
  fixture *f = *state;
  put("sub/c.py", "");
  char abs[128];
  snprintf(abs, sizeof(abs), "%s//sub/", f->root);
  gl_walk_result r = walk1(abs, &git_off, GL_OK);
  char want[160];
  snprintf(want, sizeof(want), "%s/sub/c.py", f->root);
  assert_files(&r, want);
  gl_walk_result_free(&r);
}

/* ---- .gitignore through libgit2 ------------------------------------------------------------ */

static void git_init_here(const char *dir) {
  git_libgit2_init();
  git_repository *repo = NULL;
  if (git_repository_init(&repo, dir, 0) != 0) fail_msg("git_repository_init %s", dir);
  git_repository_free(repo);
  git_libgit2_shutdown();
}

static void gitignore_tree(void) {
  git_init_here(".");
  put(".gitignore", "ignored.py\ngen/\n");
  put("kept.py", "");
  put("ignored.py", "");
  put("gen/g.py", "");
  put("sub/ignored.py", "");
  put("sub/ok.py", "");
  put("sub/gen/g.py", "");
}

static void test_gitignore_honoured(void **state) {
  (void)state;
  gitignore_tree();
  gl_walk_result r = walk1(".", &git_on, GL_OK);
  assert_files(&r, "kept.py,sub/ok.py");
  gl_walk_result_free(&r);

  /* a walk root below the work tree's top still sees the top's .gitignore */
  r = walk1("sub", &git_on, GL_OK);
  assert_files(&r, "sub/ok.py");
  gl_walk_result_free(&r);

  r = walk1(".", &git_off, GL_OK);
  assert_files(&r, "gen/g.py,ignored.py,kept.py,sub/gen/g.py,sub/ignored.py,sub/ok.py");
  gl_walk_result_free(&r);

  r = walk1(".", NULL, GL_OK); /* NULL options: .gitignore respected */
  assert_files(&r, "kept.py,sub/ok.py");
  gl_walk_result_free(&r);
}

static void test_gitignored_explicit_paths_kept(void **state) {
  (void)state;
  gitignore_tree();
  const char *paths[] = {"ignored.py", "gen", "."};
  gl_walk_result r;
  assert_int_equal(gl_walk(paths, 3, &git_on, &r), GL_OK);
  assert_files(&r, "gen/g.py,ignored.py*,kept.py,sub/ok.py");
  gl_walk_result_free(&r);
}

static void test_gitignore_of_nested_repo(void **state) {
  (void)state;
  put("top.py", "");
  git_init_here("inner");
  put("inner/.gitignore", "secret.py\n");
  put("inner/secret.py", "");
  put("inner/lib.py", "");
  put("plain/secret.py", ""); /* not in any repository: nothing filters it */
  gl_walk_result r = walk1(".", &git_on, GL_OK);
  assert_files(&r, "inner/lib.py,plain/secret.py,top.py");
  gl_walk_result_free(&r);
}

static void test_fsmonitor_never_runs(void **state) {
  fixture *f = *state;
  git_init_here(".");
  put("a.py", "");
  put(".gitignore", "b.py\n");
  put("b.py", "");
  char script[128], marker[128], body[300];
  snprintf(script, sizeof(script), "%s/fsmonitor.sh", f->root);
  snprintf(marker, sizeof(marker), "%s/marker", f->root);
  snprintf(body, sizeof(body), "#!/bin/sh\ntouch '%s'\nexit 1\n", marker);
  put(script, body);
  assert_int_equal(chmod(script, 0755), 0);
  git_libgit2_init();
  git_repository *repo = NULL;
  git_config *cfg = NULL;
  assert_int_equal(git_repository_open(&repo, "."), 0);
  assert_int_equal(git_repository_config(&cfg, repo), 0);
  assert_int_equal(git_config_set_string(cfg, "core.fsmonitor", script), 0);
  git_config_free(cfg);
  git_repository_free(repo);
  git_libgit2_shutdown();

  /* Arm check: when the git binary is present, it does run the program (so the test can fail). */
  if (access("/usr/bin/git", X_OK) == 0) {
    assert_int_equal(system("/usr/bin/git ls-files >/dev/null 2>&1"), 0);
    assert_int_equal(access(marker, F_OK), 0);
    assert_int_equal(unlink(marker), 0);
  }
  gl_walk_result r = walk1(".", &git_on, GL_OK);
  assert_files(&r, "a.py");
  assert_int_equal(access(marker, F_OK), -1);
  gl_walk_result_free(&r);
}

/* ---- --stdin-filename: one virtual file ------------------------------------------------------ */

static gl_walk_result walk_stdin(const char *path, const gl_walk_opts *opts) {
  gl_walk_result r;
  assert_int_equal(gl_walk_stdin(path, opts, &r), GL_OK);
  assert_int_equal(r.errors.len, 0);
  return r;
}

#define ASSERT_STDIN(path, opts, want)                  \
  do {                                                  \
    gl_walk_result r_ = walk_stdin((path), (opts));     \
    assert_files(&r_, (want));                          \
    gl_walk_result_free(&r_);                           \
  } while (0)

static void test_stdin_virtual_file(void **state) {
  (void)state;
  put("sub/real.py", "");
  ASSERT_STDIN("./sub//real.py", &git_off, "sub/real.py*");
  ASSERT_STDIN("new/dir/never.py", &git_off, "new/dir/never.py*"); /* need not exist */
  ASSERT_STDIN("notes.txt", &git_off, "");                          /* not *.py: nothing */
  ASSERT_STDIN("stub.pyi", &git_off, "");
  ASSERT_STDIN("sub", &git_off, "");
  ASSERT_STDIN("/", &git_off, "");
  gl_walk_result r;
  assert_int_equal(gl_walk_stdin("", &git_off, &r), GL_EIO);
  assert_int_equal(r.errors.len, 1);
  assert_string_equal(r.errors.data[0].msg, "empty string is not a valid path");
  assert_int_equal(r.files.len, 0);
  gl_walk_result_free(&r);
}

static void test_stdin_excludes(void **state) {
  fixture *f = *state;
  const char *globs[] = {"gen/", "skip_*.py", "deep/x/*.py"};
  gl_walk_opts opts = {globs, 3, false};
  ASSERT_STDIN("build/a.py", &git_off, "");          /* default-excluded directory on the way */
  ASSERT_STDIN("src/.venv/lib/a.py", &git_off, "");
  ASSERT_STDIN("build.py", &git_off, "build.py*");   /* only directories are default-excluded */
  ASSERT_STDIN("gen/a.py", &opts, "");               /* a directory glob */
  ASSERT_STDIN("src/gen/a.py", &opts, "");
  ASSERT_STDIN("gen.py", &opts, "gen.py*");          /* "gen/" is for directories only */
  ASSERT_STDIN("src/skip_me.py", &opts, "");         /* a file glob on the name */
  ASSERT_STDIN("deep/x/a.py", &opts, "");            /* a file glob on the relative path */
  ASSERT_STDIN("deep/y/a.py", &opts, "deep/y/a.py*");
  /* an absolute path below the current directory is matched by its relative path */
  char abs[256];
  snprintf(abs, sizeof(abs), "%s/deep/x/a.py", f->root);
  ASSERT_STDIN(abs, &opts, "");
  snprintf(abs, sizeof(abs), "%s/build/a.py", f->root);
  ASSERT_STDIN(abs, &git_off, "");
  /* outside the current directory and any repository: only the file's name is checked */
  ASSERT_STDIN("/nonexistent-gl/build/skip_me.py", &opts, "");
  ASSERT_STDIN("/nonexistent-gl/build/ok.py", &opts, "/nonexistent-gl/build/ok.py*");
}

static void test_stdin_gitignore(void **state) {
  (void)state;
  gitignore_tree(); /* .gitignore: ignored.py, gen/ */
  ASSERT_STDIN("ignored.py", &git_on, "");
  ASSERT_STDIN("sub/ignored.py", &git_on, "");
  ASSERT_STDIN("gen/new/never.py", &git_on, ""); /* an ignored directory, even not existing */
  ASSERT_STDIN("sub/new.py", &git_on, "sub/new.py*");
  ASSERT_STDIN("ignored.py", &git_off, "ignored.py*");
  /* from a subdirectory, the repository's top-level .gitignore still applies */
  assert_int_equal(chdir("sub"), 0);
  ASSERT_STDIN("ignored.py", &git_on, "");
  ASSERT_STDIN("../gen/g.py", &git_on, "");
  ASSERT_STDIN("../kept.py", &git_on, "../kept.py*");
  assert_int_equal(chdir(".."), 0);
}

static void test_stdin_excludes_from_repo_top(void **state) {
  fixture *f = *state;
  git_init_here("repo");
  put("repo/build/x.py", "");
  mkdir("elsewhere", 0755);
  assert_int_equal(chdir("elsewhere"), 0);
  /* below no current directory: the way is taken from the repository's work tree */
  char abs[256];
  snprintf(abs, sizeof(abs), "%s/repo/build/x.py", f->root);
  ASSERT_STDIN(abs, &git_off, "");
  ASSERT_STDIN("../repo/build/x.py", &git_on, "");
  ASSERT_STDIN("../repo/src/x.py", &git_on, "../repo/src/x.py*");
  assert_int_equal(chdir(".."), 0);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_default_excluded_names),
      T(test_recursion_and_sorting),
      T(test_default_excludes_pruned),
      T(test_user_excludes),
      T(test_explicit_file_beats_exclude),
      T(test_explicit_non_py_file_listed),
      T(test_symlink_loop_terminates),
      T(test_symlinks_inside_walk),
      T(test_symlinks_out_of_the_tree_not_followed),
      T(test_dotdot_canonicalised),
      T(test_explicit_symlinks_followed),
      T(test_fifo_inside_walk_skipped),
      T(test_explicit_fifo_and_device_are_errors),
      T(test_missing_path_is_error),
      T(test_unreadable_directory_is_error),
      T(test_depth_limit),
      T(test_display_path_normalisation),
      T(test_absolute_root),
      T(test_gitignore_honoured),
      T(test_gitignored_explicit_paths_kept),
      T(test_gitignore_of_nested_repo),
      T(test_fsmonitor_never_runs),
      T(test_stdin_virtual_file),
      T(test_stdin_excludes),
      T(test_stdin_gitignore),
      T(test_stdin_excludes_from_repo_top),
  };
#undef T
  return cmocka_run_group_tests(tests, NULL, NULL);
}
