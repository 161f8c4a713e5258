/* cuerr.h: the probe's exit statuses and the mapping from a CUDA error number to a status and to
 * the one sentence the probe prints for it.
 * Owns: the classes of cuda-probe/README.md "Exit statuses" (the issue 5 spec, section 4).
 * Not: asking the runtime for an error's name (fail.c does, then calls gp_cuerr_format); printing.
 * Threads: pure functions. */
#ifndef GP_CUERR_H
#define GP_CUERR_H

#include <stddef.h>

enum {
  GP_EXIT_OK = 0,
  GP_EXIT_USAGE = 2,     /* bad command line */
  GP_EXIT_DRIVER = 3,    /* no usable NVIDIA driver: missing or older than the runtime */
  GP_EXIT_NODEVICE = 4,  /* no CUDA device, or --device N out of range */
  GP_EXIT_BUSY = 5,      /* device busy, prohibited or unavailable */
  GP_EXIT_MEMORY = 6,    /* out of device or pinned host memory */
  GP_EXIT_NOIMAGE = 7,   /* no kernel image for this GPU */
  GP_EXIT_CUDA = 8,      /* any other CUDA error */
  GP_EXIT_WRITE = 9,     /* cannot write the output file */
  GP_EXIT_CHECK = 10,    /* a measurement failed its own check */
};

/* The exit status for CUDA error number code (cudaError_t): 35, 34, 36, 803, 804 -> 3; 100 -> 4;
 * 46 -> 5; 2 -> 6; 209, 222 -> 7; anything else (0 included) -> 8. */
int gp_cuerr_status(int code);

/* What the user should know and do for a status from gp_cuerr_status (a static string, no full
 * stop); statuses outside 3..8 get the status 8 text. */
const char *gp_cuerr_advice(int status);

/* Writes "<doing> failed with <name> (<code>): <advice>" into buf (always NUL-terminated,
 * truncated to n). name NULL or empty reads "an unnamed CUDA error". */
void gp_cuerr_format(char *buf, size_t n, const char *doing, int code, const char *name);

#endif
