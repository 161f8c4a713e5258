/* numba_kernel_float64_literal.c: the numba-float64-literal checks (GPU511, GPU512): Python float
 * literals that Numba types as float64 inside a CUDA kernel or device function, so the arithmetic
 * they take part in runs at the FP64 rate.
 * Owns: recognizing `@cuda.jit` definitions (numba.cuda and numba_cuda_mlir.cuda, bare or called,
 *       any import alias), classifying their explicit signature (float32, other, none), and finding
 *       in their bodies the float literals that are operands of arithmetic (`x * 2.0`, `acc +=
 *       1.0`) or that initialize a variable (`tmp = 0.0`).
 * Not: Warp kernels (Warp types a float literal as float32), host code, literals in comparisons,
 *      calls or array stores (no arithmetic of their own), integer literals, the table (checks.c).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "parse/parse.h"

#define QNAME_CAP 256
#define SHOW_MAX 60

/* What a kernel's explicit signature says about its data. */
typedef enum sigkind {
  SIG_NONE,    /* no signature: compiled lazily for whatever types the launches pass */
  SIG_FLOAT32, /* names float32 and no 64-bit floating type */
  SIG_OTHER    /* float64 on purpose, integers only, or a value we cannot read */
} sigkind;


static bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* True when word occurs in text[0, len) with no identifier character on either side. */
static bool has_word(const char *text, size_t len, const char *word) {
  size_t wl = strlen(word);
  for (size_t i = 0; i + wl <= len; i++) {
    if (memcmp(text + i, word, wl) != 0) continue;
    bool left = i > 0 && word_char(text[i - 1]);
    bool right = i + wl < len && word_char(text[i + wl]);
    if (!left && !right) return true;
  }
  return false;
}

static sigkind classify_signature(const gl_source *src, TSNode sig) {
  const char *t = src->bytes + ts_node_start_byte(sig);
  size_t len = ts_node_end_byte(sig) - ts_node_start_byte(sig);
  static const char *const wide[] = {"float64", "f8", "double", "complex128", "c16"};
  for (size_t i = 0; i < sizeof(wide) / sizeof(wide[0]); i++)
    if (has_word(t, len, wide[i])) return SIG_OTHER;
  return has_word(t, len, "float32") || has_word(t, len, "f4") ? SIG_FLOAT32 : SIG_OTHER;
}

static bool is_cuda_jit(const char *q) {
  return strcmp(q, "numba.cuda.jit") == 0 || strcmp(q, "numba_cuda_mlir.cuda.jit") == 0;
}

/* The function_definition of a decorated_definition whose decorator is a Numba CUDA jit, with
 * its signature class in *sig; a null node otherwise. */
static TSNode cuda_kernel(const gl_check_ctx *ctx, TSNode dd, sigkind *sig) {
  TSNode none = {0}, def = gl_parse_child(dd, "definition", 10);
  if (ts_node_is_null(def) || !GL_IS(def, function_definition)) return none;
  char q[QNAME_CAP];
  uint32_t n = ts_node_named_child_count(dd);
  for (uint32_t i = 0; i < n; i++) {
    TSNode d = ts_node_named_child(dd, i);
    if (!gl_parse_type_is(d, "decorator") || ts_node_named_child_count(d) == 0) continue;
    TSNode e = ts_node_named_child(d, 0), call = {0};
    if (GL_IS(e, call)) {
      call = e;
      e = gl_parse_child(e, "function", 8);
    }
    if (ts_node_is_null(e) || !gl_model_resolve(ctx->model, e, q, sizeof q) || !is_cuda_jit(q))
      continue;
    TSNode s = ts_node_is_null(call) ? none : gl_check__arg(call, 0);
    *sig = ts_node_is_null(s) ? SIG_NONE : classify_signature(ctx->src, s);
    return def;
  }
  return none;
}

/* n without its unary signs (`-x` -> `x`). */
static TSNode unsigned_part(TSNode n) {
  while (!ts_node_is_null(n) && GL_IS(n, unary_operator))
    n = gl_parse_child(n, "argument", 8);
  return n;
}

/* A float literal (`2.0`, `1e-3`, `-0.5`), not an imaginary one (`2j`). */
static bool is_float_literal(const gl_source *src, TSNode n) {
  n = unsigned_part(n);
  if (ts_node_is_null(n) || !gl_parse_type_is(n, "float")) return false;
  char last = src->bytes[ts_node_end_byte(n) - 1];
  return last != 'j' && last != 'J';
}

static bool is_number_literal(TSNode n) {
  n = unsigned_part(n);
  return !ts_node_is_null(n) && (gl_parse_type_is(n, "integer") || gl_parse_type_is(n, "float"));
}

static bool arithmetic_operator(const gl_source *src, TSNode op) {
  static const char *const ops[] = {"+", "-", "*", "/", "//", "%", "**",
                                    "+=", "-=", "*=", "/=", "//=", "%=", "**="};
  for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
    if (gl_check__text_is(src, op, ops[i])) return true;
  return false;
}

static int shown(TSNode n) {
  uint32_t len = ts_node_end_byte(n) - ts_node_start_byte(n);
  return (int)(len > SHOW_MAX ? SHOW_MAX : len);
}

/* Cut at the first line break so the message stays on one line. */
static int shown_line(const gl_source *src, TSNode n) {
  const char *t = src->bytes + ts_node_start_byte(n);
  int len = shown(n);
  for (int i = 0; i < len; i++)
    if (t[i] == '\n' || t[i] == '\r') return i;
  return len;
}

static void report(const gl_check_ctx *ctx, TSNode lit, TSNode expr, sigkind sig) {
  const gl_source *src = ctx->src;
  const char *lt = src->bytes + ts_node_start_byte(lit), *et = src->bytes + ts_node_start_byte(expr);
  int ll = shown(lit), el = shown_line(src, expr);
  char msg[640];
  snprintf(msg, sizeof msg,
           "`%.*s` in `%.*s` is a float64 constant in a Numba CUDA kernel%s: the arithmetic it "
           "takes part in runs in FP64 (float32 operands are promoted); write `float32(%.*s)` "
           "where the kernel works in float32",
           ll, lt, el, et, sig == SIG_FLOAT32 ? " whose signature is float32" : "", ll, lt);
  gl_check_report(ctx, lit, msg);
}

/* The float literal that makes node's arithmetic float64, or a null node. */
static TSNode promoting_literal(const gl_source *src, TSNode n) {
  TSNode none = {0};
  if (GL_IS(n, binary_operator)) {
    TSNode l = gl_parse_child(n, "left", 4);
    TSNode r = gl_parse_child(n, "right", 5);
    TSNode op = gl_parse_child(n, "operator", 8);
    if (ts_node_is_null(l) || ts_node_is_null(r) || !arithmetic_operator(src, op)) return none;
    if (is_float_literal(src, r) && !is_number_literal(l)) return r;
    if (is_float_literal(src, l) && !is_number_literal(r)) return l;
    return none;
  }
  if (GL_IS(n, augmented_assignment)) {
    TSNode r = gl_parse_child(n, "right", 5);
    TSNode op = gl_parse_child(n, "operator", 8);
    return !ts_node_is_null(r) && arithmetic_operator(src, op) && is_float_literal(src, r) ? r : none;
  }
  if (GL_IS(n, assignment)) {
    TSNode l = gl_parse_child(n, "left", 4);
    TSNode r = gl_parse_child(n, "right", 5);
    TSNode ty = gl_parse_child(n, "type", 4);
    if (ts_node_is_null(l) || ts_node_is_null(r) || !ts_node_is_null(ty)) return none;
    return GL_IS(l, identifier) && is_float_literal(src, r) ? r : none;
  }
  return none;
}

/* One pass over a kernel's body; nested functions and classes are not the kernel's code. */
static void scan_body(const gl_check_ctx *ctx, TSNode def, sigkind sig) {
  TSNode body = gl_parse_child(def, "body", 4);
  if (ts_node_is_null(body)) return;
  gl_check__walk s;
  gl_check__walk_init(&s, ctx->model, body);
  TSNode n;
  while (gl_check__walk_next(&s, &n)) {
    if (gl_parse_opens_scope(n) || GL_IS(n, decorated_definition)) {
      gl_check__walk_skip(&s);
      continue;
    }
    TSNode lit = promoting_literal(ctx->src, n);
    if (!ts_node_is_null(lit)) report(ctx, lit, n, sig);
  }
  gl_check__walk_free(&s);
}

static void run(const gl_check_ctx *ctx, sigkind want) {
  if (!ctx->model || !gl_source_has(ctx->src, "numba")) return;
  gl_check__walk s;
  gl_check__walk_init(&s, ctx->model, ts_tree_root_node(ctx->tree));
  TSNode n;
  while (gl_check__walk_next(&s, &n)) {
    if (!GL_IS(n, decorated_definition)) continue;
    sigkind sig = SIG_OTHER;
    TSNode def = cuda_kernel(ctx, n, &sig);
    if (ts_node_is_null(def)) continue;
    if (sig == want) scan_body(ctx, def, sig);
    gl_check__walk_skip(&s);
  }
  gl_check__walk_free(&s);
}

/* GPU511: float literals that make arithmetic float64 inside a Numba CUDA kernel whose
 * signature declares float32. */
void gl_check_numba_kernel_float64_literal(const gl_check_ctx *ctx) { run(ctx, SIG_FLOAT32); }

/* GPU512: the same in kernels compiled lazily, with no signature, whose data types are not
 * known. */
void gl_check_numba_lazy_kernel_float64_literal(const gl_check_ctx *ctx) { run(ctx, SIG_NONE); }
