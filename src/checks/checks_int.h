/* checks_int.h: the private header of src/checks/: the prototype of every check function of
 * checks.def, for checks.c's table and the file that defines it.
 * Owns: those declarations, generated from checks.def (what each check finds is said above its
 *       definition, in src/checks/<pack>/).
 * Not: the checks' shared helpers (walk.h, node.h, run_order.h, the packs' own headers), the
 *      public interface (checks.h). Included only from inside src/checks/.
 * Threads: see checks.h. */
#ifndef GL_CHECKS_INT_H
#define GL_CHECKS_INT_H

#include "checks/checks.h"

#define GL_CHECK(name, fn) void fn(const gl_check_ctx *ctx);
#define GL_CHECK_ELSEWHERE(name)
#include "checks/checks.def"
#undef GL_CHECK
#undef GL_CHECK_ELSEWHERE

#endif
