/* kernel_scan.h: the private header of the kernel-correctness pack: finding the GPU kernels of a
 * file (kernel_scan.c) and whether a Numba kernel's launches fit a size (kernel_fit.c), for
 * numba_kernel_missing_bounds_check.c, syncthreads_in_divergent_branch.c,
 * numba_kernel_constraints.c, warp_kernel_constraints.c and warp_differentiability_pitfalls.c.
 * Owns: what a kernel is (a def decorated `@cuda.jit`, `@cuda.jit(...)`, `@numba.cuda.jit`,
 *       `@cupyx.jit.rawkernel()`, `@wp.kernel`, `@wp.func`, through any import alias, resolved by
 *       the model), which library's thread-index API it uses, and the walk over every kernel of
 *       a file (one pass: a kernel's subtree is handed to the caller and not walked again; the
 *       other nodes optionally to a second callback), and the names a binding target binds (a
 *       kernel's body is walked with gl_check__body_each); for GPU801, the launches of a kernel
 *       (kernel_fit.c).
 * Not: any check's logic; reporting.
 * Threads: no state beyond the caller's values; the tree, source and model are borrowed. */
#ifndef GL_CHECKS_KERNEL_SCAN_H
#define GL_CHECKS_KERNEL_SCAN_H

#include <stdbool.h>
#include <tree_sitter/api.h>

#include "base/load.h"
#include "checks/checks.h"
#include "checks/walk.h"
#include "model/model.h"

typedef enum gl_kkind {
  GL_K_NONE = 0,
  GL_K_NUMBA,         /* @cuda.jit kernel (launched from the host) */
  GL_K_NUMBA_DEVICE,  /* @cuda.jit(device=True): a device function */
  GL_K_CUPYX,         /* @cupyx.jit.rawkernel() */
  GL_K_WARP,          /* @wp.kernel */
  GL_K_WARP_FUNC,     /* @wp.func */
} gl_kkind;

typedef struct gl_kernel {
  gl_kkind kind;
  TSNode def;         /* the function_definition */
  TSNode decorator;   /* the decorator that made it a kernel */
  const char *lib;    /* "numba.cuda", "cupyx.jit" or "warp": prefix of its thread-index API */
} gl_kernel;

/* What kind of kernel a decorated_definition is (GL_K_NONE for anything else); fills *k. */
gl_kkind gl_kernel_of(const gl_model *m, const gl_source *src, TSNode decorated, gl_kernel *k);

/* Calls fn(k, data) for every kernel of the tree whose kind bit (1u << kind) is in kinds, in
 * source order. Returns at once when the model is NULL or the source names neither `jit`,
 * `kernel` nor `func`. */
typedef void (*gl_kernel_fn)(const gl_kernel *k, void *data);
void gl_kernel_each(const gl_model *m, const gl_source *src, const TSTree *tree, unsigned kinds,
                    gl_kernel_fn fn, void *data);

/* As gl_kernel_each, and calls other(n, data) for every named node outside the kernels it
 * reports (other may be NULL): one walk for checks that also look at host code. */
typedef void (*gl_kernel_node_fn)(TSNode n, void *data);
void gl_kernel_walk(const gl_model *m, const gl_source *src, const TSTree *tree, unsigned kinds,
                    gl_kernel_fn fn, gl_kernel_node_fn other, void *data);

/* Appends to out the identifiers a binding target binds: t itself when it is an identifier, the
 * identifiers directly inside it when it is a pattern_list, tuple_pattern or list_pattern, and
 * nothing otherwise. */
void gl_kernel_target_names(TSNode t, gl_check__nodes *out);

/* True when the qualified name q is lib + "." + tail (lib from a gl_kernel). */
bool gl_kernel_api_is(const char *lib, const char *q, const char *tail);

/* True when n is an identifier or attribute (chain) resolving to lib.tail, or lib.tail.<field>
 * for tail "threadIdx" / "blockIdx" / "blockDim" (writes nothing). */
bool gl_kernel_names_api(const gl_model *m, const char *lib, TSNode n, const char *tail);

/* True when k (a GL_K_NUMBA kernel) is launched at least once in the file, every other use of
 * its name is a read of `.definition`, `.definitions` or an `.inspect_*` attribute, and every
 * launch `k[g, b, ...](...)` has a one-dimensional grid g written `s // d` (directly or through
 * a name bound once in the launch's function), where s is a size (`len(x)`, `x.size`,
 * `x.shape[i]`, an integer, or a name bound once to one of them) and d and the block b resolve
 * to the same positive integer (a literal, or a name bound once to one), or a grid of 1 with a
 * block that is such a size (`k[1, len(x)]`). Then the launches run at most s threads along x:
 * floor division never rounds up (kernel_fit.c). */
bool gl_kernel_floor_fit(const gl_check_ctx *ctx, const gl_kernel *k);

#endif
