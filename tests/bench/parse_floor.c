/* parse_floor.c: the benchmark's parse-only floor: reads every file it is given and parses it the
 * way gpulint does (parse.c's gl_parse_scratch: the same tree-sitter runtime and Python grammar,
 * the same per-thread parse arena), and does nothing else.
 * Owns: its command line (`parse_floor [--heap] [--walk] [-j N|-jN] [-l LIST] [FILE...]`, LIST
 *       holding one path a line; --heap parses with one reused TSParser and tree-sitter's heap
 *       allocation, as gpulint did before the arena; --walk then visits every node of the tree
 *       once with a TSTreeCursor, the least any linter that looks at every node must add), the
 *       worker pool, and the one summary line it prints ("parse_floor: F files, B bytes, T threads,
 *       E unreadable", then ", N nodes walked" with --walk); exit 1 when a file could not be read.
 * Not: anything gpulint does after the parse (no model, no query, no report): of gl_core it calls
 *      only parse.c and parse_arena.c.
 * Threads: like gpulint's pool, each worker owns one gl_parser and takes the next file from a
 *          shared atomic index; the totals are atomics read after the joins. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse/parse.h"
#include "parse/parse_arena.h"

typedef struct paths {
  char **items;
  size_t len, cap;
} paths;

typedef struct pool {
  const paths *files;
  int heap, walk;
  atomic_uint_least64_t nodes;
  atomic_size_t next;
  atomic_size_t parsed;
  atomic_size_t unreadable;
  atomic_uint_least64_t bytes;
} pool;

static void *xrealloc_or_die(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    fputs("parse_floor: out of memory\n", stderr);
    exit(2);
  }
  return q;
}

static void paths_push(paths *ps, const char *s) {
  if (ps->len == ps->cap) {
    ps->cap = ps->cap ? 2 * ps->cap : 256;
    ps->items = xrealloc_or_die(ps->items, ps->cap * sizeof(char *));
  }
  size_t n = strlen(s);
  ps->items[ps->len] = xrealloc_or_die(NULL, n + 1);
  memcpy(ps->items[ps->len], s, n + 1);
  ps->len++;
}

/* Appends every non-empty line of `list` to `ps`; false when the list cannot be opened. */
static int read_list(const char *list, paths *ps) {
  FILE *f = fopen(list, "r");
  if (!f) return 0;
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, f)) >= 0) {
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
    if (n > 0) paths_push(ps, line);
  }
  free(line);
  fclose(f);
  return 1;
}

/* Reads the whole file into a fresh buffer; NULL when it cannot be read. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = xrealloc_or_die(NULL, cap);
  size_t got;
  while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      cap *= 2;
      buf = xrealloc_or_die(buf, cap);
    }
  }
  int failed = ferror(f);
  fclose(f);
  if (failed) {
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

/* Visits every node of tree once, in pre-order, and counts them. */
static uint_least64_t count_nodes(const TSTree *tree) {
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
  uint_least64_t n = 1;
  for (;;) {
    if (ts_tree_cursor_goto_first_child(&c)) {
      n++;
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) {
        ts_tree_cursor_delete(&c);
        return n;
      }
    }
    n++;
  }
}

static void *worker(void *arg) {
  pool *p = arg;
  gl_parser *parser = gl_parse_new(0, 0);
  for (;;) {
    size_t i = atomic_fetch_add(&p->next, 1);
    if (i >= p->files->len) break;
    gl_source src = {.path = p->files->items[i]};
    src.bytes = read_file(src.path, &src.len);
    if (!src.bytes) {
      atomic_fetch_add(&p->unreadable, 1);
      continue;
    }
    gl_diag err = {0};
    TSTree *tree = p->heap ? gl_parse_source(parser, &src, &err)
                           : gl_parse_scratch(parser, &src, &err);
    if (tree) {
      atomic_fetch_add(&p->parsed, 1);
      atomic_fetch_add(&p->bytes, (uint_least64_t)src.len);
      if (p->walk) atomic_fetch_add(&p->nodes, count_nodes(tree));
      gl_parse_release(tree);
    }
    free(src.bytes);
  }
  gl_parse_free(parser);
  gl_arena_release_thread();
  return NULL;
}

static int usage(void) {
  fputs("usage: parse_floor [--heap] [--walk] [-j N] [-l LIST] [FILE...]\n", stderr);
  return 2;
}

int main(int argc, char **argv) {
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  unsigned jobs = online > 0 ? (unsigned)online : 1;
  paths files = {0};
  int heap = 0, walk = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--heap") == 0) {
      heap = 1;
    } else if (strcmp(argv[i], "--walk") == 0) {
      walk = 1;
    } else if (strncmp(argv[i], "-j", 2) == 0 && (argv[i][2] || i + 1 < argc)) {
      const char *v = argv[i][2] ? argv[i] + 2 : argv[++i];
      char *end = NULL;
      long n = strtol(v, &end, 10);
      if (!end || *end || n < 1 || n > 1024) return usage();
      jobs = (unsigned)n;
    } else if (strcmp(argv[i], "-l") == 0 && i + 1 < argc) {
      if (!read_list(argv[++i], &files)) {
        fprintf(stderr, "parse_floor: cannot read the list %s\n", argv[i]);
        return 2;
      }
    } else if (argv[i][0] == '-') {
      return usage();
    } else {
      paths_push(&files, argv[i]);
    }
  }
  gl_arena_install();
  pool p = {.files = &files, .heap = heap, .walk = walk};
  pthread_t *threads = xrealloc_or_die(NULL, jobs * sizeof(pthread_t));
  unsigned started = 0;
  while (started < jobs && pthread_create(&threads[started], NULL, worker, &p) == 0) started++;
  if (started == 0) worker(&p);
  for (unsigned t = 0; t < started; t++) pthread_join(threads[t], NULL);
  printf("parse_floor: %zu files, %llu bytes, %u threads, %zu unreadable",
         atomic_load(&p.parsed), (unsigned long long)atomic_load(&p.bytes),
         started ? started : 1u, atomic_load(&p.unreadable));
  if (walk) printf(", %llu nodes walked", (unsigned long long)atomic_load(&p.nodes));
  putchar('\n');
  for (size_t i = 0; i < files.len; i++) free(files.items[i]);
  free(files.items);
  free(threads);
  return atomic_load(&p.unreadable) ? 1 : 0;
}
