/* test_rulebind.c: unit tests of a rule's `evidence` metadata (src/rules.h gl_evidence_binding,
 * validated by src/rulemeta.c): the fields of a valid binding, both directions, and every load
 * error with its exact file:line:column and message. Owns: nothing shared. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_fixture.h"

static const char pack_readme[] =
    "# Demo pack\n"
    "\n"
    "```json\n"
    "{\"name\": \"demo\", \"prefix\": \"GPU9\", \"default\": true, \"triggers\": [\"cupy\"]}\n"
    "```\n";

/* Line numbers are on the right; the columns in the tests below count from these lines. */
static const char rule_md[] =
    "# GPU901 demo-rule\n"                                                                   /* 1 */
    "\n"                                                                                     /* 2 */
    "```json\n"                                                                              /* 3 */
    "{\"severity\": \"warning\", \"precision\": \"high\", \"message\": \"`{hit}` is slow\",\n" /* 4 */
    " \"evidence\": {\"metric\": \"item_roundtrip_us\", \"error_at\": 20, \"note_below\": 2,\n" /* 5 */
    "  \"cost\": \"each pays {value} on {device}; {total} in all\", \"repeat\": 10000}}\n"    /* 6 */
    "```\n"                                                                                  /* 7 */
    "\n"
    "## What it does\n"
    "Checks for calls in loops.\n"
    "\n"
    "## Why is this bad?\n"
    "Each call copies.\n"
    "\n"
    "## Example\n"
    "```python\n"
    "x = f(y)\n"
    "```\n"
    "\n"
    "```python\n"
    "z = f(w)\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```python\n"
    "x = y\n"
    "```\n"
    "\n"
    "```python\n"
    "z = w\n"
    "```\n"
    "\n"
    "## Pattern\n"
    "```query\n"
    "((call) @hit)\n"
    "```\n";

static const rule_under_test demo = {pack_readme, "p/demo/GPU901.md", rule_md};

static void test_valid_higher_worse(void **state) {
  (void)state;
  gl_ruleset *set = load_edit_ok(&demo, "", "");
  const gl_evidence_binding *b = set->rules.data[0]->evidence;
  assert_non_null(b);
  assert_string_equal(b->metric, "item_roundtrip_us");
  assert_true(b->error_at == 20.0);
  assert_true(b->note == 2.0);
  assert_true(b->higher_worse);
  assert_string_equal(b->cost, "each pays {value} on {device}; {total} in all");
  assert_int_equal(b->repeat, 10000);
  gl_rules_free(set);
}

static void test_valid_lower_worse_without_repeat(void **state) {
  (void)state;
  gl_ruleset *set = load_edit_ok(&demo, "\"error_at\": 20, \"note_below\": 2,\n  \"cost\": \"each pays {value} on "
                                 "{device}; {total} in all\", \"repeat\": 10000}",
                                 "\"error_at\": 0.0625, \"note_above\": 0.25,\n  \"cost\": \"FP64 runs at "
                                 "{value} of FP32 on {device}; { braces } are {not placeholders} {}\"}");
  const gl_evidence_binding *b = set->rules.data[0]->evidence;
  assert_non_null(b);
  assert_true(b->error_at == 0.0625);
  assert_true(b->note == 0.25);
  assert_false(b->higher_worse);
  assert_int_equal(b->repeat, 0);
  gl_rules_free(set);
}

static void test_without_binding(void **state) {
  (void)state;
  gl_ruleset *set = load_edit_ok(&demo, ",\n \"evidence\": {\"metric\": \"item_roundtrip_us\", \"error_at\": 20, "
                                 "\"note_below\": 2,\n  \"cost\": \"each pays {value} on {device}; {total} "
                                 "in all\", \"repeat\": 10000}}",
                                 "}\n\n");
  assert_null(set->rules.data[0]->evidence);
  gl_rules_free(set);
}

static void test_keys(void **state) {
  (void)state;
  expect_edit_error(&demo, "{\"metric\": \"item_roundtrip_us\", \"error_at\": 20, \"note_below\": 2,\n  \"cost\": "
                    "\"each pays {value} on {device}; {total} in all\", \"repeat\": 10000}}",
                    "3}", 5, 14,
                    "metadata field 'evidence' must be an object");
  expect_edit_error(&demo, "\"repeat\": 10000", "\"repeat\": 10000, \"unit\": \"us\"", 6, 77,
                    "unknown evidence key 'unit'");
  expect_edit_error(&demo, "\"error_at\": 20,", "\"error_at\": 20, \"error_at\": 30,", 5, 62,
                    "duplicate evidence key 'error_at'");
  expect_edit_error(&demo, "\"metric\": \"item_roundtrip_us\", ", "", 5, 14, "missing evidence field 'metric'");
  expect_edit_error(&demo, "\"error_at\": 20, ", "", 5, 14, "missing evidence field 'error_at'");
  expect_edit_error(&demo, "\"cost\": \"each pays {value} on {device}; {total} in all\", ", "", 5, 14,
                    "missing evidence field 'cost'");
}

static void test_values(void **state) {
  (void)state;
  const char *metric = "evidence field 'metric' must be a name of [A-Za-z0-9_]";
  expect_edit_error(&demo, "\"item_roundtrip_us\"", "\"item roundtrip\"", 5, 25, metric);
  expect_edit_error(&demo, "\"item_roundtrip_us\"", "7", 5, 25, metric);
  expect_edit_error(&demo, "\"item_roundtrip_us\"", "\"\"", 5, 25, metric);
  const char *error_at = "evidence field 'error_at' must be a number > 0";
  expect_edit_error(&demo, "\"error_at\": 20", "\"error_at\": 0", 5, 58, error_at);
  expect_edit_error(&demo, "\"error_at\": 20", "\"error_at\": -20", 5, 58, error_at);
  expect_edit_error(&demo, "\"error_at\": 20", "\"error_at\": \"20\"", 5, 58, error_at);
  expect_edit_error(&demo, "\"error_at\": 20", "\"error_at\": 1e999", 5, 58, error_at);
  expect_edit_error(&demo, "\"note_below\": 2", "\"note_below\": null", 5, 76,
                    "evidence field 'note_below' must be a number > 0");
  expect_edit_error(&demo, "\"each pays {value} on {device}; {total} in all\"", "\"\"", 6, 11,
                    "evidence field 'cost' must be a non-empty string");
  expect_edit_error(&demo, "\"each pays {value} on {device}; {total} in all\"", "[]", 6, 11,
                    "evidence field 'cost' must be a non-empty string");
  const char *repeat = "evidence field 'repeat' must be an integer from 1 to 1000000000";
  expect_edit_error(&demo, "10000}", "0}", 6, 70, repeat);
  expect_edit_error(&demo, "10000}", "1.5}", 6, 70, repeat);
  expect_edit_error(&demo, "10000}", "2e9}", 6, 70, repeat);
  expect_edit_error(&demo, "10000}", "\"10\"}", 6, 70, repeat);
}

static void test_thresholds(void **state) {
  (void)state;
  expect_edit_error(&demo, "\"note_below\": 2,", "\"note_below\": 2, \"note_above\": 40,", 5, 79,
                    "evidence takes one of 'note_below' and 'note_above', not both");
  expect_edit_error(&demo, "\"note_below\": 2,", "", 5, 14,
                    "missing evidence field 'note_below' (higher is worse) or 'note_above' (lower is worse)");
  expect_edit_error(&demo, "\"note_below\": 2,", "\"note_below\": 30,", 5, 76,
                    "evidence 'note_below' (30) must be below 'error_at' (20)");
  expect_edit_error(&demo, "\"note_below\": 2,", "\"note_below\": 20,", 5, 76,
                    "evidence 'note_below' (20) must be below 'error_at' (20)");
  expect_edit_error(&demo, "\"note_below\": 2,", "\"note_above\": 10,", 5, 76,
                    "evidence 'note_above' (10) must be above 'error_at' (20)");
}

static void test_cost_placeholders(void **state) {
  (void)state;
  const char *gpu = "unknown placeholder '{gpu}' in evidence cost (use {value}, {device} or {total})";
  expect_edit_error(&demo, "{device}", "{gpu}", 6, 33, gpu);
  /* \u00b5 is 6 bytes in the file but 2 decoded: the column is the raw one. */
  expect_edit_error(&demo, "each pays {value} on {device}", "\\u00b5s: {gpu}", 6, 21, gpu);
  expect_edit_error(&demo, "{total} in all\", \"repeat\": 10000", "{total} in all\"", 6, 11,
                    "evidence cost uses {total} but 'repeat' is missing");
  /* Errors of one binding are all collected. */
  char *text = edit(rule_md, "\"error_at\": 20", "\"error_at\": -1");
  char *text2 = edit(text, "{value}", "{Value}");
  gl_diag_list errs = {0};
  int rc;
  gl_ruleset *set = load_pack_rule(pack_readme, "p/demo/GPU901.md", text2, &errs, &rc);
  assert_int_equal(rc, GL_EINVAL);
  assert_int_equal(errs.len, 2);
  assert_int_equal(errs.data[0].line, 5);
  assert_int_equal(errs.data[0].col, 58);
  assert_int_equal(errs.data[1].line, 6);
  assert_int_equal(errs.data[1].col, 22);
  assert_string_equal(errs.data[1].msg,
                      "unknown placeholder '{Value}' in evidence cost (use {value}, {device} or {total})");
  gl_vec_free(&errs);
  gl_rules_free(set);
  free(text);
  free(text2);
}

static void test_binding_free_null(void **state) {
  (void)state;
  gl_evidence_binding_free(NULL);
}

int main(void) {
  use_test_json_hooks();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid_higher_worse),
      cmocka_unit_test(test_valid_lower_worse_without_repeat),
      cmocka_unit_test(test_without_binding),
      cmocka_unit_test(test_keys),
      cmocka_unit_test(test_values),
      cmocka_unit_test(test_thresholds),
      cmocka_unit_test(test_cost_placeholders),
      cmocka_unit_test(test_binding_free_null),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
