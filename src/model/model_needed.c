/* model_needed.c: reads a loop needs (gl_model_needed_transfer): the host code that takes the
 *       result is the point of the read, so the read is a transfer the code needs, not a stall to
 *       remove.
 * Owns: which calls take host data only (an environment's step, the models' "host-sink"
 *       functions), the expression that carries a read's value, and following that value through
 *       a name to a later statement of the same block or of the blocks around it.
 * Not: how often the read runs (model_freq.c), provenance (model_prov.c).
 * Threads: pure queries over a built model. */
#include "model/model_int.h"

#include <string.h>

/* True when call node c is `<...env...>.step(...)`: an environment's step, host code that takes
 * host data (Gym, Gymnasium and their vector wrappers). */
static bool is_env_step(const gl_model *m, TSNode c) {
  if (ts_node_is_null(c) || strcmp(ts_node_type(c), "call") != 0) return false;
  size_t len;
  const char *s = gl_model__text(m, ts_node_child_by_field_id(c, m->f.function), &len);
  if (len < 5 || memcmp(s + len - 5, ".step", 5) != 0) return false;
  for (size_t j = 0; j + 3 <= len - 5; j++)
    if (memcmp(s + j, "env", 3) == 0) return true;
  return false;
}

/* True when call node c calls a function the models mark "host-sink" (plotting: it takes host
 * data only). */
static bool is_host_sink(const gl_model *m, TSNode c) {
  if (!m->lm || ts_node_is_null(c) || strcmp(ts_node_type(c), "call") != 0) return false;
  char q[128];
  if (!gl_model_resolve(m, ts_node_child_by_field_id(c, m->f.function), q, sizeof(q))) return false;
  const gl_api_entry *e = gl_libmodels_function(m->lm, q, strlen(q));
  return e && e->host_sink;
}

/* The expression that carries node's value: up through `.numpy()`, `.cpu()`, `.tolist()`,
 * `.squeeze()`, subscripts and parentheses. */
static TSNode carrier(const gl_model *m, TSNode n) {
  for (;;) {
    TSNode p = gl_model_parent_of(m, n);
    if (ts_node_is_null(p)) return n;
    const char *t = ts_node_type(p);
    if (!strcmp(t, "attribute") || !strcmp(t, "subscript") || !strcmp(t, "parenthesized_expression")) {
      n = p;
      continue;
    }
    if (!strcmp(t, "call") && ts_node_eq(ts_node_child_by_field_id(p, m->f.function), n)) {
      n = p;   /* x.cpu().numpy(): the attribute was the callee */
      continue;
    }
    return n;
  }
}

/* True when the subtree of n holds an identifier with the text s[0, len). */
static bool mentions(const gl_model *m, TSNode n, const char *s, size_t len) {
  uint32_t i = gl_model__index_of(m, n);
  if (i == GL_MODEL__NONE) return false;
  for (uint32_t j = i; j < m->ends[i]; j++) {
    if (m->nodes.data[j].kind != GL_K_IDENTIFIER) continue;
    size_t l;
    const char *t = gl_model__text(m, m->nodes.data[j].node, &l);
    if (l == len && memcmp(t, s, len) == 0) return true;
  }
  return false;
}

/* True when statement s holds a call of an environment's step, or of a host sink, whose arguments
 * mention name. */
static bool passes_to_env_step(const gl_model *m, TSNode s, const char *name, size_t len) {
  uint32_t i = gl_model__index_of(m, s);
  if (i == GL_MODEL__NONE) return false;
  for (uint32_t j = i; j < m->ends[i]; j++)
    if (m->nodes.data[j].kind == GL_K_CALL &&
        (is_env_step(m, m->nodes.data[j].node) || is_host_sink(m, m->nodes.data[j].node)) &&
        mentions(m, ts_node_child_by_field_id(m->nodes.data[j].node, m->f.arguments), name, len))
      return true;
  return false;
}

/* How deep needed() follows a returned read to the calls of its def (select_action() returning
 * an action that its caller passes to env.step: one level is the common shape). */
#define MAX_RETURN_DEPTH 3

static bool needed(const gl_model *m, TSNode node, int depth);

/* The def whose body holds node (not through a lambda or class), or GL_MODEL__NONE. */
static uint32_t def_of(const gl_model *m, TSNode node) {
  uint32_t i = gl_model__index_of(m, node);
  if (i == GL_MODEL__NONE) return GL_MODEL__NONE;
  for (uint32_t p = m->nodes.data[i].parent; p != GL_MODEL__NONE; p = m->nodes.data[p].parent) {
    uint8_t k = m->nodes.data[p].kind;
    if (k == GL_K_FUNCTION_DEFINITION) return p;
    if (k == GL_K_LAMBDA || k == GL_K_CLASS_DEFINITION) return GL_MODEL__NONE;
  }
  return GL_MODEL__NONE;
}

/* True when the def around node returns a value every caller in this file needs on the host: it
 * has calls here, and each call's result is itself a needed transfer (`action =
 * self.select_action(obs)` then `env.step(action)`). */
static bool returned_value_needed(const gl_model *m, TSNode node, int depth) {
  if (depth >= MAX_RETURN_DEPTH) return false;
  uint32_t def = def_of(m, node);
  if (def == GL_MODEL__NONE) return false;
  size_t ncalls = 0;
  for (size_t k = 0; k < m->calls.len; k++) {
    if (m->calls.data[k].def != def) continue;
    if (!needed(m, m->nodes.data[m->calls.data[k].call].node, depth + 1)) return false;
    ncalls++;
  }
  return ncalls > 0;
}

bool gl_model_needed_transfer(const gl_model *m, TSNode node) {
  return needed(m, node, 0);
}

static bool needed(const gl_model *m, TSNode node, int depth) {
  if (!m || ts_node_is_null(node)) return false;
  TSNode e = carrier(m, node);
  TSNode p = gl_model_parent_of(m, e);
  if (ts_node_is_null(p)) return false;
  if (!strcmp(ts_node_type(p), "keyword_argument")) p = gl_model_parent_of(m, p);
  if (!strcmp(ts_node_type(p), "argument_list")) {
    TSNode call = gl_model_parent_of(m, p);
    return is_env_step(m, call) || is_host_sink(m, call);
  }
  /* `return a.cpu().numpy()`, `return a.item(), logp` */
  TSNode r = strcmp(ts_node_type(p), "expression_list") ? p : gl_model_parent_of(m, p);
  if (!ts_node_is_null(r) && !strcmp(ts_node_type(r), "return_statement"))
    return returned_value_needed(m, r, depth);
  if (strcmp(ts_node_type(p), "assignment") != 0 ||
      !ts_node_eq(ts_node_child_by_field_id(p, m->f.right), e))
    return false;
  TSNode target = ts_node_child_by_field_id(p, m->f.left);
  if (strcmp(ts_node_type(target), "identifier") != 0) return false;
  size_t len;
  const char *name = gl_model__text(m, target, &len);
  /* a later statement passes the name to an environment's step or returns it to callers that need
   * it: one of the same block, or of a block around it up to the innermost loop or def (`if
   * explore: a = sample() else: a = q.argmax().cpu().numpy()` then `envs.step(a)` after the if) */
  for (TSNode stmt = gl_model_parent_of(m, p); !ts_node_is_null(stmt);) {
    for (TSNode s = ts_node_next_named_sibling(stmt); !ts_node_is_null(s); s = ts_node_next_named_sibling(s)) {
      if (passes_to_env_step(m, s, name, len)) return true;
      if (!strcmp(ts_node_type(s), "return_statement") && mentions(m, s, name, len))
        return returned_value_needed(m, s, depth);
    }
    TSNode block = gl_model_parent_of(m, stmt);
    TSNode owner = ts_node_is_null(block) ? block : gl_model_parent_of(m, block);
    /* else / elif / except / finally clauses hang under their statement */
    while (!ts_node_is_null(owner) && (!strcmp(ts_node_type(owner), "else_clause") ||
                                       !strcmp(ts_node_type(owner), "elif_clause") ||
                                       !strcmp(ts_node_type(owner), "except_clause") ||
                                       !strcmp(ts_node_type(owner), "finally_clause")))
      owner = gl_model_parent_of(m, owner);
    if (ts_node_is_null(owner) || strcmp(ts_node_type(block), "block") != 0) break;
    const char *t = ts_node_type(owner);
    if (strcmp(t, "if_statement") != 0 && strcmp(t, "try_statement") != 0 &&
        strcmp(t, "with_statement") != 0)
      break; /* the loop's body (or a def's) is the outermost block searched */
    stmt = owner;
  }
  return false;
}

