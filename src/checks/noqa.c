/* noqa.c: the "unused-noqa" check's match-time entry.
 * Owns: gl_check_unused_noqa (adds nothing: see noqa.h for why the work is in suppress_apply.c).
 * Not: parsing or applying directives (suppress.c, suppress_apply.c).
 * Threads: pure. */
#include "checks/noqa.h"

void gl_check_unused_noqa(const gl_check_ctx *ctx) {
  (void)ctx; /* reported by gl_suppress_run, which sees the findings of every rule */
}
