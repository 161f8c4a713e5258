/* probe.h: what the probe's measurement modules share: the run (options, stream, document,
 * failure record), the CUDA check macro, the host clock, progress lines and the entry points.
 * Owns: gp_run and gp_fail; GP_CK, which turns a failed CUDA call into a status and a sentence.
 * Not: statistics (stats.h), the document and its JSON (evidence_json.h), exit-status classes
 *      (cuerr.h), kernels (kernels.h).
 * Threads: the probe is single-threaded (context.c forks processes, never threads). */
#ifndef GP_PROBE_H
#define GP_PROBE_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "cuerr.h"
#include "evidence_json.h"
#include "stats.h"

#define GP_VERSION "0.1.0"
#define GP_MiB ((size_t)1 << 20)

/* The first failure: its exit status and one sentence (printed by main.c after "gpulint-probe: "). */
typedef struct gp_fail {
  int status;
  char msg[1024];
} gp_fail;

typedef struct gp_run {
  int quick;              /* --quick: fewer samples, smaller sizes */
  int device;             /* --device N */
  cudaStream_t stream;    /* a non-blocking stream every measurement uses */
  gp_evidence *ev;        /* metrics land here */
  gp_fail *fail;
} gp_run;

/* Records a failed CUDA call (doing: what the probe was doing, "copying 4 bytes device to host")
 * with the runtime's error name; returns the exit status from gp_cuerr_status. */
int gp_fail_cuda(gp_fail *f, const char *doing, cudaError_t e);

/* Records any other failure; returns status. */
int gp_fail_set(gp_fail *f, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Returns from the calling function (which returns int) with the status of a failed CUDA call. */
#define GP_CK(run, doing, call)                                              \
  do {                                                                       \
    cudaError_t gp_ck_err_ = (call);                                         \
    if (gp_ck_err_ != cudaSuccess) return gp_fail_cuda((run)->fail, (doing), gp_ck_err_); \
  } while (0)

/* Propagates a non-zero status from a helper. */
#define GP_TRY(expr)             \
  do {                           \
    int gp_try_rc_ = (expr);     \
    if (gp_try_rc_ != 0) return gp_try_rc_; \
  } while (0)

/* CLOCK_MONOTONIC in seconds. */
double gp_now_s(void);

/* One progress line on stderr ("  [name] text"). */
void gp_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Adds a metric from a sampler's samples; a failure to add (bug: bad key or table full) is a
 * status-10 failure. Returns 0 or the status. */
int gp_record(gp_run *r, const char *key, const char *unit, const char *what, const gp_sampler *s);

/* Starts a sampler with the run's counts for a kind of measurement. */
enum gp_kind { GP_LATENCY, GP_BANDWIDTH, GP_KERNEL, GP_ALLOC };
void gp_sampler_start(gp_sampler *s, const gp_run *r, enum gp_kind kind);

/* The measurement modules; each returns 0 or an exit status with r->fail filled. */
int gp_measure_latency(gp_run *r);      /* measure_transfer.c: item_roundtrip, d2h_scalar_pinned */
int gp_measure_bandwidth(gp_run *r);    /* measure_transfer.c: h2d/d2h pageable/pinned per size */
int gp_measure_launch(gp_run *r);       /* measure_launch.c: launch_async/sync, sync_idle */
int gp_measure_fixed_kernel(gp_run *r); /* measure_launch.c: fixed_kernel_*, timer_underreport_x */
int gp_measure_alloc(gp_run *r);        /* measure_alloc.c: cudaMalloc_free_*, pool_alloc_* */
int gp_measure_d2d(gp_run *r); /* measure_compute.c: d2d_copy_GBps */
int gp_measure_fma(gp_run *r, int cc_major, int cc_minor, int sm_count); /* measure_compute.c */

#endif
