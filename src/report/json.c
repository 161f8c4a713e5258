/* json.c: the json format (after Ruff's): one array, in run order, of the shown findings (not
 * suppressed, not unchanged from --baseline)
 * {"code", "name", "message", "severity", "filename", "location": {"row", "column"},
 *  "end_location": {"row", "column"}, "fingerprint"}; columns are 1-based code points, the
 * fingerprint is the primaryLocationLineHash (null when unknown). With --evidence a calibrated
 * finding adds "evidence" {"metric", "value", "unit", "device", "defaultLevel"} and "rank". Of the
 * notifications (main prints them all to stderr; SARIF carries them all), those that make the run
 * incomplete are entries too, as Ruff lists an unreadable file (E902): "code" is "file-skipped" or
 * "partial-lint", "name" null, the location the note's (1:1 when it has none).
 * Owns: that array. Not: locations (location.c). Threads: main thread; the cJSON tree never
 * leaves gl_json_write. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include "report/report_int.h"

static bool add_text(cJSON *o, const char *key, const char *value) {
  return gl_report__add_text(o, key, value);
}

static bool add_point(cJSON *o, const char *key, uint32_t row, uint32_t column) {
  cJSON *p = cJSON_AddObjectToObject(o, key);
  return p && cJSON_AddNumberToObject(p, "row", (double)row) &&
         cJSON_AddNumberToObject(p, "column", (double)column);
}

static bool add_finding(cJSON *array, const char *path, const gl_finding *x) {
  cJSON *o = cJSON_CreateObject();
  if (!o) return false;
  if (!cJSON_AddItemToArray(array, o)) {
    cJSON_Delete(o);
    return false;
  }
  const gl_region *r = &x->region;
  bool ok = add_text(o, "code", x->rule->id) && add_text(o, "name", x->rule->name) &&
            add_text(o, "message", x->message) &&
            cJSON_AddStringToObject(o, "severity", gl_report__level_word(x->level)) &&
            add_text(o, "filename", path) &&
            add_point(o, "location", r->start_line, r->start_col_cp) &&
            add_point(o, "end_location", r->end_line, r->end_col_cp);
  if (!ok) return false;
  if (x->cell) /* a notebook: location is in the .ipynb's json text; the cell view besides */
    ok = cJSON_AddNumberToObject(o, "cell", x->cell) &&
         cJSON_AddNumberToObject(o, "cell_line", x->cell_region.start_line) &&
         cJSON_AddNumberToObject(o, "cell_column", x->cell_region.start_col_cp) &&
         cJSON_AddNumberToObject(o, "cell_end_line", x->cell_region.end_line) &&
         cJSON_AddNumberToObject(o, "cell_end_column", x->cell_region.end_col_cp);
  if (!ok) return false;
  ok = x->line_hash ? add_text(o, "fingerprint", x->line_hash) : cJSON_AddNullToObject(o, "fingerprint") != NULL;
  return ok && gl_report__add_calibration(o, "evidence", x) && gl_report__add_rank(o, x);
}

static bool add_note(cJSON *array, const char *path, const gl_notification *n) {
  const char *id = gl_report__incomplete_id(n);
  if (!id) return true;
  cJSON *o = cJSON_CreateObject();
  if (!o) return false;
  if (!cJSON_AddItemToArray(array, o)) {
    cJSON_Delete(o);
    return false;
  }
  uint32_t row = n->line ? n->line : 1, column = n->col ? n->col : 1;
  return cJSON_AddStringToObject(o, "code", id) && cJSON_AddNullToObject(o, "name") &&
         add_text(o, "message", n->message) &&
         cJSON_AddStringToObject(o, "severity", gl_report__level_word(n->level)) &&
         add_text(o, "filename", path) && add_point(o, "location", row, column) &&
         add_point(o, "end_location", row, column) && cJSON_AddNullToObject(o, "fingerprint");
}

int gl_json_write(FILE *out, const gl_run *run, const gl_report_opts *opts) {
  (void)opts;
  cJSON *array = cJSON_CreateArray();
  bool ok = array != NULL;
  for (size_t i = 0; ok && i < run->files.len; i++) {
    const gl_file_result *f = &run->files.data[i];
    for (size_t j = 0; ok && j < f->findings.len; j++)
      if (gl_report__shown(&f->findings.data[j])) ok = add_finding(array, f->path, &f->findings.data[j]);
    for (size_t j = 0; ok && j < f->notes.len; j++) ok = add_note(array, f->path, &f->notes.data[j]);
  }
  char *text = ok ? cJSON_PrintBuffered(array, 1 << 16, 1) : NULL;
  cJSON_Delete(array);
  if (!text) return GL_EIO;
  fputs(text, out);
  fputc('\n', out);
  cJSON_free(text);
  return 0;
}
