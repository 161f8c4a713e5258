/* test_match.c: unit tests for the match stage (match.h, checks/checks.h).
 * Owns: checks of what match.h promises, over real parses (parse.c) and models (model.c): finding
 *       regions (line, UTF-16 and code-point columns, exclusive end), each predicate's true and
 *       false cases, every load error with its exact rule-file position, errors of several rules
 *       reported together, the match limit and regex limit notifications, dedupe, disabled rules,
 *       message placeholders, the check table and gl_check_report.
 * Not: reading rule files (test_rules.c), suppressions (test_suppress.c).
 * Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "checks/checks.h"
#include "match/match.h"
#include "model/model.h"
#include "parse/parse.h"

#include "match_fixture.h"

/* ---- rules built by hand ------------------------------------------------------------------- */

/* ---- linting one buffer -------------------------------------------------------------------- */

typedef struct linted {
  gl_file_result out;
  size_t nfindings;
} linted;

static int cmp_finding(const void *pa, const void *pb) {
  const gl_finding *a = pa, *b = pb;
  if (a->region.start_byte != b->region.start_byte)
    return a->region.start_byte < b->region.start_byte ? -1 : 1;
  if (a->region.end_byte != b->region.end_byte)
    return a->region.end_byte < b->region.end_byte ? -1 : 1;
  return strcmp(a->rule->id, b->rule->id);
}

/* lint_buffer, with the findings sorted by start. */
static void lint_with(const gl_matcher *m, uint32_t match_limit, const char *code,
                      gl_file_result *out) {
  lint_buffer(m, match_limit, code, out);
  if (out->findings.len)
    qsort(out->findings.data, out->findings.len, sizeof(gl_finding), cmp_finding);
}

/* Runs one enabled rule with query q over code; returns the number of findings and, through
 * lines (when not NULL), their start lines in order. */
static size_t count_lines(const char *q, const char *code, uint32_t *lines, size_t cap) {
  spec s = {"GPU900", q, 0, NULL, 0, true, NULL};
  gl_ruleset *set = set_new(&s, 1);
  gl_matcher *m = matcher_ok(set);
  gl_file_result out;
  lint_with(m, 0, code, &out);
  size_t n = out.findings.len;
  for (size_t i = 0; lines && i < n && i < cap; i++)
    lines[i] = out.findings.data[i].region.start_line;
  gl_file_result_free(&out);
  gl_match_free(m);
  set_free(set);
  return n;
}

static size_t count(const char *q, const char *code) {
  return count_lines(q, code, NULL, 0);
}

static void assert_finding(const gl_finding *f, const char *id, uint32_t line, uint32_t col,
                           uint32_t end_line, uint32_t end_col, const char *message) {
  assert_string_equal(f->rule->id, id);
  assert_int_equal(f->region.start_line, line);
  assert_int_equal(f->region.start_col, col);
  assert_int_equal(f->region.end_line, end_line);
  assert_int_equal(f->region.end_col, end_col);
  assert_string_equal(f->message, message);
  assert_false(f->suppressed);
  assert_null(f->snippet);
  assert_null(f->line_hash);
}

/* ---- findings at exact positions ----------------------------------------------------------- */

static const char main_code[] =
    "import cuspatial\n"                 /* 1 */
    "import cupy as cp\n"                /* 2 */
    "from cuspatial import core\n"       /* 3 */
    "x = cp.asnumpy(y)\n"                /* 4 */
    "for i in range(3):\n"               /* 5 */
    "    d = \"cuda:0\"\n"               /* 6 */
    "    z = cp.asnumpy(d)\n"            /* 7 */
    "s = \"cuda:1\"\n"                   /* 8 */
    "import cuspatial_utils\n"           /* 9 */
    "e = \"\xF0\x9F\x98\x80\"; w = cp.asnumpy(e)\n"; /* 10: an emoji before the call */

static const spec main_specs[] = {
    {"GPU901", "((dotted_name) @hit (#resolves-match? @hit \"^cuspatial(\\\\..*)?$\"))", 30,
     "`{hit}` is archived", GL_LEVEL_ERROR, true, NULL},
    {"GPU902",
     "((call function: (attribute) @fn) @hit\n (#resolves-to? @fn \"cupy.asnumpy\" "
     "\"torch.Tensor.cpu\"))",
     30, "{fn} -> {fn.qualified}", GL_LEVEL_WARNING, true, NULL},
    {"GPU903", "((string) @hit (#match? @hit \"cuda:\\\\d\") (#in-loop? @hit))", 30,
     "device string {hit} in a loop", GL_LEVEL_NOTE, true, NULL},
};

static void test_findings_at_exact_positions(void **state) {
  gl_ruleset *set = set_new(main_specs, 3);
  gl_matcher *m = matcher_ok(set);
  gl_file_result out;
  lint_with(m, 0, main_code, &out);
  assert_int_equal(out.findings.len, 7);
  assert_int_equal(out.notes.len, 0);
  const gl_finding *f = out.findings.data;
  assert_finding(&f[0], "GPU901", 1, 8, 1, 17, "`cuspatial` is archived");
  assert_int_equal(f[0].level, GL_LEVEL_ERROR);
  assert_finding(&f[1], "GPU901", 3, 6, 3, 15, "`cuspatial` is archived");
  assert_finding(&f[2], "GPU901", 3, 23, 3, 27, "`core` is archived");
  assert_finding(&f[3], "GPU902", 4, 5, 4, 18, "cp.asnumpy -> cupy.asnumpy");
  assert_int_equal(f[3].level, GL_LEVEL_WARNING);
  assert_finding(&f[4], "GPU903", 6, 9, 6, 17, "device string \"cuda:0\" in a loop");
  assert_int_equal(f[4].level, GL_LEVEL_NOTE);
  assert_finding(&f[5], "GPU902", 7, 9, 7, 22, "cp.asnumpy -> cupy.asnumpy");
  /* line 10: the emoji is 4 bytes, 2 UTF-16 units, 1 code point */
  assert_finding(&f[6], "GPU902", 10, 15, 10, 28, "cp.asnumpy -> cupy.asnumpy");
  assert_int_equal(f[6].region.start_col_cp, 14);
  assert_int_equal(f[6].region.end_col_cp, 27);
  size_t line10 = strlen(main_code) - strlen("e = \"\xF0\x9F\x98\x80\"; w = cp.asnumpy(e)\n");
  assert_int_equal(f[6].region.start_byte, line10 + 16);
  assert_int_equal(f[6].region.end_byte, line10 + 29);
  gl_file_result_free(&out);
  gl_match_free(m);
  set_free(set);
}

/* One ctx reused across files starts each file afresh (dedupe set, notes). */
static void test_ctx_reused_across_files(void **state) {
  gl_ruleset *set = set_new(main_specs, 3);
  gl_matcher *m = matcher_ok(set);
  gl_match_ctx *ctx = gl_match_ctx_new(m, 0, 0);
  for (int round = 0; round < 3; round++) {
    gl_source src;
    gl_load_buffer(&src, "t.py", main_code, strlen(main_code));
    gl_parser *p = gl_parse_new(0, 0);
    gl_diag err = {0};
    TSTree *tree = gl_parse_source(p, &src, &err);
    gl_model *model = gl_model_build(&src, tree, NULL);
    gl_file_result out = {0};
    gl_match_run(ctx, &src, tree, model, &out);
    assert_int_equal(out.findings.len, 7);
    gl_file_result_free(&out);
    gl_model_free(model);
    ts_tree_delete(tree);
    gl_parse_free(p);
    gl_source_free(&src);
  }
  gl_match_ctx_free(ctx);
  gl_match_free(m);
  set_free(set);
}

/* ---- predicates: true and false cases ------------------------------------------------------ */

static void test_eq_and_not_eq_with_string(void **state) {
  uint32_t lines[4];
  const char *code = "foo\nbar\nfoobar\n";
  assert_int_equal(count_lines("((identifier) @hit (#eq? @hit \"foo\"))", code, lines, 4), 1);
  assert_int_equal(lines[0], 1);
  assert_int_equal(count_lines("((identifier) @hit (#not-eq? @hit \"foo\"))", code, lines, 4), 2);
  assert_int_equal(lines[0], 2);
  assert_int_equal(lines[1], 3);
  assert_int_equal(count("((identifier) @hit (#eq? @hit \"fo\"))", code), 0);
}

static void test_eq_and_not_eq_with_capture(void **state) {
  uint32_t lines[4];
  const char *q_eq =
      "((assignment left: (identifier) @l right: (identifier) @r) @hit (#eq? @l @r))";
  const char *q_ne =
      "((assignment left: (identifier) @l right: (identifier) @r) @hit (#not-eq? @l @r))";
  const char *code = "a = a\nb = c\nd = 1\n";
  assert_int_equal(count_lines(q_eq, code, lines, 4), 1);
  assert_int_equal(lines[0], 1);
  assert_int_equal(count_lines(q_ne, code, lines, 4), 1);
  assert_int_equal(lines[0], 2);
}

static void test_quantified_capture_must_hold_for_each_node(void **state) {
  /* (expression_statement)+ collects every statement of the block in one match */
  const char *q = "((block (expression_statement)+ @a) @hit (#eq? @a \"x\"))";
  const char *qn = "((block (expression_statement)+ @a) @hit (#not-eq? @a \"x\"))";
  assert_int_equal(count(q, "if t:\n    x\n    x\n"), 1);
  assert_int_equal(count(q, "if t:\n    x\n    y\n"), 0);
  assert_int_equal(count(qn, "if t:\n    y\n    z\n"), 1);
  assert_int_equal(count(qn, "if t:\n    y\n    x\n"), 0);
  /* a capture that captured no node */
  const char *q0 = "((call arguments: (argument_list (identifier)* @a)) @hit (#eq? @a \"x\"))";
  const char *qn0 = "((call arguments: (argument_list (identifier)* @a)) @hit (#not-eq? @a \"x\"))";
  assert_int_equal(count(q0, "f()\n"), 0);  /* positive over no node: false */
  assert_int_equal(count(qn0, "f()\n"), 1); /* negative over no node: true */
}

static void test_match_and_not_match(void **state) {
  uint32_t lines[4];
  const char *code = "cupy\nnumpy\nxcupy\n";
  assert_int_equal(count_lines("((identifier) @hit (#match? @hit \"^cu\"))", code, lines, 4), 1);
  assert_int_equal(lines[0], 1);
  assert_int_equal(count_lines("((identifier) @hit (#not-match? @hit \"^cu\"))", code, lines, 4),
                   2);
  assert_int_equal(lines[0], 2);
  assert_int_equal(lines[1], 3);
  /* a search, not a full match; escapes reach PCRE2 decoded once */
  assert_int_equal(count("((identifier) @hit (#match? @hit \"up\"))", code), 2);
  assert_int_equal(count("((string) @hit (#match? @hit \"a\\\\.b\"))", "'a.b'\n'axb'\n"), 1);
  /* the literal after ^ is checked before the regex runs: these must still match as PCRE2 does */
  const char *ids = "abc\nxab\nac\nxc\naa\nbc\nab_c\n";
  assert_int_equal(count("((identifier) @hit (#match? @hit \"^ab\"))", ids), 2);      /* abc ab_c */
  assert_int_equal(count("((identifier) @hit (#match? @hit \"^ab|c\"))", ids), 5); /* + ac xc bc */
  assert_int_equal(count("((identifier) @hit (#match? @hit \"^ab?c\"))", ids), 2);    /* abc ac */
  assert_int_equal(count("((identifier) @hit (#match? @hit \"^a{2}\"))", ids), 1);    /* aa */
  assert_int_equal(count("((identifier) @hit (#match? @hit \"^[ab]c\"))", ids), 2);   /* ac bc */
  assert_int_equal(count("((identifier) @hit (#not-match? @hit \"^ab\"))", ids), 5);
  assert_int_equal(count("((attribute) @hit (#match? @hit \"^a\\\\.b$\"))", "a.b\nab.b\n"), 1);
}

static void test_any_of_and_not_any_of(void **state) {
  uint32_t lines[4];
  const char *code = "a\nb\nc\nab\n";
  assert_int_equal(count_lines("((identifier) @hit (#any-of? @hit \"a\" \"b\"))", code, lines, 4),
                   2);
  assert_int_equal(lines[0], 1);
  assert_int_equal(lines[1], 2);
  assert_int_equal(
      count_lines("((identifier) @hit (#not-any-of? @hit \"a\" \"b\"))", code, lines, 4), 2);
  assert_int_equal(lines[0], 3);
  assert_int_equal(lines[1], 4);
  /* a bare symbol is a string too */
  assert_int_equal(count("((identifier) @hit (#any-of? @hit c))", code), 1);
}

static void test_resolves_to_several_names(void **state) {
  uint32_t lines[4];
  const char *q = "((attribute) @hit (#resolves-to? @hit \"numpy.array\" \"cupy.array\"))";
  const char *code =
      "import numpy as np\n"
      "import cupy\n"
      "np.array\n"          /* 3: numpy.array */
      "cupy.array\n"        /* 4: cupy.array */
      "np.zeros\n"          /* 5: numpy.zeros */
      "def f(np):\n"
      "    np.array\n";     /* 7: a parameter shadows the import */
  assert_int_equal(count_lines(q, code, lines, 4), 2);
  assert_int_equal(lines[0], 3);
  assert_int_equal(lines[1], 4);
  assert_int_equal(count(q, "array = 1\nx.array\n"), 0);
}

static void test_resolves_match(void **state) {
  const char *q = "((dotted_name) @hit (#resolves-match? @hit \"^warp\\\\.sim(\\\\..*)?$\"))";
  assert_int_equal(count(q, "import warp.sim\n"), 1);
  assert_int_equal(count(q, "import warp.sim.model as m\n"), 1);
  assert_int_equal(count(q, "import warp.optim\n"), 0);
  assert_int_equal(count(q, "import warp.simple\n"), 0);
}

static void test_in_loop(void **state) {
  uint32_t lines[4];
  const char *q = "((call) @hit (#in-loop? @hit))";
  const char *code =
      "f()\n"
      "for x in y:\n"
      "    g()\n"                /* 3 */
      "while t:\n"
      "    def k():\n"
      "        h()\n"            /* 6: a def in a loop starts afresh */
      "[m() for v in w]\n";     /* 7: the comprehension body */
  assert_int_equal(count_lines(q, code, lines, 4), 2);
  assert_int_equal(lines[0], 3);
  assert_int_equal(lines[1], 7);
  assert_int_equal(count(q, "f()\ng()\n"), 0);
}

/* ---- load errors at exact rule-file positions ------------------------------------------------ */

/* Loads one enabled rule GPU900 (rules/t/GPU900.md, query at line 20); returns the number of
 * errors and the first one formatted into buf. */
static size_t load_error(const char *q, const char *message, char *buf, size_t cap) {
  spec s = {"GPU900", q, 20, message, 0, true, NULL};
  return load_errors(&s, 1, buf, cap);
}

#define ASSERT_LOAD_ERROR(q, want)                                   \
  do {                                                               \
    char buf_[1024];                                                 \
    assert_int_equal(load_error((q), "plain", buf_, sizeof(buf_)), 1); \
    assert_string_equal(buf_, (want));                               \
  } while (0)

static void test_error_syntax(void **state) {
  ASSERT_LOAD_ERROR("((call) @hit",
                    "rules/t/GPU900.md:20:13: invalid query syntax at end of query");
  ASSERT_LOAD_ERROR("(call) @hit)", "rules/t/GPU900.md:20:12: invalid query syntax near ')'");
  /* at the end: just past the last token, not on the closing fence's line */
  ASSERT_LOAD_ERROR("((call) @hit\n (#eq? @hit \"x\")\n",
                    "rules/t/GPU900.md:21:17: invalid query syntax at end of query");
  ASSERT_LOAD_ERROR("((call) @hit\n (#eq? @hit \"open))\n",
                    "rules/t/GPU900.md:21:13: invalid query syntax near '\"open))'");
}

static void test_error_unknown_node_type(void **state) {
  ASSERT_LOAD_ERROR("((call) @hit)\n((foo) @hit)",
                    "rules/t/GPU900.md:21:3: unknown node type 'foo'");
}

static void test_error_unknown_field(void **state) {
  ASSERT_LOAD_ERROR("(call bar: (_)) @hit", "rules/t/GPU900.md:20:7: unknown field 'bar'");
  ASSERT_LOAD_ERROR("(call !funktion) @hit", "rules/t/GPU900.md:20:8: unknown field 'funktion'");
}

static void test_error_invalid_capture(void **state) {
  ASSERT_LOAD_ERROR("((call) @hit (#eq? @nope \"x\"))",
                    "rules/t/GPU900.md:20:21: invalid capture '@nope'");
}

static void test_error_impossible_structure(void **state) {
  ASSERT_LOAD_ERROR("(import_statement (call)) @hit",
                    "rules/t/GPU900.md:20:19: impossible pattern structure '(call)'");
}

static void test_error_unknown_predicate(void **state) {
  ASSERT_LOAD_ERROR("((call) @hit\n  (#foo? @hit))",
                    "rules/t/GPU900.md:21:4: unknown predicate '#foo?'");
  /* a "#foo?" inside a string earlier in the pattern does not fool the position */
  ASSERT_LOAD_ERROR("((string) @hit (#eq? @hit \"(#set! x)\") (#set! @hit))",
                    "rules/t/GPU900.md:20:41: unknown predicate '#set!'");
}

static void test_error_predicate_outside_pattern(void **state) {
  const char *want =
      "rules/t/GPU900.md:21:1: predicate outside a pattern: wrap the pattern and its "
      "predicates in one pair of parentheses";
  ASSERT_LOAD_ERROR("((call) @hit)\n(#in-loop? @hit)", want);
  /* on the pattern's own line, after it */
  ASSERT_LOAD_ERROR(
      "(call) @hit (#in-loop? @hit)",
      "rules/t/GPU900.md:20:13: predicate outside a pattern: wrap the pattern and its "
      "predicates in one pair of parentheses");
}

static void test_error_missing_hit(void **state) {
  ASSERT_LOAD_ERROR("((call) @x)", "rules/t/GPU900.md:20:1: pattern has no @hit capture");
  /* @hit exists in the query (first pattern) but not in the second */
  ASSERT_LOAD_ERROR("((call) @hit)\n  ((identifier) @x)",
                    "rules/t/GPU900.md:21:3: pattern has no @hit capture");
}

static void test_error_bad_regex_with_pcre2_offset(void **state) {
  /* the literal's quote is at column 34; PCRE2 reports offset 1 (the ')') */
  ASSERT_LOAD_ERROR("((identifier) @hit (#match? @hit \"a)b\"))",
                    "rules/t/GPU900.md:20:36: invalid regex: unmatched closing parenthesis");
  /* escapes: the literal's bytes \\d(x decode to \d(x; PCRE2's offset 4 (the end) is column 40 */
  ASSERT_LOAD_ERROR("((identifier) @hit (#match? @hit \"\\\\d(x\"))",
                    "rules/t/GPU900.md:20:40: invalid regex: missing closing parenthesis");
  ASSERT_LOAD_ERROR(
      "((dotted_name) @hit\n (#resolves-match? @hit \"[z-a]\"))",
      "rules/t/GPU900.md:21:29: invalid regex: range out of order in character class");
}

static void test_error_predicate_arity(void **state) {
  ASSERT_LOAD_ERROR(
      "((call) @hit (#eq? @hit))",
      "rules/t/GPU900.md:20:15: predicate '#eq?' expects a capture, then a string or a capture");
  ASSERT_LOAD_ERROR(
      "((call) @hit (#match? @hit @hit))",
      "rules/t/GPU900.md:20:15: predicate '#match?' expects a capture, then one regex string");
  ASSERT_LOAD_ERROR(
      "((call) @hit (#any-of? \"a\" @hit))",
      "rules/t/GPU900.md:20:15: predicate '#any-of?' expects a capture, then one or more strings");
  ASSERT_LOAD_ERROR("((call) @hit (#resolves-to? @hit))",
                    "rules/t/GPU900.md:20:15: predicate '#resolves-to?' expects a capture, then "
                    "one or more strings");
  ASSERT_LOAD_ERROR("((call) @hit (#in-loop? @hit \"x\"))",
                    "rules/t/GPU900.md:20:15: predicate '#in-loop?' expects exactly one capture");
}

static void test_error_placeholder_names_no_capture(void **state) {
  char buf[1024];
  assert_int_equal(
      load_error("((call function: (_) @fn) @hit)", "`{nope}` in {fn}", buf, sizeof(buf)), 1);
  assert_string_equal(buf, "rules/t/GPU900.md:1:1: message placeholder '{nope}' names no capture");
  assert_int_equal(load_error("((call) @hit)", "{fn.qualified}", buf, sizeof(buf)), 1);
  assert_string_equal(
      buf, "rules/t/GPU900.md:1:1: message placeholder '{fn.qualified}' names no capture");
  /* braces that are no placeholder are text */
  assert_int_equal(
      load_error("((call) @hit)", "set {} and {not one} and {hit.qualified}", buf, sizeof(buf)), 0);
}

static void test_error_empty_query(void **state) {
  ASSERT_LOAD_ERROR("; only a comment\n", "rules/t/GPU900.md:20:1: query has no pattern");
}

static void test_error_unknown_check(void **state) {
  spec s = {"GPU300", NULL, 0, "timer", 0, true, "no-such-check"};
  gl_ruleset *set = set_new(&s, 1);
  gl_diag_list errs = {0};
  assert_null(gl_match_new(set, gl_parse_language(), &errs));
  assert_int_equal(errs.len, 1);
  char buf[512];
  gl_diag_format(&errs.data[0], buf, sizeof(buf));
  assert_string_equal(buf, "rules/t/GPU300.md:1:1: unknown check 'no-such-check'");
  gl_vec_free(&errs);
  set_free(set);
}

/* Errors of several rules come back together, each at its own file; rules that compile alone are
 * still checked for predicate errors. */
static void test_errors_in_several_rules(void **state) {
  const spec specs[] = {
      {"GPU900", "((call) @hit\n (#bar? @hit))", 9, NULL, 0, true, NULL},
      {"GPU901", "((foo) @hit)", 5, NULL, 0, true, NULL},
      {"GPU902", "((call) @hit)", 7, NULL, 0, true, NULL},
      {"GPU903", "((call) @hit", 20, NULL, 0, true, NULL},
  };
  gl_ruleset *set = set_new(specs, 4);
  gl_diag_list errs = {0};
  assert_null(gl_match_new(set, gl_parse_language(), &errs));
  assert_int_equal(errs.len, 3);
  char buf[512];
  /* found in three passes (lexical, combined, predicates) but reported in rule order */
  gl_diag_format(&errs.data[0], buf, sizeof(buf));
  assert_string_equal(buf, "rules/t/GPU900.md:10:3: unknown predicate '#bar?'");
  gl_diag_format(&errs.data[1], buf, sizeof(buf));
  assert_string_equal(buf, "rules/t/GPU901.md:5:3: unknown node type 'foo'");
  gl_diag_format(&errs.data[2], buf, sizeof(buf));
  assert_string_equal(buf, "rules/t/GPU903.md:20:13: invalid query syntax at end of query");
  gl_vec_free(&errs);
  set_free(set);
}

/* An unclosed block would merge with the next one into a valid pattern: both are reported. */
static void test_unbalanced_blocks_do_not_merge(void **state) {
  const spec specs[] = {
      {"GPU900", "((call) @hit", 20, NULL, 0, true, NULL},
      {"GPU901", "(identifier) @hit)", 5, NULL, 0, true, NULL},
  };
  gl_ruleset *set = set_new(specs, 2);
  gl_diag_list errs = {0};
  assert_null(gl_match_new(set, gl_parse_language(), &errs));
  assert_int_equal(errs.len, 2);
  char buf[512];
  gl_diag_format(&errs.data[0], buf, sizeof(buf));
  assert_string_equal(buf, "rules/t/GPU900.md:20:13: invalid query syntax at end of query");
  gl_diag_format(&errs.data[1], buf, sizeof(buf));
  assert_string_equal(buf, "rules/t/GPU901.md:5:18: invalid query syntax near ')'");
  gl_vec_free(&errs);
  set_free(set);
}

/* Capture names are shared in the combined query: a predicate on another rule's capture fails. */
static void test_predicate_capture_of_other_pattern(void **state) {
  const spec specs[] = {
      {"GPU900", "((call) @x @hit)", 20, NULL, 0, true, NULL},
      {"GPU901", "((identifier) @hit (#eq? @x \"y\"))", 5, NULL, 0, true, NULL},
  };
  gl_ruleset *set = set_new(specs, 2);
  gl_diag_list errs = {0};
  assert_null(gl_match_new(set, gl_parse_language(), &errs));
  assert_int_equal(errs.len, 1);
  char buf[512];
  gl_diag_format(&errs.data[0], buf, sizeof(buf));
  assert_string_equal(
      buf, "rules/t/GPU901.md:5:26: invalid capture '@x': its pattern does not capture it");
  gl_vec_free(&errs);
  set_free(set);
}

/* ---- limits ---------------------------------------------------------------------------------- */

static void test_match_limit_exceeded_is_noted(void **state) {
  spec s = {"GPU900", "((call arguments: (argument_list (call))) @hit)", 0, NULL, 0, true, NULL};
  gl_ruleset *set = set_new(&s, 1);
  gl_matcher *m = matcher_ok(set);
  gl_file_result out;
  lint_with(m, 1, "f(g(h(x)))\n", &out);
  assert_int_equal(out.notes.len, 1);
  assert_int_equal(out.notes.data[0].kind, GL_NOTE_PARTIAL);
  assert_string_equal(out.notes.data[0].message,
                      "query match limit exceeded; some findings may be missing");
  assert_true(out.findings.len < 2);
  gl_file_result_free(&out);
  /* the default limit (0 -> 4096) finds both and notes nothing */
  lint_with(m, 0, "f(g(h(x)))\n", &out);
  assert_int_equal(out.notes.len, 0);
  assert_int_equal(out.findings.len, 2);
  assert_int_equal(out.findings.data[0].region.start_col, 1);
  assert_int_equal(out.findings.data[1].region.start_col, 3);
  gl_file_result_free(&out);
  gl_match_free(m);
  set_free(set);
}

static void test_regex_limit_is_noted_once_per_file(void **state) {
  char code[256];
  snprintf(code, sizeof(code), "%s\n%s\nab\n", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab",
           "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac");
  spec s = {"GPU900", "((identifier) @hit (#match? @hit \"^(a+)+$\"))", 0, NULL, 0, true, NULL};
  gl_ruleset *set = set_new(&s, 1);
  gl_matcher *m = matcher_ok(set);
  gl_file_result out;
  lint_with(m, 0, code, &out);
  assert_int_equal(out.findings.len, 0);  /* a limit hit counts as no match */
  assert_int_equal(out.notes.len, 1);
  assert_int_equal(out.notes.data[0].kind, GL_NOTE_PARTIAL);
  assert_string_equal(out.notes.data[0].message,
                      "regex limit hit in rule GPU900; the rule is off for the rest of the file");
  gl_file_result_free(&out);
  /* After the hit the rule is off in that file: `aaaa` would match, and is not tried. */
  snprintf(code, sizeof(code), "%s\naaaa\n", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab");
  lint_with(m, 0, code, &out);
  assert_int_equal(out.findings.len, 0);
  assert_int_equal(out.notes.len, 1);
  gl_file_result_free(&out);
  lint_with(m, 0, "aaaa\nab\n", &out);   /* the same regex within limits */
  assert_int_equal(out.findings.len, 1);
  assert_int_equal(out.notes.len, 0);
  gl_file_result_free(&out);
  gl_match_free(m);
  set_free(set);
}

/* ---- dedupe, enabled, placeholders ---------------------------------------------------------- */

static void test_dedupe_within_rule_not_across_rules(void **state) {
  const spec specs[] = {
      {"GPU900",
       "((identifier) @hit (#eq? @hit \"x\"))\n((identifier) @hit (#match? @hit \"^x$\"))", 0, NULL,
       0, true, NULL},
      {"GPU901", "((identifier) @hit (#eq? @hit \"x\"))", 0, NULL, 0, true, NULL},
  };
  gl_ruleset *set = set_new(specs, 2);
  gl_matcher *m = matcher_ok(set);
  gl_file_result out;
  lint_with(m, 0, "x\ny\n", &out);
  assert_int_equal(out.findings.len, 2);
  assert_string_equal(out.findings.data[0].rule->id, "GPU900");
  assert_string_equal(out.findings.data[1].rule->id, "GPU901");
  gl_file_result_free(&out);
  gl_match_free(m);
  set_free(set);
}

static void test_disabled_rule_yields_nothing(void **state) {
  const spec specs[] = {
      {"GPU900", "((identifier) @hit)", 0, NULL, 0, false, NULL},
      {"GPU901", "((integer) @hit)", 0, NULL, 0, true, NULL},
      {"GPU902", "((broken @hit", 0, NULL, 0, false, NULL},   /* disabled: not compiled */
  };
  gl_ruleset *set = set_new(specs, 3);
  gl_matcher *m = matcher_ok(set);
  gl_file_result out;
  lint_with(m, 0, "x = 1\n", &out);
  assert_int_equal(out.findings.len, 1);
  assert_string_equal(out.findings.data[0].rule->id, "GPU901");
  gl_file_result_free(&out);
  /* disabled after the matcher was built: still nothing */
  set->rules.data[1]->enabled = false;
  lint_with(m, 0, "x = 1\n", &out);
  assert_int_equal(out.findings.len, 0);
  gl_file_result_free(&out);
  gl_match_free(m);
  set_free(set);
}

static void test_no_rules_at_all(void **state) {
  gl_ruleset *set = set_new(NULL, 0);
  gl_matcher *m = matcher_ok(set);
  gl_file_result out;
  lint_with(m, 0, "x = 1\n", &out);
  assert_int_equal(out.findings.len, 0);
  assert_int_equal(out.notes.len, 0);
  gl_file_result_free(&out);
  gl_match_free(m);
  set_free(set);
}

static void test_message_placeholders(void **state) {
  spec s = {"GPU900", "((call function: (_) @fn) @hit)",
            0,        "[{hit}] [{fn}] [{fn.qualified}] {not one} {}",
            0,        true,
            NULL};
  gl_ruleset *set = set_new(&s, 1);
  gl_matcher *m = matcher_ok(set);
  gl_file_result out;
  lint_with(m, 0, "import cupy as cp\ncp.asnumpy(\n    a)\nfoo(b)\n", &out);
  assert_int_equal(out.findings.len, 2);
  assert_string_equal(out.findings.data[0].message,
                      "[cp.asnumpy(\xE2\x80\xA6] [cp.asnumpy] [cupy.asnumpy] {not one} {}");
  assert_int_equal(out.findings.data[0].region.end_line, 3);
  assert_int_equal(out.findings.data[0].region.end_col, 7);
  assert_string_equal(out.findings.data[1].message, "[foo(b)] [foo] [foo] {not one} {}");
  gl_file_result_free(&out);
  gl_match_free(m);
  set_free(set);
}

static void test_placeholder_text_cut_at_80_characters(void **state) {
  char code[1024], want[1024];
  spec s = {"GPU900", "((identifier) @hit)", 0, "<{hit}>", 0, true, NULL};
  gl_ruleset *set = set_new(&s, 1);
  gl_matcher *m = matcher_ok(set);
  gl_file_result out;
  /* 80 ASCII characters: kept whole */
  memset(code, 'a', 80);
  strcpy(code + 80, "\n");
  lint_with(m, 0, code, &out);
  snprintf(want, sizeof(want), "<%.80s>", code);
  assert_string_equal(out.findings.data[0].message, want);
  gl_file_result_free(&out);
  /* 81 two-byte characters (é): 80 kept, then the ellipsis */
  code[0] = '\0';
  for (int i = 0; i < 81; i++) strcat(code, "\xC3\xA9");
  strcat(code, "\n");
  lint_with(m, 0, code, &out);
  snprintf(want, sizeof(want), "<%.160s\xE2\x80\xA6>", code);
  assert_string_equal(out.findings.data[0].message, want);
  assert_int_equal(out.findings.data[0].region.end_col, 82);
  gl_file_result_free(&out);
  gl_match_free(m);
  set_free(set);
}

/* ---- checks ---------------------------------------------------------------------------------- */

static void test_check_table(void **state) {
  assert_true(gl_check_count() >= 2);
  const gl_check *c = gl_check_find("unsynchronized-timer");
  assert_non_null(c);
  assert_string_equal(c->name, "unsynchronized-timer");
  assert_non_null(c->fn);
  c = gl_check_find("cpu-time-timer");
  assert_non_null(c);
  assert_string_equal(c->name, "cpu-time-timer");
  assert_null(gl_check_find("unsynchronized-timers"));
  assert_null(gl_check_find("Unsynchronized-timer"));
  assert_null(gl_check_find(""));
  assert_null(gl_check_find(NULL));
}

static void test_check_report(void **state) {
  spec s = {"GPU300", NULL, 0, "timer not synchronized", GL_LEVEL_ERROR, true, NULL};
  gl_rule *r = rule_new(&s);
  const char *code = "t0 = 1\nx = \"\xC3\xA9\" + f(t0)\n";
  gl_source src;
  gl_load_buffer(&src, "t.py", code, strlen(code));
  gl_parser *p = gl_parse_new(0, 0);
  gl_diag err = {0};
  TSTree *tree = gl_parse_source(p, &src, &err);
  TSNode stmt = ts_node_named_child(ts_tree_root_node(tree), 1);
  TSNode assign = ts_node_named_child(stmt, 0);
  TSNode call = ts_node_named_child(ts_node_child_by_field_name(assign, "right", 5), 1);
  assert_string_equal(ts_node_type(call), "call");
  gl_file_result out = {0};
  gl_check_ctx ctx = {r, &src, tree, NULL, &out};
  gl_check_report(&ctx, call, NULL);
  gl_check_report(&ctx, call, "custom");
  assert_int_equal(out.findings.len, 2);
  assert_finding(&out.findings.data[0], "GPU300", 2, 11, 2, 16, "timer not synchronized");
  assert_int_equal(out.findings.data[0].level, GL_LEVEL_ERROR);
  assert_int_equal(out.findings.data[0].region.start_byte, 18);
  assert_int_equal(out.findings.data[0].region.end_byte, 23);
  assert_string_equal(out.findings.data[1].message, "custom");
  assert_int_equal(out.findings.data[0].nrelated, 0);
  /* related locations: null nodes and NULL messages skipped, at most two kept */
  TSNode t0 = ts_node_named_child(ts_tree_root_node(tree), 0);
  TSNode rel[4] = {t0, (TSNode){0}, call, t0};
  const char *msgs[4] = {"timer started here", "skipped", "last GPU work", "dropped"};
  gl_check_report_related(&ctx, call, "related", rel, msgs, 4);
  assert_int_equal(out.findings.len, 3);
  const gl_finding *f = &out.findings.data[2];
  assert_string_equal(f->message, "related");
  assert_int_equal(f->nrelated, 2);
  assert_string_equal(f->related_msg[0], "timer started here");
  assert_int_equal(f->related[0].start_line, 1);
  assert_int_equal(f->related[0].start_col, 1);
  assert_int_equal(f->related[0].end_col, 7);
  assert_string_equal(f->related_msg[1], "last GPU work");
  assert_int_equal(f->related[1].start_line, 2);
  assert_int_equal(f->related[1].start_col, 11);
  assert_int_equal(f->related[1].end_col, 16);
  gl_check_report_related(&ctx, call, NULL, rel, msgs, 0);
  assert_int_equal(out.findings.data[3].nrelated, 0);
  assert_string_equal(out.findings.data[3].message, "timer not synchronized");
  gl_file_result_free(&out);
  ts_tree_delete(tree);
  gl_parse_free(p);
  gl_source_free(&src);
  free(r->id);
  free(r->name);
  free(r->message);
  free(r->path);
  free(r);
}

static void test_free_null(void **state) {
  gl_match_free(NULL);
  gl_match_ctx_free(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_findings_at_exact_positions),
      cmocka_unit_test(test_ctx_reused_across_files),
      cmocka_unit_test(test_eq_and_not_eq_with_string),
      cmocka_unit_test(test_eq_and_not_eq_with_capture),
      cmocka_unit_test(test_quantified_capture_must_hold_for_each_node),
      cmocka_unit_test(test_match_and_not_match),
      cmocka_unit_test(test_any_of_and_not_any_of),
      cmocka_unit_test(test_resolves_to_several_names),
      cmocka_unit_test(test_resolves_match),
      cmocka_unit_test(test_in_loop),
      cmocka_unit_test(test_error_syntax),
      cmocka_unit_test(test_error_unknown_node_type),
      cmocka_unit_test(test_error_unknown_field),
      cmocka_unit_test(test_error_invalid_capture),
      cmocka_unit_test(test_error_impossible_structure),
      cmocka_unit_test(test_error_unknown_predicate),
      cmocka_unit_test(test_error_predicate_outside_pattern),
      cmocka_unit_test(test_error_missing_hit),
      cmocka_unit_test(test_error_bad_regex_with_pcre2_offset),
      cmocka_unit_test(test_error_predicate_arity),
      cmocka_unit_test(test_error_placeholder_names_no_capture),
      cmocka_unit_test(test_error_empty_query),
      cmocka_unit_test(test_error_unknown_check),
      cmocka_unit_test(test_errors_in_several_rules),
      cmocka_unit_test(test_unbalanced_blocks_do_not_merge),
      cmocka_unit_test(test_predicate_capture_of_other_pattern),
      cmocka_unit_test(test_match_limit_exceeded_is_noted),
      cmocka_unit_test(test_regex_limit_is_noted_once_per_file),
      cmocka_unit_test(test_dedupe_within_rule_not_across_rules),
      cmocka_unit_test(test_disabled_rule_yields_nothing),
      cmocka_unit_test(test_no_rules_at_all),
      cmocka_unit_test(test_message_placeholders),
      cmocka_unit_test(test_placeholder_text_cut_at_80_characters),
      cmocka_unit_test(test_check_table),
      cmocka_unit_test(test_check_report),
      cmocka_unit_test(test_free_null),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
