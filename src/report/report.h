/* report.h: the output formats of a run.
 * Owns: the format names (full, concise, json, sarif, github, gcc) and writing a sorted gl_run to
 *       a stream in one of them. Every writer uses the same sorted findings and the location
 *       helpers below (one place computes URIs and line hashes).
 * Not: deciding exit status, atomic file replacement (output.c), linting.
 * Threads: called once, from the main thread, after the workers joined. */
#ifndef GL_REPORT_H
#define GL_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "base/location.h"
#include "result/result.h"

typedef enum gl_format {
#define GL_FORMAT(id, name, writer, pad, help) GL_FORMAT_##id,
#include "report/formats.def"
#undef GL_FORMAT
} gl_format;

/* The names of every format as a list for a message: "full, concise, ... or gcc", each name
 * inside quote (e.g. "\"" or ""), into buf. */
void gl_report_format_names(char *buf, size_t cap, const char *quote);

/* The --format paragraph of `gpulint --help`, one line per format. */
extern const char gl_report_format_help[];

/* "full" -> GL_FORMAT_FULL ...; -1 for an unknown name. */
int gl_report_format_parse(const char *name);

/* The name of a format ("full" ...), or NULL for a value outside gl_format. */
const char *gl_report_format_name(gl_format fmt);

typedef struct gl_report_opts {
  bool color;                 /* ANSI colour (text formats only) */
  const char *tool_version;   /* "0.1.0" */
  bool quiet;                 /* text formats: no summary line */
  const char *sarif_category; /* SARIF runs[0].automationDetails.id = this plus a trailing '/'
                                 when it lacks one (as GitHub's upload action does with its
                                 `category` input); NULL = no automationDetails */
  size_t max_results;         /* SARIF: results kept per run, in output order (0 = GitHub's
                                 limit, GL_SARIF_MAX_RESULTS) */
  size_t max_locations;       /* SARIF: locations + relatedLocations kept per result (0 =
                                 GL_SARIF_MAX_LOCATIONS) */
} gl_report_opts;

/* What the SARIF writer leaves out of run under opts' limits (opts NULL = GitHub's): returns how
 * many results it drops (the last ones in output order); *locations_out (may be NULL) receives how
 * many related locations it drops from the results it keeps. The SARIF itself says the same in a
 * toolExecutionNotifications entry ("sarif-limit"). */
size_t gl_report_sarif_dropped(const gl_run *run, const gl_report_opts *opts,
                               size_t *locations_out);

/* Writes run to out. Returns 0, or GL_EIO when writing failed. */
int gl_report_write(FILE *out, gl_format fmt, const gl_run *run, const gl_report_opts *opts);

/* `gpulint rules`: one line per rule (id, name, pack, default level, precision, enabled) or, with
 * json, an array of objects with the same fields. Returns 0 or GL_EIO. (rulelist.c) */
int gl_report_rules(FILE *out, bool json, const gl_ruleset *set);

#endif
