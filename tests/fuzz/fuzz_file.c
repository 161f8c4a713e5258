/* fuzz_file.c: one input file through the whole pipeline: load (encodings, BOMs, NULs, line
 * endings), prefilter, parse, model, match with every built-in rule, suppress, and every report
 * format. Built twice: fuzz_source names the input input.py, fuzz_notebook input.ipynb (the JSON
 * and nbformat checks, code cells as one virtual source, magics, findings moved back to cells). */
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gl_run run = gl_fuzz_run();
  gl_fuzz_lint_file(GL_FUZZ_INPUT_NAME, data, size, &run);
  gl_fuzz_report_all(&run);
  gl_run_free(&run);
  return 0;
}
