/* numba_kernel_missing_bounds_check.c: the numba-kernel-missing-bounds-check check (GPU801).
 * Owns: which names of a kernel hold a global thread index (`i = cuda.grid(1)`, `x, y =
 *       cuda.grid(2)`, `i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x`, bound once),
 *       which comparisons guard them (an if / elif / while condition around the use, an earlier
 *       `if ...: return`, a conditional expression or `and` / `or` holding the use), and the
 *       first unguarded subscript per name; a bare `a[i]` with `i = cuda.grid(1)` is accepted
 *       when every launch of the kernel floors the grid (kernel_fit.c).
 * Not: finding kernels (kernel_scan.c), launches (kernel_fit.c), reporting (checks.c).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/kernel-correctness/kernel_scan.h"
#include "checks/node.h"
#include "parse/parse.h"

#define QNAME_CAP 256
#define MSG_CAP 512

typedef struct guard {
  TSNode name;          /* the compared identifier */
  uint32_t from, to;    /* uses of it in [from, to) are guarded */
} guard;

typedef struct use {
  TSNode sub, name;     /* the subscript, and the index name in it */
  bool bare;            /* the name is a whole index expression (`a[i]`, `a[0, i]`) */
} use;

typedef struct bstate {
  const gl_check_ctx *ctx;
  const gl_kernel *k;
  gl_check__nodes idx;        /* identifiers bound from a global thread index */
  gl_check__nodes other;      /* identifiers bound from anything else */
  gl_check__nodes grid1;      /* the identifiers of idx bound from `cuda.grid(1)` alone */
  gl_vec(guard) guards;
  gl_vec(use) uses;
} bstate;

/* True when the expression is `cuda.grid(n)`, or mentions both threadIdx and blockIdx. */
static bool is_global_index(const bstate *st, TSNode e) {
  const gl_model *m = st->ctx->model;
  char q[QNAME_CAP];
  if (gl_check__callee(m, e, q, sizeof q)) return gl_kernel_api_is(st->k->lib, q, "grid");
  if (!GL_IS(e, binary_operator)) return false;
  bool tid = false, bid = false;
  gl_check__walk s;
  gl_check__walk_init(&s, st->ctx->model, e);
  TSNode n;
  while (gl_check__walk_next(&s, &n)) {
    if (!GL_IS(n, attribute)) continue;
    tid = tid || gl_kernel_names_api(m, st->k->lib, n, "threadIdx");
    bid = bid || gl_kernel_names_api(m, st->k->lib, n, "blockIdx");
    gl_check__walk_skip(&s);
  }
  gl_check__walk_free(&s);
  return tid && bid;
}

/* `cuda.grid(1)`: one thread per index along x. */
static bool is_grid1(const bstate *st, TSNode e) {
  char q[QNAME_CAP];
  TSNode args = gl_parse_child(e, "arguments", 9);
  return gl_check__callee(st->ctx->model, e, q, sizeof q) &&
         gl_kernel_api_is(st->k->lib, q, "grid") && !ts_node_is_null(args) &&
         ts_node_named_child_count(args) == 1 &&
         gl_check__text_is(st->ctx->src, ts_node_named_child(args, 0), "1");
}

static void note_binding(bstate *st, TSNode n) {
  TSNode left = gl_parse_child(n, "left", 4);
  if (ts_node_is_null(left)) return;
  TSNode right = gl_parse_child(n, "right", 5);
  bool g = GL_IS(n, assignment) && !ts_node_is_null(right) && is_global_index(st, right);
  gl_kernel_target_names(left, g ? &st->idx : &st->other);
  if (g && GL_IS(left, identifier) && is_grid1(st, right)) gl_vec_push(&st->grid1, left);
}

/* Every identifier in a comparison of cond (`i < n`, `i + 1 < n`, `n > i`) guards uses of it in
 * [from, to). Attribute fields and nested scopes are not names of the kernel. */
static void note_guards(bstate *st, TSNode cond, uint32_t from, uint32_t to) {
  gl_check__walk s;
  gl_check__walk_init(&s, st->ctx->model, cond);
  TSNode n;
  uint32_t cmp_end = 0;  /* end of the comparison being walked (0: none) */
  while (gl_check__walk_next(&s, &n)) {
    if (gl_parse_opens_scope(n)) {
      gl_check__walk_skip(&s);
      continue;
    }
    if (cmp_end && ts_node_start_byte(n) >= cmp_end) cmp_end = 0;
    if (GL_IS(n, comparison_operator)) {
      if (!cmp_end) cmp_end = ts_node_end_byte(n);
      continue;
    }
    if (!cmp_end || !GL_IS(n, identifier)) continue;
    const char *field = gl_check__walk_field(&s);
    if (field && strcmp(field, "attribute") == 0) continue;
    gl_vec_push(&st->guards, ((guard){n, from, to}));
  }
  gl_check__walk_free(&s);
}

/* True when the block (a consequence) ends the thread: it holds a return statement. */
static bool block_exits(TSNode block) {
  uint32_t n = ts_node_named_child_count(block);
  for (uint32_t i = 0; i < n; i++)
    if (GL_IS(ts_node_named_child(block, i), return_statement)) return true;
  return false;
}

static void note_if(bstate *st, TSNode n) {
  uint32_t end = ts_node_end_byte(n);
  TSNode cond = gl_parse_child(n, "condition", 9);
  if (ts_node_is_null(cond)) return;
  note_guards(st, cond, ts_node_end_byte(cond), end);
  TSNode body = gl_parse_child(n, "consequence", 11);
  if (gl_parse_type_is(n, "if_statement") && !ts_node_is_null(body) && block_exits(body))
    note_guards(st, cond, end, ts_node_end_byte(st->k->def));
}

/* The identifiers of a subscript's index expressions, outside calls (`a[min(i, n - 1)]` is a
 * clamp) and nested subscripts (visited on their own). */
static void note_uses(bstate *st, TSNode sub) {
  uint32_t k = ts_node_named_child_count(sub);
  for (uint32_t i = 1; i < k; i++) {
    TSNode e = ts_node_named_child(sub, i);
    gl_check__walk s;
    gl_check__walk_init(&s, st->ctx->model, e);
    TSNode n;
    while (gl_check__walk_next(&s, &n)) {
      if (GL_IS(n, call) || GL_IS(n, subscript) || GL_IS(n, attribute)) {
        gl_check__walk_skip(&s);
        continue;
      }
      if (GL_IS(n, identifier) && gl_check__has_text(st->ctx->src, &st->idx, n))
        gl_vec_push(&st->uses, ((use){sub, n, ts_node_eq(n, e)}));
    }
    gl_check__walk_free(&s);
  }
}

static void visit(bstate *st, TSNode n) {
  const char *t = ts_node_type(n);
  if (strcmp(t, "assignment") == 0 || strcmp(t, "augmented_assignment") == 0 ||
      strcmp(t, "for_statement") == 0 || strcmp(t, "for_in_clause") == 0)
    note_binding(st, n);
  else if (strcmp(t, "named_expression") == 0)
    gl_kernel_target_names(gl_parse_child(n, "name", 4), &st->other);
  if (strcmp(t, "if_statement") == 0 || strcmp(t, "elif_clause") == 0 ||
      strcmp(t, "while_statement") == 0)
    note_if(st, n);
  else if (strcmp(t, "conditional_expression") == 0 || strcmp(t, "boolean_operator") == 0)
    note_guards(st, n, ts_node_start_byte(n), ts_node_end_byte(n));
}

static bool guarded(const bstate *st, const use *u) {
  uint32_t at = ts_node_start_byte(u->sub);
  for (size_t i = 0; i < st->guards.len; i++) {
    const guard *g = &st->guards.data[i];
    if (at >= g->from && at < g->to && gl_check__same_text(st->ctx->src, g->name, u->name))
      return true;
  }
  return false;
}

static void report(bstate *st) {
  const gl_source *src = st->ctx->src;
  gl_check__nodes done = {0};
  char msg[MSG_CAP];
  int fits = -1;  /* gl_kernel_floor_fit, asked once and only when needed */
  for (size_t i = 0; i < st->uses.len; i++) {
    const use *u = &st->uses.data[i];
    if (gl_check__has_text(src, &st->other, u->name) || gl_check__has_text(src, &done, u->name) ||
        guarded(st, u))
      continue;
    if (u->bare && gl_check__has_text(src, &st->grid1, u->name)) {
      if (fits < 0) fits = gl_kernel_floor_fit(st->ctx, st->k);
      if (fits) continue;
    }
    gl_vec_push(&done, u->name);
    int nl = (int)(ts_node_end_byte(u->name) - ts_node_start_byte(u->name));
    int sl = (int)(ts_node_end_byte(u->sub) - ts_node_start_byte(u->sub));
    snprintf(msg, sizeof msg,
             "`%.*s` indexes with the global thread index `%.*s` and no bounds check guards it: "
             "threads past the end of the data read or write out of bounds; add `if %.*s < n:` "
             "(or `if %.*s >= n: return`) or use a grid-stride loop",
             sl > 80 ? 80 : sl, src->bytes + ts_node_start_byte(u->sub), nl,
             src->bytes + ts_node_start_byte(u->name), nl,
             src->bytes + ts_node_start_byte(u->name), nl,
             src->bytes + ts_node_start_byte(u->name));
    gl_check_report(st->ctx, u->sub, msg);
  }
  gl_vec_free(&done);
}

/* One node of the kernel body (gl_check__body_each's callback): bindings, guards, index uses. */
static void body_node(TSNode n, gl_check__walk *s, void *data) {
  bstate *st = data;
  (void)s;
  visit(st, n);
  if (GL_IS(n, subscript) && st->idx.len > 0) note_uses(st, n);
}

static void check_kernel(const gl_kernel *k, void *data) {
  bstate *st = data;
  st->k = k;
  st->idx.len = st->other.len = st->grid1.len = st->guards.len = st->uses.len = 0;
  if (!gl_check__body_each(st->ctx->model, k->def, body_node, st)) return;
  report(st);
}

/* A subscript in a `@cuda.jit` (or `@cupyx.jit.rawkernel()`) kernel whose index uses a name
 * bound from `cuda.grid(n)` (or threadIdx + blockIdx * blockDim) that no comparison guards. */
void gl_check_numba_kernel_missing_bounds_check(const gl_check_ctx *ctx) {
  bstate st = {.ctx = ctx};
  gl_kernel_each(ctx->model, ctx->src, ctx->tree, (1u << GL_K_NUMBA) | (1u << GL_K_CUPYX),
                 check_kernel, &st);
  gl_vec_free(&st.idx);
  gl_vec_free(&st.other);
  gl_vec_free(&st.grid1);
  gl_vec_free(&st.guards);
  gl_vec_free(&st.uses);
}
