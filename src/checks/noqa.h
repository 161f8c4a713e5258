/* noqa.h: the "unused-noqa" entry of the built-in checks table.
 * Owns: the declaration of gl_check_unused_noqa.
 * Not: finding unused directives (suppress_apply.c does, after suppression).
 * Threads: see checks.h. */
#ifndef GL_CHECKS_NOQA_H
#define GL_CHECKS_NOQA_H

#include "checks/checks.h"

/* The check named "unused-noqa" (GPU001). Whether a `# noqa` suppressed anything is known only
 * once every rule has run and directives were applied, so the suppress stage (gl_suppress_run)
 * reports this rule's findings; at match time this adds nothing. The row exists so that a rule
 * file may name the check and the loader resolves it like any other. */
void gl_check_unused_noqa(const gl_check_ctx *ctx);

#endif
