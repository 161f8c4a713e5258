/* measure_alloc.c: device allocation cost: cudaMalloc + cudaFree pairs (cudaMalloc_free_*_us)
 * against stream-ordered pool allocation, cudaMallocAsync + cudaFreeAsync pairs from the device's
 * default pool with its release threshold at UINT64_MAX (pool_alloc_*_us).
 * Owns: the pool's release threshold for the run (the pool is trimmed back to 0 at the end).
 * Not: statistics, kernels.
 * Threads: the probe's one host thread. */
#include "probe.h"

#include <stdint.h>
#include <stdio.h>

#define MALLOC_REPS 10   /* cudaMalloc + cudaFree pairs per sample */
#define POOL_REPS 100    /* cudaMallocAsync + cudaFreeAsync pairs per sample */

static const size_t k_sizes[] = {GP_MiB, 64 * GP_MiB, 256 * GP_MiB};

static int malloc_sample(gp_run *r, size_t size, double *us) {
  double t0 = gp_now_s();
  for (int i = 0; i < MALLOC_REPS; i++) {
    void *p = NULL;
    GP_CK(r, "allocating device memory with cudaMalloc", cudaMalloc(&p, size));
    GP_CK(r, "freeing device memory with cudaFree", cudaFree(p));
  }
  *us = (gp_now_s() - t0) * 1e6 / MALLOC_REPS;
  return 0;
}

/* The host cost of the stream-ordered pairs; the stream synchronize follows the timed region. */
static int pool_sample(gp_run *r, size_t size, double *us) {
  double t0 = gp_now_s();
  for (int i = 0; i < POOL_REPS; i++) {
    void *p = NULL;
    GP_CK(r, "allocating device memory with cudaMallocAsync", cudaMallocAsync(&p, size, r->stream));
    GP_CK(r, "freeing device memory with cudaFreeAsync", cudaFreeAsync(p, r->stream));
  }
  double t1 = gp_now_s();
  GP_CK(r, "synchronizing the stream after pool allocations", cudaStreamSynchronize(r->stream));
  *us = (t1 - t0) * 1e6 / POOL_REPS;
  return 0;
}

typedef int (*alloc_fn)(gp_run *r, size_t size, double *us);

static int alloc_metric(gp_run *r, alloc_fn fn, size_t size, const char *key_head, const char *what_head,
                        int reps) {
  double us;
  GP_TRY(fn(r, size, &us)); /* warm-up */
  gp_sampler s;
  gp_sampler_start(&s, r, GP_ALLOC);
  while (!gp_sampler_done(&s, gp_now_s())) {
    GP_TRY(fn(r, size, &us));
    gp_sampler_add(&s, us);
  }
  char key[64], what[384];
  snprintf(key, sizeof key, "%s_%zuMiB_us", key_head, size / GP_MiB);
  snprintf(what, sizeof what, "%s of %zu MiB, host clock, each sample averages %d pairs%s", what_head,
           size / GP_MiB, reps, r->quick ? " (quick mode: fewer samples)" : "");
  return gp_record(r, key, "us", what, &s);
}

static int pool_metrics(gp_run *r) {
  int supported = 0;
  GP_CK(r, "asking whether the device supports memory pools",
        cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, r->device));
  if (!supported) {
    gp_progress("[alloc] this device has no stream-ordered memory pools: pool_alloc_* skipped");
    return 0;
  }
  cudaMemPool_t pool;
  uint64_t threshold = UINT64_MAX;
  GP_CK(r, "getting the device's default memory pool", cudaDeviceGetDefaultMemPool(&pool, r->device));
  GP_CK(r, "setting the memory pool's release threshold",
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  /* Warm the pool: one allocation of each size, so the samples reuse memory it already holds. */
  for (size_t i = 0; i < sizeof k_sizes / sizeof *k_sizes; i++) {
    void *p = NULL;
    GP_CK(r, "allocating device memory with cudaMallocAsync", cudaMallocAsync(&p, k_sizes[i], r->stream));
    GP_CK(r, "freeing device memory with cudaFreeAsync", cudaFreeAsync(p, r->stream));
  }
  GP_CK(r, "synchronizing the stream after pool allocations", cudaStreamSynchronize(r->stream));
  for (size_t i = 0; i < sizeof k_sizes / sizeof *k_sizes; i++)
    GP_TRY(alloc_metric(r, pool_sample, k_sizes[i], "pool_alloc",
                        "cudaMallocAsync + cudaFreeAsync pair on a stream from the warmed default "
                        "pool (release threshold UINT64_MAX; the synchronize follows the timed "
                        "region)", POOL_REPS));
  GP_CK(r, "trimming the memory pool", cudaMemPoolTrimTo(pool, 0));
  return 0;
}

int gp_measure_alloc(gp_run *r) {
  for (size_t i = 0; i < sizeof k_sizes / sizeof *k_sizes; i++)
    GP_TRY(alloc_metric(r, malloc_sample, k_sizes[i], "cudaMalloc_free",
                        "cudaMalloc + cudaFree pair", MALLOC_REPS));
  return pool_metrics(r);
}
