/* precision.h: the precision checks of numba_literal.c, named in checks[] (checks.c).
 * Owns: gl_check_numba_float64_literal (GPU511: float literals that make arithmetic float64
 *       inside a Numba CUDA kernel whose signature declares float32) and
 *       gl_check_numba_float64_literal_lazy (GPU512: the same in kernels compiled lazily, with no
 *       signature, whose data types are not known).
 * Not: the table. Threads: as any check (one worker, one file per call). */
#ifndef GL_CHECKS_PRECISION_H
#define GL_CHECKS_PRECISION_H

#include "checks/checks.h"

void gl_check_numba_float64_literal(const gl_check_ctx *ctx);
void gl_check_numba_float64_literal_lazy(const gl_check_ctx *ctx);

#endif
