/* engine.c: lints files on a pool of worker threads, one file per task.
 * Owns: the per-file pipeline (load -> cache lookup -> prefilter -> parse -> model -> match ->
 *       suppress -> frames and line hashes -> cache store), the notifications for files skipped
 *       or cut short, the worker pool (each worker owns its parser and query cursor, reused
 *       across files) and the limit on how many large files are parsed at once.
 * Not: choosing files, printing, exit status.
 * Threads: workers share only the frozen ruleset, matcher and prefilter, an atomic task index, and
 *          the large-file gate (mutex + condition variable). Each writes only its own result slot. */
#include "engine/engine.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/load.h"
#include "base/location.h"
#include "base/strbuf.h"
#include "cache/cache.h"
#include "model/model.h"
#include "notebook/notebook.h"
#include "parse/parse.h"
#include "prefilter/prefilter.h"
#include "program/program.h"
#include "report/report.h"
#include "suppress/suppress.h"

#define GL_LARGE_FILE_BYTES (1u << 20)   /* files above this are parsed at most GL_MAX_LARGE at once */
#define GL_MAX_LARGE 2
#define GL_MAX_TREE_DEPTH 20000          /* the query engine's depth counters are 16-bit */
#define GL_SNIPPET_MAX_LINES 5

typedef struct gate {
  pthread_mutex_t lock;
  pthread_cond_t free;
  int in_use;
} gate;

typedef struct shared {
  const gl_walk_file *files;
  size_t nfiles;
  const gl_ruleset *set;
  const gl_matcher *matcher;
  const gl_prefilter *prefilter;
  const gl_engine_opts *opts;
  gl_file_result *results;
  atomic_size_t next;
  gate large;
  /* the program stage's passes: the files to lint again (task i is file again[i]), with the
   * prefilter off (force: files a summarised file imports) or with their defs' facts (program) */
  const size_t *again;
  size_t nagain;
  bool force;
  const gl_program_file *program;
} shared;

typedef struct worker {
  shared *sh;
  gl_parser *parser;
  gl_match_ctx *mctx;
  const gl_model_program *prog; /* pass 2: what the program stage learned of the file */
  bool force;              /* lint whatever the prefilter says (the program stage's passes) */
} worker;

static void gate_enter(gate *g) {
  pthread_mutex_lock(&g->lock);
  while (g->in_use >= GL_MAX_LARGE) pthread_cond_wait(&g->free, &g->lock);
  g->in_use++;
  pthread_mutex_unlock(&g->lock);
}

static void gate_leave(gate *g) {
  pthread_mutex_lock(&g->lock);
  g->in_use--;
  pthread_cond_signal(&g->free);
  pthread_mutex_unlock(&g->lock);
}

/* Copies the finding's lines (at most GL_SNIPPET_MAX_LINES) for code frames. */
static char *snippet_of(const gl_source *src, const gl_region *r) {
  uint32_t last = r->end_line;
  if (last < r->start_line) last = r->start_line;
  if (last - r->start_line >= GL_SNIPPET_MAX_LINES) last = r->start_line + GL_SNIPPET_MAX_LINES - 1;
  size_t first_len = 0, last_len = 0;
  const char *first = gl_load_line(src, r->start_line, &first_len);
  const char *end = gl_load_line(src, last, &last_len) + last_len;
  gl_strbuf b = {0};
  gl_load_add_shown(&b, src, src->bytes, (size_t)(first - src->bytes), (size_t)(end - src->bytes));
  return gl_strbuf_take(&b);
}

static void add_frames_and_hashes(const gl_source *src, gl_file_result *out) {
  if (!out->findings.len) return;
  size_t nhashes = 0;
  /* GitHub's upload action hashes the file as Node decodes it: a BOM stays a character. */
  char *as_written = gl_load_as_written(src);
  char **hashes = gl_loc_line_hashes(as_written ? as_written : src->bytes, src->len, &nhashes);
  free(as_written);
  for (size_t i = 0; i < out->findings.len; i++) {
    gl_finding *f = &out->findings.data[i];
    f->snippet = snippet_of(src, &f->region);
    uint32_t line = f->region.start_line;
    if (line >= 1 && line <= nhashes) f->line_hash = gl_xstrdup(hashes[line - 1]);
  }
  for (size_t i = 0; i < nhashes; i++) free(hashes[i]);
  free(hashes);
}

static void note_syntax_error(const gl_source *src, const TSTree *tree, gl_file_result *out) {
  uint32_t byte = 0;
  const char *what = NULL;
  if (!gl_parse_first_error(tree, &byte, &what)) return;
  gl_pos pos = gl_load_position(src, byte);
  gl_file_result_note(out, GL_NOTE_SYNTAX_ERROR, GL_LEVEL_WARNING, pos.line, pos.col,
                      "syntax error: %s (the recovered tree was linted)", what ? what : "invalid syntax");
}

/* A NUL byte: CPython refuses the file ("source code cannot contain null bytes"); the loader read
 * each as a space, so the rest of the file is linted, and the user is told where the first is. */
static void note_nuls(const gl_source *src, gl_file_result *out) {
  if (!src->n_nuls) return;
  gl_pos pos = gl_load_position(src, src->nuls[0]);
  gl_file_result_note(out, GL_NOTE_SYNTAX_ERROR, GL_LEVEL_WARNING, pos.line, pos.col,
                      "the file holds %u NUL byte%s, the first here, which Python refuses (linted "
                      "with each read as a space)", (unsigned)src->n_nuls, src->n_nuls == 1 ? "" : "s");
}

/* Parses, models and matches one loaded source into out. */
static void lint_source(worker *w, const gl_source *src, gl_file_result *out) {
  shared *sh = w->sh;
  out->linted = true;
  /* A notebook's magics are blanked from what is parsed, but `%load_ext cudf.pandas` may be the
   * only place a library is named: the prefilter reads the cells as written (same length). */
  const char *words = src->notebook ? src->notebook->orig : src->bytes;
  if (sh->opts->prefilter && !w->force && !gl_prefilter_wants(sh->prefilter, words, src->len))
    return;
  bool large = src->len > GL_LARGE_FILE_BYTES;
  if (large) gate_enter(&sh->large);
  gl_diag err = {0};
  TSTree *tree = gl_parse_scratch(w->parser, src, &err);
  if (large) gate_leave(&sh->large);
  if (!tree) {
    out->linted = false;
    gl_file_result_note(out, GL_NOTE_SKIPPED, GL_LEVEL_ERROR, 0, 0, "not linted: %s", err.msg);
    return;
  }
  note_nuls(src, out);
  note_syntax_error(src, tree, out);
  gl_model *model = gl_model_build_program(src, tree, sh->set->models, w->prog);
  if (sh->opts->program && !w->prog && sh->set->models) out->summary = gl_model_program_summary(model);
  uint32_t depth = gl_model_max_depth(model), limit = gl_parse_max_depth(w->parser);
  if (depth > limit) {
    out->linted = false;
    gl_file_result_note(out, GL_NOTE_SKIPPED, GL_LEVEL_ERROR, 0, 0,
                        "not linted: syntax tree is %u levels deep, over the limit of %u", depth,
                        limit);
  } else {
    gl_match_run(w->mctx, src, tree, model, out);
    gl_suppress_run(src, tree, model, sh->set, out);
    add_frames_and_hashes(src, out);
  }
  gl_model_free(model);
  gl_parse_release(tree);
}

/* A notebook: its code cells as one virtual source, results moved back into the .ipynb; a
 * malformed notebook is not linted (incomplete run). */
static void lint_notebook(worker *w, const gl_source *raw, gl_file_result *out) {
  gl_notebook nb;
  gl_diag err = {0};
  if (gl_notebook_read(&nb, raw, &err) != 0) {
    gl_file_result_note(out, GL_NOTE_SKIPPED, GL_LEVEL_ERROR, err.line, err.col,
                        "not linted: invalid notebook: %s", err.msg);
    return;
  }
  gl_source v = {0};
  gl_load_buffer(&v, raw->path, nb.code, nb.len);
  v.notebook = &nb;
  lint_source(w, &v, out);
  gl_notebook_remap(&nb, raw, &v, out);
  gl_source_free(&v);
  gl_notebook_free(&nb);
}

static void lint_path(worker *w, const gl_walk_file *file, gl_file_result *out) {
  out->path = gl_xstrdup(file->path);
  gl_source src = {0};
  gl_diag err = {0};
  const gl_engine_opts *opts = w->sh->opts;
  bool from_stdin = opts->stdin_path && strcmp(opts->stdin_path, file->path) == 0;
  int rc = from_stdin ? gl_load_fd(&src, STDIN_FILENO, file->path, opts->max_file_bytes, &err)
                      : gl_load_file(&src, file->path, opts->max_file_bytes, &err);
  if (rc != 0) {
    gl_file_result_note(out, GL_NOTE_SKIPPED, GL_LEVEL_ERROR, 0, 0, "not linted: %s", err.msg);
    gl_source_free(&src);
    return;
  }
  if (src.foreign) { /* before the prefilter, which finds no library name in such bytes */
    gl_file_result_note(out, GL_NOTE_SKIPPED, GL_LEVEL_ERROR, 0, 0,
                        "not linted: the file is %s text, and Python reads source as UTF-8 "
                        "(save it as UTF-8)", src.foreign);
    gl_source_free(&src);
    return;
  }
  bool notebook = gl_notebook_is_path(file->path);
  /* an editor's unsaved text is not cached, nor a file linted again with other files' facts */
  gl_cache *cache = from_stdin || w->prog ? NULL : opts->cache;
  /* What the prefilter skips (as lint_source would) costs less to skip again than an entry
   * costs to read and write; with no cache, lint_source makes the one check. */
  if (cache && !notebook && opts->prefilter && !w->force &&
      !gl_prefilter_wants(w->sh->prefilter, src.bytes, src.len)) {
    out->linted = true;
    gl_source_free(&src);
    return;
  }
  gl_hash128 content = {0, 0};
  if (cache) content = gl_cache_content_hash(&src);
  if (cache && gl_cache_get(cache, file->path, content, out)) {
    gl_source_free(&src);
    return;
  }
  if (notebook) lint_notebook(w, &src, out);
  else lint_source(w, &src, out);
  /* A lazily compiled query that failed gave no findings: never keep those. */
  const gl_matcher *m = w->sh->matcher;
  if (cache && gl_match_compiled(m) && gl_match_ready(m)) gl_cache_put(cache, content, out);
  gl_source_free(&src);
}

static void worker_init(worker *w, shared *sh) {
  w->sh = sh;
  w->parser = gl_parse_new(sh->opts->parse_timeout_ms, GL_MAX_TREE_DEPTH);
  w->mctx = gl_match_ctx_new(sh->matcher, sh->opts->match_limit, sh->opts->parse_timeout_ms);
}

static void worker_fini(worker *w) {
  gl_match_ctx_free(w->mctx);
  gl_parse_free(w->parser);
}

/* Pass 2 on file i: lints it again with its defs hot through other files, and says why on the
 * findings that pass 1 did not have. */
static void lint_again(worker *w, size_t i) {
  shared *sh = w->sh;
  const gl_program_file *pf = &sh->program[i];
  const gl_libmodels *lm = sh->set->models;
  gl_model_def_fact *hot = gl_xcalloc(pf->n + pf->nclasses, sizeof(*hot));
  for (size_t k = 0; k < pf->n; k++) {
    const char *t = pf->hot[k].device_type;
    hot[k] = (gl_model_def_fact){pf->hot[k].start, pf->hot[k].device_params,
                                 t ? gl_libmodels_type_id(lm, t, strlen(t)) : GL_TYPE_NONE,
                                 pf->hot[k].hot, pf->hot[k].root, GL_TYPE_NONE};
  }
  for (size_t k = 0; k < pf->nclasses; k++) {
    const char *t = pf->classes[k].type;
    hot[pf->n + k] = (gl_model_def_fact){pf->classes[k].start, 0, GL_TYPE_NONE, false, false,
                                         gl_libmodels_type_id(lm, t, strlen(t))};
  }
  gl_model_call_fact *calls = gl_xcalloc(pf->ncalls ? pf->ncalls : 1, sizeof(*calls));
  for (size_t k = 0; k < pf->ncalls; k++) {
    const char *t = pf->calls[k].type;
    calls[k] = (gl_model_call_fact){pf->calls[k].start,
                                    t ? gl_libmodels_type_id(lm, t, strlen(t)) : GL_TYPE_NONE,
                                    pf->calls[k].returns, pf->calls[k].d2h};
  }
  gl_model_program prog = {hot, pf->n + pf->nclasses, calls, pf->ncalls};
  w->prog = &prog;
  w->force = true;
  gl_file_result again = {0}, *old = &sh->results[i];
  lint_path(w, &sh->files[i], &again);
  w->prog = NULL;
  w->force = false;
  free(hot);
  free(calls);
  for (size_t k = 0; k < again.findings.len; k++) {
    gl_finding *f = &again.findings.data[k];
    bool seen = false;
    for (size_t j = 0; j < old->findings.len && !seen; j++) {
      const gl_finding *o = &old->findings.data[j];
      seen = o->rule == f->rule && o->region.start_byte == f->region.start_byte &&
             o->region.end_byte == f->region.end_byte;
    }
    if (seen) continue;
    /* a call of another file's def that copies what it is given to the host: which def */
    const char *callee = NULL;
    for (size_t c = 0; c < pf->ncalls && !callee; c++)
      if (pf->calls[c].why && pf->calls[c].start == f->region.start_byte) callee = pf->calls[c].why;
    /* the innermost def with facts around the finding (none: a value another file's def
     * returned, or a def of this file such a def calls; the message stands alone) */
    const gl_program_hot *why = NULL;
    for (size_t h = 0; h < pf->n; h++)
      if (pf->hot[h].start <= f->region.start_byte && f->region.start_byte < pf->hot[h].end &&
          (!why || pf->hot[h].start >= why->start))
        why = &pf->hot[h];
    if (!why && !callee) continue;
    gl_strbuf msg = {0};
    gl_strbuf_adds(&msg, f->message);
    if (callee) gl_strbuf_addf(&msg, "; %s", callee);
    if (why) gl_strbuf_addf(&msg, "; %s", why->why);
    free(f->message);
    f->message = gl_strbuf_take(&msg);
  }
  gl_file_result_free(old);
  *old = again;
}

static void *worker_main(void *arg) {
  worker *w = arg;
  shared *sh = w->sh;
  for (;;) {
    size_t i = atomic_fetch_add(&sh->next, 1);
    if (sh->again) {
      if (i >= sh->nagain) break;
      if (sh->force) { /* a module the prefilter skipped, which a summarised file imports */
        w->force = true;
        gl_file_result_free(&sh->results[sh->again[i]]);
        lint_path(w, &sh->files[sh->again[i]], &sh->results[sh->again[i]]);
        w->force = false;
      } else {
        lint_again(w, sh->again[i]);
      }
      continue;
    }
    if (i >= sh->nfiles) break;
    lint_path(w, &sh->files[i], &sh->results[i]);
  }
  gl_parse_thread_done(); /* this thread's parse arena: it is thread-local */
  return NULL;
}

static unsigned choose_jobs(const gl_engine_opts *opts, size_t nfiles) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  unsigned jobs = opts->jobs ? opts->jobs : (unsigned)(cores > 0 ? cores : 1);
  if (jobs > nfiles) jobs = (unsigned)(nfiles ? nfiles : 1);
  if (jobs > 256) jobs = 256;
  return jobs;
}

/* Runs worker_main on jobs workers (the calling thread is worker 0), from task 0. */
static void run_pool(shared *sh, unsigned jobs) {
  atomic_store(&sh->next, 0);
  worker *workers = gl_xcalloc(jobs, sizeof(worker));
  pthread_t *threads = gl_xcalloc(jobs, sizeof(pthread_t));
  unsigned started = 0;
  for (unsigned i = 0; i < jobs; i++) {
    worker_init(&workers[i], sh);
    if (i == 0) continue; /* the calling thread is worker 0 */
    if (pthread_create(&threads[i], NULL, worker_main, &workers[i]) != 0) break;
    started = i;
  }
  worker_main(&workers[0]);
  for (unsigned i = 1; i <= started; i++) pthread_join(threads[i], NULL);
  for (unsigned i = 0; i < jobs; i++) worker_fini(&workers[i]);
  free(workers);
  free(threads);
}

/* The program stage: solves the run from pass 1's summaries, then lints again (pass 2) the
 * files with defs hot only through other files. Off for an editor's buffer on stdin, which
 * cannot be read twice. */
static void program_stage(shared *sh, unsigned jobs) {
  size_t n = sh->nfiles;
  const char **paths = gl_xcalloc(n ? n : 1, sizeof(char *));
  const char **sums = gl_xcalloc(n ? n : 1, sizeof(char *));
  for (size_t i = 0; i < n; i++) {
    paths[i] = sh->files[i].path;
    sums[i] = sh->results[i].summary;
  }
  size_t *again = gl_xcalloc(n ? n : 1, sizeof(size_t)), nagain = 0;
  bool *need = gl_xcalloc(n ? n : 1, sizeof(bool));
  for (int round = 0; round < 4; round++) { /* imports of imports, a few levels deep */
    gl_program_needed(paths, sums, n, need);
    nagain = 0;
    for (size_t i = 0; i < n; i++)
      if (need[i]) again[nagain++] = i;
    if (!nagain) break;
    sh->again = again;
    sh->nagain = nagain;
    sh->force = true;
    run_pool(sh, jobs < nagain ? jobs : (unsigned)nagain);
    sh->again = NULL;
    sh->force = false;
    for (size_t k = 0; k < nagain; k++) {
      size_t i = again[k];
      if (!sh->results[i].summary) sh->results[i].summary = gl_xstrdup(""); /* not again */
      sums[i] = sh->results[i].summary;
    }
  }
  free(need);
  gl_program_roots roots = {sh->opts->hot_functions, sh->opts->nhot_functions};
  gl_program_file *pf = gl_program_solve(paths, sums, n, sh->set->models, &roots);
  nagain = 0;
  for (size_t i = 0; i < n; i++)
    if (pf[i].n || pf[i].nclasses || pf[i].ncalls) again[nagain++] = i;
  if (nagain) {
    sh->again = again;
    sh->nagain = nagain;
    sh->program = pf;
    run_pool(sh, jobs < nagain ? jobs : (unsigned)nagain);
    sh->again = NULL;
  }
  for (size_t i = 0; i < n; i++) {
    free(sh->results[i].summary);
    sh->results[i].summary = NULL;
  }
  gl_program_free(pf, n);
  free(again);
  free(paths);
  free(sums);
}

void gl_engine_run(const gl_walk_file *files, size_t nfiles, const gl_ruleset *set,
                   const gl_matcher *matcher, const gl_engine_opts *opts, gl_run *run) {
  shared sh = {.files = files, .nfiles = nfiles, .set = set, .matcher = matcher, .opts = opts};
  gl_prefilter *prefilter = gl_prefilter_new(set);
  sh.prefilter = prefilter;
  sh.results = gl_xcalloc(nfiles ? nfiles : 1, sizeof(gl_file_result));
  atomic_init(&sh.next, 0);
  pthread_mutex_init(&sh.large.lock, NULL);
  pthread_cond_init(&sh.large.free, NULL);

  unsigned jobs = choose_jobs(opts, nfiles);
  run_pool(&sh, jobs);
  if (opts->program && !opts->stdin_path) program_stage(&sh, jobs);

  for (size_t i = 0; i < nfiles; i++) gl_vec_push(&run->files, sh.results[i]);
  free(sh.results);
  pthread_cond_destroy(&sh.large.free);
  pthread_mutex_destroy(&sh.large.lock);
  gl_prefilter_free(prefilter);
  run->rules = set;
  gl_run_sort(run);
}

void gl_engine_lint_buffer(const char *path, const char *bytes, size_t len, const gl_ruleset *set,
                           const gl_matcher *matcher, const gl_engine_opts *opts,
                           gl_file_result *out) {
  shared sh = {.set = set, .matcher = matcher, .opts = opts};
  gl_prefilter *prefilter = gl_prefilter_new(set);
  sh.prefilter = prefilter;
  pthread_mutex_init(&sh.large.lock, NULL);
  pthread_cond_init(&sh.large.free, NULL);
  worker w = {0};
  worker_init(&w, &sh);
  gl_source src = {0};
  gl_load_buffer(&src, path, bytes, len);
  out->path = gl_xstrdup(path);
  lint_source(&w, &src, out);
  gl_source_free(&src);
  worker_fini(&w);
  pthread_cond_destroy(&sh.large.free);
  pthread_mutex_destroy(&sh.large.lock);
  gl_prefilter_free(prefilter);
}
