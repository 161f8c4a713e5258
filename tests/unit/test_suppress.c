/* test_suppress.c: the noqa comment grammar (Ruff/flake8 compatible), file-level directives, the
 * noqa line of a finding (first line; end of a multi-line string open there) and applying
 * directives to findings, with the unused-noqa findings of a rule whose check is "unused-noqa". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "match/match.h"
#include "parse/parse.h"
#include "suppress/suppress.h"

static int parse(const char *text, char codes[][16]) {
  return gl_suppress_parse_noqa(text, strlen(text), codes, 8);
}

static int parse_file(const char *text, char codes[][16]) {
  return gl_suppress_parse_file_noqa(text, strlen(text), codes, 8);
}

static void test_bare_noqa(void **state) {
  char codes[8][16];
  assert_int_equal(parse("# noqa", codes), 0);
  assert_int_equal(parse("#noqa", codes), 0);
  assert_int_equal(parse("# NOQA", codes), 0);
  assert_int_equal(parse("#\tNoQa", codes), 0);
  assert_int_equal(parse("# noqa because reasons", codes), 0);
  assert_int_equal(parse("# noqa: ", codes), 0); /* a colon with no code acts as bare (flake8) */
  assert_int_equal(parse("# noqa:gpu201", codes), 0); /* codes are upper case as written */
}

static void test_codes(void **state) {
  char codes[8][16];
  assert_int_equal(parse("# noqa: GPU101", codes), 1);
  assert_string_equal(codes[0], "GPU101");
  assert_int_equal(parse("# noqa:GPU101,GPU102", codes), 2);
  assert_string_equal(codes[1], "GPU102");
  assert_int_equal(parse("# noqa: GPU201,GPU202", codes), 2);
  assert_string_equal(codes[0], "GPU201");
  assert_string_equal(codes[1], "GPU202");
  assert_int_equal(parse("# noqa:GPU201 GPU202", codes), 2);
  assert_string_equal(codes[1], "GPU202");
  assert_int_equal(parse("# NOQA : GPU201", codes), 0); /* space before the colon: bare */
  assert_int_equal(parse("# noqa: GPU101 GPU203, E501 trailing words", codes), 3);
  assert_string_equal(codes[2], "E501");
  assert_int_equal(parse("# noqa: GPU201 Reason in words", codes), 1);
  assert_int_equal(parse("# type: ignore  # noqa: GPU201", codes), 1);
  assert_string_equal(codes[0], "GPU201");
}

static void test_codes_end(void **state) {
  char codes[8][16];
  size_t end = 0;
  const char *t = "# noqa: GPU201, E501  why";
  assert_int_equal(gl_suppress_parse_noqa_at(t, strlen(t), codes, 8, &end), 2);
  assert_int_equal(end, 20); /* just past "E501" */
  t = "# NOQA reason";
  assert_int_equal(gl_suppress_parse_noqa_at(t, strlen(t), codes, 8, &end), 0);
  assert_int_equal(end, 6);
}

static void test_not_noqa(void **state) {
  char codes[8][16];
  assert_int_equal(parse("# a comment", codes), -1);
  assert_int_equal(parse("# noqa123", codes), -1);
  assert_int_equal(parse("# noqa_like", codes), -1);
  assert_int_equal(parse("# this is not noqa", codes), -1);
  assert_int_equal(parse("# expect: GPU101", codes), -1);
  assert_int_equal(parse("# gpulint: noqa", codes), -1); /* file-level, not line-level */
}

static void test_codes_stop_at_non_codes(void **state) {
  char codes[8][16];
  /* lower-case words are not codes: parsing stops at the first non-code */
  assert_int_equal(parse("# noqa: GPU101 gpu102", codes), 1);
  assert_int_equal(parse("# noqa: GPU", codes), 0);
  assert_int_equal(parse("# noqa: GPU201x", codes), 0);
}

static void test_file_level(void **state) {
  char codes[8][16];
  assert_int_equal(parse_file("# gpulint: noqa", codes), 0);
  assert_int_equal(parse_file("#gpulint:noqa", codes), 0);
  assert_int_equal(parse_file("# gpulint: noqa: GPU201", codes), 1);
  assert_string_equal(codes[0], "GPU201");
  assert_int_equal(parse_file("# gpulint: noqa: GPU201, GPU305 legacy code", codes), 2);
  assert_string_equal(codes[1], "GPU305");
  assert_int_equal(parse_file("# gpulint: skip-file", codes), -1);
  assert_int_equal(parse_file("# noqa: GPU201", codes), -1);
  assert_int_equal(parse_file("# gpulint: noqaxyz", codes), -1);
  assert_int_equal(parse_file("# flake8: noqa", codes), -1);
  assert_true(gl_suppress_is_skip_file("# gpulint: skip-file", 20));
  assert_true(gl_suppress_is_skip_file("#gpulint:skip-file  (generated)", 31));
  assert_false(gl_suppress_is_skip_file("# gpulint: skip-files", 21));
  assert_false(gl_suppress_is_skip_file("# gpulint: noqa", 15));
}

/* ---- with a parsed file -------------------------------------------------------------------- */

typedef struct parsed {
  gl_source src;
  gl_parser *parser;
  TSTree *tree;
  gl_model *model;
} parsed;

static void parse_text(parsed *p, const char *text) {
  gl_load_buffer(&p->src, "t.py", text, strlen(text));
  p->parser = gl_parse_new(0, 0);
  gl_diag err = {0};
  p->tree = gl_parse_source(p->parser, &p->src, &err);
  assert_non_null(p->tree);
  p->model = gl_model_build(&p->src, p->tree, NULL);
}

static void parsed_free(parsed *p) {
  gl_model_free(p->model);
  ts_tree_delete(p->tree);
  gl_parse_free(p->parser);
  gl_source_free(&p->src);
}

static void test_noqa_line_strings(void **state) {
  parsed p = {0};
  parse_text(&p,
             "x = f('''a\n"          /* 1: ends inside a string that ends on line 3 */
             "b\n"
             "''', g(\"\"\"c\n"      /* 3: ends inside another string, ends on 4 */
             "\"\"\"))\n"
             "y = g(1,\n"            /* 5: a call continued on 6: not a string */
             "      2)\n"
             "z = 'one line'\n"
             "w = 1 + \\\n"          /* 8: continued on 9 */
             "    2  # c \\\n"       /* 9: the backslash is in a comment */
             "v = '''x''' + \\\n"    /* 10: continued on 11, which opens a string */
             "  '''y\n"
             "z'''\n");
  assert_int_equal(gl_suppress_noqa_line(&p.src, p.tree, 8), 9);
  assert_int_equal(gl_suppress_noqa_line(&p.src, p.tree, 9), 9);
  assert_int_equal(gl_suppress_noqa_line(&p.src, p.tree, 10), 12);
  assert_int_equal(gl_suppress_noqa_line(&p.src, p.tree, 1), 4);
  assert_int_equal(gl_suppress_noqa_line(&p.src, p.tree, 2), 4);
  assert_int_equal(gl_suppress_noqa_line(&p.src, p.tree, 4), 4);
  assert_int_equal(gl_suppress_noqa_line(&p.src, p.tree, 5), 5);
  assert_int_equal(gl_suppress_noqa_line(&p.src, p.tree, 7), 7);
  assert_int_equal(gl_suppress_noqa_line(&p.src, NULL, 1), 1);
  parsed_free(&p);
}

typedef struct fixture {
  gl_pack pack;
  gl_rule r201, r202, r305, unused;
  gl_ruleset set;
} fixture;

static void fixture_init(fixture *fx, bool r305_enabled) {
  memset(fx, 0, sizeof(*fx));
  fx->r201 = (gl_rule){.id = "GPU201", .name = "a", .enabled = true, .level = GL_LEVEL_WARNING};
  fx->r202 = (gl_rule){.id = "GPU202", .name = "b", .enabled = true, .level = GL_LEVEL_WARNING};
  fx->r305 = (gl_rule){.id = "GPU305", .name = "c", .enabled = r305_enabled, .level = GL_LEVEL_WARNING};
  fx->unused = (gl_rule){.id = "GPU001", .name = "unused-noqa", .check = "unused-noqa",
                         .enabled = true, .level = GL_LEVEL_WARNING};
  gl_vec_push(&fx->set.rules, &fx->unused);
  gl_vec_push(&fx->set.rules, &fx->r201);
  gl_vec_push(&fx->set.rules, &fx->r202);
  gl_vec_push(&fx->set.rules, &fx->r305);
}

static void add(gl_file_result *out, const gl_rule *r, uint32_t start_line, uint32_t end_line) {
  gl_finding *f = gl_vec_grow(&out->findings);
  memset(f, 0, sizeof(*f));
  f->rule = r;
  f->region.start_line = start_line;
  f->region.end_line = end_line;
  f->message = strdup("m");
}

static void test_first_line_rule(void **state) {
  parsed p = {0};
  parse_text(&p,
             "y = g(1,  # noqa: GPU201\n"
             "      2)  # noqa: GPU202\n"
             "s = h('''a\n"
             "b''')  # noqa: GPU201\n");
  gl_file_result out = {0};
  fixture fx;
  fixture_init(&fx, true);
  fx.unused.enabled = false;
  add(&out, &fx.r201, 1, 2); /* spans lines 1-2: the noqa on line 1 names it */
  add(&out, &fx.r202, 1, 2); /* the noqa on its last line does not count */
  add(&out, &fx.r201, 3, 4); /* line 3 ends inside a string: the noqa goes on line 4 */
  gl_suppress_run(&p.src, p.tree, p.model, &fx.set, &out);
  assert_int_equal(out.findings.len, 3);
  assert_true(out.findings.data[0].suppressed);
  assert_false(out.findings.data[1].suppressed);
  assert_true(out.findings.data[2].suppressed);
  gl_file_result_free(&out);
  gl_vec_free(&fx.set.rules);
  parsed_free(&p);
}

static void test_file_level_apply(void **state) {
  parsed p = {0};
  parse_text(&p, "# gpulint: noqa: GPU202\nx = 1\n");
  gl_file_result out = {0};
  fixture fx;
  fixture_init(&fx, true);
  add(&out, &fx.r201, 2, 2);
  add(&out, &fx.r202, 2, 2);
  gl_suppress_apply(&p.src, p.model, &out);
  assert_false(out.findings.data[0].suppressed);
  assert_true(out.findings.data[1].suppressed);
  gl_file_result_free(&out);
  parsed_free(&p);

  parse_text(&p, "x = 1\n# gpulint: noqa\n");
  gl_file_result out2 = {0};
  add(&out2, &fx.r201, 1, 1);
  gl_suppress_apply(&p.src, p.model, &out2);
  assert_true(out2.findings.data[0].suppressed);
  gl_file_result_free(&out2);
  gl_vec_free(&fx.set.rules);
  parsed_free(&p);
}

static void test_unused(void **state) {
  parsed p = {0};
  parse_text(&p,
             "a = 1  # noqa: GPU201, GPU202, E501\n"  /* GPU202 unused; E501 another tool's */
             "b = 2  # noqa\n"                         /* bare, suppresses nothing */
             "c = 3  # noqa\n"                         /* bare, used */
             "d = 4  # noqa: GPU305, GPU999\n"         /* GPU305 not enabled; GPU999 unknown */
             "e = 5  # noqa: GPU202, GPU001\n");       /* unused, but GPU001 names itself */
  gl_file_result out = {0};
  fixture fx;
  fixture_init(&fx, false);
  add(&out, &fx.r201, 1, 1);
  add(&out, &fx.r202, 3, 3);
  gl_suppress_run(&p.src, p.tree, p.model, &fx.set, &out);
  assert_int_equal(out.findings.len, 6);
  assert_true(out.findings.data[0].suppressed);
  assert_true(out.findings.data[1].suppressed);
  const gl_finding *u = &out.findings.data[2];
  assert_ptr_equal(u->rule, &fx.unused);
  assert_string_equal(u->message, "unused `noqa` directive (unused: `GPU202`)");
  assert_int_equal(u->region.start_line, 1);
  assert_int_equal(u->region.start_col, 8);
  assert_false(u->suppressed);
  assert_string_equal(out.findings.data[3].message, "unused blanket `noqa` directive");
  assert_int_equal(out.findings.data[3].region.start_line, 2);
  assert_string_equal(out.findings.data[4].message, "unused `noqa` directive (unknown: `GPU999`)");
  assert_int_equal(out.findings.data[4].region.start_line, 4);
  assert_string_equal(out.findings.data[5].message, "unused `noqa` directive (unused: `GPU202`)");
  assert_true(out.findings.data[5].suppressed);
  gl_file_result_free(&out);
  gl_vec_free(&fx.set.rules);
  parsed_free(&p);
}

static void test_unused_off(void **state) {
  parsed p = {0};
  parse_text(&p, "b = 2  # noqa\n");
  gl_file_result out = {0};
  fixture fx;
  fixture_init(&fx, true);
  fx.unused.enabled = false;
  gl_suppress_run(&p.src, p.tree, p.model, &fx.set, &out);
  assert_int_equal(out.findings.len, 0);
  gl_file_result_free(&out);
  gl_vec_free(&fx.set.rules);
  parsed_free(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bare_noqa),
      cmocka_unit_test(test_codes),
      cmocka_unit_test(test_codes_end),
      cmocka_unit_test(test_not_noqa),
      cmocka_unit_test(test_codes_stop_at_non_codes),
      cmocka_unit_test(test_file_level),
      cmocka_unit_test(test_noqa_line_strings),
      cmocka_unit_test(test_first_line_rule),
      cmocka_unit_test(test_file_level_apply),
      cmocka_unit_test(test_unused),
      cmocka_unit_test(test_unused_off),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
