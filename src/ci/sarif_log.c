/* sarif_log.c: the one reader of gpulint SARIF logs (see ci_int.h).
 * Owns: the version, run-count and tool checks, in the order a reader needs them.
 * Not: what baselines and merges take from the run. Threads: main thread only. */
#include "ci/ci_int.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"

cJSON *gl_ci__get(const cJSON *o, const char *key) {
  return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

cJSON *gl_ci__sarif_run(gl_jsondoc *d) {
  const cJSON *version = gl_ci__get(d->root, "version"), *runs = gl_ci__get(d->root, "runs");
  if (!cJSON_IsString(version) || strcmp(version->valuestring, "2.1.0") != 0) {
    gl_jsondoc_fail_item(d, version, "not a SARIF 2.1.0 log");
    return NULL;
  }
  if (!cJSON_IsArray(runs) || cJSON_GetArraySize(runs) != 1) {
    gl_jsondoc_fail_item(d, runs ? runs : d->root, "a gpulint SARIF log has exactly one run");
    return NULL;
  }
  cJSON *run = runs->child;
  const cJSON *name = gl_ci__get(gl_ci__get(gl_ci__get(run, "tool"), "driver"), "name");
  if (!cJSON_IsString(name)) {
    gl_jsondoc_fail_item(d, run, "not a gpulint SARIF log: runs[0].tool.driver.name is missing");
    return NULL;
  }
  if (strcmp(name->valuestring, "gpulint") != 0) {
    char *shown = gl_utf8_safe_text(name->valuestring, strlen(name->valuestring));
    gl_jsondoc_fail_item(d, name, "not a gpulint SARIF log: the tool is '%.100s'", shown);
    free(shown);
    return NULL;
  }
  return run;
}
