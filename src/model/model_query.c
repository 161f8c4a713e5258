/* model_query.c: the queries of model.h, answered from each node's record after the passes.
 * Owns: name resolution of identifiers, attribute chains and import dotted names, in-loop,
 *       the provenance queries (provenance, roles, type, from-device, builtin, local call,
 *       host-built, device type, the library entry a call resolves to), comments and depth.
 * Not: computing what the records hold (model_walk.c, model_prov.c and its files), loop
 *      invariance (model_loop.c), the node index (model_index.c).
 * Threads: read-only on a model that belongs to one worker. */
#include "model/model.h"

#include <string.h>

#include "model/model_int.h"

static bool put(char *buf, size_t cap, size_t at, const char *s, size_t len) {
  if (at + len + 1 > cap) return false;
  memcpy(buf + at, s, len);
  buf[at + len] = '\0';
  return true;
}

static bool lookup_identifier(const gl_model *m, const gl_model__rec *r, const char **q,
                              size_t *ql) {
  if (r->flags & (GL_REC_NOT_NAME | GL_REC_FALLBACK)) return false;
  size_t len;
  const char *name = gl_model__text(m, r->node, &len);
  return gl_model__lookup(&m->names, r->scope, name, len, q, ql);
}

/* a.b.c: the resolution of the leftmost identifier plus ".b.c", written right to left. */
static bool resolve_attribute(const gl_model *m, TSNode top, char *buf, size_t cap) {
  size_t suffix = 0, len;
  TSNode cur = top;
  while (gl_model__kind_of(m, cur) == GL_K_ATTRIBUTE) {
    TSNode attr = ts_node_child_by_field_id(cur, m->f.attribute);
    if (ts_node_is_null(attr)) return false;
    gl_model__text(m, attr, &len);
    suffix += 1 + len;
    cur = ts_node_child_by_field_id(cur, m->f.object);
  }
  const gl_model__rec *base = gl_model__kind_of(m, cur) == GL_K_IDENTIFIER ? gl_model__rec_of(m, cur) : NULL;
  const char *q;
  size_t ql;
  if (!base || !lookup_identifier(m, base, &q, &ql)) return false;
  if (!put(buf, cap, 0, q, ql) || ql + suffix + 1 > cap) return false;
  size_t pos = ql + suffix;
  buf[pos] = '\0';
  for (cur = top; gl_model__kind_of(m, cur) == GL_K_ATTRIBUTE;) {
    const char *a = gl_model__text(m, ts_node_child_by_field_id(cur, m->f.attribute), &len);
    pos -= len;
    memcpy(buf + pos, a, len);
    buf[--pos] = '.';
    cur = ts_node_child_by_field_id(cur, m->f.object);
  }
  return true;
}

static bool put_dotted(const gl_model *m, TSNode n, char *buf, size_t cap, size_t at) {
  size_t len = gl_model__dotted_copy(m, n, at < cap ? buf + at : buf, at < cap ? cap - at : 0);
  if (at + len + 1 > cap) return false;
  buf[at + len] = '\0';
  return true;
}

/* `from M import N`: "M.N" for an absolute module M; false for a relative one. */
static bool resolve_from_name(const gl_model *m, const gl_model__rec *stmt, TSNode name, char *buf,
                              size_t cap) {
  TSNode mod = ts_node_child_by_field_id(stmt->node, m->f.module_name);
  if (ts_node_is_null(mod) || gl_model__kind_of(m, mod) != GL_K_DOTTED_NAME) return false;
  if (!put_dotted(m, mod, buf, cap, 0)) return false;
  size_t at = strlen(buf);
  return put(buf, cap, at, ".", 1) && put_dotted(m, name, buf, cap, at + 1);
}

static bool resolve_dotted(const gl_model *m, const gl_model__rec *r, char *buf, size_t cap) {
  if (r->parent == GL_MODEL__NONE) return false;
  const gl_model__rec *p = &m->nodes.data[r->parent];
  if (p->kind == GL_K_IMPORT_STATEMENT) return put_dotted(m, r->node, buf, cap, 0);
  if (p->kind == GL_K_IMPORT_FROM_STATEMENT) {
    if (r->field == m->f.module_name) return put_dotted(m, r->node, buf, cap, 0);
    return r->field == m->f.name && resolve_from_name(m, p, r->node, buf, cap);
  }
  if (p->kind != GL_K_ALIASED_IMPORT || r->field != m->f.name || p->parent == GL_MODEL__NONE)
    return false;
  const gl_model__rec *stmt = &m->nodes.data[p->parent];
  if (stmt->kind == GL_K_IMPORT_STATEMENT) return put_dotted(m, r->node, buf, cap, 0);
  return stmt->kind == GL_K_IMPORT_FROM_STATEMENT && resolve_from_name(m, stmt, r->node, buf, cap);
}

bool gl_model_resolve(const gl_model *m, TSNode node, char *buf, size_t cap) {
  const gl_model__rec *r = gl_model__rec_of(m, node);
  if (!r || cap == 0) return false;
  /* after the provenance pass, GL_VAL_QUAL says exactly which names resolve (test_model_index) */
  if (m->qual_known && (r->kind == GL_K_IDENTIFIER || r->kind == GL_K_ATTRIBUTE) &&
      !(r->val & GL_VAL_QUAL))
    return false;
  const char *q;
  size_t ql;
  switch (r->kind) {
    case GL_K_IDENTIFIER:
      return lookup_identifier(m, r, &q, &ql) && put(buf, cap, 0, q, ql);
    case GL_K_ATTRIBUTE:
      return resolve_attribute(m, node, buf, cap);
    case GL_K_DOTTED_NAME:
      return resolve_dotted(m, r, buf, cap);
    default:
      return false;
  }
}

bool gl_model_in_loop(const gl_model *m, TSNode node) {
  const gl_model__rec *r = gl_model__rec_of(m, node);
  return r && (r->flags & GL_REC_IN_LOOP);
}

/* ---- provenance ---------------------------------------------------------------------------- */

static const gl_model__rec *prov_rec(const gl_model *m, TSNode node) {
  return m->lm ? gl_model__rec_of(m, node) : NULL;
}

gl_prov gl_model_prov(const gl_model *m, TSNode node) {
  const gl_model__rec *r = prov_rec(m, node);
  return r ? (gl_prov)(r->val & GL_VAL_PROV) : GL_PROV_UNKNOWN;
}

uint32_t gl_model_roles(const gl_model *m, TSNode node) {
  const gl_model__rec *r = prov_rec(m, node);
  return r ? r->roles : 0;
}

uint16_t gl_model_type(const gl_model *m, TSNode node) {
  const gl_model__rec *r = prov_rec(m, node);
  return r ? r->type : GL_TYPE_NONE;
}

bool gl_model_from_device(const gl_model *m, TSNode node) {
  const gl_model__rec *r = prov_rec(m, node);
  return r && (r->val & GL_VAL_FROM_DEVICE) && (r->val & GL_VAL_PROV) == GL_PROV_HOST;
}

bool gl_model_is_builtin(const gl_model *m, TSNode node) {
  const gl_model__rec *r = prov_rec(m, node);
  return r && r->kind == GL_K_IDENTIFIER && (r->val & GL_VAL_BUILTIN);
}

bool gl_model_local_call(const gl_model *m, TSNode node) {
  const gl_model__rec *r = prov_rec(m, node);
  return r && r->kind == GL_K_CALL && (r->flags & GL_REC_LOCAL_CALL);
}

/* [x, y] * n or n * [x, y]: a list literal of values not known to be on the device, repeated. */
static bool repeated_host_list(const gl_model *m, TSNode node) {
  TSNode op = ts_node_child(node, 1);
  if (ts_node_is_null(op) || strcmp(ts_node_type(op), "*") != 0) return false;
  TSNode sides[2] = {ts_node_child_by_field_id(node, m->f.left),
                     ts_node_child_by_field_id(node, m->f.right)};
  for (int s = 0; s < 2; s++) {
    if (gl_model__kind_of(m, sides[s]) != GL_K_LIST) continue;
    uint32_t n = ts_node_named_child_count(sides[s]);
    bool host = n > 0;
    for (uint32_t i = 0; host && i < n; i++) {
      TSNode e = ts_node_named_child(sides[s], i);
      host = gl_model__kind_of(m, e) != GL_K_LIST_SPLAT && gl_model_prov(m, e) != GL_PROV_DEVICE;
    }
    if (host) return true;
  }
  return false;
}

bool gl_model_host_built(const gl_model *m, TSNode node) {
  if (!m || !m->lm) return false;
  char buf[256];
  for (int depth = 0; depth < 8; depth++) {
    gl_model__kind k = gl_model__kind_of(m, node);
    if (k == GL_K_PARENTHESIZED_EXPRESSION) {
      node = ts_node_named_child(node, 0);
      continue;
    }
    if (k == GL_K_BINARY_OPERATOR) return repeated_host_list(m, node);
    if (k != GL_K_CALL || gl_model_prov(m, node) != GL_PROV_HOST) return false;
    TSNode fn = ts_node_child_by_field_id(node, m->f.function);
    if (gl_model_resolve(m, fn, buf, sizeof(buf))) {
      const gl_api_entry *e = gl_libmodels_function(m->lm, buf, strlen(buf));
      return e && e->result == GL_RESULT_DEVICE_KWARG && !(e->roles & GL_ROLE_H2D);
    }
    /* a method on a host value: torch.rand(8).float(), torch.arange(n).view(1, -1) */
    if (gl_model__kind_of(m, fn) != GL_K_ATTRIBUTE || (gl_model_roles(m, node) & GL_ROLE_H2D))
      return false;
    node = ts_node_child_by_field_id(fn, m->f.object);
  }
  return false;
}

uint16_t gl_model_device_type(const gl_model *m, TSNode node) {
  uint16_t t = gl_model_type(m, node);
  if (t == GL_TYPE_NONE && gl_model_prov(m, node) == GL_PROV_DEVICE) t = m->dev_type;
  return t;
}

const gl_api_entry *gl_model_call_entry(const gl_model *m, TSNode call) {
  if (!m || !m->lm || gl_model__kind_of(m, call) != GL_K_CALL) return NULL;
  TSNode fn = ts_node_child_by_field_id(call, m->f.function);
  char buf[256];
  if (gl_model_resolve(m, fn, buf, sizeof(buf))) {
    const gl_api_entry *e = gl_libmodels_function(m->lm, buf, strlen(buf));
    if (e || gl_model__kind_of(m, fn) != GL_K_ATTRIBUTE) return e;
  }
  if (gl_model__kind_of(m, fn) != GL_K_ATTRIBUTE) return NULL;
  uint16_t type = gl_model_device_type(m, ts_node_child_by_field_id(fn, m->f.object));
  TSNode name = ts_node_child_by_field_id(fn, m->f.attribute);
  if (type == GL_TYPE_NONE || ts_node_is_null(name)) return NULL;
  uint32_t a = ts_node_start_byte(name), b = ts_node_end_byte(name);
  return gl_libmodels_method_exact(m->lm, type, m->src->bytes + a, b - a);
}

const gl_libmodels *gl_model_libmodels(const gl_model *m) { return m ? m->lm : NULL; }

const gl_comment *gl_model_comments(const gl_model *m, size_t *count) {
  *count = m->comments.len;
  return m->comments.data;
}

uint32_t gl_model_max_depth(const gl_model *m) { return m->max_depth; }
