/* parse_arena.h: a per-thread bump arena that tree-sitter allocates from while a tree is parsed,
 * so that a parse's many small allocations cost a pointer bump and the tree is dropped whole.
 * Owns: the thread's arena (chunks mapped with mmap, kept warm between files up to a bound) and
 *       the tree-sitter allocator hooks that route to it while it is active.
 * Not: which parses use it, or when a tree is dropped (parse.c's gl_parse_scratch and
 *      gl_parse_release decide).
 * Threads: each thread has its own arena, reached through a thread-local pointer; a pointer that
 *          came from an arena must be freed (a no-op) or dropped on the thread that owns it. */
#ifndef GL_PARSE_ARENA_H
#define GL_PARSE_ARENA_H

#include <stdbool.h>
#include <stddef.h>

/* Makes tree-sitter allocate through the arena hooks. Call once, before threads start; until it
 * is called gl_arena_ready() is false and nothing uses an arena. Memory tree-sitter took before
 * the call stays valid: the hooks pass every pointer that is not an arena's to the heap. */
void gl_arena_install(void);
bool gl_arena_ready(void);

/* Starts a parse in this thread's arena: tree-sitter's allocations on this thread come from the
 * arena until gl_arena_leave. False (nothing changed) when the hooks are not installed or this
 * thread's arena already holds a tree that was not dropped. */
bool gl_arena_enter(void);
/* Back to the heap for new allocations; what the arena holds stays valid. `tree` is what the
 * parse made (NULL when nothing outlives the parse), for gl_arena_holds. */
void gl_arena_leave(const void *tree);

/* True when p lies in this thread's arena. */
bool gl_arena_owns(const void *p);
/* True when tree is what this thread's arena holds (the tree itself may be on the heap if the
 * parse spilled). */
bool gl_arena_holds(const void *tree);
/* True when an allocation of the current tree did not fit the arena and came from the heap:
 * the tree must then be deleted with ts_tree_delete before gl_arena_drop. */
bool gl_arena_spilled(void);
/* Drops everything this thread's arena holds, keeping up to GL_ARENA_KEEP_BYTES of its chunks
 * mapped for the next parse. */
void gl_arena_drop(void);
/* Unmaps every chunk of this thread's arena (worker exit; the arena must not hold a tree). */
void gl_arena_release_thread(void);

/* Bytes of chunks this thread's arena keeps mapped after a drop (the 2 and 4 MB chunks: most
 * files need under 2 MB; keeping none past the first costs 3 % more time in mmap and page faults,
 * keeping 16 MB saves no more), and the most it maps at all: past it, allocations spill to the
 * heap. */
#define GL_ARENA_KEEP_BYTES ((size_t)8 << 20)
#define GL_ARENA_MAX_BYTES ((size_t)1 << 30)
/* Sets this thread's bound (GL_ARENA_MAX_BYTES until then); tests lower it to make a parse
 * spill to the heap. */
void gl_arena_set_max_bytes(size_t bytes);

#endif
