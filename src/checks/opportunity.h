/* opportunity.h: the library-migration checks of the opt-in opportunities pack (rules/opportunities,
 * GPU901-GPU905): CPU libraries with a GPU path that needs little or no code change.
 * Owns: one check per library family, each reporting at most once per file, at the import of the
 *       CPU library, when the file really uses an API the GPU path covers and shows no sign of
 *       using that GPU path already (opportunity.c).
 * Not: the walk (accel_scan.h), the checks table (checks.c).
 * Threads: as any check (one worker, one file per call). */
#ifndef GL_CHECKS_OPPORTUNITY_H
#define GL_CHECKS_OPPORTUNITY_H
#include "checks/checks.h"

/* Every check below walks the file once, imports and calls through any alias; imports under
 * `if TYPE_CHECKING:` do not count. The finding sits on the module path of the first import of
 * the CPU library that the first qualifying call uses, with that call as related location. */

/* GPU901: pandas, with a call of `pandas.read_*`, `merge`, `concat`, `pivot_table`, `crosstab`
 * or `get_dummies`; none when the file imports cudf / dask_cudf, calls
 * `cudf.pandas.install()` or has `%load_ext cudf.pandas`. */
void gl_check_pandas_opportunity(const gl_check_ctx *ctx);

/* GPU902: scikit-learn, umap or hdbscan, with a call of an estimator that cuml.accel covers
 * (`sklearn.cluster.KMeans`, `umap.UMAP`, ...); none when the file imports cuml or enables
 * cuml.accel. */
void gl_check_sklearn_opportunity(const gl_check_ctx *ctx);

/* GPU903: networkx, with a call of an algorithm that nx-cugraph implements (`pagerank`,
 * `betweenness_centrality`, `louvain_communities`, ...); none when the file imports
 * nx_cugraph, or passes or names the "cugraph" backend anywhere (a string "cugraph"). */
void gl_check_networkx_opportunity(const gl_check_ctx *ctx);

/* GPU904: faiss CPU index classes, annoy.AnnoyIndex, hnswlib.Index; none when the file imports
 * cuvs or uses faiss's GPU side (StandardGpuResources, index_cpu_to_gpu, GpuIndex*). */
void gl_check_vector_index_opportunity(const gl_check_ctx *ctx);

/* GPU905: scikit-image functions of the modules cuCIM mirrors (minus the ones it lacks:
 * watershed, slic, ORB, BRIEF, hog, ...) and openslide.OpenSlide; none when the file imports
 * cucim. */
void gl_check_skimage_opportunity(const gl_check_ctx *ctx);

#endif
