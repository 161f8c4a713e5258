/* test_rule_docs.c: runs every rule's documentation and every fixture through the real engine.
 * Owns: `test_rule_docs docs` (each `## Example` block must produce its rule, each `## Use
 *       instead` block must not) and `test_rule_docs fixtures DIR` (each fixture's findings must
 *       equal its `# expect:` annotations exactly; `# ok:` ids must be absent; `# todo:` ids must
 *       still be missing, so a fixed gap fails until it is promoted to `expect:`).
 * Threads: single-threaded test program; all rules are selected (ALL), prefilter on. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "annotations.h"
#include "engine/engine.h"
#include "base/load.h"
#include "match/match.h"
#include "model/model.h"
#include "parse/parse.h"
#include "rules/rules.h"

typedef struct suite {
  gl_ruleset *set;
  gl_matcher *matcher;
  gl_engine_opts opts;
} suite;

typedef struct test_case {
  const suite *s;
  const gl_rule *rule;   /* docs */
  char *path;            /* fixtures */
} test_case;

static size_t count_rule(const gl_file_result *r, const char *id) {
  size_t n = 0;
  for (size_t i = 0; i < r->findings.len; i++)
    if (!r->findings.data[i].suppressed && strcmp(r->findings.data[i].rule->id, id) == 0) n++;
  return n;
}

static void check_block(const test_case *c, const gl_code_block *b, bool must_find, int *failures) {
  gl_file_result res = {0};
  gl_engine_lint_buffer("example.py", b->code, strlen(b->code), c->s->set, c->s->matcher,
                        &c->s->opts, &res);
  size_t n = count_rule(&res, c->rule->id);
  if (must_find && n == 0) {
    print_error("%s:%u: this Example block does not produce %s\n", c->rule->path, b->line, c->rule->id);
    (*failures)++;
  }
  if (!must_find && n > 0) {
    print_error("%s:%u: this Use instead block produces %s\n", c->rule->path, b->line, c->rule->id);
    (*failures)++;
  }
  for (size_t i = 0; i < res.notes.len; i++) {
    print_error("%s:%u: block is not clean Python: %s\n", c->rule->path, b->line, res.notes.data[i].message);
    (*failures)++;
  }
  gl_file_result_free(&res);
}

static void test_docs(void **state) {
  const test_case *c = *state;
  int failures = 0;
  assert_true(c->rule->examples.len >= 2);
  assert_true(c->rule->use_instead.len >= 2);
  for (size_t i = 0; i < c->rule->examples.len; i++) check_block(c, &c->rule->examples.data[i], true, &failures);
  for (size_t i = 0; i < c->rule->use_instead.len; i++) check_block(c, &c->rule->use_instead.data[i], false, &failures);
  assert_int_equal(failures, 0);
}

static bool has_finding(const gl_file_result *r, uint32_t line, const char *id) {
  for (size_t i = 0; i < r->findings.len; i++) {
    const gl_finding *f = &r->findings.data[i];
    if (!f->suppressed && f->region.start_line == line && strcmp(f->rule->id, id) == 0) return true;
  }
  return false;
}

static bool has_annotation(const gl_annotation_list *a, gl_ann_kind kind, uint32_t line, const char *id) {
  for (size_t i = 0; i < a->len; i++)
    if (a->data[i].kind == kind && a->data[i].line == line && strcmp(a->data[i].id, id) == 0) return true;
  return false;
}

/* Reads the fixture's annotations from its comment nodes. */
static int read_annotations(const gl_source *src, gl_annotation_list *out) {
  gl_parser *p = gl_parse_new(0, 0);
  gl_diag err = {0};
  TSTree *tree = gl_parse_source(p, src, &err);
  if (!tree) {
    print_error("%s: cannot parse: %s\n", src->path, err.msg);
    gl_parse_free(p);
    return 1;
  }
  gl_model *m = gl_model_build(src, tree, NULL);
  size_t n = 0;
  const gl_comment *cs = gl_model_comments(m, &n);
  int failures = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t line = gl_load_position(src, cs[i].start_byte).line;
    if (gl_annotations_parse(src->bytes + cs[i].start_byte, cs[i].end_byte - cs[i].start_byte, line, out) < 0) {
      print_error("%s:%u: annotation names no rule id\n", src->path, line);
      failures++;
    }
  }
  gl_model_free(m);
  ts_tree_delete(tree);
  gl_parse_free(p);
  return failures;
}

static int compare(const char *path, const gl_file_result *res, const gl_annotation_list *ann) {
  int failures = 0;
  for (size_t i = 0; i < res->findings.len; i++) {
    const gl_finding *f = &res->findings.data[i];
    if (f->suppressed) continue;
    uint32_t line = f->region.start_line;
    if (has_annotation(ann, GL_ANN_TODO, line, f->rule->id)) {
      print_error("%s:%u: %s is now reported: promote `todo:` to `expect:`\n", path, line, f->rule->id);
      failures++;
    } else if (!has_annotation(ann, GL_ANN_EXPECT, line, f->rule->id)) {
      print_error("%s:%u:%u: unexpected %s %s\n", path, line, f->region.start_col_cp, f->rule->id, f->message);
      failures++;
    }
  }
  for (size_t i = 0; i < ann->len; i++) {
    const gl_annotation *a = &ann->data[i];
    if (a->kind == GL_ANN_EXPECT && !has_finding(res, a->line, a->id)) {
      print_error("%s:%u: expected %s, not reported\n", path, a->line, a->id);
      failures++;
    }
    if (a->kind == GL_ANN_EXPECT && has_annotation(ann, GL_ANN_OK, a->line, a->id)) {
      print_error("%s:%u: %s is both expected and ok\n", path, a->line, a->id);
      failures++;
    }
  }
  for (size_t i = 0; i < res->notes.len; i++) {
    print_error("%s:%u: fixture is not clean: %s\n", path, res->notes.data[i].line, res->notes.data[i].message);
    failures++;
  }
  return failures;
}

static void test_fixture(void **state) {
  const test_case *c = *state;
  gl_source src = {0};
  gl_diag err = {0};
  if (gl_load_file(&src, c->path, 0, &err) != 0) fail_msg("%s: %s", c->path, err.msg);
  gl_file_result res = {0};
  gl_engine_lint_buffer(c->path, src.bytes, src.len, c->s->set, c->s->matcher, &c->s->opts, &res);
  gl_annotation_list ann = {0};
  int failures = read_annotations(&src, &ann);
  failures += compare(c->path, &res, &ann);
  size_t n_expect = 0, n_ok = 0;
  for (size_t i = 0; i < ann.len; i++) {
    n_expect += ann.data[i].kind == GL_ANN_EXPECT;
    n_ok += ann.data[i].kind == GL_ANN_OK;
  }
  if (!n_expect || !n_ok) {
    print_error("%s: a fixture needs positives (`# expect:`) and near misses (`# ok:`)\n", c->path);
    failures++;
  }
  gl_vec_free(&ann);
  gl_file_result_free(&res);
  gl_source_free(&src);
  assert_int_equal(failures, 0);
}

typedef gl_vec(char *) path_list;

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Collects *.py fixtures under dir (one level of pack folders, or files directly). */
static void collect(const char *dir, path_list *out, int depth) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char *p = gl_xasprintf("%s/%s", dir, e->d_name);
    struct stat st;
    size_t len = strlen(e->d_name);
    if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode) && depth < 4) {
      collect(p, out, depth + 1);
      free(p);
    } else if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && len > 3 && strcmp(e->d_name + len - 3, ".py") == 0) {
      gl_vec_push(out, p);
    } else {
      free(p);
    }
  }
  closedir(d);
}

static int setup_suite(suite *s) {
  s->set = gl_rules_new();
  gl_diag_list errs = {0};
  gl_rules_add_builtin(s->set, &errs);
  gl_rules_finish(s->set, &errs);
  const char *all[] = {"ALL"};
  gl_diag err = {0};
  if (!errs.len && gl_rules_select(s->set, all, 1, NULL, 0, NULL, 0, &err) != 0) *gl_diag_list_add(&errs) = err;
  if (!errs.len) s->matcher = gl_match_new(s->set, gl_parse_language(), &errs);
  for (size_t i = 0; i < errs.len; i++) {
    char buf[2048];
    gl_diag_format(&errs.data[i], buf, sizeof(buf));
    fprintf(stderr, "%s\n", buf);
  }
  int bad = errs.len > 0;
  gl_vec_free(&errs);
  s->opts = (gl_engine_opts){.jobs = 1, .parse_timeout_ms = 10000, .prefilter = true};
  return bad;
}

int main(int argc, char **argv) {
  gl_parse_install_hooks();
  gl_xalloc_install_cjson_hooks();
  if (argc < 2 || (strcmp(argv[1], "fixtures") == 0 && argc < 3)) {
    fprintf(stderr, "usage: test_rule_docs docs | fixtures DIR\n");
    return 2;
  }
  suite s = {0};
  if (setup_suite(&s)) return 1;
  bool docs = strcmp(argv[1], "docs") == 0;
  path_list paths = {0};
  if (!docs) collect(argv[2], &paths, 0);
  if (paths.len) qsort(paths.data, paths.len, sizeof(char *), cmp_str);
  size_t n = docs ? s.set->rules.len : paths.len;
  struct CMUnitTest *tests = gl_xcalloc(n ? n : 1, sizeof(*tests));
  test_case *cases = gl_xcalloc(n ? n : 1, sizeof(*cases));
  for (size_t i = 0; i < n; i++) {
    cases[i].s = &s;
    if (docs) cases[i].rule = s.set->rules.data[i];
    else cases[i].path = paths.data[i];
    tests[i].name = docs ? cases[i].rule->id : cases[i].path;
    tests[i].test_func = docs ? test_docs : test_fixture;
    tests[i].initial_state = &cases[i];
  }
  if (n == 0) {
    fprintf(stderr, "no %s to test\n", docs ? "rules" : "fixtures");
    return 1;
  }
  int failed = _cmocka_run_group_tests(docs ? "rules/docs" : "rules/fixtures", tests, n, NULL, NULL);
  for (size_t i = 0; i < paths.len; i++) free(paths.data[i]);
  gl_vec_free(&paths);
  free(tests);
  free(cases);
  gl_match_free(s.matcher);
  gl_rules_free(s.set);
  return failed ? 1 : 0;
}
