/* kernel.h: the checks of the kernel-correctness pack, declared for the checks[] table.
 * Owns: the entry points of kernel_bounds.c (numba-kernel-missing-bounds-check, GPU801),
 *       kernel_sync.c (syncthreads-in-divergent-branch, GPU802), rawkernel.c
 *       (rawkernel-argument-mismatch, GPU803), host_read.c (missing-sync-before-host-read,
 *       GPU804), warp_kernel.c (warp-kernel-constraints, GPU805) and the second rawkernel.c
 *       check (rawkernel-int-argument-width, GPU806), kernel_limits.c (numba-kernel-constraints,
 *       GPU807), warp_grad.c (warp-differentiability-pitfalls, GPU809).
 * Not: the table (checks.c), finding kernels (kernel_scan.h).
 * Threads: each check reads one file's borrowed tree, source and model; no state. */
#ifndef GL_CHECKS_KERNEL_H
#define GL_CHECKS_KERNEL_H

#include "checks/checks.h"

/* A subscript in a `@cuda.jit` (or `@cupyx.jit.rawkernel()`) kernel whose index uses a name
 * bound from `cuda.grid(n)` (or threadIdx + blockIdx * blockDim) that no comparison guards. */
void gl_check_kernel_bounds(const gl_check_ctx *ctx);

/* `cuda.syncthreads()` (and its _count / _and / _or forms, and grid syncs) inside an if /
 * while / for whose condition or iterable depends on the thread index. */
void gl_check_kernel_divergent_sync(const gl_check_ctx *ctx);

/* A launch `k(grid, block, (args...))` of a `cp.RawKernel` / `RawModule.get_function` kernel
 * whose CUDA source is a literal of the file, passing a Python float to a non-double parameter,
 * a Python int to a floating-point one, or a strided view to a pointer (GPU803). */
void gl_check_rawkernel_mismatch(const gl_check_ctx *ctx);

/* A page-locked or zero-copy host buffer read on the host after an asynchronous copy into it
 * (or a kernel launch given it) with no synchronization in between (GPU804). */
void gl_check_missing_sync_before_host_read(const gl_check_ctx *ctx);

/* In `@wp.kernel` / `@wp.func` bodies: unannotated kernel parameters, a kernel's return
 * annotation or returned value, `wp.tid()` in a function, list / dict / set displays (GPU805). */
void gl_check_warp_kernel_constraints(const gl_check_ctx *ctx);

/* In `@cuda.jit` kernels and device functions: a kernel returning a value, shared / local array
 * shapes that are not constants, list / dict / set displays, NumPy allocation, calls of
 * undecorated functions of the file (GPU807). */
void gl_check_numba_kernel_constraints(const gl_check_ctx *ctx);

/* Under `with wp.Tape()`: kernels that overwrite an array with values read from it, and
 * gradients read of arrays made without `requires_grad=True` (GPU809). */
void gl_check_warp_differentiability(const gl_check_ctx *ctx);

/* The same launches passing a Python int to an `int` (or narrower) parameter (GPU806). */
void gl_check_rawkernel_int_width(const gl_check_ctx *ctx);

#endif
