/* walk.c: expands the command line's paths into the sorted list of files to lint.
 * Owns: path normalisation for display, the directory recursion (lstat per entry, symlinks not
 *       followed inside a walk, depth guard), default and user excludes, .gitignore through
 *       libgit2 (never the git binary: a scanned repository's core.fsmonitor names a program).
 * Not: opening or reading any file (load.c); FIFOs, devices and sockets are never opened here.
 * Threads: main thread only; git_libgit2_init/shutdown bracket each gl_walk. */
#include "walk/walk.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/xalloc.h"

/* Deeper directory nesting is reported, not walked (bind mounts can loop without symlinks). */
#define GL_WALK_MAX_DEPTH 256

static const char *const default_excludes[] = {
    ".git", ".venv", "venv", "__pycache__", "node_modules",
    "build", "dist", "site-packages", ".tox", ".eggs",
};

typedef struct glob {
  char *pattern;  /* leading "./" and a trailing '/' removed */
  bool dir_only;  /* the user wrote a trailing '/' */
} glob;

typedef gl_vec(char *) name_list;

typedef struct walker {
  gl_vec(glob) globs;
  bool no_defaults;   /* opts->no_default_excludes */
  bool use_git;
  char *root_real;    /* the directory named on the command line, resolved: links stay inside */
  gl_walk_result *out;
} walker;

/* One directory being walked. disp is the display path ("" for the cwd); rel is the path from the
 * walk root ("" at the root); repo (borrowed, NULL: no ignore filtering) and git_rel (this
 * directory relative to repo's work tree, "" or ending in '/') drive the ignore checks. */
typedef struct dir_ctx {
  const char *disp;
  const char *rel;
  git_repository *repo;
  const char *git_rel;
  int depth;
} dir_ctx;

static void walk_dir(walker *w, const dir_ctx *dir);
static void init_globs(walker *w, const gl_walk_opts *opts);

/* ---- small helpers ------------------------------------------------------------------------- */

bool gl_walk_is_default_excluded(const char *name) {
  for (size_t i = 0; i < sizeof(default_excludes) / sizeof(default_excludes[0]); i++)
    if (strcmp(name, default_excludes[i]) == 0) return true;
  return false;
}

static void add_error(walker *w, const char *path, const char *msg) {
  gl_walk_error *e = gl_vec_grow(&w->out->errors);
  e->path = gl_xstrdup(path ? path : "");
  snprintf(e->msg, sizeof e->msg, "%s", msg);
}

static void add_errno(walker *w, const char *path, const char *what, int e) {
  char text[256];
  gl_diag_errno_text(e, text, sizeof(text));
  char msg[320];
  if (what)
    snprintf(msg, sizeof(msg), "%s: %s", what, text);
  else
    snprintf(msg, sizeof(msg), "%s", text);
  add_error(w, path, msg);
}

/* Takes path. */
static void add_file(walker *w, char *path, bool explicit_arg) {
  gl_walk_file f = {path, explicit_arg};
  gl_vec_push(&w->out->files, f);
}

/* A Python source or a Jupyter notebook (*.py, *.ipynb). */
static bool ends_with_py(const char *name) {
  size_t n = strlen(name);
  return (n >= 3 && strcmp(name + n - 3, ".py") == 0) || (n >= 6 && strcmp(name + n - 6, ".ipynb") == 0);
}

/* True when out[0, o), the path so far, ends in a segment that ".." may cancel: a real directory
 * (not a symlink, whose ".." is elsewhere) named neither "." nor "..". */
static bool cancels(char *out, size_t o) {
  size_t start = o;
  while (start > 0 && out[start - 1] != '/') start--;
  if (start == o || (o - start == 2 && out[start] == '.' && out[start + 1] == '.')) return false;
  char keep = out[o];
  out[o] = '\0';
  struct stat st;
  bool dir = lstat(out, &st) == 0 && S_ISDIR(st.st_mode);
  out[o] = keep;
  return dir;
}

/* "./a//b/./c/" -> "a/b/c", "." -> "", "/x/" -> "/x", "/" -> "/", and "t/../t/a.py" -> "t/a.py"
 * when t is a directory and not a symlink, so one file is never linted twice under two names.
 * The caller frees it. */
static char *normalise(const char *arg) {
  char *out = gl_xmalloc(strlen(arg) + 1);
  size_t o = 0;
  const char *p = arg;
  if (*p == '/') out[o++] = '/';
  while (*p) {
    while (*p == '/') p++;
    const char *seg = p;
    while (*p && *p != '/') p++;
    size_t len = (size_t)(p - seg);
    if (len == 0 || (len == 1 && seg[0] == '.')) continue;
    if (len == 2 && seg[0] == '.' && seg[1] == '.' && cancels(out, o)) {
      while (o > 0 && out[o - 1] != '/') o--;   /* drop the segment */
      if (o > 1 || (o == 1 && out[0] != '/')) o--;   /* and its '/', but not the root's */
      continue;
    }
    if (o && out[o - 1] != '/') out[o++] = '/';
    memcpy(out + o, seg, len);
    o += len;
  }
  out[o] = '\0';
  return out;
}

/* prefix + '/' + name, without doubling a '/' and without a leading one for prefix "". */
static char *join(const char *prefix, const char *name, const char *suffix) {
  size_t n = strlen(prefix);
  const char *sep = (n == 0 || prefix[n - 1] == '/') ? "" : "/";
  return gl_xasprintf("%s%s%s%s", prefix, sep, name, suffix);
}

/* ---- excludes and .gitignore --------------------------------------------------------------- */

static bool user_excluded(const walker *w, const char *name, const char *rel, const char *disp,
                          bool is_dir) {
  for (size_t i = 0; i < w->globs.len; i++) {
    const glob *g = &w->globs.data[i];
    if (g->dir_only && !is_dir) continue;
    if (fnmatch(g->pattern, name, 0) == 0 || fnmatch(g->pattern, rel, 0) == 0 ||
        fnmatch(g->pattern, disp, 0) == 0)
      return true;
  }
  return false;
}

static bool git_ignored(const dir_ctx *dir, const char *name, bool is_dir) {
  if (!dir->repo) return false;
  char *rel = gl_xasprintf("%s%s%s", dir->git_rel, name, is_dir ? "/" : "");
  int ignored = 0;
  int rc = git_ignore_path_is_ignored(&ignored, dir->repo, rel);
  free(rel);
  return rc == 0 && ignored;
}

/* The work tree of a repository opened at or above dir_fs, or NULL for none / bare / error. */
static git_repository *open_repo(const char *dir_fs, unsigned flags) {
  git_repository *repo = NULL;
  if (git_repository_open_ext(&repo, dir_fs, flags, NULL) != 0) return NULL;
  if (git_repository_is_bare(repo) || !git_repository_workdir(repo)) {
    git_repository_free(repo);
    return NULL;
  }
  return repo;
}

/* dir_fs relative to repo's work tree, "" or ending in '/'; NULL when it is not inside it. */
static char *rel_to_workdir(git_repository *repo, const char *dir_fs) {
  char *wd = realpath(git_repository_workdir(repo), NULL);
  char *real = realpath(dir_fs, NULL);
  char *rel = NULL;
  if (wd && real) {
    size_t n = strcmp(wd, "/") == 0 ? 0 : strlen(wd);
    if (strncmp(real, wd, n) == 0 && real[n] == '\0') rel = gl_xstrdup("");
    else if (strncmp(real, wd, n) == 0 && real[n] == '/') rel = gl_xasprintf("%s/", real + n + 1);
  }
  free(wd);
  free(real);
  return rel;
}

/* ---- the walk ------------------------------------------------------------------------------ */

/* Reads dir's entry names (without "." and ".."), so no directory stays open while recursing. */
static bool read_names(walker *w, const char *disp, name_list *names) {
  const char *fs = disp[0] ? disp : ".";
  DIR *d = opendir(fs);
  if (!d) {
    add_errno(w, fs, "cannot open directory", errno);
    return false;
  }
  for (;;) {
    errno = 0;
    struct dirent *e = readdir(d);
    if (!e) break;
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    gl_vec_push(names, gl_xstrdup(e->d_name));
  }
  int e = errno;
  closedir(d);
  if (e) add_errno(w, fs, "cannot read directory", e);
  return true;
}

static void enter_subdir(walker *w, const dir_ctx *dir, const char *name, const char *disp,
                         const char *rel) {
  if ((!w->no_defaults && gl_walk_is_default_excluded(name)) || user_excluded(w, name, rel, disp, true))
    return;
  if (git_ignored(dir, name, true)) return;
  if (dir->depth + 1 > GL_WALK_MAX_DEPTH) {
    add_error(w, disp, "directory nesting deeper than 256 levels, not walked");
    return;
  }
  dir_ctx child = {disp, rel, dir->repo, NULL, dir->depth + 1};
  git_repository *nested = NULL;
  struct stat st;
  char *dotgit = join(disp, ".git", "");
  if (w->use_git && lstat(dotgit, &st) == 0)
    nested = open_repo(disp, GIT_REPOSITORY_OPEN_NO_SEARCH);
  free(dotgit);
  char *git_rel = nested ? gl_xstrdup("") : gl_xasprintf("%s%s/", dir->git_rel, name);
  if (nested) child.repo = nested;
  child.git_rel = git_rel;
  walk_dir(w, &child);
  free(git_rel);
  git_repository_free(nested);
}

/* True when path resolves to a file inside the directory being walked. */
static bool inside_root(const walker *w, const char *path) {
  char *real = w->root_real ? realpath(path, NULL) : NULL;
  size_t n = w->root_real ? strlen(w->root_real) : 0;
  bool in = real && strncmp(real, w->root_real, n) == 0 &&
            (real[n] == '/' || (n == 1 && w->root_real[0] == '/'));
  free(real);
  return in;
}

/* A symlink met inside a walk is never followed into a directory; one named *.py that points
 * at a regular file inside the directory named on the command line is listed (under the link's
 * own path). One that points outside it (`/etc/passwd`, `../outside.py`) is not: a checkout
 * cannot make gpulint read files the user did not ask for; naming the link itself still does. */
static void consider_link(walker *w, const dir_ctx *dir, const char *name, char *disp,
                          const char *rel) {
  struct stat st;
  if (!ends_with_py(name) || user_excluded(w, name, rel, disp, false) ||
      stat(disp, &st) != 0 || !S_ISREG(st.st_mode) || !inside_root(w, disp) ||
      git_ignored(dir, name, false)) {
    free(disp);
    return;
  }
  add_file(w, disp, false);
}

static void consider_entry(walker *w, const dir_ctx *dir, const char *name) {
  char *disp = join(dir->disp, name, "");
  char *rel = join(dir->rel, name, "");
  struct stat st;
  if (lstat(disp, &st) != 0) {
    if (errno != ENOENT) add_errno(w, disp, NULL, errno); /* ENOENT: removed meanwhile */
    free(disp);
  } else if (S_ISDIR(st.st_mode)) {
    enter_subdir(w, dir, name, disp, rel);
    free(disp);
  } else if (S_ISLNK(st.st_mode)) {
    consider_link(w, dir, name, disp, rel);
  } else if (S_ISREG(st.st_mode) && ends_with_py(name) &&
             !user_excluded(w, name, rel, disp, false) && !git_ignored(dir, name, false)) {
    add_file(w, disp, false);
  } else {
    free(disp); /* FIFOs, devices, sockets, other files: never opened */
  }
  free(rel);
}

static void walk_dir(walker *w, const dir_ctx *dir) {
  name_list names = {0};
  if (read_names(w, dir->disp, &names)) {
    for (size_t i = 0; i < names.len; i++) consider_entry(w, dir, names.data[i]);
  }
  for (size_t i = 0; i < names.len; i++) free(names.data[i]);
  gl_vec_free(&names);
}

/* A directory named on the command line: walked even when excluded; its repository is looked up
 * once. An explicitly named directory that .gitignore covers is walked without ignore filtering
 * (libgit2 would report every file under it as ignored). */
static void walk_root(walker *w, const char *disp) {
  const char *fs = disp[0] ? disp : ".";
  git_repository *repo = w->use_git ? open_repo(fs, 0) : NULL;
  char *git_rel = repo ? rel_to_workdir(repo, fs) : NULL;
  int ignored = 0;
  if (git_rel && git_rel[0] && git_ignore_path_is_ignored(&ignored, repo, git_rel) == 0 &&
      ignored) {
    free(git_rel);
    git_rel = NULL;
  }
  dir_ctx root = {disp, "", git_rel ? repo : NULL, git_rel ? git_rel : "", 0};
  w->root_real = realpath(fs, NULL);
  walk_dir(w, &root);
  free(w->root_real);
  w->root_real = NULL;
  free(git_rel);
  git_repository_free(repo);
}

static void walk_arg(walker *w, const char *arg) {
  if (!arg[0]) {
    add_error(w, "", "empty string is not a valid path");
    return;
  }
  char *disp = normalise(arg);
  const char *fs = disp[0] ? disp : ".";
  struct stat st;
  if (lstat(fs, &st) != 0) {
    add_errno(w, fs, NULL, errno);
    free(disp);
    return;
  }
  /* Explicit symlinks are followed; a dangling one is "not a regular file or directory". */
  if (S_ISLNK(st.st_mode) && stat(fs, &st) != 0) {
    if (errno == ENOENT)
      add_error(w, fs, "not a regular file or directory");
    else
      add_errno(w, fs, NULL, errno);
    free(disp);
    return;
  }
  if (S_ISREG(st.st_mode)) {
    add_file(w, disp, true);
    return;
  }
  if (S_ISDIR(st.st_mode))
    walk_root(w, disp);
  else
    add_error(w, fs, "not a regular file or directory"); /* FIFO, device, socket, dangling */
  free(disp);
}

/* ---- --stdin-filename: one virtual file ---------------------------------------------------- */

/* The nearest existing directory on disp's way ("." for a bare name), resolved by realpath, joined
 * with the rest of disp: the absolute path the file would have. NULL when none resolves. */
static char *virtual_abs(const char *disp, char **dir_out) {
  char *dir = gl_xstrdup(disp);
  const char *rest = disp;
  for (;;) {
    char *slash = strrchr(dir, '/');
    if (!slash) {
      free(dir);
      dir = gl_xstrdup(".");
      rest = disp;
      break;
    }
    slash[slash == dir ? 1 : 0] = '\0'; /* "/x.py" keeps the root "/" */
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
      size_t n = strlen(dir);
      rest = disp + n + (dir[n - 1] == '/' ? 0 : 1);
      break;
    }
    if (strcmp(dir, "/") == 0) { /* no root directory: nothing resolves */
      *dir_out = dir;
      return NULL;
    }
  }
  char *real = realpath(dir, NULL);
  char *abs = real ? join(real, rest, "") : NULL;
  free(real);
  *dir_out = dir;
  return abs;
}

/* abs below root (both resolved): the part after "root/", else NULL. */
static const char *below_dir(const char *abs, const char *root) {
  if (!root) return NULL;
  size_t n = strcmp(root, "/") == 0 ? 0 : strlen(root);
  if (strncmp(abs, root, n) != 0 || abs[n] != '/') return NULL;
  return abs + n + 1;
}

/* True when a directory on rel's way is default-excluded or matches a directory glob. */
static bool way_excluded(const walker *w, const char *rel) {
  char *prefix = gl_xstrdup(rel);
  bool excluded = false;
  for (char *slash = strchr(prefix, '/'); slash && !excluded; slash = strchr(slash + 1, '/')) {
    *slash = '\0';
    const char *name = strrchr(prefix, '/') ? strrchr(prefix, '/') + 1 : prefix;
    excluded = (!w->no_defaults && gl_walk_is_default_excluded(name)) ||
               user_excluded(w, name, prefix, prefix, true);
    *slash = '/';
  }
  free(prefix);
  return excluded;
}

static bool virtual_ignored(git_repository *repo, const char *abs) {
  char *wd = repo ? realpath(git_repository_workdir(repo), NULL) : NULL;
  const char *git_rel = below_dir(abs, wd);
  int ignored = 0;
  bool yes = git_rel && git_ignore_path_is_ignored(&ignored, repo, git_rel) == 0 && ignored;
  free(wd);
  return yes;
}

/* Whether a walk would lint disp (see gl_walk_stdin). */
static bool virtual_wanted(walker *w, const char *disp, bool git_ok) {
  const char *name = strrchr(disp, '/') ? strrchr(disp, '/') + 1 : disp;
  if (!ends_with_py(name)) return false;
  char *dir = NULL;
  char *abs = virtual_abs(disp, &dir);
  git_repository *repo = git_ok ? open_repo(dir, 0) : NULL;
  char *cwd = realpath(".", NULL);
  const char *rel = abs ? below_dir(abs, cwd) : NULL;
  char *wd = !rel && abs && repo ? realpath(git_repository_workdir(repo), NULL) : NULL;
  if (!rel && abs) rel = below_dir(abs, wd);
  bool wanted = !(rel && way_excluded(w, rel)) &&
                !user_excluded(w, name, rel ? rel : name, disp, false) &&
                !(abs && w->use_git && virtual_ignored(repo, abs));
  free(wd);
  free(cwd);
  git_repository_free(repo);
  free(abs);
  free(dir);
  return wanted;
}

int gl_walk_stdin(const char *path, const gl_walk_opts *opts, gl_walk_result *out) {
  memset(out, 0, sizeof(*out));
  walker w = {.out = out};
  if (!path[0]) {
    add_error(&w, "", "empty string is not a valid path");
    return GL_EIO;
  }
  init_globs(&w, opts);
  bool git_ok = git_libgit2_init() > 0; /* the work tree also places the way for the excludes */
  w.use_git = git_ok && (opts ? opts->respect_gitignore : true);
  char *disp = normalise(path);
  if (virtual_wanted(&w, disp, git_ok))
    add_file(&w, disp, true);
  else
    free(disp);
  if (git_ok) git_libgit2_shutdown();
  for (size_t i = 0; i < w.globs.len; i++) free(w.globs.data[i].pattern);
  gl_vec_free(&w.globs);
  return GL_OK;
}

/* ---- result -------------------------------------------------------------------------------- */

static int cmp_file(const void *a, const void *b) {
  return strcmp(((const gl_walk_file *)a)->path, ((const gl_walk_file *)b)->path);
}

static void sort_unique(gl_walk_result *r) {
  if (r->files.len == 0) return;
  qsort(r->files.data, r->files.len, sizeof(gl_walk_file), cmp_file);
  size_t o = 0;
  for (size_t i = 1; i < r->files.len; i++) {
    gl_walk_file *last = &r->files.data[o];
    if (strcmp(last->path, r->files.data[i].path) == 0) {
      last->explicit_arg = last->explicit_arg || r->files.data[i].explicit_arg;
      free(r->files.data[i].path);
    } else {
      r->files.data[++o] = r->files.data[i];
    }
  }
  r->files.len = o + 1;
}

static void init_globs(walker *w, const gl_walk_opts *opts) {
  w->no_defaults = opts && opts->no_default_excludes;
  for (size_t i = 0; opts && i < opts->nexcludes; i++) {
    const char *s = opts->excludes[i];
    while (s[0] == '.' && s[1] == '/') s += 2;
    size_t n = strlen(s);
    bool dir_only = n > 1 && s[n - 1] == '/';
    glob g = {gl_xstrndup(s, dir_only ? n - 1 : n), dir_only};
    gl_vec_push(&w->globs, g);
  }
}

int gl_walk(const char *const *paths, size_t npaths, const gl_walk_opts *opts,
            gl_walk_result *out) {
  memset(out, 0, sizeof(*out));
  walker w = {.out = out};
  init_globs(&w, opts);
  bool want_git = opts ? opts->respect_gitignore : true;
  w.use_git = want_git && git_libgit2_init() > 0;
  if (npaths == 0) walk_arg(&w, ".");
  for (size_t i = 0; i < npaths; i++) walk_arg(&w, paths[i]);
  if (w.use_git) git_libgit2_shutdown();
  for (size_t i = 0; i < w.globs.len; i++) free(w.globs.data[i].pattern);
  gl_vec_free(&w.globs);
  sort_unique(out);
  return out->errors.len ? GL_EIO : GL_OK;
}

void gl_walk_result_free(gl_walk_result *r) {
  if (!r) return;
  for (size_t i = 0; i < r->files.len; i++) free(r->files.data[i].path);
  gl_vec_free(&r->files);
  for (size_t i = 0; i < r->errors.len; i++) free(r->errors.data[i].path);
  gl_vec_free(&r->errors);
}
