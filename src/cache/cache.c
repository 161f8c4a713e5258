/* cache.c: the result cache's directory: opening it, reading and writing entries, pruning, and
 * `gpulint clean`.
 * Owns: <dir>/CACHEDIR.TAG and <dir>/.gitignore, the run-key folders <dir>/<32 hex digits>, the
 *       entries in them (named by the hash of the display path, so an edited file replaces its
 *       entry and a folder holds at most one entry per path), temp files + rename, and keeping at
 *       most GL_CACHE_KEEP_RUNS run-key folders (the most recently used).
 * Not: the entry bytes (cache_ser.c), the run key (cache_key.c), deciding when to use the cache
 *      (engine.c, main.c).
 * Threads: gl_cache_get / gl_cache_put run in workers at once; the only shared mutable state is
 *          the first write error, under a mutex. Other processes may use the folder meanwhile. */
#include "cache/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"

#define MAX_ENTRY_BYTES ((off_t)256 << 20)
#define HEX_NAME_LEN 32
#define TAG_NAME "CACHEDIR.TAG"
static const char tag_text[] =
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by gpulint.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n";

struct gl_cache {
  char *run_dir;             /* <dir>/<run key> */
  char *dir;
  const gl_ruleset *set;
  pthread_mutex_t lock;
  bool failed;               /* a write failed; err says the first */
  gl_diag err;
};

static char *join(const char *a, const char *b) {
  size_t n = strlen(a) + 1 + strlen(b) + 1;
  char *s = gl_xmalloc(n);
  snprintf(s, n, "%s/%s", a, b);
  return s;
}

static void hex_name(gl_hash128 h, char out[HEX_NAME_LEN + 1]) {
  snprintf(out, HEX_NAME_LEN + 1, "%016llx%016llx", (unsigned long long)h.hi,
           (unsigned long long)h.lo);
}

static void set_errno_diag(gl_diag *err, const char *what, const char *path, int e) {
  char text[128];
  gl_diag_errno_text(e, text, sizeof(text));
  gl_diag_set(err, NULL, 0, 0, "%s %s: %s", what, path, text);
}

/* Writes len bytes to dir/name through a temp file and rename; returns 0 or errno. */
static int write_atomic(const char *dir, const char *name, const char *data, size_t len) {
  char *tmp = join(dir, ".tmp-XXXXXX");
  int fd = mkstemp(tmp);
  if (fd < 0) {
    int e = errno;
    free(tmp);
    return e;
  }
  int e = 0;
  for (size_t off = 0; off < len && !e;) {
    ssize_t n = write(fd, data + off, len - off);
    if (n < 0 && errno != EINTR) e = errno;
    if (n > 0) off += (size_t)n;
  }
  if (fchmod(fd, 0644) != 0 && !e) e = errno;
  if (close(fd) != 0 && !e) e = errno;
  char *path = join(dir, name);
  if (!e && rename(tmp, path) != 0) e = errno;
  if (e) unlink(tmp);
  free(path);
  free(tmp);
  return e;
}

/* Writes dir/name once (a concurrent writer's copy is as good). */
static int ensure_file(const char *dir, const char *name, const char *text) {
  char *path = join(dir, name);
  int e = access(path, F_OK) == 0 ? 0 : write_atomic(dir, name, text, strlen(text));
  free(path);
  return e;
}

static int ensure_dir(const char *path) {
  if (mkdir(path, 0777) == 0 || errno == EEXIST) return 0;
  return errno;
}

gl_cache *gl_cache_open(const char *dir, gl_hash128 run_key, const gl_ruleset *set, gl_diag *err) {
  char name[HEX_NAME_LEN + 1];
  hex_name(run_key, name);
  char *run_dir = join(dir, name);
  int e = ensure_dir(dir);
  if (!e) e = ensure_file(dir, TAG_NAME, tag_text);
  if (!e) e = ensure_file(dir, ".gitignore", "# created by gpulint\n*\n");
  if (!e) e = ensure_dir(run_dir);
  if (!e && utimensat(AT_FDCWD, run_dir, NULL, 0) != 0) e = errno; /* used now: kept by pruning */
  if (e) {
    set_errno_diag(err, "cannot create cache directory", dir, e);
    free(run_dir);
    return NULL;
  }
  gl_cache *c = gl_xcalloc(1, sizeof(*c));
  c->run_dir = run_dir;
  c->dir = gl_xstrdup(dir);
  c->set = set;
  pthread_mutex_init(&c->lock, NULL);
  return c;
}

gl_hash128 gl_cache_content_hash(const gl_source *src) {
  gl_hash128 h = gl_hash128_of(src->bytes, src->len, src->had_lone_cr ? 0x6c6f6e652d6372ULL : 0);
  if (src->n_nuls) {
    gl_hash128 n = gl_hash128_of(src->nuls, src->n_nuls * sizeof(uint32_t), h.lo ^ 0x6e756cULL);
    h.lo ^= n.lo;
    h.hi ^= n.hi;
  }
  return h;
}

static char *entry_path(const gl_cache *c, const char *path) {
  char name[HEX_NAME_LEN + 1];
  hex_name(gl_hash128_of(path, strlen(path), 1), name);
  return join(c->run_dir, name);
}

/* Reads a whole entry file (at most MAX_ENTRY_BYTES); NULL when missing or unreadable. */
static char *read_entry(const char *path, size_t *len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  char *data = NULL;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
      st.st_size <= MAX_ENTRY_BYTES) {
    data = gl_xmalloc((size_t)st.st_size);
    size_t off = 0;
    while (off < (size_t)st.st_size) {
      ssize_t n = read(fd, data + off, (size_t)st.st_size - off);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      off += (size_t)n;
    }
    *len = off;
  }
  close(fd);
  return data;
}

bool gl_cache_get(const gl_cache *c, const char *path, gl_hash128 content, gl_file_result *out) {
  char *epath = entry_path(c, path);
  size_t len = 0;
  char *data = read_entry(epath, &len);
  free(epath);
  if (!data) return false;
  size_t off = gl_cache_entry_check(data, len, content);
  gl_file_result r = {0};
  bool ok = off && gl_cache_decode(data + off, len - off, c->set, &r) && strcmp(r.path, path) == 0;
  free(data);
  if (!ok) {
    gl_file_result_free(&r);
    return false;
  }
  free(r.path);
  out->findings.data = r.findings.data;
  out->findings.len = r.findings.len;
  out->findings.cap = r.findings.cap;
  out->notes.data = r.notes.data;
  out->notes.len = r.notes.len;
  out->notes.cap = r.notes.cap;
  out->linted = r.linted;
  return true;
}

static bool cacheable(const gl_file_result *r) {
  if (!r->linted) return false;
  for (size_t i = 0; i < r->notes.len; i++)
    if (r->notes.data[i].kind != GL_NOTE_SYNTAX_ERROR) return false;
  return true;
}

void gl_cache_put(gl_cache *c, gl_hash128 content, const gl_file_result *r) {
  if (!cacheable(r)) return;
  gl_cache_keybuf entry = {0};
  gl_cache_entry_build(r, content, &entry);
  char name[HEX_NAME_LEN + 1];
  hex_name(gl_hash128_of(r->path, strlen(r->path), 1), name);
  int e = write_atomic(c->run_dir, name, entry.data, entry.len);
  gl_vec_free(&entry);
  if (!e) return;
  pthread_mutex_lock(&c->lock);
  if (!c->failed) set_errno_diag(&c->err, "cannot write to cache directory", c->run_dir, e);
  c->failed = true;
  pthread_mutex_unlock(&c->lock);
}

static bool is_hex_name(const char *s) {
  size_t n = strlen(s);
  return n == HEX_NAME_LEN && strspn(s, "0123456789abcdef") == n;
}

/* Removes the files of dir (one level) and dir; adds to *removed. Returns 0 or errno. */
static int remove_flat_dir(const char *dir, size_t *removed) {
  DIR *d = opendir(dir);
  if (!d) return errno;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char *p = join(dir, e->d_name);
    if (unlink(p) == 0) (*removed)++;
    free(p);
  }
  closedir(d);
  return rmdir(dir) == 0 || errno == ENOENT ? 0 : errno;
}

typedef struct run_dir {
  char *path;
  struct timespec used;
} run_dir;

static int newest_first(const void *a, const void *b) {
  const run_dir *x = a, *y = b;
  if (x->used.tv_sec != y->used.tv_sec) return x->used.tv_sec < y->used.tv_sec ? 1 : -1;
  if (x->used.tv_nsec != y->used.tv_nsec) return x->used.tv_nsec < y->used.tv_nsec ? 1 : -1;
  return strcmp(x->path, y->path);
}

/* Removes the run-key folders beyond the GL_CACHE_KEEP_RUNS most recently used (never ours). */
static void prune(const gl_cache *c) {
  DIR *d = opendir(c->dir);
  if (!d) return;
  gl_vec(run_dir) runs = {0};
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!is_hex_name(e->d_name)) continue;
    run_dir r = {join(c->dir, e->d_name), {0, 0}};
    struct stat st;
    if (stat(r.path, &st) == 0 && S_ISDIR(st.st_mode)) {
      r.used = st.st_mtim;
      gl_vec_push(&runs, r);
    } else {
      free(r.path);
    }
  }
  closedir(d);
  if (runs.len) qsort(runs.data, runs.len, sizeof(run_dir), newest_first);
  size_t removed = 0;
  for (size_t i = 0; i < runs.len; i++) {
    if (i >= GL_CACHE_KEEP_RUNS && strcmp(runs.data[i].path, c->run_dir) != 0)
      remove_flat_dir(runs.data[i].path, &removed);
    free(runs.data[i].path);
  }
  gl_vec_free(&runs);
}

bool gl_cache_close(gl_cache *c, gl_diag *err) {
  if (!c) return false;
  prune(c);
  bool failed = c->failed;
  if (failed) *err = c->err;
  pthread_mutex_destroy(&c->lock);
  free(c->run_dir);
  free(c->dir);
  free(c);
  return failed;
}

static bool has_our_tag(const char *dir) {
  char *p = join(dir, TAG_NAME);
  size_t len = 0;
  char *data = read_entry(p, &len);
  free(p);
  size_t want = sizeof(tag_text) - 1;
  bool ok = data && len >= want && memcmp(data, tag_text, want) == 0;
  free(data);
  return ok;
}

int gl_cache_clean(const char *dir, size_t *removed, bool *existed, gl_diag *err) {
  *removed = 0;
  struct stat st;
  *existed = lstat(dir, &st) == 0;
  if (!*existed) return 0;
  if (!S_ISDIR(st.st_mode) || !has_our_tag(dir)) {
    gl_diag_set(err, NULL, 0, 0, "%s is not a gpulint cache (no %s): not removed", dir, TAG_NAME);
    return GL_EINVAL;
  }
  DIR *d = opendir(dir);
  if (!d) {
    set_errno_diag(err, "cannot remove cache directory", dir, errno);
    return GL_EIO;
  }
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char *p = join(dir, e->d_name);
    if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) remove_flat_dir(p, removed);
    else if (unlink(p) == 0) (*removed)++;
    free(p);
  }
  closedir(d);
  if (rmdir(dir) != 0) {
    set_errno_diag(err, "cannot remove cache directory", dir, errno);
    return GL_EIO;
  }
  return 0;
}
