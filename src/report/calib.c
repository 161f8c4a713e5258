/* calib.c: the calibration parts of the json and SARIF documents (--evidence).
 * Owns: a calibrated finding's {"metric", "value", "unit", "device", "defaultLevel"} object and
 *       rank, and the run's evidence record {"file", "version", "probe", "device"} (the probe and
 *       device objects re-parsed from the evidence's compact json copies), and the one helper
 *       that puts file text into a json string (gl_report__add_text).
 * Not: deciding levels or ranks (calibrate.c), the rest of either document.
 * Threads: main thread; every cJSON item made here is attached to the caller's tree. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include "evidence/evidence.h"
#include "report/report_int.h"

bool gl_report__add_text(cJSON *o, const char *key, const char *value) {
  char *safe = gl_utf8_json_text(value);
  bool ok = cJSON_AddStringToObject(o, key, safe) != NULL;
  free(safe);
  return ok;
}

static const char *level_name(gl_level level) {
  return level == GL_LEVEL_ERROR ? "error" : level == GL_LEVEL_WARNING ? "warning"
                                  : level == GL_LEVEL_NOTE ? "note" : "none";
}

bool gl_report__add_calibration(struct cJSON *o, const char *key, const gl_finding *x) {
  const gl_calibration *c = x->calib;
  if (!c) return true;
  cJSON *e = cJSON_AddObjectToObject(o, key);
  return e && gl_report__add_text(e, "metric", c->metric) &&
         cJSON_AddNumberToObject(e, "value", c->value) && gl_report__add_text(e, "unit", c->unit) &&
         gl_report__add_text(e, "device", c->device) &&
         cJSON_AddStringToObject(e, "defaultLevel", level_name(c->default_level));
}

bool gl_report__add_rank(struct cJSON *o, const gl_finding *x) {
  return !x->calib || cJSON_AddNumberToObject(o, "rank", x->calib->rank) != NULL;
}

/* o[key] = the json text parsed back (an object; {} should the copy ever not parse). */
static bool add_copy(cJSON *o, const char *key, const char *json) {
  cJSON *item = json ? cJSON_Parse(json) : NULL;
  if (!item) item = cJSON_CreateObject();
  if (!item) return false;
  if (cJSON_AddItemToObject(o, key, item)) return true;
  cJSON_Delete(item);
  return false;
}

bool gl_report__add_evidence(struct cJSON *o, const gl_run *run) {
  const gl_evidence *ev = run->evidence;
  if (!ev) return true;
  cJSON *e = cJSON_AddObjectToObject(o, "evidence");
  return e && gl_report__add_text(e, "file", ev->path) &&
         cJSON_AddNumberToObject(e, "version", ev->version) &&
         add_copy(e, "probe", ev->probe_json) && add_copy(e, "device", ev->device_json);
}
