/* walk.h: which files a run lints.
 * Owns: expanding the command line's paths into a sorted, de-duplicated list of files: directories
 *       recurse over *.py, .gitignore respected through libgit2 (never a hand-written matcher, and
 *       never running the scanned repository's programs), default and user excludes, symlink loops,
 *       FIFOs and devices skipped without ever being opened.
 * Not: reading file contents (load.c).
 * Threads: called once from the main thread. */
#ifndef GL_WALK_H
#define GL_WALK_H

#include <stdbool.h>
#include "diag.h"
#include "vec.h"

typedef struct gl_walk_opts {
  const char *const *excludes;   /* extra globs (fnmatch, matched against each path component and
                                    the path relative to the walk root) */
  size_t nexcludes;
  bool respect_gitignore;        /* default true */
} gl_walk_opts;

typedef struct gl_walk_file {
  char *path;        /* as displayed: relative paths stay relative, normalised ("./a.py" -> "a.py") */
  bool explicit_arg; /* named on the command line */
} gl_walk_file;

typedef struct gl_walk_result {
  gl_vec(gl_walk_file) files;     /* sorted by path, unique */
  gl_diag_list errors;            /* a named path that does not exist or cannot be read: exit 2 */
} gl_walk_result;

/* Expands paths (npaths may be 0: ".") into out. Returns 0, or GL_EIO when any error was added
 * (the files found are still listed). The caller frees out with gl_walk_result_free. */
int gl_walk(const char *const *paths, size_t npaths, const gl_walk_opts *opts, gl_walk_result *out);

void gl_walk_result_free(gl_walk_result *r);

/* True when a path component matches one of the default excludes (.git, .venv, venv,
 * __pycache__, node_modules, build, dist, site-packages, .tox, .eggs). */
bool gl_walk_is_default_excluded(const char *name);

#endif
