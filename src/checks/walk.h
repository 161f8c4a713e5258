/* walk.h: the one tree walk of the flow checks, on the model's node index (model.h, "the node
 * index"): pre-order over the named nodes of a subtree, with the ancestors of the current node,
 * their field names and the enclosing scopes at hand; and the walks built on it that several
 * packs use (a def's body, every def of the file, a node's ancestors).
 * Owns: gl_check__walk and its path of ancestors (an array of index positions: no TSTreeCursor,
 *       no ts_node_parent, no recursion).
 * Not: what a walk looks for (the checks), node questions (node.h), building the index (model).
 * Threads: a gl_check__walk belongs to one worker and one file; the model is borrowed. */
#ifndef GL_CHECKS_WALK_H
#define GL_CHECKS_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "base/vec.h"
#include "model/model.h"

typedef gl_vec(TSNode) gl_check__nodes;

typedef struct gl_check__walk {
  const gl_model *m;
  const TSLanguage *lang;
  uint32_t root, at, end;   /* the root's index, the node last returned, one past the subtree */
  bool started, skip, done;
  gl_vec(uint32_t) path;    /* index positions of the root .. the node last returned */
  gl_vec(uint32_t) fn_up;   /* per path position j: 1 + the position of the innermost def or
                               lambda at or above j (0: none), so scopes are found in O(1) */
  gl_vec(uint32_t) cls_up;  /* the same with class bodies counted */
} gl_check__walk;

/* Starts a walk of root's subtree, root included, in m's index (both borrowed). A root that m
 * does not index (m NULL, a null or anonymous node, a node of another tree) gives an empty walk.
 * Free with gl_check__walk_free. */
void gl_check__walk_init(gl_check__walk *w, const gl_model *m, TSNode root);
void gl_check__walk_free(gl_check__walk *w);

/* The next named node in pre-order into *out, or false at the end of the subtree. */
bool gl_check__walk_next(gl_check__walk *w, TSNode *out);
/* Do not descend into the node last returned. */
void gl_check__walk_skip(gl_check__walk *w);
/* End the walk: the next gl_check__walk_next returns false. */
void gl_check__walk_stop(gl_check__walk *w);

/* How many ancestors of the node last returned lie inside the walk (0 for the root). */
uint32_t gl_check__walk_depth(const gl_check__walk *w);
/* The field name of the node last returned in its parent; NULL for none and for the root. */
const char *gl_check__walk_field(const gl_check__walk *w);
/* The k-th ancestor of the node last returned (0: its parent) inside the walk, and its own field
 * name through *field when field is not NULL (NULL for the walk's root); a null node (field
 * NULL) past the root. */
TSNode gl_check__walk_up(const gl_check__walk *w, size_t k, const char **field);

enum {
  GL_CHECK__SCOPE_CLASSES = 1u << 0,   /* class bodies count as scopes, besides defs and lambdas */
  GL_CHECK__SCOPE_SELF = 1u << 1,      /* the node last returned counts when it is a scope */
};
/* The innermost def or lambda (with flags, class) around the node last returned, among the
 * ancestors inside the walk, or a null node: a scope counts only while the node starts before
 * the scope's end (a node of no width at a def's last byte is outside it). */
TSNode gl_check__walk_scope(const gl_check__walk *w, unsigned flags);

/* Appends to out the defs and lambdas (with GL_CHECK__SCOPE_CLASSES, classes too) among the
 * ancestors of the node last returned inside the walk, innermost first: O(those scopes). */
void gl_check__walk_scopes(const gl_check__walk *w, unsigned flags, gl_check__nodes *out);

/* Called with each node n a walk reaches and the walk, positioned at n (for its ancestors,
 * field and scopes); it may gl_check__walk_skip(w) n's subtree or gl_check__walk_stop(w). */
typedef void (*gl_check__visit_fn)(TSNode n, gl_check__walk *w, void *data);

/* Calls fn for every named node of root's subtree (root included) in pre-order. */
void gl_check__each(const gl_model *m, TSNode root, gl_check__visit_fn fn, void *data);

/* Calls fn for every named node of the body of def (a function_definition) in pre-order, not
 * entering the scopes nested in it (gl_parse_opens_scope). False, calling nothing, when def
 * has no body. */
bool gl_check__body_each(const gl_model *m, TSNode def, gl_check__visit_fn fn, void *data);

/* The first named node of def's body (in the order and with the skips of gl_check__body_each)
 * for which pred(n, data) is true, or a null node. */
typedef bool (*gl_check__node_pred)(TSNode n, const void *data);
TSNode gl_check__body_find(const gl_model *m, TSNode def, gl_check__node_pred pred,
                           const void *data);

/* Fills chain (cleared first) with the named ancestors of target from the root down, target
 * last. False, chain empty, when m does not index target. */
bool gl_check__ancestors(const gl_model *m, TSNode target, gl_check__nodes *chain);

/* Every function_definition of the tree m indexes, in source order (out cleared first). */
void gl_check__defs(const gl_model *m, const TSTree *tree, gl_check__nodes *out);

#endif
