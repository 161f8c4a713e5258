/* test_config.c: unit tests of the configuration resolver (src/config.h): discovery from a
 * directory upward (nearest wins, gpulint.toml before pyproject.toml in one directory, a
 * pyproject.toml without [tool.gpulint] passed over, one with a syntax error anywhere an error),
 * --config files, every key's value, errors at the key's line:col, paths relative to the file's
 * directory, merging under the command line, per-file-ignores globs, severity overrides and
 * rule options (set by id or name, unknown rule or option, wrong type, set twice).
 * Each test works in its own temporary directory tree. Owns: nothing shared. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "walk/walk.h"
#include "base/xalloc.h"

static char root[256];

static void put_file(const char *rel, const char *text) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", root, rel);
  for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
    *p = '\0';
    mkdir(path, 0755);
    *p = '/';
  }
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static void enter(const char *rel) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s/", root, rel);
  for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
    *p = '\0';
    mkdir(path, 0755);
    *p = '/';
  }
  assert_int_equal(chdir(path), 0);
}

static int setup(void **state) {
  (void)state;
  snprintf(root, sizeof(root), "/tmp/gl_config_XXXXXX");
  assert_non_null(mkdtemp(root));
  char *real = realpath(root, NULL);
  snprintf(root, sizeof(root), "%s", real);
  free(real);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  assert_int_equal(chdir("/"), 0);
  char cmd[512];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
  assert_int_equal(system(cmd), 0);
  return 0;
}

static gl_config *discover_ok(void) {
  gl_config *cfg = NULL;
  gl_diag err = {0};
  int rc = gl_config_discover(NULL, &cfg, &err);
  if (rc) fail_msg("unexpected error: %s:%u:%u: %s", err.path, err.line, err.col, err.msg);
  return cfg;
}

static void expect_discover_error(const char *path, uint32_t line, uint32_t col, const char *msg) {
  gl_config *cfg = NULL;
  gl_diag err = {0};
  assert_int_equal(gl_config_discover(NULL, &cfg, &err), GL_EINVAL);
  assert_null(cfg);
  assert_string_equal(err.path, path); /* in the current directory: shown relative */
  assert_int_equal(err.line, line);
  assert_int_equal(err.col, col);
  assert_string_equal(err.msg, msg);
}

static void test_discovery_nearest_wins(void **state) {
  (void)state;
  put_file("pyproject.toml", "[tool.gpulint]\nselect = [\"GPU1\"]\n");
  put_file("a/pyproject.toml", "[project]\nname = \"a\"\n[tool.ruff]\nselect = 3\n");
  put_file("a/b/gpulint.toml", "ignore = [\"GPU201\"]\n");
  put_file("a/b/pyproject.toml", "[tool.gpulint]\nselect = [\"GPU2\"]\n");
  enter("a/b/c");
  gl_config *cfg = discover_ok(); /* a/b: gpulint.toml before the pyproject.toml beside it */
  assert_non_null(cfg);
  char want[512];
  snprintf(want, sizeof(want), "%s/a/b/gpulint.toml", root);
  assert_string_equal(cfg->path, want);
  snprintf(want, sizeof(want), "%s/a/b", root);
  assert_string_equal(cfg->dir, want);
  snprintf(want, sizeof(want), "%s/a/b/", root);
  assert_string_equal(cfg->dir_display, want);
  assert_false(cfg->set[GL_CFG_SELECT]);
  assert_true(cfg->set[GL_CFG_IGNORE]);
  assert_string_equal(cfg->ignore.data[0].s, "GPU201");
  gl_config_free(cfg);
  enter("a"); /* a's pyproject.toml has no [tool.gpulint]: the root's is used */
  cfg = discover_ok();
  snprintf(want, sizeof(want), "%s/pyproject.toml", root);
  assert_string_equal(cfg->path, want);
  assert_string_equal(cfg->select.data[0].s, "GPU1");
  gl_config_free(cfg);
}

static void test_discovery_none_and_syntax(void **state) {
  (void)state;
  enter("empty");
  gl_config *cfg = (gl_config *)1;
  gl_diag err = {0};
  /* Above root (/tmp, /) there is no configuration on the test machine. */
  assert_int_equal(gl_config_discover(NULL, &cfg, &err), 0);
  assert_null(cfg);
  put_file("bad/pyproject.toml", "[tool.ruff]\nline-length = = 3\n[tool.gpulint]\n");
  put_file("gpulint.toml", "select = [\"GPU1\"]\n");
  enter("bad");
  expect_discover_error("pyproject.toml", 2, 15,
                        "Error while parsing value: could not determine value type");
}

static void test_key_errors(void **state) {
  (void)state;
  enter("k");
  put_file("k/gpulint.toml", "select = [\"GPU1\"]\n  selct = [\"GPU2\"]\n");
  expect_discover_error("gpulint.toml", 2, 3, "unknown key 'selct' in gpulint.toml");
  put_file("k/gpulint.toml", "select = \"GPU1\"\n");
  expect_discover_error("gpulint.toml", 1, 1, "'select' must be an array of strings, got string");
  put_file("k/gpulint.toml", "ignore = [\"GPU1\",\n  3]\n");
  expect_discover_error("gpulint.toml", 2, 3, "'ignore' must be an array of strings, got integer");
  put_file("k/gpulint.toml", "fail-on = \"fatal\"\n");
  expect_discover_error("gpulint.toml", 1, 1,
                        "'fail-on' takes \"error\", \"warning\" or \"note\", got \"fatal\"");
  put_file("k/gpulint.toml", "respect-gitignore = \"no\"\n");
  expect_discover_error("gpulint.toml", 1, 1, "'respect-gitignore' must be a boolean, got string");
  put_file("k/gpulint.toml", "[severity]\nGPU201 = \"fatal\"\n");
  expect_discover_error("gpulint.toml", 2, 1,
                        "'severity.GPU201' takes \"error\", \"warning\" or \"note\", got \"fatal\"");
  put_file("k/gpulint.toml", "[per-file-ignores]\n\"a/[b\" = [\"GPU2\"]\n");
  expect_discover_error("gpulint.toml", 2, 1,
                        "invalid per-file-ignores glob 'a/[b': '[' without a closing ']'");
  put_file("k/gpulint.toml", "[per-file-ignores]\n\"{a,b/*.py\" = [\"GPU2\"]\n\"!\" = []\n");
  expect_discover_error("gpulint.toml", 2, 1,
                        "invalid per-file-ignores glob '{a,b/*.py': '{' without a closing '}'");
  put_file("k/gpulint.toml", "[per-file-ignores]\n\"!\" = []\n");
  expect_discover_error("gpulint.toml", 2, 1, "invalid per-file-ignores glob '!': empty pattern");
  put_file("k/gpulint.toml", "output-format = \"xml\"\n");
  expect_discover_error("gpulint.toml", 1, 1, "'output-format' takes \"full\", \"concise\", "
                        "\"json\", \"sarif\", \"github\" or \"gcc\", got \"xml\"");
  put_file("k/gpulint.toml", "");
  put_file("k/pyproject.toml", "[tool]\ngpulint = 1\n");
  remove("gpulint.toml");
  expect_discover_error("pyproject.toml", 2, 1, "'tool.gpulint' must be a table, got integer");
  put_file("k/pyproject.toml", "[tool.gpulint]\ncolor = \"never\"\n");
  expect_discover_error("pyproject.toml", 2, 1, "unknown key 'color' in [tool.gpulint]");
}

static void test_explicit_config_file(void **state) {
  (void)state;
  enter("e");
  put_file("e/conf/pyproject.toml", "[project]\nname = \"x\"\n");
  gl_diag err = {0};
  assert_null(gl_config_load("conf/pyproject.toml", &err));
  assert_string_equal(err.msg, "configuration file has no [tool.gpulint] table");
  assert_null(gl_config_load("missing.toml", &err));
  assert_string_equal(err.msg, "cannot read configuration: no such file or directory");
  assert_null(gl_config_load("conf", &err));
  assert_string_equal(err.msg, "configuration is not a regular file");
  put_file("e/conf/my.toml", "rules = [\"packs\", \"/abs/packs\"]\nevidence = \"ev/h200.json\"\n"
                             "exclude = [\"gen\"]\nextend-exclude = [\"old\"]\n");
  gl_config *cfg = gl_config_load("conf/my.toml", &err);
  assert_non_null(cfg);
  assert_string_equal(cfg->dir_display, "conf/");
  assert_string_equal(cfg->rules.data[0].s, "conf/packs"); /* relative to the file */
  assert_string_equal(cfg->rules.data[1].s, "/abs/packs");
  assert_string_equal(cfg->evidence, "conf/ev/h200.json");
  assert_int_equal(cfg->line[GL_CFG_EXTEND_EXCLUDE], 4);
  gl_config_free(cfg);
}

static void test_apply_precedence(void **state) {
  (void)state;
  enter("m");
  put_file("m/gpulint.toml", "select = [\"GPU1\"]\nextend-select = [\"GPU3\"]\nignore = [\"GPU101\"]\n"
                             "fail-on = \"note\"\noutput-format = \"json\"\nrespect-gitignore = false\n"
                             "evidence = \"e.json\"\nexclude = [\"gen\"]\nextend-exclude = [\"old\"]\n"
                             "rules = [\"packs\"]\n");
  gl_config *cfg = discover_ok();
  char *argv1[] = {"gpulint", "--extend-select", "GPU2", "--exclude", "tmp", NULL};
  gl_cli cli;
  gl_diag err = {0};
  assert_int_equal(gl_cli_parse(&cli, 5, argv1, &err), 0);
  bool no_defaults = false;
  gl_config_apply(cfg, &cli, &no_defaults);
  assert_true(no_defaults);
  assert_true(cli.has_select);
  assert_int_equal(cli.select.len, 1);
  assert_string_equal(cli.select.data[0], "GPU1");
  assert_int_equal(cli.extend_select.len, 2);
  assert_string_equal(cli.extend_select.data[0], "GPU3");
  assert_string_equal(cli.extend_select.data[1], "GPU2");
  assert_int_equal(cli.excludes.len, 3);
  assert_string_equal(cli.excludes.data[0], "gen");
  assert_string_equal(cli.excludes.data[1], "old");
  assert_string_equal(cli.excludes.data[2], "tmp");
  assert_int_equal(cli.fail_on, GL_LEVEL_NOTE);
  assert_int_equal(cli.format, 2 /* json */);
  assert_false(cli.respect_gitignore);
  assert_string_equal(cli.evidence, "e.json");
  assert_string_equal(cli.rules_dirs.data[0], "packs");
  gl_cli_free(&cli);
  char *argv2[] = {"gpulint", "--select", "GPU2", "--fail-on", "error", "--format", "sarif",
                   "--respect-gitignore", "--evidence", "cli.json", NULL};
  assert_int_equal(gl_cli_parse(&cli, 10, argv2, &err), 0);
  gl_config_apply(cfg, &cli, &no_defaults);
  assert_int_equal(cli.select.len, 1); /* the command line's select replaces the file's */
  assert_string_equal(cli.select.data[0], "GPU2");
  assert_int_equal(cli.fail_on, GL_LEVEL_ERROR);
  assert_int_equal(cli.format, 3 /* sarif */);
  assert_true(cli.respect_gitignore);
  assert_string_equal(cli.evidence, "cli.json");
  gl_cli_free(&cli);
  gl_config_free(cfg);
  char *argv3[] = {"gpulint", "--config", "x.toml", "--isolated", NULL};
  assert_int_equal(gl_cli_parse(&cli, 4, argv3, &err), GL_EINVAL);
  assert_string_equal(err.msg, "options '--config' and '--isolated' cannot be used together");
  gl_cli_free(&cli);
}

static void test_per_file_ignores(void **state) {
  (void)state;
  put_file("proj/pyproject.toml",
           "[tool.gpulint.per-file-ignores]\n"
           "\"tests/**\" = [\"GPU3\"]\n"
           "\"./scripts/*.py\" = [\"GPU201\"]\n"
           "\"__init__.py\" = [\"round-trip\"]\n"
           "\"{bench,perf}/**/*_gpu.py\" = [\"ALL\"]\n"
           "\"!src/**\" = [\"GPU101\"]\n");
  enter("proj/src/pkg");
  gl_config *cfg = discover_ok();
  gl_pack round = {.name = "round-trip", .prefix = "GPU2"}, timing = {.name = "timing", .prefix = "GPU3"},
          legacy = {.name = "legacy", .prefix = "GPU1"};
  gl_rule r201 = {.id = "GPU201", .name = "d2h-transfer-in-loop", .pack = &round};
  gl_rule r301 = {.id = "GPU301", .name = "unsynchronized-timer", .pack = &timing};
  gl_rule r101 = {.id = "GPU101", .name = "warp-sim-removed", .pack = &legacy};
  /* paths relative to the current directory proj/src/pkg; globs to proj/ */
  assert_true(gl_config_ignores(cfg, "../../tests/unit/t.py", &r301));
  assert_true(gl_config_ignores(cfg, "../../tests/t.py", &r301));
  assert_false(gl_config_ignores(cfg, "../../tests/t.py", &r201));
  assert_false(gl_config_ignores(cfg, "../tests/t.py", &r301)); /* proj/src/tests: no */
  assert_true(gl_config_ignores(cfg, "../../scripts/run.py", &r201));
  assert_true(gl_config_ignores(cfg, "../../scripts/sub/run.py", &r201)); /* '*' crosses '/' */
  assert_false(gl_config_ignores(cfg, "../../scripts/run.pyc", &r201));
  assert_true(gl_config_ignores(cfg, "__init__.py", &r201));     /* bare name, any directory */
  assert_true(gl_config_ignores(cfg, "./sub/../__init__.py", &r201));
  assert_false(gl_config_ignores(cfg, "__init__.py", &r301));
  assert_true(gl_config_ignores(cfg, "../../perf/x/y_gpu.py", &r101));
  assert_true(gl_config_ignores(cfg, "../../bench/y_gpu.py", &r301));
  assert_false(gl_config_ignores(cfg, "../../benchy/y_gpu.py", &r301));
  assert_false(gl_config_ignores(cfg, "mod.py", &r101));           /* in src/: the negation */
  assert_true(gl_config_ignores(cfg, "../../tools/mod.py", &r101)); /* outside src/ */
  char abs[512];
  snprintf(abs, sizeof(abs), "%s/proj/tests/t.py", root);
  assert_true(gl_config_ignores(cfg, abs, &r301));
  assert_false(gl_config_ignores(NULL, abs, &r301));
  gl_config_free(cfg);
}

static void test_severity_and_selectors(void **state) {
  (void)state;
  enter("s");
  put_file("s/gpulint.toml", "ignore = [\"GPU999\"]\n[severity]\nGPU2 = \"note\"\nGPU201 = \"error\"\n"
                             "nope = \"note\"\n");
  gl_config *cfg = discover_ok();
  gl_pack round = {.name = "round-trip", .prefix = "GPU2"};
  gl_rule r201 = {.id = "GPU201", .name = "d2h-transfer-in-loop", .pack = &round, .level = GL_LEVEL_WARNING};
  gl_rule r202 = {.id = "GPU202", .name = "device-value-in-condition", .pack = &round, .level = GL_LEVEL_WARNING};
  gl_pack *packs[] = {&round};
  gl_rule *rules[] = {&r201, &r202};
  gl_ruleset set = {.packs = {packs, 1, 1}, .rules = {rules, 2, 2}};
  gl_config_apply_severity(cfg, &set);
  assert_int_equal(r201.level, GL_LEVEL_ERROR); /* later entries win */
  assert_int_equal(r202.level, GL_LEVEL_NOTE);
  gl_diag_list errs = {0};
  assert_int_equal(gl_config_check_selectors(cfg, &set, &errs), GL_EINVAL);
  assert_int_equal(errs.len, 2);
  assert_int_equal(errs.data[0].line, 1);
  assert_int_equal(errs.data[0].col, 11);
  assert_string_equal(errs.data[0].msg, "unknown rule selector 'GPU999' (see gpulint rules)");
  assert_int_equal(errs.data[1].line, 5);
  assert_int_equal(errs.data[1].col, 1);
  assert_string_equal(errs.data[1].msg, "unknown rule selector 'nope' (see gpulint rules)");
  gl_vec_free(&errs);
  gl_config_free(cfg);
}

/* A timing rule declaring the string-list option extra-timers (default ["a.b"]). */
typedef struct opt_rules {
  gl_pack pack;
  gl_rule r301, r201;
  gl_rule_option opt;
  char *defaults[1];
  gl_rule *rules[2];
  gl_ruleset set;
} opt_rules;

static void opt_rules_init(opt_rules *o) {
  memset(o, 0, sizeof *o);
  o->pack = (gl_pack){.name = "timing", .prefix = "GPU3"};
  o->defaults[0] = "a.b";
  o->opt = (gl_rule_option){.name = "extra-timers", .type = GL_OPT_STRING_LIST,
                            .description = "more clocks", .defaults = o->defaults, .ndefaults = 1};
  o->r301 = (gl_rule){.id = "GPU301", .name = "unsynchronized-timer", .pack = &o->pack};
  o->r301.options.data = &o->opt;
  o->r301.options.len = o->r301.options.cap = 1;
  o->r201 = (gl_rule){.id = "GPU201", .name = "d2h-transfer-in-loop", .pack = &o->pack};
  o->rules[0] = &o->r201;
  o->rules[1] = &o->r301;
  o->set.rules.data = o->rules;
  o->set.rules.len = o->set.rules.cap = 2;
}

static void opt_rules_free(opt_rules *o) {
  for (size_t i = 0; i < o->opt.nvalues; i++) free(o->opt.values[i]);
  free(o->opt.values);
  free(o->opt.origin);
}

/* Loads text as s/gpulint.toml, checks its rule options against the demo rules and expects
 * exactly one error at line:col with msg (nothing applied). */
static void expect_ropt_error(const char *text, uint32_t line, uint32_t col, const char *msg) {
  put_file("r/gpulint.toml", text);
  gl_config *cfg = discover_ok();
  assert_non_null(cfg);
  opt_rules o;
  opt_rules_init(&o);
  gl_diag_list errs = {0};
  assert_int_equal(gl_config_check_rule_options(cfg, &o.set, &errs), GL_EINVAL);
  assert_int_equal(errs.len, 1);
  assert_string_equal(errs.data[0].path, "gpulint.toml");
  assert_string_equal(errs.data[0].msg, msg);
  assert_int_equal(errs.data[0].line, line);
  assert_int_equal(errs.data[0].col, col);
  gl_vec_free(&errs);
  gl_config_free(cfg);
}

static void test_rule_options_set(void **state) {
  (void)state;
  enter("r");
  put_file("r/gpulint.toml", "select = [\"GPU3\"]\n\n[rule-options.GPU301]\n"
                             "extra-timers = [\"mylib.clock.now\", \"my.tick\"]\n");
  gl_config *cfg = discover_ok();
  assert_true(cfg->set[GL_CFG_RULE_OPTIONS]);
  assert_int_equal(cfg->line[GL_CFG_RULE_OPTIONS], 3);
  opt_rules o;
  opt_rules_init(&o);
  size_t n = 0;
  assert_string_equal(gl_rule_option_strings(&o.r301, "extra-timers", &n)[0], "a.b"); /* default */
  gl_diag_list errs = {0};
  assert_int_equal(gl_config_check_rule_options(cfg, &o.set, &errs), 0);
  assert_int_equal(errs.len, 0);
  gl_config_apply_rule_options(cfg, &o.set);
  const char *const *v = gl_rule_option_strings(&o.r301, "extra-timers", &n);
  assert_int_equal(n, 2);
  assert_string_equal(v[0], "mylib.clock.now");
  assert_string_equal(v[1], "my.tick");
  assert_false(gl_rule_option_has(&o.r301, "extra-timers", "a.b")); /* replaced, not added */
  assert_string_equal(o.opt.origin, "gpulint.toml:4:1");
  opt_rules_free(&o);
  gl_config_free(cfg);
  /* by name, in a pyproject.toml, and an empty list */
  put_file("p/pyproject.toml", "[tool.gpulint.rule-options.unsynchronized-timer]\nextra-timers = []\n");
  enter("p");
  cfg = discover_ok();
  opt_rules_init(&o);
  assert_int_equal(gl_config_check_rule_options(cfg, &o.set, &errs), 0);
  gl_config_apply_rule_options(cfg, &o.set);
  gl_rule_option_strings(&o.r301, "extra-timers", &n);
  assert_int_equal(n, 0);
  assert_string_equal(o.opt.origin, "pyproject.toml:2:1");
  opt_rules_free(&o);
  gl_config_free(cfg);
  gl_config_apply_rule_options(NULL, &o.set); /* no configuration: nothing */
  assert_int_equal(gl_config_check_rule_options(NULL, &o.set, &errs), 0);
}

static void test_rule_options_errors(void **state) {
  (void)state;
  enter("r");
  expect_ropt_error("[rule-options.GPU301]\nextra-timer = [\"a\"]\n", 2, 1,
                    "rule GPU301 has no option 'extra-timer' (it has: extra-timers)");
  expect_ropt_error("[rule-options.GPU201]\nextra-timers = [\"a\"]\n", 2, 1,
                    "rule GPU201 has no option 'extra-timers' (it has none)");
  expect_ropt_error("[rule-options.GPU999]\nextra-timers = [\"a\"]\n", 1, 15,
                    "unknown rule 'GPU999' in rule-options (give a rule id or name)");
  expect_ropt_error("[rule-options.GPU301]\nextra-timers = \"a.b\"\n", 2, 1,
                    "'rule-options.GPU301.extra-timers' must be an array of non-empty strings, got string");
  expect_ropt_error("[rule-options.GPU301]\nextra-timers = [\"a.b\", 3]\n", 2, 24,
                    "'rule-options.GPU301.extra-timers' must be an array of non-empty strings, got integer");
  expect_ropt_error("[rule-options.GPU301]\nextra-timers = [\"\"]\n", 2, 17,
                    "'rule-options.GPU301.extra-timers' must be an array of non-empty strings, got an "
                    "empty string or NUL");
  expect_ropt_error("[rule-options.GPU301]\nextra-timers = [\"a\"]\n"
                    "[rule-options.unsynchronized-timer]\nextra-timers = [\"b\"]\n", 4, 1,
                    "option 'extra-timers' of GPU301 is already set at 2:1");
  /* the table's shape is checked when the file is loaded */
  put_file("r/gpulint.toml", "[rule-options]\nGPU301 = [\"a\"]\n");
  expect_discover_error("gpulint.toml", 2, 1,
                        "'rule-options.GPU301' must be a table of option = value, got array");
  put_file("r/gpulint.toml", "rule-options = true\n");
  expect_discover_error("gpulint.toml", 1, 1,
                        "'rule-options' must be a table of rule = {option = value}, got boolean");
}

static void test_show_defaults_match_walk(void **state) {
  (void)state;
  enter("w");
  gl_cli cli;
  gl_diag err = {0};
  char *argv[] = {"gpulint", "--isolated", "--show-settings", "x.py", NULL};
  assert_int_equal(gl_cli_parse(&cli, 4, argv, &err), 0);
  assert_int_equal(cli.cmd, GL_CMD_SHOW_SETTINGS);
  gl_ruleset set = {0};
  char *text = gl_config_show(NULL, &cli, &cli, &set, "x.py");
  const char *line = strstr(text, "exclude           = [");
  assert_non_null(line);
  assert_non_null(strstr(text, "Configuration file: (none: --isolated)\n"));
  /* every default exclude the text lists is one the walk applies, and all ten are listed */
  size_t n = 0;
  for (const char *p = strchr(line, '"'); p && p < strchr(line, ']'); p = strchr(p, '"')) {
    const char *end = strchr(p + 1, '"');
    char name[64];
    snprintf(name, sizeof(name), "%.*s", (int)(end - p - 1), p + 1);
    assert_true(gl_walk_is_default_excluded(name));
    n++;
    p = end + 1;
  }
  assert_int_equal(n, 10);
  free(text);
  gl_cli_free(&cli);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_discovery_nearest_wins, setup, teardown),
      cmocka_unit_test_setup_teardown(test_discovery_none_and_syntax, setup, teardown),
      cmocka_unit_test_setup_teardown(test_key_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(test_explicit_config_file, setup, teardown),
      cmocka_unit_test_setup_teardown(test_apply_precedence, setup, teardown),
      cmocka_unit_test_setup_teardown(test_per_file_ignores, setup, teardown),
      cmocka_unit_test_setup_teardown(test_severity_and_selectors, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rule_options_set, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rule_options_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(test_show_defaults_match_walk, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
