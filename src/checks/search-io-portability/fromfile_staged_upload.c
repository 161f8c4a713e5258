/* fromfile_staged_upload.c: the fromfile-staged-upload (GPU861) and host-reader-then-upload
 * (GPU863) checks: data read from a file into host memory, then copied to the GPU.
 * Owns: recognising the host reads (np.fromfile, np.memmap, np.frombuffer over `open(p).read()`,
 *       `f.read()` of a `with open(...) as f`, `Path(p).read_bytes()`, cp.fromfile; pandas
 *       readers), following them through method chains and names bound earlier in the same scope,
 *       and the uploads that take them (calls with the h2d role; cudf.from_pandas, cudf.DataFrame /
 *       Series, cuGraph from_pandas_edgelist).
 * Not: names bound in another scope (free variables are not followed), reads in other files.
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "checks/search-io-portability/binds.h"
#include "parse/parse.h"

#define QCAP 256
#define MAX_UNWRAP 12

enum { K_NONE = 0, K_READ = 1, K_FILE = 2 };

typedef struct sstate {
  const gl_check_ctx *ctx;
  bool pandas;           /* GPU863 (pandas readers) rather than GPU861 (raw reads) */
  gl_vbinds binds;
  uint32_t scope;        /* of the node being looked at */
} sstate;

/* Host-side methods that keep the data what it was (a reshaped file read is still a file read). */
static const char *const keep_methods[] = {
    "reshape", "astype", "view", "ravel", "flatten", "squeeze", "copy", "byteswap",
    "fillna", "dropna", "rename", "reset_index", "set_index", "sort_values", NULL};

static bool in_list(const char *s, const char *const *list) {
  for (; *list; list++)
    if (strcmp(s, *list) == 0) return true;
  return false;
}

static bool resolve(const sstate *st, TSNode n, char *q) {
  return gl_model_resolve(st->ctx->model, n, q, QCAP);
}

/* `open(...)` with the builtin open. */
static bool is_open_call(const sstate *st, TSNode n) {
  if (!GL_IS(n, call)) return false;
  TSNode fn = gl_parse_child(n, "function", 8);
  return GL_IS(fn, identifier) && gl_check__text_is(st->ctx->src, fn, "open") &&
         gl_model_is_builtin(st->ctx->model, fn);
}

/* A file's whole bytes: `open(p).read()`, `f.read()` of a with-bound open file,
 * `pathlib.Path(p).read_bytes()`. */
static bool is_file_bytes(const sstate *st, TSNode n) {
  char meth[32], q[QCAP];
  TSNode recv;
  if (!gl_check__method_name(st->ctx->src, n, meth, sizeof meth, &recv)) return false;
  if (strcmp(meth, "read") == 0) {
    if (is_open_call(st, recv)) return true;
    if (!GL_IS(recv, identifier)) return false;
    const gl_vbind *b =
        gl_vbind_get(&st->binds, st->ctx->src, st->scope, recv, ts_node_start_byte(recv));
    return b && b->kind == K_FILE;
  }
  if (strcmp(meth, "read_bytes") != 0 || !GL_IS(recv, call)) return false;
  TSNode fn = gl_parse_child(recv, "function", 8);
  return resolve(st, fn, q) && strcmp(q, "pathlib.Path") == 0;
}

static bool pandas_reader(const sstate *st, TSNode call, const char *q) {
  static const char *const readers[] = {"pandas.read_csv", "pandas.read_parquet",
                                        "pandas.read_json", "pandas.read_orc", NULL};
  static const char *const host_only[] = {"chunksize", "iterator", "converters", "engine", NULL};
  if (!in_list(q, readers)) return false;
  for (const char *const *k = host_only; *k; k++)
    if (!ts_node_is_null(gl_check__kwarg(st->ctx->src, call, *k))) return false;
  return true;
}

/* A call the expression unwraps through, or the read itself: 1 read, 0 not, -1 go to *next. */
static int classify_call(const sstate *st, TSNode call, TSNode *next) {
  char q[QCAP], meth[32];
  TSNode fn = gl_parse_child(call, "function", 8), recv;
  if (resolve(st, fn, q)) {
    if (st->pandas) return pandas_reader(st, call, q) ? 1 : 0;
    if (strcmp(q, "numpy.fromfile") == 0 || strcmp(q, "numpy.memmap") == 0) return 1;
    if (strcmp(q, "numpy.frombuffer") == 0) {
      TSNode a = gl_check__arg(call, 0);
      return !ts_node_is_null(a) && is_file_bytes(st, a) ? 1 : 0;
    }
    if (strcmp(q, "torch.from_numpy") != 0 && strcmp(q, "numpy.ascontiguousarray") != 0)
      return 0;
    *next = gl_check__arg(call, 0);
    return ts_node_is_null(*next) ? 0 : -1;
  }
  if (!gl_check__method_name(st->ctx->src, call, meth, sizeof meth, &recv)) return 0;
  if (!in_list(meth, keep_methods)) return 0;
  *next = recv;
  return -1;
}

/* `df["a"]` or `df[["a", "b"]]`: picking columns keeps a frame what it was, filtering rows
 * (`df[df.x > 0]`) is work done in pandas. */
static bool column_pick(TSNode sub) {
  TSNode idx = gl_parse_child(sub, "subscript", 9);
  if (gl_parse_type_is(idx, "string")) return true;
  if (!gl_parse_type_is(idx, "list")) return false;
  uint32_t n = ts_node_named_child_count(idx);
  for (uint32_t i = 0; i < n; i++)
    if (!gl_parse_type_is(ts_node_named_child(idx, i), "string")) return false;
  return n > 0;
}

/* The read call whose data the expression e holds, or a null node. */
static TSNode staged_read(const sstate *st, TSNode e) {
  TSNode none = {0};
  for (int i = 0; i < MAX_UNWRAP && !ts_node_is_null(e); i++) {
    if (GL_IS(e, parenthesized_expression)) {
      e = ts_node_named_child(e, 0);
    } else if (GL_IS(e, subscript)) {
      if (st->pandas && !column_pick(e)) return none;
      e = gl_parse_child(e, "value", 5);
    } else if (GL_IS(e, identifier)) {
      const gl_vbind *b =
          gl_vbind_get(&st->binds, st->ctx->src, st->scope, e, ts_node_start_byte(e));
      return b && b->kind == K_READ ? b->node : none;
    } else if (GL_IS(e, call)) {
      TSNode next = {0};
      int r = classify_call(st, e, &next);
      if (r == 1) return e;
      if (r == 0) return none;
      e = next;
    } else {
      return none;
    }
  }
  return none;
}

/* Bindings: `x = <read>` records the read, any other binding of a name forgets it. */
static void note_binding(sstate *st, TSNode n) {
  const gl_source *src = st->ctx->src;
  uint32_t end = ts_node_end_byte(n);
  TSNode left = gl_parse_child(n, "left", 4);
  if (GL_IS(n, assignment) && GL_IS(left, identifier)) {
    TSNode right = gl_parse_child(n, "right", 5);
    TSNode rd = ts_node_is_null(right) ? right : staged_read(st, right);
    gl_vbind_set(&st->binds, src, st->scope, left, end, ts_node_is_null(rd) ? K_NONE : K_READ,
                 rd);
  } else if (GL_IS(n, assignment) || GL_IS(n, augmented_assignment) ||
             gl_parse_type_is(n, "for_statement")) {
    gl_vbind_kill_target(&st->binds, src, st->scope, left, end);
  } else if (gl_parse_type_is(n, "as_pattern")) {
    TSNode alias = gl_parse_child(n, "alias", 5);
    TSNode target =
        gl_parse_type_is(alias, "as_pattern_target") ? ts_node_named_child(alias, 0) : alias;
    TSNode value = ts_node_named_child(n, 0);
    if (GL_IS(target, identifier))
      gl_vbind_set(&st->binds, src, st->scope, target, end,
                   is_open_call(st, value) ? K_FILE : K_NONE, value);
  } else if (gl_parse_type_is(n, "named_expression")) {
    TSNode name = gl_parse_child(n, "name", 4);
    TSNode value = gl_parse_child(n, "value", 5);
    TSNode rd = ts_node_is_null(value) ? value : staged_read(st, value);
    if (GL_IS(name, identifier))
      gl_vbind_set(&st->binds, src, st->scope, name, end, ts_node_is_null(rd) ? K_NONE : K_READ,
                   rd);
  }
}

static void report(const sstate *st, TSNode upload, TSNode read) {
  const gl_source *src = st->ctx->src;
  char up[96], rd[96], where[48], msg[640];
  TSNode ufn = gl_parse_child(upload, "function", 8);
  TSNode rfn = gl_parse_child(read, "function", 8);
  gl_check__text(src, ufn, up, sizeof up);
  gl_check__text(src, rfn, rd, sizeof rd);
  gl_check_line_label(st->ctx, ts_node_start_byte(read), where, sizeof where);
  if (st->pandas)
    snprintf(msg, sizeof msg,
             "`%s` (%s) parses the file on the CPU and `%s` then copies the frame to the GPU; "
             "read it with the matching `cudf.read_*` function, which parses on the GPU",
             rd, where, up);
  else
    snprintf(msg, sizeof msg,
             "`%s` (%s) reads the file into host memory and `%s` then copies it to the GPU; "
             "KvikIO reads it straight into device memory (`kvikio.CuFile(path, \"r\").read(buf)`)",
             rd, where, up);
  const char *rel = st->pandas ? "the file is parsed on the host here"
                               : "the file is read into host memory here";
  gl_check_report_related(st->ctx, upload, msg, &read, &rel, 1);
}

static void report_cp_fromfile(const sstate *st, TSNode call) {
  char fn[96], msg[512];
  gl_check__text(st->ctx->src, gl_parse_child(call, "function", 8), fn, sizeof fn);
  snprintf(msg, sizeof msg,
           "`%s` reads the file with NumPy into host memory and then copies it to the GPU; "
           "KvikIO reads it straight into device memory (`kvikio.CuFile(path, \"r\").read(buf)`)",
           fn);
  gl_check_report(st->ctx, call, msg);
}

/* The data an upload call copies: `cp.asarray(x)` -> x, `t.cuda()` / `t.to("cuda")` -> t. */
static TSNode upload_source(const sstate *st, TSNode call) {
  char q[QCAP];
  TSNode fn = gl_parse_child(call, "function", 8);
  if (st->pandas) return gl_check__arg(call, 0);
  if (GL_IS(fn, attribute) && !resolve(st, fn, q))
    return gl_parse_child(fn, "object", 6);
  return gl_check__arg(call, 0);
}

static bool is_frame_upload(const sstate *st, TSNode call) {
  static const char *const ups[] = {"cudf.from_pandas", "cudf.DataFrame", "cudf.Series",
                                    "cudf.DataFrame.from_pandas", "cudf.Series.from_pandas",
                                    "cugraph.from_pandas_edgelist", NULL};
  char q[QCAP], meth[32];
  TSNode fn = gl_parse_child(call, "function", 8), recv;
  if (resolve(st, fn, q)) return in_list(q, ups);
  return gl_check__method_name(st->ctx->src, call, meth, sizeof meth, &recv) &&
         strcmp(meth, "from_pandas_edgelist") == 0;
}

static void look_at_call(sstate *st, TSNode call) {
  char q[QCAP];
  if (st->pandas) {
    if (!is_frame_upload(st, call)) return;
  } else {
    if (!(gl_model_roles(st->ctx->model, call) & GL_ROLE_H2D)) return;
    TSNode fn = gl_parse_child(call, "function", 8);
    if (resolve(st, fn, q) && strcmp(q, "cupy.fromfile") == 0) {
      report_cp_fromfile(st, call);
      return;
    }
  }
  TSNode srcn = upload_source(st, call);
  if (ts_node_is_null(srcn)) return;
  TSNode rd = staged_read(st, srcn);
  if (!ts_node_is_null(rd)) report(st, call, rd);
}

static void run(const gl_check_ctx *ctx, bool pandas) {
  if (!ctx->model) return;
  const char *gate = pandas ? "pandas" : "numpy";
  if (!gl_source_has(ctx->src, gate) && !gl_source_has(ctx->src, "fromfile")) return;
  sstate st = {.ctx = ctx, .pandas = pandas};
  gl_check__walk s;
  gl_check__walk_init(&s, ctx->model, ts_tree_root_node(ctx->tree));
  TSNode n;
  while (gl_check__walk_next(&s, &n)) {
    st.scope = gl_vbind_scope(&s);
    if (GL_IS(n, call)) look_at_call(&st, n);
    else note_binding(&st, n);
  }
  gl_check__walk_free(&s);
  gl_vec_free(&st.binds);
}

/* A raw file read into host memory (np.fromfile, np.memmap, np.frombuffer of a file's bytes,
 * cp.fromfile) whose result an h2d call of the same scope copies to the GPU. */
void gl_check_fromfile_staged_upload(const gl_check_ctx *ctx) { run(ctx, false); }

/* A pandas reader (read_csv / read_parquet / read_json / read_orc) whose frame goes straight
 * into cudf.from_pandas / cudf.DataFrame / a cuGraph from_pandas_edgelist in the same scope. */
void gl_check_host_reader_then_upload(const gl_check_ctx *ctx) { run(ctx, true); }
