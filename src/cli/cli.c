/* cli.c: parses gpulint's command line (see cli.h and `gpulint --help`).
 * Owns: the option table and value parsing. Not: printing or acting. Threads: main thread only. */
#include "cli/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ci/ci.h"
#include "report/report.h"

#define GL_DEFAULT_MAX_FILE_BYTES (4u << 20)
#define GL_DEFAULT_PARSE_TIMEOUT_MS 5000

typedef enum opt_id {
  OPT_FORMAT, OPT_OUTPUT, OPT_SELECT, OPT_IGNORE, OPT_EXTEND_SELECT, OPT_FAIL_ON, OPT_EXIT_ZERO,
  OPT_RULES, OPT_JOBS, OPT_EXCLUDE, OPT_MAX_FILE_SIZE, OPT_PARSE_TIMEOUT, OPT_NO_PREFILTER,
  OPT_NO_GITIGNORE, OPT_COLOR, OPT_QUIET, OPT_HELP, OPT_VERSION, OPT_EVIDENCE, OPT_STDIN_FILENAME,
  OPT_SARIF_CATEGORY, OPT_BASELINE, OPT_ADD_NOQA, OPT_CONFIG, OPT_ISOLATED, OPT_SHOW_SETTINGS,
  OPT_GITIGNORE, OPT_NO_CACHE, OPT_CACHE_DIR, OPT_SHARD,
} opt_id;

typedef struct opt_def {
  const char *long_name;
  char short_name;
  bool takes_value;
  opt_id id;
} opt_def;

static const opt_def options[] = {
    {"format", 0, true, OPT_FORMAT},         {"output-format", 0, true, OPT_FORMAT},
    {"output", 'o', true, OPT_OUTPUT},       {"select", 0, true, OPT_SELECT},
    {"ignore", 0, true, OPT_IGNORE},         {"extend-select", 0, true, OPT_EXTEND_SELECT},
    {"fail-on", 0, true, OPT_FAIL_ON},       {"exit-zero", 0, false, OPT_EXIT_ZERO},
    {"rules", 0, true, OPT_RULES},           {"jobs", 'j', true, OPT_JOBS},
    {"exclude", 0, true, OPT_EXCLUDE},       {"max-file-size", 0, true, OPT_MAX_FILE_SIZE},
    {"parse-timeout", 0, true, OPT_PARSE_TIMEOUT},
    {"no-prefilter", 0, false, OPT_NO_PREFILTER},
    {"no-respect-gitignore", 0, false, OPT_NO_GITIGNORE},
    {"color", 0, true, OPT_COLOR},           {"quiet", 'q', false, OPT_QUIET},
    {"help", 'h', false, OPT_HELP},          {"version", 'V', false, OPT_VERSION},
    {"evidence", 0, true, OPT_EVIDENCE},     {"stdin-filename", 0, true, OPT_STDIN_FILENAME},
    {"sarif-category", 0, true, OPT_SARIF_CATEGORY},
    {"baseline", 0, true, OPT_BASELINE},
    {"add-noqa", 0, false, OPT_ADD_NOQA},
    {"config", 0, true, OPT_CONFIG},         {"isolated", 0, false, OPT_ISOLATED},
    {"show-settings", 0, true, OPT_SHOW_SETTINGS},
    {"respect-gitignore", 0, false, OPT_GITIGNORE},
    {"no-cache", 0, false, OPT_NO_CACHE},   {"cache-dir", 0, true, OPT_CACHE_DIR},
    {"shard", 0, true, OPT_SHARD},
};

/* Appends the comma-separated, non-empty items of value to v. */
static void push_list(gl_strvec *v, const char *value) {
  const char *p = value;
  while (*p) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    while (len && (*p == ' ')) p++, len--;
    while (len && p[len - 1] == ' ') len--;
    if (len) gl_vec_push(v, gl_xstrndup(p, len));
    if (!comma) break;
    p = comma + 1;
  }
}

static int parse_uint(const char *name, const char *value, unsigned long long max,
                      unsigned long long *out, gl_diag *err) {
  char *end = NULL;
  errno = 0;
  unsigned long long n = strtoull(value, &end, 10);
  unsigned long long mult = 1;
  if (end && *end && end != value) {
    if (strcmp(end, "K") == 0 || strcmp(end, "KiB") == 0) mult = 1024ull;
    else if (strcmp(end, "M") == 0 || strcmp(end, "MiB") == 0) mult = 1024ull * 1024;
    else if (strcmp(end, "G") == 0 || strcmp(end, "GiB") == 0) mult = 1024ull * 1024 * 1024;
    else end = NULL;
  }
  if (errno || !end || end == value || value[0] == '-' || n > max / mult) {
    gl_diag_set(err, NULL, 0, 0, "option '--%s' needs a number up to %llu, got '%s'", name, max, value);
    return GL_EINVAL;
  }
  *out = n * mult;
  return 0;
}

/* --sarif-category: GitHub shows it as the analysis category; no line breaks or escapes. */
static int set_category(gl_cli *cli, const char *v, gl_diag *err) {
  if (!v[0]) {
    gl_diag_set(err, NULL, 0, 0, "option '--sarif-category' needs a non-empty name");
    return GL_EINVAL;
  }
  for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
    if (*p < 0x20 || *p == 0x7F) {
      gl_diag_set(err, NULL, 0, 0, "option '--sarif-category' takes no control characters");
      return GL_EINVAL;
    }
  }
  free(cli->sarif_category);
  cli->sarif_category = gl_xstrdup(v);
  return 0;
}

/* --shard I/N: two decimal numbers, 1 <= I <= N <= GL_SHARD_MAX, nothing else. */
static int set_shard(gl_cli *cli, const char *v, gl_diag *err) {
  unsigned long i = 0, n = 0;
  const char *p = v;
  bool ok = *p >= '1' && *p <= '9';
  while (ok && *p >= '0' && *p <= '9' && i <= GL_SHARD_MAX) i = i * 10 + (unsigned long)(*p++ - '0');
  ok = ok && *p++ == '/' && *p >= '1' && *p <= '9';
  while (ok && *p >= '0' && *p <= '9' && n <= GL_SHARD_MAX) n = n * 10 + (unsigned long)(*p++ - '0');
  if (!ok || *p || n > GL_SHARD_MAX || i > n) {
    gl_diag_set(err, NULL, 0, 0, "option '--shard' takes I/N with 1 <= I <= N <= %d, got '%s'",
                GL_SHARD_MAX, v);
    return GL_EINVAL;
  }
  cli->shard_index = (unsigned)i;
  cli->shard_count = (unsigned)n;
  return 0;
}

static int set_cache_dir(gl_cli *cli, const char *v, gl_diag *err) {
  if (!v[0]) {
    gl_diag_set(err, NULL, 0, 0, "option '--cache-dir' needs a non-empty path");
    return GL_EINVAL;
  }
  free(cli->cache_dir);
  cli->cache_dir = gl_xstrdup(v);
  return 0;
}

static int set_stdin_filename(gl_cli *cli, const char *v, gl_diag *err) {
  if (!v[0]) {
    gl_diag_set(err, NULL, 0, 0, "option '--stdin-filename' needs a non-empty path");
    return GL_EINVAL;
  }
  free(cli->stdin_filename);
  cli->stdin_filename = gl_xstrdup(v);
  return 0;
}

static int apply_value(gl_cli *cli, const opt_def *o, const char *v, gl_diag *err) {
  unsigned long long n = 0;
  switch (o->id) {
    case OPT_STDIN_FILENAME: return set_stdin_filename(cli, v, err);
    case OPT_SARIF_CATEGORY: return set_category(cli, v, err);
    case OPT_CACHE_DIR: return set_cache_dir(cli, v, err);
    case OPT_SHARD: return set_shard(cli, v, err);
    case OPT_FORMAT:
      cli->format = gl_report_format_parse(v);
      if (cli->format < 0) {
        char names[160];
        gl_report_format_names(names, sizeof names, "");
        gl_diag_set(err, NULL, 0, 0, "unknown output format '%s' (expected %s)", v, names);
        return GL_EINVAL;
      }
      return 0;
    case OPT_OUTPUT: free(cli->output); cli->output = gl_xstrdup(v); return 0;
    case OPT_EVIDENCE: free(cli->evidence); cli->evidence = gl_xstrdup(v); return 0;
    case OPT_BASELINE: free(cli->baseline); cli->baseline = gl_xstrdup(v); return 0;
    case OPT_CONFIG: free(cli->config); cli->config = gl_xstrdup(v); return 0;
    case OPT_SHOW_SETTINGS:
      free(cli->show_settings);
      cli->show_settings = gl_xstrdup(v);
      if (cli->cmd == GL_CMD_CHECK) cli->cmd = GL_CMD_SHOW_SETTINGS;
      return 0;
    case OPT_SELECT: cli->has_select = true; push_list(&cli->select, v); return 0;
    case OPT_IGNORE: push_list(&cli->ignore, v); return 0;
    case OPT_EXTEND_SELECT: push_list(&cli->extend_select, v); return 0;
    case OPT_RULES: gl_vec_push(&cli->rules_dirs, gl_xstrdup(v)); return 0;
    case OPT_EXCLUDE: push_list(&cli->excludes, v); return 0;
    case OPT_FAIL_ON: {
      int level = gl_level_parse(v);
      if (level < GL_LEVEL_NOTE) {
        gl_diag_set(err, NULL, 0, 0, "option '--fail-on' takes error, warning or note, got '%s'", v);
        return GL_EINVAL;
      }
      cli->fail_on = (gl_level)level;
      cli->fail_on_set = true;
      return 0;
    }
    case OPT_JOBS:
      if (parse_uint(o->long_name, v, 256, &n, err)) return GL_EINVAL;
      cli->jobs = (unsigned)n;
      return 0;
    case OPT_MAX_FILE_SIZE:
      if (parse_uint(o->long_name, v, 1ull << 32, &n, err)) return GL_EINVAL;
      cli->max_file_bytes = (size_t)n;
      return 0;
    case OPT_PARSE_TIMEOUT:
      if (parse_uint(o->long_name, v, 3600000, &n, err)) return GL_EINVAL;
      cli->parse_timeout_ms = (uint32_t)n;
      return 0;
    case OPT_COLOR:
      if (strcmp(v, "auto") == 0) cli->color = GL_COLOR_AUTO;
      else if (strcmp(v, "always") == 0) cli->color = GL_COLOR_ALWAYS;
      else if (strcmp(v, "never") == 0) cli->color = GL_COLOR_NEVER;
      else {
        gl_diag_set(err, NULL, 0, 0, "option '--color' takes auto, always or never, got '%s'", v);
        return GL_EINVAL;
      }
      return 0;
    default: return 0;
  }
}

static void apply_flag(gl_cli *cli, opt_id id) {
  switch (id) {
    case OPT_EXIT_ZERO: cli->exit_zero = true; break;
    case OPT_ADD_NOQA: cli->add_noqa = true; break;
    case OPT_NO_PREFILTER: cli->prefilter = false; break;
    case OPT_NO_CACHE: cli->no_cache = true; break;
    case OPT_NO_GITIGNORE: cli->respect_gitignore = false; cli->respect_gitignore_set = true; break;
    case OPT_GITIGNORE: cli->respect_gitignore = true; cli->respect_gitignore_set = true; break;
    case OPT_ISOLATED: cli->isolated = true; break;
    case OPT_QUIET: cli->quiet = true; break;
    case OPT_HELP: cli->cmd = GL_CMD_HELP; break;
    case OPT_VERSION: if (cli->cmd != GL_CMD_HELP) cli->cmd = GL_CMD_VERSION; break;
    default: break;
  }
}

static const opt_def *find_long(const char *name, size_t len) {
  for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
    if (strlen(options[i].long_name) == len && strncmp(options[i].long_name, name, len) == 0)
      return &options[i];
  return NULL;
}

static const opt_def *find_short(char c) {
  for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
    if (options[i].short_name == c) return &options[i];
  return NULL;
}

/* Handles argv[*i], an option; may consume the next argument as its value. */
static int parse_option(gl_cli *cli, int argc, char **argv, int *i, gl_diag *err) {
  const char *arg = argv[*i];
  const opt_def *o = NULL;
  const char *value = NULL;
  if (arg[1] == '-') {
    const char *name = arg + 2;
    const char *eq = strchr(name, '=');
    o = find_long(name, eq ? (size_t)(eq - name) : strlen(name));
    if (eq) value = eq + 1;
  } else {
    o = find_short(arg[1]);
    if (o && arg[2] != '\0') {
      if (!o->takes_value) o = NULL; /* "-qx": no bundling of flags */
      else value = arg + 2;          /* "-j4", "-oreport.sarif" */
    }
  }
  if (!o) {
    gl_diag_set(err, NULL, 0, 0, "unknown option '%s' (see gpulint --help)", arg);
    return GL_EINVAL;
  }
  if (!o->takes_value) {
    if (value) {
      gl_diag_set(err, NULL, 0, 0, "option '--%s' takes no value", o->long_name);
      return GL_EINVAL;
    }
    apply_flag(cli, o->id);
    return 0;
  }
  if (!value) {
    if (*i + 1 >= argc) {
      gl_diag_set(err, NULL, 0, 0, "option '--%s' needs a value", o->long_name);
      return GL_EINVAL;
    }
    value = argv[++*i];
  }
  bool list = o->id == OPT_SELECT || o->id == OPT_IGNORE || o->id == OPT_EXTEND_SELECT ||
              o->id == OPT_RULES || o->id == OPT_EXCLUDE;
  if (!list && (cli->given >> o->id & 1)) {   /* as Ruff's clap does: never a silent last-wins */
    gl_diag_set(err, NULL, 0, 0, "option '--%s' given more than once", o->long_name);
    return GL_EINVAL;
  }
  cli->given |= (uint64_t)1 << o->id;
  return apply_value(cli, o, value, err);
}

static void set_defaults(gl_cli *cli) {
  memset(cli, 0, sizeof(*cli));
  cli->cmd = GL_CMD_CHECK;
  cli->format = -1;
  cli->fail_on = GL_LEVEL_WARNING;
  cli->max_file_bytes = GL_DEFAULT_MAX_FILE_BYTES;
  cli->parse_timeout_ms = GL_DEFAULT_PARSE_TIMEOUT_MS;
  cli->prefilter = true;
  cli->respect_gitignore = true;
  cli->color = GL_COLOR_AUTO;
}

/* The first positional argument may name a subcommand (GL_COMMANDS, cli.h). */
static bool take_subcommand(gl_cli *cli, const char *arg) {
  static const struct {
    const char *word;
    gl_cmd cmd;
  } words[] = {
#define WORD(word, id, needs, handler) {word, GL_CMD_##id},
      GL_COMMANDS(WORD)
#undef WORD
  };
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
    if (!words[i].word || strcmp(arg, words[i].word) != 0) continue;
    cli->cmd = words[i].cmd;
    return true;
  }
  return false;
}

static int check_positionals(gl_cli *cli, gl_diag *err) {
  if (cli->cmd == GL_CMD_CLEAN && cli->paths.len) {
    gl_diag_set(err, NULL, 0, 0, "'gpulint clean' takes no paths, got '%s'", cli->paths.data[0]);
    return GL_EINVAL;
  }
  if (cli->cmd == GL_CMD_RULE) {
    if (cli->paths.len != 1) {
      gl_diag_set(err, NULL, 0, 0, "'gpulint rule' takes exactly one rule id or name");
      return GL_EINVAL;
    }
    cli->rule_id = cli->paths.data[0];
    cli->paths.len = 0;
  } else if (cli->cmd == GL_CMD_MERGE && !cli->paths.len) {
    gl_diag_set(err, NULL, 0, 0, "'gpulint merge' needs at least one SARIF log");
    return GL_EINVAL;
  } else if (cli->cmd == GL_CMD_RULES && cli->paths.len) {
    gl_diag_set(err, NULL, 0, 0, "'gpulint rules' takes no paths");
    return GL_EINVAL;
  } else if (cli->config && cli->isolated) {
    gl_diag_set(err, NULL, 0, 0, "options '--config' and '--isolated' cannot be used together");
    return GL_EINVAL;
  } else if (cli->cmd == GL_CMD_SHOW_SETTINGS && (cli->paths.len || cli->stdin_filename)) {
    gl_diag_set(err, NULL, 0, 0, "option '--show-settings' takes one PATH and no other paths");
    return GL_EINVAL;
  } else if (cli->cmd == GL_CMD_CHECK && cli->stdin_filename && cli->paths.len) {
    gl_diag_set(err, NULL, 0, 0, "option '--stdin-filename' takes no PATH arguments, got '%s'",
                cli->paths.data[0]);
    return GL_EINVAL;
  } else if (cli->cmd == GL_CMD_CHECK && cli->stdin_filename && cli->add_noqa) {
    gl_diag_set(err, NULL, 0, 0, "option '--add-noqa' rewrites files and cannot be used with "
                "'--stdin-filename'");
    return GL_EINVAL;
  }
  return 0;
}

int gl_cli_parse(gl_cli *cli, int argc, char **argv, gl_diag *err) {
  set_defaults(cli);
  bool only_paths = false, first_positional = true;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (!only_paths && strcmp(arg, "--") == 0) {
      only_paths = true;
      continue;
    }
    if (!only_paths && arg[0] == '-' && arg[1] != '\0') {
      if (parse_option(cli, argc, argv, &i, err)) return GL_EINVAL;
      continue;
    }
    if (first_positional && !only_paths && take_subcommand(cli, arg)) {
      first_positional = false;
      continue;
    }
    first_positional = false;
    gl_vec_push(&cli->paths, gl_xstrdup(arg));
  }
  return check_positionals(cli, err);
}

static void free_strvec(gl_strvec *v) {
  for (size_t i = 0; i < v->len; i++) free(v->data[i]);
  gl_vec_free(v);
}

void gl_cli_free(gl_cli *cli) {
  if (!cli) return;
  free_strvec(&cli->paths);
  free_strvec(&cli->select);
  free_strvec(&cli->extend_select);
  free_strvec(&cli->ignore);
  free_strvec(&cli->rules_dirs);
  free_strvec(&cli->excludes);
  free(cli->output);
  free(cli->rule_id);
  free(cli->evidence);
  free(cli->baseline);
  free(cli->stdin_filename);
  free(cli->sarif_category);
  free(cli->config);
  free(cli->show_settings);
  free(cli->cache_dir);
  cli->config = cli->show_settings = cli->cache_dir = NULL;
  cli->output = cli->rule_id = cli->evidence = cli->stdin_filename = cli->sarif_category =
      cli->baseline = NULL;
}
