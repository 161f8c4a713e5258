/* xalloc.c: allocation that never returns NULL, and the hook that routes cJSON's allocations
 * through it.
 * Owns: the out-of-memory policy: one line on stderr, exit status 2 (an incomplete run).
 * Not: any other printing. Threads: stateless, safe from any thread. */
#include "base/xalloc.h"

#include <cjson/cJSON.h>
#include <git2/common.h>
#include <git2/sys/alloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


void gl_xalloc_fail(void) {
  /* write(2) rather than stdio: stdio may itself need memory. */
  static const char msg[] = "gpulint: out of memory\n";
  ssize_t ignored = write(2, msg, sizeof(msg) - 1);
  (void)ignored;
  _exit(2);
}

static void out_of_memory(size_t size) {
  (void)size;
  gl_xalloc_fail();
}

void *gl_xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p) out_of_memory(size);
  return p;
}

void *gl_xcalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) out_of_memory(count * size);
  return p;
}

void *gl_xrealloc(void *ptr, size_t size) {
  void *p = realloc(ptr, size ? size : 1);
  if (!p) out_of_memory(size);
  return p;
}

char *gl_xstrndup(const char *s, size_t len) {
  char *p = gl_xmalloc(len + 1);
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

char *gl_xstrdup(const char *s) {
  return s ? gl_xstrndup(s, strlen(s)) : NULL;
}

char *gl_xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) n = 0;
  char *p = gl_xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

static void *cjson_malloc(size_t size) { return gl_xmalloc(size); }

void gl_xalloc_install_cjson_hooks(void) {
  cJSON_Hooks hooks = {cjson_malloc, free};
  cJSON_InitHooks(&hooks);
}

/* ---- libgit2: each callback takes the file and line of the call, which gpulint does not need */

static void *git_malloc(size_t n, const char *file, int line) {
  (void)file, (void)line;
  return gl_xmalloc(n);
}

static void *git_calloc(size_t nelem, size_t elsize, const char *file, int line) {
  (void)file, (void)line;
  return gl_xcalloc(nelem, elsize);
}

static char *git_strdup(const char *str, const char *file, int line) {
  (void)file, (void)line;
  return gl_xstrdup(str);
}

static char *git_strndup(const char *str, size_t n, const char *file, int line) {
  (void)file, (void)line;
  return gl_xstrndup(str, strnlen(str, n));
}

static char *git_substrdup(const char *str, size_t n, const char *file, int line) {
  (void)file, (void)line;
  return gl_xstrndup(str, n);
}

static void *git_realloc(void *ptr, size_t size, const char *file, int line) {
  (void)file, (void)line;
  return gl_xrealloc(ptr, size);
}

static void *git_reallocarray(void *ptr, size_t nelem, size_t elsize, const char *file, int line) {
  (void)file, (void)line;
  if (elsize && nelem > SIZE_MAX / elsize) out_of_memory(SIZE_MAX);
  return gl_xrealloc(ptr, nelem * elsize);
}

static void *git_mallocarray(size_t nelem, size_t elsize, const char *file, int line) {
  return git_reallocarray(NULL, nelem, elsize, file, line);
}

void gl_xalloc_install_git_allocator(void) {
  static git_allocator a = {git_malloc,  git_calloc,       git_strdup,      git_strndup,
                            git_substrdup, git_realloc, git_reallocarray, git_mallocarray, free};
  git_libgit2_opts(GIT_OPT_SET_ALLOCATOR, &a);
}
