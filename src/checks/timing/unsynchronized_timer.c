/* unsynchronized_timer.c: the checks unsynchronized-timer (GPU301) and cpu-time-timer (GPU302).
 * Owns: finding the intervals a file measures (a closing clock read paired with an opening one
 *       through `t1 - t0`, `clock() - t0` or a `with Timer():` block whose class, defined in the
 *       file, reads a clock in __enter__ and __exit__), asking timer_scan.c whether GPU work
 *       runs unsynchronized in each, and the message naming the fix of that work's library;
 *       per-iteration meters in loops that wait every iteration, which average right.
 * Not: the index itself (timer_scan.c), deduplication (match_run.c), printing.
 * Threads: each call builds and frees its own index; nothing shared is written. */
#include "checks/checks_int.h"

#include <string.h>

#include "checks/timing/timer_scan.h"
#include "parse/parse.h"

#define CALLEE_MAX 60

typedef struct interval {
  int32_t open, close;   /* clock-read events */
} interval;


/* "`time.perf_counter()`": the callee's text (first line, at most CALLEE_MAX bytes). */
static char *read_text(const gl_tscan *s, TSNode call) {
  TSNode fn = gl_parse_child(call, "function", 8);
  if (ts_node_is_null(fn)) fn = call;
  uint32_t a = ts_node_start_byte(fn), b = ts_node_end_byte(fn);
  size_t n = strcspn(s->src->bytes + a, "\r\n");
  if (n > b - a) n = b - a;
  if (n > CALLEE_MAX) n = CALLEE_MAX;
  return gl_xasprintf("%.*s()", (int)n, s->src->bytes + a);
}

/* The fix, for the library of the last GPU work (its model's "synchronize" and "benchmark"). */
static const char *fix_for(const gl_tscan *s, int32_t work, char *buf, size_t cap) {
  const char *f = gl_tscan_fix(gl_model_libmodels(s->model), gl_tscan_event_lib(s, work),
                               GL_TFIX_CALL, buf, cap);
  return f ? f : "synchronize the device before reading the clock (`cp.cuda.Device().synchronize()`, "
                 "`torch.cuda.synchronize()`, `jax.block_until_ready(out)`)";
}

static void report(const gl_check_ctx *ctx, const gl_tscan *s, TSNode at, int32_t open,
                   int32_t work, char *msg, const char *work_msg) {
  TSNode rel[2] = {s->events.data[open].node, s->events.data[work].node};
  const char *rel_msg[2] = {"timer started here", work_msg};
  gl_check_report_related(ctx, at, msg, rel, rel_msg, 2);
  free(msg);
}

/* ---- pairing reads --------------------------------------------------------------------------- */

/* The clock read that the name in [a, b) holds at byte `before`, seen from function fn: the
 * last binding of the name before it, in fn or a function enclosing fn, when that binding is
 * an assignment from a clock read of `kind`; -1 otherwise (a later binding to anything else, a
 * parameter, or none). */
static int32_t last_assign(const gl_tscan *s, uint32_t a, uint32_t b, uint8_t kind, uint32_t before,
                           int32_t fn) {
  /* bindings are in source order (pos non-decreasing): start at the last one before `before` */
  size_t lo = 0, hi = s->assigns.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (s->assigns.data[mid].pos <= before) lo = mid + 1;
    else hi = mid;
  }
  for (size_t i = lo; i-- > 0;) {
    const gl_tassign *x = &s->assigns.data[i];
    if (x->pos > before || !gl_tscan_same_text(s, a, b, x->name_start, x->name_end)) continue;
    for (int32_t f = fn; f >= 0; f = s->fns.data[f].parent) {
      if (f != x->fn) continue;
      if (x->ev < 0 || s->events.data[x->ev].pos > before) return -1;
      return (s->events.data[x->ev].kind & kind) ? x->ev : -1;
    }
  }
  return -1;
}

static TSNode strip_parens(TSNode n) {
  for (int guard = 0; guard < 16 && !ts_node_is_null(n); guard++) {
    if (strcmp(ts_node_type(n), "parenthesized_expression") != 0) break;
    n = ts_node_named_child(n, 0);
  }
  return n;
}

static bool is_name(TSNode n) {
  if (ts_node_is_null(n)) return false;
  return GL_IS(n, identifier) || GL_IS(n, attribute);
}

/* The interval a subtraction `close - open` measures, or {-1, -1}. */
static interval pair_of(const gl_tscan *s, TSNode sub, uint8_t kind) {
  interval none = {-1, -1};
  TSNode left = strip_parens(gl_parse_child(sub, "left", 4));
  TSNode right = strip_parens(gl_parse_child(sub, "right", 5));
  if (!is_name(right) || ts_node_is_null(left)) return none;
  uint32_t at = ts_node_start_byte(sub);
  int32_t close = -1;
  if (strcmp(ts_node_type(left), "call") == 0) {
    close = gl_tscan_clock_at(s, ts_node_start_byte(left));
    if (close >= 0 && !(s->events.data[close].kind & kind)) close = -1;
  } else if (is_name(left)) {
    close = last_assign(s, ts_node_start_byte(left), ts_node_end_byte(left), kind, at,
                        gl_tscan_fn_at(s, at));
  }
  if (close < 0) return none;
  const gl_tevent *c = &s->events.data[close];
  int32_t open = last_assign(s, ts_node_start_byte(right), ts_node_end_byte(right), kind, c->start, c->fn);
  if (open < 0) return none;
  return (interval){open, close};
}

/* ---- rolling timers in loops that wait ----------------------------------------------------------- */

/* The innermost for / while statement whose body holds n, within n's def; null when none. */
static TSNode loop_around(TSNode n) {
  for (TSNode c = n, p = ts_node_parent(n); !ts_node_is_null(p); c = p, p = ts_node_parent(p)) {
    if (GL_IS(p, function_definition) || GL_IS(p, lambda) || GL_IS(p, class_definition)) break;
    const char *t = ts_node_type(p);
    if ((!strcmp(t, "for_statement") || !strcmp(t, "while_statement")) &&
        ts_node_eq(gl_parse_child(p, "body", 4), c))
      return p;
  }
  return (TSNode){0};
}

/* True for a per-iteration meter that averages right: the interval closes in a loop whose body
 * rebinds the opening name to a clock read after the close (`end = time.time()` last, so each
 * interval spans one whole iteration), and the body waits for the device on every iteration (a
 * sync or a device-to-host read not under an `if` of the body: `loss.item()`). Each interval
 * then holds one wait for the work queued before it, so the intervals add up to the loop's time
 * (imagenet's AverageMeter, a progress bar's ETA). Or the close runs only now and then (a
 * throughput log every N steps), so each interval spans a window of many iterations. */
static bool rolling_meter(const gl_tscan *s, TSNode sub, const interval *iv) {
  const gl_tevent *c = &s->events.data[iv->close];
  TSNode loop = loop_around(c->node);
  if (ts_node_is_null(loop)) return false;
  TSNode body = gl_parse_child(loop, "body", 4);
  uint32_t b0 = ts_node_start_byte(body), b1 = ts_node_end_byte(body);
  TSNode right = strip_parens(gl_parse_child(sub, "right", 5));
  uint32_t n0 = ts_node_start_byte(right), n1 = ts_node_end_byte(right);
  bool rolls = false;
  for (size_t i = 0; i < s->assigns.len && !rolls; i++) {
    const gl_tassign *x = &s->assigns.data[i];
    rolls = x->ev >= 0 && x->fn == c->fn && x->pos > c->pos && x->pos <= b1 &&
            gl_tscan_same_text(s, n0, n1, x->name_start, x->name_end);
  }
  if (!rolls) return false;
  /* a window of many steps: the read runs now and then (`if (step + 1) % log_every == 0`), and
   * the host runs ahead of the device by a bounded launch queue at most, so the window's time is
   * the device's time within that queue */
  if (s->model && !gl_model_hot(s->model, c->node)) return true;
  for (size_t i = 0; i < s->events.len; i++) {
    const gl_tevent *e = &s->events.data[i];
    if (!(e->kind & GL_TEV_SYNC) || e->fn != c->fn || e->start < b0 || e->pos > b1) continue;
    if (e->cond < 0 || s->conds.data[e->cond].start < b0) return true;
  }
  return false;
}

/* ---- GPU301 / GPU302 over subtractions --------------------------------------------------------- */

static void check_pairs(const gl_check_ctx *ctx, const gl_tscan *s, uint8_t kind) {
  bool any = false;
  for (size_t i = 0; i < s->assigns.len && !any; i++) any = s->assigns.data[i].ev >= 0;
  if (!any) return; /* no `t0 = clock()`: no interval */
  for (size_t i = 0; i < s->subs.len; i++) {
    interval iv = pair_of(s, s->subs.data[i], kind);
    if (iv.open < 0) continue;
    const gl_tevent *o = &s->events.data[iv.open], *c = &s->events.data[iv.close];
    int32_t work = gl_tscan_region(s, o->pos, c->start, c->fn, c->start, kind == GL_TEV_CPU);
    if (work < 0 || (kind == GL_TEV_WALL && rolling_meter(s, s->subs.data[i], &iv))) continue;
    char *what = read_text(s, c->node), fix[256];
    char *msg = kind == GL_TEV_CPU
                    ? gl_xasprintf("`%s` counts CPU time only, so the GPU work in this interval "
                                   "is not measured: use `time.perf_counter()` and %s",
                                   what, fix_for(s, work, fix, sizeof fix))
                    : gl_xasprintf("`%s` stops the timer while GPU work may still be running "
                                   "(GPU calls return before the work is done): %s",
                                   what, fix_for(s, work, fix, sizeof fix));
    free(what);
    report(ctx, s, c->node, iv.open, work, msg,
           kind == GL_TEV_CPU ? "last GPU work, not counted by a CPU clock"
                              : "last GPU work, not synchronized");
  }
}

/* ---- GPU301 over `with Timer():` --------------------------------------------------------------- */

/* The timer class a with item's `Name(...)` constructs, or -1. */
static int32_t timer_class(const gl_tscan *s, TSNode call) {
  TSNode fn = gl_parse_child(call, "function", 8);
  if (ts_node_is_null(fn) || strcmp(ts_node_type(fn), "identifier") != 0) return -1;
  for (size_t i = 0; i < s->classes.len; i++) {
    const gl_tclass *c = &s->classes.data[i];
    if (c->enter_ev >= 0 && c->exit_ev >= 0 &&
        gl_tscan_same_text(s, ts_node_start_byte(fn), ts_node_end_byte(fn), c->name_start, c->name_end))
      return (int32_t)i;
  }
  return -1;
}

/* True when __exit__ synchronizes before its clock read. */
static bool exit_syncs(const gl_tscan *s, const gl_tclass *c) {
  uint32_t read = s->events.data[c->exit_ev].start;
  for (size_t i = 0; i < s->events.len; i++) {
    const gl_tevent *e = &s->events.data[i];
    if ((e->kind & GL_TEV_SYNC) && e->fn == c->exit_fn && e->pos <= read) return true;
  }
  return false;
}

static void check_withs(const gl_check_ctx *ctx, const gl_tscan *s) {
  for (size_t i = 0; i < s->withs.len; i++) {
    const gl_twith *w = &s->withs.data[i];
    int32_t cls = timer_class(s, w->item);
    if (cls < 0 || exit_syncs(s, &s->classes.data[cls])) continue;
    uint32_t start = ts_node_start_byte(w->body), end = ts_node_end_byte(w->body);
    int32_t work = gl_tscan_region(s, start, end, w->fn, start, false);
    if (work < 0) continue;
    char *what = read_text(s, w->item), fix[256];
    char *msg = gl_xasprintf("`%s` stops its timer when the block ends, while GPU work may "
                             "still be running: %s", what, fix_for(s, work, fix, sizeof fix));
    free(what);
    report(ctx, s, w->item, s->classes.data[cls].enter_ev, work, msg,
           "last GPU work, not synchronized");
  }
}

/* GPU301: a wall-clock interval whose last GPU work no synchronization follows (and, in a
 * notebook, `%time` / `%%time` over such work). */
void gl_check_unsynchronized_timer(const gl_check_ctx *ctx) {
  gl_tscan_magic_timers(ctx, "time"); /* notebooks: %time, %%time */
  if (!gl_tscan_clocks_possible(ctx->model, ctx->rule)) return;
  gl_tscan s;
  gl_tscan_build(&s, ctx->src, ctx->tree, ctx->model, ctx->rule);
  check_pairs(ctx, &s, GL_TEV_WALL);
  check_withs(ctx, &s);
  gl_tscan_free(&s);
}

/* GPU302: a CPU-time interval holding GPU work. */
void gl_check_cpu_time_timer(const gl_check_ctx *ctx) {
  if (!gl_tscan_clocks_possible(ctx->model, ctx->rule)) return;
  gl_tscan s;
  gl_tscan_build(&s, ctx->src, ctx->tree, ctx->model, ctx->rule);
  check_pairs(ctx, &s, GL_TEV_CPU);
  gl_tscan_free(&s);
}
