/* match_int.h: the layout of gl_matcher, shared by the parts of the match stage: match.c
 * (building it at start-up), match_names.c and match_dispatch.c (reading its patterns) and
 * match_run.c (running it per file).
 * Owns: nothing beyond the struct definitions and the few functions those files share; only
 *       they include it.
 * Threads: a gl_matcher is read-only once `ready`; before that only gl_match_ready (match.c) writes
 *          it, under `lock`, once. */
#ifndef GL_MATCH_IMPL_H
#define GL_MATCH_IMPL_H

#include <pthread.h>
#include <stdatomic.h>

#include "checks/checks.h"
#include "match/match.h"
#include "match/placeholder.h"
#include "match/predicate.h"
#include "match/query_build.h"

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
  const gl_pred *filter;       /* its first positive #resolves-to? / #resolves-match? on @hit:
                                * a node whose name fails it is not offered (match_run.c) */
} gl_mname;

/* Dispatch by root node (match_dispatch.c). A slot is a fixed field path below a pattern's root:
 * slot 0 is the root, slot k the `field` child of slot `parent` (fields that hold one node). */
#define GL_MSLOT_MAX 32
#define GL_MFIXED_SYMBOLS 4
#define GL_MDISPATCH_NONE UINT32_MAX
typedef struct gl_mslot {
  uint8_t parent;
  TSFieldId field;
} gl_mslot;

typedef struct gl_mfixed {     /* a node the pattern requires at a slot */
  uint8_t slot;
  uint8_t nsymbols;            /* 0: any named node */
  TSSymbol symbols[GL_MFIXED_SYMBOLS];
} gl_mfixed;

/* A predicate tested early, on the nodes at its slots; patterns share equal ones, so each is
 * evaluated at most once per node. */
typedef struct gl_mtest {
  const gl_pred *pred;         /* borrowed from the first pattern that has it */
  uint8_t slot;
  uint8_t other_slot;          /* the compared capture's slot (#eq? @a @b), else unused */
} gl_mtest;

/* A pattern tried only at nodes of type `root` whose fixed nodes exist and pass `tests` (indices
 * into gl_matcher.tests, cheapest first). */
typedef struct gl_mdispatch {
  uint32_t pattern;            /* index into gl_matcher.patterns */
  int key;                     /* its key class (gl_matcher.key_classes), or -1: tried always */
  uint32_t key_test;           /* the test whose strings are its keys */
  TSSymbol root;
  gl_mfixed *fixed;            /* owned */
  uint32_t nfixed;
  uint32_t *tests;             /* owned */
  uint32_t ntests;
} gl_mdispatch;

/* One string of a key test in gl_matcher.keys (open addressing; text NULL: empty): a pattern
 * whose cheapest test is a positive #eq? / #any-of? on a node's text or #resolves-to? on its
 * name is tried only when that text or name is one of its strings, found by one lookup per node
 * and key class instead of one test per pattern. */
#define GL_MKEY_CLASSES 8
typedef struct gl_mkey {
  const char *text;            /* borrowed from the predicate */
  uint32_t len;
  uint32_t cls;
  uint32_t dispatch;           /* the entry it admits */
} gl_mkey;

/* A worker's nodes at each slot below the node being tried and its test results, computed on
 * demand. */
typedef struct gl_mslots {
  TSNode node[GL_MSLOT_MAX];
  TSSymbol symbol[GL_MSLOT_MAX];   /* 0 when the node is absent or anonymous */
  uint32_t gen[GL_MSLOT_MAX];  /* node[k] is valid when gen[k] == cur */
  uint32_t cur;
  uint32_t *test_gen;          /* per gl_matcher.tests: result valid when it equals cur */
  bool *test_val;
  size_t ntests;
  uint32_t *keyed;             /* per dispatch entry: its key matched when it equals cur */
  size_t ndispatch;
} gl_mslots;

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
  /* Dispatch by root (match_dispatch.c): when root_of is set, every pattern has known root
   * types and the query runs anchored at the model's nodes of those types instead of over the
   * tree. NULL when some pattern needs the whole tree walked. */
  gl_vec(gl_mdispatch) dispatch;   /* sorted by root symbol */
  struct {
    uint32_t begin, end;       /* the range of dispatch with this root ({0, 0}: none) */
    bool plain;                /* some pattern that is not dispatched has this root */
    uint8_t key_mask;          /* the key classes of its entries */
  } *root_of;                  /* per symbol */
  uint32_t *dispatch_of;       /* per pattern: its index in dispatch, or GL_MDISPATCH_NONE */
  gl_vec(gl_mtest) tests;
  struct {
    uint8_t slot;
    bool resolved;             /* the slot node's qualified name, else its text */
  } key_classes[GL_MKEY_CLASSES];
  uint32_t nkey_classes;
  gl_mkey *keys;               /* key_cap slots, a power of two */
  size_t key_cap;
  gl_mslot slots[GL_MSLOT_MAX];
  size_t nslots;
};

/* Takes the name patterns of m's compiled query out of it (ts_query_disable_pattern) into
 * m->names; qt is the combined text m->query was compiled from. */
void gl_match_names_take(gl_matcher *m, const gl_qtext *qt);

/* Fills m->dispatch, m->root_of and m->dispatch_of from m's compiled query (runs after
 * gl_match_names_take); leaves them empty when some pattern has no known root type. */
void gl_match_dispatch_take(gl_matcher *m, const gl_qtext *qt);
void gl_mdispatch_free_all(gl_matcher *m);

/* Sizes sl for m's tests (once per worker; gl_mslots_free frees it). */
void gl_mslots_init(gl_mslots *sl, const gl_matcher *m);
void gl_mslots_free(gl_mslots *sl);
/* Starts trying patterns at root (slot 0). */
void gl_mslots_begin(gl_mslots *sl, TSNode root);
/* Tries the dispatched patterns rooted at node's type sym (ts_node_symbol(node), below the
 * language's symbol count): pass[k] tells for entry k of that range whether it may match there
 * (rule enabled and not off in this file by rule_off[its index in m->rules], key matched, fixed
 * nodes present with their types, tests held; a test that hit a regex limit counts as holding).
 * True when one may. */
bool gl_mdispatch_node(const gl_matcher *m, TSNode node, TSSymbol sym, gl_mslots *sl,
                       gl_pred_env *env, const bool *rule_off, bool *pass);

#endif
