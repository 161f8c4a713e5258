/* mem_walk.h: the pre-order walk the memory checks share (allocation in loops, async copies,
 * allocator order), with the ancestors of the current node at hand.
 * Owns: gl_mwalk, a TSTreeCursor walk over the named nodes of one subtree that keeps its own
 *       stack of ancestors and the field name of each (no ts_node_parent, no recursion), and the
 *       small node questions those checks ask (kind, callee name, keyword arguments, whether
 *       the file imports a library at all), and the whole-file walk that keeps the enclosing
 *       functions of the current node.
 * Not: any check's logic, reporting.
 * Threads: a gl_mwalk belongs to one worker and one file; the tree and source are borrowed. */
#ifndef GL_CHECKS_MEM_WALK_H
#define GL_CHECKS_MEM_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "base/load.h"
#include "model/model.h"
#include "base/vec.h"

typedef struct gl_mframe {
  TSNode node;
  const char *field;   /* the field name of node in its parent, or NULL */
  uint32_t end;        /* index mode: one past the node's subtree */
} gl_mframe;

/* Cursor mode walks the tree; index mode (gl_mwalk_init_in) reads the model's node index, an
 * array, and its stack holds named nodes only. Both return the same nodes. */
typedef struct gl_mwalk {
  TSTreeCursor c;
  gl_vec(gl_mframe) stack;   /* root .. current node (cursor mode: named or not) */
  bool started, skip;
  const gl_model *m;         /* index mode when non-NULL */
  const TSLanguage *lang;
  uint32_t at, end;          /* index mode: the node last returned; one past the subtree */
} gl_mwalk;

/* Starts a walk of root's subtree, root included. Free with gl_mwalk_free. */
void gl_mwalk_init(gl_mwalk *w, TSNode root);
/* The same through the model's index when m is non-NULL and indexes root. */
void gl_mwalk_init_in(gl_mwalk *w, const gl_model *m, TSNode root);
void gl_mwalk_free(gl_mwalk *w);

/* The next named node in pre-order, or false at the end of the subtree. */
bool gl_mwalk_next(gl_mwalk *w, TSNode *out);

/* Do not descend into the node last returned. */
void gl_mwalk_skip(gl_mwalk *w);

/* A stack of function_definition and lambda nodes, innermost last. */
typedef gl_vec(TSNode) gl_mscopes;

/* Walks the whole tree (gl_mwalk_init_in with m, which may be NULL) and calls fn(w, n, data) for
 * every named node n in pre-order, keeping *scopes the functions and lambdas enclosing n: before
 * the call it pops those that end before n, after it pushes n when n is one (so fn sees the
 * scopes around n, not n). */
typedef void (*gl_mwalk_fn)(const gl_mwalk *w, TSNode n, void *data);
void gl_mwalk_scoped(const gl_model *m, const TSTree *tree, gl_mscopes *scopes, gl_mwalk_fn fn,
                     void *data);

/* The k-th ancestor of the node last returned (0: its parent), within the walked subtree, and
 * its field name in its own parent through *field when field is not NULL; a null node past the
 * subtree's root. */
TSNode gl_mwalk_up(const gl_mwalk *w, size_t k, const char **field);

/* The field name of the node last returned in its parent, or NULL. */
const char *gl_mwalk_field(const gl_mwalk *w);

/* True for function_definition, lambda and class_definition. */
bool gl_mem_is_scope(TSNode n);

/* The qualified name of a call's callee into buf (gl_model_resolve); false when it has none. */
bool gl_mem_callee(const gl_model *m, TSNode call, char *buf, size_t cap);

/* The value of keyword argument name of a call, or a null node. */
TSNode gl_mem_kwarg(const gl_source *src, TSNode call, const char *name);

/* The i-th positional argument of a call (0-based), or a null node; stops at a splat. */
TSNode gl_mem_arg(TSNode call, uint32_t i);

/* True when n's source text equals s. */
bool gl_mem_text_is(const gl_source *src, TSNode n, const char *s);

/* True when the two nodes' source texts are equal. */
bool gl_mem_same_text(const gl_source *src, TSNode a, TSNode b);

/* True when n is the literal True. */
bool gl_mem_is_true(TSNode n);

/* True when the file imports (anywhere: module level, functions, classes, if / try / with /
 * loop bodies) a module whose top-level package is one of libs[0..n) (`import cupy.cuda`,
 * `from numba import cuda`; relative imports never): gl_model_imports, the cheap first question
 * of a check. */
bool gl_mem_imports_any(const gl_model *m, const char *const *libs, size_t n);

#endif
