/* prefilter.h: decides, before parsing, whether a file can match any enabled rule.
 * Owns: the set of trigger words of the enabled packs and the single pass over a file's bytes
 *       that looks for any of them as a whole word (an identifier-like run of [A-Za-z0-9_]).
 * Not: producing findings (a trigger word never yields a finding on its own).
 * Threads: built once from the frozen ruleset, then shared read-only. */
#ifndef GL_PREFILTER_H
#define GL_PREFILTER_H

#include <stdbool.h>
#include <stddef.h>
#include "rules/rules.h"

typedef struct gl_prefilter gl_prefilter;

/* Collects the trigger words of every pack that has an enabled rule. */
gl_prefilter *gl_prefilter_new(const gl_ruleset *set);
void gl_prefilter_free(gl_prefilter *pf);

/* True when bytes[0..len) contains a trigger word as a whole word, or when no pack declared any
 * (nothing to filter on). One pass over the bytes, one hash probe per word. */
bool gl_prefilter_wants(const gl_prefilter *pf, const char *bytes, size_t len);

#endif
