/* main.c: the gpulint command: parses options, loads the rules, walks, lints, reports, exits.
 * Owns: everything printed to the terminal besides reports (errors, notifications, help), the
 *       exit status (0 clean, 1 findings at or above --fail-on, 2 usage/config/I/O error or an
 *       incomplete run) and the process-wide set-up (allocator hooks) before any thread starts.
 * Not: linting logic (engine.c and the stages), report formats (src/report/).
 * Threads: runs on the main thread; gl_engine_run starts and joins the workers. */
#include <errno.h>
#include <git2.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/load.h"
#include "base/output.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "cache/cache.h"
#include "calibrate/calibrate.h"
#include "ci/ci.h"
#include "cli/cli.h"
#include "config/config.h"
#include "engine/engine.h"
#include "evidence/evidence.h"
#include "match/match.h"
#include "parse/parse.h"
#include "report/report.h"
#include "rules/rules.h"
#include "suppress/suppress.h"
#include "walk/walk.h"

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_ERROR = 2 };

static const char help_text[] =
    "gpulint " GL_VERSION " - find where GPU Python code wastes time or gets wrong answers\n"
    "\n"
    "Usage:\n"
    "  gpulint [OPTIONS] [PATH...]      lint files and directories (default: .)\n"
    "  gpulint check [OPTIONS] [PATH...] the same\n"
    "  gpulint rule ID|NAME             print a rule's documentation\n"
    "  gpulint rules [--format json]    list every rule\n"
    "  gpulint merge FILE... [-o OUT]   merge the SARIF logs of --shard runs into one\n"
    "  gpulint clean                    remove the result cache\n"
    "\n"
    "Directories are searched for *.py and *.ipynb files (notebooks: code cells, magics\n"
    "blanked); .gitignore is respected inside git work trees; .git, .venv, venv, __pycache__,\n"
    "node_modules, build, dist, site-packages, .tox and .eggs are skipped. A file named on the\n"
    "command line is always linted.\n"
    "\n"
    "Output:\n";

/* After the --format paragraph, which report/formats.def writes. */
static const char help_rest[] =
    "  -o, --output FILE      write the report to FILE, atomically (temp file + rename);\n"
    "                         a failed run never leaves a truncated FILE\n"
    "  --color WHEN           auto (default: only on a terminal, never with NO_COLOR),\n"
    "                         always or never\n"
    "  -q, --quiet            no summary line and no notifications on stderr\n"
    "\n"
    "Rule selection (ids like GPU101, id prefixes like GPU1, rule names, pack names, ALL;\n"
    "comma-separated, repeatable):\n"
    "  --select LIST          use exactly these rules instead of each pack's default\n"
    "  --extend-select LIST   add rules to the selection\n"
    "  --ignore LIST          remove rules from the selection\n"
    "  --rules DIR            load more packs from DIR (a pack folder, or a folder of packs)\n"
    "\n"
    "Calibration:\n"
    "  --evidence FILE        the evidence file gpulint-probe measured on your GPU: rules\n"
    "                         bound to a metric take their level from the measured value\n"
    "                         and add the measured cost to their message; SARIF results\n"
    "                         gain a rank (0-100) by that cost. A bad file is an error\n"
    "\n"
    "GitHub code scanning (--format sarif):\n"
    "  --sarif-category NAME  write NAME as the run's automationDetails.id, with the trailing\n"
    "                         '/' GitHub's upload action adds (`gpulint` -> `gpulint/`), so\n"
    "                         several gpulint analyses of one commit stay apart. Non-empty, no\n"
    "                         control characters. URIs are relative to %SRCROOT%: the git top\n"
    "                         level holding the current directory, else the one holding the\n"
    "                         single PATH, else that PATH if a directory, else the current\n"
    "                         directory. At most 25,000 results per run and 1,000 locations\n"
    "                         per result are written (the first in output order); a\n"
    "                         notification and a warning say what was left out\n"
    "\n"
    "Baseline (adopt gpulint in an existing codebase):\n"
    "  --baseline FILE        an earlier gpulint SARIF log (--format sarif): results that\n"
    "                         were already in it (same rule, same file, same\n"
    "                         primaryLocationLineHash, so moved lines still match) are\n"
    "                         hidden from text, json and github output and do not count for\n"
    "                         the exit status; the summary says how many were hidden. SARIF\n"
    "                         output keeps every result with baselineState new or unchanged,\n"
    "                         and adds the baseline's results that are gone as absent. A bad\n"
    "                         or non-gpulint file is an error (exit 2)\n"
    "  --add-noqa             write a `# noqa: ID` comment for every finding instead of a\n"
    "                         report: at the end of its first line (or of the multi-line\n"
    "                         string or continuation open there), merged into a noqa\n"
    "                         already on that line; prints how many lines were changed;\n"
    "                         exit 0, or 2 when a file could not be rewritten\n"
    "\n"
    "Exit status:\n"
    "  --fail-on LEVEL        error, warning (default) or note: findings at or above LEVEL\n"
    "                         make the exit status 1\n"
    "  --exit-zero            exit 0 even when there are findings (errors still exit 2)\n"
    "  0 no findings at or above --fail-on; 1 findings; 2 usage, configuration or I/O error,\n"
    "  or an incomplete run (a file that could not be linted: unreadable, over the size cap,\n"
    "  past the parse time limit). A syntax error is not incomplete: the recovered tree is\n"
    "  linted and the error reported as a notification.\n"
    "\n"
    "Configuration (see README, Configuration):\n"
    "  The nearest gpulint.toml, or pyproject.toml with a [tool.gpulint] table, from the\n"
    "  current directory up (gpulint.toml first when a directory has both) sets select,\n"
    "  extend-select, ignore, per-file-ignores, severity, exclude, extend-exclude,\n"
    "  respect-gitignore, rules, evidence, fail-on, output-format and rule-options\n"
    "  ([rule-options.GPU301] extra-timers = [...]: a rule's own options, listed under\n"
    "  Options by `gpulint rule ID`). Options on the command line win: --select replaces\n"
    "  the file's select; --extend-select, --ignore, --rules and --exclude add to the\n"
    "  file's lists. Unknown keys and wrong types: exit 2\n"
    "  --config FILE          use FILE (a gpulint.toml, or a pyproject.toml's\n"
    "                         [tool.gpulint]) instead of searching\n"
    "  --isolated             ignore every configuration file\n"
    "  --show-settings PATH   print the settings for PATH, where each came from, the\n"
    "                         rule options in effect and the rules enabled for it;\n"
    "                         exit 0\n"
    "\n"
    "Files and limits:\n"
    "  --exclude GLOB         skip files and directories matching GLOB (repeatable)\n"
    "  --no-respect-gitignore lint files that .gitignore excludes\n"
    "  --respect-gitignore    respect .gitignore even when the configuration says not to\n"
    "  --max-file-size SIZE   skip (and report) files larger than SIZE bytes; K, M, G\n"
    "                         suffixes (default 4M)\n"
    "  --parse-timeout MS     per-file time limit for parsing, and again for matching, in\n"
    "                         milliseconds (default 5000; 0: no limit)\n"
    "  -j, --jobs N           worker threads (default: online cores); output is identical\n"
    "                         for every N\n"
    "  --no-prefilter         parse every file, even those naming no GPU library\n"
    "  --shard I/N            lint only shard I of N (1 <= I <= N <= 1024): the files whose\n"
    "                         SARIF URI (path relative to %SRCROOT%) hashes to I; the same\n"
    "                         split on every machine, for a CI matrix. Merge the shards'\n"
    "                         logs with `gpulint merge`\n"
    "  --stdin-filename PATH  lint standard input as the file PATH (editors): PATH need not\n"
    "                         exist; its display path, SARIF URI, --exclude and .gitignore\n"
    "                         apply, and an excluded PATH or one that is not *.py or *.ipynb\n"
    "                         is not linted (exit 0,\n"
    "                         input still read). No PATH arguments with it. Reads to the end\n"
    "                         of input (on a terminal, until Ctrl-D); --max-file-size applies\n"
    "\n"
    "Cache:\n"
    "  Results are kept per file in .gpulint_cache/ at the project root (the directory\n"
    "  of the configuration file, else the git top level holding the current directory,\n"
    "  else the current directory), keyed by the file's path and bytes, the rules,\n"
    "  settings, evidence and gpulint build: a warm run reads them instead of linting.\n"
    "  Never with --stdin-filename. .gpulint_cache holds a .gitignore and CACHEDIR.TAG\n"
    "  --no-cache             neither read nor write the cache\n"
    "  --cache-dir DIR        keep the cache in DIR instead\n"
    "  gpulint clean          remove the cache (prints what it removed; exit 0)\n"
    "\n"
    "Suppressing findings:\n"
    "  x = y.get()  # noqa: GPU201         one rule on this line (several: GPU201, GPU202)\n"
    "  x = y.get()  # noqa                 every rule on this line\n"
    "  # gpulint: skip-file                 the whole file\n"
    "  Suppressed findings appear in SARIF as suppressions, in no other format.\n"
    "\n"
    "  -h, --help             this text      -V, --version     the version\n";

static void print_error(const char *msg) { fprintf(stderr, "gpulint: error: %s\n", msg); }

/* Prints one error line for d (file:line:col: message), made safe for the terminal. */
static void print_diag(const gl_diag *d) {
  char buf[2048];
  gl_diag_format(d, buf, sizeof(buf));
  char *safe = gl_utf8_safe_text(buf, strlen(buf));
  print_error(safe);
  free(safe);
}

/* Loads --evidence (NULL when not given). On error prints one line and sets *failed. */
static gl_evidence *load_evidence(const gl_cli *cli, bool *failed) {
  gl_diag err = {0};
  gl_evidence *ev = cli->evidence ? gl_evidence_load(cli->evidence, &err) : NULL;
  *failed = cli->evidence && !ev;
  if (*failed) print_diag(&err);
  return ev;
}

/* Loads --baseline (NULL when not given). On error prints one line and sets *failed. */
static gl_baseline *load_baseline(const gl_cli *cli, bool *failed) {
  gl_diag err = {0};
  gl_baseline *base = cli->baseline ? gl_baseline_load(cli->baseline, &err) : NULL;
  *failed = cli->baseline && !base;
  if (*failed) print_diag(&err);
  return base;
}

/* Calibrates run with ev and prints, unless quiet, one warning per bound metric ev lacks. */
static void calibrate(gl_run *run, const gl_evidence *ev, bool quiet) {
  if (!ev) return;
  gl_calib_warnings warnings = {0};
  gl_calib_run(run, ev, &warnings);
  for (size_t i = 0; !quiet && i < warnings.len; i++) {
    char *safe = gl_utf8_safe_text(warnings.data[i], strlen(warnings.data[i]));
    fprintf(stderr, "gpulint: warning: %s\n", safe);
    free(safe);
  }
  gl_calib_warnings_free(&warnings);
}

static void print_diags(const gl_diag_list *list) {
  for (size_t i = 0; i < list->len; i++) print_diag(&list->data[i]);
}

/* "gpulint: error: PATH: why", the path whole however long. */
static void print_walk_errors(const gl_walk_result *walked) {
  for (size_t i = 0; i < walked->errors.len; i++) {
    const gl_walk_error *e = &walked->errors.data[i];
    gl_strbuf b = {0};
    if (e->path[0]) gl_strbuf_addf(&b, "%s: ", e->path);
    gl_strbuf_addf(&b, "%s", e->msg);
    char *line = gl_strbuf_take(&b);
    char *safe = gl_utf8_safe_text(line, strlen(line));
    print_error(safe);
    free(safe);
    free(line);
  }
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The work tree of the git repository holding dir (resolved, without a trailing '/'), or NULL.
 * libgit2 only reads the repository's files; it runs none of its programs. */
static char *git_top(const char *dir) {
  char *root = NULL;
  git_repository *repo = NULL;
  if (git_repository_open_ext(&repo, dir, 0, NULL) == 0 && git_repository_workdir(repo))
    root = realpath(git_repository_workdir(repo), NULL);
  git_repository_free(repo);
  return root;
}

/* The directory that holds path's file, resolved by realpath ("." for a bare name; the nearest
 * existing one for an --stdin-filename that does not exist), or NULL. */
static char *holding_dir(const char *path) {
  char *dir = gl_xstrdup(path);
  struct stat st;
  while (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    char *slash = strrchr(dir, '/');
    if (!slash) {
      free(dir);
      return realpath(".", NULL);
    }
    if (slash == dir && dir[1] == '\0') break; /* "/" itself */
    slash[slash == dir ? 1 : 0] = '\0';
  }
  char *real = realpath(dir, NULL);
  free(dir);
  return real;
}

/* The SARIF %SRCROOT%: the git work tree holding the current directory; else, for one PATH (or
 * --stdin-filename), the work tree holding it, or that PATH itself when it is a directory outside
 * any work tree; else the current directory. Never ends in '/' (the root is ""). */
static char *find_srcroot(const gl_cli *cli) {
  git_libgit2_init();
  char *root = git_top(".");
  const char *one = cli->stdin_filename ? cli->stdin_filename
                    : cli->paths.len == 1 ? cli->paths.data[0] : NULL;
  if (!root && one) {
    char *dir = holding_dir(one);
    if (dir) root = git_top(dir);
    struct stat st;
    if (dir && !root && !cli->stdin_filename && stat(one, &st) == 0 && S_ISDIR(st.st_mode))
      root = gl_xstrdup(dir);
    free(dir);
  }
  git_libgit2_shutdown();
  if (!root) {
    char cwd[4096];
    root = gl_xstrdup(getcwd(cwd, sizeof(cwd)) ? cwd : "/");
  }
  size_t len = strlen(root);
  while (len > 0 && root[len - 1] == '/') root[--len] = '\0';
  return root;
}

/* Loads the built-in and --rules packs, applies the selection and compiles the enabled rules.
 * Every error of every rule file (loader and query alike) is printed; NULL when there was any. */
static gl_ruleset *load_rules(const gl_cli *cli, const gl_config *cfg, gl_matcher **matcher_out) {
  gl_ruleset *set = gl_rules_new();
  gl_diag_list errs = {0};
  gl_rules_add_builtin(set, &errs);
  for (size_t i = 0; i < cli->rules_dirs.len; i++) gl_rules_add_dir(set, cli->rules_dirs.data[i], &errs);
  gl_rules_finish(set, &errs);
  gl_diag err = {0};
  int cfg_rc = gl_config_check_selectors(cfg, set, &errs);
  cfg_rc |= gl_config_check_rule_options(cfg, set, &errs);
  if (cfg_rc == 0 &&
      gl_rules_select(set, (const char *const *)cli->select.data, cli->has_select ? cli->select.len : 0,
                      (const char *const *)cli->extend_select.data, cli->extend_select.len,
                      (const char *const *)cli->ignore.data, cli->ignore.len, &err) != 0)
    *gl_diag_list_add(&errs) = err;
  gl_config_apply_severity(cfg, set);
  if (cfg_rc == 0) gl_config_apply_rule_options(cfg, set);
  /* Rules that failed to load were left out; compile the rest so their errors show in the same
   * run. Only the built-in packs (validated by CI): compiled lazily, once a file passes the
   * prefilter (ts_query_new costs ~0.9 ms a pattern); user rules: at once (match.h). */
  gl_matcher *matcher = errs.len || cli->rules_dirs.len
                            ? gl_match_new(set, gl_parse_language(), &errs)
                            : gl_match_new_lazy(set, gl_parse_language());
  if (errs.len) {
    print_diags(&errs);
    gl_vec_free(&errs);
    gl_match_free(matcher);
    gl_rules_free(set);
    return NULL;
  }
  *matcher_out = matcher;
  return set;
}

static int cmd_rule(const gl_cli *cli, const gl_ruleset *set) {
  const gl_rule *rule = gl_rules_find(set, cli->rule_id);
  if (!rule) {
    char msg[256];
    snprintf(msg, sizeof(msg), "unknown rule '%.200s' (see gpulint rules)", cli->rule_id);
    print_error(msg);
    return EXIT_ERROR;
  }
  fputs(rule->markdown, stdout);
  return fflush(stdout) == 0 ? EXIT_CLEAN : EXIT_ERROR;
}

static void print_notifications(const gl_run *run) {
  for (size_t i = 0; i < run->files.len; i++) {
    const gl_file_result *f = &run->files.data[i];
    for (size_t j = 0; j < f->notes.len; j++) {
      const gl_notification *n = &f->notes.data[j];
      char *path = gl_utf8_safe_text(f->path, strlen(f->path));
      char *msg = gl_utf8_safe_text(n->message, strlen(n->message));
      if (n->line)
        fprintf(stderr, "%s:%u:%u: %s\n", path, n->line, n->col, msg);
      else
        fprintf(stderr, "%s: %s\n", path, msg);
      free(path);
      free(msg);
    }
  }
}

/* One stderr line per GitHub limit the SARIF report will cut (the log itself says it too). */
static void warn_sarif_limits(const gl_run *run, const gl_report_opts *ropts) {
  size_t locations = 0;
  size_t results = gl_report_sarif_dropped(run, ropts, &locations);
  if (results)
    fprintf(stderr, "gpulint: warning: SARIF output left out %zu results: GitHub code scanning "
            "accepts at most %d per run, so the first %d in output order were kept\n", results,
            GL_SARIF_MAX_RESULTS, GL_SARIF_MAX_RESULTS);
  if (locations)
    fprintf(stderr, "gpulint: warning: SARIF output left out %zu related locations: GitHub code "
            "scanning accepts at most %d locations per result\n", locations,
            GL_SARIF_MAX_LOCATIONS);
}

static bool use_color(const gl_cli *cli, const char *output) {
  if (cli->color == GL_COLOR_ALWAYS) return true;
  if (cli->color == GL_COLOR_NEVER) return false;
  if (output && strcmp(output, "-") != 0) return false;
  const char *no_color = getenv("NO_COLOR");
  return isatty(STDOUT_FILENO) && !(no_color && no_color[0]);
}

/* --add-noqa: rewrites each file with findings; prints the count; returns the exit status. */
static int add_noqa(const gl_run *run) {
  size_t total = 0;
  int status = EXIT_CLEAN;
  gl_diag_list errs = {0};
  for (size_t i = 0; i < run->files.len; i++) {
    size_t added = 0;
    gl_diag err = {0};
    if (gl_addnoqa_file(&run->files.data[i], &added, &err) != 0) {
      *gl_diag_list_add(&errs) = err;
      status = EXIT_ERROR;
    }
    total += added;
  }
  print_diags(&errs);
  gl_vec_free(&errs);
  fprintf(stderr, "Added %zu noqa directive%s.\n", total, total == 1 ? "" : "s");
  return status;
}

/* The result cache's directory: --cache-dir, else .gpulint_cache in the project root: the
 * configuration file's directory, else the git work tree holding the current directory, else the
 * current directory (as Ruff finds it). */
static char *cache_dir_of(const gl_cli *cli, const gl_config *cfg) {
  if (cli->cache_dir) return gl_xstrdup(cli->cache_dir);
  char *root = NULL;
  if (cfg) {
    root = gl_xstrdup(cfg->dir);
  } else {
    git_libgit2_init();
    root = git_top(".");
    git_libgit2_shutdown();
  }
  if (!root) root = gl_xstrdup(".");
  size_t n = strlen(root) + sizeof("/" GL_CACHE_DIRNAME);
  char *dir = gl_xmalloc(n);
  snprintf(dir, n, "%s/%s", root, GL_CACHE_DIRNAME);
  free(root);
  return dir;
}

/* The run key: what besides a file's bytes and path changes what the engine finds in it. */
static gl_hash128 run_key(const gl_cli *cli, const gl_ruleset *set, const gl_engine_opts *eo) {
  gl_cache_keybuf kb = {0};
  gl_cache_key_add(&kb, "version", GL_VERSION, strlen(GL_VERSION));
  gl_cache_key_self(&kb);
  gl_cache_key_ruleset(&kb, set);
  for (size_t i = 0; i < cli->rules_dirs.len; i++) gl_cache_key_models_dir(&kb, cli->rules_dirs.data[i]);
  if (cli->evidence) gl_cache_key_file(&kb, "evidence", cli->evidence, GL_EVIDENCE_MAX_BYTES);
  const uint64_t engine[4] = {eo->max_file_bytes, eo->parse_timeout_ms, eo->match_limit, eo->prefilter};
  gl_cache_key_add(&kb, "engine", engine, sizeof(engine));
  gl_hash128 key = gl_hash128_of(kb.data, kb.len, 0);
  gl_vec_free(&kb);
  return key;
}

static void warn_cache(const gl_diag *d) {
  char *safe = gl_utf8_safe_text(d->msg, strlen(d->msg));
  fprintf(stderr, "gpulint: warning: %s; results are not cached\n", safe);
  free(safe);
}

/* Opens the result cache, or NULL (--no-cache, --stdin-filename, or a warning when the directory
 * cannot be written: the run goes on without it). */
static gl_cache *open_cache(const gl_cli *cli, const gl_config *cfg, const gl_ruleset *set,
                            const gl_engine_opts *eo) {
  if (cli->no_cache || cli->stdin_filename) return NULL;
  char *dir = cache_dir_of(cli, cfg);
  gl_diag err = {0};
  gl_cache *cache = gl_cache_open(dir, run_key(cli, set, eo), set, &err);
  free(dir);
  if (!cache && !cli->quiet) warn_cache(&err);
  return cache;
}

static void close_cache(gl_cache *cache, bool quiet) {
  gl_diag err = {0};
  if (gl_cache_close(cache, &err) && !quiet) warn_cache(&err);
}

/* `gpulint clean`: removes what gpulint put in the project's cache directory and says what it
 * removed and what it left. */
static int cmd_clean(const gl_cli *cli, const gl_config *cfg) {
  char *dir = cache_dir_of(cli, cfg);
  gl_cache_cleaned done;
  gl_diag err = {0};
  int rc = gl_cache_clean(dir, &done, &err);
  char *safe = gl_utf8_safe_text(dir, strlen(dir));
  free(dir);
  const char *s = done.removed == 1 ? "" : "s";
  if (rc == 0 && done.existed && done.kept)
    printf("Removed %zu cache file%s from %s; kept the folder: it holds %zu entr%s gpulint did not "
           "create\n", done.removed, s, safe, done.kept, done.kept == 1 ? "y" : "ies");
  else if (rc == 0 && done.existed)
    printf("Removed the cache at %s (%zu file%s)\n", safe, done.removed, s);
  else if (rc == 0)
    printf("No cache at %s\n", safe);
  free(safe);
  if (rc != 0) print_diag(&err);
  if (fflush(stdout) != 0) rc = GL_EIO;
  return rc == 0 ? EXIT_CLEAN : EXIT_ERROR;
}

/* Opens the report's output (base/output.h), refusing a file that is one of the inputs: the
 * report would replace the code it is about. */
static int open_report(gl_output *out, const char *path, const gl_walk_result *walked) {
  if (gl_output_open(out, path) != 0) return GL_EIO;
  for (size_t i = 0; i < walked->files.len; i++) {
    if (!gl_output_replaces(out, walked->files.data[i].path)) continue;
    gl_output_abort(out);
    gl_diag_set(&out->err, path, 0, 0, "refusing to write the report over a file being linted");
    return GL_EINVAL;
  }
  return 0;
}

/* Lints, writes the report, and returns the exit status. */
static int cmd_check(const gl_cli *cli, const gl_config *cfg, bool no_default_excludes,
                     const gl_ruleset *set, const gl_matcher *matcher) {
  double t0 = now_s();
  bool bad_evidence;
  gl_evidence *evidence = load_evidence(cli, &bad_evidence);
  if (bad_evidence) return EXIT_ERROR;
  bool bad_baseline;
  gl_baseline *baseline = load_baseline(cli, &bad_baseline);
  if (bad_baseline) {
    gl_evidence_free(evidence);
    return EXIT_ERROR;
  }
  gl_run run = {0};
  run.srcroot = find_srcroot(cli);
  gl_walk_opts wopts = {(const char *const *)cli->excludes.data, cli->excludes.len,
                        cli->respect_gitignore, no_default_excludes};
  gl_walk_result walked = {0};
  if (cli->stdin_filename)
    gl_walk_stdin(cli->stdin_filename, &wopts, &walked);
  else
    gl_walk((const char *const *)cli->paths.data, cli->paths.len, &wopts, &walked);
  print_walk_errors(&walked);
  if (cli->shard_count) { /* the walk is the same on every runner; each keeps its part */
    gl_shard_filter_files(&walked, run.srcroot, cli->shard_index, cli->shard_count);
    gl_shard_filter_baseline(baseline, cli->shard_index, cli->shard_count);
  }

  gl_engine_opts eopts = {.jobs = cli->jobs, .max_file_bytes = cli->max_file_bytes,
                          .parse_timeout_ms = cli->parse_timeout_ms, .prefilter = cli->prefilter,
                          .program = true};
  if (cli->stdin_filename && walked.files.len) eopts.stdin_path = walked.files.data[0].path;
  /* An excluded --stdin-filename lints nothing, but its input is still read, so an editor
   * writing it never meets a closed pipe. */
  if (cli->stdin_filename && !walked.files.len && !walked.errors.len) gl_load_drain(STDIN_FILENO);
  gl_strvec hot_functions = {0};
  for (size_t i = 0; cfg && i < cfg->hot_functions.len; i++)
    gl_vec_push(&hot_functions, cfg->hot_functions.data[i].s);
  eopts.hot_functions = (const char *const *)hot_functions.data;
  eopts.nhot_functions = hot_functions.len;
  eopts.cache = open_cache(cli, cfg, set, &eopts);
  gl_engine_run(walked.files.data, walked.files.len, set, matcher, &eopts, &run);
  close_cache(eopts.cache, cli->quiet);
  gl_vec_free(&hot_functions);
  const gl_diag_list *lazy_errs = gl_match_errors(matcher);
  if (lazy_errs && lazy_errs->len) { /* a lazily compiled rule failed: as if found at start-up */
    print_diags(lazy_errs);
    gl_run_free(&run);
    gl_evidence_free(evidence);
    gl_baseline_free(baseline);
    gl_walk_result_free(&walked);
    return EXIT_ERROR;
  }
  gl_config_filter_run(cfg, &run); /* per-file-ignores: as if those rules were off there */
  calibrate(&run, evidence, cli->quiet);
  if (cli->add_noqa) {
    if (!cli->quiet) print_notifications(&run);
    int st = add_noqa(&run);
    if (walked.errors.len || gl_run_incomplete(&run)) st = EXIT_ERROR;
    gl_run_free(&run);
    gl_evidence_free(evidence);
    gl_baseline_free(baseline);
    gl_walk_result_free(&walked);
    return st;
  }
  if (baseline) gl_baseline_apply(baseline, &run); /* after calibrate: only new ones count */
  run.elapsed_s = now_s() - t0;

  int status = EXIT_CLEAN;
  if (!cli->quiet) print_notifications(&run); /* on stderr, before the report's summary line */
  /* The paths the walk could not read were printed as errors above (even with --quiet); the
   * report carries them as not-linted files, so its summary never says the run passed. */
  for (size_t i = 0; i < walked.errors.len; i++)
    gl_run_add_unread(&run, walked.errors.data[i].path, walked.errors.data[i].msg);
  if (walked.errors.len) gl_run_sort(&run);
  gl_output out;
  if (open_report(&out, cli->output, &walked) != 0) {
    gl_diag_list errs = {0};
    *gl_diag_list_add(&errs) = out.err;
    print_diags(&errs);
    gl_vec_free(&errs);
    status = EXIT_ERROR;
  } else {
    gl_report_opts ropts = {.color = use_color(cli, cli->output), .tool_version = GL_VERSION,
                            .quiet = cli->quiet, .sarif_category = cli->sarif_category};
    int format = cli->format < 0 ? GL_FORMAT_FULL : cli->format;
    if (format == GL_FORMAT_SARIF && !cli->quiet) warn_sarif_limits(&run, &ropts);
    int wrc = gl_report_write(gl_output_stream(&out), (gl_format)format, &run, &ropts);
    if (wrc != 0) gl_output_write_failed(&out, errno);
    if (wrc != 0 || gl_output_commit(&out) != 0) {
      gl_diag_list errs = {0};
      *gl_diag_list_add(&errs) = out.err;
      print_diags(&errs);
      gl_vec_free(&errs);
      gl_output_abort(&out);
      status = EXIT_ERROR;
    }
  }
  if (status == EXIT_CLEAN && !cli->exit_zero && gl_run_count_at_least(&run, cli->fail_on) > 0)
    status = EXIT_FINDINGS;
  if (walked.errors.len || gl_run_incomplete(&run)) status = EXIT_ERROR;
  gl_run_free(&run);
  gl_evidence_free(evidence);
  gl_baseline_free(baseline);
  gl_walk_result_free(&walked);
  return status;
}

/* The configuration file in effect: --config, else the nearest one from the current directory
 * up, none with --isolated. On error prints one line and sets *failed. */
static gl_config *load_config(const gl_cli *cli, bool *failed) {
  gl_diag err = {0};
  gl_config *cfg = NULL;
  *failed = false;
  if (cli->isolated) return NULL;
  if (cli->config) *failed = (cfg = gl_config_load(cli->config, &err)) == NULL;
  else *failed = gl_config_discover(NULL, &cfg, &err) != 0;
  if (*failed) print_diag(&err);
  return cfg;
}

/* --show-settings PATH: the resolved settings for PATH; argv parsed again is what the command
 * line alone gave. */
static int cmd_show_settings(const gl_cli *cli, const gl_config *cfg, const gl_ruleset *set,
                             int argc, char **argv) {
  gl_cli given;
  gl_diag err = {0};
  gl_cli_parse(&given, argc, argv, &err);
  char *text = gl_config_show(cfg, &given, cli, set, cli->show_settings);
  gl_cli_free(&given);
  fputs(text, stdout); /* its values are already made safe for the terminal */
  free(text);
  return fflush(stdout) == 0 ? EXIT_CLEAN : EXIT_ERROR;
}

/* `gpulint merge FILE...`: one SARIF log of the shards' logs, written atomically to -o. */
static int cmd_merge(const gl_cli *cli) {
  gl_diag err = {0};
  size_t dropped = 0;
  char *text = gl_sarif_merge((const char *const *)cli->paths.data, cli->paths.len, &dropped, &err);
  if (!text) {
    print_diag(&err);
    return EXIT_ERROR;
  }
  if (dropped && !cli->quiet)
    fprintf(stderr, "gpulint: warning: SARIF output left out %zu results: GitHub code scanning "
            "accepts at most %d per run, so the first %d in output order were kept\n", dropped,
            GL_SARIF_MAX_RESULTS, GL_SARIF_MAX_RESULTS);
  gl_output out;
  int status = EXIT_CLEAN;
  if (gl_output_open(&out, cli->output) != 0) {
    print_diag(&out.err);
    status = EXIT_ERROR;
  } else {
    fputs(text, gl_output_stream(&out)); /* a write error shows in the commit's flush */
    if (gl_output_commit(&out) != 0) {
      print_diag(&out.err);
      gl_output_abort(&out);
      status = EXIT_ERROR;
    }
  }
  free(text);
  return status;
}

/* What a subcommand's handler gets: what its row of GL_COMMANDS (cli.h) asked main to load. */
typedef struct command_ctx {
  gl_cli *cli;
  int argc;
  char **argv;
  gl_config *cfg;               /* GL_NEEDS_CONFIG and GL_NEEDS_RULES */
  bool no_default_excludes;
  gl_ruleset *set;              /* GL_NEEDS_RULES */
  gl_matcher *matcher;
} command_ctx;

enum { GL_NEEDS_NOTHING, GL_NEEDS_CONFIG, GL_NEEDS_RULES };

static int run_check(const command_ctx *c) {
  return cmd_check(c->cli, c->cfg, c->no_default_excludes, c->set, c->matcher);
}
static int run_rule(const command_ctx *c) { return cmd_rule(c->cli, c->set); }
static int run_rules(const command_ctx *c) {
  return gl_report_rules(stdout, c->cli->format == GL_FORMAT_JSON, c->set) == 0 ? EXIT_CLEAN
                                                                               : EXIT_ERROR;
}
static int run_help(const command_ctx *c) {
  (void)c;
  fputs(help_text, stdout);
  fputs(gl_report_format_help, stdout);
  fputs(help_rest, stdout);
  return EXIT_CLEAN;
}
static int run_version(const command_ctx *c) {
  (void)c;
  printf("gpulint %s\n", GL_VERSION);
  return EXIT_CLEAN;
}
static int run_show_settings(const command_ctx *c) {
  return cmd_show_settings(c->cli, c->cfg, c->set, c->argc, c->argv);
}
static int run_clean(const command_ctx *c) { return cmd_clean(c->cli, c->cfg); }
static int run_merge(const command_ctx *c) { return cmd_merge(c->cli); }

static const struct {
  gl_cmd cmd;
  int needs;
  int (*run)(const command_ctx *);
} commands[] = {
#define ROW(word, id, needs, handler) {GL_CMD_##id, needs, handler},
    GL_COMMANDS(ROW)
#undef ROW
};

/* Loads what the subcommand's row needs (configuration; rules and the combined query), runs
 * its handler and frees what was loaded. */
static int run_command(gl_cli *cli, int argc, char **argv) {
  size_t i = 0;
  while (i + 1 < sizeof commands / sizeof commands[0] && commands[i].cmd != cli->cmd) i++;
  command_ctx c = {.cli = cli, .argc = argc, .argv = argv};
  if (commands[i].needs == GL_NEEDS_NOTHING) return commands[i].run(&c);
  bool bad_config;
  c.cfg = load_config(cli, &bad_config);
  if (bad_config) return EXIT_ERROR;
  gl_config_apply(c.cfg, cli, &c.no_default_excludes);
  int status = EXIT_ERROR;
  if (commands[i].needs == GL_NEEDS_RULES) {
    c.set = load_rules(cli, c.cfg, &c.matcher);
    if (c.set) status = commands[i].run(&c);
    gl_match_free(c.matcher);
    gl_rules_free(c.set);
  } else {
    status = commands[i].run(&c);
  }
  gl_config_free(c.cfg);
  return status;
}

int main(int argc, char **argv) {
  /* Past a file-size limit (ulimit -f) a write fails with EFBIG, reported with the file's name,
   * instead of the process dying by SIGXFSZ with its temp file left behind. */
  signal(SIGXFSZ, SIG_IGN);
  gl_parse_install_hooks();
  gl_xalloc_install_cjson_hooks();
  gl_cli cli;
  gl_diag err = {0};
  int status;
  if (gl_cli_parse(&cli, argc, argv, &err) != 0) {
    char *safe = gl_utf8_safe_text(err.msg, strlen(err.msg)); /* it may quote an argument */
    print_error(safe);
    free(safe);
    status = EXIT_ERROR;
  } else {
    /* One libgit2 initialisation for the whole run: the walk, the source root and the cache each
     * bracket their use with init and shutdown, and each first init costs ~2 M instructions
     * (it would load the TLS certificates too, but git_no_certs.c makes that a no-op); held
     * here, theirs only count references. */
    bool git = cli.cmd != GL_CMD_HELP && cli.cmd != GL_CMD_VERSION;
    if (git) {
      gl_xalloc_install_git_allocator();
      git_libgit2_init();
    }
    status = run_command(&cli, argc, argv);
    if (git) git_libgit2_shutdown();
  }
  gl_cli_free(&cli);
  return status;
}
