/* syncthreads_in_divergent_branch.c: the syncthreads-in-divergent-branch check (GPU802).
 * Owns: which names of a kernel depend on the thread index (bound, directly or through other
 *       such names, from `cuda.threadIdx`, `cuda.grid()`, `cuda.laneid` or data indexed by
 *       them), which branches diverge (an if / elif / while condition or a for iterable that
 *       reads one of them), and the barriers (`cuda.syncthreads()` and its _count / _and / _or
 *       forms, `cupyx.jit.syncthreads()`, `g.sync()` on `cuda.cg.this_grid()`) inside such a
 *       branch; the facts a top-level early exit establishes (`if gid >= size: return` makes a
 *       later `if gid < size:` uniform among the threads still running).
 * Not: finding kernels (kernel_scan.c), barriers after an early return (not reported: see the
 *      pack README), reporting (checks.c).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/kernel-correctness/kernel_scan.h"
#include "checks/node.h"
#include "parse/parse.h"

#define QNAME_CAP 256
#define MSG_CAP 512

typedef struct bind {
  TSNode target, value;  /* a binding target and the expression it is bound from */
} bind;

typedef struct branch {
  TSNode cond;           /* the condition or iterable */
  uint32_t from, to;     /* the code that runs only for some threads */
} branch;

/* After a top-level `if lhs op' rhs: return`, `lhs op rhs` holds for every thread still running
 * (op is op' negated). */
typedef struct fact {
  TSNode lhs, rhs;
  const char *op;
  uint32_t guard, from;  /* the guard's start; the fact holds from the end of its if statement */
} fact;

typedef struct sstate {
  const gl_check_ctx *ctx;
  const gl_kernel *k;
  gl_vec(bind) binds;
  gl_vec(branch) branches;
  gl_vec(fact) facts;
  gl_check__nodes syncs;
  gl_check__nodes deps;        /* identifiers that depend on the thread index */
  gl_check__nodes grids;       /* names bound to `cuda.cg.this_grid()` */
  gl_check__nodes names;       /* scratch: the names of one binding target */
} sstate;

static bool is_this_grid(const sstate *st, TSNode e) {
  char q[QNAME_CAP];
  return gl_check__callee(st->ctx->model, e, q, sizeof q) &&
         gl_kernel_api_is(st->k->lib, q, "cg.this_grid");
}

/* `g.sync()` on a grid group: `cuda.cg.this_grid().sync()` or a name bound to this_grid(). */
static bool is_grid_sync(const sstate *st, TSNode call) {
  TSNode recv;
  if (!gl_check__method(st->ctx->src, call, "sync", &recv)) return false;
  if (is_this_grid(st, recv)) return true;
  for (size_t i = 0; GL_IS(recv, identifier) && i < st->grids.len; i++)
    if (gl_check__same_text(st->ctx->src, st->grids.data[i], recv)) return true;
  return false;
}

static bool is_barrier(const sstate *st, TSNode call) {
  char q[QNAME_CAP];
  if (is_grid_sync(st, call)) return true;
  if (!gl_check__callee(st->ctx->model, call, q, sizeof q)) return false;
  const char *lib = st->k->lib;
  return gl_kernel_api_is(lib, q, "syncthreads") || gl_kernel_api_is(lib, q, "syncthreads_count") ||
         gl_kernel_api_is(lib, q, "syncthreads_and") || gl_kernel_api_is(lib, q, "syncthreads_or");
}

/* True when e reads the thread index: threadIdx, laneid, grid(), or a dependent name. Field
 * names of attributes and keyword names are not reads. */
static bool depends(const sstate *st, TSNode e) {
  const gl_model *m = st->ctx->model;
  const char *lib = st->k->lib;
  char q[QNAME_CAP];
  gl_check__walk s;
  gl_check__walk_init(&s, st->ctx->model, e);
  TSNode n;
  bool dep = false;
  while (!dep && gl_check__walk_next(&s, &n)) {
    if (gl_parse_opens_scope(n)) {
      gl_check__walk_skip(&s);
      continue;
    }
    if (GL_IS(n, attribute)) {
      dep = gl_kernel_names_api(m, lib, n, "threadIdx") || gl_kernel_names_api(m, lib, n, "laneid");
      continue;
    }
    if (GL_IS(n, call) && gl_check__callee(m, n, q, sizeof q)) {
      dep = gl_kernel_api_is(lib, q, "grid");
      continue;
    }
    if (!GL_IS(n, identifier)) continue;
    const char *field = gl_check__walk_field(&s);
    if (field && (strcmp(field, "attribute") == 0 || strcmp(field, "name") == 0)) continue;
    dep = gl_check__has_text(st->ctx->src, &st->deps, n);
  }
  gl_check__walk_free(&s);
  return dep;
}

static void add_bind_targets(sstate *st, TSNode t, TSNode value) {
  if (ts_node_is_null(t) || ts_node_is_null(value)) return;
  st->names.len = 0;
  gl_kernel_target_names(t, &st->names);
  for (size_t i = 0; i < st->names.len; i++)
    gl_vec_push(&st->binds, ((bind){st->names.data[i], value}));
}

static void note_if(sstate *st, TSNode n) {
  TSNode cond = gl_parse_child(n, "condition", 9);
  if (ts_node_is_null(cond)) return;
  gl_vec_push(&st->branches, ((branch){cond, ts_node_end_byte(cond), ts_node_end_byte(n)}));
  if (!gl_parse_type_is(n, "if_statement")) return;
  /* an elif / else runs for the threads whose earlier conditions failed: it diverges with them,
   * so each elif condition covers the rest of the whole statement */
  uint32_t k = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < k; i++) {
    TSNode c = ts_node_named_child(n, i);
    TSNode ec = GL_IS(c, elif_clause) ? gl_parse_child(c, "condition", 9) : c;
    if (!GL_IS(c, elif_clause) || ts_node_is_null(ec)) continue;
    gl_vec_push(&st->branches, ((branch){ec, ts_node_end_byte(ec), ts_node_end_byte(n)}));
  }
}

static void visit(TSNode n, gl_check__walk *s, void *data) {
  sstate *st = data;
  (void)s;
  const char *t = ts_node_type(n);
  if (strcmp(t, "assignment") == 0 || strcmp(t, "augmented_assignment") == 0) {
    TSNode l = gl_parse_child(n, "left", 4);
    TSNode r = gl_parse_child(n, "right", 5);
    add_bind_targets(st, l, r);
    if (!ts_node_is_null(l) && GL_IS(l, identifier) && !ts_node_is_null(r) &&
        is_this_grid(st, r))
      gl_vec_push(&st->grids, l);
  } else if (strcmp(t, "named_expression") == 0) {
    add_bind_targets(st, gl_parse_child(n, "name", 4),
                     gl_parse_child(n, "value", 5));
  } else if (strcmp(t, "for_statement") == 0) {
    TSNode it = gl_parse_child(n, "right", 5);
    add_bind_targets(st, gl_parse_child(n, "left", 4), it);
    if (!ts_node_is_null(it))
      gl_vec_push(&st->branches, ((branch){it, ts_node_end_byte(it), ts_node_end_byte(n)}));
  } else if (strcmp(t, "if_statement") == 0 || strcmp(t, "while_statement") == 0) {
    note_if(st, n);
  } else if (strcmp(t, "call") == 0 && is_barrier(st, n)) {
    gl_vec_push(&st->syncs, n);
  }
}

/* Grows deps to a fixed point: a name bound from a dependent value is dependent. */
static void close_deps(sstate *st) {
  bool grew = true;
  while (grew) {
    grew = false;
    for (size_t i = 0; i < st->binds.len; i++) {
      const bind *b = &st->binds.data[i];
      if (gl_check__has_text(st->ctx->src, &st->deps, b->target) || !depends(st, b->value))
        continue;
      gl_vec_push(&st->deps, b->target);
      grew = true;
    }
  }
}

/* The comparison operators and their negations, and the same comparison with its sides swapped
 * (`i < n` is `n > i`). */
static const char *const cmp_ops[][3] = {
    {"<", ">=", ">"}, {"<=", ">", ">="}, {">", "<=", "<"},
    {">=", "<", "<="}, {"==", "!=", "=="}, {"!=", "==", "!="},
};

static int cmp_index(const char *op) {
  for (int i = 0; i < (int)(sizeof cmp_ops / sizeof cmp_ops[0]); i++)
    if (strcmp(cmp_ops[i][0], op) == 0) return i;
  return -1;
}

static TSNode unparen(TSNode e) {
  while (GL_IS(e, parenthesized_expression) && ts_node_named_child_count(e) == 1)
    e = ts_node_named_child(e, 0);
  return e;
}

/* A two-operand comparison with one of the six operators: fills its sides and operator index. */
static bool simple_cmp(TSNode e, TSNode *lhs, TSNode *rhs, int *op) {
  if (!GL_IS(e, comparison_operator) || ts_node_child_count(e) != 3 ||
      ts_node_named_child_count(e) != 2)
    return false;
  *op = cmp_index(ts_node_type(ts_node_child(e, 1)));
  *lhs = ts_node_named_child(e, 0);
  *rhs = ts_node_named_child(e, 1);
  return *op >= 0;
}

/* An operand whose value cannot change while the names it reads keep their binding: no call but
 * `len(...)`, no assignment expression, no nested scope. */
static bool stable_operand(const sstate *st, TSNode e) {
  gl_check__walk s;
  gl_check__walk_init(&s, st->ctx->model, e);
  TSNode n;
  bool ok = true;
  while (ok && gl_check__walk_next(&s, &n)) {
    if (gl_parse_opens_scope(n) || gl_parse_type_is(n, "named_expression") ||
        gl_parse_type_is(n, "await"))
      ok = false;
    else if (GL_IS(n, call))
      ok = gl_check__text_is(st->ctx->src, gl_parse_child(n, "function", 8), "len");
  }
  gl_check__walk_free(&s);
  return ok;
}

/* True when no name that e reads is bound at or after byte `after` (so its value is the one the
 * guard compared). */
static bool not_rebound(const sstate *st, TSNode e, uint32_t after) {
  gl_check__walk s;
  gl_check__walk_init(&s, st->ctx->model, e);
  TSNode n;
  bool ok = true;
  while (ok && gl_check__walk_next(&s, &n)) {
    if (!GL_IS(n, identifier)) continue;
    const char *field = gl_check__walk_field(&s);
    if (field && strcmp(field, "attribute") == 0) continue;
    for (size_t i = 0; ok && i < st->binds.len; i++)
      ok = ts_node_start_byte(st->binds.data[i].target) < after ||
           !gl_check__same_text(st->ctx->src, st->binds.data[i].target, n);
  }
  gl_check__walk_free(&s);
  return ok;
}

/* Records what `if cond: return` establishes: each comparison of an `or`, negated. */
static void add_facts(sstate *st, TSNode cond, uint32_t guard, uint32_t from) {
  cond = unparen(cond);
  TSNode op = gl_parse_child(cond, "operator", 8);
  if (gl_parse_type_is(cond, "boolean_operator") && !ts_node_is_null(op) &&
      gl_parse_type_is(op, "or")) {
    add_facts(st, gl_parse_child(cond, "left", 4), guard, from);
    add_facts(st, gl_parse_child(cond, "right", 5), guard, from);
    return;
  }
  TSNode l, r;
  int k;
  if (!simple_cmp(cond, &l, &r, &k) || !stable_operand(st, l) || !stable_operand(st, r)) return;
  gl_vec_push(&st->facts, ((fact){l, r, cmp_ops[k][1], guard, from}));
}

/* The early exits among the kernel body's own statements (not nested in another branch). */
static void note_exits(sstate *st) {
  TSNode body = gl_parse_child(st->k->def, "body", 4);
  uint32_t n = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(body, i);
    if (!gl_parse_type_is(c, "if_statement")) continue;
    TSNode cond = gl_parse_child(c, "condition", 9);
    TSNode then = gl_parse_child(c, "consequence", 11);
    if (ts_node_is_null(cond) || ts_node_is_null(then)) continue;
    uint32_t k = ts_node_named_child_count(then);
    for (uint32_t j = 0; j < k; j++)
      if (GL_IS(ts_node_named_child(then, j), return_statement)) {
        add_facts(st, cond, ts_node_start_byte(c), ts_node_end_byte(c));
        break;
      }
  }
}

static bool fact_gives(const sstate *st, const fact *f, TSNode l, TSNode r, int k) {
  const gl_source *src = st->ctx->src;
  if (gl_check__same_text(src, f->lhs, l) && gl_check__same_text(src, f->rhs, r))
    return strcmp(f->op, cmp_ops[k][0]) == 0;
  if (gl_check__same_text(src, f->lhs, r) && gl_check__same_text(src, f->rhs, l))
    return strcmp(f->op, cmp_ops[k][2]) == 0;
  return false;
}

/* True when cond (a comparison, or an `and` of them) is always true where it stands: an earlier
 * early exit of the kernel body negated it, and the names it reads have not been rebound. */
static bool implied(const sstate *st, TSNode cond) {
  cond = unparen(cond);
  TSNode op = gl_parse_child(cond, "operator", 8);
  if (gl_parse_type_is(cond, "boolean_operator") && !ts_node_is_null(op) &&
      gl_parse_type_is(op, "and"))
    return implied(st, gl_parse_child(cond, "left", 4)) &&
           implied(st, gl_parse_child(cond, "right", 5));
  TSNode l, r;
  int k;
  if (!simple_cmp(cond, &l, &r, &k)) return false;
  for (size_t i = 0; i < st->facts.len; i++) {
    const fact *f = &st->facts.data[i];
    if (f->from <= ts_node_start_byte(cond) && fact_gives(st, f, l, r, k) &&
        not_rebound(st, l, f->guard) && not_rebound(st, r, f->guard))
      return true;
  }
  return false;
}

/* Reports each barrier once, citing the innermost enclosing branch that diverges. */
static void report(sstate *st) {
  const gl_source *src = st->ctx->src;
  char msg[MSG_CAP], where[64];
  for (size_t i = 0; i < st->syncs.len; i++) {
    TSNode call = st->syncs.data[i];
    uint32_t at = ts_node_start_byte(call);
    const branch *b = NULL;
    for (size_t j = 0; j < st->branches.len; j++) {
      const branch *c = &st->branches.data[j];
      if (at < c->from || at >= c->to || (b && c->from <= b->from)) continue;
      if (depends(st, c->cond) && !implied(st, c->cond)) b = c;
    }
    if (!b) continue;
    TSNode fn = gl_parse_child(call, "function", 8);
    int fl = (int)(ts_node_end_byte(fn) - ts_node_start_byte(fn));
    int cl = (int)(ts_node_end_byte(b->cond) - ts_node_start_byte(b->cond));
    gl_check_line_label(st->ctx, ts_node_start_byte(b->cond), where, sizeof where);
    snprintf(msg, sizeof msg,
             "`%.*s()` is reached only by the threads for which `%.*s` (%s) holds, and that "
             "depends on the thread index: the threads that skip the barrier never arrive, "
             "which deadlocks or corrupts shared memory; move the barrier where every thread "
             "of the block reaches it",
             fl > 80 ? 80 : fl, src->bytes + ts_node_start_byte(fn), cl > 80 ? 80 : cl,
             src->bytes + ts_node_start_byte(b->cond), where);
    const char *rel = "the condition that depends on the thread index";
    gl_check_report_related(st->ctx, call, msg, &b->cond, &rel, 1);
  }
}

static void check_kernel(const gl_kernel *k, void *data) {
  sstate *st = data;
  st->k = k;
  st->binds.len = st->branches.len = st->syncs.len = st->deps.len = st->grids.len = 0;
  st->facts.len = 0;
  if (!gl_check__body_each(st->ctx->model, k->def, visit, st)) return;
  if (st->syncs.len == 0) return;
  close_deps(st);
  note_exits(st);
  report(st);
}

/* `cuda.syncthreads()` (and its _count / _and / _or forms, and grid syncs) inside an if /
 * while / for whose condition or iterable depends on the thread index. */
void gl_check_syncthreads_in_divergent_branch(const gl_check_ctx *ctx) {
  sstate st = {.ctx = ctx};
  gl_kernel_each(ctx->model, ctx->src, ctx->tree,
                 (1u << GL_K_NUMBA) | (1u << GL_K_NUMBA_DEVICE) | (1u << GL_K_CUPYX),
                 check_kernel, &st);
  gl_vec_free(&st.binds);
  gl_vec_free(&st.branches);
  gl_vec_free(&st.facts);
  gl_vec_free(&st.syncs);
  gl_vec_free(&st.deps);
  gl_vec_free(&st.grids);
  gl_vec_free(&st.names);
}
