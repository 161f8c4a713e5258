/* context.h: CUDA context start-up time, measured in child processes (the probe run again).
 * Owns: the child processes (each is waited for) and the pipe protocol between them and the parent.
 * Not: the parent's own CUDA start-up (main.c).
 * Threads: the probe's one host thread; children are exec'd at once, so the parent may hold CUDA. */
#ifndef GP_CONTEXT_H
#define GP_CONTEXT_H

#include "probe.h"

/* Starts n children one after another (fork, then exec of /proc/self/exe --context-child DEVICE);
 * each times cudaGetDeviceCount + cudaSetDevice(device) + cudaFree(0) and reports the milliseconds,
 * or the CUDA error and the call that failed, through a pipe. The first child's error is the
 * probe's error (its status from gp_cuerr_status); a device index >= the device count is status 4.
 * On success records context_init_ms (held = 0: call it before this process touches CUDA) or
 * context_init_held_ms (held = 1: while this process holds a context) with n samples and returns
 * 0; *device_count gets the count the children saw. */
int gp_context_measure(int device, int n, int quick, int held, gp_evidence *ev, gp_fail *fail,
                       int *device_count);

/* The child's side (main calls it for --context-child DEVICE as argv[1]): times the first CUDA
 * call, writes the report to standard output and exits. */
void gp_context_child(const char *device_arg) __attribute__((noreturn));

#endif
