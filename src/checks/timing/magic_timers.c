/* magic_timers.c: `%time` / `%%time` / `%timeit` / `%%timeit` over GPU work nothing waits for
 * (gl_tscan_magic_timers, timer_scan.h; for GPU301 and GPU304).
 * Owns: asking the timing index about the code a notebook's timing magic times,
 *       and the finding at the magic, whose text the parser never saw (it was blanked).
 * Not: recognizing magics (notebook_magic.c), wall-clock pairs (unsynchronized_timer.c),
 *      timeit calls (timeit_without_sync.c).
 * Threads: no state; reads one file's borrowed tree, source and model. */
#include "checks/timing/timer_scan.h"

#include <stdio.h>
#include <string.h>

#include "notebook/notebook.h"


static void report(const gl_check_ctx *ctx, const gl_tscan *s, const gl_nb_magic *m, int32_t ev) {
  const gl_source *src = ctx->src;
  const gl_tevent *e = &s->events.data[ev];
  uint32_t a = e->start, b = e->pos;
  int len = (int)(b - a > 60 ? 60 : b - a);
  const char *nl = memchr(src->bytes + a, '\n', (size_t)len);
  if (nl) len = (int)(nl - (src->bytes + a));
  char msg[640], fix[256];
  const char *f = gl_tscan_fix(gl_model_libmodels(ctx->model), gl_tscan_event_lib(s, ev),
                               GL_TFIX_END, fix, sizeof fix);
  snprintf(msg, sizeof msg,
           "`%s%s` times GPU work that nothing waits for (`%.*s`), so it measures the launch, not "
           "the work; %s",
           m->kind == GL_NB_CELL_MAGIC ? "%%" : "%", m->name, len, src->bytes + a,
           f ? f : "end it with a synchronization of the GPU library it uses");
  gl_check_report_bytes(ctx, m->start, m->end, msg, a, b,
                        "the last GPU work it times, not synchronized");
}

static bool wanted(const gl_nb_magic *m, const char *name) {
  return (m->kind == GL_NB_LINE_MAGIC || m->kind == GL_NB_CELL_MAGIC) && strcmp(m->name, name) == 0;
}

void gl_tscan_magic_timers(const gl_check_ctx *ctx, const char *name) {
  const gl_notebook *nb = ctx->src->notebook;
  if (!nb || !ctx->model) return;
  size_t i = 0;
  while (i < nb->magics.len && !wanted(&nb->magics.data[i], name)) i++;
  if (i == nb->magics.len) return;
  gl_tscan s;
  gl_tscan_build(&s, ctx->src, ctx->tree, ctx->model, ctx->rule);
  for (; i < nb->magics.len; i++) {
    const gl_nb_magic *m = &nb->magics.data[i];
    if (!wanted(m, name)) continue;
    int32_t ev = gl_tscan_region(&s, m->end, m->body_end, 0, m->body_end, false);
    if (ev >= 0) report(ctx, &s, m, ev);
  }
  gl_tscan_free(&s);
}
