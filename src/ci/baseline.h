/* baseline.h: --baseline, the results of an earlier gpulint SARIF log, and matching a run against
 * them, so that a codebase can adopt gpulint in CI without fixing every old finding first.
 * Owns: reading that log safely (regular file, size cap, file:line:col errors), the key a result
 *       is matched by (ruleId, partialFingerprints.primaryLocationLineHash, artifact URI and
 *       whether it is relative to %SRCROOT%), multiset matching, and each finding's
 *       gl_baseline_state; the baseline's unmatched results (SARIF baselineState "absent").
 * Not: printing, which formats show what (src/report/ reads gl_finding.baseline and
 *       gl_run.baseline), suppressions (a suppressed finding is matched like any other and keeps
 *       its suppression).
 * Threads: loaded once in the main thread; applied after the workers joined; read-only after. */
#ifndef GL_BASELINE_H
#define GL_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include "base/diag.h"
#include "result.h"
#include "base/vec.h"

/* The largest baseline file read (a SARIF log of 25,000 results is ~30 MiB). */
#define GL_BASELINE_MAX_BYTES ((size_t)256 << 20)

/* One result of the baseline log, copied out of its json. */
typedef struct gl_baseline_result {
  char *rule_id;       /* owned; never NULL */
  char *line_hash;     /* owned; NULL when the result has no primaryLocationLineHash */
  char *uri;           /* owned: locations[0].physicalLocation.artifactLocation.uri */
  bool relative;       /* its uriBaseId is %SRCROOT% */
  char *message;       /* owned: message.text ("" when it has none) */
  char *level;         /* owned: "error", "warning", "note" or "none" as the log wrote it */
  gl_region region;    /* startLine..endColumn as written (0 = absent); byte fields 0 */
  bool suppressed;     /* it carried suppressions */
  bool matched;        /* set by gl_baseline_apply: some current result is the same */
} gl_baseline_result;

typedef struct gl_baseline {
  char *path;                              /* owned: the file as named */
  gl_vec(gl_baseline_result) results;      /* in the log's order */
} gl_baseline;

/* Reads path as a gpulint SARIF 2.1.0 log (runs[0].tool.driver.name "gpulint"). NULL on error
 * with err saying where, "path:line:col: message" ("invalid json", "not a SARIF 2.1.0 log",
 * "not a gpulint SARIF log: the tool is 'ruff'", "result 3 has no ruleId", ...), or "path:
 * not a regular file" and the other gl_load_file errors. Caller frees with gl_baseline_free. */
gl_baseline *gl_baseline_load(const char *path, gl_diag *err);

/* The same from bytes in memory (tests); path names them in errors. */
gl_baseline *gl_baseline_parse(const char *path, const char *bytes, size_t len, gl_diag *err);

/* Matches every finding of run (suppressed ones included) against base: a finding whose key
 * equals an unmatched baseline result's becomes GL_BASELINE_UNCHANGED and takes that result,
 * otherwise GL_BASELINE_NEW. Keys repeat as a multiset: two equal results in the baseline and
 * three now leave one new, the last in output order; baseline results left unmatched are
 * absent (their `matched` stays false). A finding's URI is gl_report_uri(path, run->srcroot).
 * Sets run->baseline = base (borrowed: base must outlive run's report). */
void gl_baseline_apply(gl_baseline *base, gl_run *run);

/* Counts after gl_baseline_apply: baseline results no current result matched. */
size_t gl_baseline_absent(const gl_baseline *base);

void gl_baseline_free(gl_baseline *base);

#endif
