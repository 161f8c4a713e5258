/* model_attrs.c: what a class's methods store in `self.<name>` and read back elsewhere.
 * Owns: the file's attribute sites (an assignment, augmented assignment or `for` target
 *       `self.name` directly in a method of a class), grouped by (class, name); the value each
 *       site last stored in a real walk (or the attribute walk that precedes the real walks:
 *       gl_model__prov); and reading `self.name` in a method of that class: the join of every
 *       site's value, only once every site of the name has stored one (a name some method has
 *       not yet stored stays unknown, whatever order the methods come in).
 * Not: attributes of library types (model_eval.c, the models), objects of the class outside
 *      its methods (`sim = Sim(); sim.loss`), attributes set through `setattr` (never a site:
 *      a name with such a store elsewhere may read a value it does not always have).
 * Threads: runs inside gl_model_build on one worker. */
#include "model/model_prov.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

typedef struct attr_site {
  uint32_t node;      /* the `self.name` attribute node */
  uint32_t scope;     /* the class scope */
  const char *name;   /* the attribute name's bytes in the source */
  uint32_t len;
  gl_pval val;        /* the value it last stored (unbound: none yet) */
} attr_site;

typedef struct node_site {
  uint32_t node, site;
} node_site;

struct gl_prov_attrs {
  attr_site *sites;   /* sorted by (scope, name, node) */
  uint32_t n;
  node_site *by_node; /* (node, site number), sorted by node */
};

static bool is_self(const gl_model *m, TSNode obj) {
  if (gl_model__kind_of(m, obj) != GL_K_IDENTIFIER) return false;
  size_t len;
  const char *s = gl_model__text(m, obj, &len);
  return len == 4 && memcmp(s, "self", 4) == 0;
}

/* The class scope of `self.name` node i read or stored directly in a method's body, or NONE. */
static uint32_t method_class_scope(const gl_model *m, uint32_t i) {
  const gl_model__rec *r = &m->nodes.data[i];
  if (r->kind != GL_K_ATTRIBUTE || !is_self(m, ts_node_child_by_field_id(r->node, m->f.object)))
    return GL_MODEL__NONE;
  const gl_model__scope *s = &m->names.scopes.data[r->scope];
  while (s->kind == GL_SCOPE_COMPREHENSION && s->parent != GL_MODEL__NONE)   /* [self.x[i] for i] */
    s = &m->names.scopes.data[s->parent];
  if (s->kind != GL_SCOPE_FUNCTION || s->parent == GL_MODEL__NONE) return GL_MODEL__NONE;
  return m->names.scopes.data[s->parent].kind == GL_SCOPE_CLASS ? s->parent : GL_MODEL__NONE;
}

/* True when attribute node i is what an assignment, augmented assignment or `for` binds (itself
 * or inside a target tuple or list). */
static bool is_target(const gl_model *m, uint32_t i) {
  uint32_t c = i, p = m->nodes.data[i].parent;
  while (p != GL_MODEL__NONE) {
    switch ((gl_model__kind)m->nodes.data[p].kind) {
      case GL_K_PATTERN_LIST: case GL_K_TUPLE_PATTERN: case GL_K_LIST_PATTERN: case GL_K_TUPLE:
      case GL_K_LIST: case GL_K_EXPRESSION_LIST: case GL_K_PARENTHESIZED_EXPRESSION:
        c = p;
        p = m->nodes.data[p].parent;
        continue;
      case GL_K_ASSIGNMENT: case GL_K_AUGMENTED_ASSIGNMENT: case GL_K_FOR_STATEMENT:
        return m->nodes.data[c].field == m->f.left;
      default:
        return false;
    }
  }
  return false;
}

static int cmp_name(uint32_t sa, const char *na, uint32_t la, uint32_t sb, const char *nb,
                    uint32_t lb) {
  if (sa != sb) return sa < sb ? -1 : 1;
  int c = memcmp(na, nb, la < lb ? la : lb);
  return c ? c : la < lb ? -1 : la > lb;
}

static int by_key(const void *a, const void *b) {
  const attr_site *x = a, *y = b;
  int c = cmp_name(x->scope, x->name, x->len, y->scope, y->name, y->len);
  return c ? c : x->node < y->node ? -1 : x->node > y->node;
}

static int by_node_cmp(const void *a, const void *b) {
  uint32_t x = ((const node_site *)a)->node, y = ((const node_site *)b)->node;
  return x < y ? -1 : x > y;
}

void gl_prov__attrs_init(gl_prov_pass *pp) {
  const gl_model *m = pp->m;
  gl_prov_attrs *a = gl_xcalloc(1, sizeof(*a));
  pp->attrs = a;
  gl_vec(attr_site) v = {0};
  for (uint32_t i = 0; i < m->nodes.len; i++) {
    if (m->nodes.data[i].kind != GL_K_ATTRIBUTE) continue;
    uint32_t scope = method_class_scope(m, i);
    if (scope == GL_MODEL__NONE || !is_target(m, i)) continue;
    TSNode name = ts_node_child_by_field_id(m->nodes.data[i].node, m->f.attribute);
    if (ts_node_is_null(name)) continue;
    size_t len;
    const char *s = gl_model__text(m, name, &len);
    attr_site site = {i, scope, s, (uint32_t)len, gl_pval_unbound()};
    gl_vec_push(&v, site);
  }
  a->sites = v.data;
  a->n = (uint32_t)v.len;
  if (!a->n) return;
  qsort(a->sites, a->n, sizeof(*a->sites), by_key);
  a->by_node = gl_xmalloc(a->n * sizeof(*a->by_node));
  for (uint32_t k = 0; k < a->n; k++) a->by_node[k] = (node_site){a->sites[k].node, k};
  qsort(a->by_node, a->n, sizeof(*a->by_node), by_node_cmp);
}

void gl_prov__attrs_free(gl_prov_pass *pp) {
  if (!pp->attrs) return;
  free(pp->attrs->sites);
  free(pp->attrs->by_node);
  free(pp->attrs);
  pp->attrs = NULL;
}

void gl_prov__attrs_store(gl_prov_pass *pp, uint32_t node, gl_pval v) {
  gl_prov_attrs *a = pp->attrs;
  if (!a || !a->n || (pp->hypo && !pp->attr_walk)) return;
  uint32_t lo = 0, hi = a->n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (a->by_node[mid].node < node) lo = mid + 1; else hi = mid;
  }
  if (lo < a->n && a->by_node[lo].node == node) {
    attr_site *s = &a->sites[a->by_node[lo].site];
    s->val = gl_pval_is_unbound(v) ? gl_pval_unknown() : v;
  }
}

bool gl_prov__attrs_read(const gl_prov_pass *pp, uint32_t node, gl_pval *v) {
  const gl_prov_attrs *a = pp->attrs;
  if (!a || !a->n) return false;
  uint32_t scope = method_class_scope(pp->m, node);
  if (scope == GL_MODEL__NONE) return false;
  TSNode name = ts_node_child_by_field_id(pp->m->nodes.data[node].node, pp->m->f.attribute);
  if (ts_node_is_null(name)) return false;
  size_t len;
  const char *s = gl_model__text(pp->m, name, &len);
  uint32_t lo = 0, hi = a->n;   /* the first site of (scope, name) */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    const attr_site *x = &a->sites[mid];
    if (cmp_name(x->scope, x->name, x->len, scope, s, (uint32_t)len) < 0) lo = mid + 1; else hi = mid;
  }
  gl_pval j = gl_pval_unbound();
  bool any = false;
  for (uint32_t k = lo; k < a->n && !cmp_name(a->sites[k].scope, a->sites[k].name, a->sites[k].len,
                                               scope, s, (uint32_t)len); k++) {
    if (gl_pval_is_unbound(a->sites[k].val)) return false;   /* a site not walked yet */
    j = any ? gl_pval_join(j, a->sites[k].val) : a->sites[k].val;
    any = true;
  }
  if (!any) return false;
  *v = j;
  return true;
}

bool gl_prov__attrs_any(const gl_prov_pass *pp, uint32_t def_start, uint32_t def_end) {
  const gl_prov_attrs *a = pp->attrs;
  if (!a) return false;
  for (uint32_t k = 0; k < a->n; k++) {
    uint32_t at = ts_node_start_byte(pp->m->nodes.data[a->sites[k].node].node);
    if (at >= def_start && at < def_end) return true;
  }
  return false;
}
