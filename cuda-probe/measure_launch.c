/* measure_launch.c: kernel launch and synchronize latencies (launch_async_us, launch_sync_us,
 * sync_idle_us) and how much a host timer that does not synchronize under-reports a kernel
 * (fixed_kernel_synced_ms, fixed_kernel_unsynced_ms, timer_underreport_x).
 * Owns: the launch batches (LAUNCH_BATCH launches, far below the launch queue's depth, with a
 *       synchronize between batches outside the timed region) and the spin kernel's check.
 * Not: kernels (kernels.cu), statistics.
 * Threads: the probe's one host thread. */
#include "probe.h"

#include <stdio.h>

#include "kernels.h"

#define LAUNCH_BATCH 100

static const char *quick_note(const gp_run *r) {
  return r->quick ? " (quick mode: fewer samples)" : "";
}

/* The enqueue cost: the host clock covers the LAUNCH_BATCH launches only. */
static int async_sample(gp_run *r, double *us) {
  double t0 = gp_now_s();
  GP_CK(r, "launching an empty kernel", gp_k_empty(r->stream, LAUNCH_BATCH));
  double t1 = gp_now_s();
  GP_CK(r, "synchronizing the stream after empty kernels", cudaStreamSynchronize(r->stream));
  *us = (t1 - t0) * 1e6 / LAUNCH_BATCH;
  return 0;
}

static int sync_sample(gp_run *r, double *us) {
  double t0 = gp_now_s();
  for (int i = 0; i < LAUNCH_BATCH; i++) {
    GP_CK(r, "launching an empty kernel", gp_k_empty(r->stream, 1));
    GP_CK(r, "synchronizing the stream after an empty kernel", cudaStreamSynchronize(r->stream));
  }
  *us = (gp_now_s() - t0) * 1e6 / LAUNCH_BATCH;
  return 0;
}

static int idle_sample(gp_run *r, double *us) {
  double t0 = gp_now_s();
  for (int i = 0; i < LAUNCH_BATCH; i++)
    GP_CK(r, "synchronizing an idle device", cudaDeviceSynchronize());
  *us = (gp_now_s() - t0) * 1e6 / LAUNCH_BATCH;
  return 0;
}

typedef int (*sample_fn)(gp_run *r, double *us);

static int latency_metric(gp_run *r, sample_fn fn, const char *key, const char *what_head) {
  double us;
  GP_TRY(fn(r, &us)); /* warm-up */
  gp_sampler s;
  gp_sampler_start(&s, r, GP_LATENCY);
  while (!gp_sampler_done(&s, gp_now_s())) {
    GP_TRY(fn(r, &us));
    gp_sampler_add(&s, us);
  }
  char what[384];
  snprintf(what, sizeof what, "%s, each sample averages %d%s", what_head, LAUNCH_BATCH, quick_note(r));
  return gp_record(r, key, "us", what, &s);
}

int gp_measure_launch(gp_run *r) {
  /* The first launch loads the module (lazy loading): keep it out of every sample. */
  GP_CK(r, "launching an empty kernel", gp_k_empty(r->stream, 1));
  GP_CK(r, "synchronizing the stream after an empty kernel", cudaStreamSynchronize(r->stream));
  GP_TRY(latency_metric(r, async_sample, "launch_async_us",
                        "enqueue cost of one empty <<<1,1>>> kernel launch on a stream: host clock "
                        "around a batch of launches with no synchronize inside it (it follows the "
                        "timed region)"));
  GP_TRY(latency_metric(r, sync_sample, "launch_sync_us",
                        "one empty <<<1,1>>> kernel launch + cudaStreamSynchronize, host clock"));
  return latency_metric(r, idle_sample, "sync_idle_us",
                        "cudaDeviceSynchronize with nothing pending, host clock");
}

/* One pair: the launch alone timed (then synchronized outside the timed region), and launch +
 * synchronize timed; both in milliseconds. */
static int fixed_pair(gp_run *r, unsigned long long ns, unsigned long long *d_elapsed,
                      double *unsynced_ms, double *synced_ms) {
  double t0 = gp_now_s();
  GP_CK(r, "launching the fixed-duration kernel", gp_k_spin(r->stream, ns, d_elapsed));
  double t1 = gp_now_s();
  GP_CK(r, "running the fixed-duration kernel", cudaStreamSynchronize(r->stream));
  t0 = t1 - t0;
  double t2 = gp_now_s();
  GP_CK(r, "launching the fixed-duration kernel", gp_k_spin(r->stream, ns, d_elapsed));
  GP_CK(r, "running the fixed-duration kernel", cudaStreamSynchronize(r->stream));
  double t3 = gp_now_s();
  *unsynced_ms = t0 * 1e3;
  *synced_ms = (t3 - t2) * 1e3;
  return 0;
}

static int fixed_check(gp_run *r, const unsigned long long *d_elapsed, unsigned long long ns) {
  unsigned long long seen = 0;
  GP_CK(r, "reading the fixed-duration kernel's timer",
        cudaMemcpy(&seen, d_elapsed, sizeof seen, cudaMemcpyDeviceToHost));
  if (seen >= ns) return 0;
  return gp_fail_set(r->fail, GP_EXIT_CHECK, "checking the fixed-duration kernel failed: it saw "
                     "%llu ns of %%globaltimer pass instead of %llu ns; the GPU's global timer did "
                     "not advance, rerun and check nvidia-smi", seen, ns);
}

int gp_measure_fixed_kernel(gp_run *r) {
  unsigned long long ns = r->quick ? 2000000ull : 10000000ull;
  unsigned long long *d_elapsed = NULL;
  GP_CK(r, "allocating device memory for the fixed-duration kernel",
        cudaMalloc((void **)&d_elapsed, sizeof *d_elapsed));
  double u, y;
  GP_TRY(fixed_pair(r, ns, d_elapsed, &u, &y)); /* warm-up */
  gp_sampler su, sy, sx;
  gp_sampler_start(&su, r, GP_KERNEL);
  gp_sampler_start(&sy, r, GP_KERNEL);
  gp_sampler_start(&sx, r, GP_KERNEL);
  while (!gp_sampler_done(&sx, gp_now_s())) {
    GP_TRY(fixed_pair(r, ns, d_elapsed, &u, &y));
    gp_sampler_add(&su, u);
    gp_sampler_add(&sy, y);
    gp_sampler_add(&sx, u > 0 ? y / u : 0);
  }
  GP_TRY(fixed_check(r, d_elapsed, ns));
  GP_CK(r, "freeing device memory", cudaFree(d_elapsed));
  double ms = (double)ns / 1e6;
  char what[384];
  snprintf(what, sizeof what, "host clock around launch + cudaStreamSynchronize of a one-thread "
           "kernel that spins on %%globaltimer for %g ms%s", ms,
           r->quick ? " (quick mode: 2 ms and fewer samples; full mode spins 10 ms)" : "");
  GP_TRY(gp_record(r, "fixed_kernel_synced_ms", "ms", what, &sy));
  snprintf(what, sizeof what, "host clock around the launch alone of the same %g ms kernel (the "
           "synchronize comes after the timer stops), what an unsynchronized timer reports%s", ms,
           quick_note(r));
  GP_TRY(gp_record(r, "fixed_kernel_unsynced_ms", "ms", what, &su));
  snprintf(what, sizeof what, "fixed_kernel_synced_ms / fixed_kernel_unsynced_ms from paired "
           "samples: how many times an unsynchronized host timer under-reports a %g ms kernel%s",
           ms, quick_note(r));
  return gp_record(r, "timer_underreport_x", "x", what, &sx);
}
