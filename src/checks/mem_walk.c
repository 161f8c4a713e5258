/* mem_walk.c: the shared walk and node helpers of the memory checks (mem_walk.h).
 * Owns: gl_mwalk's pre-order walk with its ancestor stack; callee, argument and text lookups.
 * Not: any check's logic.
 * Threads: no state beyond the caller's values. */
#include "checks/mem_walk.h"

#include <string.h>

static void push(gl_mwalk *w) {
  gl_mframe f = {ts_tree_cursor_current_node(&w->c), ts_tree_cursor_current_field_name(&w->c)};
  gl_vec_push(&w->stack, f);
}

void gl_mwalk_init(gl_mwalk *w, TSNode root) {
  memset(w, 0, sizeof(*w));
  w->c = ts_tree_cursor_new(root);
  gl_mframe f = {root, NULL};
  gl_vec_push(&w->stack, f);
}

void gl_mwalk_free(gl_mwalk *w) {
  ts_tree_cursor_delete(&w->c);
  gl_vec_free(&w->stack);
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

bool gl_mem_is(TSNode n, const char *kind) {
  return !ts_node_is_null(n) && strcmp(ts_node_type(n), kind) == 0;
}

bool gl_mem_is_scope(TSNode n) {
  return gl_mem_is(n, "function_definition") || gl_mem_is(n, "lambda") ||
         gl_mem_is(n, "class_definition");
}

bool gl_mem_callee(const gl_model *m, TSNode call, char *buf, size_t cap) {
  if (!gl_mem_is(call, "call")) return false;
  TSNode fn = ts_node_child_by_field_name(call, "function", 8);
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
  TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
  uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (!gl_mem_is(a, "keyword_argument")) continue;
    TSNode k = ts_node_child_by_field_name(a, "name", 4);
    if (!ts_node_is_null(k) && gl_mem_text_is(src, k, name))
      return ts_node_child_by_field_name(a, "value", 5);
  }
  return (TSNode){0};
}

TSNode gl_mem_arg(TSNode call, uint32_t i) {
  TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
  uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  for (uint32_t k = 0; k < n; k++) {
    TSNode a = ts_node_named_child(args, k);
    if (gl_mem_is(a, "list_splat") || gl_mem_is(a, "dictionary_splat")) break;
    if (gl_mem_is(a, "keyword_argument") || gl_mem_is(a, "comment")) continue;
    if (i-- == 0) return a;
  }
  return (TSNode){0};
}

bool gl_mem_is_true(TSNode n) { return gl_mem_is(n, "true"); }

/* Statement containers the import scan descends into; everything else is skipped. */
static bool holds_statements(TSNode n) {
  static const char *const kinds[] = {
      "module", "block", "if_statement", "elif_clause", "else_clause", "try_statement",
      "except_clause", "except_group_clause", "finally_clause", "with_statement",
      "for_statement", "while_statement", "function_definition", "class_definition",
      "decorated_definition", "match_statement", "case_clause"};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (gl_mem_is(n, kinds[i])) return true;
  return false;
}

/* True when dotted name d (an import's module) starts with one of libs as a whole segment. */
static bool names_lib(const gl_source *src, TSNode d, const char *const *libs, size_t n) {
  if (!gl_mem_is(d, "dotted_name") || ts_node_named_child_count(d) == 0) return false;
  TSNode first = ts_node_named_child(d, 0);
  for (size_t i = 0; i < n; i++)
    if (gl_mem_text_is(src, first, libs[i])) return true;
  return false;
}

static bool import_names_lib(const gl_source *src, TSNode imp, const char *const *libs, size_t n) {
  if (gl_mem_is(imp, "import_from_statement"))
    return names_lib(src, ts_node_child_by_field_name(imp, "module_name", 11), libs, n);
  uint32_t k = ts_node_named_child_count(imp);
  for (uint32_t i = 0; i < k; i++) {
    TSNode c = ts_node_named_child(imp, i);
    if (gl_mem_is(c, "aliased_import")) c = ts_node_child_by_field_name(c, "name", 4);
    if (names_lib(src, c, libs, n)) return true;
  }
  return false;
}

bool gl_mem_imports_any(const gl_source *src, const TSTree *tree, const char *const *libs,
                        size_t n) {
  gl_mwalk w;
  gl_mwalk_init(&w, ts_tree_root_node(tree));
  TSNode node;
  bool hit = false;
  while (!hit && gl_mwalk_next(&w, &node)) {
    if (gl_mem_is(node, "import_statement") || gl_mem_is(node, "import_from_statement"))
      hit = import_names_lib(src, node, libs, n);
    else if (!holds_statements(node))
      gl_mwalk_skip(&w);
  }
  gl_mwalk_free(&w);
  return hit;
}
