/* test_model_index.c: the model's node index (model_index.c) against the tree itself, on every
 * Python file under examples/ and tests/rules/fixtures/ with the built-in library models: the
 * index lists exactly the named nodes in pre-order, parents and subtree ends agree with the
 * tree, gl_model_node_qualified is exactly "gl_model_resolve succeeds" on identifiers and
 * attributes (the name matcher of match_run.c relies on it), and gl_model_imports.
 * Owns: nothing outside the test. Threads: single-threaded. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

#include "model_fixture.h"

#include "rules/embedded.h"
#include "base/vec.h"

typedef gl_vec(char *) path_list;

static gl_libmodels *builtin_models(void) {
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  for (size_t i = 0; i < gl_embedded_count; i++) {
    const gl_embedded_file *e = &gl_embedded_files[i];
    if (strncmp(e->path, "rules/models/", 13) == 0)
      gl_libmodels_add(lm, e->path, e->data, e->len, &errs);
  }
  gl_libmodels_freeze(lm, &errs);
  assert_int_equal(errs.len, 0);
  gl_vec_free(&errs);
  return lm;
}

static void collect(const char *dir, path_list *out) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char p[4096];
    snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(p, &st) != 0) continue;
    size_t n = strlen(e->d_name);
    if (S_ISDIR(st.st_mode)) collect(p, out);
    else if (n > 3 && strcmp(e->d_name + n - 3, ".py") == 0) gl_vec_push(out, strdup(p));
  }
  closedir(d);
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  *len = (size_t)n;
  return b;
}

/* Named nodes in pre-order by a cursor walk, compared one by one with the index. */
static void check_order(const fx *f, const char *path) {
  const gl_model *m = f->m;
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(f->tree));
  uint32_t i = 0, n = gl_model_node_count(m);
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&c);
    if (ts_node_is_named(node)) {
      if (i >= n || !ts_node_eq(node, gl_model_node_at(m, i)))
        fail_msg("%s: named node %u (%s at byte %u) is not the index's", path, i,
                 ts_node_type(node), ts_node_start_byte(node));
      assert_int_equal(gl_model_node_index(m, node), i);
      i++;
    }
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c))
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
  }
done:
  ts_tree_cursor_delete(&c);
  assert_int_equal(i, n);
}

/* Parents contain their children; a subtree is exactly the nodes inside the root's bytes that
 * follow it up to its end index. */
static void check_shape(const fx *f, const char *path) {
  const gl_model *m = f->m;
  uint32_t n = gl_model_node_count(m);
  assert_int_equal(gl_model_node_parent(m, 0), GL_MODEL_NO_NODE);
  assert_int_equal(gl_model_node_end(m, 0), n);
  for (uint32_t i = 1; i < n; i++) {
    uint32_t p = gl_model_node_parent(m, i);
    assert_true(p < i);
    assert_true(i < gl_model_node_end(m, p));
    uint32_t e = gl_model_node_end(m, i);
    assert_true(e > i && e <= gl_model_node_end(m, p));
    if (e < n && gl_model_node_parent(m, e) != GL_MODEL_NO_NODE) {
      /* the node after the subtree is not inside it */
      uint32_t q = e;
      while (q != GL_MODEL_NO_NODE && q > i) q = gl_model_node_parent(m, q);
      if (q == i) fail_msg("%s: node %u's subtree end %u is too early", path, i, e);
    }
  }
}

/* gl_model_resolve answers from the qualified flag once the provenance pass has run, so the
 * flag is checked against a model of the same tree built without library models, which
 * resolves every name through its scopes. */
static void check_qualified(fx *f, const char *path) {
  const gl_model *m = f->m;
  gl_model *raw = gl_model_build(&f->src, f->tree, NULL);
  assert_int_equal(gl_model_node_count(raw), gl_model_node_count(m));
  assert_false(gl_model_has_provenance(raw));
  for (uint32_t i = 0; i < gl_model_node_count(m); i++) {
    TSNode node = gl_model_node_at(m, i);
    const char *t = ts_node_type(node);
    if (strcmp(t, "identifier") != 0 && strcmp(t, "attribute") != 0) continue;
    bool res = gl_model_resolve(raw, node, f->buf, sizeof(f->buf));
    if (res != gl_model_node_qualified(m, i) || res != gl_model_resolve(m, node, f->buf, sizeof(f->buf)))
      fail_msg("%s:%u: %s '%.*s' resolves %d but qualified %d", path,
               ts_node_start_point(node).row + 1, t,
               (int)(ts_node_end_byte(node) - ts_node_start_byte(node)),
               f->src.bytes + ts_node_start_byte(node), res, !res);
  }
  gl_model_free(raw);
}

static void test_index_on_fixtures(void **state) {
  (void)state;
  gl_libmodels *lm = builtin_models();
  path_list paths = {0};
  collect(GL_SOURCE_DIR "/examples", &paths);
  collect(GL_SOURCE_DIR "/tests/rules/fixtures", &paths);
  assert_true(paths.len > 50);
  for (size_t k = 0; k < paths.len; k++) {
    size_t len;
    char *code = slurp(paths.data[k], &len);
    fx *f = fx_build(code, len, lm);
    check_order(f, paths.data[k]);
    check_shape(f, paths.data[k]);
    check_qualified(f, paths.data[k]);
    done(f);
    free(code);
    free(paths.data[k]);
  }
  gl_vec_free(&paths);
  gl_libmodels_free(lm);
}

static void test_imports(void **state) {
  (void)state;
  gl_libmodels *lm = builtin_models();
  const char *code =
      "from time import perf_counter as pc\n"
      "import datetime.datetime\n"
      "def f():\n"
      "    import timeit\n"
      "from . import torch\n"
      "import cupyx as cp\n";
  fx *f = fx_build(code, strlen(code), lm);
  assert_true(gl_model_imports(f->m, "time"));
  assert_true(gl_model_imports(f->m, "time.perf_counter"));
  assert_true(gl_model_imports(f->m, "datetime"));
  assert_true(gl_model_imports(f->m, "timeit"));     /* in a function's scope */
  assert_true(gl_model_imports(f->m, "cupyx"));
  assert_false(gl_model_imports(f->m, "cupy"));      /* cupyx is not inside cupy */
  assert_false(gl_model_imports(f->m, "torch"));     /* a relative import */
  assert_false(gl_model_imports(f->m, "tim"));
  assert_false(gl_model_imports(f->m, "time.process_time"));
  done(f);
  gl_libmodels_free(lm);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_index_on_fixtures),
      cmocka_unit_test(test_imports),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
