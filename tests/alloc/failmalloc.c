/* failmalloc.c: an LD_PRELOAD library that makes the Nth allocation of a process fail.
 * Owns: malloc, calloc and realloc counting (every call counts, across threads); the call
 *       numbered GL_FAIL_AT returns NULL; with GL_FAIL_COUNT set, the total is printed at exit.
 * Not: free's bookkeeping beyond the few bytes dlsym needs before calloc is found.
 * Threads: the counter is atomic. Used only by tests/alloc/run.sh, never linked into gpulint. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_long calls;
static long fail_at = -1;   /* -1: not read yet; 0: never fail */
static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static _Alignas(16) char boot[1 << 16];   /* dlsym's own calloc, before real_calloc is known */
static size_t boot_used;

static int should_fail(void) {
  if (fail_at < 0) {
    const char *e = getenv("GL_FAIL_AT");
    fail_at = e ? atol(e) : 0;
  }
  return atomic_fetch_add(&calls, 1) + 1 == fail_at && fail_at > 0;
}

void *malloc(size_t n) {
  if (!real_malloc) real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
  return should_fail() ? NULL : real_malloc(n);
}

void *calloc(size_t a, size_t b) {
  if (!real_calloc) {
    static int finding;
    if (finding) {
      void *p = boot + boot_used;
      boot_used += (a * b + 15) & ~(size_t)15;
      return boot_used <= sizeof boot ? p : NULL;
    }
    finding = 1;
    real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    finding = 0;
  }
  return should_fail() ? NULL : real_calloc(a, b);
}

void *realloc(void *p, size_t n) {
  if (!real_realloc) real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
  return should_fail() ? NULL : real_realloc(p, n);
}

void free(void *p) {
  if ((char *)p >= boot && (char *)p < boot + sizeof boot) return;
  if (!real_free) real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
  real_free(p);
}

__attribute__((destructor)) static void print_count(void) {
  if (getenv("GL_FAIL_COUNT")) fprintf(stderr, "allocations: %ld\n", (long)atomic_load(&calls));
}
