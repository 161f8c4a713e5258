/* rulemeta.c: the json metadata blocks of rule files and pack READMEs.
 * Owns: parsing a block with cJSON (position of a syntax error from the parse end, mapped back to
 *       line:col of the rule file), the allowed keys, their types and values, and copying them into
 *       gl_rule / gl_pack, including a rule's `evidence` binding (metric, thresholds in order,
 *       cost template placeholders, repeat), the level names (gl_level_parse / gl_level_name)
 *       and freeing an evidence binding. A cJSON tree never leaves a function of this file
 *       (the `options` object is lent to ruleopts.c for the call).
 * Not: the Markdown around the block (rulefile.c), cross-file checks (rules.c).
 * Threads: stateless. */
#include "rules/rules_int.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonscan.h"
#include "base/load.h"
#include "evidence/evidence.h"

/* One block being validated: its text (lines joined with "\n") and where errors go. */
typedef struct meta_ctx {
  const gl_mdfile *md;
  const gl_mdblock *b;
  char *text;
  size_t len;
  gl_diag_list *errs;
  int nerr;
} meta_ctx;

typedef enum { K_STRING, K_BOOL, K_STRINGS, K_OBJECT, K_PRECISION } key_kind;

typedef struct key_spec {
  const char *key;
  key_kind kind;
  bool required;
} key_spec;

static const key_spec rule_keys[] = {
    {"severity", K_STRING, true},  /* error / warning / note */
    {"precision", K_PRECISION, true}, /* very-high / high / medium / low, or a measured figure */
    {"message", K_STRING, true},   /* template with {capture} placeholders */
    {"tags", K_STRINGS, false},
    {"check", K_STRING, false},    /* built-in check instead of a query */
    {"default", K_BOOL, false},    /* false: off unless selected (lower-precision variants) */
    {"evidence", K_OBJECT, false}, /* binding to a metric of the probe's evidence file */
    {"options", K_OBJECT, false},  /* settings a configuration file may give (ruleopts.c) */
};

static const key_spec pack_keys[] = {
    {"name", K_STRING, true},
    {"prefix", K_STRING, true},
    {"default", K_BOOL, true},
    {"triggers", K_STRINGS, true},
};

#define GL_META_MAX_KEYS 8

int gl_level_parse(const char *s) {
  static const char *const names[] = {"none", "note", "warning", "error"};
  for (int i = 0; s && i < 4; i++)
    if (strcmp(s, names[i]) == 0) return i;
  return -1;
}

const char *gl_level_name(gl_level level) {
  switch (level) {
    case GL_LEVEL_NOTE: return "note";
    case GL_LEVEL_WARNING: return "warning";
    case GL_LEVEL_ERROR: return "error";
    default: return "none";
  }
}

void gl_evidence_binding_free(gl_evidence_binding *b) {
  if (!b) return;
  free(b->metric);
  free(b->cost);
  free(b);
}

static const char *const precisions[] = {"very-high", "high", "medium", "low"};

static void err_at(meta_ctx *c, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void verr_at(meta_ctx *c, size_t off, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

static void verr_at(meta_ctx *c, size_t off, const char *fmt, va_list ap) {
  gl_pos p = gl_load_text_position(c->text, c->len, off, c->b->first_line);
  gl_diag_vset(gl_diag_list_add(c->errs), c->md->path, p.line, p.col_cp, fmt, ap);
  c->nerr++;
}

static void err_at(meta_ctx *c, size_t off, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verr_at(c, off, fmt, ap);
  va_end(ap);
}

static size_t skip_ws(const meta_ctx *c, size_t i) {
  while (i < c->len && strchr(" \t\r\n", c->text[i])) i++;
  return i;
}

/* Offset of the (nth, from 0) `"key"` used as a key (followed by ':'), else of the block's first
 * non-blank byte. */
static size_t key_offset_nth(const meta_ctx *c, const char *key, int nth) {
  size_t klen = strlen(key);
  for (const char *p = c->text; (p = strchr(p, '"')) != NULL; p++) {
    size_t i = (size_t)(p - c->text);
    if (i + klen + 2 > c->len || strncmp(p + 1, key, klen) != 0 || p[klen + 1] != '"') continue;
    size_t j = skip_ws(c, i + klen + 2);
    if (j < c->len && c->text[j] == ':' && nth-- == 0) return i;
  }
  return skip_ws(c, 0);
}

static size_t key_offset(const meta_ctx *c, const char *key) { return key_offset_nth(c, key, 0); }

/* How many keys before it in its object have its name. */
static int earlier_same(const cJSON *root, const cJSON *it) {
  int n = 0;
  for (const cJSON *o = root->child; o != it; o = o->next) n += strcmp(o->string, it->string) == 0;
  return n;
}

/* Offset of the value of key (after its ':'), else key_offset's fallback. */
static size_t value_offset(const meta_ctx *c, const char *key) {
  size_t k = key_offset(c, key);
  if (c->text[k] != '"') return k;
  size_t j = skip_ws(c, k + strlen(key) + 2);
  return skip_ws(c, j + 1);
}

/* Parses the block; NULL (with an error) on a syntax error or a non-object. */
static cJSON *meta_parse(meta_ctx *c) {
  const char *end = NULL;
  /* len + 1 with require_null_terminated: trailing garbage after the value is an error too. */
  cJSON *root = cJSON_ParseWithLengthOpts(c->text, c->len + 1, &end, 1);
  if (!root) {
    size_t off = (end && end >= c->text) ? (size_t)(end - c->text) : 0;
    err_at(c, off, "invalid json in metadata block");
    return NULL;
  }
  if (!cJSON_IsObject(root)) {
    err_at(c, skip_ws(c, 0), "metadata must be a json object");
    cJSON_Delete(root);
    return NULL;
  }
  return root;
}

static bool is_string_array(const cJSON *v, bool nonempty) {
  if (!cJSON_IsArray(v)) return false;
  if (nonempty && !v->child) return false;
  for (const cJSON *e = v->child; e; e = e->next)
    if (!cJSON_IsString(e) || !e->valuestring[0]) return false;
  return true;
}

/* Checks every key of root against specs: unknown, duplicate, mistyped and missing keys.
 * found[i] receives the item of specs[i] (NULL when missing or mistyped). */
static void check_keys(meta_ctx *c, const cJSON *root, const key_spec *specs, size_t n,
                       const cJSON **found) {
  bool seen[GL_META_MAX_KEYS] = {false};
  for (const cJSON *it = root->child; it; it = it->next) {
    size_t i = 0;
    while (i < n && strcmp(specs[i].key, it->string) != 0) i++;
    if (i == n) {
      err_at(c, key_offset_nth(c, it->string, earlier_same(root, it)), "unknown metadata key '%s'",
             it->string);
      continue;
    }
    if (seen[i]) {
      err_at(c, key_offset_nth(c, it->string, earlier_same(root, it)), "duplicate metadata key '%s'",
             it->string);
      continue;
    }
    seen[i] = true;
    bool ok = specs[i].kind == K_STRING   ? cJSON_IsString(it)
              : specs[i].kind == K_PRECISION ? cJSON_IsString(it) || cJSON_IsObject(it)
              : specs[i].kind == K_BOOL   ? cJSON_IsBool(it)
              : specs[i].kind == K_OBJECT ? cJSON_IsObject(it)
                                          : is_string_array(it, specs[i].required);
    const char *want = specs[i].kind == K_STRING ? "a string"
                       : specs[i].kind == K_PRECISION ? "a string or an object"
                       : specs[i].kind == K_BOOL ? "true or false"
                       : specs[i].kind == K_OBJECT ? "an object"
                       : specs[i].required       ? "a non-empty array of non-empty strings"
                                                 : "an array of non-empty strings";
    if (!ok)
      err_at(c, value_offset(c, it->string), "metadata field '%s' must be %s", it->string, want);
    else
      found[i] = it;
  }
  for (size_t i = 0; i < n; i++)
    if (specs[i].required && !seen[i])
      err_at(c, skip_ws(c, 0), "missing metadata field '%s'", specs[i].key);
}

static char **copy_strings(const cJSON *arr, size_t *n) {
  *n = (size_t)cJSON_GetArraySize(arr);
  char **out = gl_xcalloc(*n ? *n : 1, sizeof(char *));
  size_t i = 0;
  for (const cJSON *e = arr->child; e; e = e->next) out[i++] = gl_xstrdup(e->valuestring);
  return out;
}

static void meta_open(meta_ctx *c, const gl_mdfile *md, const gl_mdblock *b, gl_diag_list *errs) {
  memset(c, 0, sizeof(*c));
  c->md = md;
  c->b = b;
  c->errs = errs;
  c->text = gl_rules__md_join(md, b->first_line, b->close_line - 1);
  c->len = strlen(c->text);
}

/* --- a measured precision ------------------------------------------------------------------- */

/* The category a measured precision earns (SARIF's "precision" property); very-high needs 20
 * judged findings at least, since a handful of right ones says little. */
static const char *precision_category(double p, uint32_t judged) {
  if (p >= 0.95 && judged >= 20) return "very-high";
  return p >= GL_PRECISION_GATE ? "high" : p >= 0.6 ? "medium" : "low";
}

static bool is_count(const cJSON *v) {
  return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble <= 1e9 &&
         v->valuedouble == (double)(uint32_t)v->valuedouble;
}

static bool is_date(const char *s) {
  static const char shape[] = "dddd-dd-dd";
  if (strlen(s) != sizeof(shape) - 1) return false;
  for (size_t i = 0; shape[i]; i++)
    if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i]) return false;
  return true;
}

/* "precision": {"measured": 0.62, "right": 13, "judged": 21, "date": "2026-12-06"}: every finding
 * of the rule on the corpus's held-back half judged by reading (tests/realcode). The category is
 * derived from the figure, which must be right / judged. */
static void measured_precision(meta_ctx *c, const cJSON *o, gl_rule *r) {
  static const char *const keys[] = {"measured", "right", "judged", "date"};
  const cJSON *v[4] = {NULL, NULL, NULL, NULL};
  size_t at = value_offset(c, "precision");
  for (const cJSON *it = o->child; it; it = it->next) {
    size_t k = 0;
    while (k < 4 && strcmp(keys[k], it->string) != 0) k++;
    if (k == 4 || v[k]) {
      err_at(c, at, "%s key '%s' in 'precision'", k == 4 ? "unknown" : "duplicate", it->string);
      return;
    }
    v[k] = it;
  }
  if (!cJSON_IsNumber(v[0]) || !(v[0]->valuedouble >= 0 && v[0]->valuedouble <= 1) ||
      !is_count(v[1]) || !is_count(v[2]) || !cJSON_IsString(v[3]) || !is_date(v[3]->valuestring)) {
    err_at(c, at, "'precision' must be a category or {\"measured\": 0..1, \"right\": N, "
                  "\"judged\": N, \"date\": \"YYYY-MM-DD\"}");
    return;
  }
  uint32_t right = (uint32_t)v[1]->valuedouble, judged = (uint32_t)v[2]->valuedouble;
  if (judged == 0 || right > judged || fabs(v[0]->valuedouble - (double)right / judged) > 0.005) {
    err_at(c, at, "'precision': measured %.3g is not right / judged (%u / %u)", v[0]->valuedouble,
           right, judged);
    return;
  }
  r->measured.precision = v[0]->valuedouble;
  r->measured.right = right;
  r->measured.judged = judged;
  snprintf(r->measured.date, sizeof(r->measured.date), "%s", v[3]->valuestring);
  r->precision = gl_xstrdup(precision_category(r->measured.precision, judged));
}

static void rule_values(meta_ctx *c, const cJSON **f, gl_rule *r) {
  if (f[0]) {
    int level = gl_level_parse(f[0]->valuestring);
    if (level < GL_LEVEL_NOTE)
      err_at(c, value_offset(c, "severity"), "unknown severity '%s'", f[0]->valuestring);
    else
      r->level = (gl_level)level;
  }
  if (f[1] && cJSON_IsObject(f[1])) {
    measured_precision(c, f[1], r);
  } else if (f[1]) {
    size_t i = 0;
    while (i < 4 && strcmp(precisions[i], f[1]->valuestring) != 0) i++;
    if (i == 4)
      err_at(c, value_offset(c, "precision"), "unknown precision '%s'", f[1]->valuestring);
    else
      r->precision = gl_xstrdup(f[1]->valuestring);
  }
  if (f[2] && !f[2]->valuestring[0])
    err_at(c, value_offset(c, "message"), "metadata field 'message' must not be empty");
  else if (f[2])
    r->message = gl_xstrdup(f[2]->valuestring);
  if (f[3]) r->tags = copy_strings(f[3], &r->ntags);
  if (f[4] && !gl_rules__is_kebab(f[4]->valuestring, strlen(f[4]->valuestring)))
    err_at(c, value_offset(c, "check"), "check name '%s' is not kebab-case", f[4]->valuestring);
  else if (f[4])
    r->check = gl_xstrdup(f[4]->valuestring);
  r->default_on = f[5] ? cJSON_IsTrue(f[5]) : true;
  /* the precision gate: a rule measured below it is off unless selected */
  if (r->measured.judged && r->measured.precision < GL_PRECISION_GATE) r->default_on = false;
}

/* --- the evidence binding --------------------------------------------------------------------- */

static const char *const evidence_keys[] = {"metric", "error_at", "note_below", "note_above",
                                            "cost", "repeat"};
enum { EV_METRIC, EV_ERROR_AT, EV_NOTE_BELOW, EV_NOTE_ABOVE, EV_COST, EV_REPEAT, EV_NKEYS };

#define GL_EVIDENCE_MAX_REPEAT 1000000000.0

/* The evidence object being validated: its items by key and where its members sit. */
typedef struct ev_ctx {
  meta_ctx *c;
  size_t obj;                   /* offset of the object's '{' */
  const cJSON *item[EV_NKEYS];
  int nerr;
} ev_ctx;

/* Offset of the key (value=false) or value of the nth member named key, else of the '{'. */
static size_t ev_offset(const ev_ctx *e, const char *key, int nth, bool value) {
  size_t k, v;
  if (!gl_jsonscan_member(e->c->text, e->c->len, e->obj, key, nth, &k, &v)) return e->obj;
  return value ? v : k;
}

static void ev_err(ev_ctx *e, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void ev_err(ev_ctx *e, size_t off, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verr_at(e->c, off, fmt, ap);
  va_end(ap);
  e->nerr++;
}

/* Sorts the members into e->item: unknown and duplicate keys are errors. */
static void ev_members(ev_ctx *e, const cJSON *obj) {
  for (const cJSON *it = obj->child; it; it = it->next) {
    int nth = earlier_same(obj, it);
    size_t i = 0;
    while (i < EV_NKEYS && strcmp(evidence_keys[i], it->string) != 0) i++;
    if (i == EV_NKEYS)
      ev_err(e, ev_offset(e, it->string, nth, false), "unknown evidence key '%s'", it->string);
    else if (e->item[i])
      ev_err(e, ev_offset(e, it->string, nth, false), "duplicate evidence key '%s'", it->string);
    else
      e->item[i] = it;
  }
}

/* A number > 0 (and finite) for key i, else an error; NAN when absent or wrong. */
static double ev_positive(ev_ctx *e, int i) {
  const cJSON *it = e->item[i];
  if (!it) return NAN;
  if (cJSON_IsNumber(it) && isfinite(it->valuedouble) && it->valuedouble > 0) return it->valuedouble;
  ev_err(e, ev_offset(e, evidence_keys[i], 0, true), "evidence field '%s' must be a number > 0",
         evidence_keys[i]);
  return NAN;
}

/* Checks the cost template's placeholders; sets *total when it uses {total}. A placeholder is
 * '{', then one or more bytes other than braces and blanks, then '}'; other braces are text. */
static void ev_cost(ev_ctx *e, const char *cost, bool *total) {
  size_t str = ev_offset(e, "cost", 0, true);
  for (const char *p = cost; *p; p++) {
    if (*p != '{') continue;
    size_t n = strcspn(p + 1, "{} \t\n");
    if (n == 0 || p[1 + n] != '}') continue;
    if (n == 5 && strncmp(p + 1, "total", 5) == 0) *total = true;
    bool known = (n == 5 && (strncmp(p + 1, "value", 5) == 0 || strncmp(p + 1, "total", 5) == 0)) ||
                 (n == 6 && strncmp(p + 1, "device", 6) == 0);
    if (!known)
      ev_err(e, gl_jsonscan_string_offset(e->c->text, e->c->len, str, (size_t)(p - cost)),
             "unknown placeholder '{%.*s}' in evidence cost (use {value}, {device} or {total})",
             (int)(n > 64 ? 64 : n), p + 1);
    p += n + 1;
  }
}

/* The types and values of every field present; missing required ones. */
static void ev_fields(ev_ctx *e, double *error_at, double *note, bool *total) {
  const cJSON *m = e->item[EV_METRIC], *cost = e->item[EV_COST], *rep = e->item[EV_REPEAT];
  if (m && !(cJSON_IsString(m) && gl_evidence_metric_name_ok(m->valuestring)))
    ev_err(e, ev_offset(e, "metric", 0, true), "evidence field 'metric' must be a name of [A-Za-z0-9_]");
  *error_at = ev_positive(e, EV_ERROR_AT);
  double below = ev_positive(e, EV_NOTE_BELOW), above = ev_positive(e, EV_NOTE_ABOVE);
  *note = e->item[EV_NOTE_BELOW] ? below : above;
  if (cost && !(cJSON_IsString(cost) && cost->valuestring[0]))
    ev_err(e, ev_offset(e, "cost", 0, true), "evidence field 'cost' must be a non-empty string");
  else if (cost)
    ev_cost(e, cost->valuestring, total);
  bool rep_ok = rep && cJSON_IsNumber(rep) && rep->valuedouble >= 1 &&
                rep->valuedouble <= GL_EVIDENCE_MAX_REPEAT && floor(rep->valuedouble) == rep->valuedouble;
  if (rep && !rep_ok)
    ev_err(e, ev_offset(e, "repeat", 0, true), "evidence field 'repeat' must be an integer from 1 to %.0f",
           GL_EVIDENCE_MAX_REPEAT);
  if (!m) ev_err(e, e->obj, "missing evidence field 'metric'");
  if (!e->item[EV_ERROR_AT]) ev_err(e, e->obj, "missing evidence field 'error_at'");
  if (!cost) ev_err(e, e->obj, "missing evidence field 'cost'");
}

/* Exactly one note threshold, on the right side of error_at; {total} needs repeat. */
static void ev_rules(ev_ctx *e, double error_at, double note, bool total) {
  const cJSON *below = e->item[EV_NOTE_BELOW], *above = e->item[EV_NOTE_ABOVE];
  if (below && above)
    ev_err(e, ev_offset(e, "note_above", 0, false),
           "evidence takes one of 'note_below' and 'note_above', not both");
  else if (!below && !above)
    ev_err(e, e->obj, "missing evidence field 'note_below' (higher is worse) or 'note_above' (lower is worse)");
  else if (below && !isnan(error_at) && !isnan(note) && !(note < error_at))
    ev_err(e, ev_offset(e, "note_below", 0, true), "evidence 'note_below' (%g) must be below 'error_at' (%g)",
           note, error_at);
  else if (above && !isnan(error_at) && !isnan(note) && !(error_at < note))
    ev_err(e, ev_offset(e, "note_above", 0, true), "evidence 'note_above' (%g) must be above 'error_at' (%g)",
           note, error_at);
  if (total && !e->item[EV_REPEAT])
    ev_err(e, ev_offset(e, "cost", 0, true), "evidence cost uses {total} but 'repeat' is missing");
}

/* Validates the `evidence` object; returns the binding, or NULL after adding errors. */
static gl_evidence_binding *evidence_binding(meta_ctx *c, const cJSON *obj) {
  ev_ctx e = {c, value_offset(c, "evidence"), {NULL}, 0};
  ev_members(&e, obj);
  double error_at = NAN, note = NAN;
  bool total = false;
  ev_fields(&e, &error_at, &note, &total);
  ev_rules(&e, error_at, note, total);
  if (e.nerr) return NULL;
  gl_evidence_binding *b = gl_xcalloc(1, sizeof(*b));
  b->metric = gl_xstrdup(e.item[EV_METRIC]->valuestring);
  b->error_at = error_at;
  b->note = note;
  b->higher_worse = e.item[EV_NOTE_BELOW] != NULL;
  b->cost = gl_xstrdup(e.item[EV_COST]->valuestring);
  b->repeat = e.item[EV_REPEAT] ? (uint32_t)e.item[EV_REPEAT]->valuedouble : 0;
  return b;
}

int gl_rules__meta_rule(const gl_mdfile *md, const gl_mdblock *b, gl_rule *r, gl_diag_list *errs) {
  meta_ctx c;
  meta_open(&c, md, b, errs);
  cJSON *root = meta_parse(&c);
  if (root) {
    const cJSON *found[GL_META_MAX_KEYS] = {NULL};
    check_keys(&c, root, rule_keys, sizeof(rule_keys) / sizeof(rule_keys[0]), found);
    rule_values(&c, found, r);
    if (found[6]) r->evidence = evidence_binding(&c, found[6]);
    gl_rules__metaloc loc = {md->path, c.text, c.len, b->first_line};
    if (found[7]) c.nerr += gl_rules__meta_options(&loc, value_offset(&c, "options"), found[7], r, errs);
    cJSON_Delete(root);
  }
  free(c.text);
  return c.nerr;
}

/* "GPU" followed by one or two digits. */
static bool is_prefix(const char *s) {
  if (strncmp(s, "GPU", 3) != 0) return false;
  size_t n = strlen(s + 3);
  if (n < 1 || n > 2) return false;
  for (size_t i = 3; s[i]; i++)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

/* A trigger is an identifier-like word: [A-Za-z_][A-Za-z0-9_]*. */
static bool is_word(const char *s) {
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
      return false;
  return true;
}

static void pack_values(meta_ctx *c, const cJSON **f, const char *folder, gl_pack *p) {
  if (f[0] && !gl_rules__is_kebab(f[0]->valuestring, strlen(f[0]->valuestring)))
    err_at(c, value_offset(c, "name"), "pack name '%s' is not kebab-case", f[0]->valuestring);
  else if (f[0] && strcmp(f[0]->valuestring, folder) != 0)
    err_at(c, value_offset(c, "name"), "pack name '%s' does not match its folder '%s'",
           f[0]->valuestring, folder);
  else if (f[0])
    p->name = gl_xstrdup(f[0]->valuestring);
  if (f[1] && !is_prefix(f[1]->valuestring))
    err_at(c, value_offset(c, "prefix"), "pack prefix '%s' must be 'GPU' followed by one or two digits",
           f[1]->valuestring);
  else if (f[1])
    p->prefix = gl_xstrdup(f[1]->valuestring);
  if (f[2]) p->default_on = cJSON_IsTrue(f[2]);
  if (!f[3]) return;
  for (const cJSON *e = f[3]->child; e; e = e->next) {
    if (is_word(e->valuestring)) continue;
    err_at(c, value_offset(c, "triggers"), "trigger '%s' is not a word", e->valuestring);
    return;
  }
  p->triggers = copy_strings(f[3], &p->ntriggers);
}

int gl_rules__meta_pack(const gl_mdfile *md, const gl_mdblock *b, const char *folder, gl_pack *p,
                 gl_diag_list *errs) {
  meta_ctx c;
  meta_open(&c, md, b, errs);
  cJSON *root = meta_parse(&c);
  if (root) {
    const cJSON *found[GL_META_MAX_KEYS] = {NULL};
    check_keys(&c, root, pack_keys, sizeof(pack_keys) / sizeof(pack_keys[0]), found);
    pack_values(&c, found, folder, p);
    cJSON_Delete(root);
  }
  free(c.text);
  return c.nerr;
}
