/* xalloc.h: the one allocation interface of gpulint.
 * Owns: gl_xmalloc and friends, which never return NULL: on out-of-memory they print one line and
 *       exit 2 (the run is incomplete, never "findings"), as tree-sitter's and sds's allocators do.
 * Not: containers (vec.h), the parse arena (parse/parse_arena.h).
 * Threads: safe from any thread; gl_xalloc_set_hooks is called once by main before threads start. */
#ifndef GL_XALLOC_H
#define GL_XALLOC_H

#include <stddef.h>

void *gl_xmalloc(size_t size);
void *gl_xcalloc(size_t count, size_t size);
void *gl_xrealloc(void *ptr, size_t size);
/* What every failed allocation does: "gpulint: out of memory" on stderr and exit status 2. For
 * libraries that report a failed allocation as an error code (PCRE2) rather than through the
 * functions above. */
void gl_xalloc_fail(void) __attribute__((noreturn));
/* gl_xstrdup(NULL) returns NULL. The caller owns the copy and frees it with free(). */
char *gl_xstrdup(const char *s);
/* Copies len bytes and a terminating NUL. */
char *gl_xstrndup(const char *s, size_t len);
/* printf-style, returns a heap string the caller frees. */
char *gl_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Routes cJSON's allocations through the functions above (called once, before threads; main
 * also routes tree-sitter's, with gl_parse_install_hooks). */
void gl_xalloc_install_cjson_hooks(void);

/* Routes libgit2's allocations through the functions above; called once by main before its
 * git_libgit2_init: libgit2 1.5's initialisation dereferences a failed allocation (an injected
 * failure there segfaulted), where gl_xmalloc exits 2 with "out of memory". */
void gl_xalloc_install_git_allocator(void);

#endif
