/* missing_sync_before_host_read.c: the missing-sync-before-host-read check (GPU804): data used
 * while an asynchronous copy, a kernel or another stream may still be writing it.
 * Owns: which names hold page-locked or zero-copy host buffers (`cuda.pinned_array[_like]`,
 *       `cuda.mapped_array[_like]`, `cuda.managed_array`, `cupyx.empty_pinned` / `zeros_pinned` /
 *       `*_like_pinned`, through any alias); which calls write them asynchronously
 *       (`d.copy_to_host(h, stream=s)`, `d.get(out=h, stream=s)`, `cp.asnumpy(d, out=h, stream=s)`
 *       into a pinned buffer; a kernel launch `k[g, b](..., h)` given a mapped or managed one);
 *       device values computed inside `with s:` on a `cupy.cuda.Stream(non_blocking=True)`, which
 *       other streams do not wait for; what waits (explicitly: a call with the sync role, any
 *       `.synchronize()`, a call of a function of the file that does one of these; implicitly, for
 *       the copies and launches only: a device-to-host copy without `stream=`); and the first use
 *       of the data after the write with no wait in between, in source order within one function.
 * Not: pageable buffers (an asynchronous copy into pageable memory returns only once it is done),
 *      uses in another function, reporting (checks.c).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "parse/parse.h"

#define QNAME_CAP 256
#define MSG_CAP 640

typedef enum bkind { B_PINNED = 1, B_ZEROCOPY = 2 } bkind;

typedef struct buf {
  TSNode name;   /* the bound identifier */
  bkind kind;
} buf;

typedef enum pkind { P_COPY, P_LAUNCH, P_STREAM } pkind;

typedef struct pending {
  TSNode write;  /* the asynchronous write: a call, or an assignment on a non-blocking stream */
  TSNode name;   /* the buffer or device value it writes */
  TSNode scope;  /* its function (null: the module) */
  pkind kind;
  uint32_t from; /* reads before this byte are not reads after the write (the stream's block) */
} pending;

typedef struct sblock {
  TSNode with;   /* `with s:` on a non-blocking CuPy stream */
  TSNode stream; /* the stream's expression */
} sblock;

typedef struct hstate {
  const gl_check_ctx *ctx;
  gl_vec(buf) bufs;
  gl_vec(pending) pend;
  gl_check__nodes defs;        /* open defs: the innermost last */
  gl_check__nodes all_defs;    /* every def of the file (for helpers that synchronize) */
  TSNode target;         /* the name the assignment being visited binds (not a read) */
  gl_check__nodes streams;     /* names bound to `cupy.cuda.Stream(non_blocking=True)` */
  gl_vec(sblock) blocks; /* open `with <non-blocking stream>:` statements, innermost last */
} hstate;

static const char *const meta_attrs[] = {"shape", "size", "dtype", "ndim", "nbytes",
                                         "strides", "itemsize"};

static TSNode cur_scope(const hstate *st) {
  return st->defs.len ? st->defs.data[st->defs.len - 1] : (TSNode){0};
}

static const buf *find_buf(const hstate *st, TSNode id) {
  if (!GL_IS(id, identifier)) return NULL;
  for (size_t i = st->bufs.len; i-- > 0;)
    if (gl_check__same_text(st->ctx->src, st->bufs.data[i].name, id)) return &st->bufs.data[i];
  return NULL;
}

/* Forgets the pending writes of name in scope (rebound, or read and reported). */
static void drop(hstate *st, TSNode name, TSNode scope) {
  size_t k = 0;
  for (size_t i = 0; i < st->pend.len; i++) {
    pending *p = &st->pend.data[i];
    bool same = ts_node_eq(p->scope, scope) && gl_check__same_text(st->ctx->src, p->name, name);
    if (!same) st->pend.data[k++] = *p;
  }
  st->pend.len = k;
}

/* Forgets the pending writes of scope that a wait of strength w covers: an explicit wait covers
 * all, an implicit one (the current stream only) all but non-blocking stream work. */
static void drop_scope(hstate *st, TSNode scope, int w) {
  size_t k = 0;
  for (size_t i = 0; i < st->pend.len; i++) {
    const pending *p = &st->pend.data[i];
    bool covered = ts_node_eq(p->scope, scope) && (w == 2 || p->kind != P_STREAM);
    if (!covered) st->pend.data[k++] = *p;
  }
  st->pend.len = k;
}

static void add_pending(hstate *st, TSNode call, TSNode name, bool launch) {
  const buf *b = find_buf(st, name);
  if (!b || (launch ? b->kind != B_ZEROCOPY : b->kind == 0)) return;
  pending p = {call, name, cur_scope(st), launch ? P_LAUNCH : P_COPY, ts_node_end_byte(call)};
  gl_vec_push(&st->pend, p);
}

/* True for a call of a library function that copies device data to the host, whatever its
 * argument is known to be (`cupy.asnumpy(x, stream=s, out=h)`): its model entry has the d2h role. */
static bool d2h_function(const gl_model *m, TSNode call) {
  char q[QNAME_CAP];
  if (!gl_check__callee(m, call, q, sizeof q)) return false;
  const gl_api_entry *e = gl_libmodels_function(gl_model_libmodels(m), q, strlen(q));
  return e && (e->roles & GL_ROLE_D2H);
}

/* True for a stream made with `non_blocking=True` (`cupy.cuda.Stream(non_blocking=True)`: a
 * call whose model entry has the handle role). */
static bool is_nonblocking_stream(const hstate *st, TSNode e) {
  const gl_api_entry *en = ts_node_is_null(e) ? NULL : gl_model_call_entry(st->ctx->model, e);
  if (!en || !(en->roles & GL_ROLE_HANDLE)) return false;
  TSNode nb = gl_check__kwarg(st->ctx->src, e, "non_blocking");
  return !ts_node_is_null(nb) && gl_check__text_is(st->ctx->src, nb, "True");
}

/* `with s:` / `with cp.cuda.Stream(non_blocking=True) [as s]:` opens a stream block. */
static void note_with(hstate *st, TSNode w) {
  TSNode items = ts_node_named_child(w, 0);
  uint32_t n = ts_node_is_null(items) ? 0 : ts_node_named_child_count(items);
  for (uint32_t i = 0; i < n; i++) {
    TSNode v = gl_parse_child(ts_node_named_child(items, i), "value", 5);
    if (!ts_node_is_null(v) && gl_parse_type_is(v, "as_pattern")) v = ts_node_named_child(v, 0);
    if (ts_node_is_null(v)) continue;
    bool named = GL_IS(v, identifier);
    for (size_t j = 0; named && j < st->streams.len; j++)
      if (gl_check__same_text(st->ctx->src, st->streams.data[j], v)) {
        gl_vec_push(&st->blocks, ((sblock){w, v}));
        return;
      }
    if (is_nonblocking_stream(st, v)) {
      gl_vec_push(&st->blocks, ((sblock){w, v}));
      return;
    }
  }
}

/* A device value bound inside a non-blocking stream block: pending until the block's end. */
static void note_stream_value(hstate *st, TSNode asg, TSNode name, TSNode value) {
  if (st->blocks.len == 0 || ts_node_is_null(value) ||
      gl_model_prov(st->ctx->model, value) != GL_PROV_DEVICE)
    return;
  const sblock *b = gl_vec_last(&st->blocks);
  TSNode scope = cur_scope(st);
  if (!ts_node_eq(scope, (TSNode){0}) && ts_node_start_byte(b->with) < ts_node_start_byte(scope))
    return;  /* a def inside the block runs elsewhere */
  pending p = {asg, name, scope, P_STREAM, ts_node_end_byte(b->with)};
  gl_vec_push(&st->pend, p);
}

static void note_assignment(hstate *st, TSNode n) {
  TSNode l = gl_parse_child(n, "left", 4);
  TSNode r = gl_parse_child(n, "right", 5);
  if (ts_node_is_null(l) || !GL_IS(l, identifier)) return;
  st->target = l;
  drop(st, l, cur_scope(st));
  size_t k = 0;
  for (size_t i = 0; i < st->streams.len; i++)
    if (!gl_check__same_text(st->ctx->src, st->streams.data[i], l))
      st->streams.data[k++] = st->streams.data[i];
  st->streams.len = k;
  if (is_nonblocking_stream(st, r)) gl_vec_push(&st->streams, l);
  note_stream_value(st, n, l, r);
  const gl_api_entry *e = ts_node_is_null(r) ? NULL : gl_model_call_entry(st->ctx->model, r);
  uint32_t roles = e ? e->roles : 0;
  bkind kind = (roles & GL_ROLE_MAPPED) ? B_ZEROCOPY : (roles & GL_ROLE_PINNED) ? B_PINNED : 0;
  for (size_t i = 0; i < st->bufs.len; i++)
    if (gl_check__same_text(st->ctx->src, st->bufs.data[i].name, l)) st->bufs.data[i].kind = kind;
  if (kind) gl_vec_push(&st->bufs, ((buf){l, kind}));
}

/* Records the asynchronous writes a call makes; true when the call is device-side work whose
 * arguments are not host reads (a launch, or a call given `stream=`). */
static bool note_writes(hstate *st, TSNode call) {
  const gl_source *src = st->ctx->src;
  TSNode fn = gl_parse_child(call, "function", 8);
  if (!ts_node_is_null(fn) && GL_IS(fn, subscript)) {
    TSNode args = gl_parse_child(call, "arguments", 9);
    uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    for (uint32_t i = 0; i < n; i++) add_pending(st, call, ts_node_named_child(args, i), true);
    return true;
  }
  TSNode stream = gl_check__kwarg(src, call, "stream");
  if (ts_node_is_null(stream) || gl_check__text_is(src, stream, "0") ||
      gl_check__text_is(src, stream, "None"))
    return false;
  TSNode recv, dst = {0};
  if (gl_check__method(src, call, "copy_to_host", &recv)) {
    dst = gl_check__arg(call, 0);
    if (ts_node_is_null(dst)) dst = gl_check__kwarg(src, call, "ary");
  } else if (gl_check__method(src, call, "get", &recv) || d2h_function(st->ctx->model, call)) {
    dst = gl_check__kwarg(src, call, "out");
  }
  if (!ts_node_is_null(dst)) add_pending(st, call, dst, false);
  return true;
}

typedef enum wait { W_NONE, W_IMPLICIT, W_EXPLICIT } wait;

/* How a call waits for the device, without looking into functions: explicitly (a sync role, a
 * `.synchronize()`), or implicitly (a blocking device-to-host copy, which waits for the current
 * stream only). */
static wait waits_here(const gl_check_ctx *ctx, TSNode call) {
  uint32_t roles = gl_model_roles(ctx->model, call);
  TSNode recv;
  if ((roles & GL_ROLE_SYNC) || gl_check__method(ctx->src, call, "synchronize", &recv))
    return W_EXPLICIT;
  if (!ts_node_is_null(gl_check__kwarg(ctx->src, call, "stream"))) return W_NONE;
  if ((roles & GL_ROLE_D2H) || gl_check__method(ctx->src, call, "copy_to_host", &recv) ||
      d2h_function(ctx->model, call))
    return W_IMPLICIT;
  return W_NONE;
}

/* gl_check__body_find's predicates: a call that waits explicitly, or implicitly. */
static bool waits_explicitly(TSNode n, const void *ctx) {
  return GL_IS(n, call) && waits_here(ctx, n) == W_EXPLICIT;
}

static bool waits_implicitly(TSNode n, const void *ctx) {
  return GL_IS(n, call) && waits_here(ctx, n) == W_IMPLICIT;
}

/* The strongest wait in the body of def (outside nested scopes). */
static wait def_waits(const gl_check_ctx *ctx, TSNode def) {
  if (!ts_node_is_null(gl_check__body_find(ctx->model, def, waits_explicitly, ctx)))
    return W_EXPLICIT;
  bool implicit = !ts_node_is_null(gl_check__body_find(ctx->model, def, waits_implicitly, ctx));
  return implicit ? W_IMPLICIT : W_NONE;
}

static wait waits(hstate *st, TSNode call) {
  wait w = waits_here(st->ctx, call);
  if (w == W_EXPLICIT) return w;
  TSNode fn = gl_parse_child(call, "function", 8);
  if (ts_node_is_null(fn) || !GL_IS(fn, identifier)) return w;
  TSNode def = gl_check__def_named(st->ctx->src, &st->all_defs, fn);
  wait d = ts_node_is_null(def) ? W_NONE : def_waits(st->ctx, def);
  return d > w ? d : w;
}

static void report(hstate *st, size_t i, TSNode read) {
  const pending *p = &st->pend.data[i];
  const gl_source *src = st->ctx->src;
  char msg[MSG_CAP], where[64];
  gl_check_line_label(st->ctx, ts_node_start_byte(p->write), where, sizeof where);
  int nl = (int)(ts_node_end_byte(read) - ts_node_start_byte(read));
  const char *rel = "the asynchronous copy";
  if (p->kind == P_STREAM) {
    snprintf(msg, sizeof msg,
             "`%.*s` is used after the non-blocking stream that computes it (%s) with no "
             "synchronization: other streams, the default one included, do not wait for a "
             "non-blocking stream, so this use can see unfinished results; call "
             "`stream.synchronize()` first",
             nl, src->bytes + ts_node_start_byte(read), where);
    rel = "computed on the non-blocking stream here";
  } else {
    snprintf(msg, sizeof msg,
             "`%.*s` is read on the host while %s (%s) may still be writing it: the read sees "
             "stale or partial data; synchronize first (`%s`)",
             nl, src->bytes + ts_node_start_byte(read),
             p->kind == P_LAUNCH ? "the kernel launched" : "the asynchronous copy started", where,
             p->kind == P_LAUNCH ? "cuda.synchronize()" : "stream.synchronize()");
    if (p->kind == P_LAUNCH) rel = "the kernel launch that writes it";
  }
  gl_check_report_related(st->ctx, read, msg, &p->write, &rel, 1);
}

static void note_read(hstate *st, TSNode id) {
  TSNode scope = cur_scope(st);
  uint32_t at = ts_node_start_byte(id);
  for (size_t i = 0; i < st->pend.len; i++) {
    const pending *p = &st->pend.data[i];
    if (at < p->from || (p->kind == P_STREAM && st->blocks.len > 0)) continue;
    if (!ts_node_eq(p->scope, scope) || !gl_check__same_text(st->ctx->src, p->name, id)) continue;
    report(st, i, id);
    drop(st, id, scope);
    return;
  }
}

/* `h.shape`, `len(h)`: metadata, not the buffer's contents. */
static bool is_meta(const hstate *st, TSNode n) {
  const gl_source *src = st->ctx->src;
  if (GL_IS(n, attribute)) {
    TSNode a = gl_parse_child(n, "attribute", 9);
    for (size_t i = 0; i < sizeof meta_attrs / sizeof meta_attrs[0]; i++)
      if (gl_check__text_is(src, a, meta_attrs[i])) return true;
    return false;
  }
  TSNode fn = gl_parse_child(n, "function", 8);
  return GL_IS(n, call) && !ts_node_is_null(fn) && gl_check__text_is(src, fn, "len");
}

static void visit(hstate *st, TSNode n, gl_check__walk *s) {
  while (st->defs.len && ts_node_start_byte(n) >= ts_node_end_byte(*gl_vec_last(&st->defs)))
    st->defs.len--;
  while (st->blocks.len &&
         ts_node_start_byte(n) >= ts_node_end_byte(gl_vec_last(&st->blocks)->with))
    st->blocks.len--;
  if (GL_IS(n, function_definition) || GL_IS(n, lambda)) {
    gl_vec_push(&st->defs, n);
  } else if (GL_IS(n, with_statement)) {
    note_with(st, n);
  } else if (GL_IS(n, assignment)) {
    note_assignment(st, n);
  } else if (GL_IS(n, call)) {
    wait w = st->pend.len ? waits(st, n) : W_NONE;
    if (w != W_NONE) drop_scope(st, cur_scope(st), w == W_EXPLICIT ? 2 : 1);
    if (is_meta(st, n) || note_writes(st, n)) gl_check__walk_skip(s);
  } else if (GL_IS(n, attribute)) {
    if (is_meta(st, n)) gl_check__walk_skip(s);
  } else if (GL_IS(n, identifier) && st->pend.len) {
    const char *field = gl_check__walk_field(s);
    bool not_read = ts_node_eq(n, st->target) ||
                    (field && (strcmp(field, "attribute") == 0 || strcmp(field, "name") == 0));
    if (!not_read) note_read(st, n);
  }
}

/* A page-locked or zero-copy host buffer read on the host after an asynchronous copy into it
 * (or a kernel launch given it) with no synchronization in between (GPU804). */
void gl_check_missing_sync_before_host_read(const gl_check_ctx *ctx) {
  const gl_source *b = ctx->src;
  if (!ctx->model || (!gl_source_has(b, "pinned") && !gl_source_has(b, "mapped_array") &&
                      !gl_source_has(b, "managed_array") && !gl_source_has(b, "non_blocking")))
    return;
  hstate st = {.ctx = ctx};
  gl_check__defs(ctx->model, ctx->tree, &st.all_defs);
  gl_check__walk s;
  gl_check__walk_init(&s, ctx->model, ts_tree_root_node(ctx->tree));
  TSNode n;
  while (gl_check__walk_next(&s, &n)) visit(&st, n, &s);
  gl_check__walk_free(&s);
  gl_vec_free(&st.bufs);
  gl_vec_free(&st.pend);
  gl_vec_free(&st.defs);
  gl_vec_free(&st.all_defs);
  gl_vec_free(&st.streams);
  gl_vec_free(&st.blocks);
}
