/* model.h: what the names of one parsed file mean.
 * Owns: one iterative walk of the tree (a TSTreeCursor and our own parent stack; no recursion, no
 *       ts_node_parent) that indexes every named node (parent, field, scope, loop context), the
 *       scopes and their bindings, import alias resolution (`import a.b as c`, `from a import b
 *       as c`, `import a.b` binding `a`, nested scopes shadowing), and the file's comments.
 * Not: provenance of device values (issue 3 extends this stage), running queries (match.c).
 * Threads: a gl_model belongs to one worker and lives as long as its tree. */
#ifndef GL_MODEL_H
#define GL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>
#include "load.h"

typedef struct gl_model gl_model;

typedef struct gl_comment {
  uint32_t start_byte, end_byte;   /* the comment's bytes, '#' included */
} gl_comment;

/* Builds the model of tree (borrowed; must outlive the model). */
gl_model *gl_model_build(const gl_source *src, const TSTree *tree);
void gl_model_free(gl_model *m);

/* Qualified name of an expression node after alias resolution, written to buf (NUL-terminated):
 * - identifier in an expression: the module path it was imported as ("cp" -> "cupy"), or false
 *   when it is bound by anything but an import, ambiguous, or not bound at all (builtins);
 * - attribute chain a.b.c: resolution of `a` plus ".b.c" (false when `a` does not resolve);
 * - dotted_name of `import a.b` / `import a.b as c`: "a.b"; of `from a import b`: module "a"
 *   and name "a.b"; relative imports (`from . import x`) do not resolve.
 * Identifiers that are not names (attribute fields, keyword names, parameters, import targets)
 * do not resolve. False when the name does not fit in cap. */
bool gl_model_resolve(const gl_model *m, TSNode node, char *buf, size_t cap);

/* True when node is inside the body of a for/while loop or a comprehension, within the same
 * function (a def inside a loop starts afresh). */
bool gl_model_in_loop(const gl_model *m, TSNode node);

/* The file's comments in source order. */
const gl_comment *gl_model_comments(const gl_model *m, size_t *count);

/* Deepest nesting of the tree (for the depth guard). */
uint32_t gl_model_max_depth(const gl_model *m);

#endif
