/* test_launch.c: the launch-granularity checks (GPU603 warp-launch-loop-without-graph, GPU604
 * block-size-over-limit, GPU605 launch-config-literal) through the real engine, for what the rule
 * fixtures cannot hold: exact messages and columns, one finding per loop nest, a graph capture
 * written after the loop, and two findings on one launch.
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
  static const char *const sel[] = {"GPU603", "GPU604", "GPU605"};
  return engine_setup(state, sel, 3);
}

static const char KERNEL[] = "from numba import cuda\n"
                             "@cuda.jit\n"
                             "def k(x):\n"
                             "    i = cuda.grid(1)\n"
                             "    if i < x.size:\n"
                             "        x[i] = 0\n";

static void test_block_over_limit_message(void **state) {
  char code[512];
  snprintf(code, sizeof code, "%sk[blocks, (64, 64)](d_x)\n", KERNEL);
  gl_file_result r = lint_py(*state, code);
  assert_int_equal(r.findings.len, 1);
  assert_finding(&r.findings.data[0], "GPU604", 7, 11, 19);
  assert_string_equal(r.findings.data[0].message,
                      "a block of 4096 threads is over CUDA's limit of 1024 threads per block, so "
                      "this launch fails at run time; use at most 1024 threads per block (128 to "
                      "256 for 1-D work) and more blocks");
  gl_file_result_free(&r);
}

static void test_literal_grid_and_odd_block(void **state) {
  char code[512];
  snprintf(code, sizeof code, "%sk[40, 100](d_x)\n", KERNEL);
  gl_file_result r = lint_py(*state, code);
  assert_int_equal(r.findings.len, 2);
  assert_finding(&r.findings.data[0], "GPU605", 7, 3, 5);
  assert_string_equal(r.findings.data[0].message,
                      "the literal grid of 40 blocks runs 4000 threads whatever the size of the "
                      "data, and the kernel does not loop over the grid: elements past the last "
                      "thread are left unprocessed, and so few blocks leave most of the GPU idle; "
                      "compute the grid from the size, `(n + threads - 1) // threads`, or loop "
                      "with `cuda.gridsize`");
  assert_finding(&r.findings.data[1], "GPU605", 7, 7, 10);
  assert_string_equal(r.findings.data[1].message,
                      "a block of 100 threads is not a multiple of the warp size (32), so the last "
                      "warp of every block runs partly idle; use a multiple of 32 such as 128 or 256");
  gl_file_result_free(&r);
}

static void test_module_array_of_literal_size(void **state) {
  char code[512];
  snprintf(code, sizeof code, "%sd_x = cuda.device_array(4096)\ndef f():\n    k[16, 256](d_x)\n",
           KERNEL);
  gl_file_result r = lint_py(*state, code);
  assert_int_equal(r.findings.len, 0);
  gl_file_result_free(&r);
}

static void test_warp_loop_message_and_count(void **state) {
  gl_file_result r = lint_py(*state,
                             "import warp as wp\n"
                             "for step in range(10):\n"
                             "    for sub in range(4):\n"
                             "        wp.launch(a, dim=n, inputs=[x])\n"
                             "        wp.launch(b, dim=n, inputs=[x])\n"
                             "        wp.launch(c, dim=n, inputs=[x])\n");
  assert_int_equal(r.findings.len, 1);
  assert_finding(&r.findings.data[0], "GPU603", 4, 9, 40);
  assert_string_equal(r.findings.data[0].message,
                      "this loop launches 3 Warp kernels per iteration and the file captures no "
                      "CUDA graph: each launch pays the Python and driver launch overhead again; "
                      "capture one step with `wp.ScopedCapture()` and replay it with "
                      "`wp.capture_launch(graph)`");
  gl_file_result_free(&r);
}

static void test_capture_after_the_loop(void **state) {
  gl_file_result r = lint_py(*state,
                             "import warp as wp\n"
                             "for step in range(10):\n"
                             "    wp.launch(a, dim=n, inputs=[x])\n"
                             "    wp.launch(b, dim=n, inputs=[x])\n"
                             "def replay(graph):\n"
                             "    wp.capture_launch(graph)\n");
  assert_int_equal(r.findings.len, 0);
  gl_file_result_free(&r);
}

static void test_rebound_kernel_name(void **state) {
  gl_file_result r = lint_py(*state,
                             "import warp as wp\n"
                             "for step in range(10):\n"
                             "    kern = pick(step)\n"
                             "    wp.launch(kern, dim=n, inputs=[x])\n"
                             "    wp.launch(kern, dim=n, inputs=[x])\n");
  assert_int_equal(r.findings.len, 0);
  gl_file_result_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_block_over_limit_message),
      cmocka_unit_test(test_literal_grid_and_odd_block),
      cmocka_unit_test(test_module_array_of_literal_size),
      cmocka_unit_test(test_warp_loop_message_and_count),
      cmocka_unit_test(test_capture_after_the_loop),
      cmocka_unit_test(test_rebound_kernel_name),
  };
  return cmocka_run_group_tests(tests, setup, engine_teardown);
}
