/* location.h: where a finding is, as the outside world names it: a file's URI relative to
 * %SRCROOT% (SARIF, GitHub code scanning, shards, baselines) and GitHub's
 * primaryLocationLineHash of each line.
 * Owns: gl_loc_uri and gl_loc_line_hashes, computed the way GitHub's upload action does, in one
 *       place for every writer and reader.
 * Not: line and column tables (load.h), output formats.
 * Threads: stateless; safe from any thread. */
#ifndef GL_LOCATION_H
#define GL_LOCATION_H

#include <stdbool.h>
#include <stddef.h>

/* GitHub code scanning rejects a run with more results, a result with more locations. */
#define GL_SARIF_MAX_RESULTS 25000
#define GL_SARIF_MAX_LOCATIONS 1000

/* GitHub's primaryLocationLineHash of every line of text ("hex:count"); the caller frees each
 * string and the array (nlines_out entries, one per line as GitHub counts them). */
char **gl_loc_line_hashes(const char *text, size_t len, size_t *nlines_out);

/* A path as a SARIF URI relative to srcroot (percent-encoded; invalid UTF-8 and control bytes
 * escaped). Sets *relative when the path is inside srcroot. Caller frees. */
char *gl_loc_uri(const char *path, const char *srcroot, bool *relative);

#endif
