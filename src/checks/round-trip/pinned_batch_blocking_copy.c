/* pinned_batch_blocking_copy.c: the pinned-batch-blocking-copy check (GPU210): a batch from a
 * loader that pins its memory (`DataLoader(ds, pin_memory=True)`) copied to the device on every
 * step without `non_blocking=True`, so the copy (and everything queued before it) is waited for.
 * Owns: one walk that collects the pinned loaders (a name or `self.` attribute bound to a call of a
 *       class the rule's `pinned-loaders` option names, whose `pin_memory=` is not False / None /
 *       0) and the for loops of the file; then, per loop over a pinned loader (directly or through
 *       `enumerate(...)`, `tqdm(...)` and other wrappers taking it first), the names the loop
 *       target binds, the names unpacked from them in the body (`x, y = batch`, `t for t in
 *       batch`, `k, v in batch.items()`), and the `.to(...)` / `.cuda(...)` device copies of those
 *       without a `non_blocking=` keyword.
 * Not: loaders without pinning (the copy blocks either way: pinning is the fix, not the keyword),
 *      copies in functions the loop calls, loaders handed in as parameters, the reporting helper
 *      (checks.c).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "base/vec.h"
#include "checks/node.h"
#include "checks/walk.h"
#include "parse/parse.h"

#define QNAME_CAP 256
#define WRAP_DEPTH 3

typedef struct loader {
  TSNode target;    /* the identifier or attribute bound to the loader */
  TSNode call;      /* the loader's construction */
  uint32_t scope;   /* start byte of the binding's def (0: module); attributes match anywhere */
} loader;

typedef struct pstate {
  const gl_check_ctx *ctx;
  gl_vec(loader) loaders;
  gl_check__nodes loops;
} pstate;

static uint32_t scope_of(gl_check__walk *w) {
  TSNode s = gl_check__walk_scope(w, 0);
  return ts_node_is_null(s) ? 0 : ts_node_start_byte(s);
}

/* A call of a loader class the rule names, with a pin_memory= that may be true: `True`, or a
 * flag the user set (`pin_memory=args.pin_mem`); not `False`, `None` or `0`. */
static bool pinned_loader_call(const pstate *st, TSNode call) {
  char q[QNAME_CAP];
  if (!gl_check__callee(st->ctx->model, call, q, sizeof q) ||
      !gl_rule_option_has(st->ctx->rule, "pinned-loaders", q))
    return false;
  TSNode pin = gl_check__kwarg(st->ctx->src, call, "pin_memory");
  return !ts_node_is_null(pin) && !gl_parse_type_is(pin, "false") &&
         !gl_parse_type_is(pin, "none") && !gl_check__text_is(st->ctx->src, pin, "0");
}

static void visit(TSNode n, gl_check__walk *w, void *data) {
  pstate *st = data;
  if (gl_parse_type_is(n, "for_statement")) {
    gl_vec_push(&st->loops, n);
    return;
  }
  if (!GL_IS(n, assignment)) return;
  TSNode left = gl_parse_child(n, "left", 4), right = gl_parse_child(n, "right", 5);
  if (!GL_IS(right, call) || !(GL_IS(left, identifier) || GL_IS(left, attribute))) return;
  if (!pinned_loader_call(st, right)) return;
  loader l = {left, right, GL_IS(left, identifier) ? scope_of(w) : 0};
  gl_vec_push(&st->loaders, l);
}

/* The start byte of the innermost def around node (0: the module). */
static uint32_t def_of(const gl_model *m, TSNode node) {
  gl_check__nodes chain = {0};
  uint32_t at = 0;
  if (gl_check__ancestors(m, node, &chain))
    for (size_t i = chain.len; i-- > 0;)
      if (GL_IS(chain.data[i], function_definition) && !ts_node_eq(chain.data[i], node)) {
        at = ts_node_start_byte(chain.data[i]);
        break;
      }
  gl_vec_free(&chain);
  return at;
}

/* The pinned loader a loop's iterable walks, or NULL: the loader itself, its name, or the first
 * argument of a wrapper call (`enumerate(loader)`, `tqdm(loader, total=n)`). */
static const loader *loop_loader(const pstate *st, TSNode iter, uint32_t scope, TSNode *call) {
  for (int d = 0; d <= WRAP_DEPTH && !ts_node_is_null(iter); d++) {
    if (GL_IS(iter, call)) {
      if (pinned_loader_call(st, iter)) {
        *call = iter;
        return NULL;
      }
      iter = gl_check__arg(iter, 0);
      continue;
    }
    if (!GL_IS(iter, identifier) && !GL_IS(iter, attribute)) return NULL;
    for (size_t i = 0; i < st->loaders.len; i++) {
      const loader *l = &st->loaders.data[i];
      if (!gl_check__same_text(st->ctx->src, l->target, iter)) continue;
      if (GL_IS(iter, identifier) && l->scope != scope && l->scope != 0) continue;
      return l;
    }
    return NULL;
  }
  return NULL;
}

/* Adds the identifiers a pattern binds (x / x, y / (i, (x, y)) / [a, *rest]) to names. */
static void add_bound(TSNode pat, gl_check__nodes *names) {
  if (GL_IS(pat, identifier)) {
    gl_vec_push(names, pat);
    return;
  }
  uint32_t n = ts_node_named_child_count(pat);
  for (uint32_t i = 0; i < n; i++) add_bound(ts_node_named_child(pat, i), names);
}

/* The identifier under a chain of subscripts and attributes (`batch["img"][0]` -> batch). */
static TSNode base_name(TSNode e) {
  while (GL_IS(e, subscript) || GL_IS(e, attribute))
    e = gl_parse_child(e, GL_IS(e, subscript) ? "value" : "object", GL_IS(e, subscript) ? 5 : 6);
  return e;
}

/* True when e is batch data: a bound name, a subscript / attribute of one, or `.items()` /
 * `.values()` of one. */
static bool batch_expr(const gl_source *src, const gl_check__nodes *names, TSNode e) {
  TSNode recv;
  if (GL_IS(e, call) && (gl_check__method(src, e, "items", &recv) ||
                         gl_check__method(src, e, "values", &recv)))
    e = recv;
  TSNode b = base_name(e);
  return GL_IS(b, identifier) && gl_check__has_text(src, names, b);
}

/* A for statement or clause over batch data binds batch names. */
static void loop_binds(const gl_source *src, gl_check__nodes *names, TSNode loop) {
  TSNode right = gl_parse_child(loop, "right", 5);
  if (!ts_node_is_null(right) && batch_expr(src, names, right))
    add_bound(gl_parse_child(loop, "left", 4), names);
}

static bool comprehension(TSNode n) {
  return gl_parse_type_is(n, "list_comprehension") || gl_parse_type_is(n, "set_comprehension") ||
         gl_parse_type_is(n, "dictionary_comprehension") ||
         gl_parse_type_is(n, "generator_expression");
}

typedef struct lstate {
  const pstate *st;
  gl_check__nodes names;   /* the batch names of this loop */
  const loader *l;
  TSNode lcall;
} lstate;

static void report(const lstate *ls, TSNode call, TSNode recv) {
  const gl_check_ctx *ctx = ls->st->ctx;
  TSNode made = ls->l ? ls->l->call : ls->lcall;
  char where[64], msg[600];
  gl_check_line_label(ctx, ts_node_start_byte(made), where, sizeof where);
  int rl, ll;
  const char *r = gl_check__written(ctx->src, ts_node_start_byte(recv), ts_node_end_byte(recv),
                                    40, &rl);
  /* a loader bound to a name is called by that name; one written in the loop's header by its
     callee, as `DataLoader(...)` */
  TSNode named = ls->l ? ls->l->target : gl_parse_child(made, "function", 8);
  if (ts_node_is_null(named)) named = made;
  const char *lt = gl_check__written(ctx->src, ts_node_start_byte(named),
                                     ts_node_end_byte(named), 40, &ll);
  snprintf(msg, sizeof msg,
           "`%.*s` comes from the pinned memory of `%.*s%s` (pin_memory at %s) but is copied "
           "without `non_blocking=True`: PyTorch waits for the copy, and for the work queued "
           "before it, on every step; add `non_blocking=True` so the copy overlaps with the GPU's "
           "work",
           rl, r, ll, lt, ls->l ? "" : "(...)", where);
  gl_check_report(ctx, call, msg);
}

static void visit_body(TSNode n, gl_check__walk *w, void *data) {
  lstate *ls = data;
  const gl_source *src = ls->st->ctx->src;
  const gl_model *m = ls->st->ctx->model;
  if (gl_parse_opens_scope(n)) {
    gl_check__walk_skip(w);
    return;
  }
  if (GL_IS(n, assignment)) {
    TSNode right = gl_parse_child(n, "right", 5);
    if (!ts_node_is_null(right) && batch_expr(src, &ls->names, right))
      add_bound(gl_parse_child(n, "left", 4), &ls->names);
    return;
  }
  if (gl_parse_type_is(n, "for_statement")) {
    loop_binds(src, &ls->names, n);
    return;
  }
  /* a comprehension's element comes first in the walk: bind its clauses' names before it */
  if (comprehension(n)) {
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
      TSNode c = ts_node_named_child(n, i);
      if (gl_parse_type_is(c, "for_in_clause")) loop_binds(src, &ls->names, c);
    }
    return;
  }
  if (!GL_IS(n, call)) return;
  TSNode recv;
  if (!gl_check__method(src, n, "to", &recv) && !gl_check__method(src, n, "cuda", &recv)) return;
  if (!ts_node_is_null(gl_check__kwarg(src, n, "non_blocking"))) return;
  if (gl_model_prov(m, n) != GL_PROV_DEVICE) return;
  TSNode b = base_name(recv);
  if (GL_IS(b, identifier) && gl_check__has_text(src, &ls->names, b)) report(ls, n, recv);
}

/* A loop over a pinned loader: its batch names, then every blocking device copy of them. */
static void check_loop(const pstate *st, TSNode loop) {
  lstate ls = {.st = st};
  TSNode iter = gl_parse_child(loop, "right", 5);
  ls.l = loop_loader(st, iter, def_of(st->ctx->model, loop), &ls.lcall);
  if (!ls.l && ts_node_is_null(ls.lcall)) return;
  add_bound(gl_parse_child(loop, "left", 4), &ls.names);
  TSNode body = gl_parse_child(loop, "body", 4);
  if (!ts_node_is_null(body)) gl_check__each(st->ctx->model, body, visit_body, &ls);
  gl_vec_free(&ls.names);
}

/* A `.to(device)` / `.cuda()` without `non_blocking=` of a batch that a for loop takes from a
 * loader built with pin_memory (a class the `pinned-loaders` option names), in that loop. */
void gl_check_pinned_batch_blocking_copy(const gl_check_ctx *ctx) {
  if (!ctx->model || !gl_source_has(ctx->src, "pin_memory")) return;
  pstate st = {.ctx = ctx};
  gl_check__each(ctx->model, ts_tree_root_node(ctx->tree), visit, &st);
  for (size_t i = 0; i < st.loops.len; i++) check_loop(&st, st.loops.data[i]);
  gl_vec_free(&st.loaders);
  gl_vec_free(&st.loops);
}
