/* mem.h: the memory checks of the memory-precision pack, declared for the checks[] table.
 * Owns: the entry points of mem_alloc.c (allocation-in-loop, GPU502; resource-handle-in-loop,
 *       GPU507), mem_async.c (pageable-async-transfer, GPU505), mem_order.c
 *       (allocator-configured-after-use, GPU504) and mem_warp.c
 *       (warp-primitive-id-outlives-object, GPU508).
 * Not: the table (checks.c), the shared walk (mem_walk.h).
 * Threads: each check reads one file's borrowed tree, source and model; no state. */
#ifndef GL_CHECKS_MEM_H
#define GL_CHECKS_MEM_H

#include "checks/checks.h"

/* `x = cp.zeros(n)` (and the other device and pinned allocators) as a statement of a loop body,
 * every argument loop-invariant, where x never leaves the iteration: every use of x in the
 * loop is a read, a store into it, an operand, a method call on it, or an argument of a GPU
 * library call or kernel launch. */
void gl_check_allocation_in_loop(const gl_check_ctx *ctx);

/* The same analysis for `s = cp.cuda.Stream()`, `cuda.stream()`, `torch.cuda.Stream()`,
 * `pylibraft.common.DeviceResources()` / `Handle()`, `cuml.Handle()`, `cuvs.common.Resources()`;
 * `with s:` counts as a use that keeps nothing. */
void gl_check_resource_handle_in_loop(const gl_check_ctx *ctx);

/* `cp.cuda.set_allocator(...)` / `set_pinned_memory_allocator`, `rmm.reinitialize(...)` /
 * `rmm.mr.set_current_device_resource`, `torch.cuda.change_current_allocator` and
 * `os.environ["PYTORCH_CUDA_ALLOC_CONF"] = ...` (also `setdefault`, `os.putenv`) after a call of
 * the same scope, earlier in source order and not in a branch that excludes the configuration,
 * that made device data with that library (CuPy; RMM, cuDF, cuML, cuGraph, cuVS, RAFT;
 * PyTorch). Reported at the configuration with the first use as the related location. */
void gl_check_allocator_configured_after_use(const gl_check_ctx *ctx);

/* An asynchronous copy (`.to(cuda, non_blocking=True)`, `.cuda(non_blocking=True)`,
 * `d.copy_(h, non_blocking=True)`, `cuda.to_device(h, stream=s)`, `d.copy_to_host(h, stream=s)`
 * or without a destination, `d.set(h, stream=s)`, `cp.asarray(h, blocking=False)`) whose host
 * side is surely pageable: a NumPy constructor, a CPU tensor constructor without
 * `pin_memory=True`, `torch.from_numpy` of one, or a name that every binding of its scope (the
 * module's for a name the function does not bind) makes one and nothing pins. */
void gl_check_pageable_async_transfer(const gl_check_ctx *ctx);

/* In a function: `m = wp.Mesh(...)` (HashGrid, Bvh, Volume and its loaders), every binding of m
 * in the function such a constructor, no use of m other than attribute reads (`m.x`, `m.f()`)
 * there or in nested functions, and `m.id` returned, yielded (alone or in a tuple / list) or
 * stored into an attribute or item: reported at that `m.id`. */
void gl_check_warp_primitive_id_outlives_object(const gl_check_ctx *ctx);

#endif
