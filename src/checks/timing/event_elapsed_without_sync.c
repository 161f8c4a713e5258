/* event_elapsed_without_sync.c: the event-elapsed-without-sync check (GPU303): a CUDA event's
 * elapsed time read while the end event may still be pending.
 * Owns: finding `start.elapsed_time(end)` (torch.cuda.Event) and `cupy.cuda.get_elapsed_time(start,
 *       end)`, the last `end.record()` before the read in the same block sequence, and whether
 *       anything synchronizes between them.
 * Not: wall-clock timers (unsynchronized_timer.c), the reporting helper (checks.c).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "parse/parse.h"

#define MAX_EVENT_TYPES 8
#define QNAME_CAP 256

typedef struct evstate {
  const gl_check_ctx *ctx;
  uint16_t types[MAX_EVENT_TYPES];   /* type ids of the event constructors this file calls */
  size_t ntypes;
  gl_check__nodes defs;
  gl_check__nodes chain;
} evstate;


static bool is_event_type(const evstate *st, uint16_t t) {
  for (size_t i = 0; t != GL_TYPE_NONE && i < st->ntypes; i++)
    if (st->types[i] == t) return true;
  return false;
}

/* The model gives a check type ids but no type names: learn the ids of torch.cuda.Event and
 * cupy.cuda.Event from the constructor calls of this file. */
static void learn_types(evstate *st) {
  gl_check__walk s;
  gl_check__walk_init(&s, st->ctx->model, ts_tree_root_node(st->ctx->tree));
  TSNode n;
  char q[QNAME_CAP];
  while (gl_check__walk_next(&s, &n)) {
    if (!gl_check__callee(st->ctx->model, n, q, sizeof q)) continue;
    if (strcmp(q, "torch.cuda.Event") != 0 && strcmp(q, "cupy.cuda.Event") != 0) continue;
    uint16_t t = gl_model_type(st->ctx->model, n);
    if (t != GL_TYPE_NONE && !is_event_type(st, t) && st->ntypes < MAX_EVENT_TYPES)
      st->types[st->ntypes++] = t;
  }
  gl_check__walk_free(&s);
}

/* The end event a call reads the elapsed time up to, or a null node. */
static TSNode elapsed_end(const evstate *st, TSNode call) {
  TSNode none = {0}, recv;
  char q[QNAME_CAP];
  if (gl_check__callee(st->ctx->model, call, q, sizeof q))
    return strcmp(q, "cupy.cuda.get_elapsed_time") == 0 ? gl_check__arg(call, 1) : none;
  if (!gl_check__method(st->ctx->src, call, "elapsed_time", &recv)) return none;
  TSNode end = gl_check__arg(call, 0);
  if (ts_node_is_null(end)) return none;
  const gl_model *m = st->ctx->model;
  if (!is_event_type(st, gl_model_type(m, recv)) && !is_event_type(st, gl_model_type(m, end)))
    return none;
  return end;
}

static bool names_ok(TSNode n) { return GL_IS(n, identifier) || GL_IS(n, attribute); }

/* `end.record(...)`, `stream.record(end)`, `stream.record_event(end)`. */
static bool records(const gl_source *src, TSNode call, TSNode end) {
  TSNode recv;
  if (gl_check__method(src, call, "record", &recv) && gl_check__same_text(src, recv, end))
    return true;
  if (!gl_check__method(src, call, "record", &recv) &&
      !gl_check__method(src, call, "record_event", &recv))
    return false;
  TSNode a = gl_check__arg(call, 0);
  return !ts_node_is_null(a) && gl_check__same_text(src, a, end);
}

/* The last record of end in n's subtree (nested scopes skipped), or a null node. */
static TSNode last_record_in(const evstate *st, TSNode n, TSNode end) {
  TSNode best = {0}, k;
  gl_check__walk s;
  gl_check__walk_init(&s, st->ctx->model, n);
  while (gl_check__walk_next(&s, &k)) {
    if (gl_parse_opens_scope(k)) {
      gl_check__walk_skip(&s);
      continue;
    }
    if (GL_IS(k, call) && records(st->ctx->src, k, end)) best = k;
  }
  gl_check__walk_free(&s);
  return best;
}

/* The last record of end in the children of parent that come before child. */
static TSNode last_record_before(const evstate *st, TSNode parent, TSNode child, TSNode end) {
  TSNode best = {0};
  uint32_t n = ts_node_named_child_count(parent);
  for (uint32_t i = 0; i < n; i++) {
    TSNode s = ts_node_named_child(parent, i);
    if (ts_node_start_byte(s) >= ts_node_start_byte(child)) break;
    TSNode r = last_record_in(st, s, end);
    if (!ts_node_is_null(r)) best = r;
  }
  return best;
}

/* Walks the chain of the read from the inside out, down to the scope it runs in (index lo):
 * the first level with a record before the read's statement gives the last record. */
static TSNode find_record(const evstate *st, size_t lo, TSNode end) {
  const gl_check__nodes *ch = &st->chain;
  for (size_t k = ch->len - 1; k > lo; k--) {
    TSNode parent = ch->data[k - 1], child = ch->data[k];
    TSNode r = {0};
    if (GL_IS(parent, block) || GL_IS(parent, module))
      r = last_record_before(st, parent, child, end);
    else if (GL_IS(parent, try_statement) &&
             (gl_parse_type_is(child, "finally_clause") || GL_IS(child, else_clause)))
      r = last_record_in(st, gl_parse_child(parent, "body", 4), end);
    if (!ts_node_is_null(r)) return r;
  }
  return (TSNode){0};
}

/* True when call hands end to something that may wait for it (a helper of another module):
 * any call with end as an argument except the event calls that never wait on the host. */
static bool hands_over(const gl_source *src, TSNode call, TSNode end) {
  TSNode recv;
  if (gl_check__method(src, call, "record", &recv) ||
      gl_check__method(src, call, "record_event", &recv) ||
      gl_check__method(src, call, "wait_event", &recv) ||
      gl_check__method(src, call, "elapsed_time", &recv))
    return false;
  for (uint32_t i = 0;; i++) {
    TSNode a = gl_check__arg(call, i);
    if (ts_node_is_null(a)) return false;
    if (gl_check__same_text(src, a, end)) return true;
  }
}

/* True when node n synchronizes the host with the device, or with the event end. */
static bool syncs(const evstate *st, TSNode n, TSNode end) {
  const gl_model *m = st->ctx->model;
  if (gl_model_roles(m, n) & (GL_ROLE_SYNC | GL_ROLE_D2H)) return true;
  if (!GL_IS(n, call)) return false;
  TSNode recv, fn = gl_parse_child(n, "function", 8);
  const gl_source *src = st->ctx->src;
  if ((gl_check__method(src, n, "synchronize", &recv) ||
       gl_check__method(src, n, "query", &recv)) &&
      gl_check__same_text(src, recv, end))
    return true;
  if (hands_over(src, n, end)) return true;
  TSNode def = gl_check__def_named(src, &st->defs, fn);
  return !ts_node_is_null(def) && gl_check__body_syncs(m, def);
}

/* True when something in scope between bytes from and to synchronizes. */
static bool synced_between(const evstate *st, TSNode scope, uint32_t from, uint32_t to, TSNode end) {
  gl_check__walk s;
  gl_check__walk_init(&s, st->ctx->model, scope);
  TSNode n;
  bool hit = false;
  while (!hit && gl_check__walk_next(&s, &n)) {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (b <= from || a >= to || (gl_parse_opens_scope(n) && !ts_node_eq(n, scope))) {
      gl_check__walk_skip(&s);
      continue;
    }
    hit = a >= from && b <= to && syncs(st, n, end);
  }
  gl_check__walk_free(&s);
  return hit;
}

static void check_read(evstate *st, TSNode read, TSNode end) {
  if (!names_ok(end) || !gl_check__ancestors(st->ctx->model, read, &st->chain)) return;
  size_t lo = 0;
  for (size_t i = 0; i + 1 < st->chain.len; i++)
    if (gl_parse_opens_scope(st->chain.data[i])) lo = i + 1;
  TSNode scope = st->chain.data[lo > 0 ? lo - 1 : 0];
  TSNode rec = find_record(st, lo, end);
  if (ts_node_is_null(rec)) return;
  if (synced_between(st, scope, ts_node_end_byte(rec), ts_node_start_byte(read), end)) return;
  const gl_source *src = st->ctx->src;
  uint32_t e0 = ts_node_start_byte(end), e1 = ts_node_end_byte(end);
  int len = (int)(e1 - e0 > 60 ? 60 : e1 - e0);
  char where[48], msg[512];
  gl_check_line_label(st->ctx, ts_node_start_byte(rec), where, sizeof where);
  snprintf(msg, sizeof msg,
           "the elapsed time is read before `%.*s` has completed: recording it (%s) only "
           "queues the event; call `%.*s.synchronize()` (or `torch.cuda.synchronize()` / "
           "`cp.cuda.Device().synchronize()`) before reading it",
           len, src->bytes + e0, where, len, src->bytes + e0);
  const char *rel_msg[1] = {"the end event is recorded here"};
  gl_check_report_related(st->ctx, read, msg, &rec, rel_msg, 1);
}

/* `start.elapsed_time(end)` / `cupy.cuda.get_elapsed_time(start, end)` after `end.record()` in
 * the same block sequence with no synchronization between them. */
void gl_check_event_elapsed_without_sync(const gl_check_ctx *ctx) {
  if (!ctx->model || !gl_source_has(ctx->src, "elapsed_time")) return;
  evstate st = {.ctx = ctx};
  learn_types(&st);
  gl_check__defs(ctx->model, ctx->tree, &st.defs);
  gl_check__walk s;
  gl_check__walk_init(&s, ctx->model, ts_tree_root_node(ctx->tree));
  TSNode n;
  while (gl_check__walk_next(&s, &n)) {
    if (!GL_IS(n, call)) continue;
    TSNode end = elapsed_end(&st, n);
    if (!ts_node_is_null(end)) check_read(&st, n, end);
  }
  gl_check__walk_free(&s);
  gl_vec_free(&st.defs);
  gl_vec_free(&st.chain);
}
