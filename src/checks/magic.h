/* magic.h: IPython timing magics of a notebook, for the timing checks.
 * Owns: gl_check_magic_timers, called by the unsynchronized-timer check (GPU301, `%time` and
 *       `%%time`) and the timeit-without-sync check (GPU304, `%timeit` and `%%timeit`).
 * Not: finding magics (notebook_magic.c), the checks table (checks.c).
 * Threads: as any check (one worker, one file per call). */
#ifndef GL_CHECKS_MAGIC_H
#define GL_CHECKS_MAGIC_H
#include "checks/checks.h"

/* For each line or cell magic called name ("time" or "timeit") of ctx->src's notebook (none for
 * a .py file): when the code it times (a cell magic: the rest of its cell; a line magic: the
 * statement after it) does GPU work that no synchronization follows, reports ctx->rule at the
 * magic itself ("%%time", "%timeit -n 10"), with the last such work as related location. */
void gl_check_magic_timers(const gl_check_ctx *ctx, const char *name);

#endif
