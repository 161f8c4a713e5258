/* cli.h: the command line of gpulint, parsed into options.
 * Owns: the option table, `--opt value` / `--opt=value` forms, comma-separated lists, number and
 *       size parsing, subcommands (`check` (default), `rule ID`, `rules`, `merge FILE...`,
 *       `help`, `version`), --shard I/N.
 * Not: printing (main.c prints the help text and errors), acting on the options.
 * Threads: main thread only. */
#ifndef GL_CLI_H
#define GL_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/diag.h"
#include "base/vec.h"
#include "rules/rules.h"

/* The one list of gpulint's subcommands, one row each: adding a subcommand is one row here and
 * its handler in main.c. X(word, id, needs, handler): word as typed after `gpulint` (NULL: reached
 * only by an option, --show-settings), id the GL_CMD_<id> value below, needs what main.c loads
 * before the handler runs (GL_NEEDS_NOTHING, GL_NEEDS_CONFIG: the configuration applied,
 * GL_NEEDS_RULES: and the ruleset and its combined query), handler main.c's
 * `static int handler(const command_ctx *)`, returning the exit status. Expanded here (the gl_cmd
 * enum), in cli.c (the words) and in main.c (the dispatch table).
 * `clean` removes the project's result cache; `merge FILE...` has the SARIF logs in paths and -o
 * the output; SHOW_SETTINGS is --show-settings PATH. */
#define GL_COMMANDS(X)                                                 \
  X("check", CHECK, GL_NEEDS_RULES, run_check)                         \
  X("rule", RULE, GL_NEEDS_RULES, run_rule)                            \
  X("rules", RULES, GL_NEEDS_RULES, run_rules)                         \
  X("help", HELP, GL_NEEDS_NOTHING, run_help)                          \
  X("version", VERSION, GL_NEEDS_NOTHING, run_version)                 \
  X(NULL, SHOW_SETTINGS, GL_NEEDS_RULES, run_show_settings)            \
  X("clean", CLEAN, GL_NEEDS_CONFIG, run_clean)                        \
  X("merge", MERGE, GL_NEEDS_NOTHING, run_merge)

#define GL_CMD_ENUM(word, id, needs, handler) GL_CMD_##id,
typedef enum gl_cmd { GL_COMMANDS(GL_CMD_ENUM) } gl_cmd;
#undef GL_CMD_ENUM

typedef enum gl_color { GL_COLOR_AUTO, GL_COLOR_ALWAYS, GL_COLOR_NEVER } gl_color;

typedef gl_vec(char *) gl_strvec;

typedef struct gl_cli {
  gl_cmd cmd;
  uint64_t given;            /* bit per single-valued option seen (parsing only): twice is an error */
  gl_strvec paths;           /* owned copies */
  int format;                /* gl_format, or -1 for the command's default */
  char *output;              /* NULL or "-" = stdout */
  bool has_select;           /* --select given (even empty) */
  gl_strvec select, extend_select, ignore, rules_dirs, excludes;
  gl_level fail_on;          /* default warning */
  bool fail_on_set;          /* --fail-on given (it then beats the configuration file) */
  bool exit_zero;
  unsigned jobs;             /* 0 = online cores */
  size_t max_file_bytes;
  uint32_t parse_timeout_ms;
  bool prefilter;
  bool respect_gitignore;
  bool respect_gitignore_set;/* --respect-gitignore or --no-respect-gitignore given */
  bool quiet;                /* no summary line, no notifications on stderr */
  gl_color color;
  char *rule_id;             /* `gpulint rule ID` */
  char *evidence;            /* --evidence FILE (the probe's evidence), or NULL; the last wins */
  char *stdin_filename;      /* --stdin-filename PATH: lint standard input as PATH, or NULL; no
                                PATH arguments may be given with it; never "" */
  char *sarif_category;      /* --sarif-category NAME as given (non-empty, no control characters),
                                or NULL; the last wins */
  char *baseline;            /* --baseline FILE (an earlier gpulint SARIF log), or NULL; the last
                                wins */
  bool add_noqa;             /* --add-noqa: write `# noqa: ID` comments for the findings instead
                                of a report; never with --stdin-filename */
  char *config;              /* --config FILE (a gpulint.toml or pyproject.toml), or NULL */
  bool isolated;             /* --isolated: no configuration file at all; not with --config */
  char *show_settings;       /* --show-settings PATH (cmd GL_CMD_SHOW_SETTINGS), or NULL */
  bool no_cache;             /* --no-cache: neither read nor write the result cache */
  char *cache_dir;           /* --cache-dir DIR (non-empty), or NULL for the project's
                                .gpulint_cache; the last wins */
  unsigned shard_index;      /* --shard I/N: I (1..N), or 0 when not given */
  unsigned shard_count;      /* N (1..GL_SHARD_MAX), or 0 when not given */
} gl_cli;

/* Parses argv into cli (defaults first). Returns 0, or GL_EINVAL with err saying what is wrong
 * ("unknown option '--foo'", "option '--jobs' needs a number, got 'x'", "option
 * '--stdin-filename' takes no PATH arguments, got 'src'"). cli must be freed with gl_cli_free
 * either way. */
int gl_cli_parse(gl_cli *cli, int argc, char **argv, gl_diag *err);
void gl_cli_free(gl_cli *cli);

#endif
