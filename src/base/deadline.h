/* deadline.h: a per-file time limit on the monotonic clock.
 * Owns: when a limit of N ms started now ends, and whether it has passed (N = 0: never).
 * Not: what stops when it passes (parse.c cancels the parse, match_run.c the matching).
 * Threads: a deadline belongs to the worker that set it. */
#ifndef GL_DEADLINE_H
#define GL_DEADLINE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

typedef struct gl_deadline {
  struct timespec end;
  bool set;            /* false: no limit */
} gl_deadline;

static inline gl_deadline gl_deadline_after(uint32_t ms) {
  gl_deadline d = {{0, 0}, ms != 0};
  if (!d.set) return d;
  clock_gettime(CLOCK_MONOTONIC, &d.end);
  d.end.tv_sec += ms / 1000;
  d.end.tv_nsec += (long)(ms % 1000) * 1000000L;
  if (d.end.tv_nsec >= 1000000000L) {
    d.end.tv_sec += 1;
    d.end.tv_nsec -= 1000000000L;
  }
  return d;
}

static inline bool gl_deadline_passed(const gl_deadline *d) {
  if (!d->set) return false;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (now.tv_sec != d->end.tv_sec) return now.tv_sec > d->end.tv_sec;
  return now.tv_nsec > d->end.tv_nsec;
}

#endif
