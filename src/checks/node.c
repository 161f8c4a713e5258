/* node.c: the node questions of the flow checks (node.h).
 * Owns: callee, argument and method lookups, text comparisons and copies, the import test, the
 *       def of a name, the body-synchronizes test.
 * Not: any check's logic.
 * Threads: no state beyond the caller's values. */
#include "checks/node.h"

#include <string.h>

#include "notebook/notebook.h"
#include "parse/parse.h"

#define QNAME_CAP 256

bool gl_check__callee(const gl_model *m, TSNode call, char *buf, size_t cap) {
  if (!GL_IS(call, call)) return false;
  TSNode fn = gl_parse_child(call, "function", 8);
  return !ts_node_is_null(fn) && gl_model_resolve(m, fn, buf, cap);
}

bool gl_check__callee_in(const gl_model *m, TSNode call, const char *const *names, size_t n) {
  char q[QNAME_CAP];
  if (!gl_check__callee(m, call, q, sizeof q)) return false;
  for (size_t i = 0; i < n; i++)
    if (strcmp(q, names[i]) == 0) return true;
  return false;
}

TSNode gl_check__arg(TSNode call, uint32_t i) {
  TSNode args = gl_parse_child(call, "arguments", 9);
  TSNode none = {0};
  if (!gl_parse_type_is(args, "argument_list")) return none;
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

TSNode gl_check__kwarg(const gl_source *src, TSNode call, const char *name) {
  TSNode args = gl_parse_child(call, "arguments", 9);
  uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  for (uint32_t j = 0; j < n; j++) {
    TSNode a = ts_node_named_child(args, j);
    if (!gl_parse_type_is(a, "keyword_argument")) continue;
    TSNode k = gl_parse_child(a, "name", 4);
    if (!ts_node_is_null(k) && gl_check__text_is(src, k, name))
      return gl_parse_child(a, "value", 5);
  }
  return (TSNode){0};
}

bool gl_check__method(const gl_source *src, TSNode call, const char *meth, TSNode *recv) {
  if (!GL_IS(call, call)) return false;
  TSNode fn = gl_parse_child(call, "function", 8);
  if (!GL_IS(fn, attribute)) return false;
  TSNode attr = gl_parse_child(fn, "attribute", 9);
  if (ts_node_is_null(attr) || !gl_check__text_is(src, attr, meth)) return false;
  *recv = gl_parse_child(fn, "object", 6);
  return !ts_node_is_null(*recv);
}

bool gl_check__method_name(const gl_source *src, TSNode call, char *buf, size_t cap,
                           TSNode *recv) {
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

bool gl_check__text_is(const gl_source *src, TSNode n, const char *s) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  size_t len = strlen(s);
  return b <= src->len && b - a == len && memcmp(src->bytes + a, s, len) == 0;
}

bool gl_check__same_text(const gl_source *src, TSNode a, TSNode b) {
  uint32_t a0 = ts_node_start_byte(a), a1 = ts_node_end_byte(a);
  uint32_t b0 = ts_node_start_byte(b), b1 = ts_node_end_byte(b);
  if (a1 - a0 != b1 - b0 || a1 > src->len || b1 > src->len) return false;
  return memcmp(src->bytes + a0, src->bytes + b0, a1 - a0) == 0;
}

bool gl_check__has_text(const gl_source *src, const gl_check__nodes *list, TSNode n) {
  for (size_t i = 0; i < list->len; i++)
    if (gl_check__same_text(src, list->data[i], n)) return true;
  return false;
}

bool gl_check__contains(TSNode outer, TSNode inner) {
  if (ts_node_is_null(inner)) return false;
  return ts_node_start_byte(outer) <= ts_node_start_byte(inner) &&
         ts_node_end_byte(inner) <= ts_node_end_byte(outer);
}

void gl_check__text(const gl_source *src, TSNode n, char *buf, size_t cap) {
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

const char *gl_check__written(const gl_source *src, uint32_t start, uint32_t end, int max,
                              int *len) {
  const char *code = src->notebook ? src->notebook->orig : src->bytes;
  *len = (int)(end - start > (uint32_t)max ? (uint32_t)max : end - start);
  const char *nl = memchr(code + start, '\n', (size_t)*len);
  if (nl) *len = (int)(nl - (code + start));
  return code + start;
}

bool gl_check__loads_ext(const gl_source *src, const char *ext) {
  const gl_notebook *nb = src->notebook;
  size_t len = ext ? strlen(ext) : 0;
  for (size_t i = 0; nb && ext && i < nb->magics.len; i++) {
    const gl_nb_magic *m = &nb->magics.data[i];
    if (m->kind == GL_NB_LINE_MAGIC && strcmp(m->name, "load_ext") == 0 && m->args &&
        strncmp(m->args, ext, len) == 0 && (m->args[len] == '\0' || m->args[len] == ' '))
      return true;
  }
  return false;
}

bool gl_check__imports_any(const gl_model *m, const char *const *libs, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (gl_model_imports(m, libs[i])) return true;
  return false;
}

bool gl_check__call_has_role(const gl_model *m, TSNode call, uint32_t roles) {
  const gl_api_entry *e = GL_IS(call, call) ? gl_model_call_entry(m, call) : NULL;
  return e && (e->roles & roles);
}

const gl_api_entry *gl_check__device_kwarg_alloc(const gl_model *m, TSNode call) {
  const gl_api_entry *e = GL_IS(call, call) ? gl_model_call_entry(m, call) : NULL;
  bool alloc = e && (e->roles & GL_ROLE_ALLOC) &&
               (e->result == GL_RESULT_DEFAULT_DEVICE || e->result == GL_RESULT_ARG0);
  return alloc ? e : NULL;
}

bool gl_check__imports_role(const gl_model *m, uint32_t roles) {
  const gl_libmodels *lm = gl_model_libmodels(m);
  for (size_t i = 0; i < gl_libmodels_module_count(lm); i++) {
    size_t len;
    uint32_t r;
    const char *seg = gl_libmodels_module(lm, i, &len, &r, NULL);
    char buf[QNAME_CAP];
    if (!(r & roles) || len >= sizeof buf) continue;
    memcpy(buf, seg, len);
    buf[len] = '\0';
    if (gl_model_imports(m, buf)) return true;
  }
  return false;
}

TSNode gl_check__def_named(const gl_source *src, const gl_check__nodes *defs, TSNode name) {
  TSNode found = {0};
  if (!GL_IS(name, identifier)) return found;
  for (size_t i = 0; i < defs->len; i++) {
    TSNode dn = gl_parse_child(defs->data[i], "name", 4);
    if (ts_node_is_null(dn) || !gl_check__same_text(src, dn, name)) continue;
    if (!ts_node_is_null(found)) return (TSNode){0};
    found = defs->data[i];
  }
  return found;
}

/* A call (or operation) with the sync or d2h role (gl_check__body_find's predicate). */
static bool syncs(TSNode n, const void *m) {
  return (gl_model_roles(m, n) & (GL_ROLE_SYNC | GL_ROLE_D2H)) != 0;
}

bool gl_check__body_syncs(const gl_model *m, TSNode def) {
  return !ts_node_is_null(gl_check__body_find(m, def, syncs, m));
}
