/* baseline.c: reading an earlier gpulint SARIF log and matching a run against it (see
 * ci.h).
 * Owns: the shape checks of the log after it read and parsed (jsondoc.c), in the order a
 *       reader needs them (SARIF 2.1.0, one run, tool gpulint, results), each error placed at
 *       file:line:col of the item; the match key and the multiset merge. The cJSON tree never leaves gl_baseline_parse.
 * Not: writing baselineState (src/report/sarif.c), choosing what text formats show.
 * Threads: main thread only. */
#include "ci/ci.h"
#include "ci/ci_int.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsondoc.h"
#include "base/load.h"
#include "base/location.h"
#include "base/utf8.h"

/* ---- the document and positions ------------------------------------------------------------ */

typedef gl_jsondoc doc;

/* An optional string member: NULL when missing, an error when present but not a string. */
static const char *opt_string(doc *d, const cJSON *o, const char *key, size_t n) {
  const cJSON *v = gl_ci__get(o, key);
  if (!v) return NULL;
  if (cJSON_IsString(v)) return v->valuestring;
  gl_jsondoc_fail_item(d, v, "result %zu: '%s' must be a string", n, key);
  return NULL;
}

/* An optional region member: 0 when missing; a positive integer below 2^32 or an error. */
static uint32_t opt_line(doc *d, const cJSON *region, const char *key, size_t n) {
  const cJSON *v = gl_ci__get(region, key);
  if (!v) return 0;
  double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
  if (isfinite(x) && floor(x) == x && x >= 1 && x <= (double)UINT32_MAX) return (uint32_t)x;
  gl_jsondoc_fail_item(d, v, "result %zu: '%s' must be a positive integer", n, key);
  return 0;
}

static bool valid_level(const char *s) {
  return !strcmp(s, "error") || !strcmp(s, "warning") || !strcmp(s, "note") || !strcmp(s, "none");
}

/* Copies one result (n counts from 1) into r; false on a shape error. */
static bool read_result(doc *d, const cJSON *o, size_t n, gl_baseline_result *r) {
  const cJSON *locs = gl_ci__get(o, "locations");
  const cJSON *phys = gl_ci__get(cJSON_IsArray(locs) ? locs->child : NULL, "physicalLocation");
  const cJSON *art = gl_ci__get(phys, "artifactLocation"), *region = gl_ci__get(phys, "region");
  const char *rule = opt_string(d, o, "ruleId", n), *uri = opt_string(d, art, "uri", n);
  if (!d->failed && !rule) gl_jsondoc_fail_item(d, o, "result %zu has no ruleId", n);
  if (!d->failed && !uri) gl_jsondoc_fail_item(d, o, "result %zu has no locations[0].physicalLocation.artifactLocation.uri", n);
  const char *base = opt_string(d, art, "uriBaseId", n);
  const char *hash = opt_string(d, gl_ci__get(o, "partialFingerprints"), "primaryLocationLineHash", n);
  const char *msg = opt_string(d, gl_ci__get(o, "message"), "text", n);
  const char *level = opt_string(d, o, "level", n);
  if (!d->failed && level && !valid_level(level)) gl_jsondoc_fail_item(d, gl_ci__get(o, "level"), "result %zu: unknown level", n);
  r->region.start_line = opt_line(d, region, "startLine", n);
  r->region.start_col = opt_line(d, region, "startColumn", n);
  r->region.end_line = opt_line(d, region, "endLine", n);
  r->region.end_col = opt_line(d, region, "endColumn", n);
  if (d->failed) return false;
  r->rule_id = gl_xstrdup(rule);
  r->uri = gl_xstrdup(uri);
  r->relative = base && strcmp(base, "%SRCROOT%") == 0;
  r->line_hash = hash ? gl_xstrdup(hash) : NULL;
  r->message = gl_xstrdup(msg ? msg : "");
  r->level = gl_xstrdup(level ? level : "warning");
  const cJSON *sup = gl_ci__get(o, "suppressions");
  r->suppressed = cJSON_IsArray(sup) && cJSON_GetArraySize(sup) > 0;
  return true;
}

static void read_results(doc *d, const cJSON *run, gl_baseline *b) {
  const cJSON *results = gl_ci__get(run, "results");
  if (!cJSON_IsArray(results)) {
    gl_jsondoc_fail_item(d, results ? results : run, "runs[0].results must be an array");
    return;
  }
  size_t n = 0;
  for (const cJSON *o = results->child; o && !d->failed; o = o->next) {
    n++;
    if (!cJSON_IsObject(o)) {
      gl_jsondoc_fail_item(d, o, "result %zu must be an object", n);
      return;
    }
    /* results the old log already called absent were gone then; they are not findings */
    const cJSON *state = gl_ci__get(o, "baselineState");
    if (cJSON_IsString(state) && strcmp(state->valuestring, "absent") == 0) continue;
    gl_baseline_result r;
    memset(&r, 0, sizeof r);
    if (read_result(d, o, n, &r)) gl_vec_push(&b->results, r);
  }
}

/* Reads path (bytes == NULL) or bytes, then reads the results. */
static gl_baseline *load(const char *path, const char *bytes, size_t len, gl_diag *err) {
  doc d;
  gl_baseline *b = gl_xcalloc(1, sizeof *b);
  b->path = gl_xstrdup(path);
  if (gl_jsondoc_open(&d, path, bytes, len, GL_BASELINE_MAX_BYTES, "baseline", err)) {
    const cJSON *run = gl_ci__sarif_run(&d);
    if (run) read_results(&d, run, b);
  }
  bool failed = d.failed;
  gl_jsondoc_close(&d);
  if (!failed) return b;
  gl_baseline_free(b);
  return NULL;
}

gl_baseline *gl_baseline_parse(const char *path, const char *bytes, size_t len, gl_diag *err) {
  return load(path, bytes ? bytes : "", bytes ? len : 0, err);
}

/* gl_load_file rewrites lone CRs to LF: harmless json whitespace, and positions stay right. */
gl_baseline *gl_baseline_load(const char *path, gl_diag *err) { return load(path, NULL, 0, err); }

/* ---- matching -------------------------------------------------------------------------------- */

/* One side of the merge: a current finding (f) or a baseline result (b). */
typedef struct entry {
  const char *rule, *hash, *uri;
  bool relative;
  uint32_t line;       /* the key's fallback when there is no line hash */
  size_t order;        /* output order (current) or log order (baseline) */
  gl_finding *f;
  gl_baseline_result *b;
} entry;

static int cmp_key(const entry *a, const entry *b) {
  int c = strcmp(a->rule, b->rule);
  if (c) return c;
  if (!a->hash != !b->hash) return a->hash ? 1 : -1;
  if (a->hash && (c = strcmp(a->hash, b->hash))) return c;
  if (!a->hash && a->line != b->line) return a->line < b->line ? -1 : 1;
  if (a->relative != b->relative) return a->relative ? 1 : -1;
  return strcmp(a->uri, b->uri);
}

static int cmp_entry(const void *pa, const void *pb) {
  const entry *a = pa, *b = pb;
  int c = cmp_key(a, b);
  if (c) return c;
  return a->order < b->order ? -1 : a->order > b->order;
}

typedef gl_vec(entry) entry_list;
typedef gl_vec(char *) uri_list;

/* The current findings as entries; each file's URI (owned) is pushed onto uris. */
static void current_entries(gl_run *run, entry_list *out, uri_list *uris) {
  /* srcroot "" is "/"; none means the current directory, as the SARIF writer has it */
  const char *root = !run->srcroot ? "." : run->srcroot[0] ? run->srcroot : "/";
  size_t order = 0;
  for (size_t i = 0; i < run->files.len; i++) {
    gl_file_result *f = &run->files.data[i];
    if (!f->findings.len) continue;
    bool relative;
    char *uri = gl_loc_uri(f->path, root, &relative);
    gl_vec_push(uris, uri);
    for (size_t j = 0; j < f->findings.len; j++) {
      gl_finding *x = &f->findings.data[j];
      entry e = {x->rule->id, x->line_hash, uri, relative, x->region.start_line, order++, x, NULL};
      gl_vec_push(out, e);
    }
  }
}

static void baseline_entries(gl_baseline *base, entry_list *out) {
  for (size_t i = 0; i < base->results.len; i++) {
    gl_baseline_result *r = &base->results.data[i];
    r->matched = false;
    entry e = {r->rule_id, r->line_hash, r->uri, r->relative, r->region.start_line, i, NULL, r};
    gl_vec_push(out, e);
  }
}

/* Both lists sorted by (key, order): equal keys pair up in order, first with first. */
static void merge(entry_list *cur, entry_list *old) {
  size_t j = 0;
  for (size_t i = 0; i < cur->len; i++) {
    entry *c = &cur->data[i];
    while (j < old->len && cmp_key(&old->data[j], c) < 0) j++;
    if (j < old->len && cmp_key(&old->data[j], c) == 0) {
      c->f->baseline = GL_BASELINE_UNCHANGED;
      old->data[j++].b->matched = true;
    } else {
      c->f->baseline = GL_BASELINE_NEW;
    }
  }
}

void gl_baseline_apply(gl_baseline *base, gl_run *run) {
  entry_list cur = {0}, old = {0};
  uri_list uris = {0};
  current_entries(run, &cur, &uris);
  baseline_entries(base, &old);
  if (cur.len > 1) qsort(cur.data, cur.len, sizeof *cur.data, cmp_entry);
  if (old.len > 1) qsort(old.data, old.len, sizeof *old.data, cmp_entry);
  merge(&cur, &old);
  for (size_t i = 0; i < uris.len; i++) free(uris.data[i]);
  gl_vec_free(&uris);
  gl_vec_free(&cur);
  gl_vec_free(&old);
  run->baseline = base;
}

size_t gl_baseline_absent(const gl_baseline *base) {
  size_t n = 0;
  for (size_t i = 0; base && i < base->results.len; i++) n += !base->results.data[i].matched;
  return n;
}

void gl_baseline_free(gl_baseline *base) {
  if (!base) return;
  for (size_t i = 0; i < base->results.len; i++) {
    gl_baseline_result *r = &base->results.data[i];
    free(r->rule_id);
    free(r->line_hash);
    free(r->uri);
    free(r->message);
    free(r->level);
  }
  gl_vec_free(&base->results);
  free(base->path);
  free(base);
}
