/* timeit_without_sync.c: the timeit-without-sync check (GPU304): `timeit` timing GPU work that
 * nothing waits for, so every repetition measures the launch only.
 * Owns: recognizing `timeit.timeit(stmt, ...)`, `timeit.repeat(stmt, ...)` and `timeit.Timer(stmt)`
 *       used with `.timeit()` / `.repeat()` / `.autorange()` (chained, or through a name bound to
 *       the Timer), resolving stmt to code (a lambda, a function of this file, `functools.partial`
 *       of one), and deciding whether that code ends with GPU work no synchronization follows.
 * Not: wall-clock timer pairs (unsynchronized_timer.c), statements given as strings (their names
 *      live in `setup` or `globals`, which are not followed), reporting (checks.c).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "checks/timing/timer_scan.h"
#include "parse/parse.h"

#define QNAME_CAP 256
#define WORK_ROLES (GL_ROLE_GPU_WORK | GL_ROLE_DEVICE_RETURNING | GL_ROLE_ALLOC | GL_ROLE_H2D)
#define SYNC_ROLES (GL_ROLE_SYNC | GL_ROLE_D2H)

typedef struct tstate {
  const gl_check_ctx *ctx;
  gl_check__nodes defs;
  gl_tlib file_lib;       /* the only GPU library the file imports, or GL_TLIB_NONE */
} tstate;

/* What a piece of code does, in evaluation order. Positions: the end byte, ties broken by the
 * earlier start (an enclosing expression is evaluated after the ones inside it). */
typedef struct flow {
  TSNode work;            /* the last GPU work, or a null node */
  uint64_t work_at, sync_at;
  bool has_work, has_sync;
  gl_tlib lib;            /* the library of the last GPU library call seen, or GL_TLIB_NONE */
} flow;


static uint64_t pos(TSNode n) {
  return ((uint64_t)ts_node_end_byte(n) << 32) | (uint32_t)(~ts_node_start_byte(n));
}

static bool is_operation(TSNode n) {
  return GL_IS(n, binary_operator) || GL_IS(n, unary_operator) ||
         GL_IS(n, subscript) || GL_IS(n, augmented_assignment);
}

/* The library a qualified name belongs to (cupyx counts as cupy), or GL_TLIB_NONE. */
static gl_tlib lib_of(const tstate *st, const char *q) {
  return gl_tscan_lib_of(gl_model_libmodels(st->ctx->model), q, strlen(q));
}

static void note_lib(const tstate *st, TSNode call, flow *f) {
  char q[QNAME_CAP];
  gl_tlib lib = gl_check__callee(st->ctx->model, call, q, sizeof q) ? lib_of(st, q) : GL_TLIB_NONE;
  if (lib != GL_TLIB_NONE) f->lib = lib;
}

/* The one GPU library the file's imports name, or GL_TLIB_NONE (none, or several). */
static gl_tlib imported_lib(const tstate *st) {
  gl_tlib only = GL_TLIB_NONE;
  char q[QNAME_CAP];
  gl_check__walk s;
  gl_check__walk_init(&s, st->ctx->model, ts_tree_root_node(st->ctx->tree));
  TSNode n;
  bool many = false;
  while (!many && gl_check__walk_next(&s, &n)) {
    if (!gl_parse_type_is(n, "dotted_name") || !gl_model_resolve(st->ctx->model, n, q, sizeof q))
      continue;
    gl_tlib lib = lib_of(st, q);
    if (lib != GL_TLIB_NONE && only != GL_TLIB_NONE && lib != only) many = true;
    if (lib != GL_TLIB_NONE) only = lib;
  }
  gl_check__walk_free(&s);
  return many ? GL_TLIB_NONE : only;
}

static void add_work(flow *f, TSNode n) {
  uint64_t p = pos(n);
  if (f->has_work && p < f->work_at) return;
  f->has_work = true;
  f->work_at = p;
  f->work = n;
}

static void add_sync(flow *f, TSNode n) {
  uint64_t p = pos(n);
  if (!f->has_sync || p > f->sync_at) f->sync_at = p;
  f->has_sync = true;
}

static bool unsynced(const flow *f) {
  return f->has_work && (!f->has_sync || f->sync_at < f->work_at);
}

static void scan_code(const tstate *st, TSNode code, TSNode self, int helpers, flow *f);

/* A call of a function of this file counts as what that function's body ends with. */
static void helper_call(const tstate *st, TSNode call, TSNode self, flow *f) {
  TSNode fn = gl_parse_child(call, "function", 8);
  TSNode def = ts_node_is_null(fn) ? fn : gl_check__def_named(st->ctx->src, &st->defs, fn);
  if (ts_node_is_null(def) || ts_node_eq(def, self)) return;
  flow h = {0};
  scan_code(st, gl_parse_child(def, "body", 4), def, 0, &h);
  if (unsynced(&h)) {
    add_work(f, call);
    if (h.lib != GL_TLIB_NONE) f->lib = h.lib;
  } else if (h.has_sync) {
    add_sync(f, call);
  }
}

/* Adds what code does to f; helpers: how many levels of calls of this file's functions to follow
 * (0 or 1). */
static void scan_code(const tstate *st, TSNode code, TSNode self, int helpers, flow *f) {
  if (ts_node_is_null(code)) return;
  const gl_model *m = st->ctx->model;
  gl_check__walk s;
  gl_check__walk_init(&s, st->ctx->model, code);
  TSNode n;
  while (gl_check__walk_next(&s, &n)) {
    if (gl_parse_opens_scope(n)) {
      gl_check__walk_skip(&s);
      continue;
    }
    uint32_t roles = gl_model_roles(m, n);
    if (GL_IS(n, call)) note_lib(st, n, f);
    if (roles & SYNC_ROLES)
      add_sync(f, n);
    else if ((roles & WORK_ROLES) || (is_operation(n) && gl_model_prov(m, n) == GL_PROV_DEVICE))
      add_work(f, n);
    else if (helpers > 0 && GL_IS(n, call))
      helper_call(st, n, self, f);
  }
  gl_check__walk_free(&s);
}

/* The code a stmt argument stands for: a lambda's body, a def's body (by the def's name, or
 * through functools.partial); *self gets the def. Null when it cannot be decided. */
static TSNode stmt_code(const tstate *st, TSNode stmt, TSNode *self) {
  TSNode none = {0};
  *self = none;
  if (ts_node_is_null(stmt)) return none;
  char q[QNAME_CAP];
  if (GL_IS(stmt, call) && gl_check__callee(st->ctx->model, stmt, q, sizeof q) &&
      strcmp(q, "functools.partial") == 0)
    stmt = gl_check__arg(stmt, 0);
  if (ts_node_is_null(stmt)) return none;
  if (GL_IS(stmt, lambda)) return gl_parse_child(stmt, "body", 4);
  if (!GL_IS(stmt, identifier) || gl_model_resolve(st->ctx->model, stmt, q, sizeof q))
    return none;
  TSNode def = gl_check__def_named(st->ctx->src, &st->defs, stmt);
  if (ts_node_is_null(def)) return none;
  *self = def;
  return gl_parse_child(def, "body", 4);
}

/* The fix, for library lib (its model's "synchronize" and "benchmark"). */
static const char *fix_for(const tstate *st, gl_tlib lib, char *buf, size_t cap) {
  const char *f = gl_tscan_fix(gl_model_libmodels(st->ctx->model), lib, GL_TFIX_END, buf, cap);
  return f ? f : "end it with a synchronization (`cp.cuda.Device().synchronize()`, "
                 "`torch.cuda.synchronize()`, `jax.block_until_ready`, `wp.synchronize()`, "
                 "`numba.cuda.synchronize()`), or time it with `cupyx.profiler.benchmark` / "
                 "`torch.utils.benchmark.Timer`";
}

/* Reports at `at` when stmt's code ends with GPU work that nothing synchronizes. */
static void check_stmt(const tstate *st, TSNode at, TSNode stmt) {
  TSNode self;
  TSNode code = stmt_code(st, stmt, &self);
  if (ts_node_is_null(code)) return;
  flow f = {0};
  scan_code(st, code, self, 1, &f);
  if (!unsynced(&f)) return;
  const gl_source *src = st->ctx->src;
  uint32_t a = ts_node_start_byte(f.work), b = ts_node_end_byte(f.work);
  int len = (int)(b - a > 60 ? 60 : b - a);
  const char *nl = memchr(src->bytes + a, '\n', (size_t)len);
  if (nl) len = (int)(nl - (src->bytes + a));
  char where[48], msg[640], fix[256];
  gl_check_line_label(st->ctx, a, where, sizeof where);
  snprintf(msg, sizeof msg,
           "timeit times GPU work that nothing waits for (`%.*s`, %s), so each run measures "
           "the launch, not the work; %s",
           len, src->bytes + a, where, fix_for(st, f.lib != GL_TLIB_NONE ? f.lib : st->file_lib, fix, sizeof fix));
  const char *rel_msg[1] = {"the last GPU work of the timed code, not synchronized"};
  gl_check_report_related(st->ctx, at, msg, &f.work, rel_msg, 1);
}

static TSNode stmt_arg(const tstate *st, TSNode call) {
  TSNode s = gl_check__arg(call, 0);
  return ts_node_is_null(s) ? gl_check__kwarg(st->ctx->src, call, "stmt") : s;
}

static bool is_timer_run(const gl_source *src, TSNode call, TSNode *recv) {
  return gl_check__method(src, call, "timeit", recv) ||
         gl_check__method(src, call, "repeat", recv) ||
         gl_check__method(src, call, "autorange", recv);
}

/* The innermost def holding byte b, or a null node (the module). */
static TSNode def_at(const tstate *st, uint32_t b) {
  TSNode best = {0};
  for (size_t i = 0; i < st->defs.len; i++) {
    TSNode d = st->defs.data[i];
    if (ts_node_start_byte(d) <= b && b < ts_node_end_byte(d)) best = d;
  }
  return best;
}

/* `t.timeit()` where t was last bound, before it in the same function, to `timeit.Timer(...)`:
 * that constructor call; a null node otherwise. */
static TSNode bound_timer(const tstate *st, TSNode name, const TSNode *asgs, size_t nasg) {
  TSNode found = {0};
  TSNode fn = def_at(st, ts_node_start_byte(name));
  for (size_t i = 0; i < nasg; i++) {
    TSNode left = gl_parse_child(asgs[i], "left", 4);
    if (ts_node_start_byte(asgs[i]) >= ts_node_start_byte(name)) break;
    if (!gl_check__same_text(st->ctx->src, left, name)) continue;
    if (!ts_node_eq(def_at(st, ts_node_start_byte(left)), fn)) continue;
    found = gl_parse_child(asgs[i], "right", 5);
  }
  return found;
}

static bool is_timer_ctor(const tstate *st, TSNode n) {
  char q[QNAME_CAP];
  return !ts_node_is_null(n) && gl_check__callee(st->ctx->model, n, q, sizeof q) &&
         strcmp(q, "timeit.Timer") == 0;
}

static void visit_call(const tstate *st, TSNode call, const gl_check__nodes *asgs) {
  char q[QNAME_CAP];
  TSNode recv;
  if (gl_check__callee(st->ctx->model, call, q, sizeof q)) {
    if (strcmp(q, "timeit.timeit") == 0 || strcmp(q, "timeit.repeat") == 0)
      check_stmt(st, call, stmt_arg(st, call));
    return;
  }
  if (!is_timer_run(st->ctx->src, call, &recv)) return;
  if (GL_IS(recv, identifier)) recv = bound_timer(st, recv, asgs->data, asgs->len);
  if (is_timer_ctor(st, recv)) check_stmt(st, recv, stmt_arg(st, recv));
}

/* `timeit.timeit` / `timeit.repeat` / `timeit.Timer(...).timeit()` over a lambda or a function of
 * the file whose code ends with GPU work that no synchronization follows. */
void gl_check_timeit_without_sync(const gl_check_ctx *ctx) {
  if (!ctx->model) return;
  gl_tscan_magic_timers(ctx, "timeit"); /* notebooks: %timeit, %%timeit */
  if (!gl_model_imports(ctx->model, "timeit")) return;
  tstate st = {.ctx = ctx};
  gl_check__defs(ctx->model, ctx->tree, &st.defs);
  st.file_lib = imported_lib(&st);
  gl_check__nodes asgs = {0}, calls = {0};
  gl_check__walk s;
  gl_check__walk_init(&s, ctx->model, ts_tree_root_node(ctx->tree));
  TSNode n;
  while (gl_check__walk_next(&s, &n)) {
    if (GL_IS(n, call)) gl_vec_push(&calls, n);
    if (!GL_IS(n, assignment)) continue;
    TSNode left = gl_parse_child(n, "left", 4);
    TSNode right = gl_parse_child(n, "right", 5);
    if (!ts_node_is_null(left) && GL_IS(left, identifier) && is_timer_ctor(&st, right))
      gl_vec_push(&asgs, n);
  }
  gl_check__walk_free(&s);
  for (size_t i = 0; i < calls.len; i++) visit_call(&st, calls.data[i], &asgs);
  gl_vec_free(&calls);
  gl_vec_free(&asgs);
  gl_vec_free(&st.defs);
}
