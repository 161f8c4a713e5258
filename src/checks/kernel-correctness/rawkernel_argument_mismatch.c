/* rawkernel_argument_mismatch.c: the rawkernel-argument-mismatch (GPU803) and
 * rawkernel-int-argument-width (GPU806) checks: Python scalars passed to a CuPy RawKernel parameter
 * of another type.
 * Owns: which names hold a RawKernel whose CUDA source is a string literal of the file (`k =
 *       cp.RawKernel(SRC, "name")`, `k = mod.get_function("name")` with `mod =
 *       cp.RawModule(code=SRC)`, SRC a literal or a name bound once to one), what Python type an
 *       argument surely has (int: an int literal, `len()`, `int()`, `.size`, `.ndim`, `.shape[k]`,
 *       arithmetic on those; float: a float literal, `float()`, `/`; a name bound only to such
 *       values in the call's own function), which dtype an array argument surely has
 *       (`x.astype(D)`, a `cupy.*` call given a dtype, float64-default constructors such as
 *       `cp.zeros(n)` and `cp.random.rand`), and the launches `k(grid, block, (args...))` whose
 *       arguments do not fit the parameter types.
 * Not: parsing C (rawkernel_sig.c), reporting (checks.c).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/kernel-correctness/rawkernel_sig.h"
#include "checks/node.h"
#include "parse/parse.h"

#define QNAME_CAP 256
#define MSG_CAP 640

typedef enum pyt { PY_UNKNOWN = 0, PY_INT, PY_FLOAT, PY_STRIDED } pyt;

typedef struct dname {
  const char *name;
  gl_rk_type cls;
} dname;

/* dtype spellings (NumPy / CuPy attribute names and dtype strings) by element class */
static const dname dtype_names[] = {
    {"float16", GL_RK_F16}, {"half", GL_RK_F16},    {"f2", GL_RK_F16},
    {"float32", GL_RK_F32}, {"single", GL_RK_F32},  {"f4", GL_RK_F32},  {"f", GL_RK_F32},
    {"float64", GL_RK_F64}, {"double", GL_RK_F64},  {"f8", GL_RK_F64},  {"d", GL_RK_F64},
    {"float", GL_RK_F64},
    {"int32", GL_RK_I32},   {"uint32", GL_RK_I32},  {"i4", GL_RK_I32},  {"u4", GL_RK_I32},
    {"intc", GL_RK_I32},    {"int64", GL_RK_I64},   {"uint64", GL_RK_I64}, {"i8", GL_RK_I64},
    {"u8", GL_RK_I64},      {"int", GL_RK_I64},
};

typedef struct binding {
  TSNode target, value;  /* value null: bound by something that is not an assignment */
  TSNode scope;          /* innermost def (null node: the module), once scoped */
  bool scoped;
} binding;

typedef struct rstate {
  const gl_check_ctx *ctx;
  bool width;            /* GPU806: int to a narrower int; else GPU803 */
  gl_vec(binding) binds;
  gl_check__nodes launches;    /* calls with a tuple as third argument */
  gl_check__nodes defs;        /* every def, in pre-order */
} rstate;

/* The innermost def holding n (defs are in pre-order, so the last one that contains it). */
static TSNode scope_of(const rstate *st, TSNode n) {
  TSNode best = {0};
  for (size_t i = 0; i < st->defs.len; i++)
    if (gl_check__contains(st->defs.data[i], n) && !ts_node_eq(st->defs.data[i], n))
      best = st->defs.data[i];
  return best;
}

static binding mkbind(TSNode t, TSNode value, TSNode scope, bool scoped) {
  binding b = {.target = t, .value = value, .scope = scope, .scoped = scoped};
  return b;
}

static void add_binding(rstate *st, TSNode t, TSNode value) {
  if (GL_IS(t, identifier) || GL_IS(t, attribute)) {
    gl_vec_push(&st->binds, mkbind(t, value, (TSNode){0}, false));
    return;
  }
  uint32_t n = ts_node_named_child_count(t);
  TSNode none = {0};
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(t, i);
    if (GL_IS(c, identifier)) gl_vec_push(&st->binds, mkbind(c, none, none, false));
  }
}

static void collect(rstate *st) {
  gl_check__walk s;
  gl_check__walk_init(&s, st->ctx->model, ts_tree_root_node(st->ctx->tree));
  TSNode n;
  while (gl_check__walk_next(&s, &n)) {
    const char *t = ts_node_type(n);
    if (strcmp(t, "function_definition") == 0) {
      gl_vec_push(&st->defs, n);
      TSNode ps = gl_parse_child(n, "parameters", 10);
      uint32_t k = ts_node_is_null(ps) ? 0 : ts_node_named_child_count(ps);
      for (uint32_t i = 0; i < k; i++) {
        TSNode p = ts_node_named_child(ps, i);
        if (!GL_IS(p, identifier)) p = gl_parse_child(p, "name", 4);
        if (!ts_node_is_null(p) && GL_IS(p, identifier))
          gl_vec_push(&st->binds, mkbind(p, (TSNode){0}, n, true));
      }
    } else if (strcmp(t, "assignment") == 0) {
      TSNode l = gl_parse_child(n, "left", 4);
      TSNode r = gl_parse_child(n, "right", 5);
      bool single = !ts_node_is_null(l) && (GL_IS(l, identifier) || GL_IS(l, attribute));
      if (!ts_node_is_null(l)) add_binding(st, l, single ? r : (TSNode){0});
    } else if (strcmp(t, "augmented_assignment") == 0 || strcmp(t, "for_statement") == 0 ||
               strcmp(t, "named_expression") == 0 || strcmp(t, "with_item") == 0) {
      TSNode l = gl_parse_child(n, "left", 4);
      if (ts_node_is_null(l)) l = gl_parse_child(n, "name", 4);
      if (!ts_node_is_null(l)) add_binding(st, l, (TSNode){0});
    } else if (strcmp(t, "call") == 0) {
      TSNode a = gl_check__arg(n, 2);
      if (!ts_node_is_null(a) && gl_parse_type_is(a, "tuple")) gl_vec_push(&st->launches, n);
    }
  }
  gl_check__walk_free(&s);
}

/* The one binding value of name visible in scope (the module's when scope is null, or a def's
 * own); a null node when there is none, several, or the name is bound another way there. */
static TSNode bound_value(rstate *st, TSNode name, TSNode scope) {
  TSNode found = {0};
  int count = 0;
  for (size_t i = 0; i < st->binds.len; i++) {
    binding *b = &st->binds.data[i];
    if (!gl_check__same_text(st->ctx->src, b->target, name)) continue;
    if (!b->scoped) {
      b->scope = scope_of(st, b->target);
      b->scoped = true;
    }
    if (!ts_node_eq(b->scope, scope)) continue;
    if (ts_node_is_null(b->value)) return (TSNode){0};
    found = b->value;
    count++;
  }
  return count == 1 ? found : (TSNode){0};
}

static bool is_string(TSNode n) {
  return gl_parse_type_is(n, "string") || gl_parse_type_is(n, "concatenated_string");
}

/* A string literal, or a name bound once (module level or the same def) to one. */
static TSNode source_text(rstate *st, TSNode e, TSNode scope) {
  if (ts_node_is_null(e) || is_string(e)) return e;
  if (!GL_IS(e, identifier)) return (TSNode){0};
  TSNode v = bound_value(st, e, scope);
  if (ts_node_is_null(v) && !ts_node_is_null(scope)) v = bound_value(st, e, (TSNode){0});
  return !ts_node_is_null(v) && is_string(v) ? v : (TSNode){0};
}

static bool callee_is(const rstate *st, TSNode call, const char *q0) {
  char q[QNAME_CAP];
  return gl_check__callee(st->ctx->model, call, q, sizeof q) && strcmp(q, q0) == 0;
}

/* The string's characters between its quotes (the name given to RawKernel). */
static bool str_body(const gl_source *src, TSNode s, const char **p, size_t *n) {
  if (!gl_parse_type_is(s, "string")) return false;
  uint32_t a = ts_node_start_byte(s), b = ts_node_end_byte(s);
  while (a < b && src->bytes[a] != '"' && src->bytes[a] != '\'') a++;
  char q = src->bytes[a];
  uint32_t qa = a, qb = b;
  while (qa < b && src->bytes[qa] == q) qa++;
  while (qb > qa && src->bytes[qb - 1] == q) qb--;
  if (qb <= qa || qa - a != b - qb) return false;
  *p = src->bytes + qa;
  *n = qb - qa;
  return true;
}

/* The signature of the kernel a RawKernel / get_function call builds. */
static bool kernel_sig(rstate *st, TSNode mk, gl_rk_sig *sig, uint32_t *base) {
  TSNode scope = scope_of(st, mk), srcnode = {0}, namenode = {0};
  if (callee_is(st, mk, "cupy.RawKernel")) {
    srcnode = gl_check__arg(mk, 0);
    if (ts_node_is_null(srcnode)) srcnode = gl_check__kwarg(st->ctx->src, mk, "code");
    namenode = gl_check__arg(mk, 1);
    if (ts_node_is_null(namenode)) namenode = gl_check__kwarg(st->ctx->src, mk, "name");
  } else {
    TSNode recv;
    if (!gl_check__method(st->ctx->src, mk, "get_function", &recv) || !GL_IS(recv, identifier))
      return false;
    TSNode mod = bound_value(st, recv, scope);
    if (ts_node_is_null(mod) && !ts_node_is_null(scope)) mod = bound_value(st, recv, (TSNode){0});
    if (ts_node_is_null(mod) || !callee_is(st, mod, "cupy.RawModule")) return false;
    srcnode = gl_check__kwarg(st->ctx->src, mod, "code");
    if (ts_node_is_null(srcnode)) srcnode = gl_check__arg(mod, 0);
    namenode = gl_check__arg(mk, 0);
    scope = scope_of(st, mod);
  }
  srcnode = source_text(st, srcnode, scope);
  const char *name;
  size_t nlen;
  if (ts_node_is_null(srcnode) || ts_node_is_null(namenode) ||
      !str_body(st->ctx->src, namenode, &name, &nlen))
    return false;
  uint32_t a = ts_node_start_byte(srcnode);
  *base = a;
  return gl_rk_parse(st->ctx->src->bytes + a, ts_node_end_byte(srcnode) - a, name, nlen, sig);
}

static TSNode strip(TSNode e) {
  for (;;) {
    if (GL_IS(e, parenthesized_expression) && ts_node_named_child_count(e) == 1)
      e = ts_node_named_child(e, 0);
    else if (GL_IS(e, unary_operator))
      e = gl_parse_child(e, "argument", 8);
    else
      return e;
    if (ts_node_is_null(e)) return e;
  }
}

static bool builtin_call(const rstate *st, TSNode e, const char *name) {
  if (!GL_IS(e, call)) return false;
  TSNode fn = gl_parse_child(e, "function", 8);
  return GL_IS(fn, identifier) && gl_check__text_is(st->ctx->src, fn, name) &&
         gl_model_is_builtin(st->ctx->model, fn);
}

/* A slice with a step: two colons and an expression after the second. */
static bool is_strided(const gl_source *src, TSNode sl) {
  uint32_t n = ts_node_child_count(sl), colons = 0;
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_child(sl, i);
    if (!ts_node_is_named(c) && gl_check__text_is(src, c, ":")) colons++;
  }
  return colons == 2 && n > 0 && ts_node_is_named(ts_node_child(sl, n - 1));
}

static pyt subscript_type(const gl_source *src, TSNode e) {
  TSNode v = gl_parse_child(e, "value", 5);
  if (GL_IS(v, attribute) &&
      gl_check__text_is(src, gl_parse_child(v, "attribute", 9), "shape"))
    return PY_INT;
  uint32_t k = ts_node_named_child_count(e);
  for (uint32_t i = 1; i < k; i++) {
    TSNode sl = ts_node_named_child(e, i);
    if (gl_parse_type_is(sl, "slice") && is_strided(src, sl)) return PY_STRIDED;
  }
  return PY_UNKNOWN;
}

/* The Python type of an expression that is not arithmetic; a name (scope not NULL) is followed
 * to its one binding in scope, one step. */
static pyt leaf_type(rstate *st, TSNode e, const TSNode *scope) {
  const gl_source *src = st->ctx->src;
  e = strip(e);
  if (!ts_node_is_null(e) && scope && GL_IS(e, identifier)) e = strip(bound_value(st, e, *scope));
  if (ts_node_is_null(e)) return PY_UNKNOWN;
  if (gl_parse_type_is(e, "integer")) return PY_INT;
  if (gl_parse_type_is(e, "float")) return PY_FLOAT;
  if (builtin_call(st, e, "len") || builtin_call(st, e, "int")) return PY_INT;
  if (builtin_call(st, e, "float")) return PY_FLOAT;
  if (GL_IS(e, subscript)) return subscript_type(src, e);
  if (!GL_IS(e, attribute)) return PY_UNKNOWN;
  TSNode at = gl_parse_child(e, "attribute", 9);
  if (gl_check__text_is(src, at, "size") || gl_check__text_is(src, at, "ndim")) return PY_INT;
  if (gl_check__text_is(src, at, "T") || gl_check__text_is(src, at, "mT")) return PY_STRIDED;
  return PY_UNKNOWN;
}

/* leaf_type, or arithmetic on two leaves: `/` gives a float, + - * // % an int unless a float
 * is involved. */
static pyt expr_type(rstate *st, TSNode e, TSNode scope) {
  e = strip(e);
  if (ts_node_is_null(e) || !GL_IS(e, binary_operator)) return leaf_type(st, e, NULL);
  TSNode op = gl_parse_child(e, "operator", 8);
  pyt l = leaf_type(st, gl_parse_child(e, "left", 4), &scope);
  pyt r = leaf_type(st, gl_parse_child(e, "right", 5), &scope);
  if (l == PY_UNKNOWN || r == PY_UNKNOWN || l == PY_STRIDED || r == PY_STRIDED) return PY_UNKNOWN;
  if (gl_check__text_is(st->ctx->src, op, "/")) return PY_FLOAT;
  static const char *const int_ops[] = {"+", "-", "*", "//", "%"};
  for (size_t i = 0; i < sizeof int_ops / sizeof int_ops[0]; i++)
    if (gl_check__text_is(st->ctx->src, op, int_ops[i]))
      return l == PY_FLOAT || r == PY_FLOAT ? PY_FLOAT : PY_INT;
  return PY_UNKNOWN;
}

/* The type of a launch argument: the expression's, or for a name, that of its one binding in the
 * call's def. */
static pyt arg_type(rstate *st, TSNode e, TSNode scope) {
  if (!GL_IS(e, identifier)) return expr_type(st, e, scope);
  TSNode v = bound_value(st, e, scope);
  return ts_node_is_null(v) ? PY_UNKNOWN : expr_type(st, v, scope);
}

/* The finding's explanation for an argument of type t given to parameter type p, or NULL when
 * it fits (or belongs to the other rule). */
static const char *mismatch(const rstate *st, pyt t, gl_rk_type p) {
  if (st->width)
    return t == PY_INT && (p == GL_RK_I32 || p == GL_RK_I_SMALL)
               ? "is a Python int, which CuPy passes as an 8-byte `long long`; the kernel reads "
                 "only its first bytes, right on little-endian hosts and only while the value "
                 "fits; pass `numpy.int32(...)`"
               : NULL;
  if (t == PY_FLOAT && p != GL_RK_F64 && p != GL_RK_PTR && p != GL_RK_UNKNOWN)
    return "is a Python float, which CuPy passes as an 8-byte `double` without checking: the "
           "kernel reinterprets its bytes and reads garbage; pass `numpy.float32(...)` (or the "
           "parameter's exact type)";
  if (t == PY_INT && (p == GL_RK_F32 || p == GL_RK_F16 || p == GL_RK_F64))
    return "is a Python int, which CuPy passes as an 8-byte `long long` without checking: the "
           "kernel reinterprets its bytes as a floating-point number and reads garbage; pass "
           "`numpy.float32(...)` (or the parameter's exact type)";
  if (t == PY_STRIDED && p == GL_RK_PTR)
    return "is a strided or transposed view, and a RawKernel receives only the data pointer, "
           "not the strides: the kernel reads the elements in the wrong order; pass "
           "`cupy.ascontiguousarray(...)`";
  return NULL;
}

static gl_rk_type dtype_word(const char *w, size_t n) {
  while (n > 0 && (*w == '<' || *w == '=' || *w == '|')) {
    w++;
    n--;
  }
  for (size_t i = 0; i < sizeof dtype_names / sizeof dtype_names[0]; i++)
    if (strlen(dtype_names[i].name) == n && memcmp(dtype_names[i].name, w, n) == 0)
      return dtype_names[i].cls;
  return GL_RK_UNKNOWN;
}

/* The element class of a dtype expression: "float32", cp.float32, np.float64, float, int. */
static gl_rk_type dtype_class(const rstate *st, TSNode e) {
  const gl_source *src = st->ctx->src;
  const char *p;
  size_t n;
  char q[QNAME_CAP];
  if (ts_node_is_null(e)) return GL_RK_UNKNOWN;
  if (gl_parse_type_is(e, "string")) return str_body(src, e, &p, &n) ? dtype_word(p, n) : GL_RK_UNKNOWN;
  if (GL_IS(e, identifier) && gl_model_is_builtin(st->ctx->model, e)) {
    if (gl_check__text_is(src, e, "float")) return GL_RK_F64;
    return gl_check__text_is(src, e, "int") ? GL_RK_I64 : GL_RK_UNKNOWN;
  }
  if (!gl_model_resolve(st->ctx->model, e, q, sizeof q)) return GL_RK_UNKNOWN;
  if (strncmp(q, "numpy.", 6) == 0) return dtype_word(q + 6, strlen(q + 6));
  if (strncmp(q, "cupy.", 5) == 0) return dtype_word(q + 5, strlen(q + 5));
  return GL_RK_UNKNOWN;
}

/* CuPy calls that make float64 data when no dtype is given. */
static const char *const f64_defaults[] = {
    "zeros", "ones", "empty", "linspace", "random.rand", "random.randn", "random.random",
    "random.random_sample", "random.uniform", "random.normal", "random.standard_normal"};
/* CuPy calls whose second positional argument is the dtype. */
static const char *const dtype_second[] = {"zeros", "ones", "empty", "array", "asarray",
                                           "ascontiguousarray", "zeros_like", "ones_like",
                                           "empty_like"};

static bool in_names(const char *f, const char *const *t, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(f, t[i]) == 0) return true;
  return false;
}

/* The element class of the array a call makes: `x.astype(D)`, a `cupy.*` call with a dtype
 * (keyword, or second argument of a constructor), or a float64-by-default constructor. */
static gl_rk_type array_of_call(const rstate *st, TSNode call) {
  const gl_source *src = st->ctx->src;
  TSNode recv, d;
  char q[QNAME_CAP];
  if (!GL_IS(call, call)) return GL_RK_UNKNOWN;
  if (gl_check__method(src, call, "astype", &recv)) {
    d = gl_check__arg(call, 0);
    return dtype_class(st, ts_node_is_null(d) ? gl_check__kwarg(src, call, "dtype") : d);
  }
  if (!gl_check__callee(st->ctx->model, call, q, sizeof q) || strncmp(q, "cupy.", 5) != 0)
    return GL_RK_UNKNOWN;
  const char *f = q + 5;
  d = gl_check__kwarg(src, call, "dtype");
  if (ts_node_is_null(d) && in_names(f, dtype_second, sizeof dtype_second / sizeof dtype_second[0]))
    d = gl_check__arg(call, 1);
  if (!ts_node_is_null(d)) return dtype_class(st, d);
  if (!ts_node_is_null(gl_check__arg(call, 0)) && !ts_node_is_null(gl_check__arg(call, 1)) &&
      strcmp(f, "linspace") != 0 && strncmp(f, "random.", 7) != 0)
    return GL_RK_UNKNOWN;  /* zeros(n, something): not a dtype we can read */
  return in_names(f, f64_defaults, sizeof f64_defaults / sizeof f64_defaults[0]) ? GL_RK_F64
                                                                                   : GL_RK_UNKNOWN;
}

/* The element class of an array argument: a call, or a name bound once in the launch's def. */
static gl_rk_type array_elem(rstate *st, TSNode e, TSNode scope) {
  if (GL_IS(e, identifier)) e = bound_value(st, e, scope);
  return ts_node_is_null(e) ? GL_RK_UNKNOWN : array_of_call(st, e);
}

static const char *elem_name(gl_rk_type t) {
  switch (t) {
  case GL_RK_F16: return "float16";
  case GL_RK_F32: return "float32";
  case GL_RK_F64: return "float64";
  case GL_RK_I32: return "32-bit integer";
  case GL_RK_I64: return "64-bit integer";
  default: return "unknown";
  }
}

/* GPU803: an array whose dtype is known and differs from the pointer's element type. */
static void check_array_arg(rstate *st, TSNode a, TSNode scope, const gl_rk_param *prm,
                            uint32_t base, uint32_t i) {
  if (st->width || prm->type != GL_RK_PTR || prm->elem == GL_RK_UNKNOWN ||
      prm->elem == GL_RK_I_SMALL)
    return;
  gl_rk_type have = array_elem(st, a, scope);
  if (have == GL_RK_UNKNOWN || have == prm->elem) return;
  const gl_source *src = st->ctx->src;
  char msg[MSG_CAP];
  int al = (int)(ts_node_end_byte(a) - ts_node_start_byte(a));
  int pl = (int)prm->len;
  snprintf(msg, sizeof msg,
           "`%.*s` (argument %u, for the kernel's parameter `%.*s`) is a %s array, but the "
           "kernel reads its memory as %s values: every element is garbage, and the kernel "
           "reads past the end or stops short; convert it with `.astype(...)` first",
           al > 60 ? 60 : al, src->bytes + ts_node_start_byte(a), (unsigned)i + 1,
           pl > 60 ? 60 : pl, src->bytes + base + prm->start, elem_name(have),
           elem_name(prm->elem));
  gl_check_report(st->ctx, a, msg);
}

static void check_launch(rstate *st, TSNode call) {
  TSNode fn = gl_parse_child(call, "function", 8);
  if (ts_node_is_null(fn) || (!GL_IS(fn, identifier) && !GL_IS(fn, attribute))) return;
  TSNode scope = scope_of(st, call);
  TSNode mk = bound_value(st, fn, scope);
  if (ts_node_is_null(mk) && !ts_node_is_null(scope)) mk = bound_value(st, fn, (TSNode){0});
  gl_rk_sig sig;
  uint32_t base = 0;
  if (ts_node_is_null(mk) || !GL_IS(mk, call) || !kernel_sig(st, mk, &sig, &base)) return;
  TSNode args = gl_check__arg(call, 2);
  if (ts_node_named_child_count(args) != sig.n) return;
  const gl_source *src = st->ctx->src;
  char msg[MSG_CAP];
  for (uint32_t i = 0; i < sig.n; i++) {
    TSNode a = ts_node_named_child(args, i);
    check_array_arg(st, a, scope, &sig.params[i], base, i);
    const char *why = mismatch(st, arg_type(st, a, scope), sig.params[i].type);
    if (!why) continue;
    int al = (int)(ts_node_end_byte(a) - ts_node_start_byte(a));
    int pl = (int)sig.params[i].len;
    snprintf(msg, sizeof msg, "`%.*s` (argument %u, for the kernel's parameter `%.*s`) %s",
             al > 60 ? 60 : al, src->bytes + ts_node_start_byte(a), (unsigned)i + 1,
             pl > 60 ? 60 : pl, src->bytes + base + sig.params[i].start, why);
    gl_check_report(st->ctx, a, msg);
  }
}

static void run(const gl_check_ctx *ctx, bool width) {
  if (!ctx->model || !gl_source_has(ctx->src, "Raw")) return;
  rstate st = {.ctx = ctx, .width = width};
  collect(&st);
  for (size_t i = 0; i < st.launches.len; i++) check_launch(&st, st.launches.data[i]);
  gl_vec_free(&st.binds);
  gl_vec_free(&st.launches);
  gl_vec_free(&st.defs);
}

/* A launch `k(grid, block, (args...))` of a `cp.RawKernel` / `RawModule.get_function` kernel
 * whose CUDA source is a literal of the file, passing a Python float to a non-double parameter,
 * a Python int to a floating-point one, or a strided view to a pointer (GPU803). */
void gl_check_rawkernel_argument_mismatch(const gl_check_ctx *ctx) { run(ctx, false); }

/* The same launches passing a Python int to an `int` (or narrower) parameter (GPU806). */
void gl_check_rawkernel_int_argument_width(const gl_check_ctx *ctx) { run(ctx, true); }
