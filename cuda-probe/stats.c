/* stats.c: quantiles of a sample set and the sampler's stop rule (see stats.h).
 * Owns: sorting a private copy of the samples; nothing outlives a call.
 * Not: clocks, CUDA, printing.
 * Threads: reentrant. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* q-quantile of already sorted s[0..n), clamped into its bracketing samples so that rounding can
 * never put a lower quantile above a higher one. */
static double sorted_quantile(const double *s, size_t n, double q) {
  if (n == 1) return s[0];
  if (q <= 0) return s[0];
  if (q >= 1) return s[n - 1];
  double pos = q * (double)(n - 1);
  size_t lo = (size_t)floor(pos);
  if (lo >= n - 1) return s[n - 1];
  double frac = pos - (double)lo;
  double r = s[lo] + frac * (s[lo + 1] - s[lo]);
  if (r < s[lo]) r = s[lo];
  if (r > s[lo + 1]) r = s[lo + 1];
  return r;
}

static double *sorted_copy(const double *v, size_t n, double *stack_buf, size_t stack_n) {
  double *s = n <= stack_n ? stack_buf : malloc(n * sizeof *s);
  if (!s) return NULL;
  memcpy(s, v, n * sizeof *s);
  qsort(s, n, sizeof *s, cmp_double);
  return s;
}

double gp_stats_quantile(const double *v, size_t n, double q) {
  double buf[GP_MAX_SAMPLES];
  double *s = sorted_copy(v, n, buf, GP_MAX_SAMPLES);
  if (!s) return NAN;
  double r = sorted_quantile(s, n, q);
  if (s != buf) free(s);
  return r;
}

gp_summary gp_stats_summarize(const double *v, size_t n) {
  gp_summary out = {NAN, NAN, NAN, n};
  double buf[GP_MAX_SAMPLES];
  double *s = n ? sorted_copy(v, n, buf, GP_MAX_SAMPLES) : NULL;
  if (!s) return out;
  out.median = sorted_quantile(s, n, 0.5);
  out.p10 = sorted_quantile(s, n, 0.1);
  out.p90 = sorted_quantile(s, n, 0.9);
  if (s != buf) free(s);
  return out;
}

void gp_sampler_init(gp_sampler *s, size_t min, size_t max, double budget_s, double now_s) {
  if (min < 1) min = 1;
  if (min > GP_MAX_SAMPLES) min = GP_MAX_SAMPLES;
  if (max < min) max = min;
  if (max > GP_MAX_SAMPLES) max = GP_MAX_SAMPLES;
  s->n = 0;
  s->min = min;
  s->max = max;
  s->budget_s = budget_s;
  s->t0_s = now_s;
  s->last_median = 0;
  s->next_check = min;
}

void gp_sampler_add(gp_sampler *s, double v) {
  if (s->n < s->max) s->v[s->n++] = v;
}

int gp_sampler_done(gp_sampler *s, double now_s) {
  if (s->n >= s->max) return 1;
  if (s->n < s->min) return 0;
  if (now_s - s->t0_s >= s->budget_s) return 1;
  if (s->n < s->next_check) return 0;
  size_t step = s->min / 2 > 5 ? s->min / 2 : 5;
  s->next_check = s->n + step;
  double m = gp_stats_quantile(s->v, s->n, 0.5);
  double last = s->last_median;
  s->last_median = m;
  return last > 0 && fabs(m - last) <= GP_STABLE_REL * last;
}
