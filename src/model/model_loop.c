/* model_loop.c: what each loop rebinds or mutates, and the loop-invariant query.
 * Owns: the table of (loop, names entry) -> touch flags filled by the provenance walk (open
 *       addressing, O(1) average, one chain per loop for its second walk), the innermost
 *       enclosing loop of a node (a walk up the index's parent links, same rules as in-loop),
 *       and gl_model__loop_invariant (model.h's gl_model_loop_invariant).
 * Not: deciding what touches a name (model_flow.c, model_eval.c).
 * Threads: filled inside gl_model_build; read-only afterwards. */
#include "model/model_prov.h"

#include <stdlib.h>

#include "base/xalloc.h"

static size_t slot_of(uint32_t loop, uint32_t entry, size_t nslots) {
  uint64_t x = ((uint64_t)loop << 32) | entry;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x & (nslots - 1);
}

static void slot_put(uint32_t *slots, size_t nslots, const gl_model__touch *t, uint32_t value) {
  size_t i = slot_of(t->loop, t->entry, nslots);
  while (slots[i]) i = (i + 1) & (nslots - 1);
  slots[i] = value;
}

static void grow(gl_model__loops *l) {
  size_t n = l->nslots ? l->nslots * 2 : 64;
  uint32_t *slots = gl_xcalloc(n, sizeof(*slots));
  for (size_t i = 0; i < l->touches.len; i++)
    slot_put(slots, n, &l->touches.data[i], (uint32_t)i + 1);
  free(l->slots);
  l->slots = slots;
  l->nslots = n;
}

static uint32_t find_index(const gl_model__loops *l, uint32_t loop, uint32_t entry) {
  if (!l->nslots) return GL_MODEL__NONE;
  for (size_t i = slot_of(loop, entry, l->nslots);; i = (i + 1) & (l->nslots - 1)) {
    uint32_t s = l->slots[i];
    if (!s) return GL_MODEL__NONE;
    const gl_model__touch *t = &l->touches.data[s - 1];
    if (t->loop == loop && t->entry == entry) return s - 1;
  }
}

const gl_model__touch *gl_model__touch_find(const gl_model__loops *l, uint32_t loop,
                                           uint32_t entry) {
  uint32_t i = find_index(l, loop, entry);
  return i == GL_MODEL__NONE ? NULL : &l->touches.data[i];
}

static uint32_t add(gl_model__loops *l, uint32_t loop, uint32_t entry) {
  if ((l->touches.len + 1) * 2 > l->nslots) grow(l);
  gl_model__touch t = {loop, entry, GL_MODEL__NONE, GL_MODEL__NONE, 0};
  gl_vec_push(&l->touches, t);
  uint32_t i = (uint32_t)l->touches.len - 1;
  slot_put(l->slots, l->nslots, &t, i + 1);
  return i;
}

/* The record of (loop, entry), created (and linked into the loop's chain) when missing. */
static uint32_t get(gl_model__loops *l, uint32_t loop, uint32_t entry) {
  uint32_t i = find_index(l, loop, entry);
  if (i != GL_MODEL__NONE) return i;
  uint32_t head = find_index(l, loop, GL_MODEL__NONE);
  if (head == GL_MODEL__NONE) head = add(l, loop, GL_MODEL__NONE);
  i = add(l, loop, entry);
  l->touches.data[i].next = l->touches.data[head].next;
  l->touches.data[head].next = i;
  return i;
}

void gl_model__touch_add(gl_model__loops *l, const uint32_t *loops, size_t n, uint32_t entry,
                     uint8_t flags, uint32_t call) {
  for (size_t k = 0; k < n; k++) {
    uint32_t i = get(l, loops[k], entry);   /* may grow the table: index first */
    gl_model__touch *t = &l->touches.data[i];
    if (!(flags & GL_TOUCH_PASSED)) {
      t->flags |= flags;
    } else if (!(t->flags & GL_TOUCH_PASSED)) {
      t->flags |= GL_TOUCH_PASSED;
      t->call = call;
    } else if (t->call != call) {
      t->flags |= GL_TOUCH_PASSED_MANY;
    }
  }
}

void gl_model__loops_free(gl_model__loops *l) {
  gl_vec_free(&l->touches);
  free(l->slots);
  l->slots = NULL;
  l->nslots = 0;
}

/* ---- the query ------------------------------------------------------------------------------ */

static bool is_comprehension(gl_model__kind k) {
  return k == GL_K_LIST_COMPREHENSION || k == GL_K_SET_COMPREHENSION ||
         k == GL_K_DICTIONARY_COMPREHENSION || k == GL_K_GENERATOR_EXPRESSION;
}

/* The innermost loop whose body holds node i within its function (gl_model_in_loop's rules),
 * or GL_MODEL__NONE. */
static uint32_t innermost_loop(const gl_model *m, uint32_t i) {
  bool outside_next = false;   /* i is in the first iterable of the comprehension above */
  for (uint32_t c = i, p = m->nodes.data[i].parent; p != GL_MODEL__NONE;
       c = p, p = m->nodes.data[p].parent) {
    const gl_model__rec *pr = &m->nodes.data[p], *cr = &m->nodes.data[c];
    switch ((gl_model__kind)pr->kind) {
      case GL_K_FUNCTION_DEFINITION: case GL_K_LAMBDA: case GL_K_CLASS_DEFINITION:
        return GL_MODEL__NONE;
      case GL_K_FOR_STATEMENT: case GL_K_WHILE_STATEMENT:
        if (cr->field == m->f.body) return p;
        break;
      case GL_K_FOR_IN_CLAUSE:
        if (cr->field == m->f.right && (pr->flags & GL_REC_FIRST_FOR)) outside_next = true;
        break;
      default:
        if (!is_comprehension((gl_model__kind)pr->kind)) break;
        if (!outside_next) return p;
        outside_next = false;
        break;
    }
  }
  return GL_MODEL__NONE;
}

static bool own_interpolation(const gl_model *m, TSNode s) {
  uint32_t n = ts_node_named_child_count(s);
  for (uint32_t i = 0; i < n; i++)
    if (gl_model__kind_of(m, ts_node_named_child(s, i)) == GL_K_INTERPOLATION) return true;
  return false;
}

/* An f-string part: a string, or a concatenated_string of strings, with an interpolation. */
static bool has_interpolation(const gl_model *m, TSNode s) {
  if (gl_model__kind_of(m, s) == GL_K_STRING) return own_interpolation(m, s);
  uint32_t n = ts_node_named_child_count(s);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(s, i);
    if (gl_model__kind_of(m, c) == GL_K_STRING && own_interpolation(m, c)) return true;
  }
  return false;
}

static bool is_number(const gl_model *m, TSNode n) {
  gl_model__kind k = gl_model__kind_of(m, n);
  return k == GL_K_INTEGER || k == GL_K_FLOAT;
}

/* A list or tuple display whose leaves are all constants ([0.5, -1, "a"], ((1, 2), (3, 4))):
 * an iterative cursor walk, bounded so a huge table costs little and answers false. */
static bool constant_display(const gl_model *m, TSNode n) {
  TSTreeCursor c = ts_tree_cursor_new(n);
  bool ok = true;
  uint32_t seen = 0, depth = 0;
  if (!ts_tree_cursor_goto_first_child(&c)) goto done;
  for (;;) {
    TSNode x = ts_tree_cursor_current_node(&c);
    if (++seen > 4096) {
      ok = false;
      goto done;
    }
    if (ts_node_is_named(x)) {
      gl_model__kind k = gl_model__kind_of(m, x);
      if (k == GL_K_LIST || k == GL_K_TUPLE) {
        if (ts_tree_cursor_goto_first_child(&c)) {
          depth++;
          continue;
        }
      } else if (!(k == GL_K_INTEGER || k == GL_K_FLOAT || k == GL_K_TRUE || k == GL_K_FALSE ||
                   k == GL_K_NONE_LITERAL || (k == GL_K_STRING && !own_interpolation(m, x)) ||
                   (k == GL_K_UNARY_OPERATOR && is_number(m, ts_node_named_child(x, 0))))) {
        ok = false;
        goto done;
      }
    }
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) goto done;
      depth--;
    }
  }
done:
  ts_tree_cursor_delete(&c);
  return ok;
}

/* The call that node i is a direct argument of (positional or keyword), or GL_MODEL__NONE. */
static uint32_t argument_of(const gl_model *m, uint32_t i) {
  uint32_t p = m->nodes.data[i].parent;
  if (p != GL_MODEL__NONE && m->nodes.data[p].kind == GL_K_KEYWORD_ARGUMENT)
    p = m->nodes.data[p].parent;
  if (p == GL_MODEL__NONE || m->nodes.data[p].kind != GL_K_ARGUMENT_LIST) return GL_MODEL__NONE;
  return m->nodes.data[p].parent;
}

/* A name or an attribute chain on one: untouched by the loop, or passed only to the call that
 * i is an argument of. */
static bool name_invariant(const gl_model *m, uint32_t i, uint32_t loop) {
  TSNode n = m->nodes.data[i].node;
  while (gl_model__kind_of(m, n) == GL_K_ATTRIBUTE) n = ts_node_child_by_field_id(n, m->f.object);
  uint32_t root = gl_model__index_of(m, n);
  if (root == GL_MODEL__NONE || m->nodes.data[root].kind != GL_K_IDENTIFIER ||
      (m->nodes.data[root].flags & GL_REC_NOT_NAME))
    return false;
  size_t len;
  const char *s = gl_model__text(m, n, &len);
  uint32_t e = gl_model__entry_read(&m->names, m->nodes.data[root].scope, s, len);
  if (e == GL_MODEL__NONE) return true;   /* a builtin: nothing in the file binds it */
  const gl_model__touch *t = gl_model__touch_find(&m->loops, loop, e);
  if (!t) return true;
  if (t->flags & (GL_TOUCH_REBOUND | GL_TOUCH_MUTATED | GL_TOUCH_PASSED_MANY)) return false;
  return !(t->flags & GL_TOUCH_PASSED) || t->call == argument_of(m, i);
}

/* A literal, or a list or tuple of literals: the same value on every run of the code. */
static bool constant(const gl_model *m, uint32_t i) {
  const gl_model__rec *r = &m->nodes.data[i];
  switch ((gl_model__kind)r->kind) {
    case GL_K_INTEGER: case GL_K_FLOAT: case GL_K_TRUE: case GL_K_FALSE: case GL_K_NONE_LITERAL:
      return true;
    case GL_K_STRING: case GL_K_CONCATENATED_STRING:
      return !has_interpolation(m, r->node);
    case GL_K_UNARY_OPERATOR:
      return is_number(m, ts_node_named_child(r->node, 0));
    case GL_K_LIST: case GL_K_TUPLE:
      return constant_display(m, r->node);
    default:
      return false;
  }
}

bool gl_model__loop_invariant(const gl_model *m, uint32_t i) {
  const gl_model__rec *r = &m->nodes.data[i];
  if (!m->lm) return false;
  /* outside a loop (a def that runs per step as a whole: the checks ask whether it is hot),
   * only a constant is the same on every run */
  if (!(r->flags & GL_REC_IN_LOOP)) return constant(m, i);
  uint32_t loop = innermost_loop(m, i);
  if (loop == GL_MODEL__NONE || constant(m, i)) return constant(m, i);
  return (r->kind == GL_K_IDENTIFIER || r->kind == GL_K_ATTRIBUTE) && name_invariant(m, i, loop);
}

bool gl_model_loop_invariant(const gl_model *m, TSNode node) {
  const gl_model__rec *r = m->lm ? gl_model__rec_of(m, node) : NULL;
  return r && gl_model__loop_invariant(m, (uint32_t)(r - m->nodes.data));
}
