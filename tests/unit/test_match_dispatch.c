/* test_match_dispatch.c: unit tests for running the query at the nodes that can match
 *       (match_dispatch.c, gl_match_dispatches in match.h).
 * Owns: checks that dispatch is on for rooted patterns and off when a pattern has a wildcard root
 *       or is a sequence of siblings, and that it finds exactly what the walk over the whole tree
 *       finds: each case is linted twice, once as written and once with a never-matching
 *       wildcard-rooted rule added (which turns dispatch off), and both must give the expected
 *       findings, messages included. Cases: method names (#eq?, #not-eq?, #any-of?), a choice of
 *       callee types, a capture named in two branches, an optional field child, two captures
 *       compared, a dispatched and a plain pattern on the same root, a disabled rule, nested
 *       calls, recovered syntax errors, #resolves-to? with aliases, supertypes.
 * Not: predicates one by one (test_match.c), the pipeline (test_engine.c).
 * Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "match/match.h"
#include "model/model.h"
#include "parse/parse.h"

#include "match_fixture.h"

/* Never matches (no call is named so), but its wildcard root turns dispatch off. */
static const spec walk_spec = {"GPU999", "((_) @hit (#eq? @hit \"never_here_at_all()\"))", 0,
                               NULL, 0, true, NULL};

/* "ID line:col message" of each finding, sorted, one a line, into buf. */
static void render(const gl_file_result *out, char *buf, size_t cap) {
  char lines[64][160];
  size_t n = out->findings.len < 64 ? out->findings.len : 64;
  for (size_t i = 0; i < n; i++) {
    const gl_finding *f = &out->findings.data[i];
    snprintf(lines[i], sizeof lines[i], "%s %u:%u %s", f->rule->id, f->region.start_line,
             f->region.start_col, f->message);
  }
  for (size_t i = 1; i < n; i++)   /* insertion sort: a few lines */
    for (size_t j = i; j > 0 && strcmp(lines[j - 1], lines[j]) > 0; j--) {
      char t[160];
      memcpy(t, lines[j], sizeof t);
      memcpy(lines[j], lines[j - 1], sizeof t);
      memcpy(lines[j - 1], t, sizeof t);
    }
  buf[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    strncat(buf, lines[i], cap - strlen(buf) - 1);
    strncat(buf, "\n", cap - strlen(buf) - 1);
  }
}

/* Lints code with specs, dispatching (or, with walk, plus walk_spec) into buf. */
static void lint_rendered(const spec *specs, size_t n, bool walk, const char *code, char *buf,
                          size_t cap) {
  spec all[8];
  assert_true(n < 8);
  memcpy(all, specs, n * sizeof(spec));
  if (walk) all[n++] = walk_spec;
  gl_ruleset *set = set_new(all, n);
  gl_matcher *m = matcher_ok(set);
  assert_int_equal(gl_match_dispatches(m), !walk);
  gl_file_result out;
  lint_buffer(m, 0, code, &out);
  render(&out, buf, cap);
  gl_file_result_free(&out);
  gl_match_free(m);
  set_free(set);
}

/* Both ways of running specs over code give `expected`. */
static void expect_both(const spec *specs, size_t n, const char *code, const char *expected) {
  char got[8192];
  lint_rendered(specs, n, false, code, got, sizeof got);
  assert_string_equal(got, expected);
  lint_rendered(specs, n, true, code, got, sizeof got);
  assert_string_equal(got, expected);
}

static void rule1(const char *query, const char *code, const char *expected) {
  spec s = {"GPU900", query, 0, NULL, 0, true, NULL};
  expect_both(&s, 1, code, expected);
}

static void test_method_name(void **state) {
  (void)state;
  const char *code =
      "d.get()\n"                 /* 1 */
      "x.y.get(1)\n"              /* 2 */
      "get()\n"                   /* 3: not a method */
      "d.get\n"                   /* 4: not a call */
      "f(d.get(), e.put())\n"     /* 5: nested */
      "d.gets()\n";               /* 6 */
  const char *q = "((call function: (attribute object: (_) @recv attribute: (identifier) @m)) @hit"
                  " (#eq? @m \"get\"))";
  rule1(q, code,
        "GPU900 1:1 found d.get()\nGPU900 2:1 found x.y.get(1)\nGPU900 5:3 found d.get()\n");
  q = "((call function: (attribute object: (_) @recv attribute: (identifier) @m)) @hit"
      " (#not-eq? @m \"get\"))";
  rule1(q, code, "GPU900 5:12 found e.put()\nGPU900 6:1 found d.gets()\n");
  q = "((call function: (attribute object: (identifier) @recv attribute: (identifier) @m)) @hit"
      " (#any-of? @m \"get\" \"put\") (#eq? @recv \"e\"))";
  rule1(q, code, "GPU900 5:12 found e.put()\n");
}

static void test_choice_of_callee_types(void **state) {
  (void)state;
  const char *code = "k()\nkk.x()\na.k()\nk[0]()\n(lambda: 1)()\n";
  rule1("((call function: [(identifier) (attribute)] @fn) @hit (#match? @fn \"^k\"))", code,
        "GPU900 1:1 found k()\nGPU900 2:1 found kk.x()\n");
}

/* @n is put on two nodes: it is not tested early (@hit is), and both branches still match. */
static void test_capture_in_two_branches(void **state) {
  (void)state;
  const char *code = "h()\na.h()\nb.g()\ng()\n";
  rule1("((call function: [(identifier) @n (attribute attribute: (identifier) @n)]) @hit"
        " (#eq? @n \"h\") (#match? @hit \"^[a-h]\"))",
        code, "GPU900 1:1 found h()\nGPU900 2:1 found a.h()\n");
}

/* An optional field child is not required; the callee still is. */
static void test_optional_child(void **state) {
  (void)state;
  const char *code = "g()\ng(x for x in y)\nh()\n";
  rule1("((call function: (identifier) @fn arguments: (argument_list)? @args) @hit"
        " (#eq? @fn \"g\"))",
        code, "GPU900 1:1 found g()\nGPU900 2:1 found g(x for x in y)\n");
}

static void test_two_captures_compared(void **state) {
  (void)state;
  const char *code = "a.a()\na.b()\nb.b(1)\n";
  rule1("((call function: (attribute object: (identifier) @o attribute: (identifier) @m)) @hit"
        " (#eq? @o @m))",
        code, "GPU900 1:1 found a.a()\nGPU900 3:1 found b.b(1)\n");
}

/* A dispatched pattern's matches are kept only where its tests passed, though the node is run
 * for a plain pattern of the same root. */
static void test_dispatched_and_plain_on_one_root(void **state) {
  (void)state;
  const spec specs[] = {
      {"GPU900", "((call) @hit)", 0, "call {hit}", 0, true, NULL},
      {"GPU901", "((call function: (identifier) @fn) @hit (#eq? @fn \"sync\"))", 0, "sync {hit}",
       0, true, NULL},
  };
  expect_both(specs, 2, "sync()\nf(sync(1))\n",
              "GPU900 1:1 call sync()\nGPU900 2:1 call f(sync(1))\nGPU900 2:3 call sync(1)\n"
              "GPU901 1:1 sync sync()\nGPU901 2:3 sync sync(1)\n");
}

static void test_disabled_rule(void **state) {
  (void)state;
  const spec specs[] = {
      {"GPU900", "((call function: (identifier) @fn) @hit (#eq? @fn \"a\"))", 0, NULL, 0, false,
       NULL},
      {"GPU901", "((call function: (identifier) @fn) @hit (#eq? @fn \"b\"))", 0, NULL, 0, true,
       NULL},
  };
  expect_both(specs, 2, "a()\nb()\n", "GPU901 2:1 found b()\n");
}

/* Calls inside a part tree-sitter recovered from a syntax error. */
static void test_recovered_syntax_error(void **state) {
  (void)state;
  rule1("((call function: (attribute attribute: (identifier) @m)) @hit (#eq? @m \"cuda\"))",
        "x = t.cuda(async=True)\ny = u.cuda()\ndef f(:\n    v.cuda()\n",
        "GPU900 1:5 found t.cuda(async=True)\nGPU900 2:5 found u.cuda()\nGPU900 4:5 found "
        "v.cuda()\n");
}

static void test_resolves_through_aliases(void **state) {
  (void)state;
  const char *code = "import cupy as cp\nfrom cupy import asnumpy as an\n"
                     "a = cp.asnumpy(x)\nb = an(y)\nc = asnumpy(z)\nd = np.asnumpy(w)\n";
  rule1("((call function: [(identifier) (attribute)] @fn) @hit"
        " (#resolves-to? @fn \"cupy.asnumpy\"))",
        code, "GPU900 3:5 found cp.asnumpy(x)\nGPU900 4:5 found an(y)\n");
}

/* A supertype matches nodes of its subtypes: it is never a fixed node's or a root's type. */
static void test_supertypes(void **state) {
  (void)state;
  const spec specs[] = {
      {"GPU900", "((call function: (primary_expression) @f) @hit (#eq? @f \"a\"))", 0, NULL, 0,
       true, NULL},
      {"GPU901", "((call function: (identifier) @fn) @hit (#eq? @fn \"b\"))", 0, NULL, 0, true,
       NULL},
  };
  expect_both(specs, 2, "a()\nb()\nc.a()\n", "GPU900 1:1 found a()\nGPU901 2:1 found b()\n");
}

/* Rooted patterns of other types: a choice at the root, a binary operator, a string. */
static void test_other_roots(void **state) {
  (void)state;
  const spec specs[] = {
      {"GPU900", "([(assignment) (augmented_assignment)] @hit)", 0, "assign {hit}", 0, true, NULL},
      {"GPU901", "((binary_operator left: (identifier) @l right: (integer)) @hit (#eq? @l \"n\"))",
       0, "op {hit}", 0, true, NULL},
      {"GPU902", "((string) @hit (#match? @hit \"cuda\"))", 0, "str {hit}", 0, true, NULL},
  };
  expect_both(specs, 3, "x = n + 1\nx += m + 2\ns = 'cuda'\n",
              "GPU900 1:1 assign x = n + 1\nGPU900 2:1 assign x += m + 2\n"
              "GPU900 3:1 assign s = 'cuda'\nGPU901 1:5 op n + 1\nGPU902 3:5 str 'cuda'\n");
}

/* Dispatch is on for a pattern with early tests; a sequence of siblings or a wildcard root turns
 * it off. */
static void test_when_dispatch_is_off(void **state) {
  (void)state;
  const struct {
    const char *query;
    bool dispatches;
  } cases[] = {
      {"((call function: (identifier) @f) @hit (#eq? @f \"a\"))", true},
      {"((call) @hit)", false},   /* nothing to test early: the walk is as good */
      {"((expression_statement) @hit . (comment))", false},
      {"((_) @hit (#eq? @hit \"x\"))", false},
      {"(_ (call) @hit)", false},
      {"((expression) @hit (#eq? @hit \"x\"))", false},   /* a supertype root */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    spec s = {"GPU900", cases[i].query, 0, NULL, 0, true, NULL};
    gl_ruleset *set = set_new(&s, 1);
    gl_matcher *m = matcher_ok(set);
    if (gl_match_dispatches(m) != cases[i].dispatches) fail_msg("case %zu: %s", i, cases[i].query);
    gl_match_free(m);
    set_free(set);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_method_name),
      cmocka_unit_test(test_choice_of_callee_types),
      cmocka_unit_test(test_capture_in_two_branches),
      cmocka_unit_test(test_optional_child),
      cmocka_unit_test(test_two_captures_compared),
      cmocka_unit_test(test_dispatched_and_plain_on_one_root),
      cmocka_unit_test(test_disabled_rule),
      cmocka_unit_test(test_recovered_syntax_error),
      cmocka_unit_test(test_resolves_through_aliases),
      cmocka_unit_test(test_supertypes),
      cmocka_unit_test(test_other_roots),
      cmocka_unit_test(test_when_dispatch_is_off),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
