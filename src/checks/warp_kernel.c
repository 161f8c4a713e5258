/* warp_kernel.c: the warp-kernel-constraints check (GPU805): Python in `@wp.kernel` /
 * `@wp.func` bodies that Warp's code generator rejects.
 * Owns: the constraint list: a kernel parameter without a type annotation, a return annotation
 *       or a `return <value>` in a kernel, `wp.tid()` in a `@wp.func`, and list / dict / set
 *       displays and comprehensions in either (outside `wp.static(...)`, which Python evaluates).
 * Not: finding kernels (kernel_scan.c), reporting (checks.c).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/kernel.h"

#include <stdio.h>
#include <string.h>

#include "checks/bench_scan.h"
#include "checks/kernel_scan.h"

#define QNAME_CAP 256
#define MSG_CAP 512

static bool is_kind(TSNode n, const char *k) { return strcmp(ts_node_type(n), k) == 0; }

static void report_text(const gl_check_ctx *ctx, TSNode at, const char *fmt_before,
                        const char *after) {
  char msg[MSG_CAP];
  int l = (int)(ts_node_end_byte(at) - ts_node_start_byte(at));
  snprintf(msg, sizeof msg, "%s `%.*s` %s", fmt_before, l > 80 ? 80 : l,
           ctx->src->bytes + ts_node_start_byte(at), after);
  gl_check_report(ctx, at, msg);
}

static void check_params(const gl_check_ctx *ctx, const gl_kernel *k) {
  TSNode ps = ts_node_child_by_field_name(k->def, "parameters", 10);
  uint32_t n = ts_node_is_null(ps) ? 0 : ts_node_named_child_count(ps);
  for (uint32_t i = 0; i < n; i++) {
    TSNode p = ts_node_named_child(ps, i);
    if (is_kind(p, "default_parameter")) p = ts_node_child_by_field_name(p, "name", 4);
    if (ts_node_is_null(p) || !is_kind(p, "identifier")) continue;
    report_text(ctx, p, "kernel parameter",
                "has no type annotation: Warp needs the type of every kernel argument "
                "(`a: wp.array(dtype=float)`, `n: int`) to generate the kernel, and raises "
                "when it is missing");
  }
  TSNode rt = ts_node_child_by_field_name(k->def, "return_type", 11);
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

static void visit(const gl_check_ctx *ctx, const gl_kernel *k, TSNode n, gl_bscan *s) {
  char q[QNAME_CAP];
  if (is_kind(n, "call") && gl_bscan_callee(ctx->model, n, q, sizeof q)) {
    if (strcmp(q, "warp.static") == 0) gl_bscan_skip(s);
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
    gl_bscan_skip(s);
    return;
  }
  if (k->kind == GL_K_WARP && is_kind(n, "return_statement") && ts_node_named_child_count(n) > 0)
    report_text(ctx, n, "",
                "returns a value from a kernel, which Warp rejects: write the result to an "
                "output array");
}

static void check_kernel(const gl_kernel *k, void *data) {
  const gl_check_ctx *ctx = data;
  if (k->kind == GL_K_WARP) check_params(ctx, k);
  TSNode body = ts_node_child_by_field_name(k->def, "body", 4);
  if (ts_node_is_null(body)) return;
  gl_bscan s;
  gl_bscan_init(&s, body);
  TSNode n;
  while (gl_bscan_next(&s, &n)) {
    if (gl_bscan_is_scope(n)) {
      gl_bscan_skip(&s);
      continue;
    }
    visit(ctx, k, n, &s);
  }
  gl_bscan_free(&s);
}

void gl_check_warp_kernel_constraints(const gl_check_ctx *ctx) {
  gl_kernel_each(ctx->model, ctx->src, ctx->tree, (1u << GL_K_WARP) | (1u << GL_K_WARP_FUNC),
                 check_kernel, (void *)ctx);
}
