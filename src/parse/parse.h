/* parse.h: source bytes -> tree-sitter tree, bounded.
 * Owns: one TSParser per worker (reused across files), the per-file parse time limit (the parser is
 *       reset after a timeout), the tree-depth limit (measured by the model's walk, compared by the
 *       engine) and the check that the tree covers the file.
 * Not: reading files (load.c), the language's meaning (model.c).
 * Threads: a gl_parser belongs to one worker. */
#ifndef GL_PARSE_H
#define GL_PARSE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>
#include "base/diag.h"
#include "base/load.h"

typedef struct gl_parser gl_parser;

/* The tree-sitter-python language (static, shared). */
const TSLanguage *gl_parse_language(void);

/* ts_node_child_by_field_name(n, field, len) without its search of the language's field names on
 * every call (a tenth of a check's time): the id of each name is remembered per thread. A null n
 * gives a null node. */
TSNode gl_parse_child(TSNode n, const char *field, uint32_t len);

/* Node types that code walking every node asks about, as symbol sets: gl_parse_is(n, &T->call)
 * answers strcmp(ts_node_type(n), "call") == 0 (every symbol of that name, named or not) without
 * comparing strings. */
#define GL_PARSE_TYPES(X)                                                                        \
  X(aliased_import) X(assignment) X(attribute) X(augmented_assignment) X(binary_operator)       \
  X(block) X(call) X(case_clause) X(class_definition) X(comparison_operator)                    \
  X(decorated_definition) X(default_parameter) X(elif_clause) X(else_clause) X(except_clause)   \
  X(except_group_clause) X(function_definition) X(identifier) X(import_from_statement)          \
  X(import_statement) X(lambda) X(module) X(parenthesized_expression) X(return_statement)       \
  X(subscript) X(try_statement) X(typed_default_parameter) X(unary_operator) X(with_statement)

#define GL_PARSE_SYMBOL_WORDS 8   /* symbols below 512; the Python grammar has about 280 */
typedef struct gl_type_set {
  uint64_t bits[GL_PARSE_SYMBOL_WORDS];
} gl_type_set;

typedef struct gl_types {
#define GL_PARSE_TYPE_FIELD(name) gl_type_set name;
  GL_PARSE_TYPES(GL_PARSE_TYPE_FIELD)
#undef GL_PARSE_TYPE_FIELD
  gl_type_set scope;   /* function_definition, lambda, class_definition: they open a scope */
} gl_types;

/* The sets of GL_PARSE_TYPES for gl_parse_language(), built by the first call (thread-safe; after
 * it, one acquire load). */
extern gl_types gl_parse__types;
extern atomic_bool gl_parse__types_ready;
void gl_parse__types_build(void);
static inline const gl_types *gl_parse_types(void) {
  if (!atomic_load_explicit(&gl_parse__types_ready, memory_order_acquire)) gl_parse__types_build();
  return &gl_parse__types;
}

/* True when symbol s (ts_node_symbol's answer) is in t. */
static inline bool gl_type_has(const gl_type_set *t, TSSymbol s) {
  return s < 64 * GL_PARSE_SYMBOL_WORDS && ((t->bits[s >> 6] >> (s & 63)) & 1u);
}

/* True when n is not null and its type is in t. Code that asks several types of one node takes
 * ts_node_symbol once and asks gl_type_has. */
static inline bool gl_parse_is(TSNode n, const gl_type_set *t) {
  return !ts_node_is_null(n) && gl_type_has(t, ts_node_symbol(n));
}

/* strcmp(ts_node_type(n), type) == 0 for a node that is not null (false for a null node): for
 * any type name; GL_IS is faster for the types of GL_PARSE_TYPES. */
bool gl_parse_type_is(TSNode n, const char *type);

/* True when n is a def, a lambda or a class (the nodes that open a Python scope). */
static inline bool gl_parse_opens_scope(TSNode n) {
  return gl_parse_is(n, &gl_parse_types()->scope);
}

/* gl_parse_is(n, &gl_parse_types()->name): `GL_IS(fn, attribute)`; GL_HAS(sym, call) for a
 * symbol taken once. */
#define GL_IS(n, name) gl_parse_is((n), &gl_parse_types()->name)
#define GL_HAS(sym, name) gl_type_has(&gl_parse_types()->name, (sym))

/* Default tree-depth limit: far above any tree of code CPython accepts (its parser stops at 200
 * nested parentheses and a C stack of 6,000 frames), far below the query engine's 16-bit depth
 * counters (65,535). */
#define GL_PARSE_DEFAULT_MAX_DEPTH 10000u

/* timeout_ms: 0 = no limit; max_depth: 0 = GL_PARSE_DEFAULT_MAX_DEPTH. gl_parse_free(NULL) does
 * nothing. */
/* Makes tree-sitter allocate through the parse arena's hooks (parse_arena.h): an arena while
 * gl_parse_scratch parses, the gl_x* heap functions otherwise. Call once, before threads start. */
void gl_parse_install_hooks(void);

/* Gives back what this thread's parse arena keeps between files (a worker that ends). */
void gl_parse_thread_done(void);

gl_parser *gl_parse_new(uint32_t timeout_ms, uint32_t max_depth);
void gl_parse_free(gl_parser *p);

/* The depth limit this parser was made with (default applied). gl_parse_source does not walk the
 * tree; the engine compares this with gl_model_max_depth, which the model's one walk measures. */
uint32_t gl_parse_max_depth(const gl_parser *p);

/* Parses src (UTF-8). Returns the tree (caller deletes it with ts_tree_delete), or NULL with err
 * filled (no line/column) and the parser ready for the next file:
 * "parse time limit of N ms exceeded" (parser reset), "syntax tree covers only N of M bytes" (the
 * root ends before the last non-whitespace byte). A tree with syntax errors is returned. */
TSTree *gl_parse_source(gl_parser *p, const gl_source *src, gl_diag *err);

/* gl_parse_source for a tree that is dropped before the next one on this thread: the parse
 * allocates from the thread's arena (parse_arena.h), which is about 13 % faster, and the tree
 * is freed whole by gl_parse_release, never by ts_tree_delete. Falls back to gl_parse_source
 * when the arena hooks are not installed or the thread's arena already holds a tree. */
TSTree *gl_parse_scratch(gl_parser *p, const gl_source *src, gl_diag *err);
/* Frees a tree from gl_parse_scratch or gl_parse_source, on the thread that parsed it. NULL is
 * ignored. */
void gl_parse_release(TSTree *tree);

/* The coverage check gl_parse_source applies: true when tree's root reaches the last
 * non-whitespace byte of src (runtime 0.20.7 returned an empty tree for 65,534 comment lines
 * followed by code). *covered_out receives the root's end byte. */
bool gl_parse_covers(const TSTree *tree, const gl_source *src, uint32_t *covered_out);

/* First syntax error (ERROR or MISSING node, in document order) in tree, or false when there is
 * none. *byte_out: its start byte; *what_out: a static phrase, "unexpected input" for an ERROR
 * node, "missing ')'" (or "missing identifier", ..., "missing token") for a MISSING one. */
bool gl_parse_first_error(const TSTree *tree, uint32_t *byte_out, const char **what_out);

#endif
