/* rules.h: the rule packs: rule files (Markdown with json metadata and query / check blocks) and
 * pack READMEs, from the embedded built-in packs and from --rules directories.
 * Owns: parsing and validating rule files and packs into a gl_ruleset, selection (--select,
 *       --ignore, --extend-select by id, id prefix, rule name or pack name).
 * Not: compiling queries or regexes (match.c), running rules.
 * Threads: loaded and selected once in the main thread, then frozen and shared read-only. */
#ifndef GL_RULES_H
#define GL_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/diag.h"
#include "base/vec.h"
#include "libmodel/libmodel.h"

/* The most bytes a rule or model file may have: a rule file is documentation, not data. */
#define GL_RULE_FILE_MAX_BYTES (4u << 20)

typedef enum gl_level {
  GL_LEVEL_NONE = 0,
  GL_LEVEL_NOTE = 1,
  GL_LEVEL_WARNING = 2,
  GL_LEVEL_ERROR = 3,
} gl_level;

/* "note" / "warning" / "error" (also "none") -> level; returns -1 for anything else. */
int gl_level_parse(const char *s);
const char *gl_level_name(gl_level level);

typedef struct gl_code_block {
  char *code;            /* owned, the block's text */
  uint32_t line;         /* 1-based line of the block's first code line in the rule file */
} gl_code_block;

typedef struct gl_pack {
  char *name;            /* "legacy" */
  char *prefix;          /* "GPU1" */
  char *title;           /* the README's heading */
  char **triggers;       /* prefilter words, owned */
  size_t ntriggers;
  bool default_on;
  char *readme_path;     /* "rules/legacy/README.md" */
} gl_pack;

/* A rule's `evidence` metadata: binds its level to a metric of a probe's evidence file
 * (calibrate.c). Higher values are worse when `note_below` was given, lower when `note_above`. */
typedef struct gl_evidence_binding {
  char *metric;          /* "item_roundtrip_us" ([A-Za-z0-9_]+) */
  double error_at;       /* > 0: at or past it the finding is an error */
  double note;           /* note_below (higher_worse) or note_above: past it a note */
  bool higher_worse;     /* true: note_below < error_at; false: error_at < note_above */
  char *cost;            /* template: {value}, {device}, {total}; nothing else in braces */
  uint32_t repeat;       /* iterations {total} stands for; 0 when absent */
} gl_evidence_binding;

/* An option a rule declares in its metadata (`"options"`), set in a configuration file's
 * [rule-options.<rule>] table. Only string lists exist so far. */
typedef enum gl_option_type {
  GL_OPT_STRING_LIST,
} gl_option_type;

typedef struct gl_rule_option {
  char *name;            /* kebab-case: "extra-timers" */
  gl_option_type type;
  char *description;     /* one line */
  char **defaults;       /* the metadata's default, owned */
  size_t ndefaults;
  char **values;         /* in effect, owned: NULL means the defaults; set (with origin) by
                            gl_rule_option_set before linting */
  size_t nvalues;
  char *origin;          /* owned: where values came from ("gpulint.toml:4:1"), NULL = default */
} gl_rule_option;

/* A rule whose measured precision is below this is off unless selected (issue 44). */
#define GL_PRECISION_GATE 0.85

/* A precision measured by judging every finding of the rule on the held-back half of
 * tests/realcode; judged == 0 when the rule file states only a category. */
typedef struct gl_rule_measured {
  double precision;      /* right / judged */
  uint32_t right, judged;
  char date[11];         /* "2026-12-06" */
} gl_rule_measured;

typedef struct gl_rule {
  char *id;              /* "GPU101" */
  char *name;            /* "warp-sim-removed" */
  const gl_pack *pack;   /* borrowed from the ruleset */
  gl_level level;        /* default level from "severity" */
  char *precision;       /* "very-high" / "high" / "medium" / "low" (derived when measured) */
  gl_rule_measured measured;
  char **tags; size_t ntags;
  char *message;         /* template; {capture} placeholders name captures of the query */
  char *short_desc;      /* first sentence of "What it does" */
  char *full_desc;       /* the "What it does" section, plain text */
  char *markdown;        /* the whole rule file (help.markdown, `gpulint rule`) */
  char *help_text;       /* the documentation sections as plain text (help.text) */
  char *check;           /* built-in check name, or NULL for a query rule */
  char *query;           /* the `query` block, or NULL */
  uint32_t query_line;   /* 1-based line in the rule file of the query block's first line */
  char *path;            /* "rules/legacy/GPU101.md" (embedded) or the file's path */
  gl_vec(gl_code_block) examples;     /* `## Example` python blocks: must produce this rule */
  gl_vec(gl_code_block) use_instead;  /* `## Use instead` python blocks: must not */
  bool default_on;       /* json "default" (true when absent): on when its pack is on */
  bool enabled;          /* after selection */
  gl_evidence_binding *evidence; /* owned; NULL when the rule binds no metric */
  gl_vec(gl_rule_option) options; /* declared in the metadata, in file order */
} gl_rule;

typedef struct gl_ruleset {
  gl_vec(gl_pack *) packs;
  gl_vec(gl_rule *) rules;   /* sorted by id */
  gl_libmodels *models;      /* owned, never NULL; lookups answer once gl_rules_finish froze it */
} gl_ruleset;

/* One file of a pack source: path as it should appear in errors, and its bytes (borrowed). */
typedef struct gl_rule_file {
  const char *path;
  const char *data;
  size_t len;
} gl_rule_file;

/* Creates an empty ruleset. */
gl_ruleset *gl_rules_new(void);

/* Adds every pack found in files (README.md of a folder = a pack, other *.md of that folder =
 * rules), and every library model (<...>/models/<library>.json, in path order) to set->models.
 * Every problem in every file is appended to errs with file:line:column; returns 0 when none was
 * found, else GL_EINVAL. Errors: missing or out-of-order section, bad json (position from
 * cJSON's parse end), missing or mistyped metadata field, unknown severity, id not matching the
 * file name or the pack prefix, duplicate id or name. */
int gl_rules_add_files(gl_ruleset *set, const gl_rule_file *files, size_t nfiles, gl_diag_list *errs);

/* Adds the built-in packs embedded at build time. */
int gl_rules_add_builtin(gl_ruleset *set, gl_diag_list *errs);

/* Adds the packs under dir (dir itself may be one pack, or hold pack folders) and the library
 * models in dir/models/ (*.json). A dir holding only models is fine. */
int gl_rules_add_dir(gl_ruleset *set, const char *dir, gl_diag_list *errs);

/* Freezes the library models once every source is added (before selection): checks references
 * across model files (types defined, no name defined twice) and builds the lookup tables.
 * Returns 0 or GL_EINVAL (errors appended to errs with file:line:column). */
int gl_rules_finish(gl_ruleset *set, gl_diag_list *errs);

/* Applies selection: select (NULL = each pack's default), then extend_select, then ignore. Each
 * entry is an id ("GPU101"), id prefix ("GPU1", "GPU"), rule name or pack name; "ALL" selects
 * everything. An entry matching nothing is an error (no silent no-ops). */
int gl_rules_select(gl_ruleset *set, const char *const *select, size_t nselect,
                    const char *const *extend, size_t nextend,
                    const char *const *ignore, size_t nignore, gl_diag *err);

/* Looks up a rule by id or name (case-sensitive), or NULL. */
const gl_rule *gl_rules_find(const gl_ruleset *set, const char *id_or_name);

/* True when sel (id, prefix, name, pack, "ALL") selects rule. */
bool gl_rules_selector_matches(const gl_rule *rule, const char *sel);

void gl_rules_free(gl_ruleset *set);

/* The option of rule called name, or NULL. */
const gl_rule_option *gl_rule_option_find(const gl_rule *rule, const char *name);

/* The values in effect of a string-list option: its set values, else its defaults. *n gets the
 * count; an undeclared option (or rule NULL) has none. Borrowed from the rule. */
const char *const *gl_rule_option_strings(const gl_rule *rule, const char *name, size_t *n);

/* True when the string-list option name of rule holds value (exact, case-sensitive). */
bool gl_rule_option_has(const gl_rule *rule, const char *name, const char *value);

/* Sets the values of opt (copies of values[0..n)) and where they came from (copied; NULL = the
 * defaults); replaces earlier ones. Main thread, before linting. */
void gl_rule_option_set(gl_rule_option *opt, const char *const *values, size_t n,
                        const char *origin);

/* "string-list" for a type; gl_option_type_parse returns -1 for an unknown name. */
const char *gl_option_type_name(gl_option_type type);
int gl_option_type_parse(const char *s);

/* Frees a binding and what it owns; NULL does nothing. */
void gl_evidence_binding_free(gl_evidence_binding *b);

#endif
