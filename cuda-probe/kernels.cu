/* kernels.cu: the probe's kernels and their extern "C" launch wrappers (see kernels.h).
 * Owns: device code only; the FMA loops keep GP_FMA_CHAINS independent chains per thread so the
 *       FMA pipes stay busy, take m and c at run time and store every thread's result, so the
 *       compiler can neither fold nor drop the arithmetic.
 * Not: timing, checking results (measure_compute.c does both).
 * Threads: launched from the probe's one host thread. */
#include "kernels.h"

#include <cuda_fp16.h>

__global__ void gp_empty_kernel(void) {}

__device__ __forceinline__ unsigned long long gp_globaltimer(void) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void gp_spin_kernel(unsigned long long ns, unsigned long long *elapsed_ns) {
  unsigned long long t0 = gp_globaltimer();
  long long c0 = clock64();
  /* 10 GHz worth of cycles: far beyond any real clock, so it only ends a spin whose timer is stuck */
  long long cycle_cap = (long long)(ns * 10ull) + 1000000ll;
  unsigned long long now = t0;
  while (now - t0 < ns) {
    if (clock64() - c0 > cycle_cap) break;
    now = gp_globaltimer();
  }
  *elapsed_ns = now - t0;
}

__global__ void gp_fill_kernel(unsigned *p, size_t n) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    p[i] = (unsigned)(i * 2654435761u);
}

__device__ __forceinline__ float gp_fused(float a, float m, float c) { return fmaf(a, m, c); }
__device__ __forceinline__ double gp_fused(double a, double m, double c) { return fma(a, m, c); }
__device__ __forceinline__ __half2 gp_fused(__half2 a, __half2 m, __half2 c) { return __hfma2(a, m, c); }

/* The measured loop of every FMA kernel: iters steps of a[k] = a[k] * m + c on each chain. */
template <typename T>
__device__ __forceinline__ void gp_fma_chains(T (&a)[GP_FMA_CHAINS], int iters, T m, T c) {
#pragma unroll 16
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int k = 0; k < GP_FMA_CHAINS; k++) a[k] = gp_fused(a[k], m, c);
  }
}

template <typename T>
__global__ void __launch_bounds__(GP_FMA_THREADS) gp_fma_kernel(int iters, T m, T c, T *out) {
  T a[GP_FMA_CHAINS];
#pragma unroll
  for (int k = 0; k < GP_FMA_CHAINS; k++) a[k] = (T)(k + 1);
  gp_fma_chains(a, iters, m, c);
  T sum = 0;
#pragma unroll
  for (int k = 0; k < GP_FMA_CHAINS; k++) sum += a[k];
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void __launch_bounds__(GP_FMA_THREADS) gp_hfma_kernel(int iters, float mf, float cf,
                                                                 float *out) {
  __half2 m = __float2half2_rn(mf), c = __float2half2_rn(cf);
  __half2 a[GP_FMA_CHAINS];
#pragma unroll
  for (int k = 0; k < GP_FMA_CHAINS; k++) a[k] = __floats2half2_rn(k * 0.25f, k * 0.25f + 0.125f);
  gp_fma_chains(a, iters, m, c);
  float sum = 0;
#pragma unroll
  for (int k = 0; k < GP_FMA_CHAINS; k++) {
    float2 f = __half22float2(a[k]);
    sum += f.x;
    sum += f.y;
  }
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

extern "C" cudaError_t gp_k_empty(cudaStream_t s, int n) {
  for (int i = 0; i < n; i++) gp_empty_kernel<<<1, 1, 0, s>>>();
  return cudaGetLastError();
}

extern "C" cudaError_t gp_k_spin(cudaStream_t s, unsigned long long ns, unsigned long long *elapsed_ns) {
  gp_spin_kernel<<<1, 1, 0, s>>>(ns, elapsed_ns);
  return cudaGetLastError();
}

extern "C" cudaError_t gp_k_fill(cudaStream_t s, unsigned *p, size_t n) {
  size_t blocks = (n + 255) / 256;
  if (blocks > 65535) blocks = 65535;
  if (blocks == 0) blocks = 1;
  gp_fill_kernel<<<(unsigned)blocks, 256, 0, s>>>(p, n);
  return cudaGetLastError();
}

extern "C" cudaError_t gp_k_fma_blocks_per_sm(enum gp_fma_type t, int *blocks) {
  cudaError_t e;
  if (t == GP_FMA_FLOAT)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, gp_fma_kernel<float>, GP_FMA_THREADS, 0);
  else if (t == GP_FMA_DOUBLE)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, gp_fma_kernel<double>, GP_FMA_THREADS, 0);
  else
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, gp_hfma_kernel, GP_FMA_THREADS, 0);
  if (e == cudaSuccess && *blocks < 1) *blocks = 1;
  return e;
}

extern "C" cudaError_t gp_k_fma(cudaStream_t s, enum gp_fma_type t, int blocks, int iters, double m,
                                double c, void *out) {
  if (t == GP_FMA_FLOAT)
    gp_fma_kernel<float><<<blocks, GP_FMA_THREADS, 0, s>>>(iters, (float)m, (float)c, (float *)out);
  else if (t == GP_FMA_DOUBLE)
    gp_fma_kernel<double><<<blocks, GP_FMA_THREADS, 0, s>>>(iters, m, c, (double *)out);
  else
    gp_hfma_kernel<<<blocks, GP_FMA_THREADS, 0, s>>>(iters, 0.5f, 1.0f, (float *)out);
  return cudaGetLastError();
}
