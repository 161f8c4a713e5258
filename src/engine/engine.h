/* engine.h: lints a list of files on a pool of worker threads.
 * Owns: the per-file pipeline load -> prefilter -> parse -> model -> match -> suppress, the worker
 *       pool (one parser, query cursor and scratch per worker, reused across files), and merging
 *       the per-file results into one sorted gl_run (byte-identical for any --jobs).
 * Not: choosing files (walk.c), printing (main.c, src/report/).
 * Threads: gl_engine_run starts and joins the workers itself; everything it reads is frozen. */
#ifndef GL_ENGINE_H
#define GL_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "match/match.h"
#include "result/result.h"
#include "rules/rules.h"
#include "walk/walk.h"

typedef struct gl_engine_opts {
  unsigned jobs;              /* 0 = online cores */
  size_t max_file_bytes;      /* size cap; 0 = none */
  uint32_t parse_timeout_ms;  /* per file; 0 = none */
  uint32_t match_limit;       /* query cursor in-progress match limit */
  bool prefilter;             /* skip files naming no trigger word */
  const char *stdin_path;     /* --stdin-filename: the file of the list with exactly this path is
                                 read from standard input (gl_load_fd, same size cap), not from
                                 disk; NULL = none */
  bool program;               /* the program stage: files linted again with defs another file
                                 calls on every step (off for stdin_path) */
  const char *const *hot_functions; /* defs the user says run per step (hot-functions) */
  size_t nhot_functions;
  struct gl_cache *cache;     /* result cache (cache.h), shared by the workers; NULL = none. Never
                                 used for stdin_path */
} gl_engine_opts;

/* Lints files with the enabled rules of set through matcher. Fills run->files (sorted). */
void gl_engine_run(const gl_walk_file *files, size_t nfiles, const gl_ruleset *set,
                   const gl_matcher *matcher, const gl_engine_opts *opts, gl_run *run);

/* Lints one in-memory source (tests, the rule documentation checker). */
void gl_engine_lint_buffer(const char *path, const char *bytes, size_t len, const gl_ruleset *set,
                           const gl_matcher *matcher, const gl_engine_opts *opts,
                           gl_file_result *out);

#endif
