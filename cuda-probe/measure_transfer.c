/* measure_transfer.c: host<->device copies: the 4-byte round trips (item_roundtrip_us,
 * d2h_scalar_pinned_us) and the bandwidth of {h2d,d2h} x {pageable,pinned} at several sizes.
 * Owns: the host and device buffers of these measurements (freed before returning on success), the
 *       byte checks (the 4-byte value read back, and a full-size round trip compared byte for byte).
 * Not: statistics (stats.c), the JSON (evidence_json.c).
 * Threads: the probe's one host thread. */
#include "probe.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAT_BATCH 100                      /* calls averaged into one latency sample */
#define BW_BYTES_PER_SAMPLE (32 * GP_MiB)  /* small copies repeat until a sample moves this much */
#define SCALAR_PATTERN 0x5A5A5A5Au

static const char *quick_note(const gp_run *r) {
  return r->quick ? " (quick mode: fewer samples)" : "";
}

/* One latency sample: LAT_BATCH 4-byte reads from d into host (pageable: cudaMemcpy; pinned:
 * cudaMemcpyAsync on the run's stream + cudaStreamSynchronize), in microseconds per read. */
static int scalar_batch(gp_run *r, unsigned *host, const unsigned *d, int pinned, double *us) {
  double t0 = gp_now_s();
  for (int i = 0; i < LAT_BATCH; i++) {
    if (pinned) {
      GP_CK(r, "copying 4 bytes device to pinned host memory",
            cudaMemcpyAsync(host, d, 4, cudaMemcpyDeviceToHost, r->stream));
      GP_CK(r, "synchronizing the stream after a 4-byte copy", cudaStreamSynchronize(r->stream));
    } else {
      GP_CK(r, "copying 4 bytes device to pageable host memory",
            cudaMemcpy(host, d, 4, cudaMemcpyDeviceToHost));
    }
  }
  *us = (gp_now_s() - t0) * 1e6 / LAT_BATCH;
  return 0;
}

static int scalar_metric(gp_run *r, unsigned *host, const unsigned *d, int pinned) {
  double us;
  GP_TRY(scalar_batch(r, host, d, pinned, &us)); /* warm-up */
  *host = 0;
  gp_sampler s;
  gp_sampler_start(&s, r, GP_LATENCY);
  while (!gp_sampler_done(&s, gp_now_s())) {
    GP_TRY(scalar_batch(r, host, d, pinned, &us));
    gp_sampler_add(&s, us);
  }
  if (*host != SCALAR_PATTERN)
    return gp_fail_set(r->fail, GP_EXIT_CHECK, "checking a 4-byte device-to-host copy failed: read "
                       "0x%08x, expected 0x%08x; the GPU or driver returned wrong data, check "
                       "nvidia-smi for errors (ECC, Xid) and rerun", *host, SCALAR_PATTERN);
  char what[384];
  if (pinned) {
    snprintf(what, sizeof what, "4-byte cudaMemcpyAsync device to pinned host memory + "
             "cudaStreamSynchronize, host clock, each sample averages %d%s", LAT_BATCH, quick_note(r));
    return gp_record(r, "d2h_scalar_pinned_us", "us", what, &s);
  }
  snprintf(what, sizeof what, "4-byte device-to-host cudaMemcpy into pageable host memory (what "
           ".item() / .get() of a scalar pays, minus Python), host clock, each sample averages "
           "%d%s", LAT_BATCH, quick_note(r));
  return gp_record(r, "item_roundtrip_us", "us", what, &s);
}

int gp_measure_latency(gp_run *r) {
  unsigned *d = NULL, *pinned = NULL;
  unsigned *pageable = malloc(sizeof *pageable);
  if (!pageable) return gp_fail_set(r->fail, GP_EXIT_MEMORY, "allocating 4 bytes of host memory failed");
  GP_CK(r, "allocating 256 bytes of device memory", cudaMalloc((void **)&d, 256));
  GP_CK(r, "filling device memory", cudaMemset(d, 0x5A, 256));
  GP_CK(r, "synchronizing the device", cudaDeviceSynchronize());
  GP_CK(r, "allocating 4 bytes of pinned host memory", cudaMallocHost((void **)&pinned, 4));
  GP_TRY(scalar_metric(r, pageable, d, 0));
  GP_TRY(scalar_metric(r, pinned, d, 1));
  free(pageable);
  GP_CK(r, "freeing pinned host memory", cudaFreeHost(pinned));
  GP_CK(r, "freeing device memory", cudaFree(d));
  return 0;
}

/* ---- bandwidth ---------------------------------------------------------------------------- */

typedef struct bw_bufs {
  void *dev;
  unsigned char *pageable_src, *pageable_dst, *pinned_src, *pinned_dst;
  size_t max;
} bw_bufs;

static void fill_pattern(unsigned char *p, size_t bytes) {
  uint32_t *w = (uint32_t *)p;
  for (size_t i = 0; i < bytes / 4; i++) w[i] = (uint32_t)(i * 2654435761u);
}

static void size_label(char *buf, size_t n, size_t bytes) {
  if (bytes >= GP_MiB) snprintf(buf, n, "%zuMiB", bytes / GP_MiB);
  else snprintf(buf, n, "%zuKiB", bytes / 1024);
}

/* One bandwidth sample: reps copies of size bytes, then a stream synchronize, host clock. */
static int bw_sample(gp_run *r, void *dst, const void *src, size_t size, int reps,
                     enum cudaMemcpyKind kind, const char *doing, double *gbps) {
  double t0 = gp_now_s();
  for (int i = 0; i < reps; i++) GP_CK(r, doing, cudaMemcpyAsync(dst, src, size, kind, r->stream));
  GP_CK(r, "synchronizing the stream after host<->device copies", cudaStreamSynchronize(r->stream));
  double dt = gp_now_s() - t0;
  *gbps = dt > 0 ? (double)size * reps / dt / 1e9 : 0;
  return 0;
}

static int bw_metric(gp_run *r, const bw_bufs *b, int h2d, int pinned, size_t size) {
  const char *dir = h2d ? "h2d" : "d2h", *mem = pinned ? "pinned" : "pageable";
  void *host = pinned ? (h2d ? b->pinned_src : b->pinned_dst) : (h2d ? b->pageable_src : b->pageable_dst);
  void *dst = h2d ? b->dev : host;
  const void *src = h2d ? (const void *)host : b->dev;
  enum cudaMemcpyKind kind = h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  int reps = size >= BW_BYTES_PER_SAMPLE ? 1 : (int)(BW_BYTES_PER_SAMPLE / size);
  char label[32], doing[128], key[64], what[384];
  size_label(label, sizeof label, size);
  snprintf(doing, sizeof doing, "copying %s %s %s host memory", label,
           h2d ? "host to device from" : "device to host into", mem);
  double gbps;
  GP_TRY(bw_sample(r, dst, src, size, reps, kind, doing, &gbps)); /* warm-up */
  gp_sampler s;
  gp_sampler_start(&s, r, GP_BANDWIDTH);
  while (!gp_sampler_done(&s, gp_now_s())) {
    GP_TRY(bw_sample(r, dst, src, size, reps, kind, doing, &gbps));
    gp_sampler_add(&s, gbps);
  }
  snprintf(key, sizeof key, "%s_%s_%s_GBps", dir, mem, label);
  snprintf(what, sizeof what, "%s cudaMemcpyAsync of %s %s %s host memory, %d per sample, then "
           "cudaStreamSynchronize, host clock; GB = 1e9 bytes%s", h2d ? "host-to-device" : "device-to-host",
           label, h2d ? "from" : "into", mem, reps, quick_note(r));
  GP_TRY(gp_record(r, key, "GB/s", what, &s));
  if (size != b->max) return 0;
  snprintf(key, sizeof key, "%s_%s_GBps", dir, mem);
  snprintf(what, sizeof what, "%s cudaMemcpyAsync %s %s host memory at the largest size measured, "
           "%s, then cudaStreamSynchronize, host clock; GB = 1e9 bytes%s",
           h2d ? "host-to-device" : "device-to-host", h2d ? "from" : "into", mem, label,
           r->quick ? " (quick mode: 64 MiB and fewer samples; full mode uses 256 MiB)" : "");
  return gp_record(r, key, "GB/s", what, &s);
}

static int bw_check(gp_run *r, const bw_bufs *b, const unsigned char *got, const char *mem) {
  if (memcmp(got, b->pageable_src, b->max) == 0) return 0;
  size_t at = 0;
  while (at < b->max && got[at] == b->pageable_src[at]) at++;
  return gp_fail_set(r->fail, GP_EXIT_CHECK, "checking a host->device->host round trip into %s "
                     "memory failed: byte %zu of %zu differs; the GPU, driver or PCIe link returned "
                     "wrong data, check nvidia-smi for errors (ECC, Xid) and rerun", mem, at, b->max);
}

static int bw_alloc(gp_run *r, bw_bufs *b) {
  b->pageable_src = malloc(b->max);
  b->pageable_dst = malloc(b->max);
  if (!b->pageable_src || !b->pageable_dst)
    return gp_fail_set(r->fail, GP_EXIT_MEMORY, "allocating 2 x %zu MiB of pageable host memory "
                       "failed; free host memory or run with --quick", b->max / GP_MiB);
  /* Writing every page now faults it in, so no copy pays the first-touch cost (a non-zero fill:
   * the compiler may turn malloc + memset(0) into calloc, which leaves the pages untouched). */
  fill_pattern(b->pageable_src, b->max);
  memset(b->pageable_dst, 0xEE, b->max);
  GP_CK(r, "allocating pinned host memory for the bandwidth test",
        cudaMallocHost((void **)&b->pinned_src, b->max));
  GP_CK(r, "allocating pinned host memory for the bandwidth test",
        cudaMallocHost((void **)&b->pinned_dst, b->max));
  memcpy(b->pinned_src, b->pageable_src, b->max);
  memset(b->pinned_dst, 0xEE, b->max);
  GP_CK(r, "allocating device memory for the bandwidth test", cudaMalloc(&b->dev, b->max));
  return 0;
}

int gp_measure_bandwidth(gp_run *r) {
  static const size_t full[] = {64 * 1024, GP_MiB, 16 * GP_MiB, 256 * GP_MiB};
  static const size_t quick[] = {64 * 1024, GP_MiB, 64 * GP_MiB};
  const size_t *sizes = r->quick ? quick : full;
  size_t n = r->quick ? sizeof quick / sizeof *quick : sizeof full / sizeof *full;
  bw_bufs b = {0};
  b.max = sizes[n - 1];
  GP_TRY(bw_alloc(r, &b));
  /* Host to device first: the largest copy leaves the pattern in device memory, which the device
   * to host copies then bring back for the byte-for-byte check. */
  for (int pinned = 0; pinned < 2; pinned++)
    for (size_t i = 0; i < n; i++) GP_TRY(bw_metric(r, &b, 1, pinned, sizes[i]));
  for (int pinned = 0; pinned < 2; pinned++)
    for (size_t i = 0; i < n; i++) GP_TRY(bw_metric(r, &b, 0, pinned, sizes[i]));
  GP_TRY(bw_check(r, &b, b.pageable_dst, "pageable"));
  GP_TRY(bw_check(r, &b, b.pinned_dst, "pinned"));
  GP_CK(r, "freeing device memory", cudaFree(b.dev));
  GP_CK(r, "freeing pinned host memory", cudaFreeHost(b.pinned_src));
  GP_CK(r, "freeing pinned host memory", cudaFreeHost(b.pinned_dst));
  free(b.pageable_src);
  free(b.pageable_dst);
  return 0;
}
