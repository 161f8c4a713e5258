/* program.h: the program stage: how the run's files fit together (DESIGN.md, "program").
 * Owns: reading the files' summaries (model.h gl_model_program_summary), the module name of each
 *       file from its path, resolving calls to defs of the run (imports, relative imports, a
 *       package's re-exports, `self.m()`, module-level names), and hotness flowing down the call
 *       graph: a def called on every step from another file's hot loop or hot def is hot, with
 *       the chain of calls that makes it so.
 * Not: what a file's code means (src/model/), linting a file again with its hot defs (engine.c).
 * Threads: gl_program_solve runs on one thread, after pass 1; pure over its inputs. */
#ifndef GL_PROGRAM_H
#define GL_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the run says of one def that its file alone does not: it runs on every step (called from
 * another file's hot code, or through a chain of calls), or every call of it in the run passes
 * device data at some positions (reported for hot defs only: the facts that can change a
 * finding). */
typedef struct gl_program_hot {
  uint32_t start, end;   /* the def node's bytes in its file */
  uint32_t device_params;/* bit k: every call passes device data as parameter k (self is 0) */
  bool hot;              /* hot only through calls the file cannot see */
  char *device_type;     /* owned: the type name of that device data (its callers'), or NULL */
  char *why;             /* owned: "`train_step` runs on every step (main.py:42 -> engine.py:58)"
                            or "`log` is given device data (main.py:12)" */
} gl_program_hot;

/* The defs of one file with such facts, in the order of their defs. */
typedef struct gl_program_file {
  gl_program_hot *hot;
  size_t n;
} gl_program_file;

/* Solves the run: paths[i] is file i's display path, summaries[i] its summary (NULL when it has
 * none: not parsed, or a notebook's defs). Returns n gl_program_file (empty when nothing of that
 * file is hot through other files); output depends only on the inputs, in their order. */
/* Marks need[i] for each file i without a summary that a file with one imports (a module the
 * prefilter skipped: it may name no library, yet hold the helper a hot loop calls). */
void gl_program_needed(const char *const *paths, const char *const *summaries, size_t n, bool *need);

gl_program_file *gl_program_solve(const char *const *paths, const char *const *summaries, size_t n);
void gl_program_free(gl_program_file *files, size_t n);

#endif
