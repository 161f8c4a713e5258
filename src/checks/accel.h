/* accel.h: the accelerator-mode checks (rules/accelerator-modes).
 * Owns: cudf-pandas-enabled-too-late (GPU701) and cuml-accel-enabled-too-late (GPU702), in
 *       accel_order.c.
 * Not: the walk they share (accel_scan.h), the checks table (checks.c).
 * Threads: as any check (one worker, one file per call). */
#ifndef GL_CHECKS_ACCEL_H
#define GL_CHECKS_ACCEL_H
#include "checks/checks.h"

/* Reports each `cudf.pandas.install()` call (any import alias) and each notebook
 * `%load_ext cudf.pandas` that surely runs after an import of pandas (`import pandas`,
 * `from pandas... import`, in a scope that encloses the call: the module, or the function
 * the call is in or nested in), unless an earlier enabling call or magic surely ran before
 * that import. Imports inside `if TYPE_CHECKING:`, and in an `if` / `match` branch that does
 * not also hold the call, do not count; pandas imported inside a function other than the one that enables
 * (or one enclosing it) does not count. The finding is at the call or magic, with the import
 * as related location. */
void gl_check_cudf_pandas_too_late(const gl_check_ctx *ctx);

/* The same for `cuml.accel.install()` / `%load_ext cuml.accel` after an import of sklearn,
 * umap or hdbscan. */
void gl_check_cuml_accel_too_late(const gl_check_ctx *ctx);

#endif
