/* accel.h: the accelerator-mode checks (rules/accelerator-modes).
 * Owns: cudf-pandas-enabled-too-late (GPU701) and cuml-accel-enabled-too-late (GPU702), in
 *       accel_order.c; accelerator-fallback-trigger (GPU704), in accel_fallback.c.
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

/* In a file that enables cuml.accel (a `cuml.accel.install()` call anywhere, any alias, or
 * `%load_ext cuml.accel`): scikit-learn constructors with a hyperparameter the accelerator hands
 * back to the CPU: `PCA(n_components="mle")`, `KMeans(init=<lambda or a def of the file>)`,
 * `positive=True` on LinearRegression / Ridge / Lasso / ElasticNet, `warm_start=True` on any
 * sklearn class. In a file that enables cudf.pandas: `x.iterrows()` / `x.itertuples()` where x
 * is not known device data. One note per call, at the call. */
void gl_check_accelerator_fallback(const gl_check_ctx *ctx);

#endif
