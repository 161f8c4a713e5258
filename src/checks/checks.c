/* checks.c: the built-in flow checks table and the reporting helpers every check uses.
 * Owns: checks[], built from checks.def (one row per check: its name and function; a check's code
 *       lives in src/checks/<pack>/, named after its rule), lookup by name, gl_check_report*.
 * Not: deciding which rules run (match.c), the checks themselves (src/checks/<pack>/).
 * Threads: the table is static const; gl_check_report writes only ctx->out. */
#include "checks/checks.h"

#include <stdio.h>
#include <string.h>

#include "checks/checks_int.h"
#include "notebook/notebook.h"

/* One row per line of checks.def (sorted by name there); the last row is a sentinel. A check
 * reported elsewhere has no function: match.c resolves its name and runs nothing. */
static const gl_check checks[] = {
#define GL_CHECK(name, fn) {name, fn},
#define GL_CHECK_ELSEWHERE(name) {name, NULL},
#include "checks/checks.def"
#undef GL_CHECK
#undef GL_CHECK_ELSEWHERE
    {NULL, NULL},
};

size_t gl_check_count(void) {
  return sizeof(checks) / sizeof(checks[0]) - 1;
}

const gl_check *gl_check_find(const char *name) {
  if (!name) return NULL;
  for (const gl_check *c = checks; c->name; c++)
    if (strcmp(c->name, name) == 0) return c;
  return NULL;
}

static gl_finding *add_finding(const gl_check_ctx *ctx, TSNode node, const char *message) {
  gl_finding *f = gl_vec_grow(&ctx->out->findings);
  f->rule = ctx->rule;
  f->level = ctx->rule->level;
  f->region = gl_region_of(ctx->src, ts_node_start_byte(node), ts_node_end_byte(node));
  f->message = gl_xstrdup(message ? message : ctx->rule->message);
  return f;
}

void gl_check_report(const gl_check_ctx *ctx, TSNode node, const char *message) {
  add_finding(ctx, node, message);
}

void gl_check_report_related(const gl_check_ctx *ctx, TSNode node, const char *message,
                             const TSNode rel_node[], const char *const rel_msg[], size_t n) {
  gl_finding *f = add_finding(ctx, node, message);
  for (size_t i = 0; i < n && f->nrelated < GL_FINDING_MAX_RELATED; i++) {
    if (ts_node_is_null(rel_node[i]) || !rel_msg[i]) continue;
    f->related[f->nrelated] = gl_region_of(ctx->src, ts_node_start_byte(rel_node[i]),
                                              ts_node_end_byte(rel_node[i]));
    f->related_msg[f->nrelated++] = gl_xstrdup(rel_msg[i]);
  }
}

void gl_check_report_bytes(const gl_check_ctx *ctx, uint32_t start, uint32_t end,
                           const char *message, uint32_t rel_start, uint32_t rel_end,
                           const char *rel_msg) {
  gl_finding *f = gl_vec_grow(&ctx->out->findings);
  f->rule = ctx->rule;
  f->level = ctx->rule->level;
  f->region = gl_region_of(ctx->src, start, end);
  f->message = gl_xstrdup(message);
  f->related[0] = gl_region_of(ctx->src, rel_start, rel_end);
  f->related_msg[0] = gl_xstrdup(rel_msg);
  f->nrelated = 1;
}

void gl_check_line_label(const gl_check_ctx *ctx, uint32_t byte, char *buf, size_t cap) {
  const gl_notebook *nb = ctx->src->notebook;
  if (nb) {
    gl_nb_line l = gl_notebook_cell_of(nb, byte);
    snprintf(buf, cap, "cell %u, line %u", (unsigned)l.cell, (unsigned)l.cell_line);
    return;
  }
  snprintf(buf, cap, "line %u", (unsigned)gl_load_position(ctx->src, byte).line);
}
