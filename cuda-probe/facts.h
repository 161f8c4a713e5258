/* facts.h: device facts for the evidence file: what the CUDA runtime reports, and the PCIe link
 * and C2C state from NVML when libnvidia-ml.so.1 can be loaded.
 * Owns: the NVML session (dlopen, init, shutdown, dlclose inside one call).
 * Not: measuring.
 * Threads: the probe's one host thread. */
#ifndef GP_FACTS_H
#define GP_FACTS_H

#include "probe.h"

/* Fills r->ev->device from cudaGetDeviceProperties, device attributes and the driver and runtime
 * versions. Returns 0 or the status of the failed CUDA call. */
int gp_facts_cuda(gp_run *r);

/* Fills r->ev->device.pci (and c2c_enabled) through NVML, found by the device's PCI bus id. NVML
 * missing or failing leaves them unknown (pci null): never an error. */
void gp_facts_nvml(gp_run *r);

#endif
