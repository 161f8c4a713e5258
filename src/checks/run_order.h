/* run_order.h: one walk of a file that knows, at every node it reaches, which function bodies
 * enclose it and which branch of which `if` / `match` it sits in; for the accelerator-modes checks
 * (enabled_too_late.c, accelerator_fallback_trigger.c) and the opportunities pack
 * (library_opportunity.c).
 * Owns: gl_check__order_walk (the checks' walk, walk.h, with a fixed frame stack per depth), the
 *       skipping of `if TYPE_CHECKING:` bodies (code that never runs), and gl_check__order_before
 *       (does one place surely run before another when both run).
 * Not: deciding findings, reporting, import resolution (model.h).
 * Threads: no state; every value belongs to the calling worker and one file. */
#ifndef GL_CHECKS_RUN_ORDER_H
#define GL_CHECKS_RUN_ORDER_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "base/load.h"
#include "model/model.h"

/* Deepest nesting of function bodies, and of branches, that the walk enters. */
#define GL_CHECK__NEST 16

typedef struct gl_check__branch {
  uint32_t id;    /* start byte of the if_statement (or of the match body holding the cases) */
  uint32_t idx;   /* 0: the `if` body; 1, 2, ...: its elif / else clauses, or the case's ordinal */
} gl_check__branch;

/* Where a node runs. */
typedef struct gl_check__pos {
  uint32_t byte;                          /* the node's start byte */
  uint8_t nscope, nbranch;
  uint32_t scope[GL_CHECK__NEST];          /* start bytes of the enclosing defs, outermost first */
  gl_check__branch branch[GL_CHECK__NEST];  /* the enclosing branches, outermost first */
} gl_check__pos;

typedef enum gl_check__order_mode {
  GL_CHECK__STATEMENTS,  /* enter only the module and compound statements (imports, statements) */
  GL_CHECK__ALL_NODES,         /* enter every node the callback asks to enter */
} gl_check__order_mode;

/* Called for each named node reached, in source order, with where it runs (pos is borrowed and
 * changes after the call). Returns true to enter the node's children (in STATEMENTS mode only
 * the module, blocks, compound statements and their clauses are entered). */
typedef bool (*gl_check__order_fn)(void *user, TSNode node, const gl_check__pos *pos);

/* Walks tree (parsed from src, indexed by m) in pre-order. The consequence of `if TYPE_CHECKING:` /
 * `if typing.TYPE_CHECKING:` (and of such an elif) is never reached. Nodes nested deeper than
 * GL_CHECK__NEST function bodies or branches, or 256 tree levels, are not reached. A def's scope
 * starts at its body: its decorators and defaults run where the def is. */
void gl_check__order_walk(const gl_model *m, const gl_source *src, const TSTree *tree,
                          gl_check__order_mode mode, gl_check__order_fn fn, void *user);

/* True when a surely runs before b whenever both run: a starts before b, every def enclosing a
 * also encloses b (a function body runs only after the code before its def), and no `if` /
 * `match` puts them in different branches. */
bool gl_check__order_before(const gl_check__pos *a, const gl_check__pos *b);

/* True when a surely runs before b and runs whenever b does: gl_check__order_before, and every
 * branch that holds a also holds b (an import under `if x:` does not dominate a call after the `if`,
 * which may run with x false, or after an early return inside the branch). */
bool gl_check__order_dominates(const gl_check__pos *a, const gl_check__pos *b);

/* A module-level place at byte, in no branch (a notebook magic). */
void gl_check__pos_module(gl_check__pos *pos, uint32_t byte);

#endif
