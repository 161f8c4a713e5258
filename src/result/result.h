/* result.h: what linting produces: findings and notifications, per file and per run.
 * Owns: the records that outlive a file's tree, copied out of the worker's scratch memory, and
 *       sorting them into output order (path, line, column, rule id).
 * Not: computing them (match.c, engine.c) or formatting them (src/report/).
 * Threads: a gl_file_result is filled by one worker; gl_run is assembled after the workers join. */
#ifndef GL_RESULT_H
#define GL_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include "base/load.h"
#include "base/vec.h"
#include "rules/rules.h"

typedef struct gl_region {
  uint32_t start_line, start_col;   /* 1-based; columns in UTF-16 code units */
  uint32_t end_line, end_col;       /* end_col is exclusive (SARIF endColumn) */
  uint32_t start_col_cp, end_col_cp;/* the same columns in code points (text output) */
  uint32_t start_byte, end_byte;
} gl_region;

/* The region of src's bytes [start_byte, end_byte): 1-based lines, UTF-16 and code-point columns
 * from gl_load_position, end column exclusive. Query findings and checks both use it. */
gl_region gl_region_of(const gl_source *src, uint32_t start_byte, uint32_t end_byte);

struct gl_evidence;

/* What calibration (calibrate.c, --evidence) measured for one finding. */
typedef struct gl_calibration {
  double rank;              /* SARIF rank: 0..100, one decimal (note threshold 25, error 75) */
  double value;             /* the bound metric's median */
  char *metric;             /* owned: the metric's key ("item_roundtrip_us") */
  char *unit;               /* owned: its unit as the evidence file names it ("us") */
  char *device;             /* owned: the evidence's device.name */
  gl_level default_level;   /* the finding's level before calibration */
} gl_calibration;

/* A finding against --baseline (baseline.c): SARIF baselineState "new" / "unchanged". */
typedef enum gl_baseline_state {
  GL_BASELINE_NONE,         /* no --baseline */
  GL_BASELINE_NEW,          /* not in the baseline: reported and counted */
  GL_BASELINE_UNCHANGED,    /* in the baseline: only SARIF shows it; not counted */
} gl_baseline_state;

/* Most related locations a finding carries. */
#define GL_FINDING_MAX_RELATED 2

typedef struct gl_finding {
  const gl_rule *rule;      /* borrowed from the ruleset */
  gl_level level;           /* after calibration */
  gl_region region;
  char *message;            /* owned, placeholders filled */
  char *snippet;            /* owned: the source text of the region's lines (code frames) */
  char *line_hash;          /* owned: primaryLocationLineHash of region.start_line */
  bool suppressed;          /* by a # noqa comment */
  gl_baseline_state baseline; /* GL_BASELINE_NONE unless --baseline */
  gl_region related[GL_FINDING_MAX_RELATED]; /* other places that explain the finding (SARIF
                                                relatedLocations), in the finding's file */
  char *related_msg[GL_FINDING_MAX_RELATED]; /* owned: one short message per related region */
  uint8_t nrelated;         /* how many of related[] are used */
  gl_calibration *calib;    /* owned; NULL unless calibrated (its level and message then carry
                               the measured cost) */
  uint32_t cell;            /* notebooks: 1-based cell (among all cells) of the region's start;
                               0 for a .py file. region and related[] then hold positions in the
                               .ipynb's json text (SARIF), cell_region the same span in the cell
                               (cell lines, code-point and UTF-16 columns; text, json, frames) */
  gl_region cell_region;
} gl_finding;

typedef enum gl_note_kind {
  GL_NOTE_SYNTAX_ERROR,     /* recovered tree linted: not incomplete */
  GL_NOTE_PARTIAL,          /* linted but something was cut short (match limit, depth): incomplete */
  GL_NOTE_SKIPPED,          /* not linted at all (unreadable, too large, parse timeout): incomplete */
} gl_note_kind;

typedef struct gl_notification {
  gl_note_kind kind;
  gl_level level;
  uint32_t line, col;       /* 1-based; 0 when not about a position */
  char *message;            /* owned */
} gl_notification;

typedef struct gl_file_result {
  char *path;                          /* owned display path */
  gl_vec(gl_finding) findings;
  gl_vec(gl_notification) notes;
  bool linted;                         /* parsed and matched (possibly skipped by the prefilter) */
  char *summary;                       /* owned: what the program stage needs of the file
                                          (model.h gl_model_program_summary); NULL when the
                                          file was not parsed */
} gl_file_result;

typedef struct gl_run {
  gl_vec(gl_file_result) files;        /* sorted by path */
  const gl_ruleset *rules;             /* borrowed */
  double elapsed_s;
  char *srcroot;                       /* owned absolute directory for %SRCROOT%, ends without '/' */
  const struct gl_evidence *evidence;  /* borrowed (outlives the run); NULL without --evidence */
  const struct gl_baseline *baseline; /* borrowed; NULL without --baseline (ci/ci.h): its
                                        unmatched results are SARIF's "absent" ones */
} gl_run;

/* Adds a notification with a formatted message. */
void gl_file_result_note(gl_file_result *r, gl_note_kind kind, gl_level level, uint32_t line,
                         uint32_t col, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Sorts findings of every file by (line, column, rule id) and files by path. */
void gl_run_sort(gl_run *run);

/* Counts of unsuppressed findings at or above `level`, leaving out those unchanged from the
 * baseline. */
size_t gl_run_count_at_least(const gl_run *run, gl_level level);

/* Adds a path the walk could not read (walk.h: missing, a FIFO or device, an unreadable
 * directory; "" reads as ".") as a file result holding one GL_NOTE_SKIPPED error "not linted:
 * <why>", so every report format carries it and no summary says the run passed. The caller
 * sorts the run again (gl_run_sort). */
void gl_run_add_unread(gl_run *run, const char *path, const char *why);

/* True when some file was asked for but not (fully) linted: a GL_NOTE_SKIPPED or GL_NOTE_PARTIAL. */
bool gl_run_incomplete(const gl_run *run);

/* Frees a calibration and what it owns; NULL does nothing. */
void gl_calibration_free(gl_calibration *c);

/* Frees what a finding owns (message, snippet, line hash, related messages, calibration), not f
 * itself. */
void gl_finding_free_fields(gl_finding *f);

void gl_file_result_free(gl_file_result *r);
void gl_run_free(gl_run *run);

#endif
