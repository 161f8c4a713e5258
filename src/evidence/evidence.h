/* evidence.h: a probe's evidence file (schema "gpulint-evidence", version 1), loaded for
 * `gpulint --evidence FILE`.
 * Owns: reading the file safely (regular files only, opened O_NONBLOCK, at most 1 MiB, no NUL
 *       byte), validating it completely (json syntax, duplicate keys at any depth, non-finite
 *       numbers, schema and version, required and mistyped fields, units, values <= 0 or over
 *       the unit's cap, p10 <= median <= p90, sample counts) with file:line:col errors, and the
 *       frozen result: the device name, the probe and device objects as compact json (SARIF
 *       copies them), the metrics sorted by key.
 * Not: what the metrics mean for rules (calibrate.c), printing.
 * Threads: loaded once in the main thread, then read-only. */
#ifndef GL_EVIDENCE_H
#define GL_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/diag.h"
#include "base/vec.h"

#define GL_EVIDENCE_SCHEMA "gpulint-evidence"
#define GL_EVIDENCE_VERSION 1
#define GL_EVIDENCE_MAX_BYTES ((size_t)1 << 20)
#define GL_EVIDENCE_MAX_SAMPLES 1000000000.0

typedef enum gl_unit {
  GL_UNIT_US,       /* "us", cap 1e7 */
  GL_UNIT_MS,       /* "ms", cap 1e6 */
  GL_UNIT_GBPS,     /* "GB/s", cap 1e5 */
  GL_UNIT_TFLOPS,   /* "TFLOP/s", cap 1e5 */
  GL_UNIT_RATIO,    /* "ratio", cap 1e3 */
  GL_UNIT_X,        /* "x" (a factor), cap 1e6 */
} gl_unit;

/* The unit's name in evidence files ("us", "GB/s", ...). */
const char *gl_unit_name(gl_unit unit);
/* The largest value that is not absurd for the unit. */
double gl_unit_cap(gl_unit unit);
/* True for us and ms. */
bool gl_unit_is_time(gl_unit unit);
/* True when s is a metric name: one or more of [A-Za-z0-9_]. The one rule for the keys of an
 * evidence file's "metrics" and for the metric a rule's evidence binding names. */
bool gl_evidence_metric_name_ok(const char *s);

typedef struct gl_metric {
  char *key;             /* "item_roundtrip_us" */
  gl_unit unit;
  double median, p10, p90;  /* finite, > 0, p10 <= median <= p90 <= the unit's cap */
  uint32_t samples;      /* >= 1 */
} gl_metric;

typedef struct gl_evidence {
  char *path;            /* as given (SARIF properties.evidence.file, messages) */
  int version;           /* GL_EVIDENCE_VERSION */
  char *device_name;     /* device.name, non-empty */
  char *probe_json;      /* the "probe" object as compact json */
  char *device_json;     /* the "device" object as compact json */
  gl_vec(gl_metric) metrics; /* sorted by key, keys unique */
} gl_evidence;

/* Reads and validates the evidence file at path. Returns the evidence (the caller frees it with
 * gl_evidence_free) or NULL with err set: err->path is path; line and column (1-based, columns
 * in code points) point at the offending key or value, or are 0 for a file that cannot be read
 * at all ("not a regular file", "file is N bytes, over the size cap of 1048576 bytes",
 * "cannot open file: ..."). */
gl_evidence *gl_evidence_load(const char *path, gl_diag *err);

/* The same for bytes already in memory (copied; used by tests). */
gl_evidence *gl_evidence_parse(const char *path, const char *bytes, size_t len, gl_diag *err);

/* The metric named key, or NULL. */
const gl_metric *gl_evidence_metric(const gl_evidence *ev, const char *key);

void gl_evidence_free(gl_evidence *ev);

#endif
