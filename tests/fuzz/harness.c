/* harness.c: the shared part of the fuzz harnesses (harness.h): rules and matcher built once,
 * the scratch directory, linting one file through the engine, and every report format. */
#define _GNU_SOURCE /* open_memstream, mkdtemp */
#include "harness.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/utf8.h"
#include "base/xalloc.h"
#include "parse/parse.h"
#include "report/report.h"

static gl_ruleset *rules;
static gl_matcher *matcher;
static char scratch[64];
static char path[128];

static void build_rules(void) {
  if (rules) return;
  static const char *const all[] = {"ALL"};
  gl_diag_list errs = {0};
  rules = gl_rules_new();
  gl_diag err = {0};
  if (gl_rules_add_builtin(rules, &errs) != 0 || gl_rules_finish(rules, &errs) != 0 ||
      gl_rules_select(rules, all, 1, NULL, 0, NULL, 0, &err) != 0) {
    fprintf(stderr, "fuzz: the built-in rules did not load\n");
    abort();
  }
  matcher = gl_match_new(rules, gl_parse_language(), &errs);
  if (!matcher || errs.len) {
    fprintf(stderr, "fuzz: the built-in query did not compile\n");
    abort();
  }
}

const gl_ruleset *gl_fuzz_rules(void) {
  build_rules();
  return rules;
}

const gl_matcher *gl_fuzz_matcher(void) {
  build_rules();
  return matcher;
}

gl_engine_opts gl_fuzz_engine_opts(void) {
  return (gl_engine_opts){.jobs = 1, .max_file_bytes = 4u << 20, .parse_timeout_ms = 2000,
                          .prefilter = true};
}

static void remove_scratch(void) {
  if (path[0]) unlink(path);
  if (scratch[0]) rmdir(scratch);
}

const char *gl_fuzz_file(const char *name, const uint8_t *data, size_t size) {
  if (!scratch[0]) {
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch, sizeof scratch, "%s/glfuzz.XXXXXX", tmp && strlen(tmp) < 40 ? tmp : "/tmp");
    if (!mkdtemp(scratch)) abort();
    atexit(remove_scratch);
  }
  if (path[0]) unlink(path);
  snprintf(path, sizeof path, "%s/%s", scratch, name);
  FILE *f = fopen(path, "wb");
  if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) abort();
  return path;
}

void gl_fuzz_report_all(gl_run *run) {
  gl_run_sort(run);
  gl_report_opts opts = {.tool_version = "0", .sarif_category = "fuzz"};
  for (int fmt = 0; gl_report_format_name((gl_format)fmt); fmt++) {
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out) abort();
    opts.color = fmt == GL_FORMAT_FULL;
    if (gl_report_write(out, (gl_format)fmt, run, &opts) != 0) abort();
    fclose(out);
    /* What reaches JSON and SARIF from the input must be valid UTF-8, NULs escaped. */
    if ((fmt == GL_FORMAT_JSON || fmt == GL_FORMAT_SARIF) &&
        (gl_utf8_first_invalid(buf, len) != SIZE_MAX || memchr(buf, 0, len))) {
      fprintf(stderr, "fuzz: %s output is not valid UTF-8 text\n", gl_report_format_name(fmt));
      abort();
    }
    free(buf);
  }
}

void gl_fuzz_lint_file(const char *name, const uint8_t *data, size_t size, gl_run *run) {
  gl_walk_file file = {.path = (char *)gl_fuzz_file(name, data, size), .explicit_arg = true};
  gl_engine_opts opts = gl_fuzz_engine_opts();
  gl_engine_run(&file, 1, gl_fuzz_rules(), gl_fuzz_matcher(), &opts, run);
}

gl_run gl_fuzz_run(void) {
  gl_run run = {0};
  run.rules = gl_fuzz_rules();
  run.srcroot = gl_xstrdup("/tmp");
  return run;
}

void gl_fuzz_lint_text(const char *name, const char *text, size_t len, gl_run *run) {
  gl_engine_opts opts = gl_fuzz_engine_opts();
  gl_file_result *r = gl_vec_grow(&run->files);
  gl_engine_lint_buffer(name, text, len, gl_fuzz_rules(), gl_fuzz_matcher(), &opts, r);
}

/* Findings of many rules (loop reads, timers, float64, transfers), several bound to metrics. */
const char gl_fuzz_train_py[] =
    "import time\nimport numpy as np\nimport cupy as cp\nimport torch\n"
    "def train(loader, model, opt):\n"
    "    for x, y in loader:\n"
    "        x = x.cuda()\n"
    "        loss = model(x).sum()\n"
    "        print(loss.item())\n"
    "        a = cp.asarray(np.ones(10, dtype=np.float64))\n"
    "        t0 = time.perf_counter()\n"
    "        b = cp.matmul(a, a)\n"
    "        print(time.perf_counter() - t0, float(b.sum()))\n";

