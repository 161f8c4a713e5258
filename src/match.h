/* match.h: runs the rules over one parsed file.
 * Owns: the ONE TSQuery built from every enabled query rule (pattern index -> rule), compiling and
 *       validating predicates (#eq?, #not-eq?, #match?, #not-match?, #any-of?, #not-any-of?,
 *       #resolves-to?, #resolves-match?, #in-loop?, and the provenance ones: #role?, #device?,
 *       #host?, #type?, #from-device?, #loop-invariant?) with PCRE2 compiled once and JIT-compiled
 *       before sharing, mapping query errors back to rule-file positions, evaluating predicates,
 *       filling message placeholders, and calling built-in checks (src/checks/).
 * Not: reading or parsing files, suppressions (suppress.c), severity (calibrate), printing.
 * Threads: a gl_matcher is built once and shared read-only; a gl_match_ctx belongs to one worker. */
#ifndef GL_MATCH_H
#define GL_MATCH_H

#include <tree_sitter/api.h>
#include "diag.h"
#include "load.h"
#include "model.h"
#include "result.h"
#include "rules.h"

typedef struct gl_matcher gl_matcher;
typedef struct gl_match_ctx gl_match_ctx;

/* Compiles the enabled rules of set (borrowed; must outlive the matcher). Every error of every
 * rule file goes to errs as file:line:column (query syntax, unknown node type or field, unknown
 * predicate, predicate-only pattern, bad regex with PCRE2's offset, placeholder naming no capture,
 * unknown check); returns NULL when there was any. */
gl_matcher *gl_match_new(const gl_ruleset *set, const TSLanguage *lang, gl_diag_list *errs);
void gl_match_free(gl_matcher *m);

/* Per-worker state: query cursor (with match limit), PCRE2 match data and context. */
gl_match_ctx *gl_match_ctx_new(const gl_matcher *m, uint32_t match_limit);
void gl_match_ctx_free(gl_match_ctx *ctx);

/* Appends the findings of every enabled rule to out->findings (messages filled, regions set,
 * snippet and line_hash left NULL), and a GL_NOTE_PARTIAL notification when the match limit was
 * exceeded. */
void gl_match_run(gl_match_ctx *ctx, const gl_source *src, const TSTree *tree,
                  const gl_model *model, gl_file_result *out);

/* The region of src's bytes [start_byte, end_byte): 1-based lines, UTF-16 and code-point columns
 * from gl_load_position, end column exclusive. Query findings and checks both use it. */
gl_region gl_match_region(const gl_source *src, uint32_t start_byte, uint32_t end_byte);

#endif
