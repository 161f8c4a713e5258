/* config_apply.c: puts a loaded configuration to work (see config.h).
 * Owns: merging the file under the command line, severity overrides, checking the file's rule
 *       selectors, and per-file-ignores: globs compiled to PCRE2 at load time, matched against
 *       each file's path relative to the config file's directory (or its bare name), and the
 *       findings they ignore dropped from the run.
 * Not: reading the file (config.c), printing.
 * Threads: main thread only; the compiled globs are read-only after loading. */
#include "config/config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

int gl_config__compile_glob(gl_cfg_pfi *pfi, const char *path, gl_diag *err);
void gl_config__free_glob(gl_cfg_pfi *pfi);

/* ---- globs ----------------------------------------------------------------------------------- */

/* Translates a glob as Ruff's per-file-ignores read it (globset defaults): '*' and '**' match any
 * run of characters, '/' included ("**\/" also none); '?' one character; [abc], [!abc], [a-z];
 * {a,b} alternatives; '\' escapes. Returns the regex, anchored at both ends. */
static char *glob_to_regex(const char *g, const char **why) {
  gl_strbuf b = {0};
  gl_strbuf_adds(&b, "\\A");
  int braces = 0;
  for (const char *p = g; *p; p++) {
    if (p[0] == '*' && p[1] == '*' && p[2] == '/') { gl_strbuf_adds(&b, "(?:.*/)?"); p += 2; }
    else if (*p == '*') { gl_strbuf_adds(&b, ".*"); while (p[1] == '*') p++; }
    else if (*p == '?') gl_strbuf_adds(&b, ".");
    else if (*p == '[') {
      gl_strbuf_adds(&b, "[");
      if (p[1] == '!') { gl_strbuf_adds(&b, "^"); p++; }
      while (p[1] && p[1] != ']') {
        p++;
        if (*p == '\\' || *p == '[') gl_strbuf_adds(&b, "\\");
        gl_vec_push(&b, *p);
      }
      if (p[1] != ']') {
        *why = "'[' without a closing ']'";
        gl_vec_free(&b);
        return NULL;
      }
      gl_strbuf_adds(&b, "]");
      p++;
    } else if (*p == '{') { gl_strbuf_adds(&b, "(?:"); braces++; }
    else if (*p == '}' && braces) { gl_strbuf_adds(&b, ")"); braces--; }
    else if (*p == ',' && braces) gl_strbuf_adds(&b, "|");
    else if (*p == '\\' && p[1]) { gl_strbuf_adds(&b, "\\Q"); gl_vec_push(&b, *++p); gl_strbuf_adds(&b, "\\E"); }
    else if (strchr(".^$|()+{}\\]", *p)) { gl_vec_push(&b, '\\'); gl_vec_push(&b, *p); }
    else gl_vec_push(&b, *p);
  }
  if (braces) {
    *why = "'{' without a closing '}'";
    gl_vec_free(&b);
    return NULL;
  }
  gl_strbuf_adds(&b, "\\z");
  return gl_strbuf_take(&b);
}

int gl_config__compile_glob(gl_cfg_pfi *pfi, const char *path, gl_diag *err) {
  const char *g = pfi->glob.s;
  pfi->negated = g[0] == '!';
  if (pfi->negated) g++;
  if (g[0] == '.' && g[1] == '/') g += 2;
  const char *bad = g[0] ? NULL : "empty pattern";
  char *re = bad ? NULL : glob_to_regex(g, &bad);
  int code = 0;
  PCRE2_SIZE off = 0;
  if (re) pfi->re = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, PCRE2_DOTALL, &code, &off, NULL);
  free(re);
  if (!pfi->re) {
    PCRE2_UCHAR why[160] = "";
    if (bad) snprintf((char *)why, sizeof(why), "%s", bad);
    else pcre2_get_error_message(code, why, sizeof(why));
    gl_diag_set(err, path, pfi->glob.line, pfi->glob.col, "invalid per-file-ignores glob '%.200s': %s",
                pfi->glob.s, (const char *)why);
    return GL_EINVAL;
  }
  return 0;
}

void gl_config__free_glob(gl_cfg_pfi *pfi) {
  pcre2_code_free(pfi->re);
  pfi->re = NULL;
}

static bool re_matches(const pcre2_code *re, const char *s) {
  pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
  int rc = pcre2_match(re, (PCRE2_SPTR)s, strlen(s), 0, 0, md, NULL);
  pcre2_match_data_free(md);
  return rc >= 0;
}

/* ---- paths ----------------------------------------------------------------------------------- */

/* path made absolute against cwd and normalised lexically ("." and ".." segments, "//"). */
static char *absolute(const char *cwd, const char *path) {
  char *joined = path[0] == '/' ? gl_xstrdup(path) : gl_xasprintf("%s/%s", cwd, path);
  size_t n = strlen(joined), out = 0;
  char *res = gl_xmalloc(n + 2);
  for (size_t i = 0; i < n;) {
    while (i < n && joined[i] == '/') i++;
    size_t j = i;
    while (j < n && joined[j] != '/') j++;
    size_t len = j - i;
    if (len == 2 && joined[i] == '.' && joined[i + 1] == '.') {
      while (out > 0 && res[out - 1] != '/') out--;
      if (out > 0) out--;
    } else if (len && !(len == 1 && joined[i] == '.')) {
      res[out++] = '/';
      memcpy(res + out, joined + i, len);
      out += len;
    }
    i = j;
  }
  if (out == 0) res[out++] = '/';
  res[out] = '\0';
  free(joined);
  return res;
}

/* Whether pfi matches the file abs (absolute): its path relative to the config's directory, or,
 * for a glob without '/', its bare name too. */
static bool pfi_matches(const gl_config *cfg, const gl_cfg_pfi *pfi, const char *abs) {
  size_t n = strlen(cfg->dir);
  const char *rel = NULL;
  if (strcmp(cfg->dir, "/") == 0) rel = abs + 1;
  else if (strncmp(abs, cfg->dir, n) == 0 && abs[n] == '/') rel = abs + n + 1;
  const char *base = strrchr(abs, '/') + 1;
  bool hit = (rel && re_matches(pfi->re, rel)) ||
             (!strchr(pfi->glob.s, '/') && re_matches(pfi->re, base));
  return hit != pfi->negated;
}

static bool ignores_abs(const gl_config *cfg, const char *abs, const gl_rule *rule) {
  for (size_t i = 0; i < cfg->per_file_ignores.len; i++) {
    const gl_cfg_pfi *p = &cfg->per_file_ignores.data[i];
    bool selects = false;
    for (size_t j = 0; j < p->ids.len && !selects; j++)
      selects = gl_rules_selector_matches(rule, p->ids.data[j].s);
    if (selects && pfi_matches(cfg, p, abs)) return true;
  }
  return false;
}

static char *current_dir(void) {
  char buf[4096];
  return gl_xstrdup(getcwd(buf, sizeof(buf)) ? buf : "/");
}

bool gl_config_ignores(const gl_config *cfg, const char *path, const gl_rule *rule) {
  if (!cfg || !cfg->per_file_ignores.len) return false;
  char *cwd = current_dir();
  char *abs = absolute(cwd, path);
  bool r = ignores_abs(cfg, abs, rule);
  free(abs);
  free(cwd);
  return r;
}

void gl_config_filter_run(const gl_config *cfg, gl_run *run) {
  if (!cfg || !cfg->per_file_ignores.len) return;
  char *cwd = current_dir();
  for (size_t i = 0; i < run->files.len; i++) {
    gl_file_result *f = &run->files.data[i];
    char *abs = absolute(cwd, f->path);
    size_t kept = 0;
    for (size_t j = 0; j < f->findings.len; j++) {
      gl_finding *fd = &f->findings.data[j];
      if (ignores_abs(cfg, abs, fd->rule)) gl_finding_free_fields(fd);
      else f->findings.data[kept++] = *fd;
    }
    f->findings.len = kept;
    free(abs);
  }
  free(cwd);
}

/* ---- selection and merging ------------------------------------------------------------------- */

static int check_list(const gl_config *cfg, const gl_cfg_strs *v, const gl_ruleset *set,
                      gl_diag_list *errs) {
  int rc = 0;
  for (size_t i = 0; i < v->len; i++) {
    bool any = false;
    for (size_t r = 0; r < set->rules.len && !any; r++)
      any = gl_rules_selector_matches(set->rules.data[r], v->data[i].s);
    for (size_t p = 0; p < set->packs.len && !any; p++)
      any = strcmp(set->packs.data[p]->name, v->data[i].s) == 0; /* a pack without rules */
    if (any) continue;
    gl_diag_set(gl_diag_list_add(errs), cfg->path, v->data[i].line, v->data[i].col,
                "unknown rule selector '%.200s' (see gpulint rules)", v->data[i].s);
    rc = GL_EINVAL;
  }
  return rc;
}

int gl_config_check_selectors(const gl_config *cfg, const gl_ruleset *set, gl_diag_list *errs) {
  if (!cfg) return 0;
  int rc = check_list(cfg, &cfg->select, set, errs);
  rc |= check_list(cfg, &cfg->extend_select, set, errs);
  rc |= check_list(cfg, &cfg->ignore, set, errs);
  for (size_t i = 0; i < cfg->per_file_ignores.len; i++)
    rc |= check_list(cfg, &cfg->per_file_ignores.data[i].ids, set, errs);
  for (size_t i = 0; i < cfg->severity.len; i++) {
    gl_cfg_strs one = {&((gl_config *)cfg)->severity.data[i].sel, 1, 1};
    rc |= check_list(cfg, &one, set, errs);
  }
  return rc ? GL_EINVAL : 0;
}

void gl_config_apply_severity(const gl_config *cfg, gl_ruleset *set) {
  if (!cfg) return;
  for (size_t r = 0; r < set->rules.len; r++)
    for (size_t i = 0; i < cfg->severity.len; i++)
      if (gl_rules_selector_matches(set->rules.data[r], cfg->severity.data[i].sel.s))
        set->rules.data[r]->level = cfg->severity.data[i].level;
}

/* Puts copies of src's strings before dst's own. */
static void prepend(gl_strvec *dst, const gl_cfg_strs *src) {
  if (!src->len) return;
  gl_strvec merged = {0};
  for (size_t i = 0; i < src->len; i++) gl_vec_push(&merged, gl_xstrdup(src->data[i].s));
  for (size_t i = 0; i < dst->len; i++) gl_vec_push(&merged, dst->data[i]);
  gl_vec_free(dst);
  *dst = merged;
}

void gl_config_apply(const gl_config *cfg, gl_cli *cli, bool *no_default_excludes) {
  *no_default_excludes = false;
  if (!cfg) return;
  if (!cli->has_select && cfg->set[GL_CFG_SELECT]) {
    cli->has_select = true;
    prepend(&cli->select, &cfg->select);
  }
  prepend(&cli->extend_select, &cfg->extend_select);
  prepend(&cli->ignore, &cfg->ignore);
  prepend(&cli->rules_dirs, &cfg->rules);
  prepend(&cli->excludes, &cfg->extend_exclude);
  prepend(&cli->excludes, &cfg->exclude);
  *no_default_excludes = cfg->set[GL_CFG_EXCLUDE];
  if (!cli->evidence && cfg->evidence) cli->evidence = gl_xstrdup(cfg->evidence);
  if (!cli->fail_on_set && cfg->set[GL_CFG_FAIL_ON]) cli->fail_on = cfg->fail_on;
  if (cli->format < 0 && cfg->set[GL_CFG_OUTPUT_FORMAT]) cli->format = cfg->output_format;
  if (!cli->respect_gitignore_set && cfg->set[GL_CFG_RESPECT_GITIGNORE])
    cli->respect_gitignore = cfg->respect_gitignore;
}
