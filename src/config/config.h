/* config.h: gpulint's configuration file: `[tool.gpulint]` in pyproject.toml or a gpulint.toml.
 * Owns: finding the file (the current directory upward: the nearest directory holding a
 *       gpulint.toml, or a pyproject.toml with a [tool.gpulint] table, wins; gpulint.toml first
 *       when one directory holds both), reading and validating it (unknown keys and wrong types
 *       are errors at the key's file:line:col), paths relative to the file's directory, merging it
 *       under the command line (config_apply.c), per-file-ignores, severity overrides, the
 *       rule-options table (config_ropts.c), and the `--show-settings` text (config_show.c).
 * Not: parsing TOML (toml_read.cpp), printing, acting on the options.
 * Threads: loaded once in the main thread, then read-only. */
#ifndef GL_CONFIG_H
#define GL_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include "base/diag.h"
#include "base/vec.h"
#include "cli/cli.h"
#include "result/result.h"
#include "rules/rules.h"

/* The keys of [tool.gpulint], in the order --show-settings lists them. */
typedef enum gl_cfg_key {
  GL_CFG_SELECT, GL_CFG_EXTEND_SELECT, GL_CFG_IGNORE, GL_CFG_PER_FILE_IGNORES, GL_CFG_SEVERITY,
  GL_CFG_EXCLUDE, GL_CFG_EXTEND_EXCLUDE, GL_CFG_RESPECT_GITIGNORE, GL_CFG_RULES, GL_CFG_EVIDENCE,
  GL_CFG_FAIL_ON, GL_CFG_OUTPUT_FORMAT, GL_CFG_HOT_FUNCTIONS, GL_CFG_RULE_OPTIONS, GL_CFG_NKEYS
} gl_cfg_key;

/* The key's name as written in the file ("extend-select"). */
const char *gl_cfg_key_name(gl_cfg_key key);

/* A string of the file with the position of its value (an array item) or of its key. */
typedef struct gl_cfg_str {
  char *s;                 /* owned */
  uint32_t line, col;
} gl_cfg_str;
typedef gl_vec(gl_cfg_str) gl_cfg_strs;

/* One per-file-ignores entry: files matching glob skip the rules ids select. */
typedef struct gl_cfg_pfi {
  gl_cfg_str glob;         /* as written, relative to the config file's directory; a leading
                              '!' negates it (files NOT matching the rest) */
  bool negated;
  void *re;                /* owned pcre2_code compiled from the glob (config_apply.c) */
  gl_cfg_strs ids;         /* selectors: ids, prefixes, names, packs, ALL */
} gl_cfg_pfi;

/* One severity override: rules sel selects take level (applied in file order, later wins). */
typedef struct gl_cfg_severity {
  gl_cfg_str sel;
  gl_level level;
} gl_cfg_severity;

/* One option of a [rule-options.<rule>] table, as written: checked against the option the rule
 * declares once the rules are loaded (gl_config_check_rule_options). */
typedef struct gl_cfg_ropt {
  gl_cfg_str rule;         /* the table's key: a rule id or name */
  gl_cfg_str option;       /* the option's key, at its position */
  const char *kind;        /* the TOML type of the value ("array", "string", ...), static */
  bool strings_ok;         /* an array of non-empty strings without NUL: values holds them */
  uint32_t bad_line, bad_col; /* otherwise: the offending value or item */
  gl_cfg_strs values;
} gl_cfg_ropt;

typedef struct gl_config {
  char *path;              /* the file as found or given (display form) */
  char *dir;               /* its directory, absolute and resolved (realpath), no trailing '/' */
  char *dir_display;       /* its directory as paths in it are shown: "" for the current
                              directory, "sub/" below it, else dir plus '/' */
  bool set[GL_CFG_NKEYS];  /* which keys the file gave */
  uint32_t line[GL_CFG_NKEYS], col[GL_CFG_NKEYS]; /* each given key's position */
  gl_cfg_strs select, extend_select, ignore, exclude, extend_exclude;
  gl_cfg_strs hot_functions;  /* defs that run on every step, as dotted names
                                 ("pkg.engine.Engine.step") or a def's own name ("train_step") */
  gl_cfg_strs rules;       /* pack directories, already joined to dir_display */
  char *evidence;          /* joined to dir_display, or NULL */
  gl_level fail_on;        /* when set[GL_CFG_FAIL_ON] */
  int output_format;       /* gl_format, when set[GL_CFG_OUTPUT_FORMAT] */
  bool respect_gitignore;  /* when set[GL_CFG_RESPECT_GITIGNORE] */
  gl_vec(gl_cfg_pfi) per_file_ignores;
  gl_vec(gl_cfg_severity) severity;
  gl_vec(gl_cfg_ropt) rule_options; /* in file order */
} gl_config;

/* Loads path, a pyproject.toml (its [tool.gpulint] table; a file named pyproject.toml without
 * one is an error) or any other name (gpulint.toml: the keys at top level). Returns the config
 * (gl_config_free) or NULL with err at the file:line:col of the first problem in file order:
 * unreadable or not a regular file, over 1 MiB, a TOML syntax error anywhere in the file,
 * "unknown key 'selct' in [tool.gpulint]", "'select' must be an array of strings, got string",
 * a bad fail-on / output-format / severity value, a per-file-ignores glob that cannot be
 * compiled. Other tables of a pyproject.toml are never looked at. */
gl_config *gl_config_load(const char *path, gl_diag *err);

/* Looks for the configuration from start_dir (NULL = the current directory) upward and loads
 * it. Returns 0 with *out = the config, or 0 with *out = NULL when there is none, or GL_EINVAL /
 * GL_EIO with err when the file found is bad (a pyproject.toml that cannot be parsed is an
 * error even when another file further up would do; so is a gpulint.toml or pyproject.toml that
 * is a directory, FIFO, device or broken symlink). */
int gl_config_discover(const char *start_dir, gl_config **out, gl_diag *err);

/* Frees cfg and what it owns; NULL does nothing. */
void gl_config_free(gl_config *cfg);

/* Checks every selector the file names (select, extend-select, ignore, per-file-ignores,
 * severity) against the loaded rules: one error per selector matching no rule, at its position
 * ("unknown rule selector 'GPU999'"). Returns 0 or GL_EINVAL. */
int gl_config_check_selectors(const gl_config *cfg, const gl_ruleset *set, gl_diag_list *errs);

/* Checks every [rule-options.<rule>] option against the loaded rules, one error each at its
 * file:line:col: "unknown rule 'GPU999' in [rule-options]" (at the rule's key), "rule GPU301
 * has no option 'extra-timer' (it has: extra-timers)" (at the option's key), "'rule-options.
 * GPU301.extra-timers' must be an array of strings, got string" (at the value or bad item), and
 * an option set twice for one rule (by id and by name). Returns 0 or GL_EINVAL. */
int gl_config_check_rule_options(const gl_config *cfg, const gl_ruleset *set, gl_diag_list *errs);

/* Sets each configured option on its rule (gl_rule_option_set, origin "path:line:col" of the
 * option's key). Call after gl_config_check_rule_options returned 0. cfg NULL does nothing. */
void gl_config_apply_rule_options(const gl_config *cfg, gl_ruleset *set);

/* Merges cfg under cli, the command line winning: select (the CLI's replaces the file's),
 * extend-select, ignore, rules and --exclude add to the file's (the file's first); evidence,
 * fail-on, output-format and respect-gitignore come from the file only when the CLI did not give
 * them; exclude / extend-exclude become walk excludes (no_default_excludes when exclude is
 * set). cfg NULL does nothing. */
void gl_config_apply(const gl_config *cfg, gl_cli *cli, bool *no_default_excludes);

/* Sets the level of every rule a severity entry selects (before linting; calibration with
 * --evidence still decides the level of a rule bound to a metric). */
void gl_config_apply_severity(const gl_config *cfg, gl_ruleset *set);

/* True when a per-file-ignores entry of cfg matching path (a display path: relative to the
 * current directory, or absolute) selects rule. */
bool gl_config_ignores(const gl_config *cfg, const char *path, const gl_rule *rule);

/* Removes from run every finding per-file-ignores ignores (they are not suppressions: no format
 * shows them, as if the rule were not selected for that file). cfg NULL does nothing. */
void gl_config_filter_run(const gl_config *cfg, gl_run *run);

/* The --show-settings text for path: the config file used, every key with its value and where
 * it came from (default, the file's line:col, or the command line), and the rules enabled for
 * path after per-file-ignores. given is the command line as parsed, merged the one after
 * gl_config_apply; set has the selection applied. Caller frees the string. */
char *gl_config_show(const gl_config *cfg, const gl_cli *given, const gl_cli *merged,
                     const gl_ruleset *set, const char *path);

#endif
