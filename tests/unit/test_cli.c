/* test_cli.c: command-line parsing: subcommands, option forms, lists, numbers and errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cli/cli.h"
#include "report/report.h"

#define PARSE(cli, err, ...)                                                   \
  ({                                                                         \
    char *argv_[] = {"gpulint", __VA_ARGS__, NULL};                          \
    gl_cli_parse((cli), (int)(sizeof(argv_) / sizeof(argv_[0])) - 1, argv_, (err)); \
  })

static void test_defaults(void **state) {
  gl_cli cli;
  gl_diag err = {0};
  char *argv[] = {"gpulint", NULL};
  assert_int_equal(gl_cli_parse(&cli, 1, argv, &err), 0);
  assert_int_equal(cli.cmd, GL_CMD_CHECK);
  assert_int_equal(cli.paths.len, 0);
  assert_int_equal(cli.fail_on, GL_LEVEL_WARNING);
  assert_int_equal(cli.max_file_bytes, 4u << 20);
  assert_true(cli.prefilter);
  assert_true(cli.respect_gitignore);
  assert_int_equal(cli.format, -1);
  gl_cli_free(&cli);
}

static void test_options(void **state) {
  gl_cli cli;
  gl_diag err = {0};
  assert_int_equal(PARSE(&cli, &err, "--format=sarif", "-o", "out.sarif", "--select", "GPU1,GPU201",
                         "--select=legacy", "--ignore", "GPU102", "--fail-on", "error", "-j", "3",
                         "--max-file-size", "8M", "--exit-zero", "src", "--", "-weird.py"),
                   0);
  assert_int_equal(cli.format, GL_FORMAT_SARIF);
  assert_string_equal(cli.output, "out.sarif");
  assert_true(cli.has_select);
  assert_int_equal(cli.select.len, 3);
  assert_string_equal(cli.select.data[1], "GPU201");
  assert_string_equal(cli.select.data[2], "legacy");
  assert_string_equal(cli.ignore.data[0], "GPU102");
  assert_int_equal(cli.fail_on, GL_LEVEL_ERROR);
  assert_int_equal(cli.jobs, 3);
  assert_int_equal(cli.max_file_bytes, 8u << 20);
  assert_true(cli.exit_zero);
  assert_int_equal(cli.paths.len, 2);
  assert_string_equal(cli.paths.data[0], "src");
  assert_string_equal(cli.paths.data[1], "-weird.py");
  gl_cli_free(&cli);
}

static void test_attached_short_values(void **state) {
  gl_cli cli;
  gl_diag err = {0};
  assert_int_equal(PARSE(&cli, &err, "-j4", "-oreport.txt", "-q"), 0);
  assert_int_equal(cli.jobs, 4);
  assert_string_equal(cli.output, "report.txt");
  assert_true(cli.quiet);
  gl_cli_free(&cli);
}

static void test_subcommands(void **state) {
  gl_cli cli;
  gl_diag err = {0};
  assert_int_equal(PARSE(&cli, &err, "rule", "GPU101"), 0);
  assert_int_equal(cli.cmd, GL_CMD_RULE);
  assert_string_equal(cli.rule_id, "GPU101");
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "rules", "--format", "json"), 0);
  assert_int_equal(cli.cmd, GL_CMD_RULES);
  assert_int_equal(cli.format, GL_FORMAT_JSON);
  gl_cli_free(&cli);
  /* only the first positional argument can be a subcommand */
  assert_int_equal(PARSE(&cli, &err, "src", "rules"), 0);
  assert_int_equal(cli.cmd, GL_CMD_CHECK);
  assert_int_equal(cli.paths.len, 2);
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--", "rules"), 0);
  assert_int_equal(cli.cmd, GL_CMD_CHECK);
  gl_cli_free(&cli);
}

static void test_errors(void **state) {
  gl_cli cli;
  gl_diag err = {0};
  assert_int_equal(PARSE(&cli, &err, "--frobnicate"), GL_EINVAL);
  assert_string_equal(err.msg, "unknown option '--frobnicate' (see gpulint --help)");
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--jobs", "many"), GL_EINVAL);
  assert_string_equal(err.msg, "option '--jobs' needs a number up to 256, got 'many'");
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--format", "xml"), GL_EINVAL);
  assert_non_null(strstr(err.msg, "unknown output format 'xml'"));
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--fail-on", "fatal"), GL_EINVAL);
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--output"), GL_EINVAL);
  assert_string_equal(err.msg, "option '--output' needs a value");
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--exit-zero=1"), GL_EINVAL);
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "rule"), GL_EINVAL);
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--max-file-size", "-1"), GL_EINVAL);
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "-qx"), GL_EINVAL);
  assert_string_equal(err.msg, "unknown option '-qx' (see gpulint --help)");
  gl_cli_free(&cli);
}

static void test_stdin_filename(void **state) {
  gl_cli cli;
  gl_diag err = {0};
  assert_int_equal(PARSE(&cli, &err, "--stdin-filename", "pkg/mod.py", "--format=sarif"), 0);
  assert_string_equal(cli.stdin_filename, "pkg/mod.py");
  assert_int_equal(cli.paths.len, 0);
  gl_cli_free(&cli);
  /* Twice is an error, never a silent last-wins (as Ruff's clap refuses it). */
  assert_int_equal(PARSE(&cli, &err, "--stdin-filename=a.py", "--stdin-filename", "b.py"), GL_EINVAL);
  assert_string_equal(err.msg, "option '--stdin-filename' given more than once");
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--format", "json", "--output-format=sarif", "x.py"), GL_EINVAL);
  assert_string_equal(err.msg, "option '--output-format' given more than once");
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "-o", "a.sarif", "--output=b.sarif", "x.py"), GL_EINVAL);
  assert_string_equal(err.msg, "option '--output' given more than once");
  gl_cli_free(&cli);
  /* List options add up. */
  assert_int_equal(PARSE(&cli, &err, "--select", "GPU2", "--select=GPU3", "--exclude", "a", "--exclude", "b", "x.py"), 0);
  assert_int_equal(cli.select.len, 2);
  assert_int_equal(cli.excludes.len, 2);
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--stdin-filename", "a.py", "src"), GL_EINVAL);
  assert_string_equal(err.msg, "option '--stdin-filename' takes no PATH arguments, got 'src'");
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "check", "--", "x.py", "--stdin-filename=a.py"), 0);
  assert_null(cli.stdin_filename); /* after "--" it is a path */
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--stdin-filename="), GL_EINVAL);
  assert_string_equal(err.msg, "option '--stdin-filename' needs a non-empty path");
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--stdin-filename"), GL_EINVAL);
  assert_string_equal(err.msg, "option '--stdin-filename' needs a value");
  gl_cli_free(&cli);
}

static void test_sarif_category(void **state) {
  gl_cli cli;
  gl_diag err = {0};
  assert_int_equal(PARSE(&cli, &err, "--sarif-category", "gpulint/py"), 0);
  assert_string_equal(cli.sarif_category, "gpulint/py");
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--sarif-category="), GL_EINVAL);
  assert_string_equal(err.msg, "option '--sarif-category' needs a non-empty name");
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--sarif-category", "a\nb"), GL_EINVAL);
  assert_string_equal(err.msg, "option '--sarif-category' takes no control characters");
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--sarif-category", "x\x7f"), GL_EINVAL);
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--sarif-category", "caf\xc3\xa9 1"), 0); /* UTF-8, space */
  assert_string_equal(cli.sarif_category, "caf\xc3\xa9 1");
  gl_cli_free(&cli);
}

static void test_baseline(void **state) {
  gl_cli cli;
  gl_diag err = {0};
  assert_int_equal(PARSE(&cli, &err, "src"), 0);
  assert_null(cli.baseline);
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--baseline=new.sarif", "src"), 0);
  assert_string_equal(cli.baseline, "new.sarif");
  assert_int_equal(cli.paths.len, 1);
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--baseline", "old.sarif", "--baseline=new.sarif", "src"), GL_EINVAL);
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--baseline"), GL_EINVAL);
  assert_null(cli.baseline);
  gl_cli_free(&cli);
}

static void test_shard(void **state) {
  gl_cli cli;
  gl_diag err = {0};
  assert_int_equal(PARSE(&cli, &err, "src"), 0);
  assert_int_equal(cli.shard_count, 0);
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--shard", "3/7", "src"), 0);
  assert_int_equal(cli.shard_index, 3);
  assert_int_equal(cli.shard_count, 7);
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "--shard=1024/1024"), 0);
  assert_int_equal(cli.shard_index, 1024);
  gl_cli_free(&cli);
  const char *bad[] = {"0/3", "4/3", "1/1025", "1/0", "1/", "/3", "01/3", "1/3x", "-1/3", "1//3",
                       "99999999999999999999/3", " 1/3", ""};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char expect[160];
    snprintf(expect, sizeof expect, "option '--shard' takes I/N with 1 <= I <= N <= 1024, got '%s'", bad[i]);
    assert_int_equal(PARSE(&cli, &err, "--shard", (char *)bad[i]), GL_EINVAL);
    assert_string_equal(err.msg, expect);
    gl_cli_free(&cli);
  }
}

static void test_merge(void **state) {
  gl_cli cli;
  gl_diag err = {0};
  assert_int_equal(PARSE(&cli, &err, "merge", "a.sarif", "b.sarif", "-o", "all.sarif"), 0);
  assert_int_equal(cli.cmd, GL_CMD_MERGE);
  assert_int_equal(cli.paths.len, 2);
  assert_string_equal(cli.paths.data[1], "b.sarif");
  assert_string_equal(cli.output, "all.sarif");
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "merge", "-o", "-"), GL_EINVAL);
  assert_string_equal(err.msg, "'gpulint merge' needs at least one SARIF log");
  gl_cli_free(&cli);
  assert_int_equal(PARSE(&cli, &err, "src", "merge"), 0); /* only the first word is a command */
  assert_int_equal(cli.cmd, GL_CMD_CHECK);
  assert_int_equal(cli.paths.len, 2);
  gl_cli_free(&cli);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_defaults),
      cmocka_unit_test(test_options),
      cmocka_unit_test(test_attached_short_values),
      cmocka_unit_test(test_subcommands),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_stdin_filename),
      cmocka_unit_test(test_sarif_category),
      cmocka_unit_test(test_baseline),
      cmocka_unit_test(test_shard),
      cmocka_unit_test(test_merge),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
