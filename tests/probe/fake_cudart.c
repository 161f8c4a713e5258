/* fake_cudart.c: an LD_PRELOAD shim for the probe's failure-path test: cudaGetDeviceCount returns
 * the CUDA error number in the environment variable FAKE_CUDA_ERROR (0 when unset), so each error
 * class can be produced without a GPU or a broken driver.
 * Owns: that one symbol; every other CUDA call goes to the real runtime.
 * Threads: any. */
#include <stdlib.h>

int cudaGetDeviceCount(int *count);

int cudaGetDeviceCount(int *count) {
  const char *e = getenv("FAKE_CUDA_ERROR");
  int err = e ? atoi(e) : 0;
  if (count) *count = err ? 0 : 1;
  return err;
}
