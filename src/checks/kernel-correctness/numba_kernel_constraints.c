/* numba_kernel_constraints.c: the numba-kernel-constraints check (GPU807): Python in a `@cuda.jit`
 * kernel or device function that Numba's CUDA target cannot compile.
 * Owns: the constraint list: `return <value>` in a kernel (not a device function);
 *       `cuda.shared.array` / `cuda.local.array` whose shape reads a parameter or a name bound in
 *       the function (not a compile-time constant); list / dict / set displays and comprehensions;
 *       NumPy allocation (`np.empty`, `np.zeros`, ...); calls of a function of the file that no
 *       decorator compiles for the GPU (one def of the name, not nested in the kernel, its name
 *       never assigned).
 * Not: finding kernels (kernel_scan.c), reporting (checks.c).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/kernel-correctness/kernel_scan.h"
#include "checks/node.h"
#include "parse/parse.h"

#define QNAME_CAP 256
#define MSG_CAP 512

typedef struct lstate {
  const gl_check_ctx *ctx;
  const gl_kernel *k;
  gl_check__nodes locals;     /* parameters and names bound in the function */
  gl_check__nodes shapes;     /* shape arguments of shared / local arrays */
  gl_check__nodes calls;      /* calls of a plain name (checked against the file's defs at the end) */
  gl_check__nodes call_kernels; /* the def of the kernel each call is in */
} lstate;

static const char *const np_allocs[] = {"empty", "zeros", "ones", "full", "array", "arange",
                                        "empty_like", "zeros_like", "ones_like", "full_like",
                                        "linspace", "eye", "identity", "asarray"};

static void say(const gl_check_ctx *ctx, TSNode at, const char *what) {
  char msg[MSG_CAP];
  int l = (int)(ts_node_end_byte(at) - ts_node_start_byte(at));
  snprintf(msg, sizeof msg, "`%.*s` %s", l > 80 ? 80 : l, ctx->src->bytes + ts_node_start_byte(at),
           what);
  gl_check_report(ctx, at, msg);
}

static void add_names(gl_check__nodes *l, TSNode t) {
  if (ts_node_is_null(t)) return;
  if (GL_IS(t, identifier)) {
    gl_vec_push(l, t);
    return;
  }
  uint32_t n = ts_node_named_child_count(t);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(t, i);
    if (GL_IS(c, identifier)) gl_vec_push(l, c);
  }
}

static void note_params(lstate *st) {
  TSNode ps = gl_parse_child(st->k->def, "parameters", 10);
  uint32_t n = ts_node_is_null(ps) ? 0 : ts_node_named_child_count(ps);
  for (uint32_t i = 0; i < n; i++) {
    TSNode p = ts_node_named_child(ps, i);
    if (!GL_IS(p, identifier)) p = gl_parse_child(p, "name", 4);
    if (!ts_node_is_null(p) && GL_IS(p, identifier)) gl_vec_push(&st->locals, p);
  }
}

static bool is_np_alloc(const char *q) {
  if (strncmp(q, "numpy.", 6) != 0) return false;
  for (size_t i = 0; i < sizeof np_allocs / sizeof np_allocs[0]; i++)
    if (strcmp(q + 6, np_allocs[i]) == 0) return true;
  return false;
}

static void visit_call(lstate *st, TSNode n, gl_check__walk *s) {
  char q[QNAME_CAP];
  const char *lib = st->k->lib;
  TSNode fn = gl_parse_child(n, "function", 8);
  if (!gl_check__callee(st->ctx->model, n, q, sizeof q)) {
    if (!ts_node_is_null(fn) && GL_IS(fn, identifier)) {
      gl_vec_push(&st->calls, n);
      gl_vec_push(&st->call_kernels, st->k->def);
    }
    return;
  }
  if (gl_kernel_api_is(lib, q, "shared.array") || gl_kernel_api_is(lib, q, "local.array")) {
    TSNode shape = gl_check__arg(n, 0);
    if (ts_node_is_null(shape)) shape = gl_check__kwarg(st->ctx->src, n, "shape");
    if (!ts_node_is_null(shape)) gl_vec_push(&st->shapes, shape);
    gl_check__walk_skip(s);  /* the shape and dtype are read by the compiler, not built at run time */
  } else if (is_np_alloc(q)) {
    say(st->ctx, n,
        "allocates a NumPy array inside a CUDA kernel, which Numba cannot compile: use "
        "`cuda.local.array` / `cuda.shared.array` with a constant shape, or pass a preallocated "
        "device array in");
  }
}

/* An integer literal or a tuple of them: a local bound to one stays a compile-time constant. */
static bool is_literal_shape(TSNode e) {
  if (ts_node_is_null(e)) return false;
  if (gl_parse_type_is(e, "integer")) return true;
  if (!gl_parse_type_is(e, "tuple")) return false;
  uint32_t n = ts_node_named_child_count(e);
  for (uint32_t i = 0; i < n; i++)
    if (!gl_parse_type_is(ts_node_named_child(e, i), "integer")) return false;
  return n > 0;
}

static void visit(TSNode n, gl_check__walk *s, void *data) {
  lstate *st = data;
  const char *t = ts_node_type(n);
  if (strcmp(t, "assignment") == 0 || strcmp(t, "augmented_assignment") == 0 ||
      strcmp(t, "for_statement") == 0) {
    bool lit = strcmp(t, "assignment") == 0 &&
               is_literal_shape(gl_parse_child(n, "right", 5));
    if (!lit) add_names(&st->locals, gl_parse_child(n, "left", 4));
  } else if (strcmp(t, "call") == 0) {
    visit_call(st, n, s);
  } else if (strcmp(t, "list") == 0 || strcmp(t, "dictionary") == 0 || strcmp(t, "set") == 0 ||
             strcmp(t, "list_comprehension") == 0 || strcmp(t, "dictionary_comprehension") == 0 ||
             strcmp(t, "set_comprehension") == 0) {
    say(st->ctx, n,
        "builds a Python list, dict or set inside a CUDA kernel, which Numba cannot compile: "
        "use a `cuda.local.array` with a constant shape, or a tuple of numbers");
    gl_check__walk_skip(s);
  } else if (strcmp(t, "return_statement") == 0 && st->k->kind == GL_K_NUMBA &&
             ts_node_named_child_count(n) > 0) {
    say(st->ctx, n,
        "returns a value from a `@cuda.jit` kernel, which Numba rejects: a kernel's result "
        "must be written to an output array (or make it a `device=True` function)");
  }
}

/* A shape that reads a parameter or a local name is not a compile-time constant. */
static void check_shapes(lstate *st) {
  for (size_t i = 0; i < st->shapes.len; i++) {
    gl_check__walk s;
    gl_check__walk_init(&s, st->ctx->model, st->shapes.data[i]);
    TSNode n;
    bool bad = false;
    while (!bad && gl_check__walk_next(&s, &n)) {
      if (!GL_IS(n, identifier)) continue;
      const char *field = gl_check__walk_field(&s);
      if (field && strcmp(field, "attribute") == 0) continue;
      bad = gl_check__has_text(st->ctx->src, &st->locals, n);
    }
    gl_check__walk_free(&s);
    if (bad)
      say(st->ctx, st->shapes.data[i],
          "is the shape of a shared or local array but not a compile-time constant: Numba needs "
          "the size when it compiles the kernel; use a literal or a module-level constant (or "
          "dynamic shared memory, `cuda.shared.array(0, ...)` with the size at launch)");
  }
}

static void check_kernel(const gl_kernel *k, void *data) {
  lstate *st = data;
  st->k = k;
  st->locals.len = st->shapes.len = 0;
  note_params(st);
  if (!gl_check__body_each(st->ctx->model, k->def, visit, st)) return;
  check_shapes(st);
}

/* The defs of the file that no decorator compiles (direct children of no decorated
 * definition), in source order; names bound by an assignment anywhere go to assigned
 * (`clamp = cuda.jit(device=True)(clamp)` compiles a plain def). */
static void plain_defs(const gl_check_ctx *ctx, gl_check__nodes *out,
                       gl_check__nodes *assigned) {
  gl_check__walk s;
  gl_check__walk_init(&s, ctx->model, ts_tree_root_node(ctx->tree));
  TSNode n, skip_def = {0};
  while (gl_check__walk_next(&s, &n)) {
    if (GL_IS(n, decorated_definition))
      skip_def = gl_parse_child(n, "definition", 10);
    else if (GL_IS(n, function_definition) && !ts_node_eq(n, skip_def))
      gl_vec_push(out, n);
    else if (GL_IS(n, assignment))
      add_names(assigned, gl_parse_child(n, "left", 4));
  }
  gl_check__walk_free(&s);
}

/* The plain def a call names, or a null node: one def of that name in the file, with no
 * decorator, not nested in the calling kernel, and its name never assigned. */
static TSNode plain_callee(const lstate *st, const gl_check__nodes *all,
                           const gl_check__nodes *plain, const gl_check__nodes *assigned,
                           size_t i) {
  TSNode none = {0};
  TSNode fn = gl_parse_child(st->calls.data[i], "function", 8);
  TSNode def = gl_check__def_named(st->ctx->src, all, fn);
  if (ts_node_is_null(def) || gl_check__contains(st->call_kernels.data[i], def)) return none;
  for (size_t j = 0; j < assigned->len; j++)
    if (gl_check__same_text(st->ctx->src, assigned->data[j], fn)) return none;
  for (size_t j = 0; j < plain->len; j++)
    if (ts_node_eq(plain->data[j], def)) return def;
  return none;
}

static void check_calls(lstate *st) {
  if (st->calls.len == 0) return;
  gl_check__nodes all = {0}, plain = {0}, assigned = {0};
  gl_check__defs(st->ctx->model, st->ctx->tree, &all);
  plain_defs(st->ctx, &plain, &assigned);
  for (size_t i = 0; i < st->calls.len; i++) {
    if (ts_node_is_null(plain_callee(st, &all, &plain, &assigned, i))) continue;
    say(st->ctx, st->calls.data[i],
        "calls a Python function that is not compiled for the GPU: decorate it with "
        "`@cuda.jit(device=True)` (or inline it), or Numba fails to compile the kernel");
  }
  gl_vec_free(&all);
  gl_vec_free(&plain);
  gl_vec_free(&assigned);
}

/* In `@cuda.jit` kernels and device functions: a kernel returning a value, shared / local array
 * shapes that are not constants, list / dict / set displays, NumPy allocation, calls of
 * undecorated functions of the file (GPU807). */
void gl_check_numba_kernel_constraints(const gl_check_ctx *ctx) {
  lstate st = {.ctx = ctx};
  gl_kernel_each(ctx->model, ctx->src, ctx->tree, (1u << GL_K_NUMBA) | (1u << GL_K_NUMBA_DEVICE),
                 check_kernel, &st);
  check_calls(&st);
  gl_vec_free(&st.locals);
  gl_vec_free(&st.shapes);
  gl_vec_free(&st.calls);
  gl_vec_free(&st.call_kernels);
}
