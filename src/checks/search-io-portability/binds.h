/* binds.h: the private header of the search-io-portability pack (fromfile_staged_upload.c,
 * approximate_index_without_recall.c, metric_mismatch_in_port.c, no_gpu_availability_guard.c,
 * cross_device_array_use.c): the scope a walk's node binds its names in, and a table of name
 * bindings that a walk in source order fills and reads.
 * Owns: gl_vbind_scope (the scope id of the walk's current node, from the walk's ancestors) and
 *       gl_vbinds (per scope and name, the last binding written before a byte: its kind and the
 *       node that made it).
 * Not: walking the tree (walk.h), node text (node.h), deciding findings, reporting.
 * Threads: every value belongs to one worker and one file; tree and source are borrowed. */
#ifndef GL_CHECKS_BINDS_H
#define GL_CHECKS_BINDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "base/load.h"
#include "base/vec.h"
#include "checks/walk.h"

/* The scope id the names of the walk's current node belong to: the start byte of the innermost
 * def, lambda or class holding it (a def's own node already counts as inside itself), 0 at
 * module level. */
uint32_t gl_vbind_scope(const gl_check__walk *w);

typedef struct gl_vbind {
  uint32_t scope;        /* gl_vbind_scope's id */
  uint32_t name0, name1; /* bytes of the bound name in the source */
  uint32_t from;         /* the binding holds for uses at or after this byte */
  int kind;              /* the check's own meaning; 0 is "nothing known" */
  TSNode node;           /* what made it (the read call, the with item, ...) */
} gl_vbind;

typedef gl_vec(gl_vbind) gl_vbinds;

/* Records that name (an identifier) is bound in scope from byte `from` on. */
void gl_vbind_set(gl_vbinds *b, const gl_source *src, uint32_t scope, TSNode name, uint32_t from,
                  int kind, TSNode node);

/* Records every identifier of a binding target (identifier, pattern_list, tuple_pattern,
 * list_pattern, parenthesized forms; attributes and subscripts are not names) as kind 0. */
void gl_vbind_kill_target(gl_vbinds *b, const gl_source *src, uint32_t scope, TSNode target,
                          uint32_t from);

/* The last binding of identifier name in scope in force at byte `at`, or NULL. */
const gl_vbind *gl_vbind_get(const gl_vbinds *b, const gl_source *src, uint32_t scope,
                             TSNode name, uint32_t at);

#endif
