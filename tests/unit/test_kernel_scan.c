/* test_kernel_scan.c: unit tests for finding GPU kernels (src/checks/kernel-correctness/kernel_scan.h).
 * Owns: the kernel kind of each decorator form (`@cuda.jit`, `@cuda.jit(...)`, `device=True`,
 *       `@numba.cuda.jit`, aliases, `@jit.rawkernel()`, `@wp.kernel`, `@wp.func`), the near misses
 *       (other decorators, a rebound name, a class), the walk's kind filter and order, and the
 *       thread-index API name tests.
 * Not: the checks (fixtures in tests/rules/fixtures/kernel-correctness).
 * Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "checks/kernel-correctness/kernel_scan.h"
#include "model_fixture.h"

/* fx, fx_build(), done() and find() come from model_fixture.h; these tests build without models. */
static fx *build(const char *code) { return fx_build(code, strlen(code), NULL); }

typedef struct seen {
  char names[8][16];
  gl_kkind kinds[8];
  const char *libs[8];
  int n;
  const gl_source *src;
} seen;

static void collect(const gl_kernel *k, void *data) {
  seen *s = data;
  if (s->n == 8) return;
  TSNode name = ts_node_child_by_field_name(k->def, "name", 4);
  uint32_t a = ts_node_start_byte(name), b = ts_node_end_byte(name);
  size_t len = b - a < 15 ? b - a : 15;
  memcpy(s->names[s->n], s->src->bytes + a, len);
  s->names[s->n][len] = '\0';
  s->kinds[s->n] = k->kind;
  s->libs[s->n] = k->lib;
  s->n++;
}

static const unsigned ALL = (1u << GL_K_NUMBA) | (1u << GL_K_NUMBA_DEVICE) | (1u << GL_K_CUPYX) |
                            (1u << GL_K_WARP) | (1u << GL_K_WARP_FUNC);

static void test_kinds(void **state) {
  (void)state;
  fx *f = build("from numba import cuda as nc\nimport numba\nimport warp as w\n"
                "from cupyx import jit\n"
                "@nc.jit\ndef a(x): pass\n"
                "@nc.jit('void(float32[:])', device=True)\ndef b(x): pass\n"
                "@numba.cuda.jit(fastmath=True)\ndef c(x): pass\n"
                "@jit.rawkernel()\ndef d(x): pass\n"
                "@w.kernel\ndef e(x: int): pass\n"
                "@w.func\ndef g(x: int): pass\n"
                "@numba.njit\ndef h(x): pass\n"
                "@staticmethod\ndef i(x): pass\n"
                "@nc.jit\nclass J: pass\n");
  seen s = {.src = &f->src};
  gl_kernel_each(f->m, &f->src, f->tree, ALL, collect, &s);
  assert_int_equal(s.n, 6);
  const char *names[] = {"a", "b", "c", "d", "e", "g"};
  const gl_kkind kinds[] = {GL_K_NUMBA, GL_K_NUMBA_DEVICE, GL_K_NUMBA,
                            GL_K_CUPYX, GL_K_WARP,         GL_K_WARP_FUNC};
  const char *libs[] = {"numba.cuda", "numba.cuda", "numba.cuda", "cupyx.jit", "warp", "warp"};
  for (int i = 0; i < 6; i++) {
    assert_string_equal(s.names[i], names[i]);
    assert_int_equal(s.kinds[i], kinds[i]);
    assert_string_equal(s.libs[i], libs[i]);
  }
  done(f);
}

static void test_filter_and_rebound(void **state) {
  (void)state;
  fx *f = build("from numba import cuda\nimport warp as wp\n"
                "def outer():\n    @cuda.jit\n    def inner(x): pass\n"
                "@wp.kernel\ndef k(x: int): pass\n");
  seen s = {.src = &f->src};
  gl_kernel_each(f->m, &f->src, f->tree, 1u << GL_K_NUMBA, collect, &s);
  assert_int_equal(s.n, 1);
  assert_string_equal(s.names[0], "inner");
  done(f);

  /* `cuda` rebound in the module: the decorator no longer resolves */
  f = build("from numba import cuda\ncuda = object()\n@cuda.jit\ndef k(x): pass\n");
  seen t = {.src = &f->src};
  gl_kernel_each(f->m, &f->src, f->tree, ALL, collect, &t);
  assert_int_equal(t.n, 0);
  done(f);

  /* nothing that names jit, kernel or func: no walk, and a NULL model is no kernel */
  f = build("import numpy as np\nx = np.zeros(3)\n");
  seen u = {.src = &f->src};
  gl_kernel_each(f->m, &f->src, f->tree, ALL, collect, &u);
  gl_kernel_each(NULL, &f->src, f->tree, ALL, collect, &u);
  assert_int_equal(u.n, 0);
  done(f);
}

static void test_api_names(void **state) {
  (void)state;
  fx *f = build("from numba import cuda\nimport numba.cuda as nc\n"
                "a = cuda.threadIdx.x\nb = nc.threadIdx\nc = cuda.threadIdxs.x\n"
                "d = cuda.blockIdx.y\n");
  assert_true(gl_kernel_names_api(f->m, "numba.cuda", find(f, "attribute", "cuda.threadIdx.x", 0),
                                  "threadIdx"));
  assert_true(gl_kernel_names_api(f->m, "numba.cuda", find(f, "attribute", "nc.threadIdx", 0),
                                  "threadIdx"));
  assert_false(gl_kernel_names_api(f->m, "numba.cuda",
                                   find(f, "attribute", "cuda.threadIdxs.x", 0), "threadIdx"));
  assert_false(gl_kernel_names_api(f->m, "numba.cuda", find(f, "attribute", "cuda.blockIdx.y", 0),
                                   "threadIdx"));
  assert_false(gl_kernel_names_api(f->m, "warp", find(f, "attribute", "cuda.threadIdx.x", 0),
                                   "threadIdx"));
  assert_false(gl_kernel_names_api(f->m, "numba.cuda", find(f, "identifier", "a", 0), "threadIdx"));
  assert_true(gl_kernel_api_is("numba.cuda", "numba.cuda.grid", "grid"));
  assert_false(gl_kernel_api_is("numba.cuda", "numba.cudax.grid", "grid"));
  assert_false(gl_kernel_api_is("numba.cuda", "numba.cuda.gridsize", "grid"));
  done(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kinds),
      cmocka_unit_test(test_filter_and_rebound),
      cmocka_unit_test(test_api_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
