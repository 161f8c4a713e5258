/* timer_scan.c: the shared index of the timing checks (timer_scan.h).
 * Owns: the one walk (the checks' walk, walk.h) that lists events, functions, conditional
 *       blocks, timer assignments, subtractions, classes and with statements, with a frame per
 *       node on the current path; which clock a read is (the models' "clock" of its qualified
 *       name); the region question (gl_tscan_region) and which library a GPU-work event belongs
 *       to.
 * Not: reporting (unsynchronized_timer.c, magic_timers.c, timeit_without_sync.c).
 * Threads: a gl_tscan belongs to one worker. */
#include "checks/timing/timer_scan.h"

#include <stdio.h>
#include <string.h>

#include "checks/walk.h"
#include "libmodel/libmodel.h"
#include "parse/parse.h"

enum { GL_TEV_LOCAL = 1u << 4 }; /* a call of a plain name: may be a function of this file */
#define QNAME_CAP 256


typedef struct frame {
  TSNode node;
  int32_t fn, cond;
  int32_t cls_body;  /* this node is (or directly wraps) the body of class cls_body, else -1 */
} frame;

typedef gl_vec(frame) frame_stack;


gl_tlib gl_tscan_lib_of(const gl_libmodels *lm, const char *q, size_t len) {
  int lib = gl_libmodels_module_library(lm, q, len);
  if (lib < 0 || lib >= UINT16_MAX || !gl_libmodels_text(lm, (uint16_t)lib, GL_LM_SYNCHRONIZE))
    return GL_TLIB_NONE;
  return (gl_tlib)(lib + 1);
}

const char *gl_tscan_fix(const gl_libmodels *lm, gl_tlib lib, gl_tfix form, char *buf, size_t cap) {
  if (lib == GL_TLIB_NONE) return NULL;
  const char *sync = gl_libmodels_text(lm, (uint16_t)(lib - 1), GL_LM_SYNCHRONIZE);
  const char *bench = gl_libmodels_text(lm, (uint16_t)(lib - 1), GL_LM_BENCHMARK);
  if (!sync) return NULL;
  snprintf(buf, cap, form == GL_TFIX_CALL ? "call %s before reading the clock%s%s" : "end it with %s%s%s",
           sync, bench ? ", or time it with " : "", bench ? bench : "");
  return buf;
}

/* The library a qualified name belongs to, by its first segment. */
static gl_tlib lib_of_qname(const gl_tscan *s, const char *q, size_t len) {
  return gl_tscan_lib_of(gl_model_libmodels(s->model), q, len);
}

/* The name an expression is built on: `a` of a.b(c)[d].e, or a null node. */
static TSNode base_name(TSNode n) {
  for (int guard = 0; guard < 64 && !ts_node_is_null(n); guard++) {
    TSSymbol sym = ts_node_symbol(n);
    if (GL_HAS(sym, identifier)) return n;
    if (GL_HAS(sym, attribute)) n = gl_parse_child(n, "object", 6);
    else if (GL_HAS(sym, call)) n = gl_parse_child(n, "function", 8);
    else if (GL_HAS(sym, subscript)) n = gl_parse_child(n, "value", 5);
    else if (GL_HAS(sym, binary_operator)) n = gl_parse_child(n, "left", 4);
    else if (GL_HAS(sym, unary_operator)) n = gl_parse_child(n, "argument", 8);
    else if (GL_HAS(sym, parenthesized_expression)) n = ts_node_named_child(n, 0);
    else if (GL_HAS(sym, augmented_assignment)) n = gl_parse_child(n, "left", 4);
    else if (GL_HAS(sym, comparison_operator)) n = ts_node_named_child(n, 0);
    else break;
  }
  return (TSNode){0};
}

/* The library of an expression's callee or base name when it resolves to a module. */
static gl_tlib lib_of_expr(const gl_tscan *s, TSNode n) {
  char q[QNAME_CAP];
  TSNode fn = GL_IS(n, call) ? gl_parse_child(n, "function", 8) : n;
  if (!ts_node_is_null(fn) && gl_model_resolve(s->model, fn, q, sizeof q))
    return lib_of_qname(s, q, strlen(q));
  TSNode b = base_name(n);
  if (!ts_node_is_null(b) && gl_model_resolve(s->model, b, q, sizeof q))
    return lib_of_qname(s, q, strlen(q));
  return GL_TLIB_NONE;
}

/* ---- visiting one node --------------------------------------------------------------------- */

/* GL_TEV_WALL or GL_TEV_CPU for a call of a clock the models mark ("clock": "wall" / "cpu",
 * python.json), else 0. */
static uint8_t clock_kind(const gl_tscan *s, TSNode call) {
  char q[QNAME_CAP];
  TSNode fn = gl_parse_child(call, "function", 8);
  if (ts_node_is_null(fn) || !gl_model_resolve(s->model, fn, q, sizeof q)) return 0;
  const gl_api_entry *e =
      gl_libmodels_function_exact(gl_model_libmodels(s->model), q, strlen(q));
  if (!e) return 0;
  return e->clock == GL_CLOCK_WALL ? GL_TEV_WALL : e->clock == GL_CLOCK_CPU ? GL_TEV_CPU : 0;
}

/* A call of a clock the rule's options name (`extra-timers`, `extra-cpu-timers`), else 0. */
static uint8_t extra_clock_kind(const gl_tscan *s, TSNode call) {
  size_t nwall = 0, ncpu = 0;
  gl_rule_option_strings(s->rule, "extra-timers", &nwall);
  gl_rule_option_strings(s->rule, "extra-cpu-timers", &ncpu);
  if (!nwall && !ncpu) return 0;
  char q[QNAME_CAP];
  TSNode fn = gl_parse_child(call, "function", 8);
  if (ts_node_is_null(fn) || !gl_model_resolve(s->model, fn, q, sizeof q)) return 0;
  if (gl_rule_option_has(s->rule, "extra-timers", q)) return GL_TEV_WALL;
  if (gl_rule_option_has(s->rule, "extra-cpu-timers", q)) return GL_TEV_CPU;
  return 0;
}

/* True when the model of n's type says which of its calls and operations launch work
 * ("explicit-work"): the roles alone then tell work apart (cuDF's `df.head()` launches none). */
static bool explicit_work(const gl_tscan *s, TSNode n) {
  return !ts_node_is_null(n) &&
         gl_libmodels_type_explicit_work(gl_model_libmodels(s->model), gl_model_type(s->model, n));
}

/* A call that returns device data from a GPU library function (`torch.matmul(a, b)`) or a
 * method of a device value (`t.sum()`): models such as torch.json give these a device result
 * but no gpu-work role. A function of the file returning device data is not counted, nor a
 * method of a receiver whose model says explicit-work. */
static bool library_device_call(const gl_tscan *s, TSNode call) {
  if (gl_model_prov(s->model, call) != GL_PROV_DEVICE) return false;
  TSNode fn = gl_parse_child(call, "function", 8);
  TSNode obj = GL_IS(fn, attribute) ? gl_parse_child(fn, "object", 6) : (TSNode){0};
  if (!ts_node_is_null(obj) && gl_model_prov(s->model, obj) == GL_PROV_DEVICE)
    return !explicit_work(s, obj);
  char q[QNAME_CAP];
  return !ts_node_is_null(fn) && gl_model_resolve(s->model, fn, q, sizeof q) &&
         lib_of_qname(s, q, strlen(q)) != GL_TLIB_NONE;
}

static uint8_t classify(const gl_tscan *s, TSNode n, TSSymbol sym) {
  uint32_t roles = gl_model_roles(s->model, n);
  const uint32_t work = GL_ROLE_GPU_WORK | GL_ROLE_DEVICE_RETURNING | GL_ROLE_ALLOC | GL_ROLE_H2D;
  if (roles & (GL_ROLE_SYNC | GL_ROLE_D2H)) return GL_TEV_SYNC;
  if (GL_HAS(sym, call)) {
    if (roles & GL_ROLE_TIMER) return clock_kind(s, n);
    uint8_t extra = extra_clock_kind(s, n);
    if (extra) return extra;
    if ((roles & work) || library_device_call(s, n)) return GL_TEV_WORK;
    return GL_IS(gl_parse_child(n, "function", 8), identifier) ? GL_TEV_LOCAL : 0;
  }
  bool op = GL_HAS(sym, binary_operator) || GL_HAS(sym, unary_operator) ||
            GL_HAS(sym, comparison_operator) || GL_HAS(sym, subscript) ||
            GL_HAS(sym, augmented_assignment);
  if (!op) return 0;
  if (roles & work) return GL_TEV_WORK;
  TSNode operand = GL_HAS(sym, subscript) ? gl_parse_child(n, "value", 5) : (TSNode){0};
  if (gl_model_prov(s->model, n) == GL_PROV_DEVICE && !explicit_work(s, operand)) return GL_TEV_WORK;
  return 0;
}

/* Keeps pos non-decreasing (a lambda's parameters come after the assignment holding it). */
static void add_binding(gl_tscan *s, TSNode name, uint32_t rhs, uint32_t pos, int32_t fn) {
  if (s->assigns.len && gl_vec_last(&s->assigns)->pos > pos) pos = gl_vec_last(&s->assigns)->pos;
  gl_tassign a = {ts_node_start_byte(name), ts_node_end_byte(name), rhs, pos, -1, fn};
  gl_vec_push(&s->assigns, a);
}

static void visit_assignment(gl_tscan *s, TSNode n, const frame *f) {
  TSNode left = gl_parse_child(n, "left", 4);
  TSNode right = gl_parse_child(n, "right", 5);
  if (!(GL_IS(left, identifier) || GL_IS(left, attribute))) return;
  /* a clock read on the right is linked after the walk (gl_tscan_build, by position) */
  add_binding(s, left, GL_IS(right, call) ? ts_node_start_byte(right) : 0, ts_node_end_byte(n),
              f->fn);
  if (!GL_IS(right, call)) return;
  gl_tlib lib = lib_of_expr(s, right);
  if (lib != GL_TLIB_NONE && GL_IS(left, identifier))
    gl_vec_push(&s->libnames, ((gl_tlibname){ts_node_start_byte(left), ts_node_end_byte(left),
                                             ts_node_end_byte(n), lib}));
}

static void visit_import(gl_tscan *s, TSNode n) {
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (GL_IS(c, aliased_import)) c = gl_parse_child(c, "name", 4);
    if (!gl_parse_type_is(c, "dotted_name")) continue;
    uint32_t a = ts_node_start_byte(c), b = ts_node_end_byte(c);
    gl_tlib lib = lib_of_qname(s, s->src->bytes + a, b - a);
    if (lib < 64) s->libs |= 1ull << lib;
  }
}

static void visit_with(gl_tscan *s, TSNode n, const frame *f) {
  TSNode clause = ts_node_named_child(n, 0);
  TSNode item =
      gl_parse_type_is(clause, "with_clause") ? ts_node_named_child(clause, 0) : (TSNode){0};
  TSNode value = gl_parse_type_is(item, "with_item") ? gl_parse_child(item, "value", 5) : item;
  if (gl_parse_type_is(value, "as_pattern"))
    value = ts_node_named_child(value, 0); /* `Timer() as t` */
  TSNode body = gl_parse_child(n, "body", 4);
  if (!GL_IS(value, call) || ts_node_is_null(body)) return;
  gl_vec_push(&s->withs, ((gl_twith){value, body, f->fn, f->cond}));
}

/* `@cuda.jit def k(...)`: k is bound to the decorator's library (the topmost decorator). */
static void visit_decorated(gl_tscan *s, TSNode n) {
  TSNode dec = ts_node_named_child(n, 0);
  TSNode def = gl_parse_child(n, "definition", 10);
  TSNode name = ts_node_is_null(def) ? def : gl_parse_child(def, "name", 4);
  if (!gl_parse_type_is(dec, "decorator") || ts_node_is_null(name)) return;
  gl_tlib lib = lib_of_expr(s, ts_node_named_child(dec, 0));
  if (lib == GL_TLIB_NONE) return;
  gl_vec_push(&s->libnames, ((gl_tlibname){ts_node_start_byte(name), ts_node_end_byte(name),
                                           ts_node_start_byte(n), lib}));
}

static void visit(gl_tscan *s, TSNode n, TSSymbol sym, const frame *f) {
  uint8_t kind = classify(s, n, sym);
  if (kind) {
    gl_tevent e = {n, ts_node_start_byte(n), ts_node_end_byte(n), kind, f->fn, f->cond};
    gl_vec_push(&s->events, e);
  }
  if (GL_HAS(sym, assignment)) visit_assignment(s, n, f);
  else if (GL_HAS(sym, binary_operator)) {
    TSNode op = gl_parse_child(n, "operator", 8);
    if (gl_parse_type_is(op, "-")) gl_vec_push(&s->subs, n);
  } else if (GL_HAS(sym, import_statement) || GL_HAS(sym, import_from_statement))
    visit_import(s, n);
  else if (GL_HAS(sym, with_statement)) visit_with(s, n, f);
  else if (GL_HAS(sym, decorated_definition)) visit_decorated(s, n);
}

/* ---- the walk ------------------------------------------------------------------------------ */

static bool opens_cond(TSSymbol sym, const char *field, const frame *parent) {
  if (GL_HAS(sym, block))
    return field && strcmp(field, "consequence") == 0 &&
           gl_parse_type_is(parent->node, "if_statement");
  return GL_HAS(sym, elif_clause) || GL_HAS(sym, else_clause) ||
         GL_HAS(sym, except_clause) || GL_HAS(sym, except_group_clause) ||
         GL_HAS(sym, case_clause);
}

/* Parameters bind their names at the def (they shadow names of enclosing scopes). */
static void add_params(gl_tscan *s, TSNode def, int32_t fn) {
  TSNode params = gl_parse_child(def, "parameters", 10);
  uint32_t count = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
  for (uint32_t i = 0; i < count; i++) {
    TSNode p = ts_node_named_child(params, i);
    TSNode name = GL_IS(p, identifier) ? p : gl_parse_child(p, "name", 4);
    if (ts_node_is_null(name)) name = ts_node_named_child(p, 0); /* typed, *args, **kw */
    if (GL_IS(name, identifier)) add_binding(s, name, 0, ts_node_start_byte(def), fn);
  }
}

static void add_fn(gl_tscan *s, TSNode n, frame *f, const frame *parent) {
  gl_tfn fn = {n, parent->fn, parent->cls_body, 0, 0};
  TSNode name = gl_parse_child(n, "name", 4);
  if (!ts_node_is_null(name)) {
    fn.name_start = ts_node_start_byte(name);
    fn.name_end = ts_node_end_byte(name);
  }
  gl_vec_push(&s->fns, fn);
  f->fn = (int32_t)s->fns.len - 1;
  add_params(s, n, f->fn);
}

static void add_class(gl_tscan *s, TSNode n) {
  TSNode name = gl_parse_child(n, "name", 4);
  gl_tclass c = {0, 0, -1, -1, -1};
  if (!ts_node_is_null(name)) {
    c.name_start = ts_node_start_byte(name);
    c.name_end = ts_node_end_byte(name);
  }
  gl_vec_push(&s->classes, c);
}

/* The frame of n, a child of the stack's top, pushed; n visited when named. */
static void enter(gl_tscan *s, frame_stack *st, TSNode n, const char *field) {
  const frame parent = *gl_vec_last(st);
  frame f = {n, parent.fn, parent.cond, -1};
  TSSymbol sym = ts_node_symbol(n);
  if (opens_cond(sym, field, &parent)) {
    gl_vec_push(&s->conds, ((gl_tspan){ts_node_start_byte(n), ts_node_end_byte(n), parent.cond}));
    f.cond = (int32_t)s->conds.len - 1;
  }
  if (GL_HAS(sym, function_definition) || GL_HAS(sym, lambda)) add_fn(s, n, &f, &parent);
  else if (GL_HAS(sym, decorated_definition)) f.cls_body = parent.cls_body;
  else if (GL_HAS(sym, class_definition)) add_class(s, n);
  else if (GL_HAS(sym, block) && GL_IS(parent.node, class_definition))
    f.cls_body = (int32_t)s->classes.len - 1;
  gl_vec_push(st, f);
  if (ts_node_is_named(n)) visit(s, n, sym, &f);
}

/* Every named node below the root in document order; the frames on the stack are the node's
 * named ancestors (one per depth of the walk). */
static void walk(gl_tscan *s, const TSTree *tree) {
  gl_check__walk w;
  gl_check__walk_init(&w, s->model, ts_tree_root_node(tree));
  frame_stack st = {0};
  TSNode n;
  while (gl_check__walk_next(&w, &n)) {
    uint32_t d = gl_check__walk_depth(&w);
    if (d == 0) {
      gl_vec_push(&st, ((frame){n, 0, -1, -1}));
      continue;
    }
    st.len = d;
    enter(s, &st, n, gl_check__walk_field(&w));
  }
  gl_vec_free(&st);
  gl_check__walk_free(&w);
}

/* ---- after the walk: links ----------------------------------------------------------------- */

static size_t first_event_from(const gl_tscan *s, uint32_t b);

int32_t gl_tscan_clock_at(const gl_tscan *s, uint32_t b) {
  size_t lo = first_event_from(s, b);
  for (size_t i = lo; i < s->events.len && s->events.data[i].start == b; i++)
    if (s->events.data[i].kind & (GL_TEV_WALL | GL_TEV_CPU)) return (int32_t)i;
  return -1;
}

static void link_assigns(gl_tscan *s) {
  for (size_t i = 0; i < s->assigns.len; i++) {
    gl_tassign *a = &s->assigns.data[i];
    if (a->rhs_start) a->ev = gl_tscan_clock_at(s, a->rhs_start);
  }
}

static bool fn_named(const gl_tscan *s, int32_t fn, const char *name) {
  const gl_tfn *f = &s->fns.data[fn];
  size_t n = strlen(name);
  return f->name_end - f->name_start == n && memcmp(s->src->bytes + f->name_start, name, n) == 0;
}

/* Timer classes: a wall read directly in __enter__ and in __exit__. */
static void link_classes(gl_tscan *s) {
  for (size_t i = 0; i < s->events.len; i++) {
    const gl_tevent *e = &s->events.data[i];
    int32_t cls = s->fns.data[e->fn].cls;
    if (!(e->kind & GL_TEV_WALL) || cls < 0) continue;
    gl_tclass *c = &s->classes.data[cls];
    if (fn_named(s, e->fn, "__enter__") && c->enter_ev < 0) c->enter_ev = (int32_t)i;
    if (fn_named(s, e->fn, "__exit__")) {
      c->exit_ev = (int32_t)i;
      c->exit_fn = e->fn;
    }
  }
}

/* A call of a name that some def of this file has, whose body synchronizes directly, is a
 * synchronization (an implicit sync hidden in a helper). */
static void link_local_syncs(gl_tscan *s) {
  bool *syncs = gl_xcalloc(s->fns.len, sizeof(bool));
  for (size_t i = 0; i < s->events.len; i++)
    if (s->events.data[i].kind & GL_TEV_SYNC) syncs[s->events.data[i].fn] = true;
  for (size_t i = 0; i < s->events.len; i++) {
    gl_tevent *e = &s->events.data[i];
    if (e->kind != GL_TEV_LOCAL) continue;
    TSNode callee = gl_parse_child(e->node, "function", 8);
    uint32_t a = ts_node_start_byte(callee), b = ts_node_end_byte(callee);
    for (size_t f = 1; f < s->fns.len; f++)
      if (syncs[f] &&
          gl_tscan_same_text(s, a, b, s->fns.data[f].name_start, s->fns.data[f].name_end))
        e->kind = GL_TEV_SYNC;
  }
  free(syncs);
}

void gl_tscan_build(gl_tscan *s, const gl_source *src, const TSTree *tree, const gl_model *model,
                    const gl_rule *rule) {
  memset(s, 0, sizeof *s);
  s->src = src;
  s->model = model;
  s->rule = rule;
  gl_vec_push(&s->fns, ((gl_tfn){.parent = -1, .cls = -1}));
  if (!model || !tree) return;
  walk(s, tree);
  link_assigns(s);
  link_classes(s);
  link_local_syncs(s);
}

/* True when the file imports the top-level module of qualified name q. */
static bool imports_root(const gl_model *m, const char *q) {
  char root[QNAME_CAP];
  size_t n = strcspn(q, ".");
  if (n == 0 || n >= sizeof root) return true;   /* cannot tell: keep the scan */
  memcpy(root, q, n);
  root[n] = '\0';
  return gl_model_imports(m, root);
}

static bool option_imported(const gl_model *m, const gl_rule *rule, const char *option) {
  size_t n = 0;
  const char *const *names = gl_rule_option_strings(rule, option, &n);
  for (size_t i = 0; i < n; i++)
    if (imports_root(m, names[i])) return true;
  return false;
}

bool gl_tscan_clocks_possible(const gl_model *model, const gl_rule *rule) {
  if (!model) return true;
  static const char *const clock_modules[] = {"time", "timeit", "datetime"};
  for (size_t i = 0; i < sizeof clock_modules / sizeof *clock_modules; i++)
    if (gl_model_imports(model, clock_modules[i])) return true;
  return option_imported(model, rule, "extra-timers") ||
         option_imported(model, rule, "extra-cpu-timers");
}

void gl_tscan_free(gl_tscan *s) {
  gl_vec_free(&s->events);
  gl_vec_free(&s->fns);
  gl_vec_free(&s->conds);
  gl_vec_free(&s->assigns);
  gl_vec_free(&s->subs);
  gl_vec_free(&s->libnames);
  gl_vec_free(&s->classes);
  gl_vec_free(&s->withs);
}

/* ---- queries ------------------------------------------------------------------------------- */

bool gl_tscan_same_text(const gl_tscan *s, uint32_t a0, uint32_t a1, uint32_t b0, uint32_t b1) {
  return a1 - a0 == b1 - b0 && a1 > a0 &&
         memcmp(s->src->bytes + a0, s->src->bytes + b0, a1 - a0) == 0;
}

int32_t gl_tscan_fn_at(const gl_tscan *s, uint32_t b) {
  int32_t best = 0;
  for (size_t i = 1; i < s->fns.len; i++) {
    TSNode n = s->fns.data[i].node;
    if (ts_node_start_byte(n) <= b && b < ts_node_end_byte(n)) best = (int32_t)i;
  }
  return best;
}

/* True when fn `outer` is `inner` or encloses it. */
static bool fn_encloses(const gl_tscan *s, int32_t outer, int32_t inner) {
  for (int32_t f = inner; f >= 0; f = s->fns.data[f].parent)
    if (f == outer) return true;
  return false;
}

/* True when every conditional block holding the event also holds byte at. */
static bool surely_runs(const gl_tscan *s, const gl_tevent *e, uint32_t at) {
  for (int32_t c = e->cond; c >= 0; c = s->conds.data[c].parent)
    if (at < s->conds.data[c].start || at >= s->conds.data[c].end) return false;
  return true;
}

/* Index of the first event starting at or after byte b. */
static size_t first_event_from(const gl_tscan *s, uint32_t b) {
  size_t lo = 0, hi = s->events.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (s->events.data[mid].start < b) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

int32_t gl_tscan_region(const gl_tscan *s, uint32_t from, uint32_t to, int32_t fn, uint32_t at,
                        bool ignore_sync) {
  int32_t work = -1;
  uint32_t work_pos = 0, sync_pos = 0;
  /* events are in start order: those that start in (from, to] are the candidates */
  for (size_t i = first_event_from(s, from); i < s->events.len && s->events.data[i].start <= to;
       i++) {
    const gl_tevent *e = &s->events.data[i];
    if (e->pos <= from || e->pos > to || !fn_encloses(s, e->fn, fn)) continue;
    if (e->kind & GL_TEV_SYNC) {
      if (e->pos > sync_pos) sync_pos = e->pos;
    } else if ((e->kind & GL_TEV_WORK) && surely_runs(s, e, at) && e->pos >= work_pos) {
      work = (int32_t)i;
      work_pos = e->pos;
    }
  }
  if (work < 0) return -1;
  return ignore_sync || sync_pos < work_pos ? work : -1;
}

gl_tlib gl_tscan_event_lib(const gl_tscan *s, int32_t ev) {
  const gl_tevent *e = &s->events.data[ev];
  gl_tlib lib = lib_of_expr(s, e->node);
  if (lib != GL_TLIB_NONE) return lib;
  TSNode b = base_name(e->node);
  if (!ts_node_is_null(b)) {
    uint32_t a0 = ts_node_start_byte(b), a1 = ts_node_end_byte(b);
    for (size_t i = s->libnames.len; i-- > 0;) {
      const gl_tlibname *l = &s->libnames.data[i];
      if (l->pos <= e->start && gl_tscan_same_text(s, a0, a1, l->name_start, l->name_end))
        return l->lib;
    }
  }
  uint64_t libs = s->libs & ~1ull;
  if (!libs || (libs & (libs - 1))) return GL_TLIB_NONE;  /* none, or several */
  return (gl_tlib)__builtin_ctzll(libs);
}
