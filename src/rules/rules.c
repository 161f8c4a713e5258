/* rules.c: the ruleset: packs and rules from files, from the embedded packs and from --rules
 * directories, and selection.
 * Owns: grouping files into packs by folder (README.md = the pack, other *.md = its rules),
 *       the cross-file checks (pack prefix, duplicate ids, names and packs), reading a rules
 *       directory (regular files only, opened O_NONBLOCK and checked with fstat, read fully),
 *       sorting rules by id, handing <...>/models/<library>.json files to the library models
 *       (libmodel.h) and freezing them, and --select / --extend-select / --ignore.
 * Not: the syntax of one file (rulefile.c, rulemeta.c), compiling queries (match.c).
 * Threads: called from the main thread before workers start; the set is read-only afterwards. */
#include "rules/rules.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/load.h"
#include "rules/embedded.h"
#include "rules/rules_int.h"

#define GL_MODELS_FOLDER "models"         /* rules/models/ holds library models, not a pack */

gl_ruleset *gl_rules_new(void) {
  gl_ruleset *set = gl_xcalloc(1, sizeof(gl_ruleset));
  set->models = gl_libmodels_new();
  return set;
}

/* --- grouping ----------------------------------------------------------------------------- */

/* One folder of the input: its README (or NULL) and its other Markdown files. */
typedef struct group {
  char *dir;                              /* the folder as written in the paths ("" for none) */
  const gl_rule_file *readme;
  gl_vec(const gl_rule_file *) rules;
} group;

typedef gl_vec(group) group_list;

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The pack folder's name: the last component of dir, resolved through realpath for "." / "..". */
static char *folder_name(const char *dir) {
  const char *b = base_name(dir);
  if (b[0] && strcmp(b, ".") != 0 && strcmp(b, "..") != 0) return gl_xstrdup(b);
  char *real = realpath(dir[0] ? dir : ".", NULL);
  char *name = gl_xstrdup(real ? base_name(real) : b);
  free(real);
  return name;
}

static group *group_for(group_list *groups, const char *path) {
  const char *b = base_name(path);
  size_t dlen = b > path ? (size_t)(b - path - 1) : 0;
  for (size_t i = 0; i < groups->len; i++)
    if (strlen(groups->data[i].dir) == dlen && strncmp(groups->data[i].dir, path, dlen) == 0)
      return &groups->data[i];
  group *g = gl_vec_grow(groups);
  g->dir = gl_xstrndup(path, dlen);
  return g;
}

static int cmp_file_path(const void *a, const void *b) {
  return strcmp((*(const gl_rule_file *const *)a)->path, (*(const gl_rule_file *const *)b)->path);
}

/* True for <...>/models/<file>: library models (and their docs) are not a pack. */
static bool in_models_folder(const char *path) {
  const char *b = base_name(path);
  size_t m = strlen(GL_MODELS_FOLDER);
  if ((size_t)(b - path) < m + 1) return false;
  const char *d = b - 1 - m;
  return strncmp(d, GL_MODELS_FOLDER, m) == 0 && (d == path || d[-1] == '/');
}

/* Sorts the Markdown files by path and groups them by folder; other files are ignored. */
static void group_files(const gl_rule_file *files, size_t nfiles, group_list *groups) {
  gl_vec(const gl_rule_file *) md = {0};
  for (size_t i = 0; i < nfiles; i++)
    if (ends_with(files[i].path, ".md") && !in_models_folder(files[i].path)) gl_vec_push(&md, &files[i]);
  if (md.len) qsort(md.data, md.len, sizeof(md.data[0]), cmp_file_path);
  for (size_t i = 0; i < md.len; i++) {
    group *g = group_for(groups, md.data[i]->path);
    if (strcmp(base_name(md.data[i]->path), "README.md") == 0)
      g->readme = md.data[i];
    else
      gl_vec_push(&g->rules, md.data[i]);
  }
  gl_vec_free(&md);
}

static void groups_free(group_list *groups) {
  for (size_t i = 0; i < groups->len; i++) {
    free(groups->data[i].dir);
    gl_vec_free(&groups->data[i].rules);
  }
  gl_vec_free(groups);
}

/* --- adding packs and rules --------------------------------------------------------------- */

static const gl_pack *find_pack(const gl_ruleset *set, const char *name) {
  for (size_t i = 0; i < set->packs.len; i++)
    if (strcmp(set->packs.data[i]->name, name) == 0) return set->packs.data[i];
  return NULL;
}

/* The group's pack, added to set; NULL when it has no README or the README is invalid. */
static const gl_pack *add_pack(gl_ruleset *set, const group *g, gl_diag_list *errs) {
  if (!g->readme) {
    for (size_t i = 0; i < g->rules.len; i++)
      gl_diag_set(gl_diag_list_add(errs), g->rules.data[i]->path, 1, 1,
                  "rule file outside a pack: no README.md in folder '%s'", g->dir[0] ? g->dir : ".");
    return NULL;
  }
  char *folder = folder_name(g->dir);
  gl_pack *p = gl_xcalloc(1, sizeof(*p));
  int n = gl_rules__parse_pack(g->readme, folder, p, errs);
  free(folder);
  const gl_pack *first = n ? NULL : find_pack(set, p->name);
  if (first)
    gl_diag_set(gl_diag_list_add(errs), g->readme->path, 1, 1,
                "duplicate pack '%s' (first defined in %s)", p->name, first->readme_path);
  if (n || first) {
    gl_rules__pack_clear(p);
    free(p);
    return NULL;
  }
  gl_vec_push(&set->packs, p);
  return p;
}

/* Checks a parsed rule against its pack and the rules already in set. */
static bool rule_fits(const gl_ruleset *set, const gl_pack *pack, const gl_rule *r, gl_diag_list *errs) {
  bool ok = true;
  if (strncmp(r->id, pack->prefix, strlen(pack->prefix)) != 0) {
    gl_diag_set(gl_diag_list_add(errs), r->path, 1, 3,
                "rule id '%s' does not start with the pack prefix '%s'", r->id, pack->prefix);
    ok = false;
  }
  for (size_t i = 0; i < set->rules.len; i++) {
    const gl_rule *o = set->rules.data[i];
    if (strcmp(o->id, r->id) == 0) {
      gl_diag_set(gl_diag_list_add(errs), r->path, 1, 3, "duplicate rule id '%s' (first defined in %s)",
                  r->id, o->path);
      ok = false;
    }
    if (strcmp(o->name, r->name) == 0) {
      gl_diag_set(gl_diag_list_add(errs), r->path, 1, (uint32_t)(strlen(r->id) + 4),
                  "duplicate rule name '%s' (first defined in %s)", r->name, o->path);
      ok = false;
    }
  }
  return ok;
}

static void add_rule(gl_ruleset *set, const gl_pack *pack, const gl_rule_file *f, gl_diag_list *errs) {
  const char *base = base_name(f->path);
  char *id = gl_xstrndup(base, strlen(base) - 3); /* without ".md" */
  gl_rule *r = gl_xcalloc(1, sizeof(*r));
  int n = gl_rules__parse_rule(f, id, r, errs);
  free(id);
  if (n || !pack || !rule_fits(set, pack, r, errs)) {
    gl_rules__rule_clear(r);
    free(r);
    return;
  }
  r->pack = pack;
  r->enabled = pack->default_on && r->default_on;
  gl_vec_push(&set->rules, r);
}

/* Feeds every <...>/models/<library>.json of files to the library models, in path order. */
static void add_models(gl_ruleset *set, const gl_rule_file *files, size_t nfiles, gl_diag_list *errs) {
  gl_vec(const gl_rule_file *) json = {0};
  for (size_t i = 0; i < nfiles; i++)
    if (ends_with(files[i].path, ".json") && in_models_folder(files[i].path)) gl_vec_push(&json, &files[i]);
  if (json.len) qsort(json.data, json.len, sizeof(json.data[0]), cmp_file_path);
  for (size_t i = 0; i < json.len; i++)
    gl_libmodels_add(set->models, json.data[i]->path, json.data[i]->data, json.data[i]->len, errs);
  gl_vec_free(&json);
}

static int cmp_rule_id(const void *a, const void *b) {
  return strcmp((*(gl_rule *const *)a)->id, (*(gl_rule *const *)b)->id);
}

int gl_rules_add_files(gl_ruleset *set, const gl_rule_file *files, size_t nfiles, gl_diag_list *errs) {
  gl_diag_list local = {0};
  if (!errs) errs = &local;
  size_t before = errs->len;
  group_list groups = {0};
  group_files(files, nfiles, &groups);
  for (size_t i = 0; i < groups.len; i++) {
    const gl_pack *pack = add_pack(set, &groups.data[i], errs);
    for (size_t j = 0; j < groups.data[i].rules.len; j++)
      add_rule(set, pack, groups.data[i].rules.data[j], errs);
  }
  groups_free(&groups);
  add_models(set, files, nfiles, errs);
  if (set->rules.len) qsort(set->rules.data, set->rules.len, sizeof(gl_rule *), cmp_rule_id);
  bool failed = errs->len > before;
  gl_vec_free(&local);
  return failed ? GL_EINVAL : GL_OK;
}

/* Built-in packs live in rules/<pack>/: files directly under rules/ document the folder and are
 * not a pack (rules/models/ is skipped by group_files). */
static bool is_builtin_pack_file(const char *path) {
  return strncmp(path, "rules/", 6) == 0 && strchr(path + 6, '/') != NULL;
}

int gl_rules_add_builtin(gl_ruleset *set, gl_diag_list *errs) {
  gl_vec(gl_rule_file) files = {0};
  for (size_t i = 0; i < gl_embedded_count; i++) {
    const gl_embedded_file *e = &gl_embedded_files[i];
    if (!is_builtin_pack_file(e->path)) continue;
    gl_rule_file f = {e->path, e->data, e->len};
    gl_vec_push(&files, f);
  }
  int rc = gl_rules_add_files(set, files.data, files.len, errs);
  gl_vec_free(&files);
  return rc;
}

/* --- rules directories -------------------------------------------------------------------- */

static void errno_diag(gl_diag_list *errs, const char *path, const char *what, int e) {
  char text[128];
  gl_diag_errno_text(e, text, sizeof(text));
  gl_diag_set(gl_diag_list_add(errs), path, 0, 0, "%s: %s", what, text);
}

/* Reads path fully into *data (NUL-terminated) with the one safe read (base/load.h): regular
 * files only, never blocks on a FIFO. */
static bool read_rule_file(const char *path, char **data, size_t *len, gl_diag_list *errs) {
  gl_load_fail fail;
  if (gl_load_read(path, GL_RULE_FILE_MAX_BYTES, data, len, &fail) == GL_OK) return true;
  switch (fail.step) {
  case GL_LOAD_OPEN: errno_diag(errs, path, "cannot open rule file", fail.err_no); break;
  case GL_LOAD_READ: errno_diag(errs, path, "cannot read rule file", fail.err_no); break;
  default:
    gl_diag_set(gl_diag_list_add(errs), path, 0, 0, "cannot read rule file: %s",
                fail.step == GL_LOAD_STAT          ? "cannot stat rule file"
                : fail.step == GL_LOAD_NOT_REGULAR ? "not a regular file"
                                                   : "larger than 4 MiB");
  }
  return false;
}

typedef gl_vec(gl_rule_file) file_list;
typedef gl_vec(char *) name_list;

static char *join_path(const char *dir, const char *name) {
  size_t n = strlen(dir);
  if (!n) return gl_xstrdup(name);
  while (n > 1 && dir[n - 1] == '/') n--;
  return gl_xasprintf("%.*s%s%s", (int)n, dir, dir[n - 1] == '/' ? "" : "/", name);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names in dir (sorted, without "." entries); false when dir cannot be opened. */
static bool list_dir(const char *dir, name_list *names, gl_diag_list *errs) {
  DIR *d = opendir(dir);
  if (!d) return errno_diag(errs, dir, "cannot open rules directory", errno), false;
  for (struct dirent *e; (e = readdir(d)) != NULL;)
    if (e->d_name[0] != '.') gl_vec_push(names, gl_xstrdup(e->d_name));
  closedir(d);
  if (names->len) qsort(names->data, names->len, sizeof(char *), cmp_str);
  return true;
}

/* Appends dir's *.md files (models: dir's *.json files) to files. */
static void read_files(const char *dir, bool models, file_list *files, gl_diag_list *errs) {
  name_list names = {0};
  if (!list_dir(dir, &names, errs)) return;
  for (size_t i = 0; i < names.len; i++) {
    char *path = join_path(dir, names.data[i]);
    gl_rule_file f = {path, NULL, 0};
    bool wanted = models ? ends_with(names.data[i], ".json")
                         : ends_with(names.data[i], ".md") && !in_models_folder(path);
    if (wanted && read_rule_file(path, (char **)&f.data, &f.len, errs))
      gl_vec_push(files, f);
    else
      free(path);
    free(names.data[i]);
  }
  gl_vec_free(&names);
}

static bool is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Appends the *.json files of dir/models, when that is a folder. */
static void read_model_files(const char *dir, file_list *files, gl_diag_list *errs) {
  char *models = join_path(dir, GL_MODELS_FOLDER);
  if (is_dir(models)) read_files(models, true, files, errs);
  free(models);
}

int gl_rules_add_dir(gl_ruleset *set, const char *dir, gl_diag_list *errs) {
  gl_diag_list local = {0};
  if (!errs) errs = &local;
  size_t before = errs->len;
  name_list names = {0};
  file_list files = {0};
  if (list_dir(dir, &names, errs)) {
    char *readme = join_path(dir, "README.md");
    bool one_pack = access(readme, F_OK) == 0;
    free(readme);
    read_files(dir, false, &files, errs);
    for (size_t i = 0; i < names.len && !one_pack; i++) {
      char *sub = join_path(dir, names.data[i]);
      if (is_dir(sub)) read_files(sub, false, &files, errs);
      free(sub);
    }
    read_model_files(dir, &files, errs);
    if (!files.len && errs->len == before)
      gl_diag_set(gl_diag_list_add(errs), dir, 0, 0, "no rule packs found in rules directory");
  }
  if (files.len) gl_rules_add_files(set, files.data, files.len, errs);
  for (size_t i = 0; i < files.len; i++) {
    free((char *)files.data[i].path);
    free((char *)files.data[i].data);
  }
  for (size_t i = 0; i < names.len; i++) free(names.data[i]);
  gl_vec_free(&files);
  gl_vec_free(&names);
  bool failed = errs->len > before;
  gl_vec_free(&local);
  return failed ? GL_EINVAL : GL_OK;
}

int gl_rules_finish(gl_ruleset *set, gl_diag_list *errs) { return gl_libmodels_freeze(set->models, errs); }

/* --- selection ---------------------------------------------------------------------------- */

/* "GPU" followed by digits only. */
static bool is_id_prefix(const char *s) {
  if (strncmp(s, "GPU", 3) != 0) return false;
  for (s += 3; *s; s++)
    if (*s < '0' || *s > '9') return false;
  return true;
}

bool gl_rules_selector_matches(const gl_rule *rule, const char *sel) {
  if (!rule || !sel) return false;
  if (strcmp(sel, "ALL") == 0 || strcmp(sel, rule->id) == 0 || strcmp(sel, rule->name) == 0) return true;
  if (rule->pack && strcmp(sel, rule->pack->name) == 0) return true;
  return is_id_prefix(sel) && strncmp(rule->id, sel, strlen(sel)) == 0;
}

/* An entry is known when it selects a rule or names a pack (even one without rules). */
static bool selector_known(const gl_ruleset *set, const char *sel) {
  if (find_pack(set, sel)) return true;
  for (size_t i = 0; i < set->rules.len; i++)
    if (gl_rules_selector_matches(set->rules.data[i], sel)) return true;
  return false;
}

static bool check_selectors(const gl_ruleset *set, const char *const *sel, size_t n, gl_diag *err) {
  for (size_t i = 0; i < n; i++) {
    if (selector_known(set, sel[i])) continue;
    gl_diag_set(err, NULL, 0, 0, "unknown rule selector '%s'", sel[i]);
    return false;
  }
  return true;
}

static void apply(gl_ruleset *set, const char *const *sel, size_t n, bool on) {
  for (size_t i = 0; i < set->rules.len; i++)
    for (size_t j = 0; j < n; j++)
      if (gl_rules_selector_matches(set->rules.data[i], sel[j])) set->rules.data[i]->enabled = on;
}

int gl_rules_select(gl_ruleset *set, const char *const *select, size_t nselect,
                    const char *const *extend, size_t nextend,
                    const char *const *ignore, size_t nignore, gl_diag *err) {
  if (!check_selectors(set, select, select ? nselect : 0, err) ||
      !check_selectors(set, extend, nextend, err) || !check_selectors(set, ignore, nignore, err))
    return GL_EINVAL;
  for (size_t i = 0; i < set->rules.len; i++)
    set->rules.data[i]->enabled =
        select ? false : set->rules.data[i]->pack->default_on && set->rules.data[i]->default_on;
  apply(set, select, select ? nselect : 0, true);
  apply(set, extend, nextend, true);
  apply(set, ignore, nignore, false);
  return GL_OK;
}

const gl_rule *gl_rules_find(const gl_ruleset *set, const char *id_or_name) {
  if (!set || !id_or_name) return NULL;
  for (size_t i = 0; i < set->rules.len; i++) {
    const gl_rule *r = set->rules.data[i];
    if (strcmp(r->id, id_or_name) == 0 || strcmp(r->name, id_or_name) == 0) return r;
  }
  return NULL;
}

void gl_rules_free(gl_ruleset *set) {
  if (!set) return;
  for (size_t i = 0; i < set->rules.len; i++) {
    gl_rules__rule_clear(set->rules.data[i]);
    free(set->rules.data[i]);
  }
  for (size_t i = 0; i < set->packs.len; i++) {
    gl_rules__pack_clear(set->packs.data[i]);
    free(set->packs.data[i]);
  }
  gl_vec_free(&set->rules);
  gl_vec_free(&set->packs);
  gl_libmodels_free(set->models);
  free(set);
}

