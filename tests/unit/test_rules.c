/* test_rules.c: unit tests of the rule-pack loader (src/rules.h): rule files, pack READMEs,
 * every load error with its exact file:line:column and message, rules directories, the embedded
 * packs, and selection. Owns: nothing shared; each test builds its own ruleset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rules_fixture.h"

static const char pack_readme[] =
    "# Demo pack\n"
    "\n"
    "```json\n"
    "{\"name\": \"demo\", \"prefix\": \"GPU9\", \"default\": true, \"triggers\": [\"cupy\", \"torch\"]}\n"
    "```\n"
    "\n"
    "Free prose about the pack.\n";

/* Line numbers are on the right; tests below depend on them. */
static const char rule_md[] =
    "# GPU901 demo-rule\n"                                               /* 1 */
    "\n"                                                                 /* 2 */
    "```json\n"                                                          /* 3 */
    "{\"severity\": \"warning\", \"precision\": \"high\", \"tags\": [\"demo\"],\n" /* 4 */
    " \"message\": \"`{hit}` is slow\"}\n"                               /* 5 */
    "```\n"                                                              /* 6 */
    "\n"                                                                 /* 7 */
    "## What it does\n"                                                  /* 8 */
    "Checks for `cp.asnumpy`\n"                                          /* 9 */
    "in   loops. Then more text.\n"                                      /* 10 */
    "\n"                                                                 /* 11 */
    "Second paragraph.\n"                                                /* 12 */
    "\n"                                                                 /* 13 */
    "## Why is this bad?\n"                                              /* 14 */
    "Each call copies.\n"                                                /* 15 */
    "\n"                                                                 /* 16 */
    "## Example\n"                                                       /* 17 */
    "```python\n"                                                        /* 18 */
    "import cupy as cp\n"                                                /* 19 */
    "x = cp.asnumpy(y)\n"                                                /* 20 */
    "```\n"                                                              /* 21 */
    "\n"                                                                 /* 22 */
    "```python\n"                                                        /* 23 */
    "z = cp.asnumpy(w)\n"                                                /* 24 */
    "```\n"                                                              /* 25 */
    "\n"                                                                 /* 26 */
    "## Use instead\n"                                                   /* 27 */
    "```python\n"                                                        /* 28 */
    "x = y\n"                                                            /* 29 */
    "```\n"                                                              /* 30 */
    "\n"                                                                 /* 31 */
    "```python\n"                                                        /* 32 */
    "z = w.sum()\n"                                                      /* 33 */
    "```\n"                                                              /* 34 */
    "\n"                                                                 /* 35 */
    "## References\n"                                                    /* 36 */
    "- CuPy documentation\n"                                             /* 37 */
    "\n"                                                                 /* 38 */
    "## Pattern\n"                                                       /* 39 */
    "```query\n"                                                         /* 40 */
    "((call) @hit\n"                                                     /* 41 */
    " (#in-loop? @hit))\n"                                               /* 42 */
    "```\n";                                                             /* 43 */

/* Loads the demo pack plus one rule file and returns the ruleset; *rc gets the return code. */
static gl_ruleset *load_one(const char *path, const char *text, gl_diag_list *errs, int *rc) {
  return load_pack_rule(pack_readme, path, text, errs, rc);
}

/* Asserts that loading text as path gives exactly one error: line:col and message. */
static void expect_error(const char *path, const char *text, uint32_t line, uint32_t col, const char *msg) {
  expect_rule_error(pack_readme, path, text, line, col, msg);
}

static const rule_under_test demo = {pack_readme, "p/demo/GPU901.md", rule_md};

/* --- a valid pack ------------------------------------------------------------------------- */

static void test_valid_pack_fields(void **state) {
  (void)state;
  gl_diag_list errs = {0};
  int rc;
  gl_ruleset *set = load_one("p/demo/GPU901.md", rule_md, &errs, &rc);
  assert_int_equal(rc, GL_OK);
  assert_int_equal(errs.len, 0);
  assert_int_equal(set->packs.len, 1);
  const gl_pack *p = set->packs.data[0];
  assert_string_equal(p->name, "demo");
  assert_string_equal(p->prefix, "GPU9");
  assert_string_equal(p->title, "Demo pack");
  assert_true(p->default_on);
  assert_int_equal(p->ntriggers, 2);
  assert_string_equal(p->triggers[0], "cupy");
  assert_string_equal(p->triggers[1], "torch");
  assert_string_equal(p->readme_path, "p/demo/README.md");
  gl_vec_free(&errs);
  gl_rules_free(set);
}

static void test_valid_rule_fields(void **state) {
  (void)state;
  gl_diag_list errs = {0};
  int rc;
  gl_ruleset *set = load_one("p/demo/GPU901.md", rule_md, &errs, &rc);
  assert_int_equal(rc, GL_OK);
  assert_int_equal(set->rules.len, 1);
  const gl_rule *r = set->rules.data[0];
  assert_string_equal(r->id, "GPU901");
  assert_string_equal(r->name, "demo-rule");
  assert_ptr_equal(r->pack, set->packs.data[0]);
  assert_int_equal(r->level, GL_LEVEL_WARNING);
  assert_string_equal(r->precision, "high");
  assert_int_equal(r->ntags, 1);
  assert_string_equal(r->tags[0], "demo");
  assert_string_equal(r->message, "`{hit}` is slow");
  assert_null(r->check);
  assert_string_equal(r->query, "((call) @hit\n (#in-loop? @hit))\n");
  assert_int_equal(r->query_line, 41);
  assert_string_equal(r->path, "p/demo/GPU901.md");
  assert_string_equal(r->markdown, rule_md);
  assert_true(r->enabled);
  assert_int_equal(r->examples.len, 2);
  assert_string_equal(r->examples.data[0].code, "import cupy as cp\nx = cp.asnumpy(y)\n");
  assert_int_equal(r->examples.data[0].line, 19);
  assert_string_equal(r->examples.data[1].code, "z = cp.asnumpy(w)\n");
  assert_int_equal(r->examples.data[1].line, 24);
  assert_int_equal(r->use_instead.len, 2);
  assert_string_equal(r->use_instead.data[0].code, "x = y\n");
  assert_int_equal(r->use_instead.data[0].line, 29);
  assert_string_equal(r->use_instead.data[1].code, "z = w.sum()\n");
  assert_int_equal(r->use_instead.data[1].line, 33);
  gl_vec_free(&errs);
  gl_rules_free(set);
}

static void test_valid_rule_texts(void **state) {
  (void)state;
  gl_diag_list errs = {0};
  int rc;
  gl_ruleset *set = load_one("p/demo/GPU901.md", rule_md, &errs, &rc);
  assert_int_equal(rc, GL_OK);
  const gl_rule *r = set->rules.data[0];
  assert_string_equal(r->short_desc, "Checks for `cp.asnumpy` in loops.");
  assert_string_equal(r->full_desc, "Checks for `cp.asnumpy` in loops. Then more text.\n\nSecond paragraph.");
  /* help_text: lines 8..37 of the file, without the json block and the Pattern section. */
  const char *from = strstr(rule_md, "## What it does");
  const char *to = strstr(rule_md, "\n\n## Pattern");
  assert_int_equal(strlen(r->help_text), (size_t)(to - from));
  assert_memory_equal(r->help_text, from, (size_t)(to - from));
  gl_vec_free(&errs);
  gl_rules_free(set);
}

static void test_short_desc_keeps_dots_in_code_and_ends_at_paragraph(void **state) {
  (void)state;
  char *text = edit(rule_md, "Checks for `cp.asnumpy`\nin   loops. Then more text.\n",
                    "Checks for `cp.asnumpy(). x` calls\n- in loops\n- in comprehensions\n");
  gl_diag_list errs = {0};
  int rc;
  gl_ruleset *set = load_one("p/demo/GPU901.md", text, &errs, &rc);
  assert_int_equal(rc, GL_OK);
  const gl_rule *r = set->rules.data[0];
  assert_string_equal(r->short_desc, "Checks for `cp.asnumpy(). x` calls - in loops - in comprehensions");
  assert_string_equal(r->full_desc,
                      "Checks for `cp.asnumpy(). x` calls\n- in loops\n- in comprehensions\n\n"
                      "Second paragraph.");
  gl_vec_free(&errs);
  gl_rules_free(set);
  free(text);
}

static void test_crlf_rule_file(void **state) {
  (void)state;
  /* Same rule with CRLF line ends: same lines, no '\r' in the extracted blocks. */
  size_t n = strlen(rule_md);
  char *crlf = malloc(2 * n + 1), *o = crlf;
  for (size_t i = 0; i < n; i++) {
    if (rule_md[i] == '\n') *o++ = '\r';
    *o++ = rule_md[i];
  }
  *o = '\0';
  gl_diag_list errs = {0};
  int rc;
  gl_ruleset *set = load_one("p/demo/GPU901.md", crlf, &errs, &rc);
  assert_int_equal(rc, GL_OK);
  const gl_rule *r = set->rules.data[0];
  assert_string_equal(r->query, "((call) @hit\n (#in-loop? @hit))\n");
  assert_int_equal(r->query_line, 41);
  assert_string_equal(r->examples.data[1].code, "z = cp.asnumpy(w)\n");
  assert_string_equal(r->short_desc, "Checks for `cp.asnumpy` in loops.");
  gl_vec_free(&errs);
  gl_rules_free(set);
  free(crlf);
}

static void test_bom_rule_file(void **state) {
  (void)state;
  /* A UTF-8 BOM (editors on Windows write one) is not part of the heading, and columns on line 1
   * do not count it, as in Python sources. */
  char *bom = gl_xasprintf("\xEF\xBB\xBF%s", rule_md);
  gl_diag_list errs = {0};
  int rc;
  gl_ruleset *set = load_one("p/demo/GPU901.md", bom, &errs, &rc);
  assert_int_equal(rc, GL_OK);
  assert_string_equal(set->rules.data[0]->id, "GPU901");
  gl_vec_free(&errs);
  gl_rules_free(set);
  free(bom);
  char *text = edit(rule_md, "# GPU901", "\xEF\xBB\xBF# GPU902");
  expect_error("p/demo/GPU901.md", text, 1, 3, "rule id 'GPU902' does not match the file name 'GPU901.md'");
  free(text);
}

static void test_check_rule_without_pattern(void **state) {
  (void)state;
  char *a = edit(rule_md, "\"tags\": [\"demo\"],", "\"check\": \"unsynchronized-timer\",");
  char *text = edit(a, "\n## Pattern\n```query\n((call) @hit\n (#in-loop? @hit))\n```\n", "");
  gl_diag_list errs = {0};
  int rc;
  gl_ruleset *set = load_one("p/demo/GPU901.md", text, &errs, &rc);
  assert_int_equal(rc, GL_OK);
  assert_int_equal(errs.len, 0);
  const gl_rule *r = set->rules.data[0];
  assert_string_equal(r->check, "unsynchronized-timer");
  assert_null(r->query);
  assert_int_equal(r->query_line, 0);
  assert_int_equal(r->ntags, 0);
  gl_vec_free(&errs);
  gl_rules_free(set);
  free(a);
  free(text);
}

/* --- json metadata errors ----------------------------------------------------------------- */

static void test_bad_json_position(void **state) {
  (void)state;
  /* Missing comma at the end of line 4: cJSON stops at the next key, line 5 column 2. */
  expect_edit_error(&demo, "\"tags\": [\"demo\"],", "\"tags\": [\"demo\"]", 5, 2, "invalid json in metadata block");
  /* Trailing garbage after the object. */
  expect_edit_error(&demo, "is slow\"}\n", "is slow\"} x\n", 5, 32, "invalid json in metadata block");
}

static void test_missing_field(void **state) {
  (void)state;
  expect_edit_error(&demo, "\"precision\": \"high\", ", "", 4, 1, "missing metadata field 'precision'");
  expect_edit_error(&demo, "{\"severity\": \"warning\", ", "{", 4, 1, "missing metadata field 'severity'");
}

static void test_unknown_key(void **state) {
  (void)state;
  expect_edit_error(&demo, "\"tags\": [\"demo\"],", "\"tags\": [\"demo\"], \"evidense\": 1,", 4, 64,
                    "unknown metadata key 'evidense'");
  expect_edit_error(&demo, "\"tags\": [\"demo\"],", "\"tags\": [\"demo\"], \"tags\": [],", 4, 64,
                    "duplicate metadata key 'tags'");
}

static void test_unknown_severity_and_types(void **state) {
  (void)state;
  expect_edit_error(&demo, "\"warning\"", "\"fatal\"", 4, 14, "unknown severity 'fatal'");
  expect_edit_error(&demo, "\"warning\"", "\"none\"", 4, 14, "unknown severity 'none'");
  expect_edit_error(&demo, "\"high\"", "\"extreme\"", 4, 38, "unknown precision 'extreme'");
  /* Columns count characters, as editors do: "é" (two bytes) before the value is one column. */
  expect_edit_error(&demo, "[\"demo\"],", "[\"d\u00e9mo\"], \"x\": 1,", 4, 64, "unknown metadata key 'x'");
  expect_edit_error(&demo, "\"warning\"", "2", 4, 14, "metadata field 'severity' must be a string");
  expect_edit_error(&demo, "[\"demo\"]", "[\"demo\", 3]", 4, 54,
                    "metadata field 'tags' must be an array of non-empty strings");
  expect_edit_error(&demo, "\"`{hit}` is slow\"", "\"\"", 5, 13, "metadata field 'message' must not be empty");
  /* An unclosed array: cJSON stops at the end of the block, the closing fence's line. */
  expect_edit_error(&demo, "{\"severity\"", "[{\"severity\"", 6, 1, "invalid json in metadata block");
  expect_edit_error(&demo, "{\"severity\": \"warning\", \"precision\": \"high\", \"tags\": [\"demo\"],\n"
                    " \"message\": \"`{hit}` is slow\"}",
                    "\n  [\"severity\"]", 5, 3, "metadata must be a json object");
}

/* --- a measured precision and the gate ------------------------------------------------------ */

static const gl_rule *load_measured(const char *precision, gl_ruleset **set) {
  char *value = gl_xasprintf("%s", precision);
  char *text = edit(rule_md, "\"high\"", value);
  gl_diag_list errs = {0};
  int rc;
  *set = load_one("p/demo/GPU901.md", text, &errs, &rc);
  assert_int_equal(rc, GL_OK);
  assert_int_equal(errs.len, 0);
  gl_vec_free(&errs);
  free(text);
  free(value);
  return (*set)->rules.data[0];
}

static void test_measured_precision(void **state) {
  (void)state;
  gl_ruleset *set;
  /* below the gate: the category follows the figure and the rule is off unless selected */
  const gl_rule *r = load_measured("{\"measured\": 0.429, \"right\": 3, \"judged\": 7, "
                                   "\"date\": \"2026-12-06\"}", &set);
  assert_string_equal(r->precision, "low");
  assert_int_equal(r->measured.right, 3);
  assert_int_equal(r->measured.judged, 7);
  assert_string_equal(r->measured.date, "2026-12-06");
  assert_false(r->default_on);
  assert_false(r->enabled);
  const char *on[] = {"GPU901"};
  gl_diag err = {0};
  assert_int_equal(gl_rules_select(set, NULL, 0, on, 1, NULL, 0, &err), GL_OK);
  assert_true(r->enabled); /* selected by the user: on */
  gl_rules_free(set);
  /* at the gate: on; very-high needs 20 judged findings */
  r = load_measured("{\"measured\": 1.0, \"right\": 2, \"judged\": 2, \"date\": \"2026-12-06\"}", &set);
  assert_string_equal(r->precision, "high");
  assert_true(r->default_on);
  gl_rules_free(set);
  r = load_measured("{\"measured\": 0.96, \"right\": 24, \"judged\": 25, \"date\": \"2026-12-06\"}", &set);
  assert_string_equal(r->precision, "very-high");
  gl_rules_free(set);
  r = load_measured("{\"measured\": 0.85, \"right\": 17, \"judged\": 20, \"date\": \"2026-12-06\"}", &set);
  assert_string_equal(r->precision, "high");
  assert_true(r->default_on);
  gl_rules_free(set);
}

static void test_measured_precision_errors(void **state) {
  (void)state;
  const char *shape = "'precision' must be a category or {\"measured\": 0..1, \"right\": N, "
                      "\"judged\": N, \"date\": \"YYYY-MM-DD\"}";
  expect_edit_error(&demo, "\"high\"", "{\"measured\": 0.5, \"right\": 1, \"judged\": 2}", 4, 38, shape);
  expect_edit_error(&demo, "\"high\"",
                    "{\"measured\": 1.5, \"right\": 1, \"judged\": 2, \"date\": \"2026-12-06\"}", 4, 38,
                    shape);
  expect_edit_error(&demo, "\"high\"",
                    "{\"measured\": 0.5, \"right\": 1, \"judged\": 2, \"date\": \"6 Dec\"}", 4, 38, shape);
  expect_edit_error(&demo, "\"high\"",
                    "{\"measured\": 0.9, \"right\": 1, \"judged\": 2, \"date\": \"2026-12-06\"}", 4, 38,
                    "'precision': measured 0.9 is not right / judged (1 / 2)");
  expect_edit_error(&demo, "\"high\"",
                    "{\"measured\": 0.5, \"right\": 1, \"judged\": 2, \"date\": \"2026-12-06\", "
                    "\"by\": 1}", 4, 38, "unknown key 'by' in 'precision'");
  expect_edit_error(&demo, "\"high\"", "3", 4, 38,
                    "metadata field 'precision' must be a string or an object");
}

/* --- heading and structure errors --------------------------------------------------------- */

static void test_wrong_id_and_name(void **state) {
  (void)state;
  expect_edit_error(&demo, "# GPU901 demo-rule", "# GPU902 demo-rule", 1, 3,
                    "rule id 'GPU902' does not match the file name 'GPU901.md'");
  expect_edit_error(&demo, "# GPU901 demo-rule", "# GPU901 Demo_Rule", 1, 10,
                    "rule name 'Demo_Rule' is not kebab-case");
  expect_edit_error(&demo, "# GPU901 demo-rule", "# GPU901 demo rule", 1, 1, "first line must be '# <ID> <name>'");
  expect_edit_error(&demo, "# GPU901 demo-rule", "# GPU901", 1, 1, "first line must be '# <ID> <name>'");
  char *text = edit(rule_md, "# GPU901", "# GPU9x1");
  expect_error("p/demo/GPU9x1.md", text, 1, 3, "rule id 'GPU9x1' must be 'GPU' followed by three digits");
  free(text);
}

static void test_prefix_mismatch(void **state) {
  (void)state;
  char *text = edit(rule_md, "# GPU901", "# GPU801");
  expect_error("p/demo/GPU801.md", text, 1, 3, "rule id 'GPU801' does not start with the pack prefix 'GPU9'");
  free(text);
}

static void test_json_must_follow_heading(void **state) {
  (void)state;
  expect_edit_error(&demo, "\n```json\n", "\nSome text.\n```json\n", 3, 1,
                    "expected a ```json metadata block right after the heading");
}

static void test_sections(void **state) {
  (void)state;
  expect_edit_error(&demo, "## Why is this bad?\nEach call copies.\n\n", "", 14, 1,
                    "missing section '## Why is this bad?'");
  expect_edit_error(&demo, "## References", "## Usage", 36, 1, "unknown section '## Usage'");
  expect_edit_error(&demo, "## Example\n", "## Example\n\n## Example\n", 19, 1, "duplicate section '## Example'");
  expect_edit_error(&demo, "## What it does\n", "Intro.\n\n## What it does\n", 8, 1,
                    "unexpected text before '## What it does'");
  expect_edit_error(&demo, "## References\n", "# References\n", 36, 1, "only line 1 may be a '# ' heading");
  /* References moved after Pattern. */
  char *a = edit(rule_md, "## References\n- CuPy documentation\n\n", "");
  char *text = edit(a, "(#in-loop? @hit))\n```\n", "(#in-loop? @hit))\n```\n\n## References\n- x\n");
  expect_error("p/demo/GPU901.md", text, 42, 1,
               "section '## References' out of order: it must come before '## Pattern'");
  free(a);
  free(text);
}

static void test_example_blocks(void **state) {
  (void)state;
  expect_edit_error(&demo, "\n```python\nz = cp.asnumpy(w)\n```\n", "", 17, 1,
                    "section '## Example' needs at least 2 python blocks, found 1");
  expect_edit_error(&demo, "```python\nz = w.sum()\n```\n", "```text\nz = w.sum()\n```\n", 27, 1,
                    "section '## Use instead' needs at least 2 python blocks, found 1");
  expect_edit_error(&demo, "```python\nz = cp.asnumpy(w)\n```\n", "```python\n```\n", 23, 1, "empty python block");
  /* Without its closing fence, the block at 32 runs to the bare fence that closed the query. */
  expect_edit_error(&demo, "z = w.sum()\n```\n", "z = w.sum()\n", 42, 1, "missing section '## Pattern'");
  expect_edit_error(&demo, "(#in-loop? @hit))\n```\n", "(#in-loop? @hit))\n", 40, 1, "code block is not closed");
}

static void test_pattern(void **state) {
  (void)state;
  expect_edit_error(&demo, "\n## Pattern\n```query\n((call) @hit\n (#in-loop? @hit))\n```\n", "", 37, 1,
                    "missing section '## Pattern'");
  expect_edit_error(&demo, "```query\n((call) @hit\n (#in-loop? @hit))\n```\n", "No query here.\n", 39, 1,
                    "section '## Pattern' has no query block");
  expect_edit_error(&demo, "(#in-loop? @hit))\n```\n", "(#in-loop? @hit))\n```\n```query\n(call) @hit\n```\n", 44, 1,
                    "more than one query block in '## Pattern'");
  expect_edit_error(&demo, "Each call copies.\n", "Each call copies.\n```query\n(call) @hit\n```\n", 16, 1,
                    "query block outside '## Pattern'");
  expect_edit_error(&demo, "\"tags\": [\"demo\"],", "\"check\": \"unsynchronized-timer\",", 39, 1,
                    "rule has both a \"check\" and a '## Pattern' section");
}

static void test_errors_of_all_files_are_collected(void **state) {
  (void)state;
  char *bad1 = edit(rule_md, "\"warning\"", "\"fatal\"");
  char *bad2a = edit(rule_md, "# GPU901 demo-rule", "# GPU902 second-rule");
  char *bad2 = edit(bad2a, "## Example", "## Examples");
  gl_rule_file files[] = {rule_file("p/demo/GPU902.md", bad2), rule_file("p/demo/README.md", pack_readme),
                          rule_file("p/demo/GPU901.md", bad1)};
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_rules_add_files(set, files, 3, &errs), GL_EINVAL);
  /* Files are processed in path order; both errors of GPU902.md are reported. */
  assert_int_equal(errs.len, 3);
  assert_string_equal(errs.data[0].path, "p/demo/GPU901.md");
  assert_string_equal(errs.data[0].msg, "unknown severity 'fatal'");
  assert_string_equal(errs.data[1].path, "p/demo/GPU902.md");
  assert_string_equal(errs.data[1].msg, "unknown section '## Examples'");
  assert_int_equal(errs.data[1].line, 17);
  assert_string_equal(errs.data[2].msg, "missing section '## Example'");
  assert_int_equal(errs.data[2].line, 27);
  assert_int_equal(set->packs.len, 1);
  assert_int_equal(set->rules.len, 0);
  gl_vec_free(&errs);
  gl_rules_free(set);
  free(bad1), free(bad2a), free(bad2);
}

/* --- packs and cross-file checks ---------------------------------------------------------- */

static void test_duplicate_id_and_name(void **state) {
  (void)state;
  char *other_readme = edit(pack_readme, "\"demo\"", "\"other\"");
  char *same_id = edit(rule_md, "demo-rule", "other-rule");
  char *same_name = edit(rule_md, "# GPU901", "# GPU902");
  gl_rule_file files[] = {rule_file("p/demo/README.md", pack_readme), rule_file("p/demo/GPU901.md", rule_md),
                          rule_file("p/demo/GPU902.md", same_name), rule_file("p/other/README.md", other_readme),
                          rule_file("p/other/GPU901.md", same_id)};
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_rules_add_files(set, files, 5, &errs), GL_EINVAL);
  assert_int_equal(errs.len, 2);
  assert_string_equal(errs.data[0].path, "p/demo/GPU902.md");
  assert_int_equal(errs.data[0].line, 1);
  assert_int_equal(errs.data[0].col, 10);
  assert_string_equal(errs.data[0].msg,
                      "duplicate rule name 'demo-rule' (first defined in p/demo/GPU901.md)");
  assert_string_equal(errs.data[1].path, "p/other/GPU901.md");
  assert_int_equal(errs.data[1].line, 1);
  assert_int_equal(errs.data[1].col, 3);
  assert_string_equal(errs.data[1].msg, "duplicate rule id 'GPU901' (first defined in p/demo/GPU901.md)");
  assert_int_equal(set->rules.len, 1);
  assert_int_equal(set->packs.len, 2);
  gl_vec_free(&errs);
  gl_rules_free(set);
  free(other_readme), free(same_id), free(same_name);
}

static void test_duplicate_across_calls_and_duplicate_pack(void **state) {
  (void)state;
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  gl_rule_file a[] = {rule_file("p/demo/README.md", pack_readme), rule_file("p/demo/GPU901.md", rule_md)};
  gl_rule_file b[] = {rule_file("q/demo/README.md", pack_readme)};
  assert_int_equal(gl_rules_add_files(set, a, 2, &errs), GL_OK);
  assert_int_equal(gl_rules_add_files(set, b, 1, &errs), GL_EINVAL);
  assert_int_equal(errs.len, 1);
  assert_string_equal(errs.data[0].path, "q/demo/README.md");
  assert_int_equal(errs.data[0].line, 1);
  assert_int_equal(errs.data[0].col, 1);
  assert_string_equal(errs.data[0].msg, "duplicate pack 'demo' (first defined in p/demo/README.md)");
  assert_int_equal(set->packs.len, 1);
  gl_vec_free(&errs);
  gl_rules_free(set);
}

static void test_rule_without_pack_readme(void **state) {
  (void)state;
  gl_rule_file files[] = {rule_file("p/lonely/GPU901.md", rule_md)};
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_rules_add_files(set, files, 1, &errs), GL_EINVAL);
  assert_int_equal(errs.len, 1);
  assert_string_equal(errs.data[0].path, "p/lonely/GPU901.md");
  assert_int_equal(errs.data[0].line, 1);
  assert_int_equal(errs.data[0].col, 1);
  assert_string_equal(errs.data[0].msg, "rule file outside a pack: no README.md in folder 'p/lonely'");
  assert_int_equal(set->rules.len, 0);
  gl_vec_free(&errs);
  gl_rules_free(set);
}

static void expect_pack_error(const char *readme, uint32_t line, uint32_t col, const char *msg) {
  gl_rule_file files[] = {rule_file("p/demo/README.md", readme)};
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_rules_add_files(set, files, 1, &errs), GL_EINVAL);
  assert_one_diag(&errs, RULES_FIXTURE_README, line, col, msg);
  assert_int_equal(set->packs.len, 0);
  gl_vec_free(&errs);
  gl_rules_free(set);
}

static void test_pack_errors(void **state) {
  (void)state;
  struct { const char *from, *to; uint32_t line, col; const char *msg; } cases[] = {
      {"\"demo\"", "\"legacy\"", 4, 10, "pack name 'legacy' does not match its folder 'demo'"},
      {"\"GPU9\"", "\"GPU\"", 4, 28, "pack prefix 'GPU' must be 'GPU' followed by one or two digits"},
      {"\"GPU9\"", "\"GPU123\"", 4, 28, "pack prefix 'GPU123' must be 'GPU' followed by one or two digits"},
      {"true", "\"yes\"", 4, 47, "metadata field 'default' must be true or false"},
      {"[\"cupy\", \"torch\"]", "[]", 4, 65,
       "metadata field 'triggers' must be a non-empty array of non-empty strings"},
      {"\"torch\"", "\"to rch\"", 4, 65, "trigger 'to rch' is not a word"},
      {", \"default\": true", "", 4, 1, "missing metadata field 'default'"},
      {"\"default\"", "\"on\": 1, \"default\"", 4, 36, "unknown metadata key 'on'"},
      {"# Demo pack", "Demo pack", 1, 1, "first line must be '# <title>'"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char *text = edit(pack_readme, cases[i].from, cases[i].to);
    expect_pack_error(text, cases[i].line, cases[i].col, cases[i].msg);
    free(text);
  }
}

static void test_non_markdown_and_models_ignored(void **state) {
  (void)state;
  /* models/ is no pack: its json files are library models (libmodel.h), its Markdown is ignored. */
  gl_rule_file files[] = {rule_file("rules/models/cupy.json", "{\"library\": \"cupy\"}"),
                          rule_file("rules/models/README.md", "# Library models\n\nNo json here.\n"),
                          rule_file("rules/demo/README.md", pack_readme),
                          rule_file("rules/demo/notes.txt", "free text"),
                          rule_file("rules/demo/GPU901.md", rule_md)};
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_rules_add_files(set, files, 5, &errs), GL_OK);
  assert_int_equal(errs.len, 0);
  assert_int_equal(set->packs.len, 1);
  assert_int_equal(set->rules.len, 1);
  assert_int_equal(gl_libmodels_count(set->models), 1);
  gl_vec_free(&errs);
  gl_rules_free(set);
}

/* --- selection ---------------------------------------------------------------------------- */

/* demo (default on, GPU9): GPU901 demo-rule, GPU902 other-rule; extra (default off, GPU8):
 * GPU801 extra-rule. Files are given out of order; rules come out sorted by id. */
static gl_ruleset *selection_set(char **owned) {
  owned[0] = edit(rule_md, "# GPU901 demo-rule", "# GPU902 other-rule");
  char *a = edit(pack_readme, "\"demo\"", "\"extra\"");
  char *b = edit(a, "\"GPU9\"", "\"GPU8\"");
  owned[1] = edit(b, "true", "false");
  owned[2] = edit(rule_md, "# GPU901 demo-rule", "# GPU801 extra-rule");
  free(a), free(b);
  gl_rule_file files[] = {rule_file("p/demo/GPU902.md", owned[0]), rule_file("p/extra/GPU801.md", owned[2]),
                          rule_file("p/demo/README.md", pack_readme), rule_file("p/extra/README.md", owned[1]),
                          rule_file("p/demo/GPU901.md", rule_md)};
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_rules_add_files(set, files, 5, &errs), GL_OK);
  gl_vec_free(&errs);
  return set;
}

/* "abc": enabled flags of GPU801, GPU901, GPU902 as '1' / '0'. */
static void expect_enabled(const gl_ruleset *set, const char *flags) {
  char got[4] = {0};
  for (size_t i = 0; i < 3; i++) got[i] = set->rules.data[i]->enabled ? '1' : '0';
  assert_string_equal(got, flags);
}

static void test_select(void **state) {
  (void)state;
  char *owned[3];
  gl_ruleset *set = selection_set(owned);
  assert_int_equal(set->rules.len, 3);
  assert_string_equal(set->rules.data[0]->id, "GPU801");
  assert_string_equal(set->rules.data[1]->id, "GPU901");
  assert_string_equal(set->rules.data[2]->id, "GPU902");
  expect_enabled(set, "011"); /* pack defaults before any selection */
  gl_diag err = {0};
  const char *const id[] = {"GPU801"}, *const pfx9[] = {"GPU9"}, *const pfx90[] = {"GPU90"};
  const char *const gpu[] = {"GPU"}, *const name[] = {"other-rule"}, *const pack[] = {"extra"};
  const char *const all[] = {"ALL"}, *const ign[] = {"GPU902"}, *const two[] = {"demo-rule", "extra"};
  assert_int_equal(gl_rules_select(set, NULL, 0, NULL, 0, NULL, 0, &err), GL_OK);
  expect_enabled(set, "011");
  assert_int_equal(gl_rules_select(set, id, 1, NULL, 0, NULL, 0, &err), GL_OK);
  expect_enabled(set, "100");
  assert_int_equal(gl_rules_select(set, pfx9, 1, NULL, 0, NULL, 0, &err), GL_OK);
  expect_enabled(set, "011");
  assert_int_equal(gl_rules_select(set, pfx90, 1, NULL, 0, NULL, 0, &err), GL_OK);
  expect_enabled(set, "011");
  assert_int_equal(gl_rules_select(set, gpu, 1, NULL, 0, NULL, 0, &err), GL_OK);
  expect_enabled(set, "111");
  assert_int_equal(gl_rules_select(set, name, 1, NULL, 0, NULL, 0, &err), GL_OK);
  expect_enabled(set, "001");
  assert_int_equal(gl_rules_select(set, pack, 1, NULL, 0, NULL, 0, &err), GL_OK);
  expect_enabled(set, "100");
  assert_int_equal(gl_rules_select(set, two, 2, NULL, 0, NULL, 0, &err), GL_OK);
  expect_enabled(set, "110");
  assert_int_equal(gl_rules_select(set, all, 1, NULL, 0, ign, 1, &err), GL_OK);
  expect_enabled(set, "110");
  assert_int_equal(gl_rules_select(set, NULL, 0, id, 1, NULL, 0, &err), GL_OK);
  expect_enabled(set, "111");
  assert_int_equal(gl_rules_select(set, NULL, 0, id, 1, pfx9, 1, &err), GL_OK);
  expect_enabled(set, "100"); /* ignore comes last */
  assert_int_equal(gl_rules_select(set, id, 0, NULL, 0, NULL, 0, &err), GL_OK);
  expect_enabled(set, "000"); /* an empty --select selects nothing */
  gl_rules_free(set);
  free(owned[0]), free(owned[1]), free(owned[2]);
}

/* A rule with "default": false stays off with its pack on, until a selector names it. */
static void test_rule_default_off(void **state) {
  (void)state;
  char *off = edit(rule_md, "\"precision\": \"high\",", "\"precision\": \"medium\", \"default\": false,");
  char *second = edit(rule_md, "# GPU901 demo-rule", "# GPU902 other-rule");
  gl_rule_file files[] = {rule_file("p/demo/README.md", pack_readme), rule_file("p/demo/GPU901.md", off),
                          rule_file("p/demo/GPU902.md", second)};
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_rules_add_files(set, files, 3, &errs), GL_OK);
  assert_int_equal(errs.len, 0);
  assert_false(set->rules.data[0]->default_on);
  assert_false(set->rules.data[0]->enabled);
  assert_true(set->rules.data[1]->enabled);
  gl_diag err = {0};
  const char *const pack[] = {"demo"}, *const id[] = {"GPU901"};
  assert_int_equal(gl_rules_select(set, NULL, 0, NULL, 0, NULL, 0, &err), GL_OK);
  assert_false(set->rules.data[0]->enabled);
  assert_int_equal(gl_rules_select(set, NULL, 0, id, 1, NULL, 0, &err), GL_OK);
  assert_true(set->rules.data[0]->enabled);   /* --extend-select GPU901 */
  assert_int_equal(gl_rules_select(set, pack, 1, NULL, 0, NULL, 0, &err), GL_OK);
  assert_true(set->rules.data[0]->enabled);   /* --select demo names the pack explicitly */
  gl_rules_free(set);
  gl_vec_free(&errs);
  free(off), free(second);
}

static void test_unknown_selector(void **state) {
  (void)state;
  char *owned[3];
  gl_ruleset *set = selection_set(owned);
  const char *const bad[] = {"GPU1", "gpu901", "GPU9x", "demo-rul", "GPU9010", "", "all"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    gl_diag err = {0};
    char want[64];
    snprintf(want, sizeof(want), "unknown rule selector '%s'", bad[i]);
    const char *const one[] = {"GPU801", bad[i]};
    assert_int_equal(gl_rules_select(set, NULL, 0, NULL, 0, one, 2, &err), GL_EINVAL);
    assert_string_equal(err.msg, want);
    assert_string_equal(err.path, "");
    expect_enabled(set, "011"); /* unchanged on error */
  }
  gl_rules_free(set);
  free(owned[0]), free(owned[1]), free(owned[2]);
}

static void test_selector_matches_and_find(void **state) {
  (void)state;
  char *owned[3];
  gl_ruleset *set = selection_set(owned);
  const gl_rule *r = gl_rules_find(set, "GPU901");
  assert_non_null(r);
  assert_string_equal(r->name, "demo-rule");
  assert_ptr_equal(gl_rules_find(set, "other-rule"), set->rules.data[2]);
  assert_null(gl_rules_find(set, "GPU903"));
  assert_null(gl_rules_find(set, "gpu901"));
  assert_true(gl_rules_selector_matches(r, "ALL"));
  assert_true(gl_rules_selector_matches(r, "GPU"));
  assert_true(gl_rules_selector_matches(r, "GPU9"));
  assert_true(gl_rules_selector_matches(r, "GPU90"));
  assert_true(gl_rules_selector_matches(r, "GPU901"));
  assert_true(gl_rules_selector_matches(r, "demo-rule"));
  assert_true(gl_rules_selector_matches(r, "demo"));
  assert_false(gl_rules_selector_matches(r, "GPU8"));
  assert_false(gl_rules_selector_matches(r, "GPU9010"));
  assert_false(gl_rules_selector_matches(r, "GP"));
  assert_false(gl_rules_selector_matches(r, "GPU90x"));
  assert_false(gl_rules_selector_matches(r, "demo-"));
  assert_false(gl_rules_selector_matches(r, "extra"));
  gl_rules_free(set);
  free(owned[0]), free(owned[1]), free(owned[2]);
}

static void test_levels(void **state) {
  (void)state;
  assert_int_equal(gl_level_parse("none"), GL_LEVEL_NONE);
  assert_int_equal(gl_level_parse("note"), GL_LEVEL_NOTE);
  assert_int_equal(gl_level_parse("warning"), GL_LEVEL_WARNING);
  assert_int_equal(gl_level_parse("error"), GL_LEVEL_ERROR);
  assert_int_equal(gl_level_parse("Error"), -1);
  assert_int_equal(gl_level_parse("fatal"), -1);
  assert_int_equal(gl_level_parse(""), -1);
  assert_string_equal(gl_level_name(GL_LEVEL_NONE), "none");
  assert_string_equal(gl_level_name(GL_LEVEL_NOTE), "note");
  assert_string_equal(gl_level_name(GL_LEVEL_WARNING), "warning");
  assert_string_equal(gl_level_name(GL_LEVEL_ERROR), "error");
}

/* --- directories and the embedded packs --------------------------------------------------- */

static void write_file(const char *dir, const char *name, const char *text) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
  assert_int_equal(fclose(f), 0);
}

/* A temporary rules directory: ROOT/demo/{README.md,GPU901.md}, ROOT/models/{cupy.json,README.md}
 * and an empty ROOT/empty. */
typedef struct dir_fixture {
  char root[32];
  char demo[64], models[64], empty[64];
} dir_fixture;

static int dir_setup(void **state) {
  dir_fixture *fx = calloc(1, sizeof(*fx));
  snprintf(fx->root, sizeof(fx->root), "/tmp/gl_rules_XXXXXX");
  if (!mkdtemp(fx->root)) return -1;
  snprintf(fx->demo, sizeof(fx->demo), "%s/demo", fx->root);
  snprintf(fx->models, sizeof(fx->models), "%s/models", fx->root);
  snprintf(fx->empty, sizeof(fx->empty), "%s/empty", fx->root);
  if (mkdir(fx->demo, 0700) || mkdir(fx->models, 0700) || mkdir(fx->empty, 0700)) return -1;
  write_file(fx->demo, "README.md", pack_readme);
  write_file(fx->demo, "GPU901.md", rule_md);
  write_file(fx->models, "cupy.json", "{\"library\": \"cupy\"}");
  write_file(fx->models, "README.md", "# Models\n");
  *state = fx;
  return 0;
}

static int dir_teardown(void **state) {
  dir_fixture *fx = *state;
  const char *files[] = {"demo/README.md", "demo/GPU901.md", "demo/GPU902.md", "models/cupy.json",
                         "models/README.md"};
  char path[128];
  for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
    snprintf(path, sizeof(path), "%s/%s", fx->root, files[i]);
    unlink(path);
  }
  rmdir(fx->demo), rmdir(fx->models), rmdir(fx->empty), rmdir(fx->root);
  free(fx);
  return 0;
}

static void test_add_dir_of_packs(void **state) {
  dir_fixture *fx = *state;
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  int rc = gl_rules_add_dir(set, fx->root, &errs); /* models/ is not a pack, empty/ holds none */
  print_errors(&errs);
  assert_int_equal(rc, GL_OK);
  assert_int_equal(errs.len, 0);
  assert_int_equal(set->packs.len, 1);
  assert_int_equal(set->rules.len, 1);
  char path[128];
  snprintf(path, sizeof(path), "%s/demo/GPU901.md", fx->root);
  assert_string_equal(set->rules.data[0]->path, path);
  snprintf(path, sizeof(path), "%s/demo/README.md", fx->root);
  assert_string_equal(set->packs.data[0]->readme_path, path);
  assert_string_equal(set->rules.data[0]->query, "((call) @hit\n (#in-loop? @hit))\n");
  assert_string_equal(set->rules.data[0]->markdown, rule_md);
  assert_int_equal(gl_libmodels_count(set->models), 1); /* models/cupy.json */
  gl_vec_free(&errs);
  gl_rules_free(set);
}

static void test_add_dir_one_pack(void **state) {
  dir_fixture *fx = *state;
  char *bad = edit(rule_md, "\"warning\"", "\"fatal\"");
  write_file(fx->demo, "GPU901.md", bad);
  free(bad);
  /* The pack folder itself, with a trailing slash: errors carry the joined path. */
  char dir[128], path[128];
  snprintf(dir, sizeof(dir), "%s/", fx->demo);
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_rules_add_dir(set, dir, &errs), GL_EINVAL);
  assert_int_equal(errs.len, 1);
  snprintf(path, sizeof(path), "%s/GPU901.md", fx->demo);
  assert_string_equal(errs.data[0].path, path);
  assert_int_equal(errs.data[0].line, 4);
  assert_int_equal(errs.data[0].col, 14);
  assert_string_equal(errs.data[0].msg, "unknown severity 'fatal'");
  assert_int_equal(set->packs.len, 1);
  assert_int_equal(set->rules.len, 0);
  gl_rules_free(set);
  /* "demo/." names the folder "demo" (resolved), so the pack name still matches. */
  write_file(fx->demo, "GPU901.md", rule_md);
  snprintf(dir, sizeof(dir), "%s/.", fx->demo);
  set = gl_rules_new();
  errs.len = 0;
  assert_int_equal(gl_rules_add_dir(set, dir, &errs), GL_OK);
  assert_int_equal(set->rules.len, 1);
  snprintf(path, sizeof(path), "%s/./GPU901.md", fx->demo);
  assert_string_equal(set->rules.data[0]->path, path);
  gl_vec_free(&errs);
  gl_rules_free(set);
}

static void test_add_dir_fifo(void **state) {
  dir_fixture *fx = *state;
  char path[128];
  snprintf(path, sizeof(path), "%s/GPU902.md", fx->demo);
  assert_int_equal(mkfifo(path, 0600), 0);
  /* Opened O_NONBLOCK and refused after fstat: the test would hang otherwise. */
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  assert_int_equal(gl_rules_add_dir(set, fx->demo, &errs), GL_EINVAL);
  assert_int_equal(errs.len, 1);
  assert_string_equal(errs.data[0].path, path);
  assert_int_equal(errs.data[0].line, 0);
  assert_int_equal(errs.data[0].col, 0);
  assert_string_equal(errs.data[0].msg, "cannot read rule file: not a regular file");
  assert_int_equal(set->rules.len, 1); /* the readable rule still loads */
  gl_vec_free(&errs);
  gl_rules_free(set);
}

static void test_add_dir_missing_or_empty(void **state) {
  dir_fixture *fx = *state;
  char path[128];
  snprintf(path, sizeof(path), "%s/nope", fx->root);
  const char *dirs[] = {path, fx->empty, fx->models};
  const char *msgs[] = {"cannot open rules directory: no such file or directory",
                        "no rule packs found in rules directory", "no rule packs found in rules directory"};
  for (size_t i = 0; i < 3; i++) {
    gl_ruleset *set = gl_rules_new();
    gl_diag_list errs = {0};
    assert_int_equal(gl_rules_add_dir(set, dirs[i], &errs), GL_EINVAL);
    assert_int_equal(errs.len, 1);
    assert_string_equal(errs.data[0].path, dirs[i]);
    assert_int_equal(errs.data[0].line, 0);
    assert_string_equal(errs.data[0].msg, msgs[i]);
    assert_int_equal(set->packs.len, 0);
    gl_vec_free(&errs);
    gl_rules_free(set);
  }
}

/* Rule files (GPU*.md) in the source tree's rules/<pack>/ folder. */
static size_t count_rule_files(const char *pack) {
  char dir[512];
  snprintf(dir, sizeof(dir), "%s/rules/%s", GL_SOURCE_DIR, pack);
  DIR *d = opendir(dir);
  assert_non_null(d);
  size_t n = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    size_t len = strlen(e->d_name);
    n += strncmp(e->d_name, "GPU", 3) == 0 && len > 3 && strcmp(e->d_name + len - 3, ".md") == 0;
  }
  closedir(d);
  return n;
}

static void test_builtin(void **state) {
  (void)state;
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  int rc = gl_rules_add_builtin(set, &errs);
  print_errors(&errs);
  assert_int_equal(errs.len, 0);
  assert_int_equal(rc, GL_OK);
  if (access(GL_SOURCE_DIR "/rules/legacy/README.md", F_OK) == 0) {
    const gl_pack *legacy = NULL;
    for (size_t i = 0; i < set->packs.len; i++)
      if (strcmp(set->packs.data[i]->name, "legacy") == 0) legacy = set->packs.data[i];
    assert_non_null(legacy);
    assert_string_equal(legacy->prefix, "GPU1");
    assert_string_equal(legacy->readme_path, "rules/legacy/README.md");
    size_t n = 0;
    for (size_t i = 0; i < set->rules.len; i++) {
      const gl_rule *r = set->rules.data[i];
      if (r->pack != legacy) continue;
      n++;
      assert_true(strncmp(r->path, "rules/legacy/GPU1", 17) == 0);
      assert_true(r->short_desc[0] != '\0');
      assert_true(r->examples.len >= 2 && r->use_instead.len >= 2);
      assert_true((r->query != NULL) != (r->check != NULL));
    }
    assert_int_equal(n, count_rule_files("legacy")); /* no rule file silently dropped */
  }
  for (size_t i = 1; i < set->rules.len; i++)
    assert_true(strcmp(set->rules.data[i - 1]->id, set->rules.data[i]->id) < 0);
  gl_vec_free(&errs);
  gl_rules_free(set);
  gl_rules_free(NULL);
}

int main(void) {
  use_test_json_hooks();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid_pack_fields),
      cmocka_unit_test(test_valid_rule_fields),
      cmocka_unit_test(test_rule_default_off),
      cmocka_unit_test(test_valid_rule_texts),
      cmocka_unit_test(test_short_desc_keeps_dots_in_code_and_ends_at_paragraph),
      cmocka_unit_test(test_crlf_rule_file),
      cmocka_unit_test(test_bom_rule_file),
      cmocka_unit_test(test_check_rule_without_pattern),
      cmocka_unit_test(test_bad_json_position),
      cmocka_unit_test(test_missing_field),
      cmocka_unit_test(test_unknown_key),
      cmocka_unit_test(test_unknown_severity_and_types),
      cmocka_unit_test(test_measured_precision),
      cmocka_unit_test(test_measured_precision_errors),
      cmocka_unit_test(test_wrong_id_and_name),
      cmocka_unit_test(test_prefix_mismatch),
      cmocka_unit_test(test_json_must_follow_heading),
      cmocka_unit_test(test_sections),
      cmocka_unit_test(test_example_blocks),
      cmocka_unit_test(test_pattern),
      cmocka_unit_test(test_errors_of_all_files_are_collected),
      cmocka_unit_test(test_duplicate_id_and_name),
      cmocka_unit_test(test_duplicate_across_calls_and_duplicate_pack),
      cmocka_unit_test(test_rule_without_pack_readme),
      cmocka_unit_test(test_pack_errors),
      cmocka_unit_test(test_non_markdown_and_models_ignored),
      cmocka_unit_test(test_select),
      cmocka_unit_test(test_unknown_selector),
      cmocka_unit_test(test_selector_matches_and_find),
      cmocka_unit_test(test_levels),
      cmocka_unit_test_setup_teardown(test_add_dir_of_packs, dir_setup, dir_teardown),
      cmocka_unit_test_setup_teardown(test_add_dir_one_pack, dir_setup, dir_teardown),
      cmocka_unit_test_setup_teardown(test_add_dir_fifo, dir_setup, dir_teardown),
      cmocka_unit_test_setup_teardown(test_add_dir_missing_or_empty, dir_setup, dir_teardown),
      cmocka_unit_test(test_builtin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
