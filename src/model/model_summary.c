/* model_summary.c: what each function of the file returns and does, applied at its calls.
 * Owns: which names entry is bound to exactly one def of this file (and which def); one
 *       summary per such def, from a walk of its body with every plain parameter bound to
 *       device data (the "device walk", made before the file's real walks of function bodies
 *       and undone after): the join of its `return` values, whether it is a generator, and
 *       whether it copies device data to the host (a d2h call that is not a builtin's); the
 *       join of its returns in its real walk too (for the calls walked after it); and
 *       applying a summary at a call of the def by name (`loss_fn(x, y)`) or as a method of
 *       the class that defines it (`self.step(x)`), when the call passes device data; the
 *       set of names any def of the file has (for callees the file does not define).
 * Not: the walk itself (model_prov.c), expression values (model_eval.c), cells (model_flow.c).
 * Threads: runs inside gl_model_build on one worker. */
#include "model/model_prov.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/xalloc.h"

#define FDEF_MANY (GL_MODEL__NONE - 1u)   /* the entry is bound by something else too */

enum {
  FS_DONE = 1,        /* the device walk of the def has run */
  FS_RET = 2,         /* some `return` gave a value (ret holds their join) */
  FS_GENERATOR = 4,   /* the body yields: a call returns a generator */
  FS_D2H = 8,         /* the body copies device data to the host */
  FS_REAL = 16,       /* the real walk of the def has run: real holds its returns' join */
  FS_REAL_RET = 32,   /* some `return` of the real walk gave a value */
};

static uint64_t name_hash(const char *s, size_t len) {
  uint64_t h = gl_fnv64(GL_FNV64_TABLE_SEED, s, len);
  return h ? h : 1;   /* 0 marks an empty slot */
}

/* The name node a def or a lambda binds (`f` of `def f`, `g` of `g = lambda x: ...`), or a
 * null node. */
static TSNode bound_name(const gl_model *m, uint32_t i) {
  const gl_model__rec *r = &m->nodes.data[i];
  if (r->kind == GL_K_FUNCTION_DEFINITION) return ts_node_child_by_field_id(r->node, m->f.name);
  TSNode none = {{0}, NULL, NULL};
  if (r->kind != GL_K_LAMBDA || r->parent == GL_MODEL__NONE || r->field != m->f.right) return none;
  const gl_model__rec *p = &m->nodes.data[r->parent];
  if (p->kind != GL_K_ASSIGNMENT) return none;
  TSNode left = ts_node_child_by_field_id(p->node, m->f.left);
  return gl_model__kind_of(m, left) == GL_K_IDENTIFIER ? left : none;
}

/* True when node i is a from-import of a module of the project (`from .utils import to_cpu`,
 * `from . import utils`): what it binds is a function or module the run can show, not an opaque
 * object. */
static bool relative_import(const gl_model *m, uint32_t i) {
  if (m->nodes.data[i].kind != GL_K_IMPORT_FROM_STATEMENT) return false;
  TSNode mod = ts_node_child_by_field_id(m->nodes.data[i].node, m->f.module_name);
  return !ts_node_is_null(mod) && strcmp(ts_node_type(mod), "relative_import") == 0;
}

static void def_name_add(gl_prov_pass *pp, TSNode name) {
  size_t len;
  const char *s = gl_model__text(pp->m, name, &len);
  uint64_t h = name_hash(s, len);
  size_t k = h & (pp->ndefnames - 1);
  while (pp->defnames[k] && pp->defnames[k] != h) k = (k + 1) & (pp->ndefnames - 1);
  pp->defnames[k] = h;
}

/* The names a relative from-import binds: `n` (its last segment) or the alias of `n as c`. */
static void relative_import_names(gl_prov_pass *pp, uint32_t i) {
  const gl_model *m = pp->m;
  TSNode stmt = m->nodes.data[i].node;
  for (uint32_t k = 0; k < ts_node_named_child_count(stmt); k++) {
    const char *field = ts_node_field_name_for_named_child(stmt, k);
    if (!field || strcmp(field, "name") != 0) continue;
    TSNode c = ts_node_named_child(stmt, k);
    if (gl_model__kind_of(m, c) == GL_K_ALIASED_IMPORT) c = ts_node_child_by_field_id(c, m->f.alias);
    else if (ts_node_named_child_count(c) > 0)
      c = ts_node_named_child(c, ts_node_named_child_count(c) - 1);
    if (!ts_node_is_null(c)) def_name_add(pp, c);
  }
}

/* The names of every def of the file, of every name bound to a lambda (a function the file
 * shows, not an opaque module), and of every name a relative import binds (a function or module
 * of the project), in an open-addressing set of hashes. */
static void def_names_init(gl_prov_pass *pp) {
  const gl_model *m = pp->m;
  size_t ndefs = 0;
  for (size_t i = 0; i < m->nodes.len; i++) {
    const gl_model__rec *r = &m->nodes.data[i];
    ndefs += r->kind == GL_K_FUNCTION_DEFINITION || r->kind == GL_K_LAMBDA;
    if (relative_import(m, (uint32_t)i)) ndefs += ts_node_named_child_count(r->node);
  }
  size_t cap = 16;
  while (cap < 2 * ndefs) cap *= 2;
  pp->defnames = gl_xcalloc(cap, sizeof(*pp->defnames));
  pp->ndefnames = cap;
  for (size_t i = 0; i < m->nodes.len && ndefs; i++) {
    if (relative_import(m, (uint32_t)i)) {
      relative_import_names(pp, (uint32_t)i);
      continue;
    }
    TSNode name = bound_name(m, (uint32_t)i);
    if (!ts_node_is_null(name)) def_name_add(pp, name);
  }
}

bool gl_prov__file_defines(const gl_prov_pass *pp, const char *name, size_t len) {
  uint64_t h = name_hash(name, len);
  for (size_t k = h & (pp->ndefnames - 1); pp->defnames[k]; k = (k + 1) & (pp->ndefnames - 1))
    if (pp->defnames[k] == h) return true;
  return false;
}

void gl_prov__summary_init(gl_prov_pass *pp) {
  def_names_init(pp);
  size_t ne = pp->m->names.entries.len ? pp->m->names.entries.len : 1;
  pp->fdef = gl_xmalloc(ne * sizeof(*pp->fdef));
  for (size_t i = 0; i < ne; i++) pp->fdef[i] = GL_MODEL__NONE;
  pp->fret = gl_xcalloc(ne, sizeof(*pp->fret));
  pp->freal = gl_xcalloc(ne, sizeof(*pp->freal));
  pp->fstate = gl_xcalloc(ne, 1);
  pp->fentry = GL_MODEL__NONE;
}

/* Keeps what each summarised def returns and does, for the program stage (m->def_ret): device
 * data whatever it is given (its real walk), or when given device data (its device walk); a
 * copy of device data to the host when given it (its device walk). */
static void keep_returns(gl_prov_pass *pp) {
  gl_model *m = pp->m;
  for (size_t e = 0; e < m->names.entries.len; e++) {
    uint32_t def = pp->fdef[e];
    if (def == GL_MODEL__NONE || def == FDEF_MANY || (pp->fstate[e] & FS_GENERATOR)) continue;
    uint8_t flags = 0;
    uint16_t type = GL_TYPE_NONE;
    if ((pp->fstate[e] & FS_REAL_RET) && gl_pval_prov(pp->freal[e]) == GL_PROV_DEVICE) {
      flags |= GL_DEF_RET_DEVICE;
      type = pp->freal[e].type;
    }
    if ((pp->fstate[e] & FS_RET) && gl_pval_prov(pp->fret[e]) == GL_PROV_DEVICE) {
      flags |= GL_DEF_RET_DEVICE_GIVEN;
      if (type == GL_TYPE_NONE) type = pp->fret[e].type;
    }
    if (pp->fstate[e] & FS_D2H) flags |= GL_DEF_D2H_GIVEN;
    if (!flags) continue;
    if (!m->def_ret) {
      m->def_ret = gl_xcalloc(m->nodes.len, 1);
      m->def_ret_type = gl_xcalloc(m->nodes.len, sizeof(uint16_t));
    }
    m->def_ret[def] = flags;
    m->def_ret_type[def] = type;
  }
}

void gl_prov__summary_free(gl_prov_pass *pp) {
  keep_returns(pp);
  free(pp->defnames);
  free(pp->fdef);
  free(pp->fret);
  free(pp->freal);
  free(pp->fstate);
}

/* The def whose name node i is, or the lambda it is bound to (`reduce_sum = lambda x: x.sum()`),
 * or GL_MODEL__NONE. */
static uint32_t def_of_name(const gl_prov_pass *pp, uint32_t i) {
  const gl_model *m = pp->m;
  const gl_model__rec *r = &m->nodes.data[i];
  if (r->parent == GL_MODEL__NONE) return GL_MODEL__NONE;
  if (r->field == m->f.left && m->nodes.data[r->parent].kind == GL_K_ASSIGNMENT) {
    uint32_t l = gl_model__index_of(m, ts_node_child_by_field_id(m->nodes.data[r->parent].node, m->f.right));
    return l != GL_MODEL__NONE && m->nodes.data[l].kind == GL_K_LAMBDA ? l : GL_MODEL__NONE;
  }
  if (r->field != m->f.name) return GL_MODEL__NONE;
  return m->nodes.data[r->parent].kind == GL_K_FUNCTION_DEFINITION ? r->parent : GL_MODEL__NONE;
}

void gl_prov__summary_bound(gl_prov_pass *pp, uint32_t e, uint32_t i) {
  uint32_t def = def_of_name(pp, i);
  if (def == GL_MODEL__NONE || (pp->fdef[e] != GL_MODEL__NONE && pp->fdef[e] != def))
    pp->fdef[e] = FDEF_MANY;
  else
    pp->fdef[e] = def;
}

uint32_t gl_prov__summary_entry(const gl_prov_pass *pp, uint32_t def) {
  TSNode name = bound_name(pp->m, def);
  uint32_t ni = gl_model__index_of(pp->m, name);
  if (ni == GL_MODEL__NONE) return GL_MODEL__NONE;
  size_t len;
  const char *s = gl_model__text(pp->m, name, &len);
  uint32_t e = gl_model__entry_bind(&pp->m->names, pp->m->nodes.data[ni].scope, s, len);
  return e != GL_MODEL__NONE && pp->fdef[e] == def ? e : GL_MODEL__NONE;
}

void gl_prov__summary_begin(gl_prov_pass *pp, uint32_t e) {
  pp->fentry = e;
  if (pp->hypo) {
    pp->fret[e] = gl_pval_unknown();
    pp->fstate[e] = 0;
  } else {
    pp->freal[e] = gl_pval_unknown();
    pp->fstate[e] &= (uint8_t)~(FS_REAL | FS_REAL_RET);
  }
}

void gl_prov__summary_end(gl_prov_pass *pp) {
  if (pp->fentry != GL_MODEL__NONE) pp->fstate[pp->fentry] |= pp->hypo ? FS_DONE : FS_REAL;
  pp->fentry = GL_MODEL__NONE;
}

void gl_prov__summary_return(gl_prov_pass *pp, uint32_t value) {
  uint32_t e = pp->fentry;
  if (e == GL_MODEL__NONE) return;
  gl_pval v = value == GL_MODEL__NONE ? (gl_pval){GL_TYPE_NONE, GL_PROV_HOST} : gl_prov__val(pp, value);
  gl_pval *into = pp->hypo ? &pp->fret[e] : &pp->freal[e];
  uint8_t flag = pp->hypo ? FS_RET : FS_REAL_RET;
  *into = (pp->fstate[e] & flag) ? gl_pval_join(*into, v) : v;
  pp->fstate[e] |= flag;
}

void gl_prov__summary_yield(gl_prov_pass *pp) {
  if (pp->fentry != GL_MODEL__NONE && pp->hypo) pp->fstate[pp->fentry] |= FS_GENERATOR;
}

void gl_prov__summary_d2h(gl_prov_pass *pp) {
  if (pp->fentry != GL_MODEL__NONE && pp->hypo) pp->fstate[pp->fentry] |= FS_D2H;
}

/* The class scope a method of the def being walked would be found in: the scope of the def's
 * name when that def sits directly in a class body. */
static uint32_t method_scope(const gl_prov_pass *pp) {
  if (pp->walk_def == GL_MODEL__NONE) return GL_MODEL__NONE;
  TSNode name = ts_node_child_by_field_id(pp->m->nodes.data[pp->walk_def].node, pp->m->f.name);
  uint32_t ni = gl_model__index_of(pp->m, name);
  if (ni == GL_MODEL__NONE) return GL_MODEL__NONE;
  uint32_t scope = pp->m->nodes.data[ni].scope;
  return pp->m->names.scopes.data[scope].kind == GL_SCOPE_CLASS ? scope : GL_MODEL__NONE;
}

/* The names entry of a call's callee when it names a def of this file: an identifier read
 * where it stands, `self.name` inside a method of the class that defines name, or `obj.name`
 * where obj holds an instance of a class of the file (model_attrs.c); summarised: only once the
 * def's device walk has run. */
static uint32_t callee_entry(const gl_prov_pass *pp, uint32_t callee, bool summarised) {
  const gl_model *m = pp->m;
  const gl_model__rec *r = &m->nodes.data[callee];
  size_t len;
  const char *s;
  uint32_t e;
  if (r->kind == GL_K_IDENTIFIER) {
    if (r->val & (GL_VAL_QUAL | GL_VAL_BUILTIN)) return GL_MODEL__NONE;
    s = gl_model__text(m, r->node, &len);
    e = gl_model__entry_read(&m->names, r->scope, s, len);
  } else if (r->kind == GL_K_ATTRIBUTE) {
    TSNode obj = ts_node_child_by_field_id(r->node, m->f.object);
    TSNode attr = ts_node_child_by_field_id(r->node, m->f.attribute);
    uint32_t scope = method_scope(pp);
    s = gl_model__text(m, obj, &len);
    if (scope == GL_MODEL__NONE || gl_model__kind_of(m, obj) != GL_K_IDENTIFIER || len != 4 ||
        memcmp(s, "self", 4) != 0)   /* obj.step(x), self.policy.act(x): obj's class */
      scope = gl_prov__class_scope(pp, gl_prov__class_of(pp, gl_model__index_of(m, obj)));
    if (scope == GL_MODEL__NONE) return GL_MODEL__NONE;
    s = gl_model__text(m, attr, &len);
    e = gl_model__entry_bind(&m->names, scope, s, len);
  } else {
    return GL_MODEL__NONE;
  }
  if (e == GL_MODEL__NONE || pp->fdef[e] == GL_MODEL__NONE || pp->fdef[e] == FDEF_MANY)
    return GL_MODEL__NONE;
  return !summarised || (pp->fstate[e] & FS_DONE) ? e : GL_MODEL__NONE;
}

bool gl_prov__summary_names_def(const gl_prov_pass *pp, uint32_t callee) {
  return callee_entry(pp, callee, false) != GL_MODEL__NONE;
}

bool gl_prov__summary_apply(gl_prov_pass *pp, uint32_t callee, bool device_arg, gl_pval *v,
                            uint8_t *roles) {
  uint32_t e = callee_entry(pp, callee, true);
  if (e == GL_MODEL__NONE) return false;
  uint8_t st = pp->fstate[e];
  if (st & FS_GENERATOR) return false;
  /* what it returns whatever it is given (its real walk), else given device data */
  const gl_pval *ret = (st & FS_REAL_RET) && gl_pval_prov(pp->freal[e]) == GL_PROV_DEVICE ? &pp->freal[e]
                       : device_arg && (st & FS_RET) && gl_pval_prov(pp->fret[e]) == GL_PROV_DEVICE ? &pp->fret[e]
                       : NULL;
  if (ret) {
    v->type = ret->type;
    v->bits = (uint8_t)(ret->bits & (GL_VAL_PROV | GL_VAL_ACCEL));
    *v = gl_prov__typed(pp, *v);
  }
  if (device_arg && (st & FS_D2H)) *roles |= GL_ROLE_D2H;
  return ret || (device_arg && (st & FS_D2H));
}

void gl_prov__summary_record_call(gl_prov_pass *pp, uint32_t call, uint32_t callee) {
  uint32_t e = callee_entry(pp, callee, false);
  if (e == GL_MODEL__NONE) return;
  gl_model__call c = {call, pp->fdef[e], false, false};
  gl_vec_push(&pp->m->calls, c);
}
