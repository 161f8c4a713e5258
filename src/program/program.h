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
  bool root;             /* named in hot-functions: its whole body runs per step */
  char *device_type;     /* owned: the type name of that device data (its callers'), or NULL */
  char *why;             /* owned: "`train_step` runs on every step (main.py:42 -> engine.py:58)"
                            or "`log` is given device data (main.py:12)" */
} gl_program_hot;

/* A module-level class whose type the file alone does not know: its bases, in other files,
 * derive a modelled class (`class Layer(ProjectModule)`, ProjectModule deriving torch.nn.Module). */
typedef struct gl_program_class {
  uint32_t start;        /* the class_definition node's start byte */
  char *type;            /* owned: the model type its name gets (torch.nn.ModuleClass) */
} gl_program_class;

/* A call in hot code of another file's def that returns device data (whatever it is given, or
 * given what this call passes), or that copies the device data this call passes to the host. */
typedef struct gl_program_call {
  uint32_t start;        /* the call node's start byte */
  char *type;            /* owned: the returned data's type name, or NULL */
  bool returns;          /* it returns device data */
  bool d2h;              /* it copies device data this call gives it to the host */
  char *why;             /* owned, with d2h: which def does, in which file; else NULL */
} gl_program_call;

/* The defs, classes and calls of one file with such facts, in document order. */
typedef struct gl_program_file {
  gl_program_hot *hot;
  size_t n;
  gl_program_class *classes;
  size_t nclasses;
  gl_program_call *calls;
  size_t ncalls;
} gl_program_file;

/* Marks need[i] for each file i without a summary that a file with one imports (a module the
 * prefilter skipped: it may name no library, yet hold the helper a hot loop calls). */
void gl_program_needed(const char *const *paths, const char *const *summaries, size_t n, bool *need);

struct gl_libmodels;

/* Defs the user names as running on every step (hot-functions): dotted names resolved like an
 * import ("pkg.engine.Engine.step"), or a def's own name matched in every file ("train_step",
 * "Engine.step"). */
typedef struct gl_program_roots {
  const char *const *names;
  size_t n;
} gl_program_roots;

/* Solves the run: paths[i] is file i's display path, summaries[i] its summary (NULL when it has
 * none: not parsed). lm (may be NULL) says which methods of a class type a framework calls per
 * step; roots (may be NULL) are the user's. Returns n gl_program_file (empty when the run adds nothing to that file); output
 * depends only on the inputs, in their order. */
gl_program_file *gl_program_solve(const char *const *paths, const char *const *summaries, size_t n,
                                  const struct gl_libmodels *lm, const gl_program_roots *roots);
void gl_program_free(gl_program_file *files, size_t n);

#endif
