/* test_accel.c: the accelerator-mode and opportunity checks (GPU701-GPU704, GPU901-GPU905)
 * through the real engine, for what the rule fixtures cannot hold: notebooks (`%load_ext`
 * magics, cells in order), exact messages, positions and related locations.
 * Threads: single-threaded test code; notebooks are written to temporary files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine_fixture.h"
#include "walk/walk.h"

static int setup(void **state) {
  static const char *const sel[] = {"accelerator-modes", "opportunities"};
  return engine_setup(state, sel, 2);
}

/* Lints json as a notebook file; the run (one file) is the caller's to free. */
static const gl_file_result *lint_nb(const ctx *c, const char *json, gl_run *run) {
  char path[] = "/tmp/gl_accel_XXXXXX.ipynb";
  int fd = mkstemps(path, 6);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, json, strlen(json)), (ssize_t)strlen(json));
  close(fd);
  gl_walk_file f = {path, true};
  /* Without the prefilter: it reads the notebook's code with magics blanked, so a notebook whose
   * only RAPIDS word is `%load_ext cudf.pandas` would be skipped (an engine matter). */
  gl_engine_opts opts = c->opts;
  opts.prefilter = false;
  gl_engine_run(&f, 1, c->set, c->matcher, &opts, run);
  unlink(path);
  assert_int_equal(run->files.len, 1);
  return &run->files.data[0];
}

#define NB(cells) "{\"nbformat\": 4, \"nbformat_minor\": 5, \"metadata\": {}, \"cells\": [" cells "]}"
#define CODE(src) "{\"cell_type\": \"code\", \"metadata\": {}, \"outputs\": [], \"source\": " src "}"

static void test_magic_after_pandas_import(void **state) {
  gl_run run = {0};
  const gl_file_result *r = lint_nb(*state, NB(CODE("[\"import pandas as pd\"]") ","
                                               CODE("[\"%load_ext cudf.pandas\\n\", \"df = pd.DataFrame()\"]")),
                                    &run);
  assert_int_equal(r->findings.len, 1);
  const gl_finding *f = &r->findings.data[0];
  assert_string_equal(f->rule->id, "GPU701");
  assert_int_equal(f->cell, 2);
  assert_int_equal(f->cell_region.start_line, 1);
  assert_int_equal(f->cell_region.start_col, 1);
  assert_string_equal(f->message,
                      "`%load_ext cudf.pandas` runs after pandas was imported (cell 1, line 1), so "
                      "pandas stays on the CPU: restart the kernel and load the extension before "
                      "anything imports pandas");
  assert_int_equal(f->nrelated, 1);
  assert_string_equal(f->related_msg[0], "pandas imported here (cell 1, line 1, col 8)");
  gl_run_free(&run);
}

static void test_magic_first_is_clean(void **state) {
  gl_run run = {0};
  const gl_file_result *r = lint_nb(*state, NB(CODE("[\"%load_ext cudf.pandas\"]") ","
                                               CODE("[\"import pandas as pd\\n\", \"%load_ext cudf.pandas\"]")),
                                    &run);
  assert_int_equal(r->findings.len, 0); /* the second magic comes after a first, correct one */
  gl_run_free(&run);
}

static void test_cuml_magic_after_sklearn(void **state) {
  gl_run run = {0};
  const gl_file_result *r = lint_nb(*state, NB(CODE("[\"import os\\n\", \"from sklearn.svm import SVC\"]") ","
                                               CODE("[\"%load_ext cuml.accel\"]") ","
                                               CODE("[\"%load_ext cuml.accelerator\"]")),
                                    &run);
  assert_int_equal(r->findings.len, 1); /* another extension whose name starts the same: no */
  const gl_finding *f = &r->findings.data[0];
  assert_string_equal(f->rule->id, "GPU702");
  assert_int_equal(f->cell, 2);
  assert_string_equal(f->related_msg[0], "sklearn.svm imported here (cell 1, line 2, col 6)");
  gl_run_free(&run);
}

static void test_call_message_and_position(void **state) {
  gl_file_result r = lint_py(*state, "import pandas.api.types as pt\nimport cudf.pandas\n\nx = 1; cudf.pandas.install()\n");
  assert_int_equal(r.findings.len, 1);
  const gl_finding *f = &r.findings.data[0];
  assert_string_equal(f->rule->id, "GPU701");
  assert_int_equal(f->region.start_line, 4);
  assert_int_equal(f->region.start_col, 8);
  assert_string_equal(f->message,
                      "`cudf.pandas.install()` runs after pandas was imported (line 1), so pandas "
                      "stays on the CPU: enable cudf.pandas before the first import of pandas, or "
                      "run the program with `python -m cudf.pandas`");
  assert_int_equal(f->related[0].start_line, 1);
  assert_int_equal(f->related[0].start_col, 8);
  assert_string_equal(f->related_msg[0], "pandas.api.types imported here");
  gl_file_result_free(&r);
}

static void test_type_checking_forms(void **state) {
  gl_file_result r = lint_py(*state,
                             "import typing\nimport cudf.pandas\n"
                             "if typing.TYPE_CHECKING:\n    import pandas\n"
                             "elif TYPE_CHECKING:\n    import pandas\n"
                             "cudf.pandas.install()\n");
  assert_int_equal(r.findings.len, 0);
  gl_file_result_free(&r);
  r = lint_py(*state, "import cudf.pandas\nif not TYPE_CHECKING:\n    import pandas\n    cudf.pandas.install()\n");
  assert_int_equal(r.findings.len, 1); /* `not TYPE_CHECKING` runs */
  assert_int_equal(r.findings.data[0].region.start_line, 4);
  gl_file_result_free(&r);
}

static void test_relative_and_lookalike_imports(void **state) {
  gl_file_result r = lint_py(*state,
                             "from . import pandas\nfrom .pandas import x\nimport pandas_utils\n"
                             "import sklearnx\nimport cudf.pandas, cuml.accel\n"
                             "cudf.pandas.install()\ncuml.accel.install()\n");
  assert_int_equal(r.findings.len, 0);
  gl_file_result_free(&r);
}

static void test_notebook_magic_enables_for_fallbacks(void **state) {
  gl_run run = {0};
  const gl_file_result *r = lint_nb(*state, NB(CODE("[\"%load_ext cudf.pandas\"]") ","
                                               CODE("[\"import pandas as pd\\n\", \"df = pd.read_csv(p)\\n\", "
                                                    "\"rows = list(df.iterrows())\"]")),
                                    &run);
  /* the magic turns GPU704 on and GPU901 (pandas without cudf.pandas) off */
  assert_int_equal(r->findings.len, 1);
  const gl_finding *f = &r->findings.data[0];
  assert_string_equal(f->rule->id, "GPU704");
  assert_int_equal(f->cell, 2);
  assert_int_equal(f->cell_region.start_line, 3);
  assert_int_equal(f->cell_region.start_col, 13);
  assert_string_equal(f->message,
                      "`df.iterrows()` iterates over rows, which cuDF cannot do, so under cudf.pandas "
                      "the frame is copied to the host and iterated by pandas; use column-wise "
                      "(vectorized) operations instead");
  gl_run_free(&run);
}

static void test_opportunity_once_per_file(void **state) {
  gl_file_result r = lint_py(*state,
                             "import os\nimport pandas as pd\nfrom pandas import merge\n"
                             "a = pd.read_csv(os.sep)\nb = merge(a, a)\n");
  assert_int_equal(r.findings.len, 1);
  const gl_finding *f = &r.findings.data[0];
  assert_string_equal(f->rule->id, "GPU901");
  assert_int_equal(f->level, GL_LEVEL_NOTE);
  assert_int_equal(f->region.start_line, 2);
  assert_int_equal(f->region.start_col, 8);
  assert_string_equal(f->message,
                      "`pd.read_csv(os.sep)` (line 4) runs in pandas on the CPU; cudf.pandas runs "
                      "the same pandas code on the GPU, falling back to the CPU where it must: "
                      "start the program with `python -m cudf.pandas` (or `%load_ext cudf.pandas` "
                      "first in a notebook) and measure");
  assert_int_equal(f->nrelated, 1);
  assert_int_equal(f->related[0].start_line, 4);
  assert_string_equal(f->related_msg[0], "the call a GPU library covers");
  gl_file_result_free(&r);
}

int main(void) {
  gl_parse_install_hooks();
  gl_xalloc_install_cjson_hooks();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_magic_after_pandas_import),
      cmocka_unit_test(test_magic_first_is_clean),
      cmocka_unit_test(test_cuml_magic_after_sklearn),
      cmocka_unit_test(test_call_message_and_position),
      cmocka_unit_test(test_type_checking_forms),
      cmocka_unit_test(test_relative_and_lookalike_imports),
      cmocka_unit_test(test_notebook_magic_enables_for_fallbacks),
      cmocka_unit_test(test_opportunity_once_per_file),
  };
  return cmocka_run_group_tests(tests, setup, engine_teardown);
}
