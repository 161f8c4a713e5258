/* context.h: CUDA context start-up time, measured in forked child processes.
 * Owns: the child processes (each is waited for) and the pipe protocol between them and the parent.
 * Not: the parent's own CUDA start-up (main.c).
 * Threads: must run before the calling process makes any CUDA call (CUDA does not survive fork). */
#ifndef GP_CONTEXT_H
#define GP_CONTEXT_H

#include "probe.h"

/* Forks n children one after another; each times cudaGetDeviceCount + cudaSetDevice(device) +
 * cudaFree(0) and reports the milliseconds, or the CUDA error and the call that failed, through a
 * pipe. The first child's error is the probe's error (its status from gp_cuerr_status); a device
 * index >= the device count is status 4. On success records context_init_ms (n samples) in ev and
 * returns 0; *device_count gets the count the children saw. */
int gp_context_measure(int device, int n, int quick, gp_evidence *ev, gp_fail *fail,
                       int *device_count);

#endif
