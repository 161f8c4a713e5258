/* predicate.h: the predicates of one query pattern: validated and compiled at load time, evaluated
 * per match.
 * Owns: the predicate table (#eq?, #not-eq?, #match?, #not-match?, #any-of?, #not-any-of?,
 *       #resolves-to?, #resolves-match?, #in-loop?, and the provenance predicates #role?,
 *       #device?, #host?, #type?, #from-device?, #loop-invariant?) with each one's arity and
 *       argument kinds (role names and type names checked against the library models),
 *       PCRE2 regexes (compiled with PCRE2_UTF | PCRE2_MATCH_INVALID_UTF and JIT-compiled here,
 *       before the matcher is shared), and the evaluation rules: a positive predicate over a
 *       capture that captured no node is false, a negative one true; with several nodes the
 *       predicate must hold for each.
 * Not: which rule a pattern belongs to, findings, messages (match.c).
 * Threads: compiled gl_pred arrays are read-only after gl_preds_compile and shared; a
 *          gl_pred_env (PCRE2 match data and context, scratch) belongs to one worker. */
#ifndef GL_PREDICATE_H
#define GL_PREDICATE_H

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>
#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>
#include "base/diag.h"
#include "base/load.h"
#include "libmodel/libmodel.h"
#include "match/query_build.h"
#include "model/model.h"

typedef enum gl_pred_kind {
  GL_PRED_EQ,               /* #eq? / #not-eq? */
  GL_PRED_MATCH,            /* #match? / #not-match? */
  GL_PRED_ANY_OF,           /* #any-of? / #not-any-of? */
  GL_PRED_RESOLVES_TO,      /* #resolves-to? */
  GL_PRED_RESOLVES_MATCH,   /* #resolves-match? */
  GL_PRED_IN_LOOP,          /* #in-loop? */
  GL_PRED_ROLE,             /* #role? @call "d2h" ...: the call has one of the roles */
  GL_PRED_DEVICE,           /* #device? */
  GL_PRED_HOST,             /* #host? */
  GL_PRED_TYPE,             /* #type? @e "torch.Tensor" ...: the value has one of the types */
  GL_PRED_FROM_DEVICE,      /* #from-device? */
  GL_PRED_LOOP_INVARIANT,   /* #loop-invariant? */
  GL_PRED_HOST_BUILT,       /* #host-built? @e: host data a library call builds from shapes or
                               constants, which it could build on the device (gl_model_host_built) */
  GL_PRED_BUILTIN,          /* #builtin? @fn "print" ...: a builtin (unbound) name among these */
  GL_PRED_LOCAL_CALL,       /* #local-call? @call: a call of a def of this file, summary applied */
  GL_PRED_UNTIMED,          /* #untimed? @n: n is in no timing region (gl_model_timed) */
  GL_PRED_COLLECTED,         /* #not-collected? @n: n is not a value a loop collects
                               (gl_model_collected: a comprehension's element, an append) */
  GL_PRED_REPEATED,         /* #repeated? @n: n runs many times or under a clock: in a loop (as
                               #in-loop?), in a timing region, or in what %timeit runs */
  GL_PRED_TRACED,           /* #not-traced? @n: n is in no traced def (gl_model_traced: the
                               body of a jax.jit / torch.compile function runs once per trace) */
  GL_PRED_DRAINED,          /* #not-drained? @n: the loop that makes n hot does not already
                               wait for the device every iteration (gl_model_drained) */
} gl_pred_kind;

#define GL_PRED_PREFIX_MAX 32
typedef struct gl_pred {
  gl_pred_kind kind;
  bool negated;
  uint32_t capture;         /* the first argument's capture id */
  int64_t other_capture;    /* #eq? @a @b: @b's capture id; else -1 */
  const char **strings;     /* owned array; the strings are the TSQuery's (borrowed) */
  uint32_t *lens;           /* owned; strings may hold NUL bytes (the "\0" escape) */
  uint32_t nstrings;
  pcre2_code *re;           /* owned: the regex of #match?, #not-match?, #resolves-match? */
  char prefix[GL_PRED_PREFIX_MAX];   /* what every subject the regex matches starts with: the */
  uint8_t prefix_len;                /* literal after a leading ^ ("^cuspatial(\\.|$)"), or 0 */
  uint32_t roles;           /* #role?: the GL_ROLE_* bits named */
  uint16_t *types;          /* owned: #type?: the type ids named (nstrings of them) */
} gl_pred;

/* Compiles the predicates of pattern `pattern` of query (built from qt; the pattern lies in sp),
 * checking type names against lm (frozen library models, borrowed; NULL: no type is known).
 * Errors, at their rule-file position: "unknown predicate '#foo?'", "predicate '#eq?' expects
 * ...", "invalid capture '@x': its pattern does not capture it", "invalid regex: <PCRE2's
 * message>" (column of PCRE2's error offset inside the literal), "unknown role 'x'" and
 * "unknown type 'x': no library model defines it" (at the string). Returns false when there
 * was any; *out / *nout are set either way (free with gl_preds_free). */
bool gl_preds_compile(const TSQuery *query, uint32_t pattern, const gl_qtext *qt,
                      const gl_qspan *sp, const gl_libmodels *lm, gl_pred **out, uint32_t *nout,
                      gl_diag_list *errs);
void gl_preds_free(gl_pred *preds, uint32_t n);

/* One remembered gl_model_resolve answer (see gl_pred_env.memo). */
#define GL_PRED_MEMO_SLOTS 256
#define GL_PRED_MEMO_NAME 232
typedef struct gl_pred_memo {
  const void *id;               /* the node (ts_node's id and start byte) */
  uint32_t start;
  uint32_t gen;                 /* valid when it equals gl_pred_env.memo_gen */
  uint16_t len;
  bool ok;                      /* the node resolves (to name[0..len)) */
  char name[GL_PRED_MEMO_NAME];
} gl_pred_memo;

/* Per-worker evaluation state. */
typedef struct gl_pred_env {
  const gl_source *src;
  const gl_model *model;        /* NULL: nothing resolves, nothing is in a loop, no provenance */
  pcre2_match_data *md;
  pcre2_match_context *mctx;    /* match, depth and heap limits */
  char qbuf[1024];              /* qualified names */
  bool regex_limit_hit;         /* set when a regex hit a limit (that test counted as no match) */
  /* #resolves-to? / #resolves-match? answers of this file, direct-mapped by node: several
   * patterns resolve the same call's callee (about 18,000 resolutions a file on the gpu-dense
   * corpus). The owner bumps memo_gen for each file (0 is never valid). */
  uint32_t memo_gen;
  gl_pred_memo memo[GL_PRED_MEMO_SLOTS];
} gl_pred_env;

/* True when every predicate holds for match m. */
bool gl_preds_eval(const gl_pred *preds, uint32_t n, const TSQueryMatch *m, gl_pred_env *env);

/* What a positive #eq? / #any-of? (resolved = false: the node's text) or #resolves-to? (true: its
 * qualified name, NULL when it does not resolve) compares with its strings; *len its length. The
 * text is valid until the next predicate is evaluated with env. */
const char *gl_pred_key(gl_pred_env *env, TSNode n, bool resolved, uint32_t *len);

/* False when positive #resolves-to? / #resolves-match? p surely fails on a node that resolves
 * to name[0, len): a name not among its strings, or one that does not start with its regex's
 * literal prefix. True otherwise (the regex itself is not run here). */
bool gl_pred_name_may_hold(const gl_pred *p, const char *name, uint32_t len);

/* True when predicate p holds for a match that captured only n (as p's capture) and, when p
 * compares two captures, other (as the second): what gl_preds_eval answers for p on such a
 * match. */
bool gl_pred_holds(const gl_pred *p, TSNode n, TSNode other, gl_pred_env *env);

/* True when a and b test the same thing of their captures: same kind, negation, strings (and so
 * regex, roles and types), and both or neither compare a second capture. */
bool gl_preds_same(const gl_pred *a, const gl_pred *b);

#endif
