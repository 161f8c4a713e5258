/* warp_primitive_id_outlives_object.c: the warp-primitive-id-outlives-object check (GPU508): a
 * function that makes a Warp geometry primitive in a local name and lets only its `.id` leave
 * (returned, yielded, stored in an attribute or item), so the primitive is destroyed when the
 * function returns.
 * Owns: one walk that records, per function scope, the bindings of each name (a primitive
 *       constructor or anything else), the uses that may keep the object (any use other than an
 *       attribute read `m.x`), and the places where `m.id` leaves; the decision on those vectors.
 * Not: `.id` of a temporary (GPU506, a query), the reporting helper (checks.c).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "parse/parse.h"

#define QNAME_CAP 256

typedef enum wkind { W_CTOR, W_OTHER_BIND, W_KEEP, W_LEAK } wkind;

typedef struct wfact {
  TSNode name;     /* the identifier */
  TSNode at;       /* W_LEAK: the `m.id` attribute */
  TSNode scope;    /* innermost function scope (null: the module) */
  wkind kind;
} wfact;

typedef struct wstate {
  const gl_check_ctx *ctx;
  gl_vec(wfact) facts;
  const gl_check__walk *walk;   /* the file's walk, at the node being visited */
} wstate;


/* A call of a constructor the models give the primitive role (warp.Mesh, warp.Volume.load_*). */
static bool is_primitive_call(const wstate *st, TSNode e) {
  char q[QNAME_CAP];
  if (!gl_check__callee(st->ctx->model, e, q, sizeof q)) return false;
  const gl_api_entry *en = gl_libmodels_function(gl_model_libmodels(st->ctx->model), q, strlen(q));
  return en && (en->roles & GL_ROLE_PRIMITIVE);
}

/* The function scope around the node being visited (null: the module). */
static TSNode cur_scope(const wstate *st) { return gl_check__walk_scope(st->walk, 0); }

static void add(wstate *st, TSNode name, TSNode at, wkind k) {
  wfact f = {name, at, cur_scope(st), k};
  gl_vec_push(&st->facts, f);
}

/* True when the `m.id` attribute at ancestor level 0 leaves the function: it is returned or
 * yielded (alone or in a tuple / list display), or stored into an attribute or an item. */
static bool id_leaves(const gl_check__walk *w) {
  const char *field = NULL;
  TSNode p = gl_check__walk_up(w, 1, &field);
  const char *f0 = NULL;
  gl_check__walk_up(w, 0, &f0);
  size_t k = 1;
  if (gl_parse_type_is(p, "expression_list") || gl_parse_type_is(p, "tuple") ||
      gl_parse_type_is(p, "list")) {
    p = gl_check__walk_up(w, ++k, &field);
    f0 = NULL;
  }
  if (GL_IS(p, return_statement) || gl_parse_type_is(p, "yield")) return true;
  if (!GL_IS(p, assignment) || !f0 || strcmp(f0, "right") != 0) return false;
  TSNode left = gl_parse_child(p, "left", 4);
  return GL_IS(left, attribute) || GL_IS(left, subscript);
}

static bool is_binding_parent(TSNode p, const char *field) {
  static const char *const kinds[] = {
      "pattern_list", "tuple_pattern", "list_pattern", "as_pattern_target", "for_statement",
      "for_in_clause", "parameters", "lambda_parameters", "default_parameter",
      "typed_parameter", "typed_default_parameter", "named_expression", "delete_statement",
      "global_statement", "nonlocal_statement", "list_splat_pattern",
      "dictionary_splat_pattern", "augmented_assignment"};
  const char *t = ts_node_type(p);
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (!strcmp(t, kinds[i]))
      return strcmp(t, "augmented_assignment") != 0 || (field && !strcmp(field, "left"));
  return false;
}

static void visit_identifier(wstate *st, const gl_check__walk *w, TSNode n) {
  const char *field = gl_check__walk_field(w), *pf = NULL;
  TSNode p = gl_check__walk_up(w, 0, &pf);
  if (GL_IS(p, attribute)) {
    if (!field || strcmp(field, "object") != 0) return;   /* the attribute's own name */
    TSNode attr = gl_parse_child(p, "attribute", 9);
    if (gl_check__text_is(st->ctx->src, attr, "id") && id_leaves(w)) add(st, n, p, W_LEAK);
    return;   /* m.x reads or calls do not keep m */
  }
  if (gl_parse_type_is(p, "keyword_argument") && field && !strcmp(field, "name")) return;
  if (GL_IS(p, assignment) && field && !strcmp(field, "left")) {
    TSNode rhs = gl_parse_child(p, "right", 5);
    add(st, n, (TSNode){0}, is_primitive_call(st, rhs) ? W_CTOR : W_OTHER_BIND);
    return;
  }
  if (GL_IS(p, function_definition)) return;   /* bound in the enclosing scope, above */
  if (GL_IS(p, class_definition)) {
    add(st, n, (TSNode){0}, W_OTHER_BIND);
    return;
  }
  add(st, n, (TSNode){0}, is_binding_parent(p, field) ? W_OTHER_BIND : W_KEEP);
}

/* True when the name of leak is bound only to primitives in its function, and nothing in the
 * function (nested functions included) uses the object other than through an attribute. */
static bool dangles(const wstate *st, const wfact *leak) {
  if (ts_node_is_null(leak->scope)) return false;   /* module globals live on */
  size_t ctors = 0;
  for (size_t i = 0; i < st->facts.len; i++) {
    const wfact *f = &st->facts.data[i];
    if (!gl_check__same_text(st->ctx->src, f->name, leak->name)) continue;
    bool same = ts_node_eq(f->scope, leak->scope);
    if (same && f->kind == W_CTOR) ctors++;
    if (same && f->kind == W_OTHER_BIND) return false;
    if (f->kind == W_KEEP && (same || gl_check__contains(leak->scope, f->scope))) return false;
  }
  return ctors > 0;
}

static void report(const wstate *st, const wfact *leak) {
  const gl_source *src = st->ctx->src;
  uint32_t a = ts_node_start_byte(leak->name), b = ts_node_end_byte(leak->name);
  int len = (int)(b - a > 60 ? 60 : b - a);
  char msg[512];
  snprintf(msg, sizeof msg,
           "only the id of the Warp primitive `%.*s` leaves this function: the object is "
           "destroyed when the function returns and the id then points at freed memory; return "
           "or store the primitive itself and read `.id` where it is used",
           len, src->bytes + a);
  gl_check_report(st->ctx, leak->at, msg);
}

/* One node of the file (gl_check__each's callback): a def's name is bound in the scope around
 * it (cur_scope does not count the def itself). */
static void visit(TSNode n, gl_check__walk *w, void *data) {
  wstate *st = data;
  st->walk = w;
  if (GL_IS(n, function_definition) || GL_IS(n, lambda)) {
    TSNode name = gl_parse_child(n, "name", 4);
    if (!ts_node_is_null(name)) add(st, name, (TSNode){0}, W_OTHER_BIND);
  } else if (GL_IS(n, identifier)) {
    visit_identifier(st, w, n);
  }
}

/* In a function: `m = wp.Mesh(...)` (HashGrid, Bvh, Volume and its loaders), every binding of m
 * in the function such a constructor, no use of m other than attribute reads (`m.x`, `m.f()`)
 * there or in nested functions, and `m.id` returned, yielded (alone or in a tuple / list) or
 * stored into an attribute or item: reported at that `m.id`. */
void gl_check_warp_primitive_id_outlives_object(const gl_check_ctx *ctx) {
  if (!ctx->model || !gl_check__imports_role(ctx->model, GL_ROLE_PRIMITIVE)) return;
  wstate st = {.ctx = ctx};
  gl_check__each(ctx->model, ts_tree_root_node(ctx->tree), visit, &st);
  bool any_ctor = false;   /* no primitive made in the file: nothing can dangle */
  for (size_t i = 0; i < st.facts.len && !any_ctor; i++) any_ctor = st.facts.data[i].kind == W_CTOR;
  for (size_t i = 0; any_ctor && i < st.facts.len; i++)
    if (st.facts.data[i].kind == W_LEAK && dangles(&st, &st.facts.data[i]))
      report(&st, &st.facts.data[i]);
  gl_vec_free(&st.facts);
}
