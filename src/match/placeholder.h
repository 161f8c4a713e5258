/* placeholder.h: a rule message's {cap} / {cap.qualified} placeholders.
 * Owns: parsing a message template against the captures of its rule's patterns (load time) and
 *       filling it for one match: {cap} is the capture's source text (first line, at most 80
 *       characters, "…" when cut), {cap.qualified} its qualified name after import resolution
 *       (the text when it does not resolve). A capture that captured nothing fills as "".
 *       Only `{` + capture name (+ ".qualified") + `}` is a placeholder; other braces are text.
 * Not: which captures a rule has (match.c passes that in), escaping for output formats.
 * Threads: a template is read-only after gl_msg_compile; filling keeps no state. */
#ifndef GL_PLACEHOLDER_H
#define GL_PLACEHOLDER_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>
#include "base/diag.h"
#include "base/load.h"
#include "base/vec.h"
#include "model/model.h"
#include "rules/rules.h"

#define GL_PLACEHOLDER_MAX_CHARS 80

typedef struct gl_placeholder {
  uint32_t start, end;   /* the "{...}" bytes in the template */
  uint32_t capture;      /* capture id in the query */
  bool qualified;
} gl_placeholder;

typedef struct gl_msg_template {
  const char *text;                /* borrowed: the rule's message */
  gl_vec(gl_placeholder) ph;
} gl_msg_template;

/* Parses rule->message. captured[id] (for each of the query's capture ids) says whether a
 * pattern of this rule captures it. A placeholder naming anything else is an error
 * "message placeholder '{x}' names no capture" at rule->path:1:1 (the message's own position is
 * not tracked by the loader). Returns false when there was any. */
bool gl_msg_compile(gl_msg_template *t, const gl_rule *rule, const TSQuery *query,
                    const bool *captured, gl_diag_list *errs);
void gl_msg_free(gl_msg_template *t);

/* The message for match m (a new string the caller frees). model may be NULL. */
char *gl_msg_fill(const gl_msg_template *t, const TSQueryMatch *m, const gl_source *src,
                  const gl_model *model);

#endif
