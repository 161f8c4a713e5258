/* match_dispatch.c: running the query at the nodes that can match instead of over the whole tree
 * (match_int.h, gl_mdispatch). Most patterns are `((call function: (_) @fn ...) @hit
 * (#resolves-to? @fn "cupy.asnumpy") ...)`: run over the tree, tree-sitter matches every call of
 * a file against every one of them and hands each structural match to the predicates, about
 * 600,000 matches on 99 gpu-dense files of which a few thousand pass. This stage finds in each
 * pattern's text its root type, the nodes it requires at fixed field paths below the root (the
 * callee, the method name, the receiver) and the predicates that read only those nodes. Per
 * file, match_run.c then visits the model's index and runs the query anchored at a node (max
 * start depth 0) only when the node has the root type of a pattern that is not dispatched, or
 * when a dispatched pattern's fixed nodes are there and its early predicates hold. Those
 * predicates are a subset of what each of its matches must pass, so the findings are the same.
 * When some pattern has no known root type (a wildcard, a sequence of siblings), nothing is
 * dispatched and the query runs over the tree as before.
 * Owns: reading a pattern's root, fixed nodes and captures from its text; choosing and ordering
 *       the predicates to test early; the per-node test (gl_mdispatch_test).
 * Not: running the query or reporting (match_run.c), evaluating a predicate (predicate.c).
 * Threads: gl_match_dispatch_take runs once, while the matcher is compiled (match.c); the test
 *          reads the matcher and writes only the caller's per-worker gl_mslots. */
#include <string.h>

#include "base/hash.h"
#include "match/match_int.h"

/* A capture that always takes the node at a slot (what the analysis of one pattern finds). */
typedef struct gl_mcap {
  uint32_t capture;
  uint8_t slot;
} gl_mcap;

/* Fields that hold exactly one node, of the node types that hold them (tree-sitter-python's
 * grammar.js: not `for_in_clause right`, `subscript subscript` or `if_statement alternative`,
 * which repeat): only through these is a field path "fixed" (ts_node_child_by_field_id returns
 * the first node of a field). */
static const struct {
  const char *type, *field;
} single_fields[] = {
    {"call", "function"},          {"call", "arguments"},
    {"attribute", "object"},       {"attribute", "attribute"},
    {"keyword_argument", "name"},  {"keyword_argument", "value"},
    {"binary_operator", "left"},   {"binary_operator", "right"},
    {"if_statement", "condition"}, {"elif_clause", "condition"},
    {"while_statement", "condition"},
    {"for_statement", "left"},     {"for_statement", "right"},
    {"assignment", "left"},        {"assignment", "right"},
    {"augmented_assignment", "left"}, {"augmented_assignment", "right"},
    {"interpolation", "expression"}, {"subscript", "value"},
    {"import_from_statement", "module_name"},
    {"aliased_import", "name"},    {"aliased_import", "alias"},
};

/* What the analysis of one pattern found. */
typedef struct shape {
  const gl_matcher *m;
  const char *t;
  uint32_t end;
  TSSymbol root;
  gl_mslot *slots;              /* the matcher's slot table, grown here */
  uint32_t *nslots;
  gl_vec(gl_mfixed) fixed;
  gl_vec(gl_mcap) caps;
  bool bad;                     /* a shape this stage does not read: leave the pattern alone */
} shape;

static bool is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '-' || c == '.' || c == '?' || c == '!';
}

static uint32_t ident_end(const char *t, uint32_t i, uint32_t end) {
  while (i < end && is_ident(t[i])) i++;
  return i;
}

static uint32_t skip(const shape *s, uint32_t i) { return gl_query_skip_space(s->t, i, s->end); }

/* Skips one child pattern at i (group, string, '_' or a name) and returns where it ends. */
static uint32_t skip_item(const shape *s, uint32_t i) {
  char c = s->t[i];
  if (c == '(' || c == '[') return gl_query_skip_group(s->t, i, s->end);
  if (c == '"') {
    for (i++; i < s->end && s->t[i] != '"'; i++)
      if (s->t[i] == '\\') i++;
    return i < s->end ? i + 1 : s->end;
  }
  uint32_t e = ident_end(s->t, i, s->end);
  return e > i ? e : i + 1;
}

/* The id of capture t[i, e) in the combined query, or -1. */
static int64_t capture_id(const shape *s, uint32_t i, uint32_t e) {
  uint32_t n = ts_query_capture_count(s->m->query);
  for (uint32_t k = 0; k < n; k++) {
    uint32_t len;
    const char *name = ts_query_capture_name_for_id(s->m->query, k, &len);
    if (len == e - i && memcmp(name, s->t + i, len) == 0) return k;
  }
  return -1;
}

/* Reads the quantifiers and captures after a child at i; the captures name `slot` unless the
 * child is quantified or slot < 0. Returns the offset after them. */
static uint32_t suffix(shape *s, uint32_t i, int slot) {
  size_t first = s->caps.len;
  bool quantified = false;
  for (;;) {
    i = skip(s, i);
    if (i >= s->end) return i;
    char c = s->t[i];
    if (c == '*' || c == '+' || c == '?') {
      quantified = true;
      i++;
    } else if (c == '@') {
      uint32_t e = ident_end(s->t, i + 1, s->end);
      int64_t id = capture_id(s, i + 1, e);
      if (id < 0) s->bad = true;
      else if (slot >= 0) gl_vec_push(&s->caps, ((gl_mcap){(uint32_t)id, (uint8_t)slot}));
      i = e;
    } else {
      break;
    }
  }
  if (quantified) s->caps.len = first;
  return i;
}

/* The slot for field `field` below slot `parent`, added when new; -1 when the table is full. */
static int slot_for(shape *s, uint32_t parent, TSFieldId field) {
  for (uint32_t k = 1; k < *s->nslots; k++)
    if (s->slots[k].parent == parent && s->slots[k].field == field) return (int)k;
  if (*s->nslots >= GL_MSLOT_MAX) return -1;
  s->slots[*s->nslots] = (gl_mslot){(uint8_t)parent, field};
  return (int)(*s->nslots)++;
}

static bool single_field(const char *type, uint32_t tlen, const char *field, uint32_t flen) {
  for (size_t k = 0; k < sizeof single_fields / sizeof *single_fields; k++)
    if (strlen(single_fields[k].type) == tlen && memcmp(single_fields[k].type, type, tlen) == 0 &&
        strlen(single_fields[k].field) == flen && memcmp(single_fields[k].field, field, flen) == 0)
      return true;
  return false;
}

/* The symbol of node type t[i, e) as ts_node_symbol reports it, or 0 when the type is not a plain
 * named type: a supertype (`(expression)` matches nodes of its subtypes, whose symbols differ),
 * a `supertype/subtype` pair, ERROR, or an unknown name. */
static TSSymbol symbol_of(const shape *s, uint32_t i, uint32_t e) {
  if (e < s->end && s->t[e] == '/') return 0;
  const TSLanguage *lang = s->m->lang;
  TSSymbol sym = ts_language_symbol_for_name(lang, s->t + i, e - i, true);
  if (!sym || sym >= ts_language_symbol_count(lang) ||
      ts_language_symbol_type(lang, sym) != TSSymbolTypeRegular)
    return 0;
  return sym;
}

/* `[(a) (b) ...]` of childless named types at i: their symbols into f; false for other shapes. */
static bool read_choice(const shape *s, uint32_t i, gl_mfixed *f) {
  uint32_t close = gl_query_skip_group(s->t, i, s->end);
  for (i = skip(s, i + 1); i < close && s->t[i] == '('; i = skip(s, i)) {
    uint32_t a = skip(s, i + 1), e = ident_end(s->t, a, s->end);
    TSSymbol sym = e > a ? symbol_of(s, a, e) : 0;
    if (!sym || f->nsymbols == GL_MFIXED_SYMBOLS) return false;
    f->symbols[f->nsymbols++] = sym;
    i = skip(s, e);
    if (i >= close || s->t[i] != ')') return false;
    i++;
  }
  return i + 1 == close && f->nsymbols > 0;
}

static uint32_t read_node(shape *s, uint32_t i, int slot);

/* One child of a node pattern of type t[ta, te) at slot `slot`; returns the offset after it. */
static uint32_t read_child(shape *s, uint32_t i, int slot, uint32_t ta, uint32_t te) {
  char c = s->t[i];
  if (c == '.') return i + 1;                             /* anchor */
  if (c == '!') return ident_end(s->t, i + 1, s->end);    /* negated field */
  if (c == '(' && s->t[skip(s, i + 1)] == '#') return gl_query_skip_group(s->t, i, s->end);
  uint32_t e = ident_end(s->t, i, s->end);
  if (e > i && e < s->end && s->t[e] == ':') {            /* field: child */
    uint32_t at = skip(s, e + 1);
    TSFieldId field = ts_language_field_id_for_name(s->m->lang, s->t + i, e - i);
    int sub = -1;
    if (slot >= 0 && field && single_field(s->t + ta, te - ta, s->t + i, e - i))
      sub = slot_for(s, (uint32_t)slot, field);
    if (sub >= 0 && s->t[at] == '(') {
      size_t nfixed = s->fixed.len, ncaps = s->caps.len;
      uint32_t after = read_node(s, at, sub);
      uint32_t next = skip(s, after);
      if (next < s->end && (s->t[next] == '*' || s->t[next] == '+' || s->t[next] == '?')) {
        s->fixed.len = nfixed;   /* optional or repeated: nothing below it is required */
        s->caps.len = ncaps;
        sub = -1;
      }
      return suffix(s, after, sub);
    }
    if (sub >= 0 && s->t[at] == '[') {
      gl_mfixed f = {.slot = (uint8_t)sub};
      uint32_t after = gl_query_skip_group(s->t, at, s->end);
      uint32_t next = skip(s, after);
      bool quantified =
          next < s->end && (s->t[next] == '*' || s->t[next] == '+' || s->t[next] == '?');
      if (!quantified && read_choice(s, at, &f)) gl_vec_push(&s->fixed, f);
      else sub = -1;
      return suffix(s, after, sub);
    }
    return suffix(s, skip_item(s, at), -1);
  }
  return suffix(s, skip_item(s, i), -1);
}

/* A node pattern `(type child...)` at i, required at `slot` (-1: not at a fixed path); returns
 * the offset after its ')'. */
static uint32_t read_node(shape *s, uint32_t i, int slot) {
  uint32_t ta = skip(s, i + 1), te = ident_end(s->t, ta, s->end);
  if (te == ta) {
    s->bad = true;
    return gl_query_skip_group(s->t, i, s->end);
  }
  if (slot > 0) {
    gl_mfixed f = {.slot = (uint8_t)slot};
    if (!(te - ta == 1 && s->t[ta] == '_')) {
      TSSymbol sym = symbol_of(s, ta, te);
      if (!sym) s->bad = true;
      f.symbols[f.nsymbols++] = sym;
    }
    gl_vec_push(&s->fixed, f);
  } else if (slot == 0) {
    s->root = (te - ta == 1 && s->t[ta] == '_') ? 0 : symbol_of(s, ta, te);
  }
  for (i = skip(s, te); i < s->end && s->t[i] != ')' && !s->bad; i = skip(s, i))
    i = read_child(s, i, slot, ta, te);
  if (i >= s->end) s->bad = true;
  return i + 1;
}

/* Reads pattern text t[start, end): `((root ...) @cap... (#pred ...)...)` or `(root ...)`. */
static void read_pattern(shape *s, uint32_t start) {
  uint32_t i = skip(s, start);
  if (i >= s->end || s->t[i] != '(') {
    s->bad = true;
    return;
  }
  uint32_t inner = skip(s, i + 1);
  if (inner >= s->end || s->t[inner] != '(') {   /* ungrouped: the node itself */
    i = skip(s, read_node(s, i, 0));
    if (i < s->end && (s->t[i] == '*' || s->t[i] == '+' || s->t[i] == '?')) s->bad = true;
    i = suffix(s, i, 0);
    if (skip(s, i) != s->end) s->bad = true;
    return;
  }
  i = skip(s, read_node(s, inner, 0));
  if (i < s->end && (s->t[i] == '*' || s->t[i] == '+' || s->t[i] == '?')) {
    s->bad = true;   /* a repeated root is a sequence of siblings */
    return;
  }
  i = suffix(s, i, 0);
  for (i = skip(s, i); i < s->end && !s->bad; i = skip(s, i)) {
    if (s->t[i] == ')') break;
    uint32_t a = skip(s, i + 1);
    if (s->t[i] != '(' || a >= s->end || s->t[a] != '#') {   /* a sibling pattern: a sequence */
      s->bad = true;
      return;
    }
    i = gl_query_skip_group(s->t, i, s->end);
  }
  if (i >= s->end || skip(s, i + 1) != s->end) s->bad = true;
}

/* True when capture id is put on exactly one node of the pattern text (predicates, strings and
 * comments aside): a capture named twice (two branches of a choice) may take either node. */
static bool captured_once(const shape *s, uint32_t start, uint32_t id) {
  uint32_t len, seen = 0;
  const char *name = ts_query_capture_name_for_id(s->m->query, id, &len);
  for (uint32_t i = start; i < s->end; i++) {
    char c = s->t[i];
    if (c == ';') {
      while (i < s->end && s->t[i] != '\n') i++;
    } else if (c == '"') {
      i = skip_item(s, i) - 1;
    } else if (c == '(' && s->t[skip(s, i + 1)] == '#') {
      i = gl_query_skip_group(s->t, i, s->end) - 1;
    } else if (c == '@') {
      uint32_t e = ident_end(s->t, i + 1, s->end);
      if (e - (i + 1) == len && memcmp(s->t + i + 1, name, len) == 0) seen++;
      i = e - 1;
    }
  }
  return seen == 1;
}

/* The slot of capture id in s, or -1 when it is not read early. */
static int cap_slot(const shape *s, int64_t id) {
  for (size_t k = 0; k < s->caps.len; k++)
    if (s->caps.data[k].capture == id) return s->caps.data[k].slot;
  return -1;
}

/* Cheapest predicates first: all must hold, so the order changes only the time. */
static int pred_cost(const gl_pred *p) {
  switch (p->kind) {
    case GL_PRED_EQ: case GL_PRED_ANY_OF: return 0;
    case GL_PRED_RESOLVES_TO: return 1;
    case GL_PRED_MATCH: case GL_PRED_RESOLVES_MATCH: return 2;
    default: return 3;
  }
}

/* The index in m->tests of predicate pr on slots (slot, other), added when new. */
static uint32_t test_for(gl_matcher *m, const gl_pred *pr, int slot, int other) {
  for (size_t j = 0; j < m->tests.len; j++) {
    const gl_mtest *t = &m->tests.data[j];
    if (t->slot == slot && (other < 0 || t->other_slot == other) && gl_preds_same(t->pred, pr))
      return (uint32_t)j;
  }
  gl_vec_push(&m->tests, ((gl_mtest){pr, (uint8_t)slot, (uint8_t)(other < 0 ? 0 : other)}));
  return (uint32_t)(m->tests.len - 1);
}

/* Fills d from s and pattern p: the predicates over early captures only, cheapest first. False
 * when none is: the pattern would then be tried on every node of its root type. */
static bool choose_tests(gl_matcher *m, const shape *s, const gl_mpattern *p, gl_mdispatch *d) {
  d->tests = gl_xcalloc(p->npreds ? p->npreds : 1, sizeof(uint32_t));
  for (int cost = 0; cost <= 3; cost++)
    for (uint32_t k = 0; k < p->npreds; k++) {
      const gl_pred *pr = &p->preds[k];
      int slot = cap_slot(s, pr->capture), other = -1;
      if (pred_cost(pr) != cost || slot < 0) continue;
      if (pr->other_capture >= 0 && (other = cap_slot(s, pr->other_capture)) < 0) continue;
      d->tests[d->ntests++] = test_for(m, pr, slot, other);
    }
  return d->ntests > 0;
}

/* Analyses pattern i; on success moves what it found into a new entry of m->dispatch. */
static bool take_pattern(gl_matcher *m, const gl_qtext *qt, uint32_t i) {
  uint32_t start = ts_query_start_byte_for_pattern(m->query, i);
  uint32_t end = ts_query_end_byte_for_pattern(m->query, i);
  if (end > qt->len || start >= end || i >= m->patterns.len) return false;
  uint32_t nslots = (uint32_t)m->nslots;
  shape s = {.m = m, .t = qt->text, .end = end, .slots = m->slots, .nslots = &nslots};
  read_pattern(&s, start);
  size_t keep = 0;
  for (size_t k = 0; k < s.caps.len; k++)   /* drop captures named more than once */
    if (captured_once(&s, start, s.caps.data[k].capture)) s.caps.data[keep++] = s.caps.data[k];
  s.caps.len = keep;
  gl_mdispatch d = {.pattern = i, .root = s.root, .key = -1};
  bool ok = !s.bad && s.root && choose_tests(m, &s, &m->patterns.data[i], &d);
  gl_vec_free(&s.caps);   /* the tests hold the slots they read */
  if (ok) {
    m->nslots = nslots;
    d.fixed = s.fixed.data;
    d.nfixed = (uint32_t)s.fixed.len;
    gl_vec_push(&m->dispatch, d);
  } else {
    free(d.tests);
    gl_vec_free(&s.fixed);
  }
  return ok;
}

void gl_mdispatch_free_all(gl_matcher *m) {
  for (size_t k = 0; k < m->dispatch.len; k++) {
    gl_mdispatch *d = &m->dispatch.data[k];
    free(d->fixed);
    free(d->tests);
  }
  gl_vec_free(&m->dispatch);
  gl_vec_free(&m->tests);
  free(m->keys);
  m->keys = NULL;
  m->key_cap = 0;
  m->nkey_classes = 0;
  free(m->root_of);
  free(m->dispatch_of);
  m->root_of = NULL;
  m->dispatch_of = NULL;
  m->nslots = 0;
}

static int by_root(const void *a, const void *b) {
  const gl_mdispatch *x = a, *y = b;
  if (x->root != y->root) return x->root < y->root ? -1 : 1;
  return x->pattern < y->pattern ? -1 : x->pattern > y->pattern;
}

/* The symbol of the node pattern `(type ...)` at k, or 0 for a wildcard or another shape. */
static TSSymbol node_type_at(const shape *s, uint32_t k, uint32_t nsym) {
  if (k >= s->end || s->t[k] != '(') return 0;
  uint32_t ta = skip(s, k + 1), te = ident_end(s->t, ta, s->end);
  if (te == ta || (te - ta == 1 && s->t[ta] == '_')) return 0;
  TSSymbol sym = symbol_of(s, ta, te);
  return sym < nsym ? sym : 0;
}

/* Marks in m->root_of the root types of pattern i, which is not dispatched: `(type ...)` or a
 * choice `[(a ...) (b ...)]`, grouped or not with captures and predicates. False when it has
 * another root (a wildcard, a repeated root, a sequence of siblings). */
static bool mark_roots(gl_matcher *m, const gl_qtext *qt, uint32_t i, uint32_t nsym) {
  shape s = {.m = m, .t = qt->text, .end = ts_query_end_byte_for_pattern(m->query, i)};
  uint32_t root = skip(&s, ts_query_start_byte_for_pattern(m->query, i));
  if (root >= s.end) return false;
  uint32_t inner = skip(&s, root + 1);
  bool grouped = s.t[root] == '(' && inner < s.end && (s.t[inner] == '(' || s.t[inner] == '[');
  if (grouped) root = inner;
  uint32_t after = gl_query_skip_group(s.t, root, s.end);
  for (uint32_t k = skip(&s, after); grouped && k < s.end && s.t[k] != ')'; k = skip(&s, k)) {
    if (s.t[k] == '@') k = ident_end(s.t, k + 1, s.end);
    else if (s.t[k] == '(' && s.t[skip(&s, k + 1)] == '#') k = gl_query_skip_group(s.t, k, s.end);
    else return false;   /* a quantifier or a sibling after the root */
  }
  if (s.t[root] == '(') {
    TSSymbol sym = node_type_at(&s, root, nsym);
    if (!sym) return false;
    m->root_of[sym].plain = true;
    return true;
  }
  if (s.t[root] != '[') return false;
  for (uint32_t k = skip(&s, root + 1); k + 1 < after; k = skip(&s, k)) {
    TSSymbol sym = node_type_at(&s, k, nsym);
    if (!sym) return false;
    m->root_of[sym].plain = true;
    for (k = skip(&s, gl_query_skip_group(s.t, k, s.end)); k < s.end && s.t[k] == '@';
         k = skip(&s, k))
      k = ident_end(s.t, k + 1, s.end);
  }
  return true;
}

/* ---- keys ---------------------------------------------------------------------------------- */

static uint32_t key_hash(uint32_t cls, const char *text, uint32_t len) {
  return gl_fnv32(GL_FNV32_OFFSET ^ cls, text, len);
}

/* The key class (slot, resolved), added when new; -1 when the table is full. */
static int key_class(gl_matcher *m, uint8_t slot, bool resolved) {
  for (uint32_t c = 0; c < m->nkey_classes; c++)
    if (m->key_classes[c].slot == slot && m->key_classes[c].resolved == resolved) return (int)c;
  if (m->nkey_classes == GL_MKEY_CLASSES) return -1;
  m->key_classes[m->nkey_classes].slot = slot;
  m->key_classes[m->nkey_classes].resolved = resolved;
  return (int)m->nkey_classes++;
}

static bool is_key(const gl_pred *p) {
  if (p->negated || !p->nstrings) return false;
  return (p->kind == GL_PRED_EQ && p->other_capture < 0) || p->kind == GL_PRED_ANY_OF ||
         p->kind == GL_PRED_RESOLVES_TO;
}

/* Gives each entry with a key test its key class and puts its strings in m->keys. */
static void build_keys(gl_matcher *m) {
  size_t n = 0;
  for (size_t k = 0; k < m->dispatch.len; k++) {
    gl_mdispatch *d = &m->dispatch.data[k];
    for (uint32_t j = 0; j < d->ntests && d->key < 0; j++) {
      const gl_mtest *t = &m->tests.data[d->tests[j]];
      if (!is_key(t->pred)) continue;
      d->key = key_class(m, t->slot, t->pred->kind == GL_PRED_RESOLVES_TO);
      d->key_test = d->tests[j];
      if (d->key >= 0) n += t->pred->nstrings;
    }
  }
  m->key_cap = 16;
  while (m->key_cap < 2 * n) m->key_cap *= 2;
  m->keys = gl_xcalloc(m->key_cap, sizeof(*m->keys));
  for (size_t k = 0; k < m->dispatch.len; k++) {
    const gl_mdispatch *d = &m->dispatch.data[k];
    if (d->key < 0) continue;
    m->root_of[d->root].key_mask |= (uint8_t)(1u << d->key);
    const gl_pred *p = m->tests.data[d->key_test].pred;
    for (uint32_t j = 0; j < p->nstrings; j++) {
      size_t i = key_hash((uint32_t)d->key, p->strings[j], p->lens[j]) & (m->key_cap - 1);
      while (m->keys[i].text) i = (i + 1) & (m->key_cap - 1);
      m->keys[i] = (gl_mkey){p->strings[j], p->lens[j], (uint32_t)d->key, (uint32_t)k};
    }
  }
}

void gl_match_dispatch_take(gl_matcher *m, const gl_qtext *qt) {
  uint32_t n = ts_query_pattern_count(m->query), nsym = ts_language_symbol_count(m->lang);
  if (n > m->patterns.len) return;
  bool *named = gl_xcalloc(n ? n : 1, sizeof(bool));
  for (size_t k = 0; k < m->names.len; k++) named[m->names.data[k].pattern] = true;
  m->root_of = gl_xcalloc(nsym, sizeof(*m->root_of));
  m->nslots = 1;   /* slot 0: the root */
  bool all_rooted = true;
  for (uint32_t i = 0; i < n && all_rooted; i++)
    if (!named[i] && !take_pattern(m, qt, i)) all_rooted = mark_roots(m, qt, i, nsym);
  free(named);
  if (!all_rooted || !m->dispatch.len) {   /* some pattern needs the whole tree walked */
    gl_mdispatch_free_all(m);
    return;
  }
  qsort(m->dispatch.data, m->dispatch.len, sizeof(*m->dispatch.data), by_root);
  m->dispatch_of = gl_xmalloc(n * sizeof(uint32_t));
  for (uint32_t i = 0; i < n; i++) m->dispatch_of[i] = GL_MDISPATCH_NONE;
  for (size_t k = 0; k < m->dispatch.len; k++) {
    const gl_mdispatch *d = &m->dispatch.data[k];
    m->dispatch_of[d->pattern] = (uint32_t)k;
    if (m->root_of[d->root].end == 0) m->root_of[d->root].begin = (uint32_t)k;
    m->root_of[d->root].end = (uint32_t)k + 1;
  }
  build_keys(m);
}

/* ---- per node ------------------------------------------------------------------------------ */

/* The node at slot k below sl->root (null node when absent), each computed once per root. */
static TSNode slot_node(const gl_matcher *m, gl_mslots *sl, uint32_t k) {
  if (sl->gen[k] == sl->cur) return sl->node[k];
  TSNode parent = slot_node(m, sl, m->slots[k].parent);
  TSNode n =
      ts_node_is_null(parent) ? parent : ts_node_child_by_field_id(parent, m->slots[k].field);
  sl->node[k] = n;
  sl->symbol[k] = !ts_node_is_null(n) && ts_node_is_named(n) ? ts_node_symbol(n) : 0;
  sl->gen[k] = sl->cur;
  return n;
}

void gl_mslots_init(gl_mslots *sl, const gl_matcher *m) {
  memset(sl, 0, sizeof(*sl));
  sl->ntests = m->tests.len;
  sl->keyed = gl_xcalloc(m->dispatch.len ? m->dispatch.len : 1, sizeof(uint32_t));
  sl->ndispatch = m->dispatch.len;
  sl->test_gen = gl_xcalloc(sl->ntests ? sl->ntests : 1, sizeof(uint32_t));
  sl->test_val = gl_xcalloc(sl->ntests ? sl->ntests : 1, sizeof(bool));
}

void gl_mslots_free(gl_mslots *sl) {
  free(sl->keyed);
  free(sl->test_gen);
  free(sl->test_val);
  memset(sl, 0, sizeof(*sl));
}

void gl_mslots_begin(gl_mslots *sl, TSNode root) {
  if (++sl->cur == 0) {   /* wrapped: forget every old answer explicitly */
    memset(sl->gen, 0, sizeof(sl->gen));
    memset(sl->test_gen, 0, sl->ntests * sizeof(uint32_t));
    memset(sl->keyed, 0, sl->ndispatch * sizeof(uint32_t));
    sl->cur = 1;
  }
  sl->node[0] = root;
  sl->symbol[0] = ts_node_symbol(root);
  sl->gen[0] = sl->cur;
}

/* Test t at the node being tried; a regex limit hit counts as holding (undecided: the full match
 * notes it). */
static bool test_holds(const gl_matcher *m, uint32_t t, gl_mslots *sl, gl_pred_env *env) {
  if (sl->test_gen[t] == sl->cur) return sl->test_val[t];
  const gl_mtest *mt = &m->tests.data[t];
  TSNode n = slot_node(m, sl, mt->slot);
  TSNode other = mt->pred->other_capture >= 0 ? slot_node(m, sl, mt->other_slot) : n;
  env->regex_limit_hit = false;
  bool ok = gl_pred_holds(mt->pred, n, other, env) || env->regex_limit_hit;
  sl->test_val[t] = ok;
  sl->test_gen[t] = sl->cur;
  return ok;
}

/* True unless d surely cannot match at the root of sl (its key aside). */
static bool entry_may_match(const gl_matcher *m, const gl_mdispatch *d, gl_mslots *sl,
                            gl_pred_env *env) {
  for (uint32_t k = 0; k < d->nfixed; k++) {
    const gl_mfixed *f = &d->fixed[k];
    slot_node(m, sl, f->slot);
    TSSymbol sym = sl->symbol[f->slot];
    if (!sym) return false;
    if (!f->nsymbols) continue;
    bool any = false;
    for (uint8_t j = 0; j < f->nsymbols && !any; j++) any = f->symbols[j] == sym;
    if (!any) return false;
  }
  for (uint32_t k = 0; k < d->ntests; k++)
    if (!test_holds(m, d->tests[k], sl, env)) return false;
  return true;
}

/* Marks in sl->keyed the entries whose key the node at each key class of mask matches. */
static void match_keys(const gl_matcher *m, uint8_t mask, gl_mslots *sl, gl_pred_env *env) {
  for (uint32_t c = 0; c < m->nkey_classes; c++) {
    if (!(mask & (1u << c))) continue;
    TSNode n = slot_node(m, sl, m->key_classes[c].slot);
    if (ts_node_is_null(n)) continue;
    uint32_t len;
    const char *text = gl_pred_key(env, n, m->key_classes[c].resolved, &len);
    if (!text) continue;
    for (size_t i = key_hash(c, text, len) & (m->key_cap - 1); m->keys[i].text;
         i = (i + 1) & (m->key_cap - 1)) {
      const gl_mkey *k = &m->keys[i];
      if (k->cls == c && k->len == len && memcmp(k->text, text, len) == 0)
        sl->keyed[k->dispatch] = sl->cur;
    }
  }
}

bool gl_mdispatch_node(const gl_matcher *m, TSNode node, TSSymbol sym, gl_mslots *sl,
                       gl_pred_env *env, const bool *rule_off, bool *pass) {
  uint32_t begin = m->root_of[sym].begin, end = m->root_of[sym].end;
  if (begin == end) return false;
  gl_mslots_begin(sl, node);
  match_keys(m, m->root_of[sym].key_mask, sl, env);
  bool any = false;
  for (uint32_t k = begin; k < end; k++) {
    const gl_mdispatch *d = &m->dispatch.data[k];
    uint32_t rule = m->patterns.data[d->pattern].rule;
    pass[k] = m->rules.data[rule].rule->enabled && !rule_off[rule] &&
              (d->key < 0 || sl->keyed[k] == sl->cur) && entry_may_match(m, d, sl, env);
    any |= pass[k];
  }
  return any;
}
