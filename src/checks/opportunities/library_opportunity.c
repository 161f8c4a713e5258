/* library_opportunity.c: the opportunity checks (GPU901-GPU905): a CPU library used for work that a
 * GPU path covers with little or no code change, reported once per file, at the library's import.
 * Owns: the per-library tables (what is imported, which calls show real use, what shows the GPU
 *       path is already taken), one walk per file that fills them in, and the finding.
 * Not: the walk itself (run_order.c), the accelerator-order rules (enabled_too_late.c).
 * Threads: no state but static const tables; reads one file's borrowed tree, source and model. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "checks/run_order.h"
#include "notebook/notebook.h"
#include "parse/parse.h"

#define QCAP 160
#define MAX_LIBS 3
#define TEXT_MAX 60

typedef struct opp {
  const char *const *libs;          /* top-level modules of the CPU libraries (at most MAX_LIBS) */
  bool (*is_use)(const char *q);    /* a call's qualified name shows real use */
  const char *const *gpu_modules;   /* importing one of these (or a submodule) means GPU already */
  bool (*is_gpu_call)(const char *q);
  const char *gpu_ext;              /* a notebook extension that means GPU already, or NULL */
  bool cugraph_strings;             /* a string "cugraph" / "nx-cugraph" means GPU already */
  const char *tail;                 /* message, after "`<call>` (<where>) " */
} opp;

typedef struct scan {
  const gl_check_ctx *ctx;
  const opp *op;
  TSNode import[MAX_LIBS];          /* first import of each lib (module path) */
  TSNode use;                       /* first qualifying call */
  size_t use_lib;
  bool gpu;                         /* the GPU path is already taken */
} scan;


static bool in_list(const char *const *list, const char *s) {
  for (; list && *list; list++)
    if (strcmp(*list, s) == 0) return true;
  return false;
}

/* The index of the list entry that is q's top-level module (q itself or a prefix up to a dot). */
static int module_of(const char *const *list, const char *q) {
  for (int i = 0; list && list[i]; i++) {
    size_t len = strlen(list[i]);
    if (strncmp(q, list[i], len) == 0 && (q[len] == '\0' || q[len] == '.')) return i;
  }
  return -1;
}

static const char *last_part(const char *q) {
  const char *dot = strrchr(q, '.');
  return dot ? dot + 1 : q;
}

/* ---- the tables ------------------------------------------------------------------------------ */

static const char *const pandas_libs[] = {"pandas", NULL};
static const char *const pandas_gpu[] = {"cudf", "dask_cudf", NULL};
static const char *const pandas_work[] = {"merge", "concat", "pivot_table", "crosstab",
                                          "get_dummies", NULL};

static bool pandas_use(const char *q) {
  if (strncmp(q, "pandas.", 7) != 0 || strchr(q + 7, '.')) return false;
  return strncmp(q + 7, "read_", 5) == 0 || in_list(pandas_work, q + 7);
}

static bool pandas_gpu_call(const char *q) { return strcmp(q, "cudf.pandas.install") == 0; }

static const char *const sklearn_libs[] = {"sklearn", "umap", "hdbscan", NULL};
static const char *const sklearn_gpu[] = {"cuml", NULL};
static const char *const sklearn_covered[] = {
    "sklearn.cluster.KMeans", "sklearn.cluster.DBSCAN", "sklearn.decomposition.PCA",
    "sklearn.decomposition.TruncatedSVD", "sklearn.linear_model.LinearRegression",
    "sklearn.linear_model.LogisticRegression", "sklearn.linear_model.Ridge",
    "sklearn.linear_model.Lasso", "sklearn.linear_model.ElasticNet",
    "sklearn.ensemble.RandomForestClassifier", "sklearn.ensemble.RandomForestRegressor",
    "sklearn.neighbors.KNeighborsClassifier", "sklearn.neighbors.KNeighborsRegressor",
    "sklearn.neighbors.NearestNeighbors", "sklearn.svm.SVC", "sklearn.svm.SVR",
    "sklearn.manifold.TSNE", "umap.UMAP", "hdbscan.HDBSCAN", NULL,
};

static bool sklearn_use(const char *q) { return in_list(sklearn_covered, q); }

static bool sklearn_gpu_call(const char *q) { return strcmp(q, "cuml.accel.install") == 0; }

static const char *const networkx_libs[] = {"networkx", NULL};
static const char *const networkx_gpu[] = {"nx_cugraph", NULL};
static const char *const nx_algorithms[] = {
    "pagerank", "betweenness_centrality", "edge_betweenness_centrality", "eigenvector_centrality",
    "katz_centrality", "hits", "louvain_communities", "connected_components",
    "weakly_connected_components", "strongly_connected_components", "core_number", "k_truss",
    "triangles", "clustering", "average_clustering", "transitivity", "shortest_path",
    "shortest_path_length", "single_source_shortest_path_length",
    "all_pairs_shortest_path_length", "bfs_edges", "bfs_tree", "jaccard_coefficient",
    "single_source_dijkstra_path_length", "dijkstra_path", "dijkstra_path_length", NULL,
};

static bool networkx_use(const char *q) {
  return strncmp(q, "networkx.", 9) == 0 && in_list(nx_algorithms, last_part(q));
}

static bool never(const char *q) {
  (void)q;
  return false;
}

static const char *const index_libs[] = {"faiss", "annoy", "hnswlib", NULL};
static const char *const index_gpu[] = {"cuvs", NULL};
static const char *const index_classes[] = {
    "faiss.IndexFlatL2", "faiss.IndexFlatIP", "faiss.IndexIVFFlat", "faiss.IndexIVFPQ",
    "faiss.IndexHNSWFlat", "faiss.IndexPQ", "faiss.index_factory", "annoy.AnnoyIndex",
    "hnswlib.Index", NULL,
};

static bool index_use(const char *q) { return in_list(index_classes, q); }

static bool index_gpu_call(const char *q) {
  return strcmp(q, "faiss.StandardGpuResources") == 0 || strcmp(q, "faiss.index_cpu_to_gpu") == 0 ||
         strcmp(q, "faiss.index_cpu_to_all_gpus") == 0 || strncmp(q, "faiss.GpuIndex", 14) == 0;
}

static const char *const image_libs[] = {"skimage", "openslide", NULL};
static const char *const image_gpu[] = {"cucim", NULL};
static const char *const cucim_modules[] = {"color", "exposure", "feature", "filters", "measure",
                                            "metrics", "morphology", "registration", "restoration",
                                            "segmentation", "transform", "util", NULL};
static const char *const cucim_missing[] = {"watershed", "slic", "felzenszwalb", "quickshift",
                                            "ORB", "BRIEF", "SIFT", "CENSURE", "hog", NULL};

/* skimage.<module>.<function> with a module cuCIM mirrors and a function it implements. */
static bool image_use(const char *q) {
  if (strcmp(q, "openslide.OpenSlide") == 0) return true;
  if (strncmp(q, "skimage.", 8) != 0) return false;
  const char *mod = q + 8, *dot = strchr(mod, '.');
  if (!dot || strchr(dot + 1, '.')) return false;
  char m[32];
  size_t len = (size_t)(dot - mod);
  if (len >= sizeof m) return false;
  memcpy(m, mod, len);
  m[len] = '\0';
  return in_list(cucim_modules, m) && !in_list(cucim_missing, dot + 1);
}

static const opp pandas_opp = {
    pandas_libs, pandas_use, pandas_gpu, pandas_gpu_call, "cudf.pandas", false,
    "runs in pandas on the CPU; cudf.pandas runs the same pandas code on the GPU, falling back to "
    "the CPU where it must: start the program with `python -m cudf.pandas` (or `%load_ext "
    "cudf.pandas` first in a notebook) and measure"};
static const opp sklearn_opp = {
    sklearn_libs, sklearn_use, sklearn_gpu, sklearn_gpu_call, "cuml.accel", false,
    "has a GPU implementation in cuML; `python -m cuml.accel` (or `%load_ext cuml.accel` first "
    "in a notebook) runs this code on the GPU unchanged: measure it"};
static const opp networkx_opp = {
    networkx_libs, networkx_use, networkx_gpu, never, NULL, true,
    "is implemented by the nx-cugraph backend; install nx-cugraph and set "
    "`NX_CUGRAPH_AUTOCONFIG=True` (or pass `backend=\"cugraph\"`) to run it on the GPU unchanged"};
static const opp index_opp = {
    index_libs, index_use, index_gpu, index_gpu_call, NULL, false,
    "builds a CPU vector index; cuVS builds them on the GPU: `brute_force` for exact "
    "results, CAGRA or IVF-PQ with a measured recall@k against the exact answer"};
static const opp image_opp = {
    image_libs, image_use, image_gpu, never, NULL, false,
    "has a GPU version in cuCIM: `cucim.skimage` mirrors scikit-image on CuPy arrays "
    "and `cucim.CuImage` reads whole-slide images; measure it on your image sizes"};

/* ---- the walk -------------------------------------------------------------------------------- */

static void note_module(scan *s, TSNode dotted) {
  char q[QCAP];
  if (ts_node_is_null(dotted) || !gl_parse_type_is(dotted, "dotted_name")) return;
  if (!gl_model_resolve(s->ctx->model, dotted, q, sizeof q)) return;
  if (module_of(s->op->gpu_modules, q) >= 0) s->gpu = true;
  int lib = module_of(s->op->libs, q);
  if (lib >= 0 && lib < MAX_LIBS && ts_node_is_null(s->import[lib])) s->import[lib] = dotted;
}

static void note_import(scan *s, TSNode stmt) {
  if (GL_IS(stmt, import_from_statement)) {
    note_module(s, gl_parse_child(stmt, "module_name", 11));
    return;
  }
  uint32_t n = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(stmt, i);
    if (GL_IS(c, aliased_import)) c = gl_parse_child(c, "name", 4);
    note_module(s, c);
  }
}

static void note_call(scan *s, TSNode call) {
  char q[QCAP];
  TSNode fn = gl_parse_child(call, "function", 8);
  if (!gl_model_resolve(s->ctx->model, fn, q, sizeof q)) return;
  if (s->op->is_gpu_call(q)) s->gpu = true;
  if (!ts_node_is_null(s->use) || !s->op->is_use(q)) return;
  int lib = module_of(s->op->libs, q);
  if (lib < 0 || lib >= MAX_LIBS) return;
  s->use = call;
  s->use_lib = (size_t)lib;
}

/* A string literal "cugraph" or "nx-cugraph" (a backend= argument, a config entry). */
static bool names_cugraph(const gl_source *src, TSNode str) {
  uint32_t a = ts_node_start_byte(str), b = ts_node_end_byte(str);
  if (b - a < 9 || b > src->len) return false;
  const char *t = src->bytes + a;
  size_t len = b - a;
  return (len == 9 && memcmp(t + 1, "cugraph", 7) == 0) ||
         (len == 12 && memcmp(t + 1, "nx-cugraph", 10) == 0);
}

static bool on_node(void *user, TSNode n, const gl_check__pos *pos) {
  (void)pos;
  scan *s = user;
  const char *t = ts_node_type(n);
  if (strcmp(t, "import_statement") == 0 || strcmp(t, "import_from_statement") == 0) {
    note_import(s, n);
    return false;
  }
  if (strcmp(t, "call") == 0) note_call(s, n);
  else if (strcmp(t, "string") == 0) {
    if (s->op->cugraph_strings && names_cugraph(s->ctx->src, n)) s->gpu = true;
    return false;
  } else if (strcmp(t, "comment") == 0) return false;
  return true;
}


/* Whether the source names one of the libraries at all (a cheap exit before the walk). */
static bool mentions(const gl_source *src, const char *const *libs) {
  for (; *libs; libs++)
    if (gl_source_has(src, *libs)) return true;
  return false;
}

static void report(const scan *s) {
  const gl_check_ctx *ctx = s->ctx;
  uint32_t a = ts_node_start_byte(s->use);
  int len;
  const char *code = gl_check__written(ctx->src, a, ts_node_end_byte(s->use), TEXT_MAX, &len);
  char where[64], msg[768];
  gl_check_line_label(ctx, a, where, sizeof where);
  snprintf(msg, sizeof msg, "`%.*s` (%s) %s", len, code, where, s->op->tail);
  const char *rel_msg[] = {"the call a GPU library covers"};
  gl_check_report_related(ctx, s->import[s->use_lib], msg, &s->use, rel_msg, 1);
}

static void run(const gl_check_ctx *ctx, const opp *op) {
  if (!ctx->model || !mentions(ctx->src, op->libs) || gl_check__loads_ext(ctx->src, op->gpu_ext))
    return;
  scan s = {.ctx = ctx, .op = op};
  gl_check__order_walk(ctx->model, ctx->src, ctx->tree, GL_CHECK__ALL_NODES, on_node, &s);
  if (s.gpu || ts_node_is_null(s.use) || ts_node_is_null(s.import[s.use_lib])) return;
  report(&s);
}

/* Every opportunity check walks the file once, imports and calls through any alias; imports
 * under `if TYPE_CHECKING:` do not count. The finding sits on the module path of the first
 * import of the CPU library that the first qualifying call uses, with that call as related
 * location. */
/* GPU901: pandas, with a call of `pandas.read_*`, `merge`, `concat`, `pivot_table`, `crosstab`
 * or `get_dummies`; none when the file imports cudf / dask_cudf, calls
 * `cudf.pandas.install()` or has `%load_ext cudf.pandas`. */
void gl_check_pandas_without_cudf_pandas(const gl_check_ctx *ctx) { run(ctx, &pandas_opp); }

/* GPU902: scikit-learn, umap or hdbscan, with a call of an estimator that cuml.accel covers
 * (`sklearn.cluster.KMeans`, `umap.UMAP`, ...); none when the file imports cuml or enables
 * cuml.accel. */
void gl_check_sklearn_without_cuml_accel(const gl_check_ctx *ctx) { run(ctx, &sklearn_opp); }

/* GPU903: networkx, with a call of an algorithm that nx-cugraph implements (`pagerank`,
 * `betweenness_centrality`, `louvain_communities`, ...); none when the file imports
 * nx_cugraph, or passes or names the "cugraph" backend anywhere (a string "cugraph"). */
void gl_check_networkx_without_nx_cugraph(const gl_check_ctx *ctx) { run(ctx, &networkx_opp); }

/* GPU904: faiss CPU index classes, annoy.AnnoyIndex, hnswlib.Index; none when the file imports
 * cuvs or uses faiss's GPU side (StandardGpuResources, index_cpu_to_gpu, GpuIndex*). */
void gl_check_cpu_vector_index(const gl_check_ctx *ctx) { run(ctx, &index_opp); }

/* GPU905: scikit-image functions of the modules cuCIM mirrors (minus the ones it lacks:
 * watershed, slic, ORB, BRIEF, hog, ...) and openslide.OpenSlide; none when the file imports
 * cucim. */
void gl_check_skimage_without_cucim(const gl_check_ctx *ctx) { run(ctx, &image_opp); }
