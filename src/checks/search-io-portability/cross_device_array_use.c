/* cross_device_array_use.c: the cross-device-array-use check (GPU872): an array made on one GPU
 * used in work that runs on another.
 * Owns: `with cp.cuda.Device(<int>)` contexts and the CuPy arrays bound inside them; PyTorch
 *       tensors made or moved with a literal `device="cuda:N"`, `.to("cuda:N")`, `.cuda(N)`; Warp
 *       arrays allocated with `device="cuda:N"` and `wp.launch(..., device="cuda:M")`; the
 *       operations that would mix them (operators, library calls, method calls), all in one linear
 *       pass in source order within one scope.
 * Not: device numbers that are not literals, `Device(n).use()`, names bound in another scope,
 *      peer-access setup (a mixed use is reported even where peer access makes it work).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/node.h"
#include "checks/search-io-portability/binds.h"
#include "parse/parse.h"

#define QCAP 256

enum { LIB_CUPY = 1, LIB_TORCH = 2, LIB_WARP = 3 };

#define KIND(lib, dev) (((lib) << 8) | ((dev) + 1))
#define KIND_LIB(k) ((k) >> 8)
#define KIND_DEV(k) (((k) & 0xff) - 1)

typedef struct dctx {
  uint32_t end;
  int dev;               /* -1: not a literal */
  TSNode node;
} dctx;

typedef struct dstate {
  const gl_check_ctx *ctx;
  gl_vbinds binds;
  gl_vec(dctx) ctxs;
  uint32_t scope;
} dstate;

static bool resolve(const dstate *st, TSNode n, char *q) {
  return !ts_node_is_null(n) && gl_model_resolve(st->ctx->model, n, q, QCAP);
}

static bool resolve_call(const dstate *st, TSNode call, char *q) {
  return GL_IS(call, call) &&
         resolve(st, gl_parse_child(call, "function", 8), q);
}

/* A small non-negative integer literal, or -1. */
static int int_lit(const gl_source *src, TSNode n) {
  if (!gl_parse_type_is(n, "integer")) return -1;
  uint32_t a = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (e - a > 2) return -1;
  int v = 0;
  for (uint32_t i = a; i < e; i++) {
    if (src->bytes[i] < '0' || src->bytes[i] > '9') return -1;
    v = v * 10 + (src->bytes[i] - '0');
  }
  return v;
}

/* "cuda:N" (any quotes, no prefix letters) -> N; anything else -> -1. */
static int cuda_lit(const gl_source *src, TSNode n) {
  if (!gl_parse_type_is(n, "string")) return -1;
  uint32_t a = ts_node_start_byte(n), e = ts_node_end_byte(n);
  const char *s = src->bytes + a;
  size_t len = e - a;
  if (len < 8 || (s[0] != '"' && s[0] != '\'') || s[len - 1] != s[0]) return -1;
  if (memcmp(s + 1, "cuda:", 5) != 0) return -1;
  int v = 0;
  for (size_t i = 6; i < len - 1; i++) {
    if (s[i] < '0' || s[i] > '9' || i > 7) return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

/* The device a call puts its result on, as a KIND, or 0. */
static int made_on(const dstate *st, TSNode call) {
  const gl_source *src = st->ctx->src;
  char q[QCAP], meth[16];
  TSNode recv;
  if (resolve_call(st, call, q)) {
    int lib = strncmp(q, "torch.", 6) == 0 ? LIB_TORCH : strncmp(q, "warp.", 5) == 0 ? LIB_WARP : 0;
    if (!lib) return 0;
    int d = cuda_lit(src, gl_check__kwarg(src, call, "device"));
    return d >= 0 ? KIND(lib, d) : 0;
  }
  if (!gl_check__method_name(src, call, meth, sizeof meth, &recv)) return 0;
  if (strcmp(meth, "cuda") == 0) {
    int d = int_lit(src, gl_check__arg(call, 0));
    return d >= 0 ? KIND(LIB_TORCH, d) : 0;
  }
  if (strcmp(meth, "to") != 0) return 0;
  TSNode a = gl_check__arg(call, 0);
  int d = cuda_lit(src, ts_node_is_null(a) ? gl_check__kwarg(src, call, "device") : a);
  return d >= 0 ? KIND(LIB_TORCH, d) : 0;
}

/* The innermost CuPy device context the walk is in (dev -1: not a literal), or NULL. */
static const dctx *current(const dstate *st) {
  return st->ctxs.len ? &st->ctxs.data[st->ctxs.len - 1] : NULL;
}

static void enter_with(dstate *st, TSNode with) {
  TSNode clause = ts_node_named_child(with, 0);
  if (!gl_parse_type_is(clause, "with_clause")) return;
  uint32_t n = ts_node_named_child_count(clause);
  for (uint32_t i = 0; i < n; i++) {
    TSNode item = ts_node_named_child(clause, i);
    TSNode v = gl_parse_child(item, "value", 5);
    if (gl_parse_type_is(v, "as_pattern")) v = ts_node_named_child(v, 0);
    char q[QCAP];
    if (!resolve_call(st, v, q)) continue;
    if (strcmp(q, "cupy.cuda.Device") != 0 && strcmp(q, "cupy.cuda.device.Device") != 0) continue;
    dctx c = {ts_node_end_byte(with), int_lit(st->ctx->src, gl_check__arg(v, 0)), v};
    gl_vec_push(&st->ctxs, c);
  }
}

static void bind(dstate *st, TSNode n) {
  TSNode left = gl_parse_child(n, "left", 4);
  TSNode right = gl_parse_child(n, "right", 5);
  uint32_t end = ts_node_end_byte(n);
  if (!GL_IS(n, assignment) || !GL_IS(left, identifier) || ts_node_is_null(right)) {
    gl_vbind_kill_target(&st->binds, st->ctx->src, st->scope, left, end);
    return;
  }
  int kind = GL_IS(right, call) ? made_on(st, right) : 0;
  const dctx *c = current(st);
  if (!kind && c && c->dev >= 0 && gl_model_prov(st->ctx->model, right) == GL_PROV_DEVICE) {
    char q[QCAP];
    bool cupy = resolve_call(st, right, q) ? strncmp(q, "cupy", 4) == 0 : true;
    if (cupy) kind = KIND(LIB_CUPY, c->dev);
  }
  gl_vbind_set(&st->binds, st->ctx->src, st->scope, left, end, kind, n);
}

static const gl_vbind *known(const dstate *st, TSNode id, int lib) {
  if (!GL_IS(id, identifier)) return NULL;
  const gl_vbind *b = gl_vbind_get(&st->binds, st->ctx->src, st->scope, id, ts_node_start_byte(id));
  return b && b->kind && KIND_LIB(b->kind) == lib ? b : NULL;
}

static void report(const dstate *st, TSNode use, const gl_vbind *b, const char *where_txt) {
  char name[64], line[48], msg[600];
  gl_check__text(st->ctx->src, use, name, sizeof name);
  gl_check_line_label(st->ctx, ts_node_start_byte(b->node), line, sizeof line);
  int lib = KIND_LIB(b->kind), dev = KIND_DEV(b->kind);
  if (lib == LIB_CUPY)
    snprintf(msg, sizeof msg,
             "`%s` was made on GPU %d (%s) and is used here under %s; copy it to this device "
             "first (`cp.asarray(%s)` inside the context) or keep the computation on one device",
             name, dev, line, where_txt, name);
  else
    snprintf(msg, sizeof msg,
             "`%s` is on cuda:%d (%s) and is used here with data on %s; move it explicitly "
             "(`.to(...)`) or keep the computation on one device",
             name, dev, line, where_txt);
  const char *rel = "the array is placed on its device here";
  gl_check_report_related(st->ctx, use, msg, &b->node, &rel, 1);
}

/* CuPy: an identifier operand or argument used inside `with cp.cuda.Device(d)` with data of
 * another literal device. */
static void cupy_use(dstate *st, TSNode id) {
  const dctx *c = current(st);
  if (!c || c->dev < 0) return;
  const gl_vbind *b = known(st, id, LIB_CUPY);
  if (!b || KIND_DEV(b->kind) == c->dev) return;
  char where[96], dn[64];
  gl_check__text(st->ctx->src, c->node, dn, sizeof dn);
  snprintf(where, sizeof where, "`%s`", dn);
  report(st, id, b, where);
}

static const char *const cupy_moves[] = {"cupy.asarray", "cupy.array", "cupy.asnumpy",
                                         "cupy.copyto", "cupy.get_array_module", NULL};
static const char *const safe_methods[] = {"get", "copy", "tolist", "item", "set", "toDlpack",
                                           "__dlpack__", NULL};

static bool in_list(const char *s, const char *const *l) {
  for (; *l; l++)
    if (strcmp(s, *l) == 0) return true;
  return false;
}

/* torch: two identifiers of different literal CUDA devices meeting in one operation. */
static void torch_pair(dstate *st, TSNode a, TSNode b) {
  const gl_vbind *x = known(st, a, LIB_TORCH), *y = known(st, b, LIB_TORCH);
  if (!x || !y || KIND_DEV(x->kind) == KIND_DEV(y->kind)) return;
  char where[48];
  snprintf(where, sizeof where, "cuda:%d", KIND_DEV(y->kind));
  report(st, a, x, where);
}

static void on_operator(dstate *st, TSNode op) {
  bool cmp = GL_IS(op, comparison_operator);
  TSNode l = cmp ? ts_node_named_child(op, 0) : gl_parse_child(op, "left", 4);
  TSNode r = cmp ? ts_node_named_child(op, 1) : gl_parse_child(op, "right", 5);
  cupy_use(st, l);
  cupy_use(st, r);
  torch_pair(st, l, r);
}

static void warp_launch(dstate *st, TSNode call) {
  int d = cuda_lit(st->ctx->src, gl_check__kwarg(st->ctx->src, call, "device"));
  if (d < 0) return;
  const char *lists[] = {"inputs", "outputs"};
  for (int k = 0; k < 2; k++) {
    TSNode l = gl_check__kwarg(st->ctx->src, call, lists[k]);
    if (!gl_parse_type_is(l, "list") && !gl_parse_type_is(l, "tuple")) continue;
    uint32_t n = ts_node_named_child_count(l);
    for (uint32_t i = 0; i < n; i++) {
      TSNode id = ts_node_named_child(l, i);
      const gl_vbind *b = known(st, id, LIB_WARP);
      if (!b || KIND_DEV(b->kind) == d) continue;
      char where[48];
      snprintf(where, sizeof where, "cuda:%d (the launch's device)", d);
      report(st, id, b, where);
    }
  }
}

static void on_call(dstate *st, TSNode call) {
  char q[QCAP], meth[32];
  TSNode recv;
  if (resolve_call(st, call, q)) {
    if (strcmp(q, "warp.launch") == 0) warp_launch(st, call);
    size_t len = strlen(q);
    bool like = len > 5 && strcmp(q + len - 5, "_like") == 0;  /* reads shape and dtype only */
    bool cupy = strncmp(q, "cupy.", 5) == 0 && strncmp(q, "cupy.cuda.", 10) != 0 && !like &&
                !in_list(q, cupy_moves);
    bool torch = strncmp(q, "torch.", 6) == 0;
    TSNode a0 = gl_check__arg(call, 0), a1 = gl_check__arg(call, 1);
    if (cupy) {
      for (uint32_t i = 0; i < 4; i++) cupy_use(st, gl_check__arg(call, i));
    }
    if (torch && !ts_node_is_null(a1)) torch_pair(st, a0, a1);
    return;
  }
  if (gl_check__method_name(st->ctx->src, call, meth, sizeof meth, &recv) &&
      !in_list(meth, safe_methods))
    cupy_use(st, recv);
}

/* An array placed on one literal GPU (with cp.cuda.Device(n), device="cuda:n", .cuda(n)) used
 * in work on another literal GPU of the same scope without an explicit copy. */
void gl_check_cross_device_array_use(const gl_check_ctx *ctx) {
  if (!ctx->model) return;
  if (!gl_source_has(ctx->src, "Device(") && !gl_source_has(ctx->src, "cuda:")) return;
  dstate st = {.ctx = ctx};
  gl_check__walk s;
  gl_check__walk_init(&s, ctx->model, ts_tree_root_node(ctx->tree));
  TSNode n;
  while (gl_check__walk_next(&s, &n)) {
    st.scope = gl_vbind_scope(&s);
    uint32_t at = ts_node_start_byte(n);
    while (st.ctxs.len && at >= st.ctxs.data[st.ctxs.len - 1].end) st.ctxs.len--;
    if (GL_IS(n, with_statement)) enter_with(&st, n);
    else if (GL_IS(n, assignment) || GL_IS(n, augmented_assignment) ||
             gl_parse_type_is(n, "for_statement"))
      bind(&st, n);
    if (GL_IS(n, binary_operator) || GL_IS(n, comparison_operator) ||
        GL_IS(n, augmented_assignment))
      on_operator(&st, n);
    else if (GL_IS(n, call))
      on_call(&st, n);
  }
  gl_check__walk_free(&s);
  gl_vec_free(&st.binds);
  gl_vec_free(&st.ctxs);
}
