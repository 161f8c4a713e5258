/* pinned_batch_blocking_copy.c: the pinned-batch-blocking-copy check (GPU210): a batch from a
 * loader that pins its memory (`DataLoader(ds, pin_memory=True)`) copied to the device on every
 * step without `non_blocking=True`, so the copy (and everything queued before it) is waited for.
 * Owns: one walk that collects the file's bindings (assignments and for targets, by scope), defs,
 *       calls and loops; the question "is this expression a pinned loader?" answered through
 *       them within the file (a call of a class the rule's `pinned-loaders` option names whose
 *       `pin_memory=` is not False / None / 0; `iter()` of one; a name or `self.` attribute whose
 *       every binding is one; a def of the file whose every return is one; a parameter that every
 *       call of its def passes one, constructors included); then, per loop, the batch names (the
 *       target of a for over a pinned loader through `enumerate(...)` and other wrappers taking
 *       it first, `next()` of one, and names unpacked from those in the body) and the `.to(...)`
 *       / `.cuda(...)` device copies of them without a `non_blocking=` keyword.
 * Not: loaders without pinning (the copy blocks either way: pinning is the fix, not the keyword),
 *      copies in functions the loop calls, loaders from other files, the reporting helper
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
#define FLOW_DEPTH 8        /* bindings, parameters and returns followed from one expression */
#define FLOW_BUDGET 20000   /* steps of that following per file: a bound, never a hang */

typedef struct binding {
  TSNode target;    /* the identifier or attribute bound */
  TSNode value;     /* what is bound; a null node when not known (unpacked, a for target) */
  uint32_t scope;   /* start byte of the binding's def (0: module); attributes match anywhere */
} binding;

typedef struct pstate {
  const gl_check_ctx *ctx;
  gl_vec(binding) bindings;
  gl_check__nodes loops;     /* for and while statements */
  gl_check__nodes calls;     /* calls of a plain name or of `self.name` */
  gl_check__nodes defs;
  gl_vec(uint32_t) reported; /* start bytes of the copies already reported */
  unsigned budget;           /* steps of flow left */
  TSNode origin;             /* the loader construction the last pinned() answer reached */
} pstate;

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

/* The def of the file that starts at byte at, or a null node. */
static TSNode def_at(const pstate *st, uint32_t at) {
  for (size_t i = 0; i < st->defs.len; i++)
    if (ts_node_start_byte(st->defs.data[i]) == at) return st->defs.data[i];
  return (TSNode){0};
}

/* The class a def is a method of (its parent block's parent), or a null node. */
static TSNode class_of(TSNode def) {
  TSNode p = ts_node_parent(def);
  if (GL_IS(p, decorated_definition)) p = ts_node_parent(p);
  if (!GL_IS(p, block)) return (TSNode){0};
  p = ts_node_parent(p);
  return GL_IS(p, class_definition) ? p : (TSNode){0};
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

/* Records what a pattern binds: a name or attribute bound to value, or (unpacked) each name
 * bound to something not known. */
static void bind(pstate *st, TSNode left, TSNode value, uint32_t scope) {
  if (GL_IS(left, identifier) || GL_IS(left, attribute)) {
    binding b = {.target = left, .value = value, .scope = GL_IS(left, identifier) ? scope : 0};
    gl_vec_push(&st->bindings, b);
    return;
  }
  gl_check__nodes names = {0};
  add_bound(left, &names);
  for (size_t i = 0; i < names.len; i++) {
    binding b = {.target = names.data[i], .scope = scope};
    gl_vec_push(&st->bindings, b);
  }
  gl_vec_free(&names);
}

static uint32_t scope_of(gl_check__walk *w) {
  TSNode s = gl_check__walk_scope(w, 0);
  return GL_IS(s, function_definition) ? ts_node_start_byte(s) : 0;
}

static void visit(TSNode n, gl_check__walk *w, void *data) {
  pstate *st = data;
  if (gl_parse_type_is(n, "for_statement") || gl_parse_type_is(n, "while_statement")) {
    gl_vec_push(&st->loops, n);
    if (gl_parse_type_is(n, "for_statement"))
      bind(st, gl_parse_child(n, "left", 4), (TSNode){0}, scope_of(w));
    return;
  }
  if (GL_IS(n, call)) {
    TSNode fn = gl_parse_child(n, "function", 8);
    if (GL_IS(fn, identifier) ||
        (GL_IS(fn, attribute) &&
         gl_check__text_is(st->ctx->src, gl_parse_child(fn, "object", 6), "self")))
      gl_vec_push(&st->calls, n);
    return;
  }
  if (!GL_IS(n, assignment)) return;
  TSNode left = gl_parse_child(n, "left", 4), right = gl_parse_child(n, "right", 5);
  if (ts_node_is_null(left) || ts_node_is_null(right)) return;
  bind(st, left, GL_IS(left, identifier) || GL_IS(left, attribute) ? right : (TSNode){0},
       scope_of(w));
}

static bool pinned(pstate *st, TSNode e, int depth);

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

/* Every binding of target's text in scope (attributes: anywhere) is a pinned loader, and there
 * is one; *found tells whether there was any binding at all. */
static bool bindings_pinned(pstate *st, TSNode target, uint32_t scope, int depth, bool *found) {
  bool attr = GL_IS(target, attribute), all = true;
  *found = false;
  for (size_t i = 0; i < st->bindings.len && all; i++) {
    const binding *b = &st->bindings.data[i];
    if (GL_IS(b->target, attribute) != attr || (!attr && b->scope != scope) ||
        !gl_check__same_text(st->ctx->src, b->target, target))
      continue;
    *found = true;
    all = pinned(st, b->value, depth + 1);
  }
  return *found && all;
}

/* The position of parameter name among def's parameters (a method's first one skipped), or -1;
 * *index_ok is false after a splat (the name is then passed by keyword only). */
static int param_index(const gl_source *src, TSNode def, TSNode name, bool *index_ok) {
  TSNode params = gl_parse_child(def, "parameters", 10);
  uint32_t n = ts_node_named_child_count(params);
  int pos = 0, first = ts_node_is_null(class_of(def)) ? 0 : 1;
  *index_ok = true;
  for (uint32_t i = 0; i < n; i++) {
    TSNode p = ts_node_named_child(params, i), id = p;
    if (GL_IS(p, default_parameter) || GL_IS(p, typed_default_parameter))
      id = gl_parse_child(p, "name", 4);
    else if (gl_parse_type_is(p, "typed_parameter"))
      id = ts_node_named_child(p, 0);
    if (!GL_IS(id, identifier)) {   /* *args, **kw, a bare * or / */
      *index_ok = false;
      continue;
    }
    if (gl_check__same_text(src, id, name)) return pos - first;
    pos++;
  }
  return -1;
}

/* Parameter name of def is a pinned loader at every call of def in the file (and it has one):
 * `f(...)` for a function, `self.f(...)` for a method, `Cls(...)` for `__init__`. */
static bool param_pinned(pstate *st, TSNode def, TSNode name, int depth) {
  const gl_source *src = st->ctx->src;
  bool index_ok;
  int idx = param_index(src, def, name, &index_ok);
  TSNode dname = gl_parse_child(def, "name", 4), cls = class_of(def);
  if (idx < 0 || ts_node_is_null(dname)) return false;
  bool init = !ts_node_is_null(cls) && gl_check__text_is(src, dname, "__init__");
  if (init) dname = gl_parse_child(cls, "name", 4);
  if (ts_node_is_null(dname)) return false;
  size_t sites = 0;
  for (size_t i = 0; i < st->calls.len; i++) {
    TSNode call = st->calls.data[i], fn = gl_parse_child(call, "function", 8);
    bool method = GL_IS(fn, attribute);
    if (method != (!ts_node_is_null(cls) && !init)) continue;
    TSNode called = method ? gl_parse_child(fn, "attribute", 9) : fn;
    if (!gl_check__same_text(src, called, dname)) continue;
    if (method && !gl_check__contains(cls, call)) continue;
    char pname[QNAME_CAP];
    gl_check__text(src, name, pname, sizeof pname);
    TSNode arg = gl_check__kwarg(src, call, pname);
    if (ts_node_is_null(arg) && index_ok) arg = gl_check__arg(call, (uint32_t)idx);
    if (!pinned(st, arg, depth + 1)) return false;
    sites++;
  }
  return sites > 0;
}

/* Every return of def (outside nested scopes) hands back a pinned loader, and there is one. */
typedef struct rstate {
  pstate *st;
  int depth;
  size_t returns;
  bool all;
} rstate;

static void visit_return(TSNode n, gl_check__walk *w, void *data) {
  rstate *r = data;
  (void)w;
  if (!GL_IS(n, return_statement) || !r->all) return;
  r->returns++;
  r->all = pinned(r->st, ts_node_named_child(n, 0), r->depth + 1);
}

static bool returns_pinned(pstate *st, TSNode def, int depth) {
  rstate r = {st, depth, 0, true};
  gl_check__body_each(st->ctx->model, def, visit_return, &r);
  return r.returns > 0 && r.all;
}

/* A name: its bindings in the innermost scope that has any, else a parameter of that def, going
 * outwards to the module. */
static bool name_pinned(pstate *st, TSNode name, int depth) {
  uint32_t scope = def_of(st->ctx->model, name);
  for (int hop = 0; hop < FLOW_DEPTH; hop++) {
    bool found;
    bool yes = bindings_pinned(st, name, scope, depth, &found);
    if (found) return yes;
    if (scope == 0) return false;
    TSNode def = def_at(st, scope);
    if (ts_node_is_null(def)) return false;
    bool index_ok;
    if (param_index(st->ctx->src, def, name, &index_ok) >= 0 || !index_ok)
      return param_pinned(st, def, name, depth);
    scope = def_of(st->ctx->model, def);
  }
  return false;
}

/* True when e is known to be a pinned loader (or an iterator over one) within the file. */
static bool pinned(pstate *st, TSNode e, int depth) {
  if (ts_node_is_null(e) || depth > FLOW_DEPTH || st->budget == 0) return false;
  st->budget--;
  while (GL_IS(e, parenthesized_expression)) e = ts_node_named_child(e, 0);
  if (GL_IS(e, call)) {
    if (pinned_loader_call(st, e)) {
      if (ts_node_is_null(st->origin)) st->origin = e;
      return true;
    }
    TSNode fn = gl_parse_child(e, "function", 8);
    if (gl_check__text_is(st->ctx->src, fn, "iter")) return pinned(st, gl_check__arg(e, 0), depth + 1);
    TSNode called = fn;
    if (GL_IS(fn, attribute)) {
      if (!gl_check__text_is(st->ctx->src, gl_parse_child(fn, "object", 6), "self")) return false;
      called = gl_parse_child(fn, "attribute", 9);
    }
    TSNode def = gl_check__def_named(st->ctx->src, &st->defs, called);
    return !ts_node_is_null(def) && returns_pinned(st, def, depth);
  }
  if (GL_IS(e, identifier)) return name_pinned(st, e, depth);
  if (GL_IS(e, attribute)) {
    bool found;
    return bindings_pinned(st, e, 0, depth, &found);
  }
  return false;
}

/* Whether a loop's iterable is a pinned loader: itself, or the first argument of a wrapper call
 * (`enumerate(loader)`, `tqdm(loader, total=n)`); *via gets the expression that is. */
static bool loop_pinned(pstate *st, TSNode iter, TSNode *via) {
  for (int d = 0; d <= WRAP_DEPTH && !ts_node_is_null(iter); d++) {
    st->origin = (TSNode){0};
    if (pinned(st, iter, 0)) {
      *via = iter;
      return true;
    }
    if (!GL_IS(iter, call)) return false;
    iter = gl_check__arg(iter, 0);
  }
  return false;
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
  pstate *st;
  gl_check__nodes names;   /* the batch names of this loop */
  TSNode via;              /* the loader expression the first batch names came from */
  TSNode origin;           /* its construction */
} lstate;

static void report(lstate *ls, TSNode call, TSNode recv) {
  pstate *st = ls->st;
  const gl_check_ctx *ctx = st->ctx;
  uint32_t at = ts_node_start_byte(call);
  for (size_t i = 0; i < st->reported.len; i++)
    if (st->reported.data[i] == at) return;   /* an outer loop reached it first */
  gl_vec_push(&st->reported, at);
  char where[64], msg[600];
  gl_check_line_label(ctx, ts_node_start_byte(ls->origin), where, sizeof where);
  int rl, ll;
  const char *r = gl_check__written(ctx->src, ts_node_start_byte(recv), ts_node_end_byte(recv),
                                    40, &rl);
  /* a loader written in the loop's header is named by its callee, as `DataLoader(...)` */
  TSNode named = ls->via;
  bool inline_call = ts_node_eq(named, ls->origin);
  if (inline_call) named = gl_parse_child(named, "function", 8);
  if (ts_node_is_null(named)) named = ls->via;
  const char *lt = gl_check__written(ctx->src, ts_node_start_byte(named),
                                     ts_node_end_byte(named), 40, &ll);
  snprintf(msg, sizeof msg,
           "`%.*s` comes from the pinned memory of `%.*s%s` (pin_memory at %s) but is copied "
           "without `non_blocking=True`: PyTorch waits for the copy, and for the work queued "
           "before it, on every step; add `non_blocking=True` so the copy overlaps with the GPU's "
           "work",
           rl, r, ll, lt, inline_call ? "(...)" : "", where);
  gl_check_report(ctx, call, msg);
}

/* `next(it)` of a pinned loader or an iterator over one: the batch of a hand-written loop. */
static bool next_of_pinned(lstate *ls, TSNode e) {
  if (!GL_IS(e, call) || !gl_check__text_is(ls->st->ctx->src, gl_parse_child(e, "function", 8),
                                            "next"))
    return false;
  TSNode it = gl_check__arg(e, 0);
  ls->st->origin = (TSNode){0};
  if (!pinned(ls->st, it, 0)) return false;
  if (ts_node_is_null(ls->via)) {
    ls->via = it;
    ls->origin = ls->st->origin;
  }
  return true;
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
    if (!ts_node_is_null(right) &&
        (batch_expr(src, &ls->names, right) || next_of_pinned(ls, right)))
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

/* A loop: the batches it takes from a pinned loader (its own target, or `next()` in its body),
 * then every blocking device copy of them in its body. */
static void check_loop(pstate *st, TSNode loop) {
  lstate ls = {.st = st};
  if (gl_parse_type_is(loop, "for_statement") &&
      loop_pinned(st, gl_parse_child(loop, "right", 5), &ls.via)) {
    ls.origin = st->origin;
    add_bound(gl_parse_child(loop, "left", 4), &ls.names);
  } else if (!gl_source_has(st->ctx->src, "next")) {
    return;
  }
  TSNode body = gl_parse_child(loop, "body", 4);
  if (!ts_node_is_null(body)) gl_check__each(st->ctx->model, body, visit_body, &ls);
  gl_vec_free(&ls.names);
}

/* A `.to(device)` / `.cuda()` without `non_blocking=` of a batch that a loop takes from a loader
 * built with pin_memory (a class the `pinned-loaders` option names), in that loop. */
void gl_check_pinned_batch_blocking_copy(const gl_check_ctx *ctx) {
  if (!ctx->model || !gl_source_has(ctx->src, "pin_memory")) return;
  pstate st = {.ctx = ctx, .budget = FLOW_BUDGET};
  gl_check__each(ctx->model, ts_tree_root_node(ctx->tree), visit, &st);
  gl_check__defs(ctx->model, ctx->tree, &st.defs);
  for (size_t i = 0; i < st.loops.len; i++) check_loop(&st, st.loops.data[i]);
  gl_vec_free(&st.bindings);
  gl_vec_free(&st.loops);
  gl_vec_free(&st.calls);
  gl_vec_free(&st.defs);
  gl_vec_free(&st.reported);
}
