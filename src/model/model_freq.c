/* model_freq.c: how often a node in a loop runs (model.h gl_model_hot), and reads a loop needs
 *       (gl_model_drained: the loop already waits for the device every iteration).
 * Owns: the innermost loop of a node (for / while body; a comprehension is always hot), the
 *       guards between them (`if step % N == 0`, `if i == 0`, a block that ends in break /
 *       return / raise), cold loops (a literal trip count: `range(3)`, a literal tuple or list),
 *       the outer loop of a nested loop that does the GPU work (its other statements run once
 *       per outer iteration: per epoch, not per step; a call of a def of this file whose body
 *       has such a loop counts as one), and hot defs: a def called on every iteration of a hot
 *       loop runs its body per iteration, as if it were written there (m->calls); whether the
 *       blocks around a node read a clock (gl_model_timed: a timing region); the methods a
 *       framework calls on every step (per-step in the models: `forward` of an nn.Module
 *       subclass), hot as if called from a loop, and the defs a `# gpulint: hot` comment names
 *       (both hot roots: their whole body runs per step, beside their own loops too); whether the file captures a loop into a CUDA
 *       graph (a replay of one is then an inner loop); values a loop collects
 *       (gl_model_collected: each iteration keeps its own); traced defs (`@jax.jit`,
 *       `torch.compile(f)`, and defs only they call), whose loops run once per trace, not per call.
 * Not: what the loop rebinds (model_loop.c), provenance (model_prov.c).
 * Threads: pure queries over a built model. */
#include "model/model_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* Literal trip counts are not cold yet: the test suite writes `range(3)` for "a loop" (issue 19). */
#define COLD_TRIPS 0

/* Rounds of the fixed points over the file's calls of its own defs (a bound on how deep a chain
 * of calls is followed, so a file of many calls costs a few scans of them, never one per def). */
#define MAX_ROUNDS 8

static const char *type_of(const gl_model *m, uint32_t i) {
  return ts_node_type(m->nodes.data[i].node);
}

/* True when the condition subtree [c, end) reads like a frequency guard: it takes a remainder
 * (`step % N == 0`, `not i % 100`), compares with an integer literal (`step == 0`), or lets the
 * first few iterations through (`i < 5`, `step <= 3`: debug output for the first N items). */
static bool is_guard(const gl_model *m, uint32_t c) {
  uint32_t end = m->ends[c];
  for (uint32_t j = c; j < end; j++) {
    const gl_model__rec *r = &m->nodes.data[j];
    if (r->kind == GL_K_BINARY_OPERATOR) {
      TSNode op = ts_node_child_by_field_id(r->node, ts_language_field_id_for_name(
                                                         ts_tree_language(m->tree), "operator", 8));
      if (!ts_node_is_null(op) && strcmp(ts_node_type(op), "%") == 0) return true;
    } else if (r->kind == GL_K_COMPARISON_OPERATOR) {
      bool eq = false, lit = false, below = false;
      uint32_t n = ts_node_child_count(r->node);
      for (uint32_t k = 0; k < n; k++) {
        TSNode x = ts_node_child(r->node, k);
        const char *t = ts_node_type(x);
        if (!ts_node_is_named(x) && strcmp(t, "==") == 0) eq = true;
        /* `name < 5` as the whole condition: a plain name below an integer literal */
        if (j == c && n == 3 && k == 1 && (!strcmp(t, "<") || !strcmp(t, "<=")) &&
            !strcmp(ts_node_type(ts_node_child(r->node, 0)), "identifier"))
          below = true;
        if (strcmp(t, "integer") == 0) lit = true;
      }
      if ((eq || below) && lit && (eq || !strcmp(ts_node_type(ts_node_child(r->node, 2)), "integer")))
        return true;
    }
  }
  return false;
}

/* True when block b's last statement leaves the loop or the function (the block runs once). */
static bool block_exits(const gl_model *m, uint32_t b) {
  uint32_t last = GL_MODEL__NONE;
  for (uint32_t j = b + 1; j < m->ends[b]; j = m->ends[j])
    if (m->nodes.data[j].kind != GL_K_COMMENT) last = j;
  if (last == GL_MODEL__NONE) return false;
  const char *t = type_of(m, last);
  return !strcmp(t, "break_statement") || !strcmp(t, "return_statement") ||
         !strcmp(t, "raise_statement");
}

/* True for `range(<small literal>)` and literal displays: a loop of a few fixed trips. */
static bool cold_iterable(const gl_model *m, uint32_t loop) {
  TSNode it = ts_node_child_by_field_id(m->nodes.data[loop].node, m->f.right);
  if (ts_node_is_null(it)) return false;
  const char *t = ts_node_type(it);
  if (!strcmp(t, "tuple") || !strcmp(t, "list") || !strcmp(t, "set") || !strcmp(t, "dictionary"))
    return true;
  if (strcmp(t, "call") != 0) return false;
  TSNode fn = ts_node_child_by_field_id(it, m->f.function);
  TSNode args = ts_node_child_by_field_id(it, m->f.arguments);
  size_t len;
  const char *s = gl_model__text(m, fn, &len);
  if (len != 5 || memcmp(s, "range", 5) != 0 || ts_node_is_null(args)) return false;
  uint32_t n = ts_node_named_child_count(args);
  if (n < 1 || n > 2) return false;
  long v[2] = {0, 0};
  for (uint32_t k = 0; k < n; k++) {
    TSNode a = ts_node_named_child(args, k);
    if (strcmp(ts_node_type(a), "integer") != 0) return false;
    const char *as = gl_model__text(m, a, &len);
    char buf[24];
    if (len >= sizeof(buf)) return false;
    memcpy(buf, as, len);
    buf[len] = 0;
    v[k] = strtol(buf, NULL, 0);
  }
  long trips = n == 1 ? v[0] : v[1] - v[0];
  return trips <= 16;
}

static const gl_model__call *call_of(const gl_model *m, uint32_t call) {
  size_t lo = 0, hi = m->calls.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (m->calls.data[mid].call < call) lo = mid + 1;
    else hi = mid;
  }
  return lo < m->calls.len && m->calls.data[lo].call == call ? &m->calls.data[lo] : NULL;
}

/* True when subtree i holds a device value, a call that enqueues GPU work or moves data, or a
 * call of a def of this file that does (gpu_work, once gl_model__calls_finish has found it). */
static bool does_gpu_work(const gl_model *m, uint32_t i) {
  for (uint32_t j = i; j < m->ends[i]; j++) {
    const gl_model__rec *r = &m->nodes.data[j];
    if ((r->val & GL_VAL_PROV) == GL_PROV_DEVICE && !(r->val & (GL_VAL_CUDA | GL_VAL_CPU)))
      return true;
    if (r->roles & (GL_ROLE_GPU_WORK | GL_ROLE_H2D | GL_ROLE_D2H)) return true;
    if (r->kind == GL_K_CALL && m->calls.len) {
      const gl_model__call *c = call_of(m, j);
      if (c && c->gpu_work) return true;
    }
  }
  return false;
}

/* True when the callee of call j ends in one of names[0, n). */
static bool callee_ends(const gl_model *m, uint32_t j, const char *const *names, size_t n) {
  size_t len;
  const char *s = gl_model__text(m, ts_node_child_by_field_id(m->nodes.data[j].node, m->f.function), &len);
  for (size_t k = 0; k < n; k++) {
    size_t l = strlen(names[k]);
    if (len >= l && memcmp(s + len - l, names[k], l) == 0) return true;
  }
  return false;
}

/* True for a call that replays a captured CUDA graph (`wp.capture_launch(graph)`,
 * `graph.replay()`) in a file that captures a loop into one: the graph holds the steps of an
 * inner loop. (A graph captured elsewhere may hold one step: the replaying loop is the hot one.) */
static bool graph_launch(const gl_model *m, uint32_t call) {
  if (!m->captures_loop) return false;
  TSNode fn = ts_node_child_by_field_id(m->nodes.data[call].node, m->f.function);
  size_t len;
  const char *s = gl_model__text(m, fn, &len);   /* the callee's last name, before resolving */
  size_t k = len;
  while (k > 0 && s[k - 1] != '.') k--;
  if (len - k == 6 && memcmp(s + k, "replay", 6) == 0) return k > 0;
  if (len - k != 14 || memcmp(s + k, "capture_launch", 14) != 0) return false;
  char q[64];
  return gl_model_resolve(m, fn, q, sizeof(q)) && strcmp(q, "warp.capture_launch") == 0;
}

/* True when node j, inside loop, is under an `if` (or `elif` / `else`) within loop: it runs on
 * some iterations only (a loop over the few parts of a frame, when there are any). */
static bool conditional(const gl_model *m, uint32_t loop, uint32_t j) {
  for (uint32_t p = m->nodes.data[j].parent; p != GL_MODEL__NONE && p != loop;
       p = m->nodes.data[p].parent) {
    uint8_t k = m->nodes.data[p].kind;
    if (k == GL_K_IF_STATEMENT || k == GL_K_ELIF_CLAUSE || k == GL_K_ELSE_CLAUSE) return true;
  }
  return false;
}

/* True when loop is a `for` over the parts of one step: a model's parameters, modules or
 * buffers, an optimizer's param groups, a list named for parameters, gradients or layers
 * (`for p in model.parameters()`, `for g in opt.param_groups`, `for p in group["params"]`).
 * Such a loop runs within a step (a grad-norm or clipping helper), not over the steps. */
static bool loop_over_step_parts(const gl_model *m, uint32_t loop) {
  static const char *const parts[] = {"parameters", "named_parameters", "modules", "named_modules",
                                      "children", "buffers", "param_groups", "params", "grads",
                                      "gradients", "layers", "\"params\"", "'params'"};
  if (m->nodes.data[loop].kind != GL_K_FOR_STATEMENT) return false;
  uint32_t it = gl_model__index_of(m, ts_node_child_by_field_id(m->nodes.data[loop].node, m->f.right));
  if (it == GL_MODEL__NONE) return false;
  for (uint32_t j = it; j < m->ends[it]; j++) {
    uint8_t k = m->nodes.data[j].kind;
    if (k != GL_K_IDENTIFIER && k != GL_K_STRING) continue;
    size_t len;
    const char *s = gl_model__text(m, m->nodes.data[j].node, &len);
    for (size_t p = 0; p < sizeof(parts) / sizeof(parts[0]); p++)
      if (strlen(parts[p]) == len && memcmp(parts[p], s, len) == 0) return true;
  }
  return false;
}

/* True when the body of loop (or of a def) holds another loop, not around node i, that does
 * GPU work (not under an `if` of loop's body), a call beside i of a def of this file whose body
 * holds one, or a graph replay: the statements of loop outside it run once per outer iteration. */
static bool has_inner_gpu_loop(const gl_model *m, uint32_t loop, uint32_t i) {
  for (uint32_t j = loop + 1; j < m->ends[loop]; j++) {
    uint8_t k = m->nodes.data[j].kind;
    if (k == GL_K_FUNCTION_DEFINITION || k == GL_K_CLASS_DEFINITION || k == GL_K_LAMBDA) {
      j = m->ends[j] - 1;
      continue;
    }
    if (k == GL_K_CALL && !(j <= i && i < m->ends[j])) {
      const gl_model__call *c = m->calls.len ? call_of(m, j) : NULL;
      if ((c && c->gpu_loop) || graph_launch(m, j)) return true;
    }
    if (k != GL_K_FOR_STATEMENT && k != GL_K_WHILE_STATEMENT) continue;
    if (j <= i && i < m->ends[j]) continue;   /* the loop around i: not beside it */
    if (!conditional(m, loop, j) && !loop_over_step_parts(m, j) && does_gpu_work(m, j)) return true;
    j = m->ends[j] - 1;
  }
  return false;
}

/* True when the body of def holds a loop that does GPU work (nested defs left out). */
static bool def_has_gpu_loop(const gl_model *m, uint32_t def) {
  for (uint32_t j = def + 1; j < m->ends[def]; j++) {
    uint8_t k = m->nodes.data[j].kind;
    if (k == GL_K_FUNCTION_DEFINITION || k == GL_K_CLASS_DEFINITION || k == GL_K_LAMBDA) {
      j = m->ends[j] - 1;
      continue;
    }
    if (k != GL_K_FOR_STATEMENT && k != GL_K_WHILE_STATEMENT) continue;
    if (!loop_over_step_parts(m, j) && does_gpu_work(m, j)) return true;
    j = m->ends[j] - 1;
  }
  return false;
}

/* True when child c of p, an if_statement or elif_clause, is its consequence and runs now and
 * then: the condition is a frequency guard, or the block ends in break / return / raise. */
static bool now_and_then(const gl_model *m, uint32_t p, uint32_t c) {
  if (m->nodes.data[c].field != m->f.consequence) return false;
  uint32_t ci = gl_model__index_of(m, ts_node_child_by_field_id(m->nodes.data[p].node, m->f.condition));
  return (ci != GL_MODEL__NONE && is_guard(m, ci)) || block_exits(m, c);
}

bool gl_model__def_gpu_loop(const gl_model *m, uint32_t def) { return def_has_gpu_loop(m, def); }

/* True when node i lies in a traced def (m->traced): its loops run once per trace, unrolled
 * into one compiled program, not once per call. */
static bool in_traced_def(const gl_model *m, uint32_t i) {
  if (!m->traced) return false;
  for (uint32_t p = m->nodes.data[i].parent; p != GL_MODEL__NONE; p = m->nodes.data[p].parent)
    if (m->traced[p]) return true;
  return false;
}

/* True when the bytes [s, s + len) start with prefix. */
static bool starts_with(const char *s, size_t len, const char *prefix) {
  size_t n = strlen(prefix);
  return len >= n && memcmp(s, prefix, n) == 0;
}

/* True when the file is a test module by pytest's conventions (test_*.py, *_test.py,
 * conftest.py): its loops run once per test run, not on a training step. */
static bool test_module(const gl_model *m) {
  const char *path = m->src ? m->src->path : NULL;
  if (!path) return false;
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t len = strlen(base);
  return starts_with(base, len, "test_") || !strcmp(base, "conftest.py") ||
         (len > 8 && !strcmp(base + len - 8, "_test.py"));
}

static bool hot_at(const gl_model *m, uint32_t i) {
  /* a def named test... in a training script is often its evaluation loop (`def test(model,
   * loader)`, `test_epoch`): only the file name tells a test module apart */
  if (m->test_module) return false;
  /* a loop in a traced def is not a loop at run time: only the def's own calls can make i hot */
  bool traced = in_traced_def(m, i);
  bool in_loop = (m->nodes.data[i].flags & GL_REC_IN_LOOP) && !traced;
  for (uint32_t c = i, p = m->nodes.data[i].parent; p != GL_MODEL__NONE;
       c = p, p = m->nodes.data[p].parent) {
    const gl_model__rec *pr = &m->nodes.data[p], *cr = &m->nodes.data[c];
    switch ((gl_model__kind)pr->kind) {
      case GL_K_IF_STATEMENT: case GL_K_ELIF_CLAUSE:
        if (now_and_then(m, p, c)) return false;
        break;
      case GL_K_FOR_STATEMENT: case GL_K_WHILE_STATEMENT:
        if (!in_loop || cr->field != m->f.body) break;
        if (pr->kind == GL_K_FOR_STATEMENT && COLD_TRIPS && cold_iterable(m, p)) return false;
        return !has_inner_gpu_loop(m, p, i);
      case GL_K_LIST_COMPREHENSION: case GL_K_SET_COMPREHENSION:
      case GL_K_DICTIONARY_COMPREHENSION: case GL_K_GENERATOR_EXPRESSION:
        if (in_loop) return true;
        break;
      case GL_K_FUNCTION_DEFINITION:
        /* not in a loop of its own: hot when its def runs per iteration, except beside a loop
         * of the def that does the GPU work (the def is then the outer loop's body) */
        if (in_loop) return true;
        return (pr->flags & GL_REC_HOT_DEF) &&
               (traced || (m->hot_root && m->hot_root[p]) || !has_inner_gpu_loop(m, p, i));
      case GL_K_LAMBDA: case GL_K_CLASS_DEFINITION:
        return in_loop;
      default:
        break;
    }
  }
  return in_loop;
}

bool gl_model__guarded(const gl_model *m, uint32_t i) {
  for (uint32_t c = i, p = m->nodes.data[i].parent; p != GL_MODEL__NONE;
       c = p, p = m->nodes.data[p].parent) {
    uint8_t k = m->nodes.data[p].kind;
    if (k == GL_K_FUNCTION_DEFINITION || k == GL_K_LAMBDA) return false;
    if ((k == GL_K_IF_STATEMENT || k == GL_K_ELIF_CLAUSE) && now_and_then(m, p, c)) return true;
  }
  return false;
}

bool gl_model__in_traced(const gl_model *m, uint32_t i) { return in_traced_def(m, i); }

bool gl_model_traced(const gl_model *m, TSNode node) {
  uint32_t i = m->traced ? gl_model__index_of(m, node) : GL_MODEL__NONE;
  return i != GL_MODEL__NONE && in_traced_def(m, i);
}

bool gl_model_hot(const gl_model *m, TSNode node) {
  uint32_t i = gl_model__index_of(m, node);
  if (i == GL_MODEL__NONE) return false;
  if (!(m->nodes.data[i].flags & GL_REC_IN_LOOP) && !m->calls.len && !m->per_step_defs)
    return false;
  return hot_at(m, i);
}

static int by_call(const void *a, const void *b) {
  const gl_model__call *x = a, *y = b;
  return x->call < y->call ? -1 : x->call > y->call;
}

/* Sets m->captures_loop: a `with` whose items call a capture (`wp.ScopedCapture()`,
 * `torch.cuda.graph(g)`) around a loop, or any call that begins a capture by hand
 * (`capture_begin`, `begin_capture`: what it captures is not followed, and is taken to be a
 * loop). */
static void find_captured_loops(gl_model *m) {
  static const char *const by_hand[] = {"capture_begin", "begin_capture"};
  static const char *const scoped[] = {"ScopedCapture", ".graph"};
  for (uint32_t j = 0; j < m->nodes.len && !m->captures_loop; j++) {
    const gl_model__rec *r = &m->nodes.data[j];
    if (r->kind == GL_K_CALL && callee_ends(m, j, by_hand, 2)) m->captures_loop = true;
    if (r->kind != GL_K_WITH_STATEMENT) continue;
    bool capturing = false, loop = false;
    for (uint32_t k = j + 1; k < m->ends[j]; k++) {
      uint8_t kk = m->nodes.data[k].kind;
      if (kk == GL_K_CALL && callee_ends(m, k, scoped, 2)) capturing = true;
      if (kk == GL_K_FOR_STATEMENT || kk == GL_K_WHILE_STATEMENT) loop = true;
    }
    if (capturing && loop) m->captures_loop = true;
  }
}

/* Marks def hot by itself (m->hot_root): it runs once per step, so the statements beside a loop
 * of its own run per step too (the loop walks layers or parameters within the step). */
static void set_hot_root(gl_model *m, uint32_t def) {
  if (!m->hot_root) m->hot_root = gl_xcalloc(m->nodes.len, 1);
  m->hot_root[def] = 1;
  m->nodes.data[def].flags |= GL_REC_HOT_DEF;
  m->per_step_defs = true;
}

/* The instance type of a class the file defines, when a model types it: a class derived from
 * torch.nn.Module is a torch.nn.ModuleClass, whose call gives a torch.nn.Module. */
static uint16_t instance_type(const gl_model *m, uint32_t cls) {
  uint32_t ni = gl_model__index_of(m, ts_node_child_by_field_id(m->nodes.data[cls].node, m->f.name));
  uint16_t t = ni == GL_MODEL__NONE ? GL_TYPE_NONE : m->nodes.data[ni].type;
  /* a base class in another file: the program stage's type */
  for (size_t k = 0; k < m->nprogram && t == GL_TYPE_NONE; k++)
    if (m->program[k].start == ts_node_start_byte(m->nodes.data[cls].node))
      t = m->program[k].class_type;
  if (t == GL_TYPE_NONE) return t;
  const gl_api_entry *call = gl_libmodels_call(m->lm, t);
  return call && call->type != GL_TYPE_NONE ? call->type : t;
}

const gl_api_entry *gl_model__step_method(const gl_model *m, uint32_t cls, uint32_t def) {
  uint16_t inst = instance_type(m, cls);
  if (inst == GL_TYPE_NONE) return NULL;
  size_t len;
  const char *name = gl_model__text(m, ts_node_child_by_field_id(m->nodes.data[def].node, m->f.name), &len);
  const gl_api_entry *e = gl_libmodels_method(m->lm, inst, name, len);
  return e && e->per_step ? e : NULL;
}

/* Marks the methods a framework calls on every step as hot roots: a def in the body of a class
 * whose instance type has that method with "per-step" in its model (`forward` of a
 * torch.nn.Module subclass). The hot defs' rounds then carry it to the helpers they call. */
static void mark_per_step_methods(gl_model *m) {
  for (uint32_t j = 0; j < m->nodes.len; j++) {
    if (m->nodes.data[j].kind != GL_K_CLASS_DEFINITION || instance_type(m, j) == GL_TYPE_NONE) continue;
    uint32_t body = gl_model__index_of(m, ts_node_child_by_field_id(m->nodes.data[j].node, m->f.body));
    if (body == GL_MODEL__NONE) continue;
    for (uint32_t c = body + 1; c < m->ends[body]; c = m->ends[c]) {
      uint32_t def = c;
      if (m->nodes.data[c].kind == GL_K_DECORATED_DEFINITION)
        def = gl_model__index_of(m, ts_node_child_by_field_id(m->nodes.data[c].node, m->f.definition));
      if (def == GL_MODEL__NONE || m->nodes.data[def].kind != GL_K_FUNCTION_DEFINITION) continue;
      if (gl_model__step_method(m, j, def)) set_hot_root(m, def);
    }
  }
}

/* True when comment node i reads `# gpulint: hot` (spaces around the colon optional). */
static bool hot_comment(const gl_model *m, uint32_t i) {
  size_t len;
  const char *s = gl_model__text(m, m->nodes.data[i].node, &len);
  size_t k = 1;
  while (k < len && s[k] == ' ') k++;
  if (len - k < 7 || memcmp(s + k, "gpulint", 7) != 0) return false;
  k += 7;
  while (k < len && s[k] == ' ') k++;
  if (k >= len || s[k++] != ':') return false;
  while (k < len && s[k] == ' ') k++;
  if (len - k < 3 || memcmp(s + k, "hot", 3) != 0) return false;
  for (k += 3; k < len; k++)
    if (s[k] != ' ') return false;
  return true;
}

/* Marks GL_REC_HOT_DEF on the defs the user says run on every step: a `# gpulint: hot` comment
 * at the end of the def's line, or on the line above the def (or above its decorators). A hot
 * root the file cannot see: a helper a framework or another file calls per step. */
static void mark_user_hot_defs(gl_model *m) {
  for (uint32_t j = 0; j < m->nodes.len; j++) {
    if (m->nodes.data[j].kind != GL_K_COMMENT || !hot_comment(m, j)) continue;
    uint32_t row = ts_node_start_point(m->nodes.data[j].node).row;
    for (uint32_t d = 0; d < m->nodes.len; d++) {
      uint8_t k = m->nodes.data[d].kind;
      if (k != GL_K_FUNCTION_DEFINITION) continue;
      uint32_t p = m->nodes.data[d].parent;
      uint32_t top = p != GL_MODEL__NONE && m->nodes.data[p].kind == GL_K_DECORATED_DEFINITION ? p : d;
      uint32_t r0 = ts_node_start_point(m->nodes.data[d].node).row;
      uint32_t rtop = ts_node_start_point(m->nodes.data[top].node).row;
      if (r0 == row || rtop == row + 1) set_hot_root(m, d);
    }
  }
}

/* Marks GL_REC_HOT_DEF on the defs the program stage found another file calling per step
 * (m->program). Not hot roots: beside a loop of their own that does the GPU work, their
 * statements run once per call of an outer loop, as for a def of this file. */
static void mark_program_hot_defs(gl_model *m) {
  for (size_t k = 0; k < m->nprogram; k++)
    for (uint32_t d = 0; d < m->nodes.len && m->program[k].hot; d++) {
      gl_model__rec *r = &m->nodes.data[d];
      if (r->kind != GL_K_FUNCTION_DEFINITION || ts_node_start_byte(r->node) != m->program[k].start) continue;
      r->flags |= GL_REC_HOT_DEF;
      m->per_step_defs = true;
      if (m->program[k].root) set_hot_root(m, d);
    }
}

/* ---- traced defs -------------------------------------------------------------------------- */

/* The def of this file that identifier node i names, or GL_MODEL__NONE. */
static uint32_t def_named(const gl_model *m, uint32_t i) {
  size_t len;
  const char *s = gl_model__text(m, m->nodes.data[i].node, &len);
  uint32_t e = gl_model__entry_read(&m->names, m->nodes.data[i].scope, s, len);
  if (e == GL_MODEL__NONE) return GL_MODEL__NONE;
  for (uint32_t j = 0; j < m->nodes.len; j++) {
    if (m->nodes.data[j].kind != GL_K_FUNCTION_DEFINITION) continue;
    TSNode name = ts_node_child_by_field_id(m->nodes.data[j].node, m->f.name);
    uint32_t ni = gl_model__index_of(m, name);
    size_t l;
    const char *t = gl_model__text(m, name, &l);
    if (ni != GL_MODEL__NONE && l == len && memcmp(s, t, len) == 0 &&
        gl_model__entry_bind(&m->names, m->nodes.data[ni].scope, t, l) == e)
      return j;
  }
  return GL_MODEL__NONE;
}

/* True when n is a call of a function the models mark "partial" (functools.partial). */
static bool is_partial(const gl_model *m, TSNode n) {
  if (ts_node_is_null(n) || strcmp(ts_node_type(n), "call") != 0) return false;
  char q[128];
  if (!gl_model_resolve(m, ts_node_child_by_field_id(n, m->f.function), q, sizeof(q))) return false;
  const gl_api_entry *e = gl_libmodels_function(m->lm, q, strlen(q));
  return e && e->partial;
}

static void set_traced(gl_model *m, uint32_t def) {
  if (!m->traced) m->traced = gl_xcalloc(m->nodes.len, 1);
  m->traced[def] = 1;
}

/* Fills m->traced: a def whose name a model types as traced (`@jax.jit`, `@torch.compile`,
 * `@partial(jax.jit, ...)`), a def wrapped by a call of that type (`step = jax.jit(step)`,
 * `jax.pmap(partial(step, lr=lr))`), then,
 * round by round, a def every call of which lies in a traced def (a helper of a jitted step). */
static void mark_traced_defs(gl_model *m) {
  for (uint32_t j = 0; j < m->nodes.len; j++) {
    const gl_model__rec *r = &m->nodes.data[j];
    if (r->kind == GL_K_FUNCTION_DEFINITION) {
      uint32_t ni = gl_model__index_of(m, ts_node_child_by_field_id(r->node, m->f.name));
      if (ni != GL_MODEL__NONE && gl_libmodels_type_traced(m->lm, m->nodes.data[ni].type))
        set_traced(m, j);
    } else if (r->kind == GL_K_CALL && gl_libmodels_type_traced(m->lm, r->type)) {
      TSNode a0 = ts_node_named_child(ts_node_child_by_field_id(r->node, m->f.arguments), 0);
      if (is_partial(m, a0))   /* jax.pmap(functools.partial(train_step, lr=lr)) */
        a0 = ts_node_named_child(ts_node_child_by_field_id(a0, m->f.arguments), 0);
      uint32_t ai = gl_model__index_of(m, a0);
      uint32_t def = ai != GL_MODEL__NONE && m->nodes.data[ai].kind == GL_K_IDENTIFIER
                         ? def_named(m, ai) : GL_MODEL__NONE;
      if (def != GL_MODEL__NONE) set_traced(m, def);
    }
  }
  if (!m->traced || !m->calls.len) return;
  /* per def: 1 = some call seen, 2 = some call outside traced code */
  uint8_t *seen = gl_xcalloc(m->nodes.len, 1);
  for (size_t round = 0; round < MAX_ROUNDS; round++) {
    memset(seen, 0, m->nodes.len);
    for (size_t k = 0; k < m->calls.len; k++) {
      const gl_model__call *c = &m->calls.data[k];
      seen[c->def] |= in_traced_def(m, c->call) ? 1 : 3;
    }
    bool changed = false;
    for (size_t k = 0; k < m->calls.len; k++) {
      uint32_t def = m->calls.data[k].def;
      if (seen[def] == 1 && !m->traced[def]) {
        m->traced[def] = 1;
        changed = true;
      }
    }
    if (!changed) break;
  }
  free(seen);
}

void gl_model__calls_finish(gl_model *m) {
  m->test_module = test_module(m);
  find_captured_loops(m);
  mark_per_step_methods(m);
  mark_user_hot_defs(m);
  mark_program_hot_defs(m);
  mark_traced_defs(m);
  if (!m->calls.len) return;
  qsort(m->calls.data, m->calls.len, sizeof(*m->calls.data), by_call);
  size_t n = 0;
  for (size_t k = 0; k < m->calls.len; k++)
    if (!n || m->calls.data[n - 1].call != m->calls.data[k].call) m->calls.data[n++] = m->calls.data[k];
  m->calls.len = n;
  /* gpu_work through chains of calls, with one flag byte per node for the defs: each round can
   * only add defs, and scans each def at most once */
  enum { WORK = 1, SEEN = 2 };
  uint8_t *dflag = gl_xcalloc(m->nodes.len, 1);
  for (size_t round = 0; round < MAX_ROUNDS; round++) {
    bool changed = false;
    for (size_t k = 0; k < n; k++) {
      uint8_t *d = &dflag[m->calls.data[k].def];
      if (*d & (WORK | SEEN)) continue;
      *d |= SEEN;
      if (does_gpu_work(m, m->calls.data[k].def)) {
        *d |= WORK;
        changed = true;
      }
    }
    for (size_t k = 0; k < n; k++) {
      uint8_t *d = &dflag[m->calls.data[k].def];
      m->calls.data[k].gpu_work = (*d & WORK) != 0;
      *d &= (uint8_t)~SEEN;
    }
    if (!changed) break;
  }
  free(dflag);
  for (size_t k = 0; k < n; k++) m->calls.data[k].gpu_loop = def_has_gpu_loop(m, m->calls.data[k].def);
  /* a def is hot when one of its calls is: each round can only add defs; a chain of calls
   * longer than MAX_ROUNDS defs stops there */
  /* a call in a loop of its own def is decided in the first round (its answer does not depend
   * on which defs are hot), so each round scans loop bodies at most once per call */
  uint8_t *decided = gl_xcalloc(n, 1);
  for (size_t round = 0; round < MAX_ROUNDS; round++) {
    bool changed = false;
    for (size_t k = 0; k < n; k++) {
      gl_model__rec *d = &m->nodes.data[m->calls.data[k].def];
      if ((d->flags & GL_REC_HOT_DEF) || decided[k]) continue;
      uint32_t call = m->calls.data[k].call;
      if (m->nodes.data[call].flags & GL_REC_IN_LOOP) decided[k] = 1;
      if (!hot_at(m, call)) continue;
      d->flags |= GL_REC_HOT_DEF;
      changed = true;
    }
    if (!changed) break;
  }
  free(decided);
}

/* The loop whose iterations make node i hot: the innermost for / while statement whose body
 * holds i within i's def, else that def; GL_MODEL__NONE at module level outside loops. */
static uint32_t hot_region(const gl_model *m, uint32_t i) {
  for (uint32_t c = i, p = m->nodes.data[i].parent; p != GL_MODEL__NONE;
       c = p, p = m->nodes.data[p].parent) {
    uint8_t k = m->nodes.data[p].kind;
    if ((k == GL_K_FOR_STATEMENT || k == GL_K_WHILE_STATEMENT) && m->nodes.data[c].field == m->f.body)
      return p;
    if (k == GL_K_FUNCTION_DEFINITION) return p;
    if (k == GL_K_LAMBDA || k == GL_K_CLASS_DEFINITION) return GL_MODEL__NONE;
  }
  return GL_MODEL__NONE;
}

bool gl_model_drained(const gl_model *m, TSNode node) {
  uint32_t i = gl_model__index_of(m, node);
  uint32_t loop = i == GL_MODEL__NONE ? GL_MODEL__NONE : hot_region(m, i);
  if (loop == GL_MODEL__NONE) return false;
  for (uint32_t j = loop + 1; j < m->ends[loop]; j++) {
    const gl_model__rec *r = &m->nodes.data[j];
    if (r->kind == GL_K_FUNCTION_DEFINITION || r->kind == GL_K_CLASS_DEFINITION || r->kind == GL_K_LAMBDA) {
      j = m->ends[j] - 1;
      continue;
    }
    if (r->kind != GL_K_CALL || (j <= i && i < m->ends[j]) || (i <= j && j < m->ends[i])) continue;
    bool waits = (r->roles & GL_ROLE_SYNC) ||
                 ((r->roles & GL_ROLE_D2H) && gl_model_needed_transfer(m, r->node));
    if (waits && !conditional(m, loop, j)) return true;
  }
  return false;
}

/* True when call j reads a host clock (the timer role), records an event or reads an event's
 * elapsed time (by the callee's last name: an exemption, so a wider net is the safe side). */
static bool times(const gl_model *m, uint32_t j) {
  const gl_model__rec *r = &m->nodes.data[j];
  if (r->kind != GL_K_CALL) return false;
  if (r->roles & GL_ROLE_TIMER) return true;
  static const char *const events[] = {".elapsed_time", ".record"};
  return callee_ends(m, j, events, 2);
}

/* Records the blocks (and the module) that have a statement of their own reading a clock: a
 * simple statement anywhere in it (not inside a lambda), or a `with` in its items; the bodies of
 * compound statements are blocks of their own. One pass over the file's nodes at build time, so
 * that gl_model_timed is a lookup: a generated file asks it for thousands of nodes. */
void gl_model__timing_finish(gl_model *m) {
  for (uint32_t j = 0; j < m->nodes.len; j++) {
    if (!times(m, j)) continue;
    m->times_anywhere = true;
    uint32_t c = j, p = m->nodes.data[j].parent;
    bool in_lambda = false;
    while (p != GL_MODEL__NONE && m->nodes.data[p].kind != GL_K_BLOCK &&
           m->nodes.data[p].parent != GL_MODEL__NONE) {
      c = p;
      p = m->nodes.data[p].parent;
      in_lambda |= m->nodes.data[c].kind == GL_K_LAMBDA;
    }
    uint8_t k = m->nodes.data[c].kind;
    if (p == GL_MODEL__NONE || in_lambda ||
        (k != GL_K_EXPRESSION_STATEMENT && k != GL_K_RETURN_STATEMENT && k != GL_K_WITH_STATEMENT))
      continue;
    if (!m->timing_blocks.len || m->timing_blocks.data[m->timing_blocks.len - 1] != p)
      gl_vec_push(&m->timing_blocks, p);
  }
}

/* True when a statement of block b (a block, or the module) reads a clock itself. */
static bool block_times(const gl_model *m, uint32_t b) {
  for (size_t k = 0; k < m->timing_blocks.len; k++)
    if (m->timing_blocks.data[k] == b) return true;
  return false;
}

bool gl_model_timed(const gl_model *m, TSNode node) {
  if (!m || !m->times_anywhere) return false;
  uint32_t i = gl_model__index_of(m, node);
  if (i == GL_MODEL__NONE) return false;
  for (uint32_t p = m->nodes.data[i].parent; p != GL_MODEL__NONE; p = m->nodes.data[p].parent) {
    uint8_t k = m->nodes.data[p].kind;
    if (k == GL_K_FUNCTION_DEFINITION || k == GL_K_LAMBDA || k == GL_K_CLASS_DEFINITION)
      /* hot only through its def: the loop that calls it, and may time each call, is elsewhere */
      return k == GL_K_FUNCTION_DEFINITION && !(m->nodes.data[i].flags & GL_REC_IN_LOOP);
    if ((k == GL_K_BLOCK || m->nodes.data[p].parent == GL_MODEL__NONE) && block_times(m, p))
      return true;
  }
  return false;
}

/* The element a comprehension builds (`[f(x) for ...]`, also parenthesized), or the one argument
 * of an `.append(...)`: each iteration keeps its own result. */
bool gl_model_collected(const gl_model *m, TSNode node) {
  uint32_t i = m ? gl_model__index_of(m, node) : GL_MODEL__NONE;
  if (i == GL_MODEL__NONE) return false;
  uint32_t p = m->nodes.data[i].parent;
  while (p != GL_MODEL__NONE && m->nodes.data[p].kind == GL_K_PARENTHESIZED_EXPRESSION) {
    i = p;
    p = m->nodes.data[p].parent;
  }
  if (p == GL_MODEL__NONE) return false;
  uint8_t k = m->nodes.data[p].kind;
  if (k == GL_K_LIST_COMPREHENSION || k == GL_K_SET_COMPREHENSION ||
      k == GL_K_GENERATOR_EXPRESSION)
    return m->nodes.data[i].field == m->f.body;
  if (k != GL_K_ARGUMENT_LIST || ts_node_named_child_count(m->nodes.data[p].node) != 1) return false;
  uint32_t call = m->nodes.data[p].parent;
  static const char *const append[] = {".append"};
  return call != GL_MODEL__NONE && m->nodes.data[call].kind == GL_K_CALL &&
         callee_ends(m, call, append, 1);
}
