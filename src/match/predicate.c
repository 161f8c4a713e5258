/* predicate.c: validating, compiling and evaluating the predicates of query patterns.
 * Owns: the predicate table and argument shapes, PCRE2 compilation (+ JIT) of regex arguments,
 *       role and type names checked and compiled to bits and ids, rule-file positions of
 *       predicate errors, and the per-match evaluation (provenance predicates read the model's
 *       per-node record: no walk per match).
 * Not: pattern -> rule mapping, findings (match.c); the meaning of names (model.c).
 * Threads: compile at start-up; eval from any worker with its own gl_pred_env. */
#include "match/predicate.h"

#include <string.h>

#include "notebook/notebook.h"

typedef enum shape {
  SHAPE_CAPTURE_STRING_OR_CAPTURE,   /* @a "s" | @a @b */
  SHAPE_CAPTURE_REGEX,               /* @a "regex" */
  SHAPE_CAPTURE_STRINGS,             /* @a "s" ... (one or more) */
  SHAPE_CAPTURE,                     /* @a */
} shape;

typedef struct pred_def {
  const char *name;   /* as tree-sitter reports it: without the leading '#' */
  gl_pred_kind kind;
  bool negated;
  shape shape;
} pred_def;

static const pred_def pred_table[] = {
    {"eq?", GL_PRED_EQ, false, SHAPE_CAPTURE_STRING_OR_CAPTURE},
    {"not-eq?", GL_PRED_EQ, true, SHAPE_CAPTURE_STRING_OR_CAPTURE},
    {"match?", GL_PRED_MATCH, false, SHAPE_CAPTURE_REGEX},
    {"not-match?", GL_PRED_MATCH, true, SHAPE_CAPTURE_REGEX},
    {"any-of?", GL_PRED_ANY_OF, false, SHAPE_CAPTURE_STRINGS},
    {"not-any-of?", GL_PRED_ANY_OF, true, SHAPE_CAPTURE_STRINGS},
    {"resolves-to?", GL_PRED_RESOLVES_TO, false, SHAPE_CAPTURE_STRINGS},
    {"resolves-match?", GL_PRED_RESOLVES_MATCH, false, SHAPE_CAPTURE_REGEX},
    {"in-loop?", GL_PRED_IN_LOOP, false, SHAPE_CAPTURE},
    {"role?", GL_PRED_ROLE, false, SHAPE_CAPTURE_STRINGS},
    {"device?", GL_PRED_DEVICE, false, SHAPE_CAPTURE},
    {"host?", GL_PRED_HOST, false, SHAPE_CAPTURE},
    {"type?", GL_PRED_TYPE, false, SHAPE_CAPTURE_STRINGS},
    {"from-device?", GL_PRED_FROM_DEVICE, false, SHAPE_CAPTURE},
    {"loop-invariant?", GL_PRED_LOOP_INVARIANT, false, SHAPE_CAPTURE},
    {"host-built?", GL_PRED_HOST_BUILT, false, SHAPE_CAPTURE},
    {"builtin?", GL_PRED_BUILTIN, false, SHAPE_CAPTURE_STRINGS},
    {"local-call?", GL_PRED_LOCAL_CALL, false, SHAPE_CAPTURE},
    {"untimed?", GL_PRED_UNTIMED, false, SHAPE_CAPTURE},
    {"repeated?", GL_PRED_REPEATED, false, SHAPE_CAPTURE},
    {"not-collected?", GL_PRED_COLLECTED, true, SHAPE_CAPTURE},
    {"not-traced?", GL_PRED_TRACED, true, SHAPE_CAPTURE},
    {"not-drained?", GL_PRED_DRAINED, true, SHAPE_CAPTURE},
};

static const char *const shape_text[] = {
    [SHAPE_CAPTURE_STRING_OR_CAPTURE] = "a capture, then a string or a capture",
    [SHAPE_CAPTURE_REGEX] = "a capture, then one regex string",
    [SHAPE_CAPTURE_STRINGS] = "a capture, then one or more strings",
    [SHAPE_CAPTURE] = "exactly one capture",
};

static const pred_def *find_def(const char *name, uint32_t len) {
  for (size_t i = 0; i < sizeof(pred_table) / sizeof(pred_table[0]); i++)
    if (strlen(pred_table[i].name) == len && memcmp(pred_table[i].name, name, len) == 0)
      return &pred_table[i];
  return NULL;
}

/* ---- compiling ------------------------------------------------------------------------------ */

/* Where errors of one pattern go: the combined text, the pattern's range, its rule. */
typedef struct site {
  const TSQuery *query;
  uint32_t pattern;
  const gl_qtext *qt;
  const gl_qspan *sp;
  uint32_t start, end;   /* the pattern's bytes in qt->text */
  const gl_libmodels *lm;
  gl_diag_list *errs;
} site;

static gl_diag *error_at(const site *s, uint32_t combined_offset, uint32_t *line, uint32_t *col) {
  uint32_t off = combined_offset > s->sp->start ? combined_offset - s->sp->start : 0;
  gl_query_position(s->sp->rule, off, line, col);
  return gl_diag_list_add(s->errs);
}

/* Offsets of predicate k (its '#') and of its argument arg. */
static void locate(const site *s, size_t k, size_t arg, uint32_t *pred_off, uint32_t *arg_off) {
  if (!gl_query_locate_predicate(s->qt->text, s->start, s->end, k, arg, pred_off, arg_off))
    *pred_off = *arg_off = s->start;
}

static void shape_error(const site *s, size_t k, const char *name, uint32_t len, shape sh) {
  uint32_t p, a, line, col;
  locate(s, k, 0, &p, &a);
  gl_diag *d = error_at(s, p, &line, &col);
  gl_diag_set(d, s->sp->rule->path, line, col, "predicate '#%.*s' expects %s", (int)len, name,
              shape_text[sh]);
}

static bool shape_ok(shape sh, const TSQueryPredicateStep *args, uint32_t nargs) {
  if (nargs < 1 || args[0].type != TSQueryPredicateStepTypeCapture) return false;
  switch (sh) {
    case SHAPE_CAPTURE_STRING_OR_CAPTURE:
      return nargs == 2;
    case SHAPE_CAPTURE_REGEX:
      return nargs == 2 && args[1].type == TSQueryPredicateStepTypeString;
    case SHAPE_CAPTURE_STRINGS:
      for (uint32_t i = 1; i < nargs; i++)
        if (args[i].type != TSQueryPredicateStepTypeString) return false;
      return nargs >= 2;
    case SHAPE_CAPTURE:
      return nargs == 1;
  }
  return false;
}

/* Every capture argument must be captured by this very pattern: in the combined query capture
 * names are shared, so @x of another rule's pattern would otherwise be accepted. */
static bool captures_ok(const site *s, size_t k, const TSQueryPredicateStep *args, uint32_t nargs) {
  bool ok = true;
  for (uint32_t i = 0; i < nargs; i++) {
    if (args[i].type != TSQueryPredicateStepTypeCapture) continue;
    if (ts_query_capture_quantifier_for_id(s->query, s->pattern, args[i].value_id) !=
        TSQuantifierZero)
      continue;
    uint32_t p, a, line, col, len;
    const char *name = ts_query_capture_name_for_id(s->query, args[i].value_id, &len);
    locate(s, k, i, &p, &a);
    gl_diag *d = error_at(s, a, &line, &col);
    gl_diag_set(d, s->sp->rule->path, line, col,
                "invalid capture '@%.*s': its pattern does not capture it", (int)len, name);
    ok = false;
  }
  return ok;
}

/* True when regex r[0, n) has a '|' outside parentheses and classes: then a leading ^ anchors
 * only the first branch. */
static bool top_level_bar(const char *r, uint32_t n) {
  int depth = 0;
  bool in_class = false;
  for (uint32_t i = 0; i < n; i++) {
    char c = r[i];
    if (c == '\\') i++;
    else if (in_class) in_class = c != ']';
    else if (c == '[') in_class = true;
    else if (c == '(') depth++;
    else if (c == ')') depth--;
    else if (c == '|' && depth == 0) return true;
  }
  return false;
}

/* p->prefix: the literal characters after a leading ^ (letters, digits, '_', and '\\.' '\\-'
 * '\\/' escapes), stopping before one a quantifier follows. A subject that does not start with
 * it cannot match, which the evaluation checks before running the regex. */
static void literal_prefix(gl_pred *p) {
  const char *r = p->strings[0];
  uint32_t n = p->lens[0];
  p->prefix_len = 0;
  if (n < 2 || r[0] != '^' || top_level_bar(r, n)) return;
  for (uint32_t i = 1; i < n && p->prefix_len < GL_PRED_PREFIX_MAX;) {
    char c = r[i];
    uint32_t w = 1;
    if (c == '\\' && i + 1 < n && (r[i + 1] == '.' || r[i + 1] == '-' || r[i + 1] == '/')) {
      c = r[i + 1];
      w = 2;
    } else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '_')) {
      break;
    }
    char next = i + w < n ? r[i + w] : '\0';
    if (next == '*' || next == '?' || next == '+' || next == '{') break;
    p->prefix[p->prefix_len++] = c;
    i += w;
  }
}

static bool compile_regex(const site *s, size_t k, gl_pred *p) {
  int code = 0;
  PCRE2_SIZE eoff = 0;
  p->re = pcre2_compile((PCRE2_SPTR)p->strings[0], p->lens[0], PCRE2_UTF | PCRE2_MATCH_INVALID_UTF,
                        &code, &eoff, NULL);
  if (p->re) {
    (void)pcre2_jit_compile(p->re, PCRE2_JIT_COMPLETE);   /* failure: the interpreter runs it */
    literal_prefix(p);
    return true;
  }
  if (code == PCRE2_ERROR_HEAP_FAILED) gl_xalloc_fail(); /* out of memory, not a bad regex */
  PCRE2_UCHAR msg[256];
  if (pcre2_get_error_message(code, msg, sizeof(msg)) < 0) strcpy((char *)msg, "unknown error");
  uint32_t pred_off, lit, line, col;
  locate(s, k, 1, &pred_off, &lit);
  uint32_t at = lit != pred_off && s->qt->text[lit] == '"'
                    ? gl_query_string_offset(s->qt->text, lit, eoff)
                    : lit;
  gl_diag *d = error_at(s, at, &line, &col);
  gl_diag_set(d, s->sp->rule->path, line, col, "invalid regex: %s", (const char *)msg);
  return false;
}

/* An error at string argument i (1-based: after the capture) of predicate k. */
static void string_error(const site *s, size_t k, uint32_t i, const char *what, const char *str,
                         uint32_t len, const char *why) {
  uint32_t p, a, line, col;
  locate(s, k, i, &p, &a);
  gl_diag *d = error_at(s, a, &line, &col);
  gl_diag_set(d, s->sp->rule->path, line, col, "unknown %s '%.*s'%s", what, (int)len, str, why);
}

/* #role? and #type?: every string must name a role / a type some library model defines. */
static bool compile_names(const site *s, size_t k, gl_pred *p) {
  bool ok = true;
  if (p->kind == GL_PRED_TYPE) p->types = gl_xcalloc(p->nstrings, sizeof(*p->types));
  for (uint32_t i = 0; i < p->nstrings; i++) {
    if (p->kind == GL_PRED_ROLE) {
      uint32_t bit = gl_role_parse(p->strings[i], p->lens[i]);
      if (bit & ~GL_ROLES_RECORDED) {   /* a kind of entry, not recorded on nodes */
        string_error(s, k, i + 1, "role", p->strings[i], p->lens[i],
                     " for #role? (it names what a call makes; checks read it from the model)");
        bit = 0;
      } else if (!bit) {
        string_error(s, k, i + 1, "role", p->strings[i], p->lens[i], "");
      }
      p->roles |= bit;
      ok = ok && bit;
    } else {
      uint16_t t = gl_libmodels_type_id(s->lm, p->strings[i], p->lens[i]);
      if (t == GL_TYPE_NONE)
        string_error(s, k, i + 1, "type", p->strings[i], p->lens[i],
                     ": no library model defines it");
      p->types[i] = t;
      ok = ok && t != GL_TYPE_NONE;
    }
  }
  return ok;
}

/* Fills p from a validated predicate; false (error reported) for a bad regex, role or type. */
static bool build(const site *s, size_t k, const pred_def *def, const TSQueryPredicateStep *args,
                  uint32_t nargs, gl_pred *p) {
  p->kind = def->kind;
  p->negated = def->negated;
  p->capture = args[0].value_id;
  p->other_capture = -1;
  if (def->shape == SHAPE_CAPTURE_STRING_OR_CAPTURE &&
      args[1].type == TSQueryPredicateStepTypeCapture) {
    p->other_capture = args[1].value_id;
    return true;
  }
  p->nstrings = nargs - 1;
  if (p->nstrings) {
    p->strings = gl_xcalloc(p->nstrings, sizeof(*p->strings));
    p->lens = gl_xcalloc(p->nstrings, sizeof(*p->lens));
  }
  for (uint32_t i = 0; i < p->nstrings; i++)
    p->strings[i] = ts_query_string_value_for_id(s->query, args[i + 1].value_id, &p->lens[i]);
  if (def->shape == SHAPE_CAPTURE_REGEX) return compile_regex(s, k, p);
  if (def->kind == GL_PRED_ROLE || def->kind == GL_PRED_TYPE) return compile_names(s, k, p);
  return true;
}

/* Validates and compiles predicate k (steps[0] is its name); false when it has an error. */
static bool compile_one(const site *s, size_t k, const TSQueryPredicateStep *steps, uint32_t nsteps,
                        gl_pred *out, bool *filled) {
  *filled = false;
  uint32_t len = 0;
  const char *name = steps[0].type == TSQueryPredicateStepTypeString
                         ? ts_query_string_value_for_id(s->query, steps[0].value_id, &len)
                         : "";
  const pred_def *def = find_def(name, len);
  if (!def) {
    uint32_t p, a, line, col;
    locate(s, k, 0, &p, &a);
    gl_diag *d = error_at(s, p, &line, &col);
    gl_diag_set(d, s->sp->rule->path, line, col, "unknown predicate '#%.*s'", (int)len, name);
    return false;
  }
  const TSQueryPredicateStep *args = steps + 1;
  uint32_t nargs = nsteps - 1;
  if (!shape_ok(def->shape, args, nargs)) {
    shape_error(s, k, name, len, def->shape);
    return false;
  }
  if (!captures_ok(s, k, args, nargs)) return false;
  *filled = true;
  return build(s, k, def, args, nargs, out);
}

bool gl_preds_compile(const TSQuery *query, uint32_t pattern, const gl_qtext *qt,
                      const gl_qspan *sp, const gl_libmodels *lm, gl_pred **out, uint32_t *nout,
                      gl_diag_list *errs) {
  *out = NULL;
  *nout = 0;
  uint32_t nsteps = 0;
  const TSQueryPredicateStep *steps = ts_query_predicates_for_pattern(query, pattern, &nsteps);
  site s = {query, pattern, qt, sp, ts_query_start_byte_for_pattern(query, pattern),
            ts_query_end_byte_for_pattern(query, pattern), lm, errs};
  if (s.end > sp->end + 1 || s.end < s.start) s.end = sp->end + 1;
  size_t npreds = 0;
  for (uint32_t i = 0; i < nsteps; i++)
    if (steps[i].type == TSQueryPredicateStepTypeDone) npreds++;
  if (!npreds) return true;
  *out = gl_xcalloc(npreds, sizeof(**out));
  bool ok = true;
  uint32_t first = 0;
  size_t k = 0;
  for (uint32_t i = 0; i < nsteps; i++) {
    if (steps[i].type != TSQueryPredicateStepTypeDone) continue;
    bool filled;
    if (!compile_one(&s, k++, steps + first, i - first, &(*out)[*nout], &filled)) ok = false;
    if (filled) (*nout)++;
    first = i + 1;
  }
  return ok;
}

void gl_preds_free(gl_pred *preds, uint32_t n) {
  if (!preds) return;
  for (uint32_t i = 0; i < n; i++) {
    free(preds[i].strings);
    free(preds[i].lens);
    free(preds[i].types);
    pcre2_code_free(preds[i].re);
  }
  free(preds);
}

/* ---- evaluating ----------------------------------------------------------------------------- */

static const char *node_text(const gl_pred_env *env, TSNode n, uint32_t *len) {
  uint32_t start = ts_node_start_byte(n), end = ts_node_end_byte(n);
  if (end > env->src->len) end = (uint32_t)env->src->len;
  if (start > end) start = end;
  *len = end - start;
  return env->src->bytes + start;
}

static bool same(const char *a, uint32_t alen, const char *b, uint32_t blen) {
  return alen == blen && memcmp(a, b, alen) == 0;
}

/* p's regex search; a match error (limit hit) counts as no match and is remembered. */
static bool regex_finds(gl_pred_env *env, const gl_pred *p, const char *s, size_t len) {
  if (len < p->prefix_len || memcmp(s, p->prefix, p->prefix_len) != 0) return false;
  int rc = pcre2_match(p->re, (PCRE2_SPTR)s, len, 0, 0, env->md, env->mctx);
  if (rc >= 0) return true;
  if (rc != PCRE2_ERROR_NOMATCH) env->regex_limit_hit = true;
  return false;
}

static bool resolve_now(gl_pred_env *env, TSNode n, uint32_t *len) {
  if (!env->model || !gl_model_resolve(env->model, n, env->qbuf, sizeof(env->qbuf))) return false;
  *len = (uint32_t)strlen(env->qbuf);
  return true;
}

/* gl_model_resolve of n into env->qbuf, remembered per file (a name too long for a slot is
 * resolved again each time). */
static bool resolves(gl_pred_env *env, TSNode n, uint32_t *len) {
  if (!env->memo_gen) return resolve_now(env, n, len);
  uint32_t start = ts_node_start_byte(n);
  uintptr_t h = (uintptr_t)n.id;
  gl_pred_memo *e = &env->memo[((h >> 4) ^ (h >> 12) ^ start) & (GL_PRED_MEMO_SLOTS - 1)];
  if (e->gen == env->memo_gen && e->id == n.id && e->start == start) {
    if (!e->ok) return false;
    memcpy(env->qbuf, e->name, e->len);
    env->qbuf[e->len] = '\0';
    *len = e->len;
    return true;
  }
  bool ok = resolve_now(env, n, len);
  if (ok && *len >= GL_PRED_MEMO_NAME) return true;
  *e = (gl_pred_memo){.id = n.id, .start = start, .gen = env->memo_gen, .ok = ok};
  if (ok) {
    e->len = (uint16_t)*len;
    memcpy(e->name, env->qbuf, *len);
  }
  return ok;
}

static bool has_type(const gl_pred *p, uint16_t type) {
  if (type == GL_TYPE_NONE) return false;
  for (uint32_t i = 0; i < p->nstrings; i++)
    if (p->types[i] == type) return true;
  return false;
}

/* The test of p on one node of its capture, before negation. */
/* #in-loop?: n runs on every iteration of a hot loop, and is not a transfer the loop needs. */
static bool in_loop(const gl_model *m, TSNode n) {
  return m && gl_model_hot(m, n) && !gl_model_needed_transfer(m, n);
}

/* True when n lies in the statement or cell a `%timeit` / `%%timeit` runs (many times). */
static bool in_timeit(const gl_source *src, TSNode n) {
  const gl_notebook *nb = src ? src->notebook : NULL;
  if (!nb) return false;
  uint32_t at = ts_node_start_byte(n);
  for (size_t i = 0; i < nb->magics.len; i++) {
    const gl_nb_magic *g = &nb->magics.data[i];
    if ((g->kind == GL_NB_LINE_MAGIC || g->kind == GL_NB_CELL_MAGIC) && at >= g->end &&
        at < g->body_end && strcmp(g->name, "timeit") == 0)
      return true;
  }
  return false;
}

static bool test_node(const gl_pred *p, TSNode n, const TSQueryMatch *m, gl_pred_env *env) {
  uint32_t len;
  const char *text;
  switch (p->kind) {
    case GL_PRED_EQ:
      text = node_text(env, n, &len);
      if (p->other_capture < 0) return same(text, len, p->strings[0], p->lens[0]);
      for (uint16_t i = 0; i < m->capture_count; i++) {
        if (m->captures[i].index != (uint32_t)p->other_capture) continue;
        uint32_t olen;
        const char *other = node_text(env, m->captures[i].node, &olen);
        if (!same(text, len, other, olen)) return false;
      }
      return true;
    case GL_PRED_MATCH:
      text = node_text(env, n, &len);
      return regex_finds(env, p, text, len);
    case GL_PRED_ANY_OF:
      text = node_text(env, n, &len);
      break;
    case GL_PRED_RESOLVES_TO:
      if (!resolves(env, n, &len)) return false;
      text = env->qbuf;
      break;
    case GL_PRED_RESOLVES_MATCH:
      return resolves(env, n, &len) && regex_finds(env, p, env->qbuf, len);
    case GL_PRED_IN_LOOP:
      return in_loop(env->model, n);
    case GL_PRED_ROLE:
      return env->model && (gl_model_roles(env->model, n) & p->roles);
    case GL_PRED_DEVICE:
      return env->model && gl_model_prov(env->model, n) == GL_PROV_DEVICE;
    case GL_PRED_HOST:
      return env->model && gl_model_prov(env->model, n) == GL_PROV_HOST;
    case GL_PRED_TYPE:
      return env->model && has_type(p, gl_model_type(env->model, n));
    case GL_PRED_FROM_DEVICE:
      return env->model && gl_model_from_device(env->model, n);
    case GL_PRED_LOOP_INVARIANT:
      return env->model && gl_model_loop_invariant(env->model, n);
    case GL_PRED_HOST_BUILT:
      return env->model && gl_model_host_built(env->model, n);
    case GL_PRED_LOCAL_CALL:
      return env->model && gl_model_local_call(env->model, n);
    case GL_PRED_UNTIMED:
      return env->model && !gl_model_timed(env->model, n);
    case GL_PRED_COLLECTED:
      return env->model && gl_model_collected(env->model, n);
    case GL_PRED_TRACED:
      return env->model && gl_model_traced(env->model, n);
    case GL_PRED_DRAINED:
      return env->model && gl_model_drained(env->model, n);
    case GL_PRED_REPEATED:
      return in_loop(env->model, n) || (env->model && gl_model_timed(env->model, n)) ||
             in_timeit(env->src, n);
    case GL_PRED_BUILTIN:
      if (!env->model || !gl_model_is_builtin(env->model, n)) return false;
      text = node_text(env, n, &len);
      break;
    default:
      return false;
  }
  for (uint32_t i = 0; i < p->nstrings; i++)
    if (same(text, len, p->strings[i], p->lens[i])) return true;
  return false;
}

static bool has_capture(const TSQueryMatch *m, uint32_t id) {
  for (uint16_t i = 0; i < m->capture_count; i++)
    if (m->captures[i].index == id) return true;
  return false;
}

static bool eval_one(const gl_pred *p, const TSQueryMatch *m, gl_pred_env *env) {
  if (p->other_capture >= 0 && !has_capture(m, (uint32_t)p->other_capture)) return p->negated;
  bool any = false;
  for (uint16_t i = 0; i < m->capture_count; i++) {
    if (m->captures[i].index != p->capture) continue;
    any = true;
    if (test_node(p, m->captures[i].node, m, env) == p->negated) return false;
  }
  return any || p->negated;
}

bool gl_pred_name_may_hold(const gl_pred *p, const char *name, uint32_t len) {
  if (p->kind == GL_PRED_RESOLVES_MATCH)
    return len >= p->prefix_len && memcmp(name, p->prefix, p->prefix_len) == 0;
  if (p->kind != GL_PRED_RESOLVES_TO) return true;
  for (uint32_t i = 0; i < p->nstrings; i++)
    if (same(name, len, p->strings[i], p->lens[i])) return true;
  return false;
}

const char *gl_pred_key(gl_pred_env *env, TSNode n, bool resolved, uint32_t *len) {
  if (!resolved) return node_text(env, n, len);
  return resolves(env, n, len) ? env->qbuf : NULL;
}

bool gl_pred_holds(const gl_pred *p, TSNode n, TSNode other, gl_pred_env *env) {
  TSQueryCapture caps[2] = {{.node = n, .index = p->capture}};
  if (p->other_capture >= 0)
    caps[1] = (TSQueryCapture){.node = other, .index = (uint32_t)p->other_capture};
  TSQueryMatch m = {.capture_count = p->other_capture >= 0 ? 2 : 1, .captures = caps};
  return eval_one(p, &m, env);
}

bool gl_preds_same(const gl_pred *a, const gl_pred *b) {
  if (a->kind != b->kind || a->negated != b->negated || a->nstrings != b->nstrings ||
      (a->other_capture >= 0) != (b->other_capture >= 0))
    return false;
  for (uint32_t i = 0; i < a->nstrings; i++)
    if (!same(a->strings[i], a->lens[i], b->strings[i], b->lens[i])) return false;
  return true;
}

bool gl_preds_eval(const gl_pred *preds, uint32_t n, const TSQueryMatch *m, gl_pred_env *env) {
  for (uint32_t i = 0; i < n; i++)
    if (!eval_one(&preds[i], m, env)) return false;
  return true;
}
