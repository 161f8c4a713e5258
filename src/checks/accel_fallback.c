/* accel_fallback.c: the check accelerator-fallback-trigger (GPU704): in a file that enables
 * cuml.accel or cudf.pandas, calls that the accelerator hands back to the CPU.
 * Owns: one walk (accel_scan.h, every node) that notes whether the file enables each accelerator
 *       (an install call anywhere, or a notebook `%load_ext`), the candidate calls (scikit-learn
 *       estimators with a fallback hyperparameter, row iteration of a frame) and the names of the
 *       file's functions (a callable `init=`), then the findings.
 * Not: whether the accelerator is enabled in time (accel_order.c), native cuDF row iteration
 *      (GPU602).
 * Threads: no state but static const tables; reads one file's borrowed tree, source and model. */
#include "checks/accel.h"

#include <stdio.h>
#include <string.h>

#include "checks/accel_scan.h"
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
  gl_vec(TSNode) defs;   /* names of the file's function definitions */
} scan;

static const char *const positive_models[] = {
    "sklearn.linear_model.LinearRegression", "sklearn.linear_model.Ridge",
    "sklearn.linear_model.Lasso", "sklearn.linear_model.ElasticNet", NULL,
};


static bool text_is(const gl_source *src, TSNode n, const char *s) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  size_t len = strlen(s);
  return b - a == len && b <= src->len && memcmp(src->bytes + a, s, len) == 0;
}

static bool in_list(const char *const *list, const char *s) {
  for (; *list; list++)
    if (strcmp(*list, s) == 0) return true;
  return false;
}

/* The value of keyword argument name, or a null node. */
static TSNode kwarg(const gl_source *src, TSNode call, const char *name) {
  TSNode none = {0}, args = gl_parse_child(call, "arguments", 9);
  uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (!gl_parse_type_is(a, "keyword_argument")) continue;
    TSNode k = gl_parse_child(a, "name", 4);
    if (!ts_node_is_null(k) && text_is(src, k, name)) return gl_parse_child(a, "value", 5);
  }
  return none;
}

static bool string_is(const gl_source *src, TSNode v, const char *s) {
  char q1[40], q2[40];
  snprintf(q1, sizeof q1, "\"%s\"", s);
  snprintf(q2, sizeof q2, "'%s'", s);
  return !ts_node_is_null(v) && gl_parse_type_is(v, "string") && (text_is(src, v, q1) || text_is(src, v, q2));
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
  if (strcmp(q, "sklearn.decomposition.PCA") == 0 && string_is(src, kwarg(src, call, "n_components"), "mle"))
    add(s, call, K_PCA_MLE, none);
  if (strcmp(q, "sklearn.cluster.KMeans") == 0 && !ts_node_is_null(v = kwarg(src, call, "init"))) {
    if (GL_IS(v, lambda)) add(s, call, K_KMEANS_INIT, none);
    else if (GL_IS(v, identifier)) add(s, call, K_KMEANS_INIT, v);
  }
  v = kwarg(src, call, "positive");
  if (in_list(positive_models, q) && !ts_node_is_null(v) && gl_parse_type_is(v, "true")) add(s, call, K_POSITIVE, none);
  v = kwarg(src, call, "warm_start");
  if (!ts_node_is_null(v) && gl_parse_type_is(v, "true")) add(s, call, K_WARM_START, none);
}

/* `x.iterrows()` / `x.itertuples(...)` on anything not known to be device data. */
static void rows_call(scan *s, TSNode call) {
  TSNode fn = gl_parse_child(call, "function", 8);
  if (ts_node_is_null(fn) || !GL_IS(fn, attribute)) return;
  TSNode attr = gl_parse_child(fn, "attribute", 9);
  TSNode obj = gl_parse_child(fn, "object", 6);
  if (ts_node_is_null(attr) || ts_node_is_null(obj)) return;
  if (!text_is(s->ctx->src, attr, "iterrows") && !text_is(s->ctx->src, attr, "itertuples")) return;
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

static bool on_node(void *user, TSNode n, const gl_ascan_pos *pos) {
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

static bool loads(const gl_notebook *nb, const char *ext) {
  size_t len = strlen(ext);
  for (size_t i = 0; nb && i < nb->magics.len; i++) {
    const gl_nb_magic *m = &nb->magics.data[i];
    if (m->kind == GL_NB_LINE_MAGIC && strcmp(m->name, "load_ext") == 0 && m->args &&
        strncmp(m->args, ext, len) == 0 && (m->args[len] == '\0' || m->args[len] == ' '))
      return true;
  }
  return false;
}

static bool names_def(const scan *s, TSNode id) {
  const gl_source *src = s->ctx->src;
  uint32_t a = ts_node_start_byte(id), len = ts_node_end_byte(id) - a;
  for (size_t i = 0; i < s->defs.len; i++) {
    TSNode d = s->defs.data[i];
    uint32_t b = ts_node_start_byte(d);
    if (ts_node_end_byte(d) - b == len && memcmp(src->bytes + a, src->bytes + b, len) == 0) return true;
  }
  return false;
}

static void report(const scan *s, const cand *c) {
  const gl_check_ctx *ctx = s->ctx;
  const char *code = ctx->src->notebook ? ctx->src->notebook->orig : ctx->src->bytes;
  uint32_t a = ts_node_start_byte(c->call), b = ts_node_end_byte(c->call);
  int len = (int)(b - a > TEXT_MAX ? TEXT_MAX : b - a);
  const char *nl = memchr(code + a, '\n', (size_t)len);
  if (nl) len = (int)(nl - (code + a));
  char msg[768];
  snprintf(msg, sizeof msg, "`%.*s` %s", len, code + a, tails[c->k]);
  gl_check_report(ctx, c->call, msg);
}

/* Whether the source can enable an accelerator at all (a cheap exit before the walk). */
static bool may_enable(const gl_source *src) {
  if (loads(src->notebook, "cudf.pandas") || loads(src->notebook, "cuml.accel")) return true;
  const char *p = src->bytes, *end = p + src->len;
  for (; (p = memchr(p, 'i', (size_t)(end - p))) != NULL; p++)
    if ((size_t)(end - p) >= 7 && memcmp(p, "install", 7) == 0) return true;
  return false;
}

void gl_check_accelerator_fallback(const gl_check_ctx *ctx) {
  if (!ctx->model || !may_enable(ctx->src)) return;
  scan s = {.ctx = ctx};
  s.cudf_on = loads(ctx->src->notebook, "cudf.pandas");
  s.cuml_on = loads(ctx->src->notebook, "cuml.accel");
  gl_ascan_walk(ctx->src, ctx->tree, GL_ASCAN_ALL, on_node, &s);
  for (size_t i = 0; i < s.cands.len; i++) {
    const cand *c = &s.cands.data[i];
    bool on = c->k == K_ROWS ? s.cudf_on : s.cuml_on;
    if (!on || (c->k == K_KMEANS_INIT && !ts_node_is_null(c->init) && !names_def(&s, c->init)))
      continue;
    report(&s, c);
  }
  gl_vec_free(&s.cands);
  gl_vec_free(&s.defs);
}
