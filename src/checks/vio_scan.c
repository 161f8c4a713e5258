/* vio_scan.c: scope stack, binding table and text helpers of the search-io-portability checks
 * (vio_scan.h).
 * Owns: gl_vscope_enter, gl_vbind_*, gl_vio_text / gl_vio_method.
 * Not: any check's logic, walking the tree.
 * Threads: no state beyond the caller's values. */
#include "checks/vio_scan.h"
#include "parse/parse.h"

#include <string.h>



uint32_t gl_vscope_enter(gl_vscopes *s, TSNode n) {
  uint32_t at = ts_node_start_byte(n);
  while (s->len > 0 && at >= s->data[s->len - 1].end) s->len--;
  if (gl_parse_opens_scope(n)) {
    gl_vscope sc = {at, ts_node_end_byte(n)};
    gl_vec_push(s, sc);
  }
  return s->len > 0 ? s->data[s->len - 1].start : 0;
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

void gl_vio_text(const gl_source *src, TSNode n, char *buf, size_t cap) {
  uint32_t a = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (cap < 5) {
    if (cap) buf[0] = '\0';
    return;
  }
  if (e > src->len) e = (uint32_t)src->len;
  size_t len = a < e ? e - a : 0;
  const char *nl = len ? memchr(src->bytes + a, '\n', len) : NULL;
  bool cut = false;
  if (nl) {
    len = (size_t)(nl - (src->bytes + a));
    cut = true;
  }
  if (len > cap - 4) {
    len = cap - 4;
    cut = true;
  }
  memcpy(buf, src->bytes + a, len);
  if (cut) memcpy(buf + len, "...", 3);
  buf[len + (cut ? 3 : 0)] = '\0';
}

bool gl_vio_method(const gl_source *src, TSNode call, char *buf, size_t cap, TSNode *recv) {
  if (!GL_IS(call, call) || cap == 0) return false;
  TSNode fn = gl_parse_child(call, "function", 8);
  if (!GL_IS(fn, attribute)) return false;
  TSNode attr = gl_parse_child(fn, "attribute", 9);
  TSNode obj = gl_parse_child(fn, "object", 6);
  if (ts_node_is_null(attr) || ts_node_is_null(obj)) return false;
  uint32_t a = ts_node_start_byte(attr), e = ts_node_end_byte(attr);
  if (e - a >= cap) return false;
  memcpy(buf, src->bytes + a, e - a);
  buf[e - a] = '\0';
  *recv = obj;
  return true;
}
