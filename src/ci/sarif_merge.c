/* sarif_merge.c: `gpulint merge`, the shards' SARIF logs as one run (see ci.h).
 * Owns: the shape checks a merge needs (placed at file:line:col through jsondoc.h), the rule
 *       order merge, the file order of results and notifications, and the limit notification.
 *       The merged tree starts as a copy of the first log, so members keep the writer's order.
 * Not: the SARIF writer (src/report/sarif.c; its limit text is repeated here word for word),
 *      writing files (main.c). Threads: main thread; every cJSON tree dies in gl_sarif_merge. */
#include "ci/ci.h"
#include "ci/ci_int.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsondoc.h"
#include "base/location.h"
#include "base/utf8.h"
#include "base/vec.h"
#include "base/xalloc.h"

typedef gl_jsondoc doc;

/* A result or notification of one log: where it comes from and the file it is about. */
typedef struct item_ref {
  const cJSON *item; /* borrowed from its document */
  char *key;         /* owned: its file's URI, percent-decoded ("" without a location) */
  size_t doc, seq;   /* the log (0..n-1) and the item's position in it */
} item_ref;

typedef gl_vec(item_ref) ref_list;

typedef struct merge_ctx {
  doc *docs;
  size_t n;
  gl_vec(const cJSON *) rules;      /* merged tool.driver.rules, borrowed; ruleIndex = position */
  ref_list results, absent, notes;
  bool success;                     /* every invocation's executionSuccessful */
  size_t dropped, locations;        /* what the shards' own limit notes left out */
} merge_ctx;

/* ---- reading -------------------------------------------------------------------------------- */


static const char *str(const cJSON *o, const char *key) {
  const cJSON *v = gl_ci__get(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static cJSON *run_of(const doc *d) { return gl_ci__get(d->root, "runs")->child; }

static cJSON *driver_of(const doc *d) { return gl_ci__get(gl_ci__get(run_of(d), "tool"), "driver"); }

/* Checks d is a SARIF 2.1.0 log of one gpulint run with rules and results arrays. */
static bool check_shape(doc *d) {
  const cJSON *run = gl_ci__sarif_run(d);
  if (!run) return false;
  const cJSON *driver = driver_of(d);
  if (!str(driver, "version"))
    gl_jsondoc_fail_item(d, driver, "runs[0].tool.driver.version must be a string");
  else if (!cJSON_IsArray(gl_ci__get(driver, "rules")))
    gl_jsondoc_fail_item(d, driver, "runs[0].tool.driver.rules must be an array");
  else if (!cJSON_IsArray(gl_ci__get(run, "results")))
    gl_jsondoc_fail_item(d, run, "runs[0].results must be an array");
  return !d->failed;
}

/* The text shown for an optional string in a mismatch error. */
static void shown(const char *s, char *buf, size_t size) {
  char *safe = s ? gl_utf8_safe_text(s, strlen(s)) : NULL;
  snprintf(buf, size, s ? "'%.100s'" : "%s", s ? safe : "none");
  free(safe);
}

/* Checks log k belongs with log 0: gpulint version, category, run properties. */
static bool check_same(merge_ctx *c, size_t k) {
  doc *d = &c->docs[k];
  const char *first = c->docs[0].src.path;
  const cJSON *v0 = gl_ci__get(driver_of(&c->docs[0]), "version"), *v = gl_ci__get(driver_of(d), "version");
  char a[128], b[128];
  if (strcmp(v0->valuestring, v->valuestring) != 0) {
    shown(v->valuestring, a, sizeof a);
    shown(v0->valuestring, b, sizeof b);
    gl_jsondoc_fail_item(d, v, "gpulint version %s differs from %s in %s", a, b, first);
    return false;
  }
  const cJSON *r0 = run_of(&c->docs[0]), *r = run_of(d);
  const char *cat0 = str(gl_ci__get(r0, "automationDetails"), "id"), *cat = str(gl_ci__get(r, "automationDetails"), "id");
  if ((cat0 || cat) && (!cat0 || !cat || strcmp(cat0, cat) != 0)) {
    shown(cat, a, sizeof a);
    shown(cat0, b, sizeof b);
    const cJSON *at = gl_ci__get(r, "automationDetails");
    gl_jsondoc_fail_item(d, at ? at : r, "category %s differs from %s in %s", a, b, first);
    return false;
  }
  const cJSON *p0 = gl_ci__get(r0, "properties"), *p = gl_ci__get(r, "properties");
  if (!p0 != !p || (p && !cJSON_Compare(p0, p, 1))) {
    gl_jsondoc_fail_item(d, p ? p : r, "run properties (evidence) differ from %s's", first);
    return false;
  }
  return true;
}

/* ---- rules ---------------------------------------------------------------------------------- */

static long find_rule(const merge_ctx *c, const char *id) {
  for (size_t i = 0; i < c->rules.len; i++)
    if (strcmp(str(c->rules.data[i], "id"), id) == 0) return (long)i;
  return -1;
}

/* Adds log k's rules that are new, each right after the rule that precedes it in log k, so
 * shards that list subsequences of one ruleset give back the ruleset's order. */
static bool merge_rules(merge_ctx *c, size_t k) {
  doc *d = &c->docs[k];
  size_t at = 0; /* where the next new rule goes */
  size_t n = 0;
  for (const cJSON *r = gl_ci__get(driver_of(d), "rules")->child; r; r = r->next) {
    n++;
    if (!str(r, "id")) {
      gl_jsondoc_fail_item(d, r, "rule %zu has no id", n);
      return false;
    }
    long pos = find_rule(c, str(r, "id"));
    if (pos >= 0) {
      at = (size_t)pos + 1;
      continue;
    }
    gl_vec_push(&c->rules, r);
    memmove(&c->rules.data[at + 1], &c->rules.data[at], (c->rules.len - 1 - at) * sizeof *c->rules.data);
    c->rules.data[at++] = r;
  }
  return true;
}

/* ---- results and notifications -------------------------------------------------------------- */

static int hexval(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

/* The percent-decoded URI of o's first location, the key files are ordered by. */
static char *file_key(const cJSON *o) {
  const cJSON *locs = gl_ci__get(o, "locations");
  const char *uri = str(gl_ci__get(gl_ci__get(cJSON_IsArray(locs) ? locs->child : NULL, "physicalLocation"),
                            "artifactLocation"), "uri");
  char *key = gl_xstrdup(uri ? uri : "");
  size_t out = 0;
  for (size_t i = 0; key[i]; i++) {
    int hi = key[i] == '%' ? hexval(key[i + 1]) : -1, lo = hi >= 0 ? hexval(key[i + 2]) : -1;
    if (lo >= 0 && (hi || lo)) {
      key[out++] = (char)(hi * 16 + lo);
      i += 2;
    } else {
      key[out++] = key[i];
    }
  }
  key[out] = '\0';
  return key;
}

static void push_ref(ref_list *list, const cJSON *o, size_t k, size_t seq) {
  item_ref ref = {o, file_key(o), k, seq};
  gl_vec_push(list, ref);
}

static bool collect_results(merge_ctx *c, size_t k) {
  doc *d = &c->docs[k];
  size_t n = 0;
  for (const cJSON *o = gl_ci__get(run_of(d), "results")->child; o; o = o->next) {
    n++;
    if (!str(o, "ruleId")) {
      gl_jsondoc_fail_item(d, o, "result %zu has no ruleId", n);
      return false;
    }
    const cJSON *index = gl_ci__get(o, "ruleIndex");
    if (index && !cJSON_IsNumber(index)) {
      gl_jsondoc_fail_item(d, index, "result %zu: 'ruleIndex' must be a number", n);
      return false;
    }
    const char *state = str(o, "baselineState");
    push_ref(state && strcmp(state, "absent") == 0 ? &c->absent : &c->results, o, k, n);
  }
  return true;
}

/* What a shard's own "sarif-limit" notification says it left out. */
static void read_limit_note(merge_ctx *c, const cJSON *note) {
  const char *text = str(gl_ci__get(note, "message"), "text");
  for (const char *p = text ? strstr(text, "Left out ") : NULL; p; p = strstr(p + 1, "Left out ")) {
    size_t a = 0, b = 0;
    char word[16] = "";
    if (sscanf(p, "Left out %zu of %zu results", &a, &b) == 2) c->dropped += a;
    else if (sscanf(p, "Left out %zu related %15s", &a, word) == 2) c->locations += a;
  }
}

static bool collect_notes(merge_ctx *c, size_t k) {
  doc *d = &c->docs[k];
  const cJSON *inv = gl_ci__get(run_of(d), "invocations");
  inv = cJSON_IsArray(inv) ? inv->child : NULL;
  const cJSON *ok = gl_ci__get(inv, "executionSuccessful");
  if (cJSON_IsFalse(ok)) c->success = false;
  const cJSON *notes = gl_ci__get(inv, "toolExecutionNotifications");
  if (notes && !cJSON_IsArray(notes)) {
    gl_jsondoc_fail_item(d, notes, "toolExecutionNotifications must be an array");
    return false;
  }
  size_t n = 0;
  for (const cJSON *o = notes ? notes->child : NULL; o; o = o->next) {
    const char *id = str(gl_ci__get(o, "descriptor"), "id");
    if (id && strcmp(id, "sarif-limit") == 0) read_limit_note(c, o);
    else push_ref(&c->notes, o, k, ++n);
  }
  return true;
}

static int cmp_ref(const void *pa, const void *pb) {
  const item_ref *a = pa, *b = pb;
  int r = strcmp(a->key, b->key);
  if (r) return r;
  if (a->doc != b->doc) return a->doc < b->doc ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void sort_refs(ref_list *list) {
  if (list->len > 1) qsort(list->data, list->len, sizeof *list->data, cmp_ref);
}

static void free_refs(ref_list *list) {
  for (size_t i = 0; i < list->len; i++) free(list->data[i].key);
  gl_vec_free(list);
}

/* ---- the merged tree ------------------------------------------------------------------------ */

/* A copy of a result with its ruleIndex pointing into the merged rules (dropped when the
 * merged rules lack its rule, as the writer leaves it out then). */
static cJSON *copy_result(const merge_ctx *c, const cJSON *o) {
  cJSON *copy = cJSON_Duplicate(o, 1);
  cJSON *index = gl_ci__get(copy, "ruleIndex");
  if (!copy || !index) return copy;
  long pos = find_rule(c, str(copy, "ruleId"));
  if (pos < 0) cJSON_DeleteItemFromObjectCaseSensitive(copy, "ruleIndex");
  else cJSON_SetNumberHelper(index, (double)pos);
  return copy;
}

static bool push_copy(cJSON *array, cJSON *copy) {
  if (copy && cJSON_AddItemToArray(array, copy)) return true;
  cJSON_Delete(copy);
  return false;
}

/* Sets o[key] = item in place of the old member (kept where it was), or appends it. */
static bool set_member(cJSON *o, const char *key, cJSON *item) {
  if (!item) return false;
  if (gl_ci__get(o, key)) return cJSON_ReplaceItemInObjectCaseSensitive(o, key, item);
  if (cJSON_AddItemToObject(o, key, item)) return true;
  cJSON_Delete(item);
  return false;
}

static cJSON *rules_array(const merge_ctx *c) {
  cJSON *rules = cJSON_CreateArray();
  for (size_t i = 0; rules && i < c->rules.len; i++)
    if (!push_copy(rules, cJSON_Duplicate(c->rules.data[i], 1))) {
      cJSON_Delete(rules);
      return NULL;
    }
  return rules;
}

/* The results, current ones then absent ones, the first max kept; *dropped counts the rest. */
static cJSON *results_array(const merge_ctx *c, size_t max, size_t *dropped) {
  cJSON *results = cJSON_CreateArray();
  size_t written = 0;
  const ref_list *lists[] = {&c->results, &c->absent};
  for (size_t l = 0; results && l < 2; l++) {
    for (size_t i = 0; i < lists[l]->len; i++) {
      if (written >= max) {
        ++*dropped;
        continue;
      }
      written++;
      if (!push_copy(results, copy_result(c, lists[l]->data[i].item))) {
        cJSON_Delete(results);
        return NULL;
      }
    }
  }
  return results;
}

/* The writer's "sarif-limit" notification, word for word (src/report/sarif.c add_limit_note). */
static bool add_limit_note(cJSON *notes, size_t written, size_t dropped, size_t locations) {
  if (!dropped && !locations) return true;
  char msg[512];
  int n = 0;
  if (dropped)
    n = snprintf(msg, sizeof msg, "Left out %zu of %zu results: GitHub code scanning accepts "
                 "at most %d results per run, so the first %zu in output order were kept. ",
                 dropped, written + dropped, GL_SARIF_MAX_RESULTS, written);
  if (locations && n >= 0 && (size_t)n < sizeof msg)
    snprintf(msg + n, sizeof msg - (size_t)n, "Left out %zu related location%s: GitHub accepts at "
             "most %d locations per result.", locations, locations == 1 ? "" : "s",
             GL_SARIF_MAX_LOCATIONS);
  size_t len = strlen(msg);
  if (len && msg[len - 1] == ' ') msg[len - 1] = '\0';
  cJSON *o = cJSON_CreateObject();
  if (!push_copy(notes, o) || !cJSON_AddStringToObject(o, "level", "warning")) return false;
  cJSON *m = cJSON_AddObjectToObject(o, "message");
  cJSON *d = cJSON_AddObjectToObject(o, "descriptor");
  return m && cJSON_AddStringToObject(m, "text", msg) && d &&
         cJSON_AddStringToObject(d, "id", "sarif-limit") &&
         cJSON_AddNumberToObject(d, "index", GL_NOTE_SKIPPED + 1) != NULL; /* as the writer's */
}

/* invocations[0]: executionSuccessful of all, toolExecutionNotifications after
 * workingDirectory (left out when there are none, as the writer does). */
static bool set_invocation(cJSON *run, const merge_ctx *c, size_t written, size_t dropped) {
  cJSON *invs = gl_ci__get(run, "invocations");
  cJSON *inv = cJSON_IsArray(invs) ? invs->child : NULL;
  if (!inv) return true;
  if (!set_member(inv, "executionSuccessful", cJSON_CreateBool(c->success))) return false;
  cJSON *notes = cJSON_CreateArray();
  bool ok = notes != NULL;
  for (size_t i = 0; ok && i < c->notes.len; i++) ok = push_copy(notes, cJSON_Duplicate(c->notes.data[i].item, 1));
  ok = ok && add_limit_note(notes, written, dropped, c->locations);
  if (!ok || cJSON_GetArraySize(notes) == 0) {
    cJSON_Delete(notes);
    cJSON_DeleteItemFromObjectCaseSensitive(inv, "toolExecutionNotifications");
    return ok;
  }
  if (gl_ci__get(inv, "toolExecutionNotifications")) return set_member(inv, "toolExecutionNotifications", notes);
  /* insert after workingDirectory: give the array its key, then place it */
  cJSON *holder = cJSON_CreateObject();
  ok = holder && cJSON_AddItemToObject(holder, "toolExecutionNotifications", notes);
  if (!ok) cJSON_Delete(notes);
  else cJSON_DetachItemViaPointer(holder, notes);
  cJSON_Delete(holder);
  int at = 0;
  for (const cJSON *m = inv->child; m && strcmp(m->string, "workingDirectory") != 0; m = m->next) at++;
  if (ok && !cJSON_InsertItemInArray(inv, at + (at < cJSON_GetArraySize(inv)), notes)) {
    cJSON_Delete(notes);
    return false;
  }
  return ok;
}

/* Members of log k's object key that run's lacks (originalUriBaseIds), first one wins. */
static bool unite_object(cJSON *run, const doc *d, const char *key) {
  const cJSON *from = gl_ci__get(run_of(d), key);
  if (!cJSON_IsObject(from)) return true;
  cJSON *to = gl_ci__get(run, key);
  if (!to && !set_member(run, key, to = cJSON_CreateObject())) return false;
  for (const cJSON *m = from->child; m; m = m->next) {
    if (gl_ci__get(to, m->string)) continue;
    cJSON *copy = cJSON_Duplicate(m, 1);
    if (!copy || !cJSON_AddItemToObject(to, m->string, copy)) {
      cJSON_Delete(copy);
      return false;
    }
  }
  return true;
}

/* artifacts: every log's, an artifact whose location equals an earlier one's left out. */
static bool unite_artifacts(cJSON *run, const merge_ctx *c) {
  cJSON *all = NULL;
  for (size_t k = 0; k < c->n; k++) {
    const cJSON *arts = gl_ci__get(run_of(&c->docs[k]), "artifacts");
    if (!cJSON_IsArray(arts)) continue;
    if (!all && !(all = cJSON_CreateArray())) return false;
    for (const cJSON *a = arts->child; a; a = a->next) {
      bool seen = false;
      for (const cJSON *b = all->child; b && !seen; b = b->next)
        seen = cJSON_Compare(gl_ci__get(a, "location"), gl_ci__get(b, "location"), 1);
      if (!seen && !push_copy(all, cJSON_Duplicate(a, 1))) {
        cJSON_Delete(all);
        return false;
      }
    }
  }
  return !all || set_member(run, "artifacts", all);
}

/* Builds the merged log from a copy of log 0 and prints it. */
static char *build(merge_ctx *c, size_t *dropped_out) {
  cJSON *root = cJSON_Duplicate(c->docs[0].root, 1);
  cJSON *run = root ? gl_ci__get(root, "runs")->child : NULL;
  cJSON *driver = gl_ci__get(gl_ci__get(run, "tool"), "driver");
  size_t dropped = 0;
  cJSON *results = driver ? results_array(c, GL_SARIF_MAX_RESULTS, &dropped) : NULL;
  size_t written = (size_t)cJSON_GetArraySize(results);
  dropped += c->dropped;
  bool ok = set_member(driver, "rules", rules_array(c)) && set_member(run, "results", results) &&
            set_invocation(run, c, written, dropped) && unite_artifacts(run, c);
  if (!results) ok = false;
  for (size_t k = 1; ok && k < c->n; k++) ok = unite_object(run, &c->docs[k], "originalUriBaseIds");
  char *text = ok ? cJSON_PrintBuffered(root, 1 << 16, 1) : NULL;
  cJSON_Delete(root);
  if (!text) return NULL;
  char *out = gl_xasprintf("%s\n", text);
  cJSON_free(text);
  *dropped_out = dropped;
  return out;
}

static bool read_log(merge_ctx *c, size_t k, const char *path, gl_diag *err) {
  doc *d = &c->docs[k];
  if (!gl_jsondoc_open(d, path, NULL, 0, GL_BASELINE_MAX_BYTES, "SARIF log", err)) return false;
  return check_shape(d) && (k == 0 || check_same(c, k)) && merge_rules(c, k) &&
         collect_results(c, k) && collect_notes(c, k);
}

char *gl_sarif_merge(const char *const *paths, size_t n, size_t *dropped_out, gl_diag *err) {
  merge_ctx c;
  memset(&c, 0, sizeof c);
  c.docs = gl_xcalloc(n ? n : 1, sizeof *c.docs);
  c.n = n;
  c.success = true;
  size_t opened = 0;
  bool ok = n > 0;
  if (!ok) gl_diag_set(err, NULL, 0, 0, "no SARIF log to merge");
  for (; ok && opened < n; opened++) ok = read_log(&c, opened, paths[opened], err);
  char *text = NULL;
  if (ok) {
    sort_refs(&c.results);
    sort_refs(&c.absent);
    sort_refs(&c.notes);
    text = build(&c, dropped_out);
    if (!text) gl_diag_set(err, paths[0], 0, 0, "cannot build the merged log");
  }
  for (size_t k = 0; k < n; k++) gl_jsondoc_close(&c.docs[k]); /* unopened ones are zeroed */
  free(c.docs);
  gl_vec_free(&c.rules);
  free_refs(&c.results);
  free_refs(&c.absent);
  free_refs(&c.notes);
  return text;
}
