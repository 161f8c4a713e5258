/* block_size_over_limit.c: the launch-configuration checks of the launch-granularity pack: a
 * literal block over CUDA's 1024-thread limit (block-size-over-limit, GPU604) and literal launch
 * configurations that ignore the data size (launch-config-literal, GPU605).
 * Owns: recognising a kernel launch with its grid and block (Numba and cupyx.jit `k[grid,
 *       block](...)`, CuPy `RawKernel` `k(grid, block, args)`), the value of a literal
 *       configuration, and for GPU605 one walk (walk.h, with a stack of scopes closed as it leaves
 *       them) that collects launch sites, names bound to arrays of literal size, and the kernels of
 *       the file that loop over the grid; the findings are decided after the walk.
 * Not: the reporting helper (checks.c), query rules.
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "base/vec.h"
#include "checks/walk.h"
#include "parse/parse.h"

#define MAX_THREADS 1024u
#define WARP 32u
#define BIG ((uint64_t)1 << 40)
#define MAX_LITERAL_GRID 64u   /* GPU605: literal grids of at most this many blocks */

typedef struct lsite {
  TSNode call, kernel, grid, block;
  bool raw;                /* CuPy RawKernel form: k(grid, block, args) */
} lsite;


/* Launches need a Numba or CuPy kernel: a file naming neither module has none. */
static bool may_launch(const gl_source *src) {
  return gl_source_has(src, "numba") || gl_source_has(src, "cupy");
}

static uint64_t cap(uint64_t v) { return v > BIG ? BIG : v; }

/* The value of a decimal integer literal (underscores allowed), or 0 when n is not one. */
static uint64_t literal_value(const gl_source *src, TSNode n) {
  if (!gl_parse_type_is(n, "integer")) return 0;
  uint64_t v = 0;
  for (uint32_t i = ts_node_start_byte(n); i < ts_node_end_byte(n); i++) {
    char ch = src->bytes[i];
    if (ch == '_') continue;
    if (ch < '0' || ch > '9') return 0;
    v = cap(v * 10 + (uint64_t)(ch - '0'));
  }
  return v;
}

/* The value of a constant integer: a literal, or `a * b`, `a << b`, `a ** b` of two literals
 * (`1 << 20`, `1024 * 1024`), in parentheses or not; 0 for anything else. */
static uint64_t int_value(const gl_source *src, TSNode n) {
  while (GL_IS(n, parenthesized_expression) && ts_node_named_child_count(n) == 1)
    n = ts_node_named_child(n, 0);
  if (!GL_IS(n, binary_operator)) return literal_value(src, n);
  TSNode l = gl_parse_child(n, "left", 4);
  TSNode r = gl_parse_child(n, "right", 5);
  TSNode op = gl_parse_child(n, "operator", 8);
  if (ts_node_is_null(l) || ts_node_is_null(r) || ts_node_is_null(op)) return 0;
  uint64_t a = literal_value(src, l), b = literal_value(src, r);
  if (a == 0 || b == 0) return 0;
  const char *t = ts_node_type(op);
  if (strcmp(t, "*") == 0) return a > BIG / b ? BIG : cap(a * b);
  if (strcmp(t, "<<") == 0) return b >= 40 ? BIG : cap(a << b);
  if (strcmp(t, "**") != 0) return 0;
  uint64_t v = 1;
  for (uint64_t i = 0; i < b && v < BIG; i++) v = cap(v * a);
  return v;
}

/* The number of threads a literal dimension gives (an integer, or a tuple / list of them), or 0
 * when it is not literal. */
static uint64_t dims_value(const gl_source *src, TSNode n) {
  if (ts_node_is_null(n)) return 0;
  if (!gl_parse_type_is(n, "tuple") && !gl_parse_type_is(n, "list")) return int_value(src, n);
  uint32_t k = ts_node_named_child_count(n);
  uint64_t p = k ? 1 : 0;
  for (uint32_t i = 0; i < k && p; i++) {
    uint64_t v = int_value(src, ts_node_named_child(n, i));
    p = v == 0 ? 0 : (p * v > BIG ? BIG : p * v);
  }
  return p;
}

static bool is_dims(TSNode n) {
  return gl_parse_type_is(n, "tuple") || gl_parse_type_is(n, "list") || gl_parse_type_is(n, "integer") ||
         GL_IS(n, identifier) || GL_IS(n, parenthesized_expression) ||
         GL_IS(n, binary_operator) || GL_IS(n, call) || GL_IS(n, attribute);
}

/* Recognises a kernel launch (the call must have the gpu-work role from the models: a call of
 * a numba.cuda.KernelLaunch, a cupyx.jit kernel launch or a cupy.RawKernel). */
static bool launch_site(const gl_check_ctx *ctx, TSNode call, lsite *out) {
  if (!GL_IS(call, call) || !(gl_model_roles(ctx->model, call) & GL_ROLE_GPU_WORK)) return false;
  TSNode fn = gl_parse_child(call, "function", 8);
  if (ts_node_is_null(fn)) return false;
  *out = (lsite){.call = call};
  if (GL_IS(fn, subscript)) {
    uint32_t k = ts_node_named_child_count(fn);
    if (k < 3 || k > 5) return false;   /* value + 2..4 indices */
    out->kernel = ts_node_named_child(fn, 0);
    out->grid = ts_node_named_child(fn, 1);
    out->block = ts_node_named_child(fn, 2);
    return true;
  }
  char q[256];
  if (!GL_IS(fn, identifier) && !GL_IS(fn, attribute)) return false;
  if (gl_model_resolve(ctx->model, fn, q, sizeof q)) return false;   /* a library function */
  TSNode args = gl_parse_child(call, "arguments", 9);
  if (ts_node_is_null(args) || ts_node_named_child_count(args) < 3) return false;
  TSNode g = ts_node_named_child(args, 0), b = ts_node_named_child(args, 1);
  TSNode a = ts_node_named_child(args, 2);
  if (!is_dims(g) || !is_dims(b) || !(gl_parse_type_is(a, "tuple") || gl_parse_type_is(a, "list"))) return false;
  out->kernel = fn;
  out->grid = g;
  out->block = b;
  out->raw = true;
  return true;
}

/* A kernel launch (Numba / cupyx.jit `k[grid, block, ...](...)`, CuPy RawKernel
 * `k(grid, block, args)`; the call must have the gpu-work role) whose block is a literal
 * integer, or a tuple / list of them, of more than 1024 threads in all. Reported at the block. */
void gl_check_block_size_over_limit(const gl_check_ctx *ctx) {
  if (!ctx->model || !may_launch(ctx->src)) return;
  gl_check__walk w;
  gl_check__walk_init(&w, ctx->model, ts_tree_root_node(ctx->tree));
  TSNode n;
  while (gl_check__walk_next(&w, &n)) {
    lsite s;
    if (!GL_IS(n, call) || !launch_site(ctx, n, &s)) continue;
    uint64_t threads = dims_value(ctx->src, s.block);
    if (threads <= MAX_THREADS) continue;
    char msg[360];
    snprintf(msg, sizeof msg,
             "a block of %llu threads is over CUDA's limit of 1024 threads per block, so "
             "this launch fails at run time; use at most 1024 threads per block (128 to 256 "
             "for 1-D work) and more blocks",
             (unsigned long long)threads);
    gl_check_report(ctx, s.block, msg);
  }
  gl_check__walk_free(&w);
}

/* ---- launch-config-literal (GPU605) ------------------------------------------------------ */

typedef struct span {
  uint32_t scope;          /* index of the scope the name is bound in (0: the module) */
  uint32_t start, end;     /* the name's bytes */
} span;

typedef gl_vec(span) span_vec;

typedef struct csite {
  lsite s;
  uint32_t scope;
} csite;

typedef struct cstate {
  const gl_check_ctx *ctx;
  gl_vec(uint32_t) scopes;   /* the scope stack: indices; the module is 0 */
  gl_vec(uint32_t) depths;   /* the walk depth of each open scope but the module */
  uint32_t nscopes;
  gl_vec(csite) sites;
  span_vec sized;            /* names bound to arrays of literal size */
  span_vec defs;             /* names of the defs of the file */
  span_vec strided;          /* names of defs whose body reads the grid size */
} cstate;


static bool contains(const gl_source *src, TSNode n, const char *needle) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  size_t k = strlen(needle);
  for (uint32_t i = a; i + k <= b; i++)
    if (src->bytes[i] == needle[0] && memcmp(src->bytes + i, needle, k) == 0) return true;
  return false;
}

static bool reads_grid_size(const gl_source *src, TSNode n) {
  return contains(src, n, "gridsize") || contains(src, n, "gridDim");
}

static bool same_text(const gl_source *src, TSNode n, uint32_t start, uint32_t end) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  return b - a == end - start && memcmp(src->bytes + a, src->bytes + start, b - a) == 0;
}

static span span_of(uint32_t scope, TSNode n) {
  return (span){scope, ts_node_start_byte(n), ts_node_end_byte(n)};
}

/* `cp.zeros(256)`, `cuda.device_array((16, 16))`, `cuda.to_device(np.zeros(256))`: a call
 * whose first argument is a literal size, directly or through one more call. */
static bool literal_sized(const gl_source *src, TSNode v) {
  for (int depth = 0; depth < 2 && GL_IS(v, call); depth++) {
    TSNode args = gl_parse_child(v, "arguments", 9);
    if (ts_node_is_null(args) || ts_node_named_child_count(args) == 0) return false;
    TSNode a = ts_node_named_child(args, 0);
    if (dims_value(src, a) > 0) return true;
    v = a;
  }
  return false;
}

static uint32_t cur_scope(const cstate *st) { return *gl_vec_last(&st->scopes); }

static void enter_scope(cstate *st, TSNode n) {
  uint32_t id = ++st->nscopes;
  gl_vec_push(&st->scopes, id);
  if (!GL_IS(n, function_definition)) return;
  TSNode name = gl_parse_child(n, "name", 4);
  TSNode body = gl_parse_child(n, "body", 4);
  if (ts_node_is_null(name) || ts_node_is_null(body)) return;
  gl_vec_push(&st->defs, span_of(0, name));
  if (reads_grid_size(st->ctx->src, body)) gl_vec_push(&st->strided, span_of(0, name));
}

static void enter_assignment(cstate *st, TSNode n) {
  TSNode left = gl_parse_child(n, "left", 4);
  TSNode right = gl_parse_child(n, "right", 5);
  if (ts_node_is_null(left) || ts_node_is_null(right) || !GL_IS(left, identifier)) return;
  if (literal_sized(st->ctx->src, right)) gl_vec_push(&st->sized, span_of(cur_scope(st), left));
}

static void c_enter(cstate *st, TSNode n, uint32_t depth) {
  lsite s;
  if (gl_parse_opens_scope(n)) {
    enter_scope(st, n);
    gl_vec_push(&st->depths, depth);
  } else if (GL_IS(n, assignment)) {
    enter_assignment(st, n);
  } else if (GL_IS(n, call) && launch_site(st->ctx, n, &s)) {
    csite c = {s, cur_scope(st)};
    gl_vec_push(&st->sites, c);
  }
}

/* Every named node in pre-order; a scope closes when the walk leaves its subtree. */
static void c_walk(cstate *st) {
  gl_check__walk w;
  gl_check__walk_init(&w, st->ctx->model, ts_tree_root_node(st->ctx->tree));
  TSNode n;
  while (gl_check__walk_next(&w, &n)) {
    uint32_t d = gl_check__walk_depth(&w);
    for (; st->depths.len && *gl_vec_last(&st->depths) >= d; st->depths.len--) st->scopes.len--;
    c_enter(st, n, d);
  }
  gl_check__walk_free(&w);
}

static bool in_spans(const cstate *st, const span_vec *v, TSNode name, uint32_t scope,
                     bool any_scope) {
  if (!GL_IS(name, identifier)) return false;
  for (size_t i = 0; i < v->len; i++) {
    const span *p = &v->data[i];
    if ((any_scope || p->scope == scope || p->scope == 0) &&
        same_text(st->ctx->src, name, p->start, p->end))
      return true;
  }
  return false;
}

/* True when an argument of the launch shows a constant problem size: an integer literal, or a
 * name bound to an array of literal size in the launch's scope or the module. */
static bool constant_size(const cstate *st, const csite *c) {
  TSNode args = gl_parse_child(c->s.call, "arguments", 9);
  if (c->s.raw && !ts_node_is_null(args)) args = ts_node_named_child(args, 2);
  uint32_t k = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  for (uint32_t i = 0; i < k; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (int_value(st->ctx->src, a) > 0) return true;
    if (in_spans(st, &st->sized, a, c->scope, false)) return true;
  }
  return false;
}

/* True when the kernel's code is in the file and does not loop over the grid. */
static bool fixed_coverage(const cstate *st, const csite *c) {
  const gl_source *src = st->ctx->src;
  TSNode root = ts_tree_root_node(st->ctx->tree);
  if (c->s.raw) return contains(src, root, "blockIdx") && !contains(src, root, "gridDim");
  if (!GL_IS(c->s.kernel, identifier)) return false;
  if (in_spans(st, &st->strided, c->s.kernel, 0, true)) return false;
  return in_spans(st, &st->defs, c->s.kernel, 0, true);   /* its code is in this file */
}

static void report_site(const cstate *st, const csite *c) {
  const gl_source *src = st->ctx->src;
  uint64_t grid = dims_value(src, c->s.grid), block = dims_value(src, c->s.block);
  char msg[480];
  if (grid > 1 && grid <= MAX_LITERAL_GRID && block > 0 && block <= MAX_THREADS &&
      !constant_size(st, c) && fixed_coverage(st, c)) {
    snprintf(msg, sizeof msg,
             "the literal grid of %llu blocks runs %llu threads whatever the size of the data, "
             "and the kernel does not loop over the grid: elements past the last thread are left "
             "unprocessed, and so few blocks leave most of the GPU idle; compute the grid from "
             "the size, `(n + threads - 1) // threads`, or loop with `cuda.gridsize`",
             (unsigned long long)grid, (unsigned long long)(grid * block));
    gl_check_report(st->ctx, c->s.grid, msg);
  }
  if (block > WARP && block <= MAX_THREADS && block % WARP != 0) {
    snprintf(msg, sizeof msg,
             "a block of %llu threads is not a multiple of the warp size (32), so the last warp "
             "of every block runs partly idle; use a multiple of 32 such as 128 or 256",
             (unsigned long long)block);
    gl_check_report(st->ctx, c->s.block, msg);
  }
}

/* Launches (as above) with a literal block of more than 32 threads that is not a multiple of 32
 * (reported at the block), and launches with a literal grid of 2 to 64 blocks and a literal block
 * of at most 1024 threads, where the kernel's code is in the file (a def of that name;
 * for RawKernel, source text with `blockIdx`) and does not read the grid size (`gridsize`,
 * `gridDim`), and no argument shows a constant problem size (an integer literal, or a name
 * bound in the launch's scope or the module to a call whose first argument, directly or
 * through one more call, is a literal size: an integer, or `a * b`, `a << b`, `a ** b` of two).
 * Reported at the grid. */
void gl_check_launch_config_literal(const gl_check_ctx *ctx) {
  if (!ctx->model || !may_launch(ctx->src)) return;
  cstate st = {.ctx = ctx};
  uint32_t module = 0;
  gl_vec_push(&st.scopes, module);
  c_walk(&st);
  for (size_t i = 0; i < st.sites.len; i++) report_site(&st, &st.sites.data[i]);
  gl_vec_free(&st.scopes);
  gl_vec_free(&st.depths);
  gl_vec_free(&st.sites);
  gl_vec_free(&st.sized);
  gl_vec_free(&st.defs);
  gl_vec_free(&st.strided);
}
