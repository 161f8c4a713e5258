/* test_evidence.c: cmocka tests of cuda-probe/evidence_json.c: the exact JSON text of a small
 * document (escaping, nulls for unknown facts, number format), the facts' encodings, what
 * gp_evidence_add refuses, and that gp_evidence_write writes nothing for an unwritable document.
 * Owns: nothing beyond the test.
 * Threads: single-threaded. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evidence_json.h"

/* The document's JSON text (malloc'd) and gp_evidence_write's result in *rc. */
static char *render(const gp_evidence *ev, int *rc) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  *rc = gp_evidence_write(f, ev);
  fclose(f);
  return buf;
}

static gp_evidence *small_doc(void) {
  gp_evidence *ev = calloc(1, sizeof *ev);
  assert_non_null(ev);
  gp_evidence_init(ev, "0.1.0");
  strcpy(ev->device.name, "GPU \"A\"\\\n\x01\xff");
  double v[] = {3, 1, 2};
  assert_int_equal(gp_evidence_add(ev, "k_us", "us", "w", v, 3), 0);
  return ev;
}

static void test_exact_text(void **state) {
  (void)state;
  gp_evidence *ev = small_doc();
  int rc;
  char *text = render(ev, &rc);
  assert_int_equal(rc, 0);
  assert_string_equal(text,
      "{\n"
      "  \"schema\": \"gpulint-evidence\",\n"
      "  \"version\": 1,\n"
      "  \"probe\": {\"name\": \"gpulint-probe\", \"version\": \"0.1.0\", \"mode\": \"full\", "
      "\"created\": null, \"duration_s\": null},\n"
      "  \"device\": {\n"
      "    \"index\": 0,\n"
      "    \"name\": \"GPU \\\"A\\\"\\\\\\n\\u0001\\ufffd\",\n"
      "    \"cc\": null,\n"
      "    \"sm_count\": null,\n"
      "    \"memory_bytes\": null,\n"
      "    \"l2_bytes\": null,\n"
      "    \"clock_mhz\": null,\n"
      "    \"memory_clock_mhz\": null,\n"
      "    \"memory_bus_bits\": null,\n"
      "    \"ecc\": null,\n"
      "    \"driver_version\": null,\n"
      "    \"runtime_version\": null,\n"
      "    \"pci\": null,\n"
      "    \"c2c\": null,\n"
      "    \"pageable_memory_access\": null,\n"
      "    \"persistence_mode\": null\n"
      "  },\n"
      "  \"metrics\": {\n"
      "    \"k_us\": {\"unit\": \"us\", \"median\": 2, \"p10\": 1.2, \"p90\": 2.8, \"samples\": 3, "
      "\"what\": \"w\"}\n"
      "  }\n"
      "}\n");
  free(text);
  free(ev);
}

static void test_known_facts(void **state) {
  (void)state;
  gp_evidence *ev = small_doc();
  gp_device_facts *d = &ev->device;
  strcpy(d->name, "NVIDIA H200 \xc3\xa9");
  d->index = 1;
  d->cc_major = 9, d->cc_minor = 0, d->sm_count = 132;
  d->memory_bytes = 150121971712ull, d->l2_bytes = 62914560;
  d->ecc = 1, d->pageable_memory_access = 0, d->persistence_mode = 1;
  d->driver_version = 13000, d->runtime_version = 12040;
  d->pci.known = 1;
  strcpy(d->pci.bus_id, "00000000:1B:00.0");
  d->pci.link_gen = 5, d->pci.link_width = 16, d->pci.max_link_gen = 5;
  d->c2c_enabled = 0;
  strcpy(ev->created, "2026-11-29T23:10:00Z");
  ev->duration_s = 41.25;
  double big[] = {1234567.8};
  assert_int_equal(gp_evidence_add(ev, "big_us", "us", "", big, 1), 0);
  int rc;
  char *text = render(ev, &rc);
  assert_int_equal(rc, 0);
  assert_non_null(strstr(text, "\"created\": \"2026-11-29T23:10:00Z\", \"duration_s\": 41.25}"));
  assert_non_null(strstr(text, "\"index\": 1,\n    \"name\": \"NVIDIA H200 \xc3\xa9\",\n    \"cc\": \"9.0\","));
  assert_non_null(strstr(text, "\"memory_bytes\": 150121971712,\n    \"l2_bytes\": 62914560,"));
  assert_non_null(strstr(text, "\"ecc\": true,"));
  assert_non_null(strstr(text, "\"driver_version\": \"13.0\",\n    \"runtime_version\": \"12.4\","));
  assert_non_null(strstr(text, "\"pci\": {\"bus_id\": \"00000000:1B:00.0\", \"link_gen\": 5, "
                               "\"link_width\": 16, \"max_link_gen\": 5, \"max_link_width\": null},"));
  assert_non_null(strstr(text, "\"c2c\": {\"enabled\": false},"));
  assert_non_null(strstr(text, "\"pageable_memory_access\": false,\n"));
  assert_non_null(strstr(text, "\"persistence_mode\": true\n"));
  assert_non_null(strstr(text, "\"big_us\": {\"unit\": \"us\", \"median\": 1.23457e+06, \"p10\": "
                               "1.23457e+06, \"p90\": 1.23457e+06, \"samples\": 1}\n"));
  free(text);
  free(ev);
}

static void test_add_refuses(void **state) {
  (void)state;
  gp_evidence *ev = small_doc();
  double v[] = {1};
  assert_int_equal(gp_evidence_add(ev, "k_us", "us", "", v, 1), -1);     /* duplicate */
  assert_int_equal(gp_evidence_add(ev, "a-b", "us", "", v, 1), -1);      /* key character */
  assert_int_equal(gp_evidence_add(ev, "", "us", "", v, 1), -1);
  assert_int_equal(gp_evidence_add(ev, "ok", "s", "", v, 1), -1);        /* unit */
  assert_int_equal(gp_evidence_add(ev, "ok", "us", "", v, 0), -1);       /* no samples */
  char long_key[80];
  memset(long_key, 'k', sizeof long_key - 1);
  long_key[sizeof long_key - 1] = '\0';
  assert_int_equal(gp_evidence_add(ev, long_key, "us", "", v, 1), -1);
  assert_int_equal(ev->n_metrics, 1);
  for (int i = 1; i < GP_MAX_METRICS; i++) {
    char key[16];
    snprintf(key, sizeof key, "m%d", i);
    assert_int_equal(gp_evidence_add(ev, key, "x", "", v, 1), 0);
  }
  assert_int_equal(gp_evidence_add(ev, "one_more", "x", "", v, 1), -1); /* table full */
  assert_null(gp_evidence_find(ev, "one_more"));
  assert_non_null(gp_evidence_find(ev, "m63"));
  free(ev);
}

static void expect_unwritable(gp_evidence *ev, const char *why_part) {
  char why[256] = "";
  assert_int_equal(gp_evidence_check(ev, why, sizeof why), -1);
  assert_non_null(strstr(why, why_part));
  int rc;
  char *text = render(ev, &rc);
  assert_int_equal(rc, -1);
  assert_string_equal(text, "");
  free(text);
}

static void test_unwritable_documents(void **state) {
  (void)state;
  gp_evidence *ev = small_doc();
  ev->metrics[0].sum.median = NAN;
  expect_unwritable(ev, "metric 'k_us' is not finite");
  ev->metrics[0].sum.median = 2;
  ev->metrics[0].sum.p90 = INFINITY;
  expect_unwritable(ev, "is not finite");
  ev->metrics[0].sum.p90 = 2.8;
  ev->metrics[0].sum.p10 = 0;
  expect_unwritable(ev, "is not positive");
  ev->metrics[0].sum.p10 = 2.5;
  expect_unwritable(ev, "is out of order");
  ev->metrics[0].sum.p10 = 1.2;
  ev->metrics[0].sum.p90 = 1e7 + 1;
  expect_unwritable(ev, "is over its unit's cap");
  ev->metrics[0].sum.p90 = 1e7;
  char why[256];
  assert_int_equal(gp_evidence_check(ev, why, sizeof why), 0); /* the cap itself is allowed */
  ev->device.name[0] = '\0';
  expect_unwritable(ev, "the device has no name");
  strcpy(ev->device.name, "g");
  ev->n_metrics = 0;
  expect_unwritable(ev, "no metric was measured");
  free(ev);
}

static void test_unit_caps(void **state) {
  (void)state;
  assert_true(gp_unit_cap("us") == 1e7);
  assert_true(gp_unit_cap("ms") == 1e6);
  assert_true(gp_unit_cap("GB/s") == 1e5);
  assert_true(gp_unit_cap("TFLOP/s") == 1e5);
  assert_true(gp_unit_cap("ratio") == 1e3);
  assert_true(gp_unit_cap("x") == 1e6);
  assert_true(gp_unit_cap("s") == 0);
  assert_true(gp_unit_cap(NULL) == 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_exact_text),
      cmocka_unit_test(test_known_facts),
      cmocka_unit_test(test_add_refuses),
      cmocka_unit_test(test_unwritable_documents),
      cmocka_unit_test(test_unit_caps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
