/* model.c: the model of one parsed file: node index and the queries of model.h.
 * Owns: gl_model_build / gl_model_free, the symbol -> kind table, the index of named nodes keyed
 *       by TSNode id (open addressing, O(1) average lookup), name resolution of identifiers,
 *       attribute chains and import dotted names, in-loop, comments and depth queries, and the
 *       provenance queries (answered from each node's record).
 * Not: the walk and what binds (model_walk.c), bindings and LEGB lookup (model_names.c),
 *      computing provenance (model_prov.c and its files).
 * Threads: a gl_model belongs to one worker; read-only after gl_model_build. */
#include "model/model.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "model/model_int.h"

#define KIND_NAME(id, name) [id] = name,
static const char *const kind_names[GL_K_COUNT] = {GL_MODEL__KINDS(KIND_NAME)};

/* ---- kinds and fields ----------------------------------------------------------------------- */

static int kind_cmp(const void *key, const void *elem) {
  return strcmp((const char *)key, *(const char *const *)elem);
}

/* kind_names[1..] is sorted (GL_MODEL__KINDS is written in order), so each symbol is one
 * binary search. */
static void init_kinds(gl_model *m, const TSLanguage *lang) {
  m->nsymbols = ts_language_symbol_count(lang);
  m->kinds = gl_xcalloc(m->nsymbols, 1);
  for (uint32_t s = 0; s < m->nsymbols; s++) {
    if (ts_language_symbol_type(lang, (TSSymbol)s) != TSSymbolTypeRegular) continue;
    const char *name = ts_language_symbol_name(lang, (TSSymbol)s);
    const char *const *hit =
        bsearch(name, kind_names + 1, GL_K_COUNT - 1, sizeof(kind_names[0]), kind_cmp);
    if (hit) m->kinds[s] = (uint8_t)(hit - kind_names);
  }
}

static TSFieldId field_id(const TSLanguage *lang, const char *name) {
  return ts_language_field_id_for_name(lang, name, (uint32_t)strlen(name));
}

static void init_fields(gl_model__fields *f, const TSLanguage *lang) {
  f->alias = field_id(lang, "alias");
  f->alternative = field_id(lang, "alternative");
  f->argument = field_id(lang, "argument");
  f->arguments = field_id(lang, "arguments");
  f->attribute = field_id(lang, "attribute");
  f->body = field_id(lang, "body");
  f->condition = field_id(lang, "condition");
  f->consequence = field_id(lang, "consequence");
  f->definition = field_id(lang, "definition");
  f->function = field_id(lang, "function");
  f->left = field_id(lang, "left");
  f->module_name = field_id(lang, "module_name");
  f->name = field_id(lang, "name");
  f->object = field_id(lang, "object");
  f->parameters = field_id(lang, "parameters");
  f->right = field_id(lang, "right");
  f->type = field_id(lang, "type");
  f->value = field_id(lang, "value");
  f->superclasses = field_id(lang, "superclasses");
}

/* ---- the node index ------------------------------------------------------------------------ */

static size_t slot_of(const void *id, size_t nslots) {
  uint64_t x = (uint64_t)(uintptr_t)id;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x & (nslots - 1);
}

static void slot_put(uint32_t *slots, size_t nslots, const void *id, uint32_t value) {
  size_t i = slot_of(id, nslots);
  while (slots[i]) i = (i + 1) & (nslots - 1);
  slots[i] = value;
}

static void index_grow(gl_model *m) {
  size_t n = m->nslots ? m->nslots * 2 : 1024;
  uint32_t *slots = gl_xcalloc(n, sizeof(*slots));
  for (size_t i = 0; i < m->nodes.len; i++)
    slot_put(slots, n, m->nodes.data[i].node.id, (uint32_t)i + 1);
  free(m->slots);
  m->slots = slots;
  m->nslots = n;
}

uint32_t gl_model__index_add(gl_model *m, const gl_model__rec *r) {
  if ((m->nodes.len + 1) * 2 > m->nslots) index_grow(m);
  gl_vec_push(&m->nodes, *r);
  slot_put(m->slots, m->nslots, r->node.id, (uint32_t)m->nodes.len);
  return (uint32_t)(m->nodes.len - 1);
}

static const gl_model__rec *rec_of(const gl_model *m, TSNode n) {
  if (!m->nslots || !n.id) return NULL;
  for (size_t i = slot_of(n.id, m->nslots);; i = (i + 1) & (m->nslots - 1)) {
    uint32_t s = m->slots[i];
    if (!s) return NULL;
    const gl_model__rec *r = &m->nodes.data[s - 1];
    if (r->node.id == n.id && r->node.tree == n.tree) return r;
  }
}

uint32_t gl_model__index_of(const gl_model *m, TSNode n) {
  const gl_model__rec *r = rec_of(m, n);
  return r ? (uint32_t)(r - m->nodes.data) : GL_MODEL__NONE;
}

/* ---- text ----------------------------------------------------------------------------------- */

const char *gl_model__text(const gl_model *m, TSNode n, size_t *len) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  if (b > m->src->len) b = (uint32_t)m->src->len;
  if (a > b) a = b;
  *len = b - a;
  return m->src->bytes + a;
}

size_t gl_model__dotted_copy(const gl_model *m, TSNode n, char *out, size_t cap) {
  size_t len, w = 0;
  const char *s = gl_model__text(m, n, &len);
  for (size_t i = 0; i < len; i++) {
    char ch = s[i];
    if (ch == '#') {
      while (i + 1 < len && s[i + 1] != '\n') i++;
      continue;
    }
    if (ch == ' ' || ch == '\t' || ch == '\f' || ch == '\r' || ch == '\n' || ch == '\\') continue;
    if (w < cap) out[w] = ch;
    w++;
  }
  return w;
}

/* end[i]: one past the last node of i's subtree (subtrees are contiguous in document order). */
static uint32_t *subtree_ends(const gl_model *m) {
  size_t n = m->nodes.len;
  uint32_t *end = gl_xmalloc((n ? n : 1) * sizeof(*end));
  for (size_t i = 0; i < n; i++) end[i] = (uint32_t)i + 1;
  for (size_t i = n; i-- > 1;) {
    uint32_t p = m->nodes.data[i].parent;
    if (p != GL_MODEL__NONE && end[i] > end[p]) end[p] = end[i];
  }
  return end;
}

gl_model *gl_model_build(const gl_source *src, const TSTree *tree, const gl_libmodels *lm) {
  return gl_model_build_program(src, tree, lm, NULL);
}

gl_model *gl_model_build_program(const gl_source *src, const TSTree *tree,
                                 const gl_libmodels *lm, const gl_model_program *prog) {
  gl_model *m = gl_xcalloc(1, sizeof(*m));
  if (prog) {
    m->program = prog->defs;
    m->nprogram = prog->ndefs;
    m->program_calls = prog->calls;
    m->nprogram_calls = prog->ncalls;
  }
  m->src = src;
  m->tree = tree;
  m->lm = lm;
  const TSLanguage *lang = ts_tree_language(tree);
  init_kinds(m, lang);
  init_fields(&m->f, lang);
  gl_model__names_init(&m->names);
  gl_model__walk(m, ts_tree_root_node(tree));
  gl_model__names_finish(&m->names);
  m->ends = subtree_ends(m);
  if (lm) gl_model__prov(m);
  if (lm) gl_model__calls_finish(m);
  gl_model__timing_finish(m);
  m->qual_known = lm != NULL;
  m->program = NULL;
  m->nprogram = 0;
  m->program_calls = NULL;
  m->nprogram_calls = 0;
  return m;
}

/* ---- queries -------------------------------------------------------------------------------- */

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
  const gl_model__rec *base = gl_model__kind_of(m, cur) == GL_K_IDENTIFIER ? rec_of(m, cur) : NULL;
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
  const gl_model__rec *r = rec_of(m, node);
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
  const gl_model__rec *r = rec_of(m, node);
  return r && (r->flags & GL_REC_IN_LOOP);
}

/* ---- provenance ---------------------------------------------------------------------------- */

static const gl_model__rec *prov_rec(const gl_model *m, TSNode node) {
  return m->lm ? rec_of(m, node) : NULL;
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

bool gl_model_loop_invariant(const gl_model *m, TSNode node) {
  const gl_model__rec *r = prov_rec(m, node);
  return r && gl_model__loop_invariant(m, (uint32_t)(r - m->nodes.data));
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

void gl_model_free(gl_model *m) {
  if (!m) return;
  gl_vec_free(&m->nodes);
  gl_vec_free(&m->comments);
  gl_model__names_free(&m->names);
  gl_model__loops_free(&m->loops);
  gl_vec_free(&m->calls);
  gl_vec_free(&m->timing_blocks);
  free(m->traced);
  free(m->hot_root);
  free(m->def_ret);
  free(m->def_ret_type);
  free(m->inst_class);
  free(m->slots);
  free(m->ends);
  free(m->kinds);
  free(m);
}
