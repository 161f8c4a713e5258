/* parse_arena.c: the per-thread bump arena tree-sitter allocates from during a parse.
 * Owns: the chunks of each thread's arena (mmap'd, the first up to GL_ARENA_KEEP_BYTES kept
 *       between parses), the block headers (each block's size, for realloc), and the four
 *       tree-sitter allocator hooks: arena blocks while a parse is active, the heap otherwise.
 * Not: the decision to parse into the arena (parse.c), out-of-memory policy (xalloc.c: a chunk
 *      that cannot be mapped makes the block come from the heap, which exits on failure).
 * Threads: all state is thread-local except the installed flag; the hooks tell an arena block
 *          from a heap block by address, against the calling thread's chunks only.
 * Why: a tree-sitter parse makes one heap allocation per subtree and frees most of them again in
 *      ts_tree_delete; measured on the 1,788 gpu-dense files, parsing into an arena and dropping
 *      it whole costs 9 % fewer instructions and about 13 % less time than malloc and free. */
#include "parse/parse_arena.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <tree_sitter/api.h>

#include "base/xalloc.h"

#if defined(__SANITIZE_ADDRESS__)
#define GL_ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GL_ARENA_ASAN 1
#endif
#endif
#ifdef GL_ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define HEADER 16                       /* keeps every block 16-byte aligned, like malloc */
#define MIN_CHUNK ((size_t)2 << 20)
#define MAX_CHUNKS 32

typedef struct chunk {
  char *base;
  size_t size;
} chunk;

typedef struct arena {
  chunk chunks[MAX_CHUNKS];
  unsigned n;       /* chunks mapped */
  unsigned cur;     /* the chunk being filled */
  size_t used;      /* bytes taken from chunks[cur] */
  size_t mapped;    /* bytes of all chunks */
  char *last;       /* header of the block allocated last in chunks[cur], or NULL */
  bool active;      /* tree-sitter's new blocks come from here */
  bool holding;     /* entered and not dropped yet */
  const void *tree; /* what the parse made, from gl_arena_leave */
  bool spilled;     /* a block of the held tree came from the heap */
  size_t max_bytes; /* the bound on mapped; 0 = GL_ARENA_MAX_BYTES */
} arena;

static _Thread_local arena tls;
static atomic_bool installed;

static size_t round16(size_t n) { return (n + 15) & ~(size_t)15; }

static size_t block_size(const void *p) {
  size_t n;
  memcpy(&n, (const char *)p - HEADER, sizeof(n));
  return n;
}

bool gl_arena_owns(const void *p) {
  const arena *a = &tls;
  const char *c = p;
  if (a->n) {
    const chunk *k = &a->chunks[a->cur];
    if (c >= k->base && c < k->base + k->size) return true;
  }
  for (unsigned i = 0; i < a->n; i++) {
    if (c >= a->chunks[i].base && c < a->chunks[i].base + a->chunks[i].size) return true;
  }
  return false;
}

/* Maps a chunk able to hold `need` bytes: twice the last chunk, at least MIN_CHUNK. False when
 * the arena is at its bound or mmap refuses. */
static bool map_chunk(arena *a, size_t need) {
  if (a->n == MAX_CHUNKS) return false;
  size_t size = a->n ? 2 * a->chunks[a->n - 1].size : MIN_CHUNK;
  if (size < need) size = (need + MIN_CHUNK - 1) & ~(MIN_CHUNK - 1);
  if (a->mapped + size > (a->max_bytes ? a->max_bytes : GL_ARENA_MAX_BYTES)) return false;
  void *base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return false;
  POISON(base, size);
  a->chunks[a->n].base = base;
  a->chunks[a->n].size = size;
  a->n++;
  a->mapped += size;
  return true;
}

/* A block of n bytes from the arena, or NULL when it cannot hold one (the caller spills). */
static void *arena_block(arena *a, size_t n) {
  size_t body = round16(n ? n : 1), need = body + HEADER;
  for (;;) {
    if (a->cur < a->n && a->used + need <= a->chunks[a->cur].size) break;
    if (a->cur + 1 < a->n) {
      a->cur++;
    } else {
      if (!map_chunk(a, need)) return NULL;
      a->cur = a->n - 1;
    }
    a->used = 0;
    a->last = NULL;
  }
  char *h = a->chunks[a->cur].base + a->used;
  UNPOISON(h, need);
  memcpy(h, &body, sizeof(body));
  a->used += need;
  a->last = h;
  return h + HEADER;
}

static void *hook_malloc(size_t n) {
  arena *a = &tls;
  if (a->active) {
    void *p = arena_block(a, n);
    if (p) return p;
    a->spilled = true;
  }
  return gl_xmalloc(n);
}

static void *hook_calloc(size_t count, size_t size) {
  arena *a = &tls;
  if (a->active) {
    size_t n = count * size;
    if (size && n / size != count) return gl_xcalloc(count, size); /* overflow: heap reports it */
    void *p = arena_block(a, n);
    if (p) return memset(p, 0, n);
    a->spilled = true;
  }
  return gl_xcalloc(count, size);
}

static void *hook_realloc(void *p, size_t n) {
  if (!p) return hook_malloc(n);
  arena *a = &tls;
  if (!gl_arena_owns(p)) return gl_xrealloc(p, n);
  size_t old = block_size(p), body = round16(n ? n : 1);
  if (body <= old) return p;
  char *h = (char *)p - HEADER;
  if (a->active && h == a->last && a->used - old + body <= a->chunks[a->cur].size) {
    UNPOISON(h, HEADER + body);
    memcpy(h, &body, sizeof(body));
    a->used += body - old;
    return p;
  }
  /* Growing an arena block after the parse would put heap memory under the tree. */
  if (!a->active) a->spilled = true;
  void *q = hook_malloc(n);
  memcpy(q, p, old);
  return q;
}

static void hook_free(void *p) {
  if (!p) return;
  if (!gl_arena_owns(p)) {
    free(p);
    return;
  }
  arena *a = &tls;
  char *h = (char *)p - HEADER;
  size_t body = block_size(p);
  if (h == a->last) { /* the newest block: give its bytes back */
    a->used -= HEADER + body;
    a->last = NULL;
  }
  POISON(h, HEADER + body);
}

void gl_arena_install(void) {
  ts_set_allocator(hook_malloc, hook_calloc, hook_realloc, hook_free);
  atomic_store(&installed, true);
}

bool gl_arena_ready(void) { return atomic_load_explicit(&installed, memory_order_relaxed); }

bool gl_arena_enter(void) {
  arena *a = &tls;
  if (!gl_arena_ready() || a->holding) return false;
  a->holding = true;
  a->active = true;
  a->spilled = false;
  a->tree = NULL;
  a->cur = 0;
  a->used = 0;
  a->last = NULL;
  return true;
}

void gl_arena_leave(const void *tree) {
  tls.active = false;
  tls.tree = tree;
}

bool gl_arena_holds(const void *tree) { return tls.holding && tree && tls.tree == tree; }

bool gl_arena_spilled(void) { return tls.spilled; }

static void unmap_from(arena *a, unsigned first) {
  for (unsigned i = first; i < a->n; i++) {
    UNPOISON(a->chunks[i].base, a->chunks[i].size);
    munmap(a->chunks[i].base, a->chunks[i].size);
    a->mapped -= a->chunks[i].size;
  }
  a->n = first;
}

void gl_arena_drop(void) {
  arena *a = &tls;
  unsigned keep = 0;
  size_t kept = 0;
  while (keep < a->n && kept + a->chunks[keep].size <= GL_ARENA_KEEP_BYTES) {
    kept += a->chunks[keep].size;
    POISON(a->chunks[keep].base, a->chunks[keep].size);
    keep++;
  }
  unmap_from(a, keep);
  a->cur = 0;
  a->used = 0;
  a->last = NULL;
  a->active = false;
  a->holding = false;
  a->spilled = false;
  a->tree = NULL;
}

void gl_arena_set_max_bytes(size_t bytes) { tls.max_bytes = bytes; }

void gl_arena_release_thread(void) {
  arena *a = &tls;
  if (a->holding) return;
  unmap_from(a, 0);
}
