/* model_flow.c: the value of each name during the provenance walk.
 * Owns: one cell per names entry (its value now) and its summary for free variables (the value
 *       every binding agrees on, or the accelerator a CUDA and a CPU binding select, else
 *       unknown), reads of identifiers (local: the cell; free: the
 *       summary, without from-device), binding targets (element-wise tuple unpacking, mutation of
 *       attribute / subscript roots, `del`), the undo log, the joins of branches at the end of
 *       if / try / with / match blocks and loops, and the loop-head fixpoint test.
 * Not: the order of the walk (model_prov.c), expression values (model_eval.c), the loop table
 *      (model_loop.c).
 * Threads: runs inside gl_model_build on one worker. */
#include "model/model_prov.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

enum { SUM_NONE = 0, SUM_SET = 1, SUM_MIXED = 2 };

void gl_prov__flow_init(gl_prov_pass *pp) {
  const gl_model__names *n = &pp->m->names;
  size_t ne = n->entries.len ? n->entries.len : 1;
  pp->cur = gl_xmalloc(ne * sizeof(*pp->cur));
  pp->sum = gl_xmalloc(ne * sizeof(*pp->sum));
  for (size_t i = 0; i < ne; i++) {
    pp->cur[i] = gl_pval_unbound();
    pp->sum[i] = gl_pval_unknown();
  }
  pp->sum_state = gl_xcalloc(ne, 1);
  pp->stamp = gl_xcalloc(ne, sizeof(*pp->stamp));
  pp->acc = gl_xcalloc(ne, sizeof(*pp->acc));
  pp->cnt = gl_xcalloc(ne, sizeof(*pp->cnt));
  pp->owner = gl_xmalloc(n->scopes.len * sizeof(*pp->owner));
  /* A scope's parent is created before it, so one pass in order fills every owner. */
  for (size_t s = 0; s < n->scopes.len; s++) {
    const gl_model__scope *sc = &n->scopes.data[s];
    bool own = sc->kind == GL_SCOPE_MODULE || sc->kind == GL_SCOPE_FUNCTION;
    pp->owner[s] = own ? (uint32_t)s : pp->owner[sc->parent];
  }
}

void gl_prov__flow_free(gl_prov_pass *pp) {
  free(pp->cur);
  free(pp->sum);
  free(pp->sum_state);
  free(pp->stamp);
  free(pp->acc);
  free(pp->cnt);
  free(pp->owner);
  gl_vec_free(&pp->log);
  gl_vec_free(&pp->res);
  gl_vec_free(&pp->targets);
  gl_vec_free(&pp->ta);
  gl_vec_free(&pp->sa);
}

static uint32_t next_token(gl_prov_pass *pp) {
  if (++pp->token == 0) {   /* wrapped: forget every stamp */
    memset(pp->stamp, 0, (pp->m->names.entries.len ? pp->m->names.entries.len : 1) * sizeof(uint32_t));
    pp->token = 1;
  }
  return pp->token;
}

/* ---- cells ----------------------------------------------------------------------------------- */

gl_pval gl_prov__read(gl_prov_pass *pp, uint32_t i, uint8_t *extra) {
  const gl_model *m = pp->m;
  size_t len;
  const char *s = gl_model__text(m, m->nodes.data[i].node, &len);
  uint32_t e = gl_model__entry_read(&m->names, m->nodes.data[i].scope, s, len);
  if (e == GL_MODEL__NONE) {
    *extra = GL_VAL_BUILTIN;
    return gl_pval_unknown();
  }
  const gl_model__entry *ent = &m->names.entries.data[e];
  if (ent->state == GL_STATE_IMPORT) {
    *extra = GL_VAL_QUAL;
    return gl_pval_unknown();
  }
  if (pp->owner[ent->scope] == pp->walk_owner)
    return gl_pval_is_unbound(pp->cur[e]) ? gl_pval_unknown() : pp->cur[e];
  if (pp->sum_state[e] != SUM_SET) return gl_pval_unknown();
  gl_pval v = pp->sum[e];
  v.bits &= (uint8_t)~GL_VAL_FROM_DEVICE;   /* from-device holds within one function */
  return v;
}

/* Writes a cell (undoable); fold: it is a binding, so it also enters the summary. */
static void write_cell(gl_prov_pass *pp, uint32_t e, gl_pval v, bool fold) {
  gl_pundo u = {e, pp->cur[e]};
  gl_vec_push(&pp->log, u);
  pp->cur[e] = v;
  if (!fold || pp->hypo) return;   /* a device walk's bindings are hypothetical */
  if (pp->sum_state[e] == SUM_NONE) {
    pp->sum[e] = v;
    pp->sum_state[e] = SUM_SET;
  } else if (pp->sum_state[e] == SUM_SET && !gl_pval_eq(pp->sum[e], v)) {
    /* `device = torch.device("cuda")` here and `device = torch.device("cpu")` there: the
     * accelerator the program selects, as a join at one point would say */
    gl_pval j = gl_pval_join(pp->sum[e], v);
    bool accel = (j.bits & GL_VAL_ACCEL) && ((pp->sum[e].bits | v.bits) & GL_VAL_CPU);
    if (accel) pp->sum[e] = j;
    else pp->sum_state[e] = SUM_MIXED;
  }
}

static void bind(gl_prov_pass *pp, uint32_t i, gl_pval v, uint32_t scope, bool fold) {
  const gl_model *m = pp->m;
  size_t len;
  const char *s = gl_model__text(m, m->nodes.data[i].node, &len);
  gl_prov__set(pp, i, v, 0);
  uint32_t e = gl_model__entry_bind(&m->names, scope, s, len);
  if (e == GL_MODEL__NONE) return;
  write_cell(pp, e, v, fold);
  gl_prov__summary_bound(pp, e, i);
  gl_prov__attrs_bound(pp, e, i);
  if (pp->loops.len && !pp->hypo)
    gl_model__touch_add(&pp->m->loops, pp->loops.data, pp->loops.len, e, GL_TOUCH_REBOUND,
                    GL_MODEL__NONE);
}

void gl_prov__bind_node(gl_prov_pass *pp, uint32_t i, gl_pval v, uint32_t scope) {
  if (i != GL_MODEL__NONE) bind(pp, i, v, scope, true);
}

/* ---- targets --------------------------------------------------------------------------------- */

static TSNode null_node(void) {
  TSNode n = {{0}, NULL, NULL};
  return n;
}

/* The named children of n, comments left out, into out. */
static void collect(gl_prov_pass *pp, TSNode n, gl_pnodes *out) {
  out->len = 0;
  TSTreeCursor *c = &pp->scratch;
  ts_tree_cursor_reset(c, n);
  if (!ts_tree_cursor_goto_first_child(c)) return;
  do {
    TSNode k = ts_tree_cursor_current_node(c);
    if (ts_node_is_named(k) && gl_model__kind_of(pp->m, k) != GL_K_COMMENT) gl_vec_push(out, k);
  } while (ts_tree_cursor_goto_next_sibling(c));
}

static bool is_splat(const gl_model *m, TSNode n) {
  gl_model__kind k = gl_model__kind_of(m, n);
  return k == GL_K_LIST_SPLAT || k == GL_K_LIST_SPLAT_PATTERN || k == GL_K_DICTIONARY_SPLAT;
}

static bool any_splat(const gl_model *m, const TSNode *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (is_splat(m, v[i])) return true;
  return false;
}

/* The expression a chained assignment finally assigns (`a = b = src`). */
static TSNode strip_chain(const gl_model *m, TSNode src) {
  while (!ts_node_is_null(src) && gl_model__kind_of(m, src) == GL_K_ASSIGNMENT)
    src = ts_node_child_by_field_id(src, m->f.right);
  return src;
}

static void push_target(gl_prov_pass *pp, TSNode t, TSNode src, gl_pval v) {
  gl_ptarget x = {t, src, v};
  gl_vec_push(&pp->targets, x);
}

/* A tuple / list target: element-wise against a source of the same shape, else every element
 * gets the value's provenance (and from-device) without a type. */
static void unpack(gl_prov_pass *pp, const gl_ptarget *t) {
  const gl_model *m = pp->m;
  collect(pp, t->target, &pp->ta);
  bool pair = false;
  TSNode src = strip_chain(m, t->src);
  if (!ts_node_is_null(src)) {
    gl_model__kind k = gl_model__kind_of(m, src);
    if (k == GL_K_TUPLE || k == GL_K_LIST || k == GL_K_EXPRESSION_LIST) {
      collect(pp, src, &pp->sa);
      pair = pp->sa.len == pp->ta.len && !any_splat(m, pp->ta.data, pp->ta.len) &&
             !any_splat(m, pp->sa.data, pp->sa.len);
    }
  }
  gl_pval elem = {GL_TYPE_NONE, (uint8_t)(t->v.bits & (GL_VAL_PROV | GL_VAL_FROM_DEVICE))};
  /* the parts of device data whose elements are of its own type (a tensor's rows are tensors,
   * and so are the outputs of `mu, logvar = model(x)`) keep the type */
  if (gl_pval_prov(t->v) == GL_PROV_DEVICE && t->v.type != GL_TYPE_NONE) {
    const gl_api_entry *se = gl_libmodels_subscript(pp->lm, t->v.type);
    if (se && se->type == t->v.type) elem.type = t->v.type;
  }
  elem = gl_prov__typed(pp, elem);
  for (size_t i = pp->ta.len; i-- > 0;)   /* reversed: popped in source order */
    push_target(pp, pp->ta.data[i], pair ? pp->sa.data[i] : null_node(), elem);
}

static TSNode first_named(gl_prov_pass *pp, TSNode n) {
  collect(pp, n, &pp->sa);
  return pp->sa.len ? pp->sa.data[0] : null_node();
}

/* Runs the target stack; del: names become unknown without counting as bindings. */
static void run_targets(gl_prov_pass *pp, bool walrus, bool del) {
  const gl_model *m = pp->m;
  while (pp->targets.len) {
    gl_ptarget t = pp->targets.data[--pp->targets.len];
    switch (gl_model__kind_of(m, t.target)) {
      case GL_K_IDENTIFIER: {
        uint32_t i = gl_model__index_of(m, t.target);
        if (i == GL_MODEL__NONE) break;
        TSNode src = strip_chain(m, t.src);
        gl_pval v = ts_node_is_null(src) ? t.v : gl_prov__val(pp, gl_model__index_of(m, src));
        uint32_t scope = m->nodes.data[i].scope;
        if (walrus) scope = gl_model__walrus_scope(&m->names, scope);
        if (!del && !ts_node_is_null(src)) pp->bind_cls = gl_prov__class_of(pp, gl_model__index_of(m, src));
        bind(pp, i, del ? gl_pval_unknown() : v, scope, !del);
        pp->bind_cls = GL_MODEL__NONE;
        break;
      }
      case GL_K_AS_PATTERN_TARGET: case GL_K_PARENTHESIZED_EXPRESSION:
        push_target(pp, first_named(pp, t.target), t.src, t.v); break;
      case GL_K_PATTERN_LIST: case GL_K_TUPLE_PATTERN: case GL_K_LIST_PATTERN: case GL_K_TUPLE:
      case GL_K_LIST: case GL_K_EXPRESSION_LIST:
        unpack(pp, &t); break;
      case GL_K_LIST_SPLAT_PATTERN: case GL_K_LIST_SPLAT:
        push_target(pp, first_named(pp, t.target), null_node(), gl_pval_unknown()); break;
      case GL_K_ATTRIBUTE: {
        TSNode src = strip_chain(m, t.src);
        gl_pval v = ts_node_is_null(src) ? t.v : gl_prov__val(pp, gl_model__index_of(m, src));
        uint32_t i = gl_model__index_of(m, t.target);
        uint32_t cls = del || ts_node_is_null(src) ? GL_MODEL__NONE
                       : gl_prov__class_of(pp, gl_model__index_of(m, src));
        bool none = !del && !ts_node_is_null(src) && gl_model__kind_of(m, src) == GL_K_NONE_LITERAL;
        if (i != GL_MODEL__NONE) gl_prov__attrs_store(pp, i, del ? gl_pval_unknown() : v, cls, none);
        gl_prov__touch_root(pp, t.target, GL_TOUCH_MUTATED, GL_MODEL__NONE);
        break;
      }
      case GL_K_SUBSCRIPT:
        gl_prov__touch_root(pp, t.target, GL_TOUCH_MUTATED, GL_MODEL__NONE); break;
      default:
        break;
    }
  }
}

/* ---- iteration ------------------------------------------------------------------------------- */

/* One element of v: device data for the elements of device data, typed as the file's device
 * data when v itself is an untyped container of it (`for out in outputs` over a list of
 * tensors, a device walk's `*args`); else unknown. */
static gl_pval element_of(const gl_prov_pass *pp, gl_pval v) {
  gl_pval e = gl_pval_unknown();
  if (gl_pval_prov(v) != GL_PROV_DEVICE) return e;
  e.bits = GL_PROV_DEVICE;
  return v.type == GL_TYPE_NONE ? gl_prov__typed(pp, e) : e;
}

enum { ITER_MAX_PARTS = 8, ITER_MAX_DEPTH = 4 };

/* The parts of a tuple target (`a, b`, `(a, b)`, `[a, b]`) into out (at most cap, none a splat);
 * their number, or 0 when t is no such target. */
static size_t target_parts(gl_prov_pass *pp, TSNode t, TSNode *out, size_t cap) {
  const gl_model *m = pp->m;
  while (gl_model__kind_of(m, t) == GL_K_PARENTHESIZED_EXPRESSION) t = ts_node_named_child(t, 0);
  switch (gl_model__kind_of(m, t)) {
    case GL_K_PATTERN_LIST: case GL_K_TUPLE_PATTERN: case GL_K_LIST_PATTERN: case GL_K_TUPLE:
    case GL_K_LIST: case GL_K_EXPRESSION_LIST:
      break;
    default:
      return 0;
  }
  collect(pp, t, &pp->ta);
  if (pp->ta.len > cap || any_splat(m, pp->ta.data, pp->ta.len)) return 0;
  memcpy(out, pp->ta.data, pp->ta.len * sizeof(*out));
  return pp->ta.len;
}

/* The positional arguments of call node c into out (at most cap): their number, or SIZE_MAX
 * when one is a splat or there are too many. Keyword arguments (`start=1`) are left out. */
static size_t call_args(gl_prov_pass *pp, TSNode c, TSNode *out, size_t cap) {
  const gl_model *m = pp->m;
  TSNode args = ts_node_child_by_field_id(c, m->f.arguments);
  if (gl_model__kind_of(m, args) != GL_K_ARGUMENT_LIST) return SIZE_MAX;
  collect(pp, args, &pp->sa);
  size_t n = 0;
  for (size_t i = 0; i < pp->sa.len; i++) {
    if (is_splat(m, pp->sa.data[i])) return SIZE_MAX;
    if (gl_model__kind_of(m, pp->sa.data[i]) == GL_K_KEYWORD_ARGUMENT) continue;
    if (n == cap) return SIZE_MAX;
    out[n++] = pp->sa.data[i];
  }
  return n;
}

static gl_pval node_val(const gl_prov_pass *pp, TSNode n) {
  return gl_prov__val(pp, gl_model__index_of(pp->m, n));
}

/* Pushes the targets of `for target in iter` with what each element binds: part by part for
 * `zip(a, b)`, `enumerate(a)` (an int, then an element of a), `d.items()` (an unknown key,
 * then an element of d); an element of d for `d.values()`; else an element of iter. */
static void push_iterated(gl_prov_pass *pp, TSNode target, TSNode iter, int depth) {
  const gl_model *m = pp->m;
  TSNode parts[ITER_MAX_PARTS], args[ITER_MAX_PARTS];
  if (depth < ITER_MAX_DEPTH && gl_model__kind_of(m, iter) == GL_K_CALL) {
    TSNode fn = ts_node_child_by_field_id(iter, m->f.function);
    uint32_t fi = gl_model__index_of(m, fn);
    size_t len = 0;
    const char *name = NULL;
    TSNode obj = null_node();
    if (fi != GL_MODEL__NONE && m->nodes.data[fi].kind == GL_K_IDENTIFIER &&
        (m->nodes.data[fi].val & GL_VAL_BUILTIN)) {
      name = gl_model__text(m, fn, &len);
    } else if (fi != GL_MODEL__NONE && m->nodes.data[fi].kind == GL_K_ATTRIBUTE) {
      name = gl_model__text(m, ts_node_child_by_field_id(fn, m->f.attribute), &len);
      obj = ts_node_child_by_field_id(fn, m->f.object);
    }
    size_t nargs = name ? call_args(pp, iter, args, ITER_MAX_PARTS) : SIZE_MAX;
    size_t nparts = nargs != SIZE_MAX ? target_parts(pp, target, parts, ITER_MAX_PARTS) : 0;
    bool is_obj = !ts_node_is_null(obj);
    if (!is_obj && len == 3 && !memcmp(name, "zip", 3) && nparts && nparts == nargs) {
      for (size_t i = nparts; i-- > 0;) push_iterated(pp, parts[i], args[i], depth + 1);
      return;
    }
    if (!is_obj && len == 9 && !memcmp(name, "enumerate", 9) && nargs == 1 && nparts == 2) {
      TSNode a0 = args[0];
      push_iterated(pp, parts[1], a0, depth + 1);
      push_target(pp, parts[0], null_node(), (gl_pval){GL_TYPE_NONE, GL_PROV_HOST});
      return;
    }
    if (is_obj && len == 5 && !memcmp(name, "items", 5) && nargs == 0 && nparts == 2) {
      push_target(pp, parts[1], null_node(), element_of(pp, node_val(pp, obj)));
      push_target(pp, parts[0], null_node(), gl_pval_unknown());
      return;
    }
    if (is_obj && len == 6 && !memcmp(name, "values", 6) && nargs == 0) {
      push_target(pp, target, null_node(), element_of(pp, node_val(pp, obj)));
      return;
    }
  }
  push_target(pp, target, null_node(), element_of(pp, node_val(pp, iter)));
}

void gl_prov__iterate(gl_prov_pass *pp, TSNode target, uint32_t iter) {
  if (ts_node_is_null(target)) return;
  pp->targets.len = 0;
  if (iter == GL_MODEL__NONE) push_target(pp, target, null_node(), gl_pval_unknown());
  else push_iterated(pp, target, pp->m->nodes.data[iter].node, 0);
  run_targets(pp, false, false);
}

void gl_prov__assign(gl_prov_pass *pp, TSNode target, TSNode src, gl_pval v, bool walrus) {
  if (ts_node_is_null(target)) return;
  pp->targets.len = 0;
  push_target(pp, target, src, v);
  run_targets(pp, walrus, false);
}

void gl_prov__delete(gl_prov_pass *pp, TSNode target) {
  pp->targets.len = 0;
  push_target(pp, target, null_node(), gl_pval_unknown());
  run_targets(pp, false, true);
}

void gl_prov__touch_root(gl_prov_pass *pp, TSNode n, uint8_t flags, uint32_t call) {
  if (!pp->loops.len || pp->hypo) return;
  const gl_model *m = pp->m;
  for (;;) {
    gl_model__kind k = gl_model__kind_of(m, n);
    if (k == GL_K_ATTRIBUTE) n = ts_node_child_by_field_id(n, m->f.object);
    else if (k == GL_K_SUBSCRIPT) n = ts_node_child_by_field_id(n, m->f.value);
    else if (k == GL_K_LIST_SPLAT) n = ts_node_named_child(n, 0);
    else break;
  }
  if (gl_model__kind_of(m, n) != GL_K_IDENTIFIER) return;
  uint32_t i = gl_model__index_of(m, n);
  if (i == GL_MODEL__NONE) return;
  const gl_model__rec *r = &m->nodes.data[i];
  if ((r->flags & GL_REC_NOT_NAME) || (r->val & GL_VAL_QUAL)) return;
  size_t len;
  const char *s = gl_model__text(m, n, &len);
  uint32_t e = gl_model__entry_read(&m->names, r->scope, s, len);
  if (e != GL_MODEL__NONE)
    gl_model__touch_add(&pp->m->loops, pp->loops.data, pp->loops.len, e, flags, call);
}

/* ---- blocks ---------------------------------------------------------------------------------- */

static void undo_to(gl_prov_pass *pp, size_t mark) {
  for (size_t i = pp->log.len; i-- > mark;) pp->cur[pp->log.data[i].entry] = pp->log.data[i].old;
  pp->log.len = mark;
}

void gl_prov__undo(gl_prov_pass *pp, size_t mark) { undo_to(pp, mark); }

void gl_prov__block_mark(gl_prov_pass *pp, gl_pframe *f) {
  f->mark = (uint32_t)pp->log.len;
  f->seg = (uint32_t)pp->res.len;
  f->nbranch = 0;
  f->fl |= PF_MARKED;
}

void gl_prov__branch_end(gl_prov_pass *pp, gl_pframe *f) {
  if (!(f->fl & PF_MARKED)) return;
  uint32_t t = next_token(pp);
  for (size_t i = f->mark; i < pp->log.len; i++) {
    uint32_t e = pp->log.data[i].entry;
    if (pp->stamp[e] == t) continue;
    pp->stamp[e] = t;
    gl_pundo r = {e, pp->cur[e]};
    gl_vec_push(&pp->res, r);
  }
  undo_to(pp, f->mark);
  f->nbranch++;
}

void gl_prov__block_join(gl_prov_pass *pp, gl_pframe *f, bool implicit_before) {
  if (!(f->fl & PF_MARKED)) return;
  uint32_t t = next_token(pp);
  for (size_t i = f->seg; i < pp->res.len; i++) {
    const gl_pundo *r = &pp->res.data[i];
    if (pp->stamp[r->entry] != t) {
      pp->stamp[r->entry] = t;
      pp->acc[r->entry] = r->old;
      pp->cnt[r->entry] = 1;
    } else {
      pp->acc[r->entry] = gl_pval_join(pp->acc[r->entry], r->old);
      pp->cnt[r->entry]++;
    }
  }
  uint32_t total = f->nbranch + (implicit_before ? 1u : 0u);
  uint32_t t2 = next_token(pp);
  for (size_t i = f->seg; i < pp->res.len; i++) {
    uint32_t e = pp->res.data[i].entry;
    if (pp->stamp[e] == t2) continue;
    pp->stamp[e] = t2;
    gl_pval v = pp->acc[e];
    if (pp->cnt[e] < total) v = gl_pval_join(v, pp->cur[e]);   /* a branch kept the old value */
    write_cell(pp, e, v, false);
  }
  pp->res.len = f->seg;
  f->nbranch = 0;
}

/* ---- loops ----------------------------------------------------------------------------------- */

bool gl_prov__loop_converged(gl_prov_pass *pp, const gl_pframe *f) {
  if (!(f->fl & PF_MARKED)) return true;
  uint32_t t = next_token(pp);
  for (size_t i = f->mark; i < pp->log.len; i++) {
    uint32_t e = pp->log.data[i].entry;
    if (pp->stamp[e] == t) continue;
    pp->stamp[e] = t;
    gl_pval head = pp->log.data[i].old;   /* the first write after the mark saw the head value */
    if (gl_pval_is_unbound(head)) continue;   /* first bound in the body: no value flows back */
    if (!gl_pval_eq(gl_pval_join(head, pp->cur[e]), head)) return false;
  }
  return true;
}

void gl_prov__loop_forget(gl_prov_pass *pp, gl_pframe *f, bool widen) {
  if (!(f->fl & PF_MARKED)) return;
  size_t from = pp->res.len;   /* res as scratch: the distinct entries the body wrote */
  uint32_t t = next_token(pp);
  for (size_t i = f->mark; i < pp->log.len; i++) {
    uint32_t e = pp->log.data[i].entry;
    if (pp->stamp[e] == t) continue;
    pp->stamp[e] = t;
    /* a name first bound in the body stays unbound at the head: every value it can have
     * there is one the body binds */
    gl_pval head = pp->log.data[i].old;
    gl_pundo r = {e, gl_pval_is_unbound(head) ? gl_pval_unbound()
                     : widen ? gl_pval_join(head, pp->cur[e]) : gl_pval_unknown()};
    gl_vec_push(&pp->res, r);
  }
  undo_to(pp, f->mark);
  for (size_t i = from; i < pp->res.len; i++)
    write_cell(pp, pp->res.data[i].entry, pp->res.data[i].old, false);
  pp->res.len = from;
  if (widen) f->mark = (uint32_t)pp->log.len;
}

void gl_prov__loop_forget_recorded(gl_prov_pass *pp, uint32_t loop) {
  const gl_model__loops *l = &pp->m->loops;
  const gl_model__touch *head = gl_model__touch_find(l, loop, GL_MODEL__NONE);
  if (!head) return;
  for (uint32_t i = head->next; i != GL_MODEL__NONE; i = l->touches.data[i].next)
    if ((l->touches.data[i].flags & GL_TOUCH_REBOUND) &&
        !gl_pval_is_unbound(pp->cur[l->touches.data[i].entry]))
      write_cell(pp, l->touches.data[i].entry, gl_pval_unknown(), false);
}
