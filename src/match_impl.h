/* match_impl.h: the layout of gl_matcher, shared by the two halves of the match stage:
 * match.c (building it at start-up) and match_run.c (running it per file).
 * Owns: nothing beyond the struct definitions; only match.c and match_run.c include it.
 * Threads: a gl_matcher is read-only once `ready`; before that only gl_match_ready (match.c) writes
 *          it, under `lock`, once. */
#ifndef GL_MATCH_IMPL_H
#define GL_MATCH_IMPL_H

#include <pthread.h>
#include <stdatomic.h>

#include "checks/checks.h"
#include "match.h"
#include "placeholder.h"
#include "predicate.h"
#include "query_build.h"

typedef struct gl_mrule {
  const gl_rule *rule;         /* borrowed from the ruleset */
  gl_msg_template msg;
} gl_mrule;

typedef struct gl_mpattern {
  uint32_t rule;               /* index into gl_matcher.rules */
  gl_pred *preds;              /* owned */
  uint32_t npreds;
} gl_mpattern;

/* A name pattern: `((identifier) @hit (#resolves-to? @hit ...))` or the same on `attribute`, a
 * single node whose predicates include a positive #resolves-to? / #resolves-match?. It only
 * matches names that resolve to an import, a few in a file, yet in the combined query it would
 * start a match at every identifier; match_names.c disables it there and match_run.c feeds it
 * the model's qualified nodes instead. */
typedef struct gl_mname {
  uint32_t pattern;            /* index into gl_matcher.patterns (disabled in the query) */
  TSSymbol symbol;             /* identifier or attribute */
} gl_mname;

typedef struct gl_mcheck {
  const gl_rule *rule;
  gl_check_fn fn;
} gl_mcheck;

struct gl_matcher {
  /* The compilation (everything below `checks` included) is done by gl_match_new at once, or by
   * gl_match_new_lazy's matcher on the first gl_match_ready: `ready` is set (release) after it. */
  atomic_bool ready;
  pthread_mutex_t lock;        /* held by the one thread compiling a lazy matcher */
  const gl_ruleset *set;       /* borrowed: what a lazy matcher compiles */
  const TSLanguage *lang;
  gl_diag_list errs;           /* a lazy compilation's errors (empty for an eager matcher) */
  TSQuery *query;              /* the combined query; NULL when no enabled rule has one */
  uint32_t hit;                /* capture id of @hit */
  gl_vec(gl_mrule) rules;      /* query rules, in ruleset order */
  gl_vec(gl_mpattern) patterns;/* indexed by pattern index */
  gl_vec(gl_mcheck) checks;    /* enabled check rules, in ruleset order */
  gl_vec(gl_mname) names;      /* name patterns, in pattern order (match_names.c) */
};

/* Takes the name patterns of m's compiled query out of it (ts_query_disable_pattern) into
 * m->names; qt is the combined text m->query was compiled from. */
void gl_match_names_take(gl_matcher *m, const gl_qtext *qt);

#endif
