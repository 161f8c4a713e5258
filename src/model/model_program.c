/* model_program.c: what the program stage needs to know of one file (model.h
 *       gl_model_program_summary), written as text that the result cache keeps with the file.
 * Owns: the summary's records: the file's defs (module-level functions and the methods of
 *       module-level classes, with their byte span and whether pass 1 found them hot, holding a
 *       loop that does GPU work, or traced), its import bindings (relative ones with their level),
 *       and its calls that could reach another def of the run (the callee's head is an import,
 *       `self`, or a module-level name of the file), each with whether it runs on every step in
 *       pass 1 and whether it would when its def does.
 * Not: resolving calls across files, propagating hotness (src/program/), hot marks (model_freq.c).
 * Threads: reads a built model that belongs to one worker.
 *
 * Format: one record per line, fields separated by tabs (names are identifiers and dots only):
 *   T <type name of the file's device data> (first, when known)
 *   K <class name> <start byte> <type name of the class name or ""> <bases, comma-separated>
 *     (a module-level class; bases written as dotted names only)
 *   D <qualname> <start byte> <end byte> <flags: 1 hot, 2 gpu loop, 4 traced, 8 returns device
 *     data, 16 returns device data when given it, 32 copies device data to the host when given
 *     it, 64 hot by itself: a framework's per-step method, a `# gpulint: hot` def> <the
 *     returned data's type name or "">
 *   I <local name> <level: leading dots> <module or ""> <imported name or "">
 *   C <def number or -1> <flags: 1 hot, 2 hot when its def is, 4 a method of an instance,
 *     8 a keyword argument or splat passes device data> <line> <start byte> <args>
 *     <callee dotted text: for `obj.m(x)` where obj was made by `utils.Logger()`, utils.Logger.m>
 * where args has one character per positional argument (at most 16): 'd' device data, a hex
 *   digit for a parameter of the call's def passed on as it came (its position), '?' anything
 *   else; a final '*' when a splat follows (what the rest binds is not known). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "model/model_int.h"

#define MAX_DOTTED 256

/* The def record number of a def node (GL_MODEL__NONE when not recorded), by node index. */
typedef struct defmap {
  uint32_t *num;
  uint32_t count;
} defmap;

static uint32_t parent_skipping_decorator(const gl_model *m, uint32_t i) {
  uint32_t p = m->nodes.data[i].parent;
  if (p != GL_MODEL__NONE && m->nodes.data[p].kind == GL_K_DECORATED_DEFINITION)
    p = m->nodes.data[p].parent;
  return p;
}

static bool at_module_level(const gl_model *m, uint32_t i) {
  uint32_t p = parent_skipping_decorator(m, i);
  return p != GL_MODEL__NONE && m->nodes.data[p].parent == GL_MODEL__NONE;
}

/* The module-level class whose body holds def i directly, or GL_MODEL__NONE. */
static uint32_t method_class(const gl_model *m, uint32_t i) {
  uint32_t block = parent_skipping_decorator(m, i);
  if (block == GL_MODEL__NONE || m->nodes.data[block].kind != GL_K_BLOCK) return GL_MODEL__NONE;
  uint32_t cls = m->nodes.data[block].parent;
  if (cls == GL_MODEL__NONE || m->nodes.data[cls].kind != GL_K_CLASS_DEFINITION) return GL_MODEL__NONE;
  return at_module_level(m, cls) ? cls : GL_MODEL__NONE;
}

static void add_name(const gl_model *m, gl_strbuf *out, uint32_t i) {
  size_t len;
  const char *s = gl_model__text(m, ts_node_child_by_field_id(m->nodes.data[i].node, m->f.name), &len);
  gl_strbuf_add(out, s, len);
}

static bool callee_text(const gl_model *m, TSNode f, char *buf, size_t cap, char *head, size_t hcap);

static void write_class(const gl_model *m, gl_strbuf *out, uint32_t i) {
  TSNode cls = m->nodes.data[i].node;
  uint32_t ni = gl_model__index_of(m, ts_node_child_by_field_id(cls, m->f.name));
  uint16_t t = ni == GL_MODEL__NONE ? GL_TYPE_NONE : m->nodes.data[ni].type;
  gl_strbuf_adds(out, "K\t");
  add_name(m, out, i);
  gl_strbuf_addf(out, "\t%u\t%s\t", ts_node_start_byte(cls),
                 t == GL_TYPE_NONE ? "" : gl_libmodels_type_name(m->lm, t));
  TSNode bases = ts_node_child_by_field_id(cls, m->f.superclasses);
  bool first = true;
  uint32_t nbases = ts_node_is_null(bases) ? 0 : ts_node_named_child_count(bases);
  for (uint32_t k = 0; k < nbases; k++) {
    char text[MAX_DOTTED], head[MAX_DOTTED];
    if (!callee_text(m, ts_node_named_child(bases, k), text, sizeof(text), head, sizeof(head)))
      continue;
    gl_strbuf_addf(out, "%s%s", first ? "" : ",", text);
    first = false;
  }
  gl_strbuf_adds(out, "\n");
}

static void write_defs(const gl_model *m, gl_strbuf *out, defmap *dm) {
  for (uint32_t i = 0; i < m->nodes.len; i++) {
    const gl_model__rec *r = &m->nodes.data[i];
    if (r->kind == GL_K_CLASS_DEFINITION && at_module_level(m, i)) write_class(m, out, i);
    if (r->kind != GL_K_FUNCTION_DEFINITION) continue;
    uint32_t cls = method_class(m, i);
    if (cls == GL_MODEL__NONE && !at_module_level(m, i)) continue;
    gl_strbuf_adds(out, "D\t");
    if (cls != GL_MODEL__NONE) {
      add_name(m, out, cls);
      gl_strbuf_adds(out, ".");
    }
    add_name(m, out, i);
    uint8_t ret = m->def_ret ? m->def_ret[i] : 0;
    uint16_t rt = ret ? m->def_ret_type[i] : GL_TYPE_NONE;
    unsigned flags = ((r->flags & GL_REC_HOT_DEF) ? 1u : 0u) |
                     (gl_model__def_gpu_loop(m, i) ? 2u : 0u) |
                     (m->traced && m->traced[i] ? 4u : 0u) |
                     ((ret & GL_DEF_RET_DEVICE) ? 8u : 0u) | ((ret & GL_DEF_RET_DEVICE_GIVEN) ? 16u : 0u) |
                     ((ret & GL_DEF_D2H_GIVEN) ? 32u : 0u) | (m->hot_root && m->hot_root[i] ? 64u : 0u);
    gl_strbuf_addf(out, "\t%u\t%u\t%u\t%s\n", ts_node_start_byte(r->node), ts_node_end_byte(r->node),
                   flags, rt == GL_TYPE_NONE ? "" : gl_libmodels_type_name(m->lm, rt));
    dm->num[i] = dm->count++;
  }
}

/* Copies the dotted name n into buf; false when it does not fit. */
static bool dotted(const gl_model *m, TSNode n, char *buf, size_t cap) {
  size_t len = gl_model__dotted_copy(m, n, buf, cap);
  if (len + 1 > cap) return false;
  buf[len] = '\0';
  return true;
}

static void first_segment(const char *s, char *out, size_t cap) {
  size_t n = strcspn(s, ".");
  if (n >= cap) n = cap - 1;
  memcpy(out, s, n);
  out[n] = '\0';
}

/* One name of an import statement: `a.b` (binds a to module "a"), `a.b as c` (c to "a.b"); of a
 * from-import: `n` or `n as c` (binds it to name n of the module, at level dots up). */
static void write_import_name(const gl_model *m, gl_strbuf *out, TSNode item, bool from,
                              unsigned level, const char *module) {
  TSNode name = item, alias = {{0}, NULL, NULL};
  if (gl_model__kind_of(m, item) == GL_K_ALIASED_IMPORT) {
    name = ts_node_child_by_field_id(item, m->f.name);
    alias = ts_node_child_by_field_id(item, m->f.alias);
  }
  char full[MAX_DOTTED], local[MAX_DOTTED];
  if (gl_model__kind_of(m, name) != GL_K_DOTTED_NAME || !dotted(m, name, full, sizeof(full))) return;
  if (!ts_node_is_null(alias)) {
    size_t len;
    const char *s = gl_model__text(m, alias, &len);
    if (len + 1 > sizeof(local)) return;
    memcpy(local, s, len);
    local[len] = '\0';
  } else {
    first_segment(full, local, sizeof(local));
  }
  if (from)
    gl_strbuf_addf(out, "I\t%s\t%u\t%s\t%s\n", local, level, module, full);
  else if (!ts_node_is_null(alias))
    gl_strbuf_addf(out, "I\t%s\t0\t%s\t\n", local, full);
  else
    gl_strbuf_addf(out, "I\t%s\t0\t%s\t\n", local, local);
}

static void write_import(const gl_model *m, gl_strbuf *out, uint32_t i) {
  TSNode stmt = m->nodes.data[i].node;
  bool from = m->nodes.data[i].kind == GL_K_IMPORT_FROM_STATEMENT;
  unsigned level = 0;
  char module[MAX_DOTTED] = "";
  if (from) {
    TSNode mod = ts_node_child_by_field_id(stmt, m->f.module_name);
    if (ts_node_is_null(mod)) return;
    TSNode dn = mod;
    if (strcmp(ts_node_type(mod), "relative_import") == 0) {
      dn = (TSNode){{0}, NULL, NULL};
      for (uint32_t k = 0; k < ts_node_child_count(mod); k++) {
        TSNode c = ts_node_child(mod, k);
        if (strcmp(ts_node_type(c), "import_prefix") == 0)
          level = ts_node_end_byte(c) - ts_node_start_byte(c);
        else if (gl_model__kind_of(m, c) == GL_K_DOTTED_NAME)
          dn = c;
      }
    }
    if (!ts_node_is_null(dn) && !dotted(m, dn, module, sizeof(module))) return;
  }
  for (uint32_t k = 0; k < ts_node_named_child_count(stmt); k++) {
    TSNode c = ts_node_named_child(stmt, k);
    const char *field = ts_node_field_name_for_named_child(stmt, k);
    if (!field || strcmp(field, "name") != 0) continue;
    write_import_name(m, out, c, from, level, module);
  }
}

/* The dotted text of a callee made only of identifiers and attributes (`a.b.c`), in buf; false
 * for anything else or when it does not fit. */
static bool callee_text(const gl_model *m, TSNode f, char *buf, size_t cap, char *head, size_t hcap) {
  char tmp[MAX_DOTTED];
  size_t len = 0;
  TSNode cur = f;
  while (gl_model__kind_of(m, cur) == GL_K_ATTRIBUTE) {
    TSNode attr = ts_node_child_by_field_id(cur, m->f.attribute);
    size_t l;
    const char *s = gl_model__text(m, attr, &l);
    if (ts_node_is_null(attr) || len + l + 1 > sizeof(tmp)) return false;
    /* prepend ".attr" by writing right to left into tmp's tail */
    memmove(tmp + l + 1, tmp, len);
    tmp[0] = '.';
    memcpy(tmp + 1, s, l);
    len += l + 1;
    cur = ts_node_child_by_field_id(cur, m->f.object);
  }
  if (gl_model__kind_of(m, cur) != GL_K_IDENTIFIER) return false;
  size_t hl;
  const char *h = gl_model__text(m, cur, &hl);
  if (hl + len + 1 > cap || hl + 1 > hcap) return false;
  memcpy(buf, h, hl);
  memcpy(buf + hl, tmp, len);
  buf[hl + len] = '\0';
  memcpy(head, h, hl);
  head[hl] = '\0';
  return true;
}

/* True when head is `self` or names a module-level def or class of the file. */
static bool known_head(const gl_model *m, const char *head) {
  if (strcmp(head, "self") == 0) return true;
  size_t hl = strlen(head);
  uint32_t root = 0;
  if (!m->nodes.len) return false;
  for (uint32_t j = root + 1; j < m->ends[root]; j = m->ends[j]) {
    uint32_t d = j;
    uint8_t k = m->nodes.data[d].kind;
    if (k == GL_K_DECORATED_DEFINITION) {
      d = gl_model__index_of(m, ts_node_child_by_field_id(m->nodes.data[j].node, m->f.definition));
      if (d == GL_MODEL__NONE) continue;
      k = m->nodes.data[d].kind;
    }
    if (k != GL_K_FUNCTION_DEFINITION && k != GL_K_CLASS_DEFINITION) continue;
    size_t len;
    const char *s = gl_model__text(m, ts_node_child_by_field_id(m->nodes.data[d].node, m->f.name), &len);
    if (len == hl && memcmp(s, head, hl) == 0) return true;
  }
  return false;
}

/* True when the first limit bytes of the summary (defs, then imports) bind head by an import. */
static bool imported(const gl_strbuf *out, size_t limit, const char *head) {
  size_t hl = strlen(head);
  for (const char *p = out->data; p && p < out->data + limit;) {
    if (p[0] == 'I' && strncmp(p + 2, head, hl) == 0 && p[2 + hl] == '\t') return true;
    const char *nl = strchr(p, '\n');
    if (!nl) break;
    p = nl + 1;
  }
  return false;
}

/* The recorded def a call runs in: its innermost def, when that is recorded; *direct is false
 * when a lambda, nested def or class lies between (the call then runs when they do). */
static uint32_t def_of_call(const gl_model *m, const defmap *dm, uint32_t i, bool *direct) {
  *direct = true;
  for (uint32_t p = m->nodes.data[i].parent; p != GL_MODEL__NONE; p = m->nodes.data[p].parent) {
    uint8_t k = m->nodes.data[p].kind;
    if (k == GL_K_FUNCTION_DEFINITION && dm->num[p] != GL_MODEL__NONE) return p;
    if (k == GL_K_FUNCTION_DEFINITION || k == GL_K_LAMBDA || k == GL_K_CLASS_DEFINITION)
      *direct = false;
  }
  return GL_MODEL__NONE;
}

/* The named children of n that are not comments (a null n has none), at most cap of them, in
 * out; returns how many. */
static uint32_t plain_kids(const gl_model *m, TSNode n, TSNode *out, uint32_t cap) {
  uint32_t count = ts_node_is_null(n) ? 0 : ts_node_named_child_count(n), got = 0;
  for (uint32_t k = 0; k < count && got < cap; k++) {
    TSNode c = ts_node_named_child(n, k);
    if (gl_model__kind_of(m, c) != GL_K_COMMENT) out[got++] = c;
  }
  return got;
}

/* The position of identifier node a among the parameters of def (self counts), or -1. */
static int param_position(const gl_model *m, uint32_t def, TSNode a) {
  size_t al;
  const char *as = gl_model__text(m, a, &al);
  TSNode params[16];
  uint32_t np = plain_kids(m, ts_node_child_by_field_id(m->nodes.data[def].node, m->f.parameters),
                           params, 16);
  for (uint32_t pos = 0; pos < np; pos++) {
    TSNode p = params[pos];
    gl_model__kind kk = gl_model__kind_of(m, p);
    TSNode name = p;
    if (kk == GL_K_DEFAULT_PARAMETER || kk == GL_K_TYPED_DEFAULT_PARAMETER)
      name = ts_node_child_by_field_id(p, m->f.name);
    else if (kk == GL_K_TYPED_PARAMETER)
      name = ts_node_named_child(p, 0);
    else if (kk != GL_K_IDENTIFIER)
      return -1;   /* *args, **kwargs, `/`, `*`: later positions are not plain */
    size_t nl;
    const char *ns = gl_model__text(m, name, &nl);
    if (gl_model__kind_of(m, name) == GL_K_IDENTIFIER && nl == al && memcmp(ns, as, al) == 0)
      return (int)pos;
  }
  return -1;
}

/* True when a keyword argument or a splat of call passes device data (`log.update(loss=l)`). */
static bool keyword_device(const gl_model *m, TSNode call) {
  TSNode args[16];
  uint32_t nargs = plain_kids(m, ts_node_child_by_field_id(call, m->f.arguments), args, 16);
  for (uint32_t k = 0; k < nargs; k++) {
    gl_model__kind kk = gl_model__kind_of(m, args[k]);
    TSNode v = kk == GL_K_KEYWORD_ARGUMENT ? ts_node_child_by_field_id(args[k], m->f.value)
               : kk == GL_K_LIST_SPLAT || kk == GL_K_DICTIONARY_SPLAT ? ts_node_named_child(args[k], 0)
               : (TSNode){{0}, NULL, NULL};
    if (!ts_node_is_null(v) && gl_model_prov(m, v) == GL_PROV_DEVICE) return true;
  }
  return false;
}

/* For a call `obj.m(...)` where obj holds an instance of an imported class (m->inst_class): the
 * class expression's dotted text and the method, `utils.MetricLogger.update`, in buf and its
 * head in head; false otherwise. */
static bool instance_text(const gl_model *m, uint32_t i, char *buf, size_t cap, char *head,
                          size_t hcap) {
  if (!m->inst_class || m->inst_class[i] == GL_MODEL__NONE) return false;
  TSNode fn = ts_node_child_by_field_id(m->nodes.data[i].node, m->f.function);
  TSNode attr = ts_node_child_by_field_id(fn, m->f.attribute);
  if (ts_node_is_null(attr) ||
      !callee_text(m, m->nodes.data[m->inst_class[i]].node, buf, cap, head, hcap))
    return false;
  size_t bl = strlen(buf), al;
  const char *a = gl_model__text(m, attr, &al);
  if (bl + al + 2 > cap) return false;
  buf[bl] = '.';
  memcpy(buf + bl + 1, a, al);
  buf[bl + 1 + al] = '\0';
  return true;
}

static void write_args(const gl_model *m, gl_strbuf *out, TSNode call, uint32_t def, bool direct) {
  TSNode args[16];
  uint32_t nargs = plain_kids(m, ts_node_child_by_field_id(call, m->f.arguments), args, 16);
  for (uint32_t k = 0; k < nargs; k++) {
    TSNode a = args[k];
    gl_model__kind kk = gl_model__kind_of(m, a);
    if (kk == GL_K_KEYWORD_ARGUMENT) break;
    if (kk == GL_K_LIST_SPLAT || kk == GL_K_DICTIONARY_SPLAT) {
      gl_strbuf_add(out, "*", 1);
      return;
    }
    gl_prov p = gl_model_prov(m, a);
    int pos = p == GL_PROV_UNKNOWN && kk == GL_K_IDENTIFIER && def != GL_MODEL__NONE && direct
                  ? param_position(m, def, a) : -1;
    /* device data of the file's array type: a module moved to the device is not a tensor */
    uint16_t t = gl_model_type(m, a);
    bool array = t == GL_TYPE_NONE || t == m->dev_type;
    char c = p == GL_PROV_DEVICE ? (array ? 'd' : '?') : pos >= 0 ? "0123456789abcdef"[pos] : '?';
    gl_strbuf_add(out, &c, 1);
  }
}

static void write_calls(const gl_model *m, gl_strbuf *out, const defmap *dm) {
  size_t limit = out->len;
  for (uint32_t i = 0; i < m->nodes.len; i++) {
    const gl_model__rec *r = &m->nodes.data[i];
    if (r->kind != GL_K_CALL) continue;
    char text[MAX_DOTTED], head[MAX_DOTTED];
    bool inst = instance_text(m, i, text, sizeof(text), head, sizeof(head));
    if (!inst && !callee_text(m, ts_node_child_by_field_id(r->node, m->f.function), text,
                              sizeof(text), head, sizeof(head)))
      continue;
    if (!imported(out, limit, head) && !known_head(m, head)) continue;
    bool direct;
    uint32_t def = def_of_call(m, dm, i, &direct);
    bool traced = gl_model__in_traced(m, i);
    unsigned flags = (!traced && gl_model_hot(m, r->node) ? 1u : 0u) |
                     (def != GL_MODEL__NONE && direct && !traced && !m->test_module &&
                              !gl_model__guarded(m, i) ? 2u : 0u) |
                     (inst ? 4u : 0u) | (keyword_device(m, r->node) ? 8u : 0u);
    long num = def == GL_MODEL__NONE ? -1 : (long)dm->num[def];
    gl_strbuf_addf(out, "C\t%ld\t%u\t%u\t%u\t", num, flags, ts_node_start_point(r->node).row + 1,
                   ts_node_start_byte(r->node));
    write_args(m, out, r->node, def, direct);
    gl_strbuf_addf(out, "\t%s\n", text);
  }
}

char *gl_model_program_summary(const gl_model *m) {
  gl_strbuf out = {0};
  defmap dm = {gl_xcalloc(m->nodes.len ? m->nodes.len : 1, sizeof(uint32_t)), 0};
  for (uint32_t i = 0; i < m->nodes.len; i++) dm.num[i] = GL_MODEL__NONE;
  if (m->dev_type != GL_TYPE_NONE)
    gl_strbuf_addf(&out, "T\t%s\n", gl_libmodels_type_name(m->lm, m->dev_type));
  write_defs(m, &out, &dm);
  for (uint32_t i = 0; i < m->nodes.len; i++) {
    uint8_t k = m->nodes.data[i].kind;
    if (k == GL_K_IMPORT_STATEMENT || k == GL_K_IMPORT_FROM_STATEMENT) write_import(m, &out, i);
  }
  write_calls(m, &out, &dm);
  free(dm.num);
  return gl_strbuf_take(&out);
}
