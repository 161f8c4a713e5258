/* mem_walk.c: the shared walk and node helpers of the memory checks (mem_walk.h).
 * Owns: gl_mwalk's pre-order walk with its ancestor stack, the whole-file walk with its stack of
 *       enclosing functions; callee, argument and text lookups.
 * Not: any check's logic.
 * Threads: no state beyond the caller's values. */
#include "checks/mem_walk.h"
#include "parse/parse.h"

#include <string.h>

static void push(gl_mwalk *w) {
  gl_mframe f = {ts_tree_cursor_current_node(&w->c), ts_tree_cursor_current_field_name(&w->c), 0};
  gl_vec_push(&w->stack, f);
}

void gl_mwalk_init(gl_mwalk *w, TSNode root) {
  memset(w, 0, sizeof(*w));
  w->c = ts_tree_cursor_new(root);
  gl_mframe f = {root, NULL, 0};
  gl_vec_push(&w->stack, f);
}

void gl_mwalk_init_in(gl_mwalk *w, const gl_model *m, TSNode root) {
  uint32_t i = m ? gl_model_node_index(m, root) : GL_MODEL_NO_NODE;
  if (i == GL_MODEL_NO_NODE) {
    gl_mwalk_init(w, root);
    return;
  }
  memset(w, 0, sizeof(*w));
  w->m = m;
  w->lang = ts_tree_language(root.tree);
  w->at = i;
  w->end = gl_model_node_end(m, i);
}

void gl_mwalk_free(gl_mwalk *w) {
  if (!w->m) ts_tree_cursor_delete(&w->c);
  gl_vec_free(&w->stack);
}

/* Index mode: the next node, its named ancestors below the walk's root on the stack. */
static bool next_in_index(gl_mwalk *w, TSNode *out) {
  if (w->started) w->at = w->skip ? gl_model_node_end(w->m, w->at) : w->at + 1;
  w->skip = false;
  if (w->at >= w->end) return false;
  while (w->stack.len && gl_vec_last(&w->stack)->end <= w->at) w->stack.len--;
  TSFieldId fid = w->started ? gl_model_node_field(w->m, w->at) : 0;
  w->started = true;
  gl_mframe f = {gl_model_node_at(w->m, w->at),
                 fid ? ts_language_field_name_for_id(w->lang, fid) : NULL,
                 gl_model_node_end(w->m, w->at)};
  gl_vec_push(&w->stack, f);
  *out = f.node;
  return true;
}

void gl_mwalk_skip(gl_mwalk *w) { w->skip = true; }

/* Moves to the next node in pre-order, named or not; false at the end of the subtree. */
static bool step(gl_mwalk *w) {
  if (!w->skip && ts_tree_cursor_goto_first_child(&w->c)) {
    push(w);
    return true;
  }
  w->skip = false;
  for (;;) {
    if (w->stack.len <= 1) return false;
    w->stack.len--;
    if (ts_tree_cursor_goto_next_sibling(&w->c)) {
      push(w);
      return true;
    }
    ts_tree_cursor_goto_parent(&w->c);
  }
}

bool gl_mwalk_next(gl_mwalk *w, TSNode *out) {
  if (w->m) return next_in_index(w, out);
  if (!w->started) {
    w->started = true;
    TSNode n = w->stack.data[0].node;
    if (ts_node_is_named(n)) {
      *out = n;
      return true;
    }
  }
  while (step(w)) {
    TSNode n = gl_vec_last(&w->stack)->node;
    if (!ts_node_is_named(n)) {
      w->skip = true;
      continue;
    }
    *out = n;
    return true;
  }
  return false;
}

void gl_mwalk_scoped(const gl_model *m, const TSTree *tree, gl_mscopes *scopes, gl_mwalk_fn fn,
                     void *data) {
  gl_mwalk w;
  gl_mwalk_init_in(&w, m, ts_tree_root_node(tree));
  TSNode n;
  while (gl_mwalk_next(&w, &n)) {
    while (scopes->len && ts_node_start_byte(n) >= ts_node_end_byte(*gl_vec_last(scopes)))
      scopes->len--;
    fn(&w, n, data);
    if (GL_IS(n, function_definition) || GL_IS(n, lambda)) gl_vec_push(scopes, n);
  }
  gl_mwalk_free(&w);
}

TSNode gl_mwalk_up(const gl_mwalk *w, size_t k, const char **field) {
  size_t i = w->stack.len - 1;
  while (i > 0) {
    i--;
    if (!ts_node_is_named(w->stack.data[i].node)) continue;
    if (k-- > 0) continue;
    if (field) *field = w->stack.data[i].field;
    return w->stack.data[i].node;
  }
  if (field) *field = NULL;
  return (TSNode){0};
}

const char *gl_mwalk_field(const gl_mwalk *w) { return gl_vec_last(&w->stack)->field; }


bool gl_mem_is_scope(TSNode n) { return gl_parse_opens_scope(n); }

bool gl_mem_callee(const gl_model *m, TSNode call, char *buf, size_t cap) {
  if (!GL_IS(call, call)) return false;
  TSNode fn = gl_parse_child(call, "function", 8);
  return !ts_node_is_null(fn) && gl_model_resolve(m, fn, buf, cap);
}

bool gl_mem_text_is(const gl_source *src, TSNode n, const char *s) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  size_t len = strlen(s);
  return b - a == len && memcmp(src->bytes + a, s, len) == 0;
}

bool gl_mem_same_text(const gl_source *src, TSNode a, TSNode b) {
  uint32_t a0 = ts_node_start_byte(a), a1 = ts_node_end_byte(a);
  uint32_t b0 = ts_node_start_byte(b), b1 = ts_node_end_byte(b);
  return a1 - a0 == b1 - b0 && memcmp(src->bytes + a0, src->bytes + b0, a1 - a0) == 0;
}

TSNode gl_mem_kwarg(const gl_source *src, TSNode call, const char *name) {
  TSNode args = gl_parse_child(call, "arguments", 9);
  uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (!gl_parse_type_is(a, "keyword_argument")) continue;
    TSNode k = gl_parse_child(a, "name", 4);
    if (!ts_node_is_null(k) && gl_mem_text_is(src, k, name))
      return gl_parse_child(a, "value", 5);
  }
  return (TSNode){0};
}

TSNode gl_mem_arg(TSNode call, uint32_t i) {
  TSNode args = gl_parse_child(call, "arguments", 9);
  uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  for (uint32_t k = 0; k < n; k++) {
    TSNode a = ts_node_named_child(args, k);
    if (gl_parse_type_is(a, "list_splat") || gl_parse_type_is(a, "dictionary_splat")) break;
    if (gl_parse_type_is(a, "keyword_argument") || gl_parse_type_is(a, "comment")) continue;
    if (i-- == 0) return a;
  }
  return (TSNode){0};
}

bool gl_mem_is_true(TSNode n) { return gl_parse_type_is(n, "true"); }

bool gl_mem_imports_any(const gl_model *m, const char *const *libs, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (gl_model_imports(m, libs[i])) return true;
  return false;
}
