/* kernel_fit.h: whether every launch of a Numba kernel in its file runs no more threads than a
 * size, for GPU801 (kernel_bounds.c).
 * Owns: the references to a kernel's name in its file (launches `k[grid, block, ...](...)`,
 *       reads of its inspection attributes, anything else), the grids written
 *       `<size> // <block>` and the integer a block resolves to.
 * Not: the kernel's body (kernel_bounds.c), finding kernels (kernel_scan.c), reporting.
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#ifndef GL_CHECKS_KERNEL_FIT_H
#define GL_CHECKS_KERNEL_FIT_H

#include <stdbool.h>

#include "checks/checks.h"
#include "checks/kernel_scan.h"

/* True when k (a GL_K_NUMBA kernel) is launched at least once in the file, every other use of
 * its name is a read of `.definition`, `.definitions` or an `.inspect_*` attribute, and every
 * launch `k[g, b, ...](...)` has a one-dimensional grid g written `s // d` (directly or through
 * a name bound once in the launch's function), where s is a size (`len(x)`, `x.size`,
 * `x.shape[i]`, an integer, or a name bound once to one of them) and d and the block b resolve
 * to the same positive integer (a literal, or a name bound once to one). Then the launches run
 * at most s threads along x: floor division never rounds up. */
bool gl_kernel_floor_fit(const gl_check_ctx *ctx, const gl_kernel *k);

#endif
