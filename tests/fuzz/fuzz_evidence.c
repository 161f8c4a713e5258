/* fuzz_evidence.c: a probe evidence file: parsed and, when it loads, used to calibrate the
 * findings of a small source whose rules bind its metrics (levels, cost text with the device
 * name), then written in every report format. */
#include <stdlib.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "evidence/evidence.h"
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gl_diag err = {0};
  gl_evidence *ev = gl_evidence_parse("evidence.json", (const char *)data, size, &err);
  if (!ev) return 0;
  gl_run run = gl_fuzz_run();
  gl_fuzz_lint_text("train.py", gl_fuzz_train_py, strlen(gl_fuzz_train_py), &run);
  gl_calib_warnings warnings = {0};
  gl_calib_run(&run, ev, &warnings);
  gl_calib_warnings_free(&warnings);
  gl_fuzz_report_all(&run);
  gl_run_free(&run);
  gl_evidence_free(ev);
  return 0;
}
