/* metric_mismatch_in_port.c: the metric-mismatch-in-port check (GPU852): a file that builds a Faiss
 * index with one distance and a cuVS / RAFT index with a distance that ranks neighbours
 * differently.
 * Owns: the metric of each Faiss index constructor (by class name, the metric argument's position,
 *       or METRIC_INNER_PRODUCT / METRIC_L2), of each cuVS / RAFT IndexParams and brute-force call
 *       (the `metric` string, "sqeuclidean" when absent), signs that vectors are normalized
 *       (faiss.normalize_L2, a `norm` / `normalize` call), and the comparison.
 * Not: metrics held in variables, indexes of other files, euclidean vs squared euclidean (the same
 *      ranking), inner product vs cosine (the same ranking on normalized data), Faiss flat indexes
 *      in a file with IVF indexes (probably quantizers: the IVF metric counts).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "parse/parse.h"

#define QCAP 256

enum { M_NONE = 0, M_L2 = 1, M_IP = 2, M_COS = 4 };

typedef struct msite {
  TSNode node;           /* where to report: the metric value, or the call */
  TSNode call;
  int metric;
  bool flat;             /* a Faiss flat index (maybe a quantizer) */
} msite;

typedef struct mstate {
  const gl_check_ctx *ctx;
  gl_vec(msite) faiss;
  gl_vec(msite) gpu;
  int faiss_metrics;     /* M_* bits of every Faiss index of the file */
  bool unknown_faiss;    /* a Faiss index whose metric is not a literal */
  bool normalized;
  bool quantized;        /* a Faiss IVF index: the file's flat indexes may be its quantizers */
} mstate;

typedef struct fclass {
  const char *name;
  int fixed;             /* the metric the class implies, or M_NONE */
  int pos;               /* the position of its metric argument, -1 when it has none */
} fclass;

static const fclass fclasses[] = {
    {"faiss.IndexFlatL2", M_L2, -1},       {"faiss.IndexFlatIP", M_IP, -1},
    {"faiss.GpuIndexFlatL2", M_L2, -1},    {"faiss.GpuIndexFlatIP", M_IP, -1},
    {"faiss.IndexFlat", M_NONE, 1},        {"faiss.IndexIVFFlat", M_NONE, 3},
    {"faiss.IndexIVFPQ", M_NONE, 5},       {"faiss.IndexHNSWFlat", M_NONE, 2},
    {"faiss.IndexIVFScalarQuantizer", M_NONE, 4}, {"faiss.index_factory", M_NONE, 2},
    {"faiss.GpuIndexIVFFlat", M_NONE, 3},  {"faiss.GpuIndexIVFPQ", M_NONE, 5},
    {"faiss.GpuIndexCagra", M_NONE, 2},    {NULL, 0, 0}};

static bool has_splat(TSNode call) {
  TSNode args = gl_parse_child(call, "arguments", 9);
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (gl_parse_type_is(a, "list_splat") || gl_parse_type_is(a, "dictionary_splat")) return true;
  }
  return false;
}

/* The metric of a Faiss metric argument: METRIC_INNER_PRODUCT / METRIC_L2, else M_NONE. */
static int faiss_metric_value(const mstate *st, TSNode v) {
  char q[QCAP];
  if (ts_node_is_null(v) || !gl_model_resolve(st->ctx->model, v, q, sizeof q)) return M_NONE;
  if (strcmp(q, "faiss.METRIC_INNER_PRODUCT") == 0) return M_IP;
  if (strcmp(q, "faiss.METRIC_L2") == 0) return M_L2;
  return M_NONE;
}

static void faiss_site(mstate *st, TSNode call, const fclass *c) {
  int m = c->fixed;
  if (m == M_NONE) {
    TSNode v = gl_check__kwarg(st->ctx->src, call, "metric");
    if (ts_node_is_null(v)) v = gl_check__arg(call, (uint32_t)c->pos);
    if (!ts_node_is_null(v)) m = faiss_metric_value(st, v);
    else if (!has_splat(call)) m = M_L2;  /* Faiss's default */
  }
  if (m == M_NONE) {
    st->unknown_faiss = true;
    return;
  }
  msite s = {call, call, m, strncmp(c->name, "faiss.IndexFlat", 15) == 0};
  gl_vec_push(&st->faiss, s);
}

/* The metric a cuVS string names, or M_NONE. */
static int gpu_metric_text(const gl_source *src, TSNode v) {
  static const struct { const char *s; int m; } names[] = {
      {"sqeuclidean", M_L2}, {"euclidean", M_L2}, {"l2", M_L2}, {"L2Expanded", M_L2},
      {"L2SqrtExpanded", M_L2}, {"inner_product", M_IP}, {"cosine", M_COS}, {NULL, 0}};
  if (!gl_parse_type_is(v, "string") || ts_node_named_child_count(v) != 3) return M_NONE;
  TSNode body = ts_node_named_child(v, 1);
  if (!gl_parse_type_is(body, "string_content")) return M_NONE;
  for (int i = 0; names[i].s; i++)
    if (gl_check__text_is(src, body, names[i].s)) return names[i].m;
  return M_NONE;
}

static void gpu_site(mstate *st, TSNode call, int pos) {
  const gl_source *src = st->ctx->src;
  TSNode v = gl_check__kwarg(src, call, "metric");
  if (ts_node_is_null(v) && pos >= 0) v = gl_check__arg(call, (uint32_t)pos);
  int m = M_NONE;
  if (!ts_node_is_null(v)) m = gpu_metric_text(src, v);
  else if (!has_splat(call)) m = M_L2;  /* "sqeuclidean", cuVS's default */
  if (m == M_NONE) return;
  msite s = {ts_node_is_null(v) ? call : v, call, m, false};
  gl_vec_push(&st->gpu, s);
}

static bool gpu_params(const char *q) {
  static const char *const mods[] = {"cuvs.neighbors.", "pylibraft.neighbors.", NULL};
  static const char *const algos[] = {"cagra.IndexParams", "ivf_flat.IndexParams",
                                      "ivf_pq.IndexParams", NULL};
  for (const char *const *m = mods; *m; m++) {
    size_t n = strlen(*m);
    if (strncmp(q, *m, n) != 0) continue;
    for (const char *const *a = algos; *a; a++)
      if (strcmp(q + n, *a) == 0) return true;
  }
  return false;
}

static void look(mstate *st, TSNode call) {
  char q[QCAP];
  TSNode fn = gl_parse_child(call, "function", 8);
  if (!gl_model_resolve(st->ctx->model, fn, q, sizeof q)) return;
  if (strncmp(q, "faiss.", 6) == 0) {
    if (strcmp(q, "faiss.normalize_L2") == 0) st->normalized = true;
    if (strncmp(q, "faiss.IndexIVF", 14) == 0) st->quantized = true;
    for (const fclass *c = fclasses; c->name; c++)
      if (strcmp(q, c->name) == 0) faiss_site(st, call, c);
    return;
  }
  size_t n = strlen(q);
  if ((n >= 5 && strcmp(q + n - 5, ".norm") == 0) ||
      (n >= 10 && strcmp(q + n - 10, ".normalize") == 0))
    st->normalized = true;
  if (gpu_params(q)) gpu_site(st, call, -1);
  else if (strcmp(q, "cuvs.neighbors.brute_force.build") == 0) gpu_site(st, call, 1);
  else if (strcmp(q, "pylibraft.neighbors.brute_force.knn") == 0) gpu_site(st, call, -1);
}

static const char *metric_name(int m) {
  return m == M_IP ? "inner product" : m == M_COS ? "cosine" : "squared L2";
}

static void report(const mstate *st, const msite *g, const msite *f) {
  char gt[96], ft[96], line[48], msg[640];
  gl_check__text(st->ctx->src, g->node, gt, sizeof gt);
  gl_check__text(st->ctx->src, gl_parse_child(f->call, "function", 8), ft, sizeof ft);
  gl_check_line_label(st->ctx, ts_node_start_byte(f->call), line, sizeof line);
  bool dflt = ts_node_eq(g->node, g->call);
  snprintf(msg, sizeof msg,
           "the GPU index uses %s%s (`%s`) but the Faiss index `%s` (%s) uses %s: the two rank "
           "neighbours differently, so results and recall are not comparable; pass "
           "`metric=\"%s\"`",
           metric_name(g->metric), dflt ? " by default" : "", gt, ft, line,
           metric_name(f->metric), f->metric == M_IP ? "inner_product" : "sqeuclidean");
  const char *rel = "the Faiss index's metric";
  gl_check_report_related(st->ctx, g->node, msg, &f->call, &rel, 1);
}

static bool mismatch(const mstate *st, int faiss, int gpu) {
  if (faiss == M_L2) return gpu == M_IP || gpu == M_COS;
  return faiss == M_IP && gpu == M_L2 && !st->normalized;
}

/* A cuVS / RAFT index (IndexParams, brute_force.build / knn) whose metric ranks neighbours
 * differently from the one metric of every Faiss index of the file (L2 vs inner product or
 * cosine; inner product vs L2 only when nothing normalizes the vectors). */
void gl_check_metric_mismatch_in_port(const gl_check_ctx *ctx) {
  if (!ctx->model) return;
  if (!gl_source_has(ctx->src, "faiss")) return;
  mstate st = {.ctx = ctx};
  gl_check__walk s;
  gl_check__walk_init(&s, ctx->model, ts_tree_root_node(ctx->tree));
  TSNode n;
  while (gl_check__walk_next(&s, &n))
    if (GL_IS(n, call)) look(&st, n);
  gl_check__walk_free(&s);
  /* with IVF indexes in the file, a flat index is probably a quantizer: the IVF index's own
   * metric is the one that ranks */
  const msite *first = NULL;
  for (size_t i = 0; i < st.faiss.len; i++) {
    if (st.faiss.data[i].flat && st.quantized) continue;
    st.faiss_metrics |= st.faiss.data[i].metric;
    if (!first) first = &st.faiss.data[i];
  }
  bool one = st.faiss_metrics == M_L2 || st.faiss_metrics == M_IP;
  for (size_t i = 0; one && !st.unknown_faiss && i < st.gpu.len; i++)
    if (mismatch(&st, st.faiss_metrics, st.gpu.data[i].metric))
      report(&st, &st.gpu.data[i], first);
  gl_vec_free(&st.faiss);
  gl_vec_free(&st.gpu);
}
