/* ci.h: what gpulint offers CI: --baseline (adopting gpulint without fixing every old finding
 * first), --shard I/N (splitting a repository across runners) and `gpulint merge` (one SARIF log
 * out of the shards' logs).
 * Owns: reading earlier gpulint SARIF logs (one reader for baselines and merges: regular file,
 *       size cap, SARIF 2.1.0 with one gpulint run, file:line:col errors), baseline matching,
 *       the shard of a file and the merged run. Each part in detail:
 *
 * baseline.c: the key a result is matched by (ruleId, partialFingerprints.primaryLocationLineHash,
 *       artifact URI and whether it is relative to %SRCROOT%), multiset matching, and each
 *       finding's gl_baseline_state; the baseline's unmatched results (SARIF baselineState
 *       "absent"). src/report/ reads gl_finding.baseline and gl_run.baseline; a suppressed
 *       finding is matched like any other and keeps its suppression.
 * shard.c: the shard of a file (64-bit FNV-1a of its SARIF URI: the path relative to %SRCROOT%,
 *       percent-encoded exactly as the SARIF writer writes it, or its file: URI outside
 *       %SRCROOT%), so the same file lands in the same shard on every machine and in every run
 *       whatever other files exist; filtering the walked files and a baseline's results to one
 *       shard (walk.c lists every file as always; the filter runs after it).
 * sarif_merge.c: checking the logs belong together (same gpulint version, same
 *       automationDetails category, identical run properties) and building the merged run:
 *       tool.driver.rules deduplicated by id in the order the ruleset lists them (every result's
 *       ruleIndex renumbered), results and toolExecutionNotifications in the order one
 *       unsharded run writes them (files sorted by path, each file's own order kept; baseline
 *       "absent" results after the others), originalUriBaseIds and artifacts united,
 *       executionSuccessful only when every shard's was, and GitHub's 25,000-results limit with
 *       the SARIF writer's "sarif-limit" notification. The merged log of a run's shards equals
 *       that run's own SARIF byte for byte when every file's path sorts as its
 *       %SRCROOT%-relative URI does.
 * Not: printing, parsing options (cli.c), writing files (main.c).
 * Threads: main thread only: loaded before the workers start, applied after they joined. */
#ifndef GL_CI_H
#define GL_CI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/diag.h"
#include "base/vec.h"
#include "result/result.h"
#include "walk/walk.h"

/* ---- --baseline ------------------------------------------------------------------------------ */

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
 * absent (their `matched` stays false). A finding's URI is gl_loc_uri(path, run->srcroot).
 * Sets run->baseline = base (borrowed: base must outlive run's report). */
void gl_baseline_apply(gl_baseline *base, gl_run *run);

/* Counts after gl_baseline_apply: baseline results no current result matched. */
size_t gl_baseline_absent(const gl_baseline *base);

void gl_baseline_free(gl_baseline *base);

/* ---- --shard I/N ----------------------------------------------------------------------------- */

/* The largest N of --shard I/N. */
#define GL_SHARD_MAX 1024

/* The shard (1..n) that the file with SARIF URI uri[0..len) belongs to: 1 + (FNV-1a-64(uri) mod
 * n). n must be 1..GL_SHARD_MAX. */
unsigned gl_shard_of(const char *uri, size_t len, unsigned n);

/* Keeps only the walked files of shard index (1..n); a file's URI is gl_loc_uri(path,
 * srcroot) with srcroot as the SARIF writer resolves it ("" = "/", NULL = "."). The removed
 * paths are freed; the order of the rest is kept. */
void gl_shard_filter_files(gl_walk_result *walked, const char *srcroot, unsigned index, unsigned n);

/* Keeps only the baseline results of shard index (1..n), by their URI as written in the log,
 * so that results of files in other shards are not reported as absent. base may be NULL. */
void gl_shard_filter_baseline(gl_baseline *base, unsigned index, unsigned n);

/* ---- gpulint merge --------------------------------------------------------------------------- */

/* Merges the n >= 1 gpulint SARIF logs at paths (borrowed). Returns the merged log's text,
 * formatted as the SARIF writer formats it and ending in a newline (caller frees), with
 * *dropped_out = the results left out by the 25,000 limit (the shards' own included); or NULL
 * with err = "FILE:LINE:COL: message" at the offending item: "invalid json", "not a SARIF 2.1.0
 * log", "not a gpulint SARIF log: the tool is 'ruff'", "gpulint version '0.2.0' differs from
 * '0.1.0' in FIRST", "category 'b/' differs from 'a/' in FIRST", "run properties (evidence)
 * differ from FIRST's", or a gl_load_file error (line 0). */
char *gl_sarif_merge(const char *const *paths, size_t n, size_t *dropped_out, gl_diag *err);

#endif
