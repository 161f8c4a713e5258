/* config.c: finds, reads and validates gpulint's configuration file (see config.h).
 * Owns: discovery from the current directory upward, reading the file (regular, at most 1 MiB),
 *       the key table of [tool.gpulint] with each key's expected type, and paths relative to the
 *       file's directory. The rule-options table is read by config_ropts.c.
 * Not: TOML syntax (toml_read.cpp), merging with the command line and globs (config_apply.c),
 *      the --show-settings text (config_show.c).
 * Threads: main thread only. */
#include "config/config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/load.h"
#include "base/xalloc.h"
#include "config/toml_read.h"
#include "report/report.h"

#define GL_CONFIG_MAX_BYTES (1u << 20)

static const char *const key_names[GL_CFG_NKEYS] = {
    "select", "extend-select", "ignore", "per-file-ignores", "severity", "exclude",
    "extend-exclude", "respect-gitignore", "rules", "evidence", "fail-on", "output-format",
    "hot-functions", "rule-options",
};

const char *gl_cfg_key_name(gl_cfg_key key) { return key < GL_CFG_NKEYS ? key_names[key] : ""; }

/* Defined in config_apply.c: compiles a per-file-ignores glob, or fills err. */
int gl_config__compile_glob(gl_cfg_pfi *pfi, const char *path, gl_diag *err);
void gl_config__free_glob(gl_cfg_pfi *pfi);
/* Defined in config_ropts.c: reads the rule-options table, or fills err. */
int gl_config__read_rule_options(gl_config *cfg, const gl_toml_value *v, gl_diag *err);
void gl_config__free_rule_options(gl_config *cfg);

/* ---- reading the file ------------------------------------------------------------------------ */

/* Reads a regular file of at most GL_CONFIG_MAX_BYTES into *out (NUL-terminated) with the one
 * safe read (base/load.h): a FIFO or device is never opened for reading. */
static int read_file(const char *path, char **out, size_t *len, gl_diag *err) {
  gl_load_fail fail;
  if (gl_load_read(path, GL_CONFIG_MAX_BYTES, out, len, &fail) == GL_OK) return 0;
  char why[128];
  if (fail.step == GL_LOAD_OPEN || fail.step == GL_LOAD_READ) {
    gl_diag_errno_text(fail.err_no, why, sizeof(why));
    gl_diag_set(err, path, 0, 0, "cannot read configuration: %s", why);
  } else {
    gl_diag_set(err, path, 0, 0, fail.step == GL_LOAD_TOO_BIG ? "configuration file is larger than 1 MiB"
                                                              : "configuration is not a regular file");
  }
  return GL_EIO;
}

/* ---- directories ----------------------------------------------------------------------------- */

/* How paths in dir (absolute) are shown: "" for cwd, "sub/" below it, else "dir/". */
static char *display_dir(const char *dir) {
  char cwd[4096];
  if (!getcwd(cwd, sizeof(cwd))) return gl_xasprintf("%s/", dir);
  size_t n = strlen(cwd);
  if (strcmp(dir, cwd) == 0) return gl_xstrdup("");
  if (strcmp(cwd, "/") == 0) return gl_xasprintf("%s/", dir + 1);
  if (strncmp(dir, cwd, n) == 0 && dir[n] == '/') return gl_xasprintf("%s/", dir + n + 1);
  return gl_xasprintf("%s/", strcmp(dir, "/") == 0 ? "" : dir);
}

/* The resolved directory holding path. */
static char *dir_of(const char *path) {
  char *copy = gl_xstrdup(path);
  char *slash = strrchr(copy, '/');
  if (!slash) strcpy(copy, ".");
  else if (slash == copy) slash[1] = '\0';
  else *slash = '\0';
  char *real = realpath(copy, NULL);
  free(copy);
  return real ? real : gl_xstrdup("/");
}

/* A path the file gives, as used by the run: absolute stays, relative is joined to dir_display. */
static char *join_path(const gl_config *cfg, const char *p) {
  if (p[0] == '/' || !cfg->dir_display[0]) return gl_xstrdup(p);
  return gl_xasprintf("%s%s", cfg->dir_display, p);
}

/* ---- values ---------------------------------------------------------------------------------- */

static int type_error(const gl_config *cfg, const gl_toml_value *v, const char *key,
                      const char *want, gl_diag *err) {
  gl_diag_set(err, cfg->path, v->line, v->col, "'%s' must be %s, got %s", key, want,
              gl_toml_kind_name(v->kind));
  return GL_EINVAL;
}

/* Copies an array of non-empty strings into out. */
static int read_strings(const gl_config *cfg, const gl_toml_value *v, const char *key,
                        gl_cfg_strs *out, gl_diag *err) {
  if (v->kind != GL_TOML_ARRAY) return type_error(cfg, v, key, "an array of strings", err);
  for (size_t i = 0; i < v->nitems; i++) {
    const gl_toml_value *it = &v->items[i];
    if (it->kind != GL_TOML_STRING)
      return type_error(cfg, it, key, "an array of strings", err);
    if (it->len == 0 || strlen(it->str) != it->len) {
      gl_diag_set(err, cfg->path, it->line, it->col, "'%s' takes no empty strings or NUL", key);
      return GL_EINVAL;
    }
    gl_cfg_str s = {gl_xstrdup(it->str), it->line, it->col};
    gl_vec_push(out, s);
  }
  return 0;
}

static int read_string(const gl_config *cfg, const gl_toml_value *v, const char *key,
                       const char **out, gl_diag *err) {
  if (v->kind != GL_TOML_STRING) return type_error(cfg, v, key, "a string", err);
  if (v->len == 0 || strlen(v->str) != v->len) {
    gl_diag_set(err, cfg->path, v->line, v->col, "'%s' takes a non-empty string without NUL", key);
    return GL_EINVAL;
  }
  *out = v->str;
  return 0;
}

static int read_level(const gl_config *cfg, const gl_toml_value *v, const char *key,
                      gl_level *out, gl_diag *err) {
  const char *s = NULL;
  if (read_string(cfg, v, key, &s, err)) return GL_EINVAL;
  int level = gl_level_parse(s);
  if (level < GL_LEVEL_NOTE) {
    gl_diag_set(err, cfg->path, v->line, v->col,
                "'%s' takes \"error\", \"warning\" or \"note\", got \"%.100s\"", key, s);
    return GL_EINVAL;
  }
  *out = (gl_level)level;
  return 0;
}

static int read_pfi(gl_config *cfg, const gl_toml_value *v, gl_diag *err) {
  if (v->kind != GL_TOML_TABLE)
    return type_error(cfg, v, "per-file-ignores", "a table of glob = [ids]", err);
  for (size_t i = 0; i < v->nitems; i++) {
    const gl_toml_value *e = &v->items[i];
    gl_cfg_pfi pfi = {.glob = {gl_xstrdup(e->key), e->line, e->col}};
    gl_vec_push(&cfg->per_file_ignores, pfi);
    gl_cfg_pfi *p = gl_vec_last(&cfg->per_file_ignores);
    char what[160];
    snprintf(what, sizeof(what), "per-file-ignores.\"%.100s\"", e->key);
    if (read_strings(cfg, e, what, &p->ids, err)) return GL_EINVAL;
    if (gl_config__compile_glob(p, cfg->path, err)) return GL_EINVAL;
  }
  return 0;
}

static int read_severity(gl_config *cfg, const gl_toml_value *v, gl_diag *err) {
  if (v->kind != GL_TOML_TABLE)
    return type_error(cfg, v, "severity", "a table of rule = \"level\"", err);
  for (size_t i = 0; i < v->nitems; i++) {
    const gl_toml_value *e = &v->items[i];
    char what[160];
    snprintf(what, sizeof(what), "severity.%.100s", e->key);
    gl_cfg_severity s = {{gl_xstrdup(e->key), e->line, e->col}, GL_LEVEL_WARNING};
    gl_vec_push(&cfg->severity, s);
    if (read_level(cfg, e, what, &gl_vec_last(&cfg->severity)->level, err)) return GL_EINVAL;
  }
  return 0;
}

static int read_paths(gl_config *cfg, const gl_toml_value *v, const char *key, gl_cfg_strs *out,
                      gl_diag *err) {
  if (read_strings(cfg, v, key, out, err)) return GL_EINVAL;
  for (size_t i = 0; i < out->len; i++) {
    char *joined = join_path(cfg, out->data[i].s);
    free(out->data[i].s);
    out->data[i].s = joined;
  }
  return 0;
}

static int read_key(gl_config *cfg, gl_cfg_key k, const gl_toml_value *v, gl_diag *err) {
  const char *s = NULL;
  switch (k) {
    case GL_CFG_SELECT: return read_strings(cfg, v, v->key, &cfg->select, err);
    case GL_CFG_EXTEND_SELECT: return read_strings(cfg, v, v->key, &cfg->extend_select, err);
    case GL_CFG_IGNORE: return read_strings(cfg, v, v->key, &cfg->ignore, err);
    case GL_CFG_EXCLUDE: return read_strings(cfg, v, v->key, &cfg->exclude, err);
    case GL_CFG_EXTEND_EXCLUDE: return read_strings(cfg, v, v->key, &cfg->extend_exclude, err);
    case GL_CFG_HOT_FUNCTIONS: return read_strings(cfg, v, v->key, &cfg->hot_functions, err);
    case GL_CFG_RULES: return read_paths(cfg, v, v->key, &cfg->rules, err);
    case GL_CFG_PER_FILE_IGNORES: return read_pfi(cfg, v, err);
    case GL_CFG_SEVERITY: return read_severity(cfg, v, err);
    case GL_CFG_RULE_OPTIONS: return gl_config__read_rule_options(cfg, v, err);
    case GL_CFG_FAIL_ON: return read_level(cfg, v, v->key, &cfg->fail_on, err);
    case GL_CFG_RESPECT_GITIGNORE:
      if (v->kind != GL_TOML_BOOL) return type_error(cfg, v, v->key, "a boolean", err);
      cfg->respect_gitignore = v->boolean;
      return 0;
    case GL_CFG_EVIDENCE:
      if (read_string(cfg, v, v->key, &s, err)) return GL_EINVAL;
      cfg->evidence = join_path(cfg, s);
      return 0;
    case GL_CFG_OUTPUT_FORMAT:
      if (read_string(cfg, v, v->key, &s, err)) return GL_EINVAL;
      cfg->output_format = gl_report_format_parse(s);
      if (cfg->output_format < 0) {
        char names[160];
        gl_report_format_names(names, sizeof names, "\"");
        gl_diag_set(err, cfg->path, v->line, v->col, "'output-format' takes %s, got \"%.100s\"",
                    names, s);
        return GL_EINVAL;
      }
      return 0;
    default: return 0;
  }
}

/* Reads the keys of table (the [tool.gpulint] table, or a gpulint.toml's root). */
static int read_table(gl_config *cfg, const gl_toml_value *table, const char *where, gl_diag *err) {
  for (size_t i = 0; i < table->nitems; i++) {
    const gl_toml_value *v = &table->items[i];
    gl_cfg_key k = GL_CFG_NKEYS;
    for (int j = 0; j < GL_CFG_NKEYS; j++)
      if (strcmp(v->key, key_names[j]) == 0) k = (gl_cfg_key)j;
    if (k == GL_CFG_NKEYS) {
      bool tool = strcmp(v->key, "tool") == 0 && where[0] != '[';
      gl_diag_set(err, cfg->path, v->line, v->col, "unknown key '%.100s' in %s%s", v->key, where,
                  tool ? " (its keys go at top level; [tool.gpulint] is for a pyproject.toml)" : "");
      return GL_EINVAL;
    }
    cfg->set[k] = true;
    cfg->line[k] = v->line;
    cfg->col[k] = v->col;
    if (read_key(cfg, k, v, err)) return GL_EINVAL;
  }
  return 0;
}

static bool is_pyproject(const char *path) {
  const char *slash = strrchr(path, '/');
  return strcmp(slash ? slash + 1 : path, "pyproject.toml") == 0;
}

/* The [tool.gpulint] table of a parsed pyproject.toml, or NULL (err set when it is no table). */
static const gl_toml_value *tool_table(const gl_toml_value *root, const char *path, gl_diag *err) {
  const gl_toml_value *tool = gl_toml_get(root, "tool");
  const gl_toml_value *g = tool && tool->kind == GL_TOML_TABLE ? gl_toml_get(tool, "gpulint") : NULL;
  if (g && g->kind != GL_TOML_TABLE) {
    gl_diag_set(err, path, g->line, g->col, "'tool.gpulint' must be a table, got %s",
                gl_toml_kind_name(g->kind));
    return NULL;
  }
  return g;
}

/* Parses data as path; *found says whether it holds gpulint settings (a pyproject.toml without
 * [tool.gpulint] does not). Returns the config, or NULL (error when err->msg is set). */
static gl_config *load_text(const char *path, const char *data, size_t len, bool *found, gl_diag *err) {
  *found = false;
  char *dir = dir_of(path);
  char *dir_display = display_dir(dir);
  /* a discovered file (absolute) is shown the way paths in its directory are */
  const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  char *shown = path[0] == '/' ? gl_xasprintf("%s%s", dir_display, name) : gl_xstrdup(path);
  gl_toml_value *root = gl_toml_parse(shown, data, len, err);
  bool py = is_pyproject(path);
  const gl_toml_value *table = !root ? NULL : py ? tool_table(root, shown, err) : root;
  gl_config *cfg = NULL;
  if (table) {
    *found = true;
    cfg = gl_xcalloc(1, sizeof(*cfg));
    cfg->dir = dir;
    cfg->dir_display = dir_display;
    cfg->path = shown;
    dir = dir_display = shown = NULL;
    if (read_table(cfg, table, py ? "[tool.gpulint]" : name, err) != 0) {
      gl_config_free(cfg);
      cfg = NULL;
    }
  }
  free(dir);
  free(dir_display);
  free(shown);
  gl_toml_free(root);
  return cfg;
}

gl_config *gl_config_load(const char *path, gl_diag *err) {
  char *data = NULL;
  size_t len = 0;
  if (read_file(path, &data, &len, err)) return NULL;
  bool found = false;
  err->msg[0] = '\0';
  gl_config *cfg = load_text(path, data, len, &found, err);
  free(data);
  if (!cfg && !err->msg[0])
    gl_diag_set(err, path, 0, 0, "configuration file has no [tool.gpulint] table");
  return cfg;
}

static bool is_regular(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* True, with err set, when path exists but is no regular file that can be read: a directory, a
 * FIFO, a device, a symlink loop or one that points nowhere. Such a file is never read (a FIFO
 * would block), and never passed over in silence either. */
static bool unreadable_config(const char *path, gl_diag *err) {
  struct stat st;
  if (lstat(path, &st) != 0 || is_regular(path)) return false;
  errno = 0;
  bool ok = stat(path, &st) == 0;
  const char *what = !ok && errno == ELOOP   ? "a symlink loop"
                     : !ok                   ? "a symlink to nothing"
                     : S_ISDIR(st.st_mode)   ? "a directory"
                     : S_ISFIFO(st.st_mode)  ? "a FIFO"
                                             : "not a regular file";
  gl_diag_set(err, path, 0, 0, "configuration file is %s; not read", what);
  return true;
}

/* Tries dir's gpulint.toml, then its pyproject.toml. 1 = found (*out), 0 = none, <0 = error. */
static int try_dir(const char *dir, gl_config **out, gl_diag *err) {
  char *toml = gl_xasprintf("%s/gpulint.toml", strcmp(dir, "/") == 0 ? "" : dir);
  char *py = gl_xasprintf("%s/pyproject.toml", strcmp(dir, "/") == 0 ? "" : dir);
  int rc = 0;
  if (unreadable_config(toml, err) || unreadable_config(py, err)) {
    rc = GL_EINVAL;
  } else if (is_regular(toml)) {
    *out = gl_config_load(toml, err);
    rc = *out ? 1 : GL_EINVAL;
  } else if (is_regular(py)) {
    char *data = NULL;
    size_t len = 0;
    bool found = false;
    err->msg[0] = '\0';
    if (read_file(py, &data, &len, err)) rc = GL_EIO;
    else *out = load_text(py, data, len, &found, err);
    free(data);
    if (rc == 0 && found) rc = *out ? 1 : GL_EINVAL;
    else if (rc == 0 && err->msg[0]) rc = GL_EINVAL; /* a syntax error in an unrelated table */
  }
  free(toml);
  free(py);
  return rc;
}

int gl_config_discover(const char *start_dir, gl_config **out, gl_diag *err) {
  *out = NULL;
  char *dir = realpath(start_dir ? start_dir : ".", NULL);
  if (!dir) return 0;
  int rc = 0;
  for (;;) {
    rc = try_dir(dir, out, err);
    if (rc != 0 || strcmp(dir, "/") == 0) break;
    char *slash = strrchr(dir, '/');
    slash[slash == dir ? 1 : 0] = '\0';
  }
  free(dir);
  return rc < 0 ? rc : 0;
}

static void free_strs(gl_cfg_strs *v) {
  for (size_t i = 0; i < v->len; i++) free(v->data[i].s);
  gl_vec_free(v);
}

void gl_config_free(gl_config *cfg) {
  if (!cfg) return;
  free_strs(&cfg->select);
  free_strs(&cfg->extend_select);
  free_strs(&cfg->hot_functions);
  free_strs(&cfg->ignore);
  free_strs(&cfg->exclude);
  free_strs(&cfg->extend_exclude);
  free_strs(&cfg->rules);
  for (size_t i = 0; i < cfg->per_file_ignores.len; i++) {
    gl_cfg_pfi *p = &cfg->per_file_ignores.data[i];
    free(p->glob.s);
    free_strs(&p->ids);
    gl_config__free_glob(p);
  }
  gl_vec_free(&cfg->per_file_ignores);
  for (size_t i = 0; i < cfg->severity.len; i++) free(cfg->severity.data[i].sel.s);
  gl_vec_free(&cfg->severity);
  gl_config__free_rule_options(cfg);
  free(cfg->evidence);
  free(cfg->path);
  free(cfg->dir);
  free(cfg->dir_display);
  free(cfg);
}
