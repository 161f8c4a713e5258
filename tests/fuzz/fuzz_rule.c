/* fuzz_rule.c: a user rule pack: the input is a rule file (markdown: metadata, documentation,
 * examples, the query with its predicates), optionally followed by "\n%%\n" and a Python source to
 * lint, and by another "\n%%\n" and a library model (models/mygpu.json: its "library" must be mygpu). The pack is loaded beside
 * a fixed README, its query compiled (the load-time checks on depth, quantifiers and pattern
 * count), and the source linted with it and reported in every format. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parse/parse.h"

static const char readme[] =
    "# Fuzz rules\n\n```json\n{\"name\": \"fuzz\", \"prefix\": \"GPU99\", \"triggers\": []}\n```\n\n"
    "A pack of one rule.\n";

/* Cuts [*p, end) at the next "\n%%\n": returns the length before it and moves *p past it. */
static size_t part(const char **p, const char *end) {
  const char *s = *p;
  for (const char *q = s; q + 4 <= end; q++)
    if (memcmp(q, "\n%%\n", 4) == 0) {
      *p = q + 4;
      return (size_t)(q - s);
    }
  *p = end;
  return (size_t)(end - s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *p = (const char *)data, *end = p + size;
  gl_rule_file files[3] = {{"fuzz/README.md", readme, sizeof readme - 1}};
  files[1] = (gl_rule_file){"fuzz/GPU990.md", p, part(&p, end)};
  const char *src = p;
  size_t src_len = part(&p, end);
  size_t nfiles = 2;
  if (p < end) files[nfiles++] = (gl_rule_file){"fuzz/models/mygpu.json", p, (size_t)(end - p)};
  if (src_len == 0) {
    src = gl_fuzz_train_py;
    src_len = strlen(src);
  }
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  gl_diag err = {0};
  static const char *const all[] = {"ALL"};
  if (gl_rules_add_files(set, files, nfiles, &errs) == 0 && gl_rules_finish(set, &errs) == 0 &&
      gl_rules_select(set, all, 1, NULL, 0, NULL, 0, &err) == 0) {
    gl_matcher *m = gl_match_new(set, gl_parse_language(), &errs);
    if (m && !errs.len) {
      gl_run run = gl_fuzz_run();
      run.rules = set;
      gl_engine_opts opts = gl_fuzz_engine_opts();
      opts.prefilter = false;
      gl_engine_lint_buffer("input.py", src, src_len, set, m, &opts, gl_vec_grow(&run.files));
      gl_fuzz_report_all(&run);
      gl_run_free(&run);
    }
    gl_match_free(m);
  }
  gl_vec_free(&errs);
  gl_rules_free(set);
  return 0;
}
