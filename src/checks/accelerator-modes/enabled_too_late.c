/* enabled_too_late.c: the checks cudf-pandas-enabled-too-late (GPU701) and
 * cuml-accel-enabled-too-late (GPU702): an accelerator mode switched on after the library it
 * accelerates was imported, which silently leaves that library on the CPU.
 * Owns: collecting the file's imports, its statement-level enabling calls (`cudf.pandas.install()`,
 *       `cuml.accel.install()`, any alias) and its notebook `%load_ext` magics with where each runs
 *       (run_order.h), the ordering decision, and the finding with the import as related location.
 * Not: the walk (run_order.c), finding magics (notebook_magic.c), the table (checks.c).
 * Threads: no state; reads one file's borrowed tree, source and model. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "checks/run_order.h"
#include "notebook/notebook.h"
#include "parse/parse.h"

#define QCAP 160
#define TEXT_MAX 60

typedef struct spec {
  const char *install;            /* qualified name of the enabling function */
  const char *ext;                /* the IPython extension that enables it */
  const char *const *modules;     /* what it must be enabled before (and their submodules) */
} spec;

static const char *const pandas_modules[] = {"pandas", NULL};
static const char *const sklearn_modules[] = {"sklearn", "umap", "hdbscan", NULL};
static const spec cudf_spec = {"cudf.pandas.install", "cudf.pandas", pandas_modules};
static const spec cuml_spec = {"cuml.accel.install", "cuml.accel", sklearn_modules};

typedef struct ev {
  gl_check__pos pos;
  TSNode node;          /* an import's module path, or the enabling call; null for a magic */
  uint32_t start, end;  /* its bytes (a magic: the blanked magic) */
  bool enable;
  char name[QCAP];      /* an import's module */
} ev;

typedef struct scan {
  const gl_check_ctx *ctx;
  const spec *sp;
  gl_vec(ev) evs;
} scan;


/* name is one of sp's modules or a submodule of one. */
static bool watched(const spec *sp, const char *name) {
  for (const char *const *m = sp->modules; *m; m++) {
    size_t len = strlen(*m);
    if (strncmp(name, *m, len) == 0 && (name[len] == '\0' || name[len] == '.')) return true;
  }
  return false;
}

static ev *add(scan *s, TSNode n, const gl_check__pos *pos, bool enable) {
  ev *e = gl_vec_grow(&s->evs);
  e->pos = *pos;
  e->pos.byte = ts_node_start_byte(n);
  e->node = n;
  e->start = ts_node_start_byte(n);
  e->end = ts_node_end_byte(n);
  e->enable = enable;
  return e;
}

static void add_module(scan *s, TSNode dotted, const gl_check__pos *pos) {
  char q[QCAP];
  if (ts_node_is_null(dotted) || !gl_parse_type_is(dotted, "dotted_name")) return;
  if (!gl_model_resolve(s->ctx->model, dotted, q, sizeof q) || !watched(s->sp, q)) return;
  ev *e = add(s, dotted, pos, false);
  memcpy(e->name, q, sizeof q);
}

/* `import a.b, c as d`: each module path. */
static void add_imports(scan *s, TSNode stmt, const gl_check__pos *pos) {
  uint32_t n = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(stmt, i);
    if (GL_IS(c, aliased_import)) c = gl_parse_child(c, "name", 4);
    add_module(s, c, pos);
  }
}

/* `f(...)` or `x = f(...)` as a whole statement: the call, else a null node. */
static TSNode statement_call(TSNode stmt) {
  TSNode none = {0};
  if (ts_node_named_child_count(stmt) != 1) return none;
  TSNode e = ts_node_named_child(stmt, 0);
  if (GL_IS(e, assignment)) e = gl_parse_child(e, "right", 5);
  return !ts_node_is_null(e) && GL_IS(e, call) ? e : none;
}

static void add_enable(scan *s, TSNode call, const gl_check__pos *pos) {
  char q[QCAP];
  if (ts_node_is_null(call)) return;
  TSNode fn = gl_parse_child(call, "function", 8);
  if (gl_model_resolve(s->ctx->model, fn, q, sizeof q) && strcmp(q, s->sp->install) == 0)
    add(s, call, pos, true);
}

static bool on_node(void *user, TSNode n, const gl_check__pos *pos) {
  scan *s = user;
  if (GL_IS(n, import_statement)) add_imports(s, n, pos);
  else if (GL_IS(n, import_from_statement))
    add_module(s, gl_parse_child(n, "module_name", 11), pos);
  else if (gl_parse_type_is(n, "expression_statement")) add_enable(s, statement_call(n), pos);
  else return true;
  return false;
}

/* `%load_ext <ext>` (the extension is the magic's first word). */
static bool loads_ext(const gl_nb_magic *m, const char *ext) {
  if (m->kind != GL_NB_LINE_MAGIC || strcmp(m->name, "load_ext") != 0 || !m->args) return false;
  size_t len = strlen(ext);
  return strncmp(m->args, ext, len) == 0 && (m->args[len] == '\0' || m->args[len] == ' ' ||
                                             m->args[len] == '\t');
}

static void add_magics(scan *s) {
  const gl_notebook *nb = s->ctx->src->notebook;
  for (size_t i = 0; nb && i < nb->magics.len; i++) {
    const gl_nb_magic *m = &nb->magics.data[i];
    if (!loads_ext(m, s->sp->ext)) continue;
    ev *e = gl_vec_grow(&s->evs);
    gl_check__pos_module(&e->pos, m->start);
    e->start = m->start;
    e->end = m->end;
    e->enable = true;
  }
}

/* Whether the file can enable the accelerator at all: a call spelt `install` or the magic. */
static bool may_enable(const gl_check_ctx *ctx, const spec *sp) {
  const gl_notebook *nb = ctx->src->notebook;
  for (size_t i = 0; nb && i < nb->magics.len; i++)
    if (loads_ext(&nb->magics.data[i], sp->ext)) return true;
  return gl_source_has(ctx->src, "install");
}

/* Some enabling call or magic surely ran before imp. */
static bool covered(const scan *s, const ev *imp) {
  for (size_t i = 0; i < s->evs.len; i++)
    if (s->evs.data[i].enable && gl_check__order_before(&s->evs.data[i].pos, &imp->pos))
      return true;
  return false;
}

/* The first import that surely ran, uncovered, before en (in every branch en runs in); NULL when
 * there is none. */
static const ev *too_late(const scan *s, const ev *en) {
  const ev *first = NULL;
  for (size_t i = 0; i < s->evs.len; i++) {
    const ev *imp = &s->evs.data[i];
    if (imp->enable || !gl_check__order_dominates(&imp->pos, &en->pos) || covered(s, imp)) continue;
    if (!first || imp->start < first->start) first = imp;
  }
  return first;
}

static void report(const scan *s, const ev *en, const ev *imp) {
  const gl_check_ctx *ctx = s->ctx;
  const gl_source *src = ctx->src;
  char where[64], msg[1024], lib[32];
  gl_check_line_label(ctx, imp->start, where, sizeof where);
  snprintf(lib, sizeof lib, "%.31s", imp->name);
  char *dot = strchr(lib, '.');
  if (dot) *dot = '\0';
  int len;
  const char *code = gl_check__written(src, en->start, en->end, TEXT_MAX, &len);
  if (ts_node_is_null(en->node))
    snprintf(msg, sizeof msg,
             "`%.*s` runs after %s was imported (%s), so %s stays on the CPU: restart the kernel "
             "and load the extension before anything imports %s",
             len, code, lib, where, lib, lib);
  else
    snprintf(msg, sizeof msg,
             "`%.*s` runs after %s was imported (%s), so %s stays on the CPU: enable %s before "
             "the first import of %s, or run the program with `python -m %s`",
             len, code, lib, where, lib, s->sp->ext, lib, s->sp->ext);
  char rel[QCAP + 40];
  snprintf(rel, sizeof rel, "%s imported here", imp->name);
  const char *rel_msg[] = {rel};
  if (!ts_node_is_null(en->node)) {
    gl_check_report_related(ctx, en->node, msg, &imp->node, rel_msg, 1);
    return;
  }
  gl_check_report_bytes(ctx, en->start, en->end, msg, imp->start, imp->end, rel);
}

static void run(const gl_check_ctx *ctx, const spec *sp) {
  if (!ctx->model || !may_enable(ctx, sp)) return;
  scan s = {.ctx = ctx, .sp = sp};
  gl_check__order_walk(ctx->model, ctx->src, ctx->tree, GL_CHECK__STATEMENTS, on_node, &s);
  add_magics(&s);
  for (size_t i = 0; i < s.evs.len; i++) {
    if (!s.evs.data[i].enable) continue;
    const ev *imp = too_late(&s, &s.evs.data[i]);
    if (imp) report(&s, &s.evs.data[i], imp);
  }
  gl_vec_free(&s.evs);
}

/* Reports each `cudf.pandas.install()` call (any import alias) and each notebook
 * `%load_ext cudf.pandas` that surely runs after an import of pandas (`import pandas`,
 * `from pandas... import`, in a scope that encloses the call: the module, or the function
 * the call is in or nested in), unless an earlier enabling call or magic surely ran before
 * that import. Imports inside `if TYPE_CHECKING:`, and in an `if` / `match` branch that does
 * not also hold the call, do not count; pandas imported inside a function other than the one
 * that enables (or one enclosing it) does not count. The finding is at the call or magic, with
 * the import as related location. */
void gl_check_cudf_pandas_enabled_too_late(const gl_check_ctx *ctx) { run(ctx, &cudf_spec); }

/* The same for `cuml.accel.install()` / `%load_ext cuml.accel` after an import of sklearn,
 * umap or hdbscan. */
void gl_check_cuml_accel_enabled_too_late(const gl_check_ctx *ctx) { run(ctx, &cuml_spec); }
