/* config_show.c: the text of `gpulint --show-settings PATH` (see config.h).
 * Owns: listing every configuration key with its resolved value and where it came from, the
 *       options of the enabled rules in effect, and the rules enabled for one file after
 *       per-file-ignores, in a fixed order (deterministic).
 * Not: printing (main.c prints the string), resolving anything itself (config_apply.c did).
 * Threads: main thread only. */
#include "config/config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "report/report.h"

/* The walk's default excludes (walk.c; test_config checks each against
 * gl_walk_is_default_excluded). */
static const char *const default_excludes[] = {
    ".git", ".venv", "venv", "__pycache__", "node_modules", "build", "dist", "site-packages",
    ".tox", ".eggs",
};

/* Appends s quoted as a TOML basic string, safe for the terminal. */
static void add_quoted(gl_strbuf *b, const char *s) {
  char *safe = gl_utf8_safe_text(s, strlen(s));
  gl_strbuf_addf(b, "\"");
  for (const char *p = safe; *p; p++) gl_strbuf_addf(b, *p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
  gl_strbuf_addf(b, "\"");
  free(safe);
}

static void add_list(gl_strbuf *b, const char *const *v, size_t n) {
  gl_strbuf_addf(b, "[");
  for (size_t i = 0; i < n; i++) {
    if (i) gl_strbuf_addf(b, ", ");
    add_quoted(b, v[i]);
  }
  gl_strbuf_addf(b, "]");
}

/* The strings of a config list, then those of a CLI list. */
static void add_two_lists(gl_strbuf *b, const gl_cfg_strs *file, const gl_strvec *cli) {
  gl_strbuf_addf(b, "[");
  size_t k = 0;
  for (size_t i = 0; file && i < file->len; i++, k++) {
    if (k) gl_strbuf_addf(b, ", ");
    add_quoted(b, file->data[i].s);
  }
  for (size_t i = 0; i < cli->len; i++, k++) {
    if (k) gl_strbuf_addf(b, ", ");
    add_quoted(b, cli->data[i]);
  }
  gl_strbuf_addf(b, "]");
}

/* "  # default", "  # config.toml:3:1", "  # command line", or both of the last, then '\n'. */
static void add_origin(gl_strbuf *b, const gl_config *cfg, gl_cfg_key k, bool from_cli) {
  bool from_file = cfg && cfg->set[k];
  char *path = from_file ? gl_utf8_safe_text(cfg->path, strlen(cfg->path)) : NULL;
  if (from_file) gl_strbuf_addf(b, "  # %s:%u:%u", path, cfg->line[k], cfg->col[k]);
  if (from_cli) gl_strbuf_addf(b, from_file ? " + command line" : "  # command line");
  if (!from_file && !from_cli) gl_strbuf_addf(b, "  # default");
  gl_strbuf_addf(b, "\n");
  free(path);
}

static void add_key(gl_strbuf *b, gl_cfg_key k) { gl_strbuf_addf(b, "%-18s= ", gl_cfg_key_name(k)); }

static void show_selection(gl_strbuf *b, const gl_config *cfg, const gl_cli *given) {
  add_key(b, GL_CFG_SELECT);
  if (given->has_select) add_list(b, (const char *const *)given->select.data, given->select.len);
  else if (cfg && cfg->set[GL_CFG_SELECT]) add_two_lists(b, &cfg->select, &(gl_strvec){0});
  else gl_strbuf_addf(b, "(each pack's default)");
  add_origin(b, given->has_select ? NULL : cfg, GL_CFG_SELECT, given->has_select);
  add_key(b, GL_CFG_EXTEND_SELECT);
  add_two_lists(b, cfg ? &cfg->extend_select : NULL, &given->extend_select);
  add_origin(b, cfg, GL_CFG_EXTEND_SELECT, given->extend_select.len > 0);
  add_key(b, GL_CFG_IGNORE);
  add_two_lists(b, cfg ? &cfg->ignore : NULL, &given->ignore);
  add_origin(b, cfg, GL_CFG_IGNORE, given->ignore.len > 0);
}

static void show_tables(gl_strbuf *b, const gl_config *cfg) {
  add_key(b, GL_CFG_PER_FILE_IGNORES);
  gl_strbuf_addf(b, "{");
  for (size_t i = 0; cfg && i < cfg->per_file_ignores.len; i++) {
    const gl_cfg_pfi *p = &cfg->per_file_ignores.data[i];
    gl_strbuf_addf(b, i ? ", " : "");
    add_quoted(b, p->glob.s);
    gl_strbuf_addf(b, " = ");
    add_two_lists(b, &p->ids, &(gl_strvec){0});
  }
  gl_strbuf_addf(b, "}");
  add_origin(b, cfg, GL_CFG_PER_FILE_IGNORES, false);
  add_key(b, GL_CFG_SEVERITY);
  gl_strbuf_addf(b, "{");
  for (size_t i = 0; cfg && i < cfg->severity.len; i++) {
    gl_strbuf_addf(b, i ? ", " : "");
    add_quoted(b, cfg->severity.data[i].sel.s);
    gl_strbuf_addf(b, " = \"%s\"", gl_level_name(cfg->severity.data[i].level));
  }
  gl_strbuf_addf(b, "}");
  add_origin(b, cfg, GL_CFG_SEVERITY, false);
}

static void show_files(gl_strbuf *b, const gl_config *cfg, const gl_cli *given, const gl_cli *merged) {
  add_key(b, GL_CFG_EXCLUDE);
  if (cfg && cfg->set[GL_CFG_EXCLUDE]) add_two_lists(b, &cfg->exclude, &(gl_strvec){0});
  else add_list(b, default_excludes, sizeof(default_excludes) / sizeof(default_excludes[0]));
  add_origin(b, cfg, GL_CFG_EXCLUDE, false);
  add_key(b, GL_CFG_EXTEND_EXCLUDE);
  add_two_lists(b, cfg ? &cfg->extend_exclude : NULL, &given->excludes);
  add_origin(b, cfg, GL_CFG_EXTEND_EXCLUDE, given->excludes.len > 0);
  add_key(b, GL_CFG_RESPECT_GITIGNORE);
  gl_strbuf_addf(b, "%s", merged->respect_gitignore ? "true" : "false");
  add_origin(b, given->respect_gitignore_set ? NULL : cfg, GL_CFG_RESPECT_GITIGNORE,
             given->respect_gitignore_set);
  add_key(b, GL_CFG_RULES);
  add_two_lists(b, cfg ? &cfg->rules : NULL, &given->rules_dirs);
  add_origin(b, cfg, GL_CFG_RULES, given->rules_dirs.len > 0);
}

static void show_run(gl_strbuf *b, const gl_config *cfg, const gl_cli *given, const gl_cli *merged) {
  add_key(b, GL_CFG_EVIDENCE);
  if (merged->evidence) add_quoted(b, merged->evidence);
  else gl_strbuf_addf(b, "(none)");
  add_origin(b, given->evidence ? NULL : cfg, GL_CFG_EVIDENCE, given->evidence != NULL);
  add_key(b, GL_CFG_FAIL_ON);
  gl_strbuf_addf(b, "\"%s\"", gl_level_name(merged->fail_on));
  add_origin(b, given->fail_on_set ? NULL : cfg, GL_CFG_FAIL_ON, given->fail_on_set);
  add_key(b, GL_CFG_OUTPUT_FORMAT);
  gl_strbuf_addf(b, "\"%s\"", gl_report_format_name(merged->format < 0 ? GL_FORMAT_FULL : (gl_format)merged->format));
  add_origin(b, given->format >= 0 ? NULL : cfg, GL_CFG_OUTPUT_FORMAT, given->format >= 0);
  add_key(b, GL_CFG_HOT_FUNCTIONS);
  add_two_lists(b, cfg ? &cfg->hot_functions : NULL, &(gl_strvec){0});
  add_origin(b, cfg, GL_CFG_HOT_FUNCTIONS, false);
}

/* Every option of the enabled rules: its values in effect and where they came from. */
static void show_rule_options(gl_strbuf *b, const gl_ruleset *set) {
  size_t width = 0;
  for (size_t i = 0; i < set->rules.len; i++)
    for (size_t k = 0; set->rules.data[i]->enabled && k < set->rules.data[i]->options.len; k++)
      if (strlen(set->rules.data[i]->options.data[k].name) > width)
        width = strlen(set->rules.data[i]->options.data[k].name);
  if (!width) return;
  gl_strbuf_addf(b, "\nRule options (rule-options):\n");
  for (size_t i = 0; i < set->rules.len; i++) {
    const gl_rule *r = set->rules.data[i];
    for (size_t k = 0; r->enabled && k < r->options.len; k++) {
      const gl_rule_option *o = &r->options.data[k];
      size_t n = 0;
      const char *const *v = gl_rule_option_strings(r, o->name, &n);
      gl_strbuf_addf(b, "  %-7s %-*s = ", r->id, (int)width, o->name);
      add_list(b, v, n);
      char *origin = o->origin ? gl_utf8_safe_text(o->origin, strlen(o->origin)) : NULL;
      gl_strbuf_addf(b, "  # %s\n", origin ? origin : "default");
      free(origin);
    }
  }
}

static void show_rules(gl_strbuf *b, const gl_config *cfg, const gl_ruleset *set, const char *path) {
  gl_strbuf on = {0}, off = {0};
  size_t non = 0, noff = 0;
  for (size_t i = 0; i < set->rules.len; i++) {
    const gl_rule *r = set->rules.data[i];
    if (!r->enabled) continue;
    bool ignored = gl_config_ignores(cfg, path, r);
    gl_strbuf_addf(ignored ? &off : &on, "  %-7s %-8s %s\n", r->id, gl_level_name(r->level), r->name);
    *(ignored ? &noff : &non) += 1;
  }
  char *safe = gl_utf8_safe_text(path, strlen(path));
  gl_strbuf_addf(b, "\nRules enabled for %s (%zu):\n%.*s", safe, non, (int)on.len, on.len ? on.data : "");
  if (noff) gl_strbuf_addf(b, "\nIgnored there by per-file-ignores (%zu):\n%.*s", noff, (int)off.len, off.data);
  free(safe);
  gl_vec_free(&on);
  gl_vec_free(&off);
}

char *gl_config_show(const gl_config *cfg, const gl_cli *given, const gl_cli *merged,
                     const gl_ruleset *set, const char *path) {
  gl_strbuf b = {0};
  gl_strbuf_addf(&b, "Configuration file: ");
  if (cfg) add_quoted(&b, cfg->path);
  else gl_strbuf_addf(&b, given->isolated ? "(none: --isolated)" : "(none found)");
  gl_strbuf_addf(&b, "\n\n");
  show_selection(&b, cfg, given);
  show_tables(&b, cfg);
  show_files(&b, cfg, given, merged);
  show_run(&b, cfg, given, merged);
  show_rule_options(&b, set);
  show_rules(&b, cfg, set, path);
  return gl_strbuf_take(&b);
}
