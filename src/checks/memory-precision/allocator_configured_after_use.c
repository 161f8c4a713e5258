/* allocator_configured_after_use.c: the allocator-configured-after-use check (GPU504): a memory
 * allocator or pool configured after the same scope already used the device through the library it
 * configures.
 * Owns: one walk in source order that records, per function scope and library (CuPy, RMM and the
 *       RAPIDS libraries on it, PyTorch), the device uses, and compares each configuration call
 *       (`cp.cuda.set_allocator`, `rmm.reinitialize`, `torch.cuda.change_current_allocator`,
 *       `os.environ["PYTORCH_CUDA_ALLOC_CONF"] = ...`) with the earlier uses of its scope.
 * Not: the reporting helper (checks.c), what happens in other functions or modules.
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "parse/parse.h"

#define QNAME_CAP 256

typedef enum olib { L_NONE, L_CUPY, L_RMM, L_TORCH } olib;

typedef struct use {
  TSNode node;      /* the call that used the device */
  TSNode branch;    /* its innermost if / elif / else / except / case block in scope, or null */
  uint32_t scope;   /* start byte of its function scope (0: the module) */
  olib lib;
} use;

typedef struct ostate {
  const gl_check_ctx *ctx;
  gl_vec(use) uses;
  const gl_check__walk *walk;   /* the file's walk, at the node being visited */
} ostate;

static bool has_prefix(const char *q, const char *const *libs, size_t n) {
  size_t len = strcspn(q, ".");
  for (size_t i = 0; i < n; i++)
    if (strlen(libs[i]) == len && memcmp(q, libs[i], len) == 0) return true;
  return false;
}

static olib lib_of_qname(const char *q) {
  static const char *const cupy[] = {"cupy", "cupyx"};
  static const char *const rmm[] = {"rmm", "cudf", "cuml", "cugraph", "cuvs", "pylibraft"};
  static const char *const torch[] = {"torch"};
  if (has_prefix(q, cupy, 2)) return L_CUPY;
  if (has_prefix(q, rmm, 6)) return L_RMM;
  return has_prefix(q, torch, 1) ? L_TORCH : L_NONE;
}

/* The library whose device memory call n uses, or L_NONE. */
static olib use_lib(const ostate *st, TSNode call) {
  const gl_model *m = st->ctx->model;
  uint32_t roles = gl_model_roles(m, call);
  bool dev = gl_model_prov(m, call) == GL_PROV_DEVICE ||
             (roles & (GL_ROLE_ALLOC | GL_ROLE_H2D | GL_ROLE_DEVICE_RETURNING));
  if (!dev) return L_NONE;
  char q[QNAME_CAP];
  if (gl_check__callee(m, call, q, sizeof q))  /* rmm.mr.*: the resources being configured */
    return strncmp(q, "rmm.mr.", 7) == 0 ? L_NONE : lib_of_qname(q);
  TSNode fn = gl_parse_child(call, "function", 8);
  if (!GL_IS(fn, attribute) || !(roles & GL_ROLE_H2D)) return L_NONE;
  TSNode meth = gl_parse_child(fn, "attribute", 9);
  const gl_source *src = st->ctx->src;
  bool moves = gl_check__text_is(src, meth, "cuda") || gl_check__text_is(src, meth, "to");
  return moves ? L_TORCH : L_NONE;
}

static bool is_alloc_conf(const gl_source *src, TSNode s) {
  if (!gl_parse_type_is(s, "string")) return false;
  uint32_t a = ts_node_start_byte(s), b = ts_node_end_byte(s);
  static const char key[] = "PYTORCH_CUDA_ALLOC_CONF";
  size_t k = sizeof key - 1;
  return b - a == k + 2 && memcmp(src->bytes + a + 1, key, k) == 0;
}

/* The library an allocator configuration configures, or L_NONE. */
static olib config_lib(const ostate *st, TSNode n) {
  const gl_model *m = st->ctx->model;
  char q[QNAME_CAP];
  if (GL_IS(n, assignment)) {
    TSNode left = gl_parse_child(n, "left", 4);
    if (!GL_IS(left, subscript)) return L_NONE;
    TSNode v = gl_parse_child(left, "value", 5);
    TSNode k = gl_parse_child(left, "subscript", 9);
    bool env = gl_model_resolve(m, v, q, sizeof q) && strcmp(q, "os.environ") == 0;
    return env && is_alloc_conf(st->ctx->src, k) ? L_TORCH : L_NONE;
  }
  if (!gl_check__callee(m, n, q, sizeof q)) return L_NONE;
  if (!strcmp(q, "cupy.cuda.set_allocator") || !strcmp(q, "cupy.cuda.set_pinned_memory_allocator"))
    return L_CUPY;
  if (!strcmp(q, "rmm.reinitialize") || !strcmp(q, "rmm.mr.set_current_device_resource") ||
      !strcmp(q, "rmm.mr.set_per_device_resource"))
    return L_RMM;
  if (!strcmp(q, "torch.cuda.change_current_allocator") ||
      !strcmp(q, "torch.cuda.memory.change_current_allocator"))
    return L_TORCH;
  bool env = !strcmp(q, "os.environ.setdefault") || !strcmp(q, "os.putenv");
  return env && is_alloc_conf(st->ctx->src, gl_check__arg(n, 0)) ? L_TORCH : L_NONE;
}

/* The start byte of the function scope around the node being visited (0: the module). */
static uint32_t cur_scope(const ostate *st) {
  TSNode s = gl_check__walk_scope(st->walk, 0);
  return ts_node_is_null(s) ? 0 : ts_node_start_byte(s);
}

/* The innermost block of a conditional branch around the walk's current node, in its scope. */
static TSNode branch_of(const gl_check__walk *w) {
  for (size_t k = 0;; k++) {
    TSNode p = gl_check__walk_up(w, k, NULL);
    if (ts_node_is_null(p) || gl_parse_opens_scope(p)) return (TSNode){0};
    if (!GL_IS(p, block)) continue;
    TSNode pp = gl_check__walk_up(w, k + 1, NULL);
    if (gl_parse_type_is(pp, "if_statement") || GL_IS(pp, elif_clause) ||
        GL_IS(pp, else_clause) || GL_IS(pp, except_clause) ||
        GL_IS(pp, case_clause))
      return p;
  }
}

/* The first use of lib in the current scope that surely ran before n (outside any branch that
 * does not also hold n), or NULL. */
static const use *first_use(const ostate *st, olib lib, TSNode n) {
  uint32_t scope = cur_scope(st);
  for (size_t i = 0; i < st->uses.len; i++) {
    const use *u = &st->uses.data[i];
    if (u->lib != lib || u->scope != scope) continue;
    if (ts_node_is_null(u->branch) || gl_check__contains(u->branch, n)) return u;
  }
  return NULL;
}

static const char *const advice[] = {
    "",
    "the arrays made before it stay in the memory of the previous allocator, so two pools hold "
    "memory and the setting does not govern them; configure the allocator before the first "
    "CuPy array is made",
    "memory that RMM-backed libraries allocated before it stays with the previous resource, "
    "outside the pool being set up; call it before the first cuDF / cuML / RMM allocation",
    "PyTorch sets up its CUDA caching allocator at the first CUDA allocation: "
    "`PYTORCH_CUDA_ALLOC_CONF` set later has no effect and `change_current_allocator` raises; "
    "configure it before the first CUDA tensor is made",
};

static const char *const lib_names[] = {"", "CuPy", "an RMM-backed library", "PyTorch"};

static void report(const ostate *st, TSNode n, olib lib, const use *u) {
  const gl_source *src = st->ctx->src;
  TSNode at = n;
  if (GL_IS(n, call)) at = gl_parse_child(n, "function", 8);
  else at = gl_parse_child(n, "left", 4);
  uint32_t a = ts_node_start_byte(at), b = ts_node_end_byte(at);
  int len = (int)(b - a > 60 ? 60 : b - a);
  char where[48], msg[640];
  gl_check_line_label(st->ctx, ts_node_start_byte(u->node), where, sizeof where);
  snprintf(msg, sizeof msg, "`%.*s` configures the allocator after %s already used the device "
           "(%s): %s", len, src->bytes + a, lib_names[lib], where, advice[lib]);
  const char *rel_msg[1] = {"the device is first used here"};
  gl_check_report_related(st->ctx, n, msg, &u->node, rel_msg, 1);
}

static void visit(ostate *st, const gl_check__walk *w, TSNode n) {
  olib cl = config_lib(st, n);
  if (cl != L_NONE) {
    const use *u = first_use(st, cl, n);
    if (u) report(st, n, cl, u);
    return;
  }
  if (!GL_IS(n, call)) return;
  olib ul = use_lib(st, n);
  if (ul == L_NONE) return;
  use u = {n, branch_of(w), cur_scope(st), ul};
  gl_vec_push(&st->uses, u);
}

/* One node of the file (gl_check__each's callback). */
static void visit_node(TSNode n, gl_check__walk *w, void *data) {
  ((ostate *)data)->walk = w;
  if (GL_IS(n, call) || GL_IS(n, assignment)) visit(data, w, n);
}

/* `cp.cuda.set_allocator(...)` / `set_pinned_memory_allocator`, `rmm.reinitialize(...)` /
 * `rmm.mr.set_current_device_resource`, `torch.cuda.change_current_allocator` and
 * `os.environ["PYTORCH_CUDA_ALLOC_CONF"] = ...` (also `setdefault`, `os.putenv`) after a call of
 * the same scope, earlier in source order and not in a branch that excludes the configuration,
 * that made device data with that library (CuPy; RMM, cuDF, cuML, cuGraph, cuVS, RAFT;
 * PyTorch). Reported at the configuration with the first use as the related location. */
void gl_check_allocator_configured_after_use(const gl_check_ctx *ctx) {
  static const char *const libs[] = {"cupy", "cupyx", "rmm", "torch"};
  if (!ctx->model || !gl_check__imports_any(ctx->model, libs, 4)) return;
  /* every configuration the check knows spells one of these: set_allocator,
   * set_pinned_memory_allocator, change_current_allocator, rmm.reinitialize,
   * set_current_device_resource, set_per_device_resource, PYTORCH_CUDA_ALLOC_CONF */
  if (!gl_source_has(ctx->src, "allocator") && !gl_source_has(ctx->src, "reinitialize") &&
      !gl_source_has(ctx->src, "device_resource") &&
      !gl_source_has(ctx->src, "PYTORCH_CUDA_ALLOC_CONF"))
    return;
  ostate st = {.ctx = ctx};
  gl_check__each(ctx->model, ts_tree_root_node(ctx->tree), visit_node, &st);
  gl_vec_free(&st.uses);
}
