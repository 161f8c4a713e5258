/* test_cuerr.c: cmocka tests of cuda-probe/cuerr.c: every CUDA error class of the issue 5 spec maps
 * to its exit status, near misses fall to status 8, and the sentence is exact for each class.
 * Owns: nothing beyond the test.
 * Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cuerr.h"

static void test_status_classes(void **state) {
  (void)state;
  static const int driver[] = {34, 35, 36, 803, 804};
  for (size_t i = 0; i < sizeof driver / sizeof *driver; i++)
    assert_int_equal(gp_cuerr_status(driver[i]), GP_EXIT_DRIVER);
  assert_int_equal(gp_cuerr_status(100), GP_EXIT_NODEVICE);
  assert_int_equal(gp_cuerr_status(46), GP_EXIT_BUSY);
  assert_int_equal(gp_cuerr_status(2), GP_EXIT_MEMORY);
  assert_int_equal(gp_cuerr_status(209), GP_EXIT_NOIMAGE);
  assert_int_equal(gp_cuerr_status(222), GP_EXIT_NOIMAGE);
  assert_int_equal(GP_EXIT_DRIVER, 3);
  assert_int_equal(GP_EXIT_NODEVICE, 4);
  assert_int_equal(GP_EXIT_BUSY, 5);
  assert_int_equal(GP_EXIT_MEMORY, 6);
  assert_int_equal(GP_EXIT_NOIMAGE, 7);
  assert_int_equal(GP_EXIT_CUDA, 8);
  assert_int_equal(GP_EXIT_WRITE, 9);
  assert_int_equal(GP_EXIT_CHECK, 10);
}

static void test_near_misses_are_other(void **state) {
  (void)state;
  static const int other[] = {0, 1, 3, 33, 37, 45, 47, 99, 101, 102, 200, 208, 210, 221, 223,
                              700, 802, 805, 999, -1};
  for (size_t i = 0; i < sizeof other / sizeof *other; i++)
    assert_int_equal(gp_cuerr_status(other[i]), GP_EXIT_CUDA);
}

static void expect_sentence(int code, const char *name, const char *want) {
  char buf[1024];
  gp_cuerr_format(buf, sizeof buf, "counting CUDA devices", code, name);
  assert_string_equal(buf, want);
}

static void test_sentences(void **state) {
  (void)state;
  expect_sentence(35, "cudaErrorInsufficientDriver",
                  "counting CUDA devices failed with cudaErrorInsufficientDriver (35): no usable "
                  "NVIDIA driver (missing, or older than this probe's CUDA runtime); install or "
                  "update the NVIDIA driver");
  expect_sentence(100, "cudaErrorNoDevice",
                  "counting CUDA devices failed with cudaErrorNoDevice (100): no CUDA device is "
                  "visible; check nvidia-smi and CUDA_VISIBLE_DEVICES");
  expect_sentence(46, "cudaErrorDevicesUnavailable",
                  "counting CUDA devices failed with cudaErrorDevicesUnavailable (46): the device "
                  "is busy, prohibited or unavailable; check its compute mode and the processes "
                  "using it with nvidia-smi");
  expect_sentence(2, "cudaErrorMemoryAllocation",
                  "counting CUDA devices failed with cudaErrorMemoryAllocation (2): out of device "
                  "or pinned host memory; free memory other processes hold or run with --quick");
  expect_sentence(209, "cudaErrorNoKernelImageForDevice",
                  "counting CUDA devices failed with cudaErrorNoKernelImageForDevice (209): this "
                  "build has no kernel image that this GPU and driver can run; rebuild the probe "
                  "with -DCMAKE_CUDA_ARCHITECTURES naming this GPU's architecture, or update the "
                  "driver");
  expect_sentence(999, "cudaErrorUnknown",
                  "counting CUDA devices failed with cudaErrorUnknown (999): unexpected CUDA "
                  "error; rerun the probe, and report it with nvidia-smi's output if it repeats");
}

static void test_missing_name_and_truncation(void **state) {
  (void)state;
  char buf[1024];
  gp_cuerr_format(buf, sizeof buf, "launching the FMA kernel", 12345, NULL);
  assert_string_equal(buf, "launching the FMA kernel failed with an unnamed CUDA error (12345): "
                           "unexpected CUDA error; rerun the probe, and report it with "
                           "nvidia-smi's output if it repeats");
  gp_cuerr_format(buf, sizeof buf, "x", 2, "");
  assert_int_equal(strncmp(buf, "x failed with an unnamed CUDA error (2): out of", 47), 0);
  char small[16];
  memset(small, 'z', sizeof small);
  gp_cuerr_format(small, sizeof small, "counting CUDA devices", 35, "cudaErrorInsufficientDriver");
  assert_string_equal(small, "counting CUDA d");
  assert_string_equal(gp_cuerr_advice(42), gp_cuerr_advice(GP_EXIT_CUDA));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_status_classes),
      cmocka_unit_test(test_near_misses_are_other),
      cmocka_unit_test(test_sentences),
      cmocka_unit_test(test_missing_name_and_truncation),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
