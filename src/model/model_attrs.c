/* model_attrs.c: the file's classes: what their methods store in `self.<name>`, and which
 *       names and attributes hold their instances.
 * Owns: the file's attribute sites (an assignment, augmented assignment or `for` target
 *       `self.name` directly in a method of a class), grouped by (class, name); the value each
 *       site last stored in a real walk (or the attribute walk that precedes the real walks:
 *       gl_model__prov), and the class of the instance it stored, if any; reading `self.name` in
 *       a method of that class, or `obj.name` where obj holds an instance of it: the join of
 *       every site's value but a None placeholder's, only once every site of the name has
 *       stored one (a name some method has not yet stored stays unknown, whatever order the
 *       methods come in); per names entry,
 *       the class definition it names and the class whose instances it holds, when every
 *       binding of it agrees (`sim = Sim(3)`, `model = Net().to(device)`).
 * Not: attributes of library types (model_eval.c, the models), attributes set through
 *      `setattr` (never a site: a name with such a store elsewhere may read a value it does not
 *      always have), classes of other files (the program stage).
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
  uint32_t cls;       /* the class of the instance it last stored, or NONE */
  bool none;          /* it stores the literal None (`self.cache = None` until set) */
} attr_site;

typedef struct node_site {
  uint32_t node, site;
} node_site;

#define CLS_MANY (GL_MODEL__NONE - 1u)   /* bindings disagree, or one is no class */
#define SELF_MODULE 0u                    /* the module itself: node 0, the root */

struct gl_prov_attrs {
  attr_site *sites;   /* sorted by (scope, name, node) */
  uint32_t n;
  node_site *by_node; /* (node, site number), sorted by node */
  uint32_t *cdef;     /* per names entry: the class_definition node it names, NONE, MANY */
  uint32_t *inst;     /* per names entry: the class_definition whose instances it holds */
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
  size_t ne = m->names.entries.len ? m->names.entries.len : 1;
  a->cdef = gl_xmalloc(ne * sizeof(*a->cdef));
  a->inst = gl_xmalloc(ne * sizeof(*a->inst));
  for (size_t e = 0; e < ne; e++) a->cdef[e] = a->inst[e] = GL_MODEL__NONE;
  pp->bind_cls = GL_MODEL__NONE;
  gl_vec(attr_site) v = {0};
  for (uint32_t i = 0; i < m->nodes.len; i++) {
    if (m->nodes.data[i].kind != GL_K_ATTRIBUTE) continue;
    uint32_t scope = method_class_scope(m, i);
    if (scope == GL_MODEL__NONE || !is_target(m, i)) continue;
    TSNode name = ts_node_child_by_field_id(m->nodes.data[i].node, m->f.attribute);
    if (ts_node_is_null(name)) continue;
    size_t len;
    const char *s = gl_model__text(m, name, &len);
    attr_site site = {i, scope, s, (uint32_t)len, gl_pval_unbound(), GL_MODEL__NONE, false};
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
  free(pp->attrs->cdef);
  free(pp->attrs->inst);
  free(pp->attrs);
  pp->attrs = NULL;
}

void gl_prov__attrs_store(gl_prov_pass *pp, uint32_t node, gl_pval v, uint32_t cls, bool none) {
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
    s->cls = cls;
    s->none = none;
  }
}

/* The sites of (scope, name): [*first, return value). */
static uint32_t key_range(const gl_prov_attrs *a, uint32_t scope, const char *s, uint32_t len,
                          uint32_t *first) {
  uint32_t lo = 0, hi = a->n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    const attr_site *x = &a->sites[mid];
    if (cmp_name(x->scope, x->name, x->len, scope, s, len) < 0) lo = mid + 1; else hi = mid;
  }
  uint32_t k = lo;
  while (k < a->n && !cmp_name(a->sites[k].scope, a->sites[k].name, a->sites[k].len, scope, s, len))
    k++;
  *first = lo;
  return k;
}

/* The class scope of class_definition node cls (the scope its body opens), or NONE. */
static uint32_t class_scope(const gl_model *m, uint32_t cls) {
  if (cls == SELF_MODULE) return 0;   /* `d2l = sys.modules[__name__]`: the module scope */
  if (m->nodes.data[cls].kind != GL_K_CLASS_DEFINITION) return GL_MODEL__NONE;   /* imported */
  TSNode body = ts_node_child_by_field_id(m->nodes.data[cls].node, m->f.body);
  uint32_t b = gl_model__index_of(m, body);
  if (b == GL_MODEL__NONE || b + 1 >= m->nodes.len) return GL_MODEL__NONE;
  uint32_t sc = m->nodes.data[b + 1].scope;   /* the body's first statement */
  return m->names.scopes.data[sc].kind == GL_SCOPE_CLASS ? sc : GL_MODEL__NONE;
}

/* The class scope whose attributes attribute node i reads: its method's class for
 * `self.name`, the class of obj's instances for `obj.name`; NONE otherwise. */
static uint32_t owner_scope(const gl_prov_pass *pp, uint32_t i) {
  uint32_t scope = method_class_scope(pp->m, i);
  if (scope != GL_MODEL__NONE) return scope;
  TSNode obj = ts_node_child_by_field_id(pp->m->nodes.data[i].node, pp->m->f.object);
  uint32_t cls = gl_prov__class_of(pp, gl_model__index_of(pp->m, obj));
  return cls == GL_MODEL__NONE ? GL_MODEL__NONE : class_scope(pp->m, cls);
}

bool gl_prov__attrs_read(const gl_prov_pass *pp, uint32_t node, gl_pval *v) {
  const gl_prov_attrs *a = pp->attrs;
  if (!a || !a->n || pp->m->nodes.data[node].kind != GL_K_ATTRIBUTE) return false;
  uint32_t scope = owner_scope(pp, node);
  if (scope == GL_MODEL__NONE) return false;
  TSNode name = ts_node_child_by_field_id(pp->m->nodes.data[node].node, pp->m->f.attribute);
  if (ts_node_is_null(name)) return false;
  size_t len;
  const char *s = gl_model__text(pp->m, name, &len);
  uint32_t k, end = key_range(a, scope, s, (uint32_t)len, &k);
  gl_pval j = gl_pval_unbound();
  bool any = false;
  for (; k < end; k++) {
    if (gl_pval_is_unbound(a->sites[k].val)) return false;   /* a site not walked yet */
    /* a None placeholder holds no data: what is read, copied or called is what the other
     * sites store */
    if (a->sites[k].none) continue;
    j = any ? gl_pval_join(j, a->sites[k].val) : a->sites[k].val;
    any = true;
  }
  if (!any) return false;
  *v = j;
  return true;
}

/* ---- instances ------------------------------------------------------------------------------ */

static void agree(uint32_t *slot, uint32_t x) {
  if (x == GL_MODEL__NONE || (*slot != GL_MODEL__NONE && *slot != x)) *slot = CLS_MANY;
  else *slot = x;
}

void gl_prov__attrs_bound(gl_prov_pass *pp, uint32_t e, uint32_t i) {
  gl_prov_attrs *a = pp->attrs;
  if (!a) return;
  const gl_model__rec *r = &pp->m->nodes.data[i];
  bool names_class = r->field == pp->m->f.name && r->parent != GL_MODEL__NONE &&
                     pp->m->nodes.data[r->parent].kind == GL_K_CLASS_DEFINITION;
  agree(&a->cdef[e], names_class ? r->parent : GL_MODEL__NONE);
  agree(&a->inst[e], pp->bind_cls);
}

/* True when the name an identifier or attribute node ends with starts with a capital letter. */
static bool capitalised(const gl_model *m, const gl_model__rec *r) {
  TSNode n = r->kind == GL_K_ATTRIBUTE ? ts_node_child_by_field_id(r->node, m->f.attribute)
             : r->kind == GL_K_IDENTIFIER ? r->node : (TSNode){{0}, NULL, NULL};
  size_t len;
  const char *s = ts_node_is_null(n) ? NULL : gl_model__text(m, n, &len);
  return s && len && s[0] >= 'A' && s[0] <= 'Z';
}

/* True when subscript r is `sys.modules[__name__]`: the module itself (`d2l = sys.modules[...]`
 * then `d2l.accuracy(...)` calls this file's accuracy). */
static bool self_module(const gl_model *m, const gl_model__rec *r) {
  TSNode value = ts_node_child_by_field_id(r->node, m->f.value);
  TSNode index = ts_node_named_child(r->node, 1);
  char q[32];
  size_t len;
  const char *s = ts_node_is_null(index) ? NULL : gl_model__text(m, index, &len);
  return s && len == 8 && memcmp(s, "__name__", 8) == 0 &&
         gl_model__kind_of(m, index) == GL_K_IDENTIFIER &&
         gl_model_resolve(m, value, q, sizeof(q)) && strcmp(q, "sys.modules") == 0;
}

static uint32_t valid(uint32_t c) { return c == CLS_MANY ? GL_MODEL__NONE : c; }

uint32_t gl_prov__class_of(const gl_prov_pass *pp, uint32_t i) {
  const gl_prov_attrs *a = pp->attrs;
  const gl_model *m = pp->m;
  for (int depth = 0; a && i != GL_MODEL__NONE && depth < 16; depth++) {
    const gl_model__rec *r = &m->nodes.data[i];
    size_t len;
    const char *s;
    switch ((gl_model__kind)r->kind) {
      case GL_K_PARENTHESIZED_EXPRESSION:
        i = gl_model__index_of(m, ts_node_named_child(r->node, 0));
        continue;
      case GL_K_IDENTIFIER: {
        s = gl_model__text(m, r->node, &len);
        uint32_t e = gl_model__entry_read(&m->names, r->scope, s, len);
        return e == GL_MODEL__NONE ? GL_MODEL__NONE : valid(a->inst[e]);
      }
      case GL_K_ATTRIBUTE: {
        uint32_t scope = method_class_scope(m, i);
        TSNode name = ts_node_child_by_field_id(r->node, m->f.attribute);
        if (scope == GL_MODEL__NONE || ts_node_is_null(name)) return GL_MODEL__NONE;
        s = gl_model__text(m, name, &len);
        uint32_t k, end = key_range(a, scope, s, (uint32_t)len, &k);
        uint32_t cls = GL_MODEL__NONE;
        for (; k < end; k++) {
          if (gl_pval_is_unbound(a->sites[k].val)) return GL_MODEL__NONE;
          if (a->sites[k].none) continue;
          if (cls != GL_MODEL__NONE && a->sites[k].cls != cls) return GL_MODEL__NONE;
          cls = a->sites[k].cls;
          if (cls == GL_MODEL__NONE) return GL_MODEL__NONE;
        }
        return cls;
      }
      case GL_K_SUBSCRIPT:
        return self_module(m, r) ? SELF_MODULE : GL_MODEL__NONE;
      case GL_K_CALL: {
        TSNode fn = ts_node_child_by_field_id(r->node, m->f.function);
        uint32_t f = gl_model__index_of(m, fn);
        if (f == GL_MODEL__NONE) return GL_MODEL__NONE;
        const gl_model__rec *fr = &m->nodes.data[f];
        /* utils.MetricLogger(): a call of an import the models do not know, by a class's name
         * (capitalised), may make an instance of a class of another file of the run (the
         * program stage decides): the callee */
        if ((fr->val & GL_VAL_QUAL) && r->type == GL_TYPE_NONE && capitalised(m, fr))
          return f;
        if (fr->kind == GL_K_IDENTIFIER) {   /* Sim(3): a class of this file */
          s = gl_model__text(m, fr->node, &len);
          uint32_t e = gl_model__entry_read(&m->names, fr->scope, s, len);
          return e == GL_MODEL__NONE ? GL_MODEL__NONE : valid(a->cdef[e]);
        }
        /* Net().to(device): a method that returns its receiver's type returns the receiver */
        if (fr->kind != GL_K_ATTRIBUTE) return GL_MODEL__NONE;
        uint32_t recv = gl_model__index_of(m, ts_node_child_by_field_id(fr->node, m->f.object));
        if (recv != GL_MODEL__NONE && m->nodes.data[recv].kind == GL_K_IDENTIFIER &&
            gl_prov__class_of(pp, recv) == SELF_MODULE) {   /* d2l.Accumulator(2) */
          s = gl_model__text(m, ts_node_child_by_field_id(fr->node, m->f.attribute), &len);
          uint32_t e = gl_model__entry_bind(&m->names, 0, s, len);
          return e == GL_MODEL__NONE ? GL_MODEL__NONE : valid(a->cdef[e]);
        }
        if (recv == GL_MODEL__NONE || r->type == GL_TYPE_NONE || m->nodes.data[recv].type != r->type)
          return GL_MODEL__NONE;
        i = recv;
        continue;
      }
      default:
        return GL_MODEL__NONE;
    }
  }
  return GL_MODEL__NONE;
}

uint32_t gl_prov__class_scope(const gl_prov_pass *pp, uint32_t cls) {
  return cls == GL_MODEL__NONE ? GL_MODEL__NONE : class_scope(pp->m, cls);
}

bool gl_prov__attrs_any(const gl_prov_pass *pp, uint32_t def) {
  const gl_prov_attrs *a = pp->attrs;
  if (!a || !a->n) return false;
  uint32_t lo = 0, hi = a->n;   /* the first site after def in the index (its subtree follows it) */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (a->by_node[mid].node <= def) lo = mid + 1; else hi = mid;
  }
  return lo < a->n && a->by_node[lo].node < pp->end[def];
}
