/* bench.h: the benchmarking checks of the timing pack, declared for the checks[] table.
 * Owns: the entry points of events.c (event-elapsed-without-sync, GPU303), timeit.c
 *       (timeit-without-sync, GPU304) and warmup.c (benchmark-without-warmup, GPU305).
 * Not: the table (checks.c), the shared tree helpers (bench_scan.h).
 * Threads: each check reads one file's borrowed tree, source and model; no state. */
#ifndef GL_CHECKS_BENCH_H
#define GL_CHECKS_BENCH_H

#include "checks/checks.h"

/* `start.elapsed_time(end)` / `cupy.cuda.get_elapsed_time(start, end)` after `end.record()` in
 * the same block sequence with no synchronization between them. */
void gl_check_event_elapsed_without_sync(const gl_check_ctx *ctx);

/* `timeit.timeit` / `timeit.repeat` / `timeit.Timer(...).timeit()` over a lambda or a function of
 * the file whose code ends with GPU work that no synchronization follows. */
void gl_check_timeit_without_sync(const gl_check_ctx *ctx);

/* The first call of a JIT-compiled callable between two clock reads (or CUDA event records) of
 * one function, with no call of it before the region. */
void gl_check_benchmark_without_warmup(const gl_check_ctx *ctx);

#endif
