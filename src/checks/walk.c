/* walk.c: the flow checks' walk over the model's node index (walk.h).
 * Owns: the pre-order step (next index, or the end of the subtree when skipping), the path of
 *       ancestors kept by subtree ends with the innermost scope at each position, fields and
 *       scopes read from it; the body, defs and ancestor walks.
 * Not: any check's logic.
 * Threads: no state beyond the caller's values. */
#include "checks/walk.h"

#include <string.h>

#include "parse/parse.h"

void gl_check__walk_init(gl_check__walk *w, const gl_model *m, TSNode root) {
  memset(w, 0, sizeof *w);
  uint32_t i = m && !ts_node_is_null(root) ? gl_model_node_index(m, root) : GL_MODEL_NO_NODE;
  if (i == GL_MODEL_NO_NODE) {
    w->done = true;
    return;
  }
  w->m = m;
  w->lang = ts_tree_language(root.tree);
  w->root = w->at = i;
  w->end = gl_model_node_end(m, i);
}

void gl_check__walk_free(gl_check__walk *w) {
  gl_vec_free(&w->path);
  gl_vec_free(&w->fn_up);
  gl_vec_free(&w->cls_up);
}

/* Pushes index position i on the path, with the innermost scopes at or above it. */
static void push(gl_check__walk *w, uint32_t i) {
  size_t j = w->path.len;
  TSSymbol sym = ts_node_symbol(gl_model_node_at(w->m, i));
  const gl_types *t = gl_parse_types();
  bool fn = gl_type_has(&t->function_definition, sym) || gl_type_has(&t->lambda, sym);
  bool cls = fn || gl_type_has(&t->class_definition, sym);
  gl_vec_push(&w->path, i);
  gl_vec_push(&w->fn_up, fn ? (uint32_t)j + 1 : j ? w->fn_up.data[j - 1] : 0);
  gl_vec_push(&w->cls_up, cls ? (uint32_t)j + 1 : j ? w->cls_up.data[j - 1] : 0);
}

void gl_check__walk_skip(gl_check__walk *w) { w->skip = true; }

void gl_check__walk_stop(gl_check__walk *w) { w->done = true; }

bool gl_check__walk_next(gl_check__walk *w, TSNode *out) {
  if (w->done) return false;
  if (w->started) w->at = w->skip ? gl_model_node_end(w->m, w->at) : w->at + 1;
  w->started = true;
  w->skip = false;
  if (w->at >= w->end) {
    w->done = true;
    return false;
  }
  while (w->path.len && gl_model_node_end(w->m, *gl_vec_last(&w->path)) <= w->at) w->path.len--;
  w->fn_up.len = w->cls_up.len = w->path.len;
  push(w, w->at);
  *out = gl_model_node_at(w->m, w->at);
  return true;
}

uint32_t gl_check__walk_depth(const gl_check__walk *w) {
  return w->path.len ? (uint32_t)w->path.len - 1 : 0;
}

/* The field name of the node at index i in its parent; NULL for the walk's root. */
static const char *field_of(const gl_check__walk *w, uint32_t i) {
  TSFieldId f = i == w->root ? 0 : gl_model_node_field(w->m, i);
  return f ? ts_language_field_name_for_id(w->lang, f) : NULL;
}

const char *gl_check__walk_field(const gl_check__walk *w) {
  return w->path.len ? field_of(w, *gl_vec_last(&w->path)) : NULL;
}

TSNode gl_check__walk_up(const gl_check__walk *w, size_t k, const char **field) {
  if (w->path.len < k + 2) {
    if (field) *field = NULL;
    return (TSNode){0};
  }
  uint32_t i = w->path.data[w->path.len - 2 - k];
  if (field) *field = field_of(w, i);
  return gl_model_node_at(w->m, i);
}

TSNode gl_check__walk_scope(const gl_check__walk *w, unsigned flags) {
  if (!w->path.len) return (TSNode){0};
  const uint32_t *up = (flags & GL_CHECK__SCOPE_CLASSES) ? w->cls_up.data : w->fn_up.data;
  size_t last = w->path.len - 1;
  uint32_t from = ts_node_start_byte(gl_model_node_at(w->m, w->path.data[last]));
  size_t j = (flags & GL_CHECK__SCOPE_SELF) ? last + 1 : last;   /* positions below j count */
  while (j > 0 && up[j - 1]) {
    size_t k = up[j - 1] - 1;
    TSNode p = gl_model_node_at(w->m, w->path.data[k]);
    if (k == last || ts_node_end_byte(p) > from) return p;
    j = k;   /* a node of no width at the scope's last byte: outside it, look further up */
  }
  return (TSNode){0};
}

void gl_check__walk_scopes(const gl_check__walk *w, unsigned flags, gl_check__nodes *out) {
  const uint32_t *up = (flags & GL_CHECK__SCOPE_CLASSES) ? w->cls_up.data : w->fn_up.data;
  for (size_t j = w->path.len ? w->path.len - 1 : 0; j > 0 && up[j - 1]; j = up[j - 1] - 1)
    gl_vec_push(out, gl_model_node_at(w->m, w->path.data[up[j - 1] - 1]));
}

void gl_check__each(const gl_model *m, TSNode root, gl_check__visit_fn fn, void *data) {
  gl_check__walk w;
  gl_check__walk_init(&w, m, root);
  TSNode n;
  while (gl_check__walk_next(&w, &n)) fn(n, &w, data);
  gl_check__walk_free(&w);
}

bool gl_check__body_each(const gl_model *m, TSNode def, gl_check__visit_fn fn, void *data) {
  TSNode body = gl_parse_child(def, "body", 4);
  if (ts_node_is_null(body)) return false;
  gl_check__walk w;
  gl_check__walk_init(&w, m, body);
  TSNode n;
  while (gl_check__walk_next(&w, &n)) {
    if (gl_parse_opens_scope(n)) {
      gl_check__walk_skip(&w);
      continue;
    }
    fn(n, &w, data);
  }
  gl_check__walk_free(&w);
  return true;
}

typedef struct find {
  gl_check__node_pred pred;
  const void *data;
  TSNode hit;
} find;

/* gl_check__body_each's callback for gl_check__body_find: stops at the first hit. */
static void find_node(TSNode n, gl_check__walk *w, void *data) {
  find *f = data;
  if (!f->pred(n, f->data)) return;
  f->hit = n;
  gl_check__walk_stop(w);
}

TSNode gl_check__body_find(const gl_model *m, TSNode def, gl_check__node_pred pred,
                           const void *data) {
  find f = {.pred = pred, .data = data};
  gl_check__body_each(m, def, find_node, &f);
  return f.hit;
}

bool gl_check__ancestors(const gl_model *m, TSNode target, gl_check__nodes *chain) {
  chain->len = 0;
  uint32_t i = m && !ts_node_is_null(target) ? gl_model_node_index(m, target) : GL_MODEL_NO_NODE;
  if (i == GL_MODEL_NO_NODE) return false;
  for (; i != GL_MODEL_NO_NODE; i = gl_model_node_parent(m, i))
    gl_vec_push(chain, gl_model_node_at(m, i));
  for (size_t a = 0, b = chain->len; a + 1 < b; a++, b--) {
    TSNode t = chain->data[a];
    chain->data[a] = chain->data[b - 1];
    chain->data[b - 1] = t;
  }
  return true;
}

void gl_check__defs(const gl_model *m, const TSTree *tree, gl_check__nodes *out) {
  out->len = 0;
  gl_check__walk w;
  gl_check__walk_init(&w, m, ts_tree_root_node(tree));
  TSNode n;
  while (gl_check__walk_next(&w, &n))
    if (GL_IS(n, function_definition)) gl_vec_push(out, n);
  gl_check__walk_free(&w);
}
