/* report_int.h: what the files of src/report/ share and nobody else sees.
 * Owns: the per-format writers called by report.c, the UTF-8 decoder and the visible escapes
 *       that location.c defines once for every writer, a growable text buffer, level words.
 * Not: a public interface (report.h is), opening files (output.c).
 * Threads: stateless helpers; writers run in the main thread after the workers joined. */
#ifndef GL_REPORT_INT_H
#define GL_REPORT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "result.h"
#include "base/vec.h"
#include "report/report.h"

/* A growable byte string; data is NUL-terminated once anything was added. */
typedef gl_vec(char) gl_report__buf;

/* Appends n bytes of s (and keeps a NUL after them). */
void gl_report__buf_add(gl_report__buf *b, const char *s, size_t n);
void gl_report__buf_adds(gl_report__buf *b, const char *s);
/* Hands the buffer's string to the caller (never NULL: "" for an empty buffer). */
char *gl_report__buf_take(gl_report__buf *b);

/* Decodes the code point at s[i] (i < len) into *cp and returns how many bytes it used (>= 1).
 * An ill-formed sequence gives U+FFFD and *invalid = true. With `maximal`, one U+FFFD stands for
 * the maximal subpart of an ill-formed sequence (WHATWG / Node's decoder, used for line hashes);
 * without it, every invalid byte is its own U+FFFD (as gl_load_position counts columns). */
size_t gl_report__utf8_next(const char *s, size_t len, size_t i, bool maximal, uint32_t *cp,
                            bool *invalid);

/* Writes the visible form of one decoded code point into out (NUL-terminated) and returns its
 * length: controls as "\x1b", C1 controls and bidirectional overrides as "\u202e", an invalid
 * byte as U+FFFD, anything else as its UTF-8. Tab is kept. out must hold 16 bytes. */
size_t gl_report__escape_cp(uint32_t cp, bool invalid, char out[16]);

/* Terminal columns a code point takes once escaped (0 for combining marks, 2 for wide). Tab is
 * the caller's business. */
unsigned gl_report__cp_width(uint32_t cp, bool invalid);

/* A copy of s that is valid UTF-8 (each invalid byte replaced with U+FFFD), for JSON strings:
 * cJSON copies bytes through. NULL gives "". Caller frees. */
char *gl_report__json_text(const char *s);

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
} gl_report__counts;
gl_report__counts gl_report__count(const gl_run *run);

/* The code frame of a finding in the full format (frame.c): gutter, source lines, carets. */
void gl_report__frame(FILE *out, const gl_finding *x, const gl_report_opts *opts);

/* Calibration (calib.c; no-ops for an uncalibrated finding or a run without evidence), each
 * returning false when the tree could not be extended: o[key] = {"metric", "value", "unit",
 * "device", "defaultLevel"}; o["rank"]; o["evidence"] = {"file", "version", "probe", "device"}. */
struct cJSON;
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
