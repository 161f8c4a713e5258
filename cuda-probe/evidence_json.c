/* evidence_json.c: the evidence document's bookkeeping and its JSON text (see evidence_json.h).
 * Owns: key and unit validation, the writability check, JSON string escaping and number format
 *       (finite only, 6 significant digits: rounding keeps p10 <= median <= p90).
 * Not: measuring, device queries, file placement.
 * Threads: no state of its own. */
#include "evidence_json.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static const struct { const char *unit; double cap; } k_units[] = {
    {"us", 1e7}, {"ms", 1e6}, {"GB/s", 1e5}, {"TFLOP/s", 1e5}, {"ratio", 1e3}, {"x", 1e6},
};

static void copy_str(char *dst, size_t n, const char *src) {
  if (n == 0) return;
  size_t len = src ? strlen(src) : 0;
  if (len >= n) len = n - 1;
  if (len) memcpy(dst, src, len);
  dst[len] = '\0';
}

void gp_evidence_init(gp_evidence *ev, const char *version) {
  memset(ev, 0, sizeof *ev);
  copy_str(ev->probe_version, sizeof ev->probe_version, version);
  copy_str(ev->mode, sizeof ev->mode, "full");
  ev->duration_s = -1;
  gp_device_facts *d = &ev->device;
  d->cc_major = d->cc_minor = d->sm_count = -1;
  d->l2_bytes = -1;
  d->clock_mhz = d->memory_clock_mhz = d->memory_bus_bits = -1;
  d->ecc = d->driver_version = d->runtime_version = -1;
  d->pci.link_gen = d->pci.link_width = d->pci.max_link_gen = d->pci.max_link_width = -1;
  d->c2c_enabled = d->pageable_memory_access = d->persistence_mode = -1;
}

double gp_unit_cap(const char *unit) {
  for (size_t i = 0; unit && i < sizeof k_units / sizeof k_units[0]; i++)
    if (strcmp(unit, k_units[i].unit) == 0) return k_units[i].cap;
  return 0;
}

static int key_ok(const char *key) {
  size_t len = key ? strlen(key) : 0;
  if (len == 0 || len >= sizeof ((gp_metric *)0)->key) return 0;
  for (size_t i = 0; i < len; i++) {
    char c = key[i];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return 0;
  }
  return 1;
}

const gp_metric *gp_evidence_find(const gp_evidence *ev, const char *key) {
  for (size_t i = 0; key && i < ev->n_metrics; i++)
    if (strcmp(ev->metrics[i].key, key) == 0) return &ev->metrics[i];
  return NULL;
}

int gp_evidence_add(gp_evidence *ev, const char *key, const char *unit, const char *what,
                    const double *v, size_t n) {
  if (ev->n_metrics >= GP_MAX_METRICS || n == 0 || !v) return -1;
  if (!key_ok(key) || gp_unit_cap(unit) == 0 || gp_evidence_find(ev, key)) return -1;
  gp_metric *m = &ev->metrics[ev->n_metrics++];
  copy_str(m->key, sizeof m->key, key);
  copy_str(m->unit, sizeof m->unit, unit);
  copy_str(m->what, sizeof m->what, what);
  m->sum = gp_stats_summarize(v, n);
  return 0;
}

int gp_evidence_check(const gp_evidence *ev, char *why, size_t why_n) {
  if (!ev->device.name[0]) {
    copy_str(why, why_n, "the device has no name");
    return -1;
  }
  if (ev->n_metrics == 0) {
    copy_str(why, why_n, "no metric was measured");
    return -1;
  }
  for (size_t i = 0; i < ev->n_metrics; i++) {
    const gp_metric *m = &ev->metrics[i];
    const gp_summary *s = &m->sum;
    double cap = gp_unit_cap(m->unit);
    const char *bad = NULL;
    if (!isfinite(s->median) || !isfinite(s->p10) || !isfinite(s->p90)) bad = "is not finite";
    else if (s->p10 <= 0) bad = "is not positive";
    else if (s->p10 > s->median || s->median > s->p90) bad = "is out of order";
    else if (s->p90 > cap) bad = "is over its unit's cap";
    else if (s->samples < 1) bad = "has no samples";
    if (bad) {
      if (why && why_n) {
        snprintf(why, why_n, "metric '%s' %s (median %g, p10 %g, p90 %g %s)", m->key, bad,
                 s->median, s->p10, s->p90, m->unit);
      }
      return -1;
    }
  }
  return 0;
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when s starts an invalid one. */
static size_t utf8_len(const unsigned char *s) {
  unsigned char c = s[0];
  size_t len;
  uint32_t cp;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07;
  else return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0;
  return len;
}

static void put_str(FILE *f, const char *str) {
  const unsigned char *s = (const unsigned char *)str;
  fputc('"', f);
  while (*s) {
    unsigned char c = *s;
    if (c == '"' || c == '\\') {
      fputc('\\', f);
      fputc(c, f);
      s++;
    } else if (c < 0x20) {
      switch (c) {
      case '\n': fputs("\\n", f); break;
      case '\r': fputs("\\r", f); break;
      case '\t': fputs("\\t", f); break;
      case '\b': fputs("\\b", f); break;
      case '\f': fputs("\\f", f); break;
      default: fprintf(f, "\\u%04x", c); break;
      }
      s++;
    } else {
      size_t len = utf8_len(s);
      if (len == 0) {
        fputs("\\ufffd", f);
        s++;
      } else {
        fwrite(s, 1, len, f);
        s += len;
      }
    }
  }
  fputc('"', f);
}

/* Finite numbers only (the caller checked): 6 significant digits, "%g" (JSON accepts 1e+06). */
static void put_num(FILE *f, double v) {
  fprintf(f, "%.6g", v);
}

/* The field writers below each write sep (what ends the previous field, or opens the object),
 * then "key": and the value; a value that is unknown (negative, or "") is written as null. */
static void put_key(FILE *f, const char *sep, const char *key) {
  fprintf(f, "%s\"%s\": ", sep, key);
}

static void field_int(FILE *f, const char *sep, const char *key, long long v) {
  put_key(f, sep, key);
  if (v < 0) fputs("null", f);
  else fprintf(f, "%lld", v);
}

static void field_bool(FILE *f, const char *sep, const char *key, int v) {
  put_key(f, sep, key);
  fputs(v < 0 ? "null" : v ? "true" : "false", f);
}

/* A CUDA version number (1000 * major + 10 * minor) as "major.minor". */
static void field_version(FILE *f, const char *sep, const char *key, int v) {
  put_key(f, sep, key);
  if (v < 0) fputs("null", f);
  else fprintf(f, "\"%d.%d\"", v / 1000, (v % 1000) / 10);
}

/* Always a string, "" included. */
static void field_str(FILE *f, const char *sep, const char *key, const char *s) {
  put_key(f, sep, key);
  put_str(f, s);
}

static void field_str_or_null(FILE *f, const char *sep, const char *key, const char *s) {
  put_key(f, sep, key);
  if (s[0]) put_str(f, s);
  else fputs("null", f);
}

static void field_num(FILE *f, const char *sep, const char *key, double v) {
  put_key(f, sep, key);
  put_num(f, v);
}

static void put_pci(FILE *f, const gp_pci *p) {
  if (!p->known) {
    fputs("null", f);
    return;
  }
  field_str_or_null(f, "{", "bus_id", p->bus_id);
  field_int(f, ", ", "link_gen", p->link_gen);
  field_int(f, ", ", "link_width", p->link_width);
  field_int(f, ", ", "max_link_gen", p->max_link_gen);
  field_int(f, ", ", "max_link_width", p->max_link_width);
  fputs("}", f);
}

static void put_probe(FILE *f, const gp_evidence *ev) {
  fputs("  \"probe\": {\"name\": \"gpulint-probe\"", f);
  field_str(f, ", ", "version", ev->probe_version);
  field_str(f, ", ", "mode", ev->mode);
  field_str_or_null(f, ", ", "created", ev->created);
  put_key(f, ", ", "duration_s");
  if (ev->duration_s >= 0 && isfinite(ev->duration_s)) put_num(f, ev->duration_s);
  else fputs("null", f);
  fputs("},\n", f);
}

static void put_device(FILE *f, const gp_device_facts *d) {
  static const char next[] = ",\n    "; /* one device field a line */
  fprintf(f, "  \"device\": {\n    \"index\": %d", d->index);
  field_str(f, next, "name", d->name);
  put_key(f, next, "cc");
  if (d->cc_major >= 0 && d->cc_minor >= 0) fprintf(f, "\"%d.%d\"", d->cc_major, d->cc_minor);
  else fputs("null", f);
  field_int(f, next, "sm_count", d->sm_count);
  put_key(f, next, "memory_bytes");
  if (d->memory_bytes) fprintf(f, "%llu", d->memory_bytes);
  else fputs("null", f);
  field_int(f, next, "l2_bytes", d->l2_bytes);
  field_int(f, next, "clock_mhz", d->clock_mhz);
  field_int(f, next, "memory_clock_mhz", d->memory_clock_mhz);
  field_int(f, next, "memory_bus_bits", d->memory_bus_bits);
  field_bool(f, next, "ecc", d->ecc);
  field_version(f, next, "driver_version", d->driver_version);
  field_version(f, next, "runtime_version", d->runtime_version);
  put_key(f, next, "pci");
  put_pci(f, &d->pci);
  put_key(f, next, "c2c");
  if (d->c2c_enabled < 0) fputs("null", f);
  else fprintf(f, "{\"enabled\": %s}", d->c2c_enabled ? "true" : "false");
  field_bool(f, next, "pageable_memory_access", d->pageable_memory_access);
  field_bool(f, next, "persistence_mode", d->persistence_mode);
  fputs("\n  },\n", f);
}

static void put_metric(FILE *f, const gp_metric *m, int last) {
  fputs("    ", f);
  put_str(f, m->key);
  field_str(f, ": {", "unit", m->unit);
  field_num(f, ", ", "median", m->sum.median);
  field_num(f, ", ", "p10", m->sum.p10);
  field_num(f, ", ", "p90", m->sum.p90);
  fprintf(f, ", \"samples\": %zu", m->sum.samples);
  if (m->what[0]) field_str(f, ", ", "what", m->what);
  fputs(last ? "}\n" : "},\n", f);
}

int gp_evidence_write(FILE *f, const gp_evidence *ev) {
  char why[256];
  if (gp_evidence_check(ev, why, sizeof why) != 0) return -1;
  fprintf(f, "{\n  \"schema\": \"%s\",\n  \"version\": %d,\n", GP_SCHEMA, GP_SCHEMA_VERSION);
  put_probe(f, ev);
  put_device(f, &ev->device);
  fputs("  \"metrics\": {\n", f);
  for (size_t i = 0; i < ev->n_metrics; i++) put_metric(f, &ev->metrics[i], i + 1 == ev->n_metrics);
  fputs("  }\n}\n", f);
  if (fflush(f) != 0 || ferror(f)) return -1;
  return 0;
}
