/* shard.h: --shard I/N, a stable partition of a run's files so that a CI matrix can split one
 *          repository across runners and merge the SARIF logs afterwards (sarif_merge.h).
 * Owns: the shard of a file (64-bit FNV-1a of its SARIF URI: the path relative to %SRCROOT%,
 *       percent-encoded exactly as the SARIF writer writes it, or its file: URI outside
 *       %SRCROOT%), so the same file lands in the same shard on every machine and in every run
 *       whatever other files exist; filtering the walked files and a baseline's results to one
 *       shard.
 * Not: walking (walk.c lists every file as always; the filter runs after it), parsing the
 *      option (cli.c), merging logs (sarif_merge.c).
 * Threads: main thread, before the workers start. */
#ifndef GL_SHARD_H
#define GL_SHARD_H

#include <stddef.h>
#include <stdint.h>
#include "ci/baseline.h"
#include "walk.h"

/* The largest N of --shard I/N. */
#define GL_SHARD_MAX 1024

/* The shard (1..n) that the file with SARIF URI uri[0..len) belongs to: 1 + (FNV-1a-64(uri) mod
 * n). n must be 1..GL_SHARD_MAX. */
unsigned gl_shard_of(const char *uri, size_t len, unsigned n);

/* Keeps only the walked files of shard index (1..n); a file's URI is gl_report_uri(path,
 * srcroot) with srcroot as the SARIF writer resolves it ("" = "/", NULL = "."). The removed
 * paths are freed; the order of the rest is kept. */
void gl_shard_filter_files(gl_walk_result *walked, const char *srcroot, unsigned index, unsigned n);

/* Keeps only the baseline results of shard index (1..n), by their URI as written in the log,
 * so that results of files in other shards are not reported as absent. base may be NULL. */
void gl_shard_filter_baseline(gl_baseline *base, unsigned index, unsigned n);

#endif
