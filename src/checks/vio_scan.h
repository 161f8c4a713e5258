/* vio_scan.h: what the search-io-portability checks share (staged_io.c, vsearch.c, vmetric.c,
 * prt_guard.c, prt_device.c): the enclosing scope of the node a walk is at, and a table of name
 * bindings that a walk in source order fills and reads.
 * Owns: gl_vscopes (a stack of the defs, lambdas and classes around the current node, popped
 *       by byte position, so a pre-order walk needs no ts_node_parent), gl_vbinds (per scope and
 *       name, the last binding written before a byte: its kind and the node that made it), and
 *       small text helpers.
 * Not: walking the tree (the checks use gl_bscan), deciding findings, reporting.
 * Threads: every value belongs to one worker and one file; tree and source are borrowed. */
#ifndef GL_CHECKS_VIO_SCAN_H
#define GL_CHECKS_VIO_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "base/load.h"
#include "base/vec.h"

typedef struct gl_vscope {
  uint32_t start, end;   /* bytes of the def, lambda or class */
} gl_vscope;

typedef gl_vec(gl_vscope) gl_vscopes;

/* Call for every node of a pre-order walk, before looking at it: pops the scopes that ended
 * before n and pushes n when it opens a scope. Returns the scope id n's names belong to (the
 * start byte of the innermost enclosing def / lambda / class, 0 at module level; a def's own
 * node already counts as inside itself). */
uint32_t gl_vscope_enter(gl_vscopes *s, TSNode n);

typedef struct gl_vbind {
  uint32_t scope;        /* gl_vscope_enter's id */
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

/* Copies n's source text into buf (first line only, at most cap - 4 bytes, "..." when cut). */
void gl_vio_text(const gl_source *src, TSNode n, char *buf, size_t cap);

/* The name of the method a call calls (`x.read()` -> "read") into buf, with *recv the object;
 * false when the callee is not an attribute. */
bool gl_vio_method(const gl_source *src, TSNode call, char *buf, size_t cap, TSNode *recv);

#endif
