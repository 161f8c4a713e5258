/* timer_scan.h: the private header of the timing pack: the index its checks share, one walk of
 * a file that lists, in
 * source order, the clock reads, GPU work, synchronizations, timer assignments, subtractions,
 * functions, conditional blocks, classes and `with` statements, and the question every timing
 * check asks of it: in a region between two points, did GPU work surely happen, and did a
 * synchronization follow the last of it?
 * Owns: gl_tscan (built by gl_tscan_build, freed by gl_tscan_free) and gl_tscan_region; and
 *       gl_tscan_magic_timers, the notebook timing magics that GPU301 and GPU304 report
 *       (magic_timers.c).
 * Not: reporting, messages (unsynchronized_timer.c). No recursion: the checks' walk (walk.h).
 * Threads: a gl_tscan belongs to one worker and one file; it borrows the tree, source, model. */
#ifndef GL_CHECKS_TIMER_SCAN_H
#define GL_CHECKS_TIMER_SCAN_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "base/load.h"
#include "base/vec.h"
#include "checks/checks.h"
#include "model/model.h"
#include "rules/rules.h"

/* What an event is (bits). */
enum {
  GL_TEV_WORK = 1u << 0,        /* gpu-work / device-returning / alloc / h2d, or an operator or
                                   subscript whose value is device data */
  GL_TEV_SYNC = 1u << 1,        /* sync or d2h role, or a call of a function of this file that
                                   synchronizes */
  GL_TEV_WALL = 1u << 2,        /* a wall-clock read (perf_counter, time, monotonic, ...), or a
                                   call of a name the rule's `extra-timers` option lists */
  GL_TEV_CPU = 1u << 3,         /* a CPU-time read (process_time, thread_time), or a name of
                                   the rule's `extra-cpu-timers` option */
};

/* A GPU library, for the fix a message names: 1 + the index of a model file that says how to wait
 * for its work ("synchronize", libmodel.h's gl_libmodels_text); GL_TLIB_NONE for none. */
typedef uint16_t gl_tlib;
#define GL_TLIB_NONE ((gl_tlib)0)

/* How a timing message words its fix (gl_tscan_fix). */
typedef enum gl_tfix {
  GL_TFIX_CALL,       /* "call S before reading the clock[, or time it with B]" */
  GL_TFIX_END,        /* "end it with S[, or time it with B]" */
} gl_tfix;

typedef struct gl_tevent {
  TSNode node;
  uint32_t start, pos;          /* start byte; pos = end byte: when the value exists */
  uint8_t kind;                 /* GL_TEV_* */
  int32_t fn;                   /* innermost function (index into fns; 0 = the module) */
  int32_t cond;                 /* innermost conditional block (index into conds) or -1 */
} gl_tevent;

typedef struct gl_tfn {
  TSNode node;                  /* function_definition or lambda; null for the module */
  int32_t parent;               /* enclosing function, -1 for the module */
  int32_t cls;                  /* index into classes when a method of one, else -1 */
  uint32_t name_start, name_end;/* the def's name bytes (0, 0 for lambdas and the module) */
} gl_tfn;

typedef struct gl_tspan {
  uint32_t start, end;          /* bytes */
  int32_t parent;               /* enclosing span of the same kind, -1 */
} gl_tspan;

/* A binding of a name or attribute chain: `x = ...`, `self.t = ...`, or a parameter. */
typedef struct gl_tassign {
  uint32_t name_start, name_end;/* the bound name's bytes */
  uint32_t rhs_start;           /* the right side's first byte (0 for a parameter) */
  uint32_t pos;                 /* where the binding takes effect (end of the statement) */
  int32_t ev;                   /* the clock read on the right side (index into events), or -1:
                                   a binding to anything else, which shadows earlier ones */
  int32_t fn;
} gl_tassign;

typedef struct gl_tlibname {
  uint32_t name_start, name_end, pos;  /* `name = lib.call(...)` : name bound at pos */
  gl_tlib lib;
} gl_tlibname;

typedef struct gl_tclass {
  uint32_t name_start, name_end;
  int32_t enter_ev, exit_ev;    /* first wall read in __enter__, last in __exit__, or -1 */
  int32_t exit_fn;              /* the __exit__ method (index into fns) or -1 */
} gl_tclass;

typedef struct gl_twith {
  TSNode item;                  /* the with item's value (`Timer()`) */
  TSNode body;
  int32_t fn, cond;
} gl_twith;

typedef struct gl_tscan {
  const gl_source *src;
  const gl_model *model;
  const gl_rule *rule;          /* whose clock options apply, or NULL */
  gl_vec(gl_tevent) events;     /* in pre-order (start-byte order) */
  gl_vec(gl_tfn) fns;
  gl_vec(gl_tspan) conds;       /* if / elif / else / except / case bodies */
  gl_vec(gl_tassign) assigns;   /* bindings in source order; ev >= 0 for `name = <clock read>` */
  gl_vec(TSNode) subs;          /* binary `-` operators */
  gl_vec(gl_tlibname) libnames;
  gl_vec(gl_tclass) classes;
  gl_vec(gl_twith) withs;
  uint64_t libs;                /* 1 << gl_tlib of every GPU library the file imports (bit 0:
                                   a module of no such library; libraries past 63 not kept) */
} gl_tscan;

/* Indexes tree (all borrowed; model may be NULL: then no event has roles and nothing is found).
 * rule (may be NULL) is the rule the index is built for: a call whose callee resolves to a
 * qualified name listed in its string-list option `extra-timers` is a wall-clock read, in
 * `extra-cpu-timers` a CPU-time read (each timing rule reads its own options).
 * gl_tscan_free releases the vectors only. */
void gl_tscan_build(gl_tscan *s, const gl_source *src, const TSTree *tree, const gl_model *model,
                    const gl_rule *rule);
void gl_tscan_free(gl_tscan *s);

/* False when no clock can be read in the file: it imports none of time, timeit and datetime,
 * nor the module of a name the rule's `extra-timers` / `extra-cpu-timers` options list, so
 * gl_tscan_build would find no clock (a check may skip building the scan). True without a
 * model. */
bool gl_tscan_clocks_possible(const gl_model *model, const gl_rule *rule);

/* The region from byte `from` (exclusive: events that start at or after it and whose value
 * exists after it) to byte `to` (events whose value exists at or before it), as seen from a point in function fn at byte
 * `at`: an event counts only when its function is fn or one enclosing fn (a nested def's body
 * does not run there). GPU work counts only when every conditional block holding it also holds
 * `at` (it surely ran); a synchronization counts anywhere. Returns the index of the last GPU
 * work that no synchronization follows, or -1 (no GPU work, or synchronized after it). When
 * ignore_sync, the last GPU work whatever follows it. */
int32_t gl_tscan_region(const gl_tscan *s, uint32_t from, uint32_t to, int32_t fn, uint32_t at,
                        bool ignore_sync);
/* Cost: O(log events + events starting in the region) plus function depth per event. */

/* The library of a GPU-work event: its callee's module, the module a name in it was bound
 * from, or the file's only GPU library; GL_TLIB_NONE when unsure. */
gl_tlib gl_tscan_event_lib(const gl_tscan *s, int32_t ev);

/* The library of the top-level module of the dotted name q[0..len), or GL_TLIB_NONE. */
gl_tlib gl_tscan_lib_of(const gl_libmodels *lm, const char *q, size_t len);

/* The fix for GPU work of library lib, worded as form asks, from its model's "synchronize" and
 * "benchmark" (written into buf, cap bytes); NULL for GL_TLIB_NONE. */
const char *gl_tscan_fix(const gl_libmodels *lm, gl_tlib lib, gl_tfix form, char *buf, size_t cap);

/* The clock-read event starting at byte b, or -1. O(log events). */
int32_t gl_tscan_clock_at(const gl_tscan *s, uint32_t b);

/* The innermost function holding byte b (0 = module). */
int32_t gl_tscan_fn_at(const gl_tscan *s, uint32_t b);

/* True when bytes [a0, a1) and [b0, b1) of the source are equal text. */
bool gl_tscan_same_text(const gl_tscan *s, uint32_t a0, uint32_t a1, uint32_t b0, uint32_t b1);

/* For each line or cell magic called name ("time" or "timeit") of ctx->src's notebook (none for
 * a .py file): when the code it times (a cell magic: the rest of its cell; a line magic: the
 * statement after it) does GPU work that no synchronization follows, reports ctx->rule at the
 * magic itself ("%%time", "%timeit -n 10"), with the last such work as related location. */
void gl_tscan_magic_timers(const gl_check_ctx *ctx, const char *name);

#endif
