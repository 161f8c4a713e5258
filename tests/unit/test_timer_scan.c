/* test_timer_scan.c: unit tests for the index of the timing checks (src/checks/timing/timer_scan.h),
 * over the built-in library models read from rules/models.
 * Owns: which nodes become events (clock kinds through aliases, GPU work, syncs, a file's
 *       syncing helper), bindings and parameters, timer classes, the region question (surely
 *       run, nested defs, sync after work, ignore_sync) and the library of a GPU-work event.
 * Not: the checks' findings (tests/rules/fixtures/timing). Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "checks/timing/timer_scan.h"
#include "libmodel/libmodel.h"
#include "base/load.h"
#include "model/model.h"
#include "parse/parse.h"

static const char *const model_names[] = {"python", "builtins", "cupy", "torch", "numpy"};

static gl_libmodels *models_new(void) {
  gl_libmodels *lm = gl_libmodels_new();
  gl_diag_list errs = {0};
  for (size_t i = 0; i < sizeof model_names / sizeof *model_names; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/rules/models/%s.json", GL_SOURCE_DIR, model_names[i]);
    gl_source src;
    gl_diag err = {0};
    assert_int_equal(gl_load_file(&src, path, 1u << 24, &err), 0);
    gl_libmodels_add(lm, path, src.bytes, src.len, &errs);
    gl_source_free(&src);
  }
  gl_libmodels_freeze(lm, &errs);
  if (errs.len) fail_msg("model errors: %zu", errs.len);
  gl_vec_free(&errs);
  return lm;
}

typedef struct fx {
  gl_source src;
  TSTree *tree;
  gl_model *m;
  gl_tscan s;
} fx;

static fx *build(const gl_libmodels *lm, const char *code) {
  fx *f = calloc(1, sizeof *f);
  gl_load_buffer(&f->src, "t.py", code, strlen(code));
  gl_parser *p = gl_parse_new(0, 0);
  gl_diag err;
  f->tree = gl_parse_source(p, &f->src, &err);
  gl_parse_free(p);
  f->m = gl_model_build(&f->src, f->tree, lm);
  gl_tscan_build(&f->s, &f->src, f->tree, f->m, NULL);
  return f;
}

static void done(fx *f) {
  gl_tscan_free(&f->s);
  gl_model_free(f->m);
  ts_tree_delete(f->tree);
  gl_source_free(&f->src);
  free(f);
}

/* The index of the event whose node text is text and whose kind has bits, or -1. */
static int32_t event(const fx *f, const char *text, uint8_t bits) {
  for (size_t i = 0; i < f->s.events.len; i++) {
    const gl_tevent *e = &f->s.events.data[i];
    size_t n = e->pos - e->start;
    if ((e->kind & bits) && n == strlen(text) && memcmp(f->src.bytes + e->start, text, n) == 0)
      return (int32_t)i;
  }
  return -1;
}

static uint32_t byte_of(const fx *f, const char *text) {
  const char *p = strstr(f->src.bytes, text);
  assert_non_null(p);
  return (uint32_t)(p - f->src.bytes);
}

static void test_clock_kinds(void **state) {
  fx *f = build(*state,
                "import time\nfrom time import perf_counter as pc, process_time as pt\n"
                "import timeit\nfrom datetime import datetime\n"
                "a = pc()\nb = pt()\nc = time.thread_time_ns()\nd = timeit.default_timer()\n"
                "e = datetime.now()\ng = time.clock_gettime(0)\nh = time.sleep(1)\n");
  assert_true(event(f, "pc()", GL_TEV_WALL) >= 0);
  assert_true(event(f, "pt()", GL_TEV_CPU) >= 0);
  assert_int_equal(event(f, "pt()", GL_TEV_WALL), -1);
  assert_true(event(f, "time.thread_time_ns()", GL_TEV_CPU) >= 0);
  assert_true(event(f, "timeit.default_timer()", GL_TEV_WALL) >= 0);
  assert_true(event(f, "datetime.now()", GL_TEV_WALL) >= 0);
  assert_int_equal(event(f, "time.clock_gettime(0)", 0xff), -1);  /* clock unknown: neither */
  assert_int_equal(event(f, "time.sleep(1)", 0xff), -1);
  /* every `x = ...` is a binding; the clock ones link to their read */
  assert_int_equal(f->s.assigns.len, 7);
  assert_int_equal(f->s.assigns.data[0].ev, event(f, "pc()", GL_TEV_WALL));
  assert_int_equal(f->s.assigns.data[5].ev, -1);
  done(f);
}

static void test_work_and_sync_events(void **state) {
  fx *f = build(*state,
                "import cupy as cp\nimport numpy as np\nimport torch\n"
                "a = cp.ones(4)\nh = np.ones(4)\nt = torch.ones(4, device='cuda')\n"
                "b = a + 1\nk = h + 1\nm = torch.matmul(t, t)\nv = a.get()\nw = float(t.sum())\n"
                "def helper():\n    torch.cuda.synchronize()\nhelper()\nother()\n");
  assert_true(event(f, "cp.ones(4)", GL_TEV_WORK) >= 0);
  assert_true(event(f, "a + 1", GL_TEV_WORK) >= 0);
  assert_int_equal(event(f, "h + 1", 0xff), -1);                   /* host arithmetic */
  assert_int_equal(event(f, "np.ones(4)", 0xff), -1);
  assert_true(event(f, "torch.matmul(t, t)", GL_TEV_WORK) >= 0);   /* device result, no role */
  assert_true(event(f, "a.get()", GL_TEV_SYNC) >= 0);
  assert_int_equal(event(f, "a.get()", GL_TEV_WORK), -1);
  assert_true(event(f, "float(t.sum())", GL_TEV_SYNC) >= 0);
  assert_true(event(f, "helper()", GL_TEV_SYNC) >= 0);            /* the file's syncing helper */
  assert_int_equal(event(f, "other()", GL_TEV_SYNC | GL_TEV_WORK), -1);
  done(f);
}

static void test_region(void **state) {
  const char *code =
      "import time\nimport cupy as cp\na = cp.ones(4)\n"
      "def f(flag):\n"
      "    t0 = time.perf_counter()\n"
      "    b = a * 2\n"
      "    if flag:\n        c = a * 3\n"
      "    def later():\n        return a * 4\n"
      "    t1 = time.perf_counter()\n"
      "    if flag:\n        cp.cuda.Device().synchronize()\n"
      "    t2 = time.perf_counter()\n";
  fx *f = build(*state, code);
  int32_t t0 = event(f, "time.perf_counter()", GL_TEV_WALL);
  const gl_tevent *o = &f->s.events.data[t0];
  uint32_t t1 = byte_of(f, "time.perf_counter()\n    if");
  uint32_t t2 = byte_of(f, "t2 = ") + 5;
  int32_t fn = o->fn;
  assert_true(fn > 0);
  assert_true(event(f, "a * 2", GL_TEV_WORK) >= 0);
  assert_true(event(f, "a * 3", GL_TEV_WORK) > event(f, "a * 2", GL_TEV_WORK));
  assert_true(event(f, "a * 4", GL_TEV_WORK) > event(f, "a * 3", GL_TEV_WORK));
  /* `a * 2` surely ran; `a * 3` is under an if that t1 is not in; `a * 4` is in a nested def */
  assert_int_equal(gl_tscan_region(&f->s, o->pos, t1, fn, t1, false), event(f, "a * 2", GL_TEV_WORK));
  /* a sync under an if counts: nothing unsynchronized before t2 */
  assert_int_equal(gl_tscan_region(&f->s, o->pos, t2, fn, t2, false), -1);
  /* ignoring syncs, the last surely-run work is still `a * 2` */
  assert_int_equal(gl_tscan_region(&f->s, o->pos, t2, fn, t2, true), event(f, "a * 2", GL_TEV_WORK));
  /* seen from inside the if body (at = the `a * 3` line) that work counts too */
  uint32_t in_if = byte_of(f, "c = a * 3");
  assert_int_equal(gl_tscan_region(&f->s, o->pos, in_if + 9, fn, in_if, false),
                   event(f, "a * 3", GL_TEV_WORK));
  /* an empty region */
  assert_int_equal(gl_tscan_region(&f->s, o->pos, o->pos, fn, o->pos, false), -1);
  done(f);
}

static void test_classes_and_libs(void **state) {
  fx *f = build(*state,
                "import time\nimport cupy as cp\nimport torch\n"
                "class T:\n    def __enter__(self):\n        self.s = time.perf_counter()\n"
                "    def __exit__(self, *e):\n        self.e = time.perf_counter()\n"
                "class U:\n    def __exit__(self, *e):\n        self.e = time.perf_counter()\n"
                "x = cp.ones(3)\ny = x * 2\nz = torch.ones(3, device='cuda') * 2\n"
                "with T() as t:\n    pass\n");
  assert_int_equal(f->s.classes.len, 2);
  assert_true(f->s.classes.data[0].enter_ev >= 0);
  assert_true(f->s.classes.data[0].exit_ev > f->s.classes.data[0].enter_ev);
  assert_int_equal(f->s.classes.data[1].enter_ev, -1);
  assert_true(f->s.classes.data[1].exit_ev >= 0);
  assert_int_equal(f->s.withs.len, 1);
  assert_true(event(f, "cp.ones(3)", GL_TEV_WORK) >= 0);
  assert_true(event(f, "x * 2", GL_TEV_WORK) >= 0);
  assert_true(event(f, "torch.ones(3, device='cuda') * 2", GL_TEV_WORK) >= 0);
  /* The library of GPU work, and the fix its model words (cupyx belongs to cupy's model). */
  const gl_libmodels *lm = *state;
  gl_tlib cupy = gl_tscan_lib_of(lm, "cupyx.scipy", 11), torch = gl_tscan_lib_of(lm, "torch", 5);
  assert_int_not_equal(cupy, GL_TLIB_NONE);
  assert_int_not_equal(torch, GL_TLIB_NONE);
  assert_int_not_equal(cupy, torch);
  assert_int_equal(gl_tscan_lib_of(lm, "cupy.ones", 9), cupy);
  assert_int_equal(gl_tscan_lib_of(lm, "numpy.ones", 10), GL_TLIB_NONE);   /* no "synchronize" */
  assert_int_equal(gl_tscan_lib_of(lm, "cupyfoo", 7), GL_TLIB_NONE);
  assert_int_equal(gl_tscan_event_lib(&f->s, event(f, "cp.ones(3)", GL_TEV_WORK)), cupy);
  assert_int_equal(gl_tscan_event_lib(&f->s, event(f, "x * 2", GL_TEV_WORK)), cupy);
  assert_int_equal(gl_tscan_event_lib(&f->s, event(f, "torch.ones(3, device='cuda') * 2", GL_TEV_WORK)),
                   torch);
  char buf[256];
  assert_string_equal(gl_tscan_fix(lm, cupy, GL_TFIX_CALL, buf, sizeof buf),
                      "call `cp.cuda.Device().synchronize()` before reading the clock, or time it "
                      "with `cupyx.profiler.benchmark`");
  assert_string_equal(gl_tscan_fix(lm, torch, GL_TFIX_END, buf, sizeof buf),
                      "end it with `torch.cuda.synchronize()`, or time it with "
                      "`torch.utils.benchmark.Timer` or CUDA events");
  assert_null(gl_tscan_fix(lm, GL_TLIB_NONE, GL_TFIX_END, buf, sizeof buf));
  done(f);
}

static void test_without_model(void **state) {
  (void)state;
  fx *f = calloc(1, sizeof *f);
  const char *code = "import time\nt0 = time.time()\n";
  gl_load_buffer(&f->src, "t.py", code, strlen(code));
  gl_tscan_build(&f->s, &f->src, NULL, NULL, NULL);
  assert_int_equal(f->s.events.len, 0);
  assert_int_equal(f->s.fns.len, 1);                               /* the module */
  assert_int_equal(gl_tscan_region(&f->s, 0, 100, 0, 0, false), -1);
  gl_tscan_free(&f->s);
  gl_source_free(&f->src);
  free(f);
}

static int setup(void **state) {
  *state = models_new();
  return 0;
}

static int teardown(void **state) {
  gl_libmodels_free(*state);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_clock_kinds),      cmocka_unit_test(test_work_and_sync_events),
      cmocka_unit_test(test_region),           cmocka_unit_test(test_classes_and_libs),
      cmocka_unit_test(test_without_model),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
