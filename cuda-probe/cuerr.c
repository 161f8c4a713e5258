/* cuerr.c: CUDA error number -> exit status and sentence (see cuerr.h).
 * Owns: the advice text of each failure class.
 * Not: the runtime (no CUDA call here, so the mapping is testable without a GPU); printing.
 * Threads: pure functions. */
#include "cuerr.h"

#include <stdio.h>

int gp_cuerr_status(int code) {
  switch (code) {
  case 34:  /* cudaErrorStubLibrary */
  case 35:  /* cudaErrorInsufficientDriver */
  case 36:  /* cudaErrorCallRequiresNewerDriver */
  case 803: /* cudaErrorSystemDriverMismatch */
  case 804: /* cudaErrorCompatNotSupportedOnDevice */
    return GP_EXIT_DRIVER;
  case 100: /* cudaErrorNoDevice */
    return GP_EXIT_NODEVICE;
  case 46:  /* cudaErrorDevicesUnavailable: exclusive-process, prohibited or busy */
    return GP_EXIT_BUSY;
  case 2:   /* cudaErrorMemoryAllocation */
    return GP_EXIT_MEMORY;
  case 209: /* cudaErrorNoKernelImageForDevice */
  case 222: /* cudaErrorUnsupportedPtxVersion */
    return GP_EXIT_NOIMAGE;
  default:
    return GP_EXIT_CUDA;
  }
}

const char *gp_cuerr_advice(int status) {
  switch (status) {
  case GP_EXIT_DRIVER:
    return "no usable NVIDIA driver (missing, or older than this probe's CUDA runtime); "
           "install or update the NVIDIA driver";
  case GP_EXIT_NODEVICE:
    return "no CUDA device is visible; check nvidia-smi and CUDA_VISIBLE_DEVICES";
  case GP_EXIT_BUSY:
    return "the device is busy, prohibited or unavailable; check its compute mode and the "
           "processes using it with nvidia-smi";
  case GP_EXIT_MEMORY:
    return "out of device or pinned host memory; free memory other processes hold or run "
           "with --quick";
  case GP_EXIT_NOIMAGE:
    return "this build has no kernel image that this GPU and driver can run; rebuild the probe "
           "with -DCMAKE_CUDA_ARCHITECTURES naming this GPU's architecture, or update the driver";
  default:
    return "unexpected CUDA error; rerun the probe, and report it with nvidia-smi's output if it "
           "repeats";
  }
}

void gp_cuerr_format(char *buf, size_t n, const char *doing, int code, const char *name) {
  if (!buf || n == 0) return;
  if (!name || !*name) name = "an unnamed CUDA error";
  snprintf(buf, n, "%s failed with %s (%d): %s", doing ? doing : "a CUDA call", name, code,
           gp_cuerr_advice(gp_cuerr_status(code)));
}
