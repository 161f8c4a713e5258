/* implicit_sync.c: the implicit-sync-in-hot-code check (GPU211): operations in hot code that make
 * the host wait for the device without reading anything the code asked for: a call whose result
 * size depends on device data (`x.nonzero()`, one-argument `torch.where`, `torch.unique`,
 * `repeat_interleave` of device repeats without `output_size=`), a boolean-mask read `x[x > 0]`,
 * and objects that validate device arguments on the host (`Normal(mu, sigma)` with the default
 * `validate_args`).
 * Owns: the reading of the models' sync facts on one call (`syncs`, `syncs-args`, `syncs-on`,
 *       `syncs-unless`: docs/models.md), the boolean-mask test, the messages.
 * Not: which calls sync (the models under rules/models), hotness (gl_model_hot), explicit reads (GPU201),
 *      device values as conditions (GPU202), the reporting helper (checks.c).
 * Threads: no state; reads the borrowed tree, source and model of one file. */
#include "checks/checks_int.h"

#include <stdio.h>
#include <string.h>

#include "checks/node.h"
#include "checks/walk.h"
#include "parse/parse.h"

#define MASK_DEPTH 4

/* Positional arguments of a call, or UINT32_MAX when a splat makes the count unknown. */
static uint32_t positional_count(TSNode call) {
  uint32_t n = 0;
  for (;; n++) {
    if (ts_node_is_null(gl_check__arg(call, n))) break;
  }
  TSNode args = gl_parse_child(call, "arguments", 9);
  uint32_t k = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < k; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (gl_parse_type_is(a, "list_splat") || gl_parse_type_is(a, "dictionary_splat"))
      return UINT32_MAX;
  }
  return n;
}

/* True when some argument of call (positional, or a keyword's value) is device data. */
static bool any_device_arg(const gl_model *m, TSNode call) {
  TSNode args = gl_parse_child(call, "arguments", 9);
  uint32_t k = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < k; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (gl_parse_type_is(a, "keyword_argument")) a = gl_parse_child(a, "value", 5);
    if (gl_model_prov(m, a) == GL_PROV_DEVICE) return true;
  }
  return false;
}

/* The data whose device values the sync waits for: the argument `syncs-on` names, else the
 * receiver of a method, else the first argument. */
static TSNode synced_data(const gl_model *m, const gl_api_entry *e, TSNode call) {
  if (e->syncs_on) return gl_check__arg(call, (uint32_t)(e->syncs_on - 1));
  TSNode fn = gl_parse_child(call, "function", 8);
  char q[256];
  if (GL_IS(fn, attribute) && !gl_model_resolve(m, fn, q, sizeof q))
    return gl_parse_child(fn, "object", 6);
  return gl_check__arg(call, 0);
}

static void report_call(const gl_check_ctx *ctx, const gl_api_entry *e, TSNode call) {
  char msg[600];
  int len;
  const char *t = gl_check__written(ctx->src, ts_node_start_byte(call), ts_node_end_byte(call),
                                    60, &len);
  if (e->syncs == GL_SYNCS_VALIDATION)
    snprintf(msg, sizeof msg,
             "`%.*s` checks its device arguments on the host (the default `validate_args`), "
             "which waits for the GPU on every step; pass `%s=False` once the code is "
             "tested",
             len, t, e->syncs_unless[0] ? e->syncs_unless : "validate_args");
  else if (e->syncs == GL_SYNCS_DATA_SIZE)
    snprintf(msg, sizeof msg,
             "`%.*s` makes a result whose size depends on device data, so the host waits for the "
             "GPU to learn it on every step; keep shapes static (`torch.where(mask, x, 0)`, "
             "`masked_fill`%s) or move it out of the hot code",
             len, t, e->syncs_unless[0] ? ", or pass the known size" : "");
  else
    snprintf(msg, sizeof msg,
             "`%.*s` synchronizes with the GPU on every step; move it out of the hot code", len,
             t);
  gl_check_report(ctx, call, msg);
}

/* A call the models say synchronizes, under the conditions they give. */
/* Hot: on every iteration of a hot loop, not a transfer the loop needs (asked last: it walks). */
static bool hot(const gl_model *m, TSNode n) {
  return gl_model_hot(m, n) && !gl_model_needed_transfer(m, n);
}

static void check_call(const gl_check_ctx *ctx, TSNode call) {
  const gl_model *m = ctx->model;
  const gl_api_entry *e = gl_model_call_entry(m, call);
  if (!e || e->syncs == GL_SYNCS_NONE) return;
  if (e->syncs_args && positional_count(call) > e->syncs_args) return;
  if (e->syncs_unless[0]) {
    TSNode kw = gl_check__kwarg(ctx->src, call, e->syncs_unless);
    if (!ts_node_is_null(kw) && !gl_parse_type_is(kw, "true")) return;
  }
  bool device = e->syncs == GL_SYNCS_DATA_SIZE
                    ? gl_model_prov(m, synced_data(m, e, call)) == GL_PROV_DEVICE
                    : any_device_arg(m, call);
  if (device && hot(m, call)) report_call(ctx, e, call);
}

/* A boolean mask of device data: a comparison with a device operand, `~` of one, or `&` / `|`
 * of such. */
static bool device_mask(const gl_model *m, const gl_source *src, TSNode e, int depth) {
  if (depth > MASK_DEPTH || ts_node_is_null(e)) return false;
  if (GL_IS(e, parenthesized_expression)) return device_mask(m, src, ts_node_named_child(e, 0), depth + 1);
  if (GL_IS(e, comparison_operator)) {
    if (gl_model_prov(m, e) != GL_PROV_DEVICE) return false;
    /* `is`, `in` and friends give a Python bool */
    uint32_t k = ts_node_child_count(e);
    for (uint32_t i = 0; i < k; i++) {
      TSNode op = ts_node_child(e, i);
      if (!ts_node_is_named(op) && (gl_parse_type_is(op, "is") || gl_parse_type_is(op, "in") ||
                                    gl_parse_type_is(op, "not")))
        return false;
    }
    return true;
  }
  if (GL_IS(e, unary_operator)) {
    TSNode op = gl_parse_child(e, "operator", 8);
    return gl_check__text_is(src, op, "~") &&
           device_mask(m, src, gl_parse_child(e, "argument", 8), depth + 1);
  }
  if (GL_IS(e, binary_operator)) {
    TSNode op = gl_parse_child(e, "operator", 8);
    if (!gl_check__text_is(src, op, "&") && !gl_check__text_is(src, op, "|")) return false;
    return device_mask(m, src, gl_parse_child(e, "left", 4), depth + 1) &&
           device_mask(m, src, gl_parse_child(e, "right", 5), depth + 1);
  }
  return false;
}

typedef struct mask_name {
  const gl_check_ctx *ctx;
  TSNode name;
  size_t bindings;
  bool all;
} mask_name;

static void visit_binding(TSNode n, gl_check__walk *w, void *data) {
  mask_name *mn = data;
  (void)w;
  if (!mn->all) return;
  if (GL_IS(n, augmented_assignment) || gl_parse_type_is(n, "for_statement")) {
    TSNode left = gl_parse_child(n, "left", 4);
    if (GL_IS(left, identifier) && gl_check__same_text(mn->ctx->src, left, mn->name)) mn->all = false;
    return;
  }
  if (!GL_IS(n, assignment)) return;
  TSNode left = gl_parse_child(n, "left", 4);
  if (GL_IS(left, identifier)) {
    if (!gl_check__same_text(mn->ctx->src, left, mn->name)) return;
    mn->bindings++;
    if (!device_mask(mn->ctx->model, mn->ctx->src, gl_parse_child(n, "right", 5), 0))
      mn->all = false;
  } else {
    /* `a, mask = ...`: unpacked, not known */
    uint32_t k = ts_node_named_child_count(left);
    for (uint32_t i = 0; i < k; i++)
      if (gl_check__same_text(mn->ctx->src, ts_node_named_child(left, i), mn->name))
        mn->all = false;
  }
}

/* A name every binding of which, in the def around it, is a device mask (`valid = y >= 0`). */
static bool device_mask_name(const gl_check_ctx *ctx, TSNode name) {
  TSNode def = ts_node_parent(name);
  while (!ts_node_is_null(def) && !GL_IS(def, function_definition)) def = ts_node_parent(def);
  if (ts_node_is_null(def)) return false;
  mask_name mn = {ctx, name, 0, true};
  gl_check__body_each(ctx->model, def, visit_binding, &mn);
  return mn.all && mn.bindings > 0;
}

/* True when subscript n is written to or deleted without a wait: `x[mask] = 0.0` (a Python
 * scalar: a masked fill), `x[mask] += 1`, `del`. A store of device data through the mask
 * (`x[mask] = pad`) waits like a read (index_put_ turns the mask into indices), so it is not
 * "stored" here. */
static bool stored(const gl_model *m, TSNode n) {
  TSNode p = ts_node_parent(n);
  if (ts_node_is_null(p)) return false;
  if (GL_IS(p, assignment) || GL_IS(p, augmented_assignment)) {
    TSNode left = gl_parse_child(p, "left", 4);
    if (!gl_check__contains(left, n)) return false;
    return !GL_IS(p, assignment) || !ts_node_eq(left, n) ||
           gl_model_prov(m, gl_parse_child(p, "right", 5)) != GL_PROV_DEVICE;
  }
  return gl_parse_type_is(p, "delete_statement") || gl_parse_type_is(p, "pattern_list") ||
         gl_parse_type_is(p, "tuple_pattern");
}

static void check_subscript(const gl_check_ctx *ctx, TSNode n) {
  const gl_model *m = ctx->model;
  TSNode value = gl_parse_child(n, "value", 5);
  if (gl_model_prov(m, value) != GL_PROV_DEVICE || stored(m, n)) return;
  /* the value's type says whether a masked read waits: its subscript entry's "syncs" */
  const gl_api_entry *e = gl_libmodels_subscript(gl_model_libmodels(m),
                                                 gl_model_device_type(m, value));
  if (!e || e->syncs != GL_SYNCS_DATA_SIZE) return;
  if (ts_node_named_child_count(n) != 2) return;   /* the value and one index */
  TSNode index = ts_node_named_child(n, 1);
  bool mask = GL_IS(index, identifier) ? device_mask_name(ctx, index)
                                         : device_mask(m, ctx->src, index, 0);
  if (!mask || !hot(m, n)) return;
  char msg[600];
  int vl, il;
  const char *v = gl_check__written(ctx->src, ts_node_start_byte(value), ts_node_end_byte(value),
                                    40, &vl);
  const char *i = gl_check__written(ctx->src, ts_node_start_byte(index), ts_node_end_byte(index),
                                    40, &il);
  TSNode p = ts_node_parent(n);
  bool store = GL_IS(p, assignment) && ts_node_eq(gl_parse_child(p, "left", 4), n);
  snprintf(msg, sizeof msg,
           "`%.*s[%.*s]` %s by a boolean mask on the device, which needs the count of true "
           "elements, so the host waits for the GPU to count them on every step; keep the shape "
           "(`torch.where(mask, %s, 0)`, `x * mask`, a masked sum) or move it out of the hot code",
           vl, v, il, i, store ? "assigns device data" : "selects",
           store ? "value" : "x");
  gl_check_report(ctx, n, msg);
}

static void visit(TSNode n, gl_check__walk *w, void *data) {
  const gl_check_ctx *ctx = data;
  (void)w;
  if (GL_IS(n, call))
    check_call(ctx, n);
  else if (GL_IS(n, subscript))
    check_subscript(ctx, n);
}

/* Calls the models mark `syncs` and boolean-mask reads of device data, in hot code. */
void gl_check_implicit_sync_in_hot_code(const gl_check_ctx *ctx) {
  if (!ctx->model || !gl_model_has_provenance(ctx->model)) return;
  gl_check__each(ctx->model, ts_tree_root_node(ctx->tree), visit, (void *)ctx);
}
