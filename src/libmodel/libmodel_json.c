/* libmodel_json.c: reading one library model file (rules/models/<library>.json) into the table.
 * Owns: parsing with cJSON (a syntax error is placed at cJSON's parse end), the file format of
 *       docs/models.md (keys, roles, when, result, provenance, names) and the line:column of every
 *       error. cJSON keeps no positions, so a small scanner walks the raw text in step with the
 *       cJSON tree (members and elements come in the same order in both) and gives each key and
 *       value its byte offset; an offset becomes line:column through gl_load_position.
 *       A cJSON tree never leaves gl_libmodels_add.
 * Not: cross-file checks (types referenced, names defined twice) and lookups: libmodel.c, when
 *      the table is frozen.
 * Threads: called from the main thread while loading. */
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/load.h"
#include "base/xalloc.h"
#include "libmodel/libmodel.h"
#include "libmodel/libmodel_int.h"

/* One file being read. */
typedef struct jctx {
  gl_libmodels *lm;
  const char *path;
  uint32_t file;            /* index in lm->files */
  const char *text;         /* NUL-terminated copy of the file */
  size_t len;
  gl_source src;            /* the same bytes, for line:column (base/load.h) */
  size_t start;             /* first byte after a BOM */
  gl_diag_list *errs;
  size_t nerr;
} jctx;

/* Offsets of the current member's key and value (or of the current array element, in val). */
typedef struct jcur {
  size_t key, val;
} jcur;

static const char *const when_names[] = {"always",        "receiver-device", "arg0-device",
                                         "result-device", "arg0-not-host",   "arg0-not-device"};
static const char *const result_names[] = {"unknown", "device",       "host",   "receiver",
                                           "arg0",    "device-kwarg", "to-arg", "device-spec",
                                           "default-device", "placed"};
static const char *const places_names[] = {"receiver", "arg0", "to-arg", "device", "host"};
static const char *const prov_names[] = {"unknown", "host", "device"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define BIT(x) (1u << (x))
#define WHEN_ANY 0x3fu
#define WHEN_NO_RECEIVER                                                                      \
  (BIT(GL_WHEN_ALWAYS) | BIT(GL_WHEN_ARG0_DEVICE) | BIT(GL_WHEN_RESULT_DEVICE) |                \
   BIT(GL_WHEN_ARG0_NOT_HOST) | BIT(GL_WHEN_ARG0_NOT_DEVICE))
#define WHEN_NO_ARGS (BIT(GL_WHEN_ALWAYS) | BIT(GL_WHEN_RECEIVER_DEVICE))
#define RESULT_ANY 0x3ffu
#define RESULT_NO_RECEIVER (RESULT_ANY & ~BIT(GL_RESULT_RECEIVER))
#define RESULT_NO_ARGS \
  (BIT(GL_RESULT_UNKNOWN) | BIT(GL_RESULT_DEVICE) | BIT(GL_RESULT_HOST) | BIT(GL_RESULT_RECEIVER))

/* Which `when` and `result` values each kind of entry accepts (bit i = value i): there is no
 * receiver outside a type, and no argument to an attribute, a subscript or an operator. */
static const struct kind_rule {
  uint8_t whens;
  uint16_t results;
  const char *noun;
} kind_rules[] = {
    [GL_LM_FUNCTION] = {WHEN_NO_RECEIVER, RESULT_NO_RECEIVER, "a function"},
    [GL_LM_WILDCARD] = {WHEN_NO_RECEIVER, RESULT_NO_RECEIVER, "a function"},
    [GL_LM_METHOD] = {WHEN_ANY, RESULT_ANY, "a method"},
    [GL_LM_ATTRIBUTE] = {WHEN_NO_ARGS, RESULT_NO_ARGS, "an attribute"},
    [GL_LM_SUBSCRIPT] = {WHEN_NO_ARGS, RESULT_NO_ARGS, "a subscript"},
    [GL_LM_OPERATORS] = {WHEN_NO_ARGS, RESULT_NO_ARGS, "operators"},
    [GL_LM_CALL] = {WHEN_ANY, RESULT_ANY, "a call"},
};

/* ---- positions ------------------------------------------------------------------------------ */

static gl_lm__pos pos_of(const jctx *c, size_t off) {
  gl_pos p = gl_load_position(&c->src, off);
  gl_lm__pos at = {c->file, p.line, p.col_cp};
  return at;
}

static void err(jctx *c, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void err(jctx *c, size_t off, const char *fmt, ...) {
  gl_lm__pos p = pos_of(c, off);
  va_list ap;
  va_start(ap, fmt);
  gl_diag_vset(gl_diag_list_add(c->errs), c->path, p.line, p.col, fmt, ap);
  va_end(ap);
  c->nerr++;
}

/* ---- the scanner (runs only over text cJSON has accepted) ----------------------------------- */

/* Skips what cJSON skips: every byte up to and including the space. */
static size_t ws(const jctx *c, size_t i) {
  while (i < c->len && (unsigned char)c->text[i] <= 32) i++;
  return i;
}

static size_t skip_string(const jctx *c, size_t i) {
  for (i++; i < c->len && c->text[i] != '"'; i++)
    if (c->text[i] == '\\') i++;
  return i + 1;
}

static bool ends_scalar(char ch) { return (unsigned char)ch <= 32 || ch == ',' || ch == ']' || ch == '}'; }

/* Offset just past the value starting at i (iterative: no recursion over nesting). */
static size_t skip_value(const jctx *c, size_t i) {
  if (i < c->len && c->text[i] == '"') return skip_string(c, i);
  if (i < c->len && c->text[i] != '{' && c->text[i] != '[') {
    while (i < c->len && !ends_scalar(c->text[i])) i++;
    return i;
  }
  size_t depth = 0;
  while (i < c->len) {
    char ch = c->text[i];
    if (ch == '"') {
      i = skip_string(c, i);
      continue;
    }
    if (ch == '{' || ch == '[') depth++;
    if ((ch == '}' || ch == ']') && --depth == 0) return i + 1;
    i++;
  }
  return i;
}

/* After a member's key (or at an element): fills m from offset i. */
static void cur_at(const jctx *c, size_t i, bool object, jcur *m) {
  m->key = i;
  if (object) i = ws(c, ws(c, skip_string(c, i)) + 1); /* past the key and its ':' */
  m->val = i;
}

/* Moves m to the member or element `it` of parent (whose text starts at open): the first child
 * starts after the '{' or '[', each next one after the previous value and its ','. */
static void cur_step(const jctx *c, const cJSON *parent, const cJSON *it, size_t open, jcur *m) {
  bool object = cJSON_IsObject(parent);
  if (it == parent->child)
    cur_at(c, ws(c, open + 1), object, m);
  else
    cur_at(c, ws(c, ws(c, skip_value(c, m->val)) + 1), object, m);
}

/* ---- names ---------------------------------------------------------------------------------- */

static bool is_ident_start(char ch) {
  return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}
static bool is_ident_char(char ch) { return is_ident_start(ch) || (ch >= '0' && ch <= '9'); }

/* Length of the identifier at s, 0 when none. */
static size_t ident_len(const char *s) {
  if (!is_ident_start(*s)) return 0;
  size_t n = 1;
  while (is_ident_char(s[n])) n++;
  return n;
}

/* "a.b.c" -> GL_LM_FUNCTION, "a.b.*" -> GL_LM_WILDCARD (when wildcard), else -1. */
static int dotted_kind(const char *s, bool wildcard) {
  for (;;) {
    size_t n = ident_len(s);
    if (!n) return -1;
    s += n;
    if (!*s) return GL_LM_FUNCTION;
    if (*s++ != '.') return -1;
    if (wildcard && strcmp(s, "*") == 0) return GL_LM_WILDCARD;
  }
}

static bool is_member_name(const char *s) {
  return strcmp(s, "*") == 0 || (ident_len(s) && !s[ident_len(s)]);
}

/* True when an earlier member of parent has its key (the repeat is reported once, and ignored). */
static bool is_repeat(const cJSON *parent, const cJSON *it) {
  for (const cJSON *o = parent->child; o != it; o = o->next)
    if (strcmp(o->string, it->string) == 0) return true;
  return false;
}

static bool repeat_reported(jctx *c, const cJSON *parent, const cJSON *it, const jcur *m) {
  if (!is_repeat(parent, it)) return false;
  err(c, m->key, "duplicate key '%s'", it->string);
  return true;
}

/* ---- entries -------------------------------------------------------------------------------- */

/* Index of v's string in names, or -1 (with an error naming the key and the expected values). */
static int read_enum(jctx *c, const cJSON *v, size_t off, const char *key, const char *const *names,
                     size_t n, const char *expected) {
  if (!cJSON_IsString(v)) {
    err(c, off, "'%s' must be a string", key);
    return -1;
  }
  for (size_t i = 0; i < n; i++)
    if (strcmp(v->valuestring, names[i]) == 0) return (int)i;
  err(c, off, "unknown %s '%s' (expected %s)", key, v->valuestring, expected);
  return -1;
}

static uint32_t read_roles(jctx *c, const cJSON *v, size_t off) {
  if (!cJSON_IsArray(v)) {
    err(c, off, "'roles' must be an array of role names");
    return 0;
  }
  uint32_t roles = 0;
  jcur m;
  for (const cJSON *it = v->child; it; it = it->next) {
    cur_step(c, v, it, off, &m);
    uint32_t bit = cJSON_IsString(it) ? gl_role_parse(it->valuestring, strlen(it->valuestring)) : 0;
    if (!cJSON_IsString(it))
      err(c, m.val, "a role must be a string");
    else if (!bit)
      err(c, m.val, "unknown role '%s' (expected device-returning, host-returning, d2h, h2d, sync, alloc, "
                    "gpu-work, timer, buffer, pinned, handle, mapped, jit, event or launch)", it->valuestring);
    else if (roles & bit)
      err(c, m.val, "duplicate role '%s'", it->valuestring);
    roles |= bit;
  }
  return roles;
}

static void read_ref(jctx *c, const cJSON *v, size_t off, const char *key, gl_lm__ref *ref) {
  if (!cJSON_IsString(v))
    err(c, off, "'%s' must be a string", key);
  else if (dotted_kind(v->valuestring, false) != GL_LM_FUNCTION)
    err(c, off, "invalid type name '%s' (expected a dotted name)", v->valuestring);
  else {
    free(ref->name);
    ref->name = gl_xstrdup(v->valuestring);
    ref->at = pos_of(c, off);
  }
}

/* Checks `when` and `result` against what the kind of entry allows. */
static void check_kind(jctx *c, const gl_lm__entry *e, size_t when_off, size_t result_off) {
  const struct kind_rule *k = &kind_rules[e->kind];
  if (!(k->whens & BIT(e->api.when)))
    err(c, when_off, "when '%s' does not apply to %s", when_names[e->api.when], k->noun);
  if (!(k->results & BIT(e->api.result)))
    err(c, result_off, "result '%s' does not apply to %s", result_names[e->api.result], k->noun);
}

/* A boolean entry key (it->string) into *out: an error at off when the value is not a boolean,
 * or when the entry is not of the kind the key applies to (`ok` false; `kinds` names them). */
static void read_flag(jctx *c, const cJSON *it, size_t off, bool ok, const char *kinds, bool *out) {
  if (!cJSON_IsBool(it)) err(c, off, "'%s' must be true or false", it->string);
  else if (!ok) err(c, off, "'%s' applies to %s only", it->string, kinds);
  else *out = cJSON_IsTrue(it);
}

/* "syncs", "syncs-args" and "syncs-unless": how a call synchronizes (docs/models.md). */
static void read_syncs_key(jctx *c, const cJSON *it, size_t off, gl_lm__entry *e) {
  static const char *const syncs_names[] = {"data-size", "validation", "always"};
  if (strcmp(it->string, "syncs") == 0) {
    int v = read_enum(c, it, off, "syncs", syncs_names, COUNT(syncs_names),
                      "data-size, validation or always");
    if (v >= 0) e->api.syncs = (uint8_t)(GL_SYNCS_DATA_SIZE + v);
  } else if (strcmp(it->string, "syncs-args") == 0) {
    if (!cJSON_IsNumber(it) || it->valuedouble < 1 || it->valuedouble > 8 ||
        it->valuedouble != (double)(int)it->valuedouble)
      err(c, off, "'syncs-args' must be an integer from 1 to 8");
    else
      e->api.syncs_args = (uint8_t)it->valueint;
  } else if (strcmp(it->string, "syncs-on") == 0) {
    if (!cJSON_IsNumber(it) || it->valuedouble < 0 || it->valuedouble > 7 ||
        it->valuedouble != (double)(int)it->valuedouble)
      err(c, off, "'syncs-on' must be an integer from 0 to 7");
    else
      e->api.syncs_on = (uint8_t)(it->valueint + 1);
  } else if (strcmp(it->string, "syncs-unless") == 0) {
    size_t n = cJSON_IsString(it) ? strlen(it->valuestring) : 0;
    if (n == 0 || n >= GL_SYNCS_UNLESS_CAP || dotted_kind(it->valuestring, false) != GL_LM_FUNCTION ||
        strchr(it->valuestring, '.'))
      err(c, off, "'syncs-unless' must be a keyword name (at most %d characters)",
          GL_SYNCS_UNLESS_CAP - 1);
    else
      memcpy(e->api.syncs_unless, it->valuestring, n + 1);
  }
}

static void read_entry_key(jctx *c, const cJSON *it, size_t off, gl_lm__entry *e) {
  int v;
  if (strcmp(it->string, "roles") == 0) {
    e->api.roles = read_roles(c, it, off);
  } else if (strcmp(it->string, "when") == 0) {
    v = read_enum(c, it, off, "when", when_names, COUNT(when_names),
                  "always, receiver-device, arg0-device, result-device, arg0-not-host or "
                  "arg0-not-device");
    if (v >= 0) e->api.when = (uint8_t)v;
  } else if (strcmp(it->string, "result") == 0) {
    v = read_enum(c, it, off, "result", result_names, COUNT(result_names),
                  "unknown, device, host, receiver, arg0, device-kwarg, to-arg, device-spec, "
                  "default-device or placed");
    if (v >= 0) e->api.result = (uint8_t)v;
  } else if (strcmp(it->string, "places") == 0) {
    v = read_enum(c, it, off, "places", places_names, COUNT(places_names),
                  "receiver, arg0, to-arg, device or host");
    if (v >= 0) e->api.places = (uint8_t)(GL_PLACES_RECEIVER + v);
    if (v >= 0 && e->kind != GL_LM_METHOD && e->kind != GL_LM_FUNCTION && e->kind != GL_LM_WILDCARD)
      err(c, off, "'places' applies to functions and methods only");
    else if (v == 0 && e->kind != GL_LM_METHOD)
      err(c, off, "places 'receiver' applies to methods only");
  } else if (strcmp(it->string, "type") == 0) {
    read_ref(c, it, off, "type", &e->type);
  } else if (strcmp(it->string, "decorates") == 0) {
    read_ref(c, it, off, "decorates", &e->decorates);
  } else if (strcmp(it->string, "clock") == 0) {
    static const char *const clock_names[] = {"wall", "cpu"};   /* GL_CLOCK_WALL, GL_CLOCK_CPU */
    v = read_enum(c, it, off, "clock", clock_names, COUNT(clock_names), "wall or cpu");
    if (v >= 0) e->api.clock = (uint8_t)(GL_CLOCK_WALL + v);
    if (v >= 0 && e->kind != GL_LM_FUNCTION) err(c, off, "'clock' applies to functions only");
  } else if (strcmp(it->string, "per-step") == 0) {
    read_flag(c, it, off, e->kind == GL_LM_METHOD, "methods", &e->api.per_step);
  } else if (strcmp(it->string, "host-sink") == 0) {
    read_flag(c, it, off, e->kind == GL_LM_FUNCTION || e->kind == GL_LM_WILDCARD, "functions",
              &e->api.host_sink);
  } else if (strcmp(it->string, "partial") == 0) {
    read_flag(c, it, off, e->kind == GL_LM_FUNCTION, "functions", &e->api.partial);
  } else if (strcmp(it->string, "device-params") == 0) {
    if (!cJSON_IsNumber(it) || it->valuedouble < 0 || it->valuedouble > 8 ||
        it->valuedouble != (double)(int)it->valuedouble)
      err(c, off, "'device-params' must be an integer from 0 to 8");
    else if (e->kind != GL_LM_METHOD)
      err(c, off, "'device-params' applies to methods only");
    else
      e->api.device_params = (uint8_t)it->valueint;
  } else if (strcmp(it->string, "any-receiver") == 0) {
    read_flag(c, it, off, e->kind == GL_LM_METHOD, "methods", &e->api.any_receiver);
  } else {
    read_syncs_key(c, it, off, e);
  }
}

static bool is_entry_key(const char *k) {
  static const char *const keys[] = {"roles", "when", "result", "type", "decorates", "clock",
                                     "per-step", "partial", "host-sink", "any-receiver",
                                     "device-params", "places", "syncs", "syncs-args", "syncs-on",
                                     "syncs-unless"};
  for (size_t i = 0; i < COUNT(keys); i++)
    if (strcmp(k, keys[i]) == 0) return true;
  return false;
}

/* Reads the entry value v (key at m) for name (NULL for subscript, operators, call) of the given
 * kind and owner. Returns its index + 1, or 0 when it had an error (then it is left out). */
static uint32_t read_entry(jctx *c, const cJSON *v, const jcur *at, uint8_t kind, uint16_t owner,
                           const char *name) {
  if (!cJSON_IsObject(v)) {
    err(c, at->val, "an entry must be a json object");
    return 0;
  }
  gl_lm__entry e = {.kind = kind, .owner = owner, .at = pos_of(c, at->key)};
  e.api.type = e.api.decorates = GL_TYPE_NONE;
  e.api.library = (uint16_t)c->file;
  size_t nerr = c->nerr, when_off = at->val, result_off = at->val;
  jcur m;
  for (const cJSON *it = v->child; it; it = it->next) {
    cur_step(c, v, it, at->val, &m);
    if (repeat_reported(c, v, it, &m)) continue;
    if (!is_entry_key(it->string)) {
      err(c, m.key,
          "unknown key '%s' (expected roles, when, result, type, decorates, clock, per-step, "
          "partial, host-sink, any-receiver, device-params, places, syncs, syncs-args, syncs-on "
          "or syncs-unless)",
          it->string);
      continue;
    }
    if (strcmp(it->string, "when") == 0) when_off = m.val;
    if (strcmp(it->string, "result") == 0) result_off = m.val;
    read_entry_key(c, it, m.val, &e);
  }
  check_kind(c, &e, when_off, result_off);
  if (c->nerr != nerr) {
    free(e.type.name);
    free(e.decorates.name);
    return 0;
  }
  if (name) {
    e.name = gl_xstrdup(name);
    e.name_len = strlen(name);
  }
  gl_vec_push(&c->lm->entries, e);
  return (uint32_t)c->lm->entries.len;
}

/* ---- functions and types -------------------------------------------------------------------- */

static void read_functions(jctx *c, const cJSON *obj, size_t off) {
  if (!cJSON_IsObject(obj)) {
    err(c, off, "'functions' must be an object");
    return;
  }
  jcur m;
  for (const cJSON *it = obj->child; it; it = it->next) {
    cur_step(c, obj, it, off, &m);
    int kind = dotted_kind(it->string, true);
    if (kind < 0)
      err(c, m.key, "invalid function name '%s' (expected a dotted name, optionally ending in '.*')",
          it->string);
    else
      read_entry(c, it, &m, (uint8_t)kind, GL_TYPE_NONE, it->string);
  }
}

static void read_members(jctx *c, const cJSON *obj, size_t off, uint8_t kind, uint16_t owner) {
  const char *what = kind == GL_LM_METHOD ? "method" : "attribute";
  if (!cJSON_IsObject(obj)) {
    err(c, off, "'%ss' must be an object", what);
    return;
  }
  jcur m;
  for (const cJSON *it = obj->child; it; it = it->next) {
    cur_step(c, obj, it, off, &m);
    if (!is_member_name(it->string))
      err(c, m.key, "invalid %s name '%s' (expected an identifier or '*')", what, it->string);
    else
      read_entry(c, it, &m, kind, owner, it->string);
  }
}

static void read_type_key(jctx *c, const cJSON *it, const jcur *m, uint16_t id) {
  const char *k = it->string;
  if (strcmp(k, "provenance") == 0) {
    int v = read_enum(c, it, m->val, "provenance", prov_names, COUNT(prov_names), "device, host or unknown");
    if (v >= 0) c->lm->types.data[id].prov = (gl_prov)v;
  } else if (strcmp(k, "traced") == 0) {
    if (!cJSON_IsBool(it)) err(c, m->val, "'traced' must be true or false");
    else c->lm->types.data[id].traced = cJSON_IsTrue(it);
  } else if (strcmp(k, "explicit-work") == 0) {
    if (!cJSON_IsBool(it)) err(c, m->val, "'explicit-work' must be true or false");
    else c->lm->types.data[id].explicit_work = cJSON_IsTrue(it);
  } else if (strcmp(k, "methods") == 0) {
    read_members(c, it, m->val, GL_LM_METHOD, id);
  } else if (strcmp(k, "attributes") == 0) {
    read_members(c, it, m->val, GL_LM_ATTRIBUTE, id);
  } else if (strcmp(k, "subscript") == 0) {
    c->lm->types.data[id].subscript = read_entry(c, it, m, GL_LM_SUBSCRIPT, id, NULL);
  } else if (strcmp(k, "operators") == 0) {
    c->lm->types.data[id].operators = read_entry(c, it, m, GL_LM_OPERATORS, id, NULL);
  } else if (strcmp(k, "call") == 0) {
    c->lm->types.data[id].call = read_entry(c, it, m, GL_LM_CALL, id, NULL);
  } else {
    err(c, m->key,
        "unknown key '%s' (expected provenance, traced, explicit-work, methods, attributes, "
        "subscript, operators or call)", k);
  }
}

static void read_type(jctx *c, const cJSON *v, const jcur *at) {
  if (!cJSON_IsObject(v)) {
    err(c, at->val, "a type must be a json object");
    return;
  }
  if (c->lm->types.len >= GL_TYPE_NONE) {
    err(c, at->key, "too many types (at most %u)", (unsigned)GL_TYPE_NONE);
    return;
  }
  uint16_t id = (uint16_t)c->lm->types.len;
  gl_lm__type *t = gl_vec_grow(&c->lm->types);
  t->name = gl_xstrdup(v->string);
  t->name_len = strlen(v->string);
  t->at = pos_of(c, at->key);
  jcur m;
  for (const cJSON *it = v->child; it; it = it->next) {
    cur_step(c, v, it, at->val, &m);
    if (!repeat_reported(c, v, it, &m)) read_type_key(c, it, &m, id);
  }
}

static void read_types(jctx *c, const cJSON *obj, size_t off) {
  if (!cJSON_IsObject(obj)) {
    err(c, off, "'types' must be an object");
    return;
  }
  jcur m;
  for (const cJSON *it = obj->child; it; it = it->next) {
    cur_step(c, obj, it, off, &m);
    if (dotted_kind(it->string, false) != GL_LM_FUNCTION)
      err(c, m.key, "invalid type name '%s' (expected a dotted name)", it->string);
    else
      read_type(c, it, &m);
  }
}

/* ---- the file ------------------------------------------------------------------------------- */

static bool is_root_key(const char *k) {
  return strcmp(k, "library") == 0 || strcmp(k, "description") == 0 || strcmp(k, "functions") == 0 ||
         strcmp(k, "types") == 0 || strcmp(k, "triggers") == 0 || strcmp(k, "device-array") == 0 ||
         strcmp(k, "gpu-only-modules") == 0 || strcmp(k, "per-step-defs") == 0 ||
         strcmp(k, "warm-up") == 0 || strcmp(k, "synchronize") == 0 || strcmp(k, "benchmark") == 0;
}

/* "rules/models/cupy.json" -> "cupy" (length in *n). */
static const char *file_stem(const char *path, size_t *n) {
  const char *slash = strrchr(path, '/');
  const char *b = slash ? slash + 1 : path;
  *n = strlen(b);
  if (*n > 5 && strcmp(b + *n - 5, ".json") == 0) *n -= 5;
  return b;
}

/* Checks `library` (value at off, or missing: root at root_off). False when the file must not be
 * read further: it repeats a library already loaded. */
static bool check_library(jctx *c, const cJSON *lib, size_t off, size_t root_off) {
  if (!lib) {
    err(c, root_off, "missing key 'library'");
    return true;
  }
  if (!cJSON_IsString(lib)) {
    err(c, off, "'library' must be a string");
    return true;
  }
  size_t n;
  const char *stem = file_stem(c->path, &n);
  if (strlen(lib->valuestring) != n || memcmp(lib->valuestring, stem, n) != 0)
    err(c, off, "library '%s' does not match the file name (expected '%.*s')", lib->valuestring, (int)n,
        stem);
  for (uint32_t i = 0; i < c->file; i++) {
    if (!lib->valuestring[0] || strcmp(c->lm->libraries.data[i], lib->valuestring) != 0) continue;
    err(c, off, "duplicate library '%s' (first defined in %s)", lib->valuestring, c->lm->files.data[i]);
    return false;
  }
  free(c->lm->libraries.data[c->file]);
  c->lm->libraries.data[c->file] = gl_xstrdup(lib->valuestring);
  return true;
}

static bool is_word(const char *w) {
  if (!*w) return false;
  for (const char *p = w; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
      return false;
  return true;
}

/* "triggers": words that make a file worth parsing for this library (the prefilter). */
static void read_triggers(jctx *c, const cJSON *arr, size_t off) {
  if (!cJSON_IsArray(arr)) {
    err(c, off, "'triggers' must be an array of words");
    return;
  }
  for (const cJSON *e = arr->child; e; e = e->next) {
    if (!cJSON_IsString(e) || !is_word(e->valuestring)) {
      err(c, off, "'triggers' must be an array of words");
      return;
    }
  }
  for (const cJSON *e = arr->child; e; e = e->next) gl_vec_push(&c->lm->triggers, gl_xstrdup(e->valuestring));
}

/* "device-array": the dotted type name of the device data the library makes. */
static void read_device_array(jctx *c, const cJSON *v, size_t off) {
  if (!cJSON_IsString(v) || dotted_kind(v->valuestring, false) != GL_LM_FUNCTION) {
    err(c, off, "'device-array' must be a dotted type name");
    return;
  }
  gl_lm__device_array d = {gl_xstrdup(c->lm->libraries.data[c->file]), gl_xstrdup(v->valuestring)};
  gl_vec_push(&c->lm->device_arrays, d);
  c->lm->gpu_library.data[c->file] = 1;
}

/* "gpu-only-modules": dotted module names that cannot be installed or imported without CUDA. */
static void read_gpu_only(jctx *c, const cJSON *arr, size_t off) {
  bool ok = cJSON_IsArray(arr);
  for (const cJSON *e = ok ? arr->child : NULL; e && ok; e = e->next)
    ok = cJSON_IsString(e) && dotted_kind(e->valuestring, false) == GL_LM_FUNCTION;
  if (!ok) {
    err(c, off, "'gpu-only-modules' must be an array of dotted module names");
    return;
  }
  for (const cJSON *e = arr->child; e; e = e->next) gl_vec_push(&c->lm->gpu_only, gl_xstrdup(e->valuestring));
  if (arr->child) c->lm->gpu_library.data[c->file] = 1;
}

/* The keys whose value is text for messages, in gl_lm_text order. */
static const char *const text_keys[GL_LM_TEXT_COUNT] = {"warm-up", "synchronize", "benchmark"};

/* "warm-up", "synchronize", "benchmark": a non-empty string for messages (gl_lm_text). */
static void read_text(jctx *c, gl_lm_text which, const cJSON *v, size_t off) {
  if (!cJSON_IsString(v) || !v->valuestring[0]) {
    err(c, off, "'%s' must be a non-empty string", text_keys[which]);
    return;
  }
  free(c->lm->texts[which].data[c->file]);
  c->lm->texts[which].data[c->file] = gl_xstrdup(v->valuestring);
}

/* "per-step-defs": shell globs over def names (letters, digits, '_' and '*'). */
static void read_step_defs(jctx *c, const cJSON *arr, size_t off) {
  bool ok = cJSON_IsArray(arr);
  for (const cJSON *e = ok ? arr->child : NULL; e && ok; e = e->next) {
    ok = cJSON_IsString(e) && e->valuestring[0];
    for (const char *p = ok ? e->valuestring : ""; *p && ok; p++)
      ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
           *p == '_' || *p == '*';
  }
  if (!ok) {
    err(c, off, "'per-step-defs' must be an array of name patterns (letters, digits, '_' and '*')");
    return;
  }
  for (const cJSON *e = arr->child; e; e = e->next) gl_vec_push(&c->lm->step_defs, gl_xstrdup(e->valuestring));
}

/* First pass: keys, and the library; second pass: the contents. False to drop the file. */
static bool read_root(jctx *c, const cJSON *root, size_t off) {
  if (!cJSON_IsObject(root)) {
    err(c, off, "a model file must be a json object");
    return true;
  }
  const cJSON *lib = NULL;
  size_t lib_off = off;
  jcur m;
  for (const cJSON *it = root->child; it; it = it->next) {
    cur_step(c, root, it, off, &m);
    if (repeat_reported(c, root, it, &m)) continue;
    if (!is_root_key(it->string))
      err(c, m.key,
          "unknown key '%s' (expected library, description, triggers, device-array, "
          "gpu-only-modules, per-step-defs, warm-up, synchronize, benchmark, functions or types)",
          it->string);
    if (strcmp(it->string, "library") == 0) lib = it, lib_off = m.val;
  }
  if (!check_library(c, lib, lib_off, off)) return false;
  for (const cJSON *it = root->child; it; it = it->next) {
    cur_step(c, root, it, off, &m);
    if (is_repeat(root, it)) continue;
    if (strcmp(it->string, "description") == 0 && !cJSON_IsString(it))
      err(c, m.val, "'description' must be a string");
    if (strcmp(it->string, "triggers") == 0) read_triggers(c, it, m.val);
    if (strcmp(it->string, "device-array") == 0) read_device_array(c, it, m.val);
    if (strcmp(it->string, "gpu-only-modules") == 0) read_gpu_only(c, it, m.val);
    if (strcmp(it->string, "per-step-defs") == 0) read_step_defs(c, it, m.val);
    for (int t = 0; t < GL_LM_TEXT_COUNT; t++)
      if (strcmp(it->string, text_keys[t]) == 0) read_text(c, (gl_lm_text)t, it, m.val);
    if (strcmp(it->string, "functions") == 0) read_functions(c, it, m.val);
    if (strcmp(it->string, "types") == 0) read_types(c, it, m.val);
  }
  return true;
}

/* Parses the text; false (with an error) when it is not json. */
static bool parse_and_read(jctx *c) {
  const char *nul = memchr(c->text, '\0', c->len);
  if (nul) {
    err(c, (size_t)(nul - c->text), "model file contains a NUL byte");
    return false;
  }
  const char *end = NULL;
  /* len + 1 with require_null_terminated: trailing bytes after the value are an error too. */
  cJSON *root = cJSON_ParseWithLengthOpts(c->text, c->len + 1, &end, 1);
  if (!root) {
    err(c, end && end >= c->text ? (size_t)(end - c->text) : 0, "invalid json in model file");
    return false;
  }
  bool keep = read_root(c, root, ws(c, c->start));
  cJSON_Delete(root);
  return keep;
}

int gl_libmodels_add(gl_libmodels *lm, const char *path, const char *data, size_t len, gl_diag_list *errs) {
  gl_diag_list local = {0};
  jctx c = {.lm = lm, .path = path ? path : "", .len = len, .errs = errs ? errs : &local};
  gl_lm__unfreeze(lm);
  c.file = (uint32_t)lm->files.len;
  c.text = gl_xstrndup(data ? data : "", data ? len : 0);
  if (!data) c.len = 0;
  gl_vec_push(&lm->files, gl_xstrdup(c.path));
  gl_vec_push(&lm->libraries, gl_xstrdup(""));
  gl_vec_push(&lm->gpu_library, (uint8_t)0);
  for (int t = 0; t < GL_LM_TEXT_COUNT; t++) gl_vec_push(&lm->texts[t], (char *)NULL);
  gl_load_buffer(&c.src, c.path, c.text, c.len);
  c.start = c.src.bom_len;
  if (!parse_and_read(&c)) {
    /* Not json, or it repeats a library: read nothing of it, and it is not counted. */
    free(lm->files.data[--lm->files.len]);
    free(lm->libraries.data[--lm->libraries.len]);
    lm->gpu_library.len--;
    for (int t = 0; t < GL_LM_TEXT_COUNT; t++) free(lm->texts[t].data[--lm->texts[t].len]);
  }
  free((char *)c.text);
  gl_source_free(&c.src);
  gl_vec_free(&local);
  return c.nerr ? GL_EINVAL : GL_OK;
}
