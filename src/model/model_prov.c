/* model_prov.c: the provenance pass: the second walk of a parsed file, in evaluation order.
 * Owns: an iterative walk with its own frame stack (no recursion, no ts_node_parent, no tree
 *       cursor) over the index the first walk built (every named node in document order with
 *       its parent; each subtree's end from one backward pass), computing each expression's
 *       value when the walk leaves it; the order Python evaluates in where it differs from the
 *       text (a comprehension's clauses before its body; def and lambda bodies after the scope
 *       that defines them, each walked once from a queue, parameters bound from their
 *       annotations); the statements that bind (assignment, augmented assignment, for and
 *       comprehension targets, `with ... as`, `:=`, def and class names, `del`); where blocks
 *       start, branch and join; loops (the stack of enclosing loops, and a second, pessimistic
 *       walk of a body whose names do not reach a fixpoint in one).
 * Not: expression values (model_eval.c), name cells and joins (model_flow.c), the loop table
 *      (model_loop.c).
 * Threads: runs inside gl_model_build on one worker. */
#include "model/model_prov.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

static bool is_comprehension(gl_model__kind k) {
  return k == GL_K_LIST_COMPREHENSION || k == GL_K_SET_COMPREHENSION ||
         k == GL_K_DICTIONARY_COMPREHENSION || k == GL_K_GENERATOR_EXPRESSION;
}

static gl_pframe *top(gl_prov_pass *pp) { return gl_vec_last(&pp->stack); }

/* The child of frame f under `field` among its first three named children, or NONE. */
static uint32_t kid_at(const gl_prov_pass *pp, const gl_pframe *f, TSFieldId field) {
  for (uint8_t j = 0; j < f->nkids && j < 3; j++)
    if (pp->m->nodes.data[f->kid[j]].field == field) return f->kid[j];
  return GL_MODEL__NONE;
}

static TSNode node_of(const gl_prov_pass *pp, uint32_t i) {
  if (i == GL_MODEL__NONE) {
    TSNode n = {{0}, NULL, NULL};
    return n;
  }
  return pp->m->nodes.data[i].node;
}


/* ---- loops ----------------------------------------------------------------------------------- */

static void loop_mark(gl_prov_pass *pp, gl_pframe *loop) {
  if (loop->fl & PF_MARKED) return;
  gl_prov__block_mark(pp, loop);
  if (!pp->pessimistic) return;
  loop->fl |= PF_PESSIMISTIC;   /* inside a second walk: start from what this loop rebinds */
  gl_prov__loop_forget_recorded(pp, loop->rec);
}

static void for_body_enter(gl_prov_pass *pp, gl_pframe *loop) {
  loop_mark(pp, loop);
  gl_vec_push(&pp->loops, loop->rec);
  uint32_t left = kid_at(pp, loop, pp->m->f.left), right = kid_at(pp, loop, pp->m->f.right);
  gl_prov__iterate(pp, node_of(pp, left), right);
}

static void pop_loop(gl_prov_pass *pp, uint32_t loop) {
  if (pp->loops.len && *gl_vec_last(&pp->loops) == loop) pp->loops.len--;
}

/* After a loop body: true when it must be walked again (some name it writes changed between
 * the head and the end, so what the body computed from the head is unsound). The second walk
 * starts from the join of each such name's head and end values (`x = torch.cat([x, t])` keeps
 * x on the device); when that is no fixpoint either, a third walk starts from unknown. Loops
 * nested in a second or third walk start pessimistic, so a body is walked at most three times
 * per walk of its enclosing loop's, whatever the depth. */
static bool body_again(gl_prov_pass *pp, gl_pframe *loop) {
  if (loop->fl & PF_PASS2) {
    if ((loop->fl & PF_WIDENED) && !gl_prov__loop_converged(pp, loop)) {
      loop->fl &= (uint16_t)~PF_WIDENED;
      gl_prov__loop_forget(pp, loop, false);
      return true;
    }
    loop->fl &= (uint16_t)~(PF_PASS2 | PF_WIDENED);
    pp->pessimistic--;
    return false;
  }
  if ((loop->fl & PF_PESSIMISTIC) || gl_prov__loop_converged(pp, loop)) return false;
  gl_prov__loop_forget(pp, loop, true);
  loop->fl |= PF_PASS2 | PF_WIDENED;
  pp->pessimistic++;
  return true;
}

/* ---- entering and leaving nodes -------------------------------------------------------------- */

static void queue_body(gl_prov_pass *pp, uint32_t def) {
  gl_model__rec *r = &pp->m->nodes.data[def];
  if (r->flags & GL_REC_QUEUED) return;
  r->flags |= GL_REC_QUEUED;
  gl_vec_push(&pp->deferred, def);
}

/* The first child of node p under field, or GL_MODEL__NONE (the children of p are the
 * subtrees that follow it in the index, one after the other). */
static uint32_t child_at(const gl_prov_pass *pp, uint32_t p, TSFieldId field) {
  for (uint32_t j = p + 1; j < pp->end[p]; j = pp->end[j])
    if (pp->m->nodes.data[j].field == field) return j;
  return GL_MODEL__NONE;
}

/* Whether the walk enters node j, a child of frame p. */
static bool wanted(gl_prov_pass *pp, gl_pframe *p, uint32_t j) {
  const gl_model__rec *r = &pp->m->nodes.data[j];
  if (r->kind == GL_K_COMMENT) return false;
  if ((p->kind == GL_K_FUNCTION_DEFINITION || p->kind == GL_K_LAMBDA) && r->field == pp->m->f.body) {
    queue_body(pp, p->rec);
    return false;
  }
  if (is_comprehension((gl_model__kind)p->kind))
    return (r->field == pp->m->f.body) == ((p->fl & PF_BODY_PHASE) != 0);
  return true;
}

/* `is`, `is not`, `in`, `not in` give a Python bool whatever the operands (anonymous children). */
static bool host_comparison(gl_prov_pass *pp, TSNode n) {
  TSTreeCursor *c = &pp->scratch;
  ts_tree_cursor_reset(c, n);
  if (!ts_tree_cursor_goto_first_child(c)) return false;
  do {
    TSNode k = ts_tree_cursor_current_node(c);
    if (ts_node_is_named(k)) continue;
    const char *t = ts_node_type(k);
    if (!strcmp(t, "is") || !strcmp(t, "is not") || !strcmp(t, "in") || !strcmp(t, "not in"))
      return true;
  } while (ts_tree_cursor_goto_next_sibling(c));
  return false;
}

/* Hooks of a child being entered, for its parent p. */
static void parent_enter(gl_prov_pass *pp, gl_pframe *p, const gl_pframe *f) {
  const gl_model__fields *fd = &pp->m->f;
  switch ((gl_model__kind)p->kind) {
    case GL_K_FOR_STATEMENT:
      if (f->field == fd->body) for_body_enter(pp, p);
      break;
    case GL_K_WHILE_STATEMENT:
      if (f->field == fd->condition) loop_mark(pp, p);
      else if (f->field == fd->body) gl_vec_push(&pp->loops, p->rec);
      break;
    case GL_K_IF_STATEMENT:
      if (f->field == fd->consequence && !(p->fl & PF_MARKED)) gl_prov__block_mark(pp, p);
      break;
    case GL_K_TRY_STATEMENT:
      if (f->kind == GL_K_FINALLY_CLAUSE && !(p->fl & PF_JOINED)) {
        gl_prov__block_join(pp, p, true);
        p->fl |= PF_JOINED;
      }
      break;
    default:
      break;
  }
}

static void push(gl_prov_pass *pp, uint32_t i) {
  const gl_model__rec *r = &pp->m->nodes.data[i];
  gl_pframe f;
  memset(&f, 0, sizeof(f));
  f.rec = i;
  f.kid[0] = f.kid[1] = f.kid[2] = GL_MODEL__NONE;
  f.arg0 = f.devkw = f.recv = f.meth = f.dev = f.typed = GL_MODEL__NONE;
  f.fl = PF_ALL_HOST | PF_ALL_DEV;
  f.field = r->field;
  f.kind = r->kind;
  if (f.kind == GL_K_COMPARISON_OPERATOR && host_comparison(pp, r->node)) f.fl |= PF_HOST_OP;
  gl_vec_push(&pp->stack, f);
  gl_pframe *self = top(pp);
  if (pp->stack.len >= 2) parent_enter(pp, &pp->stack.data[pp->stack.len - 2], self);
  if (self->kind == GL_K_TRY_STATEMENT || self->kind == GL_K_WITH_STATEMENT ||
      self->kind == GL_K_MATCH_STATEMENT)
    gl_prov__block_mark(pp, self);
}

static void assignment(gl_prov_pass *pp, const gl_pframe *x) {
  uint32_t right = kid_at(pp, x, pp->m->f.right);
  if (right == GL_MODEL__NONE) return;   /* `x: int`, an annotation alone */
  gl_pval v = gl_prov__val(pp, right);
  gl_prov__set(pp, x->rec, v, 0);
  gl_prov__assign(pp, node_of(pp, kid_at(pp, x, pp->m->f.left)), node_of(pp, right), v, false);
}

static void augmented(gl_prov_pass *pp, const gl_pframe *x) {
  uint32_t left = kid_at(pp, x, pp->m->f.left), right = kid_at(pp, x, pp->m->f.right);
  if (left == GL_MODEL__NONE) return;
  const gl_model__rec *lr = &pp->m->nodes.data[left];
  uint8_t extra = 0;
  gl_pval lv = lr->kind == GL_K_IDENTIFIER ? gl_prov__read(pp, left, &extra) : gl_prov__val(pp, left);
  gl_pval rv = gl_prov__val(pp, right);
  const gl_pval *dev = gl_pval_prov(lv) == GL_PROV_DEVICE ? &lv
                       : gl_pval_prov(rv) == GL_PROV_DEVICE ? &rv : NULL;
  const gl_pval *typed = lv.type != GL_TYPE_NONE ? &lv : rv.type != GL_TYPE_NONE ? &rv : NULL;
  bool all_host = gl_pval_prov(lv) == GL_PROV_HOST && gl_pval_prov(rv) == GL_PROV_HOST;
  bool any_fd = ((lv.bits | rv.bits) & GL_VAL_FROM_DEVICE) != 0;
  uint8_t roles;
  gl_pval v = gl_prov__operate(pp, dev, typed, all_host, any_fd, &roles);
  gl_prov__set(pp, x->rec, v, roles);
  if (lr->kind == GL_K_IDENTIFIER) gl_prov__bind_node(pp, left, v, lr->scope);
  else gl_prov__touch_root(pp, lr->node, GL_TOUCH_MUTATED, GL_MODEL__NONE);
  if (lr->kind == GL_K_ATTRIBUTE) gl_prov__attrs_store(pp, left, v, GL_MODEL__NONE, false);
}

/* `with e as t`: t gets e's value; other as-patterns (except ... as e, case patterns) bind an
 * unknown value. */
static void as_pattern(gl_prov_pass *pp, const gl_pframe *x, const gl_pframe *parent) {
  gl_pval v = parent && parent->kind == GL_K_WITH_ITEM ? gl_prov__val(pp, x->kid[0])
                                                      : gl_pval_unknown();
  TSNode alias = ts_node_child_by_field_id(node_of(pp, x->rec), pp->m->f.alias);
  TSNode none = {{0}, NULL, NULL};
  gl_prov__assign(pp, alias, none, v, false);
}

/* True for `if <GPU path>:` with one branch (`if args.cuda:`, `if use_accel:`, `if
 * torch.cuda.is_available():`, `if args.gpu is not None:`): the program is linted for its GPU
 * path, so after the statement its names hold what the branch gave them. A condition that names
 * the CPU or negates (`if not use_cuda:`, `if device == "cpu":`) is not one. */
static bool gpu_path_branch(const gl_prov_pass *pp, const gl_pframe *x) {
  if (x->nbranch != 1 || x->kid[0] == GL_MODEL__NONE) return false;
  size_t len;
  const char *s = gl_model__text(pp->m, pp->m->nodes.data[x->kid[0]].node, &len);
  if (len > 200) return false;
  char low[201];
  for (size_t i = 0; i < len; i++) low[i] = (char)tolower((unsigned char)s[i]);
  low[len] = 0;
  if (strstr(low, "cpu") || strstr(low, "!=")) return false;
  for (const char *q = low; (q = strstr(q, "not")) != NULL; q += 3) {   /* `is not` is no negation */
    bool word = (q == low || (!isalnum((unsigned char)q[-1]) && q[-1] != '_')) &&
                !isalnum((unsigned char)q[3]) && q[3] != '_';
    if (word && !(q - low >= 3 && memcmp(q - 3, "is ", 3) == 0)) return false;
  }
  return strstr(low, "cuda") || strstr(low, "gpu") || strstr(low, "accel");
}

/* What a finished node does as a statement or block. */
static void statement(gl_prov_pass *pp, gl_pframe *x, const gl_pframe *parent) {
  const gl_model__fields *fd = &pp->m->f;
  TSNode none = {{0}, NULL, NULL};
  switch ((gl_model__kind)x->kind) {
    case GL_K_ASSIGNMENT: assignment(pp, x); break;
    case GL_K_AUGMENTED_ASSIGNMENT: augmented(pp, x); break;
    case GL_K_NAMED_EXPRESSION: {
      gl_pval v = gl_prov__val(pp, x->kid[1]);
      gl_prov__set(pp, x->rec, v, 0);
      gl_prov__assign(pp, node_of(pp, x->kid[0]), none, v, true);
      break;
    }
    case GL_K_FOR_IN_CLAUSE:
      gl_prov__iterate(pp, node_of(pp, kid_at(pp, x, fd->left)), kid_at(pp, x, fd->right));
      break;
    case GL_K_AS_PATTERN: as_pattern(pp, x, parent); break;
    case GL_K_RETURN_STATEMENT:
      gl_prov__summary_return(pp, x->nkids ? x->kid[0] : GL_MODEL__NONE);
      break;
    case GL_K_YIELD: gl_prov__summary_yield(pp); break;
    case GL_K_DELETE_STATEMENT:
      if (x->kid[0] != GL_MODEL__NONE) gl_prov__delete(pp, node_of(pp, x->kid[0]));
      break;
    case GL_K_IF_STATEMENT:
      gl_prov__block_join(pp, x, !(x->fl & PF_HAS_ELSE) && !gpu_path_branch(pp, x));
      break;
    case GL_K_TRY_STATEMENT:
      if (!(x->fl & PF_JOINED)) gl_prov__block_join(pp, x, true);
      break;
    case GL_K_WITH_STATEMENT:
      /* the body runs (a context manager that swallows an exception is the exception) */
      gl_prov__branch_end(pp, x);
      gl_prov__block_join(pp, x, false);
      break;
    case GL_K_MATCH_STATEMENT: case GL_K_FOR_STATEMENT: case GL_K_WHILE_STATEMENT:
      gl_prov__branch_end(pp, x);
      gl_prov__block_join(pp, x, true);
      break;
    default:
      if (is_comprehension((gl_model__kind)x->kind) && (x->fl & PF_LOOP_PUSHED))
        pop_loop(pp, x->rec);
      break;
  }
}

static void bind_definition_name(gl_prov_pass *pp, const gl_pframe *def, uint32_t name) {
  gl_pval v = gl_pval_unknown();
  if (def->kind == GL_K_FUNCTION_DEFINITION && pp->stack.len >= 2) {
    const gl_pframe *dd = &pp->stack.data[pp->stack.len - 2];
    if (dd->kind == GL_K_DECORATED_DEFINITION) {
      v.type = gl_prov__decorated_type(pp, node_of(pp, dd->rec));
      if (v.type != GL_TYPE_NONE) v.bits = (uint8_t)gl_libmodels_type_prov(pp->lm, v.type);
    }
  }
  gl_prov__bind_node(pp, name, v, pp->m->nodes.data[name].scope);
}

/* `class Net(nn.Module):` once its bases are evaluated: the first base that is a library class
 * whose entry has `decorates` (torch.nn.Module), or a class of this file that got a type so
 * (`class GPT(Block)`), gives Net's name that type. */
static void bind_derived_class(gl_prov_pass *pp, const gl_pframe *def, uint32_t bases) {
  const gl_model *m = pp->m;
  TSNode name = ts_node_child_by_field_id(node_of(pp, def->rec), m->f.name);
  uint32_t ni = gl_model__index_of(m, name);
  if (ni == GL_MODEL__NONE) return;
  uint32_t end = gl_model_node_end(m, bases);
  gl_pval v = gl_pval_unknown();
  for (uint32_t i = bases + 1; i < end; i = gl_model_node_end(m, i)) {
    uint16_t t = gl_prov__base_class_type(pp, i);
    if (t == GL_TYPE_NONE) continue;
    v.type = t;
    v.bits = (uint8_t)gl_libmodels_type_prov(pp->lm, t);
    break;
  }
  gl_prov__bind_node(pp, ni, v, m->nodes.data[ni].scope);
}

/* Hooks of a finished child x for its parent p (p is the stack's top). */
static void parent_leave(gl_prov_pass *pp, gl_pframe *p, const gl_pframe *x) {
  const gl_model__fields *fd = &pp->m->f;
  switch ((gl_model__kind)p->kind) {
    case GL_K_IF_STATEMENT:
      if (x->kind == GL_K_ELSE_CLAUSE) p->fl |= PF_HAS_ELSE;
      if (x->field == fd->consequence || x->kind == GL_K_ELIF_CLAUSE || x->kind == GL_K_ELSE_CLAUSE)
        gl_prov__branch_end(pp, p);
      break;
    case GL_K_TRY_STATEMENT:
      if (x->field == fd->body || x->kind == GL_K_EXCEPT_CLAUSE || x->kind == GL_K_ELSE_CLAUSE)
        gl_prov__branch_end(pp, p);
      break;
    case GL_K_BLOCK:
      if (x->kind == GL_K_CASE_CLAUSE && pp->stack.len >= 2 &&
          pp->stack.data[pp->stack.len - 2].kind == GL_K_MATCH_STATEMENT)
        gl_prov__branch_end(pp, &pp->stack.data[pp->stack.len - 2]);
      break;
    case GL_K_FUNCTION_DEFINITION: case GL_K_CLASS_DEFINITION:
      /* a class with bases is bound once they are known (one binding: free variables fold) */
      if (x->field == fd->name &&
          (p->kind != GL_K_CLASS_DEFINITION || child_at(pp, p->rec, fd->superclasses) == GL_MODEL__NONE))
        bind_definition_name(pp, p, x->rec);
      if (x->field == fd->superclasses) bind_derived_class(pp, p, x->rec);
      break;
    case GL_K_FOR_IN_CLAUSE:
      if (x->field == fd->right && (pp->m->nodes.data[p->rec].flags & GL_REC_FIRST_FOR) &&
          pp->stack.len >= 2) {
        gl_pframe *comp = &pp->stack.data[pp->stack.len - 2];
        gl_vec_push(&pp->loops, comp->rec);   /* the loop starts after the first iterable */
        comp->fl |= PF_LOOP_PUSHED;
      }
      break;
    case GL_K_FOR_STATEMENT: case GL_K_WHILE_STATEMENT:
      if (x->field == fd->body) pop_loop(pp, p->rec);
      break;
    default:
      break;
  }
}

/* Pops the top frame and finishes its node. */
static gl_pframe leave(gl_prov_pass *pp, size_t base) {
  gl_pframe x = pp->stack.data[--pp->stack.len];
  gl_pframe *p = pp->stack.len > base ? top(pp) : NULL;
  if (x.rec == GL_MODEL__NONE) return x;
  gl_prov__eval(pp, &x, p);
  statement(pp, &x, p);
  if (!p) return x;
  gl_prov__child(pp, p, &x);
  parent_leave(pp, p, &x);
  return x;
}

/* ---- the walk ------------------------------------------------------------------------------- */

/* After child x of the top frame: the loop body again (for: the body; while: its condition),
 * when the body must be walked a second time; *i is where the walk goes on. */
static bool again(gl_prov_pass *pp, const gl_pframe *x, uint32_t *i) {
  gl_pframe *p = top(pp);
  if ((p->kind != GL_K_FOR_STATEMENT && p->kind != GL_K_WHILE_STATEMENT) ||
      x->field != pp->m->f.body || !body_again(pp, p))
    return false;
  uint32_t cond = p->kind == GL_K_WHILE_STATEMENT ? child_at(pp, p->rec, pp->m->f.condition)
                                                 : GL_MODEL__NONE;
  *i = cond != GL_MODEL__NONE ? cond : x->rec;
  return true;
}

/* At the end of a comprehension's clauses: its body. */
static bool comprehension_body(gl_prov_pass *pp, uint32_t *i) {
  gl_pframe *p = top(pp);
  if (!is_comprehension((gl_model__kind)p->kind) || (p->fl & PF_BODY_PHASE)) return false;
  p->fl |= PF_BODY_PHASE;
  uint32_t body = child_at(pp, p->rec, pp->m->f.body);
  if (body == GL_MODEL__NONE) return false;
  *i = body;
  return true;
}

/* Walks the subtree of node root (entered first) in evaluation order. */
static void walk(gl_prov_pass *pp, uint32_t root) {
  size_t base = pp->stack.len;
  push(pp, root);
  uint32_t i = root + 1;
  for (;;) {
    while (i >= pp->end[top(pp)->rec]) {   /* the top node has no more children to enter */
      if (comprehension_body(pp, &i)) break;
      gl_pframe x = leave(pp, base);
      if (pp->stack.len == base) return;
      if (again(pp, &x, &i)) break;
    }
    if (!wanted(pp, top(pp), i)) {
      i = pp->end[i];
      continue;
    }
    push(pp, i);
    i++;
  }
}

/* ---- functions --------------------------------------------------------------------------- */

static void bind_parameter(gl_prov_pass *pp, TSNode name, gl_pval v, uint32_t scope) {
  gl_model__kind k = gl_model__kind_of(pp->m, name);
  if (k == GL_K_LIST_SPLAT_PATTERN || k == GL_K_DICTIONARY_SPLAT_PATTERN) {
    /* *args, **kwargs: containers, never typed; in a device walk they hold device data (what
     * `for v in args`, `kwargs.items()` give), else unknown */
    name = ts_node_named_child(name, 0);
    v = pp->hypo && !pp->attr_walk ? (gl_pval){GL_TYPE_NONE, GL_PROV_DEVICE} : gl_pval_unknown();
  }
  if (gl_model__kind_of(pp->m, name) == GL_K_IDENTIFIER)
    gl_prov__bind_node(pp, gl_model__index_of(pp->m, name), v, scope);
}

/* The value a device walk gives a parameter without annotation: device data for a plain name
 * or one whose default is None, unknown for others (`eps=1e-6`, `*args`) and for the first
 * parameter of a method (`self`, `cls`). */
static gl_pval device_walk_value(gl_prov_pass *pp, uint32_t j, bool first, bool method) {
  gl_pval dev = {pp->dev_type, GL_PROV_DEVICE};
  if (first && method) return gl_pval_unknown();
  const gl_model__rec *r = &pp->m->nodes.data[j];
  if (r->kind == GL_K_IDENTIFIER) return dev;
  if (r->kind != GL_K_DEFAULT_PARAMETER) return gl_pval_unknown();
  TSNode d = ts_node_child_by_field_id(r->node, pp->m->f.value);
  return gl_model__kind_of(pp->m, d) == GL_K_NONE_LITERAL ? dev : gl_pval_unknown();
}

/* Parameters bind in the function's scope: annotated ones to the annotation's type and its
 * provenance, those at the positions of dev's bits to device data (a framework's per-step
 * method's "device-params" after self or ctx; what every call of the run passes: the program
 * stage), all others to unknown (in a device walk:
 * device_walk_value). The parameters are children of the def's `parameters` node in the index. */
static void bind_parameters(gl_prov_pass *pp, uint32_t params, uint32_t scope, bool method,
                            uint32_t dev) {
  const gl_model__fields *fd = &pp->m->f;
  bool first = true;
  unsigned pos = 0;
  for (uint32_t j = params + 1; j < pp->end[params]; j = pp->end[j]) {
    TSNode p = pp->m->nodes.data[j].node;
    gl_model__kind k = (gl_model__kind)pp->m->nodes.data[j].kind;
    gl_pval v = pp->hypo && !pp->attr_walk ? device_walk_value(pp, j, first, method)
                                           : gl_pval_unknown();
    if (k != GL_K_COMMENT && pos < 32 && ((dev >> pos) & 1u) &&
        (k == GL_K_IDENTIFIER || k == GL_K_DEFAULT_PARAMETER))
      v = (gl_pval){pp->dev_type, GL_PROV_DEVICE};
    if (k != GL_K_COMMENT) {
      first = false;
      pos++;
    }
    switch (k) {
      case GL_K_TYPED_PARAMETER:
        bind_parameter(pp, ts_node_named_child(p, 0),
                       gl_prov__annotation(pp, ts_node_child_by_field_id(p, fd->type)), scope);
        break;
      case GL_K_TYPED_DEFAULT_PARAMETER:
        bind_parameter(pp, ts_node_child_by_field_id(p, fd->name),
                       gl_prov__annotation(pp, ts_node_child_by_field_id(p, fd->type)), scope);
        break;
      case GL_K_DEFAULT_PARAMETER:
        bind_parameter(pp, ts_node_child_by_field_id(p, fd->name), v, scope);
        break;
      default:
        bind_parameter(pp, p, v, scope);
        break;
    }
  }
}

/* The class whose body holds def directly, or GL_MODEL__NONE. */
static uint32_t class_of(const gl_prov_pass *pp, uint32_t def) {
  const gl_model *m = pp->m;
  uint32_t p = m->nodes.data[def].parent;
  if (p != GL_MODEL__NONE && m->nodes.data[p].kind == GL_K_DECORATED_DEFINITION) p = m->nodes.data[p].parent;
  if (p == GL_MODEL__NONE || m->nodes.data[p].kind != GL_K_BLOCK) return GL_MODEL__NONE;
  p = m->nodes.data[p].parent;
  return p != GL_MODEL__NONE && m->nodes.data[p].kind == GL_K_CLASS_DEFINITION ? p : GL_MODEL__NONE;
}

static void walk_function(gl_prov_pass *pp, uint32_t def) {
  const gl_model *m = pp->m;
  uint32_t body = child_at(pp, def, m->f.body);
  if (body == GL_MODEL__NONE) return;
  uint32_t scope = m->nodes.data[body].scope;
  pp->walk_owner = pp->owner[scope];
  pp->walk_def = def;
  pp->loops.len = 0;
  pp->pessimistic = 0;
  uint32_t params = child_at(pp, def, m->f.parameters);
  uint32_t cls = class_of(pp, def);
  /* a framework's per-step method given device data (training_step's batch): the class name's
   * type is known, the module walk has run */
  const gl_api_entry *step = cls == GL_MODEL__NONE ? NULL : gl_model__step_method(m, cls, def);
  unsigned ndev = step ? step->device_params : 0;
  uint32_t dev = ndev >= 31 ? ~1u : ((1u << ndev) - 1u) << 1;
  uint32_t start = ts_node_start_byte(m->nodes.data[def].node);
  for (size_t k = 0; k < m->nprogram; k++)
    if (m->program[k].start == start) dev |= m->program[k].device_params;
  if (params != GL_MODEL__NONE) bind_parameters(pp, params, scope, cls != GL_MODEL__NONE, dev);
  walk(pp, body);
}

static int by_index(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* A lambda with a summary entry returns its body's value. */
static void lambda_returns(gl_prov_pass *pp, uint32_t def) {
  if (pp->m->nodes.data[def].kind == GL_K_LAMBDA)
    gl_prov__summary_return(pp, child_at(pp, def, pp->m->f.body));
}

/* The real walk of a def or lambda; one with a summary entry records its returns. */
static void real_walk(gl_prov_pass *pp, uint32_t def) {
  uint32_t e = gl_prov__summary_entry(pp, def);
  if (e != GL_MODEL__NONE) gl_prov__summary_begin(pp, e);
  walk_function(pp, def);
  if (e != GL_MODEL__NONE) {
    lambda_returns(pp, def);
    gl_prov__summary_end(pp);
  }
}

/* The module's code once more, now that the defs it calls have summaries (its first walk
 * gave the free variables of the device walks their values): from fresh cells, free-variable
 * folds of module names, loop records and calls, so that the second walk decides alone. Only
 * when the first walk met a call of a def of this file (m->calls holds the module's calls). */
static void module_again(gl_prov_pass *pp) {
  gl_model *m = pp->m;
  const gl_model__names *n = &m->names;
  /* the defs the module calls get a real walk first, for what they return whatever they are
   * given (`train_data = batchify(corpus.train, 20)`); their records are written again later */
  gl_vec(uint32_t) defs = {0};
  for (size_t k = 0; k < m->calls.len; k++) gl_vec_push(&defs, m->calls.data[k].def);
  qsort(defs.data, defs.len, sizeof(*defs.data), by_index);
  for (size_t k = 0; k < defs.len; k++)
    if (k == 0 || defs.data[k] != defs.data[k - 1]) real_walk(pp, defs.data[k]);
  gl_vec_free(&defs);
  for (size_t e = 0; e < n->entries.len; e++) {
    pp->cur[e] = gl_pval_unbound();
    if (pp->owner[n->entries.data[e].scope] == GL_MODEL__MODULE_SCOPE) {
      pp->sum[e] = gl_pval_unknown();
      pp->sum_state[e] = 0;
    }
  }
  pp->log.len = 0;
  gl_model__loops_free(&m->loops);
  m->calls.len = 0;
  pp->walk_owner = GL_MODEL__MODULE_SCOPE;
  pp->walk_def = GL_MODEL__NONE;
  pp->loops.len = 0;
  pp->pessimistic = 0;
  walk(pp, 0);
}

/* pp->dev_type: the array type of the one device framework the file imports (the models'
 * "device-array": torch, CuPy, JAX, Warp, cuDF). In a file that imports two, say CuPy and cuDF,
 * device data of unknown type (a cuML prediction, which mirrors its input) may be either, so it
 * stays untyped. */
static uint16_t device_type_of_file(const gl_prov_pass *pp) {
  const char *type = NULL;
  for (size_t i = 0; i < gl_libmodels_device_array_count(pp->lm); i++) {
    const char *library;
    const char *t = gl_libmodels_device_array(pp->lm, i, &library);
    if (!gl_model_imports(pp->m, library)) continue;
    if (type) return GL_TYPE_NONE;
    type = t;
  }
  return type ? gl_libmodels_type_id(pp->lm, type, strlen(type)) : GL_TYPE_NONE;
}

/* The device walk of a def that has a summary entry: its body with its parameters bound to
 * device data, for what it returns and does; every cell it wrote is restored after (the
 * records it wrote are written again by the def's real walk). */
static void device_walk(gl_prov_pass *pp, uint32_t def) {
  uint8_t k = pp->m->nodes.data[def].kind;
  if (k != GL_K_FUNCTION_DEFINITION && k != GL_K_LAMBDA) return;
  uint32_t e = gl_prov__summary_entry(pp, def);
  if (e == GL_MODEL__NONE) return;
  size_t mark = pp->log.len;
  pp->hypo = true;
  gl_prov__summary_begin(pp, e);
  walk_function(pp, def);
  lambda_returns(pp, def);
  gl_prov__summary_end(pp);
  pp->hypo = false;
  gl_prov__undo(pp, mark);
}

/* The attribute walk: every def holding a `self.name` site, once, before the device walks,
 * parameters unknown and cells restored after, so that a method reading an attribute finds what
 * every method stores in it whatever order they come in (each site stores again in its real
 * walk). */
static void attribute_walks(gl_prov_pass *pp) {
  for (size_t i = 0; i < pp->deferred.len; i++) {
    uint32_t def = pp->deferred.data[i];
    if (pp->m->nodes.data[def].kind != GL_K_FUNCTION_DEFINITION || !gl_prov__attrs_any(pp, def))
      continue;
    size_t mark = pp->log.len;
    pp->hypo = pp->attr_walk = true;
    walk_function(pp, def);
    pp->hypo = pp->attr_walk = false;
    gl_prov__undo(pp, mark);
  }
}

void gl_model__prov(gl_model *m) {
  if (!m->nodes.len) return;
  gl_prov_pass pp;
  memset(&pp, 0, sizeof(pp));
  pp.m = m;
  pp.lm = m->lm;
  gl_prov__flow_init(&pp);
  gl_prov__summary_init(&pp);
  pp.walk_def = GL_MODEL__NONE;
  pp.dev_type = device_type_of_file(&pp);
  /* a helper module that imports no framework: the device data its callers give it */
  for (size_t k = 0; k < m->nprogram && pp.dev_type == GL_TYPE_NONE; k++)
    if (m->program[k].device_params) pp.dev_type = m->program[k].device_type;
  m->dev_type = pp.dev_type;
  pp.end = m->ends;
  pp.scratch = ts_tree_cursor_new(m->nodes.data[0].node);
  pp.walk_owner = GL_MODEL__MODULE_SCOPE;
  gl_prov__attrs_init(&pp);
  walk(&pp, 0);
  attribute_walks(&pp);
  /* every def's device walk first (the queue grows with the defs nested in them), so that the
   * real walks find the summaries of the defs they call, wherever those are defined; named
   * lambdas before defs (`reduce_sum = lambda x: x.sum()` at the end of a module is called by
   * the defs above it; a lambda calls no def of its own) */
  for (size_t i = 0; i < pp.deferred.len; i++)
    if (m->nodes.data[pp.deferred.data[i]].kind == GL_K_LAMBDA) device_walk(&pp, pp.deferred.data[i]);
  size_t walked = pp.deferred.len;   /* every lambda queued so far has had its device walk */
  for (size_t i = 0; i < pp.deferred.len; i++)
    if (i >= walked || m->nodes.data[pp.deferred.data[i]].kind != GL_K_LAMBDA)
      device_walk(&pp, pp.deferred.data[i]);
  if (m->calls.len) module_again(&pp);
  for (size_t i = 0; i < pp.deferred.len; i++) real_walk(&pp, pp.deferred.data[i]);
  ts_tree_cursor_delete(&pp.scratch);
  gl_vec_free(&pp.stack);
  gl_vec_free(&pp.deferred);
  gl_vec_free(&pp.loops);
  gl_prov__summary_free(&pp);
  gl_prov__attrs_free(&pp);
  gl_prov__flow_free(&pp);
}
