/* launch.h: the launch-granularity checks (rules/launch-granularity), declared for the checks[]
 * table.
 * Owns: the entry points of warp_graph.c (warp-launch-loop-without-graph, GPU603) and
 *       launch_config.c (block-size-over-limit, GPU604; launch-config-literal, GPU605).
 * Not: the table (checks.c), the query rules of the pack (GPU601, GPU602, ...).
 * Threads: each check reads one file's borrowed tree, source and model; no state. */
#ifndef GL_CHECKS_LAUNCH_H
#define GL_CHECKS_LAUNCH_H

#include "checks/checks.h"

/* A for / while loop whose own body (same function, nested loops not included) makes two or
 * more `warp.launch` / `warp.launch_tiled` calls with a loop-invariant kernel and no
 * `device="cpu"`, in a file that calls none of `warp.ScopedCapture`, `warp.capture_begin`,
 * `warp.capture_launch`, unless a launch passes as `dim` or as an `inputs` / `outputs`
 * element a name (or attribute chain on one) that the loop nest rebinds (assignment,
 * augmented assignment, for target, `:=`). Reported once per loop nest, at the first launch
 * of the innermost such loop; an outer loop holding a reported one is not reported again. */
void gl_check_warp_launch_loop(const gl_check_ctx *ctx);

/* A kernel launch (Numba / cupyx.jit `k[grid, block, ...](...)`, CuPy RawKernel
 * `k(grid, block, args)`; the call must have the gpu-work role) whose block is a literal
 * integer, or a tuple / list of them, of more than 1024 threads in all. Reported at the block. */
void gl_check_block_size_over_limit(const gl_check_ctx *ctx);

/* Launches (as above) with a literal block of more than 32 threads that is not a multiple of 32
 * (reported at the block), and launches with a literal grid of 2 to 64 blocks and a literal block
 * of at most 1024 threads, where the kernel's code is in the file (a def of that name;
 * for RawKernel, source text with `blockIdx`) and does not read the grid size (`gridsize`,
 * `gridDim`), and no argument shows a constant problem size (an integer literal, or a name
 * bound in the launch's scope or the module to a call whose first argument, directly or
 * through one more call, is a literal size: an integer, or `a * b`, `a << b`, `a ** b` of two).
 * Reported at the grid. */
void gl_check_launch_config_literal(const gl_check_ctx *ctx);

#endif
