/* model_index.c: the model's node index: every named node in document order with its parent and
 * subtree end, found from its TSNode in O(1), so the checks and the name matcher visit nodes
 * through an array instead of walking the tree again; and a node's text.
 * Owns: the index of named nodes keyed by TSNode id (open addressing, O(1) average lookup),
 *       a node's bytes and dotted-name copy, and the index seen from outside (model.h, "the node
 *       index").
 * Not: what goes into the index (model_walk.c), resolving names (model_query.c).
 * Threads: read-only on a model that belongs to one worker. */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "model/model_int.h"

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

const gl_model__rec *gl_model__rec_of(const gl_model *m, TSNode n) {
  if (!m->nslots || !n.id) return NULL;
  for (size_t i = slot_of(n.id, m->nslots);; i = (i + 1) & (m->nslots - 1)) {
    uint32_t s = m->slots[i];
    if (!s) return NULL;
    const gl_model__rec *r = &m->nodes.data[s - 1];
    if (r->node.id == n.id && r->node.tree == n.tree) return r;
  }
}

uint32_t gl_model__index_of(const gl_model *m, TSNode n) {
  const gl_model__rec *r = gl_model__rec_of(m, n);
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

/* ---- the index seen from outside ----------------------------------------------------------- */

uint32_t gl_model_node_count(const gl_model *m) { return (uint32_t)m->nodes.len; }

TSNode gl_model_node_at(const gl_model *m, uint32_t i) { return m->nodes.data[i].node; }

uint32_t gl_model_node_index(const gl_model *m, TSNode n) { return gl_model__index_of(m, n); }

uint32_t gl_model_node_parent(const gl_model *m, uint32_t i) { return m->nodes.data[i].parent; }

TSNode gl_model_parent_of(const gl_model *m, TSNode n) {
  uint32_t i = m ? gl_model__index_of(m, n) : GL_MODEL__NONE;
  if (i == GL_MODEL__NONE) return ts_node_parent(n);
  uint32_t p = m->nodes.data[i].parent;
  return p == GL_MODEL_NO_NODE ? (TSNode){0} : m->nodes.data[p].node;
}

uint32_t gl_model_node_end(const gl_model *m, uint32_t i) { return m->ends[i]; }

TSFieldId gl_model_node_field(const gl_model *m, uint32_t i) { return m->nodes.data[i].field; }

bool gl_model_node_qualified(const gl_model *m, uint32_t i) {
  return m->qual_known && (m->nodes.data[i].val & GL_VAL_QUAL);
}

bool gl_model_has_provenance(const gl_model *m) { return m->qual_known; }

bool gl_model_imports(const gl_model *m, const char *module) {
  size_t len = strlen(module);
  const gl_model__names *n = &m->names;
  for (size_t i = 0; i < n->events.len; i++) {
    const gl_model__event *e = &n->events.data[i];
    if (e->kind != GL_BIND_IMPORT || e->qual_len < len) continue;
    const char *q = n->pool.data + e->qual_off;
    if (memcmp(q, module, len) == 0 && (e->qual_len == len || q[len] == '.')) return true;
  }
  return false;
}
