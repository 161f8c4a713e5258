/* output.h: writing a report file atomically.
 * Owns: a temp file "<path>.XXXXXX" in the target's directory, created with mode 0644 less the
 *       umask, renamed over the target only after a successful flush and fsync, so a failed or
 *       interrupted run never leaves a truncated report. Path NULL or "-" means stdout.
 * Not: what is written (report.c and the format writers).
 * Threads: one gl_output belongs to its caller (the main thread). */
#ifndef GL_OUTPUT_H
#define GL_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include "base/diag.h"

typedef struct gl_output {
  FILE *fp;          /* where to write; stdout, or the temp file */
  char *path;        /* target path (owned), NULL for stdout */
  char *tmp_path;    /* the temp file (owned), NULL for stdout or once committed / aborted */
  gl_diag err;       /* why the last call failed ("cannot create 'x.sarif.Ab12Cd': ...") */
} gl_output;

/* Opens the temp file next to path (or stdout for NULL / "-"). Returns 0, or GL_EIO with o->err
 * filled and nothing left on disk. */
int gl_output_open(gl_output *o, const char *path);

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
