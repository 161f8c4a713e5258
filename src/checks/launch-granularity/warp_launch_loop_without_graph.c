/* warp_launch_loop_without_graph.c: the warp-launch-loop-without-graph check (GPU603): Warp
 * simulation-step loops that launch several kernels per iteration in a file that never captures a
 * CUDA graph.
 * Owns: one walk (walk.h) keeping a stack of the loops and scopes around the current node, closed
 *       as the walk leaves them, and the qualifying `wp.launch` calls of each loop's own body,
 *       noting any graph capture call of the file; a scan of the loop nest for rebinding of the
 *       launches' plain-name arguments; the findings are reported after the walk, when the file is
 *       known to capture nothing.
 * Not: the reporting helper (checks.c), query rules.
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "base/vec.h"
#include "checks/node.h"
#include "parse/parse.h"

#define QNAME_CAP 128

typedef struct wframe {
  TSNode node;       /* the loop or scope node */
  uint32_t depth;    /* its depth in the walk: open while the walk is deeper */
  bool scope;        /* a def / lambda / class: loops outside it do not see its launches */
  size_t base;       /* wstate.calls.len on entry: the loop's own launches follow */
  bool inner_done;   /* a loop inside this one was reported */
} wframe;

typedef struct wcand {
  TSNode launch;
  uint32_t count;
} wcand;

typedef struct wstate {
  const gl_check_ctx *ctx;
  gl_vec(wframe) stack;
  gl_vec(TSNode) calls;   /* qualifying launches of the open loops, innermost loop's last */
  gl_vec(TSNode) names;   /* scratch: plain-name arguments of one loop's launches */
  gl_vec(wcand) found;
  bool captures;
} wstate;


static bool is_loop(TSNode n) {
  return gl_parse_type_is(n, "for_statement") || gl_parse_type_is(n, "while_statement");
}

/* The last identifier of a callee (`wp.launch` -> launch), or a null node. */
static TSNode callee_name(TSNode fn) {
  if (GL_IS(fn, identifier)) return fn;
  if (GL_IS(fn, attribute)) return gl_parse_child(fn, "attribute", 9);
  return (TSNode){0};
}

/* The keyword argument name of call, or the positional argument at index pos; null if absent. */
static TSNode argument(const gl_source *src, TSNode call, const char *name, uint32_t pos) {
  TSNode args = gl_parse_child(call, "arguments", 9);
  uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args), seen = 0;
  TSNode positional = {0};
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (gl_parse_type_is(a, "keyword_argument")) {
      TSNode k = gl_parse_child(a, "name", 4);
      if (!ts_node_is_null(k) && gl_check__text_is(src, k, name))
        return gl_parse_child(a, "value", 5);
    } else if (gl_parse_type_is(a, "list_splat") || gl_parse_type_is(a, "dictionary_splat")) {
      return (TSNode){0};
    } else if (seen++ == pos) {
      positional = a;
    }
  }
  return positional;
}

/* True when a device= argument names the CPU ("cpu" string literal). */
static bool on_cpu(const gl_source *src, TSNode call) {
  TSNode dev = argument(src, call, "device", 99);
  if (ts_node_is_null(dev) || !gl_parse_type_is(dev, "string")) return false;
  uint32_t a = ts_node_start_byte(dev), b = ts_node_end_byte(dev);
  return b - a >= 5 && memcmp(src->bytes + a + 1, "cpu", 3) == 0;
}

/* Counts a qualifying launch for its innermost loop (launches of nested loops are theirs). */
static void count_launch(wstate *st, TSNode call) {
  const gl_model *m = st->ctx->model;
  if (!gl_model_in_loop(m, call) || on_cpu(st->ctx->src, call)) return;
  TSNode kernel = argument(st->ctx->src, call, "kernel", 0);
  if (ts_node_is_null(kernel) || !gl_model_loop_invariant(m, kernel)) return;
  if (st->stack.len == 0 || gl_vec_last(&st->stack)->scope) return;
  gl_vec_push(&st->calls, call);
}

/* A name or an attribute chain on one (`cx`, `self.state.x`). */
static bool is_chain(TSNode n) {
  while (GL_IS(n, attribute)) n = gl_parse_child(n, "object", 6);
  return !ts_node_is_null(n) && GL_IS(n, identifier);
}

/* Adds the plain names among a launch argument (a list / tuple display's elements, or the
 * argument itself) to st->names. */
static void add_names(wstate *st, TSNode arg) {
  if (ts_node_is_null(arg)) return;
  bool display = gl_parse_type_is(arg, "list") || gl_parse_type_is(arg, "tuple");
  uint32_t n = display ? ts_node_named_child_count(arg) : 1;
  for (uint32_t i = 0; i < n; i++) {
    TSNode e = display ? ts_node_named_child(arg, i) : arg;
    if (is_chain(e)) gl_vec_push(&st->names, e);
  }
}

/* True when binding target t (a name or attribute chain) rebinds name n or a prefix of its
 * chain (`self.cx = ...` rebinds `self.cx`; `self = ...` rebinds `self.cx`). */
static bool rebinds(const gl_source *src, TSNode t, TSNode n) {
  uint32_t ta = ts_node_start_byte(t), tl = ts_node_end_byte(t) - ta;
  uint32_t na = ts_node_start_byte(n), nl = ts_node_end_byte(n) - na;
  if (tl > nl || memcmp(src->bytes + ta, src->bytes + na, tl) != 0) return false;
  return tl == nl || src->bytes[na + tl] == '.';
}

/* True when a name or attribute chain inside binding target t (a pattern list, a tuple...; not
 * a subscript) rebinds one of st->names. */
static bool target_rebinds(const wstate *st, TSNode t) {
  gl_check__walk w;
  gl_check__walk_init(&w, st->ctx->model, t);
  bool hit = false;
  TSNode x;
  while (!hit && gl_check__walk_next(&w, &x)) {
    bool chain = GL_IS(x, identifier) || GL_IS(x, attribute);
    for (size_t i = 0; chain && is_chain(x) && i < st->names.len && !hit; i++)
      hit = rebinds(st->ctx->src, x, st->names.data[i]);
    if (chain || GL_IS(x, subscript)) gl_check__walk_skip(&w);
  }
  gl_check__walk_free(&w);
  return hit;
}

/* The binding target of an assignment, augmented assignment, for loop or `:=`, or a null node. */
static TSNode binding_target(TSNode n) {
  if (GL_IS(n, assignment) || GL_IS(n, augmented_assignment) ||
      gl_parse_type_is(n, "for_statement"))
    return gl_parse_child(n, "left", 4);
  if (gl_parse_type_is(n, "named_expression")) return gl_parse_child(n, "name", 4);
  return (TSNode){0};
}

/* True when loop nest `nest` (its functions, lambdas and classes excluded) rebinds one of
 * st->names: the value changes between iterations, and a captured graph would freeze it. */
static bool nest_rebinds(const wstate *st, TSNode nest) {
  gl_check__walk w;
  gl_check__walk_init(&w, st->ctx->model, nest);
  bool hit = false;
  TSNode x;
  while (!hit && gl_check__walk_next(&w, &x)) {
    TSNode t = binding_target(x);
    hit = !ts_node_is_null(t) && target_rebinds(st, t);
    if (gl_parse_opens_scope(x)) gl_check__walk_skip(&w);
  }
  gl_check__walk_free(&w);
  return hit;
}

/* True when a launch of the loop whose frame was just popped passes as `dim`, an `inputs` or
 * an `outputs` element a plain name that its loop nest (the outermost loop of the function
 * around it) rebinds. */
static bool arguments_change(wstate *st, const wframe *f) {
  const gl_source *src = st->ctx->src;
  st->names.len = 0;
  for (size_t i = f->base; i < st->calls.len; i++) {
    TSNode call = st->calls.data[i];
    add_names(st, argument(src, call, "dim", 1));
    add_names(st, argument(src, call, "inputs", 2));
    add_names(st, argument(src, call, "outputs", 3));
  }
  if (st->names.len == 0) return false;
  TSNode nest = f->node;
  for (size_t i = st->stack.len; i-- > 0 && !st->stack.data[i].scope;)
    nest = st->stack.data[i].node;
  return nest_rebinds(st, nest);
}

static void enter_call(wstate *st, TSNode call) {
  TSNode fn = gl_parse_child(call, "function", 8);
  TSNode name = ts_node_is_null(fn) ? fn : callee_name(fn);
  if (ts_node_is_null(name)) return;
  const gl_source *src = st->ctx->src;
  /* An attribute callee names its function; an identifier may be an alias (`from warp import
   * launch as run`), so only identifiers are resolved whatever their text. */
  bool any = GL_IS(fn, identifier);
  bool launch = any || gl_check__text_is(src, name, "launch") ||
                gl_check__text_is(src, name, "launch_tiled");
  bool capture = any || gl_check__text_is(src, name, "ScopedCapture") ||
                 gl_check__text_is(src, name, "capture_begin") ||
                 gl_check__text_is(src, name, "capture_launch");
  if (!launch && !capture) return;
  char q[QNAME_CAP];
  if (!gl_model_resolve(st->ctx->model, fn, q, sizeof q)) return;
  if (capture && (strcmp(q, "warp.ScopedCapture") == 0 || strcmp(q, "warp.capture_begin") == 0 ||
                  strcmp(q, "warp.capture_launch") == 0))
    st->captures = true;
  if (launch && gl_check__call_has_role(st->ctx->model, call, GL_ROLE_LAUNCH)) count_launch(st, call);
}

static void enter(wstate *st, TSNode n, uint32_t depth) {
  if (is_loop(n) || gl_parse_opens_scope(n)) {
    wframe f = {.node = n, .depth = depth, .scope = gl_parse_opens_scope(n), .base = st->calls.len};
    gl_vec_push(&st->stack, f);
  } else if (GL_IS(n, call)) {
    enter_call(st, n);
  }
}

/* Closes the innermost open loop or scope (the walk has left its subtree). */
static void leave(wstate *st) {
  wframe f = st->stack.data[--st->stack.len];
  if (f.scope) return;
  size_t own = st->calls.len - f.base;
  bool report = own >= 2 && !f.inner_done && !arguments_change(st, &f);
  if (report) {
    wcand c = {st->calls.data[f.base], (uint32_t)own};
    gl_vec_push(&st->found, c);
  }
  st->calls.len = f.base;
  wframe *up = st->stack.len ? gl_vec_last(&st->stack) : NULL;
  if (up && !up->scope && (report || f.inner_done)) up->inner_done = true;
}

static void walk(wstate *st) {
  gl_check__walk w;
  gl_check__walk_init(&w, st->ctx->model, ts_tree_root_node(st->ctx->tree));
  TSNode n;
  while (gl_check__walk_next(&w, &n)) {
    uint32_t d = gl_check__walk_depth(&w);
    while (st->stack.len && gl_vec_last(&st->stack)->depth >= d) leave(st);
    enter(st, n, d);
  }
  while (st->stack.len) leave(st);
  gl_check__walk_free(&w);
}

/* A for / while loop whose own body (same function, nested loops not included) makes two or
 * more `warp.launch` / `warp.launch_tiled` calls with a loop-invariant kernel and no
 * `device="cpu"`, in a file that calls none of `warp.ScopedCapture`, `warp.capture_begin`,
 * `warp.capture_launch`, unless a launch passes as `dim` or as an `inputs` / `outputs`
 * element a name (or attribute chain on one) that the loop nest rebinds (assignment,
 * augmented assignment, for target, `:=`). Reported once per loop nest, at the first launch
 * of the innermost such loop; an outer loop holding a reported one is not reported again. */
void gl_check_warp_launch_loop_without_graph(const gl_check_ctx *ctx) {
  if (!ctx->model || !gl_source_has(ctx->src, "warp")) return;   /* no Warp import */
  wstate st = {.ctx = ctx};
  walk(&st);
  for (size_t i = 0; !st.captures && i < st.found.len; i++) {
    char msg[400];
    snprintf(msg, sizeof msg,
             "this loop launches %u Warp kernels per iteration and the file captures no CUDA "
             "graph: each launch pays the Python and driver launch overhead again; capture one "
             "step with `wp.ScopedCapture()` and replay it with `wp.capture_launch(graph)`",
             (unsigned)st.found.data[i].count);
    gl_check_report(ctx, st.found.data[i].launch, msg);
  }
  gl_vec_free(&st.stack);
  gl_vec_free(&st.calls);
  gl_vec_free(&st.names);
  gl_vec_free(&st.found);
}
