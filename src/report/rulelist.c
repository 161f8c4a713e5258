/* rulelist.c: `gpulint rules`, the table (or JSON array) of every known rule.
 * Owns: the columns id, name, pack, default level, precision and whether the rule is on.
 * Not: a rule's documentation (`gpulint rule ID` prints the rule file itself).
 * Threads: main thread, after the ruleset is frozen. */
#include "report/report.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static int write_table(FILE *out, const gl_ruleset *set) {
  size_t wname = 4, wpack = 4;
  for (size_t i = 0; i < set->rules.len; i++) {
    const gl_rule *r = set->rules.data[i];
    if (strlen(r->name) > wname) wname = strlen(r->name);
    if (strlen(r->pack->name) > wpack) wpack = strlen(r->pack->name);
  }
  fprintf(out, "%-7s %-*s %-*s %-8s %-9s %s\n", "ID", (int)wname, "NAME", (int)wpack, "PACK",
          "LEVEL", "PRECISION", "ENABLED");
  for (size_t i = 0; i < set->rules.len; i++) {
    const gl_rule *r = set->rules.data[i];
    fprintf(out, "%-7s %-*s %-*s %-8s %-9s %s\n", r->id, (int)wname, r->name, (int)wpack,
            r->pack->name, gl_level_name(r->level), r->precision, r->enabled ? "yes" : "no");
  }
  return ferror(out) ? -1 : 0;
}

static cJSON *rule_object(const gl_rule *r) {
  cJSON *o = cJSON_CreateObject();
  if (!o) return NULL;
  if (!cJSON_AddStringToObject(o, "id", r->id) || !cJSON_AddStringToObject(o, "name", r->name) ||
      !cJSON_AddStringToObject(o, "pack", r->pack->name) ||
      !cJSON_AddStringToObject(o, "level", gl_level_name(r->level)) ||
      !cJSON_AddStringToObject(o, "precision", r->precision) ||
      !cJSON_AddStringToObject(o, "summary", r->short_desc ? r->short_desc : "") ||
      !cJSON_AddBoolToObject(o, "enabled", r->enabled)) {
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
