/* ci_int.h: what the files of src/ci/ share and nobody else sees: the one reader of gpulint
 * SARIF logs, for baselines (baseline.c) and merges (sarif_merge.c).
 * Owns: the shape checks every reader makes first (SARIF 2.1.0, exactly one run, written by
 *       gpulint), each error placed at file:line:col of the item through base/jsondoc.h.
 * Not: what each reader takes from the run. Threads: main thread; the document is the caller's. */
#ifndef GL_CI_INT_H
#define GL_CI_INT_H

#include "base/jsondoc.h"
#include "ci/ci.h"

struct cJSON;

/* o[key] when o is an object (case-sensitive), else NULL. */
struct cJSON *gl_ci__get(const struct cJSON *o, const char *key);

/* runs[0] of the log read into d, after checking the log is SARIF 2.1.0 with exactly one run
 * whose tool.driver.name is "gpulint"; NULL, with d's error set, otherwise. */
struct cJSON *gl_ci__sarif_run(gl_jsondoc *d);

#endif
