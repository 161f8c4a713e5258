/* sarif.c: the SARIF 2.1.0 writer (one run, the form GitHub code scanning accepts).
 * Owns: the SARIF document: tool.driver with its rules (enabled or referenced, ruleIndex map) and
 *       notification descriptors, originalUriBaseIds %SRCROOT%, columnKind utf16CodeUnits,
 *       results with relatedLocations, partialFingerprints and inSource suppressions (and, when
 *       calibrated, rank and properties), the run's properties.evidence and automationDetails
 *       (--sarif-category), with --baseline each result's baselineState (new, unchanged) and
 *       the baseline's unmatched results copied in as "absent" ones after the current ones
 *       (SARIF 2.1.0 3.27.24), the invocation with executionSuccessful, workingDirectory and
 *       toolExecutionNotifications, and GitHub's limits (25,000 results per run, 1,000
 *       locations per result: the rest left out in output order, with a notification). Deterministic:
 *       no time stamps. Checked with the SARIF 2.1.0 schema and the SARIF multitool (rule
 *       kinds Sarif and Gh, GH1001-GH1007 on): clean, except that GH1006 rejects a result in
 *       a file outside both %SRCROOT% and the working directory (an absolute file: URI).
 * Not: locations, URIs or line hashes (location.c), which findings exist (the engine).
 * Threads: main thread; the cJSON tree never leaves gl_sarif_write. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include "base/location.h"
#include "ci/ci.h"
#include "report/report_int.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define TOOL_URI "https://github.com/gpulint/gpulint"

/* The descriptor after the gl_note_kind ones: results or locations left out (GitHub's limits). */
#define NOTE_SARIF_LIMIT (GL_NOTE_SKIPPED + 1)

/* Descriptors of notifications, indexed by gl_note_kind (tool.driver.notifications); GitHub
 * wants shortDescription, fullDescription and help on every descriptor. */
static const struct {
  const char *id, *text, *help;
} note_kinds[] = {
    [GL_NOTE_SYNTAX_ERROR] = {"syntax-error", "The file has a syntax error.",
                              "gpulint linted the tree that tree-sitter recovered around the "
                              "error; findings near it may be missing. Fix the syntax error."},
    [GL_NOTE_PARTIAL] = {GL_NOTE_ID_PARTIAL, "The file was linted only in part.",
                         "A limit (query match limit, tree depth) was reached, so some rules did "
                         "not see the whole file. The run counts as incomplete (exit status 2)."},
    [GL_NOTE_SKIPPED] = {GL_NOTE_ID_SKIPPED, "The file was not linted.",
                         "The file could not be read, was larger than the size cap, or took "
                         "longer than the parse time limit. The run counts as incomplete (exit "
                         "status 2)."},
    [NOTE_SARIF_LIMIT] = {"sarif-limit", "Results were left out of this SARIF log.",
                          "GitHub code scanning rejects a run with more than 25,000 results or a "
                          "result with more than 1,000 locations, so gpulint kept the first "
                          "results in output order and left the rest out. Lint fewer files, or "
                          "narrow the rules with --select, to see them all."},
};

typedef gl_vec(const gl_rule *) rule_list;

typedef struct rule_slot {
  uintptr_t key;   /* the rule's address */
  uint32_t index;  /* its ruleIndex */
} rule_slot;

typedef struct sarif_ctx {
  const gl_run *run;
  const char *root;             /* srcroot as an existing path ("/", ".") */
  rule_list rules;              /* tool.driver.rules, in order: ruleIndex = position */
  gl_vec(rule_slot) map;        /* rule address -> ruleIndex, sorted by address */
  const char *category;         /* --sarif-category, or NULL */
  size_t max_results;           /* results kept (GitHub: 25,000 per run) */
  size_t max_related;           /* relatedLocations kept per result (GitHub: 1,000 locations,
                                   the primary location included) */
  size_t written;               /* results added so far */
  size_t dropped_results, dropped_locations;
} sarif_ctx;

static const char *sarif_level(gl_level level) {
  switch (level) {
    case GL_LEVEL_ERROR: return "error";
    case GL_LEVEL_WARNING: return "warning";
    case GL_LEVEL_NOTE: return "note";
    default: return "none";
  }
}

/* GitHub's properties["problem.severity"]: error, warning or recommendation. */
static const char *problem_severity(gl_level level) {
  if (level == GL_LEVEL_ERROR) return "error";
  if (level == GL_LEVEL_WARNING) return "warning";
  return "recommendation";
}

/* ---- cJSON helpers: each returns false / NULL when the tree could not be extended ----------- */

static bool add_text(cJSON *o, const char *key, const char *value) {
  return gl_report__add_text(o, key, value);
}

static bool add_num(cJSON *o, const char *key, uint32_t value) {
  return cJSON_AddNumberToObject(o, key, (double)value) != NULL;
}

static bool add_message(cJSON *o, const char *key, const char *text) {
  cJSON *m = cJSON_AddObjectToObject(o, key);
  return m && add_text(m, "text", text);
}

static cJSON *push_object(cJSON *array) {
  cJSON *item = cJSON_CreateObject();
  if (!item) return NULL;
  if (cJSON_AddItemToArray(array, item)) return item;
  cJSON_Delete(item);
  return NULL;
}

static bool push_text(cJSON *array, const char *value) {
  char *safe = gl_utf8_json_text(value);
  cJSON *s = cJSON_CreateString(safe);
  free(safe);
  if (!s) return false;
  if (cJSON_AddItemToArray(array, s)) return true;
  cJSON_Delete(s);
  return false;
}

/* ---- rules ---------------------------------------------------------------------------------- */

static int cmp_slot(const void *pa, const void *pb) {
  const rule_slot *a = pa, *b = pb;
  return a->key < b->key ? -1 : a->key > b->key;
}

static int cmp_rule_ptr(const void *pa, const void *pb) {
  uintptr_t a = (uintptr_t) * (const gl_rule *const *)pa, b = (uintptr_t) * (const gl_rule *const *)pb;
  return a < b ? -1 : a > b;
}

static int cmp_rule_id(const void *pa, const void *pb) {
  return strcmp((*(const gl_rule *const *)pa)->id, (*(const gl_rule *const *)pb)->id);
}

/* ruleIndex of rule (a binary search in the map), or -1. */
static long rule_index(const sarif_ctx *c, const gl_rule *rule) {
  rule_slot key = {(uintptr_t)rule, 0};
  const rule_slot *s = c->map.len ? bsearch(&key, c->map.data, c->map.len, sizeof key, cmp_slot) : NULL;
  return s ? (long)s->index : -1;
}

/* Appends rules to the driver's list and to the index map (kept sorted). */
static void append_rules(sarif_ctx *c, const gl_rule *const *rules, size_t n) {
  for (size_t i = 0; i < n; i++) {
    rule_slot slot = {(uintptr_t)rules[i], (uint32_t)c->rules.len};
    gl_vec_push(&c->map, slot);
    gl_vec_push(&c->rules, rules[i]);
  }
  if (c->map.len > 1) qsort(c->map.data, c->map.len, sizeof *c->map.data, cmp_slot);
}

/* The distinct rules that results name, sorted by address (for bsearch). */
static rule_list referenced_rules(const gl_run *run) {
  rule_list refs = {0};
  for (size_t i = 0; i < run->files.len; i++) {
    const gl_file_result *f = &run->files.data[i];
    for (size_t j = 0; j < f->findings.len; j++) gl_vec_push(&refs, f->findings.data[j].rule);
  }
  for (size_t i = 0; run->baseline && i < run->baseline->results.len; i++) {
    const gl_baseline_result *b = &run->baseline->results.data[i];
    const gl_rule *r = b->matched ? NULL : gl_rules_find(run->rules, b->rule_id);
    if (r && strcmp(r->id, b->rule_id) == 0) gl_vec_push(&refs, r);
  }
  if (refs.len > 1) qsort(refs.data, refs.len, sizeof *refs.data, cmp_rule_ptr);
  size_t n = 0;
  for (size_t i = 0; i < refs.len; i++)
    if (n == 0 || refs.data[n - 1] != refs.data[i]) refs.data[n++] = refs.data[i];
  refs.len = n;
  return refs;
}

/* Every rule of the ruleset that is enabled or that some result names, in ruleset order, then
 * (sorted by id) any rule a result names that the ruleset lacks. */
static void collect_rules(sarif_ctx *c) {
  rule_list refs = referenced_rules(c->run);
  rule_list keep = {0};
  const gl_ruleset *set = c->run->rules;
  for (size_t i = 0; set && i < set->rules.len; i++) {
    const gl_rule *r = set->rules.data[i];
    bool named = refs.len && bsearch(&r, refs.data, refs.len, sizeof r, cmp_rule_ptr);
    if (r->enabled || named) gl_vec_push(&keep, r);
  }
  append_rules(c, keep.data, keep.len);
  keep.len = 0;
  for (size_t i = 0; i < refs.len; i++)
    if (rule_index(c, refs.data[i]) < 0) gl_vec_push(&keep, refs.data[i]);
  if (keep.len > 1) qsort(keep.data, keep.len, sizeof *keep.data, cmp_rule_id);
  append_rules(c, keep.data, keep.len);
  gl_vec_free(&keep);
  gl_vec_free(&refs);
}

static bool add_rule_properties(cJSON *d, const gl_rule *r) {
  cJSON *p = cJSON_AddObjectToObject(d, "properties");
  if (!p) return false;
  if (r->precision && !add_text(p, "precision", r->precision)) return false;
  if (!cJSON_AddStringToObject(p, "problem.severity", problem_severity(r->level))) return false;
  cJSON *tags = cJSON_AddArrayToObject(p, "tags");
  if (!tags) return false;
  for (size_t i = 0; i < r->ntags; i++)
    if (!push_text(tags, r->tags[i])) return false;
  return true;
}

static bool add_rule(cJSON *rules, const gl_rule *r) {
  const char *shortd = r->short_desc ? r->short_desc : r->name ? r->name : r->id;
  const char *fulld = r->full_desc ? r->full_desc : shortd;
  cJSON *d = push_object(rules);
  if (!d || !add_text(d, "id", r->id)) return false;
  if (r->name && !add_text(d, "name", r->name)) return false;
  if (!add_message(d, "shortDescription", shortd) || !add_message(d, "fullDescription", fulld))
    return false;
  cJSON *help = cJSON_AddObjectToObject(d, "help");
  if (!help || !add_text(help, "text", r->help_text ? r->help_text : fulld)) return false;
  if (r->markdown && !add_text(help, "markdown", r->markdown)) return false;
  cJSON *conf = cJSON_AddObjectToObject(d, "defaultConfiguration");
  if (!conf || !cJSON_AddStringToObject(conf, "level", sarif_level(r->level))) return false;
  return add_rule_properties(d, r);
}

static bool add_tool(cJSON *run, const sarif_ctx *c, const char *version) {
  cJSON *driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "tool"), "driver");
  if (!driver || !cJSON_AddStringToObject(driver, "name", "gpulint") ||
      !add_text(driver, "version", version) || !add_text(driver, "semanticVersion", version) ||
      !cJSON_AddStringToObject(driver, "informationUri", TOOL_URI))
    return false;
  cJSON *rules = cJSON_AddArrayToObject(driver, "rules");
  if (!rules) return false;
  for (size_t i = 0; i < c->rules.len; i++)
    if (!add_rule(rules, c->rules.data[i])) return false;
  cJSON *notes = cJSON_AddArrayToObject(driver, "notifications");
  if (!notes) return false;
  for (size_t i = 0; i < sizeof note_kinds / sizeof note_kinds[0]; i++) {
    cJSON *d = push_object(notes);
    if (!d || !add_text(d, "id", note_kinds[i].id) ||
        !add_message(d, "shortDescription", note_kinds[i].text) ||
        !add_message(d, "fullDescription", note_kinds[i].help) ||
        !add_message(d, "help", note_kinds[i].help))
      return false;
  }
  return true;
}

/* ---- locations, results, notifications ------------------------------------------------------ */

/* loc.physicalLocation = {artifactLocation, region}; region only when line > 0. */
static bool add_physical(cJSON *loc, const char *uri, bool relative, const gl_region *reg) {
  cJSON *phys = loc ? cJSON_AddObjectToObject(loc, "physicalLocation") : NULL;
  cJSON *art = phys ? cJSON_AddObjectToObject(phys, "artifactLocation") : NULL;
  if (!art || !cJSON_AddStringToObject(art, "uri", uri)) return false;
  if (relative && !cJSON_AddStringToObject(art, "uriBaseId", "%SRCROOT%")) return false;
  if (!reg || reg->start_line == 0) return true;
  cJSON *r = cJSON_AddObjectToObject(phys, "region");
  if (!r || !add_num(r, "startLine", reg->start_line)) return false;
  if (reg->start_col && !add_num(r, "startColumn", reg->start_col)) return false;
  if (reg->end_line < reg->start_line) return true; /* a point: start only */
  if (!add_num(r, "endLine", reg->end_line)) return false;
  bool end_ok = reg->end_col && (reg->end_line > reg->start_line || reg->end_col >= reg->start_col);
  return !end_ok || add_num(r, "endColumn", reg->end_col);
}

/* locations: [{physicalLocation}]. */
static bool add_location(cJSON *o, const char *uri, bool relative, const gl_region *reg) {
  cJSON *locs = cJSON_AddArrayToObject(o, "locations");
  return locs && add_physical(push_object(locs), uri, relative, reg);
}

/* relatedLocations: [{id, physicalLocation, message}], ids 1.., only when the finding has some. */
static size_t related_kept(const gl_finding *x, size_t max_related) {
  size_t n = x->nrelated < GL_FINDING_MAX_RELATED ? x->nrelated : GL_FINDING_MAX_RELATED;
  return n < max_related ? n : max_related;
}

static bool add_related(cJSON *o, const gl_finding *x, size_t keep, const char *uri,
                        bool relative) {
  if (!keep) return true;
  cJSON *rel = cJSON_AddArrayToObject(o, "relatedLocations");
  for (size_t i = 0; rel && i < keep; i++) {
    cJSON *loc = push_object(rel);
    if (!loc || !add_num(loc, "id", (uint32_t)i + 1) ||
        !add_physical(loc, uri, relative, &x->related[i]) ||
        !add_message(loc, "message", x->related_msg[i]))
      return false;
  }
  return rel != NULL;
}

static bool add_result(cJSON *results, sarif_ctx *c, const gl_finding *x, const char *uri,
                       bool relative) {
  if (c->written >= c->max_results) {
    c->dropped_results++;
    return true;
  }
  c->written++;
  size_t keep = related_kept(x, c->max_related);
  c->dropped_locations += (size_t)x->nrelated - keep;
  cJSON *o = push_object(results);
  if (!o || !add_text(o, "ruleId", x->rule->id) ||
      !add_num(o, "ruleIndex", (uint32_t)rule_index(c, x->rule)) ||
      !cJSON_AddStringToObject(o, "level", sarif_level(x->level)) || !gl_report__add_rank(o, x) ||
      !add_message(o, "message", x->message) || !add_location(o, uri, relative, &x->region) ||
      !add_related(o, x, keep, uri, relative))
    return false;
  if (x->line_hash) {
    cJSON *fp = cJSON_AddObjectToObject(o, "partialFingerprints");
    if (!fp || !add_text(fp, "primaryLocationLineHash", x->line_hash)) return false;
  }
  if (x->suppressed) {
    cJSON *sup = cJSON_AddArrayToObject(o, "suppressions");
    cJSON *s = sup ? push_object(sup) : NULL;
    if (!s || !cJSON_AddStringToObject(s, "kind", "inSource")) return false;
  }
  if (x->baseline != GL_BASELINE_NONE &&
      !cJSON_AddStringToObject(o, "baselineState", x->baseline == GL_BASELINE_NEW ? "new" : "unchanged"))
    return false;
  return gl_report__add_calibration(o, "properties", x);
}

/* A result of the baseline that no current result matched, as the baseline wrote it, with
 * baselineState "absent"; ruleIndex only when the ruleset still has that rule. */
static bool add_absent(cJSON *results, sarif_ctx *c, const gl_baseline_result *b) {
  if (c->written >= c->max_results) {
    c->dropped_results++;
    return true;
  }
  c->written++;
  const gl_rule *rule = c->run->rules ? gl_rules_find(c->run->rules, b->rule_id) : NULL;
  long index = rule && strcmp(rule->id, b->rule_id) == 0 ? rule_index(c, rule) : -1;
  cJSON *o = push_object(results);
  if (!o || !add_text(o, "ruleId", b->rule_id) || (index >= 0 && !add_num(o, "ruleIndex", (uint32_t)index)) ||
      !add_text(o, "level", b->level) || !add_message(o, "message", b->message))
    return false;
  char *uri = gl_utf8_json_text(b->uri);
  bool ok = add_location(o, uri, b->relative, &b->region);
  free(uri);
  if (!ok) return false;
  if (b->line_hash) {
    cJSON *fp = cJSON_AddObjectToObject(o, "partialFingerprints");
    if (!fp || !add_text(fp, "primaryLocationLineHash", b->line_hash)) return false;
  }
  if (b->suppressed) {
    cJSON *sup = cJSON_AddArrayToObject(o, "suppressions");
    cJSON *s = sup ? push_object(sup) : NULL;
    if (!s || !cJSON_AddStringToObject(s, "kind", "inSource")) return false;
  }
  return cJSON_AddStringToObject(o, "baselineState", "absent") != NULL;
}

static bool add_absent_all(cJSON *results, sarif_ctx *c) {
  const gl_baseline *base = c->run->baseline;
  for (size_t i = 0; base && i < base->results.len; i++)
    if (!base->results.data[i].matched && !add_absent(results, c, &base->results.data[i])) return false;
  return true;
}

static bool add_notification(cJSON *notes, const gl_notification *n, const char *uri,
                             bool relative) {
  gl_region reg;
  memset(&reg, 0, sizeof reg);
  reg.start_line = n->line; /* end_line 0: a point, startLine / startColumn only */
  reg.start_col = n->col;
  size_t kind = (size_t)n->kind < sizeof note_kinds / sizeof note_kinds[0] ? (size_t)n->kind : 0;
  cJSON *o = push_object(notes);
  if (!o || !cJSON_AddStringToObject(o, "level", sarif_level(n->level)) ||
      !add_message(o, "message", n->message) || !add_location(o, uri, relative, &reg))
    return false;
  cJSON *d = cJSON_AddObjectToObject(o, "descriptor");
  return d && cJSON_AddStringToObject(d, "id", note_kinds[kind].id) && add_num(d, "index", (uint32_t)kind);
}

/* Results and notifications of every file, each file's URI computed once. */
static bool add_files(cJSON *results, cJSON *notes, sarif_ctx *c) {
  for (size_t i = 0; i < c->run->files.len; i++) {
    const gl_file_result *f = &c->run->files.data[i];
    if (!f->findings.len && !f->notes.len) continue;
    bool relative;
    char *uri = gl_loc_uri(f->path, c->root, &relative);
    bool ok = true;
    for (size_t j = 0; ok && j < f->findings.len; j++)
      ok = add_result(results, c, &f->findings.data[j], uri, relative);
    for (size_t j = 0; ok && j < f->notes.len; j++)
      ok = add_notification(notes, &f->notes.data[j], uri, relative);
    free(uri);
    if (!ok) return false;
  }
  return true;
}

/* o[key] = {"uri": "file:///dir/"} for an existing directory path. */
static bool add_dir_uri(cJSON *o, const char *key, const char *path) {
  bool relative;
  char *uri = gl_loc_uri(path, NULL, &relative);
  size_t n = strlen(uri);
  char *dir = gl_xasprintf("%s%s", uri, n && uri[n - 1] == '/' ? "" : "/");
  free(uri);
  cJSON *loc = cJSON_AddObjectToObject(o, key);
  bool ok = loc && cJSON_AddStringToObject(loc, "uri", dir);
  free(dir);
  return ok;
}

/* The toolExecutionNotification that says what the limits left out (none when nothing was). */
static bool add_limit_note(cJSON *notes, const sarif_ctx *c) {
  if (!c->dropped_results && !c->dropped_locations) return true;
  char msg[512];
  int n = 0;
  if (c->dropped_results)
    n = snprintf(msg, sizeof msg, "Left out %zu of %zu results: GitHub code scanning accepts "
                 "at most %zu results per run, so the first %zu in output order were kept. ",
                 c->dropped_results, c->written + c->dropped_results, c->max_results, c->written);
  if (c->dropped_locations && n >= 0 && (size_t)n < sizeof msg)
    snprintf(msg + n, sizeof msg - (size_t)n, "Left out %zu related location%s: GitHub accepts at "
             "most %zu locations per result.", c->dropped_locations,
             c->dropped_locations == 1 ? "" : "s", c->max_related + 1);
  size_t len = strlen(msg);
  if (len && msg[len - 1] == ' ') msg[len - 1] = '\0';
  cJSON *o = push_object(notes);
  if (!o || !cJSON_AddStringToObject(o, "level", "warning") || !add_message(o, "message", msg))
    return false;
  cJSON *d = cJSON_AddObjectToObject(o, "descriptor");
  return d && cJSON_AddStringToObject(d, "id", note_kinds[NOTE_SARIF_LIMIT].id) &&
         add_num(d, "index", NOTE_SARIF_LIMIT);
}

/* runs[0].automationDetails.id: the category, with the '/' GitHub's upload action would add. */
static bool add_category(cJSON *run, const char *category) {
  if (!category) return true;
  size_t n = strlen(category);
  char *id = gl_xasprintf("%s%s", category, n && category[n - 1] == '/' ? "" : "/");
  cJSON *details = cJSON_AddObjectToObject(run, "automationDetails");
  bool ok = details && add_text(details, "id", id);
  free(id);
  return ok;
}

static bool build_run(cJSON *run, sarif_ctx *c, const char *version) {
  if (!add_tool(run, c, version) || !add_category(run, c->category)) return false;
  cJSON *inv = push_object(cJSON_AddArrayToObject(run, "invocations"));
  if (!inv || !cJSON_AddBoolToObject(inv, "executionSuccessful", !gl_run_incomplete(c->run)))
    return false;
  /* GitHub needs it (GH1006) to place absolute file: URIs of files outside %SRCROOT%. */
  if (!add_dir_uri(inv, "workingDirectory", ".")) return false;
  cJSON *notes = cJSON_AddArrayToObject(inv, "toolExecutionNotifications");
  if (!notes || !add_dir_uri(cJSON_AddObjectToObject(run, "originalUriBaseIds"), "%SRCROOT%", c->root))
    return false;
  if (!cJSON_AddStringToObject(run, "columnKind", "utf16CodeUnits")) return false;
  cJSON *results = cJSON_AddArrayToObject(run, "results");
  if (!results || !add_files(results, notes, c) || !add_absent_all(results, c) ||
      !add_limit_note(notes, c))
    return false;
  if (cJSON_GetArraySize(notes) == 0) cJSON_DeleteItemFromObjectCaseSensitive(inv, "toolExecutionNotifications");
  if (!c->run->evidence) return true;
  cJSON *props = cJSON_AddObjectToObject(run, "properties");
  return props && gl_report__add_evidence(props, c->run);
}

/* The limits in force: results per run, related locations per result (locations minus one). */
static void limits_of(const gl_report_opts *opts, size_t *max_results, size_t *max_related) {
  size_t locations = opts && opts->max_locations ? opts->max_locations : GL_SARIF_MAX_LOCATIONS;
  *max_results = opts && opts->max_results ? opts->max_results : GL_SARIF_MAX_RESULTS;
  *max_related = locations - 1;
}

size_t gl_report_sarif_dropped(const gl_run *run, const gl_report_opts *opts,
                               size_t *locations_out) {
  size_t max_results, max_related, seen = 0, locations = 0;
  limits_of(opts, &max_results, &max_related);
  for (size_t i = 0; i < run->files.len; i++) {
    const gl_file_result *f = &run->files.data[i];
    for (size_t j = 0; j < f->findings.len; j++, seen++)
      if (seen < max_results)
        locations += (size_t)f->findings.data[j].nrelated - related_kept(&f->findings.data[j], max_related);
  }
  seen += gl_baseline_absent(run->baseline); /* absent results follow; no related locations */
  if (locations_out) *locations_out = locations;
  return seen > max_results ? seen - max_results : 0;
}

int gl_sarif_write(FILE *out, const gl_run *run, const gl_report_opts *opts) {
  /* srcroot "" is "/" (stored without its trailing slash); none means the current directory */
  const char *base = !run->srcroot ? "." : run->srcroot[0] ? run->srcroot : "/";
  sarif_ctx c = {run, base, {0}, {0}, opts->sarif_category, 0, 0, 0, 0, 0};
  limits_of(opts, &c.max_results, &c.max_related);
  collect_rules(&c);
  cJSON *root = cJSON_CreateObject();
  bool ok = root && cJSON_AddStringToObject(root, "$schema", SARIF_SCHEMA) &&
            cJSON_AddStringToObject(root, "version", "2.1.0");
  cJSON *runs = ok ? cJSON_AddArrayToObject(root, "runs") : NULL;
  cJSON *r = runs ? push_object(runs) : NULL;
  ok = r && build_run(r, &c, opts->tool_version ? opts->tool_version : GL_VERSION);
  char *text = ok ? cJSON_PrintBuffered(root, 1 << 16, 1) : NULL;
  cJSON_Delete(root);
  gl_vec_free(&c.rules);
  gl_vec_free(&c.map);
  if (!text) return GL_EIO;
  fputs(text, out);
  fputc('\n', out);
  cJSON_free(text);
  return 0;
}
