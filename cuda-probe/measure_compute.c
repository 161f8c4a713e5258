/* measure_compute.c: device-side throughput: device-to-device copy bandwidth (d2d_copy_GBps) and
 * FMA throughput in float, double and half2 (float_fma_TFLOPs, double_fma_TFLOPs,
 * half_fma_TFLOPs, fp64_to_fp32_ratio), all timed with CUDA events.
 * Owns: the FMA iteration count (calibrated so one kernel runs about FMA_TARGET_MS), the grid (one
 *       full wave: SMs x resident blocks per SM), and the result checks (copied bytes; every
 *       thread's FMA result against the same recurrence computed on the host).
 * Not: kernels (kernels.cu), statistics.
 * Threads: the probe's one host thread. */
#include "probe.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernels.h"

#define CHECK_BYTES GP_MiB

typedef struct ev_pair { cudaEvent_t start, stop; } ev_pair;

static int events_make(gp_run *r, ev_pair *e) {
  GP_CK(r, "creating CUDA events", cudaEventCreate(&e->start));
  GP_CK(r, "creating CUDA events", cudaEventCreate(&e->stop));
  return 0;
}

static int events_free(gp_run *r, ev_pair *e) {
  GP_CK(r, "destroying CUDA events", cudaEventDestroy(e->start));
  GP_CK(r, "destroying CUDA events", cudaEventDestroy(e->stop));
  return 0;
}

/* Milliseconds between the pair, after waiting for stop. */
static int events_ms(gp_run *r, ev_pair *e, const char *doing, float *ms) {
  GP_CK(r, doing, cudaEventSynchronize(e->stop));
  GP_CK(r, "reading CUDA event times", cudaEventElapsedTime(ms, e->start, e->stop));
  return 0;
}

/* ---- device-to-device copy ------------------------------------------------------------------ */

static int d2d_sample(gp_run *r, ev_pair *e, void *dst, const void *src, size_t size, double *gbps) {
  float ms = 0;
  GP_CK(r, "recording a CUDA event", cudaEventRecord(e->start, r->stream));
  GP_CK(r, "copying device to device", cudaMemcpyAsync(dst, src, size, cudaMemcpyDeviceToDevice, r->stream));
  GP_CK(r, "recording a CUDA event", cudaEventRecord(e->stop, r->stream));
  GP_TRY(events_ms(r, e, "copying device to device", &ms));
  *gbps = ms > 0 ? 2.0 * (double)size / (ms * 1e-3) / 1e9 : 0;
  return 0;
}

static int d2d_check_range(gp_run *r, const unsigned *dst, size_t first_word, unsigned *host) {
  GP_CK(r, "reading back the device-to-device copy",
        cudaMemcpy(host, dst + first_word, CHECK_BYTES, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < CHECK_BYTES / 4; i++) {
    unsigned want = (unsigned)((first_word + i) * 2654435761u);
    if (host[i] != want)
      return gp_fail_set(r->fail, GP_EXIT_CHECK, "checking the device-to-device copy failed: word "
                         "%zu is 0x%08x, expected 0x%08x; the GPU returned wrong data, check "
                         "nvidia-smi for errors (ECC, Xid) and rerun", first_word + i, host[i], want);
  }
  return 0;
}

/* 4 GiB (quick 256 MiB), halved while the two buffers would take over half the free memory. */
static int d2d_size(gp_run *r, size_t *size) {
  size_t free_b = 0, total_b = 0;
  GP_CK(r, "reading the device's free memory", cudaMemGetInfo(&free_b, &total_b));
  *size = r->quick ? 256 * GP_MiB : 4096 * GP_MiB;
  while (*size > 64 * GP_MiB && 2 * *size > free_b / 2) *size /= 2;
  return 0;
}

/* Samples the copy, checks it and records d2d_copy_GBps. */
static int d2d_measure(gp_run *r, void *dst, const void *src, size_t size) {
  ev_pair e;
  GP_TRY(events_make(r, &e));
  GP_CK(r, "clearing device memory", cudaMemsetAsync(dst, 0, size, r->stream));
  double gbps;
  for (int i = 0; i < 2; i++) GP_TRY(d2d_sample(r, &e, dst, src, size, &gbps)); /* warm-up */
  gp_sampler s;
  gp_sampler_start(&s, r, GP_KERNEL);
  while (!gp_sampler_done(&s, gp_now_s())) {
    GP_TRY(d2d_sample(r, &e, dst, src, size, &gbps));
    gp_sampler_add(&s, gbps);
  }
  GP_TRY(events_free(r, &e));
  unsigned *host = malloc(CHECK_BYTES);
  if (!host) return gp_fail_set(r->fail, GP_EXIT_MEMORY, "allocating 1 MiB of host memory failed");
  int rc = d2d_check_range(r, dst, 0, host);
  if (rc == 0) rc = d2d_check_range(r, dst, (size - CHECK_BYTES) / 4, host);
  free(host);
  GP_TRY(rc);
  char what[384];
  snprintf(what, sizeof what, "device-to-device cudaMemcpyAsync of %zu MiB, bytes read + written "
           "(2 x size) over CUDA event time; GB = 1e9 bytes%s", size / GP_MiB,
           r->quick ? " (quick mode: 256 MiB and fewer samples; full mode copies 4 GiB)" : "");
  return gp_record(r, "d2d_copy_GBps", "GB/s", what, &s);
}

int gp_measure_d2d(gp_run *r) {
  size_t size = 0;
  GP_TRY(d2d_size(r, &size));
  void *src = NULL, *dst = NULL;
  GP_CK(r, "allocating device memory for the device-to-device copy", cudaMalloc(&src, size));
  GP_CK(r, "allocating device memory for the device-to-device copy", cudaMalloc(&dst, size));
  GP_CK(r, "filling device memory", gp_k_fill(r->stream, src, size / 4));
  GP_TRY(d2d_measure(r, dst, src, size));
  GP_CK(r, "freeing device memory", cudaFree(src));
  GP_CK(r, "freeing device memory", cudaFree(dst));
  return 0;
}

/* ---- FMA throughput ------------------------------------------------------------------------- */

#define FMA_TYPES 3
#define FMA_MIN_ITERS 1024
#define FMA_MAX_ITERS (1 << 28)

/* float: m = 1 - 2^-20, c = 2^-10; double: m = 1 - 2^-40, c = 2^-30 (fixed point 1024 in both, far
 * from reached, so the result depends on every step). half uses m = 0.5, c = 1 (kernels.h). */
static const double k_m[FMA_TYPES] = {1.0 - 0x1p-20, 1.0 - 0x1p-40, 0.5};
static const double k_c[FMA_TYPES] = {0x1p-10, 0x1p-30, 1.0};
static const char *const k_names[FMA_TYPES] = {"float", "double", "half2"};

typedef struct fma_state {
  int types;                 /* 2 (float, double) or 3 (and half) */
  int blocks;
  int iters[FMA_TYPES];
  void *out[FMA_TYPES];
  ev_pair e;
} fma_state;

static size_t fma_threads(const fma_state *st) {
  return (size_t)st->blocks * GP_FMA_THREADS;
}

static double fma_flops(const fma_state *st, int t) {
  double per_step = t == GP_FMA_HALF ? 4.0 : 2.0;  /* half2: two lanes of 2 FLOP */
  return (double)fma_threads(st) * st->iters[t] * GP_FMA_CHAINS * per_step;
}

static int fma_time(gp_run *r, fma_state *st, int t, int iters, float *ms) {
  GP_CK(r, "recording a CUDA event", cudaEventRecord(st->e.start, r->stream));
  GP_CK(r, "launching the FMA kernel",
        gp_k_fma(r->stream, (enum gp_fma_type)t, st->blocks, iters, k_m[t], k_c[t], st->out[t]));
  GP_CK(r, "recording a CUDA event", cudaEventRecord(st->e.stop, r->stream));
  return events_ms(r, &st->e, "running the FMA kernel", ms);
}

/* Scales the iteration count so one kernel takes about target_ms, twice (the first run may see a
 * GPU still raising its clocks). */
static int fma_calibrate(gp_run *r, fma_state *st, int t, double target_ms) {
  int iters = FMA_MIN_ITERS;
  float ms = 0;
  GP_TRY(fma_time(r, st, t, iters, &ms)); /* warm-up: module load, clocks */
  for (int pass = 0; pass < 2; pass++) {
    GP_TRY(fma_time(r, st, t, iters, &ms));
    double want = ms > 0 ? iters * target_ms / ms : FMA_MAX_ITERS;
    if (want > FMA_MAX_ITERS) want = FMA_MAX_ITERS;
    if (want < FMA_MIN_ITERS) want = FMA_MIN_ITERS;
    iters = (int)want;
  }
  st->iters[t] = iters;
  return 0;
}

/* The value every thread must have stored, from the same recurrence on the host (C's fmaf / fma
 * are exactly rounded, as the GPU's are), summed in the kernel's order. */
static double fma_expected(int t, int iters) {
  if (t == GP_FMA_HALF) return 2.0 * 2 * GP_FMA_CHAINS;
  if (t == GP_FMA_FLOAT) {
    float a[GP_FMA_CHAINS], m = (float)k_m[t], c = (float)k_c[t], sum = 0;
    for (int k = 0; k < GP_FMA_CHAINS; k++) a[k] = (float)(k + 1);
    for (int i = 0; i < iters; i++)
      for (int k = 0; k < GP_FMA_CHAINS; k++) a[k] = fmaf(a[k], m, c);
    for (int k = 0; k < GP_FMA_CHAINS; k++) sum += a[k];
    return sum;
  }
  double a[GP_FMA_CHAINS], sum = 0;
  for (int k = 0; k < GP_FMA_CHAINS; k++) a[k] = k + 1;
  for (int i = 0; i < iters; i++)
    for (int k = 0; k < GP_FMA_CHAINS; k++) a[k] = fma(a[k], k_m[t], k_c[t]);
  for (int k = 0; k < GP_FMA_CHAINS; k++) sum += a[k];
  return sum;
}

static int fma_check(gp_run *r, const fma_state *st, int t) {
  size_t n = fma_threads(st), elem = t == GP_FMA_DOUBLE ? sizeof(double) : sizeof(float);
  void *host = malloc(n * elem);
  if (!host) return gp_fail_set(r->fail, GP_EXIT_MEMORY, "allocating host memory for the FMA check failed");
  GP_CK(r, "reading back the FMA results", cudaMemcpy(host, st->out[t], n * elem, cudaMemcpyDeviceToHost));
  double want = fma_expected(t, st->iters[t]);
  double tol = t == GP_FMA_DOUBLE ? 1e-12 : t == GP_FMA_FLOAT ? 1e-5 : 0;
  for (size_t i = 0; i < n; i++) {
    double got = t == GP_FMA_DOUBLE ? ((double *)host)[i] : ((float *)host)[i];
    if (isfinite(got) && fabs(got - want) <= tol * fabs(want)) continue;
    free(host);
    return gp_fail_set(r->fail, GP_EXIT_CHECK, "checking the %s FMA kernel failed: thread %zu "
                       "stored %.17g, the host computes %.17g for %d steps; the GPU computed "
                       "wrong results, check nvidia-smi for errors (ECC, Xid) and rerun",
                       k_names[t], i, got, want, st->iters[t]);
  }
  free(host);
  return 0;
}

static int fma_setup(gp_run *r, fma_state *st, int sm_count) {
  int per_sm = 1;
  for (int t = 0; t < st->types; t++) {
    int b = 1;
    GP_CK(r, "computing the FMA kernel's occupancy", gp_k_fma_blocks_per_sm((enum gp_fma_type)t, &b));
    if (t == 0 || b < per_sm) per_sm = b;
  }
  st->blocks = (sm_count > 0 ? sm_count : 1) * per_sm;
  for (int t = 0; t < st->types; t++)
    GP_CK(r, "allocating device memory for the FMA results",
          cudaMalloc(&st->out[t], fma_threads(st) * sizeof(double)));
  return events_make(r, &st->e);
}

static int fma_record(gp_run *r, const fma_state *st, gp_sampler s[FMA_TYPES + 1]) {
  static const char *const keys[FMA_TYPES] = {"float_fma_TFLOPs", "double_fma_TFLOPs", "half_fma_TFLOPs"};
  const char *note = r->quick ? "; quick mode: shorter kernels, fewer samples" : "";
  char what[384];
  for (int t = 0; t < st->types; t++) {
    snprintf(what, sizeof what, "%s FMA throughput, %d blocks x %d threads x %d independent "
             "chains x %d steps, %s per FMA, CUDA event time%s", k_names[t], st->blocks,
             GP_FMA_THREADS, GP_FMA_CHAINS, st->iters[t],
             t == GP_FMA_HALF ? "4 FLOP per __hfma2 (2 per lane)" : "2 FLOP", note);
    GP_TRY(gp_record(r, keys[t], "TFLOP/s", what, &s[t]));
  }
  snprintf(what, sizeof what, "double_fma_TFLOPs / float_fma_TFLOPs from paired samples%s", note);
  return gp_record(r, "fp64_to_fp32_ratio", "ratio", what, &s[FMA_TYPES]);
}

int gp_measure_fma(gp_run *r, int cc_major, int cc_minor, int sm_count) {
  fma_state st = {0};
  st.types = cc_major > 5 || (cc_major == 5 && cc_minor >= 3) ? 3 : 2;
  double target_ms = r->quick ? 2.0 : 10.0;
  GP_TRY(fma_setup(r, &st, sm_count));
  for (int t = 0; t < st.types; t++) GP_TRY(fma_calibrate(r, &st, t, target_ms));
  gp_sampler s[FMA_TYPES + 1];
  for (int t = 0; t < FMA_TYPES + 1; t++) gp_sampler_start(&s[t], r, GP_KERNEL);
  while (!gp_sampler_done(&s[FMA_TYPES], gp_now_s())) {
    double tflops[FMA_TYPES] = {0};
    for (int t = 0; t < st.types; t++) {
      float ms = 0;
      GP_TRY(fma_time(r, &st, t, st.iters[t], &ms));
      tflops[t] = ms > 0 ? fma_flops(&st, t) / (ms * 1e-3) / 1e12 : 0;
      gp_sampler_add(&s[t], tflops[t]);
    }
    gp_sampler_add(&s[FMA_TYPES], tflops[0] > 0 ? tflops[GP_FMA_DOUBLE] / tflops[GP_FMA_FLOAT] : 0);
  }
  for (int t = 0; t < st.types; t++) GP_TRY(fma_check(r, &st, t));
  for (int t = 0; t < st.types; t++) GP_CK(r, "freeing device memory", cudaFree(st.out[t]));
  GP_TRY(events_free(r, &st.e));
  return fma_record(r, &st, s);
}
