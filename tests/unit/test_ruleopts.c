/* test_ruleopts.c: unit tests of the options a rule declares in its metadata (src/rules.h
 * gl_rule_option, validated by src/ruleopts.c, documented under '## Options' as src/rulefile.c
 * requires): a valid declaration, the values in effect and their lookups, and every load error
 * with its exact file:line:column and message. Owns: nothing shared. */
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
    "# GPU901 demo-rule\n"                                                                    /* 1 */
    "\n"                                                                                      /* 2 */
    "```json\n"                                                                               /* 3 */
    "{\"severity\": \"warning\", \"precision\": \"high\", \"message\": \"`{hit}` is slow\",\n"  /* 4 */
    " \"options\": {\"extra-names\": {\"type\": \"string-list\", \"default\": [\"a.b\", \"c.d\"],\n" /* 5 */
    "             \"description\": \"more names\"}}}\n"                                        /* 6 */
    "```\n"                                                                                   /* 7 */
    "\n"                                                                                      /* 8 */
    "## What it does\n"                                                                       /* 9 */
    "Checks for calls.\n"
    "\n"
    "## Why is this bad?\n"
    "Each call copies.\n"
    "\n"
    "## Example\n"                                                                            /* 15 */
    "```python\n"
    "x = f(y)\n"
    "```\n"
    "\n"
    "```python\n"                                                                             /* 20 */
    "z = f(w)\n"
    "```\n"
    "\n"
    "## Use instead\n"                                                                        /* 24 */
    "```python\n"
    "x = y\n"
    "```\n"
    "\n"
    "```python\n"                                                                             /* 29 */
    "z = w\n"
    "```\n"
    "\n"
    "## Options\n"                                                                            /* 33 */
    "- `extra-names`: more qualified names.\n"                                                /* 34 */
    "\n"
    "## Pattern\n"                                                                            /* 36 */
    "```query\n"
    "((call) @hit)\n"
    "```\n";

static const rule_under_test demo = {pack_readme, "p/demo/GPU901.md", rule_md};

static void test_valid(void **state) {
  (void)state;
  gl_ruleset *set = load_edit_ok(&demo, "", "");
  const gl_rule *r = set->rules.data[0];
  assert_int_equal(r->options.len, 1);
  const gl_rule_option *o = gl_rule_option_find(r, "extra-names");
  assert_ptr_equal(o, &r->options.data[0]);
  assert_string_equal(o->name, "extra-names");
  assert_int_equal(o->type, GL_OPT_STRING_LIST);
  assert_string_equal(gl_option_type_name(o->type), "string-list");
  assert_string_equal(o->description, "more names");
  assert_int_equal(o->ndefaults, 2);
  assert_string_equal(o->defaults[0], "a.b");
  assert_string_equal(o->defaults[1], "c.d");
  assert_null(o->values);
  assert_null(o->origin);
  assert_null(gl_rule_option_find(r, "extra-name"));
  gl_rules_free(set);
}

static void test_values_in_effect(void **state) {
  (void)state;
  gl_ruleset *set = load_edit_ok(&demo, "", "");
  gl_rule *r = set->rules.data[0];
  size_t n = 9;
  const char *const *v = gl_rule_option_strings(r, "extra-names", &n);
  assert_int_equal(n, 2);
  assert_string_equal(v[1], "c.d");
  assert_true(gl_rule_option_has(r, "extra-names", "a.b"));
  assert_false(gl_rule_option_has(r, "extra-names", "a.B"));
  assert_false(gl_rule_option_has(r, "other", "a.b"));
  assert_null(gl_rule_option_strings(r, "other", &n));
  assert_int_equal(n, 0);
  const char *mine[] = {"my.clock"};
  gl_rule_option_set(&r->options.data[0], mine, 1, "gpulint.toml:2:1");
  assert_true(gl_rule_option_has(r, "extra-names", "my.clock"));
  assert_false(gl_rule_option_has(r, "extra-names", "a.b")); /* replaces the defaults */
  assert_string_equal(r->options.data[0].origin, "gpulint.toml:2:1");
  gl_rule_option_set(&r->options.data[0], NULL, 0, "gpulint.toml:3:1"); /* an empty list */
  gl_rule_option_strings(r, "extra-names", &n);
  assert_int_equal(n, 0);
  assert_false(gl_rule_option_has(r, "extra-names", "my.clock"));
  assert_false(gl_rule_option_has(NULL, "extra-names", "my.clock"));
  gl_rules_free(set);
}

static void test_type_and_default(void **state) {
  (void)state;
  expect_edit_error(&demo, "\"string-list\"", "\"string-set\"", 5, 38,
                    "unknown option type in 'extra-names' (use \"string-list\")");
  expect_edit_error(&demo, "\"string-list\"", "3", 5, 38,
                    "unknown option type in 'extra-names' (use \"string-list\")");
  expect_edit_error(&demo, "[\"a.b\", \"c.d\"]", "[\"a.b\", 3]", 5, 64,
                    "default of option 'extra-names' must be an array of non-empty strings");
  expect_edit_error(&demo, "[\"a.b\", \"c.d\"]", "\"a.b\"", 5, 64,
                    "default of option 'extra-names' must be an array of non-empty strings");
  expect_edit_error(&demo, "[\"a.b\", \"c.d\"]", "[\"\"]", 5, 64,
                    "default of option 'extra-names' must be an array of non-empty strings");
  expect_edit_error(&demo, "\"more names\"", "\"\"", 6, 29,
                    "description of option 'extra-names' must be one non-empty line");
  expect_edit_error(&demo, "\"more names\"", "\"two\\nlines\"", 6, 29,
                    "description of option 'extra-names' must be one non-empty line");
}

static void test_shape(void **state) {
  (void)state;
  expect_edit_error(&demo, "{\"extra-names\": {\"type\": \"string-list\", \"default\": [\"a.b\", \"c.d\"],\n"
                    "             \"description\": \"more names\"}}",
                    "[]", 5, 13, "metadata field 'options' must be an object");
  expect_edit_error(&demo, "\"extra-names\": {", "\"extra_names\": {", 5, 14,
                    "option name 'extra_names' is not kebab-case");
  expect_edit_error(&demo, "\"description\": \"more names\"}", "\"description\": \"more names\", \"min\": 1}", 6,
                    43, "unknown key 'min' in option 'extra-names' (use type, default, description)");
  expect_edit_error(&demo, "\"type\": \"string-list\", ", "", 5, 29, "option 'extra-names' needs a 'type'");
  expect_edit_error(&demo, "\"more names\"}}}", "\"more names\"},\n \"extra-names\": {\"type\": \"string-list\", \"default\": [], \"description\": \"x\"}}}",
                    7, 2,
                    "duplicate option 'extra-names'");
  expect_edit_error(&demo, "\"default\": [\"a.b\", \"c.d\"],", "", 5, 29, "option 'extra-names' needs a 'default'");
  expect_edit_error(&demo, "{\"type\": \"string-list\", \"default\": [\"a.b\", \"c.d\"],\n"
                    "             \"description\": \"more names\"}",
                    "true", 5, 29,
                    "option 'extra-names' must be an object with type, default and description");
}

static void test_options_section(void **state) {
  (void)state;
  expect_edit_error(&demo, "## Options\n- `extra-names`: more qualified names.\n\n", "", 33, 1,
                    "missing section '## Options' (the metadata declares options)");
  expect_edit_error(&demo, "- `extra-names`: more", "- extra-names: more", 33, 1,
                    "section '## Options' does not name option `extra-names`");
  expect_edit_error(&demo, ",\n \"options\": {\"extra-names\": {\"type\": \"string-list\", \"default\": [\"a.b\", "
                    "\"c.d\"],\n             \"description\": \"more names\"}}}",
                    "}\n\n", 33, 1, "section '## Options' but the metadata declares no \"options\"");
  expect_edit_error(&demo, "## Use instead\n```python\nx = y\n```\n\n```python\nz = w\n```\n\n"
                    "## Options\n- `extra-names`: more qualified names.\n",
                    "## Options\n- `extra-names`: more qualified names.\n\n"
                    "## Use instead\n```python\nx = y\n```\n\n```python\nz = w\n```\n",
                    27, 1, "section '## Use instead' out of order: it must come before '## Options'");
}

int main(void) {
  use_test_json_hooks();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid),
      cmocka_unit_test(test_values_in_effect),
      cmocka_unit_test(test_type_and_default),
      cmocka_unit_test(test_shape),
      cmocka_unit_test(test_options_section),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
