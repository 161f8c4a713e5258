/* binds.c: the scope ids and the binding table of the search-io-portability checks (binds.h).
 * Owns: gl_vbind_scope, gl_vbind_set / gl_vbind_kill_target / gl_vbind_get.
 * Not: any check's logic, walking the tree (walk.c).
 * Threads: no state beyond the caller's values. */
#include "checks/search-io-portability/binds.h"
#include "parse/parse.h"

#include <string.h>

uint32_t gl_vbind_scope(const gl_check__walk *w) {
  TSNode s = gl_check__walk_scope(w, GL_CHECK__SCOPE_CLASSES | GL_CHECK__SCOPE_SELF);
  return ts_node_is_null(s) ? 0 : ts_node_start_byte(s);
}

void gl_vbind_set(gl_vbinds *b, const gl_source *src, uint32_t scope, TSNode name, uint32_t from,
                  int kind, TSNode node) {
  (void)src;
  gl_vbind v = {scope, ts_node_start_byte(name), ts_node_end_byte(name), from, kind, node};
  gl_vec_push(b, v);
}

void gl_vbind_kill_target(gl_vbinds *b, const gl_source *src, uint32_t scope, TSNode target,
                          uint32_t from) {
  TSNode none = {0};
  if (GL_IS(target, identifier)) {
    gl_vbind_set(b, src, scope, target, from, 0, none);
    return;
  }
  if (!gl_parse_type_is(target, "pattern_list") && !gl_parse_type_is(target, "tuple_pattern") &&
      !gl_parse_type_is(target, "list_pattern") && !GL_IS(target, parenthesized_expression) &&
      !gl_parse_type_is(target, "tuple") && !gl_parse_type_is(target, "list") &&
      !gl_parse_type_is(target, "list_splat_pattern") &&
      !gl_parse_type_is(target, "expression_list"))
    return;
  uint32_t n = ts_node_named_child_count(target);
  for (uint32_t i = 0; i < n; i++) {
    TSNode k = ts_node_named_child(target, i);
    if (GL_IS(k, identifier)) gl_vbind_set(b, src, scope, k, from, 0, none);
    else if (gl_parse_type_is(k, "list_splat_pattern") && ts_node_named_child_count(k) > 0)
      gl_vbind_set(b, src, scope, ts_node_named_child(k, 0), from, 0, none);
  }
}

const gl_vbind *gl_vbind_get(const gl_vbinds *b, const gl_source *src, uint32_t scope,
                             TSNode name, uint32_t at) {
  uint32_t n0 = ts_node_start_byte(name), n1 = ts_node_end_byte(name);
  for (size_t i = b->len; i-- > 0;) {
    const gl_vbind *v = &b->data[i];
    if (v->scope != scope || v->from > at || v->name1 - v->name0 != n1 - n0) continue;
    if (memcmp(src->bytes + v->name0, src->bytes + n0, n1 - n0) == 0) return v;
  }
  return NULL;
}
