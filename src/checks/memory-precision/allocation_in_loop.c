/* allocation_in_loop.c: the allocation-in-loop check (GPU502): device (or pinned host) memory
 * allocated with the same arguments on every iteration of a loop, for a buffer the iteration does
 * not keep; and resource-handle-in-loop (GPU507), the same for streams and library handles.
 * Owns: finding `x = alloc(args)` statements in loop bodies whose arguments are loop-invariant
 *       (first walk, the whole file), then one walk over the bodies of those loops that records
 *       every use of a name that may keep the buffer alive past the iteration (an escape).
 * Not: uploads of host data (GPU203's), the reporting helper (checks.c).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "parse/parse.h"

#define QNAME_CAP 256

typedef enum akind { A_NONE, A_DEVICE, A_PINNED, A_HANDLE } akind;

static const char *const reading_builtins[] = {"print", "len", "float", "int", "bool",
                                               "isinstance", "repr", "str", "abs", "type"};

typedef struct cand {
  TSNode call, target, body, loop;
  akind kind;
  bool invariant;   /* the model already proved every argument loop-invariant */
} cand;

typedef struct astate {
  const gl_check_ctx *ctx;
  bool handles;             /* resource-handle-in-loop: streams and handles, not memory */
  gl_vec(cand) cands;
  gl_vec(TSNode) escapes;   /* uses of a name that may keep its value past the iteration */
  gl_vec(TSNode) rebinds;   /* names and attribute chains the loop bodies bind or rebind */
} astate;

/* True when the call's `device=` is a string naming a CUDA device ("cuda", "cuda:0"). */
static bool cuda_literal(const gl_source *src, TSNode dev) {
  if (!gl_parse_type_is(dev, "string")) return false;
  uint32_t a = ts_node_start_byte(dev);
  return ts_node_end_byte(dev) - a > 5 && memcmp(src->bytes + a + 1, "cuda", 4) == 0;
}

/* What the call makes, from its model entry's roles: a stream or handle (`handle`), pinned host
 * memory (`pinned`), or a device buffer (`buffer`). A buffer is on the device when its entry's
 * result is device; on a library's default device (`default-device`: wp.zeros(n)), when
 * `device=` is absent or a CUDA string (code that passes a device variable loops over devices,
 * the CPU among them); otherwise (`device-kwarg`: torch.zeros(n) without `device=` is host
 * memory; `arg0`: zeros_like(a) is where a is) when the model puts the result there. */
static akind alloc_kind(const gl_check_ctx *ctx, TSNode call) {
  const gl_api_entry *e = gl_model_call_entry(ctx->model, call);
  if (!e) return A_NONE;
  if (e->roles & GL_ROLE_HANDLE) return A_HANDLE;
  if (e->roles & GL_ROLE_PINNED) return A_PINNED;
  if (!(e->roles & GL_ROLE_BUFFER)) return A_NONE;
  if (e->result == GL_RESULT_DEVICE) return A_DEVICE;
  if (e->result == GL_RESULT_DEFAULT_DEVICE) {
    TSNode dev = gl_check__kwarg(ctx->src, call, "device");
    return ts_node_is_null(dev) || cuda_literal(ctx->src, dev) ? A_DEVICE : A_NONE;
  }
  return gl_model_prov(ctx->model, call) == GL_PROV_DEVICE ? A_DEVICE : A_NONE;
}

/* A name or an attribute chain on a name (`x`, `x.shape`, `self.cfg.n`). */
static bool name_chain(TSNode v) {
  while (GL_IS(v, attribute)) v = gl_parse_child(v, "object", 6);
  return GL_IS(v, identifier);
}

/* 1 when the model proves v loop-invariant, 2 when v is a name chain whose rebinding the body
 * scan decides (the model also counts passing a name to any call as a change, which a size
 * such as `n` or `x.shape` cannot undergo), 0 otherwise. */
static int invariant1(const gl_model *m, TSNode v) {
  if (gl_model_loop_invariant(m, v)) return 1;
  return name_chain(v) ? 2 : 0;
}

static int invariant(const gl_model *m, TSNode v) {
  if (!gl_parse_type_is(v, "tuple") && !gl_parse_type_is(v, "list")) return invariant1(m, v);
  uint32_t n = ts_node_named_child_count(v);
  int r = 1;
  for (uint32_t i = 0; i < n && r; i++) {
    int k = invariant1(m, ts_node_named_child(v, i));
    r = k == 0 ? 0 : (k > r ? k : r);
  }
  return r;
}

/* The same for every argument of the call: 0, 1 or 2 (as invariant). */
static int args_invariant(const gl_model *m, TSNode call) {
  TSNode args = gl_parse_child(call, "arguments", 9);
  if (!gl_parse_type_is(args, "argument_list")) return 0;
  uint32_t n = ts_node_named_child_count(args);
  int r = 1;
  for (uint32_t i = 0; i < n && r; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (gl_parse_type_is(a, "comment")) continue;
    if (gl_parse_type_is(a, "keyword_argument")) a = gl_parse_child(a, "value", 5);
    int k = ts_node_is_null(a) ? 0 : invariant(m, a);
    r = k == 0 ? 0 : (k > r ? k : r);
  }
  return r;
}

/* The body block of the innermost for / while loop around the walk's current node (an
 * assignment inside an expression_statement), within its function, and the loop through *loop;
 * a null node when none. */
static TSNode loop_body(const gl_check__walk *w, TSNode *loop) {
  const char *field = NULL;
  TSNode child = gl_check__walk_up(w, 0, &field);
  for (size_t k = 1;; k++) {
    const char *pf = NULL;
    TSNode p = gl_check__walk_up(w, k, &pf);
    if (ts_node_is_null(p) || gl_parse_opens_scope(p)) return (TSNode){0};
    if ((gl_parse_type_is(p, "for_statement") || gl_parse_type_is(p, "while_statement")) && field &&
        strcmp(field, "body") == 0) {
      *loop = p;
      return child;
    }
    child = p;
    field = pf;
  }
}

static void visit_assignment(astate *st, const gl_check__walk *w, TSNode asg) {
  TSNode left = gl_parse_child(asg, "left", 4);
  TSNode right = gl_parse_child(asg, "right", 5);
  if (!GL_IS(left, identifier) || !GL_IS(right, call)) return;
  if (!gl_parse_type_is(gl_check__walk_up(w, 0, NULL), "expression_statement")) return;
  const gl_model *m = st->ctx->model;
  if (!gl_model_in_loop(m, right)) return;
  akind k = alloc_kind(st->ctx, right);
  if ((k == A_HANDLE) != st->handles) return;
  int inv = k == A_NONE ? 0 : args_invariant(m, right);
  if (!inv) return;
  TSNode loop = {0}, body = loop_body(w, &loop);
  if (ts_node_is_null(body)) return;
  cand c = {right, left, body, loop, k, inv == 1};
  gl_vec_push(&st->cands, c);
}

/* True when the call only reads the data of its arguments: a GPU library function, a kernel
 * launch `k[grid, block](...)`, a method of a device value, or a builtin that reads. */
static bool reading_call(const astate *st, TSNode call) {
  if (!GL_IS(call, call)) return false;
  const gl_model *m = st->ctx->model;
  TSNode fn = gl_parse_child(call, "function", 8);
  char q[QNAME_CAP];
  if (GL_IS(fn, subscript)) return true;
  if (gl_model_resolve(m, fn, q, sizeof q)) return gl_libmodels_gpu_module(gl_model_libmodels(m), q);
  if (GL_IS(fn, attribute)) {
    TSNode obj = gl_parse_child(fn, "object", 6);
    return gl_model_prov(m, obj) == GL_PROV_DEVICE;
  }
  if (!GL_IS(fn, identifier) || !gl_model_is_builtin(m, fn)) return false;
  for (size_t i = 0; i < sizeof reading_builtins / sizeof reading_builtins[0]; i++)
    if (gl_check__text_is(st->ctx->src, fn, reading_builtins[i])) return true;
  return false;
}

/* The call whose argument the node at ancestor level k is, given its parent p at k (an
 * argument_list or a keyword_argument), or a null node. */
static TSNode call_of_arg(const gl_check__walk *w, size_t k, TSNode p) {
  if (gl_parse_type_is(p, "argument_list")) return gl_check__walk_up(w, k + 1, NULL);
  if (gl_parse_type_is(p, "keyword_argument") &&
      gl_parse_type_is(gl_check__walk_up(w, k + 1, NULL), "argument_list"))
    return gl_check__walk_up(w, k + 2, NULL);
  return (TSNode){0};
}

static bool in_nested_scope(const gl_check__walk *w) {
  for (size_t k = 0;; k++) {
    TSNode p = gl_check__walk_up(w, k, NULL);
    if (ts_node_is_null(p)) return false;
    if (gl_parse_opens_scope(p)) return true;
  }
}

/* True when the value at the walk's current identifier may outlive the iteration. */
static bool escapes(const astate *st, const gl_check__walk *w) {
  const char *field = gl_check__walk_field(w), *pf = NULL;
  size_t k = 0;
  TSNode p = gl_check__walk_up(w, 0, &pf);
  for (;;) {
    bool obj = GL_IS(p, attribute) && field && strcmp(field, "object") == 0;
    if (obj && pf && strcmp(pf, "function") == 0 && GL_IS(gl_check__walk_up(w, k + 1, NULL), call))
      return false; /* x.fill(0), x.sum(), x.get() */
    bool chain = obj || (GL_IS(p, subscript) && field && strcmp(field, "value") == 0) ||
                 GL_IS(p, parenthesized_expression);
    if (!chain) break;
    field = pf;
    p = gl_check__walk_up(w, ++k, &pf);
  }
  const char *t = ts_node_is_null(p) ? "" : ts_node_type(p);
  if (!strcmp(t, "assignment") || !strcmp(t, "augmented_assignment"))
    return !strcmp(t, "assignment") && field && strcmp(field, "right") == 0;
  if (!strcmp(t, "binary_operator") || !strcmp(t, "unary_operator") ||
      !strcmp(t, "comparison_operator") || !strcmp(t, "not_operator") ||
      !strcmp(t, "expression_statement") || !strcmp(t, "assert_statement") ||
      !strcmp(t, "if_statement") || !strcmp(t, "elif_clause") || !strcmp(t, "while_statement") ||
      !strcmp(t, "with_item"))
    return false;
  if (!strcmp(t, "subscript")) return !(field && strcmp(field, "subscript") == 0);
  if (!strcmp(t, "list") || !strcmp(t, "tuple")) {
    TSNode pp = gl_check__walk_up(w, k + 1, NULL);
    return !reading_call(st, call_of_arg(w, k + 1, pp));
  }
  return !reading_call(st, call_of_arg(w, k, p));
}

/* True for an identifier that is a name being read or written (not a field, keyword, or
 * the target of an assignment). */
static bool is_use(const gl_check__walk *w) {
  const char *field = gl_check__walk_field(w);
  TSNode p = gl_check__walk_up(w, 0, NULL);
  if (GL_IS(p, attribute) && field && strcmp(field, "attribute") == 0) return false;
  if (gl_parse_type_is(p, "keyword_argument") && field && strcmp(field, "name") == 0) return false;
  if (GL_IS(p, assignment) && field && strcmp(field, "left") == 0) return false;
  return !(gl_parse_type_is(p, "for_statement") && field && strcmp(field, "left") == 0);
}

static bool is_pattern(TSNode p) {
  return gl_parse_type_is(p, "pattern_list") || gl_parse_type_is(p, "tuple_pattern") ||
         gl_parse_type_is(p, "list_pattern") || gl_parse_type_is(p, "tuple") ||
         gl_parse_type_is(p, "list") || GL_IS(p, parenthesized_expression) ||
         gl_parse_type_is(p, "list_splat_pattern") || gl_parse_type_is(p, "expression_list");
}

/* True when the walk's current node is (an element of) what a statement binds: the left side
 * of an assignment, augmented assignment, for loop or comprehension clause, a walrus name, a
 * with / except alias, or a del target. */
static bool is_binding(const gl_check__walk *w) {
  const char *field = gl_check__walk_field(w), *pf = NULL;
  size_t k = 0;
  TSNode p = gl_check__walk_up(w, 0, &pf);
  while (is_pattern(p)) {
    field = pf;
    p = gl_check__walk_up(w, ++k, &pf);
  }
  bool left = field && strcmp(field, "left") == 0;
  if (left && (GL_IS(p, assignment) || GL_IS(p, augmented_assignment) ||
               gl_parse_type_is(p, "for_statement") || gl_parse_type_is(p, "for_in_clause")))
    return true;
  if (gl_parse_type_is(p, "named_expression")) return field && strcmp(field, "name") == 0;
  return gl_parse_type_is(p, "as_pattern_target") || gl_parse_type_is(p, "delete_statement");
}

static void scan_body(astate *st, TSNode body) {
  gl_check__walk w;
  gl_check__walk_init(&w, st->ctx->model, body);
  TSNode n;
  while (gl_check__walk_next(&w, &n)) {
    bool id = GL_IS(n, identifier);
    if (!id && !GL_IS(n, attribute)) continue;
    if (is_binding(&w)) gl_vec_push(&st->rebinds, n);
    else if (id && is_use(&w) && (in_nested_scope(&w) || escapes(st, &w)))
      gl_vec_push(&st->escapes, n);
  }
  gl_check__walk_free(&w);
}

/* Walks each loop body holding a candidate once: bodies inside another one are skipped. */
static void scan_bodies(astate *st) {
  for (size_t i = 0; i < st->cands.len; i++) {
    TSNode b = st->cands.data[i].body;
    bool done = false;
    for (size_t j = 0; j < st->cands.len && !done; j++) {
      TSNode o = st->cands.data[j].body;
      if (ts_node_eq(o, b)) done = j < i;
      else done = gl_check__contains(o, b);
    }
    if (!done) scan_body(st, b);
  }
}

static bool kept(const astate *st, const cand *c) {
  for (size_t i = 0; i < st->escapes.len; i++) {
    TSNode id = st->escapes.data[i];
    if (gl_check__contains(c->body, id) && gl_check__same_text(st->ctx->src, id, c->target))
      return true;
  }
  return false;
}

/* True when binding b (a name or attribute chain) rebinds the value of name chain v: b is v's
 * root name, or a chain that v starts with (`self.n` for `self.n.x`). */
static bool rebinds_chain(const gl_source *src, TSNode b, TSNode v) {
  uint32_t b0 = ts_node_start_byte(b), b1 = ts_node_end_byte(b);
  uint32_t v0 = ts_node_start_byte(v), v1 = ts_node_end_byte(v);
  TSNode root = v;
  while (GL_IS(root, attribute)) root = gl_parse_child(root, "object", 6);
  if (gl_check__same_text(src, b, root)) return true;
  if (b1 - b0 > v1 - v0 || memcmp(src->bytes + b0, src->bytes + v0, b1 - b0) != 0) return false;
  return b1 - b0 == v1 - v0 || src->bytes[v0 + (b1 - b0)] == '.';
}

static bool rebound_in(const astate *st, const cand *c, TSNode v) {
  const gl_source *src = st->ctx->src;
  for (size_t i = 0; i < st->rebinds.len; i++) {
    TSNode b = st->rebinds.data[i];
    if (gl_check__contains(c->body, b) && rebinds_chain(src, b, v)) return true;
  }
  TSNode left = gl_parse_child(c->loop, "left", 4);
  if (ts_node_is_null(left)) return false;
  gl_check__walk w;
  gl_check__walk_init(&w, st->ctx->model, left);
  TSNode n;
  bool hit = false;
  while (!hit && gl_check__walk_next(&w, &n))
    hit = GL_IS(n, identifier) && rebinds_chain(src, n, v);
  gl_check__walk_free(&w);
  return hit;
}

/* True when no name chain among the call's arguments is rebound by the loop. */
static bool names_unchanged(const astate *st, const cand *c) {
  TSNode args = gl_parse_child(c->call, "arguments", 9);
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (gl_parse_type_is(a, "keyword_argument")) a = gl_parse_child(a, "value", 5);
    bool group = gl_parse_type_is(a, "tuple") || gl_parse_type_is(a, "list");
    uint32_t m = group ? ts_node_named_child_count(a) : 1;
    for (uint32_t j = 0; j < m; j++) {
      TSNode v = group ? ts_node_named_child(a, j) : a;
      if (name_chain(v) && rebound_in(st, c, v)) return false;
    }
  }
  return true;
}

static void report(const astate *st, const cand *c) {
  const gl_source *src = st->ctx->src;
  TSNode fn = gl_parse_child(c->call, "function", 8);
  uint32_t f0 = ts_node_start_byte(fn), f1 = ts_node_end_byte(fn);
  uint32_t t0 = ts_node_start_byte(c->target), t1 = ts_node_end_byte(c->target);
  int fl = (int)(f1 - f0 > 60 ? 60 : f1 - f0), tl = (int)(t1 - t0 > 60 ? 60 : t1 - t0);
  const char *what = c->kind == A_PINNED ? "pinned host memory" : "device memory";
  char msg[512];
  if (c->kind == A_HANDLE)
    snprintf(msg, sizeof msg,
             "`%.*s` creates a new stream or library handle on every iteration, and `%.*s` does "
             "not outlive the iteration; create it once before the loop and reuse it",
             fl, src->bytes + f0, tl, src->bytes + t0);
  else
    snprintf(msg, sizeof msg,
           "`%.*s` allocates %s of the same size on every iteration, and `%.*s` does not "
           "outlive the iteration; allocate it once before the loop and reuse it (refill it in "
           "place or pass it as `out=`)",
           fl, src->bytes + f0, what, tl, src->bytes + t0);
  gl_check_report(st->ctx, c->call, msg);
}

static void run(const gl_check_ctx *ctx, bool handles) {
  if (!ctx->model) return;
  uint32_t roles = handles ? GL_ROLE_HANDLE : GL_ROLE_BUFFER | GL_ROLE_PINNED;
  if (!gl_check__imports_role(ctx->model, roles)) return;
  astate st = {.ctx = ctx, .handles = handles};
  gl_check__walk w;
  gl_check__walk_init(&w, ctx->model, ts_tree_root_node(ctx->tree));
  TSNode n;
  while (gl_check__walk_next(&w, &n))
    if (GL_IS(n, assignment)) visit_assignment(&st, &w, n);
  gl_check__walk_free(&w);
  if (st.cands.len > 0) scan_bodies(&st);
  for (size_t i = 0; i < st.cands.len; i++)
  {
    const cand *c = &st.cands.data[i];
    if (!kept(&st, c) && (c->invariant || names_unchanged(&st, c))) report(&st, c);
  }
  gl_vec_free(&st.cands);
  gl_vec_free(&st.escapes);
  gl_vec_free(&st.rebinds);
}

/* `x = cp.zeros(n)` (and the other device and pinned allocators) as a statement of a loop body,
 * every argument loop-invariant, where x never leaves the iteration: every use of x in the
 * loop is a read, a store into it, an operand, a method call on it, or an argument of a GPU
 * library call or kernel launch. */
void gl_check_allocation_in_loop(const gl_check_ctx *ctx) { run(ctx, false); }

/* The same analysis for `s = cp.cuda.Stream()`, `cuda.stream()`, `torch.cuda.Stream()`,
 * `pylibraft.common.DeviceResources()` / `Handle()`, `cuml.Handle()`, `cuvs.common.Resources()`;
 * `with s:` counts as a use that keeps nothing. */
void gl_check_resource_handle_in_loop(const gl_check_ctx *ctx) { run(ctx, true); }
