/* sarif_merge.h: `gpulint merge`, one SARIF log out of the logs of a sharded run (--shard I/N),
 *                for a single upload to GitHub code scanning.
 * Owns: reading gpulint SARIF logs (jsondoc.h: regular files, size cap, file:line:col errors),
 *       checking they belong together (same gpulint version, same automationDetails category,
 *       identical run properties), and building the merged run: tool.driver.rules deduplicated
 *       by id in the order the ruleset lists them (every result's ruleIndex renumbered), results
 *       and toolExecutionNotifications in the order one unsharded run writes them (files sorted
 *       by path, each file's own order kept; baseline "absent" results after the others),
 *       originalUriBaseIds and artifacts united, executionSuccessful only when every shard's
 *       was, and GitHub's 25,000-results limit with the SARIF writer's "sarif-limit"
 *       notification. The merged log of a run's shards equals that run's own SARIF byte for
 *       byte when every file's path sorts as its %SRCROOT%-relative URI does.
 * Not: writing the file (main.c through report/output.h), linting.
 * Threads: main thread; no cJSON tree leaves gl_sarif_merge. */
#ifndef GL_SARIF_MERGE_H
#define GL_SARIF_MERGE_H

#include <stddef.h>
#include "base/diag.h"

/* Merges the n >= 1 gpulint SARIF logs at paths (borrowed). Returns the merged log's text,
 * formatted as the SARIF writer formats it and ending in a newline (caller frees), with
 * *dropped_out = the results left out by the 25,000 limit (the shards' own included); or NULL
 * with err = "FILE:LINE:COL: message" at the offending item: "invalid json", "not a SARIF 2.1.0
 * log", "not a gpulint SARIF log: the tool is 'ruff'", "gpulint version '0.2.0' differs from
 * '0.1.0' in FIRST", "category 'b/' differs from 'a/' in FIRST", "run properties (evidence)
 * differ from FIRST's", or a gl_load_file error (line 0). */
char *gl_sarif_merge(const char *const *paths, size_t n, size_t *dropped_out, gl_diag *err);

#endif
