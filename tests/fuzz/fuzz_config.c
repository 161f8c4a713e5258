/* fuzz_config.c: a configuration file: the first byte picks pyproject.toml ([tool.gpulint]) or
 * gpulint.toml (top level); a config that loads is checked against the built-in rules, applied to
 * a command line, shown, and asked about per-file ignores. */
#include <stdlib.h>

#include "cli/cli.h"
#include "config/config.h"
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  const char *name = (data[0] & 1) ? "pyproject.toml" : "gpulint.toml";
  gl_diag err = {0};
  gl_config *cfg = gl_config_load(gl_fuzz_file(name, data + 1, size - 1), &err);
  if (!cfg) return 0;
  const gl_ruleset *set = gl_fuzz_rules();
  gl_diag_list errs = {0};
  gl_config_check_selectors(cfg, set, &errs);
  gl_config_check_rule_options(cfg, set, &errs);
  gl_vec_free(&errs);
  static char *argv[] = {"gpulint", "--show-settings", "src/a.py", NULL};
  gl_cli given, merged;
  if (gl_cli_parse(&given, 3, argv, &err) != 0 || gl_cli_parse(&merged, 3, argv, &err) != 0) abort();
  bool no_default_excludes = false;
  gl_config_apply(cfg, &merged, &no_default_excludes);
  free(gl_config_show(cfg, &given, &merged, set, merged.show_settings));
  static const char *const paths[] = {"a.py", "src/models/train.py", "nb/x.ipynb", "", "../up.py"};
  for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
    for (size_t r = 0; r < set->rules.len; r += 7) gl_config_ignores(cfg, paths[i], set->rules.data[r]);
  gl_cli_free(&merged);
  gl_cli_free(&given);
  gl_config_free(cfg);
  return 0;
}
