/* kernel_fit.c: launches of a kernel whose grid is a size floor-divided by the block, or one
 * block of a size's threads (gl_kernel_floor_fit, kernel_scan.h), for GPU801; in a file that
 * redefines the kernel's name at module level, only the launches the def's own span reaches.
 * Owns: the classification of every reference to a kernel's name, the launch's grid and block,
 *       names bound once in the launch's function or the module.
 * Not: the kernel's body, reporting.
 * Threads: no state beyond the caller's values. */
#include "checks/kernel-correctness/kernel_scan.h"

#include <string.h>

#include "checks/node.h"
#include "parse/parse.h"

#define BIG_INT 1000000000ull

/* Where a launch's names are looked up: its function (NULL at module level), and whether a name
 * that function does not bind may be read from the module (false inside nested functions). */
typedef struct where {
  TSNode fn;
  bool module_ok;
} where;

/* One name's bindings in a scope: how many (an assignment counts 1, any other binding 2) and,
 * for an assignment, its value. */
typedef struct binding {
  uint32_t start, len;   /* the name's text in the source */
  int count;
  TSNode value;
} binding;

/* The bindings of one scope, sorted by name: built once per scope, so each lookup of a launch
 * is a binary search, not a walk of the scope (a file of 19,000 launches took 416 s). */
typedef struct scope_table {
  TSNode scope;
  gl_vec(binding) names;
} scope_table;

typedef struct fit {
  const gl_check_ctx *ctx;
  TSNode root;
  gl_vec(scope_table) scopes;
} fit;


static TSNode unparen(TSNode e) {
  while (!ts_node_is_null(e) && GL_IS(e, parenthesized_expression) &&
         ts_node_named_child_count(e) == 1)
    e = ts_node_named_child(e, 0);
  return e;
}

/* Parents whose identifier children bind the name (besides an assignment's left side). */
static const char *const binders[] = {
    "augmented_assignment", "for_statement",  "for_in_clause",     "named_expression",
    "pattern_list",         "tuple_pattern",  "list_pattern",      "as_pattern_target",
    "aliased_import",       "dotted_name",    "global_statement",  "nonlocal_statement",
    "function_definition",  "class_definition", "parameters",      "default_parameter",
    "typed_parameter",      "typed_default_parameter", "lambda_parameters", "delete_statement",
};

static bool is_binder(TSNode parent) {
  for (size_t i = 0; i < sizeof binders / sizeof binders[0]; i++)
    if (gl_parse_type_is(parent, binders[i])) return true;
  return false;
}

static int cmp_text(const gl_source *src, uint32_t a, uint32_t alen, uint32_t b, uint32_t blen) {
  int c = memcmp(src->bytes + a, src->bytes + b, alen < blen ? alen : blen);
  return c ? c : (alen > blen) - (alen < blen);
}

/* qsort has no context argument, and checks run on every worker: the source being sorted. */
static _Thread_local const gl_source *sort_src_tl;

static int cmp_binding(const void *pa, const void *pb) {
  const binding *a = pa, *b = pb;
  int c = cmp_text(sort_src_tl, a->start, a->len, b->start, b->len);
  return c ? c : (a->start > b->start) - (a->start < b->start);
}

/* Every binding of scope (a function's parameters and body, or the module without its functions
 * and classes), one entry per name. */
static void build_table(const fit *f, scope_table *t) {
  const gl_source *src = f->ctx->src;
  gl_check__walk s;
  gl_check__walk_init(&s, f->ctx->model, t->scope);
  TSNode n;
  while (gl_check__walk_next(&s, &n)) {
    if (!ts_node_eq(n, t->scope) && gl_parse_opens_scope(n)) {
      gl_check__walk_skip(&s);
      continue;
    }
    if (!GL_IS(n, identifier)) continue;
    const char *field = gl_check__walk_field(&s);
    TSNode p = gl_check__walk_up(&s, 0, NULL);
    binding b = {.start = ts_node_start_byte(n), .len = ts_node_end_byte(n) - ts_node_start_byte(n)};
    if (GL_IS(p, assignment) && field && strcmp(field, "left") == 0) {
      b.count = 1;
      b.value = gl_parse_child(p, "right", 5);
    } else if (is_binder(p) && !(field && strcmp(field, "attribute") == 0)) {
      b.count = 2;
    }
    if (b.count) gl_vec_push(&t->names, b);
  }
  gl_check__walk_free(&s);
  sort_src_tl = src;
  if (t->names.len > 1) qsort(t->names.data, t->names.len, sizeof(binding), cmp_binding);
  size_t keep = 0;   /* merge each name's entries: counts add up */
  for (size_t i = 0; i < t->names.len; i++) {
    binding *b = &t->names.data[i];
    binding *last = keep ? &t->names.data[keep - 1] : NULL;
    if (last && cmp_text(src, last->start, last->len, b->start, b->len) == 0) last->count += b->count;
    else t->names.data[keep++] = *b;
  }
  t->names.len = keep;
}

static const scope_table *table_of(fit *f, TSNode scope) {
  for (size_t i = 0; i < f->scopes.len; i++)
    if (ts_node_eq(f->scopes.data[i].scope, scope)) return &f->scopes.data[i];
  scope_table *t = gl_vec_grow(&f->scopes);
  *t = (scope_table){.scope = scope};
  build_table(f, t);
  return t;
}

/* The value of the one binding of name in scope when that binding is `name = value`; a null
 * node otherwise. *seen is set when the scope binds the name at all. */
static TSNode bound_in(fit *f, TSNode scope, TSNode name, bool *seen) {
  const scope_table *t = table_of(f, scope);
  const gl_source *src = f->ctx->src;
  uint32_t start = ts_node_start_byte(name), len = ts_node_end_byte(name) - start;
  size_t lo = 0, hi = t->names.len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const binding *b = &t->names.data[mid];
    int c = cmp_text(src, b->start, b->len, start, len);
    if (c == 0) {
      *seen = true;
      return b->count == 1 ? b->value : (TSNode){0};
    }
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  *seen = false;
  return (TSNode){0};
}

/* The value name is bound to where the launch reads it; the where of that binding in *at. */
static TSNode lookup(fit *f, where w, TSNode name, where *at) {
  bool seen = false;
  *at = w;
  if (!ts_node_is_null(w.fn)) {
    TSNode v = bound_in(f, w.fn, name, &seen);
    if (seen || !w.module_ok) return v;
  }
  *at = (where){.module_ok = true};
  return bound_in(f, f->root, name, &seen);
}

static uint64_t literal_int(const gl_source *src, TSNode n) {
  if (ts_node_is_null(n) || !gl_parse_type_is(n, "integer")) return 0;
  uint64_t v = 0;
  for (uint32_t i = ts_node_start_byte(n); i < ts_node_end_byte(n); i++) {
    char ch = src->bytes[i];
    if (ch == '_') continue;
    if (ch < '0' || ch > '9' || v > BIG_INT) return 0;
    v = v * 10 + (uint64_t)(ch - '0');
  }
  return v;
}

/* A positive integer literal, or a name bound once to one; 0 for anything else. */
static uint64_t int_of(fit *f, where w, TSNode e) {
  e = unparen(e);
  if (ts_node_is_null(e)) return 0;
  where at;
  if (GL_IS(e, identifier)) e = unparen(lookup(f, w, e, &at));
  return literal_int(f->ctx->src, e);
}

/* `len(x)`, `x.size`, `x.shape[i]`, an integer, or (depth 0) a name bound once to one. */
static bool is_size(fit *f, where w, TSNode e, int depth) {
  const gl_source *src = f->ctx->src;
  e = unparen(e);
  if (ts_node_is_null(e)) return false;
  if (gl_parse_type_is(e, "integer")) return true;
  if (GL_IS(e, call)) {
    TSNode fn = gl_parse_child(e, "function", 8);
    TSNode args = gl_parse_child(e, "arguments", 9);
    return gl_check__text_is(src, fn, "len") && gl_model_is_builtin(f->ctx->model, fn) &&
           !ts_node_is_null(args) && ts_node_named_child_count(args) == 1;
  }
  if (GL_IS(e, attribute))
    return gl_check__text_is(src, gl_parse_child(e, "attribute", 9), "size");
  if (GL_IS(e, subscript)) {
    TSNode v = gl_parse_child(e, "value", 5);
    return ts_node_named_child_count(e) == 2 && GL_IS(v, attribute) &&
           gl_check__text_is(src, gl_parse_child(v, "attribute", 9), "shape") &&
           gl_parse_type_is(ts_node_named_child(e, 1), "integer");
  }
  where at;
  if (!GL_IS(e, identifier) || depth > 0) return false;
  TSNode v = lookup(f, w, e, &at);
  return !ts_node_is_null(v) && is_size(f, at, v, 1);
}

/* The grid g is `size // d` (or a name bound once to that) with d the block's integer, or one
 * block of `size` threads (`k[1, len(x)]`): either way no more threads than size. */
static bool grid_fits(fit *f, where w, TSNode g, TSNode block) {
  if (int_of(f, w, g) == 1 && is_size(f, w, block, 0)) return true;
  uint64_t b = int_of(f, w, block);
  g = unparen(g);
  if (b == 0 || ts_node_is_null(g)) return false;
  if (GL_IS(g, identifier)) g = unparen(lookup(f, w, g, &w));
  if (ts_node_is_null(g) || !GL_IS(g, binary_operator)) return false;
  TSNode op = gl_parse_child(g, "operator", 8);
  if (ts_node_is_null(op) || !gl_parse_type_is(op, "//")) return false;
  return is_size(f, w, gl_parse_child(g, "left", 4), 0) &&
         int_of(f, w, gl_parse_child(g, "right", 5)) == b;
}

/* Where a launch's names are looked up, from the scopes around the walk's node (the launch's
 * kernel name); false inside a lambda or a class body. */
static bool where_of(const gl_check__walk *s, where *w) {
  gl_check__nodes chain = {0};
  gl_check__walk_scopes(s, GL_CHECK__SCOPE_CLASSES, &chain);
  bool ok = true;
  int fns = 0;
  *w = (where){.module_ok = true};
  for (size_t i = 0; ok && i < chain.len; i++) {
    TSNode n = chain.data[i];
    if (GL_IS(n, lambda) || (fns == 0 && GL_IS(n, class_definition))) ok = false;
    if (!GL_IS(n, function_definition)) continue;
    if (fns++ == 0) w->fn = n;
  }
  w->module_ok = fns <= 1;
  gl_vec_free(&chain);
  return ok;
}

/* A launch `k[g, b, ...](...)` whose grid fits; sub is its subscript `k[g, b, ...]`, the parent
 * of the walk's node. */
static bool launch_fits(fit *f, const gl_check__walk *s, TSNode sub) {
  TSNode call = gl_check__walk_up(s, 1, NULL);
  where w;
  if (!GL_IS(call, call) || !ts_node_eq(gl_parse_child(call, "function", 8), sub))
    return false;
  if (ts_node_named_child_count(sub) < 3 || !where_of(s, &w)) return false;
  return grid_fits(f, w, ts_node_named_child(sub, 1), ts_node_named_child(sub, 2));
}

static bool inspection_attr(const gl_source *src, TSNode attr) {
  TSNode a = gl_parse_child(attr, "attribute", 9);
  if (ts_node_is_null(a)) return false;
  uint32_t n = ts_node_end_byte(a) - ts_node_start_byte(a);
  const char *t = src->bytes + ts_node_start_byte(a);
  return gl_check__text_is(src, a, "definition") || gl_check__text_is(src, a, "definitions") ||
         (n > 8 && memcmp(t, "inspect_", 8) == 0);
}

/* The bytes [*lo, *hi) where the module-level def `def` is the one its name means: from the def
 * when an earlier module-level def has the same name (a notebook that redefines a kernel), to the
 * next such def. */
static void def_span(const gl_check_ctx *ctx, TSNode root, TSNode def, TSNode name, uint32_t *lo,
                     uint32_t *hi) {
  *lo = 0;
  *hi = UINT32_MAX;
  uint32_t at = ts_node_start_byte(def), count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(root, i);
    if (GL_IS(c, decorated_definition)) c = gl_parse_child(c, "definition", 10);
    if (!GL_IS(c, function_definition) || ts_node_eq(c, def)) continue;
    if (!gl_check__same_text(ctx->src, gl_parse_child(c, "name", 4), name)) continue;
    uint32_t b = ts_node_start_byte(c);
    if (b < at) *lo = at;
    else if (b < *hi) *hi = b;
  }
}

bool gl_kernel_floor_fit(const gl_check_ctx *ctx, const gl_kernel *k) {
  TSNode name = gl_parse_child(k->def, "name", 4);
  if (k->kind != GL_K_NUMBA || ts_node_is_null(name)) return false;
  fit f = {.ctx = ctx, .root = ts_tree_root_node(ctx->tree)};
  uint32_t lo, hi;
  def_span(ctx, f.root, k->def, name, &lo, &hi);
  int launches = 0;
  bool ok = true;
  gl_check__walk s;
  gl_check__walk_init(&s, ctx->model, f.root);
  TSNode n;
  while (ok && gl_check__walk_next(&s, &n)) {
    if (!GL_IS(n, identifier) || ts_node_eq(n, name) || !gl_check__same_text(ctx->src, n, name))
      continue;
    if (ts_node_start_byte(n) < lo || ts_node_start_byte(n) >= hi) continue;   /* another def's */
    const char *field = gl_check__walk_field(&s);
    if (field && strcmp(field, "attribute") == 0) continue;               /* x.k */
    TSNode p = gl_check__walk_up(&s, 0, NULL);
    if (field && strcmp(field, "name") == 0 && gl_parse_type_is(p, "keyword_argument")) continue;
    if (field && strcmp(field, "object") == 0 && GL_IS(p, attribute))
      ok = inspection_attr(ctx->src, p);
    else if (field && strcmp(field, "value") == 0 && GL_IS(p, subscript)) {
      ok = launch_fits(&f, &s, p);
      launches++;
    } else {
      ok = false;
    }
  }
  gl_check__walk_free(&s);
  for (size_t i = 0; i < f.scopes.len; i++) gl_vec_free(&f.scopes.data[i].names);
  gl_vec_free(&f.scopes);
  return ok && launches > 0;
}
