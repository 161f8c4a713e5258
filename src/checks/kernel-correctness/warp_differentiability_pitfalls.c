/* warp_differentiability_pitfalls.c: the warp-differentiability-pitfalls check (GPU809): Warp code
 * under a `wp.Tape()` whose gradients come out wrong.
 * Owns: which kernels a tape records (the kernel named by `wp.launch(k, ...)` /
 *       `wp.launch(kernel=k, ...)` inside `with wp.Tape() as tape:`), overwrites in those kernels
 *       (`a[i] = <expression reading a[...]>` for a kernel parameter a), and arrays whose gradient
 *       is read (`tape.gradients[x]`, `x.grad`) that were made by a Warp constructor without
 *       `requires_grad=True`.
 * Not: finding kernels (kernel_scan.c), reporting (checks.c).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/kernel-correctness/kernel_scan.h"
#include "checks/node.h"
#include "parse/parse.h"

#define MSG_CAP 512

typedef struct gstate {
  const gl_check_ctx *ctx;
  gl_check__nodes taped;      /* kernel names launched under a tape */
  gl_check__nodes tapes;      /* the names tapes are bound to (`as tape`) */
  gl_check__nodes plain;      /* names bound to a Warp array made without requires_grad=True */
  gl_check__nodes graded;     /* names bound to a Warp array made with it */
  gl_check__nodes grad_reads; /* `tape.gradients[x]` / `x.grad`: the x */
  gl_vec(gl_kernel) kernels;
  uint32_t tape_end;    /* end byte of the innermost tape `with` being walked (0: none) */
} gstate;

/* A constructor of a fresh array (no copy of another array's data): an allocation on the device
 * `device=` names (gl_check__device_kwarg_alloc) that is not a copy (`wp.clone`): a new one
 * (default-device result) or a `buffer` one (`wp.zeros_like`). */
static bool array_maker(const gl_model *m, TSNode call) {
  const gl_api_entry *e = gl_check__device_kwarg_alloc(m, call);
  return e && (e->result == GL_RESULT_DEFAULT_DEVICE || (e->roles & GL_ROLE_BUFFER));
}

static void note_with(gstate *st, TSNode w) {
  static const char *const tape[] = {"warp.Tape"};
  TSNode items = ts_node_named_child(w, 0);
  uint32_t n = ts_node_is_null(items) ? 0 : ts_node_named_child_count(items);
  for (uint32_t i = 0; i < n; i++) {
    TSNode item = ts_node_named_child(items, i);
    TSNode v = gl_parse_child(item, "value", 5);
    TSNode call =
        !ts_node_is_null(v) && gl_parse_type_is(v, "as_pattern") ? ts_node_named_child(v, 0) : v;
    if (ts_node_is_null(call) || !gl_check__callee_in(st->ctx->model, call, tape, 1)) continue;
    st->tape_end = ts_node_end_byte(w);
    if (gl_parse_type_is(v, "as_pattern")) {
      TSNode alias = gl_parse_child(v, "alias", 5);
      TSNode id = ts_node_is_null(alias) ? alias : ts_node_named_child(alias, 0);
      if (!ts_node_is_null(id) && GL_IS(id, identifier)) gl_vec_push(&st->tapes, id);
    }
  }
}

static void note_call(gstate *st, TSNode n) {
  if (st->tape_end == 0 || ts_node_start_byte(n) >= st->tape_end) return;
  if (!gl_check__call_has_role(st->ctx->model, n, GL_ROLE_LAUNCH)) return;
  TSNode k = gl_check__arg(n, 0);
  if (ts_node_is_null(k)) k = gl_check__kwarg(st->ctx->src, n, "kernel");
  if (!ts_node_is_null(k) && GL_IS(k, identifier)) gl_vec_push(&st->taped, k);
}

static void note_assignment(gstate *st, TSNode n) {
  TSNode l = gl_parse_child(n, "left", 4);
  TSNode r = gl_parse_child(n, "right", 5);
  if (ts_node_is_null(l) || ts_node_is_null(r) || !GL_IS(l, identifier) || !GL_IS(r, call))
    return;
  if (!array_maker(st->ctx->model, r)) return;
  TSNode rg = gl_check__kwarg(st->ctx->src, r, "requires_grad");
  gl_vec_push(ts_node_is_null(rg) || gl_check__text_is(st->ctx->src, rg, "False") ? &st->plain
                                                                                 : &st->graded,
              l);
}

/* `tape.gradients[x]` (tape a name bound by `with wp.Tape() as tape`) or `x.grad`. */
static void note_grad_read(gstate *st, TSNode n) {
  const gl_source *src = st->ctx->src;
  if (GL_IS(n, subscript)) {
    TSNode v = gl_parse_child(n, "value", 5);
    if (ts_node_is_null(v) || !GL_IS(v, attribute)) return;
    TSNode obj = gl_parse_child(v, "object", 6);
    TSNode at = gl_parse_child(v, "attribute", 9);
    TSNode x = gl_parse_child(n, "subscript", 9);
    if (gl_check__text_is(src, at, "gradients") && GL_IS(obj, identifier) &&
        gl_check__has_text(src, &st->tapes, obj) && !ts_node_is_null(x) && GL_IS(x, identifier))
      gl_vec_push(&st->grad_reads, x);
    return;
  }
  TSNode obj = gl_parse_child(n, "object", 6);
  TSNode at = gl_parse_child(n, "attribute", 9);
  if (gl_check__text_is(src, at, "grad") && GL_IS(obj, identifier))
    gl_vec_push(&st->grad_reads, obj);
}

static void walk(gstate *st) {
  gl_check__walk s;
  gl_check__walk_init(&s, st->ctx->model, ts_tree_root_node(st->ctx->tree));
  TSNode n;
  gl_kernel k;
  while (gl_check__walk_next(&s, &n)) {
    const char *t = ts_node_type(n);
    if (st->tape_end && ts_node_start_byte(n) >= st->tape_end) st->tape_end = 0;
    if (strcmp(t, "with_statement") == 0) note_with(st, n);
    else if (strcmp(t, "call") == 0) note_call(st, n);
    else if (strcmp(t, "assignment") == 0) note_assignment(st, n);
    else if (strcmp(t, "subscript") == 0 || strcmp(t, "attribute") == 0) note_grad_read(st, n);
    else if (strcmp(t, "decorated_definition") == 0 &&
             gl_kernel_of(st->ctx->model, st->ctx->src, n, &k) == GL_K_WARP)
      gl_vec_push(&st->kernels, k);
  }
  gl_check__walk_free(&s);
}

/* True when e reads the array named arr by subscript. */
static bool reads_array(const gstate *st, TSNode e, TSNode arr) {
  const gl_source *src = st->ctx->src;
  gl_check__walk s;
  gl_check__walk_init(&s, st->ctx->model, e);
  TSNode n;
  bool hit = false;
  while (!hit && gl_check__walk_next(&s, &n)) {
    if (!GL_IS(n, subscript)) continue;
    TSNode v = gl_parse_child(n, "value", 5);
    hit = !ts_node_is_null(v) && gl_check__same_text(src, v, arr);
  }
  gl_check__walk_free(&s);
  return hit;
}

static void check_overwrites(gstate *st, const gl_kernel *k) {
  const gl_source *src = st->ctx->src;
  TSNode body = gl_parse_child(k->def, "body", 4);
  if (ts_node_is_null(body)) return;
  gl_check__walk s;
  gl_check__walk_init(&s, st->ctx->model, body);
  TSNode n;
  char msg[MSG_CAP];
  while (gl_check__walk_next(&s, &n)) {
    if (gl_parse_opens_scope(n)) {
      gl_check__walk_skip(&s);
      continue;
    }
    if (!GL_IS(n, assignment)) continue;
    TSNode l = gl_parse_child(n, "left", 4);
    TSNode r = gl_parse_child(n, "right", 5);
    if (ts_node_is_null(l) || ts_node_is_null(r) || !GL_IS(l, subscript)) continue;
    TSNode arr = gl_parse_child(l, "value", 5);
    if (ts_node_is_null(arr) || !GL_IS(arr, identifier) || !reads_array(st, r, arr)) continue;
    int al = (int)(ts_node_end_byte(arr) - ts_node_start_byte(arr));
    snprintf(msg, sizeof msg,
             "the kernel overwrites `%.*s` with a value computed from `%.*s` while a `wp.Tape` "
             "records it: the backward pass reads the overwritten values and the gradients are "
             "wrong; write the result to a separate output array",
             al, src->bytes + ts_node_start_byte(arr), al, src->bytes + ts_node_start_byte(arr));
    gl_check_report(st->ctx, n, msg);
  }
  gl_check__walk_free(&s);
}

static void check_grad_reads(gstate *st) {
  const gl_source *src = st->ctx->src;
  char msg[MSG_CAP];
  for (size_t i = 0; i < st->grad_reads.len; i++) {
    TSNode x = st->grad_reads.data[i];
    if (!gl_check__has_text(src, &st->plain, x) || gl_check__has_text(src, &st->graded, x))
      continue;
    int xl = (int)(ts_node_end_byte(x) - ts_node_start_byte(x));
    snprintf(msg, sizeof msg,
             "the gradient of `%.*s` is read, but `%.*s` was created without "
             "`requires_grad=True`: Warp allocates no gradient for it and the tape does not "
             "propagate into it; create it with `requires_grad=True`",
             xl, src->bytes + ts_node_start_byte(x), xl, src->bytes + ts_node_start_byte(x));
    gl_check_report(st->ctx, x, msg);
  }
}

/* Under `with wp.Tape()`: kernels that overwrite an array with values read from it, and
 * gradients read of arrays made without `requires_grad=True` (GPU809). */
void gl_check_warp_differentiability_pitfalls(const gl_check_ctx *ctx) {
  if (!ctx->model || !ctx->src->bytes || !strstr(ctx->src->bytes, "Tape")) return;
  gstate st = {.ctx = ctx};
  walk(&st);
  for (size_t i = 0; i < st.kernels.len; i++) {
    TSNode name = gl_parse_child(st.kernels.data[i].def, "name", 4);
    if (!ts_node_is_null(name) && gl_check__has_text(ctx->src, &st.taped, name))
      check_overwrites(&st, &st.kernels.data[i]);
  }
  check_grad_reads(&st);
  gl_vec_free(&st.taped);
  gl_vec_free(&st.tapes);
  gl_vec_free(&st.plain);
  gl_vec_free(&st.graded);
  gl_vec_free(&st.grad_reads);
  gl_vec_free(&st.kernels);
}
