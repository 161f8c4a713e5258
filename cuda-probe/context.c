/* context.c: context_init_ms and context_init_held_ms from fresh processes (see context.h). Each
 * child is the probe itself, forked and at once exec'd again as `gpulint-probe --context-child N`,
 * so it starts with no CUDA state whatever the parent holds, as a new Python process does.
 * Owns: fork + exec, the report pipe, waitpid; children leave with _exit (no CUDA teardown is
 *       timed).
 * Not: the error classes (cuerr.c), the runtime's error names (fail.c).
 * Threads: call before any CUDA call in this process. */
#include "context.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { STAGE_COUNT = 0, STAGE_SET = 1, STAGE_FREE = 2, STAGE_EXEC = 3 };

typedef struct ctx_report {
  int err;      /* cudaError_t of the failed call, 0 when all three succeeded */
  int stage;    /* which call failed */
  int count;    /* devices seen (-1 before cudaGetDeviceCount succeeded) */
  double ms;    /* start-up time when err == 0 and device < count */
} ctx_report;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void write_all(int fd, const void *buf, size_t n) {
  const char *p = buf;
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    p += w;
    n -= (size_t)w;
  }
}

void gp_context_child(const char *device_arg) {
  int device = atoi(device_arg);
  ctx_report rep = {0, STAGE_COUNT, -1, 0};
  double t0 = now_ms();
  cudaError_t e = cudaGetDeviceCount(&rep.count);
  if (e != cudaSuccess) rep.count = -1;
  if (e == cudaSuccess && device < rep.count) {
    rep.stage = STAGE_SET;
    e = cudaSetDevice(device);
    if (e == cudaSuccess) {
      rep.stage = STAGE_FREE;
      e = cudaFree(0);
    }
  }
  rep.ms = now_ms() - t0;
  rep.err = (int)e;
  write_all(STDOUT_FILENO, &rep, sizeof rep);
  _exit(0);
}

/* In the forked child: the report pipe becomes standard output and the probe runs again. */
static void exec_child(int fd, int device) {
  char dev[16];
  snprintf(dev, sizeof dev, "%d", device);
  if (dup2(fd, STDOUT_FILENO) >= 0) {
    close(fd);
    execl("/proc/self/exe", "gpulint-probe", "--context-child", dev, (char *)NULL);
  }
  ctx_report rep = {errno, STAGE_EXEC, -1, 0};
  write_all(STDOUT_FILENO, &rep, sizeof rep);
  _exit(127);
}

/* Reads one report; returns the bytes read (sizeof *rep when complete). */
static size_t read_report(int fd, ctx_report *rep) {
  char *p = (char *)rep;
  size_t got = 0;
  while (got < sizeof *rep) {
    ssize_t n = read(fd, p + got, sizeof *rep - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += (size_t)n;
  }
  return got;
}

static int run_child(int device, gp_fail *fail, ctx_report *rep) {
  int fds[2];
  if (pipe(fds) != 0)
    return gp_fail_set(fail, GP_EXIT_CUDA, "creating a pipe to time CUDA start-up failed "
                       "(errno %d); rerun the probe", errno);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return gp_fail_set(fail, GP_EXIT_CUDA, "starting a child process to time CUDA start-up failed "
                       "(errno %d); rerun the probe", errno);
  }
  if (pid == 0) {
    close(fds[0]);
    exec_child(fds[1], device);
  }
  close(fds[1]);
  size_t got = read_report(fds[0], rep);
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (got == sizeof *rep) return 0;
  if (WIFSIGNALED(status))
    return gp_fail_set(fail, GP_EXIT_CUDA, "starting CUDA in a child process failed: it died with "
                       "signal %d; check the NVIDIA driver installation (nvidia-smi)", WTERMSIG(status));
  return gp_fail_set(fail, GP_EXIT_CUDA, "starting CUDA in a child process failed: it exited "
                     "with status %d before reporting; check the NVIDIA driver installation "
                     "(nvidia-smi)", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static int report_error(const ctx_report *rep, int device, gp_fail *fail) {
  if (rep->stage == STAGE_EXEC)
    return gp_fail_set(fail, GP_EXIT_CUDA, "starting a child process to time CUDA start-up failed: "
                       "exec of /proc/self/exe gave errno %d; rerun the probe", rep->err);
  char doing[96];
  if (rep->stage == STAGE_COUNT) snprintf(doing, sizeof doing, "counting CUDA devices");
  else if (rep->stage == STAGE_SET) snprintf(doing, sizeof doing, "selecting CUDA device %d", device);
  else snprintf(doing, sizeof doing, "creating a CUDA context on device %d", device);
  return gp_fail_cuda(fail, doing, (cudaError_t)rep->err);
}

int gp_context_measure(int device, int n, int quick, int held, gp_evidence *ev, gp_fail *fail,
                       int *device_count) {
  double ms[GP_MAX_SAMPLES];
  if (n < 1) n = 1;
  if (n > GP_MAX_SAMPLES) n = GP_MAX_SAMPLES;
  for (int i = 0; i < n; i++) {
    ctx_report rep;
    GP_TRY(run_child(device, fail, &rep));
    if (rep.err != 0) return report_error(&rep, device, fail);
    *device_count = rep.count;
    if (rep.count <= 0)
      return gp_fail_set(fail, GP_EXIT_NODEVICE, "counting CUDA devices found none: %s",
                         gp_cuerr_advice(GP_EXIT_NODEVICE));
    if (device >= rep.count)
      return gp_fail_set(fail, GP_EXIT_NODEVICE, "--device %d is out of range: this machine has %d "
                         "CUDA device%s (0 to %d); pick one of them", device, rep.count,
                         rep.count == 1 ? "" : "s", rep.count - 1);
    ms[i] = rep.ms;
  }
  const char *key = held ? "context_init_held_ms" : "context_init_ms";
  char what[512];
  snprintf(what, sizeof what, "first CUDA call of a fresh process (cudaGetDeviceCount + "
           "cudaSetDevice + cudaFree(0)), host clock, one sample per child process (%d), %s%s", n,
           held ? "while the probe holds a context on the device (as when another CUDA process "
                  "is running, or the driver is kept loaded)"
                : "started before the probe touches CUDA (the cost a script pays when no other "
                  "process holds the device and persistence mode is off)",
           quick ? " (quick mode: 3 children; full mode starts 7)" : "");
  if (gp_evidence_add(ev, key, "ms", what, ms, (size_t)n) != 0)
    return gp_fail_set(fail, GP_EXIT_CHECK, "recording metric '%s' failed: this is a bug in "
                       "gpulint-probe, please report it", key);
  return 0;
}
