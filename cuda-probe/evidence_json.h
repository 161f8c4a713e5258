/* evidence_json.h: the evidence document (schema gpulint-evidence, version 1) as C data, and its
 * JSON writer.
 * Owns: gp_evidence (probe run facts, device facts, metrics), the units and their caps, the check
 *       that every metric is writable (finite, > 0, p10 <= median <= p90, at most the unit's cap),
 *       and the JSON text: string escaping (invalid UTF-8 becomes U+FFFD), finite numbers only.
 * Not: measuring (measure_*.c), reading devices (facts.c), choosing the file (outfile.c).
 * Threads: a gp_evidence belongs to its caller; no state of its own. */
#ifndef GP_EVIDENCE_JSON_H
#define GP_EVIDENCE_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "stats.h"

#define GP_SCHEMA "gpulint-evidence"
#define GP_SCHEMA_VERSION 1
#define GP_MAX_METRICS 64

/* PCI facts; ints are -1 and bus_id "" when unknown. known == 0 writes "pci": null. */
typedef struct gp_pci {
  int known;
  char bus_id[32];
  int link_gen, link_width, max_link_gen, max_link_width;
} gp_pci;

/* Device facts; -1 (or 0 for memory_bytes, "" for strings) means unknown and is written as null. */
typedef struct gp_device_facts {
  int index;
  char name[256];                  /* required: the writer refuses an empty name */
  int cc_major, cc_minor;          /* written as "cc": "9.0" */
  int sm_count;
  unsigned long long memory_bytes;
  long long l2_bytes;
  int clock_mhz, memory_clock_mhz, memory_bus_bits;
  int ecc;                         /* -1, 0 or 1 */
  int driver_version, runtime_version;  /* CUDA's encoding (13000), written as "13.0" */
  gp_pci pci;
  int c2c_enabled;                 /* -1 writes "c2c": null, else {"enabled": bool} */
  int pageable_memory_access;      /* -1, 0 or 1 */
  int persistence_mode;            /* NVML's persistence mode: -1 unknown, 0 off, 1 on */
} gp_device_facts;

typedef struct gp_metric {
  char key[64];     /* [A-Za-z0-9_]+ */
  char unit[8];     /* us, ms, GB/s, TFLOP/s, ratio, x */
  char what[384];
  gp_summary sum;
} gp_metric;

typedef struct gp_evidence {
  char probe_version[16];
  char mode[8];                    /* "full" or "quick" */
  char created[32];                /* ISO 8601 UTC, "" for null */
  double duration_s;               /* < 0 for null */
  gp_device_facts device;
  gp_metric metrics[GP_MAX_METRICS];
  size_t n_metrics;
} gp_evidence;

/* Empties ev: no metrics, every fact unknown, mode "full", probe_version version. */
void gp_evidence_init(gp_evidence *ev, const char *version);

/* The cap of a unit ("us" 1e7, "ms" 1e6, "GB/s" 1e5, "TFLOP/s" 1e5, "ratio" 1e3, "x" 1e6); 0 for
 * a unit that is not one of these. */
double gp_unit_cap(const char *unit);

/* Appends metric key from the samples v[0..n) (n >= 1), summarized by gp_stats_summarize.
 * Returns 0, or -1 (nothing added) when the table is full, n is 0, the key is not
 * [A-Za-z0-9_]+ or too long, the key is already present, or the unit is unknown. */
int gp_evidence_add(gp_evidence *ev, const char *key, const char *unit, const char *what,
                    const double *v, size_t n);

/* The metric named key, or NULL. */
const gp_metric *gp_evidence_find(const gp_evidence *ev, const char *key);

/* 0 when every metric is finite, > 0, ordered p10 <= median <= p90, within its unit's cap, and
 * the device has a name; else -1 with a reason ("metric 'K' has median nan") in why. */
int gp_evidence_check(const gp_evidence *ev, char *why, size_t why_n);

/* Writes ev as pretty-printed JSON (ending in a newline) to f. Returns 0, or -1 when
 * gp_evidence_check fails (nothing written) or f reports a write error. */
int gp_evidence_write(FILE *f, const gp_evidence *ev);

#endif
