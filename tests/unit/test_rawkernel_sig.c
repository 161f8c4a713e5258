/* test_rawkernel_sig.c: unit tests for the CUDA C parameter-list reader of the RawKernel checks
 * (rawkernel_sig.h).
 * Owns: finding `void name(` (and not a longer name, a call, or a name without `void`), the width
 *       class of each parameter type with qualifiers, pointers (and their element types) and
 *       unknown types, the parameter
 *       text offsets, and the failures (not found, two different lists, unbalanced).
 * Not: the Python side (fixtures in tests/rules/fixtures/kernel-correctness).
 * Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "checks/kernel-correctness/rawkernel_sig.h"

static bool parse(const char *text, const char *name, gl_rk_sig *sig) {
  return gl_rk_parse(text, strlen(text), name, strlen(name), sig);
}

static void test_types(void **state) {
  (void)state;
  const char *src =
      "extern \"C\" __global__\nvoid k(const float* __restrict__ x, float a, int n,\n"
      "  unsigned int m, long long big, size_t s, double d, __half h, bool flag,\n"
      "  unsigned char c, const int& r, float v[], T t, float2 f2) { }";
  gl_rk_sig sig;
  assert_true(parse(src, "k", &sig));
  assert_int_equal(sig.n, 14);
  const gl_rk_type want[] = {GL_RK_PTR,     GL_RK_F32,     GL_RK_I32, GL_RK_I32, GL_RK_I64,
                             GL_RK_I64,     GL_RK_F64,     GL_RK_F16, GL_RK_I_SMALL,
                             GL_RK_I_SMALL, GL_RK_PTR,     GL_RK_PTR, GL_RK_UNKNOWN,
                             GL_RK_UNKNOWN};
  for (size_t i = 0; i < sig.n; i++) assert_int_equal(sig.params[i].type, want[i]);
  assert_int_equal(sig.params[0].elem, GL_RK_F32);
  assert_int_equal(sig.params[10].elem, GL_RK_I32);
  assert_int_equal(sig.params[11].elem, GL_RK_F32);
  assert_int_equal(sig.params[1].elem, GL_RK_UNKNOWN);
  assert_int_equal(sig.params[1].len, 7);
  assert_memory_equal(src + sig.params[1].start, "float a", 7);
  assert_memory_equal(src + sig.params[2].start, "int n", 5);
  assert_string_equal(gl_rk_type_name(GL_RK_F32), "float");
  assert_string_equal(gl_rk_type_name(GL_RK_I64), "long long");
}

static void test_find(void **state) {
  (void)state;
  gl_rk_sig sig;
  /* a longer name, a call without void, then the definition */
  const char *src = "void kk(int a) {}\n__device__ float k2(float x);\n"
                    "void g() { k(1); }\nextern \"C\" __global__ void k(float* y) {}";
  assert_true(parse(src, "k", &sig));
  assert_int_equal(sig.n, 1);
  assert_int_equal(sig.params[0].type, GL_RK_PTR);
  assert_true(parse("void pp(float** p, double *d, void* v, T* t) {}", "pp", &sig));
  assert_int_equal(sig.n, 4);
  assert_int_equal(sig.params[0].type, GL_RK_PTR);
  assert_int_equal(sig.params[0].elem, GL_RK_UNKNOWN);
  assert_int_equal(sig.params[1].elem, GL_RK_F64);
  assert_int_equal(sig.params[2].elem, GL_RK_UNKNOWN);
  assert_int_equal(sig.params[3].elem, GL_RK_UNKNOWN);
  assert_true(parse("void e() {}", "e", &sig));
  assert_int_equal(sig.n, 0);
  assert_true(parse("void v(void) {}", "v", &sig));
  assert_int_equal(sig.n, 1);
  assert_int_equal(sig.params[0].type, GL_RK_UNKNOWN);
  /* a template's parameter list keeps its commas inside <> */
  assert_true(parse("void t(Pair<int, float> p, int n) {}", "t", &sig));
  assert_int_equal(sig.n, 2);
  assert_int_equal(sig.params[0].type, GL_RK_UNKNOWN);
  assert_int_equal(sig.params[1].type, GL_RK_I32);
}

static void test_failures(void **state) {
  (void)state;
  gl_rk_sig sig;
  assert_false(parse("void other(int n) {}", "k", &sig));
  assert_false(parse("int k(int n) {}", "k", &sig));
  assert_false(parse("void k(int n, float a", "k", &sig));
  assert_false(parse("void k(int n) {}\nvoid k(float n) {}", "k", &sig));
  assert_true(parse("void k(int n);\nvoid k(int m) {}", "k", &sig));
  assert_int_equal(sig.n, 1);
  assert_false(gl_rk_parse("void k(int n)", 13, "k", 0, &sig));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_types),
      cmocka_unit_test(test_find),
      cmocka_unit_test(test_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
