/* libmodel.c: the library-model table: roles, freezing, and the lookups of libmodel.h.
 * Owns: role names, freezing (duplicate types and names across all files, type references, the
 *       hash maps and the wildcard groups) and every lookup. Lookups allocate nothing: an exact
 *       name is one hash probe; a wildcard is a probe for its first segment plus a scan of the
 *       wildcards sharing it, longest prefix first.
 * Not: reading model files (libmodel_json.c), evaluating code (model_prov.c).
 * Threads: built in the main thread; the lookups only read a frozen table. */
#include "libmodel/libmodel.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/xalloc.h"
#include "libmodel/libmodel_int.h"

/* In bit order: role_names[i] is the name of bit 1u << i. */
static const char *const role_names[GL_ROLE_COUNT] = {
    "device-returning", "host-returning", "d2h", "h2d", "sync", "alloc", "gpu-work", "timer",
    "buffer", "pinned", "handle", "mapped", "jit", "event", "launch", "availability",
    "primitive", "pins",
};

uint32_t gl_role_parse(const char *name, size_t len) {
  for (int i = 0; name && i < GL_ROLE_COUNT; i++)
    if (strlen(role_names[i]) == len && memcmp(role_names[i], name, len) == 0) return 1u << i;
  return 0;
}

const char *gl_role_name(uint32_t one_role_bit) {
  for (int i = 0; i < GL_ROLE_COUNT; i++)
    if (one_role_bit == 1u << i) return role_names[i];
  return NULL;
}

uint32_t gl_lm__hash(uint8_t kind, uint16_t owner, const char *s, size_t len) {
  uint32_t h = (GL_FNV32_OFFSET ^ ((uint32_t)kind << 16 | owner)) * GL_FNV32_PRIME;
  return gl_fnv32(h, s, len);
}

/* ---- the table ------------------------------------------------------------------------------ */

gl_libmodels *gl_libmodels_new(void) { return gl_xcalloc(1, sizeof(gl_libmodels)); }

static void map_free(gl_lm__map *m) {
  free(m->slots);
  m->slots = NULL;
  m->mask = 0;
}

void gl_lm__unfreeze(gl_libmodels *lm) {
  map_free(&lm->names);
  map_free(&lm->type_names);
  map_free(&lm->group_names);
  gl_vec_free(&lm->wild);
  gl_vec_free(&lm->groups);
  gl_vec_free(&lm->any_receiver);
  gl_vec_free(&lm->modules);
  lm->frozen = false;
  lm->freeze_rc = GL_OK;
}

void gl_libmodels_free(gl_libmodels *lm) {
  if (!lm) return;
  gl_lm__unfreeze(lm);
  for (size_t i = 0; i < lm->entries.len; i++) {
    free(lm->entries.data[i].name);
    free(lm->entries.data[i].type.name);
    free(lm->entries.data[i].decorates.name);
  }
  for (size_t i = 0; i < lm->types.len; i++) free(lm->types.data[i].name);
  for (size_t i = 0; i < lm->files.len; i++) free(lm->files.data[i]);
  for (size_t i = 0; i < lm->libraries.len; i++) free(lm->libraries.data[i]);
  for (size_t i = 0; i < lm->triggers.len; i++) free(lm->triggers.data[i]);
  gl_vec_free(&lm->triggers);
  for (size_t i = 0; i < lm->device_arrays.len; i++) {
    free(lm->device_arrays.data[i].library);
    free(lm->device_arrays.data[i].type);
  }
  gl_vec_free(&lm->device_arrays);
  for (size_t i = 0; i < lm->gpu_only.len; i++) free(lm->gpu_only.data[i]);
  gl_vec_free(&lm->gpu_only);
  for (size_t i = 0; i < lm->step_defs.len; i++) free(lm->step_defs.data[i]);
  gl_vec_free(&lm->step_defs);
  gl_vec_free(&lm->entries);
  gl_vec_free(&lm->types);
  gl_vec_free(&lm->files);
  gl_vec_free(&lm->libraries);
  gl_vec_free(&lm->gpu_library);
  for (int t = 0; t < GL_LM_TEXT_COUNT; t++) {
    for (size_t i = 0; i < lm->texts[t].len; i++) free(lm->texts[t].data[i]);
    gl_vec_free(&lm->texts[t]);
  }
  free(lm);
}

size_t gl_libmodels_count(const gl_libmodels *lm) { return lm ? lm->files.len : 0; }

const char *const *gl_libmodels_triggers(const gl_libmodels *lm, size_t *count) {
  *count = lm ? lm->triggers.len : 0;
  return lm ? (const char *const *)lm->triggers.data : NULL;
}

size_t gl_libmodels_device_array_count(const gl_libmodels *lm) {
  return lm ? lm->device_arrays.len : 0;
}

const char *gl_libmodels_device_array(const gl_libmodels *lm, size_t i, const char **library) {
  *library = lm->device_arrays.data[i].library;
  return lm->device_arrays.data[i].type;
}

const char *gl_libmodels_step_def(const gl_libmodels *lm, const char *name) {
  for (size_t i = 0; lm && i < lm->step_defs.len; i++)
    if (fnmatch(lm->step_defs.data[i], name, FNM_NOESCAPE) == 0) return lm->step_defs.data[i];
  return NULL;
}

int gl_libmodels_gpu_only(const gl_libmodels *lm, const char *q) {
  if (!lm) return 0;
  for (size_t i = 0; i < lm->gpu_only.len; i++) {
    const char *m = lm->gpu_only.data[i];
    size_t n = strlen(m);
    if (strncmp(q, m, n) == 0 && (q[n] == '\0' || q[n] == '.')) return q[n] == '\0' ? 2 : 1;
  }
  return 0;
}

/* ---- hash maps ------------------------------------------------------------------------------ */

static void map_init(gl_lm__map *m, size_t n) {
  size_t cap = 16;
  while (cap < n * 2) cap <<= 1;
  m->slots = gl_xcalloc(cap, sizeof(gl_lm__slot));
  m->mask = cap - 1;
}

static void map_put(gl_lm__map *m, uint32_t hash, size_t index) {
  size_t i = hash & m->mask;
  while (m->slots[i].val) i = (i + 1) & m->mask;
  m->slots[i].hash = hash;
  m->slots[i].val = (uint32_t)index + 1;
}

/* Index + 1 of the entry (kind, owner, name), or 0. */
static uint32_t find_entry(const gl_libmodels *lm, uint8_t kind, uint16_t owner, const char *name,
                           size_t len) {
  const gl_lm__map *m = &lm->names;
  if (!m->mask) return 0;
  uint32_t h = gl_lm__hash(kind, owner, name, len);
  for (size_t i = h & m->mask; m->slots[i].val; i = (i + 1) & m->mask) {
    if (m->slots[i].hash != h) continue;
    const gl_lm__entry *e = &lm->entries.data[m->slots[i].val - 1];
    if (e->kind == kind && e->owner == owner && e->name_len == len && memcmp(e->name, name, len) == 0)
      return m->slots[i].val;
  }
  return 0;
}

/* Index + 1 of the type named name, or 0. */
static uint32_t find_type(const gl_libmodels *lm, const char *name, size_t len) {
  const gl_lm__map *m = &lm->type_names;
  if (!m->mask) return 0;
  uint32_t h = gl_lm__hash(0, 0, name, len);
  for (size_t i = h & m->mask; m->slots[i].val; i = (i + 1) & m->mask) {
    const gl_lm__type *t = &lm->types.data[m->slots[i].val - 1];
    if (m->slots[i].hash == h && t->name_len == len && memcmp(t->name, name, len) == 0)
      return m->slots[i].val;
  }
  return 0;
}

/* Index + 1 of the wildcard group of first segment seg, or 0. */
static uint32_t find_group(const gl_libmodels *lm, const char *seg, size_t len) {
  const gl_lm__map *m = &lm->group_names;
  if (!m->mask) return 0;
  uint32_t h = gl_lm__hash(0, 0, seg, len);
  for (size_t i = h & m->mask; m->slots[i].val; i = (i + 1) & m->mask) {
    const gl_lm__group *g = &lm->groups.data[m->slots[i].val - 1];
    if (m->slots[i].hash == h && g->seg_len == len && memcmp(g->seg, seg, len) == 0) return m->slots[i].val;
  }
  return 0;
}

/* ---- freezing ------------------------------------------------------------------------------- */

#define ERR_AT(lm, errs, pos, ...) \
  gl_diag_set(gl_diag_list_add(errs), (lm)->files.data[(pos).file], (pos).line, (pos).col, __VA_ARGS__)

static void build_types(gl_libmodels *lm, gl_diag_list *errs) {
  map_init(&lm->type_names, lm->types.len);
  for (size_t i = 0; i < lm->types.len; i++) {
    const gl_lm__type *t = &lm->types.data[i];
    uint32_t first = find_type(lm, t->name, t->name_len);
    if (!first) {
      map_put(&lm->type_names, gl_lm__hash(0, 0, t->name, t->name_len), i);
      continue;
    }
    gl_lm__pos f = lm->types.data[first - 1].at;
    ERR_AT(lm, errs, t->at, "duplicate type '%s' (first defined in %s:%u:%u)", t->name,
           lm->files.data[f.file], f.line, f.col);
  }
}

/* The type id of ref, GL_TYPE_NONE (with an error when a name is given but undefined). */
static uint16_t resolve(const gl_libmodels *lm, const gl_lm__ref *ref, gl_diag_list *errs) {
  if (!ref->name) return GL_TYPE_NONE;
  uint32_t id = find_type(lm, ref->name, strlen(ref->name));
  if (id) return (uint16_t)(id - 1);
  ERR_AT(lm, errs, ref->at, "undefined type '%s' (no model defines it)", ref->name);
  return GL_TYPE_NONE;
}

static const char *kind_noun(uint8_t kind) {
  switch (kind) {
    case GL_LM_METHOD: return "method";
    case GL_LM_ATTRIBUTE: return "attribute";
    default: return "function";
  }
}

static void duplicate_name(const gl_libmodels *lm, const gl_lm__entry *e, uint32_t first,
                           gl_diag_list *errs) {
  gl_lm__pos f = lm->entries.data[first - 1].at;
  if (e->owner == GL_TYPE_NONE)
    ERR_AT(lm, errs, e->at, "duplicate function '%s' (first defined in %s:%u:%u)", e->name,
           lm->files.data[f.file], f.line, f.col);
  else
    ERR_AT(lm, errs, e->at, "duplicate %s '%s' of type '%s' (first defined in %s:%u:%u)",
           kind_noun(e->kind), e->name, lm->types.data[e->owner].name, lm->files.data[f.file], f.line,
           f.col);
}

static void build_names(gl_libmodels *lm, gl_diag_list *errs) {
  map_init(&lm->names, lm->entries.len);
  for (size_t i = 0; i < lm->entries.len; i++) {
    gl_lm__entry *e = &lm->entries.data[i];
    e->api.type = resolve(lm, &e->type, errs);
    e->api.decorates = resolve(lm, &e->decorates, errs);
    if (!e->name) continue;
    uint32_t first = find_entry(lm, e->kind, e->owner, e->name, e->name_len);
    if (first)
      duplicate_name(lm, e, first, errs);
    else
      map_put(&lm->names, gl_lm__hash(e->kind, e->owner, e->name, e->name_len), i);
  }
}

/* A wildcard while sorting: "cupy.random.*" has segment "cupy" and prefix "cupy.random.". */
typedef struct wild_key {
  const char *name;
  size_t seg_len, prefix_len;
  uint32_t index;
} wild_key;

static int cmp_wild(const void *a, const void *b) {
  const wild_key *x = a, *y = b;
  size_t n = x->seg_len < y->seg_len ? x->seg_len : y->seg_len;
  int c = memcmp(x->name, y->name, n);
  if (c) return c;
  if (x->seg_len != y->seg_len) return x->seg_len < y->seg_len ? -1 : 1;
  if (x->prefix_len != y->prefix_len) return x->prefix_len > y->prefix_len ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static void build_wildcards(gl_libmodels *lm) {
  gl_vec(wild_key) keys = {0};
  for (size_t i = 0; i < lm->entries.len; i++) {
    const gl_lm__entry *e = &lm->entries.data[i];
    if (e->kind != GL_LM_WILDCARD || find_entry(lm, e->kind, e->owner, e->name, e->name_len) != i + 1)
      continue; /* a duplicate: the first definition stands */
    wild_key k = {e->name, (size_t)((const char *)memchr(e->name, '.', e->name_len) - e->name),
                  e->name_len - 1, (uint32_t)i};
    gl_vec_push(&keys, k);
  }
  if (keys.len) qsort(keys.data, keys.len, sizeof(wild_key), cmp_wild);
  for (size_t i = 0; i < keys.len; i++) {
    const wild_key *k = &keys.data[i];
    gl_lm__group *g = lm->groups.len ? gl_vec_last(&lm->groups) : NULL;
    if (!g || g->seg_len != k->seg_len || memcmp(g->seg, k->name, k->seg_len) != 0) {
      g = gl_vec_grow(&lm->groups);
      g->seg = k->name;
      g->seg_len = k->seg_len;
      g->start = (uint32_t)i;
    }
    g->count++;
    gl_vec_push(&lm->wild, k->index);
  }
  map_init(&lm->group_names, lm->groups.len);
  for (size_t i = 0; i < lm->groups.len; i++)
    map_put(&lm->group_names, gl_lm__hash(0, 0, lm->groups.data[i].seg, lm->groups.data[i].seg_len), i);
  gl_vec_free(&keys);
}

/* The first segments of function names (wildcards included), each with its entries' roles
 * together and whether its model is a GPU library's. */
static void build_modules(gl_libmodels *lm) {
  for (size_t i = 0; i < lm->entries.len; i++) {
    const gl_lm__entry *e = &lm->entries.data[i];
    if (e->kind != GL_LM_FUNCTION && e->kind != GL_LM_WILDCARD) continue;
    const char *dot = memchr(e->name, '.', e->name_len);
    size_t n = dot ? (size_t)(dot - e->name) : e->name_len;
    gl_lm__module *mod = NULL;
    for (size_t k = 0; k < lm->modules.len && !mod; k++)
      if (lm->modules.data[k].seg_len == n && memcmp(lm->modules.data[k].seg, e->name, n) == 0)
        mod = &lm->modules.data[k];
    if (!mod) {
      gl_lm__module m = {e->name, n, 0, false, e->at.file};
      gl_vec_push(&lm->modules, m);
      mod = &lm->modules.data[lm->modules.len - 1];
    }
    mod->roles |= e->api.roles;
    if (e->at.file < lm->gpu_library.len && lm->gpu_library.data[e->at.file]) mod->gpu = true;
  }
}

int gl_libmodels_freeze(gl_libmodels *lm, gl_diag_list *errs) {
  if (lm->frozen) return lm->freeze_rc;
  gl_diag_list local = {0};
  if (!errs) errs = &local;
  size_t before = errs->len;
  build_types(lm, errs);
  build_names(lm, errs);
  build_wildcards(lm);
  build_modules(lm);
  for (size_t i = 0; i < lm->entries.len; i++)
    if (lm->entries.data[i].api.any_receiver) gl_vec_push(&lm->any_receiver, (uint32_t)i);
  lm->frozen = true;
  lm->freeze_rc = errs->len > before ? GL_EINVAL : GL_OK;
  gl_vec_free(&local);
  return lm->freeze_rc;
}

/* ---- lookups -------------------------------------------------------------------------------- */

const gl_api_entry *gl_libmodels_function_exact(const gl_libmodels *lm, const char *qualified,
                                                size_t len) {
  if (!lm || !lm->frozen || !qualified) return NULL;
  uint32_t v = find_entry(lm, GL_LM_FUNCTION, GL_TYPE_NONE, qualified, len);
  return v ? &lm->entries.data[v - 1].api : NULL;
}

const gl_api_entry *gl_libmodels_function(const gl_libmodels *lm, const char *qualified, size_t len) {
  if (!lm || !lm->frozen || !qualified) return NULL;
  const gl_api_entry *exact = gl_libmodels_function_exact(lm, qualified, len);
  if (exact) return exact;
  const char *dot = memchr(qualified, '.', len);
  uint32_t g = dot ? find_group(lm, qualified, (size_t)(dot - qualified)) : 0;
  if (!g) return NULL;
  const gl_lm__group *grp = &lm->groups.data[g - 1];
  for (uint32_t k = grp->start; k < grp->start + grp->count; k++) {
    const gl_lm__entry *e = &lm->entries.data[lm->wild.data[k]];
    size_t prefix = e->name_len - 1; /* "cupy.random." of "cupy.random.*" */
    if (len > prefix && memcmp(qualified, e->name, prefix) == 0) return &e->api;
  }
  return NULL;
}

static const gl_api_entry *member(const gl_libmodels *lm, uint8_t kind, uint16_t type, const char *name,
                                  size_t len) {
  if (!lm || !lm->frozen || type >= lm->types.len || !name) return NULL;
  uint32_t v = find_entry(lm, kind, type, name, len);
  if (!v) v = find_entry(lm, kind, type, "*", 1);
  return v ? &lm->entries.data[v - 1].api : NULL;
}

const gl_api_entry *gl_libmodels_method(const gl_libmodels *lm, uint16_t type, const char *name, size_t len) {
  return member(lm, GL_LM_METHOD, type, name, len);
}

const gl_api_entry *gl_libmodels_method_exact(const gl_libmodels *lm, uint16_t type, const char *name,
                                              size_t len) {
  if (!lm || !lm->frozen || type >= lm->types.len || !name) return NULL;
  uint32_t v = find_entry(lm, GL_LM_METHOD, type, name, len);
  return v ? &lm->entries.data[v - 1].api : NULL;
}

const gl_api_entry *gl_libmodels_any_receiver_method(const gl_libmodels *lm, const char *name,
                                                     size_t len, uint16_t *owner) {
  if (!lm || !lm->frozen || !name) return NULL;
  for (size_t k = 0; k < lm->any_receiver.len; k++) {
    const gl_lm__entry *e = &lm->entries.data[lm->any_receiver.data[k]];
    if (e->name_len == len && memcmp(e->name, name, len) == 0) {
      *owner = e->owner;
      return &e->api;
    }
  }
  return NULL;
}

const gl_api_entry *gl_libmodels_attribute(const gl_libmodels *lm, uint16_t type, const char *name,
                                           size_t len) {
  return member(lm, GL_LM_ATTRIBUTE, type, name, len);
}

/* The subscript / operators / call entry of a type (index + 1 in the type, 0 = none). */
static const gl_api_entry *special(const gl_libmodels *lm, uint16_t type, size_t which) {
  if (!lm || !lm->frozen || type >= lm->types.len) return NULL;
  const gl_lm__type *t = &lm->types.data[type];
  uint32_t v = which == 0 ? t->subscript : which == 1 ? t->operators : t->call;
  return v ? &lm->entries.data[v - 1].api : NULL;
}

const gl_api_entry *gl_libmodels_subscript(const gl_libmodels *lm, uint16_t type) {
  return special(lm, type, 0);
}

const gl_api_entry *gl_libmodels_operator(const gl_libmodels *lm, uint16_t type) {
  return special(lm, type, 1);
}

const gl_api_entry *gl_libmodels_call(const gl_libmodels *lm, uint16_t type) { return special(lm, type, 2); }

uint16_t gl_libmodels_type_id(const gl_libmodels *lm, const char *name, size_t len) {
  if (!lm || !lm->frozen || !name) return GL_TYPE_NONE;
  uint32_t v = find_type(lm, name, len);
  return v ? (uint16_t)(v - 1) : GL_TYPE_NONE;
}

const char *gl_libmodels_type_name(const gl_libmodels *lm, uint16_t type) {
  return lm && type < lm->types.len ? lm->types.data[type].name : NULL;
}

gl_prov gl_libmodels_type_prov(const gl_libmodels *lm, uint16_t type) {
  return lm && type < lm->types.len ? lm->types.data[type].prov : GL_PROV_UNKNOWN;
}

bool gl_libmodels_type_explicit_work(const gl_libmodels *lm, uint16_t type) {
  return lm && type < lm->types.len && lm->types.data[type].explicit_work;
}

bool gl_libmodels_type_traced(const gl_libmodels *lm, uint16_t type) {
  return lm && type < lm->types.len && lm->types.data[type].traced;
}

/* ---- modules -------------------------------------------------------------------------------- */

size_t gl_libmodels_module_count(const gl_libmodels *lm) {
  return lm && lm->frozen ? lm->modules.len : 0;
}

const char *gl_libmodels_module(const gl_libmodels *lm, size_t i, size_t *len, uint32_t *roles,
                                bool *gpu) {
  const gl_lm__module *m = &lm->modules.data[i];
  *len = m->seg_len;
  if (roles) *roles = m->roles;
  if (gpu) *gpu = m->gpu;
  return m->seg;
}

const char *gl_libmodels_text(const gl_libmodels *lm, uint16_t library, gl_lm_text which) {
  if (!lm || (unsigned)which >= GL_LM_TEXT_COUNT) return NULL;
  return library < lm->texts[which].len ? lm->texts[which].data[library] : NULL;
}

int gl_libmodels_module_library(const gl_libmodels *lm, const char *q, size_t len) {
  const char *dot = memchr(q, '.', len);
  size_t n = dot ? (size_t)(dot - q) : len;
  for (size_t i = 0; i < gl_libmodels_module_count(lm); i++) {
    const gl_lm__module *m = &lm->modules.data[i];
    if (m->seg_len == n && memcmp(m->seg, q, n) == 0) return m->library;
  }
  return -1;
}

size_t gl_libmodels_entry_count(const gl_libmodels *lm) { return lm ? lm->entries.len : 0; }

const char *gl_libmodels_function_at(const gl_libmodels *lm, size_t i, const gl_api_entry **e) {
  const gl_lm__entry *en = &lm->entries.data[i];
  *e = &en->api;
  return en->kind == GL_LM_FUNCTION || en->kind == GL_LM_WILDCARD ? en->name : NULL;
}

bool gl_libmodels_gpu_module(const gl_libmodels *lm, const char *q) {
  size_t n = strcspn(q, ".");
  for (size_t i = 0; i < gl_libmodels_module_count(lm); i++) {
    const gl_lm__module *m = &lm->modules.data[i];
    if (m->gpu && m->seg_len == n && memcmp(m->seg, q, n) == 0) return true;
  }
  return gl_libmodels_gpu_only(lm, q) != 0;
}
