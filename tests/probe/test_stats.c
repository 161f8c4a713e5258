/* test_stats.c: cmocka tests of cuda-probe/stats.c: quantiles (numpy's linear interpolation) on
 * known arrays, odd and even counts, one sample, unsorted input left untouched, and the sampler's
 * stop rule (minimum, stability check points, maximum, time budget, clamping).
 * Owns: nothing beyond the test.
 * Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>

/* Interpolated quantiles: equal to within 1e-12 (cmocka here has no double comparison). */
#define assert_near(a, b) assert_true(fabs((a) - (b)) <= 1e-12)

#include "stats.h"

static void test_odd_count_exact(void **state) {
  (void)state;
  /* 0..10 shuffled: positions 0.1 * 10 = 1 and 0.9 * 10 = 9 fall on samples */
  double v[] = {7, 3, 10, 0, 5, 1, 9, 2, 8, 6, 4};
  gp_summary s = gp_stats_summarize(v, 11);
  assert_true(s.median == 5.0);
  assert_true(s.p10 == 1.0);
  assert_true(s.p90 == 9.0);
  assert_int_equal(s.samples, 11);
  assert_true(v[0] == 7 && v[10] == 4); /* the input keeps its order */
}

static void test_even_count_interpolates(void **state) {
  (void)state;
  double v[] = {10, 1, 9, 2, 8, 3, 7, 4, 6, 5};
  gp_summary s = gp_stats_summarize(v, 10);
  assert_true(s.median == 5.5); /* mean of the two middle samples */
  assert_near(s.p10, 1.9);
  assert_near(s.p90, 9.1);
  assert_int_equal(s.samples, 10);
}

static void test_three_samples(void **state) {
  (void)state;
  double v[] = {30, 10, 20};
  gp_summary s = gp_stats_summarize(v, 3);
  assert_true(s.median == 20.0);
  assert_near(s.p10, 12.0);
  assert_near(s.p90, 28.0);
}

static void test_two_samples(void **state) {
  (void)state;
  double v[] = {4, 2};
  gp_summary s = gp_stats_summarize(v, 2);
  assert_true(s.median == 3.0);
  assert_near(s.p10, 2.2);
  assert_near(s.p90, 3.8);
}

static void test_one_sample(void **state) {
  (void)state;
  double v[] = {8.25};
  gp_summary s = gp_stats_summarize(v, 1);
  assert_true(s.median == 8.25 && s.p10 == 8.25 && s.p90 == 8.25);
  assert_int_equal(s.samples, 1);
}

static void test_quantile_ends_and_ties(void **state) {
  (void)state;
  double v[] = {5, 5, 5, 1, 9};
  assert_true(gp_stats_quantile(v, 5, 0.0) == 1.0);
  assert_true(gp_stats_quantile(v, 5, 1.0) == 9.0);
  assert_true(gp_stats_quantile(v, 5, 0.5) == 5.0);
  assert_true(gp_stats_quantile(v, 5, 0.25) == 5.0);
  assert_near(gp_stats_quantile(v, 5, 0.1), 2.6);
}

static void test_ordered_on_near_equal_values(void **state) {
  (void)state;
  double v[] = {1.0000000000000002, 1.0, 1.0000000000000004, 1.0, 1.0000000000000002, 1.0};
  gp_summary s = gp_stats_summarize(v, 6);
  assert_true(s.p10 <= s.median && s.median <= s.p90);
}

static void test_sampler_minimum_then_stable(void **state) {
  (void)state;
  gp_sampler s;
  gp_sampler_init(&s, 5, 100, 1000.0, 0.0);
  for (int i = 0; i < 4; i++) {
    gp_sampler_add(&s, 10.0);
    assert_false(gp_sampler_done(&s, 0.0));
  }
  gp_sampler_add(&s, 10.0);
  assert_false(gp_sampler_done(&s, 0.0)); /* first check point (n = 5) only records the median */
  assert_int_equal(s.next_check, 10);
  for (int i = 0; i < 4; i++) {
    gp_sampler_add(&s, 10.05);
    assert_false(gp_sampler_done(&s, 0.0));
  }
  gp_sampler_add(&s, 10.05);
  assert_true(gp_sampler_done(&s, 0.0)); /* n = 10: median 10.025 within 1 % of 10 */
  assert_int_equal(s.n, 10);
}

static void test_sampler_unstable_continues(void **state) {
  (void)state;
  gp_sampler s;
  gp_sampler_init(&s, 10, 100, 1000.0, 0.0);
  int done = 0;
  for (int i = 0; i < 10; i++) {
    gp_sampler_add(&s, 1.0 + i);
    done = gp_sampler_done(&s, 0.0);
  }
  assert_false(done);
  for (int i = 10; i < 15; i++) {
    gp_sampler_add(&s, 1.0 + i); /* median moves from 5.5 to 8: more than 1 % */
    done = gp_sampler_done(&s, 0.0);
  }
  assert_false(done);
  assert_int_equal(s.next_check, 20);
}

static void test_sampler_max_and_budget(void **state) {
  (void)state;
  gp_sampler s;
  gp_sampler_init(&s, 3, 4, 1000.0, 0.0);
  for (int i = 0; i < 3; i++) gp_sampler_add(&s, (double)(i * 100 + 1));
  assert_false(gp_sampler_done(&s, 0.0));
  gp_sampler_add(&s, 1000.0);
  assert_true(gp_sampler_done(&s, 0.0)); /* max */
  gp_sampler_add(&s, 5.0);               /* past max: dropped */
  assert_int_equal(s.n, 4);

  gp_sampler_init(&s, 3, 100, 1.0, 50.0);
  gp_sampler_add(&s, 1.0);
  gp_sampler_add(&s, 2.0);
  assert_false(gp_sampler_done(&s, 60.0)); /* budget spent, but under the minimum */
  gp_sampler_add(&s, 3.0);
  assert_false(gp_sampler_done(&s, 50.5));
  gp_sampler_add(&s, 4.0);
  assert_true(gp_sampler_done(&s, 51.0));  /* budget of 1 s spent after the minimum */
}

static void test_sampler_clamps(void **state) {
  (void)state;
  gp_sampler s;
  gp_sampler_init(&s, 0, 100000, 1.0, 0.0);
  assert_int_equal(s.min, 1);
  assert_int_equal(s.max, GP_MAX_SAMPLES);
  gp_sampler_init(&s, 20, 5, 1.0, 0.0);
  assert_int_equal(s.min, 20);
  assert_int_equal(s.max, 20);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_odd_count_exact),
      cmocka_unit_test(test_even_count_interpolates),
      cmocka_unit_test(test_three_samples),
      cmocka_unit_test(test_two_samples),
      cmocka_unit_test(test_one_sample),
      cmocka_unit_test(test_quantile_ends_and_ties),
      cmocka_unit_test(test_ordered_on_near_equal_values),
      cmocka_unit_test(test_sampler_minimum_then_stable),
      cmocka_unit_test(test_sampler_unstable_continues),
      cmocka_unit_test(test_sampler_max_and_budget),
      cmocka_unit_test(test_sampler_clamps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
