/* bench_scan.h: small tree helpers the benchmarking checks share (events.c, timeit.c, warmup.c).
 * Owns: a pre-order walk of one subtree with a TSTreeCursor that can skip a node's children or
 *       end early (gl_bscan), the walk over a def's body outside its nested scopes (also for the
 *       kernel checks), the chain of ancestors of a node found by descending from the root by
 *       byte (no ts_node_parent), text comparison of two nodes, and the small predicates the
 *       checks ask of nodes (a new scope, a call's callee name).
 * Not: reporting, deciding findings. No recursion.
 * Threads: every value belongs to one worker and one file; the tree and source are borrowed. */
#ifndef GL_CHECKS_BENCH_SCAN_H
#define GL_CHECKS_BENCH_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "base/load.h"
#include "model/model.h"
#include "base/vec.h"

typedef gl_vec(TSNode) gl_bnodes;

/* Pre-order over root's subtree, root included, named nodes only: through the model's node
 * index (an array: no tree walk) when initialized with a model that indexes root, else with a
 * TSTreeCursor. */
typedef struct gl_bscan {
  TSTreeCursor c;
  uint32_t depth;
  bool started, skip, done;
  const gl_model *m;         /* index mode when non-NULL */
  const TSLanguage *lang;    /* index mode: for field names */
  uint32_t first, at, end;   /* index mode: root, the node last returned, one past the subtree */
} gl_bscan;

void gl_bscan_init(gl_bscan *s, TSNode root);
/* The same over the model's index when m is non-NULL and indexes root (the faster way). */
void gl_bscan_init_in(gl_bscan *s, const gl_model *m, TSNode root);
/* The next named node, or false at the end. */
bool gl_bscan_next(gl_bscan *s, TSNode *out);
/* Do not descend into the node last returned. */
void gl_bscan_skip(gl_bscan *s);
/* End the walk: the next gl_bscan_next returns false. */
void gl_bscan_stop(gl_bscan *s);
/* The field name of the node last returned in its parent, or NULL (both modes). */
const char *gl_bscan_field(const gl_bscan *s);
void gl_bscan_free(gl_bscan *s);

/* True for function_definition, lambda and class_definition: code that does not run where it
 * is written. */
bool gl_bscan_is_scope(TSNode n);

/* Calls fn(n, s, data) for every named node of the body of def (a function_definition) in
 * pre-order, not entering the scopes nested in it (gl_bscan_is_scope); fn may gl_bscan_skip(s)
 * the node's subtree or gl_bscan_stop(s) the walk. False, calling nothing, when def has no
 * body. */
typedef void (*gl_bscan_fn)(TSNode n, gl_bscan *s, void *data);
bool gl_bscan_body_each(TSNode def, gl_bscan_fn fn, void *data);

/* Fills chain with the named ancestors of target from the root down, target last (cleared
 * first). False when target is not in the tree. */
bool gl_bscan_chain(const TSTree *tree, TSNode target, gl_bnodes *chain);
/* The same through the parent links of the model's index when m indexes target (m may be
 * NULL). */
bool gl_bscan_chain_in(const gl_model *m, const TSTree *tree, TSNode target, gl_bnodes *chain);

/* True when the two nodes' source texts are equal. */
bool gl_bscan_same_text(const gl_source *src, TSNode a, TSNode b);

/* True when n's source text equals s. */
bool gl_bscan_text_is(const gl_source *src, TSNode n, const char *s);

/* The qualified name of a call's callee (gl_model_resolve) into buf; false when it has none. */
bool gl_bscan_callee(const gl_model *m, TSNode call, char *buf, size_t cap);

/* True when a call's callee resolves (gl_bscan_callee) to one of names[0..n). */
bool gl_bscan_callee_in(const gl_model *m, TSNode call, const char *const *names, size_t n);

/* The i-th positional argument of a call (0-based), or a null node. Stops at a splat. */
TSNode gl_bscan_arg(TSNode call, uint32_t i);

/* The value of keyword argument name of a call, or a null node. */
TSNode gl_bscan_kwarg(const gl_source *src, TSNode call, const char *name);

/* For a call `recv.meth(...)`: true when the callee is an attribute whose name is meth; *recv
 * gets the object. */
bool gl_bscan_method(const gl_source *src, TSNode call, const char *meth, TSNode *recv);

/* Every function_definition of the file, in source order (out cleared first), through the
 * model's index (m may be NULL: a cursor walk). */
void gl_bscan_defs_in(const gl_model *m, const TSTree *tree, gl_bnodes *out);

/* The one def of defs whose name has the text of identifier name; a null node when there is
 * none or several (the name is then ambiguous). */
TSNode gl_bscan_def_named(const gl_source *src, const gl_bnodes *defs, TSNode name);

/* True when the body of def holds a call (or operation) with the sync or d2h role, outside the
 * scopes nested in it. */
bool gl_bscan_body_syncs(const gl_model *m, TSNode def);

#endif
