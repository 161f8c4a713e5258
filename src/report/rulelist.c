/* rulelist.c: `gpulint rules`, the table (or JSON array) of every known rule.
 * Owns: the columns id, name, pack, default level, precision, whether the rule is on and, when it
 *       is off, why (below the precision gate, off by default, its pack off, not selected).
 * Not: a rule's documentation (`gpulint rule ID` prints the rule file itself).
 * Threads: main thread, after the ruleset is frozen. */
#include "report/report.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Why r is off, into buf ("" when it is on). */
static const char *why_off(const gl_rule *r, char *buf, size_t cap) {
  buf[0] = '\0';
  if (r->enabled) return buf;
  if (r->measured.judged && r->measured.precision < GL_PRECISION_GATE)
    snprintf(buf, cap, "precision %.2f (%u of %u findings right, %s) is below %.2f: off unless selected",
             r->measured.precision, r->measured.right, r->measured.judged, r->measured.date,
             GL_PRECISION_GATE);
  else if (!r->default_on)
    snprintf(buf, cap, "off unless selected");
  else if (!r->pack->default_on)
    snprintf(buf, cap, "its pack is off unless selected");
  else
    snprintf(buf, cap, "not selected");
  return buf;
}

static int write_table(FILE *out, const gl_ruleset *set) {
  size_t wname = 4, wpack = 4;
  for (size_t i = 0; i < set->rules.len; i++) {
    const gl_rule *r = set->rules.data[i];
    if (strlen(r->name) > wname) wname = strlen(r->name);
    if (strlen(r->pack->name) > wpack) wpack = strlen(r->pack->name);
  }
  fprintf(out, "%-7s %-*s %-*s %-8s %-9s %-7s %s\n", "ID", (int)wname, "NAME", (int)wpack, "PACK",
          "LEVEL", "PRECISION", "ENABLED", "WHY OFF");
  for (size_t i = 0; i < set->rules.len; i++) {
    const gl_rule *r = set->rules.data[i];
    char why[160];
    why_off(r, why, sizeof(why));
    fprintf(out, "%-7s %-*s %-*s %-8s %-9s %-7s %s", r->id, (int)wname, r->name,
                    (int)wpack, r->pack->name, gl_level_name(r->level), r->precision,
                    r->enabled ? "yes" : "no", why);
    fputs("\n", out);
  }
  return ferror(out) ? -1 : 0;
}

/* "measured": {"precision", "right", "judged", "date"} of a measured rule; true when added. */
static bool add_measured(cJSON *o, const gl_rule *r) {
  if (!r->measured.judged) return true;
  cJSON *m = cJSON_AddObjectToObject(o, "measured");
  return m && cJSON_AddNumberToObject(m, "precision", r->measured.precision) &&
         cJSON_AddNumberToObject(m, "right", r->measured.right) &&
         cJSON_AddNumberToObject(m, "judged", r->measured.judged) &&
         cJSON_AddStringToObject(m, "date", r->measured.date);
}

static cJSON *rule_object(const gl_rule *r) {
  cJSON *o = cJSON_CreateObject();
  if (!o) return NULL;
  char why[160];
  if (!cJSON_AddStringToObject(o, "id", r->id) || !cJSON_AddStringToObject(o, "name", r->name) ||
      !cJSON_AddStringToObject(o, "pack", r->pack->name) ||
      !cJSON_AddStringToObject(o, "level", gl_level_name(r->level)) ||
      !cJSON_AddStringToObject(o, "precision", r->precision) ||
      !cJSON_AddStringToObject(o, "summary", r->short_desc ? r->short_desc : "") ||
      !cJSON_AddBoolToObject(o, "enabled", r->enabled) || !add_measured(o, r) ||
      (!r->enabled && !cJSON_AddStringToObject(o, "why_off", why_off(r, why, sizeof(why))))) {
    cJSON_Delete(o);
    return NULL;
  }
  return o;
}

static int write_json(FILE *out, const gl_ruleset *set) {
  cJSON *arr = cJSON_CreateArray();
  if (!arr) return -1;
  for (size_t i = 0; i < set->rules.len; i++) {
    cJSON *o = rule_object(set->rules.data[i]);
    if (!o || !cJSON_AddItemToArray(arr, o)) {
      cJSON_Delete(o);
      cJSON_Delete(arr);
      return -1;
    }
  }
  char *text = cJSON_Print(arr);
  cJSON_Delete(arr);
  if (!text) return -1;
  fputs(text, out);
  fputc('\n', out);
  cJSON_free(text);
  return ferror(out) ? -1 : 0;
}

int gl_report_rules(FILE *out, bool json, const gl_ruleset *set) {
  return json ? write_json(out, set) : write_table(out, set);
}
