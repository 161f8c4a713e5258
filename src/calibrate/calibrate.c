/* calibrate.c: the calibrate stage (see calibrate.h).
 * Owns: thresholds -> level, rank, the cost text and its number format, and the warnings about
 *       bound metrics that the evidence lacks. Not: loading, printing, output formats.
 * Threads: main thread, after the workers joined; keeps no state between calls. */
#include "calibrate/calibrate.h"
#include "base/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MICRO "\xC2\xB5"   /* µ */
#define TIMES "\xC3\x97"   /* × */

gl_level gl_calib_level(const gl_evidence_binding *b, double v) {
  if (b->higher_worse) return v >= b->error_at ? GL_LEVEL_ERROR : v < b->note ? GL_LEVEL_NOTE : GL_LEVEL_WARNING;
  return v <= b->error_at ? GL_LEVEL_ERROR : v > b->note ? GL_LEVEL_NOTE : GL_LEVEL_WARNING;
}

double gl_calib_rank(const gl_evidence_binding *b, double v) {
  double t = b->higher_worse ? log(v / b->note) / log(b->error_at / b->note)
                             : log(b->note / v) / log(b->note / b->error_at);
  double r = 25 + 50 * t;
  if (!(r > 0)) r = 0; /* also NaN */
  if (r > 100) r = 100;
  return round(r * 10) / 10;
}

/* ---- numbers -------------------------------------------------------------------------------- */

/* Copies the integer part int_part into out with "," between thousands when it has 5 digits or
 * more; returns the length written. */
static size_t put_int(char *out, const char *int_part) {
  size_t n = strlen(int_part), o = 0;
  for (size_t i = 0; i < n; i++) {
    if (n >= 5 && i > 0 && (n - i) % 3 == 0) out[o++] = ',';
    out[o++] = int_part[i];
  }
  out[o] = '\0';
  return o;
}

void gl_calib_number(double v, char buf[GL_CALIB_FIG_MAX]) {
  if (!isfinite(v) || v < 0) v = 0;
  char e[32];
  snprintf(e, sizeof e, "%.2e", v); /* "1.16e+01": three significant digits and the exponent */
  long exp = strtol(e + 5, NULL, 10);
  if (v == 0 || exp > 30 || exp < -30) {
    snprintf(buf, GL_CALIB_FIG_MAX, "%s", v == 0 ? "0" : e);
    return;
  }
  const char d[3] = {e[0], e[2], e[3]};
  char ip[64] = "", fp[64] = "";
  size_t ni = 0, nf = 0;
  if (exp >= 2) {
    for (long i = 0; i < 3; i++) ip[ni++] = d[i];
    for (long i = 2; i < exp; i++) ip[ni++] = '0';
  } else if (exp >= 0) {
    for (long i = 0; i <= exp; i++) ip[ni++] = d[i];
    for (long i = exp + 1; i < 3; i++) fp[nf++] = d[i];
  } else {
    ip[ni++] = '0';
    for (long i = -1; i > exp; i--) fp[nf++] = '0';
    for (long i = 0; i < 3; i++) fp[nf++] = d[i];
  }
  ip[ni] = '\0';
  while (nf > 0 && fp[nf - 1] == '0') nf--;
  fp[nf] = '\0';
  size_t o = put_int(buf, ip);
  if (nf) snprintf(buf + o, GL_CALIB_FIG_MAX - o, ".%s", fp);
}

void gl_calib_value(double v, gl_unit unit, char buf[GL_CALIB_NUM_MAX]) {
  char n[GL_CALIB_FIG_MAX]; /* a figure takes at most 41 bytes: 31 digits and 10 commas */
  gl_calib_number(v, n);
  switch (unit) {
    case GL_UNIT_US: snprintf(buf, GL_CALIB_NUM_MAX, "%s " MICRO "s", n); break;
    case GL_UNIT_MS: snprintf(buf, GL_CALIB_NUM_MAX, "%s ms", n); break;
    case GL_UNIT_GBPS: snprintf(buf, GL_CALIB_NUM_MAX, "%s GB/s", n); break;
    case GL_UNIT_TFLOPS: snprintf(buf, GL_CALIB_NUM_MAX, "%s TFLOP/s", n); break;
    case GL_UNIT_X: snprintf(buf, GL_CALIB_NUM_MAX, "%s" TIMES, n); break;
    default: snprintf(buf, GL_CALIB_NUM_MAX, "%s", n); break;
  }
}

void gl_calib_time(double us, char buf[GL_CALIB_NUM_MAX]) {
  char e[32];
  snprintf(e, sizeof e, "%.2e", us);
  double r = strtod(e, NULL); /* rounded first, so 999,999 us shows as 1 s, not 1000 ms */
  char n[GL_CALIB_FIG_MAX];
  if (r >= 1e6) {
    gl_calib_number(r / 1e6, n);
    snprintf(buf, GL_CALIB_NUM_MAX, "%s s", n);
  } else if (r >= 1e3) {
    gl_calib_number(r / 1e3, n);
    snprintf(buf, GL_CALIB_NUM_MAX, "%s ms", n);
  } else {
    gl_calib_number(r, n);
    snprintf(buf, GL_CALIB_NUM_MAX, "%s " MICRO "s", n);
  }
}

/* ---- cost text ------------------------------------------------------------------------------ */

/* Length of the placeholder at p ('{', bytes other than braces and blanks, '}'), else 0. */
static size_t placeholder_len(const char *p) {
  size_t n = strcspn(p + 1, "{} \t\n");
  return n && p[1 + n] == '}' ? n + 2 : 0;
}

static bool uses_total(const gl_evidence_binding *b) { return strstr(b->cost, "{total}") != NULL; }

char *gl_calib_cost(const gl_evidence_binding *b, const gl_metric *m, const char *device) {
  gl_strbuf out = {0};
  gl_strbuf_add(&out, "", 0);
  for (const char *p = b->cost; *p;) {
    size_t n = *p == '{' ? placeholder_len(p) : 0;
    if (!n) {
      size_t run = strcspn(p + 1, "{") + 1;
      gl_strbuf_add(&out, p, run);
      p += run;
      continue;
    }
    char fig[GL_CALIB_NUM_MAX] = "";
    const char *text = fig;
    if (strncmp(p, "{value}", n) == 0) gl_calib_value(m->median, m->unit, fig);
    else if (strncmp(p, "{device}", n) == 0) text = device;
    else if (strncmp(p, "{total}", n) == 0)
      gl_calib_time(m->median * (double)b->repeat * (m->unit == GL_UNIT_MS ? 1e3 : 1), fig);
    else text = NULL; /* the loader rejects other placeholders; keep the text as written */
    if (text) gl_strbuf_add(&out, text, strlen(text));
    else gl_strbuf_add(&out, p, n);
    p += n;
  }
  return out.data;
}

/* ---- the stage ------------------------------------------------------------------------------ */

/* The metric of b that ev holds and calibration can use, else NULL. */
static const gl_metric *usable_metric(const gl_evidence *ev, const gl_evidence_binding *b) {
  const gl_metric *m = gl_evidence_metric(ev, b->metric);
  if (m && uses_total(b) && !gl_unit_is_time(m->unit)) return NULL;
  return m;
}

static void calibrate_one(gl_finding *f, const gl_evidence *ev, const gl_metric *m) {
  const gl_evidence_binding *b = f->rule->evidence;
  gl_calibration *c = gl_xcalloc(1, sizeof *c);
  c->rank = gl_calib_rank(b, m->median);
  c->value = m->median;
  c->metric = gl_xstrdup(m->key);
  c->unit = gl_xstrdup(gl_unit_name(m->unit));
  c->device = gl_xstrdup(ev->device_name);
  c->default_level = f->level;
  f->level = gl_calib_level(b, m->median);
  char *cost = gl_calib_cost(b, m, ev->device_name);
  char *msg = gl_xasprintf("%s; %s", f->message ? f->message : "", cost);
  free(cost);
  free(f->message);
  f->message = msg;
  gl_calibration_free(f->calib);
  f->calib = c;
}

/* One warning per metric the enabled bound rules need but ev cannot give, rules in id order. */
static void collect_warnings(const gl_ruleset *set, const gl_evidence *ev, gl_calib_warnings *w) {
  if (!set) return;
  gl_vec(const gl_rule *) seen = {0};
  for (size_t i = 0; i < set->rules.len; i++) {
    const gl_rule *r = set->rules.data[i];
    if (!r->enabled || !r->evidence || usable_metric(ev, r->evidence)) continue;
    bool done = false;
    for (size_t k = 0; k < seen.len && !done; k++) done = strcmp(seen.data[k]->evidence->metric, r->evidence->metric) == 0;
    if (done) continue;
    gl_vec_push(&seen, r);
    gl_strbuf ids = {0};
    size_t nids = 0;
    for (size_t j = i; j < set->rules.len; j++) {
      const gl_rule *o = set->rules.data[j];
      if (!o->enabled || !o->evidence || strcmp(o->evidence->metric, r->evidence->metric) != 0) continue;
      if (usable_metric(ev, o->evidence)) continue;
      if (nids++) gl_strbuf_add(&ids, ", ", 2);
      gl_strbuf_add(&ids, o->id, strlen(o->id));
    }
    const gl_metric *m = gl_evidence_metric(ev, r->evidence->metric);
    const char *keeps = nids > 1 ? "keep their" : "keeps its";
    char *msg = m ? gl_xasprintf("evidence %s gives metric '%s' in %s, not a time, for {total}; %s %s default level",
                                 ev->path, m->key, gl_unit_name(m->unit), ids.data, keeps)
                  : gl_xasprintf("evidence %s has no metric '%s'; %s %s default level", ev->path,
                                 r->evidence->metric, ids.data, keeps);
    gl_vec_push(w, msg);
    gl_vec_free(&ids);
  }
  gl_vec_free(&seen);
}

size_t gl_calib_run(gl_run *run, const gl_evidence *ev, gl_calib_warnings *warnings) {
  run->evidence = ev;
  if (!ev) return 0;
  collect_warnings(run->rules, ev, warnings);
  size_t n = 0;
  for (size_t i = 0; i < run->files.len; i++) {
    gl_file_result *file = &run->files.data[i];
    for (size_t j = 0; j < file->findings.len; j++) {
      gl_finding *f = &file->findings.data[j];
      const gl_metric *m = f->rule && f->rule->evidence ? usable_metric(ev, f->rule->evidence) : NULL;
      if (!m) continue;
      calibrate_one(f, ev, m);
      n++;
    }
  }
  return n;
}

void gl_calib_warnings_free(gl_calib_warnings *w) {
  if (!w) return;
  for (size_t i = 0; i < w->len; i++) free(w->data[i]);
  gl_vec_free(w);
}
