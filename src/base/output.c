/* output.c: atomic report files: write a temp file next to the target, then rename it over.
 * Owns: where the report really goes (a symlink is followed to its target, so the link stays a
 *       link; a path under /dev or /proc, or anything that is not a regular file, is written in
 *       place, since renaming over it would replace a device node or /dev/stdout itself), the
 *       temp file's name, creation (O_EXCL; the old file's mode, else 0644 less the umask),
 *       fsync, rename, and clean-up on every failure path, a fatal signal included.
 * Not: formatting (report.c). Threads: a gl_output belongs to the main thread. */
#include "base/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "base/tempfile.h"
#include "base/xalloc.h"

enum { TMP_ATTEMPTS = 100, MAX_LINKS = 40 };

/* ---- the temp file a fatal signal removes ------------------------------------------------ */

static char live_tmp[PATH_MAX + 32];   /* the temp file not yet renamed or removed; "" for none */
static volatile sig_atomic_t live_set;
static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

/* Async-signal-safe: unlink, then the default action (SA_RESETHAND) by raising it again. */
static void on_fatal_signal(int sig) {
  if (live_set) unlink(live_tmp);
  raise(sig);
}

static void remember_tmp(const char *tmp) {
  size_t n = strlen(tmp);
  if (n >= sizeof live_tmp) return;
  memcpy(live_tmp, tmp, n + 1);
  live_set = 1;
  static bool installed;
  if (installed) return;
  installed = true;
  for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
    struct sigaction old, sa = {.sa_handler = on_fatal_signal, .sa_flags = SA_RESETHAND};
    sigemptyset(&sa.sa_mask);
    /* a signal the caller ignores (nohup) stays ignored */
    if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(fatal_signals[i], &sa, NULL);
  }
}

static void forget_tmp(void) { live_set = 0; }

static void fail(gl_output *o, int err, const char *what, const char *file) {
  char text[128];
  gl_diag_errno_text(err, text, sizeof text);
  gl_diag_set(&o->err, o->path, 0, 0, "cannot %s '%.900s': %s", what, file, text);
}

/* Six characters from [A-Za-z0-9], from getrandom or, failing that, the clock and the pid. */
static void random_suffix(char out[7]) {
  static const char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  unsigned char bytes[6];
  if (getrandom(bytes, sizeof bytes, GRND_NONBLOCK) != (ssize_t)sizeof bytes) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    unsigned long long x = (unsigned long long)ts.tv_nsec ^ ((unsigned long long)getpid() << 20);
    for (size_t i = 0; i < sizeof bytes; i++, x = x * 6364136223846793005ull + 1442695040888963407ull)
      bytes[i] = (unsigned char)(x >> 56);
  }
  for (size_t i = 0; i < 6; i++) out[i] = alphabet[bytes[i] % (sizeof alphabet - 1)];
  out[6] = '\0';
}

/* The folder path is in ("." for a bare name, "/" for a file at the root), heap-allocated. */
static char *parent_dir(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? gl_xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : gl_xstrdup(".");
}

/* Removes the temp files of this target that a killed run left beside it (base/tempfile.h). */
static void remove_stale_temps(const char *target) {
  const char *slash = strrchr(target, '/');
  char *dir = parent_dir(target);
  char *prefix = gl_xasprintf("%s" GL_TMP_TAG, slash ? slash + 1 : target);
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    gl_tmp_remove_stale(fd, prefix);
    close(fd);
  }
  free(prefix);
  free(dir);
}

/* Creates <target>.gpulint-tmp-XXXXXX exclusively, with mode when it is not 0 (the file it replaces);
 * returns the fd (tmp_path set) or -1 with errno. */
static int create_temp(gl_output *o, mode_t mode) {
  for (int attempt = 0; attempt < TMP_ATTEMPTS; attempt++) {
    char suffix[7];
    random_suffix(suffix);
    char *tmp = gl_xasprintf("%s" GL_TMP_TAG "%s", o->target, suffix);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode ? 0600 : 0644);
    if (fd >= 0) {
      remember_tmp(tmp);
      o->tmp_path = tmp;
      if (mode) (void)fchmod(fd, mode); /* not through the umask: the old file's mode exactly */
      return fd;
    }
    int err = errno;
    free(tmp);
    if (err != EEXIST) {
      errno = err;
      return -1;
    }
  }
  errno = EEXIST;
  return -1;
}

static int open_in_place(gl_output *o) {
  o->fp = fopen(o->path, "w");
  if (o->fp) return 0;
  fail(o, errno, "open", o->path);
  free(o->path);
  o->path = NULL;
  return GL_EIO;
}

static bool is_special_path(const char *p) {
  return strncmp(p, "/dev/", 5) == 0 || strncmp(p, "/proc/", 6) == 0;
}

/* The file a chain of symlinks at path ends in (it need not exist), heap-allocated; NULL with
 * errno ELOOP after MAX_LINKS links. A relative link is read from its link's directory. */
static char *follow_links(const char *path) {
  char *at = gl_xstrdup(path);
  for (int i = 0; i < MAX_LINKS; i++) {
    struct stat st;
    if (lstat(at, &st) != 0 || !S_ISLNK(st.st_mode)) return at;
    char link[PATH_MAX];
    ssize_t n = readlink(at, link, sizeof link - 1);
    if (n < 0) return at;
    link[n] = '\0';
    char *next;
    const char *slash = strrchr(at, '/');
    if (link[0] == '/' || !slash) next = gl_xstrdup(link);
    else next = gl_xasprintf("%.*s/%s", (int)(slash - at), at, link);
    free(at);
    at = next;
  }
  free(at);
  errno = ELOOP;
  return NULL;
}

static int refuse(gl_output *o, int err, const char *what, const char *file) {
  fail(o, err, what, file);
  free(o->path);
  free(o->target);
  o->path = o->target = NULL;
  return GL_EIO;
}

int gl_output_open(gl_output *o, const char *path) {
  memset(o, 0, sizeof *o);
  if (!path || strcmp(path, "-") == 0) {
    o->fp = stdout;
    return 0;
  }
  o->path = gl_xstrdup(path);
  o->target = follow_links(path);
  if (!o->target) return refuse(o, errno, "write", path);
  struct stat st;
  bool exists = stat(o->target, &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return refuse(o, EISDIR, "write", path);
  /* /dev/stdout, /dev/null, /proc/self/fd/N, a FIFO, a device: written, never renamed over */
  if (is_special_path(path) || is_special_path(o->target) || (exists && !S_ISREG(st.st_mode))) {
    free(o->target);
    o->target = NULL;
    return open_in_place(o);
  }
  if (exists) {
    o->replaces = true;
    o->dev = (unsigned long long)st.st_dev;
    o->ino = (unsigned long long)st.st_ino;
  }
  remove_stale_temps(o->target);
  int fd = create_temp(o, exists ? (st.st_mode & 07777) : 0);
  if (fd < 0) {
    char *pattern = gl_xasprintf("%s" GL_TMP_TAG "XXXXXX", o->target);
    int err = errno;
    refuse(o, err, "create temp file", pattern);
    free(pattern);
    return GL_EIO;
  }
  o->fp = fdopen(fd, "w");
  if (o->fp) return 0;
  fail(o, errno, "open", o->tmp_path);
  close(fd);
  gl_output_abort(o);
  return GL_EIO;
}

bool gl_output_replaces(const gl_output *o, const char *path) {
  struct stat st;
  return o->replaces && stat(path, &st) == 0 && (unsigned long long)st.st_dev == o->dev &&
         (unsigned long long)st.st_ino == o->ino;
}

void gl_output_write_failed(gl_output *o, int err) {
  fail(o, err ? err : EIO, "write", o->fp == stdout || !o->path ? "<stdout>" : o->path);
}

FILE *gl_output_stream(gl_output *o) { return o->fp; }

static void finish(gl_output *o) {
  forget_tmp();
  free(o->path);
  free(o->target);
  free(o->tmp_path);
  o->path = o->target = o->tmp_path = NULL;
  o->fp = NULL;
}

/* Best effort: makes the rename itself durable. */
static void sync_parent_dir(const char *path) {
  char *dir = parent_dir(path);
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    (void)fsync(fd);
    close(fd);
  }
  free(dir);
}

int gl_output_commit(gl_output *o) {
  if (!o->fp) return 0;
  if (o->fp == stdout) {
    int bad = fflush(stdout) != 0 || ferror(stdout);
    if (bad) fail(o, errno ? errno : EIO, "write", "<stdout>");
    o->fp = NULL;
    return bad ? GL_EIO : 0;
  }
  if (!o->tmp_path) { /* written in place */
    int bad = fflush(o->fp) != 0 || ferror(o->fp);
    int err = errno;
    if (fclose(o->fp) != 0) bad = 1;
    if (bad) fail(o, err ? err : EIO, "write", o->path);
    finish(o);
    return bad ? GL_EIO : 0;
  }
  int err = 0;
  if (fflush(o->fp) != 0 || ferror(o->fp)) err = errno ? errno : EIO;
  if (!err && fsync(fileno(o->fp)) != 0) err = errno;
  if (fclose(o->fp) != 0 && !err) err = errno;
  o->fp = NULL;
  if (!err && rename(o->tmp_path, o->target) != 0) err = errno;
  if (err) {
    fail(o, err, "write", o->path);
    unlink(o->tmp_path);
    finish(o);
    return GL_EIO;
  }
  sync_parent_dir(o->target);
  finish(o);
  return 0;
}

void gl_output_abort(gl_output *o) {
  if (o->fp == stdout) {
    fflush(stdout);
    o->fp = NULL;
    return;
  }
  if (o->fp) fclose(o->fp);
  if (o->tmp_path) unlink(o->tmp_path);
  finish(o);
}
