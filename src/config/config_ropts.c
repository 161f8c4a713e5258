/* config_ropts.c: the rule-options table of a configuration file (see config.h):
 * `[tool.gpulint.rule-options.GPU301]` in a pyproject.toml, `[rule-options.GPU301]` in a
 * gpulint.toml, keyed by rule id or name, each key an option the rule declares in its metadata.
 * Owns: reading the table (its shape: tables of values), checking it against the loaded rules
 *       (unknown rule, unknown option, wrong type, an option set twice) and setting the values
 *       on the rules with their origin.
 * Not: the option declarations (ruleopts.c), the other keys (config.c), printing.
 * Threads: main thread only, before linting. */
#include "config/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "config/toml_read.h"

int gl_config__read_rule_options(gl_config *cfg, const gl_toml_value *v, gl_diag *err);
void gl_config__free_rule_options(gl_config *cfg);

/* Reads one option's value: an array of non-empty strings is kept, anything else remembered. */
static void read_value(gl_cfg_ropt *o, const gl_toml_value *v) {
  o->kind = gl_toml_kind_name(v->kind);
  o->bad_line = v->line;
  o->bad_col = v->col;
  if (v->kind != GL_TOML_ARRAY) return;
  for (size_t i = 0; i < v->nitems; i++) {
    const gl_toml_value *it = &v->items[i];
    if (it->kind == GL_TOML_STRING && it->len && strlen(it->str) == it->len) continue;
    o->kind = it->kind == GL_TOML_STRING ? "an empty string or NUL" : gl_toml_kind_name(it->kind);
    o->bad_line = it->line;
    o->bad_col = it->col;
    return;
  }
  o->strings_ok = true;
  for (size_t i = 0; i < v->nitems; i++) {
    gl_cfg_str s = {gl_xstrdup(v->items[i].str), v->items[i].line, v->items[i].col};
    gl_vec_push(&o->values, s);
  }
}

int gl_config__read_rule_options(gl_config *cfg, const gl_toml_value *v, gl_diag *err) {
  if (v->kind != GL_TOML_TABLE) {
    gl_diag_set(err, cfg->path, v->line, v->col,
                "'rule-options' must be a table of rule = {option = value}, got %s",
                gl_toml_kind_name(v->kind));
    return GL_EINVAL;
  }
  for (size_t i = 0; i < v->nitems; i++) {
    const gl_toml_value *rule = &v->items[i];
    if (rule->kind != GL_TOML_TABLE) {
      gl_diag_set(err, cfg->path, rule->line, rule->col,
                  "'rule-options.%.100s' must be a table of option = value, got %s", rule->key,
                  gl_toml_kind_name(rule->kind));
      return GL_EINVAL;
    }
    for (size_t j = 0; j < rule->nitems; j++) {
      const gl_toml_value *opt = &rule->items[j];
      gl_cfg_ropt o = {.rule = {gl_xstrdup(rule->key), rule->line, rule->col},
                       .option = {gl_xstrdup(opt->key), opt->line, opt->col}};
      read_value(&o, opt);
      gl_vec_push(&cfg->rule_options, o);
    }
  }
  return 0;
}

void gl_config__free_rule_options(gl_config *cfg) {
  for (size_t i = 0; i < cfg->rule_options.len; i++) {
    gl_cfg_ropt *o = &cfg->rule_options.data[i];
    free(o->rule.s);
    free(o->option.s);
    for (size_t k = 0; k < o->values.len; k++) free(o->values.data[k].s);
    gl_vec_free(&o->values);
  }
  gl_vec_free(&cfg->rule_options);
}

/* ---- against the rules ----------------------------------------------------------------------- */

/* "a, b" : the options rule declares, for the error message. */
static void option_names(const gl_rule *r, char *buf, size_t cap) {
  buf[0] = '\0';
  size_t used = 0;
  for (size_t i = 0; i < r->options.len && used < cap; i++) {
    int n = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", r->options.data[i].name);
    if (n < 0) break;
    used += (size_t)n;
  }
}

/* An earlier entry setting the same option of the same rule (by id or name), or NULL. */
static const gl_cfg_ropt *earlier_same(const gl_config *cfg, size_t i, const gl_ruleset *set,
                                       const gl_rule *r) {
  const gl_cfg_ropt *o = &cfg->rule_options.data[i];
  for (size_t j = 0; j < i; j++) {
    const gl_cfg_ropt *p = &cfg->rule_options.data[j];
    if (strcmp(p->option.s, o->option.s) == 0 && gl_rules_find(set, p->rule.s) == r) return p;
  }
  return NULL;
}

static int check_one(const gl_config *cfg, size_t i, const gl_ruleset *set, gl_diag_list *errs) {
  const gl_cfg_ropt *o = &cfg->rule_options.data[i];
  const gl_rule *r = gl_rules_find(set, o->rule.s);
  if (!r) {
    gl_diag_set(gl_diag_list_add(errs), cfg->path, o->rule.line, o->rule.col,
                "unknown rule '%.100s' in rule-options (give a rule id or name)", o->rule.s);
    return GL_EINVAL;
  }
  const gl_rule_option *decl = gl_rule_option_find(r, o->option.s);
  if (!decl) {
    char names[256];
    option_names(r, names, sizeof names);
    gl_diag_set(gl_diag_list_add(errs), cfg->path, o->option.line, o->option.col,
                "rule %s has no option '%.100s' (%s%s)", r->id, o->option.s,
                names[0] ? "it has: " : "it has none", names);
    return GL_EINVAL;
  }
  const gl_cfg_ropt *twice = earlier_same(cfg, i, set, r);
  if (twice) {
    gl_diag_set(gl_diag_list_add(errs), cfg->path, o->option.line, o->option.col,
                "option '%.100s' of %s is already set at %u:%u", o->option.s, r->id,
                twice->option.line, twice->option.col);
    return GL_EINVAL;
  }
  if (decl->type == GL_OPT_STRING_LIST && !o->strings_ok) {
    gl_diag_set(gl_diag_list_add(errs), cfg->path, o->bad_line, o->bad_col,
                "'rule-options.%.100s.%.100s' must be an array of non-empty strings, got %s",
                o->rule.s, o->option.s, o->kind);
    return GL_EINVAL;
  }
  return 0;
}

int gl_config_check_rule_options(const gl_config *cfg, const gl_ruleset *set, gl_diag_list *errs) {
  if (!cfg) return 0;
  int rc = 0;
  for (size_t i = 0; i < cfg->rule_options.len; i++) rc |= check_one(cfg, i, set, errs);
  return rc ? GL_EINVAL : 0;
}

void gl_config_apply_rule_options(const gl_config *cfg, gl_ruleset *set) {
  if (!cfg) return;
  for (size_t i = 0; i < cfg->rule_options.len; i++) {
    const gl_cfg_ropt *o = &cfg->rule_options.data[i];
    gl_rule *r = (gl_rule *)gl_rules_find(set, o->rule.s);
    gl_rule_option *decl = r ? (gl_rule_option *)gl_rule_option_find(r, o->option.s) : NULL;
    if (!decl || !o->strings_ok) continue;
    const char **vals = gl_xcalloc(o->values.len ? o->values.len : 1, sizeof *vals);
    for (size_t k = 0; k < o->values.len; k++) vals[k] = o->values.data[k].s;
    char *origin = gl_xasprintf("%s:%u:%u", cfg->path, o->option.line, o->option.col);
    gl_rule_option_set(decl, vals, o->values.len, origin);
    free(origin);
    free(vals);
  }
}
