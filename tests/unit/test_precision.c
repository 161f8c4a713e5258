/* test_precision.c: the Numba float64-literal checks (GPU511, GPU512) through the real engine, for
 * what the rule fixtures cannot hold: exact messages and columns, which rule a kernel goes to,
 * messages cut at a line break, and files that never name numba.
 * Threads: single-threaded test code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine_fixture.h"

static int setup(void **state) {
  static const char *const sel[] = {"GPU511", "GPU512"};
  return engine_setup(state, sel, 2);
}

static void test_typed_kernel_message(void **state) {
  gl_file_result r = lint_py(*state,
                             "from numba import cuda\n"
                             "@cuda.jit(\"void(float32[:], float32[:])\")\n"
                             "def k(x, out):\n"
                             "    i = cuda.grid(1)\n"
                             "    out[i] = x[i] * 2.0\n");
  assert_int_equal(r.findings.len, 1);
  const gl_finding *f = &r.findings.data[0];
  assert_finding(f, "GPU511", 5, 21, 24);
  assert_string_equal(f->message,
                      "`2.0` in `x[i] * 2.0` is a float64 constant in a Numba CUDA kernel whose "
                      "signature is float32: the arithmetic it takes part in runs in FP64 (float32 "
                      "operands are promoted); write `float32(2.0)` where the kernel works in float32");
  gl_file_result_free(&r);
}

static void test_lazy_kernel_goes_to_gpu512(void **state) {
  gl_file_result r = lint_py(*state,
                             "from numba_cuda_mlir import cuda as nc\n"
                             "@nc.jit(device=True)\n"
                             "def f(v):\n"
                             "    acc = -0.5\n"
                             "    acc += v\n"
                             "    return acc\n");
  assert_int_equal(r.findings.len, 1);
  const gl_finding *f = &r.findings.data[0];
  assert_finding(f, "GPU512", 4, 11, 15);
  assert_string_equal(f->message,
                      "`-0.5` in `acc = -0.5` is a float64 constant in a Numba CUDA kernel: the "
                      "arithmetic it takes part in runs in FP64 (float32 operands are promoted); "
                      "write `float32(-0.5)` where the kernel works in float32");
  gl_file_result_free(&r);
}

/* The expression shown in the message stops at its first line break. */
static void test_multiline_expression_cut(void **state) {
  gl_file_result r = lint_py(*state,
                             "from numba import cuda\n"
                             "@cuda.jit\n"
                             "def k(x):\n"
                             "    x[0] = (x[1] +\n"
                             "            1.5)\n");
  assert_int_equal(r.findings.len, 1);
  const gl_finding *f = &r.findings.data[0];
  assert_finding(f, "GPU512", 5, 13, 16);
  assert_non_null(strstr(f->message, "`1.5` in `x[1] +` is a float64 constant"));
  gl_file_result_free(&r);
}

/* Float64 and unreadable signatures, integer-only kernels, Warp and host code: nothing. */
static void test_not_reported(void **state) {
  gl_file_result r = lint_py(*state,
                             "import warp as wp\n"
                             "from numba import cuda, float64\n"
                             "SIG = 'void(float32[:])'\n"
                             "@cuda.jit('void(float64[:])')\n"
                             "def a(x):\n"
                             "    x[0] = x[0] * 2.0\n"
                             "@cuda.jit(SIG)\n"
                             "def b(x):\n"
                             "    x[0] = x[0] * 2.0\n"
                             "@cuda.jit('void(int32[:])')\n"
                             "def c(x):\n"
                             "    x[0] = x[0] * 2.0\n"
                             "@wp.kernel\n"
                             "def d(x: wp.array(dtype=float)):\n"
                             "    x[0] = x[0] * 2.0\n"
                             "def host(x):\n"
                             "    return x * 2.0\n");
  assert_int_equal(r.findings.len, 0);
  gl_file_result_free(&r);
}

/* `cuda.jit` that is not Numba's (no numba import): the check returns before walking. */
static void test_file_without_numba(void **state) {
  gl_file_result r = lint_py(*state,
                             "import cupy as cuda\n"
                             "@cuda.jit\n"
                             "def k(x):\n"
                             "    return x * 2.0\n");
  assert_int_equal(r.findings.len, 0);
  gl_file_result_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_typed_kernel_message),
      cmocka_unit_test(test_lazy_kernel_goes_to_gpu512),
      cmocka_unit_test(test_multiline_expression_cut),
      cmocka_unit_test(test_not_reported),
      cmocka_unit_test(test_file_without_numba),
  };
  return cmocka_run_group_tests(tests, setup, engine_teardown);
}
