/* test_program.c: the program stage on hand-written summaries: module names from paths (packages,
 * relative imports, a name two files share), which files a run must summarise though the
 * prefilter skipped them, hotness down chains of calls (and not through guarded calls, calls
 * beside an epoch loop, or calls of another def), device parameters to a fixed point, and the
 * why of each hot def. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "program/program.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const gl_program_hot *hot_of(const gl_program_file *pf, uint32_t start) {
  for (size_t k = 0; k < pf->n; k++)
    if (pf->hot[k].start == start) return &pf->hot[k];
  return NULL;
}

/* main.py's loop calls engine.step (absolute import) with device data and, through it,
 * helpers.report (relative import); engine.epoch gets none (and has a loop of its own: what it
 * calls beside that loop would not be per step anyway). */
static void test_chain_through_relative_import(void **state) {
  (void)state;
  const char *paths[] = {"./main.py", "pkg/__init__.py", "pkg/engine.py", "pkg/helpers.py"};
  const char *sums[] = {
      "T\ttorch.Tensor\nD\tmain\t0\t100\t2\t\n"
      "I\tstep\t0\tpkg.engine\tstep\nI\tengine\t0\tpkg\tengine\n"
      "C\t0\t3\t5\t50\td\tstep\nC\t0\t3\t6\t60\t?\tengine.epoch\n",
      "",
      "D\tstep\t10\t50\t0\t\nD\tepoch\t60\t90\t2\t\n"
      "I\treport\t1\thelpers\treport\nI\tlate\t1\thelpers\tlate\n"
      "C\t0\t2\t3\t30\t0\treport\nC\t1\t2\t8\t80\t?\tlate\n",
      "D\treport\t0\t30\t0\t\nD\tlate\t40\t60\t0\t\n",
  };
  bool need[4];
  const char *partial[] = {sums[0], NULL, sums[2], NULL};
  gl_program_needed(paths, partial, 4, need);
  assert_false(need[0]);
  assert_true(need[3]);     /* pkg/helpers.py: imported by pkg/engine.py */
  gl_program_file *pf = gl_program_solve(paths, sums, 4, NULL, NULL);
  const gl_program_hot *step = hot_of(&pf[2], 10), *report = hot_of(&pf[3], 0);
  assert_non_null(step);
  assert_true(step->hot);
  assert_int_equal(step->device_params, 1);
  assert_string_equal(step->device_type, "torch.Tensor");
  assert_string_equal(step->why, "`step` runs on every step (./main.py:5)");
  assert_non_null(report);
  assert_int_equal(report->device_params, 1);   /* passed on by step as it came */
  assert_string_equal(report->why, "`report` runs on every step (./main.py:5 -> pkg/engine.py:3)");
  assert_null(hot_of(&pf[2], 60));     /* given no device data: a loader, not a step's helper */
  assert_null(hot_of(&pf[3], 40));     /* and beside epoch's own loop it would be per epoch */
  gl_program_free(pf, 4);
}

/* A call under a guard (flags 0), a def two calls disagree on (device, host), and a module
 * name two files share: nothing. */
static void test_near_misses(void **state) {
  (void)state;
  const char *paths[] = {"train.py", "a/utils.py", "b/utils.py", "m.py"};
  const char *sums[] = {
      "D\tmain\t0\t100\t2\t\nI\tutils\t0\tutils\t\nI\tm\t0\tm\t\n"
      "C\t0\t0\t4\t40\td\tm.guarded\nC\t0\t3\t5\t50\td\tm.mixed\nC\t0\t1\t6\t60\t?\tm.mixed\n"
      "C\t0\t3\t7\t70\td\tutils.log\n",
      "D\tlog\t0\t10\t0\t\n",
      "D\tlog\t0\t10\t0\t\n",
      "D\tguarded\t0\t10\t0\t\nD\tmixed\t20\t30\t0\t\n",
  };
  gl_program_file *pf = gl_program_solve(paths, sums, N(paths), NULL, NULL);
  assert_int_equal(pf[1].n, 0);
  assert_int_equal(pf[2].n, 0);
  assert_null(hot_of(&pf[3], 0));
  const gl_program_hot *mixed = hot_of(&pf[3], 20);
  assert_non_null(mixed);
  assert_int_equal(mixed->device_params, 0);
  assert_null(mixed->device_type);
  gl_program_free(pf, N(paths));
}

/* self.m() inside a class (its parameter 1 given device data: self is 0), passed on to a
 * helper of another file that a package's __init__ re-exports. */
static void test_methods_and_reexports(void **state) {
  (void)state;
  const char *paths[] = {"trainer.py", "lib/__init__.py", "lib/clip.py"};
  const char *sums[] = {
      "D\tT.fit\t0\t50\t2\t\nD\tT.after\t60\t90\t1\t\nI\tclip\t0\tlib\tclip\n"
      "C\t0\t3\t4\t40\td\tself.after\nC\t1\t3\t7\t70\t1\tclip\n",
      "I\tclip\t1\tclip\tclip\n",
      "D\tclip\t0\t40\t0\t\n",
  };
  gl_program_file *pf = gl_program_solve(paths, sums, N(paths), NULL, NULL);
  const gl_program_hot *after = hot_of(&pf[0], 60), *clip = hot_of(&pf[2], 0);
  assert_null(after);   /* hot in its own file, given device data there: reported at that call */
  assert_non_null(clip);
  assert_true(clip->hot);
  assert_int_equal(clip->device_params, 1);
  gl_program_free(pf, N(paths));
}

/* A class typed through a chain of bases in other files (Layer -> Mid -> Base, Base deriving a
 * modelled class); a class with no method besides __init__ needs no fact; an untyped chain none. */
static void test_class_bases(void **state) {
  (void)state;
  const char *paths[] = {"m/base.py", "m/mid.py", "m/layer.py", "m/plain.py"};
  const char *sums[] = {
      "K\tBase\t0\ttorch.nn.ModuleClass\ttorch.nn.Module\nK\tOther\t50\t\t\n",
      "K\tMid\t0\t\tBase\nD\tMid.__init__\t10\t20\t0\t\nI\tBase\t1\tbase\tBase\n",
      "K\tLayer\t5\t\tmid.Mid\nD\tLayer.forward\t20\t40\t0\t\nI\tmid\t0\tm.mid\t\n",
      "K\tPlain\t0\t\tOther\nD\tPlain.forward\t9\t19\t0\t\nI\tOther\t0\tm.base\tOther\n",
  };
  gl_program_file *pf = gl_program_solve(paths, sums, N(paths), NULL, NULL);
  assert_int_equal(pf[1].nclasses, 0);   /* only __init__ */
  assert_int_equal(pf[2].nclasses, 1);
  assert_int_equal(pf[2].classes[0].start, 5);
  assert_string_equal(pf[2].classes[0].type, "torch.nn.ModuleClass");
  assert_int_equal(pf[3].nclasses, 0);
  gl_program_free(pf, N(paths));
}

/* Calls in hot code of another file's defs that return device data: whatever they are given, or
 * given the device data the call passes; not a call in cold code, nor one passing host data. */
static void test_returned_device_data(void **state) {
  (void)state;
  const char *paths[] = {"train.py", "lib.py"};
  const char *sums[] = {
      "T\ttorch.Tensor\nD\tmain\t0\t900\t2\t\nI\tlib\t0\tlib\t\n"
      "C\t0\t3\t5\t100\t\tlib.make\nC\t0\t3\t6\t200\td\tlib.scale\n"
      "C\t0\t3\t7\t300\t?\tlib.scale\nC\t0\t2\t9\t400\t\tlib.make\n",
      "D\tmake\t0\t10\t8\ttorch.Tensor\nD\tscale\t20\t30\t16\t\n",
  };
  gl_program_file *pf = gl_program_solve(paths, sums, N(paths), NULL, NULL);
  assert_int_equal(pf[0].ncalls, 2);
  assert_int_equal(pf[0].calls[0].start, 100);
  assert_string_equal(pf[0].calls[0].type, "torch.Tensor");
  assert_int_equal(pf[0].calls[1].start, 200);
  assert_null(pf[0].calls[1].type);   /* lib.py imports no framework: type unknown */
  assert_int_equal(pf[1].ncalls, 0);
  gl_program_free(pf, N(paths));
}

/* Folders that are not identifiers end a module name: a project checked out as my-proj/ (or a
 * path given with ./) still resolves `from src.pkg.mod import f`; `1x/` or `a b/` never. */
static void test_module_names_from_paths(void **state) {
  (void)state;
  const char *paths[] = {"checkouts/my-proj/src/pkg/mod.py", "checkouts/my-proj/train.py",
                         "./my proj/src/pkg/__init__.py"};
  const char *sums[] = {
      "D\tf\t0\t10\t0\t\n",
      "D\tmain\t0\t90\t2\t\nI\tf\t0\tsrc.pkg.mod\tf\nI\tg\t0\tsrc.pkg\tg\n"
      "C\t0\t3\t4\t40\td\tf\nC\t0\t3\t5\t50\td\tg\n",
      "D\tg\t0\t10\t0\t\n",
  };
  gl_program_file *pf = gl_program_solve(paths, sums, N(paths), NULL, NULL);
  assert_int_equal(pf[0].n, 1);
  assert_string_equal(pf[0].hot[0].why, "`f` runs on every step (checkouts/my-proj/train.py:4)");
  assert_int_equal(pf[2].n, 1);   /* src/pkg/__init__.py is the package src.pkg */
  gl_program_free(pf, N(paths));
}

/* hot-functions: a dotted name resolved like an import, a bare qualified name matched in every
 * file, and what they give device data to; a name matching nothing changes nothing. */
static void test_user_roots(void **state) {
  (void)state;
  const char *paths[] = {"lib/optim.py", "lib/norms.py", "a/steps.py", "b/steps.py"};
  const char *sums[] = {
      "D\tW.step\t0\t90\t2\t\nD\tW.other\t100\t120\t0\t\nI\tnorm\t1\tnorms\tnorm\n"
      "C\t0\t2\t7\t70\td\tnorm\n",
      "D\tnorm\t0\t30\t0\t\n",
      "D\ttrain_step\t0\t50\t0\t\n",
      "D\ttrain_step\t0\t50\t0\t\nD\teval_step\t60\t90\t0\t\n",
  };
  const char *names[] = {"lib.optim.W.step", "train_step", "nothing.here"};
  gl_program_roots roots = {names, 3};
  gl_program_file *pf = gl_program_solve(paths, sums, N(paths), NULL, &roots);
  const gl_program_hot *step = hot_of(&pf[0], 0);
  assert_non_null(step);
  assert_true(step->root);
  assert_string_equal(step->why, "`W.step` runs on every step (named in hot-functions)");
  assert_null(hot_of(&pf[0], 100));
  const gl_program_hot *norm = hot_of(&pf[1], 0);
  assert_non_null(norm);
  assert_false(norm->root);
  assert_string_equal(norm->why, "`norm` runs on every step (`W.step` in hot-functions -> lib/optim.py:7)");
  assert_non_null(hot_of(&pf[2], 0));
  assert_non_null(hot_of(&pf[3], 0));
  assert_null(hot_of(&pf[3], 60));
  gl_program_free(pf, N(paths));
}

/* Garbage in a summary is skipped, never read past. */
static void test_malformed(void **state) {
  (void)state;
  const char *paths[] = {"x.py", "y.py"};
  const char *sums[] = {"C\t9\t3\t1\t10\td\ty.f\nD\nI\t\nC\t-1\nzzz\n", "D\tf\t0\t1\t0\t"};
  gl_program_file *pf = gl_program_solve(paths, sums, N(paths), NULL, NULL);
  assert_int_equal(pf[0].n, 0);
  gl_program_free(pf, N(paths));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_chain_through_relative_import),
      cmocka_unit_test(test_near_misses),
      cmocka_unit_test(test_methods_and_reexports),
      cmocka_unit_test(test_class_bases),
      cmocka_unit_test(test_returned_device_data),
      cmocka_unit_test(test_module_names_from_paths),
      cmocka_unit_test(test_user_roots),
      cmocka_unit_test(test_malformed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
