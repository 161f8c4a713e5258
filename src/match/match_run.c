/* match_run.c: running the matcher over one parsed file.
 * Owns: the per-worker gl_match_ctx (query cursors with their match limit, PCRE2 match data,
 *       match context with match / depth / heap limits and a JIT stack, the dedupe set, the
 *       dispatch scratch), the match loop (the query anchored at the index nodes dispatch picks,
 *       or over the whole tree when dispatch is off; then the name patterns), findings (region
 *       from @hit, message filled), deduplication of identical
 *       (rule, start byte, end byte) findings within a file, the file's time limit (cursors
 *       cancelled, loops and checks stopped), the notifications for a match, regex or time limit
 *       hit, and calling the built-in checks.
 * Not: building the matcher (match.c), suppressions, snippets and line hashes (engine.c).
 * Threads: a ctx belongs to one worker; the matcher is only read (once gl_match_ready compiled it). */
#include <string.h>

#include "base/deadline.h"
#include "match/match_int.h"

#define DEFAULT_MATCH_LIMIT 4096u
#define REGEX_MATCH_LIMIT 1000000u      /* pcre2_set_match_limit: backtracking steps */
#define REGEX_DEPTH_LIMIT 10000u        /* pcre2_set_depth_limit: nested backtracking */
#define REGEX_HEAP_LIMIT_KIB (16u * 1024u)  /* pcre2_set_heap_limit: 16 MiB (the default is 20 GB) */
#define JIT_STACK_MIN (32u * 1024u)
#define JIT_STACK_MAX (1024u * 1024u)

typedef struct seen_slot {
  const gl_rule *rule;
  uint32_t start, end;
  uint32_t gen;                 /* slot is in use when gen equals the ctx's current gen */
} seen_slot;

struct gl_match_ctx {
  const gl_matcher *m;
  TSQueryCursor *cursor;
  TSQueryCursor *anchored;      /* runs the query at one node (max start depth 0) */
  gl_mslots slots;
  bool *pass;                   /* per dispatch entry: may match at the node being tried */
  pcre2_general_context *gctx;  /* routes PCRE2's per-worker allocations through gl_xmalloc */
  pcre2_jit_stack *jit;
  gl_pred_env env;
  bool *regex_noted;            /* per query rule: regex limit hit in this file, rule off */
  uint32_t budget_ms;           /* per file, for everything gl_match_run does; 0 = none */
  gl_deadline deadline;         /* this file's */
  bool out_of_time;             /* the deadline passed: the rest of the file is not matched */
  TSQueryCursorOptions qopts;   /* progress callback: cancels a cursor past the deadline */
  seen_slot *seen;
  size_t seen_cap, seen_used;
  uint32_t gen;
};

static void *pcre2_xmalloc(PCRE2_SIZE size, void *data) {
  (void)data;
  return gl_xmalloc(size);
}

static void pcre2_xfree(void *ptr, void *data) {
  (void)data;
  free(ptr);
}

/* True once the file's deadline passed (and from then on, without reading the clock again). */
static bool out_of_time(gl_match_ctx *ctx) {
  if (!ctx->out_of_time && gl_deadline_passed(&ctx->deadline)) ctx->out_of_time = true;
  return ctx->out_of_time;
}

/* The cursors' progress callback: cancels a query run past the deadline. */
static bool past_deadline(TSQueryCursorState *state) { return out_of_time(state->payload); }

gl_match_ctx *gl_match_ctx_new(const gl_matcher *m, uint32_t match_limit, uint32_t budget_ms) {
  gl_match_ctx *ctx = gl_xcalloc(1, sizeof(*ctx));
  ctx->m = m;
  ctx->budget_ms = budget_ms;
  ctx->qopts = (TSQueryCursorOptions){ctx, past_deadline};
  ctx->cursor = ts_query_cursor_new();
  ts_query_cursor_set_match_limit(ctx->cursor, match_limit ? match_limit : DEFAULT_MATCH_LIMIT);
  ctx->anchored = ts_query_cursor_new();
  ts_query_cursor_set_match_limit(ctx->anchored, match_limit ? match_limit : DEFAULT_MATCH_LIMIT);
  ctx->gctx = pcre2_general_context_create(pcre2_xmalloc, pcre2_xfree, NULL);
  ctx->env.md = pcre2_match_data_create(1, ctx->gctx);
  ctx->env.mctx = pcre2_match_context_create(ctx->gctx);
  pcre2_set_match_limit(ctx->env.mctx, REGEX_MATCH_LIMIT);
  pcre2_set_depth_limit(ctx->env.mctx, REGEX_DEPTH_LIMIT);
  pcre2_set_heap_limit(ctx->env.mctx, REGEX_HEAP_LIMIT_KIB);
  ctx->jit = pcre2_jit_stack_create(JIT_STACK_MIN, JIT_STACK_MAX, ctx->gctx);
  if (ctx->jit) pcre2_jit_stack_assign(ctx->env.mctx, NULL, ctx->jit);
  /* regex_noted and pass are sized by the compiled rules: allocated by the first gl_match_run. */
  return ctx;
}

void gl_match_ctx_free(gl_match_ctx *ctx) {
  if (!ctx) return;
  ts_query_cursor_delete(ctx->cursor);
  ts_query_cursor_delete(ctx->anchored);
  free(ctx->pass);
  gl_mslots_free(&ctx->slots);
  pcre2_match_data_free(ctx->env.md);
  pcre2_match_context_free(ctx->env.mctx);
  pcre2_jit_stack_free(ctx->jit);
  pcre2_general_context_free(ctx->gctx);
  free(ctx->regex_noted);
  free(ctx->seen);
  free(ctx);
}

/* ---- dedupe: an open-addressing set of (rule, start, end), emptied per file by gen ---------- */

static size_t seen_hash(const gl_rule *rule, uint32_t start, uint32_t end) {
  uint64_t h = (uint64_t)(uintptr_t)rule * 0x9E3779B97F4A7C15ull;
  h ^= ((uint64_t)start << 32 | end) * 0xC2B2AE3D27D4EB4Full;
  return (size_t)(h ^ (h >> 29));
}

static void seen_grow(gl_match_ctx *ctx) {
  seen_slot *old = ctx->seen;
  size_t old_cap = ctx->seen_cap;
  ctx->seen_cap = old_cap ? old_cap * 2 : 64;
  ctx->seen = gl_xcalloc(ctx->seen_cap, sizeof(*ctx->seen));
  for (size_t i = 0; i < old_cap; i++) {
    if (old[i].gen != ctx->gen) continue;
    size_t j = seen_hash(old[i].rule, old[i].start, old[i].end) & (ctx->seen_cap - 1);
    while (ctx->seen[j].gen == ctx->gen) j = (j + 1) & (ctx->seen_cap - 1);
    ctx->seen[j] = old[i];
  }
  free(old);
}

/* Adds (rule, start, end); false when it was already there. */
static bool seen_add(gl_match_ctx *ctx, const gl_rule *rule, uint32_t start, uint32_t end) {
  if ((ctx->seen_used + 1) * 2 > ctx->seen_cap) seen_grow(ctx);
  size_t j = seen_hash(rule, start, end) & (ctx->seen_cap - 1);
  for (; ctx->seen[j].gen == ctx->gen; j = (j + 1) & (ctx->seen_cap - 1)) {
    const seen_slot *s = &ctx->seen[j];
    if (s->rule == rule && s->start == start && s->end == end) return false;
  }
  ctx->seen[j] = (seen_slot){rule, start, end, ctx->gen};
  ctx->seen_used++;
  return true;
}

static void begin_file(gl_match_ctx *ctx, const gl_source *src, const gl_model *model) {
  if (++ctx->gen == 0) {   /* wrapped: forget every old slot explicitly */
    if (ctx->seen) memset(ctx->seen, 0, ctx->seen_cap * sizeof(*ctx->seen));
    ctx->gen = 1;
  }
  ctx->seen_used = 0;
  size_t nrules = ctx->m->rules.len ? ctx->m->rules.len : 1;
  if (!ctx->pass) {
    ctx->pass = gl_xcalloc(ctx->m->dispatch.len + 1, sizeof(bool));
    gl_mslots_init(&ctx->slots, ctx->m);
  }
  if (!ctx->regex_noted) ctx->regex_noted = gl_xcalloc(nrules, sizeof(bool));
  else memset(ctx->regex_noted, 0, nrules * sizeof(bool));
  ctx->env.src = src;
  ctx->env.model = model;
  ctx->deadline = gl_deadline_after(ctx->budget_ms);
  ctx->out_of_time = false;
  if (++ctx->env.memo_gen == 0) {   /* wrapped: forget every remembered resolution */
    memset(ctx->env.memo, 0, sizeof(ctx->env.memo));
    ctx->env.memo_gen = 1;
  }
}

/* ---- query findings ---------------------------------------------------------------------- */

static const TSNode *hit_node(const TSQueryMatch *qm, uint32_t hit) {
  for (uint16_t i = 0; i < qm->capture_count; i++)
    if (qm->captures[i].index == hit) return &qm->captures[i].node;
  return NULL;
}

/* The first regex of a rule that hits its limits in a file switches the rule off for the rest
 * of that file: a pattern that backtracks once will on every string like it. */
static void note_regex_limit(gl_match_ctx *ctx, uint32_t rule, gl_file_result *out) {
  if (ctx->regex_noted[rule]) return;
  ctx->regex_noted[rule] = true;
  gl_file_result_note(out, GL_NOTE_PARTIAL, GL_LEVEL_WARNING, 0, 0,
                      "regex limit hit in rule %s; the rule is off for the rest of the file",
                      ctx->m->rules.data[rule].rule->id);
}

static void on_match(gl_match_ctx *ctx, const TSQueryMatch *qm, gl_file_result *out) {
  const gl_matcher *m = ctx->m;
  const gl_mpattern *p = &m->patterns.data[qm->pattern_index];
  const gl_mrule *mr = &m->rules.data[p->rule];
  if (!mr->rule->enabled || ctx->regex_noted[p->rule]) return;
  ctx->env.regex_limit_hit = false;
  bool pass = gl_preds_eval(p->preds, p->npreds, qm, &ctx->env);
  if (ctx->env.regex_limit_hit) note_regex_limit(ctx, p->rule, out);
  const TSNode *hit = pass ? hit_node(qm, m->hit) : NULL;
  if (!hit) return;
  uint32_t start = ts_node_start_byte(*hit), end = ts_node_end_byte(*hit);
  if (!seen_add(ctx, mr->rule, start, end)) return;
  gl_finding *f = gl_vec_grow(&out->findings);
  f->rule = mr->rule;
  f->level = mr->rule->level;
  f->region = gl_region_of(ctx->env.src, start, end);
  f->message = gl_msg_fill(&mr->msg, qm, ctx->env.src, ctx->env.model);
}

/* The combined query over the tree; true when it exceeded the match limit. */
static bool run_query(gl_match_ctx *ctx, const TSTree *tree, gl_file_result *out) {
  ts_query_cursor_exec_with_options(ctx->cursor, ctx->m->query, ts_tree_root_node(tree),
                                    &ctx->qopts);
  TSQueryMatch qm;
  while (ts_query_cursor_next_match(ctx->cursor, &qm)) on_match(ctx, &qm, out);
  return ts_query_cursor_did_exceed_match_limit(ctx->cursor);
}

/* The query anchored at node (max start depth 0): only matches rooted there, those of a
 * dispatched pattern only when it passed its early tests (pass[]). True when it exceeded the
 * match limit. */
static bool run_at(gl_match_ctx *ctx, TSNode node, gl_file_result *out) {
  const gl_matcher *m = ctx->m;
  ts_query_cursor_exec_with_options(ctx->anchored, m->query, node, &ctx->qopts);
  TSQueryMatch qm;
  while (ts_query_cursor_next_match(ctx->anchored, &qm)) {
    uint32_t k = m->dispatch_of[qm.pattern_index];
    if (k == GL_MDISPATCH_NONE || ctx->pass[k]) on_match(ctx, &qm, out);
  }
  return ts_query_cursor_did_exceed_match_limit(ctx->anchored);
}

/* The query run at the nodes of the model's index that have a pattern's root type instead of
 * over the whole tree (match_dispatch.c); a node with only dispatched patterns is run when one
 * of them passed its early tests there. True when a run exceeded the match limit. */
static bool run_dispatch(gl_match_ctx *ctx, gl_file_result *out) {
  const gl_matcher *m = ctx->m;
  const gl_model *model = ctx->env.model;
  uint32_t n = gl_model_node_count(model), nsym = ts_language_symbol_count(m->lang);
  bool exceeded = false;
  ts_query_cursor_set_max_start_depth(ctx->anchored, 0);
  for (uint32_t i = 0; i < n; i++) {
    if ((i & 63) == 0 && out_of_time(ctx)) break;
    TSNode node = gl_model_node_at(model, i);
    TSSymbol sym = ts_node_symbol(node);
    if (sym >= nsym) continue;
    bool run = m->root_of[sym].plain;
    run |= gl_mdispatch_node(m, node, sym, &ctx->slots, &ctx->env, ctx->regex_noted, ctx->pass);
    if (run) exceeded |= run_at(ctx, node, out);
  }
  return exceeded;
}

/* The name patterns (match_names.c) on the nodes they can match: the qualified identifiers and
 * attributes of the model's index, or, without provenance, every node of their types. */
static void run_names(gl_match_ctx *ctx, gl_file_result *out) {
  const gl_matcher *m = ctx->m;
  const gl_model *model = ctx->env.model;
  if (!m->names.len || !model) return;
  bool any_node = !gl_model_has_provenance(model);
  TSQueryCapture cap = {.index = m->hit};
  TSQueryMatch qm = {.capture_count = 1, .captures = &cap};
  uint32_t n = gl_model_node_count(model);
  char name[sizeof ctx->env.qbuf];
  for (uint32_t i = 0; i < n; i++) {
    if ((i & 63) == 0 && out_of_time(ctx)) break;
    if (!any_node && !gl_model_node_qualified(model, i)) continue;
    cap.node = gl_model_node_at(model, i);
    TSSymbol sym = ts_node_symbol(cap.node);
    uint32_t len = 0;
    const char *q = gl_pred_key(&ctx->env, cap.node, true, &len);
    if (!q) continue;   /* no name pattern holds on a name that does not resolve */
    memcpy(name, q, len);
    for (size_t k = 0; k < m->names.len; k++) {
      const gl_mname *mn = &m->names.data[k];
      if (mn->symbol != sym || !gl_pred_name_may_hold(mn->filter, name, len)) continue;
      qm.pattern_index = (uint16_t)mn->pattern;
      on_match(ctx, &qm, out);
    }
  }
}

/* ---- checks -------------------------------------------------------------------------------- */

/* Drops the findings from index `from` on that repeat an earlier one of this file. */
static void dedupe_from(gl_match_ctx *ctx, gl_file_result *out, size_t from) {
  size_t keep = from;
  for (size_t i = from; i < out->findings.len; i++) {
    gl_finding *f = &out->findings.data[i];
    if (!seen_add(ctx, f->rule, f->region.start_byte, f->region.end_byte)) {
      gl_finding_free_fields(f);
      continue;
    }
    out->findings.data[keep++] = *f;
  }
  out->findings.len = keep;
}

static void run_checks(gl_match_ctx *ctx, const TSTree *tree, gl_file_result *out) {
  for (size_t i = 0; i < ctx->m->checks.len; i++) {
    const gl_mcheck *c = &ctx->m->checks.data[i];
    if (!c->rule->enabled || !c->fn) continue;   /* no fn: reported after suppression */
    if (out_of_time(ctx)) break;
    gl_check_ctx cc = {c->rule, ctx->env.src, tree, ctx->env.model, out};
    size_t before = out->findings.len;
    c->fn(&cc);
    dedupe_from(ctx, out, before);
  }
}

void gl_match_run(gl_match_ctx *ctx, const gl_source *src, const TSTree *tree,
                  const gl_model *model, gl_file_result *out) {
  if (!ctx || !ctx->m || !src || !tree || !out) return;
  if (!gl_match_ready(ctx->m)) return;
  begin_file(ctx, src, model);
  bool exceeded = false;
  if (ctx->m->query && ctx->m->root_of && model) exceeded = run_dispatch(ctx, out);
  else if (ctx->m->query) exceeded = run_query(ctx, tree, out);
  if (exceeded && !ctx->out_of_time)
    gl_file_result_note(out, GL_NOTE_PARTIAL, GL_LEVEL_WARNING, 0, 0,
                        "query match limit exceeded; some findings may be missing");
  run_names(ctx, out);
  run_checks(ctx, tree, out);
  if (ctx->out_of_time)
    gl_file_result_note(out, GL_NOTE_PARTIAL, GL_LEVEL_WARNING, 0, 0,
                        "matching time limit of %u ms exceeded (--parse-timeout); some findings "
                        "may be missing", ctx->budget_ms);
}
