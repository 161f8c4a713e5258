/* accel_scan.h: one iterative walk of a file that knows, at every node it reaches, which function
 * bodies enclose it and which branch of which `if` / `match` it sits in; for the accelerator-order
 * checks (accel_order.c) and the opportunity checks (opportunity.c).
 * Owns: gl_ascan_walk (a TSTreeCursor and a fixed frame stack: no recursion, no ts_node_parent),
 *       the skipping of `if TYPE_CHECKING:` bodies (code that never runs), and gl_ascan_ordered
 *       (does one place surely run before another when both run).
 * Not: deciding findings, reporting, import resolution (model.h).
 * Threads: no state; every value belongs to the calling worker and one file. */
#ifndef GL_CHECKS_ACCEL_SCAN_H
#define GL_CHECKS_ACCEL_SCAN_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "base/load.h"

/* Deepest nesting of function bodies, and of branches, that the walk enters. */
#define GL_ASCAN_NEST 16

typedef struct gl_ascan_branch {
  uint32_t id;    /* start byte of the if_statement (or of the match body holding the cases) */
  uint32_t idx;   /* 0: the `if` body; 1, 2, ...: its elif / else clauses, or the case's ordinal */
} gl_ascan_branch;

/* Where a node runs. */
typedef struct gl_ascan_pos {
  uint32_t byte;                          /* the node's start byte */
  uint8_t nscope, nbranch;
  uint32_t scope[GL_ASCAN_NEST];          /* start bytes of the enclosing defs, outermost first */
  gl_ascan_branch branch[GL_ASCAN_NEST];  /* the enclosing branches, outermost first */
} gl_ascan_pos;

typedef enum gl_ascan_mode {
  GL_ASCAN_STATEMENTS,  /* enter only the module and compound statements (imports, statements) */
  GL_ASCAN_ALL,         /* enter every node the callback asks to enter */
} gl_ascan_mode;

/* Called for each named node reached, in source order, with where it runs (pos is borrowed and
 * changes after the call). Returns true to enter the node's children (in STATEMENTS mode only
 * the module, blocks, compound statements and their clauses are entered). */
typedef bool (*gl_ascan_fn)(void *user, TSNode node, const gl_ascan_pos *pos);

/* Walks tree (parsed from src) in pre-order. The consequence of `if TYPE_CHECKING:` /
 * `if typing.TYPE_CHECKING:` (and of such an elif) is never reached. Nodes nested deeper than
 * GL_ASCAN_NEST function bodies or branches, or 256 tree levels, are not reached. A def's scope
 * starts at its body: its decorators and defaults run where the def is. */
void gl_ascan_walk(const gl_source *src, const TSTree *tree, gl_ascan_mode mode, gl_ascan_fn fn,
                   void *user);

/* True when a surely runs before b whenever both run: a starts before b, every def enclosing a
 * also encloses b (a function body runs only after the code before its def), and no `if` /
 * `match` puts them in different branches. */
bool gl_ascan_ordered(const gl_ascan_pos *a, const gl_ascan_pos *b);

/* True when a surely runs before b and runs whenever b does: gl_ascan_ordered, and every branch
 * that holds a also holds b (an import under `if x:` does not dominate a call after the `if`,
 * which may run with x false, or after an early return inside the branch). */
bool gl_ascan_dominates(const gl_ascan_pos *a, const gl_ascan_pos *b);

/* A module-level place at byte, in no branch (a notebook magic). */
void gl_ascan_pos_module(gl_ascan_pos *pos, uint32_t byte);

#endif
