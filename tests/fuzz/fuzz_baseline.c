/* fuzz_baseline.c: a baseline SARIF log (--baseline): parsed and, when it loads, matched against
 * the findings of a small source (new, unchanged, absent), then written in every report format
 * (the SARIF writer repeats absent results from the baseline). */
#include <string.h>

#include "ci/ci.h"
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gl_diag err = {0};
  gl_baseline *base = gl_baseline_parse("baseline.sarif", (const char *)data, size, &err);
  if (!base) return 0;
  gl_run run = gl_fuzz_run();
  gl_fuzz_lint_text("train.py", gl_fuzz_train_py, strlen(gl_fuzz_train_py), &run);
  gl_baseline_apply(base, &run);
  gl_fuzz_report_all(&run);
  gl_run_free(&run);
  gl_baseline_free(base);
  return 0;
}
