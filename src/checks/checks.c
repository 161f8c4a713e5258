/* checks.c: the built-in flow checks table and the reporting helper every check uses.
 * Owns: checks[] (one row per check: its name and function; a check's code lives in its own file
 *       under src/checks/ and is declared here) and lookup by name.
 * Not: deciding which rules run (match.c), the checks themselves (timer.c: unsynchronized-timer,
 *      cpu-time-timer; ...).
 * Threads: the table is static const; gl_check_report writes only ctx->out. */
#include "checks/checks.h"

#include <stdio.h>
#include <string.h>

#include "checks/accel.h"
#include "checks/bench.h"
#include "checks/kernel.h"
#include "checks/launch.h"
#include "checks/mem.h"
#include "checks/noqa.h"
#include "checks/opportunity.h"
#include "checks/precision.h"
#include "checks/timer.h"
#include "checks/vecio.h"
#include "notebook/notebook.h"

/* Sorted by name. The last row is a sentinel so the table may be empty. */
static const gl_check checks[] = {
    {"accelerator-fallback-trigger", gl_check_accelerator_fallback},
    {"allocation-in-loop", gl_check_allocation_in_loop},
    {"allocator-configured-after-use", gl_check_allocator_configured_after_use},
    {"approximate-index-without-recall", gl_check_approximate_index_without_recall},
    {"benchmark-without-warmup", gl_check_benchmark_without_warmup},
    {"block-size-over-limit", gl_check_block_size_over_limit},
    {"cpu-time-timer", gl_check_cpu_time_timer},
    {"cpu-vector-index", gl_check_vector_index_opportunity},
    {"cross-device-array-use", gl_check_cross_device_array_use},
    {"cudf-pandas-enabled-too-late", gl_check_cudf_pandas_too_late},
    {"cuml-accel-enabled-too-late", gl_check_cuml_accel_too_late},
    {"event-elapsed-without-sync", gl_check_event_elapsed_without_sync},
    {"fromfile-staged-upload", gl_check_fromfile_staged_upload},
    {"host-reader-then-upload", gl_check_host_reader_then_upload},
    {"launch-config-literal", gl_check_launch_config_literal},
    {"metric-mismatch-in-port", gl_check_metric_mismatch_in_port},
    {"missing-sync-before-host-read", gl_check_missing_sync_before_host_read},
    {"networkx-without-nx-cugraph", gl_check_networkx_opportunity},
    {"no-gpu-availability-guard", gl_check_no_gpu_availability_guard},
    {"numba-kernel-constraints", gl_check_numba_kernel_constraints},
    {"numba-kernel-float64-literal", gl_check_numba_float64_literal},
    {"numba-kernel-missing-bounds-check", gl_check_kernel_bounds},
    {"numba-lazy-kernel-float64-literal", gl_check_numba_float64_literal_lazy},
    {"pageable-async-transfer", gl_check_pageable_async_transfer},
    {"pandas-without-cudf-pandas", gl_check_pandas_opportunity},
    {"rawkernel-argument-mismatch", gl_check_rawkernel_mismatch},
    {"rawkernel-int-argument-width", gl_check_rawkernel_int_width},
    {"resource-handle-in-loop", gl_check_resource_handle_in_loop},
    {"skimage-without-cucim", gl_check_skimage_opportunity},
    {"sklearn-without-cuml-accel", gl_check_sklearn_opportunity},
    {"syncthreads-in-divergent-branch", gl_check_kernel_divergent_sync},
    {"timeit-without-sync", gl_check_timeit_without_sync},
    {"unsynchronized-timer", gl_check_unsynchronized_timer},
    {"unused-noqa", gl_check_unused_noqa},
    {"warp-differentiability-pitfalls", gl_check_warp_differentiability},
    {"warp-kernel-constraints", gl_check_warp_kernel_constraints},
    {"warp-launch-loop-without-graph", gl_check_warp_launch_loop},
    {"warp-primitive-id-outlives-object", gl_check_warp_primitive_id_outlives_object},
    {NULL, NULL},
};

size_t gl_check_count(void) {
  return sizeof(checks) / sizeof(checks[0]) - 1;
}

const gl_check *gl_check_find(const char *name) {
  if (!name) return NULL;
  for (const gl_check *c = checks; c->name; c++)
    if (strcmp(c->name, name) == 0) return c;
  return NULL;
}

static gl_finding *add_finding(const gl_check_ctx *ctx, TSNode node, const char *message) {
  gl_finding *f = gl_vec_grow(&ctx->out->findings);
  f->rule = ctx->rule;
  f->level = ctx->rule->level;
  f->region = gl_region_of(ctx->src, ts_node_start_byte(node), ts_node_end_byte(node));
  f->message = gl_xstrdup(message ? message : ctx->rule->message);
  return f;
}

void gl_check_report(const gl_check_ctx *ctx, TSNode node, const char *message) {
  add_finding(ctx, node, message);
}

void gl_check_report_related(const gl_check_ctx *ctx, TSNode node, const char *message,
                             const TSNode rel_node[], const char *const rel_msg[], size_t n) {
  gl_finding *f = add_finding(ctx, node, message);
  for (size_t i = 0; i < n && f->nrelated < GL_FINDING_MAX_RELATED; i++) {
    if (ts_node_is_null(rel_node[i]) || !rel_msg[i]) continue;
    f->related[f->nrelated] = gl_region_of(ctx->src, ts_node_start_byte(rel_node[i]),
                                              ts_node_end_byte(rel_node[i]));
    f->related_msg[f->nrelated++] = gl_xstrdup(rel_msg[i]);
  }
}

void gl_check_line_label(const gl_check_ctx *ctx, uint32_t byte, char *buf, size_t cap) {
  const gl_notebook *nb = ctx->src->notebook;
  if (nb) {
    gl_nb_line l = gl_notebook_cell_of(nb, byte);
    snprintf(buf, cap, "cell %u, line %u", (unsigned)l.cell, (unsigned)l.cell_line);
    return;
  }
  snprintf(buf, cap, "line %u", (unsigned)gl_load_position(ctx->src, byte).line);
}
