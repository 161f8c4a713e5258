/* checks.h: the table of built-in flow checks, the C functions a rule names with "check" when a
 * query cannot express its logic (timers, accelerator order).
 * Owns: checks[] ({name, function}, looked up by name; the list is checks.def), the gl_check_ctx
 *       a check receives, and gl_check_report / gl_check_report_related / gl_check_report_bytes,
 *       the one way a check adds a finding (same region and level rules as a query finding;
 *       related locations for SARIF).
 * Not: selecting rules, deduplicating (match.c does it after each check), printing.
 * Threads: the table is static and read-only; a gl_check_ctx belongs to one worker and one file. */
#ifndef GL_CHECKS_H
#define GL_CHECKS_H

#include <tree_sitter/api.h>
#include "base/load.h"
#include "model/model.h"
#include "result/result.h"
#include "rules/rules.h"

/* What a check sees: everything borrowed, valid for the duration of the call only. */
typedef struct gl_check_ctx {
  const gl_rule *rule;     /* the rule naming this check (id, level, message template) */
  const gl_source *src;    /* the file's bytes and line table */
  const TSTree *tree;      /* its syntax tree */
  const gl_model *model;   /* names and loops (may be NULL when the model could not be built) */
  gl_file_result *out;     /* findings go here, through gl_check_report only */
} gl_check_ctx;

typedef void (*gl_check_fn)(const gl_check_ctx *ctx);

typedef struct gl_check {
  const char *name;        /* kebab-case, as written in a rule's "check" field */
  gl_check_fn fn;          /* NULL for a check another stage reports (unused-noqa: suppress):
                              the caller resolves the name and runs nothing */
} gl_check;

/* The check called name, or NULL when there is none (a load error for the caller). */
const gl_check *gl_check_find(const char *name);

/* Number of built-in checks. */
size_t gl_check_count(void);

/* Appends a finding of ctx->rule at node: level = rule->level, region from the node's bytes
 * (gl_region_of), message = a copy of message, or of rule->message when message is NULL. */
void gl_check_report(const gl_check_ctx *ctx, TSNode node, const char *message);

/* As gl_check_report, and attaches up to GL_FINDING_MAX_RELATED related locations: the region
 * of rel_node[i] with a copy of rel_msg[i] (both borrowed; a null node or NULL message is
 * skipped; entries past the limit are dropped). */
void gl_check_report_related(const gl_check_ctx *ctx, TSNode node, const char *message,
                             const TSNode rel_node[], const char *const rel_msg[], size_t n);

/* As gl_check_report_related with one related location, for places that are bytes rather than
 * nodes (a notebook magic, which the parser never saw): the finding spans [start, end), the
 * related location [rel_start, rel_end) with a copy of rel_msg. */
void gl_check_report_bytes(const gl_check_ctx *ctx, uint32_t start, uint32_t end,
                           const char *message, uint32_t rel_start, uint32_t rel_end,
                           const char *rel_msg);

/* Writes where byte sits as a reader of the source sees it: "line 12", or in a notebook's virtual
 * source "cell 3, line 2" (messages that name another line of the file). */
void gl_check_line_label(const gl_check_ctx *ctx, uint32_t byte, char *buf, size_t cap);

#endif
