/* test_calibrate.c: unit tests of the calibrate stage (src/calibrate.h): the number, value and
 * time formats, levels at and around both thresholds in both directions, ranks, cost texts,
 * and a whole run over the fixture evidence files (suppressed findings, unbound rules, missing
 * metrics, a {total} over a unit that is not a time). Owns: nothing shared. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "evidence_fixture.h"

static void check_number(double v, const char *want) {
  char buf[GL_CALIB_FIG_MAX];
  gl_calib_number(v, buf);
  assert_string_equal(buf, want);
}

static void test_number(void **state) {
  (void)state;
  check_number(11.6, "11.6");
  check_number(412, "412");
  check_number(0.57, "0.57");
  check_number(8.1, "8.1");
  check_number(7.04, "7.04");
  check_number(1, "1");
  check_number(300, "300");
  check_number(2036, "2040");        /* 3 significant digits; no comma below 10,000 */
  check_number(9994, "9990");
  check_number(9996, "10,000");      /* rounding carries into the next power of ten */
  check_number(10000, "10,000");
  check_number(123456, "123,000");
  check_number(1234567, "1,230,000");
  check_number(999.6, "1000");
  check_number(0.116, "0.116");
  check_number(0.015625, "0.0156");
  check_number(0.0049, "0.0049");
  check_number(0.000123456, "0.000123");
  check_number(0.1, "0.1");
  check_number(66.94, "66.9");
  check_number(66.96, "67");
  check_number(0, "0");
  check_number(1e31, "1.00e+31");
}

static void check_value(double v, gl_unit unit, const char *want) {
  char buf[GL_CALIB_NUM_MAX];
  gl_calib_value(v, unit, buf);
  assert_string_equal(buf, want);
}

static void test_value(void **state) {
  (void)state;
  check_value(11.6, GL_UNIT_US, "11.6 \xC2\xB5s");
  check_value(412, GL_UNIT_MS, "412 ms");
  check_value(55.2, GL_UNIT_GBPS, "55.2 GB/s");
  check_value(66.9, GL_UNIT_TFLOPS, "66.9 TFLOP/s");
  check_value(0.57, GL_UNIT_RATIO, "0.57");
  check_value(2036, GL_UNIT_X, "2040\xC3\x97");
  check_value(20360, GL_UNIT_X, "20,400\xC3\x97");
}

static void check_time(double us, const char *want) {
  char buf[GL_CALIB_NUM_MAX];
  gl_calib_time(us, buf);
  assert_string_equal(buf, want);
}

static void test_time(void **state) {
  (void)state;
  check_time(116000, "116 ms");
  check_time(81000, "81 ms");
  check_time(999.4, "999 \xC2\xB5s");
  check_time(999.6, "1 ms");         /* rounded before the unit is chosen */
  check_time(999999, "1 s");
  check_time(1e6, "1 s");
  check_time(3.02e6, "3.02 s");
  check_time(0.5, "0.5 \xC2\xB5s");
  check_time(1e16, "10,000,000,000 s");
}

static const gl_evidence_binding roundtrip = {"item_roundtrip_us", 20, 2, true,
                                              "pays {value} on {device}; 10,000 pay {total}", 10000};
static const gl_evidence_binding fp64 = {"fp64_to_fp32_ratio", 0.0625, 0.25, false,
                                         "FP64 runs at {value} of FP32 on {device}", 0};

static void test_level(void **state) {
  (void)state;
  assert_int_equal(gl_calib_level(&roundtrip, 20), GL_LEVEL_ERROR);
  assert_int_equal(gl_calib_level(&roundtrip, 500), GL_LEVEL_ERROR);
  assert_int_equal(gl_calib_level(&roundtrip, 19.99), GL_LEVEL_WARNING);
  assert_int_equal(gl_calib_level(&roundtrip, 2), GL_LEVEL_WARNING);
  assert_int_equal(gl_calib_level(&roundtrip, 1.99), GL_LEVEL_NOTE);
  assert_int_equal(gl_calib_level(&fp64, 0.0625), GL_LEVEL_ERROR);
  assert_int_equal(gl_calib_level(&fp64, 0.015625), GL_LEVEL_ERROR);
  assert_int_equal(gl_calib_level(&fp64, 0.063), GL_LEVEL_WARNING);
  assert_int_equal(gl_calib_level(&fp64, 0.25), GL_LEVEL_WARNING);
  assert_int_equal(gl_calib_level(&fp64, 0.26), GL_LEVEL_NOTE);
  assert_int_equal(gl_calib_level(&fp64, 0.502), GL_LEVEL_NOTE);
}

static void test_rank(void **state) {
  (void)state;
  assert_true(gl_calib_rank(&roundtrip, 2) == 25.0);
  assert_true(gl_calib_rank(&roundtrip, 20) == 75.0);
  assert_true(gl_calib_rank(&roundtrip, 8.1) == 55.4);  /* 25 + 50 * log10(4.05) = 55.37 */
  assert_true(gl_calib_rank(&roundtrip, 200) == 100.0); /* t = 2: clamped */
  assert_true(gl_calib_rank(&roundtrip, 0.2) == 0.0);   /* t = -1: clamped */
  assert_true(gl_calib_rank(&roundtrip, 1) == 9.9);     /* 25 - 50 * log10(2) = 9.95 */
  assert_true(gl_calib_rank(&fp64, 0.25) == 25.0);
  assert_true(gl_calib_rank(&fp64, 0.0625) == 75.0);
  assert_true(gl_calib_rank(&fp64, 0.125) == 50.0);
  assert_true(gl_calib_rank(&fp64, 0.015625) == 100.0);
  assert_true(gl_calib_rank(&fp64, 0.502) == 0.0);
}

static void test_cost(void **state) {
  (void)state;
  gl_metric m = {"item_roundtrip_us", GL_UNIT_US, 11.6, 11, 12, 200};
  char *s = gl_calib_cost(&roundtrip, &m, "Synthetic H200-like GPU");
  assert_string_equal(s, "pays 11.6 \xC2\xB5s on Synthetic H200-like GPU; 10,000 pay 116 ms");
  free(s);
  gl_metric ms = {"context_init_ms", GL_UNIT_MS, 302, 290, 320, 7};
  gl_evidence_binding init = {"context_init_ms", 1000, 100, true, "{total} for 8 { braces } {} {", 8};
  s = gl_calib_cost(&init, &ms, "x");
  assert_string_equal(s, "2.42 s for 8 { braces } {} {");
  free(s);
  gl_metric r = {"fp64_to_fp32_ratio", GL_UNIT_RATIO, 0.015625, 0.0156, 0.0157, 5};
  s = gl_calib_cost(&fp64, &r, "Synthetic GPU, FP64 at 1/64");
  assert_string_equal(s, "FP64 runs at 0.0156 of FP32 on Synthetic GPU, FP64 at 1/64");
  free(s);
}

/* ---- a whole run ----------------------------------------------------------------------------- */

static gl_evidence_binding missing = {"d2h_pinned_us", 20, 2, true, "{value}", 0};
static gl_evidence_binding gbps_total = {"h2d_pageable_GBps", 1, 10, false, "{value}, {total} in all", 10};

typedef struct fixture {
  gl_rule rules[6];
  gl_ruleset set;
  gl_run run;
} fixture;

static void add_finding(gl_file_result *f, const gl_rule *rule, uint32_t line, bool suppressed) {
  gl_finding *x = gl_vec_grow(&f->findings);
  x->rule = rule;
  x->level = rule->level;
  x->region.start_line = line;
  x->message = gl_xstrdup("msg");
  x->suppressed = suppressed;
}

static void fixture_init(fixture *fx) {
  memset(fx, 0, sizeof *fx);
  static const char *const ids[] = {"GPU901", "GPU902", "GPU903", "GPU904", "GPU905", "GPU906"};
  const gl_evidence_binding *binds[] = {&roundtrip, NULL, &missing, &missing, &gbps_total, &fp64};
  for (size_t i = 0; i < 6; i++) {
    fx->rules[i].id = (char *)ids[i];
    fx->rules[i].level = GL_LEVEL_WARNING;
    fx->rules[i].enabled = true;
    fx->rules[i].evidence = (gl_evidence_binding *)binds[i];
    gl_vec_push(&fx->set.rules, &fx->rules[i]);
  }
  fx->rules[0].level = GL_LEVEL_NOTE;
  fx->run.rules = &fx->set;
  gl_file_result *f = gl_vec_grow(&fx->run.files);
  f->path = gl_xstrdup("a.py");
  add_finding(f, &fx->rules[0], 1, false);
  add_finding(f, &fx->rules[0], 2, true);
  add_finding(f, &fx->rules[1], 3, false);
  add_finding(f, &fx->rules[2], 4, false);
  add_finding(f, &fx->rules[4], 5, false);
  add_finding(f, &fx->rules[5], 6, false);
}

static void fixture_free(fixture *fx) {
  gl_run_free(&fx->run);
  gl_vec_free(&fx->set.rules);
}

static void test_run_h200(void **state) {
  (void)state;
  gl_evidence *ev = load_fixture("h200.json");
  fixture fx;
  fixture_init(&fx);
  gl_calib_warnings w = {0};
  assert_int_equal(gl_calib_run(&fx.run, ev, &w), 3);
  assert_ptr_equal(fx.run.evidence, ev);
  const gl_finding *x = fx.run.files.data[0].findings.data;
  assert_int_equal(x[0].level, GL_LEVEL_WARNING); /* 8.1 us: between 2 and 20 */
  assert_string_equal(x[0].message, "msg; pays 8.1 \xC2\xB5s on Synthetic H200-like GPU; 10,000 pay 81 ms");
  assert_non_null(x[0].calib);
  assert_true(x[0].calib->rank == 55.4);
  assert_true(x[0].calib->value == 8.1);
  assert_string_equal(x[0].calib->metric, "item_roundtrip_us");
  assert_string_equal(x[0].calib->unit, "us");
  assert_string_equal(x[0].calib->device, "Synthetic H200-like GPU");
  assert_int_equal(x[0].calib->default_level, GL_LEVEL_NOTE);
  assert_non_null(x[1].calib); /* suppressed findings are calibrated too */
  assert_int_equal(x[1].level, GL_LEVEL_WARNING);
  assert_null(x[2].calib);     /* no binding */
  assert_string_equal(x[2].message, "msg");
  assert_null(x[3].calib);     /* metric missing: default level, message unchanged */
  assert_int_equal(x[3].level, GL_LEVEL_WARNING);
  assert_string_equal(x[3].message, "msg");
  assert_null(x[4].calib);     /* {total} over GB/s */
  assert_int_equal(x[5].level, GL_LEVEL_NOTE); /* FP64 at 0.502 of FP32 */
  assert_string_equal(x[5].message, "msg; FP64 runs at 0.502 of FP32 on Synthetic H200-like GPU");
  assert_true(x[5].calib->rank == 0.0);
  assert_string_equal(x[5].calib->unit, "ratio");
  assert_int_equal(w.len, 2);
  assert_string_equal(w.data[0], "evidence " FIXTURES "h200.json has no metric 'd2h_pinned_us'; "
                                 "GPU903, GPU904 keep their default level");
  assert_string_equal(w.data[1], "evidence " FIXTURES "h200.json gives metric 'h2d_pageable_GBps' in GB/s, "
                                 "not a time, for {total}; GPU905 keeps its default level");
  gl_calib_warnings_free(&w);
  fixture_free(&fx);
  gl_evidence_free(ev);
}

static void test_run_consumer(void **state) {
  (void)state;
  gl_evidence *ev = load_fixture("consumer.json");
  fixture fx;
  fixture_init(&fx);
  fx.rules[3].enabled = false; /* a disabled rule's missing metric is not worth a warning */
  fx.rules[4].enabled = false;
  gl_calib_warnings w = {0};
  assert_int_equal(gl_calib_run(&fx.run, ev, &w), 3);
  const gl_finding *x = fx.run.files.data[0].findings.data;
  assert_int_equal(x[0].level, GL_LEVEL_ERROR); /* 23.4 us >= 20 */
  assert_true(x[0].calib->rank == 78.4);        /* 25 + 50 * log10(11.7) = 78.41 */
  assert_int_equal(x[5].level, GL_LEVEL_ERROR); /* 1/64 <= 1/16 */
  assert_true(x[5].calib->rank == 100.0);
  assert_string_equal(x[5].message, "msg; FP64 runs at 0.0156 of FP32 on Synthetic GPU, FP64 at 1/64");
  assert_int_equal(w.len, 1);
  assert_string_equal(w.data[0], "evidence " FIXTURES "consumer.json has no metric 'd2h_pinned_us'; "
                                 "GPU903 keeps its default level");
  gl_calib_warnings_free(&w);
  /* Without evidence nothing changes. */
  assert_int_equal(gl_calib_run(&fx.run, NULL, &w), 0);
  assert_null(fx.run.evidence);
  assert_int_equal(w.len, 0);
  gl_calib_warnings_free(&w);
  fixture_free(&fx);
  gl_evidence_free(ev);
  gl_calibration_free(NULL);
}

int main(void) {
  use_test_json_hooks();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_number),  cmocka_unit_test(test_value),   cmocka_unit_test(test_time),
      cmocka_unit_test(test_level),   cmocka_unit_test(test_rank),    cmocka_unit_test(test_cost),
      cmocka_unit_test(test_run_h200), cmocka_unit_test(test_run_consumer),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
