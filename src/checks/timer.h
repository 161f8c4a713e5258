/* timer.h: the timing checks of timer.c, named in checks[] (checks.c).
 * Owns: gl_check_unsynchronized_timer (GPU301: a wall-clock interval whose last GPU work no
 *       synchronization follows) and gl_check_cpu_time_timer (GPU302: a CPU-time interval
 *       holding GPU work).
 * Not: the table. Threads: as any check (one worker, one file per call). */
#ifndef GL_CHECKS_TIMER_H
#define GL_CHECKS_TIMER_H

#include "checks/checks.h"

void gl_check_unsynchronized_timer(const gl_check_ctx *ctx);
void gl_check_cpu_time_timer(const gl_check_ctx *ctx);

#endif
