/* match.h: runs the rules over one parsed file.
 * Owns: the ONE TSQuery built from every enabled query rule (pattern index -> rule), compiling and
 *       validating predicates (#eq?, #not-eq?, #match?, #not-match?, #any-of?, #not-any-of?,
 *       #resolves-to?, #resolves-match?, #in-loop?, and the provenance ones: #role?, #device?,
 *       #host?, #type?, #from-device?, #loop-invariant?) with PCRE2 compiled once and JIT-compiled
 *       before sharing, mapping query errors back to rule-file positions, evaluating predicates,
 *       filling message placeholders, and calling built-in checks (src/checks/).
 *       Compiling can be deferred (gl_match_new_lazy): ts_query_new costs about 0.9 ms per
 *       pattern, so a run whose every file the prefilter skips must not pay for it.
 * Not: reading or parsing files, suppressions (suppress.c), severity (calibrate), printing.
 * Threads: a gl_matcher is shared by the workers; a lazy one is compiled at most once, by the
 *          first worker reaching gl_match_ready (under the matcher's mutex; the others wait for
 *          it), and is read-only after that. A gl_match_ctx belongs to one worker.
 * Eager or lazy: gl_match_new compiles at once and reports every error before linting; it is
 *          what the tests, the rule documentation checker and any run with user rules (--rules
 *          directories, which may also bring models that predicates are checked against) use,
 *          since their errors must show even when no file is linted. gl_match_new_lazy is for runs
 *          with only the built-in packs, which the unit and rule-docs tests compile eagerly (so
 *          CI has validated them): its errors, should one ever appear, come from
 *          gl_match_errors after the run, and no file gets a finding from a failed compile. */
#ifndef GL_MATCH_H
#define GL_MATCH_H

#include <tree_sitter/api.h>
#include "base/diag.h"
#include "base/load.h"
#include "model/model.h"
#include "result/result.h"
#include "rules/rules.h"

typedef struct gl_matcher gl_matcher;
typedef struct gl_match_ctx gl_match_ctx;

/* Compiles the enabled rules of set (borrowed; must outlive the matcher). Every error of every
 * rule file goes to errs as file:line:column (query syntax, unknown node type or field, unknown
 * predicate, predicate-only pattern, bad regex with PCRE2's offset, placeholder naming no capture,
 * unknown check); returns NULL when there was any. */
gl_matcher *gl_match_new(const gl_ruleset *set, const TSLanguage *lang, gl_diag_list *errs);
void gl_match_free(gl_matcher *m);

/* A matcher of the enabled rules of set (borrowed; must outlive it) that compiles nothing until
 * the first gl_match_ready (gl_match_run calls it). Never NULL. */
gl_matcher *gl_match_new_lazy(const gl_ruleset *set, const TSLanguage *lang);

/* Compiles a lazy matcher if no thread has yet (thread-safe, once); true when the matcher compiled
 * without error. An eager matcher is always ready. */
bool gl_match_ready(const gl_matcher *m);

/* True once the matcher has been compiled (eagerly, or lazily by gl_match_ready). */
bool gl_match_compiled(const gl_matcher *m);

/* True when the compiled matcher runs its query only at nodes of its patterns' root types, with
 * early predicate tests (match_dispatch.c); false when some pattern makes it walk the whole tree.
 * The findings are the same either way. */
bool gl_match_dispatches(const gl_matcher *m);

/* A lazy matcher's compilation errors (file:line:column, sorted as gl_match_new sorts them), empty
 * when it compiled cleanly; NULL while it has not been compiled. */
const gl_diag_list *gl_match_errors(const gl_matcher *m);

/* Per-worker state: query cursor (with match limit), PCRE2 match data and context. Matching one
 * file (queries, name patterns, checks) stops once budget_ms have passed (0: no limit). */
gl_match_ctx *gl_match_ctx_new(const gl_matcher *m, uint32_t match_limit, uint32_t budget_ms);
void gl_match_ctx_free(gl_match_ctx *ctx);

/* Compiles a lazy matcher first (gl_match_ready); when that failed, appends nothing.
 * Appends the findings of every enabled rule to out->findings (messages filled, regions set,
 * snippet and line_hash left NULL), and a GL_NOTE_PARTIAL notification when the match limit or
 * the time limit was exceeded, or a rule's regex hit its limits (the rule is then off for the
 * rest of the file). */
void gl_match_run(gl_match_ctx *ctx, const gl_source *src, const TSTree *tree,
                  const gl_model *model, gl_file_result *out);

#endif
