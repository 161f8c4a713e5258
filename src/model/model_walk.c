/* model_walk.c: the one walk over a parsed file and what each construct binds.
 * Owns: an iterative TSTreeCursor walk with its own frame stack (no recursion, no ts_node_parent);
 *       per node: lookup scope, in-loop flag, whether an identifier is a name; the binding and
 *       declaration events of assignments, loops, with/except targets, parameters, defs, walrus,
 *       global/nonlocal and imports; comments and the maximum depth.
 * Not: the index table (model.c), folding events into bindings and lookup (model_names.c).
 * Threads: runs inside gl_model_build on the worker that owns the model. */
#include "model/model_int.h"

#include <string.h>

#include "base/xalloc.h"

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

static bool opens_scope(gl_model__kind k) {
  return k == GL_K_FUNCTION_DEFINITION || k == GL_K_LAMBDA || k == GL_K_CLASS_DEFINITION ||
         k == GL_K_LIST_COMPREHENSION || k == GL_K_SET_COMPREHENSION ||
         k == GL_K_DICTIONARY_COMPREHENSION || k == GL_K_GENERATOR_EXPRESSION;
}

static gl_model__scope_kind scope_kind(gl_model__kind k) {
  if (k == GL_K_FUNCTION_DEFINITION || k == GL_K_LAMBDA) return GL_SCOPE_FUNCTION;
  if (k == GL_K_CLASS_DEFINITION) return GL_SCOPE_CLASS;
  return GL_SCOPE_COMPREHENSION;
}

/* One entry of the walk's stack: a node on the cursor's path and what its children inherit. */
typedef struct frame {
  uint32_t named;       /* this node's index when named, else its nearest named ancestor's */
  uint32_t scope;       /* lookup scope of this node */
  uint32_t inner;       /* scope this node opens (def, lambda, class, comprehension) or NONE */
  uint32_t bind;        /* where a CTX_PARAM name binds: the def's own scope */
  uint32_t alt_scope;   /* first for_in_clause: scope and loop flag of its iterable */
  uint32_t ev_mark;     /* try_statement: the number of binding events before its body */
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
static bool passes_target(gl_model__kind k) {
  switch (k) {
    case GL_K_PATTERN_LIST: case GL_K_TUPLE_PATTERN: case GL_K_LIST_PATTERN:
    case GL_K_LIST_SPLAT_PATTERN: case GL_K_DICTIONARY_SPLAT_PATTERN: case GL_K_TUPLE:
    case GL_K_LIST: case GL_K_PARENTHESIZED_EXPRESSION: case GL_K_LIST_SPLAT:
    case GL_K_EXPRESSION_LIST: case GL_K_AS_PATTERN_TARGET:
      return true;
    default:
      return false;
  }
}

/* Children of a comprehension live in its scope and loop, except the first for_in_clause's
 * iterable, which is evaluated once, outside (Python's rule). */
static void comprehension_child(frame *p, frame *c, gl_model__kind k) {
  c->scope = p->inner;
  c->loop = true;
  if (k != GL_K_FOR_IN_CLAUSE || p->seen_for) return;
  p->seen_for = true;
  c->first_for = true;
  c->loop = p->loop;
  c->alt_scope = p->scope;
  c->alt_loop = p->loop;
}

/* The first for_in_clause's iterable keeps the comprehension's outer scope and loop flag. */
static void for_in_child(const gl_model__fields *f, const frame *p, frame *c, TSFieldId field) {
  if (field == f->right && p->first_for) {
    c->scope = p->alt_scope;
    c->loop = p->alt_loop;
  } else {
    c->loop = true;
  }
  if (field == f->left) c->ctx = CTX_TARGET;
}

/* Children of def, lambda and class: not in the enclosing loop; body in the new scope;
 * parameters evaluated outside but binding inside; the name binds outside. */
static void definition_child(const gl_model__fields *f, const frame *p, frame *c,
                             TSFieldId field) {
  c->loop = false;
  if (field == f->body) {
    c->scope = p->inner;
  } else if (field == f->parameters) {
    c->ctx = CTX_PARAMS;
    c->bind = p->inner;
  } else if (field == f->name) {
    c->ctx = CTX_DEF_NAME;
  }
}

static uint8_t param_child(const gl_model__fields *f, const frame *p, TSFieldId field) {
  if (p->ctx != CTX_PARAM) return CTX_NONE;
  switch ((gl_model__kind)p->kind) {
    case GL_K_DEFAULT_PARAMETER: case GL_K_TYPED_DEFAULT_PARAMETER:
      return field == f->name ? CTX_PARAM : CTX_NONE;
    case GL_K_TYPED_PARAMETER:
      return field == f->type ? CTX_NONE : CTX_PARAM;
    default:
      return passes_target((gl_model__kind)p->kind) ? CTX_PARAM : CTX_NONE;
  }
}

static frame child_frame(const gl_model *m, frame *p, gl_model__kind k, TSFieldId field) {
  const gl_model__fields *f = &m->f;
  frame c = {p->named, p->scope, GL_MODEL__NONE, p->bind, 0, 0, (uint8_t)k, CTX_NONE, p->loop,
             false, false, false};
  if (p->ctx == CTX_IMPORT) {
    c.ctx = CTX_IMPORT;
    return c;
  }
  switch ((gl_model__kind)p->kind) {
    case GL_K_FUNCTION_DEFINITION: case GL_K_LAMBDA: case GL_K_CLASS_DEFINITION:
      definition_child(f, p, &c, field); break;
    case GL_K_FOR_STATEMENT:
      if (field == f->body) c.loop = true;
      else if (field == f->left) c.ctx = CTX_TARGET;
      break;
    case GL_K_WHILE_STATEMENT:
      if (field == f->body) c.loop = true;
      break;
    case GL_K_LIST_COMPREHENSION: case GL_K_SET_COMPREHENSION: case GL_K_DICTIONARY_COMPREHENSION:
    case GL_K_GENERATOR_EXPRESSION:
      comprehension_child(p, &c, k); break;
    case GL_K_FOR_IN_CLAUSE:
      for_in_child(f, p, &c, field); break;
    case GL_K_ASSIGNMENT: case GL_K_AUGMENTED_ASSIGNMENT:
      if (field == f->left) c.ctx = CTX_TARGET;
      break;
    case GL_K_NAMED_EXPRESSION:
      if (field == f->name) c.ctx = CTX_WALRUS;
      break;
    case GL_K_AS_PATTERN:
      if (field == f->alias) c.ctx = CTX_TARGET;
      break;
    case GL_K_PARAMETERS: case GL_K_LAMBDA_PARAMETERS:
      if (p->ctx == CTX_PARAMS) c.ctx = CTX_PARAM;
      break;
    case GL_K_IMPORT_STATEMENT: case GL_K_IMPORT_FROM_STATEMENT: case GL_K_FUTURE_IMPORT_STATEMENT:
    case GL_K_DOTTED_NAME: case GL_K_ALIASED_IMPORT:
      c.ctx = CTX_IMPORT; break;
    case GL_K_GLOBAL_STATEMENT: c.ctx = CTX_GLOBAL; break;
    case GL_K_NONLOCAL_STATEMENT: c.ctx = CTX_NONLOCAL; break;
    case GL_K_ATTRIBUTE:
      if (field == f->attribute) c.ctx = CTX_NOT_NAME;
      break;
    case GL_K_KEYWORD_ARGUMENT:
      if (field == f->name) c.ctx = CTX_NOT_NAME;
      break;
    default:
      break;
  }
  if (p->ctx == CTX_PARAM) c.ctx = param_child(f, p, field);
  else if (p->ctx == CTX_TARGET && passes_target((gl_model__kind)p->kind)) c.ctx = CTX_TARGET;
  return c;
}

/* ---- the optional-import idiom ---------------------------------------------------------- */

static bool is_import_error(const gl_model *m, TSNode n) {
  size_t len;
  const char *s = gl_model__text(m, n, &len);
  return gl_model__kind_of(m, n) == GL_K_IDENTIFIER &&
         ((len == 11 && memcmp(s, "ImportError", 11) == 0) ||
          (len == 19 && memcmp(s, "ModuleNotFoundError", 19) == 0));
}

/* An except clause that catches a failed import: bare, ImportError, ModuleNotFoundError, a tuple
 * of those, each optionally `as e`. */
static bool catches_import_error(const gl_model *m, TSNode except) {
  TSNode v = ts_node_child_by_field_id(except, m->f.value);
  if (ts_node_is_null(v)) return true;
  if (gl_model__kind_of(m, v) == GL_K_AS_PATTERN) v = ts_node_named_child(v, 0);
  if (gl_model__kind_of(m, v) != GL_K_TUPLE) return is_import_error(m, v);
  uint32_t n = ts_node_named_child_count(v);
  for (uint32_t i = 0; i < n; i++)
    if (!is_import_error(m, ts_node_named_child(v, i))) return false;
  return n > 0;
}

static bool imported_since(const gl_model__names *n, uint32_t from, uint32_t scope,
                           const char *name, size_t len) {
  for (size_t i = from; i < n->events.len; i++) {
    const gl_model__event *e = &n->events.data[i];
    if (e->kind == GL_BIND_IMPORT && e->scope == scope && e->name_len == len &&
        memcmp(n->pool.data + e->name_off, name, len) == 0)
      return true;
  }
  return false;
}

/* True for the target of `name = None` / `name = False` written directly in an ImportError
 * handler of a try statement whose body imported name in the same scope. The stack holds
 * try, except_clause, block, expression_statement, assignment and the identifier. */
static bool import_fallback(const builder *b, TSFieldId field, const char *name, size_t len) {
  const gl_model *m = b->m;
  size_t d = b->stack.len;
  if (d < 6 || field != m->f.left) return false;
  const frame *st = b->stack.data;
  if (st[d - 2].kind != GL_K_ASSIGNMENT || st[d - 3].kind != GL_K_EXPRESSION_STATEMENT ||
      st[d - 4].kind != GL_K_BLOCK || st[d - 5].kind != GL_K_EXCEPT_CLAUSE ||
      st[d - 6].kind != GL_K_TRY_STATEMENT)
    return false;
  TSNode right = ts_node_child_by_field_id(m->nodes.data[st[d - 2].named].node, m->f.right);
  gl_model__kind rk = gl_model__kind_of(m, right);
  if (rk != GL_K_NONE_LITERAL && rk != GL_K_FALSE) return false;
  if (!catches_import_error(m, m->nodes.data[st[d - 5].named].node)) return false;
  return imported_since(&m->names, st[d - 6].ev_mark, st[d - 1].scope, name, len);
}

/* ---- binding events --------------------------------------------------------------------- */

static void bind_identifier(builder *b, const frame *c, TSNode n, TSFieldId field) {
  gl_model__names *names = &b->m->names;
  size_t len;
  const char *s = gl_model__text(b->m, n, &len);
  switch ((ctx)c->ctx) {
    case CTX_TARGET:
      if (import_fallback(b, field, s, len)) {
        b->m->nodes.data[c->named].flags |= GL_REC_FALLBACK;
        gl_model__event_add(names, c->scope, GL_BIND_FALLBACK, s, len, NULL, 0);
      } else {
        gl_model__event_add(names, c->scope, GL_BIND_OTHER, s, len, NULL, 0);
      }
      break;
    case CTX_DEF_NAME:
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
  b->buf.len += gl_model__dotted_copy(b->m, n, b->buf.data + b->buf.len, b->buf.cap - b->buf.len);
}

static size_t segment_len(const char *s, size_t len) {
  const char *dot = memchr(s, '.', len);
  return dot ? (size_t)(dot - s) : len;
}

/* One `name` child of an import statement (dotted_name or aliased_import). mod is the module of
 * a from-import (null node when relative or absent). */
static void bind_import_name(builder *b, gl_model__kind stmt, uint32_t scope, TSNode item,
                             TSNode mod) {
  gl_model *m = b->m;
  TSNode dotted = item, alias = {{0}, NULL, NULL};
  if (gl_model__kind_of(m, item) == GL_K_ALIASED_IMPORT) {
    dotted = ts_node_child_by_field_id(item, m->f.name);
    alias = ts_node_child_by_field_id(item, m->f.alias);
  }
  if (ts_node_is_null(dotted) || gl_model__kind_of(m, dotted) != GL_K_DOTTED_NAME) return;
  b->buf.len = 0;
  if (stmt == GL_K_IMPORT_FROM_STATEMENT && !ts_node_is_null(mod)) {
    buf_dotted(b, mod);
    gl_vec_push(&b->buf, '.');
  }
  size_t name_at = b->buf.len;
  buf_dotted(b, dotted);
  const char *name = b->buf.data + name_at;
  size_t name_len = segment_len(name, b->buf.len - name_at);
  if (!ts_node_is_null(alias)) name = gl_model__text(m, alias, &name_len);
  bool absolute = stmt == GL_K_IMPORT_STATEMENT ||
                  (stmt == GL_K_IMPORT_FROM_STATEMENT && !ts_node_is_null(mod));
  if (!absolute) {
    gl_model__event_add(&m->names, scope, GL_BIND_OTHER, name, name_len, NULL, 0);
    return;
  }
  /* `import a.b` binds a -> "a"; every other form binds the whole qualified name. */
  size_t qual_len = b->buf.len;
  if (stmt == GL_K_IMPORT_STATEMENT && ts_node_is_null(alias)) qual_len = name_len;
  gl_model__event_add(&m->names, scope, GL_BIND_IMPORT, name, name_len, b->buf.data, qual_len);
}

static void bind_imports(builder *b, TSNode stmt, gl_model__kind k, uint32_t scope) {
  const gl_model__fields *f = &b->m->f;
  TSTreeCursor *c = &b->scratch;
  TSNode mod = {{0}, NULL, NULL};
  ts_tree_cursor_reset(c, stmt);
  if (!ts_tree_cursor_goto_first_child(c)) return;
  do {
    TSFieldId field = ts_tree_cursor_current_field_id(c);
    TSNode child = ts_tree_cursor_current_node(c);
    if (field == f->module_name && gl_model__kind_of(b->m, child) == GL_K_DOTTED_NAME) mod = child;
    else if (field == f->name) bind_import_name(b, k, scope, child, mod);
  } while (ts_tree_cursor_goto_next_sibling(c));
}

/* Records the node on top of the stack. */
static void visit(builder *b, TSNode n, TSFieldId field) {
  gl_model *m = b->m;
  frame *c = gl_vec_last(&b->stack);
  gl_model__kind k = (gl_model__kind)c->kind;
  if (b->stack.len > m->max_depth) m->max_depth = (uint32_t)b->stack.len;
  if (opens_scope(k)) c->inner = gl_model__scope_new(&m->names, scope_kind(k), c->scope);
  if (!ts_node_is_named(n)) return;
  gl_model__rec r = {n, c->named, c->scope, field, (uint8_t)k, 0, GL_TYPE_NONE, 0, 0};
  if (c->loop) r.flags |= GL_REC_IN_LOOP;
  if (k == GL_K_IDENTIFIER && !identifier_is_name((ctx)c->ctx)) r.flags |= GL_REC_NOT_NAME;
  if (k == GL_K_IDENTIFIER && (c->ctx == CTX_TARGET || c->ctx == CTX_WALRUS))
    r.flags |= GL_REC_TARGET;
  if (c->first_for) r.flags |= GL_REC_FIRST_FOR;
  if (k == GL_K_TRY_STATEMENT) c->ev_mark = (uint32_t)m->names.events.len;
  c->named = gl_model__index_add(m, &r);
  if (k == GL_K_IDENTIFIER) bind_identifier(b, c, n, field);
  else if (k == GL_K_COMMENT) {
    gl_comment cm = {ts_node_start_byte(n), ts_node_end_byte(n)};
    gl_vec_push(&m->comments, cm);
  } else if (k == GL_K_IMPORT_STATEMENT || k == GL_K_IMPORT_FROM_STATEMENT ||
             k == GL_K_FUTURE_IMPORT_STATEMENT) {
    bind_imports(b, n, k == GL_K_FUTURE_IMPORT_STATEMENT ? GL_K_NONE : k, c->scope);
  }
}

/* Pushes the frame of the cursor's node (a child of the stack's top) and visits it; false (no
 * frame) for an anonymous token, about half of all nodes, which is neither recorded nor bound
 * and counts only for the depth. */
static bool enter(builder *b, const TSTreeCursor *cur) {
  TSNode n = ts_tree_cursor_current_node(cur);
  if (!ts_node_is_named(n) && ts_node_child_count(n) == 0) {
    if (b->stack.len + 1 > b->m->max_depth) b->m->max_depth = (uint32_t)b->stack.len + 1;
    return false;
  }
  TSFieldId field = ts_tree_cursor_current_field_id(cur);
  frame c = child_frame(b->m, gl_vec_last(&b->stack), gl_model__kind_of(b->m, n), field);
  gl_vec_push(&b->stack, c);
  visit(b, n, field);
  return true;
}

static void walk(builder *b, TSNode root) {
  frame top = {GL_MODEL__NONE, GL_MODEL__MODULE_SCOPE, GL_MODEL__NONE, GL_MODEL__MODULE_SCOPE,
               0, 0, (uint8_t)gl_model__kind_of(b->m, root), CTX_NONE, false, false, false, false};
  gl_vec_push(&b->stack, top);
  visit(b, root, 0);
  TSTreeCursor cur = ts_tree_cursor_new(root);
  bool framed = true; /* the cursor's node has the top frame of the stack */
  for (;;) {
    if (framed && ts_tree_cursor_goto_first_child(&cur)) {
      framed = enter(b, &cur);
      continue;
    }
    for (;;) { /* leave the cursor's node for its next sibling, or its parent's */
      if (framed) b->stack.len--;
      if (ts_tree_cursor_goto_next_sibling(&cur)) break;
      if (!ts_tree_cursor_goto_parent(&cur)) {
        ts_tree_cursor_delete(&cur);
        return;
      }
      framed = true;
    }
    framed = enter(b, &cur);
  }
}

void gl_model__walk(gl_model *m, TSNode root) {
  builder b = {.m = m, .scratch = ts_tree_cursor_new(root)};
  walk(&b, root);
  ts_tree_cursor_delete(&b.scratch);
  gl_vec_free(&b.stack);
  gl_vec_free(&b.buf);
}
