/* calibrate.h: the calibrate stage (`gpulint --evidence FILE`): a rule bound to a metric of the
 * probe's evidence gets its level from the measured value and its message the measured cost.
 * Owns: levels from thresholds, the rank (SARIF `rank`), the cost text (placeholders {value},
 *       {device}, {total}) and the number format of the figures, the per-finding calibration
 *       record, and the warnings about bound metrics the evidence lacks.
 * Not: loading the evidence (evidence.c) or the binding (rulemeta.c), printing the warnings
 *       (main.c), writing the calibrated fields (src/report/).
 * Threads: runs once in the main thread after the workers joined and before the report. */
#ifndef GL_CALIBRATE_H
#define GL_CALIBRATE_H

#include <stddef.h>
#include "base/vec.h"
#include "evidence/evidence.h"
#include "result/result.h"
#include "rules/rules.h"

/* Room for any formatted figure with its unit: numbers of 1e-30..1e30 are written out in full,
 * others (never measured) as "1.23e+45". */
#define GL_CALIB_NUM_MAX 64
/* Room for a bare figure: at most 31 digits and 10 commas, or an exponent form. */
#define GL_CALIB_FIG_MAX 48

typedef gl_vec(char *) gl_calib_warnings;

/* Calibrates every finding (suppressed ones too) whose rule binds a metric that ev holds:
 * level, message + "; " + cost, and f->calib. Sets run->evidence = ev (borrowed: ev must outlive
 * the run). For each metric that enabled rules of run->rules bind but ev lacks, appends one
 * warning (owned by the caller) "evidence FILE has no metric 'K'; GPU201 keeps its default
 * level" (", GPU202 keep their ..." for several rules, in id order); a bound metric in a unit
 * that is not a time while the cost uses {total} is skipped the same way ("evidence FILE gives
 * metric 'K' in GB/s, not a time, for {total}; GPU201 keeps its default level"). Returns the
 * number of findings calibrated. */
size_t gl_calib_run(gl_run *run, const gl_evidence *ev, gl_calib_warnings *warnings);

/* Higher-worse: v >= error_at -> error, v < note_below -> note, else warning. Lower-worse:
 * v <= error_at -> error, v > note_above -> note, else warning. */
gl_level gl_calib_level(const gl_evidence_binding *b, double v);

/* t = log(v/note)/log(error/note) (higher-worse) or log(note/v)/log(note/error) (lower-worse);
 * clamp(25 + 50 t, 0, 100) rounded to one decimal. */
double gl_calib_rank(const gl_evidence_binding *b, double v);

/* v (finite, >= 0) with 3 significant digits, trailing zeros trimmed, no exponent, "," between
 * thousands when the integer part is 10,000 or more: 11.6, 0.0156, 2040, 123,000. */
void gl_calib_number(double v, char buf[GL_CALIB_FIG_MAX]);

/* A measured value with its unit: "11.6 µs", "412 ms", "55.2 GB/s", "66.9 TFLOP/s", "0.57"
 * (ratio), "2040×" (x). */
void gl_calib_value(double v, gl_unit unit, char buf[GL_CALIB_NUM_MAX]);

/* A duration in microseconds in the largest of s, ms, µs that shows it as >= 1 (after rounding
 * to 3 significant digits): 116000 -> "116 ms", 999999 -> "1 s", 0.5 -> "0.5 µs". */
void gl_calib_time(double us, char buf[GL_CALIB_NUM_MAX]);

/* The binding's cost text for metric m on device (a new string the caller frees). {total} is
 * median x repeat as a time (m must be in us or ms then). */
char *gl_calib_cost(const gl_evidence_binding *b, const gl_metric *m, const char *device);

void gl_calib_warnings_free(gl_calib_warnings *w);

#endif
