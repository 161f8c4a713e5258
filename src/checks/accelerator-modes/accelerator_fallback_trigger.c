/* accelerator_fallback_trigger.c: the check accelerator-fallback-trigger (GPU704): in a file that
 * enables cuml.accel or cudf.pandas, calls that the accelerator hands back to the CPU.
 * Owns: one walk (run_order.h, every node) that notes whether the file enables each accelerator (an
 *       install call anywhere, or a notebook `%load_ext`), the candidate calls (scikit-learn
 *       estimators with a fallback hyperparameter, row iteration of a frame) and the names of the
 *       file's functions (a callable `init=`), then the findings.
 * Not: whether the accelerator is enabled in time (enabled_too_late.c), native cuDF row iteration
 *      (GPU602).
 * Threads: no state but static const tables; reads one file's borrowed tree, source and model. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "checks/run_order.h"
#include "notebook/notebook.h"
#include "parse/parse.h"

#define QCAP 160
#define TEXT_MAX 60

typedef enum kind { K_PCA_MLE, K_KMEANS_INIT, K_POSITIVE, K_WARM_START, K_ROWS } kind;

/* What each kind says after "`<call>` ". */
static const char *const tails[] = {
    "asks for n_components=\"mle\", which cuML's PCA does not implement, so cuml.accel runs this "
    "estimator on the CPU; give the number of components",
    "passes a callable as init, which cuML's KMeans does not accept, so cuml.accel runs this "
    "estimator on the CPU; use \"k-means++\", \"random\" or an array of initial centres",
    "asks for positive coefficients, which cuML's linear models do not implement, so cuml.accel "
    "runs this estimator on the CPU",
    "asks for warm_start=True, which cuml.accel does not support, so this estimator runs on the "
    "CPU; fit from scratch on the GPU instead",
    "iterates over rows, which cuDF cannot do, so under cudf.pandas the frame is copied to the "
    "host and iterated by pandas; use column-wise (vectorized) operations instead",
};

typedef struct cand {
  TSNode call;
  kind k;
  TSNode init;    /* K_KMEANS_INIT: the identifier given as init (a null node for a lambda) */
} cand;

typedef struct scan {
  const gl_check_ctx *ctx;
  bool cudf_on, cuml_on;
  gl_vec(cand) cands;
  gl_check__nodes defs;   /* names of the file's function definitions */
} scan;

static const char *const positive_models[] = {
    "sklearn.linear_model.LinearRegression", "sklearn.linear_model.Ridge",
    "sklearn.linear_model.Lasso", "sklearn.linear_model.ElasticNet", NULL,
};

static bool in_list(const char *const *list, const char *s) {
  for (; *list; list++)
    if (strcmp(*list, s) == 0) return true;
  return false;
}


static bool string_is(const gl_source *src, TSNode v, const char *s) {
  char q1[40], q2[40];
  snprintf(q1, sizeof q1, "\"%s\"", s);
  snprintf(q2, sizeof q2, "'%s'", s);
  return !ts_node_is_null(v) && gl_parse_type_is(v, "string") &&
         (gl_check__text_is(src, v, q1) || gl_check__text_is(src, v, q2));
}

static void add(scan *s, TSNode call, kind k, TSNode init) {
  cand *c = gl_vec_grow(&s->cands);
  c->call = call;
  c->k = k;
  c->init = init;
}

/* scikit-learn constructors with a hyperparameter cuml.accel hands back to the CPU. */
static void sklearn_call(scan *s, TSNode call, const char *q) {
  const gl_source *src = s->ctx->src;
  TSNode none = {0}, v;
  if (strcmp(q, "sklearn.decomposition.PCA") == 0 &&
      string_is(src, gl_check__kwarg(src, call, "n_components"), "mle"))
    add(s, call, K_PCA_MLE, none);
  if (strcmp(q, "sklearn.cluster.KMeans") == 0 && !ts_node_is_null(v = gl_check__kwarg(src, call, "init"))) {
    if (GL_IS(v, lambda)) add(s, call, K_KMEANS_INIT, none);
    else if (GL_IS(v, identifier)) add(s, call, K_KMEANS_INIT, v);
  }
  v = gl_check__kwarg(src, call, "positive");
  if (in_list(positive_models, q) && !ts_node_is_null(v) && gl_parse_type_is(v, "true"))
    add(s, call, K_POSITIVE, none);
  v = gl_check__kwarg(src, call, "warm_start");
  if (!ts_node_is_null(v) && gl_parse_type_is(v, "true")) add(s, call, K_WARM_START, none);
}

/* `x.iterrows()` / `x.itertuples(...)` on anything not known to be device data. */
static void rows_call(scan *s, TSNode call) {
  TSNode fn = gl_parse_child(call, "function", 8);
  if (ts_node_is_null(fn) || !GL_IS(fn, attribute)) return;
  TSNode attr = gl_parse_child(fn, "attribute", 9);
  TSNode obj = gl_parse_child(fn, "object", 6);
  if (ts_node_is_null(attr) || ts_node_is_null(obj)) return;
  const gl_source *src = s->ctx->src;
  if (!gl_check__text_is(src, attr, "iterrows") && !gl_check__text_is(src, attr, "itertuples"))
    return;
  if (gl_model_prov(s->ctx->model, obj) == GL_PROV_DEVICE) return;
  TSNode none = {0};
  add(s, call, K_ROWS, none);
}

static void on_call(scan *s, TSNode call) {
  char q[QCAP];
  TSNode fn = gl_parse_child(call, "function", 8);
  if (!gl_model_resolve(s->ctx->model, fn, q, sizeof q)) {
    rows_call(s, call);
    return;
  }
  if (strcmp(q, "cudf.pandas.install") == 0) s->cudf_on = true;
  else if (strcmp(q, "cuml.accel.install") == 0) s->cuml_on = true;
  else if (strncmp(q, "sklearn.", 8) == 0) sklearn_call(s, call, q);
}

static bool on_node(void *user, TSNode n, const gl_check__pos *pos) {
  (void)pos;
  scan *s = user;
  const char *t = ts_node_type(n);
  if (strcmp(t, "call") == 0) on_call(s, n);
  else if (strcmp(t, "function_definition") == 0) {
    TSNode name = gl_parse_child(n, "name", 4);
    if (!ts_node_is_null(name)) gl_vec_push(&s->defs, name);
  } else if (strcmp(t, "string") == 0 || strcmp(t, "comment") == 0) return false;
  return true;
}



static void report(const scan *s, const cand *c) {
  const gl_check_ctx *ctx = s->ctx;
  int len;
  const char *code = gl_check__written(ctx->src, ts_node_start_byte(c->call),
                                       ts_node_end_byte(c->call), TEXT_MAX, &len);
  char msg[768];
  snprintf(msg, sizeof msg, "`%.*s` %s", len, code, tails[c->k]);
  gl_check_report(ctx, c->call, msg);
}

/* Whether the source can enable an accelerator at all (a cheap exit before the walk). */
static bool may_enable(const gl_source *src) {
  if (gl_check__loads_ext(src, "cudf.pandas") || gl_check__loads_ext(src, "cuml.accel"))
    return true;
  return gl_source_has(src, "install");
}

/* In a file that enables cuml.accel (a `cuml.accel.install()` call anywhere, any alias, or
 * `%load_ext cuml.accel`): scikit-learn constructors with a hyperparameter the accelerator hands
 * back to the CPU: `PCA(n_components="mle")`, `KMeans(init=<lambda or a def of the file>)`,
 * `positive=True` on LinearRegression / Ridge / Lasso / ElasticNet, `warm_start=True` on any
 * sklearn class. In a file that enables cudf.pandas: `x.iterrows()` / `x.itertuples()` where x
 * is not known device data. One note per call, at the call. */
void gl_check_accelerator_fallback_trigger(const gl_check_ctx *ctx) {
  if (!ctx->model || !may_enable(ctx->src)) return;
  scan s = {.ctx = ctx};
  s.cudf_on = gl_check__loads_ext(ctx->src, "cudf.pandas");
  s.cuml_on = gl_check__loads_ext(ctx->src, "cuml.accel");
  gl_check__order_walk(ctx->model, ctx->src, ctx->tree, GL_CHECK__ALL_NODES, on_node, &s);
  for (size_t i = 0; i < s.cands.len; i++) {
    const cand *c = &s.cands.data[i];
    bool on = c->k == K_ROWS ? s.cudf_on : s.cuml_on;
    bool own_init = ts_node_is_null(c->init) || gl_check__has_text(ctx->src, &s.defs, c->init);
    if (!on || (c->k == K_KMEANS_INIT && !own_init))
      continue;
    report(&s, c);
  }
  gl_vec_free(&s.cands);
  gl_vec_free(&s.defs);
}
