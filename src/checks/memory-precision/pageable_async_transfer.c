/* pageable_async_transfer.c: the pageable-async-transfer check (GPU505): a copy between host and
 * device that asks to be asynchronous while its host side is ordinary pageable memory.
 * Owns: one walk that collects the asynchronous copies (`t.to("cuda", non_blocking=True)`,
 *       `t.cuda(non_blocking=True)`, `d.copy_(h, non_blocking=True)`, `cuda.to_device(h,
 *       stream=s)`, `d.copy_to_host(h, stream=s)`, `d.set(h, stream=s)`, `cp.asarray(h,
 *       blocking=False)`) and every binding of every name per scope; then decides whether each
 *       copy's host side is surely pageable (a NumPy or CPU-tensor constructor without pin_memory,
 *       or a name that every binding of its scope makes one).
 * Not: the reporting helper (checks.c), pinned-memory pools, copies without an async request.
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "parse/parse.h"

#define QNAME_CAP 256

typedef struct binding {
  TSNode name;
  uint32_t scope;   /* start byte of the binding's function scope (0: the module) */
  bool pageable;    /* bound to a fresh pageable host array */
} binding;

typedef struct xfer {
  TSNode call;
  TSNode host;      /* the host-side expression; null: the call allocates pageable memory itself */
  uint32_t scope;
} xfer;

typedef struct xstate {
  const gl_check_ctx *ctx;
  gl_vec(binding) binds;
  gl_vec(xfer) xfers;
  const gl_check__walk *walk;   /* the file's walk, at the node being visited */
} xstate;

static const char *const numpy_fresh[] = {
    "zeros", "ones", "empty", "full", "array", "arange", "linspace", "load", "fromfile",
    "loadtxt", "concatenate", "stack", "vstack", "hstack", "zeros_like", "ones_like",
    "empty_like", "full_like", "copy"};

static const char *const torch_fresh[] = {"zeros", "ones", "empty", "full", "rand", "randn",
                                          "randint", "arange", "tensor", "linspace"};

/* The start byte of the function scope around the node being visited (0: the module). */
static uint32_t cur_scope(const xstate *st) {
  TSNode s = gl_check__walk_scope(st->walk, 0);
  return ts_node_is_null(s) ? 0 : ts_node_start_byte(s);
}

static bool in_list(const char *s, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(s, list[i]) == 0) return true;
  return false;
}

static bool is_true_kw(const gl_source *src, TSNode call, const char *name) {
  return gl_parse_type_is(gl_check__kwarg(src, call, name), "true");
}

/* The expression whose memory a host value shares: `torch.from_numpy(h)` shares h's. */
static TSNode shared_source(const xstate *st, TSNode e) {
  char q[QNAME_CAP];
  if (gl_check__callee(st->ctx->model, e, q, sizeof q) && strcmp(q, "torch.from_numpy") == 0) {
    TSNode a = gl_check__arg(e, 0);
    if (!ts_node_is_null(a)) return a;
  }
  return e;
}

/* `x.astype(...)` / `x.copy()` of a NumPy array make a new pageable array: the receiver call
 * of such a chain, or e itself. */
static TSNode strip_copies(const gl_source *src, TSNode e) {
  for (;;) {
    TSNode fn = gl_parse_child(e, "function", 8);
    if (!GL_IS(fn, attribute)) return e;
    TSNode m = gl_parse_child(fn, "attribute", 9);
    TSNode r = gl_parse_child(fn, "object", 6);
    if (!GL_IS(r, call) ||
        (!gl_check__text_is(src, m, "astype") && !gl_check__text_is(src, m, "copy")))
      return e;
    e = r;
  }
}

/* True when call e makes a fresh pageable host array. */
static bool fresh_pageable(const xstate *st, TSNode e) {
  char q[QNAME_CAP];
  TSNode base = strip_copies(st->ctx->src, e);
  if (!ts_node_eq(base, e) && !gl_check__callee(st->ctx->model, base, q, sizeof q)) return false;
  if (!ts_node_eq(base, e) && strncmp(q, "numpy.", 6) != 0) return false;
  e = base;
  if (!gl_check__callee(st->ctx->model, e, q, sizeof q)) return false;
  if (!strncmp(q, "numpy.random.", 13)) return true;
  if (!strncmp(q, "numpy.", 6)) {
    return in_list(q + 6, numpy_fresh, sizeof numpy_fresh / sizeof numpy_fresh[0]);
  }
  if (strncmp(q, "torch.", 6) != 0 ||
      !in_list(q + 6, torch_fresh, sizeof torch_fresh / sizeof torch_fresh[0]))
    return false;
  return gl_model_prov(st->ctx->model, e) == GL_PROV_HOST &&
         !is_true_kw(st->ctx->src, e, "pin_memory");
}

static void bind(xstate *st, TSNode name, bool pageable) {
  binding b = {name, cur_scope(st), pageable};
  gl_vec_push(&st->binds, b);
}

/* Records what the walk's current identifier binds, if it binds anything. */
static void visit_identifier(xstate *st, const gl_check__walk *w, TSNode n) {
  const char *field = gl_check__walk_field(w), *pf = NULL;
  TSNode p = gl_check__walk_up(w, 0, &pf);
  if (GL_IS(p, assignment) && field && !strcmp(field, "left")) {
    TSNode rhs = gl_parse_child(p, "right", 5);
    bool pg = GL_IS(rhs, call);
    if (pg) {
      TSNode src = shared_source(st, rhs);
      pg = GL_IS(src, call) && fresh_pageable(st, src);
    }
    bind(st, n, pg);
    return;
  }
  /* every other binding: for / with / except targets, patterns, parameters, walrus, del,
   * global / nonlocal, imports; and a name handed to something that may pin it */
  static const char *const other[] = {
      "pattern_list", "tuple_pattern", "list_pattern", "as_pattern_target", "for_statement",
      "for_in_clause", "parameters", "lambda_parameters", "default_parameter",
      "typed_parameter", "typed_default_parameter", "named_expression", "delete_statement",
      "global_statement", "nonlocal_statement", "aliased_import", "dotted_name",
      "list_splat_pattern", "dictionary_splat_pattern"};
  const char *t = ts_node_type(p);
  for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
    if (!strcmp(t, other[i])) {
      bind(st, n, false);
      return;
    }
}

/* `cuda.pinned(h)`, `cuda.mapped(h)`, `hostRegister(h.ctypes.data, ...)`, `h.pin_memory()`:
 * the name stops being known pageable. */
static void visit_pinning(xstate *st, TSNode call) {
  char q[QNAME_CAP];
  TSNode fn = gl_parse_child(call, "function", 8);
  if (GL_IS(fn, attribute) &&
      gl_check__text_is(st->ctx->src, gl_parse_child(fn, "attribute", 9), "pin_memory")) {
    TSNode r = gl_parse_child(fn, "object", 6);
    if (GL_IS(r, identifier)) bind(st, r, false);
    return;
  }
  if (!gl_check__callee(st->ctx->model, call, q, sizeof q)) return;
  const gl_api_entry *e = gl_libmodels_function(gl_model_libmodels(st->ctx->model), q, strlen(q));
  if (!e || !(e->roles & GL_ROLE_PINS)) return;   /* the models' `pins` role */
  for (uint32_t i = 0;; i++) {
    TSNode a = gl_check__arg(call, i);
    if (ts_node_is_null(a)) return;
    while (GL_IS(a, attribute)) a = gl_parse_child(a, "object", 6);
    if (GL_IS(a, identifier)) bind(st, a, false);
  }
}

static void add_xfer(xstate *st, TSNode call, TSNode host) {
  xfer x = {call, ts_node_is_null(host) ? host : shared_source(st, host), cur_scope(st)};
  gl_vec_push(&st->xfers, x);
}

/* A stream argument that asks for an asynchronous copy: given, and not the literal 0 / None. */
static bool async_stream(TSNode s) {
  return !ts_node_is_null(s) && !gl_parse_type_is(s, "integer") && !gl_parse_type_is(s, "none");
}

static void visit_method(xstate *st, TSNode call, TSNode fn) {
  const gl_source *src = st->ctx->src;
  const gl_model *m = st->ctx->model;
  TSNode recv = gl_parse_child(fn, "object", 6);
  TSNode meth = gl_parse_child(fn, "attribute", 9);
  bool nb = is_true_kw(src, call, "non_blocking");
  if ((gl_check__text_is(src, meth, "to") || gl_check__text_is(src, meth, "cuda")) && nb &&
      (gl_model_roles(m, call) & GL_ROLE_H2D)) {
    add_xfer(st, call, recv);
    return;
  }
  if (gl_model_prov(m, recv) != GL_PROV_DEVICE) return;
  if (gl_check__text_is(src, meth, "copy_") && nb) {
    add_xfer(st, call, gl_check__arg(call, 0));
  } else if (gl_check__text_is(src, meth, "set")) {
    TSNode s = gl_check__kwarg(src, call, "stream");
    if (async_stream(ts_node_is_null(s) ? gl_check__arg(call, 1) : s))
      add_xfer(st, call, gl_check__arg(call, 0));
  } else if (gl_check__text_is(src, meth, "copy_to_host")) {
    TSNode s = gl_check__kwarg(src, call, "stream");
    if (!async_stream(ts_node_is_null(s) ? gl_check__arg(call, 1) : s)) return;
    TSNode ary = gl_check__kwarg(src, call, "ary");
    add_xfer(st, call, ts_node_is_null(ary) ? gl_check__arg(call, 0) : ary);
  }
}

static void visit_call(xstate *st, TSNode call) {
  visit_pinning(st, call);
  TSNode fn = gl_parse_child(call, "function", 8);
  char q[QNAME_CAP];
  const gl_source *src = st->ctx->src;
  if (gl_model_resolve(st->ctx->model, fn, q, sizeof q)) {
    bool numba = !strcmp(q, "numba.cuda.to_device") || !strcmp(q, "numba_cuda_mlir.cuda.to_device");
    TSNode s = gl_check__kwarg(src, call, "stream");
    if (numba && async_stream(ts_node_is_null(s) ? gl_check__arg(call, 1) : s))
      add_xfer(st, call, gl_check__arg(call, 0));
    TSNode blocking = gl_check__kwarg(src, call, "blocking");
    if (!strcmp(q, "cupy.asarray") && gl_parse_type_is(blocking, "false"))
      add_xfer(st, call, gl_check__arg(call, 0));
    return;
  }
  if (GL_IS(fn, attribute)) visit_method(st, call, fn);
}

/* True when every binding of name in its scope (or, for a name the function does not bind,
 * in the module) makes a pageable array, and there is at least one. */
static bool name_pageable(const xstate *st, TSNode name, uint32_t scope) {
  for (int pass = 0; pass < 2; pass++) {
    size_t n = 0;
    bool all = true;
    for (size_t i = 0; i < st->binds.len; i++) {
      const binding *b = &st->binds.data[i];
      if (b->scope != scope || !gl_check__same_text(st->ctx->src, b->name, name)) continue;
      n++;
      all = all && b->pageable;
    }
    if (n > 0) return all;
    if (scope == 0) return false;
    scope = 0;
  }
  return false;
}

static void report(const xstate *st, const xfer *x) {
  const gl_source *src = st->ctx->src;
  char msg[600];
  if (ts_node_is_null(x->host)) {
    snprintf(msg, sizeof msg,
             "`copy_to_host(stream=...)` without a destination copies into a new pageable NumPy "
             "array, so the copy does not overlap with other work: the driver stages it and the "
             "host waits; pass a pinned array (`cuda.pinned_array`) as `ary` if the overlap "
             "matters");
  } else {
    uint32_t a = ts_node_start_byte(x->host), b = ts_node_end_byte(x->host);
    int len = (int)(b - a > 60 ? 60 : b - a);
    snprintf(msg, sizeof msg,
             "`%.*s` is pageable host memory, so this copy is not asynchronous although it asks "
             "to be: the driver stages it through a pinned buffer and the host waits; allocate "
             "the host buffer pinned (`torch.empty(..., pin_memory=True)`, "
             "`cupyx.empty_pinned`, `cuda.pinned_array`) if the overlap matters",
             len, src->bytes + a);
  }
  gl_check_report(st->ctx, x->call, msg);
}

static bool host_pageable(const xstate *st, const xfer *x) {
  if (ts_node_is_null(x->host)) return true;
  if (GL_IS(x->host, identifier)) return name_pageable(st, x->host, x->scope);
  return GL_IS(x->host, call) && fresh_pageable(st, x->host);
}

/* One node of the file (gl_check__each's callback). */
static void visit(TSNode n, gl_check__walk *w, void *data) {
  ((xstate *)data)->walk = w;
  if (GL_IS(n, identifier)) visit_identifier(data, w, n);
  else if (GL_IS(n, call)) visit_call(data, n);
}

/* An asynchronous copy (`.to(cuda, non_blocking=True)`, `.cuda(non_blocking=True)`,
 * `d.copy_(h, non_blocking=True)`, `cuda.to_device(h, stream=s)`, `d.copy_to_host(h, stream=s)`
 * or without a destination, `d.set(h, stream=s)`, `cp.asarray(h, blocking=False)`) whose host
 * side is surely pageable: a NumPy constructor, a CPU tensor constructor without
 * `pin_memory=True`, `torch.from_numpy` of one, or a name that every binding of its scope (the
 * module's for a name the function does not bind) makes one and nothing pins. */
void gl_check_pageable_async_transfer(const gl_check_ctx *ctx) {
  static const char *const libs[] = {"torch", "numba", "numba_cuda_mlir", "cupy"};
  if (!ctx->model || !gl_check__imports_any(ctx->model, libs, 4)) return;
  /* every asynchronous copy this check knows names one of these (`non_blocking=True`,
   * `blocking=False`, `x.set(h, stream)` (written `.set(`), `copy_to_host(h, stream)`, `to_device(h, stream)`) */
  if (!gl_source_has(ctx->src, "blocking") && !gl_source_has(ctx->src, ".set(") &&
      !gl_source_has(ctx->src, "copy_to_host") && !gl_source_has(ctx->src, "to_device"))
    return;
  xstate st = {.ctx = ctx};
  gl_check__each(ctx->model, ts_tree_root_node(ctx->tree), visit, &st);
  for (size_t i = 0; i < st.xfers.len; i++)
    if (host_pageable(&st, &st.xfers.data[i])) report(&st, &st.xfers.data[i]);
  gl_vec_free(&st.binds);
  gl_vec_free(&st.xfers);
}
