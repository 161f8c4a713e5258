/* ruleopts.c: the options a rule declares in its metadata (`"options"`), see rules.h.
 * Owns: validating the `options` object of a rule's json block (names, types, defaults,
 *       descriptions, with file:line:col), the option values in effect and their lookups.
 * Not: the rest of the metadata (rulemeta.c), reading configuration files (config*.c), what an
 *      option means to a check (src/checks/).
 * Threads: options are set in the main thread before linting, then read-only. */
#include "rules/rules_int.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonscan.h"
#include "base/load.h"
#include "base/xalloc.h"

static const char *const type_names[] = {"string-list"};

const char *gl_option_type_name(gl_option_type type) {
  return (size_t)type < sizeof type_names / sizeof *type_names ? type_names[type] : "";
}

int gl_option_type_parse(const char *s) {
  for (size_t i = 0; i < sizeof type_names / sizeof *type_names; i++)
    if (strcmp(s, type_names[i]) == 0) return (int)i;
  return -1;
}

/* ---- validating the metadata ------------------------------------------------------------- */

typedef struct opt_ctx {
  const gl_rules__metaloc *loc;
  gl_diag_list *errs;
  int nerr;
} opt_ctx;

static void opt_err(opt_ctx *c, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void opt_err(opt_ctx *c, size_t off, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  gl_pos p = gl_load_text_position(c->loc->text, c->loc->len, off, c->loc->first_line);
  gl_diag_set(gl_diag_list_add(c->errs), c->loc->path, p.line, p.col_cp, "%s", msg);
  c->nerr++;
}

/* How many members before it in its object have its name. */
static int earlier_same(const cJSON *obj, const cJSON *it) {
  int n = 0;
  for (const cJSON *o = obj->child; o != it; o = o->next) n += strcmp(o->string, it->string) == 0;
  return n;
}

/* Offset of the key (value=false) or value of member it of the object at obj, else obj. */
static size_t member_at(const opt_ctx *c, size_t obj, const cJSON *parent, const cJSON *it, bool value) {
  size_t k, v;
  if (!gl_jsonscan_member(c->loc->text, c->loc->len, obj, it->string, earlier_same(parent, it), &k, &v))
    return obj;
  return value ? v : k;
}

static bool string_list_ok(const cJSON *v) {
  if (!cJSON_IsArray(v)) return false;
  for (const cJSON *e = v->child; e; e = e->next)
    if (!cJSON_IsString(e) || !e->valuestring[0]) return false;
  return true;
}

enum { F_TYPE, F_DEFAULT, F_DESC, F_COUNT };
static const char *const field_names[F_COUNT] = {"type", "default", "description"};

/* Sorts the members of one option's object into f: unknown and duplicate keys are errors. */
static void option_fields(opt_ctx *c, size_t at, const cJSON *spec, const char *name, const cJSON **f) {
  for (const cJSON *it = spec->child; it; it = it->next) {
    size_t i = 0;
    while (i < F_COUNT && strcmp(field_names[i], it->string) != 0) i++;
    if (i == F_COUNT)
      opt_err(c, member_at(c, at, spec, it, false), "unknown key '%s' in option '%s' (use type, "
              "default, description)", it->string, name);
    else if (f[i])
      opt_err(c, member_at(c, at, spec, it, false), "duplicate key '%s' in option '%s'", it->string, name);
    else
      f[i] = it;
  }
  for (int i = 0; i < F_COUNT; i++)
    if (!f[i]) opt_err(c, at, "option '%s' needs a '%s'", name, field_names[i]);
}

static char **copy_strings(const cJSON *arr, size_t *n) {
  *n = (size_t)cJSON_GetArraySize(arr);
  char **out = gl_xcalloc(*n ? *n : 1, sizeof(char *));
  size_t i = 0;
  for (const cJSON *e = arr->child; e; e = e->next) out[i++] = gl_xstrdup(e->valuestring);
  return out;
}

/* Validates one option (member it of the options object at obj); appends it when valid. */
static void one_option(opt_ctx *c, size_t obj, const cJSON *opts, const cJSON *it, gl_rule *r) {
  int before = c->nerr;
  const char *name = it->string;
  size_t at = member_at(c, obj, opts, it, true);
  if (!gl_rules__is_kebab(name, strlen(name)))
    opt_err(c, member_at(c, obj, opts, it, false), "option name '%s' is not kebab-case", name);
  if (earlier_same(opts, it))
    opt_err(c, member_at(c, obj, opts, it, false), "duplicate option '%s'", name);
  if (!cJSON_IsObject(it)) {
    opt_err(c, at, "option '%s' must be an object with type, default and description", name);
    return;
  }
  const cJSON *f[F_COUNT] = {NULL};
  option_fields(c, at, it, name, f);
  int type = -1;
  if (f[F_TYPE] && cJSON_IsString(f[F_TYPE])) type = gl_option_type_parse(f[F_TYPE]->valuestring);
  if (f[F_TYPE] && type < 0)
    opt_err(c, member_at(c, at, it, f[F_TYPE], true), "unknown option type in '%s' (use \"string-list\")", name);
  if (f[F_DEFAULT] && type == GL_OPT_STRING_LIST && !string_list_ok(f[F_DEFAULT]))
    opt_err(c, member_at(c, at, it, f[F_DEFAULT], true),
            "default of option '%s' must be an array of non-empty strings", name);
  const cJSON *d = f[F_DESC];
  if (d && !(cJSON_IsString(d) && d->valuestring[0] && !strchr(d->valuestring, '\n')))
    opt_err(c, member_at(c, at, it, d, true), "description of option '%s' must be one non-empty line", name);
  if (c->nerr != before) return;
  gl_rule_option o = {.name = gl_xstrdup(name), .type = (gl_option_type)type,
                      .description = gl_xstrdup(d->valuestring)};
  o.defaults = copy_strings(f[F_DEFAULT], &o.ndefaults);
  gl_vec_push(&r->options, o);
}

int gl_rules__meta_options(const gl_rules__metaloc *loc, size_t obj_off, const cJSON *obj,
                           gl_rule *r, gl_diag_list *errs) {
  opt_ctx c = {loc, errs, 0};
  for (const cJSON *it = obj->child; it; it = it->next) one_option(&c, obj_off, obj, it, r);
  return c.nerr;
}

/* ---- values and lookups ------------------------------------------------------------------ */

static void free_strings(char **v, size_t n) {
  for (size_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

void gl_rules__options_clear(gl_rule *r) {
  for (size_t i = 0; i < r->options.len; i++) {
    gl_rule_option *o = &r->options.data[i];
    free(o->name);
    free(o->description);
    free(o->origin);
    free_strings(o->defaults, o->ndefaults);
    free_strings(o->values, o->nvalues);
  }
  gl_vec_free(&r->options);
}

const gl_rule_option *gl_rule_option_find(const gl_rule *rule, const char *name) {
  for (size_t i = 0; rule && i < rule->options.len; i++)
    if (strcmp(rule->options.data[i].name, name) == 0) return &rule->options.data[i];
  return NULL;
}

const char *const *gl_rule_option_strings(const gl_rule *rule, const char *name, size_t *n) {
  const gl_rule_option *o = gl_rule_option_find(rule, name);
  *n = 0;
  if (!o || o->type != GL_OPT_STRING_LIST) return NULL;
  *n = o->values ? o->nvalues : o->ndefaults;
  return (const char *const *)(o->values ? o->values : o->defaults);
}

bool gl_rule_option_has(const gl_rule *rule, const char *name, const char *value) {
  size_t n;
  const char *const *v = gl_rule_option_strings(rule, name, &n);
  for (size_t i = 0; i < n; i++)
    if (strcmp(v[i], value) == 0) return true;
  return false;
}

void gl_rule_option_set(gl_rule_option *opt, const char *const *values, size_t n, const char *origin) {
  free_strings(opt->values, opt->nvalues);
  free(opt->origin);
  opt->values = gl_xcalloc(n ? n : 1, sizeof(char *));
  for (size_t i = 0; i < n; i++) opt->values[i] = gl_xstrdup(values[i]);
  opt->nvalues = n;
  opt->origin = origin ? gl_xstrdup(origin) : NULL;
}
