/* no_gpu_availability_guard.c: the no-gpu-availability-guard check (GPU871): a module that imports
 * a GPU-only library unconditionally although the file itself shows that it means to run without a
 * GPU.
 * Owns: the module-level GPU imports (statements directly in the module, so imports under try, if
 *       or def are guarded or lazy), the signs of a CPU path (`xp = cp if gpu else np`, a scope
 *       that binds or returns numpy in one place and a GPU package in another, a `gpu=False` /
 *       `use_gpu=False` parameter, a try / except ImportError around the import of a whole GPU
 *       package; not cp.get_array_module, which generic code calls in GPU-only scripts too) and of
 *       an availability check (getDeviceCount, is_available, CUDARuntimeError) in one pass.
 * Not: a file whose module-level code uses a GPU package outside any if / try / def (a benchmark
 *      whose gpu=False only picks the CPU baseline: the file needs the GPU either way), other
 *      files of the package (a guard or a fallback elsewhere is not seen), torch and jax (they
 *      install and import without a GPU).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "checks/search-io-portability/binds.h"
#include "parse/parse.h"

#define QCAP 256

enum { MOD_NUMPY = 1, MOD_GPU = 2 };

/* What one scope binds or returns as an array module: `xp = np` here, `xp = cp` there. */
typedef struct modvals {
  uint32_t scope;
  int bits;              /* MOD_* */
  TSNode numpy;          /* the first numpy use */
} modvals;

typedef struct gstate {
  const gl_check_ctx *ctx;
  TSNode claim;          /* the first sign of a CPU path, or a null node */
  bool guarded;          /* an availability check somewhere */
  gl_vec(modvals) mods;
  uint32_t scope;
} gstate;

/* A package that needs CUDA to be installed and imported (the models' "gpu-only-modules"), or a
 * module inside one. */
static bool gpu_module(const gstate *st, const char *q) {
  return gl_libmodels_gpu_only(gl_model_libmodels(st->ctx->model), q) > 0;
}

static bool resolve(const gstate *st, TSNode n, char *q) {
  return !ts_node_is_null(n) && gl_model_resolve(st->ctx->model, n, q, QCAP);
}

/* A whole GPU-only package (`cupy`, `numba.cuda`), not a module inside one. */
static bool gpu_root(const gstate *st, const char *q) {
  return gl_libmodels_gpu_only(gl_model_libmodels(st->ctx->model), q) == 2;
}

/* The first GPU module an import statement names (its dotted_name node: `import cupy as cp`,
 * `from cupy import asnumpy`, the `cuda` of `from numba import cuda`), or a null node. With
 * roots, only a whole package counts (`import cupy`, not `import cupy.cuda.cudnn`). */
static TSNode gpu_import(const gstate *st, TSNode imp, bool roots) {
  char q[QCAP];
  uint32_t n = ts_node_named_child_count(imp);
  for (uint32_t i = 0; i < n; i++) {
    TSNode k = ts_node_named_child(imp, i);
    if (GL_IS(k, aliased_import)) k = gl_parse_child(k, "name", 4);
    if (!gl_parse_type_is(k, "dotted_name") || !resolve(st, k, q)) continue;
    if (roots ? gpu_root(st, q) : gpu_module(st, q)) return k;
  }
  return (TSNode){0};
}

static bool catches_import_error(const gl_source *src, TSNode handler) {
  uint32_t n = ts_node_named_child_count(handler);
  for (uint32_t i = 0; i < n; i++) {
    TSNode k = ts_node_named_child(handler, i);
    if (GL_IS(k, block)) break;
    uint32_t a = ts_node_start_byte(k), e = ts_node_end_byte(k);
    const char *t = src->bytes + a;
    for (uint32_t j = 0; j + 11 <= e - a; j++)
      if (memcmp(t + j, "ImportError", 11) == 0 || memcmp(t + j, "NotFoundErr", 11) == 0)
        return true;
  }
  return false;
}

/* `try: import cupy ... except ImportError:` (a GPU package the file treats as optional; an
 * optional submodule such as cupy.cuda.cudnn is an optional feature, not an optional GPU). */
static bool optional_gpu_import(const gstate *st, TSNode try_stmt) {
  TSNode body = gl_parse_child(try_stmt, "body", 4);
  bool gpu = false, handled = false;
  uint32_t n = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < n && !gpu; i++) {
    TSNode k = ts_node_named_child(body, i);
    if (GL_IS(k, import_statement) || GL_IS(k, import_from_statement))
      gpu = !ts_node_is_null(gpu_import(st, k, true));
  }
  n = ts_node_named_child_count(try_stmt);
  for (uint32_t i = 0; i < n && !handled; i++) {
    TSNode k = ts_node_named_child(try_stmt, i);
    handled = GL_IS(k, except_clause) && catches_import_error(st->ctx->src, k);
  }
  return gpu && handled;
}

/* MOD_NUMPY when v names the numpy module, MOD_GPU a GPU package (`cp`, `cuda`), else 0. */
static int module_value(const gstate *st, TSNode v) {
  char q[QCAP];
  if (!GL_IS(v, identifier) && !GL_IS(v, attribute)) return 0;
  if (!resolve(st, v, q)) return 0;
  return strcmp(q, "numpy") == 0 ? MOD_NUMPY : gpu_root(st, q) ? MOD_GPU : 0;
}

/* The MOD_* bits of an expression: a module, or the branches of `cp if gpu else np` (nested
 * conditionals followed down their else branch, without recursion). */
static int module_bits(const gstate *st, TSNode v) {
  int bits = 0;
  while (gl_parse_type_is(v, "conditional_expression") && ts_node_named_child_count(v) == 3) {
    bits |= module_value(st, ts_node_named_child(v, 0));
    v = ts_node_named_child(v, 2);
  }
  return bits | module_value(st, v);
}

/* Records that the current scope binds or returns the modules of bits (node: where); a scope
 * that picks numpy in one place and a GPU package in another has a CPU path. */
static void note_modules(gstate *st, int bits, TSNode where) {
  if (!bits) return;
  if (bits == (MOD_NUMPY | MOD_GPU)) {
    if (ts_node_is_null(st->claim)) st->claim = where;
    return;
  }
  modvals *mv = NULL;
  for (size_t i = 0; i < st->mods.len && !mv; i++)
    if (st->mods.data[i].scope == st->scope) mv = &st->mods.data[i];
  if (!mv) {
    modvals fresh = {.scope = st->scope};
    gl_vec_push(&st->mods, fresh);
    mv = &st->mods.data[st->mods.len - 1];
  }
  if ((bits & MOD_NUMPY) && ts_node_is_null(mv->numpy)) mv->numpy = where;
  mv->bits |= bits;
  if (mv->bits == (MOD_NUMPY | MOD_GPU) && ts_node_is_null(st->claim)) st->claim = mv->numpy;
}

/* `def f(x, use_gpu=False)`: a switch that turns the GPU off. */
static bool gpu_switch_param(const gl_source *src, TSNode p) {
  static const char *const names[] = {"gpu", "use_gpu", "on_gpu", "cuda", "use_cuda",
                                      "use_cupy", "enable_gpu", "with_gpu", NULL};
  TSNode name = gl_parse_child(p, "name", 4);
  TSNode value = gl_parse_child(p, "value", 5);
  if (!GL_IS(name, identifier) || !gl_parse_type_is(value, "false")) return false;
  for (const char *const *k = names; *k; k++)
    if (gl_check__text_is(src, name, *k)) return true;
  return false;
}

/* A name whose model entry has the availability role: a function that asks whether a GPU is there
 * (`torch.cuda.is_available`, `cupy.cuda.runtime.getDeviceCount`), or the exception raised when
 * none is (`cupy.cuda.runtime.CUDARuntimeError`). */
static bool is_guard_name(const gstate *st, const char *q) {
  const gl_api_entry *e = gl_libmodels_function(gl_model_libmodels(st->ctx->model), q, strlen(q));
  return e && (e->roles & GL_ROLE_AVAILABILITY);
}

static void look(gstate *st, TSNode n) {
  char q[QCAP];
  const gl_source *src = st->ctx->src;
  TSNode claim = {0};
  TSSymbol sym = ts_node_symbol(n);   /* once: this runs on every node of the file */
  bool ident = GL_HAS(sym, identifier);
  if (ident || GL_HAS(sym, attribute)) {
    if (resolve(st, n, q) && is_guard_name(st, q)) st->guarded = true;
    if (ident && gl_check__text_is(src, n, "CUDARuntimeError")) st->guarded = true;
  } else if (GL_HAS(sym, assignment)) {
    note_modules(st, module_bits(st, gl_parse_child(n, "right", 5)), n);
  } else if (GL_HAS(sym, return_statement)) {
    if (ts_node_named_child_count(n) > 0)
      note_modules(st, module_bits(st, ts_node_named_child(n, 0)), n);
  } else if (GL_HAS(sym, default_parameter) || GL_HAS(sym, typed_default_parameter)) {
    if (gpu_switch_param(src, n)) claim = n;
  } else if (GL_HAS(sym, try_statement)) {
    if (optional_gpu_import(st, n)) claim = n;
  }
  if (!ts_node_is_null(claim) && ts_node_is_null(st->claim)) st->claim = claim;
}

/* Whether the module-level statement stmt (not a def, class, if or try: their bodies may not
 * run) names a GPU package: `df = cudf.read_csv(p)`, `print(gd.__version__)`. Then the file needs
 * the GPU whatever its switches say. Attribute and keyword names are not uses (`x.cuda()`). */
static bool uses_gpu_unconditionally(const gstate *st, TSNode stmt) {
  char q[QCAP];
  bool used = false;
  gl_check__walk w;
  gl_check__walk_init(&w, st->ctx->model, stmt);
  TSNode n;
  while (!used && gl_check__walk_next(&w, &n)) {
    if (GL_IS(n, lambda)) {
      gl_check__walk_skip(&w);
    } else if (GL_IS(n, identifier)) {
      const char *field = gl_check__walk_field(&w);
      bool name_only = field && (strcmp(field, "attribute") == 0 || strcmp(field, "name") == 0);
      used = !name_only && resolve(st, n, q) && gpu_module(st, q);
    }
  }
  gl_check__walk_free(&w);
  return used;
}

static bool file_needs_gpu(const gstate *st, TSNode root) {
  uint32_t count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count; i++) {
    TSNode k = ts_node_named_child(root, i);
    if (GL_IS(k, import_statement) || GL_IS(k, import_from_statement) ||
        GL_IS(k, function_definition) || GL_IS(k, class_definition) ||
        GL_IS(k, decorated_definition) || gl_parse_type_is(k, "if_statement") ||
        GL_IS(k, try_statement))
      continue;
    if (uses_gpu_unconditionally(st, k)) return true;
  }
  return false;
}

static void report(const gstate *st, TSNode imp, const char *name) {
  char what[96], line[48], msg[640];
  gl_check__text(st->ctx->src, st->claim, what, sizeof what);
  gl_check_line_label(st->ctx, ts_node_start_byte(st->claim), line, sizeof line);
  snprintf(msg, sizeof msg,
           "`%s` is imported unconditionally, but this file has a CPU path (`%s`, %s): on a "
           "machine without it the module fails at import before that path can run; import it "
           "in `try: ... except ImportError`, or where the GPU path starts",
           name, what, line);
  const char *rel = "the file's CPU path";
  gl_check_report_related(st->ctx, imp, msg, &st->claim, &rel, 1);
}

/* A GPU library imported at module level outside any try / if, in a file that shows a CPU
 * path (`cp if gpu else np`, a scope binding numpy in one place and a GPU package in another,
 * a gpu=False parameter, a try / except ImportError around another GPU import; not
 * cp.get_array_module alone), checks nowhere for a GPU and does not use a GPU package at module
 * level anyway. */
void gl_check_no_gpu_availability_guard(const gl_check_ctx *ctx) {
  if (!ctx->model) return;
  gstate st = {.ctx = ctx};
  gl_check__walk s;
  gl_check__walk_init(&s, ctx->model, ts_tree_root_node(ctx->tree));
  TSNode n;
  while (gl_check__walk_next(&s, &n) && !st.guarded) {
    st.scope = gl_vbind_scope(&s);
    look(&st, n);
  }
  gl_check__walk_free(&s);
  gl_vec_free(&st.mods);
  TSNode root = ts_tree_root_node(ctx->tree);
  if (st.guarded || ts_node_is_null(st.claim) || file_needs_gpu(&st, root)) return;
  uint32_t count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count; i++) {
    TSNode imp = ts_node_named_child(root, i);
    if (!GL_IS(imp, import_statement) && !GL_IS(imp, import_from_statement)) continue;
    char q[QCAP];
    TSNode mod = gpu_import(&st, imp, false);
    if (ts_node_is_null(mod) || !resolve(&st, mod, q)) continue;
    report(&st, imp, q);
  }
}
