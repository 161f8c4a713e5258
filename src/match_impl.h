/* match_impl.h: the layout of gl_matcher, shared by the two halves of the match stage:
 * match.c (building it at start-up) and match_run.c (running it per file).
 * Owns: nothing beyond the struct definitions; only match.c and match_run.c include it.
 * Threads: a built gl_matcher is read-only. */
#ifndef GL_MATCH_IMPL_H
#define GL_MATCH_IMPL_H

#include "checks/checks.h"
#include "match.h"
#include "placeholder.h"
#include "predicate.h"

typedef struct gl_mrule {
  const gl_rule *rule;         /* borrowed from the ruleset */
  gl_msg_template msg;
} gl_mrule;

typedef struct gl_mpattern {
  uint32_t rule;               /* index into gl_matcher.rules */
  gl_pred *preds;              /* owned */
  uint32_t npreds;
} gl_mpattern;

typedef struct gl_mcheck {
  const gl_rule *rule;
  gl_check_fn fn;
} gl_mcheck;

struct gl_matcher {
  TSQuery *query;              /* the combined query; NULL when no enabled rule has one */
  uint32_t hit;                /* capture id of @hit */
  gl_vec(gl_mrule) rules;      /* query rules, in ruleset order */
  gl_vec(gl_mpattern) patterns;/* indexed by pattern index */
  gl_vec(gl_mcheck) checks;    /* enabled check rules, in ruleset order */
};

#endif
