/* stats.h: samples of one measurement, when to stop taking them, and their median / p10 / p90.
 * Owns: gp_summary (the figures the evidence file records) and gp_sampler (a bounded sample buffer
 *       with the stop rule: a minimum count, then a stable median, a maximum count or a time budget).
 * Not: clocks (the caller passes the time), CUDA, printing.
 * Threads: a sampler belongs to its caller; the functions keep no state of their own. */
#ifndef GP_STATS_H
#define GP_STATS_H

#include <stddef.h>

#define GP_MAX_SAMPLES 512

typedef struct gp_summary {
  double median, p10, p90;
  size_t samples;
} gp_summary;

/* The q-quantile (0 <= q <= 1) of v[0..n) by linear interpolation between the closest ranks
 * (position q * (n - 1) in the sorted samples, as numpy's default). v is not modified; n >= 1. */
double gp_stats_quantile(const double *v, size_t n, double q);

/* Median, p10 and p90 of v[0..n) (n >= 1); always p10 <= median <= p90. */
gp_summary gp_stats_summarize(const double *v, size_t n);

typedef struct gp_sampler {
  double v[GP_MAX_SAMPLES];
  size_t n;
  size_t min, max;       /* at least min samples, never more than max (<= GP_MAX_SAMPLES) */
  double budget_s;       /* once min samples are in, stop when this much time has passed */
  double t0_s;           /* the time gp_sampler_init was given */
  double last_median;    /* median at the previous stability check; 0 before the first */
  size_t next_check;     /* sample count of the next stability check */
} gp_sampler;

/* The relative change of the median between two checks under which it counts as stable. */
#define GP_STABLE_REL 0.01

/* Starts an empty sampler at time now_s; min is raised to 1, max clamped to [min, GP_MAX_SAMPLES]. */
void gp_sampler_init(gp_sampler *s, size_t min, size_t max, double budget_s, double now_s);

/* Records one sample; samples past max are dropped. */
void gp_sampler_add(gp_sampler *s, double v);

/* 1 when sampling should stop: n >= max; or n >= min and (the budget is spent, or the median at this
 * check point differs from the previous check's by at most GP_STABLE_REL relative). Check points are
 * n = min, then every max(min / 2, 5) samples. */
int gp_sampler_done(gp_sampler *s, double now_s);

#endif
