/* bench_scan.c: the tree helpers of the benchmarking checks (bench_scan.h).
 * Owns: gl_bscan's pre-order walk, the walk over a def's body, ancestor chains by descent, node
 *       text comparisons, callee and argument lookups.
 * Not: any check's logic.
 * Threads: no state beyond the caller's values. */
#include "checks/bench_scan.h"
#include "parse/parse.h"

#include <string.h>

#define QNAME_CAP 256

void gl_bscan_init(gl_bscan *s, TSNode root) {
  memset(s, 0, sizeof(*s));
  s->c = ts_tree_cursor_new(root);
}

void gl_bscan_init_in(gl_bscan *s, const gl_model *m, TSNode root) {
  uint32_t i = m ? gl_model_node_index(m, root) : GL_MODEL_NO_NODE;
  if (i == GL_MODEL_NO_NODE) {
    gl_bscan_init(s, root);
    return;
  }
  memset(s, 0, sizeof(*s));
  s->m = m;
  s->lang = ts_tree_language(root.tree);
  s->first = s->at = i;
  s->end = gl_model_node_end(m, i);
}

void gl_bscan_free(gl_bscan *s) {
  if (!s->m) ts_tree_cursor_delete(&s->c);
}

void gl_bscan_skip(gl_bscan *s) { s->skip = true; }

void gl_bscan_stop(gl_bscan *s) { s->done = true; }

const char *gl_bscan_field(const gl_bscan *s) {
  if (!s->m) return ts_tree_cursor_current_field_name(&s->c);
  TSFieldId f = s->at == s->first ? 0 : gl_model_node_field(s->m, s->at);
  return f ? ts_language_field_name_for_id(s->lang, f) : NULL;
}

/* Moves to the next node in pre-order, any node; false at the end of the subtree. */
static bool step(gl_bscan *s) {
  if (!s->skip && ts_tree_cursor_goto_first_child(&s->c)) {
    s->depth++;
    return true;
  }
  s->skip = false;
  for (;;) {
    if (s->depth == 0) return false;
    if (ts_tree_cursor_goto_next_sibling(&s->c)) return true;
    ts_tree_cursor_goto_parent(&s->c);
    s->depth--;
  }
}

static bool next_in_index(gl_bscan *s, TSNode *out) {
  if (s->started) s->at = s->skip ? gl_model_node_end(s->m, s->at) : s->at + 1;
  s->started = true;
  s->skip = false;
  if (s->at >= s->end) {
    s->done = true;
    return false;
  }
  *out = gl_model_node_at(s->m, s->at);
  return true;
}

bool gl_bscan_next(gl_bscan *s, TSNode *out) {
  if (s->done) return false;
  if (s->m) return next_in_index(s, out);
  if (!s->started) {
    s->started = true;
    TSNode n = ts_tree_cursor_current_node(&s->c);
    if (ts_node_is_named(n)) {
      *out = n;
      return true;
    }
  }
  while (step(s)) {
    TSNode n = ts_tree_cursor_current_node(&s->c);
    if (!ts_node_is_named(n)) {
      s->skip = true;  /* anonymous nodes have no named children worth a visit */
      continue;
    }
    *out = n;
    return true;
  }
  s->done = true;
  return false;
}

bool gl_bscan_is_scope(TSNode n) { return gl_parse_opens_scope(n); }

/* The chain through the index's parent links, root first. */
static void chain_in_index(const gl_model *m, uint32_t i, gl_bnodes *chain) {
  for (; i != GL_MODEL_NO_NODE; i = gl_model_node_parent(m, i))
    gl_vec_push(chain, gl_model_node_at(m, i));
  for (size_t a = 0, b = chain->len; a + 1 < b; a++, b--) {
    TSNode t = chain->data[a];
    chain->data[a] = chain->data[b - 1];
    chain->data[b - 1] = t;
  }
}

bool gl_bscan_chain_in(const gl_model *m, const TSTree *tree, TSNode target, gl_bnodes *chain) {
  uint32_t at = m ? gl_model_node_index(m, target) : GL_MODEL_NO_NODE;
  if (at == GL_MODEL_NO_NODE) return gl_bscan_chain(tree, target, chain);
  chain->len = 0;
  chain_in_index(m, at, chain);
  return true;
}

bool gl_bscan_chain(const TSTree *tree, TSNode target, gl_bnodes *chain) {
  chain->len = 0;
  uint32_t b = ts_node_start_byte(target), e = ts_node_end_byte(target);
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
  bool found = false;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (ts_node_is_named(n)) gl_vec_push(chain, n);
    if (ts_node_eq(n, target)) {
      found = true;
      break;
    }
    /* the child that holds [b, e) entirely: the first one ending after b (the runtime skips
     * whole subtrees to find it), or for an empty target the one ending at b */
    if (ts_tree_cursor_goto_first_child_for_byte(&c, b > 0 && b == e ? b - 1 : b) < 0) break;
    bool moved = false;
    do {
      TSNode k = ts_tree_cursor_current_node(&c);
      if (ts_node_start_byte(k) > b) break;
      if (ts_node_end_byte(k) >= e && (ts_node_is_named(k) || ts_node_child_count(k) > 0)) {
        moved = true;
        break;
      }
    } while (ts_tree_cursor_goto_next_sibling(&c));
    if (!moved) break;
  }
  ts_tree_cursor_delete(&c);
  return found;
}

bool gl_bscan_same_text(const gl_source *src, TSNode a, TSNode b) {
  uint32_t a0 = ts_node_start_byte(a), a1 = ts_node_end_byte(a);
  uint32_t b0 = ts_node_start_byte(b), b1 = ts_node_end_byte(b);
  if (a1 - a0 != b1 - b0 || a1 > src->len || b1 > src->len) return false;
  return memcmp(src->bytes + a0, src->bytes + b0, a1 - a0) == 0;
}

bool gl_bscan_text_is(const gl_source *src, TSNode n, const char *s) {
  uint32_t a0 = ts_node_start_byte(n), a1 = ts_node_end_byte(n);
  size_t len = strlen(s);
  return a1 <= src->len && a1 - a0 == len && memcmp(src->bytes + a0, s, len) == 0;
}

bool gl_bscan_callee(const gl_model *m, TSNode call, char *buf, size_t cap) {
  if (strcmp(ts_node_type(call), "call") != 0) return false;
  TSNode fn = gl_parse_child(call, "function", 8);
  return !ts_node_is_null(fn) && gl_model_resolve(m, fn, buf, cap);
}

bool gl_bscan_callee_in(const gl_model *m, TSNode call, const char *const *names, size_t n) {
  char q[QNAME_CAP];
  if (!gl_bscan_callee(m, call, q, sizeof q)) return false;
  for (size_t i = 0; i < n; i++)
    if (strcmp(q, names[i]) == 0) return true;
  return false;
}

TSNode gl_bscan_arg(TSNode call, uint32_t i) {
  TSNode args = gl_parse_child(call, "arguments", 9);
  TSNode none = {0};
  if (ts_node_is_null(args) || strcmp(ts_node_type(args), "argument_list") != 0) return none;
  uint32_t n = ts_node_named_child_count(args), k = 0;
  for (uint32_t j = 0; j < n; j++) {
    TSNode a = ts_node_named_child(args, j);
    const char *t = ts_node_type(a);
    if (strcmp(t, "comment") == 0) continue;
    if (strcmp(t, "list_splat") == 0 || strcmp(t, "dictionary_splat") == 0 ||
        strcmp(t, "keyword_argument") == 0)
      return none;
    if (k++ == i) return a;
  }
  return none;
}

TSNode gl_bscan_kwarg(const gl_source *src, TSNode call, const char *name) {
  TSNode args = gl_parse_child(call, "arguments", 9);
  TSNode none = {0};
  if (ts_node_is_null(args)) return none;
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t j = 0; j < n; j++) {
    TSNode a = ts_node_named_child(args, j);
    if (strcmp(ts_node_type(a), "keyword_argument") != 0) continue;
    TSNode k = gl_parse_child(a, "name", 4);
    if (!ts_node_is_null(k) && gl_bscan_text_is(src, k, name))
      return gl_parse_child(a, "value", 5);
  }
  return none;
}

bool gl_bscan_method(const gl_source *src, TSNode call, const char *meth, TSNode *recv) {
  if (strcmp(ts_node_type(call), "call") != 0) return false;
  TSNode fn = gl_parse_child(call, "function", 8);
  if (ts_node_is_null(fn) || strcmp(ts_node_type(fn), "attribute") != 0) return false;
  TSNode attr = gl_parse_child(fn, "attribute", 9);
  if (ts_node_is_null(attr) || !gl_bscan_text_is(src, attr, meth)) return false;
  *recv = gl_parse_child(fn, "object", 6);
  return !ts_node_is_null(*recv);
}

void gl_bscan_defs_in(const gl_model *m, const TSTree *tree, gl_bnodes *out) {
  out->len = 0;
  gl_bscan s;
  gl_bscan_init_in(&s, m, ts_tree_root_node(tree));
  TSNode n;
  while (gl_bscan_next(&s, &n))
    if (strcmp(ts_node_type(n), "function_definition") == 0) gl_vec_push(out, n);
  gl_bscan_free(&s);
}

TSNode gl_bscan_def_named(const gl_source *src, const gl_bnodes *defs, TSNode name) {
  TSNode found = {0};
  if (strcmp(ts_node_type(name), "identifier") != 0) return found;
  for (size_t i = 0; i < defs->len; i++) {
    TSNode dn = gl_parse_child(defs->data[i], "name", 4);
    if (ts_node_is_null(dn) || !gl_bscan_same_text(src, dn, name)) continue;
    if (!ts_node_is_null(found)) return (TSNode){0};
    found = defs->data[i];
  }
  return found;
}

bool gl_bscan_body_each(TSNode def, gl_bscan_fn fn, void *data) {
  TSNode body = gl_parse_child(def, "body", 4);
  if (ts_node_is_null(body)) return false;
  gl_bscan s;
  gl_bscan_init(&s, body);
  TSNode n;
  while (gl_bscan_next(&s, &n)) {
    if (gl_bscan_is_scope(n)) {
      gl_bscan_skip(&s);
      continue;
    }
    fn(n, &s, data);
  }
  gl_bscan_free(&s);
  return true;
}

typedef struct sync_find {
  const gl_model *m;
  bool hit;
} sync_find;

/* gl_bscan_body_each's callback for gl_bscan_body_syncs: stops at the first sync or d2h. */
static void sync_node(TSNode n, gl_bscan *s, void *data) {
  sync_find *f = data;
  f->hit = (gl_model_roles(f->m, n) & (GL_ROLE_SYNC | GL_ROLE_D2H)) != 0;
  if (f->hit) gl_bscan_stop(s);
}

bool gl_bscan_body_syncs(const gl_model *m, TSNode def) {
  sync_find f = {m, false};
  gl_bscan_body_each(def, sync_node, &f);
  return f.hit;
}
