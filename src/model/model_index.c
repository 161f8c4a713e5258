/* model_index.c: the model's node index seen from outside (model.h, "the node index"): every
 * named node in document order with its parent and subtree end, so the checks and the name
 * matcher visit nodes through an array instead of walking the tree again.
 * Owns: nothing; reads the gl_model built by model.c, model_walk.c and model_prov.c.
 * Not: building the index (model_walk.c), resolving names (model.c).
 * Threads: read-only on a model that belongs to one worker. */
#include <string.h>

#include "model/model_int.h"

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
