/* model_names.c: scopes and bindings of one file, and name lookup.
 * Owns: the (scope, name) hash table built from the walk's events, flow-insensitively: a name is
 *       an import only when every binding of it in its scope is an import of the same qualified
 *       name (an ImportError fallback `name = None` does not count); `global` and `nonlocal`
 *       move bindings and lookups to the scope they name.
 * Not: deciding what binds (model.c walks the tree), builtins (an unbound name never resolves).
 * Threads: a gl_model__names belongs to one worker; read-only once finished. */
#include "model/model_int.h"

#include <string.h>

#include "base/hash.h"
#include "base/xalloc.h"

void gl_model__names_init(gl_model__names *n) {
  memset(n, 0, sizeof(*n));
  gl_model__scope module = {GL_MODEL__NONE, GL_SCOPE_MODULE};
  gl_vec_push(&n->scopes, module);
}

void gl_model__names_free(gl_model__names *n) {
  gl_vec_free(&n->scopes);
  gl_vec_free(&n->events);
  gl_vec_free(&n->entries);
  gl_vec_free(&n->pool);
  free(n->slots);
  n->slots = NULL;
  n->nslots = 0;
}

uint32_t gl_model__scope_new(gl_model__names *n, gl_model__scope_kind kind, uint32_t parent) {
  gl_model__scope s = {parent, (uint8_t)kind};
  gl_vec_push(&n->scopes, s);
  return (uint32_t)(n->scopes.len - 1);
}

static uint32_t pool_add(gl_model__names *n, const char *s, size_t len) {
  uint32_t off = (uint32_t)n->pool.len;
  gl_vec_reserve(&n->pool, len);
  if (len) memcpy(n->pool.data + n->pool.len, s, len);
  n->pool.len += len;
  return off;
}

void gl_model__event_add(gl_model__names *n, uint32_t scope, gl_model__event_kind kind,
                         const char *name, size_t name_len, const char *qual, size_t qual_len) {
  gl_model__event e = {scope, 0, (uint32_t)name_len, 0, 0, (uint8_t)kind};
  e.name_off = pool_add(n, name, name_len);
  if (kind == GL_BIND_IMPORT) {
    e.qual_off = pool_add(n, qual, qual_len);
    e.qual_len = (uint32_t)qual_len;
  }
  gl_vec_push(&n->events, e);
}

uint32_t gl_model__walrus_scope(const gl_model__names *n, uint32_t scope) {
  while (n->scopes.data[scope].kind == GL_SCOPE_COMPREHENSION) scope = n->scopes.data[scope].parent;
  return scope;
}

/* ---- the (scope, name) table ----------------------------------------------------------------- */

static uint32_t hash_key(uint32_t scope, const char *name, size_t len) {
  uint32_t h = gl_fnv32(GL_FNV32_OFFSET, name, len);   /* the name, then the scope */
  return (h ^ scope) * 0x9E3779B1u;
}

static bool entry_is(const gl_model__names *n, const gl_model__entry *e, uint32_t scope,
                     uint32_t hash, const char *name, size_t len) {
  return e->hash == hash && e->scope == scope && e->name_len == len &&
         memcmp(n->pool.data + e->name_off, name, len) == 0;
}

static gl_model__entry *find(const gl_model__names *n, uint32_t scope, const char *name,
                             size_t len) {
  if (!n->nslots) return NULL;
  uint32_t h = hash_key(scope, name, len);
  for (size_t i = h & (n->nslots - 1);; i = (i + 1) & (n->nslots - 1)) {
    uint32_t slot = n->slots[i];
    if (!slot) return NULL;
    gl_model__entry *e = &n->entries.data[slot - 1];
    if (entry_is(n, e, scope, h, name, len)) return e;
  }
}

/* The entry of (scope, name of ev), inserted when missing. The table never fills: finish sizes
 * it for two entries per event. */
static gl_model__entry *upsert(gl_model__names *n, uint32_t scope, const gl_model__event *ev) {
  const char *name = n->pool.data + ev->name_off;
  uint32_t h = hash_key(scope, name, ev->name_len);
  size_t i = h & (n->nslots - 1);
  for (; n->slots[i]; i = (i + 1) & (n->nslots - 1)) {
    gl_model__entry *e = &n->entries.data[n->slots[i] - 1];
    if (entry_is(n, e, scope, h, name, ev->name_len)) return e;
  }
  gl_model__entry *e = gl_vec_grow(&n->entries);
  e->scope = scope;
  e->name_off = ev->name_off;
  e->name_len = ev->name_len;
  e->hash = h;
  n->slots[i] = (uint32_t)n->entries.len;
  return e;
}

/* The enclosing function scope that `nonlocal name` in `scope` refers to: the nearest one that
 * binds or declares the name; `scope` itself when there is none (a SyntaxError in Python). */
static uint32_t nonlocal_target(const gl_model__names *n, uint32_t scope, const char *name,
                                size_t len) {
  for (uint32_t t = n->scopes.data[scope].parent; t != GL_MODEL__NONE;
       t = n->scopes.data[t].parent) {
    if (n->scopes.data[t].kind != GL_SCOPE_FUNCTION) continue;
    const gl_model__entry *e = find(n, t, name, len);
    if (e && (e->bound_here || e->decl)) return t;
  }
  return scope;
}

/* The scope where a name bound or looked up in `scope` really lives. */
static uint32_t home_scope(const gl_model__names *n, uint32_t scope, const char *name, size_t len) {
  for (size_t guard = 0; guard <= n->scopes.len; guard++) {
    const gl_model__entry *e = find(n, scope, name, len);
    if (!e || !e->decl) return scope;
    if (e->decl == GL_DECL_GLOBAL) return GL_MODEL__MODULE_SCOPE;
    uint32_t t = nonlocal_target(n, scope, name, len);
    if (t == scope) return scope;
    scope = t;
  }
  return scope;
}

static void merge(gl_model__entry *e, const gl_model__event *ev, const gl_model__names *n) {
  if (ev->kind == GL_BIND_FALLBACK) return;   /* the import it stands in for decides */
  if (ev->kind != GL_BIND_IMPORT) {
    e->state = GL_STATE_OTHER;
    return;
  }
  if (e->state == GL_STATE_NONE) {
    e->state = GL_STATE_IMPORT;
    e->qual_off = ev->qual_off;
    e->qual_len = ev->qual_len;
    return;
  }
  if (e->state == GL_STATE_IMPORT &&
      (e->qual_len != ev->qual_len ||
       memcmp(n->pool.data + e->qual_off, n->pool.data + ev->qual_off, ev->qual_len) != 0))
    e->state = GL_STATE_OTHER;
}

static bool is_decl(const gl_model__event *ev) {
  return ev->kind == GL_DECL_GLOBAL || ev->kind == GL_DECL_NONLOCAL;
}

void gl_model__names_finish(gl_model__names *n) {
  size_t want = 16;
  while (want < n->events.len * 4) want *= 2;
  n->slots = gl_xcalloc(want, sizeof(*n->slots));
  n->nslots = want;
  gl_vec_reserve(&n->entries, n->events.len * 2);
  /* Pass 1: who declares what, and which scopes hold a binding of each name. */
  for (size_t i = 0; i < n->events.len; i++) {
    const gl_model__event *ev = &n->events.data[i];
    gl_model__entry *e = upsert(n, ev->scope, ev);
    if (is_decl(ev)) {
      if (!e->decl) e->decl = ev->kind;
    } else {
      e->bound_here = true;
    }
  }
  /* Pass 2: each binding lands in its home scope. */
  for (size_t i = 0; i < n->events.len; i++) {
    const gl_model__event *ev = &n->events.data[i];
    if (is_decl(ev)) continue;
    uint32_t home = home_scope(n, ev->scope, n->pool.data + ev->name_off, ev->name_len);
    merge(upsert(n, home, ev), ev, n);
  }
}

uint32_t gl_model__entry_read(const gl_model__names *n, uint32_t scope, const char *name,
                              size_t len) {
  bool first = true;
  for (uint32_t s = scope; s != GL_MODEL__NONE; s = n->scopes.data[s].parent, first = false) {
    if (!first && n->scopes.data[s].kind == GL_SCOPE_CLASS) continue;
    const gl_model__entry *e = find(n, s, name, len);
    if (!e) continue;
    if (e->decl) e = find(n, home_scope(n, s, name, len), name, len);
    return e ? (uint32_t)(e - n->entries.data) : GL_MODEL__NONE;
  }
  return GL_MODEL__NONE;
}

uint32_t gl_model__entry_bind(const gl_model__names *n, uint32_t scope, const char *name,
                              size_t len) {
  const gl_model__entry *e = find(n, home_scope(n, scope, name, len), name, len);
  return e ? (uint32_t)(e - n->entries.data) : GL_MODEL__NONE;
}

bool gl_model__lookup(const gl_model__names *n, uint32_t scope, const char *name, size_t len,
                      const char **qual, size_t *qual_len) {
  uint32_t i = gl_model__entry_read(n, scope, name, len);
  if (i == GL_MODEL__NONE) return false;
  const gl_model__entry *e = &n->entries.data[i];
  if (e->state != GL_STATE_IMPORT) return false;
  *qual = n->pool.data + e->qual_off;
  *qual_len = e->qual_len;
  return true;
}
