/* warp_graph.c: the warp-launch-loop-without-graph check (GPU603): Warp simulation-step loops
 * that launch several kernels per iteration in a file that never captures a CUDA graph.
 * Owns: one iterative walk (TSTreeCursor, enter / leave) keeping a stack of the loops and scopes
 *       around the cursor, counting qualifying `wp.launch` calls per loop, and noting any graph
 *       capture call of the file; the findings are reported after the walk, when the file is
 *       known to capture nothing.
 * Not: the reporting helper (checks.c), query rules.
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/launch.h"

#include <stdio.h>
#include <string.h>

#include "vec.h"

#define QNAME_CAP 128

typedef struct wframe {
  TSNode node;       /* the loop or scope node */
  bool scope;        /* a def / lambda / class: loops outside it do not see its launches */
  uint32_t launches; /* qualifying launches in the body, nested loops included */
  TSNode first;      /* the first of them */
  bool inner_done;   /* a loop inside this one was reported */
} wframe;

typedef struct wcand {
  TSNode launch;
  uint32_t count;
} wcand;

typedef struct wstate {
  const gl_check_ctx *ctx;
  gl_vec(wframe) stack;
  gl_vec(wcand) found;
  bool captures;
} wstate;

static bool is_kind(TSNode n, const char *kind) { return strcmp(ts_node_type(n), kind) == 0; }

static bool is_loop(TSNode n) { return is_kind(n, "for_statement") || is_kind(n, "while_statement"); }

static bool is_scope(TSNode n) {
  return is_kind(n, "function_definition") || is_kind(n, "lambda") || is_kind(n, "class_definition");
}

/* The last identifier of a callee (`wp.launch` -> launch), or a null node. */
static TSNode callee_name(TSNode fn) {
  if (is_kind(fn, "identifier")) return fn;
  if (is_kind(fn, "attribute")) return ts_node_child_by_field_name(fn, "attribute", 9);
  return (TSNode){0};
}

static bool text_is(const gl_source *src, TSNode n, const char *s) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  size_t len = strlen(s);
  return b - a == len && memcmp(src->bytes + a, s, len) == 0;
}

/* The keyword argument name of call, or the positional argument at index pos; null if absent. */
static TSNode argument(const gl_source *src, TSNode call, const char *name, uint32_t pos) {
  TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
  uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args), seen = 0;
  TSNode positional = {0};
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (is_kind(a, "keyword_argument")) {
      TSNode k = ts_node_child_by_field_name(a, "name", 4);
      if (!ts_node_is_null(k) && text_is(src, k, name))
        return ts_node_child_by_field_name(a, "value", 5);
    } else if (is_kind(a, "list_splat") || is_kind(a, "dictionary_splat")) {
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
  if (ts_node_is_null(dev) || !is_kind(dev, "string")) return false;
  uint32_t a = ts_node_start_byte(dev), b = ts_node_end_byte(dev);
  return b - a >= 5 && memcmp(src->bytes + a + 1, "cpu", 3) == 0;
}

/* Counts a qualifying launch for every loop of the current function around it. */
static void count_launch(wstate *st, TSNode call) {
  const gl_model *m = st->ctx->model;
  if (!gl_model_in_loop(m, call) || on_cpu(st->ctx->src, call)) return;
  TSNode kernel = argument(st->ctx->src, call, "kernel", 0);
  if (ts_node_is_null(kernel) || !gl_model_loop_invariant(m, kernel)) return;
  for (size_t i = st->stack.len; i-- > 0;) {
    wframe *f = &st->stack.data[i];
    if (f->scope) break;
    if (f->launches == 0) f->first = call;
    f->launches++;
  }
}

static void enter_call(wstate *st, TSNode call) {
  TSNode fn = ts_node_child_by_field_name(call, "function", 8);
  TSNode name = ts_node_is_null(fn) ? fn : callee_name(fn);
  if (ts_node_is_null(name)) return;
  const gl_source *src = st->ctx->src;
  /* An attribute callee names its function; an identifier may be an alias (`from warp import
   * launch as run`), so only identifiers are resolved whatever their text. */
  bool any = is_kind(fn, "identifier");
  bool launch = any || text_is(src, name, "launch") || text_is(src, name, "launch_tiled");
  bool capture = any || text_is(src, name, "ScopedCapture") || text_is(src, name, "capture_begin") ||
                 text_is(src, name, "capture_launch");
  if (!launch && !capture) return;
  char q[QNAME_CAP];
  if (!gl_model_resolve(st->ctx->model, fn, q, sizeof q)) return;
  if (capture && (strcmp(q, "warp.ScopedCapture") == 0 || strcmp(q, "warp.capture_begin") == 0 ||
                  strcmp(q, "warp.capture_launch") == 0))
    st->captures = true;
  if (launch && (strcmp(q, "warp.launch") == 0 || strcmp(q, "warp.launch_tiled") == 0))
    count_launch(st, call);
}

static void enter(wstate *st, TSNode n) {
  if (is_loop(n) || is_scope(n)) {
    wframe f = {.node = n, .scope = is_scope(n)};
    gl_vec_push(&st->stack, f);
  } else if (is_kind(n, "call")) {
    enter_call(st, n);
  }
}

static void leave(wstate *st, TSNode n) {
  if (!(is_loop(n) || is_scope(n)) || st->stack.len == 0) return;
  wframe f = st->stack.data[--st->stack.len];
  if (f.scope) return;
  bool report = f.launches >= 2 && !f.inner_done;
  if (report) {
    wcand c = {f.first, f.launches};
    gl_vec_push(&st->found, c);
  }
  wframe *up = st->stack.len ? gl_vec_last(&st->stack) : NULL;
  if (up && !up->scope && (report || f.inner_done)) up->inner_done = true;
}

static void walk(wstate *st) {
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(st->ctx->tree));
  for (;;) {
    enter(st, ts_tree_cursor_current_node(&c));
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    leave(st, ts_tree_cursor_current_node(&c));
    bool done = false;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) {
        done = true;
        break;
      }
      leave(st, ts_tree_cursor_current_node(&c));
    }
    if (done) break;
  }
  ts_tree_cursor_delete(&c);
}

void gl_check_warp_launch_loop(const gl_check_ctx *ctx) {
  if (!ctx->model || !gl_launch__mentions(ctx->src, "warp")) return;   /* no Warp import */
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
  gl_vec_free(&st.found);
}
