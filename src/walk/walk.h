/* walk.h: which files a run lints.
 * Owns: expanding the command line's paths into a sorted, de-duplicated list of files: directories
 *       recurse over *.py and *.ipynb, .gitignore respected through libgit2 (never a hand-written
 *       matcher, and never running the scanned repository's programs), default and user
 *       excludes, symlink loops, FIFOs and devices skipped without ever being opened.
 * Not: reading file contents (load.c).
 * Threads: called once from the main thread. */
#ifndef GL_WALK_H
#define GL_WALK_H

#include <stdbool.h>
#include "base/diag.h"
#include "base/vec.h"

typedef struct gl_walk_opts {
  const char *const *excludes;   /* extra globs (fnmatch, flags 0), matched against each entry's
                                    name, its path relative to the walk root and its display path;
                                    a leading "./" is ignored, a trailing '/' = directories only */
  size_t nexcludes;
  bool respect_gitignore;        /* default true */
  bool no_default_excludes;      /* the default excludes (gl_walk_is_default_excluded) are off:
                                    a configuration's `exclude` replaced them */
} gl_walk_opts;

typedef struct gl_walk_file {
  char *path;        /* as displayed: relative paths stay relative, normalised ("./a.py" -> "a.py") */
  bool explicit_arg; /* named on the command line */
} gl_walk_file;

/* A path the walk could not read. The path is owned, not a gl_diag's fixed buffer, so a message
 * never cuts a long path. */
typedef struct gl_walk_error {
  char *path;        /* display path, owned; "" for the empty path */
  char msg[320];     /* why, lower case: "no such file or directory", ... */
} gl_walk_error;

typedef struct gl_walk_result {
  gl_vec(gl_walk_file) files;     /* sorted by path, unique */
  gl_vec(gl_walk_error) errors;   /* a named path that does not exist or cannot be read: exit 2 */
} gl_walk_result;

/* Expands paths (npaths may be 0: ".") into out (overwritten; opts NULL = no excludes, .gitignore
 * respected). Returns 0, or GL_EIO when any error was added (the files found are still listed).
 * The caller frees out with gl_walk_result_free.
 * - Named paths: a file (or a symlink to one) is listed with explicit_arg whatever its name,
 *   excludes and .gitignore; a directory (or a symlink to one) is walked even when excluded or
 *   ignored (then without .gitignore filtering inside it). Errors carry the display path:
 *   "no such file or directory" (errno text), "not a regular file or directory" (FIFO, device,
 *   socket, dangling symlink), "empty string is not a valid path" (path "").
 * - Inside a walk: directories recurse unless default-excluded, user-excluded or ignored; *.py
 *   regular files, and *.py symlinks to regular files, are listed; symlinked directories, FIFOs,
 *   devices and sockets are skipped without being opened. Errors: "cannot open directory: ...",
 *   "directory nesting deeper than 256 levels, not walked".
 * - .gitignore: the repository holding each walk root (git_repository_open_ext), and a nested
 *   repository for a directory holding its own .git; libgit2 only, never the git binary. */
int gl_walk(const char *const *paths, size_t npaths, const gl_walk_opts *opts, gl_walk_result *out);

/* The single virtual file of --stdin-filename: out lists path (normalised as a display path, with
 * explicit_arg) when a walk of the current directory would lint a file there, and nothing when it
 * would not (Ruff's --force-exclude semantics, so an editor can pass every buffer):
 * - its name does not end in ".py";
 * - a directory on its way is default-excluded (.venv, build, ...) or matches a dir --exclude
 *   glob, or the file matches an --exclude glob. The way and the globs' relative path are taken
 *   from the current directory when path is below it (exactly what `gpulint .` sees), else from
 *   the work tree of the git repository holding it, else only the file's name is checked;
 * - .gitignore (opts->respect_gitignore) ignores it, in the repository that holds its nearest
 *   existing directory.
 * path need not exist and is never opened. Returns GL_OK, or GL_EIO with one error for path ""
 * ("empty string is not a valid path"). Free out with gl_walk_result_free. */
int gl_walk_stdin(const char *path, const gl_walk_opts *opts, gl_walk_result *out);

/* Frees the paths and both lists; safe on a zeroed result, NULL, and twice. */
void gl_walk_result_free(gl_walk_result *r);

/* True when name is exactly one of the default excludes (.git, .venv, venv, __pycache__,
 * node_modules, build, dist, site-packages, .tox, .eggs); applied to directories a walk finds. */
bool gl_walk_is_default_excluded(const char *name);

#endif
