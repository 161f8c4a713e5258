/* evidence.c: loading and validating a probe's evidence file (see evidence.h).
 * Owns: the checks after the file read and parsed (jsondoc.c: readable, no NUL, json), in the
 *       order a reader needs them: schema, version, duplicates and non-finite numbers anywhere,
 *       top-level keys, device, metrics; each error at the item's position in the text.
 * Not: the meaning of metrics (calibrate.c). The cJSON tree never leaves gl_evidence_parse.
 * Threads: stateless; the result is read-only once returned. */
#include "evidence/evidence.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsondoc.h"
#include "base/load.h"

static const struct {
  const char *name;
  double cap;
} units[] = {
    [GL_UNIT_US] = {"us", 1e7},          [GL_UNIT_MS] = {"ms", 1e6},
    [GL_UNIT_GBPS] = {"GB/s", 1e5},      [GL_UNIT_TFLOPS] = {"TFLOP/s", 1e5},
    [GL_UNIT_RATIO] = {"ratio", 1e3},    [GL_UNIT_X] = {"x", 1e6},
};
#define NUNITS (sizeof units / sizeof units[0])

const char *gl_unit_name(gl_unit unit) { return (size_t)unit < NUNITS ? units[unit].name : "?"; }
double gl_unit_cap(gl_unit unit) { return (size_t)unit < NUNITS ? units[unit].cap : 0; }
bool gl_unit_is_time(gl_unit unit) { return unit == GL_UNIT_US || unit == GL_UNIT_MS; }

/* ---- the document and positions ------------------------------------------------------------ */

static const gl_jsonpos *pos_of(const gl_jsondoc *d, const cJSON *it) { return gl_jsondoc_pos(d, it); }

static size_t val_off(const gl_jsondoc *d, const cJSON *it) { return gl_jsondoc_val_off(d, it); }

/* The member's key, else its value. */
static size_t key_off(const gl_jsondoc *d, const cJSON *it) {
  const gl_jsonpos *p = pos_of(d, it);
  return p && p->key_off != GL_JSONSCAN_NONE ? p->key_off : val_off(d, it);
}

/* ---- syntax, schema, version, duplicates, numbers ------------------------------------------ */

static void check_schema(gl_jsondoc *d) {
  const cJSON *schema = cJSON_GetObjectItemCaseSensitive(d->root, "schema");
  if (!cJSON_IsObject(d->root) || !cJSON_IsString(schema) || strcmp(schema->valuestring, GL_EVIDENCE_SCHEMA) != 0) {
    gl_jsondoc_fail(d, schema ? val_off(d, schema) : d->start, "not a gpulint evidence file");
    return;
  }
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(d->root, "version");
  if (!v) {
    gl_jsondoc_fail(d, d->start, "missing key 'version'");
    return;
  }
  double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
  if (!(isfinite(x) && floor(x) == x && x >= 1))
    gl_jsondoc_fail(d, val_off(d, v), "'version' must be an integer >= 1");
  else if (x > GL_EVIDENCE_VERSION)
    gl_jsondoc_fail(d, val_off(d, v), "evidence version %.0f is newer than this gpulint reads (%d)", x,
            GL_EVIDENCE_VERSION);
}

typedef struct { const cJSON *item; size_t off; } member;

static int cmp_member(const void *pa, const void *pb) {
  const member *a = pa, *b = pb;
  int c = strcmp(a->item->string, b->item->string);
  return c ? c : a->off < b->off ? -1 : a->off > b->off;
}

/* Offset of the earliest key of obj that repeats an earlier key, or GL_JSONSCAN_NONE. */
static size_t first_duplicate(const gl_jsondoc *d, const cJSON *obj, const cJSON **dup) {
  gl_vec(member) m = {0};
  for (const cJSON *it = obj->child; it; it = it->next) {
    member x = {it, key_off(d, it)};
    gl_vec_push(&m, x);
  }
  if (m.len > 1) qsort(m.data, m.len, sizeof *m.data, cmp_member);
  size_t best = GL_JSONSCAN_NONE;
  for (size_t i = 1; i < m.len; i++)
    if (strcmp(m.data[i].item->string, m.data[i - 1].item->string) == 0 && m.data[i].off < best) {
      best = m.data[i].off;
      *dup = m.data[i].item;
    }
  gl_vec_free(&m);
  return best;
}

/* The first (in the text) duplicate key or non-finite number anywhere in the document. */
static void check_items(gl_jsondoc *d) {
  size_t best = GL_JSONSCAN_NONE;
  const cJSON *dup = NULL, *bad = NULL;
  for (size_t i = 0; i < d->ix.map.len; i++) {
    const cJSON *it = d->ix.map.data[i].item;
    if (cJSON_IsNumber(it) && !isfinite(it->valuedouble) && val_off(d, it) < best) {
      best = val_off(d, it);
      bad = it, dup = NULL;
    }
    const cJSON *x = NULL;
    size_t off = cJSON_IsObject(it) ? first_duplicate(d, it, &x) : GL_JSONSCAN_NONE;
    if (off < best) best = off, dup = x, bad = NULL;
  }
  if (dup) gl_jsondoc_fail(d, best, "duplicate key '%s'", dup->string);
  if (bad) gl_jsondoc_fail(d, best, "number out of range: not finite");
}

/* ---- structure ------------------------------------------------------------------------------ */

static const char *const top_keys[] = {"schema", "version", "probe", "device", "metrics"};

static void check_top(gl_jsondoc *d) {
  for (const cJSON *it = d->root->child; it; it = it->next) {
    size_t i = 0;
    while (i < 5 && strcmp(top_keys[i], it->string) != 0) i++;
    if (i == 5) gl_jsondoc_fail(d, key_off(d, it), "unknown key '%s'", it->string);
  }
  for (size_t i = 2; i < 5; i++)
    if (!cJSON_GetObjectItemCaseSensitive(d->root, top_keys[i]))
      gl_jsondoc_fail(d, val_off(d, d->root), "missing key '%s'", top_keys[i]);
  const cJSON *probe = cJSON_GetObjectItemCaseSensitive(d->root, "probe");
  const cJSON *device = cJSON_GetObjectItemCaseSensitive(d->root, "device");
  const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(d->root, "metrics");
  if (probe && !cJSON_IsObject(probe)) gl_jsondoc_fail(d, val_off(d, probe), "'probe' must be an object");
  if (device && !cJSON_IsObject(device)) gl_jsondoc_fail(d, val_off(d, device), "'device' must be an object");
  if (metrics && !(cJSON_IsObject(metrics) && metrics->child))
    gl_jsondoc_fail(d, val_off(d, metrics), "'metrics' must be a non-empty object");
  if (d->failed) return;
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(device, "name");
  if (!name)
    gl_jsondoc_fail(d, val_off(d, device), "missing key 'device.name'");
  else if (!cJSON_IsString(name) || !name->valuestring[0])
    gl_jsondoc_fail(d, val_off(d, name), "'device.name' must be a non-empty string");
}

/* ---- metrics ------------------------------------------------------------------------------- */

static const char *const metric_keys[] = {"unit", "median", "p10", "p90", "samples", "what"};
#define NMETRIC_KEYS 6
#define NREQUIRED_METRIC_KEYS 5

bool gl_evidence_metric_name_ok(const char *s) {
  if (!*s) return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
      return false;
  return true;
}

static int unit_of(const char *s) {
  for (size_t i = 0; i < NUNITS; i++)
    if (strcmp(units[i].name, s) == 0) return (int)i;
  return -1;
}

/* median / p10 / p90: a number > 0 and at most the unit's cap. */
static void check_value(gl_jsondoc *d, const cJSON *m, const char *field, gl_unit unit) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, field);
  if (!cJSON_IsNumber(v))
    gl_jsondoc_fail(d, val_off(d, v), "metric '%s': '%s' must be a number", m->string, field);
  else if (!(v->valuedouble > 0))
    gl_jsondoc_fail(d, val_off(d, v), "metric '%s': '%s' must be > 0, got %g", m->string, field,
                    v->valuedouble);
  else if (v->valuedouble > units[unit].cap)
    gl_jsondoc_fail(d, val_off(d, v), "metric '%s': '%s' is %g %s, over the cap of %g %s (absurd)", m->string,
            field, v->valuedouble, units[unit].name, units[unit].cap, units[unit].name);
}

/* Keys of one metric: unknown ones, then the required ones that are missing. */
static void check_metric_keys(gl_jsondoc *d, const cJSON *m) {
  for (const cJSON *it = m->child; it; it = it->next) {
    size_t i = 0;
    while (i < NMETRIC_KEYS && strcmp(metric_keys[i], it->string) != 0) i++;
    if (i == NMETRIC_KEYS)
      gl_jsondoc_fail(d, key_off(d, it), "metric '%s': unknown key '%s'", m->string, it->string);
  }
  for (size_t i = 0; i < NREQUIRED_METRIC_KEYS; i++)
    if (!cJSON_GetObjectItemCaseSensitive(m, metric_keys[i]))
      gl_jsondoc_fail(d, val_off(d, m), "metric '%s': missing key '%s'", m->string, metric_keys[i]);
}

static void check_metric(gl_jsondoc *d, const cJSON *m) {
  if (!gl_evidence_metric_name_ok(m->string)) {
    gl_jsondoc_fail(d, key_off(d, m), "metric name '%s' must be made of [A-Za-z0-9_]", m->string);
    return;
  }
  if (!cJSON_IsObject(m)) {
    gl_jsondoc_fail(d, val_off(d, m), "metric '%s' must be an object", m->string);
    return;
  }
  check_metric_keys(d, m);
  if (d->failed) return;
  const cJSON *unit = cJSON_GetObjectItemCaseSensitive(m, "unit");
  int u = cJSON_IsString(unit) ? unit_of(unit->valuestring) : -1;
  if (u < 0) {
    gl_jsondoc_fail(d, val_off(d, unit), "metric '%s': 'unit' must be one of us, ms, GB/s, TFLOP/s, ratio, x",
            m->string);
    return;
  }
  check_value(d, m, "p10", (gl_unit)u);
  check_value(d, m, "median", (gl_unit)u);
  check_value(d, m, "p90", (gl_unit)u);
  if (d->failed) return;
  const cJSON *p10 = cJSON_GetObjectItemCaseSensitive(m, "p10");
  const cJSON *med = cJSON_GetObjectItemCaseSensitive(m, "median");
  const cJSON *p90 = cJSON_GetObjectItemCaseSensitive(m, "p90");
  if (p10->valuedouble > med->valuedouble)
    gl_jsondoc_fail(d, val_off(d, p10), "metric '%s': p10 (%g) is above the median (%g)", m->string,
            p10->valuedouble, med->valuedouble);
  if (med->valuedouble > p90->valuedouble)
    gl_jsondoc_fail(d, val_off(d, p90), "metric '%s': p90 (%g) is below the median (%g)", m->string,
            p90->valuedouble, med->valuedouble);
  const cJSON *n = cJSON_GetObjectItemCaseSensitive(m, "samples");
  double x = cJSON_IsNumber(n) ? n->valuedouble : NAN;
  if (!(x >= 1 && x <= GL_EVIDENCE_MAX_SAMPLES && floor(x) == x))
    gl_jsondoc_fail(d, val_off(d, n), "metric '%s': 'samples' must be an integer from 1 to %.0f", m->string,
            GL_EVIDENCE_MAX_SAMPLES);
  const cJSON *what = cJSON_GetObjectItemCaseSensitive(m, "what");
  if (what && !cJSON_IsString(what))
    gl_jsondoc_fail(d, val_off(d, what), "metric '%s': 'what' must be a string", m->string);
}

static void check_metrics(gl_jsondoc *d) {
  const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(d->root, "metrics");
  for (const cJSON *m = metrics->child; m && !d->failed; m = m->next) check_metric(d, m);
}

/* A validated metric's values. */
static gl_metric metric_values(const cJSON *m) {
  gl_metric out;
  memset(&out, 0, sizeof out);
  out.key = gl_xstrdup(m->string);
  out.unit = (gl_unit)unit_of(cJSON_GetObjectItemCaseSensitive(m, "unit")->valuestring);
  out.median = cJSON_GetObjectItemCaseSensitive(m, "median")->valuedouble;
  out.p10 = cJSON_GetObjectItemCaseSensitive(m, "p10")->valuedouble;
  out.p90 = cJSON_GetObjectItemCaseSensitive(m, "p90")->valuedouble;
  out.samples = (uint32_t)cJSON_GetObjectItemCaseSensitive(m, "samples")->valuedouble;
  return out;
}

/* ---- the result ----------------------------------------------------------------------------- */

static char *compact(const cJSON *item) {
  char *s = cJSON_PrintUnformatted(item);
  char *copy = gl_xstrdup(s ? s : "{}");
  cJSON_free(s);
  return copy;
}

static int cmp_metric(const void *pa, const void *pb) {
  return strcmp(((const gl_metric *)pa)->key, ((const gl_metric *)pb)->key);
}

static gl_evidence *build(const gl_jsondoc *d, const char *path) {
  gl_evidence *ev = gl_xcalloc(1, sizeof *ev);
  ev->path = gl_xstrdup(path);
  ev->version = GL_EVIDENCE_VERSION;
  const cJSON *device = cJSON_GetObjectItemCaseSensitive(d->root, "device");
  ev->device_name = gl_xstrdup(cJSON_GetObjectItemCaseSensitive(device, "name")->valuestring);
  ev->probe_json = compact(cJSON_GetObjectItemCaseSensitive(d->root, "probe"));
  ev->device_json = compact(device);
  const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(d->root, "metrics");
  for (const cJSON *m = metrics->child; m; m = m->next) gl_vec_push(&ev->metrics, metric_values(m));
  if (ev->metrics.len > 1) qsort(ev->metrics.data, ev->metrics.len, sizeof(gl_metric), cmp_metric);
  return ev;
}

static gl_evidence *validate(gl_jsondoc *d, const char *path) {
  check_schema(d);
  if (!d->failed) check_items(d);
  if (!d->failed) check_top(d);
  if (!d->failed) check_metrics(d);
  return d->failed ? NULL : build(d, path);
}

/* Reads path (bytes == NULL) or bytes, then validates. */
static gl_evidence *load(const char *path, const char *bytes, size_t len, gl_diag *err) {
  gl_jsondoc d;
  gl_evidence *ev = NULL;
  if (gl_jsondoc_open(&d, path, bytes, len, GL_EVIDENCE_MAX_BYTES, "evidence file", err))
    ev = validate(&d, path);
  gl_jsondoc_close(&d);
  return ev;
}

gl_evidence *gl_evidence_parse(const char *path, const char *bytes, size_t len, gl_diag *err) {
  return load(path, bytes ? bytes : "", bytes ? len : 0, err);
}

gl_evidence *gl_evidence_load(const char *path, gl_diag *err) { return load(path, NULL, 0, err); }

const gl_metric *gl_evidence_metric(const gl_evidence *ev, const char *key) {
  if (!ev || !key) return NULL;
  gl_metric k = {(char *)key, GL_UNIT_US, 0, 0, 0, 0};
  return ev->metrics.len ? bsearch(&k, ev->metrics.data, ev->metrics.len, sizeof k, cmp_metric) : NULL;
}

void gl_evidence_free(gl_evidence *ev) {
  if (!ev) return;
  for (size_t i = 0; i < ev->metrics.len; i++) free(ev->metrics.data[i].key);
  gl_vec_free(&ev->metrics);
  free(ev->path);
  free(ev->device_name);
  free(ev->probe_json);
  free(ev->device_json);
  free(ev);
}
