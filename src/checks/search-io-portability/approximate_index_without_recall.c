/* approximate_index_without_recall.c: the approximate-index-without-recall check (GPU851): an
 * approximate cuVS / RAFT index searched in a file that also runs an exact search, with no recall
 * computed anywhere in the file.
 * Owns: one pass that collects the approximate searches (CAGRA, IVF-Flat, IVF-PQ, HNSW from CAGRA),
 *       the exact baselines (Faiss flat indexes and knn, cuVS / RAFT brute force, scikit-learn /
 *       cuML NearestNeighbors(algorithm="brute")), the signs of a recall computation (a name or
 *       string with "recall", "ground_truth" or "intersect", set intersection, intersect1d / isin /
 *       in1d), wall-clock timers, and the branches of if / try / match / conditional expressions;
 *       then pairs them up.
 * Not: recall computed in another file (the rule would be wrong there: it says so), search results
 *      compared by hand without any of those signs, Faiss flat indexes in a file that builds Faiss
 *      IVF indexes (they are probably quantizers, not baselines).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "checks/search-io-portability/binds.h"
#include "parse/parse.h"

#define QCAP 256

typedef struct site {
  TSNode node;
  uint32_t scope;
  bool flat;             /* a Faiss flat index, which may be an IVF index's quantizer */
} site;

typedef struct branch {
  uint32_t owner;        /* start byte of the if / try / match / conditional */
  uint32_t start, end;   /* one clause */
} branch;

typedef struct vstate {
  const gl_check_ctx *ctx;
  const gl_check__walk *walk;   /* the file's walk, at the node being looked at */
  gl_vec(site) approx;
  gl_vec(site) exact;
  gl_vec(branch) branches;
  bool recall, timed;
  bool quantized; /* the file builds a Faiss IVF index (its flat indexes may be quantizers) */
} vstate;

static bool has_word(const char *s, size_t len, const char *w) {
  size_t n = strlen(w);
  for (size_t i = 0; i + n <= len; i++) {
    size_t j = 0;
    while (j < n && tolower((unsigned char)s[i + j]) == w[j]) j++;
    if (j == n) return true;
  }
  return false;
}

static bool recall_text(const gl_source *src, TSNode n) {
  uint32_t a = ts_node_start_byte(n), e = ts_node_end_byte(n);
  const char *s = src->bytes + a;
  size_t len = e - a;
  return has_word(s, len, "recall") || has_word(s, len, "ground_truth") ||
         has_word(s, len, "groundtruth") || has_word(s, len, "intersect");
}

static bool matches(const char *q, const char *const *list) {
  for (; *list; list++)
    if (strcmp(q, *list) == 0) return true;
  return false;
}

static bool is_approx(const char *q) {
  static const char *const mods[] = {"cuvs.neighbors.", "pylibraft.neighbors.", NULL};
  static const char *const algos[] = {"cagra.search", "ivf_flat.search", "ivf_pq.search",
                                      "hnsw.search", "mg_cagra.search", "mg_ivf_flat.search",
                                      "mg_ivf_pq.search", NULL};
  for (const char *const *m = mods; *m; m++) {
    size_t n = strlen(*m);
    if (strncmp(q, *m, n) == 0 && matches(q + n, algos)) return true;
  }
  return false;
}

static bool is_exact(const vstate *st, TSNode call, const char *q) {
  static const char *const exact[] = {
      "faiss.IndexFlatL2", "faiss.IndexFlatIP", "faiss.IndexFlat", "faiss.GpuIndexFlatL2",
      "faiss.GpuIndexFlatIP", "faiss.GpuIndexFlat", "faiss.knn", "faiss.knn_gpu",
      "cuvs.neighbors.brute_force.search", "pylibraft.neighbors.brute_force.knn", NULL};
  static const char *const nn[] = {"sklearn.neighbors.NearestNeighbors",
                                   "cuml.neighbors.NearestNeighbors", "cuml.NearestNeighbors",
                                   NULL};
  if (matches(q, exact)) return true;
  if (!matches(q, nn)) return false;
  TSNode algo = gl_check__kwarg(st->ctx->src, call, "algorithm");
  return gl_parse_type_is(algo, "string") &&
         has_word(st->ctx->src->bytes + ts_node_start_byte(algo),
                  ts_node_end_byte(algo) - ts_node_start_byte(algo), "brute");
}

static bool is_set_value(const vstate *st, TSNode n) {
  if (gl_parse_type_is(n, "set") || gl_parse_type_is(n, "set_comprehension")) return true;
  if (!GL_IS(n, call)) return false;
  TSNode fn = gl_parse_child(n, "function", 8);
  return GL_IS(fn, identifier) &&
         (gl_check__text_is(st->ctx->src, fn, "set") ||
          gl_check__text_is(st->ctx->src, fn, "frozenset"));
}

/* The clauses of n (an if, try or conditional; for a match, its body block holds the case
 * clauses), recorded with n as their owner. */
static void add_branches(vstate *st, TSNode n) {
  uint32_t owner = ts_node_start_byte(n);
  if (gl_parse_type_is(n, "match_statement")) n = gl_parse_child(n, "body", 4);
  if (ts_node_is_null(n)) return;
  uint32_t count = ts_node_named_child_count(n);
  bool cond = gl_parse_type_is(n, "conditional_expression");
  for (uint32_t i = 0; i < count; i++) {
    TSNode k = ts_node_named_child(n, i);
    bool clause = cond ? i != 1
                       : GL_IS(k, block) || GL_IS(k, elif_clause) ||
                             GL_IS(k, else_clause) || GL_IS(k, except_clause) ||
                             GL_IS(k, case_clause);
    if (!clause) continue;
    branch b = {owner, ts_node_start_byte(k), ts_node_end_byte(k)};
    gl_vec_push(&st->branches, b);
  }
}

static void look_at_call(vstate *st, TSNode n, uint32_t scope) {
  char q[QCAP], meth[32];
  TSNode fn = gl_parse_child(n, "function", 8), recv;
  if (gl_model_roles(st->ctx->model, n) & GL_ROLE_TIMER) st->timed = true;
  if (gl_model_resolve(st->ctx->model, fn, q, sizeof q)) {
    static const char *const overlap[] = {"numpy.intersect1d", "cupy.intersect1d", "numpy.isin",
                                          "cupy.isin", "numpy.in1d", "cupy.in1d", "torch.isin",
                                          NULL};
    site s = {n, scope, strncmp(q, "faiss.IndexFlat", 15) == 0};
    if (strncmp(q, "faiss.IndexIVF", 14) == 0) st->quantized = true;
    if (is_approx(q)) gl_vec_push(&st->approx, s);
    else if (is_exact(st, n, q)) gl_vec_push(&st->exact, s);
    else if (matches(q, overlap)) st->recall = true;
    else if (strcmp(q, "cupyx.profiler.benchmark") == 0) st->timed = true;
    return;
  }
  if (gl_check__method_name(st->ctx->src, n, meth, sizeof meth, &recv) &&
      (strcmp(meth, "intersection") == 0 || strcmp(meth, "intersection_update") == 0))
    st->recall = true;
}

/* `if c: return a` followed by more code: the rest of the function is the if's other branch. */
static void add_early_exit(vstate *st, TSNode n, uint32_t scope_end) {
  TSNode cons = gl_parse_child(n, "consequence", 11);
  if (!ts_node_is_null(gl_parse_child(n, "alternative", 11))) return;
  uint32_t k = ts_node_named_child_count(cons);
  TSNode last = k ? ts_node_named_child(cons, k - 1) : cons;
  if (!GL_IS(last, return_statement) && !gl_parse_type_is(last, "raise_statement")) return;
  branch b = {ts_node_start_byte(n), ts_node_end_byte(n), scope_end};
  if (b.start < b.end) gl_vec_push(&st->branches, b);
}

static void look(vstate *st, TSNode n, uint32_t scope) {
  if (GL_IS(n, call)) {
    look_at_call(st, n, scope);
  } else if (GL_IS(n, identifier) || gl_parse_type_is(n, "string_content")) {
    if (recall_text(st->ctx->src, n)) st->recall = true;
  } else if (GL_IS(n, binary_operator)) {
    TSNode op = gl_parse_child(n, "operator", 8);
    if (!ts_node_is_null(op) && strcmp(ts_node_type(op), "&") == 0 &&
        (is_set_value(st, gl_parse_child(n, "left", 4)) ||
         is_set_value(st, gl_parse_child(n, "right", 5))))
      st->recall = true;
  } else if (gl_parse_type_is(n, "if_statement") || GL_IS(n, try_statement) ||
             gl_parse_type_is(n, "conditional_expression") ||
             gl_parse_type_is(n, "match_statement")) {
    add_branches(st, n);
    if (gl_parse_type_is(n, "if_statement")) {
      TSNode sc = gl_check__walk_scope(st->walk, GL_CHECK__SCOPE_CLASSES | GL_CHECK__SCOPE_SELF);
      TSNode root = ts_tree_root_node(st->ctx->tree);
      uint32_t end = ts_node_end_byte(ts_node_is_null(sc) ? root : sc);
      add_early_exit(st, n, end);
    }
  }
}

static int clause_of(const vstate *st, uint32_t owner, uint32_t at) {
  for (size_t i = 0; i < st->branches.len; i++) {
    const branch *b = &st->branches.data[i];
    if (b->owner == owner && at >= b->start && at < b->end) return (int)i;
  }
  return -1;
}

/* True when a and e sit in different clauses of one if / try / match / conditional. */
static bool exclusive(const vstate *st, TSNode a, TSNode e) {
  uint32_t pa = ts_node_start_byte(a), pe = ts_node_start_byte(e);
  for (size_t i = 0; i < st->branches.len; i++) {
    const branch *b = &st->branches.data[i];
    if (pa < b->start || pa >= b->end) continue;
    int ce = clause_of(st, b->owner, pe);
    if (ce >= 0 && (size_t)ce != i) return true;
  }
  return false;
}

static void report(const vstate *st, const site *a, const site *e) {
  char an[96], en[96], line[48], msg[640];
  gl_check__text(st->ctx->src, gl_parse_child(a->node, "function", 8), an, sizeof an);
  gl_check__text(st->ctx->src, gl_parse_child(e->node, "function", 8), en, sizeof en);
  gl_check_line_label(st->ctx, ts_node_start_byte(e->node), line, sizeof line);
  snprintf(msg, sizeof msg,
           "`%s` is an approximate search and this file also runs the exact search `%s` (%s), "
           "but computes no recall: speed of an approximate index means nothing without the "
           "fraction of true neighbours it finds; report recall@k against the exact result",
           an, en, line);
  const char *rel = "the exact search";
  gl_check_report_related(st->ctx, a->node, msg, &e->node, &rel, 1);
}

static void pair_up(const vstate *st) {
  for (size_t i = 0; i < st->approx.len; i++) {
    const site *a = &st->approx.data[i];
    for (size_t j = 0; j < st->exact.len; j++) {
      const site *e = &st->exact.data[j];
      if ((e->flat && st->quantized) || exclusive(st, a->node, e->node)) continue;
      if (a->scope != e->scope && !st->timed) continue;
      report(st, a, e);
      break;
    }
  }
}

/* An approximate cuVS / RAFT search (CAGRA, IVF-Flat, IVF-PQ, HNSW) in a file that also runs an
 * exact search (Faiss flat index, brute force), not in another branch of the same if / try /
 * match, in the same function or in a file that reads a wall clock, with no recall computed
 * anywhere in the file. */
void gl_check_approximate_index_without_recall(const gl_check_ctx *ctx) {
  if (!ctx->model) return;
  if (!strstr(ctx->src->bytes, "cuvs") && !strstr(ctx->src->bytes, "pylibraft")) return;
  vstate st = {.ctx = ctx};
  gl_check__walk s;
  gl_check__walk_init(&s, ctx->model, ts_tree_root_node(ctx->tree));
  TSNode n;
  st.walk = &s;
  while (gl_check__walk_next(&s, &n) && !st.recall) look(&st, n, gl_vbind_scope(&s));
  gl_check__walk_free(&s);
  if (!st.recall && st.approx.len && st.exact.len) pair_up(&st);
  gl_vec_free(&st.approx);
  gl_vec_free(&st.exact);
  gl_vec_free(&st.branches);
}
