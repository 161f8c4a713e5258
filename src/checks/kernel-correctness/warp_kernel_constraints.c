/* warp_kernel_constraints.c: the warp-kernel-constraints check (GPU805): Python in `@wp.kernel` /
 * `@wp.func` bodies that Warp's code generator rejects.
 * Owns: the constraint list: a kernel parameter without a type annotation, a return annotation
 *       or a `return <value>` in a kernel, `wp.tid()` in a `@wp.func`, and list / dict / set
 *       displays and comprehensions in either (outside `wp.static(...)`, which Python evaluates),
 *       and `wp.launch(..., device="cpu")` given an array bound (once in the file) to a Warp
 *       constructor with `device="cuda..."` in its inputs / outputs list, or the reverse.
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


static void report_text(const gl_check_ctx *ctx, TSNode at, const char *fmt_before,
                        const char *after) {
  char msg[MSG_CAP];
  int l = (int)(ts_node_end_byte(at) - ts_node_start_byte(at));
  snprintf(msg, sizeof msg, "%s `%.*s` %s", fmt_before, l > 80 ? 80 : l,
           ctx->src->bytes + ts_node_start_byte(at), after);
  gl_check_report(ctx, at, msg);
}

static void check_params(const gl_check_ctx *ctx, const gl_kernel *k) {
  TSNode ps = gl_parse_child(k->def, "parameters", 10);
  uint32_t n = ts_node_is_null(ps) ? 0 : ts_node_named_child_count(ps);
  for (uint32_t i = 0; i < n; i++) {
    TSNode p = ts_node_named_child(ps, i);
    if (GL_IS(p, default_parameter)) p = gl_parse_child(p, "name", 4);
    if (ts_node_is_null(p) || !GL_IS(p, identifier)) continue;
    report_text(ctx, p, "kernel parameter",
                "has no type annotation: Warp needs the type of every kernel argument "
                "(`a: wp.array(dtype=float)`, `n: int`) to generate the kernel, and raises "
                "when it is missing");
  }
  TSNode rt = gl_parse_child(k->def, "return_type", 11);
  if (!ts_node_is_null(rt))
    report_text(ctx, rt, "the kernel's return annotation",
                "is rejected by Warp: a kernel cannot return a value; write results to an "
                "output array");
}

static bool is_display(TSNode n) {
  const char *t = ts_node_type(n);
  return strcmp(t, "list") == 0 || strcmp(t, "dictionary") == 0 || strcmp(t, "set") == 0 ||
         strcmp(t, "list_comprehension") == 0 || strcmp(t, "dictionary_comprehension") == 0 ||
         strcmp(t, "set_comprehension") == 0;
}

static void visit(const gl_check_ctx *ctx, const gl_kernel *k, TSNode n, gl_check__walk *s) {
  char q[QNAME_CAP];
  if (GL_IS(n, call) && gl_check__callee(ctx->model, n, q, sizeof q)) {
    if (strcmp(q, "warp.static") == 0) gl_check__walk_skip(s);
    else if (strcmp(q, "warp.tid") == 0 && k->kind == GL_K_WARP_FUNC)
      report_text(ctx, n, "",
                  "is called in a `@wp.func`: only a kernel has a thread index; call "
                  "`wp.tid()` in the kernel and pass the index to the function");
    return;
  }
  if (is_display(n)) {
    report_text(ctx, n, "",
                "is a Python list, dict or set, which Warp kernels and functions do not "
                "support; use Warp vector and matrix types (`wp.vec3(...)`), arrays, or "
                "`wp.static(...)` for values known when the kernel is built");
    gl_check__walk_skip(s);
    return;
  }
  if (k->kind == GL_K_WARP && GL_IS(n, return_statement) && ts_node_named_child_count(n) > 0)
    report_text(ctx, n, "",
                "returns a value from a kernel, which Warp rejects: write the result to an "
                "output array");
}

typedef enum wdev { D_OTHER = 0, D_CPU, D_CUDA } wdev;

typedef struct wbind {
  TSNode name;
  wdev dev;      /* D_OTHER: bound by anything but a Warp constructor with a literal device */
} wbind;

typedef struct wstate {
  const gl_check_ctx *ctx;
  const gl_kernel *k;  /* the kernel whose body is being walked */
  gl_vec(wbind) binds;
  gl_check__nodes launches;  /* wp.launch(...) calls with a literal device= */
} wstate;

/* The class of a literal device= value: "cpu", "cuda" or "cuda:N"; D_OTHER otherwise. */
static wdev literal_device(const gl_source *src, TSNode v) {
  if (ts_node_is_null(v) || !gl_parse_type_is(v, "string")) return D_OTHER;
  uint32_t a = ts_node_start_byte(v), b = ts_node_end_byte(v);
  if (b - a < 5) return D_OTHER;
  const char *p = src->bytes + a + 1;
  size_t n = b - a - 2;
  if (n == 3 && memcmp(p, "cpu", 3) == 0) return D_CPU;
  return n >= 4 && memcmp(p, "cuda", 4) == 0 && (n == 4 || p[4] == ':') ? D_CUDA : D_OTHER;
}

static void host_node(TSNode n, void *data) {
  wstate *st = data;
  const gl_check_ctx *ctx = st->ctx;
  if (GL_IS(n, assignment)) {
    TSNode l = gl_parse_child(n, "left", 4);
    TSNode r = gl_parse_child(n, "right", 5);
    if (ts_node_is_null(l) || !GL_IS(l, identifier)) return;
    wdev d = D_OTHER;
    if (!ts_node_is_null(r) && gl_check__device_kwarg_alloc(ctx->model, r))
      d = literal_device(ctx->src, gl_check__kwarg(ctx->src, r, "device"));
    gl_vec_push(&st->binds, ((wbind){l, d}));
  } else if (GL_IS(n, call) && gl_check__call_has_role(ctx->model, n, GL_ROLE_LAUNCH) &&
             literal_device(ctx->src, gl_check__kwarg(ctx->src, n, "device")) != D_OTHER) {
    gl_vec_push(&st->launches, n);
  }
}

/* The one device a name is bound to in the file, or D_OTHER (several bindings, or not literal). */
static wdev device_of(const wstate *st, TSNode name) {
  wdev d = D_OTHER;
  bool seen = false;
  for (size_t i = 0; i < st->binds.len; i++) {
    if (!gl_check__same_text(st->ctx->src, st->binds.data[i].name, name)) continue;
    if (seen && st->binds.data[i].dev != d) return D_OTHER;
    d = st->binds.data[i].dev;
    seen = true;
  }
  return d;
}

static void check_launch_devices(wstate *st, TSNode call) {
  const gl_source *src = st->ctx->src;
  TSNode dv = gl_check__kwarg(src, call, "device");
  wdev want = literal_device(src, dv);
  static const char *const lists[] = {"inputs", "outputs"};
  char msg[MSG_CAP];
  for (size_t li = 0; li < 2; li++) {
    TSNode l = gl_check__kwarg(src, call, lists[li]);
    if (ts_node_is_null(l) || (!gl_parse_type_is(l, "list") && !gl_parse_type_is(l, "tuple")))
      continue;
    uint32_t n = ts_node_named_child_count(l);
    for (uint32_t i = 0; i < n; i++) {
      TSNode a = ts_node_named_child(l, i);
      if (!GL_IS(a, identifier)) continue;
      wdev have = device_of(st, a);
      if (have == D_OTHER || have == want) continue;
      int al = (int)(ts_node_end_byte(a) - ts_node_start_byte(a));
      int dl = (int)(ts_node_end_byte(dv) - ts_node_start_byte(dv));
      snprintf(msg, sizeof msg,
               "`%.*s` was allocated on the %s, but the launch runs on `device=%.*s`: Warp "
               "rejects arrays of another device at launch; allocate it on the launch's device "
               "or copy it with `.to(device)`",
               al, src->bytes + ts_node_start_byte(a), have == D_CPU ? "CPU" : "GPU", dl,
               src->bytes + ts_node_start_byte(dv));
      gl_check_report(st->ctx, a, msg);
    }
  }
}

/* One node of the kernel body being walked (gl_check__body_each's callback). */
static void body_node(TSNode n, gl_check__walk *s, void *data) {
  const wstate *st = data;
  visit(st->ctx, st->k, n, s);
}

static void check_kernel(const gl_kernel *k, void *data) {
  wstate *st = data;
  if (k->kind == GL_K_WARP) check_params(st->ctx, k);
  st->k = k;
  gl_check__body_each(st->ctx->model, k->def, body_node, st);
}

/* In `@wp.kernel` / `@wp.func` bodies: unannotated kernel parameters, a kernel's return
 * annotation or returned value, `wp.tid()` in a function, list / dict / set displays (GPU805). */
void gl_check_warp_kernel_constraints(const gl_check_ctx *ctx) {
  if (ctx->model && !gl_model_imports(ctx->model, "warp")) return;   /* no Warp kernel here */
  wstate st = {.ctx = ctx};
  gl_kernel_walk(ctx->model, ctx->src, ctx->tree, (1u << GL_K_WARP) | (1u << GL_K_WARP_FUNC),
                 check_kernel, host_node, &st);
  for (size_t i = 0; i < st.launches.len; i++) check_launch_devices(&st, st.launches.data[i]);
  gl_vec_free(&st.binds);
  gl_vec_free(&st.launches);
}
