/* test_evidence.c: unit tests of the evidence file loader (src/evidence.h): the fixture files of
 * tests/fixtures/evidence (valid H200-like and consumer-GPU-like files, one malformed file per
 * error class) and in-memory variants, each error with its exact line:column and message, and
 * files that must never be read (FIFO, device, directory, over 1 MiB). Owns: nothing shared. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evidence_fixture.h"

static void test_valid_h200(void **state) {
  (void)state;
  gl_evidence *ev = load_fixture("h200.json");
  assert_string_equal(ev->path, FIXTURES "h200.json");
  assert_int_equal(ev->version, 1);
  assert_string_equal(ev->device_name, "Synthetic H200-like GPU");
  assert_string_equal(ev->probe_json, "{\"name\":\"gpulint-probe\",\"version\":\"0.1.0\",\"mode\":\"full\","
                                      "\"created\":\"2026-11-29T23:10:00Z\",\"duration_s\":41.2}");
  assert_string_equal(ev->device_json,
                      "{\"index\":0,\"name\":\"Synthetic H200-like GPU\",\"cc\":\"9.0\",\"sm_count\":132,"
                      "\"memory_bytes\":150121971712,\"l2_bytes\":62914560,\"clock_mhz\":1980,"
                      "\"memory_clock_mhz\":3201,\"memory_bus_bits\":6144,\"ecc\":true,"
                      "\"driver_version\":\"13.0\",\"runtime_version\":\"13.0\",\"pci\":{\"bus_id\":"
                      "\"0000:1b:00.0\",\"link_gen\":5,\"link_width\":16,\"max_link_gen\":5,"
                      "\"max_link_width\":16},\"c2c\":null,\"pageable_memory_access\":false}");
  assert_int_equal(ev->metrics.len, 10);
  static const char *const sorted[] = {
      "context_init_ms",  "double_fma_TFLOPs",        "fixed_kernel_synced_ms", "fixed_kernel_unsynced_ms",
      "float_fma_TFLOPs", "fp64_to_fp32_ratio",       "h2d_pageable_GBps",      "h2d_pinned_GBps",
      "item_roundtrip_us", "timer_underreport_x"};
  for (size_t i = 0; i < 10; i++) assert_string_equal(ev->metrics.data[i].key, sorted[i]);
  const gl_metric *m = gl_evidence_metric(ev, "item_roundtrip_us");
  assert_non_null(m);
  assert_int_equal(m->unit, GL_UNIT_US);
  assert_true(m->median == 8.1 && m->p10 == 7.9 && m->p90 == 8.6);
  assert_int_equal(m->samples, 200);
  assert_int_equal(gl_evidence_metric(ev, "timer_underreport_x")->unit, GL_UNIT_X);
  assert_int_equal(gl_evidence_metric(ev, "h2d_pageable_GBps")->unit, GL_UNIT_GBPS);
  assert_int_equal(gl_evidence_metric(ev, "float_fma_TFLOPs")->unit, GL_UNIT_TFLOPS);
  assert_int_equal(gl_evidence_metric(ev, "fp64_to_fp32_ratio")->unit, GL_UNIT_RATIO);
  assert_int_equal(gl_evidence_metric(ev, "context_init_ms")->unit, GL_UNIT_MS);
  assert_null(gl_evidence_metric(ev, "d2h_pinned_GBps"));
  assert_null(gl_evidence_metric(ev, "ITEM_ROUNDTRIP_US"));
  assert_null(gl_evidence_metric(NULL, "item_roundtrip_us"));
  gl_evidence_free(ev);
}

static void test_valid_consumer(void **state) {
  (void)state;
  gl_evidence *ev = load_fixture("consumer.json");
  assert_string_equal(ev->device_name, "Synthetic GPU, FP64 at 1/64");
  assert_int_equal(ev->metrics.len, 3);
  const gl_metric *m = gl_evidence_metric(ev, "fp64_to_fp32_ratio");
  assert_non_null(m);
  assert_true(m->median == 0.015625);
  assert_int_equal(m->samples, 5);
  gl_evidence_free(ev);
  gl_evidence_free(NULL);
}

static void expect_file_error(const char *name, uint32_t line, uint32_t col, const char *msg) {
  char path[1024];
  snprintf(path, sizeof path, "%s%s", FIXTURES, name);
  gl_diag err = {0};
  assert_null(gl_evidence_load(path, &err));
  assert_diag(&err, path, line, col, msg);
}

static void test_fixture_errors(void **state) {
  (void)state;
  expect_file_error("bad-json.json", 5, 38, "invalid json");
  expect_file_error("bad-nan.json", 5, 49, "invalid json: NaN and Infinity are not json numbers");
  expect_file_error("bad-infinite.json", 5, 49, "number out of range: not finite");
  expect_file_error("bad-schema.json", 1, 1, "not a gpulint evidence file");
  expect_file_error("bad-version.json", 1, 43, "evidence version 2 is newer than this gpulint reads (1)");
  expect_file_error("bad-duplicate.json", 5, 94, "duplicate key 'median'");
  expect_file_error("bad-negative.json", 5, 49, "metric 'item_roundtrip_us': 'median' must be > 0, got -8.1");
  expect_file_error("bad-zero.json", 5, 61, "metric 'item_roundtrip_us': 'p10' must be > 0, got 0");
  expect_file_error("bad-absurd.json", 5, 73,
                    "metric 'item_roundtrip_us': 'p90' is 2e+07 us, over the cap of 1e+07 us (absurd)");
  expect_file_error("bad-order.json", 5, 61, "metric 'item_roundtrip_us': p10 (8.3) is above the median (8.1)");
  expect_file_error("bad-missing.json", 3, 12, "missing key 'device.name'");
  expect_file_error("bad-type.json", 5, 89,
                    "metric 'item_roundtrip_us': 'samples' must be an integer from 1 to 1000000000");
  expect_file_error("bad-unit.json", 5, 33,
                    "metric 'item_roundtrip_us': 'unit' must be one of us, ms, GB/s, TFLOP/s, ratio, x");
}

/* A valid document whose parts can be replaced: head, device, metric body, tail. */
#define HEAD "{\"schema\": \"gpulint-evidence\", \"version\": 1,\n \"probe\": {},\n"
#define DEVICE " \"device\": {\"name\": \"Synthetic H200-like GPU\"},\n"
#define METRIC "{\"unit\": \"us\", \"median\": 8.1, \"p10\": 7.9, \"p90\": 8.6, \"samples\": 200}"
#define METRICS(body) " \"metrics\": {\"item_roundtrip_us\": " body "}\n}\n"
/* Columns on line 4 of such a document: the metric's '{' is column 35. */

static void expect_text_error(const char *text, size_t len, uint32_t line, uint32_t col, const char *msg) {
  gl_diag err = {0};
  assert_null(gl_evidence_parse("ev.json", text, len, &err));
  assert_diag(&err, "ev.json", line, col, msg);
}

static void expect_error(const char *text, uint32_t line, uint32_t col, const char *msg) {
  expect_text_error(text, strlen(text), line, col, msg);
}

static void test_valid_variants(void **state) {
  (void)state;
  gl_diag err = {0};
  /* A BOM, CRLF line ends, an unknown device field, null probe fields, a metric nobody binds. */
  static const char text[] =
      "\xEF\xBB\xBF{\"schema\": \"gpulint-evidence\", \"version\": 1,\r\n \"probe\": {\"mode\": null},\r\n"
      " \"device\": {\"name\": \"GPU \\u00b5\", \"future\": [1, {\"x\": 2}]},\r\n"
      " \"metrics\": {\"new_metric_x\": {\"unit\": \"x\", \"median\": 1e6, \"p10\": 1, \"p90\": 1e6, "
      "\"samples\": 1, \"what\": \"\"}}}\r\n";
  gl_evidence *ev = gl_evidence_parse("ev.json", text, strlen(text), &err);
  assert_non_null(ev);
  assert_string_equal(ev->device_name, "GPU \xC2\xB5");
  assert_string_equal(ev->probe_json, "{\"mode\":null}");
  assert_true(ev->metrics.data[0].median == 1e6);
  gl_evidence_free(ev);
}

static void test_structure_errors(void **state) {
  (void)state;
  expect_error("", 1, 1, "invalid json");
  expect_error("[1, 2]", 1, 1, "not a gpulint evidence file");
  expect_error("{\"schema\": \"sarif\"}", 1, 12, "not a gpulint evidence file");
  expect_error("{\"schema\": \"gpulint-evidence\"}", 1, 1, "missing key 'version'");
  expect_error(HEAD DEVICE METRICS(METRIC) "x", 6, 1, "invalid json");
  static const char *const bad_version[] = {"0", "1.5", "\"1\"", "-1", "null"};
  for (size_t i = 0; i < 5; i++) {
    char text[512];
    snprintf(text, sizeof text, "{\"schema\": \"gpulint-evidence\", \"version\": %s}", bad_version[i]);
    expect_error(text, 1, 43, "'version' must be an integer >= 1");
  }
  expect_error("{\"schema\": \"gpulint-evidence\", \"version\": 37}", 1, 43,
               "evidence version 37 is newer than this gpulint reads (1)");
  expect_error(HEAD DEVICE " \"extra\": 1,\n" METRICS(METRIC), 4, 2, "unknown key 'extra'");
  expect_error(HEAD DEVICE "\"device\": {},\n" METRICS(METRIC), 4, 1, "duplicate key 'device'");
  expect_error(HEAD " \"device\": {\"name\": \"x\"}}", 1, 1, "missing key 'metrics'");
  expect_error("{\"schema\": \"gpulint-evidence\", \"version\": 1,\n \"probe\": [],\n" DEVICE METRICS(METRIC),
               2, 11, "'probe' must be an object");
  expect_error(HEAD " \"device\": \"H200\",\n" METRICS(METRIC), 3, 12, "'device' must be an object");
  expect_error(HEAD " \"device\": {\"name\": \"\"},\n" METRICS(METRIC), 3, 21,
               "'device.name' must be a non-empty string");
  expect_error(HEAD DEVICE " \"metrics\": {}\n}\n", 4, 13, "'metrics' must be a non-empty object");
  expect_error(HEAD DEVICE " \"metrics\": [1]\n}\n", 4, 13, "'metrics' must be a non-empty object");
}

static void test_metric_errors(void **state) {
  (void)state;
  expect_error(HEAD DEVICE " \"metrics\": {\"item-roundtrip\": " METRIC "}\n}\n", 4, 14,
               "metric name 'item-roundtrip' must be made of [A-Za-z0-9_]");
  expect_error(HEAD DEVICE METRICS("8.1"), 4, 35, "metric 'item_roundtrip_us' must be an object");
  expect_error(HEAD DEVICE METRICS("{\"unit\": \"us\", \"median\": 8.1, \"p10\": 7.9, \"samples\": 200}"), 4, 35,
               "metric 'item_roundtrip_us': missing key 'p90'");
  expect_error(HEAD DEVICE METRICS("{\"unit\": \"us\", \"median\": 8.1, \"p10\": 7.9, \"p90\": 8.6, \"samples\": 2, "
                                   "\"mean\": 8}"),
               4, 103, "metric 'item_roundtrip_us': unknown key 'mean'");
  expect_error(HEAD DEVICE METRICS("{\"unit\": \"us\", \"median\": 8.1, \"p10\": 7.9, \"p90\": 8.0, \"samples\": 200}"),
               4, 84, "metric 'item_roundtrip_us': p90 (8) is below the median (8.1)");
  expect_error(HEAD DEVICE METRICS("{\"unit\": \"us\", \"median\": \"8.1\", \"p10\": 7.9, \"p90\": 8.6, \"samples\": 2}"),
               4, 60, "metric 'item_roundtrip_us': 'median' must be a number");
  expect_error(HEAD DEVICE METRICS("{\"unit\": \"us\", \"median\": 8.1, \"p10\": 7.9, \"p90\": 8.6, \"samples\": 0}"),
               4, 100, "metric 'item_roundtrip_us': 'samples' must be an integer from 1 to 1000000000");
  expect_error(HEAD DEVICE METRICS("{\"unit\": \"us\", \"median\": 8.1, \"p10\": 7.9, \"p90\": 8.6, \"samples\": 2.5}"),
               4, 100, "metric 'item_roundtrip_us': 'samples' must be an integer from 1 to 1000000000");
  expect_error(HEAD DEVICE METRICS("{\"unit\": \"us\", \"median\": 8.1, \"p10\": 7.9, \"p90\": 8.6, \"samples\": 2, "
                                   "\"what\": 3}"),
               4, 111, "metric 'item_roundtrip_us': 'what' must be a string");
  expect_error(HEAD DEVICE METRICS("{\"unit\": 1, \"median\": 8.1, \"p10\": 7.9, \"p90\": 8.6, \"samples\": 2}"), 4, 44,
               "metric 'item_roundtrip_us': 'unit' must be one of us, ms, GB/s, TFLOP/s, ratio, x");
  expect_error(HEAD DEVICE METRICS("{\"unit\": \"ratio\", \"median\": 1001, \"p10\": 7.9, \"p90\": 8.6, \"samples\": 2}"),
               4, 63, "metric 'item_roundtrip_us': 'median' is 1001 ratio, over the cap of 1000 ratio (absurd)");
}

static void test_first_error_in_text_order(void **state) {
  (void)state;
  /* The non-finite number comes before the duplicate key in the text. */
  expect_error(HEAD " \"device\": {\"name\": \"x\", \"n\": 1e999, \"name\": \"y\"},\n" METRICS(METRIC), 3, 31,
               "number out of range: not finite");
  /* A duplicate deep inside the device's pci object. */
  expect_error(HEAD " \"device\": {\"name\": \"x\", \"pci\": {\"a\": [{\"b\": 1, \"b\": 2}]}},\n" METRICS(METRIC), 3,
               49, "duplicate key 'b'");
  /* Columns count code points: "µµ" is 4 bytes, 2 columns. */
  expect_error(HEAD " \"device\": {\"name\": \"\xC2\xB5\xC2\xB5\", \"name\": \"y\"},\n" METRICS(METRIC), 3, 27,
               "duplicate key 'name'");
  static const char nul[] = HEAD DEVICE "\0" METRICS(METRIC);
  expect_text_error(nul, sizeof nul - 1, 4, 1, "evidence file contains a NUL byte");
  /* A raw 0xFF in the device name would reach SARIF as invalid UTF-8; \u0000 would cut it. */
  expect_error(HEAD " \"device\": {\"name\": \"H200\xFF\"},\n" METRICS(METRIC), 3, 26,
               "evidence file is not valid UTF-8 (byte 0xFF)");
  expect_error(HEAD " \"device\": {\"name\": \"\xC2\xB5\xE2\x82\"},\n" METRICS(METRIC), 3, 23,
               "evidence file is not valid UTF-8 (byte 0xE2)");
  expect_error(HEAD " \"device\": {\"name\": \"H200\\u0000fake\"},\n" METRICS(METRIC), 3, 26,
               "evidence file holds a \\u0000 escape in a string (a NUL character)");
  /* Near misses: an escaped backslash before u0000, and \u00b5, are fine. */
  gl_diag err = {0};
  static const char ok[] = HEAD " \"device\": {\"name\": \"H\\\\u0000 \\u00b5\"},\n" METRICS(METRIC);
  gl_evidence *ev = gl_evidence_parse("ev.json", ok, sizeof ok - 1, &err);
  assert_non_null(ev);
  assert_string_equal(ev->device_name, "H\\u0000 \xC2\xB5");
  gl_evidence_free(ev);
}

static void test_unreadable(void **state) {
  (void)state;
  gl_diag err = {0};
  assert_null(gl_evidence_load(FIXTURES "no-such-file.json", &err));
  assert_string_equal(err.msg, "cannot open file: no such file or directory");
  assert_int_equal(err.line, 0);
  assert_int_equal(err.col, 0);
  assert_null(gl_evidence_load("/dev/zero", &err));
  assert_string_equal(err.msg, "not a regular file");
  assert_null(gl_evidence_load(FIXTURES, &err));
  assert_string_equal(err.msg, "not a regular file");

  char dir[] = "/tmp/gl_evidence_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char fifo[600], big[600];
  snprintf(fifo, sizeof fifo, "%s/pipe.json", dir);
  snprintf(big, sizeof big, "%s/big.json", dir);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  assert_null(gl_evidence_load(fifo, &err)); /* returns at once: nobody writes to the FIFO */
  assert_string_equal(err.path, fifo);
  assert_string_equal(err.msg, "not a regular file");
  FILE *f = fopen(big, "w");
  assert_non_null(f);
  for (size_t i = 0; i < GL_EVIDENCE_MAX_BYTES + 1; i++) fputc(' ', f);
  fclose(f);
  assert_null(gl_evidence_load(big, &err));
  assert_string_equal(err.msg, "file is 1048577 bytes, over the size cap of 1048576 bytes");
  unlink(fifo);
  unlink(big);
  rmdir(dir);
}

static void test_units(void **state) {
  (void)state;
  assert_string_equal(gl_unit_name(GL_UNIT_US), "us");
  assert_string_equal(gl_unit_name(GL_UNIT_MS), "ms");
  assert_string_equal(gl_unit_name(GL_UNIT_GBPS), "GB/s");
  assert_string_equal(gl_unit_name(GL_UNIT_TFLOPS), "TFLOP/s");
  assert_string_equal(gl_unit_name(GL_UNIT_RATIO), "ratio");
  assert_string_equal(gl_unit_name(GL_UNIT_X), "x");
  assert_true(gl_unit_cap(GL_UNIT_US) == 1e7 && gl_unit_cap(GL_UNIT_MS) == 1e6);
  assert_true(gl_unit_cap(GL_UNIT_GBPS) == 1e5 && gl_unit_cap(GL_UNIT_TFLOPS) == 1e5);
  assert_true(gl_unit_cap(GL_UNIT_RATIO) == 1e3 && gl_unit_cap(GL_UNIT_X) == 1e6);
  assert_true(gl_unit_is_time(GL_UNIT_US) && gl_unit_is_time(GL_UNIT_MS));
  assert_false(gl_unit_is_time(GL_UNIT_X) || gl_unit_is_time(GL_UNIT_GBPS));
}

static void test_metric_name(void **state) {
  (void)state;
  assert_true(gl_evidence_metric_name_ok("item_roundtrip_us"));
  assert_true(gl_evidence_metric_name_ok("Az09_"));
  assert_true(gl_evidence_metric_name_ok("_"));
  assert_false(gl_evidence_metric_name_ok(""));
  assert_false(gl_evidence_metric_name_ok("item-roundtrip"));
  assert_false(gl_evidence_metric_name_ok("item roundtrip"));
  assert_false(gl_evidence_metric_name_ok("d2h.us"));
  assert_false(gl_evidence_metric_name_ok("\xC2\xB5s"));
}

int main(void) {
  use_test_json_hooks();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid_h200),
      cmocka_unit_test(test_valid_consumer),
      cmocka_unit_test(test_fixture_errors),
      cmocka_unit_test(test_valid_variants),
      cmocka_unit_test(test_structure_errors),
      cmocka_unit_test(test_metric_errors),
      cmocka_unit_test(test_first_error_in_text_order),
      cmocka_unit_test(test_unreadable),
      cmocka_unit_test(test_units),
      cmocka_unit_test(test_metric_name),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
