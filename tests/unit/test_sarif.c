/* test_sarif.c: unit tests for src/report/sarif.c: the SARIF of a hand-built run, parsed back
 * with cJSON and checked field by field.
 * Owns: the output contract of DESIGN.md: $schema, version, tool.driver and its rules (enabled or
 *       referenced, ruleIndex), problem.severity mapping, %SRCROOT%, columnKind, regions,
 *       partialFingerprints, suppressions, invocations and notifications, valid UTF-8 strings,
 *       byte-identical output when written twice.
 * Not: URI and hash algorithms themselves (test_location.c).
 * Threads: single-threaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "report/report.h"
#include "report_fixture.h"

static char *write_sarif(const gl_run *run) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  gl_report_opts opts = {.color = true, .tool_version = "9.8.7"};
  assert_int_equal(gl_report_write(f, GL_FORMAT_SARIF, run, &opts), 0);
  fclose(f);
  return buf;
}

static cJSON *parse(const char *text) {
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
  if (!root) fail_msg("output is not JSON near offset %td", end ? end - text : -1);
  return root;
}

/* The node at a '/'-separated path; numeric segments index arrays. NULL when absent. */
static cJSON *at(cJSON *node, const char *path) {
  char seg[128];
  while (node && *path) {
    size_t n = strcspn(path, "/");
    snprintf(seg, sizeof seg, "%.*s", (int)n, path);
    path += n + (path[n] == '/');
    if (cJSON_IsArray(node)) node = cJSON_GetArrayItem(node, atoi(seg));
    else node = cJSON_GetObjectItemCaseSensitive(node, seg);
  }
  return node;
}

static void check_str(cJSON *root, const char *path, const char *want) {
  cJSON *n = at(root, path);
  if (!cJSON_IsString(n)) fail_msg("%s: not a string", path);
  if (strcmp(n->valuestring, want) != 0) fail_msg("%s: got '%s', want '%s'", path, n->valuestring, want);
}

static void check_int(cJSON *root, const char *path, int want) {
  cJSON *n = at(root, path);
  if (!cJSON_IsNumber(n)) fail_msg("%s: not a number", path);
  if (n->valueint != want) fail_msg("%s: got %d, want %d", path, n->valueint, want);
}

static void check_size(cJSON *root, const char *path, int want) {
  cJSON *n = at(root, path);
  if (!cJSON_IsArray(n)) fail_msg("%s: not an array", path);
  if (cJSON_GetArraySize(n) != want) fail_msg("%s: %d items, want %d", path, cJSON_GetArraySize(n), want);
}

static void check_missing(cJSON *root, const char *path) {
  if (at(root, path)) fail_msg("%s: present, want absent", path);
}

static void check_bool(cJSON *root, const char *path, bool want) {
  cJSON *n = at(root, path);
  if (!cJSON_IsBool(n)) fail_msg("%s: not a boolean", path);
  if (cJSON_IsTrue(n) != want) fail_msg("%s: got %d, want %d", path, cJSON_IsTrue(n), want);
}

/* Two findings and a suppressed one in /repo/src/a.py, a syntax error in a file whose name has
 * an invalid byte and a space, a skipped file outside the root. */
static void build_run(fixture *fx) {
  fixture_init(fx, "/repo");
  gl_file_result *a = fixture_file(fx, "/repo/src/a.py");
  fixture_add(fx, a, (fixture_finding){0, GL_LEVEL_ERROR, 3, 5, 3, 14, 4, 13,
                                       "`warp.sim` was removed in Warp 1.10", "    import warp.sim",
                                       "1a2b3c4d5e6f7a8b:1", false});
  fixture_add(fx, a, (fixture_finding){1, GL_LEVEL_WARNING, 7, 1, 8, 4, 1, 4,
                                       "cuSpatial is archived \xff (bad byte)", "x = (\n  1)",
                                       "ffff0000ffff0000:2", false});
  fixture_add(fx, a, (fixture_finding){2, GL_LEVEL_NOTE, 9, 1, 9, 10, 1, 10,
                                       "cuxfilter is sunset", "import cuxfilter  # noqa",
                                       NULL, true});
  gl_file_result *b = fixture_file(fx, "/repo/bad\xff dir/b.py");
  fixture_note(b, GL_NOTE_SYNTAX_ERROR, GL_LEVEL_WARNING, 2, 3, "syntax error");
  gl_file_result *c = fixture_file(fx, "/elsewhere/c.py");
  fixture_note(c, GL_NOTE_SKIPPED, GL_LEVEL_ERROR, 0, 0, "file is larger than 4 MiB");
}

static void test_sarif_top_level(void **state) {
  (void)state;
  fixture fx;
  build_run(&fx);
  /* written from a known directory: invocations[0].workingDirectory names it */
  char old[4096], dir[64] = "/tmp/gl_sarif_XXXXXX", cwd[4096], want_wd[4200];
  assert_non_null(getcwd(old, sizeof old));
  assert_non_null(mkdtemp(dir));
  assert_int_equal(chdir(dir), 0);
  assert_non_null(getcwd(cwd, sizeof cwd));
  char *text = write_sarif(&fx.run);
  assert_int_equal(chdir(old), 0);
  rmdir(dir);
  snprintf(want_wd, sizeof want_wd, "file://%s/", cwd);
  cJSON *root = parse(text);
  check_str(root, "runs/0/invocations/0/workingDirectory/uri", want_wd);
  check_str(root, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
  check_str(root, "version", "2.1.0");
  check_size(root, "runs", 1);
  check_str(root, "runs/0/tool/driver/name", "gpulint");
  check_str(root, "runs/0/tool/driver/version", "9.8.7");
  check_str(root, "runs/0/tool/driver/semanticVersion", "9.8.7");
  check_str(root, "runs/0/tool/driver/informationUri", "https://github.com/gpulint/gpulint");
  check_str(root, "runs/0/columnKind", "utf16CodeUnits");
  check_str(root, "runs/0/originalUriBaseIds/%SRCROOT%/uri", "file:///repo/");
  /* colour never reaches SARIF, and the text ends with one newline */
  assert_null(strchr(text, '\x1b'));
  assert_int_equal(text[strlen(text) - 1], '\n');
  assert_int_not_equal(text[strlen(text) - 2], '\n');
  cJSON_Delete(root);
  free(text);
  fixture_free(&fx);
}

/* Enabled rules and referenced ones (GPU103 is off but a suppressed result names it); GPU104
 * is off and unreferenced. */
static void test_sarif_rules(void **state) {
  (void)state;
  fixture fx;
  build_run(&fx);
  char *text = write_sarif(&fx.run);
  cJSON *root = parse(text);
  const char *rules = "runs/0/tool/driver/rules";
  check_size(root, rules, 3);
  static const char *const ids[] = {"GPU101", "GPU102", "GPU103"};
  static const char *const names[] = {"warp-sim-removed", "cuspatial-archived", "cuxfilter-sunset"};
  static const char *const levels[] = {"error", "warning", "note"};
  static const char *const severities[] = {"error", "warning", "recommendation"};
  static const char *const precisions[] = {"very-high", "high", "medium"};
  char p[200];
  for (int i = 0; i < 3; i++) {
#define P(suffix) (snprintf(p, sizeof p, "%s/%d/%s", rules, i, suffix), p)
    check_str(root, P("id"), ids[i]);
    check_str(root, P("name"), names[i]);
    check_str(root, P("shortDescription/text"), "Checks for a legacy library.");
    check_str(root, P("fullDescription/text"), "Checks for a legacy library that is no longer maintained.");
    check_str(root, P("help/text"), "What it does\nChecks for a legacy library.");
    check_str(root, P("help/markdown"), "# rule\n\n## What it does\nChecks for a legacy library.\n");
    check_str(root, P("defaultConfiguration/level"), levels[i]);
    check_str(root, P("properties/precision"), precisions[i]);
    check_str(root, P("properties/problem.severity"), severities[i]);
    check_missing(root, P("properties/security-severity"));
    check_size(root, P("properties/tags"), i == 0 ? 2 : 1);
    check_str(root, P("properties/tags/0"), "legacy");
#undef P
  }
  check_str(root, "runs/0/tool/driver/rules/0/properties/tags/1", "maintenance");
  cJSON_Delete(root);
  free(text);
  fixture_free(&fx);
}

static void test_sarif_results(void **state) {
  (void)state;
  fixture fx;
  build_run(&fx);
  char *text = write_sarif(&fx.run);
  cJSON *root = parse(text);
  check_size(root, "runs/0/results", 3);
  char p[200];
#define R(i, suffix) (snprintf(p, sizeof p, "runs/0/results/%d/%s", i, suffix), p)
  check_str(root, R(0, "ruleId"), "GPU101");
  check_int(root, R(0, "ruleIndex"), 0);
  check_str(root, R(0, "level"), "error");
  check_str(root, R(0, "message/text"), "`warp.sim` was removed in Warp 1.10");
  check_size(root, R(0, "locations"), 1);
  check_str(root, R(0, "locations/0/physicalLocation/artifactLocation/uri"), "src/a.py");
  check_str(root, R(0, "locations/0/physicalLocation/artifactLocation/uriBaseId"), "%SRCROOT%");
  check_int(root, R(0, "locations/0/physicalLocation/region/startLine"), 3);
  check_int(root, R(0, "locations/0/physicalLocation/region/startColumn"), 5);
  check_int(root, R(0, "locations/0/physicalLocation/region/endLine"), 3);
  check_int(root, R(0, "locations/0/physicalLocation/region/endColumn"), 14);
  check_str(root, R(0, "partialFingerprints/primaryLocationLineHash"), "1a2b3c4d5e6f7a8b:1");
  check_missing(root, R(0, "suppressions"));

  check_str(root, R(1, "ruleId"), "GPU102");
  check_int(root, R(1, "ruleIndex"), 1);
  check_str(root, R(1, "level"), "warning");
  /* the invalid byte became U+FFFD: the string is valid UTF-8 */
  check_str(root, R(1, "message/text"), "cuSpatial is archived \xef\xbf\xbd (bad byte)");
  check_int(root, R(1, "locations/0/physicalLocation/region/startLine"), 7);
  check_int(root, R(1, "locations/0/physicalLocation/region/startColumn"), 1);
  check_int(root, R(1, "locations/0/physicalLocation/region/endLine"), 8);
  check_int(root, R(1, "locations/0/physicalLocation/region/endColumn"), 4);
  check_str(root, R(1, "partialFingerprints/primaryLocationLineHash"), "ffff0000ffff0000:2");

  check_str(root, R(2, "ruleId"), "GPU103");
  check_int(root, R(2, "ruleIndex"), 2);
  check_str(root, R(2, "level"), "note");
  check_missing(root, R(2, "partialFingerprints"));
  check_size(root, R(2, "suppressions"), 1);
  check_str(root, R(2, "suppressions/0/kind"), "inSource");
#undef R
  cJSON_Delete(root);
  free(text);
  fixture_free(&fx);
}

/* relatedLocations: id, the primary location's URI shape, region, message; absent without. */
static void test_sarif_related_locations(void **state) {
  (void)state;
  fixture fx;
  build_run(&fx);
  gl_file_result *a = &fx.run.files.data[0];
  gl_finding_free_fields(&a->findings.data[1]); /* keep only the first finding of a.py */
  gl_finding_free_fields(&a->findings.data[2]);
  a->findings.len = 1;
  fixture_relate(a, 1, 6, 25, "timer started here");
  fixture_relate(a, 2, 5, 16, "last GPU work, not synchronized \xff");
  gl_file_result *c = &fx.run.files.data[2];
  fixture_add(&fx, c, (fixture_finding){1, GL_LEVEL_WARNING, 4, 2, 4, 9, 2, 9, "outside", "x", NULL, false});
  fixture_relate(c, 2, 1, 3, "here");
  char *text = write_sarif(&fx.run);
  cJSON *root = parse(text);
  check_size(root, "runs/0/results", 2);
  const char *r0 = "runs/0/results/0/relatedLocations";
  check_size(root, r0, 2);
  char p[200];
#define L(i, suffix) (snprintf(p, sizeof p, "%s/%d/%s", r0, i, suffix), p)
  check_int(root, L(0, "id"), 1);
  check_str(root, L(0, "physicalLocation/artifactLocation/uri"), "src/a.py");
  check_str(root, L(0, "physicalLocation/artifactLocation/uriBaseId"), "%SRCROOT%");
  check_int(root, L(0, "physicalLocation/region/startLine"), 1);
  check_int(root, L(0, "physicalLocation/region/startColumn"), 6);
  check_int(root, L(0, "physicalLocation/region/endLine"), 1);
  check_int(root, L(0, "physicalLocation/region/endColumn"), 25);
  check_str(root, L(0, "message/text"), "timer started here");
  check_int(root, L(1, "id"), 2);
  check_int(root, L(1, "physicalLocation/region/startLine"), 2);
  check_int(root, L(1, "physicalLocation/region/startColumn"), 5);
  check_int(root, L(1, "physicalLocation/region/endColumn"), 16);
  check_str(root, L(1, "message/text"), "last GPU work, not synchronized \xef\xbf\xbd");
#undef L
  /* a file outside %SRCROOT%: an absolute URI without uriBaseId, as its primary location */
  check_str(root, "runs/0/results/1/relatedLocations/0/physicalLocation/artifactLocation/uri",
            "file:///elsewhere/c.py");
  check_missing(root, "runs/0/results/1/relatedLocations/0/physicalLocation/artifactLocation/uriBaseId");
  check_str(root, "runs/0/results/1/locations/0/physicalLocation/artifactLocation/uri",
            "file:///elsewhere/c.py");
  check_str(root, "runs/0/results/1/relatedLocations/0/message/text", "here");
  cJSON_Delete(root);
  free(text);
  fixture_free(&fx);
}

/* A finding without related locations has no relatedLocations key at all. */
static void test_sarif_no_related_locations(void **state) {
  (void)state;
  fixture fx;
  build_run(&fx);
  char *text = write_sarif(&fx.run);
  cJSON *root = parse(text);
  check_missing(root, "runs/0/results/0/relatedLocations");
  check_missing(root, "runs/0/results/1/relatedLocations");
  cJSON_Delete(root);
  free(text);
  fixture_free(&fx);
}

static void test_sarif_notifications(void **state) {
  (void)state;
  fixture fx;
  build_run(&fx);
  char *text = write_sarif(&fx.run);
  cJSON *root = parse(text);
  check_size(root, "runs/0/invocations", 1);
  /* a skipped file makes the run incomplete */
  check_bool(root, "runs/0/invocations/0/executionSuccessful", false);
  const char *n0 = "runs/0/invocations/0/toolExecutionNotifications/0/";
  const char *n1 = "runs/0/invocations/0/toolExecutionNotifications/1/";
  char p[200];
#define N(base, suffix) (snprintf(p, sizeof p, "%s%s", base, suffix), p)
  check_size(root, "runs/0/invocations/0/toolExecutionNotifications", 2);
  check_str(root, N(n0, "level"), "warning");
  check_str(root, N(n0, "message/text"), "syntax error");
  check_str(root, N(n0, "descriptor/id"), "syntax-error");
  check_int(root, N(n0, "descriptor/index"), 0);
  check_str(root, N(n0, "locations/0/physicalLocation/artifactLocation/uri"), "bad%FF%20dir/b.py");
  check_str(root, N(n0, "locations/0/physicalLocation/artifactLocation/uriBaseId"), "%SRCROOT%");
  check_int(root, N(n0, "locations/0/physicalLocation/region/startLine"), 2);
  check_int(root, N(n0, "locations/0/physicalLocation/region/startColumn"), 3);
  check_missing(root, N(n0, "locations/0/physicalLocation/region/endLine"));

  check_str(root, N(n1, "level"), "error");
  check_str(root, N(n1, "message/text"), "file is larger than 4 MiB");
  check_str(root, N(n1, "descriptor/id"), "file-skipped");
  check_int(root, N(n1, "descriptor/index"), 2);
  check_str(root, N(n1, "locations/0/physicalLocation/artifactLocation/uri"), "file:///elsewhere/c.py");
  check_missing(root, N(n1, "locations/0/physicalLocation/artifactLocation/uriBaseId"));
  check_missing(root, N(n1, "locations/0/physicalLocation/region"));
#undef N
  /* the descriptors the notifications point at */
  check_size(root, "runs/0/tool/driver/notifications", 4);
  check_str(root, "runs/0/tool/driver/notifications/0/id", "syntax-error");
  check_str(root, "runs/0/tool/driver/notifications/1/id", "partial-lint");
  check_str(root, "runs/0/tool/driver/notifications/2/id", "file-skipped");
  check_str(root, "runs/0/tool/driver/notifications/3/id", "sarif-limit");
  check_missing(root, "runs/0/automationDetails"); /* no --sarif-category */
  cJSON_Delete(root);
  free(text);
  fixture_free(&fx);
}

/* A syntax error alone is not incomplete; a run without notes has no notification array. */
static void test_sarif_execution_successful(void **state) {
  (void)state;
  fixture fx;
  fixture_init(&fx, "/repo");
  gl_file_result *b = fixture_file(&fx, "/repo/b.py");
  fixture_note(b, GL_NOTE_SYNTAX_ERROR, GL_LEVEL_WARNING, 1, 1, "syntax error");
  char *text = write_sarif(&fx.run);
  cJSON *root = parse(text);
  check_bool(root, "runs/0/invocations/0/executionSuccessful", true);
  check_size(root, "runs/0/invocations/0/toolExecutionNotifications", 1);
  cJSON_Delete(root);
  free(text);
  fixture_free(&fx);

  fixture_init(&fx, "/repo");
  fixture_file(&fx, "/repo/clean.py");
  text = write_sarif(&fx.run);
  root = parse(text);
  check_bool(root, "runs/0/invocations/0/executionSuccessful", true);
  check_missing(root, "runs/0/invocations/0/toolExecutionNotifications");
  check_size(root, "runs/0/results", 0);
  /* only the two enabled rules */
  check_size(root, "runs/0/tool/driver/rules", 2);
  check_str(root, "runs/0/tool/driver/rules/1/id", "GPU102");
  cJSON_Delete(root);
  free(text);
  fixture_free(&fx);
}

/* A PARTIAL note is incomplete too. */
static void test_sarif_partial(void **state) {
  (void)state;
  fixture fx;
  fixture_init(&fx, "/repo");
  gl_file_result *b = fixture_file(&fx, "/repo/deep.py");
  fixture_note(b, GL_NOTE_PARTIAL, GL_LEVEL_ERROR, 0, 0, "query match limit exceeded");
  char *text = write_sarif(&fx.run);
  cJSON *root = parse(text);
  check_bool(root, "runs/0/invocations/0/executionSuccessful", false);
  check_str(root, "runs/0/invocations/0/toolExecutionNotifications/0/descriptor/id", "partial-lint");
  check_str(root, "runs/0/invocations/0/toolExecutionNotifications/0/locations/0/physicalLocation/artifactLocation/uri",
            "deep.py");
  cJSON_Delete(root);
  free(text);
  fixture_free(&fx);
}

/* Root "/" (srcroot stored as "") and a srcroot whose name needs escaping. */
static void test_sarif_srcroot_forms(void **state) {
  (void)state;
  fixture fx;
  fixture_init(&fx, "/my repo/\xc3\xa9");
  fixture_add(&fx, fixture_file(&fx, "/my repo/\xc3\xa9/x.py"),
              (fixture_finding){0, GL_LEVEL_ERROR, 1, 1, 1, 2, 1, 2, "m", "x", NULL, false});
  char *text = write_sarif(&fx.run);
  cJSON *root = parse(text);
  check_str(root, "runs/0/originalUriBaseIds/%SRCROOT%/uri", "file:///my%20repo/%C3%A9/");
  check_str(root, "runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri", "x.py");
  cJSON_Delete(root);
  free(text);
  fixture_free(&fx);

  fixture_init(&fx, "");
  fixture_add(&fx, fixture_file(&fx, "/x.py"),
              (fixture_finding){0, GL_LEVEL_ERROR, 1, 1, 1, 2, 1, 2, "m", "x", NULL, false});
  text = write_sarif(&fx.run);
  root = parse(text);
  check_str(root, "runs/0/originalUriBaseIds/%SRCROOT%/uri", "file:///");
  check_str(root, "runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri", "x.py");
  cJSON_Delete(root);
  free(text);
  fixture_free(&fx);
}

/* Rules that results name but the ruleset lacks come after the ruleset's, sorted by id; each
 * result's ruleIndex points at its own rule whatever the order of the results. */
static void test_sarif_rules_outside_ruleset(void **state) {
  (void)state;
  fixture fx;
  fixture_init(&fx, "/repo");
  gl_rule extra[2];
  memset(extra, 0, sizeof extra);
  extra[0].id = (char *)"GPU999";
  extra[1].id = (char *)"GPU900";
  gl_file_result *f = fixture_file(&fx, "/repo/x.py");
  fixture_add(&fx, f, (fixture_finding){1, GL_LEVEL_WARNING, 1, 1, 1, 2, 1, 2, "a", "x", NULL, false});
  fixture_add(&fx, f, (fixture_finding){0, GL_LEVEL_ERROR, 2, 1, 2, 2, 1, 2, "b", "x", NULL, false});
  gl_finding *x = gl_vec_grow(&f->findings);
  x->rule = &extra[0];
  x->level = GL_LEVEL_NOTE;
  x->region.start_line = x->region.end_line = 3;
  x->message = strdup("c");
  x = gl_vec_grow(&f->findings);
  x->rule = &extra[1];
  x->level = GL_LEVEL_NOTE;
  x->region.start_line = x->region.end_line = 4;
  x->message = strdup("d");
  fixture_add(&fx, f, (fixture_finding){1, GL_LEVEL_WARNING, 5, 1, 5, 2, 1, 2, "e", "x", NULL, false});
  char *text = write_sarif(&fx.run);
  cJSON *root = parse(text);
  check_size(root, "runs/0/tool/driver/rules", 4);
  check_str(root, "runs/0/tool/driver/rules/0/id", "GPU101");
  check_str(root, "runs/0/tool/driver/rules/1/id", "GPU102");
  check_str(root, "runs/0/tool/driver/rules/2/id", "GPU900");
  check_str(root, "runs/0/tool/driver/rules/3/id", "GPU999");
  /* a rule without texts still has every description GitHub wants */
  check_str(root, "runs/0/tool/driver/rules/2/shortDescription/text", "GPU900");
  check_str(root, "runs/0/tool/driver/rules/2/fullDescription/text", "GPU900");
  check_str(root, "runs/0/tool/driver/rules/2/help/text", "GPU900");
  check_str(root, "runs/0/tool/driver/rules/2/defaultConfiguration/level", "none");
  check_str(root, "runs/0/tool/driver/rules/2/properties/problem.severity", "recommendation");
  check_missing(root, "runs/0/tool/driver/rules/2/name");
  check_missing(root, "runs/0/tool/driver/rules/2/properties/precision");
  static const int want_index[] = {1, 0, 3, 2, 1};
  static const char *const want_id[] = {"GPU102", "GPU101", "GPU999", "GPU900", "GPU102"};
  char p[100];
  for (int i = 0; i < 5; i++) {
    snprintf(p, sizeof p, "runs/0/results/%d/ruleIndex", i);
    check_int(root, p, want_index[i]);
    snprintf(p, sizeof p, "runs/0/results/%d/ruleId", i);
    check_str(root, p, want_id[i]);
  }
  /* a finding without columns has a region with lines only */
  check_int(root, "runs/0/results/2/locations/0/physicalLocation/region/startLine", 3);
  check_missing(root, "runs/0/results/2/locations/0/physicalLocation/region/startColumn");
  check_missing(root, "runs/0/results/2/locations/0/physicalLocation/region/endColumn");
  cJSON_Delete(root);
  free(text);
  fixture_free(&fx);
}

static void test_sarif_deterministic(void **state) {
  (void)state;
  fixture fx;
  build_run(&fx);
  char *a = write_sarif(&fx.run);
  fx.run.elapsed_s = 99.5; /* time never reaches SARIF */
  char *b = write_sarif(&fx.run);
  assert_string_equal(a, b);
  free(a);
  free(b);
  fixture_free(&fx);
}

static char *write_sarif_opts(const gl_run *run, const gl_report_opts *opts) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  assert_int_equal(gl_report_write(f, GL_FORMAT_SARIF, run, opts), 0);
  fclose(f);
  return buf;
}

/* --sarif-category: automationDetails.id gets the trailing '/' the upload action would add. */
static void test_sarif_category(void **state) {
  (void)state;
  static const struct { const char *category, *id; } cases[] = {
      {"gpulint", "gpulint/"}, {"gpulint/", "gpulint/"}, {"py/src", "py/src/"},
      {"a b\xff", "a b\xef\xbf\xbd/"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    fixture fx;
    build_run(&fx);
    gl_report_opts opts = {.tool_version = "1", .sarif_category = cases[i].category};
    char *text = write_sarif_opts(&fx.run, &opts);
    cJSON *root = parse(text);
    check_str(root, "runs/0/automationDetails/id", cases[i].id);
    cJSON_Delete(root);
    free(text);
    fixture_free(&fx);
  }
}

/* Beyond max_results, the last results in output order are left out and a notification says so;
 * related locations beyond max_locations - 1 are left out of a result. */
static void test_sarif_limits(void **state) {
  (void)state;
  fixture fx;
  build_run(&fx); /* a.py: 3 results (the third suppressed) */
  gl_file_result *a = &fx.run.files.data[0];
  gl_finding *first = &a->findings.data[0];
  first->related[0].start_line = first->related[0].end_line = 1;
  first->related_msg[0] = strdup("one");
  first->related[1].start_line = first->related[1].end_line = 2;
  first->related_msg[1] = strdup("two");
  first->nrelated = 2;
  gl_report_opts opts = {.tool_version = "1", .max_results = 2, .max_locations = 2};
  size_t locations = 99;
  assert_int_equal(gl_report_sarif_dropped(&fx.run, &opts, &locations), 1);
  assert_int_equal(locations, 1);
  char *text = write_sarif_opts(&fx.run, &opts);
  cJSON *root = parse(text);
  check_size(root, "runs/0/results", 2);
  check_str(root, "runs/0/results/0/ruleId", "GPU101");
  check_str(root, "runs/0/results/1/ruleId", "GPU102"); /* the suppressed GPU103 went */
  check_size(root, "runs/0/results/0/relatedLocations", 1);
  check_str(root, "runs/0/results/0/relatedLocations/0/message/text", "one");
  const char *n = "runs/0/invocations/0/toolExecutionNotifications/2/";
  char p[200];
  check_size(root, "runs/0/invocations/0/toolExecutionNotifications", 3);
  snprintf(p, sizeof p, "%slevel", n);
  check_str(root, p, "warning");
  snprintf(p, sizeof p, "%sdescriptor/id", n);
  check_str(root, p, "sarif-limit");
  snprintf(p, sizeof p, "%sdescriptor/index", n);
  check_int(root, p, 3);
  snprintf(p, sizeof p, "%smessage/text", n);
  check_str(root, p, "Left out 1 of 3 results: GitHub code scanning accepts at most 2 results per "
                     "run, so the first 2 in output order were kept. Left out 1 related location: "
                     "GitHub accepts at most 2 locations per result.");
  snprintf(p, sizeof p, "%slocations", n);
  check_missing(root, p);
  cJSON_Delete(root);
  free(text);

  /* at the limit: nothing is dropped, no notification; GitHub's defaults keep everything here */
  opts.max_results = 3;
  opts.max_locations = 3;
  assert_int_equal(gl_report_sarif_dropped(&fx.run, &opts, &locations), 0);
  assert_int_equal(locations, 0);
  assert_int_equal(gl_report_sarif_dropped(&fx.run, NULL, NULL), 0);
  text = write_sarif_opts(&fx.run, &opts);
  root = parse(text);
  check_size(root, "runs/0/results", 3);
  check_size(root, "runs/0/results/0/relatedLocations", 2);
  check_size(root, "runs/0/invocations/0/toolExecutionNotifications", 2);
  cJSON_Delete(root);
  free(text);
  fixture_free(&fx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sarif_top_level),
      cmocka_unit_test(test_sarif_rules),
      cmocka_unit_test(test_sarif_results),
      cmocka_unit_test(test_sarif_related_locations),
      cmocka_unit_test(test_sarif_no_related_locations),
      cmocka_unit_test(test_sarif_notifications),
      cmocka_unit_test(test_sarif_execution_successful),
      cmocka_unit_test(test_sarif_partial),
      cmocka_unit_test(test_sarif_srcroot_forms),
      cmocka_unit_test(test_sarif_rules_outside_ruleset),
      cmocka_unit_test(test_sarif_deterministic),
      cmocka_unit_test(test_sarif_category),
      cmocka_unit_test(test_sarif_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
