/* model.c: the one walk over a parsed file, the node index, and the queries of model.h.
 * Owns: an iterative TSTreeCursor walk with our own frame stack (no recursion, no ts_node_parent)
 *       that indexes every named node by its TSNode id in an open-addressing table (parent, field,
 *       lookup scope, in-loop flag, "is a name" flag), decides what each construct binds (events
 *       for model_names.c), collects comments and the maximum depth; name resolution of
 *       identifiers, attribute chains and import dotted names.
 * Not: the binding table and the LEGB lookup (model_names.c), provenance (issue 3).
 * Threads: a gl_model belongs to one worker; read-only after gl_model_build. */
#include "model.h"

#include <string.h>

#include "model_int.h"
#include "xalloc.h"

/* Node kinds the model looks at, in strcmp order of their names (kind_names is searched with
 * bsearch); K_NONE is every other node. */
typedef enum kind {
  K_NONE,
  K_ALIASED_IMPORT, K_AS_PATTERN, K_AS_PATTERN_TARGET, K_ASSIGNMENT, K_ATTRIBUTE,
  K_AUGMENTED_ASSIGNMENT, K_CLASS_DEFINITION, K_COMMENT, K_DEFAULT_PARAMETER,
  K_DICTIONARY_COMPREHENSION, K_DICTIONARY_SPLAT_PATTERN, K_DOTTED_NAME, K_EXPRESSION_LIST,
  K_FOR_IN_CLAUSE, K_FOR_STATEMENT, K_FUNCTION_DEFINITION, K_FUTURE_IMPORT_STATEMENT,
  K_GENERATOR_EXPRESSION, K_GLOBAL_STATEMENT, K_IDENTIFIER, K_IMPORT_FROM_STATEMENT,
  K_IMPORT_STATEMENT, K_KEYWORD_ARGUMENT, K_LAMBDA, K_LAMBDA_PARAMETERS, K_LIST,
  K_LIST_COMPREHENSION, K_LIST_PATTERN, K_LIST_SPLAT, K_LIST_SPLAT_PATTERN, K_NAMED_EXPRESSION,
  K_NONLOCAL_STATEMENT, K_PARAMETERS, K_PARENTHESIZED_EXPRESSION, K_PATTERN_LIST,
  K_SET_COMPREHENSION, K_TUPLE, K_TUPLE_PATTERN, K_TYPED_DEFAULT_PARAMETER, K_TYPED_PARAMETER,
  K_WHILE_STATEMENT,
  K_COUNT
} kind;

static const char *const kind_names[K_COUNT - 1] = {
  "aliased_import", "as_pattern", "as_pattern_target", "assignment", "attribute",
  "augmented_assignment", "class_definition", "comment", "default_parameter",
  "dictionary_comprehension", "dictionary_splat_pattern", "dotted_name", "expression_list",
  "for_in_clause", "for_statement", "function_definition", "future_import_statement",
  "generator_expression", "global_statement", "identifier", "import_from_statement",
  "import_statement", "keyword_argument", "lambda", "lambda_parameters", "list",
  "list_comprehension", "list_pattern", "list_splat", "list_splat_pattern", "named_expression",
  "nonlocal_statement", "parameters", "parenthesized_expression", "pattern_list",
  "set_comprehension", "tuple", "tuple_pattern", "typed_default_parameter", "typed_parameter",
  "while_statement",
};

/* How an identifier under a node is used (inherited down the frames as far as it applies). */
typedef enum ctx {
  CTX_NONE,       /* an expression: a name that resolves */
  CTX_TARGET,     /* assignment / for / with / except target: binds, still a name */
  CTX_WALRUS,     /* `name :=`: binds in the nearest non-comprehension scope */
  CTX_PARAMS,     /* the parameter list of a def or lambda */
  CTX_PARAM,      /* a parameter name: binds in the def's scope, not a name */
  CTX_DEF_NAME,   /* the name of a def or class: binds in the enclosing scope, not a name */
  CTX_IMPORT,     /* inside an import statement or a dotted_name: not a name */
  CTX_GLOBAL,     /* inside `global`: declares, not a name */
  CTX_NONLOCAL,   /* inside `nonlocal`: declares, not a name */
  CTX_NOT_NAME,   /* attribute field, keyword-argument name */
} ctx;

enum { REC_IN_LOOP = 1, REC_NOT_NAME = 2 };

typedef struct node_rec {
  TSNode node;
  uint32_t parent;   /* index of the nearest named ancestor; GL_MODEL__NONE for the root */
  uint32_t scope;    /* scope where names in this node are looked up */
  TSFieldId field;   /* field under which it sits in its parent; 0 for none */
  uint8_t kind;
  uint8_t flags;     /* REC_* */
} node_rec;

typedef struct field_ids {
  TSFieldId alias, attribute, body, left, module_name, name, object, parameters, right, type;
} field_ids;

struct gl_model {
  const gl_source *src;
  const TSTree *tree;
  gl_vec(node_rec) nodes;      /* every named node, in document order */
  uint32_t *slots;             /* node index + 1, keyed by TSNode.id; 0 = empty */
  size_t nslots;               /* power of two, at least twice the node count */
  gl_vec(gl_comment) comments;
  uint32_t max_depth;
  gl_model__names names;
  uint8_t *kind_of;            /* kind of each symbol of the language */
  uint32_t nsymbols;
  field_ids f;
};

/* ---- kinds and fields ----------------------------------------------------------------------- */

static int cmp_name(const void *key, const void *elem) {
  return strcmp(key, *(const char *const *)elem);
}

static void init_kinds(gl_model *m, const TSLanguage *lang) {
  m->nsymbols = ts_language_symbol_count(lang);
  m->kind_of = gl_xcalloc(m->nsymbols, 1);
  for (uint32_t s = 0; s < m->nsymbols; s++) {
    if (ts_language_symbol_type(lang, (TSSymbol)s) != TSSymbolTypeRegular) continue;
    const char *name = ts_language_symbol_name(lang, (TSSymbol)s);
    const char *const *hit =
        bsearch(name, kind_names, K_COUNT - 1, sizeof(kind_names[0]), cmp_name);
    if (hit) m->kind_of[s] = (uint8_t)(hit - kind_names + 1);
  }
}

static TSFieldId field_id(const TSLanguage *lang, const char *name) {
  return ts_language_field_id_for_name(lang, name, (uint32_t)strlen(name));
}

static void init_fields(field_ids *f, const TSLanguage *lang) {
  f->alias = field_id(lang, "alias");
  f->attribute = field_id(lang, "attribute");
  f->body = field_id(lang, "body");
  f->left = field_id(lang, "left");
  f->module_name = field_id(lang, "module_name");
  f->name = field_id(lang, "name");
  f->object = field_id(lang, "object");
  f->parameters = field_id(lang, "parameters");
  f->right = field_id(lang, "right");
  f->type = field_id(lang, "type");
}

static kind kind_of(const gl_model *m, TSNode n) {
  TSSymbol s = ts_node_symbol(n);
  return s < m->nsymbols ? (kind)m->kind_of[s] : K_NONE;
}

static bool opens_scope(kind k) {
  return k == K_FUNCTION_DEFINITION || k == K_LAMBDA || k == K_CLASS_DEFINITION ||
         k == K_LIST_COMPREHENSION || k == K_SET_COMPREHENSION ||
         k == K_DICTIONARY_COMPREHENSION || k == K_GENERATOR_EXPRESSION;
}

static gl_model__scope_kind scope_kind(kind k) {
  if (k == K_FUNCTION_DEFINITION || k == K_LAMBDA) return GL_SCOPE_FUNCTION;
  if (k == K_CLASS_DEFINITION) return GL_SCOPE_CLASS;
  return GL_SCOPE_COMPREHENSION;
}

/* ---- the node index ------------------------------------------------------------------------ */

static size_t slot_of(const void *id, size_t nslots) {
  uint64_t x = (uint64_t)(uintptr_t)id;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x & (nslots - 1);
}

static void slot_put(uint32_t *slots, size_t nslots, const void *id, uint32_t value) {
  size_t i = slot_of(id, nslots);
  while (slots[i]) i = (i + 1) & (nslots - 1);
  slots[i] = value;
}

static void index_grow(gl_model *m) {
  size_t n = m->nslots ? m->nslots * 2 : 1024;
  uint32_t *slots = gl_xcalloc(n, sizeof(*slots));
  for (size_t i = 0; i < m->nodes.len; i++)
    slot_put(slots, n, m->nodes.data[i].node.id, (uint32_t)i + 1);
  free(m->slots);
  m->slots = slots;
  m->nslots = n;
}

static uint32_t index_add(gl_model *m, const node_rec *r) {
  if ((m->nodes.len + 1) * 2 > m->nslots) index_grow(m);
  gl_vec_push(&m->nodes, *r);
  slot_put(m->slots, m->nslots, r->node.id, (uint32_t)m->nodes.len);
  return (uint32_t)(m->nodes.len - 1);
}

static const node_rec *rec_of(const gl_model *m, TSNode n) {
  if (!m->nslots || !n.id) return NULL;
  for (size_t i = slot_of(n.id, m->nslots);; i = (i + 1) & (m->nslots - 1)) {
    uint32_t s = m->slots[i];
    if (!s) return NULL;
    const node_rec *r = &m->nodes.data[s - 1];
    if (r->node.id == n.id && r->node.tree == n.tree) return r;
  }
}

/* ---- text ----------------------------------------------------------------------------------- */

static const char *text_of(const gl_model *m, TSNode n, size_t *len) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  if (b > m->src->len) b = (uint32_t)m->src->len;
  if (a > b) a = b;
  *len = b - a;
  return m->src->bytes + a;
}

/* Copies the identifiers and dots of a dotted_name, without the whitespace, line continuations
 * and comments between them, into out (at most cap bytes). Returns the full length. */
static size_t dotted_copy(const gl_model *m, TSNode n, char *out, size_t cap) {
  size_t len, w = 0;
  const char *s = text_of(m, n, &len);
  for (size_t i = 0; i < len; i++) {
    char ch = s[i];
    if (ch == '#') {
      while (i + 1 < len && s[i + 1] != '\n') i++;
      continue;
    }
    if (ch == ' ' || ch == '\t' || ch == '\f' || ch == '\r' || ch == '\n' || ch == '\\') continue;
    if (w < cap) out[w] = ch;
    w++;
  }
  return w;
}

/* ---- the walk ------------------------------------------------------------------------------ */

/* One entry of the walk's stack: a node on the cursor's path and what its children inherit. */
typedef struct frame {
  uint32_t named;       /* this node's index when named, else its nearest named ancestor's */
  uint32_t scope;       /* lookup scope of this node */
  uint32_t inner;       /* scope this node opens (def, lambda, class, comprehension) or NONE */
  uint32_t bind;        /* where a CTX_PARAM name binds: the def's own scope */
  uint32_t alt_scope;   /* first for_in_clause: scope and loop flag of its iterable */
  uint8_t kind, ctx;
  bool loop, alt_loop;
  bool first_for;       /* the first for_in_clause of its comprehension */
  bool seen_for;        /* comprehension: its first for_in_clause has been met */
} frame;

typedef struct builder {
  gl_model *m;
  gl_vec(frame) stack;
  TSTreeCursor scratch;   /* children of one import statement */
  gl_vec(char) buf;       /* a qualified name being built */
} builder;

/* Containers through which an assignment target or a parameter reaches its names. */
static bool passes_target(kind k) {
  switch (k) {
    case K_PATTERN_LIST: case K_TUPLE_PATTERN: case K_LIST_PATTERN: case K_LIST_SPLAT_PATTERN:
    case K_DICTIONARY_SPLAT_PATTERN: case K_TUPLE: case K_LIST: case K_PARENTHESIZED_EXPRESSION:
    case K_LIST_SPLAT: case K_EXPRESSION_LIST: case K_AS_PATTERN_TARGET:
      return true;
    default:
      return false;
  }
}

/* Children of a comprehension live in its scope and loop, except the first for_in_clause's
 * iterable, which is evaluated once, outside (Python's rule). */
static void comprehension_child(frame *p, frame *c, kind k) {
  c->scope = p->inner;
  c->loop = true;
  if (k != K_FOR_IN_CLAUSE || p->seen_for) return;
  p->seen_for = true;
  c->first_for = true;
  c->loop = p->loop;
  c->alt_scope = p->scope;
  c->alt_loop = p->loop;
}

/* Children of def, lambda and class: not in the enclosing loop; body in the new scope;
 * parameters evaluated outside but binding inside; the name binds outside. */
static void definition_child(const field_ids *f, const frame *p, frame *c, TSFieldId field) {
  c->loop = false;
  if (field == f->body) c->scope = p->inner;
  else if (field == f->parameters) c->ctx = CTX_PARAMS, c->bind = p->inner;
  else if (field == f->name) c->ctx = CTX_DEF_NAME;
}

static uint8_t param_child(const field_ids *f, const frame *p, TSFieldId field) {
  if (p->ctx != CTX_PARAM) return CTX_NONE;
  switch ((kind)p->kind) {
    case K_DEFAULT_PARAMETER: case K_TYPED_DEFAULT_PARAMETER:
      return field == f->name ? CTX_PARAM : CTX_NONE;
    case K_TYPED_PARAMETER:
      return field == f->type ? CTX_NONE : CTX_PARAM;
    default:
      return passes_target((kind)p->kind) ? CTX_PARAM : CTX_NONE;
  }
}

static frame child_frame(const gl_model *m, frame *p, kind k, TSFieldId field) {
  const field_ids *f = &m->f;
  frame c = {p->named, p->scope, GL_MODEL__NONE, p->bind, 0, (uint8_t)k, CTX_NONE, p->loop,
             false, false, false};
  if (p->ctx == CTX_IMPORT) {
    c.ctx = CTX_IMPORT;
    return c;
  }
  switch ((kind)p->kind) {
    case K_FUNCTION_DEFINITION: case K_LAMBDA: case K_CLASS_DEFINITION:
      definition_child(f, p, &c, field); break;
    case K_FOR_STATEMENT:
      if (field == f->body) c.loop = true;
      else if (field == f->left) c.ctx = CTX_TARGET;
      break;
    case K_WHILE_STATEMENT:
      if (field == f->body) c.loop = true;
      break;
    case K_LIST_COMPREHENSION: case K_SET_COMPREHENSION: case K_DICTIONARY_COMPREHENSION:
    case K_GENERATOR_EXPRESSION:
      comprehension_child(p, &c, k); break;
    case K_FOR_IN_CLAUSE:
      if (field == f->right && p->first_for) c.scope = p->alt_scope, c.loop = p->alt_loop;
      else c.loop = true;
      if (field == f->left) c.ctx = CTX_TARGET;
      break;
    case K_ASSIGNMENT: case K_AUGMENTED_ASSIGNMENT:
      if (field == f->left) c.ctx = CTX_TARGET;
      break;
    case K_NAMED_EXPRESSION:
      if (field == f->name) c.ctx = CTX_WALRUS;
      break;
    case K_AS_PATTERN:
      if (field == f->alias) c.ctx = CTX_TARGET;
      break;
    case K_PARAMETERS: case K_LAMBDA_PARAMETERS:
      if (p->ctx == CTX_PARAMS) c.ctx = CTX_PARAM;
      break;
    case K_IMPORT_STATEMENT: case K_IMPORT_FROM_STATEMENT: case K_FUTURE_IMPORT_STATEMENT:
    case K_DOTTED_NAME: case K_ALIASED_IMPORT:
      c.ctx = CTX_IMPORT; break;
    case K_GLOBAL_STATEMENT: c.ctx = CTX_GLOBAL; break;
    case K_NONLOCAL_STATEMENT: c.ctx = CTX_NONLOCAL; break;
    case K_ATTRIBUTE:
      if (field == f->attribute) c.ctx = CTX_NOT_NAME;
      break;
    case K_KEYWORD_ARGUMENT:
      if (field == f->name) c.ctx = CTX_NOT_NAME;
      break;
    default:
      break;
  }
  if (p->ctx == CTX_PARAM) c.ctx = param_child(f, p, field);
  else if (p->ctx == CTX_TARGET && passes_target((kind)p->kind)) c.ctx = CTX_TARGET;
  return c;
}

static void bind_identifier(builder *b, const frame *c, TSNode n) {
  gl_model__names *names = &b->m->names;
  size_t len;
  const char *s = text_of(b->m, n, &len);
  switch ((ctx)c->ctx) {
    case CTX_TARGET: case CTX_DEF_NAME:
      gl_model__event_add(names, c->scope, GL_BIND_OTHER, s, len, NULL, 0); break;
    case CTX_PARAM:
      gl_model__event_add(names, c->bind, GL_BIND_OTHER, s, len, NULL, 0); break;
    case CTX_WALRUS:
      gl_model__event_add(names, gl_model__walrus_scope(names, c->scope), GL_BIND_OTHER, s, len,
                          NULL, 0);
      break;
    case CTX_GLOBAL: gl_model__event_add(names, c->scope, GL_DECL_GLOBAL, s, len, NULL, 0); break;
    case CTX_NONLOCAL:
      gl_model__event_add(names, c->scope, GL_DECL_NONLOCAL, s, len, NULL, 0); break;
    default:
      break;
  }
}

static bool identifier_is_name(ctx c) {
  return c == CTX_NONE || c == CTX_TARGET || c == CTX_WALRUS;
}

/* Appends the text of dotted_name n to b->buf. */
static void buf_dotted(builder *b, TSNode n) {
  gl_vec_reserve(&b->buf, ts_node_end_byte(n) - ts_node_start_byte(n));
  b->buf.len += dotted_copy(b->m, n, b->buf.data + b->buf.len, b->buf.cap - b->buf.len);
}

static size_t segment_len(const char *s, size_t len) {
  const char *dot = memchr(s, '.', len);
  return dot ? (size_t)(dot - s) : len;
}

/* One `name` child of an import statement (dotted_name or aliased_import). mod is the module of
 * a from-import (null node when relative or absent). */
static void bind_import_name(builder *b, kind stmt, uint32_t scope, TSNode item, TSNode mod) {
  gl_model *m = b->m;
  TSNode dotted = item, alias = {{0}, NULL, NULL};
  if (kind_of(m, item) == K_ALIASED_IMPORT) {
    dotted = ts_node_child_by_field_id(item, m->f.name);
    alias = ts_node_child_by_field_id(item, m->f.alias);
  }
  if (ts_node_is_null(dotted) || kind_of(m, dotted) != K_DOTTED_NAME) return;
  b->buf.len = 0;
  if (stmt == K_IMPORT_FROM_STATEMENT && !ts_node_is_null(mod)) {
    buf_dotted(b, mod);
    gl_vec_push(&b->buf, '.');
  }
  size_t name_at = b->buf.len;
  buf_dotted(b, dotted);
  const char *name = b->buf.data + name_at;
  size_t name_len = segment_len(name, b->buf.len - name_at);
  if (!ts_node_is_null(alias)) name = text_of(m, alias, &name_len);
  bool absolute = stmt == K_IMPORT_STATEMENT ||
                  (stmt == K_IMPORT_FROM_STATEMENT && !ts_node_is_null(mod));
  if (!absolute) {
    gl_model__event_add(&m->names, scope, GL_BIND_OTHER, name, name_len, NULL, 0);
    return;
  }
  /* `import a.b` binds a -> "a"; every other form binds the whole qualified name. */
  size_t qual_len = b->buf.len;
  if (stmt == K_IMPORT_STATEMENT && ts_node_is_null(alias)) qual_len = name_len;
  gl_model__event_add(&m->names, scope, GL_BIND_IMPORT, name, name_len, b->buf.data, qual_len);
}

static void bind_imports(builder *b, TSNode stmt, kind k, uint32_t scope) {
  const field_ids *f = &b->m->f;
  TSTreeCursor *c = &b->scratch;
  TSNode mod = {{0}, NULL, NULL};
  ts_tree_cursor_reset(c, stmt);
  if (!ts_tree_cursor_goto_first_child(c)) return;
  do {
    TSFieldId field = ts_tree_cursor_current_field_id(c);
    TSNode child = ts_tree_cursor_current_node(c);
    if (field == f->module_name && kind_of(b->m, child) == K_DOTTED_NAME) mod = child;
    else if (field == f->name) bind_import_name(b, k, scope, child, mod);
  } while (ts_tree_cursor_goto_next_sibling(c));
}

/* Records the node on top of the stack. */
static void visit(builder *b, TSNode n, TSFieldId field) {
  gl_model *m = b->m;
  frame *c = gl_vec_last(&b->stack);
  kind k = (kind)c->kind;
  if (b->stack.len > m->max_depth) m->max_depth = (uint32_t)b->stack.len;
  if (opens_scope(k)) c->inner = gl_model__scope_new(&m->names, scope_kind(k), c->scope);
  if (!ts_node_is_named(n)) return;
  node_rec r = {n, c->named, c->scope, field, (uint8_t)k, 0};
  if (c->loop) r.flags |= REC_IN_LOOP;
  if (k == K_IDENTIFIER && !identifier_is_name((ctx)c->ctx)) r.flags |= REC_NOT_NAME;
  c->named = index_add(m, &r);
  if (k == K_IDENTIFIER) bind_identifier(b, c, n);
  else if (k == K_COMMENT) {
    gl_comment cm = {ts_node_start_byte(n), ts_node_end_byte(n)};
    gl_vec_push(&m->comments, cm);
  } else if (k == K_IMPORT_STATEMENT || k == K_IMPORT_FROM_STATEMENT ||
             k == K_FUTURE_IMPORT_STATEMENT) {
    bind_imports(b, n, k == K_FUTURE_IMPORT_STATEMENT ? K_NONE : k, c->scope);
  }
}

/* Pushes the frame of the cursor's node (a child of the stack's top) and visits it. */
static void enter(builder *b, const TSTreeCursor *cur) {
  TSNode n = ts_tree_cursor_current_node(cur);
  TSFieldId field = ts_tree_cursor_current_field_id(cur);
  frame c = child_frame(b->m, gl_vec_last(&b->stack), kind_of(b->m, n), field);
  gl_vec_push(&b->stack, c);
  visit(b, n, field);
}

static void walk(builder *b, TSNode root) {
  frame top = {GL_MODEL__NONE, GL_MODEL__MODULE_SCOPE, GL_MODEL__NONE, GL_MODEL__MODULE_SCOPE,
               0, (uint8_t)kind_of(b->m, root), CTX_NONE, false, false, false, false};
  gl_vec_push(&b->stack, top);
  visit(b, root, 0);
  TSTreeCursor cur = ts_tree_cursor_new(root);
  for (;;) {
    if (ts_tree_cursor_goto_first_child(&cur)) {
      enter(b, &cur);
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&cur)) {
      if (!ts_tree_cursor_goto_parent(&cur)) {
        ts_tree_cursor_delete(&cur);
        return;
      }
      b->stack.len--;
    }
    b->stack.len--;
    enter(b, &cur);
  }
}

gl_model *gl_model_build(const gl_source *src, const TSTree *tree) {
  gl_model *m = gl_xcalloc(1, sizeof(*m));
  m->src = src;
  m->tree = tree;
  const TSLanguage *lang = ts_tree_language(tree);
  init_kinds(m, lang);
  init_fields(&m->f, lang);
  gl_model__names_init(&m->names);
  TSNode root = ts_tree_root_node(tree);
  builder b = {.m = m, .scratch = ts_tree_cursor_new(root)};
  walk(&b, root);
  ts_tree_cursor_delete(&b.scratch);
  gl_vec_free(&b.stack);
  gl_vec_free(&b.buf);
  gl_model__names_finish(&m->names);
  return m;
}

/* ---- queries -------------------------------------------------------------------------------- */

static bool put(char *buf, size_t cap, size_t at, const char *s, size_t len) {
  if (at + len + 1 > cap) return false;
  memcpy(buf + at, s, len);
  buf[at + len] = '\0';
  return true;
}

static bool lookup_identifier(const gl_model *m, const node_rec *r, const char **q, size_t *ql) {
  if (r->flags & REC_NOT_NAME) return false;
  size_t len;
  const char *name = text_of(m, r->node, &len);
  return gl_model__lookup(&m->names, r->scope, name, len, q, ql);
}

/* a.b.c: the resolution of the leftmost identifier plus ".b.c", written right to left. */
static bool resolve_attribute(const gl_model *m, TSNode top, char *buf, size_t cap) {
  size_t suffix = 0, len;
  TSNode cur = top;
  while (kind_of(m, cur) == K_ATTRIBUTE) {
    TSNode attr = ts_node_child_by_field_id(cur, m->f.attribute);
    if (ts_node_is_null(attr)) return false;
    text_of(m, attr, &len);
    suffix += 1 + len;
    cur = ts_node_child_by_field_id(cur, m->f.object);
  }
  const node_rec *base = kind_of(m, cur) == K_IDENTIFIER ? rec_of(m, cur) : NULL;
  const char *q;
  size_t ql;
  if (!base || !lookup_identifier(m, base, &q, &ql)) return false;
  if (!put(buf, cap, 0, q, ql) || ql + suffix + 1 > cap) return false;
  size_t pos = ql + suffix;
  buf[pos] = '\0';
  for (cur = top; kind_of(m, cur) == K_ATTRIBUTE; cur = ts_node_child_by_field_id(cur, m->f.object)) {
    const char *a = text_of(m, ts_node_child_by_field_id(cur, m->f.attribute), &len);
    pos -= len;
    memcpy(buf + pos, a, len);
    buf[--pos] = '.';
  }
  return true;
}

static bool put_dotted(const gl_model *m, TSNode n, char *buf, size_t cap, size_t at) {
  size_t len = dotted_copy(m, n, at < cap ? buf + at : buf, at < cap ? cap - at : 0);
  if (at + len + 1 > cap) return false;
  buf[at + len] = '\0';
  return true;
}

/* `from M import N`: "M.N" for an absolute module M; false for a relative one. */
static bool resolve_from_name(const gl_model *m, const node_rec *stmt, TSNode name, char *buf,
                              size_t cap) {
  TSNode mod = ts_node_child_by_field_id(stmt->node, m->f.module_name);
  if (ts_node_is_null(mod) || kind_of(m, mod) != K_DOTTED_NAME) return false;
  if (!put_dotted(m, mod, buf, cap, 0)) return false;
  size_t at = strlen(buf);
  return put(buf, cap, at, ".", 1) && put_dotted(m, name, buf, cap, at + 1);
}

static bool resolve_dotted(const gl_model *m, const node_rec *r, char *buf, size_t cap) {
  if (r->parent == GL_MODEL__NONE) return false;
  const node_rec *p = &m->nodes.data[r->parent];
  if (p->kind == K_IMPORT_STATEMENT) return put_dotted(m, r->node, buf, cap, 0);
  if (p->kind == K_IMPORT_FROM_STATEMENT) {
    if (r->field == m->f.module_name) return put_dotted(m, r->node, buf, cap, 0);
    return r->field == m->f.name && resolve_from_name(m, p, r->node, buf, cap);
  }
  if (p->kind != K_ALIASED_IMPORT || r->field != m->f.name || p->parent == GL_MODEL__NONE)
    return false;
  const node_rec *stmt = &m->nodes.data[p->parent];
  if (stmt->kind == K_IMPORT_STATEMENT) return put_dotted(m, r->node, buf, cap, 0);
  return stmt->kind == K_IMPORT_FROM_STATEMENT && resolve_from_name(m, stmt, r->node, buf, cap);
}

bool gl_model_resolve(const gl_model *m, TSNode node, char *buf, size_t cap) {
  const node_rec *r = rec_of(m, node);
  if (!r || cap == 0) return false;
  const char *q;
  size_t ql;
  switch (r->kind) {
    case K_IDENTIFIER:
      return lookup_identifier(m, r, &q, &ql) && put(buf, cap, 0, q, ql);
    case K_ATTRIBUTE:
      return resolve_attribute(m, node, buf, cap);
    case K_DOTTED_NAME:
      return resolve_dotted(m, r, buf, cap);
    default:
      return false;
  }
}

bool gl_model_in_loop(const gl_model *m, TSNode node) {
  const node_rec *r = rec_of(m, node);
  return r && (r->flags & REC_IN_LOOP);
}

const gl_comment *gl_model_comments(const gl_model *m, size_t *count) {
  *count = m->comments.len;
  return m->comments.data;
}

uint32_t gl_model_max_depth(const gl_model *m) { return m->max_depth; }

void gl_model_free(gl_model *m) {
  if (!m) return;
  gl_vec_free(&m->nodes);
  gl_vec_free(&m->comments);
  gl_model__names_free(&m->names);
  free(m->slots);
  free(m->kind_of);
  free(m);
}
