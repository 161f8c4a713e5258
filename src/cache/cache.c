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
#include <time.h>
#include <unistd.h>

#include "base/tempfile.h"
#include "base/xalloc.h"

#define MAX_ENTRY_BYTES ((off_t)256 << 20)
#define HEX_NAME_LEN 32
#define TAG_NAME "CACHEDIR.TAG"
/* What marks a folder as gpulint's (every format version of the tag starts with it). */
#define TAG_OURS                                  \
  "Signature: 8a477f597d28d172789f06886806bc55\n" \
  "# This file is a cache directory tag created by gpulint."
static const char tag_text[] =
    TAG_OURS "\n"
    "# gpulint cache format 1\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n";
static const char gitignore_text[] = "# created by gpulint\n*\n";

struct gl_cache {
  char *run_dir;             /* <dir>/<run key> */
  char run_name[HEX_NAME_LEN + 1];
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
  char *tmp = join(dir, GL_TMP_TAG "XXXXXX");
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

static bool is_hex_name(const char *s) {
  size_t n = strlen(s);
  return n == HEX_NAME_LEN && strspn(s, "0123456789abcdef") == n;
}

/* A temp file of write_atomic (also the ".tmp-XXXXXX" of earlier versions, which only gpulint
 * wrote, when legacy: inside a folder that holds our tag). */
static bool is_tmp_name(const char *s, bool legacy) {
  return gl_tmp_name_is(s, GL_TMP_TAG) || (legacy && gl_tmp_name_is(s, ".tmp-"));
}

/* Reads the regular file name of the folder dfd (not a symlink, FIFO or device), at most cap
 * bytes; NULL otherwise. */
static char *read_small_at(int dfd, const char *name, size_t cap, size_t *len) {
  int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return NULL;
  struct stat st;
  char *data = NULL;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= cap) {
    data = gl_xmalloc((size_t)st.st_size + 1);
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

/* True when the folder dfd holds gpulint's CACHEDIR.TAG (any format version). */
static bool has_our_tag(int dfd) {
  size_t len = 0;
  char *data = read_small_at(dfd, TAG_NAME, 4096, &len);
  size_t want = strlen(TAG_OURS);
  bool ok = data && len >= want && memcmp(data, TAG_OURS, want) == 0;
  free(data);
  return ok;
}

/* True when the file name of the folder dfd holds exactly text. */
static bool file_is(int dfd, const char *name, const char *text) {
  size_t len = 0;
  char *data = read_small_at(dfd, name, 4096, &len);
  bool ok = data && len == strlen(text) && memcmp(data, text, len) == 0;
  free(data);
  return ok;
}

/* Opens the entries of the folder dfd for reading from the start, through a descriptor of its own
 * (a dup would share dfd's offset: a second listing would find nothing). dfd stays open. */
static DIR *entries_of(int dfd) {
  int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return NULL;
  DIR *d = fdopendir(fd);
  if (!d) close(fd);
  return d;
}

static bool is_dot(const char *s) { return strcmp(s, ".") == 0 || strcmp(s, "..") == 0; }

/* What a folder is to gpulint: its cache (our tag), free to become one (empty, or holding only
 * write_atomic's temp files of a concurrent run creating the tag), or someone else's. */
typedef enum { DIR_OURS, DIR_EMPTY, DIR_FOREIGN } dir_kind;

static dir_kind classify(int dfd) {
  if (has_our_tag(dfd)) return DIR_OURS;
  DIR *d = entries_of(dfd);
  if (!d) return DIR_FOREIGN;
  dir_kind k = DIR_EMPTY;
  struct dirent *e;
  while (k == DIR_EMPTY && (e = readdir(d)) != NULL)
    if (!is_dot(e->d_name) && !is_tmp_name(e->d_name, false)) k = DIR_FOREIGN;
  closedir(d);
  return k == DIR_EMPTY && has_our_tag(dfd) ? DIR_OURS : k;
}

/* Unlinks name in dfd when it is a regular file (never a symlink's target, never a folder).
 * Returns 0 when removed, ENOENT when it was not there, EEXIST when it is not a regular file (kept),
 * or the errno of the failed unlink. */
static int unlink_regular(int dfd, const char *name) {
  struct stat st;
  if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return errno;
  if (!S_ISREG(st.st_mode)) return EEXIST;
  return unlinkat(dfd, name, 0) == 0 ? 0 : errno;
}

/* Removes from run-key folder name of the cache dfd what gpulint writes there (entries named by
 * 32 hex digits, temp files), regular files only, then the folder if that emptied it. Never
 * follows a symlink, never enters a subfolder. Adds to *removed. Returns 0 when the folder is
 * gone, ENOTEMPTY when it holds something gpulint did not write (it stays), or the errno of the
 * first removal that failed. */
static int remove_run_dir(int dfd, const char *name, size_t *removed) {
  int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? 0 : errno;
  DIR *d = fdopendir(fd);
  if (!d) {
    int e = errno;
    close(fd);
    return e;
  }
  int failed = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!is_hex_name(e->d_name) && !is_tmp_name(e->d_name, true)) continue;
    int u = unlink_regular(fd, e->d_name);
    if (u == 0) (*removed)++;
    else if (u != ENOENT && u != EEXIST && !failed) failed = u;
  }
  closedir(d);
  if (failed) return failed;
  if (unlinkat(dfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT) return 0;
  return errno == EEXIST ? ENOTEMPTY : errno;
}

/* Removes the temp files killed runs left in the folder dfd (every naming of them). */
static void remove_stale_temps(int dfd) {
  gl_tmp_remove_stale(dfd, GL_TMP_TAG);
  gl_tmp_remove_stale(dfd, ".tmp-");
}

gl_cache *gl_cache_open(const char *dir, gl_hash128 run_key, const gl_ruleset *set, gl_diag *err) {
  char name[HEX_NAME_LEN + 1];
  hex_name(run_key, name);
  int e = ensure_dir(dir);
  int dfd = e ? -1 : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (!e && dfd < 0) e = errno;
  if (e) {
    set_errno_diag(err, "cannot create cache directory", dir, e);
    return NULL;
  }
  dir_kind kind = classify(dfd);
  close(dfd);
  if (kind == DIR_FOREIGN) { /* someone else's folder: nothing is written into it, ever */
    gl_diag_set(err, NULL, 0, 0,
                "cache directory %s is not empty and gpulint did not create it (no gpulint %s): "
                "nothing is written to it", dir, TAG_NAME);
    return NULL;
  }
  char *run_dir = join(dir, name);
  if (kind == DIR_EMPTY) {
    e = ensure_file(dir, TAG_NAME, tag_text);
    if (!e) e = ensure_file(dir, ".gitignore", gitignore_text);
  }
  if (!e) e = ensure_dir(run_dir);
  if (!e && utimensat(AT_FDCWD, run_dir, NULL, 0) != 0) e = errno; /* used now: kept by pruning */
  if (e) {
    set_errno_diag(err, "cannot write to cache directory", dir, e);
    free(run_dir);
    return NULL;
  }
  gl_cache *c = gl_xcalloc(1, sizeof(*c));
  c->run_dir = run_dir;
  memcpy(c->run_name, name, sizeof(name));
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

/* Reads a whole entry file (at most MAX_ENTRY_BYTES, a regular file, no symlink followed); NULL
 * when missing or unreadable. */
static char *read_entry(const char *path, size_t *len) {
  return read_small_at(AT_FDCWD, path, (size_t)MAX_ENTRY_BYTES, len);
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
  out->summary = r.summary;
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

typedef struct run_dir {
  char name[HEX_NAME_LEN + 1];
  struct timespec used;
} run_dir;

static int newest_first(const void *a, const void *b) {
  const run_dir *x = a, *y = b;
  if (x->used.tv_sec != y->used.tv_sec) return x->used.tv_sec < y->used.tv_sec ? 1 : -1;
  if (x->used.tv_nsec != y->used.tv_nsec) return x->used.tv_nsec < y->used.tv_nsec ? 1 : -1;
  return strcmp(x->name, y->name);
}

/* Removes the run-key folders beyond the GL_CACHE_KEEP_RUNS most recently used (never ours) and
 * the temp files killed runs left in the cache and in our run-key folder. Only in a folder that
 * still holds our tag, and only what remove_run_dir recognises. */
static void prune(const gl_cache *c) {
  int dfd = open(c->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return;
  DIR *d = has_our_tag(dfd) ? entries_of(dfd) : NULL;
  if (!d) {
    close(dfd);
    return;
  }
  gl_vec(run_dir) runs = {0};
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    struct stat st;
    if (!is_hex_name(e->d_name) || fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISDIR(st.st_mode))
      continue;
    run_dir r = {.used = st.st_mtim};
    memcpy(r.name, e->d_name, sizeof(r.name));
    gl_vec_push(&runs, r);
  }
  closedir(d);
  if (runs.len) qsort(runs.data, runs.len, sizeof(run_dir), newest_first);
  size_t removed = 0;
  for (size_t i = GL_CACHE_KEEP_RUNS; i < runs.len; i++)
    if (strcmp(runs.data[i].name, c->run_name) != 0)
      (void)remove_run_dir(dfd, runs.data[i].name, &removed);
  gl_vec_free(&runs);
  remove_stale_temps(dfd);
  int rfd = openat(dfd, c->run_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (rfd >= 0) {
    remove_stale_temps(rfd);
    close(rfd);
  }
  close(dfd);
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

/* Removes what gpulint made at the top of the cache dfd: run-key folders (remove_run_dir) and
 * temp files. Returns the number of other entries, which stay; *failed gets the first errno of a
 * removal that failed and *failed_name its entry. */
static size_t remove_ours(int dfd, size_t *removed, int *failed, char *failed_name, size_t cap) {
  DIR *d = entries_of(dfd);
  if (!d) {
    *failed = errno;
    return 1;
  }
  size_t others = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    const char *n = e->d_name;
    struct stat st;
    if (is_dot(n) || strcmp(n, TAG_NAME) == 0) continue;
    if (strcmp(n, ".gitignore") == 0 && file_is(dfd, n, gitignore_text)) continue;
    int r = ENOTEMPTY;
    if (is_hex_name(n) && fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
      r = remove_run_dir(dfd, n, removed);
    } else if (is_tmp_name(n, true)) {
      r = unlink_regular(dfd, n);
      if (r == 0) (*removed)++;
      if (r == EEXIST) r = ENOTEMPTY;
    }
    if (r == 0 || r == ENOENT) continue;
    others++;
    if (r != ENOTEMPTY && !*failed) {
      *failed = r;
      snprintf(failed_name, cap, "%s", n);
    }
  }
  closedir(d);
  return others;
}

int gl_cache_clean(const char *dir, gl_cache_cleaned *out, gl_diag *err) {
  memset(out, 0, sizeof(*out));
  struct stat st;
  out->existed = stat(dir, &st) == 0;
  if (!out->existed) return 0;
  int dfd = S_ISDIR(st.st_mode) ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
  if (dfd < 0 || !has_our_tag(dfd)) {
    if (dfd >= 0) close(dfd);
    gl_diag_set(err, NULL, 0, 0, "%s is not a gpulint cache (no gpulint %s): nothing removed", dir,
                TAG_NAME);
    return GL_EINVAL;
  }
  int failed = 0;
  char failed_name[256] = "";
  out->kept = remove_ours(dfd, &out->removed, &failed, failed_name, sizeof(failed_name));
  if (out->kept == 0) { /* nothing else left: the marker files, then the folder */
    if (file_is(dfd, ".gitignore", gitignore_text) && unlinkat(dfd, ".gitignore", 0) == 0)
      out->removed++;
    if (unlinkat(dfd, TAG_NAME, 0) == 0) out->removed++;
  }
  close(dfd);
  if (failed) {
    char *p = join(dir, failed_name);
    set_errno_diag(err, "cannot remove", p, failed);
    free(p);
    return GL_EIO;
  }
  if (out->kept == 0 && rmdir(dir) != 0) {
    int e = errno;
    /* "." or a mount point cannot go, and a concurrent run may have just written an entry */
    if (e != EINVAL && e != EBUSY && e != ENOTEMPTY && e != EEXIST) {
      set_errno_diag(err, "cannot remove cache directory", dir, e);
      return GL_EIO;
    }
  }
  return 0;
}
