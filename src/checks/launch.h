/* launch.h: the launch-granularity checks (rules/launch-granularity), declared for the checks[]
 * table.
 * Owns: the entry points of warp_graph.c (warp-launch-loop-without-graph, GPU603).
 * Not: the table (checks.c), the query rules of the pack (GPU601, GPU602, ...).
 * Threads: each check reads one file's borrowed tree, source and model; no state. */
#ifndef GL_CHECKS_LAUNCH_H
#define GL_CHECKS_LAUNCH_H

#include "checks/checks.h"

/* A for / while loop whose body (same function, nested loops included) makes two or more
 * `warp.launch` / `warp.launch_tiled` calls with a loop-invariant kernel and no `device="cpu"`,
 * in a file that calls none of `warp.ScopedCapture`, `warp.capture_begin`,
 * `warp.capture_launch`. Reported once per loop nest, at the first launch of the innermost loop
 * that has two; an outer loop holding a reported one is not reported again. */
void gl_check_warp_launch_loop(const gl_check_ctx *ctx);

#endif
