/* benchmark_without_warmup.c: the benchmark-without-warmup check (GPU305): the first call of a
 * JIT-compiled or lazily built kernel inside a timed region.
 * Owns: which callables compile on first use (Numba `@cuda.jit` kernels launched `k[g, b](...)`,
 *       Warp `@wp.kernel` kernels given to `wp.launch`, CuPy RawKernel / ElementwiseKernel /
 *       ReductionKernel / `@cp.fuse` / `@cupyx.jit.rawkernel`, `jax.jit` / `jax.pmap` results,
 *       `torch.compile` results), timed regions (two consecutive clock reads or CUDA event records
 *       (`torch.cuda.Event`, `cp.cuda.Event`) of one function, the second in the block of the
 *       first's statement, after it), and whether a call before the region warmed the callable up.
 * Not: whether the region synchronizes (unsynchronized_timer.c), reporting (checks.c).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "parse/parse.h"

#define QNAME_CAP 256
#define MAX_JIT_TYPES 16

typedef struct jtype {
  uint16_t type;
  uint16_t library;     /* the model file of its maker (its "warm-up" is the fix) */
} jtype;

typedef struct site {
  TSNode call, name;    /* the call, and the callable's name in it */
  uint16_t type;
  uint32_t scope;       /* index into scopes */
} site;

typedef struct wstate {
  const gl_check_ctx *ctx;
  jtype types[MAX_JIT_TYPES];
  size_t ntypes;
  uint16_t ev_types[2];  /* torch.cuda.Event, cupy.cuda.Event: their record() marks time too */
  size_t nev;
  gl_check__nodes scopes;     /* [0] the module, then every def and lambda */
  gl_vec(site) jits;     /* calls and launches of JIT callables */
  gl_vec(site) uses;     /* every other mention of one (`k.forall(n)(...)`, passed along) */
  gl_vec(site) timers;
  gl_vec(site) locals;  /* `name = <maker>(...)` in a function: a binding of that function */
  gl_check__nodes chain;
} wstate;


static const jtype *jit_type(const wstate *st, uint16_t t) {
  for (size_t i = 0; t != GL_TYPE_NONE && i < st->ntypes; i++)
    if (st->types[i].type == t) return &st->types[i];
  return NULL;
}

static void learn(wstate *st, uint16_t t, uint16_t library) {
  if (t == GL_TYPE_NONE || jit_type(st, t) || st->ntypes == MAX_JIT_TYPES) return;
  st->types[st->ntypes++] = (jtype){t, library};
}

/* The maker an expression names (`cuda.jit`, or the callee of `cuda.jit(...)`): a function
 * whose model entry has the jit role; NULL otherwise. */
static const gl_api_entry *maker_of(const gl_model *m, TSNode e) {
  char q[QNAME_CAP];
  if (GL_IS(e, call)) e = gl_parse_child(e, "function", 8);
  if (ts_node_is_null(e) || !gl_model_resolve(m, e, q, sizeof q)) return NULL;
  const gl_api_entry *en = gl_libmodels_function(gl_model_libmodels(m), q, strlen(q));
  return en && (en->roles & GL_ROLE_JIT) ? en : NULL;
}

/* A check gets type ids but no type names: learn the ids of the JIT callables' types from the
 * makers this file calls (`cp.RawKernel(...)`) and the defs it decorates (`@cuda.jit`). */
static void learn_event(wstate *st, TSNode call) {
  const gl_api_entry *e = gl_model_call_entry(st->ctx->model, call);
  if (!e || !(e->roles & GL_ROLE_EVENT)) return;
  uint16_t t = gl_model_type(st->ctx->model, call);
  for (size_t i = 0; i < st->nev; i++)
    if (st->ev_types[i] == t) return;
  if (t != GL_TYPE_NONE && st->nev < 2) st->ev_types[st->nev++] = t;
}

/* True for a clock read (timer role) or `event.record()` of a CUDA event. */
static bool marks_time(const wstate *st, TSNode call) {
  if (gl_model_roles(st->ctx->model, call) & GL_ROLE_TIMER) return true;
  TSNode recv;
  if (!gl_check__method(st->ctx->src, call, "record", &recv)) return false;
  uint16_t t = gl_model_type(st->ctx->model, recv);
  for (size_t i = 0; t != GL_TYPE_NONE && i < st->nev; i++)
    if (st->ev_types[i] == t) return true;
  return false;
}

static void learn_types(wstate *st, TSNode n) {
  const gl_model *m = st->ctx->model;
  if (GL_IS(n, call)) {
    const gl_api_entry *mk = maker_of(m, n);
    if (mk) learn(st, gl_model_type(m, n), mk->library);
    learn_event(st, n);
    return;
  }
  if (!GL_IS(n, decorated_definition)) return;
  TSNode def = gl_parse_child(n, "definition", 10);
  TSNode name = ts_node_is_null(def) ? def : gl_parse_child(def, "name", 4);
  if (ts_node_is_null(name)) return;
  uint32_t k = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < k; i++) {
    TSNode d = ts_node_named_child(n, i);
    if (!gl_parse_type_is(d, "decorator") || ts_node_named_child_count(d) == 0) continue;
    const gl_api_entry *mk = maker_of(m, ts_node_named_child(d, 0));
    if (mk) learn(st, gl_model_type(m, name), mk->library);
  }
}

/* The callable's name when call calls or launches a name: `f(...)`, `k[g, b](...)`,
 * `wp.launch(k, ...)` / `wp.launch(kernel=k, ...)`; a null node otherwise. */
static TSNode called_name(const wstate *st, TSNode call) {
  TSNode none = {0}, fn = gl_parse_child(call, "function", 8);
  if (ts_node_is_null(fn)) return none;
  if (GL_IS(fn, identifier)) return fn;
  if (GL_IS(fn, subscript)) {
    TSNode v = gl_parse_child(fn, "value", 5);
    return !ts_node_is_null(v) && GL_IS(v, identifier) ? v : none;
  }
  const gl_api_entry *e = gl_model_call_entry(st->ctx->model, call);
  if (!e || !(e->roles & GL_ROLE_LAUNCH)) return none;
  TSNode k = gl_check__arg(call, 0);
  if (ts_node_is_null(k)) k = gl_check__kwarg(st->ctx->src, call, "kernel");
  return !ts_node_is_null(k) && GL_IS(k, identifier) ? k : none;
}

static void collect_scopes(wstate *st) {
  TSNode root = ts_tree_root_node(st->ctx->tree), n;
  gl_vec_push(&st->scopes, root);
  gl_check__walk s;
  gl_check__walk_init(&s, st->ctx->model, root);
  while (gl_check__walk_next(&s, &n)) {
    if (GL_IS(n, function_definition) || GL_IS(n, lambda)) gl_vec_push(&st->scopes, n);
    learn_types(st, n);
  }
  gl_check__walk_free(&s);
}

/* Records `name = <maker>(...)` written in function i. */
static void note_local(wstate *st, TSNode asg, uint32_t i) {
  TSNode left = gl_parse_child(asg, "left", 4);
  TSNode right = gl_parse_child(asg, "right", 5);
  if (ts_node_is_null(left) || ts_node_is_null(right) || !GL_IS(left, identifier)) return;
  if (!GL_IS(right, call) || !maker_of(st->ctx->model, right)) return;
  *gl_vec_grow(&st->locals) = (site){asg, left, GL_TYPE_NONE, i};
}

/* Lists the clock reads and JIT calls of scope i, in source order, its nested scopes left out. */
static void collect_sites(wstate *st, uint32_t i) {
  TSNode scope = st->scopes.data[i], n;
  const gl_model *m = st->ctx->model;
  gl_check__walk s;
  gl_check__walk_init(&s, st->ctx->model, scope);
  TSNode target = {0};   /* the binding the node after an assignment or def is */
  while (gl_check__walk_next(&s, &n)) {
    if (!ts_node_eq(n, scope) && (gl_parse_opens_scope(n))) {
      gl_check__walk_skip(&s);
      continue;
    }
    bool bound = !ts_node_is_null(target) && ts_node_eq(n, target);
    target = (TSNode){0};
    if (GL_IS(n, assignment)) target = gl_parse_child(n, "left", 4);
    if (GL_IS(n, function_definition)) target = gl_parse_child(n, "name", 4);
    if (i > 0 && GL_IS(n, assignment)) note_local(st, n, i);
    if (GL_IS(n, identifier) && !bound && jit_type(st, gl_model_type(m, n)))
      *gl_vec_grow(&st->uses) = (site){n, n, gl_model_type(m, n), i};
    if (!GL_IS(n, call)) continue;
    if (marks_time(st, n)) *gl_vec_grow(&st->timers) = (site){n, n, 0, i};
    TSNode name = called_name(st, n);
    if (ts_node_is_null(name)) continue;
    uint16_t t = gl_model_type(m, name);
    if (jit_type(st, t)) *gl_vec_grow(&st->jits) = (site){n, name, t, i};
  }
  gl_check__walk_free(&s);
}

/* True when t2 closes a region opened by t1: t2 lies in the block holding t1's statement, after
 * that statement; the region does not repeat in a loop, and neither does its end: a clock read
 * in a loop the start is not in is a periodic log (steps per second every N steps), whose first
 * window holding the compilation is not a benchmark's figure. */
static bool region_ok(wstate *st, const site *t1, const site *t2) {
  if (gl_model_in_loop(st->ctx->model, t1->call) || gl_model_in_loop(st->ctx->model, t2->call))
    return false;
  if (!gl_check__ancestors(st->ctx->model, t1->call, &st->chain)) return false;
  for (size_t k = st->chain.len - 1; k > 0; k--) {
    TSNode p = st->chain.data[k - 1], stmt = st->chain.data[k];
    if (!GL_IS(p, block) && !GL_IS(p, module)) continue;
    uint32_t b = ts_node_start_byte(t2->call);
    return b >= ts_node_end_byte(stmt) && ts_node_end_byte(t2->call) <= ts_node_end_byte(p);
  }
  return false;
}

static bool same_callable(const wstate *st, const site *a, const site *b) {
  return a->type == b->type && gl_check__same_text(st->ctx->src, a->name, b->name);
}

/* True when c's callable is a local of c's function (made there by a maker call). */
static bool is_local(const wstate *st, const site *c) {
  for (size_t i = 0; i < st->locals.len; i++) {
    const site *l = &st->locals.data[i];
    if (l->scope == c->scope && gl_check__same_text(st->ctx->src, l->name, c->name)) return true;
  }
  return false;
}

/* True when scope i lies inside scope j. */
static bool nested_in(const wstate *st, uint32_t i, uint32_t j) {
  TSNode a = st->scopes.data[i], b = st->scopes.data[j];
  return ts_node_start_byte(a) >= ts_node_start_byte(b) && ts_node_end_byte(a) <= ts_node_end_byte(b);
}

/* True when the first call c of its callable in a region is cold: no mention of the callable
 * before it in its function (a call, a launch, `k.forall(n)`, passing it to a warm-up helper),
 * and none in another function or at another level (their order is unknown); a callable made
 * in c's own function is another object in other functions. Bindings are not mentions. */
static bool cold(const wstate *st, const site *c) {
  bool local = is_local(st, c);
  for (size_t i = 0; i < st->uses.len; i++) {
    const site *o = &st->uses.data[i];
    if (ts_node_eq(o->name, c->name) || !same_callable(st, o, c)) continue;
    if (o->scope != c->scope && local && !nested_in(st, o->scope, c->scope)) continue;
    if (o->scope != c->scope) return false;
    if (ts_node_start_byte(o->name) < ts_node_start_byte(c->name)) return false;
  }
  return true;
}

/* The fix: the maker's library's "warm-up" (its model). */
static const char *warm_up(const wstate *st, const jtype *jt) {
  const char *w = gl_libmodels_text(gl_model_libmodels(st->ctx->model), jt->library, GL_LM_WARM_UP);
  return w ? w : "call it once before the timer starts";
}

static void report(const wstate *st, const site *c, const site *t1, const site *t2) {
  const jtype *jt = jit_type(st, c->type);
  const gl_source *src = st->ctx->src;
  uint32_t a = ts_node_start_byte(c->name), b = ts_node_end_byte(c->name);
  int len = (int)(b - a > 60 ? 60 : b - a);
  char msg[640];
  snprintf(msg, sizeof msg,
           "the first call of `%.*s` is timed, so the measurement includes compilation: %s",
           len, src->bytes + a, warm_up(st, jt));
  const TSNode rel[2] = {t1->call, t2->call};
  const char *const rel_msg[2] = {"the timer starts here", "and stops here"};
  gl_check_report_related(st->ctx, c->call, msg, rel, rel_msg, 2);
}

/* The index of the first JIT call at or after (scope, byte): jits are in scope order, then in
 * source order. */
static size_t first_jit(const wstate *st, uint32_t scope, uint32_t byte) {
  size_t lo = 0, hi = st->jits.len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const site *s = &st->jits.data[mid];
    bool before = s->scope < scope || (s->scope == scope && ts_node_start_byte(s->call) < byte);
    if (before)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* True when the bytes [a, b) of src mention word, ASCII case ignored. */
static bool mentions_word(const gl_source *src, uint32_t a, uint32_t b, const char *word) {
  size_t n = strlen(word);
  for (uint32_t i = a; i + n <= b; i++) {
    size_t k = 0;
    while (k < n && (src->bytes[i + k] | 0x20) == word[k]) k++;
    if (k == n) return true;
  }
  return false;
}

/* True when the statement that reads the closing clock says it times the compilation or the
 * warm-up on purpose (`compile_s = time.time() - t0`, `print("warm-up took", ...)`). */
static bool timed_on_purpose(wstate *st, const site *t2) {
  if (!gl_check__ancestors(st->ctx->model, t2->call, &st->chain)) return false;
  for (size_t k = st->chain.len - 1; k > 0; k--) {
    TSNode p = st->chain.data[k - 1], stmt = st->chain.data[k];
    if (!GL_IS(p, block) && !GL_IS(p, module)) continue;
    uint32_t a = ts_node_start_byte(stmt), b = ts_node_end_byte(stmt);
    return mentions_word(st->ctx->src, a, b, "compil") || mentions_word(st->ctx->src, a, b, "warm");
  }
  return false;
}

static void check_region(wstate *st, const site *t1, const site *t2) {
  if (timed_on_purpose(st, t2)) return;
  uint32_t from = ts_node_end_byte(t1->call), to = ts_node_start_byte(t2->call);
  size_t begin = first_jit(st, t1->scope, from);
  for (size_t i = begin; i < st->jits.len; i++) {
    const site *c = &st->jits.data[i];
    if (c->scope != t1->scope || ts_node_start_byte(c->call) >= to) break;
    bool first = true;
    for (size_t j = begin; j < i && first; j++) {
      const site *o = &st->jits.data[j];
      first = !(o->scope == c->scope && ts_node_start_byte(o->call) >= from &&
                same_callable(st, o, c));
    }
    if (first && cold(st, c)) report(st, c, t1, t2);
  }
}

/* False when src cannot call a maker: a name resolves to a maker (a function with the jit role)
 * only where the maker's last component is written (`@cuda.jit`, `from cupy import RawKernel as
 * RK`), so a file without any of them learns no JIT type and the whole-file scan is skipped. */
static bool may_call_maker(const gl_check_ctx *ctx) {
  const gl_libmodels *lm = gl_model_libmodels(ctx->model);
  for (size_t i = 0; i < gl_libmodels_entry_count(lm); i++) {
    const gl_api_entry *e;
    const char *name = gl_libmodels_function_at(lm, i, &e);
    if (!name || !(e->roles & GL_ROLE_JIT)) continue;
    const char *last = strrchr(name, '.');
    if (gl_source_has(ctx->src, last ? last + 1 : name)) return true;
  }
  return false;
}

/* The first call of a JIT-compiled callable between two clock reads (or CUDA event records) of
 * one function, with no call of it before the region. */
void gl_check_benchmark_without_warmup(const gl_check_ctx *ctx) {
  if (!ctx->model || !may_call_maker(ctx)) return;
  wstate st = {.ctx = ctx};
  collect_scopes(&st);
  if (st.ntypes > 0) {
    for (uint32_t i = 0; i < st.scopes.len; i++) collect_sites(&st, i);
    for (size_t i = 0; i + 1 < st.timers.len; i++) {
      const site *t1 = &st.timers.data[i], *t2 = &st.timers.data[i + 1];
      if (t1->scope == t2->scope && region_ok(&st, t1, t2)) check_region(&st, t1, t2);
    }
  }
  gl_vec_free(&st.scopes);
  gl_vec_free(&st.jits);
  gl_vec_free(&st.uses);
  gl_vec_free(&st.timers);
  gl_vec_free(&st.locals);
  gl_vec_free(&st.chain);
}
