/* kernel_scan.c: the kernels of a file (kernel_scan.h).
 * Owns: decorator resolution to a kernel kind, the one-pass walk over a file's kernels, the
 *       names of a binding target, the thread-index API name tests.
 * Not: any check's logic.
 * Threads: no state beyond the caller's values. */
#include "checks/kernel-correctness/kernel_scan.h"

#include <string.h>

#include "checks/node.h"
#include "parse/parse.h"

#define QNAME_CAP 256

typedef struct kmaker {
  const char *name;
  gl_kkind kind;
  const char *lib;
} kmaker;

static const kmaker kmakers[] = {
    {"numba.cuda.jit", GL_K_NUMBA, "numba.cuda"},
    {"numba_cuda_mlir.cuda.jit", GL_K_NUMBA, "numba_cuda_mlir.cuda"},
    {"cupyx.jit.rawkernel", GL_K_CUPYX, "cupyx.jit"},
    {"warp.kernel", GL_K_WARP, "warp"},
    {"warp.func", GL_K_WARP_FUNC, "warp"},
};


static const kmaker *find_kmaker(const char *q) {
  for (size_t i = 0; i < sizeof kmakers / sizeof kmakers[0]; i++)
    if (strcmp(kmakers[i].name, q) == 0) return &kmakers[i];
  return NULL;
}

/* `device=True` among a decorator call's keyword arguments. */
static bool device_true(const gl_source *src, TSNode call) {
  TSNode v = gl_check__kwarg(src, call, "device");
  return !ts_node_is_null(v) && gl_check__text_is(src, v, "True");
}

gl_kkind gl_kernel_of(const gl_model *m, const gl_source *src, TSNode decorated, gl_kernel *k) {
  memset(k, 0, sizeof *k);
  if (!GL_IS(decorated, decorated_definition)) return GL_K_NONE;
  TSNode def = gl_parse_child(decorated, "definition", 10);
  if (ts_node_is_null(def) || !GL_IS(def, function_definition)) return GL_K_NONE;
  uint32_t n = ts_node_named_child_count(decorated);
  char q[QNAME_CAP];
  for (uint32_t i = 0; i < n; i++) {
    TSNode d = ts_node_named_child(decorated, i);
    if (!gl_parse_type_is(d, "decorator") || ts_node_named_child_count(d) == 0) continue;
    TSNode e = ts_node_named_child(d, 0), call = {0};
    if (GL_IS(e, call)) {
      call = e;
      e = gl_parse_child(e, "function", 8);
    }
    if (ts_node_is_null(e) || !gl_model_resolve(m, e, q, sizeof q)) continue;
    const kmaker *mk = find_kmaker(q);
    if (!mk) continue;
    k->kind = mk->kind;
    if (mk->kind == GL_K_NUMBA && !ts_node_is_null(call) && device_true(src, call))
      k->kind = GL_K_NUMBA_DEVICE;
    k->def = def;
    k->decorator = d;
    k->lib = mk->lib;
    return k->kind;
  }
  return GL_K_NONE;
}

/* False when no kernel of the kinds can be in the file: a kernel's decorator names `jit` (Numba,
 * cupyx.jit) or `kernel` / `func` (Warp) and resolves through an import of its library. */
static bool kernels_possible(const gl_model *m, const gl_source *src, unsigned kinds) {
  if (kinds & (1u << GL_K_NUMBA_DEVICE)) kinds |= 1u << GL_K_NUMBA;   /* same decorator */
  for (size_t i = 0; i < sizeof kmakers / sizeof kmakers[0]; i++) {
    const kmaker *k = &kmakers[i];
    if (!(kinds & (1u << k->kind))) continue;
    char root[32];
    size_t r = strcspn(k->lib, ".");
    if (r >= sizeof root) return true;
    memcpy(root, k->lib, r);
    root[r] = '\0';
    const char *word = k->kind == GL_K_WARP ? "kernel" : k->kind == GL_K_WARP_FUNC ? "func" : "jit";
    if (gl_model_imports(m, root) && gl_source_has(src, word)) return true;
  }
  return false;
}

void gl_kernel_walk(const gl_model *m, const gl_source *src, const TSTree *tree, unsigned kinds,
                    gl_kernel_fn fn, gl_kernel_node_fn other, void *data) {
  if (!m || !src->bytes) return;
  if (!gl_source_has(src, "jit") && !gl_source_has(src, "kernel") && !gl_source_has(src, "func"))
    return;
  if (!other && !kernels_possible(m, src, kinds)) return;
  gl_check__walk s;
  gl_check__walk_init(&s, m, ts_tree_root_node(tree));
  TSNode n;
  gl_kernel k;
  while (gl_check__walk_next(&s, &n)) {
    if (GL_IS(n, decorated_definition) && gl_kernel_of(m, src, n, &k) != GL_K_NONE &&
        (kinds & (1u << k.kind))) {
      fn(&k, data);
      gl_check__walk_skip(&s);
    } else if (other) {
      other(n, data);
    }
  }
  gl_check__walk_free(&s);
}

void gl_kernel_each(const gl_model *m, const gl_source *src, const TSTree *tree, unsigned kinds,
                    gl_kernel_fn fn, void *data) {
  gl_kernel_walk(m, src, tree, kinds, fn, NULL, data);
}

void gl_kernel_target_names(TSNode t, gl_check__nodes *out) {
  if (GL_IS(t, identifier)) {
    gl_vec_push(out, t);
    return;
  }
  if (!gl_parse_type_is(t, "pattern_list") && !gl_parse_type_is(t, "tuple_pattern") &&
      !gl_parse_type_is(t, "list_pattern"))
    return;
  uint32_t n = ts_node_named_child_count(t);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(t, i);
    if (GL_IS(c, identifier)) gl_vec_push(out, c);
  }
}

bool gl_kernel_api_is(const char *lib, const char *q, const char *tail) {
  size_t l = strlen(lib);
  return strncmp(q, lib, l) == 0 && q[l] == '.' && strcmp(q + l + 1, tail) == 0;
}

bool gl_kernel_names_api(const gl_model *m, const char *lib, TSNode n, const char *tail) {
  if (!GL_IS(n, attribute) && !GL_IS(n, identifier)) return false;
  char q[QNAME_CAP];
  if (!gl_model_resolve(m, n, q, sizeof q)) return false;
  size_t l = strlen(lib), t = strlen(tail);
  if (strncmp(q, lib, l) != 0 || q[l] != '.' || strncmp(q + l + 1, tail, t) != 0) return false;
  char after = q[l + 1 + t];
  return after == '\0' || after == '.';
}
