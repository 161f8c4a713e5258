/* report_int.h: what the files of src/report/ share and nobody else sees.
 * Owns: the per-format writers called by report.c, level words and colours, counts of shown
 *       findings, the calibration parts of json and SARIF (UTF-8, escapes, URIs and line hashes
 *       are base/utf8.h and base/location.h).
 * Not: a public interface (report.h is), opening files (output.c).
 * Threads: stateless helpers; writers run in the main thread after the workers joined. */
#ifndef GL_REPORT_INT_H
#define GL_REPORT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/vec.h"
#include "report/report.h"
#include "result/result.h"

/* "error" / "warning" / "note" for text formats (none reads as note). */
const char *gl_report__level_word(gl_level level);

/* The ANSI colour of a level (bold red / yellow / cyan). */
const char *gl_report__level_color(gl_level level);

/* Whether text, json and github formats show a finding: neither suppressed nor unchanged from
 * the --baseline (SARIF writes every finding). */
bool gl_report__shown(const gl_finding *x);

/* Counts of shown findings by level (none counts as a note), and of the unsuppressed findings
 * that --baseline hides (unchanged). */
typedef struct gl_report__counts {
  size_t total, errors, warnings, notes;
  size_t baseline_hidden;
  size_t skipped, partial;  /* files with a GL_NOTE_SKIPPED note; files linted only in part */
} gl_report__counts;
gl_report__counts gl_report__count(const gl_run *run);

/* The id of a notification that makes the run incomplete ("file-skipped", "partial-lint": the
 * SARIF descriptors' ids), which the json, gcc and github formats show as they show a rule id;
 * NULL for one that does not (a syntax error: the recovered tree was linted). */
#define GL_NOTE_ID_PARTIAL "partial-lint"
#define GL_NOTE_ID_SKIPPED "file-skipped"
const char *gl_report__incomplete_id(const gl_notification *n);

/* The code frame of a finding in the full format (frame.c): gutter, source lines, carets. */
void gl_report__frame(FILE *out, const gl_finding *x, const gl_report_opts *opts);

/* o[key] = value as a json string made valid UTF-8 (calib.c; NULL gives ""): every string of
 * the json and SARIF documents that holds text from a file goes through it. False when the tree
 * could not be extended. */
struct cJSON;
bool gl_report__add_text(struct cJSON *o, const char *key, const char *value);

/* Calibration (calib.c; no-ops for an uncalibrated finding or a run without evidence), each
 * returning false when the tree could not be extended: o[key] = {"metric", "value", "unit",
 * "device", "defaultLevel"}; o["rank"]; o["evidence"] = {"file", "version", "probe", "device"}. */
bool gl_report__add_calibration(struct cJSON *o, const char *key, const gl_finding *x);
bool gl_report__add_rank(struct cJSON *o, const gl_finding *x);
bool gl_report__add_evidence(struct cJSON *o, const gl_run *run);

/* The writers; each returns 0 (report.c checks the stream for errors). */
int gl_sarif_write(FILE *out, const gl_run *run, const gl_report_opts *opts);
int gl_json_write(FILE *out, const gl_run *run, const gl_report_opts *opts);
int gl_text_write_full(FILE *out, const gl_run *run, const gl_report_opts *opts);
int gl_text_write_concise(FILE *out, const gl_run *run, const gl_report_opts *opts);
int gl_text_write_gcc(FILE *out, const gl_run *run, const gl_report_opts *opts);
int gl_github_write(FILE *out, const gl_run *run, const gl_report_opts *opts);

#endif
