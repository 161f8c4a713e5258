/* report.c: the format names and the dispatch from a format to its writer.
 * Owns: gl_report_format_parse / gl_report_format_name, gl_report_write (which turns a stream
 *       error into GL_EIO), and the small shared helpers of report_int.h (buffer, counts, words).
 * Not: any one format (sarif.c, text.c, frame.c, github.c, json.c), locations (location.c).
 * Threads: stateless; the writers run once in the main thread. */
#include "report/report.h"

#include <string.h>
#include "base/diag.h"
#include "report/report_int.h"

typedef int (*writer_fn)(FILE *, const gl_run *, const gl_report_opts *);

static const struct {
  const char *name;
  gl_format fmt;
  writer_fn write;
} formats[] = {
#define GL_FORMAT(id, name, writer, pad, help) {name, GL_FORMAT_##id, writer},
#include "report/formats.def"
#undef GL_FORMAT
};

enum { NFORMATS = sizeof formats / sizeof formats[0] };

const char gl_report_format_help[] =
    "  --format FORMAT        how the report is written:\n"
#define GL_FORMAT(id, name, writer, pad, help) "                           " name pad help "\n"
#include "report/formats.def"
#undef GL_FORMAT
    ;

void gl_report_format_names(char *buf, size_t cap, const char *quote) {
  size_t n = 0;
  if (!cap) return;
  buf[0] = '\0';
  for (size_t i = 0; i < NFORMATS && n < cap; i++) {
    const char *sep = i == 0 ? "" : i + 1 == NFORMATS ? " or " : ", ";
    int w = snprintf(buf + n, cap - n, "%s%s%s%s", sep, quote, formats[i].name, quote);
    if (w < 0) break;
    n += (size_t)w;
  }
}

int gl_report_format_parse(const char *name) {
  if (!name) return -1;
  for (size_t i = 0; i < NFORMATS; i++)
    if (strcmp(formats[i].name, name) == 0) return (int)formats[i].fmt;
  return -1;
}

const char *gl_report_format_name(gl_format fmt) {
  for (size_t i = 0; i < NFORMATS; i++)
    if (formats[i].fmt == fmt) return formats[i].name;
  return NULL;
}

int gl_report_write(FILE *out, gl_format fmt, const gl_run *run, const gl_report_opts *opts) {
  static const gl_report_opts defaults = {.color = false, .tool_version = GL_VERSION};
  if (!opts) opts = &defaults;
  if ((unsigned)fmt >= NFORMATS) return GL_EINVAL;
  int rc = formats[fmt].write(out, run, opts);
  if (rc != 0) return rc;
  if (fflush(out) != 0 || ferror(out)) return GL_EIO;
  return 0;
}

/* ---- shared helpers -------------------------------------------------------------------------- */

const char *gl_report__level_word(gl_level level) {
  switch (level) {
    case GL_LEVEL_ERROR: return "error";
    case GL_LEVEL_WARNING: return "warning";
    default: return "note";
  }
}

const char *gl_report__level_color(gl_level level) {
  if (level == GL_LEVEL_ERROR) return "\x1b[1;31m";
  if (level == GL_LEVEL_WARNING) return "\x1b[1;33m";
  return "\x1b[1;36m";
}

bool gl_report__shown(const gl_finding *x) {
  return !x->suppressed && x->baseline != GL_BASELINE_UNCHANGED;
}

const char *gl_report__incomplete_id(const gl_notification *n) {
  if (n->kind == GL_NOTE_SKIPPED) return GL_NOTE_ID_SKIPPED;
  if (n->kind == GL_NOTE_PARTIAL) return GL_NOTE_ID_PARTIAL;
  return NULL;
}

gl_report__counts gl_report__count(const gl_run *run) {
  gl_report__counts c = {0};
  for (size_t i = 0; i < run->files.len; i++) {
    const gl_file_result *f = &run->files.data[i];
    bool skipped = false, partial = false;
    for (size_t j = 0; j < f->notes.len; j++) {
      skipped |= f->notes.data[j].kind == GL_NOTE_SKIPPED;
      partial |= f->notes.data[j].kind == GL_NOTE_PARTIAL;
    }
    c.skipped += skipped;
    c.partial += partial && !skipped;
    for (size_t j = 0; j < f->findings.len; j++) {
      const gl_finding *x = &f->findings.data[j];
      if (x->suppressed) continue;
      if (x->baseline == GL_BASELINE_UNCHANGED) {
        c.baseline_hidden++;
        continue;
      }
      c.total++;
      if (x->level == GL_LEVEL_ERROR) c.errors++;
      else if (x->level == GL_LEVEL_WARNING) c.warnings++;
      else c.notes++;
    }
  }
  return c;
}
