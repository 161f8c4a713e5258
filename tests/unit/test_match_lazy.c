/* test_match_lazy.c: unit tests for the lazily compiled matcher (gl_match_new_lazy, match.h) and
 *       for the per-file memo of resolved names that predicates share (predicate.h).
 * Owns: checks that a lazy matcher compiles nothing until a file reaches the match stage (a run
 *       whose every file the prefilter skips never compiles), compiles once when several workers
 *       race to it, gives the same findings as an eager matcher, and reports the same errors with
 *       the same rule-file positions through gl_match_errors.
 * Not: the errors themselves (test_match.c), the pipeline (test_engine.c).
 * Threads: the engine test runs four workers; the rest is single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "match/match.h"
#include "model/model.h"
#include "parse/parse.h"

#include "match_fixture.h"

/* A rule of id with query, its query block starting at query_line of its rule file. */
static gl_rule *query_rule(const char *id, const char *query, uint32_t query_line) {
  spec s = {id, query, query_line, NULL, GL_LEVEL_WARNING, true, NULL};
  return rule_new(&s);
}

static void lint_with(const gl_matcher *m, const char *code, gl_file_result *out) {
  lint_buffer(m, 0, code, out);
}

static void test_compiles_on_first_run(void **state) {
  (void)state;
  gl_ruleset *set = calloc(1, sizeof(*set));
  gl_vec_push(&set->rules, query_rule("GPU900", "((call function: (identifier) @f) @hit\n"
                                              " (#eq? @f \"sync\"))", 20));
  gl_matcher *m = gl_match_new_lazy(set, gl_parse_language());
  assert_non_null(m);
  assert_false(gl_match_compiled(m));
  assert_null(gl_match_errors(m));
  gl_file_result out;
  lint_with(m, "sync()\nnot_sync()\nx = 1\nsync(2)\n", &out);
  assert_true(gl_match_compiled(m));
  assert_int_equal(out.findings.len, 2);
  assert_int_equal(out.findings.data[0].region.start_line, 1);
  assert_string_equal(out.findings.data[0].message, "found sync()");
  assert_int_equal(out.findings.data[1].region.start_line, 4);
  assert_string_equal(out.findings.data[1].message, "found sync(2)");
  assert_int_equal(gl_match_errors(m)->len, 0);
  assert_true(gl_match_ready(m));
  gl_file_result_free(&out);
  /* a second file reuses the compiled query */
  lint_with(m, "a = 1\nsync()\n", &out);
  assert_int_equal(out.findings.len, 1);
  assert_int_equal(out.findings.data[0].region.start_line, 2);
  gl_file_result_free(&out);
  gl_match_free(m);
  set_free(set);
}

/* The errors of a lazy compilation are those gl_match_new reports, in the same order. */
static void test_errors_same_as_eager(void **state) {
  (void)state;
  gl_ruleset *set = calloc(1, sizeof(*set));
  gl_vec_push(&set->rules, query_rule("GPU900", "((call) @hit\n (#bar? @hit))", 9));
  gl_vec_push(&set->rules, query_rule("GPU901", "((identifier) @hit)", 5));
  gl_vec_push(&set->rules, query_rule("GPU903", "((call) @hit", 20));
  gl_diag_list eager = {0};
  assert_null(gl_match_new(set, gl_parse_language(), &eager));
  assert_int_equal(eager.len, 2);

  gl_matcher *m = gl_match_new_lazy(set, gl_parse_language());
  assert_false(gl_match_compiled(m));
  gl_file_result out;
  lint_with(m, "f(x)\n", &out);   /* would match GPU901 if a half-built matcher ran */
  assert_int_equal(out.findings.len, 0);
  assert_int_equal(out.notes.len, 0);
  assert_true(gl_match_compiled(m));
  assert_false(gl_match_ready(m));
  const gl_diag_list *errs = gl_match_errors(m);
  assert_non_null(errs);
  assert_int_equal(errs->len, 2);
  char a[2048], b[2048];
  for (size_t i = 0; i < 2; i++) {
    gl_diag_format(&eager.data[i], a, sizeof(a));
    gl_diag_format(&errs->data[i], b, sizeof(b));
    assert_string_equal(a, b);
  }
  gl_diag_format(&errs->data[0], b, sizeof(b));
  assert_string_equal(b, "rules/t/GPU900.md:10:3: unknown predicate '#bar?'");
  gl_diag_format(&errs->data[1], b, sizeof(b));
  assert_string_equal(b, "rules/t/GPU903.md:20:13: invalid query syntax at end of query");
  gl_file_result_free(&out);
  gl_vec_free(&eager);
  gl_match_free(m);
  set_free(set);
}

/* Several patterns resolve the same nodes: the remembered answers are the computed ones, in this
 * file and the next (the memo is per file), for names short and too long for a memo slot. */
static void test_resolve_memo_same_answers(void **state) {
  (void)state;
  gl_ruleset *set = calloc(1, sizeof(*set));
  gl_vec_push(&set->rules, query_rule("GPU900", "((attribute) @hit (#resolves-to? @hit \"cupy.asnumpy\"))", 20));
  gl_vec_push(&set->rules, query_rule("GPU901", "((attribute) @hit (#resolves-match? @hit \"^cupy\\\\.\"))", 20));
  gl_vec_push(&set->rules, query_rule("GPU902", "((attribute) @hit (#resolves-match? @hit \"\\\\.z{240}$\"))", 20));
  gl_diag_list errs = {0};
  gl_matcher *m = gl_match_new(set, gl_parse_language(), &errs);
  assert_non_null(m);
  char code[600];
  char z[241];
  memset(z, 'z', 240);
  z[240] = '\0';
  snprintf(code, sizeof(code), "import cupy as cp\nimport numpy as np\ncp.asnumpy(1)\nnp.asnumpy(2)\n"
                               "cp.%s\ncp.asnumpy(3)\n", z);
  for (int pass = 0; pass < 2; pass++) {
    gl_file_result out;
    memset(&out, 0, sizeof(out));
    gl_source src;
    gl_load_buffer(&src, "t.py", code, strlen(code));
    gl_parser *p = gl_parse_new(0, 0);
    gl_diag err = {0};
    TSTree *tree = gl_parse_source(p, &src, &err);
    gl_model *model = gl_model_build(&src, tree, NULL);
    gl_match_ctx *ctx = gl_match_ctx_new(m, 0, 0);
    gl_match_run(ctx, &src, tree, model, &out);
    gl_match_run(ctx, &src, tree, model, &out);   /* same file again: every finding once more */
    assert_int_equal(out.findings.len, 12);
    const char *want[] = {"GPU900:3", "GPU900:6", "GPU901:3", "GPU901:5", "GPU901:6", "GPU902:5"};
    size_t counts[6] = {0};
    for (size_t i = 0; i < out.findings.len; i++) {
      char key[32];
      snprintf(key, sizeof(key), "%s:%u", out.findings.data[i].rule->id,
               out.findings.data[i].region.start_line);
      bool known = false;
      for (size_t k = 0; k < 6; k++)
        if (strcmp(key, want[k]) == 0) {
          counts[k]++;
          known = true;
        }
      if (!known) fail_msg("unexpected finding %s", key);
    }
    for (size_t k = 0; k < 6; k++) assert_int_equal(counts[k], 2);
    gl_file_result_free(&out);
    gl_match_ctx_free(ctx);
    gl_model_free(model);
    ts_tree_delete(tree);
    gl_parse_free(p);
    gl_source_free(&src);
  }
  gl_match_free(m);
  set_free(set);
}

/* ---- through the engine, with the built-in rules --------------------------------------------- */

static gl_ruleset *builtin_all(void) {
  gl_diag_list errs = {0};
  gl_ruleset *set = gl_rules_new();
  gl_rules_add_builtin(set, &errs);
  gl_rules_finish(set, &errs);
  const char *all[] = {"ALL"};
  gl_diag err = {0};
  if (errs.len || gl_rules_select(set, all, 1, NULL, 0, NULL, 0, &err) != 0)
    fail_msg("built-in rules did not load");
  return set;
}

typedef struct tmpfiles {
  char dir[64];
  gl_walk_file files[8];
  size_t n;
} tmpfiles;

static void files_write(tmpfiles *t, const char *const *texts, size_t n) {
  snprintf(t->dir, sizeof(t->dir), "/tmp/gl_lazy_XXXXXX");
  if (!mkdtemp(t->dir)) fail_msg("mkdtemp failed");
  t->n = n;
  for (size_t i = 0; i < n; i++) {
    t->files[i].path = gl_xasprintf("%s/f%zu.py", t->dir, i);
    FILE *f = fopen(t->files[i].path, "w");
    if (!f) fail_msg("cannot write %s", t->files[i].path);
    fputs(texts[i], f);
    fclose(f);
  }
}

static void files_remove(tmpfiles *t) {
  for (size_t i = 0; i < t->n; i++) {
    unlink(t->files[i].path);
    free(t->files[i].path);
  }
  rmdir(t->dir);
}

static void test_engine_skipped_files_never_compile(void **state) {
  (void)state;
  gl_ruleset *set = builtin_all();
  const char *texts[] = {"import os\nprint(os.getcwd())\n", "x = 1\n", "def f(:\n"};
  tmpfiles t;
  files_write(&t, texts, 3);
  gl_matcher *m = gl_match_new_lazy(set, gl_parse_language());
  gl_engine_opts opts = {.jobs = 2, .parse_timeout_ms = 5000, .prefilter = true};
  gl_run run = {0};
  gl_engine_run(t.files, t.n, set, m, &opts, &run);
  assert_int_equal(run.files.len, 3);
  for (size_t i = 0; i < 3; i++) assert_int_equal(run.files.data[i].findings.len, 0);
  assert_false(gl_match_compiled(m));
  assert_null(gl_match_errors(m));
  gl_run_free(&run);
  gl_match_free(m);
  files_remove(&t);
  gl_rules_free(set);
}

/* Four workers race to compile; the findings equal an eager matcher's, file by file. */
static void test_engine_lazy_equals_eager(void **state) {
  (void)state;
  gl_ruleset *set = builtin_all();
  const char *gpu = "import cupy as cp\nimport torch\nx = cp.zeros(3)\nfor i in range(3):\n"
                    "    y = float(x.sum())\nfor i in range(3):\n    torch.cuda.synchronize()\n";
  const char *texts[] = {gpu, gpu, "x = 1\n", gpu, gpu, gpu};
  tmpfiles t;
  files_write(&t, texts, 6);
  gl_diag_list errs = {0};
  gl_matcher *eager = gl_match_new(set, gl_parse_language(), &errs);
  assert_non_null(eager);
  gl_matcher *lazy = gl_match_new_lazy(set, gl_parse_language());
  gl_engine_opts opts = {.jobs = 4, .parse_timeout_ms = 5000, .prefilter = true};
  gl_run a = {0}, b = {0};
  gl_engine_run(t.files, t.n, set, eager, &opts, &a);
  gl_engine_run(t.files, t.n, set, lazy, &opts, &b);
  assert_true(gl_match_compiled(lazy));
  assert_int_equal(gl_match_errors(lazy)->len, 0);
  assert_int_equal(a.files.len, 6);
  assert_int_equal(b.files.len, 6);
  size_t total = 0;
  for (size_t i = 0; i < 6; i++) {
    const gl_file_result *fa = &a.files.data[i], *fb = &b.files.data[i];
    assert_string_equal(fa->path, fb->path);
    assert_int_equal(fa->findings.len, fb->findings.len);
    for (size_t j = 0; j < fa->findings.len; j++) {
      assert_string_equal(fa->findings.data[j].rule->id, fb->findings.data[j].rule->id);
      assert_string_equal(fa->findings.data[j].message, fb->findings.data[j].message);
      assert_int_equal(fa->findings.data[j].region.start_byte, fb->findings.data[j].region.start_byte);
    }
    total += fa->findings.len;
  }
  assert_int_equal(total, 15);  /* GPU201, GPU208 and GPU510 in each GPU file, none in f2.py */
  assert_int_equal(a.files.data[2].findings.len, 0);
  gl_run_free(&a);
  gl_run_free(&b);
  gl_match_free(eager);
  gl_match_free(lazy);
  files_remove(&t);
  gl_rules_free(set);
}

int main(void) {
  gl_parse_install_hooks();
  gl_xalloc_install_cjson_hooks();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_compiles_on_first_run),
      cmocka_unit_test(test_errors_same_as_eager),
      cmocka_unit_test(test_resolve_memo_same_answers),
      cmocka_unit_test(test_engine_skipped_files_never_compile),
      cmocka_unit_test(test_engine_lazy_equals_eager),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
