/* fail.c: filling gp_fail, the host clock, progress lines, and the sampler / metric glue the
 * measurement modules share (see probe.h).
 * Owns: the per-kind sample counts and time budgets (full and quick).
 * Not: the error classes (cuerr.c), measuring.
 * Threads: single-threaded use. */
#include "probe.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

int gp_fail_cuda(gp_fail *f, const char *doing, cudaError_t e) {
  const char *name = cudaGetErrorName(e);
  gp_cuerr_format(f->msg, sizeof f->msg, doing, (int)e, name);
  f->status = gp_cuerr_status((int)e);
  return f->status;
}

int gp_fail_set(gp_fail *f, int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(f->msg, sizeof f->msg, fmt, ap);
  va_end(ap);
  f->status = status;
  return status;
}

double gp_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void gp_progress(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("  ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  fflush(stderr);
  va_end(ap);
}

int gp_record(gp_run *r, const char *key, const char *unit, const char *what, const gp_sampler *s) {
  if (gp_evidence_add(r->ev, key, unit, what, s->v, s->n) != 0)
    return gp_fail_set(r->fail, GP_EXIT_CHECK, "recording metric '%s' failed (%zu samples): "
                       "this is a bug in gpulint-probe, please report it", key, s->n);
  return 0;
}

/* Counts: {min, max, budget seconds} for full and quick runs. Latencies average a batch of calls
 * per sample, so their samples are cheap and many. */
void gp_sampler_start(gp_sampler *s, const gp_run *r, enum gp_kind kind) {
  static const struct { size_t min, max; double budget; } full[] = {
      [GP_LATENCY] = {150, 600, 3.0}, [GP_BANDWIDTH] = {30, 80, 3.0},
      [GP_KERNEL] = {40, 100, 4.0}, [GP_ALLOC] = {40, 150, 2.0},
  };
  static const struct { size_t min, max; double budget; } quick[] = {
      [GP_LATENCY] = {10, 40, 0.15}, [GP_BANDWIDTH] = {5, 10, 0.2},
      [GP_KERNEL] = {5, 10, 0.2}, [GP_ALLOC] = {5, 15, 0.1},
  };
  if (r->quick) gp_sampler_init(s, quick[kind].min, quick[kind].max, quick[kind].budget, gp_now_s());
  else gp_sampler_init(s, full[kind].min, full[kind].max, full[kind].budget, gp_now_s());
}
