/* model_fixture.h: a parsed source and its model, for the unit tests of the model stage
 * (test_model.c, test_model_index.c, test_prov.c) and of the checks' tree helpers
 * (test_kernel_scan.c, test_mem_walk.c, test_bench_scan.c): build one from a string, find a node
 * by type and text, free it.
 * Owns: nothing outside a test; every function is static inline (header-only, a test may use any
 * subset).
 * Threads: single-threaded test code. Include after <cmocka.h>. */
#ifndef GL_TEST_MODEL_FIXTURE_H
#define GL_TEST_MODEL_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "libmodel/libmodel.h"
#include "base/load.h"
#include "model/model.h"
#include "parse/parse.h"

typedef struct fx {
  gl_source src;
  TSTree *tree;
  gl_model *m;
  const gl_libmodels *lm;   /* NULL: names only, no provenance */
  char buf[32768];          /* scratch for resolved names */
} fx;

/* Parses code[0..len) and builds its model with lm (borrowed); fails the test on a parse error. */
static inline fx *fx_build(const char *code, size_t len, const gl_libmodels *lm) {
  fx *f = calloc(1, sizeof(*f));
  assert_non_null(f);
  gl_load_buffer(&f->src, "t.py", code, len);
  gl_parser *p = gl_parse_new(0, 0);
  gl_diag err = {0};
  f->tree = gl_parse_source(p, &f->src, &err);
  gl_parse_free(p);
  if (!f->tree) fail_msg("parse failed: %s", err.msg);
  f->lm = lm;
  f->m = gl_model_build(&f->src, f->tree, lm);
  return f;
}

static inline void done(fx *f) {
  gl_model_free(f->m);
  ts_tree_delete(f->tree);
  gl_source_free(&f->src);
  free(f);
}

/* The nth (0-based) named node of `type` whose text is `text`, in document order (an iterative
 * cursor walk); fails the test when there is none. */
static inline TSNode find(const fx *f, const char *type, const char *text, int nth) {
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(f->tree));
  size_t tl = strlen(text);
  int want = nth;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (ts_node_is_named(n) && strcmp(ts_node_type(n), type) == 0 && b - a == tl &&
        memcmp(f->src.bytes + a, text, tl) == 0 && nth-- == 0) {
      ts_tree_cursor_delete(&c);
      return n;
    }
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) {
        ts_tree_cursor_delete(&c);
        fail_msg("no %s '%s' (occurrence %d)", type, text, want);
      }
    }
  }
}

#endif
