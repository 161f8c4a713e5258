/* kernels.h: the probe's device kernels, reached from C through extern "C" launch wrappers.
 * Owns: the empty kernel, the fixed-duration spin kernel, the FMA throughput kernels (float,
 *       double, half2), the pattern fill, and their grid sizes.
 * Not: timing (measure_*.c), error sentences (fail.c). Each wrapper returns the launch status
 *      (cudaGetLastError after the launches); execution errors appear at the caller's synchronize.
 * Threads: wrappers are called from the probe's one host thread. */
#ifndef GP_KERNELS_H
#define GP_KERNELS_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The FMA kernels: each thread keeps GP_FMA_CHAINS independent chains a_k = a_k * m + c, starting
 * at a_k = k + 1, for iters steps, then stores a_0 + a_1 + ... (left to right) at out[thread]. */
#define GP_FMA_CHAINS 8
#define GP_FMA_THREADS 256

enum gp_fma_type { GP_FMA_FLOAT, GP_FMA_DOUBLE, GP_FMA_HALF };

/* n launches of an empty <<<1, 1>>> kernel on s, no synchronization. */
cudaError_t gp_k_empty(cudaStream_t s, int n);

/* One <<<1, 1>>> kernel that spins on %globaltimer for ns nanoseconds and stores the time it saw
 * pass at *elapsed_ns (device memory). A safety bound on clock64() ends the spin if the timer does
 * not advance; the caller checks *elapsed_ns >= ns. */
cudaError_t gp_k_spin(cudaStream_t s, unsigned long long ns, unsigned long long *elapsed_ns);

/* p[i] = (unsigned)(i * 2654435761u) for i < n. */
cudaError_t gp_k_fill(cudaStream_t s, unsigned *p, size_t n);

/* Blocks per SM that fit at once for an FMA kernel of GP_FMA_THREADS threads (>= 1). */
cudaError_t gp_k_fma_blocks_per_sm(enum gp_fma_type t, int *blocks);

/* float / double: out[thread] as above with fmaf / fma. m and c are passed as double and converted.
 * half: half2 chains a_k = (k/4, k/4 + 1/8) with m = 0.5 and c = 1 (__hfma2), so every lane
 * converges to exactly 2; out[thread] is the float sum of both lanes of all chains (32 once
 * converged). out holds float for GP_FMA_FLOAT and GP_FMA_HALF, double for GP_FMA_DOUBLE. */
cudaError_t gp_k_fma(cudaStream_t s, enum gp_fma_type t, int blocks, int iters, double m, double c,
                     void *out);

#ifdef __cplusplus
}
#endif

#endif
