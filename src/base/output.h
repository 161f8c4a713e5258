/* output.h: writing a report file atomically.
 * Owns: a temp file "<path>.gpulint-tmp-XXXXXX" in the target's directory, created with mode
 *       0644 less the umask, renamed over the target only after a successful flush and fsync, so
 *       a failed or interrupted run never leaves a truncated report; those a killed run left are
 *       removed by the next run that writes the same target. Path NULL or "-" means stdout.
 * Not: what is written (report.c and the format writers).
 * Threads: one gl_output belongs to its caller (the main thread). */
#ifndef GL_OUTPUT_H
#define GL_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include "base/diag.h"

typedef struct gl_output {
  FILE *fp;          /* where to write; stdout, the temp file, or the file itself (in place) */
  char *path;        /* the path as given (owned), NULL for stdout */
  char *target;      /* what the temp file is renamed over: path with its symlinks followed
                        (owned); NULL for stdout and when written in place */
  char *tmp_path;    /* the temp file (owned), NULL for stdout or once committed / aborted */
  bool replaces;     /* target exists (a regular file): dev and ino are its */
  unsigned long long dev, ino;
  gl_diag err;       /* why the last call failed ("cannot create 'x.sarif.Ab12Cd': ...") */
} gl_output;

/* Opens the temp file next to path's target (or stdout for NULL / "-"). A symlink is followed, so
 * the report replaces the file it points to and the link stays; an existing file's mode is kept;
 * a path under /dev or /proc, or a target that is not a regular file (a FIFO, a device), is
 * opened and written in place, never renamed over. Returns 0, or GL_EIO with o->err filled and
 * nothing left on disk. While a temp file exists, SIGINT, SIGTERM, SIGHUP and SIGQUIT remove it
 * before the process dies. */
int gl_output_open(gl_output *o, const char *path);

/* True when path names the existing file the report is about to replace (same device and inode):
 * the caller refuses to write a report over one of its inputs. */
bool gl_output_replaces(const gl_output *o, const char *path);

/* Fills o->err for a failed write of the report (errno err, 0 = EIO): "cannot write 'PATH': ...",
 * with <stdout> for standard output. */
void gl_output_write_failed(gl_output *o, int err);

/* The stream to write the report to. */
FILE *gl_output_stream(gl_output *o);

/* Flushes, fsyncs and closes the temp file and renames it over the target (stdout: flushes).
 * Returns 0, or GL_EIO with o->err filled; on failure the temp file is removed, the target keeps
 * its old content, and o is finished (gl_output_abort on it afterwards does nothing). */
int gl_output_commit(gl_output *o);

/* Closes and removes the temp file, leaving the target untouched (stdout: flushes). Safe to call
 * after a failed commit, or twice. */
void gl_output_abort(gl_output *o);

#endif
